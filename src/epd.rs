//! EPD: reading test positions and `cutoff epd`, which runs a suite under a search limit.
//!
//! A line is the four FEN position fields (board, side, castling, en passant), optionally the
//! two FEN clocks (perft suites carry them), then operations `opcode operand ... ;`. shakmaty's
//! `fen::Epd` reads only the position fields, so the operations are split off here. Operands
//! may be quoted (`id "WAC.001"`, `c0 "f5=10, Be5+=2"`), and a quoted operand may hold spaces
//! and semicolons. Moves are read as SAN (`Nf3`, `exd5+`, `O-O`) or as UCI (`g1f3`).
//!
//! The runner checks `bm` (the chosen move must be one of them), `am` (it must be none of
//! them), and STS-style `c0 "move=points, ..."` tables (the chosen move earns its points).

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

use crate::perft::{progress_bar, read_lines};
use crate::position::Game;
use crate::search::{Limits, Searcher};

/// The four position fields every EPD line starts with.
const POSITION_FIELDS: usize = 4;
/// FEN's halfmove clock and fullmove number, which perft suites put before the operations.
const MAX_CLOCK_FIELDS: usize = 2;
/// Stack size of `epd` workers: the search keeps a 2 KB move list per ply.
const WORKER_STACK_BYTES: usize = 64 << 20;

/// One EPD operation: `bm Nf3 e4;` is opcode `bm`, operands `["Nf3", "e4"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub opcode: String,
    /// Operands with the quotes of quoted ones removed.
    pub operands: Vec<String>,
}

/// One parsed EPD line.
#[derive(Clone, Debug)]
pub struct EpdRecord {
    /// The position fields (and clocks, when given) as written.
    pub fen: String,
    pub position: Chess,
    /// Standard unless the castling rights only make sense in Chess960 (Shredder-FEN).
    pub castling_mode: CastlingMode,
    pub operations: Vec<Operation>,
}

impl EpdRecord {
    /// The first operation with this opcode.
    pub fn operation(&self, opcode: &str) -> Option<&Operation> {
        self.operations.iter().find(|op| op.opcode == opcode)
    }

    /// The `id` operand.
    pub fn id(&self) -> Option<&str> {
        self.operation("id")
            .and_then(|op| op.operands.first())
            .map(String::as_str)
    }

    /// The moves of operation `opcode` (`bm`, `am`), empty when it is absent.
    pub fn moves(&self, opcode: &str) -> Result<Vec<Move>, String> {
        self.operation(opcode).map_or(Ok(Vec::new()), |op| {
            op.operands
                .iter()
                .map(|text| parse_move(&self.position, text).map_err(|e| format!("{opcode}: {e}")))
                .collect()
        })
    }

    /// An STS-style `c0 "f5=10, Be5+=2"` table; `None` when there is no `c0` or it is a plain
    /// comment (`c0 "All win but e3 is best."`).
    pub fn move_points(&self) -> Result<Option<Vec<(Move, i32)>>, String> {
        let Some(op) = self.operation("c0") else {
            return Ok(None);
        };
        let text = op.operands.join(" ");
        let mut entries = Vec::new();
        for entry in text.split(',') {
            let Some((mv, points)) = entry.trim().rsplit_once('=') else {
                return Ok(None);
            };
            let Ok(points) = points.trim().parse::<i32>() else {
                return Ok(None);
            };
            entries.push((mv.trim(), points));
        }
        entries
            .into_iter()
            .map(|(mv, points)| {
                parse_move(&self.position, mv)
                    .map(|m| (m, points))
                    .map_err(|e| format!("c0: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// Perft counts `D<depth> <count>`, in the order given.
    pub fn perft_counts(&self) -> Result<Vec<(u32, u64)>, String> {
        let mut counts = Vec::new();
        for op in &self.operations {
            let Some(depth) = op
                .opcode
                .strip_prefix(['D', 'd'])
                .and_then(|d| d.parse::<u32>().ok())
            else {
                continue;
            };
            let count = match op.operands.as_slice() {
                [n] => n
                    .parse::<u64>()
                    .map_err(|_| format!("D{depth}: bad count '{n}'"))?,
                _ => return Err(format!("D{depth}: expected one count")),
            };
            counts.push((depth, count));
        }
        Ok(counts)
    }
}

/// A token of the operation part of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Quoted(String),
    Semicolon,
}

/// Splits text into words, quoted strings and semicolons.
fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == ';' {
            chars.next();
            tokens.push(Token::Semicolon);
        } else if c == '"' {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => s.push(c),
                    None => return Err(format!("unterminated quoted operand \"{s}")),
                }
            }
            tokens.push(Token::Quoted(s));
        } else {
            let mut s = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == ';' {
                    break;
                }
                s.push(c);
                chars.next();
            }
            tokens.push(Token::Word(s));
        }
    }
    Ok(tokens)
}

/// Parses one line. `Ok(None)` for blank lines and `#` comments.
pub fn parse_line(line: &str) -> Result<Option<EpdRecord>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut tokens = tokenize(line)?.into_iter().peekable();
    let mut fields = Vec::new();
    while fields.len() < POSITION_FIELDS {
        match tokens.next() {
            Some(Token::Word(w)) => fields.push(w),
            _ => return Err(format!("expected {POSITION_FIELDS} position fields")),
        }
    }
    // Operations never start with a digit, so leading numbers are the FEN clocks.
    let mut clocks = 0;
    while clocks < MAX_CLOCK_FIELDS {
        match tokens.peek() {
            Some(Token::Word(w)) if w.bytes().all(|b| b.is_ascii_digit()) => {
                fields.push(w.clone());
                tokens.next();
                clocks += 1;
            }
            _ => break,
        }
    }
    let fen = fields.join(" ");
    let (position, castling_mode) = parse_position(&fen)?;
    let operations = parse_operations(tokens)?;
    Ok(Some(EpdRecord {
        fen,
        position,
        castling_mode,
        operations,
    }))
}

/// Reads the position fields, falling back to Chess960 castling rights when standard ones fail.
fn parse_position(fen: &str) -> Result<(Chess, CastlingMode), String> {
    let parsed = Fen::from_ascii(fen.as_bytes()).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    match position_from(parsed.clone(), CastlingMode::Standard) {
        Ok(pos) => Ok((pos, CastlingMode::Standard)),
        Err(standard_err) => position_from(parsed, CastlingMode::Chess960)
            .map(|pos| (pos, CastlingMode::Chess960))
            .map_err(|_| format!("illegal position '{fen}': {standard_err}")),
    }
}

/// The position of a FEN in a castling mode. Checks that cannot arise in a game (two sliders
/// checking along one line) are accepted: test suites contain them, and move generation copes.
pub fn position_from(fen: Fen, mode: CastlingMode) -> Result<Chess, String> {
    match fen.into_position(mode) {
        Ok(pos) => Ok(pos),
        Err(e) => e.ignore_impossible_check().map_err(|e| e.to_string()),
    }
}

/// Groups the tokens after the position into operations, one per `;` (the last `;` may be
/// missing; empty operations, as in perft suites' leading `;D1`, are skipped).
fn parse_operations(tokens: impl Iterator<Item = Token>) -> Result<Vec<Operation>, String> {
    let mut operations = Vec::new();
    let mut current: Vec<Token> = Vec::new();
    for token in tokens.chain(std::iter::once(Token::Semicolon)) {
        if token != Token::Semicolon {
            current.push(token);
            continue;
        }
        let mut parts = std::mem::take(&mut current).into_iter();
        let Some(first) = parts.next() else { continue };
        let opcode = match first {
            Token::Word(w) if is_opcode(&w) => w,
            Token::Word(w) | Token::Quoted(w) => return Err(format!("bad opcode '{w}'")),
            Token::Semicolon => unreachable!("semicolons end operations"),
        };
        let operands = parts
            .map(|t| match t {
                Token::Word(s) | Token::Quoted(s) => s,
                Token::Semicolon => unreachable!("semicolons end operations"),
            })
            .collect();
        operations.push(Operation { opcode, operands });
    }
    Ok(operations)
}

/// Opcodes start with a letter and continue with letters, digits and underscores.
fn is_opcode(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Reads a legal move in UCI (`g1f3`, `e1h1`) or SAN (`Nf3`, `Qxf7#`, `O-O`) notation.
/// Trailing annotation marks (`!`, `?`) are ignored.
pub fn parse_move(pos: &Chess, text: &str) -> Result<Move, String> {
    let clean = text.trim().trim_end_matches(['!', '?']);
    if looks_like_uci(clean) {
        if let Ok(m) = clean.parse::<UciMove>().map(|u| u.to_move(pos)) {
            return m.map_err(|_| format!("illegal move '{text}'"));
        }
    }
    let san =
        SanPlus::from_ascii(clean.as_bytes()).map_err(|_| format!("cannot read move '{text}'"))?;
    san.san
        .to_move(pos)
        .map_err(|e| format!("move '{text}': {e}"))
}

/// `e2e4`, `e7e8q`: square, square, optional promotion piece.
fn looks_like_uci(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    matches!(b.len(), 4 | 5)
        && square(b[0], b[1])
        && square(b[2], b[3])
        && (b.len() == 4 || b"qrbn".contains(&b[4]))
}

/// A move in SAN with its check or mate suffix, for display.
pub fn san(pos: &Chess, m: Move) -> String {
    SanPlus::from_move(pos.clone(), m).to_string()
}

/// A test position: a record with its moves resolved, ready to judge a chosen move.
#[derive(Clone, Debug)]
pub struct Problem {
    /// 1-based line number in the suite file.
    pub line: usize,
    pub record: EpdRecord,
    /// `bm`: the chosen move must be one of these (when not empty).
    pub best: Vec<Move>,
    /// `am`: the chosen move must be none of these.
    pub avoid: Vec<Move>,
    /// STS `c0` table: points for each listed move; others earn 0.
    pub points: Option<Vec<(Move, i32)>>,
}

/// How a chosen move fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// `None` when the position has neither `bm` nor `am`.
    pub solved: Option<bool>,
    /// Points earned, when the position has a `c0` table.
    pub points: Option<i32>,
}

impl Problem {
    /// Resolves the moves of a record; an illegal or unreadable move makes the position unusable.
    pub fn new(line: usize, record: EpdRecord) -> Result<Problem, String> {
        Ok(Problem {
            line,
            best: record.moves("bm")?,
            avoid: record.moves("am")?,
            points: record.move_points()?,
            record,
        })
    }

    /// Parses a line straight into a problem (`Ok(None)` for blank and comment lines).
    pub fn parse(line: usize, text: &str) -> Result<Option<Problem>, String> {
        parse_line(text)?
            .map(|record| Problem::new(line, record))
            .transpose()
    }

    /// Judges `chosen` (`None`: the search found no move).
    pub fn judge(&self, chosen: Option<Move>) -> Verdict {
        let checks = !self.best.is_empty() || !self.avoid.is_empty();
        let solved = checks.then(|| {
            chosen.is_some_and(|m| {
                (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
            })
        });
        let points = self.points.as_ref().map(|table| {
            chosen
                .and_then(|m| table.iter().find(|(t, _)| *t == m))
                .map_or(0, |&(_, p)| p)
        });
        Verdict { solved, points }
    }

    /// The most points any move earns here.
    pub fn max_points(&self) -> Option<i32> {
        self.points
            .as_ref()
            .map(|table| table.iter().map(|&(_, p)| p).max().unwrap_or(0))
    }

    /// What the position asks for, as written: `bm Qd1+`, `am Rd6 bm Rb6 Rg5+`.
    pub fn expected(&self) -> String {
        ["am", "bm"]
            .iter()
            .filter_map(|code| self.record.operation(code))
            .map(|op| format!("{} {}", op.opcode, op.operands.join(" ")))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The `id`, or the line number when there is none.
    pub fn name(&self) -> String {
        self.record
            .id()
            .map_or_else(|| format!("line {}", self.line), str::to_owned)
    }
}

/// Totals over a suite run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub solved: usize,
    /// Positions with a `bm` or `am` to check.
    pub judged: usize,
    pub points: i64,
    pub max_points: i64,
}

impl Tally {
    pub fn add(&mut self, problem: &Problem, verdict: Verdict) {
        if let Some(solved) = verdict.solved {
            self.judged += 1;
            self.solved += usize::from(solved);
        }
        if let (Some(p), Some(max)) = (verdict.points, problem.max_points()) {
            self.points += i64::from(p);
            self.max_points += i64::from(max);
        }
    }
}

/// Command-line arguments of `cutoff epd`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").args(["movetime", "depth", "nodes"])))]
pub struct Args {
    /// Suite file (EPD with `bm`, `am`, `id`, `c0` operations).
    pub file: std::path::PathBuf,
    /// Milliseconds per position (the default limit: 1000).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Fixed depth per position (at most MAX_DEPTH).
    #[arg(long)]
    pub depth: Option<i32>,
    /// Fixed node count per position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Positions searched at once, each worker with its own searcher and table.
    #[arg(long, short = 'j', default_value_t = 1)]
    pub jobs: usize,
    /// Transposition table size per worker, in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Search threads per worker (Lazy SMP, sharing the worker's table).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
}

/// The deepest `--depth` accepts: far beyond what a suite position reaches in minutes (the
/// time doubles about every ply), so that a typo like `--depth 100000` is refused instead of
/// running until killed.
pub const MAX_DEPTH: i32 = 30;

/// Milliseconds per position when no limit is given.
const DEFAULT_MOVETIME_MS: u64 = 1000;

impl Args {
    fn limits(&self) -> Limits {
        match (self.depth, self.nodes, self.movetime) {
            (Some(d), _, _) => Limits::depth(d),
            (_, Some(n), _) => Limits::nodes(n),
            (_, _, ms) => Limits::movetime(ms.unwrap_or(DEFAULT_MOVETIME_MS)),
        }
    }
}

/// What searching one position gave.
#[derive(Clone, Debug)]
pub struct Attempt {
    pub chosen: Option<Move>,
    pub depth: i32,
    pub elapsed: Duration,
    pub verdict: Verdict,
}

/// Searches one problem with a cleared searcher, so results do not depend on the order.
pub fn attempt(searcher: &mut Searcher, problem: &Problem, limits: &Limits) -> Attempt {
    searcher.clear();
    let game = Game::new(
        problem.record.position.clone(),
        problem.record.castling_mode,
    );
    let outcome = searcher.run(&game, limits);
    Attempt {
        chosen: outcome.best_move,
        depth: outcome.depth,
        elapsed: outcome.elapsed,
        verdict: problem.judge(outcome.best_move),
    }
}

/// One row of the result table.
pub fn format_row(problem: &Problem, attempt: &Attempt) -> String {
    let chosen = attempt
        .chosen
        .map_or_else(|| "(none)".to_owned(), |m| san(&problem.record.position, m));
    let mut result = match attempt.verdict.solved {
        Some(true) => "pass".to_owned(),
        Some(false) => "FAIL".to_owned(),
        None => "-".to_owned(),
    };
    if let (Some(p), Some(max)) = (attempt.verdict.points, problem.max_points()) {
        result.push_str(&format!(" {p}/{max}"));
    }
    format!(
        "{:<32} {:<24} {:<8} {:<10} depth {:>3} {:>7} ms",
        problem.name(),
        problem.expected(),
        chosen,
        result,
        attempt.depth,
        attempt.elapsed.as_millis()
    )
}

/// `cutoff epd`: a row per position in input order on stdout, then the summary.
pub fn run(args: Args) -> ExitCode {
    if let Some(d) = args.depth.filter(|d| !(1..=MAX_DEPTH).contains(d)) {
        eprintln!(
            "epd: --depth {d} is outside 1..={MAX_DEPTH} (the maximum: deeper would never finish)"
        );
        return ExitCode::FAILURE;
    }
    let lines = match read_lines(&args.file) {
        Ok(lines) => lines,
        Err(e) => {
            eprintln!("epd: cannot read {}: {e}", args.file.display());
            return ExitCode::FAILURE;
        }
    };
    let mut problems = Vec::new();
    let mut unreadable = 0;
    for (line, text) in &lines {
        match Problem::parse(*line, text) {
            Ok(Some(p)) => problems.push(p),
            Ok(None) => {}
            Err(e) => {
                unreadable += 1;
                eprintln!("SKIP line {line}: {e}");
            }
        }
    }
    if problems.is_empty() {
        eprintln!(
            "epd: no readable positions in {} ({unreadable} unreadable lines)",
            args.file.display()
        );
        return ExitCode::FAILURE;
    }
    let jobs = match crate::perft::checked_threads(Some(args.jobs)) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("epd: --jobs: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Every worker has its own table: all of them must fit at once.
    if let Err(e) = args
        .hash
        .checked_mul(jobs)
        .ok_or_else(|| format!("cannot allocate {} MB x {jobs} workers", args.hash))
        .and_then(|total| crate::memory::check_table_size("hash tables", total, 0))
    {
        eprintln!("epd: --hash: {e}");
        return ExitCode::FAILURE;
    }
    let limits = args.limits();
    let start = Instant::now();
    let workers = Workers {
        jobs,
        hash_mb: args.hash,
        threads: usize::from(args.threads),
    };
    let tally = match run_problems(&problems, &limits, workers) {
        Ok(tally) => tally,
        Err(e) => {
            eprintln!("epd: {e}");
            return ExitCode::FAILURE;
        }
    };
    print_summary(&tally, problems.len(), unreadable, start.elapsed());
    // A line that does not read is an error, as in `perft-suite`: a file truncated mid-line
    // must not pass for a complete suite.
    if unreadable > 0 {
        eprintln!("epd: {unreadable} unreadable lines (SKIP above)");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// How the positions are spread: `jobs` at a time, each on a searcher with a `hash_mb` table
/// and `threads` threads.
#[derive(Clone, Copy, Debug)]
struct Workers {
    jobs: usize,
    hash_mb: usize,
    threads: usize,
}

/// Searches the problems on `jobs` workers and prints the rows in input order as they complete.
fn run_problems(problems: &[Problem], limits: &Limits, workers: Workers) -> Result<Tally, String> {
    let Workers {
        jobs,
        hash_mb,
        threads,
    } = workers;
    let Some(pool) = crate::perft::worker_pool(jobs, WORKER_STACK_BYTES, "epd") else {
        return Err("cannot start any worker thread".to_string());
    };
    // As many workers as the pool could get.
    let jobs = pool.current_num_threads();
    let progress = progress_bar(problems.len() as u64, "positions");
    let next = AtomicUsize::new(0);
    let mut tally = Tally::default();
    pool.in_place_scope(|scope| {
        let (sender, receiver) = mpsc::channel::<(usize, Attempt)>();
        for _ in 0..jobs {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move |_| {
                let mut searcher = Searcher::new(hash_mb);
                if let Err(e) = searcher.set_threads(threads) {
                    eprintln!("epd: {e}; searching with {} threads", searcher.threads());
                }
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(problem) = problems.get(i) else {
                        break;
                    };
                    if sender
                        .send((i, attempt(&mut searcher, problem, limits)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut pending = BTreeMap::new();
        let mut printed = 0;
        for (i, result) in receiver {
            progress.inc(1);
            pending.insert(i, result);
            while let Some(result) = pending.remove(&printed) {
                let problem = &problems[printed];
                tally.add(problem, result.verdict);
                progress.suspend(|| println!("{}", format_row(problem, &result)));
                printed += 1;
            }
        }
    });
    progress.finish_and_clear();
    Ok(tally)
}

fn print_summary(tally: &Tally, searched: usize, unreadable: usize, elapsed: Duration) {
    let percent = |a: f64, b: f64| if b > 0.0 { 100.0 * a / b } else { 0.0 };
    let mut summary = format!(
        "solved {}/{} ({:.1}%)",
        tally.solved,
        tally.judged,
        percent(tally.solved as f64, tally.judged as f64)
    );
    if tally.max_points > 0 {
        summary.push_str(&format!(
            ", points {}/{} ({:.1}%)",
            tally.points,
            tally.max_points,
            percent(tally.points as f64, tally.max_points as f64)
        ));
    }
    println!(
        "{summary}, {searched} positions searched, {unreadable} unreadable, total time {:.1} s",
        elapsed.as_secs_f64()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_keep_quoted_semicolons_and_spaces() {
        let tokens = tokenize(r#"id "a; b" ;bm e4"#).unwrap();
        assert_eq!(
            tokens,
            vec![
                Token::Word("id".into()),
                Token::Quoted("a; b".into()),
                Token::Semicolon,
                Token::Word("bm".into()),
                Token::Word("e4".into()),
            ]
        );
    }

    #[test]
    fn uci_shape_is_recognised() {
        assert!(looks_like_uci("e2e4"));
        assert!(looks_like_uci("e7e8q"));
        assert!(!looks_like_uci("Nf3"));
        assert!(!looks_like_uci("e7e8k"));
    }
}
