//! EPD reading (operations, quoting, SAN and UCI moves, bad lines) and the runner's scoring,
//! judged on fixed moves so nothing here depends on how well the search plays.

use std::path::Path;
use std::process::Command;

use cutoff::epd::format::{parse_line, parse_move, EpdRecord};
use cutoff::epd::problem::{Problem, Tally};
use cutoff::files::read_lines;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

/// WAC.274: the one `am` position of Win At Chess.
const WAC_274: &str = r#"8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - am Rd6; bm Rb6 Rg5+; id "WAC.274";"#;
/// STS Undermine.001, with its points table.
const STS_1: &str = r#"1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id "STS(v1.0) Undermine.001"; c0 "f5=10, Be5+=2, Bf2=3, Bg4=2"; c7 "f5 Be5+ Bf2 Bg4"; c8 "10 2 3 2"; c9 "f4f5 d4e5 d4f2 f3g4";"#;

fn record(line: &str) -> EpdRecord {
    parse_line(line).unwrap().unwrap()
}

fn problem(line: &str) -> Problem {
    Problem::parse(1, line).unwrap().unwrap()
}

fn uci(pos: &Chess, text: &str) -> Move {
    text.parse::<UciMove>().unwrap().to_move(pos).unwrap()
}

#[test]
fn bm_am_and_id_operands_are_read() {
    let r = record(WAC_274);
    assert_eq!(r.fen, "8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - -");
    assert_eq!(r.id(), Some("WAC.274"));
    assert_eq!(r.operation("bm").unwrap().operands, ["Rb6", "Rg5+"]);
    assert_eq!(r.moves("am").unwrap(), [uci(&r.position, "g6d6")]);
    assert_eq!(
        r.moves("bm").unwrap(),
        [uci(&r.position, "g6b6"), uci(&r.position, "g6g5")]
    );
}

#[test]
fn quoted_operands_keep_spaces_and_semicolons() {
    let r = record(r#"4k3/8/8/8/8/8/8/4K2R w K - c0 "a; b c"; id "x;y"; bm O-O"#);
    assert_eq!(r.operation("c0").unwrap().operands, ["a; b c"]);
    assert_eq!(r.id(), Some("x;y"));
    assert_eq!(r.moves("bm").unwrap(), [uci(&r.position, "e1g1")]);
}

#[test]
fn sts_c0_becomes_a_points_table() {
    let r = record(STS_1);
    let pos = &r.position;
    let table = r.move_points().unwrap().unwrap();
    assert_eq!(
        table,
        [
            (uci(pos, "f4f5"), 10),
            (uci(pos, "d4e5"), 2),
            (uci(pos, "d4f2"), 3),
            (uci(pos, "f3g4"), 2)
        ]
    );
}

#[test]
fn a_prose_c0_is_a_comment_not_a_points_table() {
    let r = record(
        r#"r3r1k1/5p2/pQ1b2pB/1p6/4p3/6P1/Pq2BP1P/2R3K1 b - - bm Ba3 Be5 Bf8 e3; c0 "All win but e3 is best."; id "WAC.150";"#,
    );
    assert_eq!(r.move_points().unwrap(), None);
}

#[test]
fn san_and_uci_moves_are_both_accepted() {
    let pos = record("r3k2r/1P6/8/8/8/8/8/R3K1NR w KQkq -").position;
    for (text, expected) in [
        ("bxa8=Q+", "b7a8q"),
        ("b7a8q", "b7a8q"),
        ("b8=N", "b7b8n"),
        ("b7b8r", "b7b8r"),
        ("Nf3", "g1f3"),
        ("Nf3!", "g1f3"),
        ("g1f3", "g1f3"),
    ] {
        let m = parse_move(&pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m, uci(&pos, expected), "{text}");
    }
    assert!(parse_move(&pos, "Ke3").is_err(), "illegal SAN accepted");
    assert!(
        parse_move(&pos, "e2e4").is_err(),
        "illegal UCI move accepted"
    );
    assert!(parse_move(&pos, "xyz").is_err());
}

#[test]
fn castling_reads_in_every_notation() {
    let pos = record("r3k2r/8/8/8/8/8/8/R3K2R w KQkq -").position;
    let short = uci(&pos, "e1g1");
    for text in ["O-O", "e1g1", "e1h1", "O-O+"] {
        assert_eq!(parse_move(&pos, text).unwrap(), short, "{text}");
    }
    assert_eq!(parse_move(&pos, "O-O-O").unwrap(), uci(&pos, "e1c1"));
}

#[test]
fn perft_lines_read_clocks_and_depth_counts() {
    let r = record("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197");
    assert_eq!(r.fen, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(r.perft_counts().unwrap(), [(1, 15), (2, 66), (3, 1197)]);
    assert!(record("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 fifteen")
        .perft_counts()
        .is_err());
}

#[test]
fn shredder_fen_castling_is_read_as_chess960() {
    let r = record("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21");
    assert_eq!(r.castling_mode, CastlingMode::Chess960);
    assert_eq!(record(STS_1).castling_mode, CastlingMode::Standard);
}

#[test]
fn blank_and_comment_lines_are_skipped() {
    assert!(parse_line("   ").unwrap().is_none());
    assert!(parse_line("# a comment").unwrap().is_none());
}

#[test]
fn bad_lines_are_errors_not_panics() {
    for line in [
        "rnbqkbnr/pppppppp w",                                         // too few fields
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - bm e4;", // bad board
        "8/8/8/8/8/8/8/8 w - - bm e4;",                                // no kings
        r#"4k3/8/8/8/8/8/8/4K3 w - - id "unterminated"#,
        "4k3/8/8/8/8/8/8/4K3 w - - 1bad operation;",
    ] {
        assert!(parse_line(line).is_err(), "accepted: {line}");
    }
    // The position reads, but its best move is illegal: the problem is unusable.
    let illegal_bm = "4k3/8/8/8/8/8/8/4K3 w - - bm Qh5; id \"x\";";
    assert!(parse_line(illegal_bm).unwrap().is_some());
    assert!(Problem::parse(1, illegal_bm).is_err());
}

/// `bm ;` (or `am ;`) lists no move: the line was read as a position with nothing to judge,
/// and a suite of such lines reported `solved 0/0` and exit 0 (issue 80). It is a bad line,
/// as an unreadable move is.
#[test]
fn an_empty_bm_or_am_list_is_a_bad_line() {
    for line in [
        "4k3/8/8/8/8/8/8/4K3 w - - bm ;",
        "4k3/8/8/8/8/8/8/4K3 w - - bm;",
        "4k3/8/8/8/8/8/8/4K3 w - - bm",
        "4k3/8/8/8/8/8/8/4K3 w - - id \"x\"; am ; bm Kd2;",
    ] {
        assert!(parse_line(line).unwrap().is_some(), "{line}");
        let e = Problem::parse(1, line).unwrap_err();
        assert!(e.ends_with("m: no move listed"), "{line}: {e}");
    }
    let dir = std::env::temp_dir().join(format!("cutoff-epd-empty-bm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("empty-bm.epd");
    std::fs::write(
        &file,
        "# one position, no move\n4k3/8/8/8/8/8/8/4K3 w - - bm ;\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["epd", file.to_str().unwrap(), "--depth", "1"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("SKIP line 2: bm: no move listed"),
        "{stderr}"
    );
    assert!(!stdout.contains("solved"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bm_passes_with_any_listed_move_and_fails_otherwise() {
    let p = problem(WAC_274);
    let pos = &p.record.position;
    assert_eq!(p.judge(Some(uci(pos, "g6b6"))).solved, Some(true));
    assert_eq!(p.judge(Some(uci(pos, "g6g5"))).solved, Some(true));
    assert_eq!(p.judge(Some(uci(pos, "g6c6"))).solved, Some(false));
    assert_eq!(p.judge(None).solved, Some(false));
}

#[test]
fn am_fails_when_the_avoided_move_is_chosen() {
    let p = problem(r#"8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - am Rd6; id "am only";"#);
    let pos = &p.record.position;
    assert_eq!(p.judge(Some(uci(pos, "g6d6"))).solved, Some(false));
    assert_eq!(p.judge(Some(uci(pos, "g6c6"))).solved, Some(true));
}

#[test]
fn c0_points_go_to_listed_moves_and_zero_to_others() {
    let p = problem(STS_1);
    let pos = &p.record.position;
    assert_eq!(p.max_points(), Some(10));
    assert_eq!(p.judge(Some(uci(pos, "f4f5"))).points, Some(10));
    assert_eq!(p.judge(Some(uci(pos, "d4f2"))).points, Some(3));
    let other = p.judge(Some(uci(pos, "g1h1")));
    assert_eq!(other.points, Some(0));
    assert_eq!(other.solved, Some(false));
    // No table: no points, even for the best move.
    assert_eq!(problem(WAC_274).judge(None).points, None);
}

#[test]
fn tally_sums_solved_positions_and_points() {
    let sts = problem(STS_1);
    let wac = problem(WAC_274);
    let (sts_pos, wac_pos) = (&sts.record.position, &wac.record.position);
    let mut tally = Tally::default();
    tally.add(&sts, sts.judge(Some(uci(sts_pos, "d4f2"))));
    tally.add(&wac, wac.judge(Some(uci(wac_pos, "g6b6"))));
    assert_eq!(tally.solved, 1);
    assert_eq!(tally.judged, 2);
    assert_eq!((tally.points, tally.max_points), (3, 10));
}

#[test]
fn every_shipped_test_suite_parses_completely() {
    for (file, positions) in [
        ("wac.epd", 300),
        ("bratko_kopec.epd", 24),
        ("sts.epd", 1500),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("epd").join(file);
        let lines = read_lines(&path).unwrap();
        let problems: Vec<Problem> = lines
            .iter()
            .map(|(n, text)| Problem::parse(*n, text).unwrap_or_else(|e| panic!("{file}:{n}: {e}")))
            .map(Option::unwrap)
            .collect();
        assert_eq!(problems.len(), positions, "{file}");
        assert!(
            problems.iter().all(|p| !p.best.is_empty()),
            "{file}: a bm is missing"
        );
        if file == "sts.epd" {
            assert!(problems.iter().all(|p| p.max_points() == Some(10)));
        }
    }
}

#[test]
fn epd_command_prints_rows_in_input_order_and_fails_on_bad_lines() {
    let dir = std::env::temp_dir().join(format!("cutoff-epd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mini.epd");
    std::fs::write(
        &file,
        format!("{STS_1}\nthis is not a position\n{WAC_274}\n"),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(["epd", file.to_str().unwrap(), "--depth", "1", "--jobs", "2"])
        .output()
        .unwrap();
    // The readable positions are searched, but an unreadable line fails the run.
    assert!(!out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("SKIP line 2:"), "{stderr}");
    assert!(
        stderr.contains("error: 1 line could not be read"),
        "{stderr}"
    );
    assert!(lines[0].starts_with("STS(v1.0) Undermine.001"), "{stdout}");
    assert!(lines[1].starts_with("WAC.274"), "{stdout}");
    assert_eq!(lines.len(), 3, "{stdout}");
    let summary = lines.last().unwrap();
    assert!(summary.contains("/2 "), "{summary}");
    assert!(summary.contains("/10 "), "{summary}");
    assert!(
        summary.contains("2 positions searched, 1 unreadable"),
        "{summary}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
