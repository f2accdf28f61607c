//! The reference minimax and alpha-beta on bracket trees: textbook trees checked by hand,
//! random trees checked against minimax, parse errors, and the `cutoff tree` output.

use std::process::Command;

use cutoff::lab::minimax::{
    minimax, AlphaBeta, Counters, GameTree, GenerationOrder, MoveOrder, OracleOrder, Side, Silent,
    Value, INF,
};
use cutoff::lab::tree::bracket::{BracketTree, ROOT};
use cutoff::lab::tree::{analyse, Report};
use proptest::prelude::*;

fn tree(text: &str) -> BracketTree {
    BracketTree::parse(text).unwrap()
}

/// The pruned subtrees of a report as (cut node, first..last skipped path, leaves, α, β).
fn pruned(t: &BracketTree, r: &Report) -> Vec<(String, Vec<String>, usize, Value, Value)> {
    r.cuts
        .iter()
        .filter(|c| !c.skipped.is_empty())
        .map(|c| {
            (
                t.path(c.node),
                c.skipped.iter().map(|&n| t.path(n)).collect(),
                c.skipped.iter().map(|&n| t.nodes[n].leaves).sum(),
                c.alpha,
                c.beta,
            )
        })
        .collect()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------------------------
// Textbook trees, worked by hand.

#[test]
fn classic_three_by_three_is_worth_3_and_prunes_leaves_2_2_and_2_3() {
    // Root MAX over three MIN nodes: min(3,12,8)=3, min(2,4,6)=2, min(14,5,2)=2; max = 3.
    // Alpha-beta: node 1 is searched fully (alpha becomes 3). Node 2's first leaf 2 lowers its
    // beta to 2 <= alpha 3: 2.2 and 2.3 are skipped. Node 3 sees 14, 5, then 2, and only the
    // last leaf brings beta to 2 <= 3: a cutoff with nothing left to skip. 9 - 2 = 7 leaves.
    let t = tree("[[3,12,8],[2,4,6],[14,5,2]]");
    let r = analyse(&t, Side::Max, false);
    assert_eq!((r.minimax, r.alphabeta), (3, 3));
    assert_eq!(r.minimax_counters.leaves, 9);
    assert_eq!(r.minimax_counters.nodes, 13);
    assert_eq!(r.alphabeta_counters.leaves, 7);
    assert_eq!(
        pruned(&t, &r),
        vec![("2".to_string(), strings(&["2.2", "2.3"]), 2, 3, 2)]
    );
    // Two cutoffs (nodes 2 and 3); only node 2's was made by its first move.
    assert_eq!(r.alphabeta_counters.beta_cutoffs, 2);
    assert_eq!(r.alphabeta_counters.first_move_cutoffs, 1);
}

#[test]
fn classic_three_by_three_with_a_min_root_is_worth_6() {
    // Root MIN over MAX nodes: max(3,12,8)=12, max(2,4,6)=6, max(14,5,2)=14; min = 6.
    // Beta is 12 after node 1 and 6 after node 2; node 3's first leaf 14 raises its alpha to
    // 14 >= 6, so 3.2 and 3.3 are skipped.
    let t = tree("[[3,12,8],[2,4,6],[14,5,2]]");
    let r = analyse(&t, Side::Min, false);
    assert_eq!((r.minimax, r.alphabeta), (6, 6));
    assert_eq!(r.alphabeta_counters.leaves, 7);
    assert_eq!(
        pruned(&t, &r),
        vec![("3".to_string(), strings(&["3.2", "3.3"]), 2, 14, 6)]
    );
}

#[test]
fn depth_three_binary_tree_prunes_a_leaf_and_a_whole_subtree() {
    // MAX / MIN / MAX / leaves:
    //   1 = min(max(3,5), max(6,9)) = min(5, 9) = 5;  2 = min(max(1,2), max(0,-1)) = 0;  root 5.
    // Alpha-beta:
    //   1.1 gives 5, so node 1 has beta 5; at 1.2 the leaf 6 raises alpha to 6 >= 5: 1.2.2 is
    //   skipped (1 leaf). Root alpha becomes 5.
    //   Node 2 gets (5, +inf); 2.1 sees 1 and 2, neither beats alpha 5, and fails low
    //   returning 5 (fail-hard). Node 2's beta drops to 5: alpha 5 >= beta 5 — a tie is
    //   enough — and 2.2 (2 leaves) is skipped. 8 - 3 = 5 leaves.
    let t = tree("[[[3,5],[6,9]],[[1,2],[0,-1]]]");
    let r = analyse(&t, Side::Max, false);
    assert_eq!((r.minimax, r.alphabeta), (5, 5));
    assert_eq!(r.alphabeta_counters.leaves, 5);
    assert_eq!(
        pruned(&t, &r),
        vec![
            ("1.2".to_string(), strings(&["1.2.2"]), 1, 6, 5),
            ("2".to_string(), strings(&["2.2"]), 2, 5, 5),
        ]
    );
}

#[test]
fn ragged_tree_counts_skipped_leaves_of_whole_subtrees() {
    // Root MAX: 1 = leaf 4; 2 = MIN over (leaf 1, [7,[8,9]], 3) ; 3 = MIN over ([5,6], 2).
    // Leaves: 4 | 1, 7, 8, 9, 3 | 5, 6, 2 — nine of them.
    //   2 = min(1, max(7, min(8,9)=8)=8, 3) = 1;  3 = min(max(5,6)=6, 2) = 2;  root = max(4,1,2) = 4.
    // Alpha-beta: alpha 4 after leaf 1. Node 2's first leaf 1 <= 4: cut, skipping 2.2 (a
    // subtree of 3 leaves) and 2.3 (1 leaf): 4 leaves. Node 3 gets (4, +inf); 3.1 is MAX and
    // returns 6 (5 then 6), beta 6 > 4; leaf 3.2 = 2 brings beta to 2 <= 4, the last move.
    // Evaluated: 4, 1, 5, 6, 2 — 9 - 4 = 5 leaves.
    let t = tree("[4, [1, [7, [8, 9]], 3], [[5, 6], 2]]");
    let r = analyse(&t, Side::Max, false);
    assert_eq!(t.leaf_count(), 9);
    assert_eq!((r.minimax, r.alphabeta), (4, 4));
    assert_eq!(r.alphabeta_counters.leaves, 5);
    assert_eq!(
        pruned(&t, &r),
        vec![("2".to_string(), strings(&["2.2", "2.3"]), 4, 4, 1)]
    );
}

#[test]
fn a_single_leaf_is_its_own_value() {
    let r = analyse(&tree("-7"), Side::Max, false);
    assert_eq!((r.minimax, r.alphabeta), (-7, -7));
    assert_eq!(r.alphabeta_counters.leaves, 1);
    assert!(r.cuts.is_empty());
}

#[test]
fn oracle_order_is_not_always_cheapest_when_subtrees_differ_in_size() {
    // Root MAX: node 1 gives alpha 5. Node 2 (MIN) must show a reply <= 5. Its worse reply 2.1
    // (value 4) is proved by one leaf; its best reply 2.2 (value 0) needs all three leaves
    // under it, since each must be seen to be <= 5. Generation order evaluates 1 + 1 = 2
    // leaves; oracle order puts 2.2 first and evaluates 1 + 3 = 4. So "oracle <= any order"
    // holds for uniform trees (Knuth-Moore), not when subtrees differ in size.
    let t = tree("[[[5]],[[4],[0,0,0]]]");
    let r = analyse(&t, Side::Max, false);
    assert_eq!(r.alphabeta, 5);
    assert_eq!(r.alphabeta_counters.leaves, 2);
    assert_eq!(r.oracle_counters.leaves, 4);
}

// ---------------------------------------------------------------------------------------------
// Random trees.

/// Children in a pseudo-random order (xorshift; the seed comes from proptest).
struct Shuffled(u64);

impl MoveOrder<BracketTree> for Shuffled {
    fn order(&mut self, _: &BracketTree, _: &usize, _: Side, moves: &mut Vec<usize>) {
        for i in (1..moves.len()).rev() {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            moves.swap(i, (self.0 % (i as u64 + 1)) as usize);
        }
    }
}

fn alphabeta<T: GameTree>(
    tree: &T,
    root: &T::Node,
    side: Side,
    order: &mut dyn MoveOrder<T>,
    window: (Value, Value),
) -> (Value, Counters) {
    let mut silent = Silent;
    let mut search = AlphaBeta::new(tree, order, &mut silent);
    let v = search.search(root, 0, side, window.0, window.1);
    (v, search.counters)
}

fn side(min_root: bool) -> Side {
    if min_root {
        Side::Min
    } else {
        Side::Max
    }
}

/// Ragged trees: each element is a leaf or a list of 1..=4 elements, up to 6 levels deep.
/// Small leaf values make ties (and cutoffs on equality) common.
fn ragged_tree() -> impl Strategy<Value = String> {
    (-9i64..=9)
        .prop_map(|v| v.to_string())
        .prop_recursive(6, 300, 4, |inner| {
            prop::collection::vec(inner, 1..=4).prop_map(|v| format!("[{}]", v.join(",")))
        })
}

/// Uniform trees: every inner node has `b` children and every leaf is at depth `d`.
/// Yields the tree with its `b` and `d`.
fn uniform_tree() -> impl Strategy<Value = (String, usize, u32)> {
    (1usize..=4, 1u32..=5)
        .prop_filter("at most 1024 leaves", |&(b, d)| b.pow(d) <= 1024)
        .prop_flat_map(|(b, d)| {
            prop::collection::vec(-20i64..=20, b.pow(d)).prop_map(move |leaves| {
                fn build(b: usize, d: u32, leaves: &mut impl Iterator<Item = i64>) -> String {
                    if d == 0 {
                        return leaves.next().unwrap().to_string();
                    }
                    let children: Vec<String> = (0..b).map(|_| build(b, d - 1, leaves)).collect();
                    format!("[{}]", children.join(", "))
                }
                (build(b, d, &mut leaves.into_iter()), b, d)
            })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn alphabeta_equals_minimax_and_never_evaluates_more_leaves(
        text in ragged_tree(), min_root: bool,
    ) {
        let t = tree(&text);
        let r = analyse(&t, side(min_root), false);
        prop_assert_eq!(r.alphabeta, r.minimax);
        prop_assert!(r.alphabeta_counters.leaves <= r.minimax_counters.leaves);
        prop_assert!(r.alphabeta_counters.nodes <= r.minimax_counters.nodes);
        prop_assert_eq!(r.minimax_counters.leaves as usize, t.leaf_count());
        prop_assert!(r.alphabeta_counters.first_move_cutoffs <= r.alphabeta_counters.beta_cutoffs);
    }

    #[test]
    fn evaluated_plus_pruned_leaves_is_every_leaf(text in ragged_tree(), min_root: bool) {
        // Each leaf is either evaluated or lies in exactly one skipped subtree.
        let t = tree(&text);
        let r = analyse(&t, side(min_root), false);
        let skipped: usize = r.cuts.iter().flat_map(|c| &c.skipped).map(|&n| t.nodes[n].leaves).sum();
        prop_assert_eq!(r.alphabeta_counters.leaves as usize + skipped, t.leaf_count());
    }

    #[test]
    fn every_cut_fired_with_alpha_at_least_beta(text in ragged_tree(), min_root: bool) {
        let t = tree(&text);
        let r = analyse(&t, side(min_root), false);
        for cut in &r.cuts {
            prop_assert!(cut.alpha >= cut.beta);
        }
        prop_assert_eq!(r.cuts.len() as u64, r.alphabeta_counters.beta_cutoffs);
    }

    #[test]
    fn fail_hard_alphabeta_returns_minimax_clamped_to_the_window(
        text in ragged_tree(), min_root: bool, a in -12i64..=12, width in 1i64..=12,
    ) {
        let t = tree(&text);
        let s = side(min_root);
        let exact = minimax(&t, &ROOT, s, &mut Counters::default());
        let (v, _) = alphabeta(&t, &ROOT, s, &mut GenerationOrder, (a, a + width));
        if t.children(ROOT).is_empty() {
            prop_assert_eq!(v, exact); // a lone leaf is returned as it is
        } else {
            prop_assert_eq!(v, exact.clamp(a, a + width));
        }
    }

    #[test]
    fn any_move_order_gives_the_minimax_value(text in ragged_tree(), min_root: bool, seed in 1u64..) {
        let t = tree(&text);
        let s = side(min_root);
        let exact = minimax(&t, &ROOT, s, &mut Counters::default());
        let (v, _) = alphabeta(&t, &ROOT, s, &mut Shuffled(seed), (-INF, INF));
        prop_assert_eq!(v, exact);
    }

    #[test]
    fn oracle_order_evaluates_fewest_leaves_on_uniform_trees(
        (text, b, d) in uniform_tree(), min_root: bool, seeds in prop::collection::vec(1u64.., 5),
    ) {
        let t = tree(&text);
        let s = side(min_root);
        let mut oracle = OracleOrder {
            exact: |n: &usize, side: Side| minimax(&t, n, side, &mut Counters::default()),
        };
        let (v, best) = alphabeta(&t, &ROOT, s, &mut oracle, (-INF, INF));
        let (g, generation) = alphabeta(&t, &ROOT, s, &mut GenerationOrder, (-INF, INF));
        prop_assert_eq!(v, g);
        prop_assert!(best.leaves <= generation.leaves);
        // Knuth-Moore: any exact algorithm sees at least b^ceil(d/2) + b^floor(d/2) - 1
        // leaves of a uniform tree (a proof for MAX and one for MIN, sharing one leaf), and
        // best-first alpha-beta sees exactly that many, ties or not.
        let minimal = b.pow(d.div_ceil(2)) + b.pow(d / 2) - 1;
        prop_assert_eq!(best.leaves as usize, minimal);
        for seed in seeds {
            let (_, shuffled) = alphabeta(&t, &ROOT, s, &mut Shuffled(seed), (-INF, INF));
            prop_assert!(best.leaves <= shuffled.leaves, "oracle {} > shuffled {}", best.leaves, shuffled.leaves);
        }
    }

    #[test]
    fn parsing_ignores_whitespace_and_round_trips(text in ragged_tree()) {
        let t = tree(&text);
        let spaced = text.replace(',', " ,\n ").replace('[', "[ \t");
        prop_assert_eq!(tree(&spaced).to_brackets(ROOT), t.to_brackets(ROOT));
        prop_assert_eq!(t.to_brackets(ROOT), text.replace(' ', ""));
    }
}

#[test]
fn oracle_order_reaches_the_knuth_moore_minimal_tree_with_distinct_leaves() {
    // 3 x 3 x 3, distinct leaves: the minimal tree has 3^2 + 3^1 - 1 = 11 leaves.
    let leaves: Vec<String> = (0..27).map(|i| ((i * 7) % 27).to_string()).collect();
    let text = format!(
        "[{}]",
        (0..3)
            .map(|i| format!(
                "[{}]",
                (0..3)
                    .map(|j| format!("[{}]", leaves[9 * i + 3 * j..9 * i + 3 * j + 3].join(",")))
                    .collect::<Vec<_>>()
                    .join(",")
            ))
            .collect::<Vec<_>>()
            .join(",")
    );
    let r = analyse(&tree(&text), Side::Max, false);
    assert_eq!(r.oracle_counters.leaves, 11);
}

// ---------------------------------------------------------------------------------------------
// Malformed trees.

#[test]
fn malformed_trees_are_errors_at_the_right_column() {
    let cases = [
        ("[[3,12,8],[2,4 6]]", 16, "expected ',' or ']'"),
        ("[3,,4]", 4, "expected a number or '['"),
        ("[3,12", 6, "end of input"),
        ("[3, x]", 5, "expected a number or '['"),
        ("[3,[]]", 4, "empty list"),
        ("[1,2]]", 6, "after the end of the tree"),
        ("[1,- 2]", 5, "expected a digit after '-'"),
        ("   ", 4, "end of input"),
        ("[1, 12345678901234567]", 5, "out of range"),
        ("[é,1]", 2, "expected a number or '['"),
    ];
    for (input, column, message) in cases {
        let err = BracketTree::parse(input).unwrap_err();
        assert_eq!(err.column, column, "{input:?}: {err}");
        assert!(err.message.contains(message), "{input:?}: {err}");
    }
}

// ---------------------------------------------------------------------------------------------
// The `cutoff tree` command.

fn cutoff(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .output()
        .expect("run cutoff");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn tree_command_prints_values_leaf_counts_and_pruned_paths() {
    let (code, out, _) = cutoff(&["tree", "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    for expected in [
        "minimax: 3",
        "minimax leaves: 9",
        "alphabeta: 3",
        "alphabeta leaves: 7",
        "pruned: 2.2-2.3 (2 leaves) at node 2: alpha=3 >= beta=2",
        "pruned leaves: 2",
        "verdict: alphabeta == minimax",
    ] {
        assert!(lines.contains(&expected), "missing {expected:?} in\n{out}");
    }
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("pruned: ")).count(),
        1
    );
    // Every line is `key: value`.
    assert!(lines.iter().all(|l| l.contains(": ")), "{out}");
}

#[test]
fn tree_command_with_min_root_starts_at_min() {
    let (code, out, _) = cutoff(&["tree", "--min-root", "[[3,12,8],[2,4,6],[14,5,2]]"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("root: MIN\n") && out.contains("minimax: 6\n"),
        "{out}"
    );
    assert!(out.contains("pruned: 3.2-3.3 (2 leaves) at node 3: alpha=14 >= beta=6\n"));
}

#[test]
fn tree_trace_shows_every_step_with_the_condition_that_fired() {
    let (code, out, _) = cutoff(&["tree", "--trace", "[[3,12,8],[2,4,6],[14,5,2]]"]);
    assert_eq!(code, 0);
    let trace = out.split("\n\n").next().unwrap();
    let expected = "\
enter root MAX alpha=-inf beta=+inf
  enter 1 MIN alpha=-inf beta=+inf
    leaf 1.1 = 3
    at 1: beta +inf -> 3
    leaf 1.2 = 12
    leaf 1.3 = 8
  return 1 = 3
  at root: alpha -inf -> 3
  enter 2 MIN alpha=3 beta=+inf
    leaf 2.1 = 2
    at 2: beta +inf -> 2
    cutoff at 2: alpha=3 >= beta=2, skipping 2.2-2.3 (2 leaves)
  return 2 = 3 (fail-hard bound: true value <= 3)
  enter 3 MIN alpha=3 beta=+inf
    leaf 3.1 = 14
    at 3: beta +inf -> 14
    leaf 3.2 = 5
    at 3: beta 14 -> 5
    leaf 3.3 = 2
    at 3: beta 5 -> 2
    cutoff at 3: alpha=3 >= beta=2, skipping nothing (the cutting move was the last one)
  return 3 = 3 (fail-hard bound: true value <= 3)
return root = 3";
    assert_eq!(trace, expected);
}

#[test]
fn malformed_tree_is_a_clear_error_with_nonzero_exit_and_no_panic() {
    let (code, out, err) = cutoff(&["tree", "[[3,12,8],[2,4 6]]"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.trim(), "error: expected ',' or ']' at column 16");
    let deep = "[".repeat(5000) + "1" + &"]".repeat(5000);
    let (code, _, err) = cutoff(&["tree", &deep]);
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("error: nesting deeper than"), "{err}");
}
