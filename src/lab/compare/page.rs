//! `cutoff compare --html FILE`: the modes table of every depth, the cost curve with the
//! minimal-tree line, the board and the principal line in SAN, as one self-contained page.
//!
//! The numbers are the very [`DepthResults`] the text tables are printed from, embedded as
//! JSON (`#cutoff-data`) next to the tables made from them, so the page and the text agree.

use std::fmt::Write as _;

use shakmaty::{Chess, Color, Position, Square};

use super::plot::svg_plot;
use super::table::DepthTable;
use super::{DepthResults, Line, ValuedMove};
use crate::lab::html::board::{coordinates, glyph, ink};
use crate::lab::html::json::Json;
use crate::lab::html::{escape, page};
use crate::lab::minimax::Counters;

/// The board as plain SVG, White at the bottom, pieces as chess glyphs.
pub fn board_svg(pos: &Chess) -> String {
    const SQ: u32 = 42;
    let mut svg = format!(
        r#"<svg class="board" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, sans-serif">"#,
        w = SQ * 8 + 18,
        h = SQ * 8 + 18
    );
    for rank in 0..8u32 {
        for file in 0..8u32 {
            let (x, y) = (18 + file * SQ, (7 - rank) * SQ);
            let light = (rank + file) % 2 == 1;
            let fill = if light { "#f0d9b5" } else { "#b58863" };
            let _ = write!(
                svg,
                r#"<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{fill}"/>"#
            );
            let sq = Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
            if let Some(piece) = pos.board().piece_at(sq) {
                let (fill, stroke) = ink(piece.color);
                let _ = write!(
                    svg,
                    r#"<text x="{}" y="{}" font-size="34" text-anchor="middle" fill="{fill}" stroke="{stroke}" stroke-width="1.2">{}<title>{piece:?} on {sq}</title></text>"#,
                    x + SQ / 2,
                    y + SQ - 9,
                    glyph(piece),
                );
            }
        }
    }
    svg.push_str(&coordinates(SQ as usize, 12));
    svg.push_str("</svg>");
    svg
}

fn counters_json(c: &Counters) -> Json {
    let share = if c.beta_cutoffs == 0 {
        Json::Null
    } else {
        Json::Float(c.first_move_cutoffs as f64 / c.beta_cutoffs as f64)
    };
    Json::obj([
        ("nodes", Json::int(c.nodes)),
        ("leaves", Json::int(c.leaves)),
        ("cutoffs", Json::int(c.beta_cutoffs)),
        ("first_move_cutoffs", Json::int(c.first_move_cutoffs)),
        ("first_move_share", share),
    ])
}

/// All the page's numbers as JSON.
pub fn compare_data(
    fen: &str,
    pos: &Chess,
    all: &[DepthResults],
    tables: &[DepthTable],
    line: &Line,
) -> Json {
    let b = pos.legal_moves().len();
    let depths = all
        .iter()
        .zip(tables)
        .map(|(r, t)| {
            let modes = r
                .results
                .iter()
                .map(|m| {
                    Json::obj([
                        ("mode", Json::str(m.mode.short())),
                        ("label", Json::str(m.mode.label())),
                        ("value", Json::int(m.value.0)),
                        ("value_text", Json::str(m.value.to_string())),
                        ("counters", counters_json(&m.counters)),
                        (
                            "last_iteration",
                            m.last_iteration.as_ref().map_or(Json::Null, counters_json),
                        ),
                    ])
                })
                .collect();
            Json::obj([
                ("depth", Json::int(r.depth)),
                ("modes", Json::Arr(modes)),
                ("agree", Json::Bool(r.mismatches().is_empty())),
                ("minimal_tree_leaves", Json::Float(t.minimal_leaves.round())),
                ("average_branching", Json::Float(t.average_branching)),
                (
                    "minimal_tree_leaves_average",
                    Json::Float(t.minimal_leaves_average.round()),
                ),
            ])
        })
        .collect();
    let root_moves = line
        .root_moves
        .iter()
        .map(|m| {
            Json::obj([
                ("san", Json::str(&m.san)),
                ("value", Json::int(m.value.0)),
                ("value_text", Json::str(m.value.to_string())),
            ])
        })
        .collect();
    Json::obj([
        ("kind", Json::str("compare")),
        ("fen", Json::str(fen)),
        ("side_to_move", Json::str(pos.turn().to_string())),
        ("root_moves", Json::int(b as u64)),
        ("depths", Json::Arr(depths)),
        (
            "principal",
            Json::obj([
                ("depth", Json::int(line.depth)),
                ("root_moves", Json::Arr(root_moves)),
                (
                    "line",
                    Json::Arr(line.line.iter().map(|s| Json::str(s.as_str())).collect()),
                ),
            ]),
        ),
    ])
}

/// The position: board, FEN, and the principal line with the root moves' values.
fn position_html(fen: &str, pos: &Chess, line: &Line) -> String {
    let item = |m: &ValuedMove| {
        format!(
            "<li><b>{}</b> {}</li>",
            escape(&m.san),
            escape(&m.value.to_string())
        )
    };
    // The best few in view; the rest folded, so a 40-move list does not push the tables away.
    const SHOWN: usize = 8;
    let top: Vec<String> = line.root_moves.iter().take(SHOWN).map(item).collect();
    let mut moves = format!("<ol class=\"mono root-moves\">{}</ol>", top.join(""));
    if line.root_moves.len() > SHOWN {
        let rest: Vec<String> = line.root_moves.iter().skip(SHOWN).map(item).collect();
        let _ = write!(
            moves,
            "<details><summary>{} more</summary><ol class=\"mono root-moves\" start=\"{}\">{}</ol></details>",
            rest.len(),
            SHOWN + 1,
            rest.join("")
        );
    }
    format!(
        "<div class=\"board-row\">\n<div>{}</div>\n<div>\n<p class=\"mono\">{}</p>\n<p>{} to move, {} legal moves. Values are from its point of view, in centipawns (<code>cp</code>) or moves to mate.</p>\n<p>Principal line at depth {}: <b id=\"principal-line\" class=\"mono\">{}</b></p>\n<p>Root moves by exact value at depth {}:</p>\n{}\n</div>\n</div>\n",
        board_svg(pos),
        escape(fen),
        match pos.turn() {
            Color::White => "White",
            Color::Black => "Black",
        },
        pos.legal_moves().len(),
        line.depth,
        escape(&line.line.join(" ")),
        line.depth,
        moves
    )
}

/// The `cutoff compare --html` page.
pub fn compare_page(fen: &str, pos: &Chess, all: &[DepthResults], line: &Line) -> String {
    let mut body =
        String::from("<h1>Alpha-beta on a chess position: minimax against four move orders</h1>\n");
    body.push_str(&position_html(fen, pos, line));
    body.push_str("<p class=\"note\">Every mode searches the same fixed-depth tree (no quiescence, no extensions) and must return minimax's value; what differs is how much of the tree it needs. <i>ID + hash move</i> counts the nodes of all iterations 1..d; <i>oracle</i> (children sorted by their exact value, computed and not counted) only its final pass. The first-move share is the fraction of cutoffs made by the first move searched.</p>\n");
    body.push_str("<h2>Cost over depth</h2>\n");
    // Inline SVG needs no namespace declaration, and the page carries no address at all.
    body.push_str(
        &svg_plot(fen, pos.legal_moves().len(), all)
            .replace(r#" xmlns="http://www.w3.org/2000/svg""#, ""),
    );
    let tables: Vec<DepthTable> = all.iter().map(|r| DepthTable::new(pos, r)).collect();
    for table in &tables {
        body.push_str(&table.html());
    }
    page(
        "cutoff compare: alpha-beta on a chess position",
        &body,
        &compare_data(fen, pos, all, &tables, line),
        "",
    )
}
