//! The reference searches on chess positions: every alpha-beta mode must return minimax's
//! value exactly, and pruning must pay.
//!
//! What is asserted about node counts, and why only that:
//! - Guaranteed: a single alpha-beta pass never visits more nodes (or leaves) than minimax,
//!   whatever the order; iterative deepening's total is the sum of its iterations; with oracle
//!   order every cutoff is made by the first move (if any move reaches β, the best one does).
//! - Not guaranteed, and measured false: "oracle ≤ ID ≤ MVV-LVA ≤ generation". Oracle order
//!   puts the *best* refutation first, but a worse one can be cheaper to prove (fewer replies,
//!   or among equal scores a smaller subtree); the hash move is only as good as the shallower
//!   search that chose it; MVV-LVA tries captures that a quiet position does not need.
//!   Measured with the PST evaluation: at depth 4 the last ID iteration visits fewer nodes
//!   than oracle order on WAC.004 (1236 vs 1326) and the back-rank position (610 vs 614); at
//!   depth 3 it visits more than MVV-LVA on WAC.004 (773 vs 757), and MVV-LVA more than
//!   generation order on WAC.002 (745 vs 618). Counted over all iterations, ID costs more
//!   than a single MVV-LVA pass at shallow depths (Kiwipete depths 2–4).
//!   So only comparisons that held on every position here, with a margin, are asserted, as
//!   measured facts about these positions (they depend on the evaluation): oracle order is
//!   never worse than generation order or MVV-LVA, captures-first is far better than
//!   generation order on tactical positions, and alpha-beta prunes most of the tree.

use std::process::Command;
use std::sync::OnceLock;

use cutoff::lab::compare::chess::{run_mode, ChessTree, Mode};
use cutoff::lab::compare::table::DepthTable;
use cutoff::lab::compare::{compare_depth, DepthResults};
use cutoff::position::pos;
use cutoff::types::Score;
use indicatif::ProgressBar;

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// WAC.002: a quiet endgame, Black to move.
const WAC_002: &str = "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1";
/// WAC.004 (bm Qxh7+): White mates in 2, three plies: inside a depth-4 horizon.
const WAC_004: &str = "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1";
/// WAC.005: Black to move mates in 2.
const WAC_005: &str = "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1";
/// Back-rank mate in one (Ra8#): at depth 1 the mate is found exactly at the horizon.
const BACK_RANK: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";

/// Every mode on every test position at depths 1–4, computed once and shared by the tests.
fn results() -> &'static Vec<(&'static str, DepthResults)> {
    static RESULTS: OnceLock<Vec<(&'static str, DepthResults)>> = OnceLock::new();
    RESULTS.get_or_init(|| {
        let mut all = Vec::new();
        for (name, fen) in [
            ("startpos", STARTPOS),
            ("kiwipete", KIWIPETE),
            ("WAC.002", WAC_002),
            ("WAC.004", WAC_004),
            ("WAC.005", WAC_005),
            ("back-rank", BACK_RANK),
        ] {
            for depth in 1..=4 {
                all.push((
                    name,
                    compare_depth(&pos(fen), depth, &ProgressBar::hidden()),
                ));
            }
        }
        all
    })
}

fn find(name: &str, depth: i32) -> &'static DepthResults {
    &results()
        .iter()
        .find(|(n, r)| *n == name && r.depth == depth)
        .unwrap()
        .1
}

#[test]
fn every_mode_returns_the_minimax_value_on_every_position_and_depth() {
    for (name, r) in results() {
        let minimax = r.get(Mode::Minimax).value;
        for m in &r.results {
            assert_eq!(
                m.value,
                minimax,
                "{name} depth {}: {} differs from minimax",
                r.depth,
                m.mode.label()
            );
        }
        assert!(r.mismatches().is_empty());
    }
}

#[test]
fn mates_inside_the_horizon_score_with_their_exact_distance() {
    // Mate in 2 moves = the mated side has no move at ply 3.
    assert_eq!(
        find("WAC.004", 4).get(Mode::Minimax).value,
        Score::mate_in(3)
    );
    assert_eq!(
        find("WAC.005", 4).get(Mode::Minimax).value,
        Score::mate_in(3)
    );
    // Not yet visible at depth 2 (the mated position is at ply 3).
    assert!(!find("WAC.004", 2).get(Mode::Minimax).value.is_mate());
    // Ra8# is found by every mode even when the mated position is exactly at the horizon.
    for depth in 1..=4 {
        let r = find("back-rank", depth);
        for m in &r.results {
            assert_eq!(
                m.value,
                Score::mate_in(1),
                "depth {depth} {}",
                m.mode.label()
            );
        }
    }
}

#[test]
fn minimax_visits_every_node_of_the_perft_tree() {
    // Perft counts: startpos 20 / 400 / 8902; Kiwipete 48 / 2039 / 97862. No position before
    // ply 3 is terminal, so minimax's leaves at depth 3 are exactly perft(3).
    let start = find("startpos", 3).get(Mode::Minimax).counters;
    assert_eq!((start.nodes, start.leaves), (1 + 20 + 400 + 8902, 8902));
    let kiwi = find("kiwipete", 3).get(Mode::Minimax).counters;
    assert_eq!((kiwi.nodes, kiwi.leaves), (1 + 48 + 2039 + 97862, 97862));
    // Kiwipete has one checkmate at ply 3: at depth 4 it is a leaf before the horizon,
    // added to perft(4) = 4085603.
    let kiwi4 = find("kiwipete", 4).get(Mode::Minimax).counters;
    assert_eq!(kiwi4.leaves, 4_085_603 + 1);
}

#[test]
fn a_single_alphabeta_pass_never_visits_more_than_minimax() {
    for (name, r) in results() {
        let minimax = r.get(Mode::Minimax).counters;
        let single_passes = [
            r.get(Mode::Generation).counters,
            r.get(Mode::MvvLva).counters,
            r.get(Mode::HashMoveId).last_iteration.unwrap(),
            r.get(Mode::Oracle).counters,
        ];
        for c in single_passes {
            assert!(c.nodes <= minimax.nodes, "{name} depth {}", r.depth);
            assert!(c.leaves <= minimax.leaves, "{name} depth {}", r.depth);
            assert!(c.first_move_cutoffs <= c.beta_cutoffs);
        }
    }
}

#[test]
fn at_depth_one_nothing_can_be_pruned() {
    // Every root move must be looked at to know the best one: all modes equal minimax.
    for (name, r) in results().iter().filter(|(_, r)| r.depth == 1) {
        let minimax = r.get(Mode::Minimax).counters.nodes;
        for m in &r.results {
            assert_eq!(m.counters.nodes, minimax, "{name} {}", m.mode.label());
        }
    }
}

#[test]
fn iterative_deepening_counts_the_nodes_of_all_its_iterations() {
    // The hash-move table carries over, so iterations 1..d-1 of a depth-d run are exactly the
    // depth-(d-1) run: total(d) = total(d-1) + last iteration(d).
    for (name, r) in results().iter().filter(|(_, r)| r.depth > 1) {
        let id = r.get(Mode::HashMoveId);
        let previous = find(name, r.depth - 1).get(Mode::HashMoveId).counters.nodes;
        assert_eq!(
            id.counters.nodes,
            previous + id.last_iteration.unwrap().nodes,
            "{name} depth {}",
            r.depth
        );
    }
}

#[test]
fn with_oracle_order_every_cutoff_is_made_by_the_first_move() {
    for (name, r) in results() {
        let c = r.get(Mode::Oracle).counters;
        assert_eq!(
            c.first_move_cutoffs, c.beta_cutoffs,
            "{name} depth {}",
            r.depth
        );
    }
}

#[test]
fn alphabeta_at_depth_4_visits_a_small_fraction_of_minimax() {
    // Measured at depth 4 with the PST evaluation: every single pass stays under 17% of
    // minimax's nodes on every position (worst: generation order on the back-rank position,
    // 16.75%); on the tactical, wide positions the ordered modes stay under 0.35%.
    for (name, r) in results().iter().filter(|(_, r)| r.depth == 4) {
        let minimax = r.get(Mode::Minimax).counters.nodes as f64;
        for m in r.results.iter().filter(|m| m.mode != Mode::Minimax) {
            let share = m.counters.nodes as f64 / minimax;
            assert!(
                share < 0.25,
                "{name}: {} at {:.2}%",
                m.mode.label(),
                100.0 * share
            );
        }
    }
    for name in ["kiwipete", "WAC.004", "WAC.005"] {
        let r = find(name, 4);
        let minimax = r.get(Mode::Minimax).counters.nodes as f64;
        for mode in [Mode::MvvLva, Mode::HashMoveId, Mode::Oracle] {
            let share = r.get(mode).counters.nodes as f64 / minimax;
            assert!(
                share < 0.01,
                "{name}: {} at {:.2}%",
                mode.label(),
                100.0 * share
            );
        }
    }
}

#[test]
fn captures_first_beats_generation_order_on_tactical_positions() {
    // Measured at depth 4: generation order visits 2.5x (Kiwipete), 13x (WAC.005) and 110x
    // (WAC.004) the nodes of MVV-LVA.
    for name in ["kiwipete", "WAC.004", "WAC.005"] {
        let r = find(name, 4);
        let generation = r.get(Mode::Generation).counters.nodes;
        let mvv = r.get(Mode::MvvLva).counters.nodes;
        assert!(
            mvv * 3 / 2 < generation,
            "{name}: MVV-LVA {mvv} vs generation {generation}"
        );
    }
}

#[test]
fn oracle_order_is_never_worse_than_generation_or_mvv_lva_here() {
    // Not a theorem (see the module documentation), but it held at every depth on every
    // position here, usually by a wide margin (startpos depth 4: 1410 vs 16289 for MVV-LVA).
    for (name, r) in results() {
        let oracle = r.get(Mode::Oracle).counters.nodes;
        for mode in [Mode::Generation, Mode::MvvLva] {
            let other = r.get(mode).counters.nodes;
            assert!(
                oracle <= other,
                "{name} depth {}: oracle {oracle} > {} {other}",
                r.depth,
                mode.label()
            );
        }
    }
}

#[test]
fn table_verdict_names_a_mode_that_disagrees() {
    let mut r = find("startpos", 2).clone();
    let p = pos(STARTPOS);
    assert!(DepthTable::new(&p, &r)
        .text()
        .contains("verdict: ok, all 5 modes return minimax's value"));
    let i = r
        .results
        .iter()
        .position(|m| m.mode == Mode::MvvLva)
        .unwrap();
    // Whatever the evaluation makes of the start position, a value one centipawn off minimax's
    // must be named as the mismatch.
    let minimax = r.get(Mode::Minimax).value;
    let wrong = Score(minimax.0 + 1);
    r.results[i].value = wrong;
    let text = DepthTable::new(&p, &r).text();
    let expected =
        format!("verdict: MISMATCH, minimax = {minimax} but alphabeta MVV-LVA = {wrong}");
    assert!(text.contains(&expected), "{text}");
}

#[test]
fn compare_command_prints_a_table_per_depth_a_verdict_and_an_svg() {
    let svg = std::env::temp_dir().join(format!("cutoff-compare-{}.svg", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["compare", "--fen", KIWIPETE, "--depth", "1..3", "--svg"])
        .arg(&svg)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert_eq!(stdout.matches("verdict: ok").count(), 3, "{stdout}");
    for depth in 1..=3 {
        assert!(stdout.contains(&format!("\ndepth: {depth}\n")), "{stdout}");
    }
    assert!(stdout.contains("root moves: 48"));
    for label in ["minimax", "alphabeta MVV-LVA", "alphabeta oracle order"] {
        assert!(
            stdout.lines().any(|l| l.starts_with(label)),
            "{label}: {stdout}"
        );
    }
    let picture = std::fs::read_to_string(&svg).unwrap();
    let _ = std::fs::remove_file(&svg);
    assert!(picture.starts_with("<svg") && picture.trim_end().ends_with("</svg>"));
    assert_eq!(picture.matches("<polyline").count(), 6); // five modes + the minimal tree
}

#[test]
fn compare_command_rejects_a_bad_fen_without_panicking() {
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["compare", "--fen", "not a fen", "--depth", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .starts_with("error: "));
}

#[test]
#[ignore = "about 5 minutes: minimax at depth 5 is ~5M (startpos) and ~194M (Kiwipete) nodes"]
fn every_mode_returns_the_minimax_value_at_depth_5() {
    for fen in [STARTPOS, KIWIPETE] {
        let tree = ChessTree::new();
        let p = pos(fen);
        let minimax = run_mode(&tree, &p, 5, Mode::Minimax).value;
        for mode in Mode::ALL {
            assert_eq!(run_mode(&tree, &p, 5, mode).value, minimax, "{fen}");
        }
    }
}

/// Stalemate (Black's king on h8, boxed in by the queen and king) and checkmate: a root without
/// a move is said to be what it is, never a table of "-1 leaves with b=0 root moves".
#[test]
fn a_root_without_moves_is_reported_as_mate_or_stalemate_without_negative_counts() {
    for (fen, says) in [
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "black is stalemated"),
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "black is checkmated"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
            .args(["compare", "--depth", "2", "--fen", fen])
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{stdout}");
        assert!(stdout.contains(says), "{fen}: {stdout}");
        assert!(!stdout.contains("-1"), "{fen}: {stdout}");
        assert!(
            !stdout.contains("depth: 2"),
            "{fen}: a table of nothing: {stdout}"
        );
    }
}

/// Minimax visits every node of the legal move tree, so its cost at a depth is the perft counts
/// summed: counted exactly while cheap, extrapolated beyond by the last plies' branching. The
/// start position's depth 6 (124 132 537 nodes, docs/alphabeta.md) and Kiwipete's depth 5
/// (the perft counts 1, 48, 2 039, 97 862, 4 085 603 and 193 690 690) come out within a
/// factor 1.5.
#[test]
fn the_cost_model_counts_minimax_exactly_where_cheap_and_close_beyond() {
    use cutoff::lab::compare::cost::CostModel;
    let start = CostModel::new(&pos(STARTPOS), 6);
    assert_eq!(start.minimax_nodes(4), 206_604.0);
    assert!(start.is_exact(4));
    let six = start.minimax_nodes(6);
    assert!(!start.is_exact(6));
    assert!(
        (124_132_537.0 / 1.5..124_132_537.0 * 1.5).contains(&six),
        "{six}"
    );
    let kiwipete = CostModel::new(&pos(KIWIPETE), 5);
    let real = 1.0 + 48.0 + 2_039.0 + 97_862.0 + 4_085_603.0 + 193_690_690.0;
    let five = kiwipete.minimax_nodes(5);
    assert!((real / 1.5..real * 1.5).contains(&five), "{five}");
    // A tree that ends (every line mated) is counted to its end, however deep.
    let mated = CostModel::new(&pos("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), 12);
    assert_eq!(mated.minimax_nodes(12), 1.0);
}

/// Before a long run, `compare` says on stderr what each depth will cost (positions and time),
/// and stdout holds only the report: perft position 3 to depth 5 visits 720 880 positions,
/// which the estimate counts exactly and the table then shows.
#[test]
fn compare_estimates_what_a_depth_costs_before_it_starts_on_stderr_only() {
    let fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["compare", "--depth", "5", "--fen", fen])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stdout}{stderr}");
    let estimate = stderr
        .lines()
        .position(|l| l.contains("estimate") && l.contains("depth 5: 720,880 positions"))
        .unwrap_or_else(|| panic!("no estimate for depth 5: {stderr}"));
    let first_search = stderr
        .lines()
        .position(|l| l.starts_with("compare: depth 5 minimax"))
        .unwrap_or_else(|| panic!("no search line: {stderr}"));
    assert!(estimate < first_search, "{stderr}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("minimax") && l.contains(" 720880 ")),
        "{stdout}"
    );
    assert!(
        !stdout.contains("estimate") && !stdout.contains("compare:"),
        "{stdout}"
    );
}
