//! `cutoff tree --html FILE`: the lab's tree search as one self-contained web page. No network
//! is needed to view it: the styles, the script and the drawings are inline, with no external
//! address anywhere.
//!
//! The page is written from the reference search's own [`Event`]s (the ones `--trace` prints,
//! each with its trace line) and embeds them, with the counts, as JSON in
//! `<script type="application/json" id="cutoff-data">`. The script draws and replays only
//! what that JSON says, and the tests read the JSON back: the page cannot disagree with the
//! text output.

use crate::lab::html::json::Json;
use crate::lab::html::{escape, page};
use crate::lab::minimax::{show, Side, Value};
use crate::lab::tree::bracket::{BracketTree, ROOT};
use crate::lab::tree::{pruned_leaves, Event, Observed, Report};
use crate::types::Bound;

const TREE_JS: &str = include_str!("tree.js");

/// A value as a person reads it: `3`, `−2`, `+∞`, `−∞` (the JSON keeps [`show`]'s ASCII).
pub fn pretty(v: Value) -> String {
    show(v)
        .replace("+inf", "+\u{221e}")
        .replace("-inf", "\u{2212}\u{221e}")
        .replace('-', "\u{2212}")
}

/// Which searches the tree page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// Only the search in the written order.
    Written,
    /// The written order and, next to it, the same tree searched best-first (oracle order).
    Oracle,
}

fn value(v: Value) -> Json {
    Json::str(show(v))
}

fn bound_name(bound: Bound) -> &'static str {
    match bound {
        Bound::Exact => "exact",
        Bound::Lower => "lower",
        Bound::Upper => "upper",
    }
}

/// The side to move at `node`: levels alternate from the root's.
fn side_at(tree: &BracketTree, node: usize, root_side: Side) -> Side {
    if tree.nodes[node].depth.is_multiple_of(2) {
        root_side
    } else {
        root_side.other()
    }
}

/// `α = 3 ≥ β = 2 at node 2`: the cut condition as drawn on the page.
pub fn cut_label(tree: &BracketTree, node: usize, alpha: Value, beta: Value) -> String {
    format!(
        "\u{3b1} = {} \u{2265} \u{3b2} = {} at node {}",
        pretty(alpha),
        pretty(beta),
        tree.path(node)
    )
}

/// One event as JSON, with its `--trace` line in `text`.
fn event_json(tree: &BracketTree, e: &Event) -> Json {
    let text = Json::str(e.describe(tree));
    let depth = Json::int(e.indent() as u64);
    match e {
        Event::Enter {
            node,
            side,
            alpha,
            beta,
            ..
        } => Json::obj([
            ("type", Json::str("enter")),
            ("node", Json::int(*node as u64)),
            ("side", Json::str(side.name())),
            ("alpha", value(*alpha)),
            ("beta", value(*beta)),
            ("indent", depth),
            ("text", text),
        ]),
        Event::Leaf { node, value: v, .. } => Json::obj([
            ("type", Json::str("leaf")),
            ("node", Json::int(*node as u64)),
            ("value", value(*v)),
            ("indent", depth),
            ("text", text),
        ]),
        Event::Improve {
            node,
            side,
            old,
            new,
            ..
        } => Json::obj([
            ("type", Json::str("improve")),
            ("node", Json::int(*node as u64)),
            ("side", Json::str(side.name())),
            ("old", value(*old)),
            ("new", value(*new)),
            ("indent", depth),
            ("text", text),
        ]),
        Event::Cutoff {
            node,
            alpha,
            beta,
            skipped,
            ..
        } => Json::obj([
            ("type", Json::str("cutoff")),
            ("node", Json::int(*node as u64)),
            ("alpha", value(*alpha)),
            ("beta", value(*beta)),
            ("skipped", nodes_json(skipped)),
            ("label", Json::str(cut_label(tree, *node, *alpha, *beta))),
            ("indent", depth),
            ("text", text),
        ]),
        Event::Leave {
            node,
            value: v,
            bound,
            ..
        } => Json::obj([
            ("type", Json::str("leave")),
            ("node", Json::int(*node as u64)),
            ("value", value(*v)),
            ("bound", Json::str(bound_name(*bound))),
            ("indent", depth),
            ("text", text),
        ]),
    }
}

fn nodes_json(nodes: &[usize]) -> Json {
    Json::Arr(nodes.iter().map(|&n| Json::int(n as u64)).collect())
}

/// The children of every node in the order `events` tried them: the visited ones as they were
/// entered, then those a cutoff skipped. Nodes the search never expanded keep the written
/// order. Drawn in this order, the tree reads left to right the way the search went.
pub fn search_order(tree: &BracketTree, events: &[Event]) -> Vec<Vec<usize>> {
    let mut parent = vec![usize::MAX; tree.nodes.len()];
    for n in 0..tree.nodes.len() {
        for &c in tree.children(n) {
            parent[c] = n;
        }
    }
    let mut order: Vec<Vec<usize>> = vec![Vec::new(); tree.nodes.len()];
    let mut expanded = vec![false; tree.nodes.len()];
    for e in events {
        match e {
            Event::Enter { node, .. } | Event::Leaf { node, .. } if *node != ROOT => {
                order[parent[*node]].push(*node);
                expanded[parent[*node]] = true;
            }
            Event::Cutoff { node, skipped, .. } => order[*node].extend_from_slice(skipped),
            _ => {}
        }
    }
    for (n, kids) in order.iter_mut().enumerate() {
        if !expanded[n] {
            *kids = tree.children(n).to_vec();
        }
    }
    order
}

/// One search as the page's JSON: counts, cuts, the drawing order and every event.
fn search_json(tree: &BracketTree, key: &str, title: &str, s: &Observed) -> Json {
    let events = s.events.as_deref().unwrap_or(&[]);
    let pruned = pruned_leaves(tree, &s.cuts);
    let c = &s.counters;
    let stats = format!(
        "value {} \u{b7} {} of {} leaves evaluated, {} pruned \u{b7} {} nodes \u{b7} {} cutoffs ({} by the first move)",
        pretty(s.value),
        c.leaves,
        tree.leaf_count(),
        pruned,
        c.nodes,
        c.beta_cutoffs,
        c.first_move_cutoffs
    );
    let cuts = s
        .cuts
        .iter()
        .map(|cut| {
            Json::obj([
                ("node", Json::int(cut.node as u64)),
                ("alpha", value(cut.alpha)),
                ("beta", value(cut.beta)),
                ("skipped", nodes_json(&cut.skipped)),
                (
                    "label",
                    Json::str(cut_label(tree, cut.node, cut.alpha, cut.beta)),
                ),
            ])
        })
        .collect();
    Json::obj([
        ("key", Json::str(key)),
        ("title", Json::str(title)),
        ("stats", Json::str(stats)),
        ("value", value(s.value)),
        ("nodes", Json::int(c.nodes)),
        ("leaves", Json::int(c.leaves)),
        ("pruned_leaves", Json::int(pruned as u64)),
        ("cutoffs", Json::int(c.beta_cutoffs)),
        ("first_move_cutoffs", Json::int(c.first_move_cutoffs)),
        ("cuts", Json::Arr(cuts)),
        (
            "order",
            Json::Arr(
                search_order(tree, events)
                    .iter()
                    .map(|kids| nodes_json(kids))
                    .collect(),
            ),
        ),
        (
            "events",
            Json::Arr(events.iter().map(|e| event_json(tree, e)).collect()),
        ),
    ])
}

/// Everything the tree page shows, as JSON. `report` must have been made with its events
/// recorded.
pub fn tree_data(tree: &BracketTree, root_side: Side, report: &Report, order: Order) -> Json {
    let nodes = (0..tree.nodes.len())
        .map(|n| {
            let leaf = match &tree.nodes[n].kind {
                crate::lab::tree::bracket::Kind::Leaf(v) => value(*v),
                crate::lab::tree::bracket::Kind::Inner(_) => Json::Null,
            };
            Json::obj([
                ("path", Json::str(tree.path(n))),
                ("depth", Json::int(tree.nodes[n].depth as u64)),
                ("side", Json::str(side_at(tree, n, root_side).name())),
                ("leaf", leaf),
                ("leaves", Json::int(tree.nodes[n].leaves as u64)),
                ("children", nodes_json(tree.children(n))),
            ])
        })
        .collect();
    let written = Observed {
        value: report.alphabeta,
        counters: report.alphabeta_counters,
        cuts: report.cuts.clone(),
        events: report.events.clone(),
    };
    let mut searches = vec![search_json(
        tree,
        "written",
        "Alpha-beta, moves in the written order",
        &written,
    )];
    if order == Order::Oracle {
        searches.push(search_json(
            tree,
            "oracle",
            "Alpha-beta, best move first (oracle order)",
            &report.oracle,
        ));
    }
    Json::obj([
        ("kind", Json::str("tree")),
        ("tree", Json::str(tree.to_brackets(ROOT))),
        ("root", Json::str(root_side.name())),
        ("minimax", value(report.minimax)),
        ("minimax_nodes", Json::int(report.minimax_counters.nodes)),
        ("minimax_leaves", Json::int(report.minimax_counters.leaves)),
        ("total_leaves", Json::int(tree.leaf_count() as u64)),
        ("nodes", Json::Arr(nodes)),
        ("searches", Json::Arr(searches)),
    ])
}

/// The static part of the tree page: title, summary, legend and the list of cuts.
fn tree_body(tree: &BracketTree, root_side: Side, report: &Report) -> String {
    let total = tree.leaf_count();
    let c = &report.alphabeta_counters;
    let verdict = if report.minimax == report.alphabeta {
        r#"<span class="ok">alpha-beta = minimax</span>"#.to_string()
    } else {
        r#"<span class="bad">MISMATCH: alpha-beta &ne; minimax</span>"#.to_string()
    };
    let brackets = tree.to_brackets(ROOT);
    let shown = if brackets.chars().count() > 160 {
        format!("{}\u{2026}", brackets.chars().take(160).collect::<String>())
    } else {
        brackets
    };
    let mut cuts = String::new();
    for cut in report.cuts.iter().filter(|c| !c.skipped.is_empty()) {
        cuts.push_str(&format!(
            "<li>{}: skipped {}</li>\n",
            escape(&cut_label(tree, cut.node, cut.alpha, cut.beta)),
            escape(&crate::lab::tree::describe_skipped(tree, &cut.skipped))
        ));
    }
    if cuts.is_empty() {
        cuts.push_str("<li>nothing was pruned</li>\n");
    }
    format!(
        r##"<h1>Alpha-beta on a game tree</h1>
<div class="mono">{tree_text}</div>
<div class="summary">
<span>root: <b>{root}</b></span>
<span>minimax value: <b id="minimax-value">{minimax}</b></span>
<span>alpha-beta value: <b id="alphabeta-value">{alphabeta}</b></span>
<span>leaves evaluated: <b id="leaves-evaluated">{leaves}</b> of <b id="leaves-total">{total}</b> (<span id="leaves-pruned">{pruned}</span> pruned)</span>
<span>cutoffs: <b>{cutoffs}</b></span>
<span>{verdict}</span>
</div>
<div class="legend">
<svg width="20" height="18"><polygon class="n-max" points="10,2 1,16 19,16"/></svg> MAX (raises &alpha;)
&nbsp; <svg width="20" height="18"><polygon class="n-min" points="10,16 1,2 19,2"/></svg> MIN (lowers &beta;)
&nbsp; <svg width="26" height="18"><rect class="n-leaf" x="1" y="2" width="24" height="14" rx="3"/></svg> leaf
&nbsp; small number: visit order &nbsp;
<svg width="26" height="18"><rect x="1" y="2" width="24" height="14" rx="3" fill="#e6e6e6" stroke="#b0b0b0" stroke-dasharray="3 2"/></svg> pruned (never searched)
&nbsp; <span style="color:#c62828">red</span>: the cut, &alpha; &ge; &beta;
&nbsp; &le;/&ge; before a value: fail-hard bound
</div>
<p class="hint">Step through the search with the buttons or the arrow keys (&larr; &rarr;, Home, End; + and &minus; zoom) of the panel last clicked; click an inner node to fold its subtree.</p>
<div id="panels" class="panels"></div>
<h2>Pruned, in the written order</h2>
<ul class="cuts">
{cuts}</ul>
"##,
        tree_text = escape(&shown),
        root = root_side.name(),
        minimax = escape(&pretty(report.minimax)),
        alphabeta = escape(&pretty(report.alphabeta)),
        leaves = c.leaves,
        pruned = pruned_leaves(tree, &report.cuts),
        cutoffs = c.beta_cutoffs,
    )
}

/// The `cutoff tree --html` page. `report` must have been made with its events recorded.
pub fn tree_page(tree: &BracketTree, root_side: Side, report: &Report, order: Order) -> String {
    page(
        "cutoff tree: alpha-beta",
        &tree_body(tree, root_side, report),
        &tree_data(tree, root_side, report, order),
        TREE_JS,
    )
}
