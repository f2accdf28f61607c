//! A small black-box harness for driving the `cutoff` binary over pipes.
//!
//! Every wait has a timeout: a hung engine fails the test with a transcript of what it printed, it never hangs CI.
//! The process is told to `quit` and then killed when the [`Engine`] is dropped.

#![allow(dead_code)]

pub mod json;

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// Path of the binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_cutoff");

/// The engine to drive: `cutoff`, or another UCI engine named by `CUTOFF_TEST_ENGINE` (used to validate these
/// tests against a known engine; Cutoff-specific expectations then fail, protocol basics must pass).
pub fn engine_path() -> String {
    std::env::var("CUTOFF_TEST_ENGINE").unwrap_or_else(|_| BIN.to_string())
}

/// How long a synchronous command (`isready`, `uci`, a `position`) may take before the test fails.
pub const SYNC_TIMEOUT: Duration = Duration::from_secs(10);

/// A timeout for searches that should be short (small depth, few nodes) but must never hang the test.
pub const SEARCH_TIMEOUT: Duration = Duration::from_secs(30);

/// A line the engine printed, with the moment the reader thread received it.
#[derive(Clone, Debug)]
pub struct Line {
    pub text: String,
    pub at: Instant,
}

/// How many lines of history a failure message shows.
const HISTORY: usize = 80;

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Line>,
    /// Lines received but not yet consumed (pushed back by helpers that look ahead).
    pending: VecDeque<Line>,
    /// Recent traffic in both directions for failure messages: `> sent`, `< received`.
    history: VecDeque<String>,
    stderr: Arc<Mutex<String>>,
    eof: bool,
    /// When the last command was written (for latency measurements).
    pub last_sent: Instant,
}

impl Engine {
    /// Starts `cutoff` with no arguments (the UCI loop).
    pub fn new() -> Engine {
        Engine::with_args(&[])
    }

    /// Starts `cutoff` with the given command-line arguments.
    pub fn with_args(args: &[&str]) -> Engine {
        let mut command = Command::new(engine_path());
        command.args(args);
        Engine::spawn(command)
    }

    /// Starts `cutoff` (the UCI loop) with `vars` added to its environment.
    pub fn with_env(vars: &[(&str, &str)]) -> Engine {
        let mut command = Command::new(engine_path());
        command.envs(vars.iter().copied());
        Engine::spawn(command)
    }

    /// Starts `cutoff` (the UCI loop) with its address space limited to `bytes`, as
    /// `prlimit --as` does: a regression that reads a file without bound (`/dev/zero`) then
    /// fails its test by the engine dying instead of taking the machine's memory.
    #[cfg(unix)]
    pub fn with_memory_limit(bytes: u64) -> Engine {
        let mut command = Command::new(engine_path());
        cap_address_space(&mut command, bytes);
        Engine::spawn(command)
    }

    /// Starts `command` with its standard streams piped to this driver.
    fn spawn(mut command: Command) -> Engine {
        let path = format!("{:?}", command.get_program());
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {path}: {e}"));
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, rx) = channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let at = Instant::now();
                        let text = String::from_utf8_lossy(&buf)
                            .trim_end_matches(['\n', '\r'])
                            .to_string();
                        if tx.send(Line { text, at }).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr_buf = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&stderr_buf);
        thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut chunk = [0u8; 4096];
            while let Ok(n) = reader.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let mut s = sink.lock().unwrap();
                if s.len() < 64 * 1024 {
                    s.push_str(&String::from_utf8_lossy(&chunk[..n]));
                }
            }
        });
        Engine {
            child,
            stdin,
            rx,
            pending: VecDeque::new(),
            history: VecDeque::new(),
            stderr: stderr_buf,
            eof: false,
            last_sent: Instant::now(),
        }
    }

    fn record(&mut self, entry: String) {
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(entry);
    }

    /// The recent traffic and stderr, for failure messages.
    pub fn transcript(&self) -> String {
        let mut out = String::from("--- recent traffic (> sent, < received) ---\n");
        for entry in &self.history {
            out.push_str(entry);
            out.push('\n');
        }
        let err = self.stderr.lock().unwrap();
        if !err.is_empty() {
            out.push_str("--- stderr ---\n");
            out.push_str(&err);
        }
        out
    }

    /// Writes one line to the engine and flushes it. Panics if the pipe is closed.
    pub fn send(&mut self, line: &str) {
        if let Err(e) = self.try_send(line) {
            panic!(
                "cannot send {line:?} to the engine: {e}\n{}",
                self.transcript()
            );
        }
    }

    /// Writes one line; reports a closed pipe instead of panicking (for `quit` tests).
    pub fn try_send(&mut self, line: &str) -> std::io::Result<()> {
        self.record(format!("> {line}"));
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::other("stdin closed"))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()?;
        self.last_sent = Instant::now();
        Ok(())
    }

    /// Writes raw bytes (no newline added).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.record(format!("> <{} raw bytes>", bytes.len()));
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(bytes)
            .and_then(|_| stdin.flush())
            .unwrap_or_else(|e| panic!("cannot write raw bytes: {e}"));
        self.last_sent = Instant::now();
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.record("> <close stdin>".to_string());
        self.stdin = None;
    }

    /// The next line within `timeout`, or `None` on timeout or end of output.
    pub fn next_line(&mut self, timeout: Duration) -> Option<Line> {
        if let Some(line) = self.pending.pop_front() {
            return Some(line);
        }
        if self.eof {
            return None;
        }
        match self.rx.recv_timeout(timeout) {
            Ok(line) => {
                self.record(format!("< {}", line.text));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                self.record("< <end of output>".to_string());
                None
            }
        }
    }

    /// Collects lines until one matches `pred` (included, last) or panics after `timeout`.
    pub fn collect_until_at(
        &mut self,
        what: &str,
        timeout: Duration,
        mut pred: impl FnMut(&str) -> bool,
    ) -> Vec<Line> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let now = Instant::now();
            let left = deadline.saturating_duration_since(now);
            match self.next_line(left) {
                Some(line) => {
                    let done = pred(&line.text);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                None => {
                    let why = if self.eof {
                        "the engine closed stdout (exited?)"
                    } else {
                        "timed out"
                    };
                    panic!(
                        "waiting for {what}: {why} after {timeout:?}; {} lines seen while waiting:\n{}\n{}",
                        seen.len(),
                        seen.iter()
                            .map(|l| l.text.as_str())
                            .collect::<Vec<_>>()
                            .join("\n"),
                        self.transcript()
                    );
                }
            }
        }
    }

    /// Collects line texts until one matches `pred` (included, last).
    pub fn collect_until(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl FnMut(&str) -> bool,
    ) -> Vec<String> {
        self.collect_until_at(what, timeout, pred)
            .into_iter()
            .map(|l| l.text)
            .collect()
    }

    /// Waits for a line matching `pred` and returns it (earlier lines are discarded).
    pub fn expect_line(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl FnMut(&str) -> bool,
    ) -> String {
        self.collect_until(what, timeout, pred).pop().unwrap()
    }

    /// Waits for a line matching `pred`, returning it with its arrival time.
    pub fn expect_line_at(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl FnMut(&str) -> bool,
    ) -> Line {
        self.collect_until_at(what, timeout, pred).pop().unwrap()
    }

    /// Collects every line that arrives during `dur` and panics if one matches `forbidden`.
    pub fn expect_no_line_for(
        &mut self,
        what: &str,
        dur: Duration,
        mut forbidden: impl FnMut(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + dur;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return seen;
            }
            match self.next_line(left) {
                Some(line) => {
                    if forbidden(&line.text) {
                        panic!(
                            "{what}: unexpected line {:?} after {:?}\n{}",
                            line.text,
                            line.at.duration_since(self.last_sent),
                            self.transcript()
                        );
                    }
                    seen.push(line.text);
                }
                None if self.eof => panic!(
                    "{what}: the engine closed stdout (exited?)\n{}",
                    self.transcript()
                ),
                None => return seen,
            }
        }
    }

    /// Every line that arrives within `dur`, without any expectation.
    pub fn drain_for(&mut self, dur: Duration) -> Vec<String> {
        let deadline = Instant::now() + dur;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return seen;
            }
            match self.next_line(left) {
                Some(line) => seen.push(line.text),
                None => return seen,
            }
        }
    }

    /// Sends `isready` and returns every line printed before `readyok` (excluded).
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.collect_until("readyok", SYNC_TIMEOUT, |l| l.trim() == "readyok");
        lines.pop();
        lines
    }

    /// Sends `uci` and returns every line up to and including `uciok`.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        self.collect_until("uciok", SYNC_TIMEOUT, |l| l.trim() == "uciok")
    }

    /// `uci` + `isready`, ready for commands.
    pub fn started() -> Engine {
        let mut e = Engine::new();
        e.handshake();
        e.sync();
        e
    }

    /// Sends `go ...` and waits for its `bestmove`.
    pub fn go(&mut self, go: &str, timeout: Duration) -> SearchResult {
        self.send(go);
        self.wait_bestmove(timeout)
    }

    /// Sends `position ...` then `go ...` and waits for `bestmove`.
    pub fn search(&mut self, position: &str, go: &str, timeout: Duration) -> SearchResult {
        self.send(position);
        self.go(go, timeout)
    }

    /// Waits for `bestmove` and parses it, with all lines printed before it.
    pub fn wait_bestmove(&mut self, timeout: Duration) -> SearchResult {
        let started = self.last_sent;
        let lines = self.collect_until_at("bestmove", timeout, is_bestmove);
        let last = lines.last().unwrap().clone();
        let tokens: Vec<&str> = last.text.split_whitespace().collect();
        let bestmove = match tokens.get(1) {
            Some(m) => m.to_string(),
            None => panic!(
                "malformed bestmove line {:?}\n{}",
                last.text,
                self.transcript()
            ),
        };
        let ponder = match (tokens.get(2), tokens.get(3)) {
            (Some(&"ponder"), Some(p)) => Some(p.to_string()),
            (None, _) => None,
            _ => panic!(
                "malformed bestmove line {:?}\n{}",
                last.text,
                self.transcript()
            ),
        };
        assert!(
            tokens.len() == 2 || tokens.len() == 4,
            "malformed bestmove line {:?}",
            last.text
        );
        let before: Vec<String> = lines[..lines.len() - 1]
            .iter()
            .map(|l| l.text.clone())
            .collect();
        SearchResult {
            lines: before,
            bestmove,
            ponder,
            raw: last.text.clone(),
            at: last.at,
            elapsed: last.at.saturating_duration_since(started),
        }
    }

    /// Waits until the process exits, up to `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// The text the engine wrote to stderr so far.
    pub fn stderr_text(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.write_all(b"quit\n");
            let _ = stdin.flush();
        }
        if self.wait_exit(Duration::from_millis(300)).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// True for a `bestmove ...` line.
pub fn is_bestmove(line: &str) -> bool {
    line.split_whitespace().next() == Some("bestmove")
}

/// True for an `info string ...` line.
pub fn is_info_string(line: &str) -> bool {
    let mut t = line.split_whitespace();
    t.next() == Some("info") && t.next() == Some("string")
}

/// True for an `info string error...` line (the spec's way of reporting bad input).
pub fn is_error_report(line: &str) -> bool {
    is_info_string(line) && line.to_ascii_lowercase().contains("error")
}

/// The outcome of one `go`.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Every line printed between `go` (or the previous wait) and `bestmove`.
    pub lines: Vec<String>,
    pub bestmove: String,
    pub ponder: Option<String>,
    pub raw: String,
    /// When `bestmove` arrived.
    pub at: Instant,
    /// From the last command sent before waiting until `bestmove` arrived.
    pub elapsed: Duration,
}

impl SearchResult {
    /// Puts lines that were read before waiting for bestmove (e.g. while checking that none came early) in front.
    pub fn with_earlier_lines(mut self, mut earlier: Vec<String>) -> SearchResult {
        earlier.append(&mut self.lines);
        self.lines = earlier;
        self
    }

    /// Parsed `info` lines that carry a score (iteration reports), in order.
    pub fn score_infos(&self) -> Vec<Info> {
        self.lines
            .iter()
            .filter(|l| l.starts_with("info") && !is_info_string(l))
            .map(|l| Info::parse(l).unwrap_or_else(|e| panic!("bad info line {l:?}: {e}")))
            .filter(|i| i.score.is_some())
            .collect()
    }

    /// The last `info ... score` line before `bestmove`.
    pub fn last_score_info(&self) -> Info {
        self.score_infos().pop().unwrap_or_else(|| {
            panic!(
                "no info line with a score before {:?}:\n{}",
                self.raw,
                self.lines.join("\n")
            )
        })
    }

    /// The last `info ... score` line for `multipv 1` (or without multipv).
    pub fn last_main_info(&self) -> Info {
        self.score_infos()
            .into_iter()
            .rev()
            .find(|i| i.multipv.unwrap_or(1) == 1)
            .unwrap_or_else(|| {
                panic!(
                    "no multipv 1 info line before {:?}:\n{}",
                    self.raw,
                    self.lines.join("\n")
                )
            })
    }

    /// Every `info string ...` line.
    pub fn info_strings(&self) -> Vec<String> {
        self.lines
            .iter()
            .filter(|l| is_info_string(l))
            .cloned()
            .collect()
    }
}

/// A score as printed in `info ... score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i64),
    Mate(i64),
}

/// A parsed `info` line. Only the keys of the UCI specification are accepted; every value must be an integer
/// where the specification says so.
#[derive(Clone, Debug, Default)]
pub struct Info {
    pub raw: String,
    pub depth: Option<u64>,
    pub seldepth: Option<u64>,
    pub multipv: Option<u64>,
    pub score: Option<Score>,
    pub lowerbound: bool,
    pub upperbound: bool,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u64>,
    pub time: Option<u64>,
    pub tbhits: Option<u64>,
    pub currmove: Option<String>,
    pub currmovenumber: Option<u64>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

impl Info {
    pub fn parse(line: &str) -> Result<Info, String> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.first() != Some(&"info") {
            return Err("does not start with `info`".into());
        }
        let mut info = Info {
            raw: line.to_string(),
            ..Info::default()
        };
        let mut i = 1;
        let int = |tokens: &[&str], i: usize, key: &str| -> Result<u64, String> {
            let v = tokens
                .get(i + 1)
                .ok_or_else(|| format!("`{key}` without a value"))?;
            v.parse::<u64>()
                .map_err(|_| format!("`{key} {v}`: not a non-negative integer"))
        };
        while i < tokens.len() {
            let key = tokens[i];
            match key {
                "string" => {
                    info.string = Some(tokens[i + 1..].join(" "));
                    break;
                }
                "pv" => {
                    info.pv = tokens[i + 1..].iter().map(|s| s.to_string()).collect();
                    if info.pv.is_empty() {
                        return Err("`pv` without moves".into());
                    }
                    break;
                }
                "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "hashfull" | "time"
                | "tbhits" | "sbhits" | "cpuload" | "currmovenumber" => {
                    let v = int(&tokens, i, key)?;
                    match key {
                        "depth" => info.depth = Some(v),
                        "seldepth" => info.seldepth = Some(v),
                        "multipv" => info.multipv = Some(v),
                        "nodes" => info.nodes = Some(v),
                        "nps" => info.nps = Some(v),
                        "hashfull" => info.hashfull = Some(v),
                        "time" => info.time = Some(v),
                        "tbhits" => info.tbhits = Some(v),
                        "currmovenumber" => info.currmovenumber = Some(v),
                        _ => {}
                    }
                    i += 2;
                }
                "currmove" => {
                    info.currmove = Some(
                        tokens
                            .get(i + 1)
                            .ok_or("`currmove` without a move")?
                            .to_string(),
                    );
                    i += 2;
                }
                "score" => {
                    let kind = tokens.get(i + 1).ok_or("`score` without a kind")?;
                    let v = tokens.get(i + 2).ok_or("`score` without a value")?;
                    let v: i64 = v
                        .parse()
                        .map_err(|_| format!("`score {kind} {v}`: not an integer"))?;
                    info.score = Some(match *kind {
                        "cp" => Score::Cp(v),
                        "mate" => Score::Mate(v),
                        other => return Err(format!("unknown score kind `{other}`")),
                    });
                    i += 3;
                    while let Some(&b) = tokens.get(i) {
                        match b {
                            "lowerbound" => info.lowerbound = true,
                            "upperbound" => info.upperbound = true,
                            _ => break,
                        }
                        i += 1;
                    }
                }
                "wdl" => {
                    for k in 1..=3 {
                        tokens
                            .get(i + k)
                            .ok_or("`wdl` needs three values")?
                            .parse::<u64>()
                            .map_err(|_| "`wdl` values must be integers".to_string())?;
                    }
                    i += 4;
                }
                "refutation" | "currline" => {
                    // Rest of the line is moves; not used by Cutoff's spec.
                    break;
                }
                other => return Err(format!("unknown info key `{other}`")),
            }
        }
        Ok(info)
    }

    /// The fields the spec requires on every iteration report are present.
    pub fn check_complete(&self) -> Result<(), String> {
        let mut missing = Vec::new();
        if self.depth.is_none() {
            missing.push("depth");
        }
        if self.seldepth.is_none() {
            missing.push("seldepth");
        }
        if self.multipv.is_none() {
            missing.push("multipv");
        }
        if self.score.is_none() {
            missing.push("score");
        }
        if self.nodes.is_none() {
            missing.push("nodes");
        }
        if self.nps.is_none() {
            missing.push("nps");
        }
        if self.hashfull.is_none() {
            missing.push("hashfull");
        }
        if self.time.is_none() {
            missing.push("time");
        }
        if self.pv.is_empty() {
            missing.push("pv");
        }
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!("missing {}", missing.join(", ")))
        }
    }

    pub fn is_exact(&self) -> bool {
        !self.lowerbound && !self.upperbound
    }
}

/// What a test that cannot run (part of) its check says, where CI shows it, or the failure
/// where `CUTOFF_REQUIRE` names what is missing: `src/testing.rs`, the file the library's unit
/// tests use, included here because the library itself does not carry it.
#[path = "../../src/testing.rs"]
pub mod testing;
// Not every test binary skips a check.
#[allow(unused_imports)]
pub use testing::{skip, Need};

/// The MultiPV lines as a GUI keeps them: for each `multipv` index, the last of `infos` that
/// reports it (a later report of an index replaces the earlier one).
pub fn last_per_multipv<'a>(
    infos: impl IntoIterator<Item = &'a Info>,
) -> std::collections::BTreeMap<Option<u64>, Info> {
    let mut lines = std::collections::BTreeMap::new();
    for i in infos {
        lines.insert(i.multipv, i.clone());
    }
    lines
}

// ---------------------------------------------------------------------------------------------------------------
// Chess helpers (shakmaty).

pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// A position from a FEN (standard castling): the library's one test helper.
pub fn pos_from_fen(fen: &str) -> Chess {
    cutoff::position::pos(fen)
}

/// A position from a FEN in a castling mode (Chess960 castling rights need Chess960 mode),
/// read by the library's reader; panics with its reason.
pub fn pos_from_fen_mode(fen: &str, mode: CastlingMode) -> Chess {
    cutoff::position::read_fen(fen, mode, cutoff::position::FenPolicy::Strict)
        .unwrap_or_else(|e| panic!("test {e}"))
}

/// Plays UCI moves (either castling notation) from a position; panics on an illegal move.
pub fn play_moves(pos: &Chess, moves: &[&str]) -> Chess {
    let mut p = pos.clone();
    for m in moves {
        let mv = m
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&p).ok())
            .unwrap_or_else(|| panic!("test move {m} is illegal"));
        p.play_unchecked(mv);
    }
    p
}

/// The move `token` means in `pos`, if it is legal *and* printed in the notation `mode` requires
/// (`e1g1` for standard castling, `e1h1` for Chess960).
pub fn strict_move(pos: &Chess, token: &str, mode: CastlingMode) -> Result<Move, String> {
    let uci: UciMove = token
        .parse()
        .map_err(|_| format!("`{token}` is not UCI move syntax"))?;
    let m = uci
        .to_move(pos)
        .map_err(|_| format!("`{token}` is illegal in {}", fen_of(pos)))?;
    let canonical = m.to_uci(mode).to_string();
    if canonical != token {
        return Err(format!(
            "`{token}` is legal but must be written `{canonical}` (castling mode {mode:?})"
        ));
    }
    Ok(m)
}

/// Checks that every move of `pv` is legal in sequence from `pos` (strict notation).
pub fn check_pv(pos: &Chess, pv: &[String], mode: CastlingMode) -> Result<(), String> {
    let mut p = pos.clone();
    for (i, tok) in pv.iter().enumerate() {
        let m = strict_move(&p, tok, mode).map_err(|e| format!("pv move #{} {e}", i + 1))?;
        p.play_unchecked(m);
    }
    Ok(())
}

/// Checks a whole search result: every info line parses; iteration reports are complete, their PVs legal,
/// the last one exact; `bestmove` (and `ponder`) legal; and no `info string error:` line among
/// them. A search whose main thread panicked is caught and still answers with a legal
/// `bestmove`, saying `info string error: the search failed: ...`: without the last check such a
/// search would pass. A caller whose lines carry an error it provoked on purpose calls
/// [`check_search_with_expected_errors`].
pub fn check_search(pos: &Chess, r: &SearchResult, mode: CastlingMode) {
    if let Some(error) = r.lines.iter().find(|l| l.starts_with("info string error:")) {
        panic!("the search reported an error: {error:?}\n{}", r.raw);
    }
    check_search_with_expected_errors(pos, r, mode);
}

/// [`check_search`] for a result whose lines include `info string error:` lines that the caller
/// provoked (a bad command sent before the search and gathered with its lines): those are not
/// rejected here, so the caller checks them, and that none says the search failed.
pub fn check_search_with_expected_errors(pos: &Chess, r: &SearchResult, mode: CastlingMode) {
    for line in &r.lines {
        assert!(
            !line.starts_with("info string error: the search failed"),
            "the search failed: {line:?}\n{}",
            r.raw
        );
        if line.starts_with("info") {
            let info = Info::parse(line).unwrap_or_else(|e| panic!("bad info line {line:?}: {e}"));
            if info.score.is_some() {
                info.check_complete()
                    .unwrap_or_else(|e| panic!("incomplete info line {line:?}: {e}"));
                check_pv(pos, &info.pv, mode)
                    .unwrap_or_else(|e| panic!("illegal PV in {line:?}: {e}"));
                if let Some(h) = info.hashfull {
                    assert!(h <= 1000, "hashfull is per mille: {line:?}");
                }
            }
        }
    }
    if pos.legal_moves().is_empty() {
        assert_eq!(
            r.bestmove, "(none)",
            "no legal move: expected `bestmove (none)`"
        );
        return;
    }
    let last = r.last_score_info();
    assert!(
        last.is_exact(),
        "the last info line before bestmove must carry an exact score: {:?}",
        last.raw
    );
    let best = strict_move(pos, &r.bestmove, mode)
        .unwrap_or_else(|e| panic!("bestmove in {:?}: {e}", r.raw));
    if let Some(ponder) = &r.ponder {
        let mut after = pos.clone();
        after.play_unchecked(best);
        strict_move(&after, ponder, mode)
            .unwrap_or_else(|e| panic!("ponder move in {:?}: {e}", r.raw));
    }
}

pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

pub fn uci_of(m: &Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

// ---------------------------------------------------------------------------------------------------------------
// A brute-force mate solver, to verify test positions and the engine's answers independently of the engine.

/// The side to move can force checkmate in at most `n` of its moves.
pub fn mates_in(pos: &Chess, n: u32) -> bool {
    n > 0
        && pos.legal_moves().into_iter().any(|m| {
            let mut p = pos.clone();
            p.play_unchecked(m);
            every_reply_mated(&p, n)
        })
}

/// The side to move in `p` (the defender) is checkmated now or after every reply within `n - 1` more attacker moves.
pub fn every_reply_mated(p: &Chess, n: u32) -> bool {
    let replies = p.legal_moves();
    if replies.is_empty() {
        return p.is_check();
    }
    n > 1
        && replies.into_iter().all(|r| {
            let mut q = p.clone();
            q.play_unchecked(r);
            mates_in(&q, n - 1)
        })
}

/// The moves (UCI, standard notation) that force mate in at most `n`.
pub fn mating_moves(pos: &Chess, n: u32) -> Vec<String> {
    pos.legal_moves()
        .into_iter()
        .filter(|m| {
            let mut p = pos.clone();
            p.play_unchecked(*m);
            every_reply_mated(&p, n)
        })
        .map(|m| uci_of(&m))
        .collect()
}

/// The number of a `key value` pair in a line of free text (`nodes 1234`, `nodes: 1234`, `Nodes searched: 1234`).
pub fn number_after(line: &str, key: &str) -> Option<u64> {
    let lower = line.to_ascii_lowercase();
    let idx = lower.find(key)?;
    lower[idx + key.len()..]
        .split(|c: char| !c.is_ascii_digit())
        .find(|s| !s.is_empty())
        .and_then(|s| s.parse().ok())
}

/// Sleeps a little (for pacing commands).
pub fn sleep_ms(ms: u64) {
    thread::sleep(Duration::from_millis(ms));
}

pub fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// Waits for `child` to exit; past `timeout` it is killed and reaped, and `None` is returned so
/// the caller can fail with its own message.
pub fn wait_with_deadline(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// Caps the address space of the process `command` starts at `bytes` (`setrlimit(RLIMIT_AS)`
/// in the child, as `prlimit --as` does), for tests that hand it an endless input: a regression
/// that reads without bound then dies instead of taking the machine's memory.
#[cfg(unix)]
pub fn cap_address_space(command: &mut Command, bytes: u64) {
    use std::os::unix::process::CommandExt;
    let limit = libc::rlimit {
        rlim_cur: bytes as libc::rlim_t,
        rlim_max: bytes as libc::rlim_t,
    };
    // SAFETY: the closure runs in the child between fork and exec and only calls
    // `setrlimit`, which is async-signal-safe, on a value copied into the closure; it
    // allocates nothing and touches no lock.
    unsafe {
        command.pre_exec(move || {
            if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
}
