//! The search through the library API: mates, draws, material, and the transposition table.

use std::time::Duration;

use cutoff::eval::EvaluatorKind;
use cutoff::position::Game;
use cutoff::search::{
    Control, IterationInfo, Limits, Reporter, SearchOutcome, Searcher, Settings, Steps, TtPolicy,
};
use cutoff::types::Score;
use shakmaty::{CastlingMode, Position};

fn game(fen: &str) -> Game {
    Game::from_fen(fen, CastlingMode::Standard).unwrap()
}

/// Fails the test where the search failed: the panic guard still answers with a move, so a
/// check of the move alone would not see it.
fn succeeded(out: SearchOutcome) -> SearchOutcome {
    assert_eq!(out.failure, None, "the search failed");
    out
}

fn search(fen: &str, depth: i32) -> (String, Score) {
    let g = game(fen);
    let out = succeeded(Searcher::new(16).run(&g, &Limits::depth(depth)));
    (g.uci(out.best_move.unwrap()), out.score)
}

#[test]
fn mate_in_one_is_found() {
    // Back-rank mate: Rd8#.
    let (m, s) = search("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 3);
    assert_eq!((m.as_str(), s.mate_moves()), ("d1d8", Some(1)));
}

#[test]
fn mate_in_two_is_found() {
    // 1.Nf6+ gxf6 2.Bxf7#.
    let (m, s) = search(
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        5,
    );
    assert_eq!((m.as_str(), s.mate_moves()), ("d5f6", Some(2)));
}

#[test]
fn mate_in_three_is_found() {
    // 1.Qh8+ Kxh8 2.Bf6+ Kg8 3.Re8#.
    let (m, s) = search(
        "r1b3kr/ppp1Bp1p/1b6/n2P4/2p3q1/2Q2N2/P4PPP/RN2R1K1 w - - 1 1",
        7,
    );
    assert_eq!((m.as_str(), s.mate_moves()), ("c3h8", Some(3)));
}

#[test]
fn being_mated_scores_negative_mate() {
    // White is in check from the rook on d1; both answers lose to mate next move.
    let (_, s) = search("7k/5Qpp/8/8/8/8/r5PP/3r3K w - - 0 1", 3);
    assert_eq!(s.mate_moves(), Some(-1), "{s}");
}

#[test]
fn stalemate_is_scored_as_a_draw() {
    // The side to move has no legal move and is not in check.
    for fen in [
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "k7/8/8/8/8/8/2q5/K7 w - - 0 1",
    ] {
        let out = succeeded(Searcher::new(1).run(&game(fen), &Limits::depth(3)));
        assert_eq!((out.best_move, out.score), (None, Score::DRAW), "{fen}");
    }
    // With a queen against a bare king, stalemating (Qf7) is avoided: Qf8 mates.
    let (m, s) = search("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", 4);
    assert_eq!((m.as_str(), s.mate_moves()), ("f1f8", Some(1)));
}

#[test]
fn repetition_is_scored_as_a_draw() {
    // Black is a knight down. After the knights went out and back twice, Ng8 repeats the
    // position for the third time: a draw that Black, losing otherwise, must choose.
    let mut g = game("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        g.play_uci(m).unwrap();
    }
    let out = succeeded(Searcher::new(16).run(&g, &Limits::depth(4)));
    assert_eq!(
        (g.uci(out.best_move.unwrap()).as_str(), out.score),
        ("f6g8", Score::DRAW)
    );
    // Without the history the same position is simply lost for Black.
    let fresh = game(&g.fen());
    let out = succeeded(Searcher::new(16).run(&fresh, &Limits::depth(4)));
    assert!(out.score < Score(-200), "{}", out.score);
}

#[test]
fn hanging_queen_is_taken() {
    let (m, _) = search(
        "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 0 1",
        4,
    );
    assert_eq!(m, "c1g5");
}

/// With cutoffs only at the same depth, a table can only save work, never change the value
/// of the plain (non-selective) alpha-beta search. Depth 4 at most: deeper, a repetition of a
/// position below the root would make a stored value depend on the path that reached it.
#[test]
fn transposition_table_keeps_the_fixed_depth_value() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    ] {
        let g = game(fen);
        for depth in 1..=4 {
            let searcher = |hash_mb, tt_policy| {
                let mut s = Searcher::with_steps(hash_mb, Steps::plain());
                s.set_settings(Settings {
                    tt_policy,
                    ..Settings::default()
                });
                s
            };
            let mut plain = searcher(1, TtPolicy::MoveOnly);
            let mut with_tt = searcher(16, TtPolicy::SameDepthCutoffs);
            let a = succeeded(plain.run(&g, &Limits::depth(depth)));
            let b = succeeded(with_tt.run(&g, &Limits::depth(depth)));
            assert_eq!(a.score, b.score, "{fen} depth {depth}");
            assert!(
                b.nodes <= a.nodes,
                "{fen} depth {depth}: {} > {}",
                b.nodes,
                a.nodes
            );
        }
    }
}

#[test]
fn searches_are_deterministic() {
    let g = game("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let a = succeeded(Searcher::new(16).run(&g, &Limits::depth(5)));
    let b = succeeded(Searcher::new(16).run(&g, &Limits::depth(5)));
    assert_eq!(
        (a.nodes, a.score, a.best_move),
        (b.nodes, b.score, b.best_move)
    );
}

#[test]
fn node_limit_is_respected() {
    let g = Game::default();
    let out = succeeded(Searcher::new(16).run(&g, &Limits::nodes(20_000)));
    assert!(out.nodes <= 20_000 + 1, "{}", out.nodes);
    assert!(out.best_move.is_some());
}

/// With either evaluation: the net (the default) and the classical one.
#[test]
fn quiescence_equals_evaluation_only_in_quiet_positions() {
    let quiet = Game::default();
    // A queen hangs to a pawn: quiescence sees the capture, the static evaluation does not.
    let hanging = game("rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 0 1");
    let mut s = Searcher::new(1);
    assert_eq!(s.evaluator(), EvaluatorKind::Net);
    let net = s.network().expect("the built-in net");
    assert_eq!(s.quiescence(&quiet.root), net.evaluate(&quiet.root));
    assert!(s.quiescence(&hanging.root) > net.evaluate(&hanging.root) + 500);
    s.set_evaluator(EvaluatorKind::Classical);
    assert_eq!(
        s.quiescence(&quiet.root),
        cutoff::eval::classical::evaluate(&quiet.root)
    );
    assert!(s.quiescence(&hanging.root) > cutoff::eval::classical::evaluate(&hanging.root) + 500);
}

#[test]
fn one_to_four_threads_find_the_mates_with_their_scores() {
    for threads in 1..=4 {
        let mut searcher = Searcher::new(16);
        searcher.set_threads(threads).unwrap();
        assert_eq!(searcher.threads(), threads);
        for (fen, best, n, depth) in [
            ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 1, 3),
            (
                "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
                "d5f6",
                2,
                5,
            ),
            (
                "r1b3kr/ppp1Bp1p/1b6/n2P4/2p3q1/2Q2N2/P4PPP/RN2R1K1 w - - 1 1",
                "c3h8",
                3,
                7,
            ),
        ] {
            searcher.clear();
            let g = game(fen);
            let out = succeeded(searcher.run(&g, &Limits::depth(depth)));
            let m = g.uci(out.best_move.unwrap());
            assert_eq!(
                (m.as_str(), out.score.mate_moves()),
                (best, Some(n)),
                "{threads} threads, {fen}"
            );
        }
    }
}

#[test]
fn a_single_thread_counts_the_same_nodes_after_helpers_were_used() {
    let g = game("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let alone = Searcher::new(16).run(&g, &Limits::depth(6)).nodes;
    let mut s = Searcher::new(16);
    s.set_threads(3).unwrap();
    let _ = s.run(&g, &Limits::depth(6));
    s.set_threads(1).unwrap();
    s.clear();
    assert_eq!(s.run(&g, &Limits::depth(6)).nodes, alone);
}

/// Positions for the switch tests: the middlegame of Kiwipete and a quiet opening position,
/// where every selective step has work to do at depth 6.
const SWITCH_TEST_FENS: [&str; 2] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

/// Each step's switch, with the steps that flip it alone from the default (off for the proven
/// steps, on for the open candidate).
fn one_switch_flipped() -> Vec<(&'static str, Steps)> {
    let d = Steps::default();
    macro_rules! flipped {
        ($($field:ident),* $(,)?) => {
            vec![$((stringify!($field), Steps { $field: !d.$field, ..d })),*]
        };
    }
    flipped![
        internal_iterative_reduction,
        reverse_futility_pruning,
        null_move_pruning,
        see_ordering,
        quiescence_see_pruning,
        futility_and_late_move_pruning,
        check_extension,
        late_move_reductions,
        aspiration_windows,
        continuation_history,
        capture_history,
        threat_history,
        improving,
        history_pruning,
        see_pruning,
        history_reductions,
        quiescence_tt,
        quiescence_tt_stand_pat,
        correction_history,
        non_pawn_correction,
        minor_major_correction,
        singular_extensions,
        double_extensions,
        probcut,
    ]
}

/// No switch, flipped alone, hides a mate in two behind a quiet rook sacrifice (1.Ra6! bxa6
/// 2.b7#) at depth 10: a pruning step that trusts a shallow verdict too long (the table's score
/// in reverse futility pruning did, up to depth 12; razoring as once written did too, since
/// after 1...bxa6 White is a rook down near the leaves) fails here. A new step must pass it
/// before it is switched on.
#[test]
fn no_switch_hides_the_quiet_sacrifice_mate_in_two() {
    let g = game("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1");
    let mut hiding: Vec<&str> = Vec::new();
    let mut steps = one_switch_flipped();
    steps.push(("default", Steps::default()));
    for (name, steps) in steps {
        let out = succeeded(Searcher::with_steps(16, steps).run(&g, &Limits::depth(10)));
        let best = g.uci(out.best_move.unwrap());
        if (best.as_str(), out.score.mate_moves()) != ("a1a6", Some(2)) {
            hiding.push(name);
        }
    }
    assert!(hiding.is_empty(), "hidden with {hiding:?} flipped");
}

/// Every search switch is read by the search: flipping it alone changes the nodes of a
/// fixed-depth search, which still ends with a legal move (depth 8: singular extensions start
/// at depth 7; searched twice, so that the history has values to prune by).
#[test]
fn flipping_any_one_search_switch_changes_the_tree_and_still_gives_a_legal_move() {
    let switches = one_switch_flipped();
    let mut changed = vec![false; switches.len()];
    for fen in SWITCH_TEST_FENS {
        let g = game(fen);
        // The second of two searches, with an emptied table: the first has taught the
        // history, which some steps read.
        let twice = |steps: Steps| {
            let mut s = Searcher::with_steps(16, steps);
            s.run(&g, &Limits::depth(8));
            s.resize_hash(16).unwrap();
            succeeded(s.run(&g, &Limits::depth(8)))
        };
        let reference = twice(Steps::default()).nodes;
        for (i, (name, config)) in switches.iter().enumerate() {
            let out = twice(*config);
            changed[i] |= out.nodes != reference;
            let best = out.best_move.unwrap_or_else(|| panic!("{name}: no move"));
            assert!(g.root.legal_moves().contains(&best), "{name}: {best:?}");
        }
    }
    // Some steps (history pruning) act only where the history has grown bad enough: one
    // position of the two suffices to show the switch is read.
    for ((name, _), changed) in switches.iter().zip(changed) {
        assert!(changed, "{name} changed nothing in either position");
    }
}

/// The switches that the plain search leaves on only order moves or narrow windows: switched
/// off as well, the plain search finds the same fixed-depth value (with more nodes).
#[test]
fn the_plain_search_value_does_not_depend_on_ordering_or_windows() {
    let mut bare = Steps::plain();
    bare.see_ordering = false;
    bare.aspiration_windows = false;
    for fen in SWITCH_TEST_FENS {
        let g = game(fen);
        for depth in 1..=5 {
            let a =
                succeeded(Searcher::with_steps(16, Steps::plain()).run(&g, &Limits::depth(depth)));
            let b = succeeded(Searcher::with_steps(16, bare).run(&g, &Limits::depth(depth)));
            assert_eq!(a.score, b.score, "{fen} depth {depth}");
        }
    }
}

/// Panics once the search reports `depth`: a fault inside the search, made from the outside.
struct FailingAt {
    depth: i32,
}

impl Reporter for FailingAt {
    fn iteration(&mut self, info: &IterationInfo<'_>) {
        if info.depth >= self.depth {
            panic!("a fault at depth {}", info.depth);
        }
    }
}

/// A search of `fen` to `depth` on `threads` threads whose reporter panics at `fails_at`: the
/// game, the searcher (for what comes after) and the outcome.
fn failed_search(
    fen: &str,
    threads: usize,
    depth: i32,
    fails_at: i32,
) -> (Game, Searcher, SearchOutcome) {
    let g = game(fen);
    let mut searcher = Searcher::new(1);
    searcher.set_threads(threads).unwrap();
    let out = searcher.search(
        &g,
        &Limits::depth(depth),
        &Control::default(),
        &mut FailingAt { depth: fails_at },
    );
    (g, searcher, out)
}

#[test]
fn a_search_that_panics_answers_with_the_last_move_it_reported() {
    // Rd8# is found at depth 1; the search fails at depth 3.
    let (g, _, out) = failed_search("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, 6, 3);
    let failure = out.failure.expect("the failure is reported");
    assert!(failure.contains("a fault at depth 3"), "{failure}");
    assert_eq!(out.best_move.map(|m| g.uci(m)).as_deref(), Some("d1d8"));
    assert_eq!(out.score.mate_moves(), Some(1));
}

#[test]
fn a_search_that_panics_before_any_report_answers_a_legal_move_and_the_next_search_runs() {
    let (g, mut searcher, out) = failed_search("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 2, 6, 1);
    assert!(out.failure.is_some());
    let answer = out.best_move.expect("a move despite the failure");
    assert!(g.root.legal_moves().contains(&answer));
    // The same searcher, helpers and all, searches again and decides as usual.
    let next = searcher.run(&g, &Limits::depth(6));
    assert_eq!(next.failure, None);
    assert!(next.stats.helper_failures.is_empty());
    assert_eq!(next.best_move.map(|m| g.uci(m)).as_deref(), Some("d1d8"));
}

#[test]
fn a_search_that_panics_stops_its_helpers() {
    // A middlegame, so that a helper left running would not run out of depth by itself.
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (_, searcher, out) = failed_search(kiwipete, 2, 20, 2);
    assert!(out.failure.is_some());
    // Dropping the searcher joins its helper, which returns only once its search has stopped.
    let (done, dropped) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        drop(searcher);
        let _ = done.send(());
    });
    assert!(
        dropped.recv_timeout(Duration::from_secs(30)).is_ok(),
        "the helper searched on after the main thread failed"
    );
}
