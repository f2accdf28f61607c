//! Black-box tests of Cutoff's UCI protocol handling: the handshake, options, input robustness, and the
//! asynchronous commands (`isready`, `stop`, `ponderhit`, `quit`) during a search.
//!
//! Written from the specification (tracker issue 2), not from the implementation.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::*;
use shakmaty::{CastlingMode, Position};

/// How long a search may go on after `stop`, as the engine itself measures it (see
/// [`assert_stopped_promptly`]). The spec expects a few ms.
const PROMPT: Duration = Duration::from_millis(100);

/// Wall-clock bound for answers that should come at once where the engine reports no time of its
/// own (`readyok`, `bestmove (none)`): far below the length of the searches running meanwhile, so
/// an engine that answers only between iterations or after the search fails, and far above the
/// time a loaded 2-core machine makes a process wait for a CPU.
const LOADED_PROMPT: Duration = Duration::from_secs(1);

/// Checks that the search answered `stop` promptly. The engine's last `info` before `bestmove`
/// carries the time it searched, measured from its `go`; less the time between sending `go` and
/// `stop`, that is how long it searched on after `stop` — a figure the engine controls, which the
/// wall clock of a test process waiting for a CPU on a loaded machine is not. A wall bound of
/// [`LOADED_PROMPT`] catches an engine that does not report.
fn assert_stopped_promptly(r: &SearchResult, go_sent: Instant, stop_sent: Instant, what: &str) {
    assert!(
        r.elapsed < LOADED_PROMPT,
        "{what}: bestmove came {:?} after stop (wall clock)",
        r.elapsed
    );
    let searched = r
        .lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info") && l.contains(" time "))
        .and_then(|l| number_after(l, " time "))
        .unwrap_or_else(|| panic!("{what}: no `info ... time` before bestmove: {:?}", r.lines));
    let before_stop = stop_sent.duration_since(go_sent);
    let after_stop = ms(searched).saturating_sub(before_stop);
    assert!(
        after_stop < PROMPT,
        "{what}: searched {searched} ms, {after_stop:?} of them after stop (sent {before_stop:?} after go)"
    );
}

/// `quit` must end the process within this time, even mid-search.
const QUIT_BOUND: Duration = Duration::from_millis(500);

/// Scholar's mate: White mates with Qxf7# (h5f7), the only mating move.
const SCHOLAR: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";

/// A quiet endgame whose legal moves share nothing with the start position's (used as "the last good position").
const GOOD_FEN: &str = "8/8/4k3/8/8/4K3/4R3/8 w - - 0 1";

// ---------------------------------------------------------------------------------------------------------------
// Command line.

#[test]
fn help_flag_prints_usage_and_exits_successfully() {
    let out = Command::new(BIN)
        .arg("--help")
        .output()
        .expect("run --help");
    assert!(out.status.success(), "--help failed: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout).to_lowercase();
    assert!(
        text.contains("usage"),
        "--help output lacks a usage line:\n{text}"
    );
}

#[test]
fn version_flag_prints_the_crate_version() {
    let out = Command::new(BIN)
        .arg("--version")
        .output()
        .expect("run --version");
    assert!(out.status.success(), "--version failed: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(env!("CARGO_PKG_VERSION")),
        "--version does not print {}: {text:?}",
        env!("CARGO_PKG_VERSION")
    );
}

#[test]
fn no_arguments_starts_the_uci_loop() {
    let mut e = Engine::new();
    e.handshake();
    e.sync();
}

#[test]
fn uci_subcommand_starts_the_uci_loop() {
    let mut e = Engine::with_args(&["uci"]);
    e.handshake();
    e.sync();
}

// ---------------------------------------------------------------------------------------------------------------
// Handshake and options.

#[derive(Debug)]
struct OptionDecl {
    name: String,
    kind: String,
    default: Option<String>,
    min: Option<i64>,
    max: Option<i64>,
}

fn parse_option(line: &str) -> OptionDecl {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(tokens.first(), Some(&"option"), "{line:?}");
    assert_eq!(
        tokens.get(1),
        Some(&"name"),
        "option line without `name`: {line:?}"
    );
    let type_at = tokens
        .iter()
        .position(|t| *t == "type")
        .unwrap_or_else(|| panic!("option line without `type`: {line:?}"));
    let name = tokens[2..type_at].join(" ");
    assert!(!name.is_empty(), "option without a name: {line:?}");
    let kind = tokens
        .get(type_at + 1)
        .unwrap_or_else(|| panic!("`type` without a value: {line:?}"))
        .to_string();
    let value_of = |key: &str| -> Option<String> {
        let at = tokens[type_at..].iter().position(|t| *t == key)? + type_at;
        // A value runs until the next keyword (string defaults may contain spaces, `<empty>` is one token).
        let rest: Vec<&str> = tokens[at + 1..]
            .iter()
            .take_while(|t| !matches!(**t, "default" | "min" | "max" | "var"))
            .copied()
            .collect();
        Some(rest.join(" "))
    };
    let int = |key: &str| {
        value_of(key).map(|v| {
            v.parse::<i64>()
                .unwrap_or_else(|_| panic!("`{key} {v}` is not an integer in {line:?}"))
        })
    };
    OptionDecl {
        name,
        kind,
        default: value_of("default"),
        min: int("min"),
        max: int("max"),
    }
}

fn advertised_options() -> (Vec<String>, Vec<OptionDecl>) {
    let mut e = Engine::new();
    let lines = e.handshake();
    let options = lines
        .iter()
        .filter(|l| l.starts_with("option"))
        .map(|l| parse_option(l))
        .collect();
    (lines, options)
}

fn find<'a>(options: &'a [OptionDecl], name: &str) -> &'a OptionDecl {
    options
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
        .unwrap_or_else(|| panic!("option {name:?} is not advertised; got {options:#?}"))
}

#[test]
fn uci_handshake_sends_id_lines_then_options_then_uciok() {
    let mut e = Engine::new();
    let lines = e.handshake();
    let body: Vec<&String> = lines.iter().filter(|l| !l.trim().is_empty()).collect();
    let name_at = body
        .iter()
        .position(|l| l.starts_with("id name "))
        .unwrap_or_else(|| panic!("no `id name` line:\n{lines:#?}"));
    let author_at = body
        .iter()
        .position(|l| l.starts_with("id author "))
        .unwrap_or_else(|| panic!("no `id author` line:\n{lines:#?}"));
    let first_option = body
        .iter()
        .position(|l| l.starts_with("option "))
        .unwrap_or_else(|| panic!("no `option` line:\n{lines:#?}"));
    assert!(
        name_at < first_option && author_at < first_option,
        "`id` lines must come before the options:\n{lines:#?}"
    );
    assert_eq!(body.last().unwrap().trim(), "uciok");
    for l in &body {
        let first = l.split_whitespace().next().unwrap();
        assert!(
            matches!(first, "id" | "option" | "uciok"),
            "unexpected line in the uci handshake: {l:?}"
        );
    }
    // The handshake can be repeated.
    e.handshake();
    e.sync();
}

#[test]
fn uci_advertises_the_required_options_with_valid_defaults() {
    let (_, options) = advertised_options();

    let hash = find(&options, "Hash");
    assert_eq!(hash.kind, "spin", "{hash:?}");
    assert_eq!(
        hash.default.as_deref(),
        Some("16"),
        "Hash default must be 16 MB: {hash:?}"
    );

    let clear = find(&options, "Clear Hash");
    assert_eq!(clear.kind, "button", "{clear:?}");

    let multipv = find(&options, "MultiPV");
    assert_eq!(multipv.kind, "spin", "{multipv:?}");
    assert_eq!(multipv.default.as_deref(), Some("1"), "{multipv:?}");
    assert_eq!(multipv.min, Some(1), "MultiPV min must be 1: {multipv:?}");
    assert!(
        multipv.max.unwrap_or(0) > 1,
        "MultiPV must allow more than one line: {multipv:?}"
    );

    let overhead = find(&options, "Move Overhead");
    assert_eq!(overhead.kind, "spin", "{overhead:?}");

    let ponder = find(&options, "Ponder");
    assert_eq!(ponder.kind, "check", "{ponder:?}");

    let chess960 = find(&options, "UCI_Chess960");
    assert_eq!(chess960.kind, "check", "{chess960:?}");
    assert_eq!(chess960.default.as_deref(), Some("false"), "{chess960:?}");

    for o in &options {
        match o.kind.as_str() {
            "spin" => {
                let (min, max) = (
                    o.min.unwrap_or_else(|| panic!("spin without min: {o:?}")),
                    o.max.unwrap_or_else(|| panic!("spin without max: {o:?}")),
                );
                let default: i64 = o
                    .default
                    .as_deref()
                    .unwrap_or_else(|| panic!("spin without default: {o:?}"))
                    .parse()
                    .unwrap_or_else(|_| panic!("spin default is not an integer: {o:?}"));
                assert!(
                    min <= default && default <= max,
                    "spin default outside min..max (Cute Chess rejects it): {o:?}"
                );
            }
            "check" => assert!(
                matches!(o.default.as_deref(), Some("true") | Some("false")),
                "check option default must be true or false: {o:?}"
            ),
            "button" => assert!(o.default.is_none(), "button with a default: {o:?}"),
            "combo" | "string" => {}
            other => panic!("unknown option type {other:?}: {o:?}"),
        }
    }
}

#[test]
fn threads_option_is_advertised_from_1_to_at_least_256() {
    let (lines, options) = advertised_options();
    let threads = options
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case("Threads"))
        .unwrap_or_else(|| panic!("Threads must be advertised:\n{lines:#?}"));
    assert_eq!(threads.kind, "spin", "{threads:?}");
    assert_eq!(threads.default.as_deref(), Some("1"), "{threads:?}");
    assert_eq!(threads.min, Some(1), "{threads:?}");
    assert!(threads.max.is_some_and(|m| m >= 256), "{threads:?}");
}

#[test]
fn isready_is_answered_with_readyok() {
    let mut e = Engine::new();
    e.send("isready");
    e.expect_line("readyok", SYNC_TIMEOUT, |l| l.trim() == "readyok");
    // Also before any `uci`, and repeatedly.
    for _ in 0..5 {
        e.sync();
    }
}

#[test]
fn stdout_carries_only_protocol_lines() {
    let mut e = Engine::new();
    let mut lines = e.handshake();
    lines.extend(e.sync());
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5");
    let r = e.go("go depth 3", SEARCH_TIMEOUT);
    lines.extend(r.lines.clone());
    lines.push(r.raw.clone());
    let r = e.go("go movetime 100", SEARCH_TIMEOUT);
    lines.extend(r.lines.clone());
    lines.push(r.raw.clone());
    lines.extend(e.sync());
    for l in &lines {
        let first = l.split_whitespace().next().unwrap_or("");
        assert!(
            matches!(
                first,
                "id" | "option" | "uciok" | "readyok" | "bestmove" | "info" | "copyprotection" | "registration"
            ),
            "non-protocol line on stdout (banners and debug output belong on stderr or `info string`): {l:?}\n{}",
            e.transcript()
        );
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Robustness against bad input.

/// The FEN-ish lines `d` printed (any line containing the board field of `fen`).
fn d_shows_board(e: &mut Engine, fen: &str) -> bool {
    e.send("d");
    let lines = e.sync();
    let board = fen.split_whitespace().next().unwrap();
    lines.iter().any(|l| l.contains(board))
}

/// Asserts that the engine's current position is `fen`: `d` shows it and a short search answers a legal move there.
fn assert_position_is(e: &mut Engine, fen: &str, context: &str) {
    assert!(
        d_shows_board(e, fen),
        "{context}: `d` does not show the last good position {fen}\n{}",
        e.transcript()
    );
    let r = e.go("go depth 2", SEARCH_TIMEOUT);
    let pos = pos_from_fen(fen);
    if let Err(err) = strict_move(&pos, &r.bestmove, CastlingMode::Standard) {
        panic!(
            "{context}: the search did not run in the last good position {fen}: {err}\n{}",
            e.transcript()
        );
    }
}

#[test]
fn empty_lines_garbage_bytes_and_long_lines_are_survived() {
    let mut e = Engine::started();
    e.send("");
    e.send("   ");
    e.send("\t \t");
    e.send_bytes(b"\r\n");
    e.send_bytes(b"\xff\xfe\x00\x01\x80garbage \xc3\x28 bytes\n");
    e.send_bytes(&[0u8; 64]);
    e.send_bytes(b"\n");
    e.sync();
    let long = "x".repeat(200_000);
    e.send(&long);
    e.send(&format!("setoption name {long} value 1"));
    e.send(&format!("position fen {long}"));
    e.sync();
    // A long but valid move list: 100 knight shuffles return to the start position.
    let shuffle = "g1f3 g8f6 f3g1 f6g8 ".repeat(100);
    e.send(&format!("position startpos moves {}", shuffle.trim_end()));
    e.sync();
    let r = e.go("go depth 1", SEARCH_TIMEOUT);
    let pos = pos_from_fen(STARTPOS);
    strict_move(&pos, &r.bestmove, CastlingMode::Standard)
        .unwrap_or_else(|err| panic!("after a long move list: {err}\n{}", e.transcript()));
    // Windows line endings on a command.
    e.send_bytes(b"isready\r\n");
    e.expect_line("readyok after CRLF isready", SYNC_TIMEOUT, |l| {
        l.trim() == "readyok"
    });
}

#[test]
fn unknown_command_reports_an_error_and_engine_keeps_working() {
    let mut e = Engine::started();
    e.send(&format!("position fen {GOOD_FEN}"));
    e.send("flibbertigibbet 1 2 3");
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| is_error_report(l)),
        "an unknown command must be reported with `info string error: ...`; got {lines:?}"
    );
    assert_position_is(&mut e, GOOD_FEN, "after an unknown command");
}

#[test]
fn go_with_only_bad_parameters_reports_them_and_searches_until_stop() {
    // A GUI that sent `go` waits for `bestmove`: each bad parameter is reported and ignored, and with
    // no usable limit left the search runs as a bare `go` does, until `stop`, then answers once.
    let mut e = Engine::started();
    e.send(&format!("position fen {GOOD_FEN}"));
    e.sync();
    for bad in [
        "go wtime abc",
        "go depth -5",
        "go go",
        "go depth",
        "go nodes 1e6",
        "go movetime 12ms",
    ] {
        e.send(bad);
        let lines = e.expect_no_line_for(bad, ms(300), is_bestmove);
        assert!(
            lines.iter().any(|l| is_error_report(l)),
            "`{bad}` must be reported with `info string error: ...`; got {lines:?}"
        );
        e.send("stop");
        let r = e.wait_bestmove(SYNC_TIMEOUT).with_earlier_lines(lines);
        let pos = pos_from_fen(GOOD_FEN);
        check_search_with_expected_errors(&pos, &r, CastlingMode::Standard);
        let after = e.sync();
        assert!(
            !after.iter().any(|l| is_bestmove(l)),
            "`{bad}` produced a second bestmove: {after:?}"
        );
    }
    assert_position_is(&mut e, GOOD_FEN, "after malformed go commands");
}

#[test]
fn go_with_some_bad_parameters_searches_with_the_ones_that_parsed() {
    let mut e = Engine::started();
    e.send(&format!("position fen {GOOD_FEN}"));
    for (line, depth) in [("go fast depth 3", 3), ("go depth 0 depth 2", 2)] {
        let r = e.go(line, SEARCH_TIMEOUT);
        let errors = r.lines.iter().filter(|l| is_error_report(l)).count();
        assert_eq!(
            errors, 1,
            "`{line}`: one error report expected: {:?}",
            r.lines
        );
        assert_eq!(
            r.last_main_info().depth,
            Some(depth),
            "`{line}` must search to depth {depth}: {:?}",
            r.lines
        );
    }
    let r = e.go("go wtime abc movetime 100", SEARCH_TIMEOUT);
    assert!(r.lines.iter().any(|l| is_error_report(l)), "{:?}", r.lines);
    assert!(
        r.last_main_info().time.is_some_and(|t| t < 1000),
        "`movetime 100` still bounds the search: {:?}",
        r.lines
    );
}

#[test]
fn bad_fen_is_rejected_and_previous_position_is_kept() {
    let mut e = Engine::started();
    e.send(&format!("position fen {GOOD_FEN}"));
    e.sync();
    let bad_fens = [
        "position fen this is not a fen",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        // Side not to move is in check: illegal position.
        "position fen 4k3/8/8/8/8/8/8/4RK2 w - - 0 1 moves",
        "position fen",
        "position",
        "position sideways",
    ];
    for bad in bad_fens {
        e.send(bad);
        let lines = e.sync();
        assert!(
            lines.iter().any(|l| is_error_report(l)),
            "`{bad}` must be reported with `info string error: ...`; got {lines:?}"
        );
        assert!(
            d_shows_board(&mut e, GOOD_FEN),
            "after `{bad}` the engine must keep the last good position {GOOD_FEN}\n{}",
            e.transcript()
        );
    }
    assert_position_is(&mut e, GOOD_FEN, "after bad FENs");
}

#[test]
fn a_check_no_game_can_reach_is_accepted_as_epd_suites_accept_it() {
    // Two bishops checking along one diagonal (line 51 of epd/perft_standard.epd): impossible
    // in a game, but playable. The one FEN policy reads it everywhere, `position fen` included.
    const TWO_CHECKERS: &str = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1";
    let mut e = Engine::started();
    e.send(&format!("position fen {TWO_CHECKERS}"));
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| is_error_report(l)),
        "`position fen {TWO_CHECKERS}` was refused: {lines:?}"
    );
    assert!(d_shows_board(&mut e, TWO_CHECKERS), "{}", e.transcript());
    let r = e.go("go depth 3", SEARCH_TIMEOUT);
    let pos = shakmaty::fen::Fen::from_ascii(TWO_CHECKERS.as_bytes())
        .unwrap()
        .into_position::<shakmaty::Chess>(CastlingMode::Standard)
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .unwrap();
    if let Err(err) = strict_move(&pos, &r.bestmove, CastlingMode::Standard) {
        panic!("{err}\n{}", e.transcript());
    }
}

#[test]
fn illegal_move_in_position_is_rejected_and_previous_position_is_kept() {
    // Spec reading: the whole `position` command is rejected, the engine keeps the position of the previous good
    // `position` command (not a prefix of the bad move list).
    let mut e = Engine::started();
    e.send(&format!("position fen {GOOD_FEN}"));
    e.sync();
    let bad = [
        // The rook cannot pass its own king.
        format!("position fen {GOOD_FEN} moves e2e8"),
        "position startpos moves e2e5".to_string(),
        "position startpos moves e2e4 e2e4".to_string(),
        "position startpos moves e2e4 e7e5 zz99".to_string(),
        "position startpos moves e7e5".to_string(),
        // Castling through pieces.
        "position startpos moves e1g1".to_string(),
    ];
    for cmd in &bad {
        e.send(cmd);
        let lines = e.sync();
        assert!(
            lines.iter().any(|l| is_error_report(l)),
            "`{cmd}` must be reported with `info string error: ...`; got {lines:?}"
        );
        assert!(
            d_shows_board(&mut e, GOOD_FEN),
            "after `{cmd}` the engine must keep the last good position {GOOD_FEN}\n{}",
            e.transcript()
        );
    }
    assert_position_is(&mut e, GOOD_FEN, "after illegal moves");
}

// ---------------------------------------------------------------------------------------------------------------
// Debugging aids.

#[test]
fn d_prints_board_fen_and_hash_key() {
    let mut e = Engine::started();
    e.send("position startpos moves e2e4 c7c5 g1f3");
    e.send("d");
    let lines = e.sync();
    let expected = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
    assert!(
        lines.iter().any(|l| l.contains(expected)),
        "`d` must print the FEN {expected}; got:\n{}",
        lines.join("\n")
    );
    assert!(
        lines.iter().any(|l| {
            let lower = l.to_ascii_lowercase();
            (lower.contains("key") || lower.contains("hash"))
                && l.split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|t| t.len() >= 8 && t.chars().all(|c| c.is_ascii_hexdigit()))
        }),
        "`d` must print a hash key; got:\n{}",
        lines.join("\n")
    );
    assert!(
        lines.len() >= 3,
        "`d` must print the board; got:\n{}",
        lines.join("\n")
    );
    // The same position reached by a different move order has the same key line.
    let key_lines = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.to_ascii_lowercase().contains("key"))
            .cloned()
            .collect()
    };
    let first = key_lines(&lines);
    e.send("position startpos moves g1f3 c7c5 e2e4");
    e.send("d");
    let again = e.sync();
    assert_eq!(
        first,
        key_lines(&again),
        "transposed position must print the same key"
    );
}

#[test]
fn eval_prints_the_librarys_evaluation_of_the_position() {
    let mut e = Engine::started();
    for fen in [
        STARTPOS,
        KIWIPETE,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "8/8/4k3/8/8/4K3/4R3/8 w - - 0 1",
    ] {
        let pos = pos_from_fen(fen);
        let stm = cutoff::eval::classical::evaluate(&pos).0 as i64;
        let white = if pos.turn() == shakmaty::Color::White {
            stm
        } else {
            -stm
        };
        e.send(&format!("position fen {fen}"));
        e.send("eval");
        let lines = e.sync();
        let line = lines
            .iter()
            .find(|l| l.starts_with("Final evaluation:"))
            .unwrap_or_else(|| panic!("no `Final evaluation:` line for {fen}: {lines:?}"));
        let numbers: Vec<i64> = line
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        assert_eq!(
            numbers,
            vec![white, stm],
            "{fen}: `eval` must print evaluate() from White's side and the side to move's: {line:?}"
        );
    }
}

#[test]
fn go_perft_prints_the_leaf_count() {
    let mut e = Engine::started();
    for (position, depth, count) in [
        ("position startpos", 3, 8_902u64),
        ("position startpos", 4, 197_281),
        (&*format!("position fen {KIWIPETE}"), 3, 97_862),
        (
            "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            4,
            43_238,
        ),
    ] {
        e.send(position);
        e.send(&format!("go perft {depth}"));
        let line = e.expect_line(
            &format!("perft {depth} total {count}"),
            SEARCH_TIMEOUT,
            |l| {
                l.split(|c: char| !c.is_ascii_digit())
                    .any(|t| t == count.to_string())
            },
        );
        let _ = line;
        e.sync();
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Options.

#[test]
fn setoption_names_are_case_insensitive_and_may_contain_spaces() {
    let mut e = Engine::started();
    for cmd in [
        "setoption name move overhead value 30",
        "setoption name MOVE OVERHEAD value 20",
        "setoption name hash value 8",
        "setoption name clear hash",
        "setoption name ponder value true",
        "setoption name multipv value 2",
    ] {
        e.send(cmd);
        let lines = e.sync();
        assert!(
            !lines.iter().any(|l| is_error_report(l)),
            "`{cmd}` was rejected: {lines:?}"
        );
    }
    // `multipv` (lower case) really took effect.
    e.send("position startpos");
    let r = e.go("go depth 3", SEARCH_TIMEOUT);
    assert!(
        r.score_infos().iter().any(|i| i.multipv == Some(2)),
        "`setoption name multipv value 2` had no effect:\n{}",
        r.lines.join("\n")
    );
    // `uci_chess960` (lower case) really took effect: castling is printed king-takes-rook.
    e.send("setoption name multipv value 1");
    e.send("setoption name uci_chess960 value true");
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let r = e.go("go depth 2 searchmoves e1h1", SEARCH_TIMEOUT);
    assert_eq!(
        r.bestmove, "e1h1",
        "`uci_chess960` had no effect: {}",
        r.raw
    );
}

#[test]
fn castling_is_accepted_in_both_notations_on_input() {
    let mut e = Engine::started();
    let prefix = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";
    let after = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4";
    for castle in ["e1g1", "e1h1"] {
        e.send(&format!("position fen {GOOD_FEN}"));
        e.send(&format!("{prefix} {castle}"));
        let lines = e.sync();
        assert!(
            !lines.iter().any(|l| is_error_report(l)),
            "castling `{castle}` was rejected: {lines:?}"
        );
        assert!(
            d_shows_board(&mut e, after),
            "after castling `{castle}` the engine is not in {after}\n{}",
            e.transcript()
        );
    }
}

#[test]
fn castling_is_printed_king_to_target_square_in_standard_chess() {
    let mut e = Engine::started();
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let pos = pos_from_fen(fen);
    e.send(&format!("position fen {fen}"));
    let r = e.go("go depth 3 searchmoves e1g1", SEARCH_TIMEOUT);
    check_search(&pos, &r, CastlingMode::Standard);
    assert_eq!(r.bestmove, "e1g1", "{}", r.raw);
    let r = e.go("go depth 3 searchmoves e1c1", SEARCH_TIMEOUT);
    check_search(&pos, &r, CastlingMode::Standard);
    assert_eq!(r.bestmove, "e1c1", "{}", r.raw);
    // Input may use king-takes-rook even in standard chess; output stays e1g1.
    let r = e.go("go depth 3 searchmoves e1h1", SEARCH_TIMEOUT);
    assert_eq!(
        r.bestmove, "e1g1",
        "searchmoves e1h1 (standard chess): {}",
        r.raw
    );
    // Black castles too, and the PVs (which contain castling for both sides) use standard notation.
    let pos = pos_from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    let r = e.go("go depth 4 searchmoves e8g8", SEARCH_TIMEOUT);
    check_search(&pos, &r, CastlingMode::Standard);
    assert_eq!(r.bestmove, "e8g8", "{}", r.raw);
}

#[test]
fn chess960_castling_is_printed_king_takes_rook_and_shredder_fen_is_accepted() {
    let mut e = Engine::started();
    e.send("setoption name UCI_Chess960 value true");
    e.sync();
    // King on f1, rooks on b1 and h1 (Shredder-FEN castling field "HB"; black has no rights).
    let fen = "4k3/8/8/8/8/8/8/1R3K1R w HB - 0 1";
    let pos = pos_from_fen_mode(fen, CastlingMode::Chess960);
    e.send(&format!("position fen {fen}"));
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| is_error_report(l)),
        "Shredder-FEN rejected: {lines:?}"
    );
    let r = e.go("go depth 3 searchmoves f1h1", SEARCH_TIMEOUT);
    check_search(&pos, &r, CastlingMode::Chess960);
    assert_eq!(r.bestmove, "f1h1", "{}", r.raw);
    let r = e.go("go depth 3 searchmoves f1b1", SEARCH_TIMEOUT);
    check_search(&pos, &r, CastlingMode::Chess960);
    assert_eq!(r.bestmove, "f1b1", "{}", r.raw);
    // Playing the castling moves lands king and rook on the right squares.
    e.send(&format!("position fen {fen} moves f1h1"));
    assert!(
        d_shows_board(&mut e, "4k3/8/8/8/8/8/8/1R3RK1"),
        "O-O in Chess960 (f1h1) must put the king on g1 and the rook on f1\n{}",
        e.transcript()
    );
    e.send(&format!("position fen {fen} moves f1b1"));
    assert!(
        d_shows_board(&mut e, "4k3/8/8/8/8/8/8/2KR3R"),
        "O-O-O in Chess960 (f1b1) must put the king on c1 and the rook on d1\n{}",
        e.transcript()
    );
    // A standard position with UCI_Chess960 on: castling is printed king-takes-rook.
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let pos = pos_from_fen_mode(fen, CastlingMode::Chess960);
    e.send(&format!("position fen {fen}"));
    let r = e.go("go depth 3 searchmoves e1h1", SEARCH_TIMEOUT);
    check_search(&pos, &r, CastlingMode::Chess960);
    assert_eq!(r.bestmove, "e1h1", "{}", r.raw);
}

#[test]
fn x_fen_is_accepted_in_chess960() {
    let mut e = Engine::started();
    e.send("setoption name UCI_Chess960 value true");
    // Same position as the Shredder-FEN test, X-FEN castling field "KQ" (outermost rooks).
    let fen = "4k3/8/8/8/8/8/8/1R3K1R w KQ - 0 1";
    e.send(&format!("position fen {fen}"));
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| is_error_report(l)),
        "X-FEN rejected: {lines:?}"
    );
    let r = e.go("go depth 2 searchmoves f1b1", SEARCH_TIMEOUT);
    assert_eq!(r.bestmove, "f1b1", "{}", r.raw);
    // A Chess960 start position (#518 is the standard one; this is a different one) plays normally.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let pos = pos_from_fen_mode(fen, CastlingMode::Chess960);
    e.send(&format!("position fen {fen}"));
    let r = e.go("go depth 4", SEARCH_TIMEOUT);
    check_search(&pos, &r, CastlingMode::Chess960);
}

// ---------------------------------------------------------------------------------------------------------------
// Input while searching.

#[test]
fn isready_is_answered_during_go_infinite() {
    let mut e = Engine::started();
    e.send("position startpos");
    e.send("go infinite");
    let mut early = e.expect_no_line_for("go infinite", ms(300), is_bestmove);
    for _ in 0..3 {
        e.send("isready");
        let mut lines = e.collect_until_at("readyok during go infinite", SYNC_TIMEOUT, |l| {
            assert!(!is_bestmove(l), "isready must not stop the search: {l:?}");
            l.trim() == "readyok"
        });
        let line = lines.pop().unwrap();
        early.extend(lines.into_iter().map(|l| l.text));
        let latency = line.at.duration_since(e.last_sent);
        // Expected: a few ms; an engine that waits for the search never answers.
        assert!(
            latency < LOADED_PROMPT,
            "readyok took {latency:?} during go infinite\n{}",
            e.transcript()
        );
        early.extend(e.expect_no_line_for(
            "the search continues after isready",
            ms(100),
            is_bestmove,
        ));
    }
    e.send("stop");
    let r = e.wait_bestmove(SYNC_TIMEOUT).with_earlier_lines(early);
    check_search(&pos_from_fen(STARTPOS), &r, CastlingMode::Standard);
}

#[test]
fn stop_returns_bestmove_promptly() {
    let mut e = Engine::started();
    for (position, wait) in [
        ("position startpos", 10),
        (&*format!("position fen {KIWIPETE}"), 400),
        ("position startpos moves e2e4", 1200),
    ] {
        e.send(position);
        e.send("go infinite");
        let go_sent = e.last_sent;
        let early = e.expect_no_line_for("go infinite", ms(wait), is_bestmove);
        e.send("stop");
        let stop_sent = e.last_sent;
        let r = e.wait_bestmove(SYNC_TIMEOUT).with_earlier_lines(early);
        assert_stopped_promptly(
            &r,
            go_sent,
            stop_sent,
            &format!("{position}, stopped after {wait} ms"),
        );
        e.sync();
    }
}

#[test]
fn quit_exits_promptly_during_a_search() {
    let mut e = Engine::started();
    e.send("position startpos");
    e.send("go infinite");
    sleep_ms(300);
    let t = Instant::now();
    let _ = e.try_send("quit");
    let status = e.wait_exit(Duration::from_secs(5));
    let took = t.elapsed();
    assert!(
        status.is_some(),
        "the engine did not exit within 5 s of quit\n{}",
        e.transcript()
    );
    assert!(took < QUIT_BOUND, "quit mid-search took {took:?}");
}

#[test]
fn quit_exits_promptly_when_idle() {
    let mut e = Engine::started();
    let t = Instant::now();
    let _ = e.try_send("quit");
    let status = e.wait_exit(Duration::from_secs(5));
    assert!(
        status.is_some(),
        "the engine did not exit after quit\n{}",
        e.transcript()
    );
    assert!(t.elapsed() < QUIT_BOUND, "quit took {:?}", t.elapsed());
    assert!(
        status.unwrap().success(),
        "quit should exit successfully: {status:?}"
    );
}

/// Sends `go`, closes the input, and returns the bestmove and how long it took after the close;
/// the process must then exit successfully.
fn go_then_end_of_input(fen: &str, go: &str, bound: Duration) -> (SearchResult, Duration) {
    let mut e = Engine::started();
    e.send(&format!("position fen {fen}"));
    e.send(go);
    sleep_ms(200);
    e.close_stdin();
    let closed = Instant::now();
    let r = e.wait_bestmove(bound);
    let took = r.at.saturating_duration_since(closed);
    let status = e.wait_exit(SYNC_TIMEOUT);
    assert!(
        status.is_some_and(|s| s.success()),
        "`{go}`: no clean exit after end of input: {status:?}\n{}",
        e.transcript()
    );
    (r, took)
}

#[test]
fn end_of_input_lets_a_short_bounded_search_finish() {
    // What scripts piping `go depth N` into the engine rely on.
    let (r, _) = go_then_end_of_input(KIWIPETE, "go depth 7", SEARCH_TIMEOUT);
    assert_eq!(r.last_main_info().depth, Some(7), "{:?}", r.lines);
}

#[test]
fn end_of_input_stops_a_search_with_no_bound_at_once() {
    // GOOD_FEN (king and rook against king) has no mate in 2.
    for go in ["go", "go infinite", "go mate 2", "go wtime abc"] {
        let (r, took) = go_then_end_of_input(GOOD_FEN, go, SYNC_TIMEOUT);
        if go == "go wtime abc" {
            // The bad value is reported (and ignored) before the search starts.
            check_search_with_expected_errors(&pos_from_fen(GOOD_FEN), &r, CastlingMode::Standard);
        } else {
            check_search(&pos_from_fen(GOOD_FEN), &r, CastlingMode::Standard);
        }
        assert!(
            took < Duration::from_secs(2),
            "`{go}` answered {took:?} after end of input"
        );
    }
}

#[test]
fn end_of_input_stops_a_search_whose_bound_is_out_of_reach_after_a_grace() {
    let grace = cutoff::uci::engine::EOF_GRACE;
    for go in ["go depth 200", "go movetime 100000000"] {
        let (r, took) = go_then_end_of_input(KIWIPETE, go, grace + SYNC_TIMEOUT);
        check_search(&pos_from_fen(KIWIPETE), &r, CastlingMode::Standard);
        assert!(
            took >= grace.saturating_sub(ms(500)),
            "`{go}` stopped after {took:?}, before its grace"
        );
    }
}

#[test]
fn go_infinite_never_sends_bestmove_before_stop_even_on_a_forced_mate() {
    let mut e = Engine::started();
    e.send(&format!("position fen {SCHOLAR}"));
    e.send("go infinite");
    let go_sent = e.last_sent;
    let early = e.expect_no_line_for("go infinite on a mate in 1", ms(600), is_bestmove);
    e.send("stop");
    let stop_sent = e.last_sent;
    let r = e.wait_bestmove(SYNC_TIMEOUT).with_earlier_lines(early);
    check_search(&pos_from_fen(SCHOLAR), &r, CastlingMode::Standard);
    assert_stopped_promptly(&r, go_sent, stop_sent, "go infinite on a mate in 1");
    assert_eq!(r.bestmove, "h5f7", "the mating move: {}", r.raw);
    assert_eq!(
        r.last_main_info().score,
        Some(Score::Mate(1)),
        "{}",
        r.lines.join("\n")
    );
}

#[test]
fn go_infinite_without_legal_moves_waits_for_stop() {
    // "Never before stop in go infinite" holds also when the root has no legal move: answer (none) on stop.
    let mut e = Engine::started();
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go infinite");
    e.expect_no_line_for("go infinite when checkmated", ms(400), is_bestmove);
    e.send("stop");
    let r = e.wait_bestmove(SYNC_TIMEOUT);
    assert_eq!(r.raw.trim(), "bestmove (none)");
    // Nothing is searched, so there is no `info ... time` to go by: the wall clock it is.
    assert!(
        r.elapsed < LOADED_PROMPT,
        "bestmove came {:?} after stop",
        r.elapsed
    );
}

#[test]
fn go_ponder_never_sends_bestmove_before_ponderhit_even_on_a_forced_mate() {
    let mut e = Engine::started();
    e.send("setoption name Ponder value true");
    e.send(&format!("position fen {SCHOLAR}"));
    e.send("go ponder wtime 5000 btime 5000");
    let early = e.expect_no_line_for("go ponder on a mate in 1", ms(600), is_bestmove);
    e.send("ponderhit");
    let r = e
        .wait_bestmove(Duration::from_secs(5))
        .with_earlier_lines(early);
    check_search(&pos_from_fen(SCHOLAR), &r, CastlingMode::Standard);
    assert_eq!(r.bestmove, "h5f7", "the mating move: {}", r.raw);
    // A known mate needs no more thinking after ponderhit; the clock allows 5 s.
    assert!(
        r.elapsed < Duration::from_secs(1),
        "bestmove took {:?} after ponderhit",
        r.elapsed
    );
}

#[test]
fn go_ponder_then_ponderhit_finishes_as_a_timed_search() {
    let mut e = Engine::started();
    e.send("setoption name Ponder value true");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    e.sync();
    e.send("go ponder wtime 1000 btime 1000 winc 10 binc 10");
    let early = e.expect_no_line_for("go ponder", ms(500), is_bestmove);
    e.send("ponderhit");
    let r = e
        .wait_bestmove(Duration::from_secs(5))
        .with_earlier_lines(early);
    // A timed search with 1 s on the clock must answer well within that second.
    assert!(
        r.elapsed < Duration::from_millis(1000),
        "after ponderhit the search must behave as a timed search with 1 s left; took {:?}",
        r.elapsed
    );
    let pos = play_moves(&pos_from_fen(STARTPOS), &["e2e4", "e7e5", "g1f3", "b8c6"]);
    check_search(&pos, &r, CastlingMode::Standard);
    e.expect_no_line_for("after bestmove", ms(200), is_bestmove);
}

#[test]
fn go_ponder_then_stop_returns_a_bestmove() {
    // The ponder-miss flow: the GUI stops the ponder search, discards its bestmove and starts a new search.
    let mut e = Engine::started();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves d2d4 d7d5");
    e.send("go ponder wtime 10000 btime 10000");
    let go_sent = e.last_sent;
    let early = e.expect_no_line_for("go ponder", ms(300), is_bestmove);
    e.send("stop");
    let stop_sent = e.last_sent;
    let r = e.wait_bestmove(SYNC_TIMEOUT).with_earlier_lines(early);
    assert_stopped_promptly(&r, go_sent, stop_sent, "go ponder then stop");
    e.send("position startpos moves d2d4 g8f6");
    let r = e.go("go wtime 1000 btime 1000", Duration::from_secs(5));
    let pos = play_moves(&pos_from_fen(STARTPOS), &["d2d4", "g8f6"]);
    check_search(&pos, &r, CastlingMode::Standard);
}

// ---------------------------------------------------------------------------------------------------------------
// bestmove accounting.

#[test]
fn exactly_one_bestmove_per_go() {
    let mut e = Engine::started();
    e.send("position startpos moves e2e4");
    for go in [
        "go depth 1",
        "go depth 4",
        "go nodes 2000",
        "go movetime 50",
        "go wtime 500 btime 500",
        "go infinite",
        "go mate 1",
    ] {
        e.send(go);
        let mut lines = Vec::new();
        if go == "go infinite" || go == "go mate 1" {
            // `go mate 1` in a position without a mate in 1 may end by itself or search until stopped.
            lines = e.drain_for(ms(200));
            e.send("stop");
        }
        if !lines.iter().any(|l| is_bestmove(l)) {
            lines.extend(e.collect_until("bestmove", SEARCH_TIMEOUT, is_bestmove));
        }
        // Anything that arrives after the bestmove (a second bestmove) is caught here.
        lines.extend(e.drain_for(ms(150)));
        lines.extend(e.sync());
        let n = lines.iter().filter(|l| is_bestmove(l)).count();
        assert_eq!(n, 1, "`{go}` produced {n} bestmoves:\n{}", lines.join("\n"));
    }
}

#[test]
fn setoption_right_after_bestmove_is_applied() {
    // A GUI may change options the moment `bestmove` arrives (between games, or between analysis requests):
    // the search is over then, so the option must be applied, not refused as "while searching".
    let mut e = Engine::started();
    e.send("position startpos");
    for i in 0..20 {
        e.go("go depth 1", SEARCH_TIMEOUT);
        let cmd = match i % 3 {
            0 => "setoption name Hash value 2",
            1 => "setoption name MultiPV value 2",
            _ => "setoption name Clear Hash",
        };
        e.send(cmd);
        let lines = e.sync();
        assert!(
            !lines.iter().any(|l| is_error_report(l)),
            "`{cmd}` sent right after bestmove (round {i}) was refused: {lines:?}"
        );
        if i % 3 == 1 {
            let r = e.go("go depth 2", SEARCH_TIMEOUT);
            assert!(
                r.score_infos().iter().any(|i| i.multipv == Some(2)),
                "MultiPV 2 set right after bestmove had no effect:\n{}",
                r.lines.join("\n")
            );
            e.send("setoption name MultiPV value 1");
            e.sync();
        }
    }
}

#[test]
fn go_right_after_bestmove_is_answered() {
    // The next `position`/`go` can arrive the moment `bestmove` is out (fast games, analysis tools).
    let mut e = Engine::started();
    for _ in 0..30 {
        e.send("position startpos moves e2e4");
        e.go("go depth 1", SEARCH_TIMEOUT);
    }
    e.sync();
}

#[test]
fn stop_while_idle_sends_no_bestmove() {
    let mut e = Engine::started();
    e.send("position startpos");
    e.send("stop");
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| is_bestmove(l)),
        "stop while idle: {lines:?}"
    );
    e.go("go depth 2", SEARCH_TIMEOUT);
    e.send("stop");
    e.send("stop");
    let mut lines = e.drain_for(ms(100));
    lines.extend(e.sync());
    assert!(
        !lines.iter().any(|l| is_bestmove(l)),
        "stop after the search ended: {lines:?}"
    );
}

#[test]
fn ucinewgame_is_accepted_before_and_during_a_search() {
    let mut e = Engine::started();
    e.send("ucinewgame");
    e.send("position startpos");
    let r = e.go("go depth 3", SEARCH_TIMEOUT);
    check_search(&pos_from_fen(STARTPOS), &r, CastlingMode::Standard);
    // GUIs may send ucinewgame without a prior stop: survive it, and never print more than one bestmove.
    e.send("go infinite");
    sleep_ms(100);
    e.send("ucinewgame");
    let mut lines = e.drain_for(ms(200));
    e.send("stop");
    lines.extend(e.drain_for(ms(200)));
    lines.extend(e.sync());
    let n = lines.iter().filter(|l| is_bestmove(l)).count();
    assert!(n <= 1, "{n} bestmoves for one go:\n{}", lines.join("\n"));
    e.send("ucinewgame");
    e.send(&format!("position fen {KIWIPETE}"));
    let r = e.go("go depth 3", SEARCH_TIMEOUT);
    check_search(&pos_from_fen(KIWIPETE), &r, CastlingMode::Standard);
}

/// Arena, Cute Chess and other GUIs send `setoption name UCI_AnalyseMode value true` when they
/// analyse: it is advertised as a check option and accepted without an error, and it changes
/// nothing in the search (README says so): the same `go depth 7` from a cleared table visits
/// the same nodes and plays the same move with it on or off.
#[test]
fn uci_analyse_mode_is_accepted_and_changes_nothing_in_the_search() {
    let (_, options) = advertised_options();
    let analyse = find(&options, "UCI_AnalyseMode");
    assert_eq!(analyse.kind, "check", "{analyse:?}");
    assert_eq!(analyse.default.as_deref(), Some("false"), "{analyse:?}");
    let mut e = Engine::started();
    let mut searched = Vec::new();
    for value in ["true", "false", "TRUE"] {
        e.send(&format!("setoption name UCI_AnalyseMode value {value}"));
        let lines = e.sync();
        assert!(
            !lines.iter().any(|l| is_error_report(l)),
            "setoption UCI_AnalyseMode {value}: {lines:?}"
        );
        e.send("ucinewgame");
        e.send(&format!("position fen {KIWIPETE}"));
        let r = e.go("go depth 7", SEARCH_TIMEOUT);
        searched.push((r.bestmove.clone(), r.last_main_info().nodes));
    }
    assert_eq!(searched[0], searched[1], "{searched:?}");
    assert_eq!(searched[1], searched[2], "{searched:?}");
    e.send("setoption name UCI_AnalyseMode value maybe");
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| is_error_report(l)),
        "a check option takes true or false: {lines:?}"
    );
}

/// A search that fails (its main thread panics: here by the test hook
/// `CUTOFF_TEST_FAIL_SEARCH_AT_DEPTH`, once its depth-3 iteration is reported, as a net check
/// that does not hold would) is still answered, once: one `info string error: the search
/// failed: ...` naming the failure and the move it answers with, then exactly one `bestmove`,
/// the first move of the last line it reported; a `go infinite` that failed still waits for
/// `stop`. The engine answers on (`isready`, the next `go`).
#[test]
fn a_search_that_fails_says_so_once_and_answers_one_bestmove_of_its_last_reported_move() {
    let mut e = Engine::with_env(&[(cutoff::test_hooks::FAIL_SEARCH_AT_DEPTH, "3")]);
    e.handshake();
    e.sync();
    let failed = "info string error: the search failed: CUTOFF_TEST_FAIL_SEARCH_AT_DEPTH asked for it; the move is the last one it reported, else the first legal one";
    for go in ["go depth 8", "go movetime 3000", "go infinite"] {
        e.send(&format!("position fen {KIWIPETE}"));
        let r = if go == "go infinite" {
            e.send(go);
            let early = e.expect_no_line_for("a failed go infinite", ms(300), is_bestmove);
            e.send("stop");
            e.wait_bestmove(SYNC_TIMEOUT).with_earlier_lines(early)
        } else {
            e.go(go, SEARCH_TIMEOUT)
        };
        let errors: Vec<&String> = r.lines.iter().filter(|l| is_error_report(l)).collect();
        assert_eq!(errors, [failed], "{go}: {:?}", r.lines);
        let last = r.last_main_info();
        assert_eq!(
            last.depth,
            Some(3),
            "{go}: searched on past the failure: {:?}",
            last.raw
        );
        assert_eq!(last.pv.first(), Some(&r.bestmove), "{go}: {}", r.raw);
        // Exactly one `bestmove`: none more before `readyok`.
        let after = e.sync();
        assert!(!after.iter().any(|l| is_bestmove(l)), "{go}: {after:?}");
    }
    assert!(
        e.stderr_text()
            .contains("CUTOFF_TEST_FAIL_SEARCH_AT_DEPTH asked for it"),
        "{}",
        e.stderr_text()
    );
}
