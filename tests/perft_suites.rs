//! Perft against published counts: whole suites, known single values, and the fast modes
//! (threads, hash table, divide) against the plain count.
//!
//! The deep runs are ignored by default; run them with
//! `cargo test --release --test perft_suites -- --ignored <name>`.

use std::path::Path;
use std::process::Command;

use cutoff::files::read_lines;
use cutoff::perft::{check_suite, divide, perft, perft_with, SuiteReport};
use cutoff::position::{pos, read_fen, FenPolicy};
use indicatif::ProgressBar;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Chess Programming Wiki perft position 3: en passant and discovered checks.
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
/// Chess Programming Wiki perft position 4: promotions and castling under attack.
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
/// The first line of the Chess960 suite.
const CHESS960: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";

fn suite(file: &str, max_depth: Option<u32>) -> SuiteReport {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("epd").join(file);
    let lines = read_lines(&path).unwrap();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    check_suite(&lines, max_depth, threads, &ProgressBar::hidden())
}

fn assert_passes(report: &SuiteReport, positions: usize) {
    assert!(report.errors.is_empty(), "unreadable: {:?}", report.errors);
    assert!(
        report.mismatches.is_empty(),
        "mismatches: {:#?}",
        report.mismatches
    );
    assert_eq!(report.positions, positions);
}

#[test]
fn standard_suite_matches_every_count() {
    let report = suite("perft_standard.epd", None);
    assert_passes(&report, 128);
    assert_eq!(report.checked, 759);
}

#[test]
fn chess960_suite_matches_to_depth_4() {
    let report = suite("perft_960.epd", Some(4));
    assert_passes(&report, 960);
    assert_eq!(report.checked, 960 * 4);
}

#[test]
fn classic_positions_match_to_depth_5() {
    let report = suite("perft_classic.epd", Some(5));
    assert_passes(&report, 7);
}

#[test]
#[ignore = "about 30 minutes on 2 cores"]
fn chess960_suite_matches_every_count() {
    assert_passes(&suite("perft_960.epd", None), 960);
}

#[test]
#[ignore = "Kiwipete depth 6 alone is 8 billion leaves"]
fn classic_positions_match_every_count() {
    assert_passes(&suite("perft_classic.epd", None), 7);
}

#[test]
fn startpos_depth_5_matches_known_count() {
    assert_eq!(perft(&Chess::default(), 5), 4_865_609);
}

#[test]
fn kiwipete_depth_4_matches_known_count() {
    assert_eq!(perft(&pos(KIWIPETE), 4), 4_085_603);
}

#[test]
fn threads_and_hash_give_the_plain_totals() {
    let cases = [
        (pos(KIWIPETE), 4),
        (pos(POSITION_3), 5),
        (pos(POSITION_4), 4),
        (
            read_fen(CHESS960, CastlingMode::Chess960, FenPolicy::Strict).unwrap(),
            4,
        ),
    ];
    for (pos, depth) in &cases {
        let plain = perft(pos, *depth);
        for threads in [1, 2] {
            for hash_mb in [0, 1] {
                assert_eq!(
                    perft_with(pos, *depth, threads, hash_mb),
                    plain,
                    "threads {threads}, hash {hash_mb} MB"
                );
            }
        }
    }
}

#[test]
fn hashed_perft_stays_exact_when_the_table_overflows() {
    // 1 MiB holds 65 536 entries: far fewer than the subtrees of Kiwipete depth 5,
    // so entries are overwritten constantly and every lookup must still verify its key.
    let pos = pos(KIWIPETE);
    assert_eq!(perft_with(&pos, 5, 2, 1), 193_690_690);
}

#[test]
fn divide_gives_every_root_move_its_subtree_count() {
    let pos = pos(POSITION_4);
    let split = divide(&pos, 4, 2, 1);
    assert_eq!(split.len(), pos.legal_moves().len());
    for (m, n) in &split {
        let mut child = pos.clone();
        child.play_unchecked(*m);
        assert_eq!(*n, perft(&child, 3), "{m}");
    }
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 422_333);
}

fn cutoff(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .output()
        .unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn divide_prints_one_uci_line_per_root_move_then_the_total() {
    let (ok, out) = cutoff(&["perft", "2", "--divide", "--threads", "1"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.iter().filter(|l| l.ends_with(": 20")).count(), 20);
    assert!(lines.contains(&"e2e4: 20"));
    assert!(lines.contains(&"Nodes searched: 400"));
}

#[test]
fn castling_prints_king_to_g1_normally_and_king_takes_rook_in_chess960() {
    let (ok, out) = cutoff(&["perft", "1", "--divide", "--fen", KIWIPETE]);
    assert!(ok);
    assert!(out.contains("e1g1: 1") && out.contains("e1c1: 1"), "{out}");
    let (ok, out) = cutoff(&["perft", "1", "--divide", "--chess960", "--fen", KIWIPETE]);
    assert!(ok);
    assert!(out.contains("e1h1: 1") && out.contains("e1a1: 1"), "{out}");
}

#[test]
fn perft_refuses_a_bad_fen_without_crashing() {
    let (ok, _) = cutoff(&["perft", "2", "--fen", "not a fen"]);
    assert!(!ok);
}

#[test]
fn perft_suite_reports_mismatches_and_bad_lines_and_fails() {
    let dir = std::env::temp_dir().join(format!("cutoff-perft-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.epd");
    let bad = dir.join("bad.epd");
    std::fs::write(&good, format!("{KIWIPETE} ;D1 48 ;D2 2039\n")).unwrap();
    std::fs::write(
        &bad,
        format!("{KIWIPETE} ;D1 48 ;D2 2040\nnot a position ;D1 3\n{POSITION_3} ;D1 14\n"),
    )
    .unwrap();

    let (ok, out) = cutoff(&["perft-suite", good.to_str().unwrap()]);
    assert!(ok, "{out}");
    assert!(out.contains("0 mismatches"), "{out}");

    let (ok, out) = cutoff(&["perft-suite", bad.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.contains("MISMATCH line 1:"), "{out}");
    assert!(out.contains("depth 2 expected 2040 found 2039"), "{out}");
    assert!(out.contains("ERROR line 2:"), "{out}");
    assert!(
        out.contains("2 positions, 3 counts checked, 1 mismatches, 1 unreadable"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn perft_suite_max_depth_skips_deeper_counts() {
    let dir = std::env::temp_dir().join(format!("cutoff-perft-depth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wrong_deep.epd");
    // The D3 count is wrong, but only D1..D2 are checked.
    std::fs::write(&file, format!("{KIWIPETE} ;D1 48 ;D2 2039 ;D3 1\n")).unwrap();
    let (ok, out) = cutoff(&["perft-suite", file.to_str().unwrap(), "--max-depth", "2"]);
    assert!(ok, "{out}");
    let (ok, _) = cutoff(&["perft-suite", file.to_str().unwrap()]);
    assert!(!ok);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The positions of the three perft suites (standard, classic, Chess960), only every
/// `chess960_step`-th Chess960 start, to keep a test that walks their trees short.
fn suite_positions(chess960_step: usize) -> Vec<Chess> {
    let mut positions = Vec::new();
    for (file, mode) in [
        ("perft_standard.epd", CastlingMode::Standard),
        ("perft_classic.epd", CastlingMode::Standard),
        ("perft_960.epd", CastlingMode::Chess960),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("epd").join(file);
        let step = if mode == CastlingMode::Chess960 {
            chess960_step
        } else {
            1
        };
        for (_, line) in read_lines(&path).unwrap().into_iter().step_by(step) {
            let fen = line.split(';').next().unwrap().trim();
            if fen.is_empty() || fen.starts_with('#') {
                continue;
            }
            let mode_pos =
                cutoff::position::read_fen(fen, mode, cutoff::position::FenPolicy::Strict);
            positions.push(mode_pos.unwrap());
        }
    }
    positions
}

/// The key the search gives a child, updated move by move (`position::key_after`, finished with
/// the child), equals the key computed from scratch at every node of the perft suites' trees
/// to depth 3 (every kind of move, lost castling rights, en passant that comes and goes,
/// Chess960 castling), and the early key, which the search prefetches before playing the move,
/// is already exact unless the move is a double push beside an enemy pawn.
#[test]
fn the_incremental_key_equals_the_full_key_at_every_node_of_the_suites() {
    use cutoff::position::{child_key, full_key, key_after, MoveDelta};
    fn walk(pos: &Chess, key: u64, depth: u32, counts: &mut [u64; 2]) {
        assert_eq!(
            key,
            full_key(pos),
            "{}",
            Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
        );
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let early = key_after(pos, key, MoveDelta::of(pos, &m));
            let k = child_key(pos, key, m, &child);
            counts[usize::from(early.key != k)] += 1;
            walk(&child, k, depth - 1, counts);
        }
    }
    let mut counts = [0u64; 2];
    // Every eighth Chess960 start keeps the test at a few seconds.
    for pos in suite_positions(8) {
        walk(&pos, cutoff::position::full_key(&pos), 3, &mut counts);
    }
    eprintln!(
        "keys checked: {} early keys exact, {} finished from the child",
        counts[0], counts[1]
    );
    // Moves whose child's en passant had to be read from the child exist, and are rare.
    assert!(counts[1] > 0 && counts[1] * 100 < counts[0], "{counts:?}");
}

/// The table's 16-bit move, decoded without generating the moves (`PackedMove::legal_in`), is
/// exactly the legal move it packs and nothing else: every one of the 65,536 values, in every
/// position of the perft suites and their children (en passant, pins, checks, promotions,
/// castling in both modes), agrees with looking the value up in `legal_moves`.
#[test]
fn the_table_move_decoder_agrees_with_the_legal_moves_for_every_value() {
    use cutoff::search::tables::tt::PackedMove;
    fn check(pos: &Chess, counts: &mut [u64; 2]) {
        let legal = pos.legal_moves();
        for bits in 0..=u16::MAX {
            let packed = PackedMove::from_bits(bits);
            let expected = if packed.is_none() {
                None
            } else {
                legal
                    .iter()
                    .copied()
                    .find(|&m| PackedMove::new(m) == packed)
            };
            assert_eq!(
                packed.legal_in(pos),
                expected,
                "{bits:#06x} in {}",
                Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
            );
            counts[usize::from(expected.is_some())] += 1;
        }
    }
    let mut counts = [0u64; 2];
    for pos in suite_positions(16) {
        check(&pos, &mut counts);
        // Children: the replies' en passant, checks and pins; every fourth keeps it short.
        for m in pos.legal_moves().into_iter().step_by(4) {
            let mut child = pos.clone();
            child.play_unchecked(m);
            check(&child, &mut counts);
        }
    }
    eprintln!(
        "values decoded: {} to a legal move, {} to none",
        counts[1], counts[0]
    );
    assert!(counts[1] > 10_000, "{counts:?}");
}

/// The search's own generators, stage by stage, are the legal moves split: at every node of the
/// perft suites' trees to depth 2 (Chess960 castling, en passant, pins, promotions) where the
/// side to move is not in check, the captures and promotions (`noisy_moves`, any order) and the
/// quiet moves (`quiet_moves`, in shakmaty's order) together are exactly `legal_moves`.
#[test]
fn the_staged_generators_split_the_legal_moves_at_every_node_of_the_suites() {
    use cutoff::position::{noisy_moves, quiet_moves};
    use shakmaty::MoveList;
    fn check(pos: &Chess, depth: u32, nodes: &mut u64) {
        let legal = pos.legal_moves();
        if !pos.is_check() {
            let fen = Fen::from_position(pos, shakmaty::EnPassantMode::Legal);
            let mut quiet = MoveList::new();
            quiet_moves(pos, &mut quiet);
            let mut expected = legal.clone();
            expected.retain(|m| !m.is_capture() && !m.is_promotion());
            assert_eq!(quiet, expected, "quiet moves of {fen}");
            let mut noisy = MoveList::new();
            noisy_moves(pos, &mut noisy);
            let mut expected = legal.clone();
            expected.retain(|m| m.is_capture() || m.is_promotion());
            noisy.sort_by_key(|m| m.to_string());
            expected.sort_by_key(|m| m.to_string());
            assert_eq!(noisy, expected, "captures and promotions of {fen}");
            *nodes += 1;
        }
        if depth > 0 {
            for m in legal {
                let mut child = pos.clone();
                child.play_unchecked(m);
                check(&child, depth - 1, nodes);
            }
        }
    }
    let mut nodes = 0;
    for pos in suite_positions(8) {
        check(&pos, 2, &mut nodes);
    }
    eprintln!("nodes checked: {nodes}");
    assert!(nodes > 100_000, "{nodes}");
}
