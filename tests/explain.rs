//! What each piece is worth to the net and to the classical evaluation (`eval::explain`), and
//! `cutoff explain`: known values, the colour symmetry, the contributions against evaluations
//! made here from scratch, and the page's data against the text.
//!
//! `explain_page_runs_in_headless_chromium` needs Debian's `chromium` (or
//! `CHROMIUM=/path/to/browser`) and is ignored by default; run it with
//! `cargo test --release --test explain -- --ignored`.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use common::json::{page_data, J};
use cutoff::eval::explain::{self, Cell, Contributions};
use cutoff::eval::{classical, Evaluator, EvaluatorKind, Network};
use cutoff::position::pos;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, Role, Square};

fn net() -> Arc<Network> {
    Network::embedded().expect("the built-in net")
}

/// The two evaluations, each through its own evaluator.
fn evaluators() -> [(EvaluatorKind, Evaluator); 2] {
    let net = net();
    [EvaluatorKind::Net, EvaluatorKind::Classical]
        .map(|kind| (kind, Evaluator::new(kind, Some(&net))))
}

const POSITIONS: &[&str] = &[
    "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "2kr3r/ppp2ppp/2n1b3/2b1p3/4P1n1/2N2N2/PPP1BPPP/R1B2RK1 b - - 3 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
    "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1",
];

/// In KQ against K the queen is worth over three pawns to the net and over nine to the
/// classical evaluation, wherever it stands: every square of the board (the kings on e1 and
/// e6, White to move; the 24 squares from which the queen would check a king with White to
/// move are left out, 38 remain). A bare queen is worth far less to the net than to the
/// classical evaluation on some squares: the sixth net gives 3.51 pawns on a7 and 4.85 on f1
/// beside its king, 13 of the 38 squares under five pawns, up to 13.18 on g3 (`Bench:
/// 2064669`; docs/nets.md). It has seen few bare-king endings in self-play, which adjudicates
/// them early. The classical evaluation gives 9.83 to 10.52.
#[test]
fn in_kq_against_k_every_queen_square_is_worth_over_three_pawns_to_the_net_and_nine_to_the_classical_evaluation(
) {
    let mut checked = 0;
    for sq in Square::ALL {
        if sq == Square::E1 || sq == Square::E6 {
            continue;
        }
        let mut board = shakmaty::Board::empty();
        board.set_piece_at(Square::E1, shakmaty::Piece::from_char('K').unwrap());
        board.set_piece_at(Square::E6, shakmaty::Piece::from_char('k').unwrap());
        board.set_piece_at(sq, shakmaty::Piece::from_char('Q').unwrap());
        let fen = format!("{board} w - - 0 1");
        let Ok(p) = Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position::<Chess>(CastlingMode::Standard)
        else {
            continue; // the black king in check with White to move
        };
        for (kind, mut evaluator) in evaluators() {
            let c = explain::contributions(&mut evaluator, &p);
            match c.cells[sq as usize] {
                Cell::Piece(piece, Some(cp)) => {
                    assert_eq!(piece.role, Role::Queen);
                    let least = match kind {
                        EvaluatorKind::Net => 300,
                        EvaluatorKind::Classical => 900,
                    };
                    assert!(
                        cp > least,
                        "{kind:?}, {fen}: the queen on {sq} is worth {cp} cp"
                    );
                }
                other => panic!("{kind:?}, {fen}: {sq} is {other:?}"),
            }
            assert_eq!(
                c.cells[Square::E1 as usize],
                Cell::King(shakmaty::Color::White)
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 38, "squares checked");
}

/// The position with colours swapped and the board flipped rank for rank, the other side to
/// move: the same game from the other chair.
fn flipped(p: &Chess) -> Chess {
    let setup = p.to_setup(EnPassantMode::Legal).into_mirrored();
    let fen = Fen::try_from_setup(setup).unwrap().to_string();
    pos(&fen)
}

#[test]
fn the_colour_flipped_position_gives_the_mirrored_board_with_the_signs_flipped() {
    for fen in POSITIONS {
        let p = pos(fen);
        let q = flipped(&p);
        for (kind, mut evaluator) in evaluators() {
            let a = explain::contributions(&mut evaluator, &p);
            let b = explain::contributions(&mut evaluator, &q);
            assert_eq!(a.white, -b.white, "{kind:?}, {fen}: the totals");
            for sq in 0..64 {
                let mirrored = match a.cells[sq] {
                    Cell::Empty => Cell::Empty,
                    Cell::King(color) => Cell::King(!color),
                    Cell::Piece(piece, value) => {
                        Cell::Piece(piece.role.of(!piece.color), value.map(|v| -v))
                    }
                };
                assert_eq!(b.cells[sq ^ 56], mirrored, "{kind:?}, {fen}: square {sq}");
            }
        }
    }
}

/// White's value of `p`, asked of each evaluation directly (no evaluator, no cache).
fn white_value(kind: EvaluatorKind, p: &Chess) -> i32 {
    let side = match kind {
        EvaluatorKind::Classical => classical::evaluate(p),
        EvaluatorKind::Net => net().evaluate(p),
    };
    if p.turn().is_white() {
        side.0
    } else {
        -side.0
    }
}

/// `fen` with the piece on `sq` taken off, written as FEN again (castling and en passant
/// dropped: the test positions where it matters have none).
fn without(fen: &str, sq: Square) -> Option<Chess> {
    let mut setup = pos(fen).to_setup(EnPassantMode::Legal);
    setup.board.discard_piece_at(sq);
    setup.castling_rights = shakmaty::Bitboard::EMPTY;
    setup.ep_square = None;
    let text = Fen::try_from_setup(setup).unwrap().to_string();
    text.parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Chess960)
        .ok()
}

#[test]
fn contributions_equal_the_difference_of_two_evaluations_made_from_scratch() {
    for fen in POSITIONS.iter().filter(|f| f.contains(" - - ")) {
        let p = pos(fen);
        for (kind, mut evaluator) in evaluators() {
            let c: Contributions = explain::contributions(&mut evaluator, &p);
            assert_eq!(c.white, white_value(kind, &p), "{kind:?}, {fen}");
            for (sq, piece) in p.board().clone() {
                let cell = c.cells[sq as usize];
                if piece.role == Role::King {
                    assert_eq!(cell, Cell::King(piece.color));
                    continue;
                }
                let expected =
                    without(fen, sq).map(|q| white_value(kind, &p) - white_value(kind, &q));
                assert_eq!(cell, Cell::Piece(piece, expected), "{kind:?}, {fen}, {sq}");
            }
        }
    }
}

#[test]
fn a_piece_whose_removal_uncovers_a_check_on_the_side_not_to_move_gets_no_value() {
    // Black to move; the white bishop on e2 shields White's king on e1 from the rook on e8.
    let p = pos("4r2k/8/8/8/8/8/4B3/4K3 b - - 0 1");
    for (kind, mut evaluator) in evaluators() {
        let c = explain::contributions(&mut evaluator, &p);
        assert!(
            matches!(c.cells[Square::E2 as usize], Cell::Piece(_, None)),
            "{kind:?}"
        );
        assert!(
            matches!(c.cells[Square::E8 as usize], Cell::Piece(_, Some(_))),
            "{kind:?}"
        );
        let lines = explain::board_lines(&c);
        assert!(lines[20].contains("|   .   |"), "{:?}", lines[20]);
    }
}

// The command and its page.

fn cutoff(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(common::engine_path())
        .args(args)
        .output()
        .expect("run cutoff");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cutoff-explain-{}-{name}", std::process::id()))
}

/// Centipawns as the text writes them, written here independently.
fn pawns(cp: i64) -> String {
    let sign = if cp > 0 {
        "+"
    } else if cp < 0 {
        "-"
    } else {
        " "
    };
    format!("{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
}

/// The squares of the board printed under `heading`: (letter, value text) from a8 to h1.
fn printed_board(text: &[&str], heading: usize) -> Vec<(String, String)> {
    let mut cells = vec![(String::new(), String::new()); 64];
    for r in 0..8 {
        let letters: Vec<&str> = text[heading + 2 + 3 * r].split('|').collect();
        let values: Vec<&str> = text[heading + 3 + 3 * r].split('|').collect();
        for f in 0..8 {
            let sq = (7 - r) * 8 + f;
            cells[sq] = (
                letters[f + 1].trim().to_string(),
                values[f + 1].trim().to_string(),
            );
        }
    }
    cells
}

fn check_evaluation(lines: &[&str], e: &J) {
    let name = e.get("name").s();
    let heading = lines
        .iter()
        .position(|l| l.starts_with(&format!("Piece contributions, {name}: ")))
        .unwrap_or_else(|| panic!("no board for {name}"));
    let total = e.get("total").num().unwrap() as i64;
    assert!(lines[heading].contains(&format!(": {} in total", pawns(total))));
    let board = printed_board(lines, heading);
    for (sq, cell) in e.get("cells").arr().iter().enumerate() {
        let (letter, value) = &board[sq];
        match cell {
            J::Null => assert!(letter.is_empty() && value.is_empty(), "{name} {sq}"),
            _ => {
                assert_eq!(letter, cell.get("piece").s(), "{name} {sq}");
                let expected = match cell.get("value").num() {
                    Some(cp) => pawns(cp as i64).trim().to_string(),
                    None if letter.eq_ignore_ascii_case("k") => String::new(),
                    None => ".".to_string(),
                };
                assert_eq!(value, &expected, "{name} {sq}");
            }
        }
    }
    let wdl: Vec<i64> = e
        .get("wdl")
        .arr()
        .iter()
        .map(|n| n.num().unwrap() as i64)
        .collect();
    let line = format!(
        "WDL, {name}, White's side: {} win, {} draw, {} loss per mille",
        wdl[0], wdl[1], wdl[2]
    );
    assert!(lines.iter().any(|l| l.starts_with(&line)), "{line}");
    for map in e.get("maps").arr() {
        let piece = map.get("piece").s();
        let at = lines
            .iter()
            .position(|l| *l == format!("Placement map, {name}, {piece}:"))
            .unwrap_or_else(|| panic!("no map of {piece} for {name}"));
        let means = map.get("mean").arr();
        for r in 0..8 {
            let printed: Vec<&str> = lines[at + 1 + r].split_whitespace().skip(1).collect();
            for f in 0..8 {
                let expected = match means[(7 - r) * 8 + f].num() {
                    Some(m) => pawns(m.round() as i64).trim().to_string(),
                    None => ".".to_string(),
                };
                assert_eq!(printed[f], expected, "{name} {piece} rank {}", 8 - r);
            }
        }
    }
}

#[test]
fn the_page_s_data_equals_the_text_output() {
    let page = temp_file("page.html");
    let fen = "2kr3r/ppp2ppp/2n1b3/2b1p3/4P1n1/2N2N2/PPP1BPPP/R1B2RK1 b - - 3 10";
    let (code, out, err) = cutoff(&["explain", "--fen", fen, "--html", page.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(&page).unwrap();
    std::fs::remove_file(&page).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no network"
    );
    let data = page_data(&html);
    let lines: Vec<&str> = out.lines().collect();
    let evaluations = data.get("evaluations").arr();
    assert_eq!(evaluations.len(), 2);
    for e in evaluations {
        assert_eq!(e.get("maps").arr().len(), 12);
        check_evaluation(&lines, e);
    }
    assert!(data.get("sample").s().contains("64 positions"));
    let total = data.get("classical_white").num().unwrap() as i64;
    assert!(out.contains(&format!("Final evaluation: {total} cp (White side)")));
    for row in data.get("terms").arr() {
        let name = row.get("name").s();
        assert!(
            lines.iter().any(|l| l.starts_with(&format!(" {name} "))),
            "{name}"
        );
    }
}

#[test]
fn eval_file_loads_through_the_bounded_loader_and_a_bad_one_is_refused() {
    let bad = temp_file("bad.nnue");
    std::fs::write(&bad, b"CUTOFFNN but not a net").unwrap();
    let (code, _, err) = cutoff(&["explain", "--eval-file", bad.to_str().unwrap()]);
    std::fs::remove_file(&bad).unwrap();
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("error: {}: not a Cutoff net file", bad.display())),
        "{err}"
    );
    // The built-in net's own file is recognised as the built-in net; another net is said to
    // have no model of its own.
    let (code, out, err) = cutoff(&[
        "explain",
        "--eval-file",
        "nets/cutoff-256-m40-l10-30-d60-lr5e6-b8.nnue",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(the built-in net's model)"), "{out}");
    let (code, out, err) = cutoff(&["explain", "--eval-file", "nets/cutoff-256-m15-l10.nnue"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("a net loaded from a file has none of its own"),
        "{out}"
    );
}

#[test]
fn sample_takes_another_file_and_names_it() {
    let sample = temp_file("sample.fen");
    std::fs::write(
        &sample,
        "# two positions\n4k3/8/8/8/8/8/8/3QK3 w - - 0 1\n\n8/8/4k3/8/8/3K4/3P4/8 b - - 0 1\n",
    )
    .unwrap();
    let (code, out, err) = cutoff(&["explain", "--sample", sample.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("over the 2 positions of {}", sample.display())));
    std::fs::write(&sample, "not a fen\n").unwrap();
    let (code, _, err) = cutoff(&["explain", "--sample", sample.to_str().unwrap()]);
    std::fs::remove_file(&sample).unwrap();
    assert_eq!(code, 2);
    assert!(err.contains(":1:"), "the bad line is named: {err}");
}

#[test]
#[ignore = "needs headless Chromium: cargo test --release --test explain -- --ignored"]
fn explain_page_runs_in_headless_chromium() {
    let page = temp_file("browser.html");
    let (code, _, err) = cutoff(&["explain", "--html", page.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let browser = std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".to_string());
    let out = Command::new(browser)
        .args(["--headless", "--disable-gpu", "--no-sandbox", "--dump-dom"])
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium (install Debian's `chromium` or set CHROMIUM)");
    std::fs::remove_file(&page).unwrap();
    assert!(out.status.success());
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(!dom.contains("data-errors=\""), "script error in the DOM");
    assert!(
        dom.contains(r#"data-ready="yes""#),
        "the script did not run"
    );
    // Two boards of 64 squares; 12 pieces' maps for each evaluation.
    assert!(dom.contains(r#"data-squares="128""#));
    assert!(dom.contains(&format!(r#"data-heat="{}""#, 2 * 12 * 64)));
}
