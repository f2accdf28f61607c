//! One depth's table of `cutoff compare`: its rows and its closing lines computed once
//! ([`DepthTable::new`]), then written as the text the command prints ([`DepthTable::text`]) or
//! as the HTML of its page ([`DepthTable::html`]), so that the two cannot count differently.

use std::fmt::Write as _;
use std::time::Duration;

use shakmaty::{Chess, Position};

use super::chess::{minimal_tree_leaves, Mode};
use super::{format_time, DepthResults};
use crate::lab::html::escape;
use crate::lab::minimax::Counters;
use crate::types::{Depth, Score};

/// One row: a mode's own, or under iterative deepening's row the counts of its last iteration.
#[derive(Clone, Debug)]
pub struct Row {
    pub mode: Mode,
    /// The last iteration's row under [`Mode::HashMoveId`]'s (no value, no time of its own).
    pub sub: bool,
    pub value: Option<Score>,
    pub counters: Counters,
    /// The nodes as a share of minimax's (`None` when minimax counted none).
    pub of_minimax: Option<f64>,
    /// The nodes over the oracle's.
    pub over_oracle: f64,
    /// The cutoffs and the first move's share of them; `None` for minimax, which cuts nothing.
    pub cutoffs: Option<(u64, Option<f64>)>,
    pub time: Option<Duration>,
}

/// A depth's table: the rows, the minimal tree beside them, and the verdict.
#[derive(Clone, Debug)]
pub struct DepthTable {
    pub depth: Depth,
    pub rows: Vec<Row>,
    /// The root's legal moves, the `b` of the minimal tree.
    pub root_moves: usize,
    /// Knuth and Moore's minimal tree, in leaves, with `b` the root moves.
    pub minimal_leaves: f64,
    /// Minimax's leaves to the power 1/depth.
    pub average_branching: f64,
    /// The minimal tree with `b` the average branching.
    pub minimal_leaves_average: f64,
    /// Minimax's value.
    pub value: Score,
    /// The modes whose value differs from minimax's, with that value.
    pub mismatches: Vec<(Mode, Score)>,
}

/// `part` as a share of `whole`, `None` for a whole of nothing.
fn share(part: u64, whole: u64) -> Option<f64> {
    (whole != 0).then(|| 100.0 * part as f64 / whole as f64)
}

impl Row {
    fn new(mode: Mode, sub: bool, c: &Counters, r: &DepthResults) -> Row {
        let minimax = r.get(Mode::Minimax).counters.nodes;
        let oracle = r.get(Mode::Oracle).counters.nodes;
        let cutoffs = (sub || mode != Mode::Minimax)
            .then(|| (c.beta_cutoffs, share(c.first_move_cutoffs, c.beta_cutoffs)));
        Row {
            mode,
            sub,
            value: None,
            counters: *c,
            of_minimax: share(c.nodes, minimax),
            over_oracle: c.nodes as f64 / oracle.max(1) as f64,
            cutoffs,
            time: None,
        }
    }

    /// The row's label: the mode's, or for the last iteration what it is part of.
    fn label(&self, depth: Depth) -> String {
        if self.sub {
            format!("of which the depth-{depth} iteration")
        } else {
            self.mode.label().to_string()
        }
    }
}

impl DepthTable {
    /// The table of the runs `r` from `pos`.
    pub fn new(pos: &Chess, r: &DepthResults) -> DepthTable {
        let mut rows = Vec::new();
        for m in &r.results {
            rows.push(Row {
                value: Some(m.value),
                time: Some(m.time),
                ..Row::new(m.mode, false, &m.counters, r)
            });
            if let Some(last) = &m.last_iteration {
                rows.push(Row::new(m.mode, true, last, r));
            }
        }
        let root_moves = pos.legal_moves().len();
        let depth = r.depth as u32;
        let average_branching =
            (r.get(Mode::Minimax).counters.leaves as f64).powf(1.0 / f64::from(r.depth));
        DepthTable {
            depth: r.depth,
            rows,
            root_moves,
            minimal_leaves: minimal_tree_leaves(root_moves as f64, depth),
            average_branching,
            minimal_leaves_average: minimal_tree_leaves(average_branching, depth),
            value: r.get(Mode::Minimax).value,
            mismatches: r
                .mismatches()
                .into_iter()
                .map(|m| (m, r.get(m).value))
                .collect(),
        }
    }

    /// How many modes the table compares.
    fn modes(&self) -> usize {
        self.rows.iter().filter(|row| !row.sub).count()
    }

    /// The table as `cutoff compare` prints it: a header, a row a line, the minimal tree and
    /// the verdict.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let depth = self.depth;
        let _ = writeln!(out, "depth: {depth}");
        let _ = writeln!(
            out,
            "{:<34} {:>10} {:>11} {:>11} {:>9} {:>8} {:>9} {:>9} {:>10}",
            "mode",
            "value",
            "nodes",
            "leaves",
            "%minimax",
            "xoracle",
            "cutoffs",
            "1st-move",
            "time"
        );
        for row in &self.rows {
            text_row(&mut out, row, depth);
        }
        let _ = writeln!(
            out,
            "minimal tree b^ceil(d/2)+b^floor(d/2)-1: {:.0} leaves with b={} root moves, {:.0} with average branching b={:.2}",
            self.minimal_leaves, self.root_moves, self.minimal_leaves_average, self.average_branching,
        );
        let value = self.value;
        if self.mismatches.is_empty() {
            let _ = writeln!(
                out,
                "verdict: ok, all {} modes return minimax's value {value}",
                self.modes()
            );
        } else {
            let names: Vec<String> = self
                .mismatches
                .iter()
                .map(|(m, v)| format!("{} = {v}", m.label()))
                .collect();
            let _ = writeln!(
                out,
                "verdict: MISMATCH, minimax = {value} but {}",
                names.join(", ")
            );
        }
        out
    }

    /// The table as its page shows it: like the text without the timings.
    pub fn html(&self) -> String {
        let mut out = format!(
            "<h2>Depth {}</h2>\n<table class=\"modes\" data-depth=\"{}\">\n<tr><th>mode</th><th>value</th><th>nodes</th><th>leaves</th><th>% of minimax</th><th>&times; oracle</th><th>cutoffs</th><th>first-move share</th></tr>\n",
            self.depth, self.depth
        );
        for row in &self.rows {
            html_row(&mut out, row, self.depth);
        }
        out.push_str("</table>\n");
        let _ = writeln!(
            out,
            "<p class=\"note\">Minimal tree (Knuth&ndash;Moore, b<sup>&lceil;d/2&rceil;</sup> + b<sup>&lfloor;d/2&rfloor;</sup> &minus; 1): {:.0} leaves with b = {} root moves, {:.0} with the average branching b = {:.2}. {}</p>",
            self.minimal_leaves,
            self.root_moves,
            self.minimal_leaves_average,
            self.average_branching,
            if self.mismatches.is_empty() {
                format!("<span class=\"ok\">All {} modes return minimax's value.</span>", self.modes())
            } else {
                "<span class=\"bad\">MISMATCH: a mode returned a different value from minimax.</span>".to_string()
            }
        );
        out
    }
}

fn text_row(out: &mut String, row: &Row, depth: Depth) {
    let label = if row.sub {
        format!("  {}", row.label(depth))
    } else {
        row.label(depth)
    };
    let value = row.value.map_or(String::new(), |v| v.to_string());
    let percent = |s: Option<f64>| s.map_or("-".to_string(), |s| format!("{s:.2}%"));
    let (cutoffs, first) = match row.cutoffs {
        Some((n, first)) => (n.to_string(), percent(first)),
        None => ("-".to_string(), "-".to_string()),
    };
    let time = row.time.map_or(String::new(), format_time);
    let c = &row.counters;
    let _ = writeln!(
        out,
        "{label:<34} {value:>10} {:>11} {:>11} {:>9} {:>8} {cutoffs:>9} {first:>9} {time:>10}",
        c.nodes,
        c.leaves,
        percent(row.of_minimax),
        format!("{:.2}x", row.over_oracle),
    );
}

fn html_row(out: &mut String, row: &Row, depth: Depth) {
    let percent = |s: Option<f64>| s.map_or("&ndash;".to_string(), |s| format!("{s:.1}%"));
    let (cutoffs, first) = match row.cutoffs {
        Some((n, first)) => (n.to_string(), percent(first)),
        None => ("&ndash;".to_string(), "&ndash;".to_string()),
    };
    let value = row.value.map_or(String::new(), |v| v.to_string());
    let c = &row.counters;
    let _ = writeln!(
        out,
        "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2}&times;</td><td>{cutoffs}</td><td>{first}</td></tr>",
        if row.sub { "sub" } else { "" },
        escape(&row.label(depth)),
        escape(&value),
        c.nodes,
        c.leaves,
        percent(row.of_minimax),
        row.over_oracle,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::compare::compare_depth;

    /// The value, nodes, leaves and cutoffs of each row, as the text writes them and as the
    /// HTML does (the shares are rounded differently; a dash is a dash).
    fn cells(table: &DepthTable) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
        let text = table.text();
        let text_rows = text
            .lines()
            .skip(2)
            .take(table.rows.len())
            .map(|line| {
                let rest: Vec<&str> = line[45..].split_whitespace().collect();
                [line[35..45].trim(), rest[0], rest[1], rest[4]]
                    .map(String::from)
                    .to_vec()
            })
            .collect();
        let html = table.html().replace("&ndash;", "-");
        let html_rows = html
            .lines()
            .filter(|l| l.starts_with("<tr class="))
            .map(|line| {
                let cells: Vec<&str> = line
                    .split("<td>")
                    .skip(1)
                    .map(|c| c.split("</td>").next().unwrap_or_default())
                    .collect();
                [cells[1], cells[2], cells[3], cells[6]]
                    .map(String::from)
                    .to_vec()
            })
            .collect();
        (text_rows, html_rows)
    }

    /// The text table and the page's table are written from one [`DepthTable`]: row for row
    /// they show the same value, nodes, leaves and cutoffs.
    #[test]
    fn the_text_and_html_tables_show_the_same_rows() {
        let pos = Chess::default();
        let r = compare_depth(&pos, 2, &indicatif::ProgressBar::hidden());
        let table = DepthTable::new(&pos, &r);
        let (text, html) = cells(&table);
        assert_eq!(text.len(), 6, "{}", table.text());
        assert_eq!(text, html, "{}\n{}", table.text(), table.html());
    }
}
