//! Lazy SMP through UCI: `Threads` changes the number of search threads between searches;
//! every thread count finds the mates with the right scores; `stop`, `ponderhit` and `quit`
//! reach every thread, and every `go` gets exactly one `bestmove`, however the search ends.
//!
//! The long stress run is `#[ignore]`d: `cargo test --release --test uci_threads -- --ignored`.

mod common;

use common::*;
use shakmaty::{CastlingMode, Position};

/// 1.Rd8# (d1d8) is the only mate in 1.
const MATE_IN_1: &str = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
/// 1.Nf6+ (d5f6) gxf6 2.Bxf7# is the only mate in 2.
const MATE_IN_2: &str = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
/// 1.Qh8+ (c3h8) Kxh8 2.Bf6+ Kg8 3.Re8# is the only mate in 3.
const MATE_IN_3: &str = "r1b3kr/ppp1Bp1p/1b6/n2P4/2p3q1/2Q2N2/P4PPP/RN2R1K1 w - - 1 1";

/// Positions for the stress runs: opening, tactics, castling and promotions, an endgame, mates.
const STRESS_POSITIONS: [&str; 6] = [
    STARTPOS,
    KIWIPETE,
    "r1bq1r2/pp4k1/4p2p/3pPp1Q/3N1R1P/2PB4/6P1/6K1 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    MATE_IN_2,
];

/// A small seeded generator (xorshift64), so that a failing run can be repeated.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn set_threads(e: &mut Engine, threads: u64) {
    e.send(&format!("setoption name Threads value {threads}"));
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| is_error_report(l)),
        "Threads {threads} refused: {lines:?}"
    );
}

/// Waits for the `bestmove` of the running search, checks it, and checks that no second one
/// follows.
fn expect_one_bestmove(e: &mut Engine, fen: &str, what: &str) -> SearchResult {
    let r = e.wait_bestmove(SEARCH_TIMEOUT);
    let pos = pos_from_fen(fen);
    strict_move(&pos, &r.bestmove, CastlingMode::Standard)
        .unwrap_or_else(|err| panic!("{what}: bestmove {:?}: {err}", r.raw));
    let after = e.sync();
    assert!(
        !after.iter().any(|l| is_bestmove(l)),
        "{what}: a second bestmove: {after:?}\n{}",
        e.transcript()
    );
    r
}

#[test]
fn one_to_four_threads_find_the_mates_with_their_scores() {
    let mut e = Engine::started();
    for threads in 1..=4 {
        set_threads(&mut e, threads);
        for (fen, n, depth) in [(MATE_IN_1, 1, 3), (MATE_IN_2, 2, 5), (MATE_IN_3, 3, 7)] {
            e.send("ucinewgame");
            let pos = pos_from_fen(fen);
            let r = e.search(
                &format!("position fen {fen}"),
                &format!("go depth {depth}"),
                SEARCH_TIMEOUT,
            );
            check_search(&pos, &r, CastlingMode::Standard);
            assert!(
                mating_moves(&pos, n).contains(&r.bestmove),
                "Threads {threads}: {} does not mate in {n} in {fen}",
                r.bestmove
            );
            assert_eq!(
                r.last_score_info().score,
                Some(Score::Mate(i64::from(n))),
                "Threads {threads}, {fen}: {:?}",
                r.last_score_info().raw
            );
        }
    }
}

#[test]
fn nodes_of_all_threads_are_counted() {
    let mut e = Engine::started();
    set_threads(&mut e, 3);
    e.send(&format!("position fen {KIWIPETE}"));
    let limit = 50_000;
    let r = e.go(&format!("go nodes {limit}"), SEARCH_TIMEOUT);
    let last = r.last_score_info();
    let reported = last.nodes.expect("nodes in the last info line");
    let summary = r
        .info_strings()
        .into_iter()
        .find(|s| s.contains("stats"))
        .expect("the stats line");
    let total = number_after(&summary, "nodes=").expect("nodes= in the stats line");
    let main = number_after(&summary, "mainthreadnodes=")
        .unwrap_or_else(|| panic!("the main thread's share in {summary:?}"));
    // `go nodes` bounds the main thread's own count (README), whatever the helpers add.
    assert!(main <= limit + 4_096, "{summary}");
    // The helpers searched while the main thread did (however little CPU they got): their
    // nodes must be in the total, which a total equal to the main thread's own would miss.
    assert!(
        total > main,
        "helper nodes missing from the total: {summary}"
    );
    assert!(total >= reported, "{summary} after {:?}", last.raw);
}

#[test]
fn threads_can_be_changed_between_searches_and_bad_values_are_refused() {
    let mut e = Engine::started();
    for threads in [4, 1, 2, 8, 1, 3] {
        set_threads(&mut e, threads);
        e.send(&format!("position fen {KIWIPETE}"));
        e.send("go depth 6");
        expect_one_bestmove(&mut e, KIWIPETE, &format!("Threads {threads}"));
    }
    for bad in ["0", "-1", "many", "100000"] {
        e.send(&format!("setoption name Threads value {bad}"));
        let lines = e.sync();
        assert!(
            lines.iter().any(|l| is_error_report(l)),
            "Threads {bad} accepted: {lines:?}"
        );
    }
    // Still searching with 3 threads.
    e.send("setoption name Hash value 1");
    e.send(&format!("position fen {STARTPOS}"));
    e.send("go depth 5");
    expect_one_bestmove(&mut e, STARTPOS, "after refused values");
}

#[test]
fn stop_and_ponderhit_end_a_multithreaded_search_with_one_bestmove() {
    let mut e = Engine::started();
    set_threads(&mut e, 4);
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go infinite");
    sleep_ms(150);
    e.send("stop");
    expect_one_bestmove(&mut e, KIWIPETE, "go infinite + stop");

    e.send("go ponder wtime 2000 btime 2000");
    sleep_ms(100);
    e.send("ponderhit");
    let r = expect_one_bestmove(&mut e, KIWIPETE, "go ponder + ponderhit");
    assert!(
        r.elapsed < ms(2_000),
        "after ponderhit the clock must end the search: {:?}",
        r.elapsed
    );
}

#[test]
fn quit_during_a_multithreaded_search_exits_cleanly() {
    let mut e = Engine::started();
    set_threads(&mut e, 4);
    e.send(&format!("position fen {STARTPOS}"));
    e.send("go infinite");
    sleep_ms(100);
    e.send("quit");
    let status = e
        .wait_exit(SYNC_TIMEOUT)
        .expect("the engine must exit after quit");
    assert!(status.success(), "{status:?}\n{}", e.stderr_text());
    assert!(!e.stderr_text().contains("panicked"), "{}", e.stderr_text());
}

/// Many short searches with 2 to 4 threads, stopped at random moments: no hang, no panic,
/// a legal move and exactly one `bestmove` for every `go`.
fn stress(seed: u64, searches: usize) {
    let mut rng = Rng(seed);
    let mut e = Engine::started();
    for i in 0..searches {
        if i % 5 == 0 {
            set_threads(&mut e, 2 + rng.below(3));
        }
        let fen = STRESS_POSITIONS[rng.below(STRESS_POSITIONS.len() as u64) as usize];
        e.send(&format!("position fen {fen}"));
        let go = match rng.below(4) {
            0 => "go infinite".to_string(),
            1 => format!("go movetime {}", 1 + rng.below(30)),
            2 => format!("go depth {}", 1 + rng.below(12)),
            _ => format!("go nodes {}", 1 + rng.below(50_000)),
        };
        e.send(&go);
        sleep_ms(rng.below(25));
        e.send("stop");
        expect_one_bestmove(&mut e, fen, &format!("seed {seed}, search {i}: {go}"));
    }
    let stderr = e.stderr_text();
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn short_multithreaded_searches_stopped_at_random_moments_answer_once() {
    stress(0x5EED_0001, 40);
}

#[test]
#[ignore = "about a minute; run with --ignored"]
fn many_multithreaded_searches_stopped_at_random_moments_answer_once() {
    for seed in 1..=10 {
        stress(0x5EED_0000 + seed, 100);
    }
}

/// A mate position is still legal to search with many more threads than cores.
#[test]
fn more_threads_than_cores_still_answer() {
    let mut e = Engine::started();
    set_threads(&mut e, 16);
    let pos = pos_from_fen(MATE_IN_2);
    let r = e.search(
        &format!("position fen {MATE_IN_2}"),
        "go depth 5",
        SEARCH_TIMEOUT,
    );
    check_search(&pos, &r, CastlingMode::Standard);
    assert!(pos.legal_moves().len() > 1);
    assert_eq!(r.bestmove, "d5f6");
}
