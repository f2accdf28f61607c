//! Data generation and the Texel tuner: traces that reproduce the evaluation, gradients,
//! convergence, the generated weights file, and the data `cutoff datagen` writes.

use std::path::PathBuf;
use std::process::Command;

use cutoff::datagen::record::{decode_all, Record};
use cutoff::datagen::{play_game, GameConfig, Rng};
use cutoff::eval::classical::params::{self, COUNT, GROUPS};
use cutoff::eval::classical::{breakdown, evaluate};
use cutoff::position::Game;
use cutoff::search::Searcher;
use cutoff::tune::features::{self, Dataset, PARAMS};
use cutoff::tune::weights_file::{self, current};
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
        ..GameConfig::default()
    };
    let mut searcher = Searcher::new(1);
    let mut records = Vec::new();
    for index in 0..games {
        records.extend(
            play_game(&mut searcher, &book, &config, 5, index)
                .unwrap()
                .records,
        );
    }
    Dataset::from_records(&records)
}

fn current_totals() -> Vec<f64> {
    weights_file::to_params(&current())
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cutoff-tuning-{}-{name}", std::process::id()))
}

#[test]
fn traces_reproduce_evaluate_exactly() {
    let positions = random_positions(60, 120);
    assert!(positions.len() > 3000);
    let totals = current_totals();
    let weights = current();
    let mut data = Dataset::default();
    for pos in &positions {
        data.push(&features::trace(pos.board(), pos.turn()), 0.5, 0.0);
    }
    for (i, pos) in positions.iter().enumerate() {
        let range = data.offsets[i] as usize..data.offsets[i + 1] as usize;
        let white = features::white_eval(
            &data.entries[range],
            data.phases[i],
            data.scales[i],
            &weights,
        );
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
fn analytic_gradient_matches_finite_differences_in_every_group() {
    let positions = random_positions(8, 80);
    let mut data = Dataset::default();
    for (i, pos) in positions.iter().enumerate() {
        let t = features::trace(pos.board(), pos.turn());
        data.push(&t, [0.0, 0.5, 1.0][i % 3], 0.0);
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
    let mut checked = vec![0; GROUPS.len()];
    for index in 0..PARAMS {
        let mut plus = params.clone();
        plus[index] += step;
        let mut minus = params.clone();
        minus[index] -= step;
        let numeric = (error(&data, &plus, k) - error(&data, &minus, k)) / (2.0 * step);
        let tolerance = 1e-7 + 1e-4 * numeric.abs();
        let (group, _) = params::group_of(index % COUNT);
        assert!(
            (grad[index] - numeric).abs() <= tolerance,
            "parameter {index} ({group}): analytic {} numeric {numeric}",
            grad[index]
        );
        if numeric.abs() > 1e-7 {
            checked[GROUPS.iter().position(|g| g.0 == group).unwrap()] += 1;
        }
    }
    // Every group that random positions exercise had a gradient to compare.
    for (g, &(name, _, _)) in GROUPS.iter().enumerate() {
        if !["PASSED_BLOCKED", "OUTPOST", "ROOK_SEVENTH", "HANGING"].contains(&name) {
            assert!(checked[g] > 0, "no gradient checked in {name}");
        }
    }
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
fn datagen_writes_every_searched_position_deterministically_and_appends() {
    let book_path = temp_path("book.epd");
    std::fs::write(&book_path, BOOK.join(" bm e4;\n")).unwrap();
    let run = |threads: &str, out: &PathBuf, games: &str, append: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cutoff"));
        cmd.args(["datagen", "--book"])
            .arg(&book_path)
            .arg("--out")
            .arg(out)
            .args(["--games", games, "--nodes", "200", "--seed", "3"])
            .args(["--threads", threads]);
        if append {
            cmd.arg("--append");
        }
        let output = cmd.output().unwrap();
        assert!(output.status.success(), "{output:?}");
        let mut records = decode_all(&std::fs::read(out).unwrap()).unwrap();
        records.sort_by_key(|r| (r.game, r.ply));
        records
    };
    let (out1, out2) = (temp_path("one.bin"), temp_path("two.bin"));
    let _ = std::fs::remove_file(&out1);
    let _ = std::fs::remove_file(&out2);
    let records = run("2", &out1, "2", false);
    assert!(records.len() >= 20, "{} records", records.len());
    let mut quiet = 0;
    for r in &records {
        let pos = r.position().unwrap();
        assert!(!pos.legal_moves().is_empty());
        assert_eq!(r.in_check, pos.is_check());
        assert!([0.0, 0.5, 1.0].contains(&r.result));
        quiet += usize::from(r.is_quiet());
    }
    assert!(quiet > 0 && quiet < records.len(), "{quiet} quiet");
    // Every ply of each game is there, in order.
    for game in [0, 1] {
        let plies: Vec<u16> = records
            .iter()
            .filter(|r| r.game == game)
            .map(|r| r.ply)
            .collect();
        assert_eq!(plies, (0..plies.len() as u16).collect::<Vec<_>>());
    }
    assert_eq!(
        run("1", &out2, "2", false),
        records,
        "same seed, other thread count"
    );
    // Refuses to overwrite; appends new games after a cut-off partial record.
    let refused = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["datagen", "--book"])
        .arg(&book_path)
        .arg("--out")
        .arg(&out1)
        .args(["--games", "1"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let mut bytes = std::fs::read(&out1).unwrap();
    bytes.extend_from_slice(&[7; 13]);
    std::fs::write(&out1, bytes).unwrap();
    let appended = run("1", &out1, "1", true);
    assert!(appended.len() > records.len());
    assert!(appended.iter().any(|r| r.game == 2), "the next game index");
    assert!(appended.iter().all(|r| r.game <= 2));
    assert_eq!(std::fs::metadata(&out1).unwrap().len() % 40, 0);
    for p in [book_path, out1, out2] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn datagen_dump_prints_one_line_per_record() {
    let out = temp_path("dump.bin");
    let pos = Chess::default();
    let m = pos.legal_moves()[0];
    let mut bytes = Vec::new();
    for ply in 0..3 {
        bytes.extend_from_slice(&Record::new(&pos, cutoff::types::Score(25), &m, ply, 4).encode());
    }
    std::fs::write(&out, bytes).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["datagen", "--dump"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[2].starts_with(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 25 | 0.5 | game 4 ply 2 |"
        ),
        "{}",
        lines[2]
    );
    let _ = std::fs::remove_file(out);
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
    let (weights, source) = weights_file::parse(&written).unwrap();
    assert!(source.starts_with("cutoff tune --data "), "{source}");
    assert!(
        source.ends_with("--epochs 5 --validation 0 --threads 1"),
        "{source}"
    );
    assert_eq!(weights_file::render(&weights, &source), written);
    assert_ne!(weights, current(), "five Adam steps changed nothing");
    for p in [data_path, out] {
        let _ = std::fs::remove_file(p);
    }
}

/// The committed sample: the first 20 games (1,927 records) of
/// `cutoff datagen --book 8moves_v3.epd --nodes 5000 --threads 16 --seed 11` (docs/tuning.md).
const SAMPLE: &[u8] = include_bytes!("data/selfplay-sample.bin");

#[test]
fn the_committed_self_play_sample_replays_as_whole_games() {
    assert_eq!(SAMPLE.len() % 40, 0);
    let records = decode_all(SAMPLE).unwrap();
    assert_eq!(records.len(), 1927);
    let mut games = std::collections::BTreeSet::new();
    for (i, r) in records.iter().enumerate() {
        assert_eq!(
            r.encode().as_slice(),
            &SAMPLE[i * 40..(i + 1) * 40],
            "record {i}"
        );
        let pos = r.position().unwrap();
        assert_eq!(pos.is_check(), r.in_check, "record {i}");
        let best: shakmaty::uci::UciMove = r.best_move_uci().parse().unwrap();
        let best = best
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("record {i}: {e}"));
        assert_eq!(best.is_capture(), r.capture, "record {i}");
        assert_eq!(best.is_promotion(), r.promotion, "record {i}");
        assert!([0.0, 0.5, 1.0].contains(&r.result));
        games.insert(r.game);
        // A game is stored whole and in order: the next record is the position after the best
        // move, one searched ply later, with the same result.
        if let Some(next) = records.get(i + 1).filter(|n| n.game == r.game) {
            assert_eq!(next.ply, r.ply + 1, "record {i}");
            assert_eq!(next.result, r.result, "record {i}");
            let after = pos.clone().play(best).unwrap();
            let (a, n) = (fen(&after), fen(&next.position().unwrap()));
            // Move counters are not stored: compare board, side, castling and en passant.
            let key = |f: &str| f.split(' ').take(4).collect::<Vec<_>>().join(" ");
            assert_eq!(key(&a), key(&n), "record {i}");
        }
    }
    assert_eq!(games.len(), 20);
    let quiet = records.iter().filter(|r| r.is_quiet()).count();
    assert!(
        quiet > records.len() / 3 && quiet < records.len(),
        "{quiet} quiet"
    );
}
