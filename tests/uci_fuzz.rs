//! The UCI loop under attack: property-based streams of commands, valid and mutated, sent to
//! the real binary over pipes, with the engine's state checked against a model after every one.
//!
//! Each generated stream starts a fresh engine and sends 1-40 steps: `position` commands from a
//! pool of FENs (normal, Chess960, stalemate, checkmate, huge move counters, castling rights
//! without the rook) and impossible ones (pawns on the back rank, two kings of one colour, the
//! side not to move in check, no kings, too many pieces), mutated (truncated, fields dropped,
//! duplicated, swapped or added, characters replaced) and followed by legal, illegal and
//! malformed moves; `go` with random subsets of its parameters, values zero, negative,
//! enormous, overflowing or not numbers at all; `setoption` with real and unknown names, wrong
//! types and out-of-range values, the round-3 options too (`EvalFile` and `SyzygyPath` with good
//! and hostile files made by the test: a net, a truncated one, one whose sums would wrap,
//! `/dev/zero`, a named pipe, a folder, missing paths; table folders good, empty, with a cut
//! table or a pipe in a table's place; `Evaluation`, `UCI_LimitStrength`, `UCI_Elo`,
//! `UCI_ShowWDL` and the Syzygy limits); `stop`, `ponderhit`, `ucinewgame`, `d`, `eval` at
//! random moments; pauses; blank lines, unknown commands, non-UTF-8 bytes, 1 MB lines; CRLF
//! line ends. Every engine runs under a [`MEMORY_LIMIT`] address-space limit, so a file read
//! without bound kills it (and fails the test) instead of taking the machine's memory.
//!
//! After every step (sent together with `d` and `isready`) it checks:
//! * the process is alive and answers `isready` within [`SYNC_TIMEOUT`];
//! * every line on stdout is a protocol line (no stray debug output);
//! * bad input got an `info string error: ...` and left the position as it was; good input
//!   got no error and set the position the model computes (checked through `d`'s `Fen:`);
//! * every `go` that starts a search gets exactly one `bestmove`, in order, legal in the
//!   position it was sent for (or `(none)` when that has no legal move), with a legal ponder
//!   move; a new `go`, `stop`, `ucinewgame` or `go perft` has every earlier search answered
//!   before `readyok`; `go perft` counts match shakmaty's perft.
//!
//! At the end of a stream it sends `stop`, checks every search was answered and no extra
//! `bestmove` follows, then ends with `quit` or end of input and expects a clean exit.
//!
//! Reproducible: the seed is fixed ([`DEFAULT_SEED`]) unless `PROPTEST_RNG_SEED` is set;
//! [`DEFAULT_CASES`] streams run unless `PROPTEST_CASES` says otherwise. A long run:
//!
//! ```text
//! PROPTEST_CASES=2000 PROPTEST_RNG_SEED=12345 nice -n 10 cargo test --release \
//!     --test uci_fuzz -- --nocapture
//! ```
//!
//! prints how many streams and lines were sent.

mod common;

use std::collections::VecDeque;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use common::*;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, PositionError};

/// Streams per run in CI: enough to exercise every generator, well under a minute.
const DEFAULT_CASES: u32 = 24;
/// The seed CI uses, so that a failure there reproduces anywhere.
const DEFAULT_SEED: u64 = 0x00C0_70FF_2026_1121;

/// `Hash` sizes up to this are expected to be granted. The generator asks for at most
/// 257 MB, or for 1048576 MB, which no machine running this test can give.
const HASH_OK_MAX: u64 = 4096;

/// The address space each fuzzed engine may use (as `prlimit --as`): room for 16 threads'
/// stacks and a 257 MB table, far below what an unbounded read of `/dev/zero` would take.
const MEMORY_LIMIT: u64 = 4 << 30;

/// The files the round-3 options are fed, made once per run in a temporary folder: which
/// values the engine must accept and which it must refuse with an error.
struct Fixtures {
    dir: std::path::PathBuf,
    good_nets: Vec<String>,
    bad_nets: Vec<String>,
    good_tables: Vec<String>,
    bad_tables: Vec<String>,
}

#[cfg(unix)]
fn mkfifo(path: &std::path::Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "{path:?}");
}

fn make_fixtures() -> Fixtures {
    use cutoff::eval::nnue::{fnv1a, Network, INPUTS};
    use std::fs;
    let dir = std::env::temp_dir().join(format!("cutoff-fuzz-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let at = |name: &str| dir.join(name).display().to_string();
    // A small net of seeded weights, and the same with its checksum kept right but one output
    // weight far past what the engine's 16-bit products allow.
    let h = 16;
    let mut rng = cutoff::rng::Rng::new(3);
    let mut draw = |r: i32| (rng.below((2 * r + 1) as usize) as i32 - r) as i16;
    let w1: Vec<i16> = (0..INPUTS * h).map(|_| draw(60)).collect();
    let b1: Vec<i16> = (0..h).map(|_| draw(60)).collect();
    let w2: Vec<i16> = (0..2 * h).map(|_| draw(120)).collect();
    let good = Network::from_weights(w1, b1, w2, vec![100]).to_bytes();
    fs::write(at("good.nnue"), &good).unwrap();
    // A good net whose name holds two spaces and a tab: `setoption` must keep them.
    fs::write(at("good  spaced\tnet.nnue"), &good).unwrap();
    fs::write(at("truncated.nnue"), &good[..good.len() / 3]).unwrap();
    let mut extreme = good.clone();
    let w2_at = 64 + 2 * (INPUTS * h + h);
    extreme[w2_at..w2_at + 2].copy_from_slice(&20_000i16.to_le_bytes());
    let hash = fnv1a(&extreme[64..]);
    extreme[56..64].copy_from_slice(&hash.to_le_bytes());
    fs::write(at("extreme.nnue"), &extreme).unwrap();
    fs::create_dir_all(at("folder.nnue")).unwrap();
    let mut bad_nets = vec![
        at("truncated.nnue"),
        at("extreme.nnue"),
        at("folder.nnue"),
        at("missing.nnue"),
        "/dev/zero".to_string(),
    ];
    // Tables: a good folder (KRvK and KQvK from ../shared/syzygy, where it is), an empty one,
    // one with a cut table, one with a named pipe in a table's place.
    let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/syzygy");
    let mut good_tables = Vec::new();
    for sub in ["tb-good", "tb-empty", "tb-cut", "tb-pipe"] {
        fs::create_dir_all(at(sub)).unwrap();
    }
    if shared.join("KQvK.rtbw").is_file() {
        for name in ["KRvK.rtbw", "KRvK.rtbz", "KQvK.rtbw", "KQvK.rtbz"] {
            fs::copy(shared.join(name), dir.join("tb-good").join(name)).unwrap();
        }
        let wdl = fs::read(shared.join("KQvK.rtbw")).unwrap();
        fs::write(dir.join("tb-cut").join("KQvK.rtbw"), &wdl[..144]).unwrap();
        good_tables.push(at("tb-good"));
    } else {
        common::skip(
            "uci_fuzz (its fixtures)",
            common::Need::Shared,
            &format!(
                "no tables at {}: no good or cut table folder is fuzzed",
                shared.display()
            ),
        );
    }
    let mut bad_tables = vec![
        at("tb-empty"),
        at("tb-missing"),
        at("good.nnue"),
        "/dev/zero".to_string(),
    ];
    if shared.join("KQvK.rtbw").is_file() {
        bad_tables.push(at("tb-cut"));
    }
    #[cfg(unix)]
    {
        mkfifo(&dir.join("pipe.nnue"));
        bad_nets.push(at("pipe.nnue"));
        mkfifo(&dir.join("tb-pipe").join("KQvK.rtbw"));
        bad_tables.push(at("tb-pipe"));
    }
    Fixtures {
        good_nets: vec![at("good.nnue"), at("good  spaced\tnet.nnue")],
        bad_nets,
        good_tables,
        bad_tables,
        dir,
    }
}

fn fixtures() -> &'static Fixtures {
    static FIXTURES: std::sync::OnceLock<Fixtures> = std::sync::OnceLock::new();
    FIXTURES.get_or_init(make_fixtures)
}

fn config() -> Config {
    let from_env = Config::default(); // reads the PROPTEST_* variables
    Config {
        cases: if std::env::var_os("PROPTEST_CASES").is_some() {
            from_env.cases
        } else {
            DEFAULT_CASES
        },
        rng_seed: match from_env.rng_seed {
            RngSeed::Random => RngSeed::Fixed(DEFAULT_SEED),
            fixed => fixed,
        },
        // Each case drives a process: shrinking is slow, keep it bounded.
        max_shrink_iters: 200,
        max_shrink_time: 120_000,
        failure_persistence: None,
        ..from_env
    }
}

// ----------------------------------------------------------------------------------------
// What is generated
// ----------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Eol {
    Lf,
    CrLf,
}

#[derive(Clone)]
enum Step {
    /// One input line (without its end).
    Line(Vec<u8>, Eol),
    /// A pause, letting searches run or finish.
    Wait(u64),
}

/// Long lines are shown by their start and length, not in full.
impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Wait(ms) => write!(f, "Wait({ms})"),
            Step::Line(bytes, eol) => {
                let text = String::from_utf8_lossy(bytes);
                if bytes.len() > 200 {
                    let head: String = text.chars().take(120).collect();
                    write!(f, "Line({head:?}... [{} bytes], {eol:?})", bytes.len())
                } else {
                    write!(f, "Line({text:?}, {eol:?})")
                }
            }
        }
    }
}

#[derive(Clone, Debug)]
enum End {
    Quit,
    CloseInput,
}

#[derive(Clone, Debug)]
struct Stream {
    handshake: bool,
    steps: Vec<Step>,
    end: End,
}

/// Legal positions, and some that are legal only in Chess960 or only after the engine drops
/// castling rights without a rook or an impossible en-passant square.
const GOOD_FENS: &[&str] = &[
    STARTPOS,
    KIWIPETE,
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    // Stalemate and checkmate: no legal move, `bestmove (none)`.
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1",
    // Mate in one, en passant, promotion.
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    "8/P6k/8/8/8/8/6Kp/8 w - - 0 1",
    // Huge move counters.
    "8/8/8/8/8/8/8/K1k5 w - - 4294967295 4294967295",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 99 1000000",
    // Castling rights without the rook, an impossible en-passant square.
    "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
    "r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
    // Chess960 (Shredder-FEN), and X-FEN.
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
];

/// Positions that cannot occur, or text that is no FEN at all.
const BAD_FENS: &[&str] = &[
    "Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNp w - - 0 1",
    "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
    "3kk3/8/8/8/8/8/8/4K3 b - - 0 1",
    "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/4r3/4K3 b - - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQKQQk w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999999999999",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1 1",
    "k7/8/8/8/8/8/8/K7 w XYZ - 0 1",
    "k7/8/8/8/8/8/8/K7 w - z9 0 1",
];

/// Move tokens that are not moves, or not moves in any position.
const MALFORMED_MOVES: &[&str] = &[
    "e2e",
    "e2e4e",
    "e7e8k",
    "0000",
    "E2E4",
    "e2-e4",
    "Nf3",
    "O-O",
    "e9e4",
    "a0a1",
    "e1g1",
    "e1h1",
    "\u{fffd}",
    "h7h8q",
    "@@@@",
    "e2e4\u{0}",
    "a1a1",
    "-",
    "e2e4q",
];

#[derive(Clone, Debug)]
enum FenMutation {
    None,
    Truncate(usize),
    DropField(usize),
    DuplicateField(usize),
    KeepFields(usize),
    SwapFields(usize, usize),
    AddField(&'static str),
    ReplaceChar(usize, char),
}

fn fen_mutation() -> impl Strategy<Value = FenMutation> {
    prop_oneof![
        4 => Just(FenMutation::None),
        1 => any::<usize>().prop_map(FenMutation::Truncate),
        1 => (0usize..6).prop_map(FenMutation::DropField),
        1 => (0usize..6).prop_map(FenMutation::DuplicateField),
        1 => (0usize..8).prop_map(FenMutation::KeepFields),
        1 => (0usize..6, 0usize..6).prop_map(|(a, b)| FenMutation::SwapFields(a, b)),
        1 => prop::sample::select(vec!["0", "-", "w", "KQkq", "e3", "99999999999", "\u{fffd}"])
            .prop_map(FenMutation::AddField),
        1 => (any::<usize>(), prop::sample::select(vec!['p', 'K', 'k', '9', '/', ' ', '-', 'x', 'Q', '0']))
            .prop_map(|(i, c)| FenMutation::ReplaceChar(i, c)),
    ]
}

fn mutate(fen: &str, m: &FenMutation) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    let n = fields.len();
    match *m {
        FenMutation::None => return fen.to_string(),
        FenMutation::Truncate(i) => {
            let cut = i % fen.len().max(1);
            return fen.chars().take(cut).collect();
        }
        FenMutation::DropField(i) => {
            fields.remove(i % n);
        }
        FenMutation::DuplicateField(i) => {
            let f = fields[i % n].clone();
            fields.insert(i % n, f);
        }
        FenMutation::KeepFields(k) => fields.truncate(k.max(1)),
        FenMutation::SwapFields(a, b) => fields.swap(a % n, b % n),
        FenMutation::AddField(f) => fields.push(f.to_string()),
        FenMutation::ReplaceChar(i, c) => {
            let mut chars: Vec<char> = fen.chars().collect();
            let len = chars.len();
            chars[i % len] = c;
            return chars.into_iter().collect();
        }
    }
    fields.join(" ")
}

#[derive(Clone, Debug)]
enum MoveToken {
    /// The n-th legal move (modulo their number) of the position reached so far.
    Legal(usize),
    /// Any square to any square, with or without a promotion letter.
    Random(u8, u8, Option<char>),
    Malformed(&'static str),
}

fn move_token() -> impl Strategy<Value = MoveToken> {
    prop_oneof![
        12 => any::<usize>().prop_map(MoveToken::Legal),
        1 => (0u8..64, 0u8..64, prop::option::of(prop::sample::select(vec!['q', 'n', 'k', 'x'])))
            .prop_map(|(a, b, p)| MoveToken::Random(a, b, p)),
        1 => prop::sample::select(MALFORMED_MOVES.to_vec()).prop_map(MoveToken::Malformed),
    ]
}

fn square_name(i: u8) -> String {
    let file = (b'a' + i % 8) as char;
    let rank = (b'1' + i / 8) as char;
    format!("{file}{rank}")
}

/// Renders move tokens, playing the legal ones on a copy of `pos` when there is one.
fn render_moves(mut pos: Option<Chess>, tokens: &[MoveToken]) -> Vec<String> {
    let mut out = Vec::new();
    for t in tokens {
        let text = match t {
            MoveToken::Legal(i) => match &pos {
                Some(p) if !p.legal_moves().is_empty() => {
                    let moves = p.legal_moves();
                    let m = moves[i % moves.len()];
                    m.to_uci(CastlingMode::Standard).to_string()
                }
                _ => square_name((*i % 64) as u8) + &square_name((*i / 64 % 64) as u8),
            },
            MoveToken::Random(a, b, p) => {
                square_name(*a) + &square_name(*b) + &p.map(String::from).unwrap_or_default()
            }
            MoveToken::Malformed(s) => s.to_string(),
        };
        pos = pos.and_then(|p| {
            let m = text.parse::<UciMove>().ok()?.to_move(&p).ok()?;
            let mut next = p;
            next.play_unchecked(m);
            Some(next)
        });
        out.push(text);
    }
    out
}

fn parse_fen_standard(text: &str) -> Option<Chess> {
    oracle_fen(text, CastlingMode::Standard).ok()
}

fn position_line() -> impl Strategy<Value = String> {
    let fen_source = prop_oneof![
        3 => prop::sample::select(GOOD_FENS.to_vec()),
        1 => prop::sample::select(BAD_FENS.to_vec()),
    ];
    let body = (
        0u8..10,
        fen_source,
        fen_mutation(),
        prop::collection::vec(move_token(), 0..12),
        any::<bool>(),
    )
        .prop_map(|(shape, fen, mutation, tokens, with_moves)| {
            let fen = mutate(fen, &mutation);
            let (spec, start) = match shape {
                0..=2 => ("startpos".to_string(), Some(Chess::default())),
                3..=7 => (format!("fen {fen}"), parse_fen_standard(&fen)),
                8 => ("fen".to_string(), None),
                _ => (
                    prop_junk_spec(tokens.len()).to_string(),
                    Some(Chess::default()),
                ),
            };
            let moves = render_moves(start, &tokens);
            let mut line = format!("position {spec}");
            if with_moves || !moves.is_empty() {
                line += " moves";
                for m in moves {
                    line += " ";
                    line += &m;
                }
            }
            line
        });
    body
}

/// Malformed `position` starts: nothing, junk after `startpos`, no start at all.
fn prop_junk_spec(n: usize) -> &'static str {
    [
        "",
        "startpos startpos",
        "startpos e2e4",
        "fenn 8/8/8/8 w",
        "moves",
    ][n % 5]
}

/// A value for a `go` parameter.
fn go_value(key: &'static str) -> impl Strategy<Value = Option<String>> {
    let small = match key {
        "wtime" | "btime" => 1u64..3000,
        "winc" | "binc" => 0u64..100,
        "movetime" => 1u64..200,
        "depth" => 1u64..5,
        "nodes" => 1u64..5000,
        "mate" => 1u64..4,
        "movestogo" => 1u64..40,
        "perft" => 0u64..4,
        _ => 0u64..10,
    };
    let perft = key == "perft";
    prop_oneof![
        6 => small.prop_map(|n| Some(n.to_string())),
        1 => Just(Some("0".to_string())),
        1 => (1i64..100_000).prop_map(|n| Some((-n).to_string())),
        1 => prop::sample::select(if perft {
            vec!["11", "99", "4294967295", "4294967296"]
        } else {
            vec![
                "1000000000", "2147483647", "2147483648", "4294967295", "4294967296",
                "9223372036854775807", "-9223372036854775808", "18446744073709551615",
                "18446744073709551616", "99999999999999999999999",
            ]
        })
        .prop_map(|s| Some(s.to_string())),
        1 => prop::sample::select(vec!["abc", "1.5", "-", "+5", "1e3", "0x10", "\u{fffd}"])
            .prop_map(|s| Some(s.to_string())),
        1 => Just(None),
    ]
}

fn go_param() -> impl Strategy<Value = String> {
    let keyed = prop::sample::select(vec![
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "depth",
        "nodes",
        "mate",
        "movetime",
    ])
    .prop_flat_map(|k| {
        go_value(k).prop_map(move |v| match v {
            Some(v) => format!("{k} {v}"),
            None => k.to_string(),
        })
    });
    prop_oneof![
        12 => keyed,
        2 => Just("infinite".to_string()),
        2 => Just("ponder".to_string()),
        1 => prop::collection::vec(move_token(), 0..4).prop_map(|t| {
            let mut s = "searchmoves".to_string();
            for m in render_moves(None, &t) {
                s += " ";
                s += &m;
            }
            s
        }),
        1 => prop::sample::select(vec!["fast", "wtime10", "depth=3", "\u{fffd}"])
            .prop_map(str::to_string),
    ]
}

fn go_line() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::collection::vec(go_param(), 0..5).prop_map(|ps| {
            let mut line = "go".to_string();
            for p in ps {
                line += " ";
                line += &p;
            }
            line
        }),
        1 => go_value("perft").prop_map(|v| format!("go perft {}", v.unwrap_or_default())),
    ]
}

fn setoption_line() -> impl Strategy<Value = String> {
    // Hash values are drawn apart: a few GB would be granted on a big machine and taken
    // from whatever runs beside the test.
    let hash = (
        prop::sample::select(vec!["Hash", "hash", "HASH"]),
        prop::option::of(prop::sample::select(vec![
            "1",
            "2",
            "16",
            "64",
            "256",
            "257",
            "0",
            "-1",
            "1048576",
            "1048577",
            "18446744073709551616",
            "abc",
            "",
            "1 2",
            "1.5",
            "true",
        ])),
    );
    let other = (
        prop::sample::select(vec![
            "Clear Hash",
            "MultiPV",
            "multipv",
            "Move Overhead",
            "Ponder",
            "UCI_Chess960",
            "uci_chess960",
            "Hash Size",
            "Skill Level",
            "UCI_Elo",
            "Nullmove",
            "\u{fffd}",
            "Thread",
        ]),
        prop::option::of(prop::sample::select(vec![
            "1",
            "2",
            "16",
            "256",
            "0",
            "-1",
            "257",
            "5000",
            "5001",
            "true",
            "false",
            "TRUE",
            "False",
            "maybe",
            "",
            "18446744073709551616",
            "abc",
            "1 2",
            "30",
        ])),
    );
    // Threads stay at 16 or fewer: each takes a 64 MB stack of the engine's address space.
    let threads = (
        prop::sample::select(vec!["Threads", "threads"]),
        prop::option::of(prop::sample::select(vec![
            "1", "2", "4", "16", "0", "-1", "1025", "abc", "", "1 2", "true",
        ])),
    );
    let named = prop_oneof![
        1 => hash.prop_map(owned),
        1 => other.prop_map(owned),
        1 => threads.prop_map(owned),
        2 => round3_option(),
    ];
    (0u8..12, named).prop_map(|(shape, (name, value))| match shape {
        0 => "setoption".to_string(),
        1 => format!("setoption {name} value {}", value.as_deref().unwrap_or("1")),
        2 => format!("setoption name value {}", value.as_deref().unwrap_or("1")),
        3 => "setoption name".to_string(),
        _ => match value {
            Some(v) => format!("setoption name {name} value {v}"),
            None => format!("setoption name {name}"),
        },
    })
}

/// A name and an optional value, owned.
fn owned((name, value): (&'static str, Option<&'static str>)) -> (String, Option<String>) {
    (name.to_string(), value.map(str::to_string))
}

/// The options of round 3: the two that read files, with the fixtures' good and hostile
/// paths, and the others with good and bad values.
fn round3_option() -> impl Strategy<Value = (String, Option<String>)> {
    let f = fixtures();
    let nets: Vec<String> = f.good_nets.iter().chain(&f.bad_nets).cloned().collect();
    let mut tables: Vec<String> = f.good_tables.iter().chain(&f.bad_tables).cloned().collect();
    tables.push("<empty>".to_string());
    if let [good, bad, ..] = &f
        .good_tables
        .iter()
        .chain(&f.bad_tables)
        .collect::<Vec<_>>()[..]
    {
        tables.push(format!("{good}:{bad}"));
    }
    let files = prop_oneof![
        (
            prop::sample::select(vec!["EvalFile", "evalfile"]),
            prop::option::of(prop::sample::select(nets)),
        ),
        (
            prop::sample::select(vec!["SyzygyPath", "syzygypath"]),
            prop::option::of(prop::sample::select(tables)),
        ),
    ]
    .prop_map(|(name, value)| (name.to_string(), value));
    let others = (
        prop::sample::select(vec![
            "Evaluation",
            "UCI_LimitStrength",
            "UCI_Elo",
            "UCI_ShowWDL",
            "SyzygyProbeDepth",
            "SyzygyProbeLimit",
            "Syzygy50MoveRule",
        ]),
        prop::option::of(prop::sample::select(vec![
            "net",
            "classical",
            "Classical",
            "nnue",
            "true",
            "false",
            "1320",
            "1319",
            "2000",
            "2700",
            "2701",
            "0",
            "1",
            "7",
            "8",
            "100",
            "101",
            "-1",
            "abc",
            "<empty>",
        ])),
    )
        .prop_map(owned);
    prop_oneof![files, others]
}

fn simple_line() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "isready",
        "uci",
        "stop",
        "ponderhit",
        "ucinewgame",
        "d",
        "eval",
        "debug on",
        "register later",
        "stop stop",
        "  isready  ",
        "\tstop",
    ])
    .prop_map(str::to_string)
}

/// Lines no command starts with: blank, unknown words, control characters.
fn junk_text_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(Vec::new()),
        Just(b"   \t ".to_vec()),
        prop::sample::select(vec![
            "xyzzy",
            "go!",
            "isready?",
            "POSITION startpos",
            "\u{fffd}"
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        // Bytes that are not UTF-8 (a high bit set on every one), with NULs.
        prop::collection::vec(any::<u8>(), 1..64).prop_map(|mut v| {
            for b in &mut v {
                if *b == b'\n' {
                    *b = 0;
                }
                *b |= 0x80;
            }
            v
        }),
        // A command with non-UTF-8 bytes inside it.
        prop::sample::select(vec![
            &b"position fen \xff\xfe/8/8/8/8/8/8/8 w - - 0 1"[..],
            &b"position startpos moves e2e4 \xc3\x28"[..],
            &b"go depth \xff"[..],
            &b"setoption name Hash value \xf0\x28\x8c\x28"[..],
            &b"\xef\xbb\xbfisready"[..],
        ])
        .prop_map(|s| s.to_vec()),
    ]
}

/// A line of about 1 MB: a command prefix and a repeated filler.
fn long_line() -> impl Strategy<Value = Vec<u8>> {
    let prefix = prop::sample::select(vec![
        "",
        "position fen ",
        "position startpos moves ",
        "setoption name ",
        "go searchmoves ",
        "go depth 1 ",
        "xyzzy ",
    ]);
    let filler = prop::sample::select(vec![
        &b"a"[..],
        &b"g1f3 g8f6 f3g1 f6g8 "[..],
        &b"e2e4 "[..],
        &b"depth 1 "[..],
        &b"\xff\xfe"[..],
        &b" "[..],
    ]);
    (prefix, filler).prop_map(|(prefix, filler)| {
        let mut line = prefix.as_bytes().to_vec();
        while line.len() < (1 << 20) {
            line.extend_from_slice(filler);
        }
        line
    })
}

fn eol() -> impl Strategy<Value = Eol> {
    prop_oneof![5 => Just(Eol::Lf), 1 => Just(Eol::CrLf)]
}

fn step() -> impl Strategy<Value = Step> {
    let text = prop_oneof![
        6 => position_line(),
        7 => go_line(),
        3 => setoption_line(),
        4 => simple_line(),
    ]
    .prop_map(String::into_bytes);
    let line = prop_oneof![
        20 => text,
        3 => junk_text_line(),
        1 => long_line(),
    ];
    prop_oneof![
        8 => (line, eol()).prop_map(|(l, e)| Step::Line(l, e)),
        1 => prop_oneof![4 => 0u64..40, 1 => 100u64..400].prop_map(Step::Wait),
    ]
}

fn stream() -> impl Strategy<Value = Stream> {
    (
        prop::bool::weighted(0.8),
        prop::collection::vec(step(), 1..40),
        prop_oneof![Just(End::Quit), Just(End::CloseInput)],
    )
        .prop_map(|(handshake, steps, end)| Stream {
            handshake,
            steps,
            end,
        })
}

// ----------------------------------------------------------------------------------------
// The model: what the engine must do with a line
// ----------------------------------------------------------------------------------------

/// A FEN as the engine reads it: castling rights without their rook and an impossible
/// en-passant square are dropped, a check no game can reach is accepted; an impossible
/// position is an error.
fn oracle_fen(text: &str, mode: CastlingMode) -> Result<Chess, String> {
    // A move counter beyond `u32` is refused (shakmaty alone reads it as 4294967295). The
    // counters are the fields after the fourth (shakmaty splits at spaces and underscores),
    // a three-check field such as `3+3` not counted.
    let beyond_u32 = text
        .split([' ', '_'])
        .filter(|f| !f.is_empty())
        .skip(4)
        .filter(|f| !f.contains('+'))
        .take(2)
        .any(|f| f.chars().all(|c| c.is_ascii_digit()) && f.parse::<u32>().is_err());
    if beyond_u32 {
        return Err("a move counter beyond u32".into());
    }
    let fen: Fen = text.trim().parse().map_err(|e| format!("{e}"))?;
    fen.into_position(mode)
        .or_else(PositionError::ignore_impossible_check)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .or_else(PositionError::ignore_invalid_ep_square)
        .map_err(|e| format!("{e}"))
}

fn oracle_position(words: &[&str], mode: CastlingMode) -> Result<Chess, String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let spec = &words[..moves_at.unwrap_or(words.len())];
    let mut pos = match spec {
        ["startpos"] => Chess::default(),
        ["fen", rest @ ..] if !rest.is_empty() => oracle_fen(&rest.join(" "), mode)?,
        _ => return Err("bad start".into()),
    };
    for text in moves_at.map_or(&[][..], |i| &words[i + 1..]) {
        let m = text
            .parse::<UciMove>()
            .map_err(|_| format!("unreadable move {text}"))?
            .to_move(&pos)
            .map_err(|_| format!("illegal move {text}"))?;
        pos.play_unchecked(m);
    }
    Ok(pos)
}

#[derive(Debug, PartialEq, Eq)]
enum GoKind {
    /// A search; `reported`: some parameter was bad and must have been reported.
    Search {
        reported: bool,
    },
    Perft(u32),
}

const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "perft",
];

/// What a `go` line does: per the UCI specification, clocks may be negative (read as 0),
/// counts are unsigned, `depth` and `mate` must be at least 1. A bad parameter is reported and
/// ignored and the search still runs (so it still owes a `bestmove`); a missing value, or a
/// keyword in its place, takes one word, a bad value two. Only `go perft` with a bad or too
/// large depth is refused.
fn oracle_go(words: &[&str]) -> Result<GoKind, String> {
    let mut perft = None;
    let mut reported = false;
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let value = words.get(i + 1).copied();
        let is_value = value.is_some_and(|v| !GO_KEYWORDS.contains(&v) && v != "searchmoves");
        let ok = match key {
            "infinite" | "ponder" => {
                i += 1;
                continue;
            }
            "searchmoves" => {
                i += 1;
                while i < words.len() && !GO_KEYWORDS.contains(&words[i]) {
                    i += 1;
                }
                continue;
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" => {
                is_value && value.is_some_and(|v| v.parse::<i64>().is_ok())
            }
            "movestogo" => is_value && value.is_some_and(|v| v.parse::<u32>().is_ok()),
            "mate" => is_value && value.is_some_and(|v| v.parse::<u32>().is_ok_and(|n| n >= 1)),
            "nodes" => is_value && value.is_some_and(|v| v.parse::<u64>().is_ok()),
            "depth" => is_value && value.is_some_and(|v| v.parse::<i32>().is_ok_and(|d| d >= 1)),
            "perft" => match value.filter(|_| is_value).map(str::parse::<u32>) {
                Some(Ok(d)) => {
                    perft = Some(d);
                    true
                }
                _ => return Err("bad perft depth".into()),
            },
            _ => {
                reported = true;
                i += 1;
                continue;
            }
        };
        if ok {
            i += 2;
        } else {
            reported = true;
            i += if is_value { 2 } else { 1 };
        }
    }
    match perft {
        Some(d) if d > cutoff::perft::MAX_DEPTH => Err("perft too deep".into()),
        Some(d) => Ok(GoKind::Perft(d)),
        None => Ok(GoKind::Search { reported }),
    }
}

/// A valid `setoption`: whether it switches Chess960 (the only option the model follows).
#[derive(Debug, PartialEq, Eq)]
enum OptionChange {
    Chess960(bool),
    Other,
}

/// The value of a `setoption` line: the text after the one character (a space or a tab) that
/// follows the first word `value`, as typed, trailing white space dropped; `None` without one.
fn setoption_value(text: &str) -> Option<String> {
    let mut at = 0;
    let mut words = Vec::new();
    for word in text.split(char::is_whitespace) {
        if !word.is_empty() {
            words.push((word, at + word.len()));
        }
        at += word.len();
        at += text[at..].chars().next().map_or(0, char::len_utf8);
    }
    let (_, end) = words.iter().skip(2).find(|(w, _)| *w == "value")?;
    let mut rest = text[*end..].chars();
    rest.next();
    Some(rest.as_str().trim_end().to_string())
}

fn oracle_setoption(words: &[&str], text: &str) -> Result<OptionChange, String> {
    if words.first() != Some(&"name") {
        return Err("no name".into());
    }
    let value_at = words.iter().position(|w| *w == "value");
    let name = words[1..value_at.unwrap_or(words.len())].join(" ");
    if name.is_empty() {
        return Err("empty name".into());
    }
    let value = value_at.and_then(|_| setoption_value(text));
    let spin = |min: u64, max: u64| -> Result<OptionChange, String> {
        match value.as_deref().map(|v| v.trim().parse::<u64>()) {
            Some(Ok(n)) if (min..=max).contains(&n) => Ok(OptionChange::Other),
            _ => Err("bad spin".into()),
        }
    };
    let check = || match value.as_deref().map(|v| v.trim().to_ascii_lowercase()) {
        Some(v) if v == "true" => Ok(true),
        Some(v) if v == "false" => Ok(false),
        _ => Err("bad check".to_string()),
    };
    match name.to_ascii_lowercase().as_str() {
        // Larger tables than this test asks for are refused for want of memory.
        "hash" => spin(1, HASH_OK_MAX),
        "clear hash" => Ok(OptionChange::Other),
        "multipv" => spin(1, 256),
        "move overhead" => spin(0, 5000),
        "threads" => spin(1, 1024),
        "ponder" | "uci_limitstrength" | "uci_showwdl" | "syzygy50moverule" => {
            check().map(|_| OptionChange::Other)
        }
        "uci_chess960" => check().map(OptionChange::Chess960),
        "uci_elo" => spin(1320, 2700),
        "syzygyprobedepth" => spin(1, 100),
        "syzygyprobelimit" => spin(0, 7),
        "evaluation" => match value
            .as_deref()
            .map(|v| v.trim().to_ascii_lowercase())
            .as_deref()
        {
            Some("net" | "classical") => Ok(OptionChange::Other),
            _ => Err("bad combo".into()),
        },
        // No value and `<empty>` are the built-in net / no tables; a path must be a good file.
        "evalfile" => file_option(value.as_deref(), &fixtures().good_nets),
        "syzygypath" => file_option(value.as_deref(), &fixtures().good_tables),
        _ => Err("unknown option".into()),
    }
}

fn file_option(value: Option<&str>, good: &[String]) -> Result<OptionChange, String> {
    match value {
        None => Ok(OptionChange::Other),
        Some(v) if v.trim_start() == "<empty>" => Ok(OptionChange::Other),
        Some(v) if good.iter().any(|g| g == v) => Ok(OptionChange::Other),
        Some(v) => Err(format!("{v} is no good file")),
    }
}

#[derive(Debug)]
enum Expect {
    /// Accepted, nothing to follow.
    Accepted,
    /// Refused with an error; nothing changes.
    Refused,
    Position(Chess),
    Go(GoKind),
    SetOption(OptionChange),
    NewGame,
    Stop,
    Quit,
}

fn classify(text: &str, chess960: bool) -> Expect {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mode = CastlingMode::from_chess960(chess960);
    let Some((&head, rest)) = words.split_first() else {
        return Expect::Accepted;
    };
    match head {
        "uci" | "isready" | "ponderhit" | "d" | "eval" | "debug" | "register" => Expect::Accepted,
        "stop" => Expect::Stop,
        "quit" => Expect::Quit,
        "ucinewgame" => Expect::NewGame,
        "position" => match oracle_position(rest, mode) {
            Ok(pos) => Expect::Position(pos),
            Err(_) => Expect::Refused,
        },
        "go" => match oracle_go(rest) {
            Ok(kind) => Expect::Go(kind),
            Err(_) => Expect::Refused,
        },
        "setoption" => match oracle_setoption(rest, text) {
            Ok(change) => Expect::SetOption(change),
            Err(_) => Expect::Refused,
        },
        _ => Expect::Refused,
    }
}

// ----------------------------------------------------------------------------------------
// Running a stream
// ----------------------------------------------------------------------------------------

static STREAMS: AtomicU64 = AtomicU64::new(0);
static LINES: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);
static GOS: AtomicU64 = AtomicU64::new(0);
static BESTMOVES: AtomicU64 = AtomicU64::new(0);
static ERRORS: AtomicU64 = AtomicU64::new(0);

/// A search the engine owes a `bestmove` for: the position and notation at its `go`.
struct Owed {
    pos: Chess,
    mode: CastlingMode,
}

struct Run {
    e: Engine,
    pos: Chess,
    chess960: bool,
    owed: VecDeque<Owed>,
}

macro_rules! ensure {
    ($run:expr, $cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(TestCaseError::fail(format!(
                "{}\n{}",
                format!($($fmt)+),
                $run.e.transcript()
            )));
        }
    };
}

/// Whether a stdout line belongs to the protocol or to the documented `d`, `eval` and
/// `go perft` output.
fn is_protocol_line(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    if matches!(
        first,
        "id" | "uciok" | "readyok" | "bestmove" | "info" | "option"
    ) {
        return true;
    }
    let perft_line = line
        .split_once(": ")
        .is_some_and(|(m, n)| m.parse::<UciMove>().is_ok() && n.parse::<u64>().is_ok());
    line.is_empty()
        || perft_line
        || [
            " +---",
            " | ",
            "   a   b",
            "Fen: ",
            "Key: ",
            "Checkers:",
            " Term ",
            " Total ",
            "-----",
            "                            |",
            "Phase: ",
            "Final evaluation: ",
            "Net evaluation",
            "Piece contributions, ",
            "WDL, ",
            "Nodes searched: ",
        ]
        .iter()
        .any(|p| line.starts_with(p))
        || cutoff::eval::classical::params::GROUPS
            .iter()
            .any(|g| line.starts_with(&format!(" {} ", g.0)))
}

impl Run {
    fn mode(&self) -> CastlingMode {
        CastlingMode::from_chess960(self.chess960)
    }

    fn send_raw(&mut self, bytes: &[u8], eol: Eol) {
        let mut data = bytes.to_vec();
        data.extend_from_slice(if eol == Eol::CrLf { b"\r\n" } else { b"\n" });
        LINES.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(data.len() as u64, Ordering::Relaxed);
        self.e.send_bytes(&data);
    }

    fn send(&mut self, line: &str) {
        self.send_raw(line.as_bytes(), Eol::Lf);
    }

    fn alive(&mut self) -> Result<(), TestCaseError> {
        let status = self.e.wait_exit(Duration::ZERO);
        ensure!(self, status.is_none(), "the engine exited: {status:?}");
        Ok(())
    }

    /// Sends `d` and `isready` and checks every line up to `readyok`: protocol lines only,
    /// each `bestmove` paid against the oldest owed search. Returns the lines.
    /// `skip` is the number of `readyok`s owed to `isready`s sent before.
    fn sync(&mut self, mut skip: usize) -> Result<Vec<String>, TestCaseError> {
        self.send("d");
        self.send("isready");
        let deadline = Instant::now() + SYNC_TIMEOUT;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.e.next_line(left) else {
                self.alive()?;
                ensure!(self, false, "no readyok within {SYNC_TIMEOUT:?}");
                unreachable!();
            };
            let text = line.text;
            if text == "readyok" {
                if skip == 0 {
                    return Ok(lines);
                }
                skip -= 1;
                continue;
            }
            self.check_line(&text)?;
            lines.push(text);
        }
    }

    fn check_line(&mut self, text: &str) -> Result<(), TestCaseError> {
        ensure!(
            self,
            is_protocol_line(text),
            "not a protocol line: {text:?}"
        );
        if is_bestmove(text) {
            BESTMOVES.fetch_add(1, Ordering::Relaxed);
            let owed = self.owed.pop_front();
            ensure!(self, owed.is_some(), "a bestmove no go asked for: {text:?}");
            self.check_bestmove(text, &owed.unwrap())?;
        }
        if is_error_report(text) {
            ERRORS.fetch_add(1, Ordering::Relaxed);
            ensure!(
                self,
                text.starts_with("info string error: "),
                "malformed error report {text:?}"
            );
        }
        Ok(())
    }

    fn check_bestmove(&self, text: &str, owed: &Owed) -> Result<(), TestCaseError> {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        ensure!(
            self,
            tokens.len() == 2 || (tokens.len() == 4 && tokens[2] == "ponder"),
            "malformed {text:?}"
        );
        if owed.pos.legal_moves().is_empty() {
            ensure!(self, tokens[1] == "(none)", "{text:?} with no legal move");
            return Ok(());
        }
        let best = strict_move(&owed.pos, tokens[1], owed.mode);
        ensure!(self, best.is_ok(), "{text:?}: {}", best.unwrap_err());
        if let Some(ponder) = tokens.get(3) {
            let mut after = owed.pos.clone();
            after.play_unchecked(best.unwrap());
            let reply = strict_move(&after, ponder, owed.mode);
            ensure!(self, reply.is_ok(), "{text:?}: {}", reply.unwrap_err());
        }
        Ok(())
    }

    /// The position `d` showed (every `Fen:` line must agree with the model).
    fn check_fen(&self, lines: &[String]) -> Result<(), TestCaseError> {
        let want = Fen::from_position(&self.pos, EnPassantMode::Legal).to_string();
        let fens: Vec<&str> = lines
            .iter()
            .filter_map(|l| l.strip_prefix("Fen: "))
            .collect();
        ensure!(self, !fens.is_empty(), "`d` showed no FEN");
        for fen in fens {
            ensure!(self, fen == want, "engine at {fen:?}, model at {want:?}");
        }
        Ok(())
    }

    /// Sends `bytes`, which the engine reads as `read` (the same bytes but a byte-order mark
    /// that starts the input).
    fn step(&mut self, bytes: &[u8], read: &[u8], eol: Eol) -> Result<(), TestCaseError> {
        let text = String::from_utf8_lossy(read).into_owned();
        let expect = classify(&text, self.chess960);
        let idle = self.owed.is_empty();
        if let Expect::Go(GoKind::Search { .. }) = expect {
            // Owed from now on, after whatever search it stops.
            GOS.fetch_add(1, Ordering::Relaxed);
        }
        let owed_before = self.owed.len();
        if let Expect::Go(GoKind::Search { .. }) = expect {
            self.owed.push_back(Owed {
                pos: self.pos.clone(),
                mode: self.mode(),
            });
        }
        self.send_raw(bytes, eol);
        if matches!(expect, Expect::Quit) {
            return Ok(());
        }
        let isready = usize::from(text.split_whitespace().next() == Some("isready"));
        let lines = self.sync(isready)?;
        self.alive()?;
        let errors: Vec<&String> = lines.iter().filter(|l| is_error_report(l)).collect();
        match expect {
            Expect::Refused => {
                ensure!(self, !errors.is_empty(), "no error for {text:?}");
            }
            Expect::Accepted => {
                ensure!(self, errors.is_empty(), "error for {text:?}: {errors:?}");
            }
            Expect::Position(pos) => {
                ensure!(self, errors.is_empty(), "error for {text:?}: {errors:?}");
                self.pos = pos;
            }
            Expect::NewGame | Expect::Stop => {
                ensure!(self, errors.is_empty(), "error for {text:?}: {errors:?}");
                ensure!(
                    self,
                    self.owed.is_empty(),
                    "{} searches unanswered after {text:?}",
                    self.owed.len()
                );
                if matches!(expect, Expect::NewGame) {
                    self.pos = Chess::default();
                }
            }
            Expect::Go(GoKind::Search { reported }) => {
                // Bad parameters are reported (and the search runs without them); otherwise only
                // `searchmoves` that are not legal here may be.
                let go_errors = errors.iter().filter(|l| l.contains("error: go:")).count();
                ensure!(
                    self,
                    reported == (go_errors > 0),
                    "{text:?}: expected a report: {reported}; got {errors:?}"
                );
                ensure!(
                    self,
                    errors
                        .iter()
                        .all(|l| l.contains("searchmoves") || l.contains("error: go:")),
                    "error for {text:?}: {errors:?}"
                );
                ensure!(
                    self,
                    self.owed.len() <= 1,
                    "the search before {text:?} was not answered ({owed_before} owed before)"
                );
            }
            Expect::Go(GoKind::Perft(depth)) => {
                ensure!(self, errors.is_empty(), "error for {text:?}: {errors:?}");
                ensure!(self, self.owed.is_empty(), "go perft left a search running");
                let want = format!("Nodes searched: {}", shakmaty::perft(&self.pos, depth));
                ensure!(self, lines.contains(&want), "{text:?}: expected {want:?}");
            }
            Expect::SetOption(change) => {
                // While a search runs an option may be refused; it must then change nothing.
                let refused = !errors.is_empty();
                ensure!(
                    self,
                    !(idle && refused),
                    "error for {text:?} with no search running: {errors:?}"
                );
                if let (OptionChange::Chess960(on), false) = (change, refused) {
                    self.chess960 = on;
                }
            }
            Expect::Quit => unreachable!(),
        }
        self.check_fen(&lines)
    }

    /// `stop`, then: every search answered, no stray `bestmove`, a clean exit.
    fn finish(&mut self, end: &End) -> Result<(), TestCaseError> {
        self.send("stop");
        let _ = self.sync(0)?;
        ensure!(
            self,
            self.owed.is_empty(),
            "{} searches unanswered after stop",
            self.owed.len()
        );
        for line in self.e.drain_for(Duration::from_millis(20)) {
            self.check_line(&line)?;
        }
        match end {
            End::Quit => self.send("quit"),
            End::CloseInput => self.e.close_stdin(),
        }
        let status = self.e.wait_exit(SYNC_TIMEOUT);
        ensure!(self, status.is_some(), "no exit after {end:?}");
        ensure!(self, status.unwrap().success(), "exit status {status:?}");
        Ok(())
    }
}

fn run_stream(stream: &Stream) -> Result<(), TestCaseError> {
    STREAMS.fetch_add(1, Ordering::Relaxed);
    #[cfg(unix)]
    let e = Engine::with_memory_limit(MEMORY_LIMIT);
    #[cfg(not(unix))]
    let e = Engine::new();
    let mut run = Run {
        e,
        pos: Chess::default(),
        chess960: false,
        owed: VecDeque::new(),
    };
    if stream.handshake {
        run.send("uci");
        run.sync(0)?;
    }
    // The engine drops a UTF-8 byte-order mark that starts its input (issue 80): the first
    // line sent is read without it, every later one as sent.
    let mut first_line = !stream.handshake;
    for step in &stream.steps {
        match step {
            Step::Wait(ms) => sleep_ms(*ms),
            Step::Line(bytes, eol) => {
                let read: &[u8] = if std::mem::take(&mut first_line) {
                    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
                } else {
                    bytes
                };
                if classify(&String::from_utf8_lossy(read), run.chess960).is_quit() {
                    run.send_raw(bytes, *eol);
                    let status = run.e.wait_exit(SYNC_TIMEOUT);
                    ensure!(run, status.is_some_and(|s| s.success()), "quit: {status:?}");
                    return Ok(());
                }
                run.step(bytes, read, *eol)?;
            }
        }
    }
    run.finish(&stream.end)?;
    let stderr = run.e.stderr_text();
    ensure!(run, !stderr.contains("panicked"), "stderr: {stderr}");
    Ok(())
}

impl Expect {
    fn is_quit(&self) -> bool {
        matches!(self, Expect::Quit)
    }
}

#[test]
fn random_command_streams_never_crash_hang_or_corrupt_the_engine() {
    let config = config();
    let seed = config.rng_seed;
    let cases = config.cases;
    let mut runner = TestRunner::new(config);
    let started = Instant::now();
    let result = runner.run(&stream(), |s| run_stream(&s));
    let summary = format!(
        "uci fuzz: seed {seed:?}, {cases} cases: {} command streams, {} lines ({} bytes) sent, \
         {} searches, {} bestmoves, {} error reports, in {:.1} s",
        STREAMS.load(Ordering::Relaxed),
        LINES.load(Ordering::Relaxed),
        BYTES.load(Ordering::Relaxed),
        GOS.load(Ordering::Relaxed),
        BESTMOVES.load(Ordering::Relaxed),
        ERRORS.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    eprintln!("{summary}");
    let _ = std::fs::remove_dir_all(&fixtures().dir);
    if let Err(e) = result {
        panic!("{e}\n{summary}");
    }
}

/// The kind of `setoption` of a file option `text` is, for the generators' check.
fn seen_file_option(text: &str, seen: &mut std::collections::BTreeSet<&'static str>) {
    let lower = text.to_ascii_lowercase();
    let refused = matches!(classify(text, false), Expect::Refused);
    let kind = match (
        lower.contains("name evalfile"),
        lower.contains("name syzygypath"),
    ) {
        (true, _) if refused && text.contains("/dev/zero") => "EvalFile /dev/zero",
        (true, _) if refused && text.contains("pipe") => "EvalFile pipe",
        (true, _) if !refused && text.contains("  spaced\t") => "EvalFile spaced path",
        (true, _) if !refused => "EvalFile good",
        (_, true) if refused && text.contains("tb-pipe") => "SyzygyPath pipe",
        (_, true) if refused && text.contains("tb-empty") => "SyzygyPath empty folder",
        (_, true) if !refused => "SyzygyPath good",
        _ => return,
    };
    seen.insert(kind);
}

#[test]
fn the_generators_produce_the_abuse_they_promise() {
    // Guards against a generator quietly losing a kind of input: sample many streams and
    // look for each kind.
    let mut runner = TestRunner::new(Config {
        rng_seed: RngSeed::Fixed(DEFAULT_SEED),
        ..Config::default()
    });
    let strategy = stream();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..400 {
        let s = strategy.new_tree(&mut runner).unwrap().current();
        for step in &s.steps {
            let Step::Line(bytes, eol) = step else {
                seen.insert("wait");
                continue;
            };
            if *eol == Eol::CrLf {
                seen.insert("crlf");
            }
            if bytes.len() >= 1 << 20 {
                seen.insert("1 MB line");
            }
            if std::str::from_utf8(bytes).is_err() {
                seen.insert("non-UTF-8");
            }
            let text = String::from_utf8_lossy(bytes);
            if text.trim().is_empty() {
                seen.insert("blank");
            }
            match classify(&text, false) {
                Expect::Refused if text.starts_with("position") => {
                    seen.insert("refused position");
                }
                Expect::Position(_) if text.contains(" moves ") => {
                    seen.insert("position with moves");
                }
                Expect::Refused if text.starts_with("go") => {
                    seen.insert("refused go");
                }
                Expect::Go(GoKind::Search { reported: true }) => {
                    seen.insert("go with a bad parameter");
                }
                Expect::Go(GoKind::Perft(_)) => {
                    seen.insert("go perft");
                }
                Expect::Refused if text.starts_with("setoption") => {
                    seen.insert("refused setoption");
                }
                Expect::SetOption(_) => {
                    seen.insert("setoption");
                }
                _ => {}
            }
            seen_file_option(&text, &mut seen);
            for word in ["stop", "ponderhit", "ucinewgame", "infinite", "ponder"] {
                if text.split_whitespace().any(|w| w == word) {
                    seen.insert(word);
                }
            }
            if text.contains("4k3/4R3/8/8/8/8/8/4K3 w") {
                seen.insert("side not to move in check");
            }
            if text.contains("go") && text.contains("-") {
                seen.insert("negative go value");
            }
            if text.contains("9223372036854775807") || text.contains("18446744073709551616") {
                seen.insert("enormous go value");
            }
        }
    }
    let want = [
        "wait",
        "crlf",
        "1 MB line",
        "non-UTF-8",
        "blank",
        "refused position",
        "position with moves",
        "refused go",
        "go with a bad parameter",
        "go perft",
        "refused setoption",
        "setoption",
        "EvalFile /dev/zero",
        "EvalFile pipe",
        "EvalFile good",
        "EvalFile spaced path",
        "SyzygyPath pipe",
        "SyzygyPath empty folder",
        "SyzygyPath good",
        "stop",
        "ponderhit",
        "ucinewgame",
        "infinite",
        "ponder",
        "side not to move in check",
        "negative go value",
        "enormous go value",
    ];
    let missing: Vec<&&str> = want.iter().filter(|w| !seen.contains(**w)).collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}
