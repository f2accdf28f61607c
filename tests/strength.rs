//! The strength limit: `info nodes` never passes the level's budget, every `go` gets one
//! `bestmove`, and a short match shows the higher level stronger.

mod common;

use std::time::Duration;

use common::Engine;
use cutoff::eval::EvaluatorKind;
use cutoff::position::{read_fen, FenPolicy, Game};
use cutoff::search::strength::node_budget;
use cutoff::search::{Limits, Searcher, Settings};
use shakmaty::{CastlingMode, Position};

#[test]
fn info_nodes_never_pass_the_levels_budget() {
    let mut e = Engine::started();
    e.send("setoption name UCI_LimitStrength value true");
    for elo in [1320, 1700, 2100] {
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        let budget = node_budget(elo);
        for position in [
            "position startpos",
            "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5",
            "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ] {
            let r = e.search(
                position,
                "go wtime 60000 btime 60000",
                Duration::from_secs(30),
            );
            assert_ne!(r.bestmove, "(none)");
            for info in r.score_infos() {
                let nodes = info.nodes.unwrap();
                assert!(nodes <= budget, "{elo}: {nodes} > {budget} in {}", info.raw);
            }
        }
    }
}

/// The levels were calibrated with the classical evaluation: a limited search runs it whatever
/// `Evaluation` says, and full strength goes back to the chosen one (the net by default).
#[test]
fn a_limited_search_evaluates_as_its_levels_were_calibrated() {
    let mut s = Searcher::new(8);
    assert_eq!(s.evaluator(), EvaluatorKind::Net);
    let limited = Settings {
        strength_elo: Some(1800),
        ..Settings::default()
    };
    assert_eq!(limited.evaluator, EvaluatorKind::Net);
    s.set_settings(limited);
    assert_eq!(s.evaluator(), EvaluatorKind::Classical);
    s.set_settings(Settings::default());
    assert_eq!(s.evaluator(), EvaluatorKind::Net);
}

/// Plays a game between two levels from `fen`; 1.0 when `strong` wins, 0.5 for a draw.
fn game(fen: &str, strong_is_white: bool, weak: i32, strong: i32) -> f64 {
    let searcher = |elo| {
        let mut s = Searcher::new(8);
        s.set_settings(Settings {
            strength_elo: Some(elo),
            ..Settings::default()
        });
        s
    };
    let (mut white, mut black) = if strong_is_white {
        (searcher(strong), searcher(weak))
    } else {
        (searcher(weak), searcher(strong))
    };
    let pos = read_fen(fen, CastlingMode::Standard, FenPolicy::Strict).unwrap();
    let mut g = Game::new(pos, CastlingMode::Standard);
    let strong_color = if strong_is_white {
        shakmaty::Color::White
    } else {
        shakmaty::Color::Black
    };
    for _ in 0..200 {
        if g.root.is_game_over() || g.root.halfmoves() >= 100 {
            break;
        }
        let mover = g.root.turn();
        let s = if mover.is_white() {
            &mut white
        } else {
            &mut black
        };
        let out = s.run(&g, &Limits::default());
        // A side sure of a decisive lead (a rook or more) has won.
        if out.score.0.abs() >= 600 {
            let leader_wins = out.score.0 > 0;
            return if leader_wins == (mover == strong_color) {
                1.0
            } else {
                0.0
            };
        }
        g.play(out.best_move.unwrap());
    }
    if g.root.is_checkmate() {
        if !g.root.turn() == strong_color {
            1.0
        } else {
            0.0
        }
    } else {
        0.5
    }
}

#[test]
fn a_short_match_shows_the_higher_level_stronger() {
    let openings = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2",
    ];
    let mut points = 0.0;
    let mut games = 0;
    for fen in openings {
        for strong_is_white in [true, false] {
            points += game(fen, strong_is_white, 1320, 1800);
            games += 1;
        }
    }
    eprintln!("1800 against 1320: {points} of {games}");
    assert!(
        points / games as f64 >= 0.75,
        "the 1800 level scored {points} of {games} against 1320"
    );
}
