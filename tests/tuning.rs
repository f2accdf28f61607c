//! Data generation and the Texel tuner: gradients, convergence, the generated weights file, and
//! the data `cutoff datagen` writes.

use std::path::PathBuf;
use std::process::Command;

use cutoff::datagen::{play_game, GameConfig, Rng};
use cutoff::eval::pst::TABLE;
use cutoff::eval::{breakdown, evaluate};
use cutoff::position::Game;
use cutoff::search::Searcher;
use cutoff::tune::features::{self, Dataset, PARAMS};
use cutoff::tune::weights_file::{current_totals, Weights};
use cutoff::tune::{error, error_and_gradient, fit_k, train, white_eval, TrainConfig};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

/// Openings for the tests' games (a short, fixed book: the tests need no files from outside).
const BOOK: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -",
    "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -",
    "rnbqkb1r/pppppppp/5n2/8/2P5/8/PP1PPPPP/RNBQKBNR w KQkq -",
];

fn book() -> Vec<Game> {
    BOOK.iter()
        .map(|f| Game::from_fen(&format!("{f} 0 1"), CastlingMode::Standard).unwrap())
        .collect()
}

/// Positions from seeded random games: varied material, phases and sides to move.
fn random_positions(games: u64, plies: usize) -> Vec<Chess> {
    let mut out = Vec::new();
    for g in 0..games {
        let mut rng = Rng::for_game(42, g);
        let mut pos = Chess::default();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
            out.push(pos.clone());
        }
    }
    out
}

/// A small labelled data set from quick self-play games.
fn self_play_dataset(games: u64) -> Dataset {
    let book = book();
    let config = GameConfig {
        nodes: 300,
        random_plies: (2, 4),
    };
    let mut searcher = Searcher::new(1);
    let mut data = Dataset::default();
    for index in 0..games {
        let record = play_game(&mut searcher, &book, &config, 5, index).unwrap();
        let result = record.result.label().parse::<f32>().unwrap();
        for fen in &record.fens {
            let (board, _) = features::parse_line(&format!("{fen} | 0.5")).unwrap();
            data.push(&board, result);
        }
    }
    data
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cutoff-tuning-{}-{name}", std::process::id()))
}

#[test]
fn feature_extraction_reproduces_evaluate_exactly() {
    let positions = random_positions(60, 120);
    assert!(positions.len() > 3000);
    let totals = current_totals();
    let mut data = Dataset::default();
    for pos in &positions {
        data.push(pos.board(), 0.5);
    }
    for (i, pos) in positions.iter().enumerate() {
        let (f, phase, _) = data.get(i);
        let white = features::white_eval(f, phase, &TABLE);
        assert_eq!(white, breakdown(pos).white, "{}", fen(pos));
        let stm = if pos.turn().is_white() { white } else { -white };
        assert_eq!(stm, evaluate(pos).0);
        // The tuner's fractional evaluation differs only by the final integer division.
        let fractional = white_eval(&data, i, &totals);
        assert!((fractional - f64::from(white)).abs() < 1.0, "{}", fen(pos));
    }
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

#[test]
fn analytic_gradient_matches_finite_differences() {
    let positions = random_positions(4, 60);
    let mut data = Dataset::default();
    for (i, pos) in positions.iter().enumerate() {
        data.push(pos.board(), [0.0, 0.5, 1.0][i % 3]);
    }
    // Move away from the starting weights so that no term happens to vanish.
    let mut params = current_totals();
    let mut rng = Rng::for_game(9, 0);
    for p in params.iter_mut() {
        *p += rng.below(41) as f64 - 20.0;
    }
    let k = 1.3;
    let mut grad = vec![0.0; PARAMS];
    error_and_gradient(&data, &params, k, &mut grad);
    let step = 1e-3;
    let mut checked = 0;
    for index in 0..PARAMS {
        let mut plus = params.clone();
        plus[index] += step;
        let mut minus = params.clone();
        minus[index] -= step;
        let numeric = (error(&data, &plus, k) - error(&data, &minus, k)) / (2.0 * step);
        let tolerance = 1e-7 + 1e-4 * numeric.abs();
        assert!(
            (grad[index] - numeric).abs() <= tolerance,
            "parameter {index}: analytic {} numeric {numeric}",
            grad[index]
        );
        if numeric.abs() > 1e-7 {
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} parameters had a gradient");
}

#[test]
fn tuning_on_self_play_data_lowers_the_error() {
    let data = self_play_dataset(6);
    assert!(data.len() > 100, "{} positions", data.len());
    let mut params = current_totals();
    let k = fit_k(&data, &params);
    assert!(k > 0.05 && k < 5.0, "K = {k}");
    let before = error(&data, &params, k);
    let config = TrainConfig {
        epochs: 60,
        lr: 1.0,
        l2: 0.0,
        time_limit: None,
    };
    let epochs = train(&data, None, &mut params, k, &config, |_| {});
    let after = error(&data, &params, k);
    assert_eq!(epochs.len(), 60);
    assert_eq!(epochs[0].error, before);
    assert!(after < 0.98 * before, "error {before} -> {after}");
}

#[test]
fn l2_penalty_holds_parameters_near_their_start() {
    let data = self_play_dataset(3);
    let start = current_totals();
    let k = fit_k(&data, &start);
    let distance = |l2: f64| {
        let mut params = start.clone();
        let config = TrainConfig {
            epochs: 100,
            lr: 2.0,
            l2,
            time_limit: None,
        };
        train(&data, None, &mut params, k, &config, |_| {});
        params
            .iter()
            .zip(&start)
            .map(|(p, s)| (p - s).abs())
            .fold(0.0, f64::max)
    };
    let (free, held) = (distance(0.0), distance(1e-4));
    assert!(free > 20.0, "unpenalised run moved at most {free}");
    assert!(held < 0.25 * free, "penalised {held} vs free {free}");
}

#[test]
fn early_stopping_keeps_the_epoch_with_the_lowest_validation_error() {
    let data = self_play_dataset(6);
    let (train_set, validation) = data.split(3, 20);
    assert!(!validation.is_empty());
    let mut params = current_totals();
    let k = fit_k(&train_set, &params);
    let config = TrainConfig {
        epochs: 80,
        lr: 3.0,
        l2: 0.0,
        time_limit: None,
    };
    let epochs = train(
        &train_set,
        Some(&validation),
        &mut params,
        k,
        &config,
        |_| {},
    );
    let best = epochs
        .iter()
        .map(|e| e.validation.unwrap())
        .fold(f64::INFINITY, f64::min);
    assert_eq!(error(&validation, &params, k), best);
}

#[test]
fn datagen_writes_quiet_labelled_positions_deterministically() {
    let book_path = temp_path("book.epd");
    std::fs::write(&book_path, BOOK.join(" bm e4;\n")).unwrap();
    let run = |threads: &str, out: &PathBuf| {
        let status = Command::new(env!("CARGO_BIN_EXE_cutoff"))
            .args(["datagen", "--book"])
            .arg(&book_path)
            .arg("--out")
            .arg(out)
            .args(["--games", "2", "--nodes", "200", "--seed", "3"])
            .args(["--threads", threads])
            .output()
            .unwrap();
        assert!(status.status.success(), "{status:?}");
        let mut lines: Vec<String> = std::fs::read_to_string(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        lines.sort();
        lines
    };
    let (out1, out2) = (temp_path("one.txt"), temp_path("two.txt"));
    let lines = run("2", &out1);
    assert!(lines.len() >= 10, "{} lines", lines.len());
    let mut searcher = Searcher::new(1);
    for line in &lines {
        let (fen, result) = line.rsplit_once(" | ").unwrap();
        assert!(["1.0", "0.5", "0.0"].contains(&result), "{line}");
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        assert!(!pos.is_check(), "{line}");
        assert!(!pos.legal_moves().is_empty(), "{line}");
        assert_eq!(searcher.quiescence(&pos), evaluate(&pos), "{line}");
    }
    assert_eq!(run("1", &out2), lines, "same seed, other thread count");
    for p in [book_path, out1, out2] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn tune_command_writes_a_weights_file_naming_its_command() {
    let data_path = temp_path("data.txt");
    let out = temp_path("weights.rs");
    let mut text = String::new();
    for (i, pos) in random_positions(3, 40).iter().enumerate() {
        text.push_str(&format!(
            "{} | {}\n",
            fen(pos),
            ["1.0", "0.5", "0.0"][i % 3]
        ));
    }
    std::fs::write(&data_path, text).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["tune", "--data"])
        .arg(&data_path)
        .arg("--out")
        .arg(&out)
        .args(["--epochs", "5", "--validation", "0", "--threads", "1"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let written = std::fs::read_to_string(&out).unwrap();
    let (weights, source) = Weights::parse(&written).unwrap();
    assert!(source.starts_with("cutoff tune --data "), "{source}");
    assert!(
        source.ends_with("--epochs 5 --validation 0 --threads 1"),
        "{source}"
    );
    assert_eq!(weights.render(&source), written);
    assert_ne!(
        weights,
        Weights::current(),
        "five Adam steps changed nothing"
    );
    for p in [data_path, out] {
        let _ = std::fs::remove_file(p);
    }
}
