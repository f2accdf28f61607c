//! The learned evaluation through the engine: the incremental accumulators equal fresh ones
//! at every node of the perft suite's trees and of searches of the bench positions; `EvalFile`
//! loads a net and refuses a missing, truncated or damaged one, keeping the current net;
//! `Evaluation net` needs a net.

mod common;

use std::fs;
use std::sync::Arc;
use std::time::Duration;

use common::{is_error_report, Engine};
use cutoff::eval::nnue::{Accumulators, Network, INPUTS};
use cutoff::eval::EvaluatorKind;
use cutoff::position::{read_fen, FenPolicy, Game};
use cutoff::rng::Rng;
use cutoff::search::{Limits, Searcher, Settings};
use shakmaty::{CastlingMode, Chess, Position};

/// A net of seeded random weights in the ranges a trained one has.
fn random_network(hidden: usize, seed: u64) -> Network {
    let mut rng = Rng::new(seed);
    let mut draw = |lo: i32, hi: i32| (lo + rng.below((hi - lo + 1) as usize) as i32) as i16;
    let w1 = (0..INPUTS * hidden).map(|_| draw(-60, 60)).collect();
    let b1 = (0..hidden).map(|_| draw(-20, 120)).collect();
    let w2 = (0..2 * hidden).map(|_| draw(-126, 126)).collect();
    Network::from_weights(w1, b1, w2, i32::from(draw(-3000, 3000)))
}

fn walk(acc: &mut Accumulators, net: &Network, pos: &Chess, ply: usize, depth: u32) -> u64 {
    assert_eq!(acc.evaluate(ply, pos.turn()), net.evaluate(pos));
    if depth == 0 {
        return 1;
    }
    let mut nodes = 1;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        acc.update(pos, &m, &child, ply);
        nodes += walk(acc, net, &child, ply + 1, depth - 1);
    }
    nodes
}

/// Every node two plies deep from each of the perft suite's positions (castling of every
/// kind, en passant, promotions): the incremental value is the value from scratch.
#[test]
fn incremental_values_equal_fresh_ones_over_the_perft_suite() {
    let net = Arc::new(random_network(32, 11));
    let mut acc = Accumulators::new(Arc::clone(&net));
    let suite = include_str!("../epd/perft_standard.epd");
    let mut nodes = 0;
    for line in suite.lines().filter(|l| !l.trim().is_empty()) {
        let fen = line.split(';').next().unwrap().trim();
        let pos = read_fen(fen, CastlingMode::Standard, FenPolicy::Strict).unwrap();
        acc.refresh(&pos, 0);
        nodes += walk(&mut acc, &net, &pos, 0, 2);
    }
    assert!(nodes > 10_000, "{nodes}");
}

/// Searches of the bench positions with the net and every evaluation checked against one from
/// scratch (the evaluator panics on a difference), on one thread and on two.
#[test]
fn incremental_values_equal_fresh_ones_in_bench_searches() {
    let net = Arc::new(random_network(32, 12));
    for threads in [1, 2] {
        let mut searcher = Searcher::new(16);
        searcher.set_network(Arc::clone(&net)).unwrap();
        searcher.set_settings(Settings {
            evaluator: EvaluatorKind::Net,
            verify_net: true,
            ..Settings::default()
        });
        searcher.set_threads(threads).unwrap();
        for pos in cutoff::bench::positions().into_iter().step_by(5) {
            let game = Game::new(pos, CastlingMode::Standard);
            let out = searcher.run(&game, &Limits::depth(5));
            assert!(out.best_move.is_some() || game.root.legal_moves().is_empty());
        }
    }
}

fn temp_file(name: &str, bytes: &[u8]) -> String {
    let path = std::env::temp_dir().join(format!("cutoff-nnue-{}-{name}", std::process::id()));
    fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

fn net_line(e: &mut Engine) -> String {
    e.send("eval");
    let lines = e.sync();
    lines
        .into_iter()
        .find(|l| l.starts_with("Net evaluation"))
        .expect("a net line")
}

#[test]
fn evalfile_loads_a_net_and_keeps_it_when_the_next_file_is_bad() {
    let net = random_network(32, 13);
    let good = temp_file("good.nnue", &net.to_bytes());
    let mut e = Engine::started();
    // The built-in net is there from the start.
    let built_in = format!("{:016x}", Network::embedded().unwrap().hash());
    assert!(net_line(&mut e).contains(&built_in));

    e.send(&format!("setoption name EvalFile value {good}"));
    let lines = e.sync();
    let hash = format!("{:016x}", net.hash());
    assert!(
        lines
            .iter()
            .any(|l| l.contains("loaded") && l.contains(&hash)),
        "{lines:?}"
    );
    e.send("setoption name Evaluation value net");
    assert!(!e.sync().iter().any(|l| is_error_report(l)));
    let r = e.search("position startpos", "go depth 6", Duration::from_secs(30));
    assert_ne!(r.bestmove, "(none)");

    let bytes = net.to_bytes();
    let truncated = temp_file("truncated.nnue", &bytes[..bytes.len() / 2]);
    let mut flipped = bytes.clone();
    flipped[1000] ^= 0x40;
    let damaged = temp_file("damaged.nnue", &flipped);
    let header = temp_file("header.nnue", b"not a net at all");
    for (path, why) in [
        (truncated.as_str(), "truncated"),
        (damaged.as_str(), "checksum"),
        (header.as_str(), "header"),
        ("/no/such/net.nnue", "cannot read"),
    ] {
        e.send(&format!("setoption name EvalFile value {path}"));
        let lines = e.sync();
        assert!(
            lines.iter().any(|l| is_error_report(l) && l.contains(why)),
            "{path}: {lines:?}"
        );
        assert!(net_line(&mut e).contains(&hash), "the good net must stay");
    }
    let r = e.search(
        "position startpos moves e2e4",
        "go depth 6",
        Duration::from_secs(30),
    );
    assert_ne!(r.bestmove, "(none)");
    // `<empty>` goes back to the built-in net.
    e.send("setoption name EvalFile value <empty>");
    e.sync();
    assert!(net_line(&mut e).contains(&built_in));
    for f in [good, truncated, damaged, header] {
        let _ = fs::remove_file(f);
    }
}

/// `eval` says which evaluation the next search runs: the net by default, the classical one
/// under a strength limit (its levels were calibrated with it) or when chosen.
#[test]
fn eval_says_which_evaluation_the_search_uses() {
    let mut e = Engine::started();
    assert!(net_line(&mut e).ends_with("; the search uses it"));
    e.send("setoption name UCI_LimitStrength value true");
    assert!(net_line(&mut e).ends_with("(UCI_LimitStrength)"));
    e.send("setoption name UCI_LimitStrength value false");
    e.send("setoption name Evaluation value classical");
    assert!(net_line(&mut e).ends_with("classical evaluation (Evaluation)"));
}
