//! `cutoff datagen`: self-play games on worker threads, each finished game appended whole to the
//! output chunk, with its manifest line (the games and the layouts in [`crate::datagen`]);
//! `--dump`, `--stats` and `--convert` read chunks of either layout.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::ProgressBar;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, EnPassantMode, Position};

use super::{at_least_one, EvalArg};
use crate::datagen::chunk::{chunk_paths, ChunkError, ChunkReader, Format};
use crate::datagen::manifest::{self, Searched};
use crate::datagen::output::{ChunkWriter, RunInfo};
use crate::datagen::record::{Record, RECORD_BYTES};
use crate::datagen::training::{game_positions, Filter};
use crate::datagen::viriformat::read_full;
use crate::datagen::{
    load_book, play_game, GameConfig, GameRecord, GameResult, CHECK_NODES_NO_BOOK, HASH_MB,
    RANDOM_PLIES_BOOK, RANDOM_PLIES_NO_BOOK,
};
use crate::position::Game;
use crate::search::Searcher;
use crate::tablebase::Tablebases;
use crate::types::nps;
use crate::util::{checked_threads, progress_bar, worker_pool};

/// Seconds between two progress lines (when stderr is not a terminal and the bar is hidden).
const PROGRESS_INTERVAL: Duration = Duration::from_secs(10);
/// Game indices reserved at each checkpoint: a manifest line every this many games.
const CHECKPOINT_GAMES: u64 = 256;

/// Command-line arguments of `cutoff datagen`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// EPD or FEN file of openings (only the first four FEN fields of each line are used).
    /// Without it, games start from the start position and random plies.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Output chunk: `.vf` (viriformat game records) or `.bin` (40-byte records); need not
    /// exist. Its folder gets a MANIFEST line at each checkpoint and at the end.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Layout of `--out`: `vf` or `bin` (default: from its extension, which must agree).
    #[arg(long, value_parser = Format::parse)]
    pub format: Option<Format>,
    /// Add to an existing output file: a torn last game is cut off and game numbering goes on
    /// where the file's games (and its manifest's reserved indices) end. Refused when the
    /// manifest says another build or evaluation played the chunk's games.
    #[arg(long)]
    pub append: bool,
    /// Print a chunk's positions as text (`<fen> | <score for White> | <result> | ...`) and exit.
    #[arg(long, conflicts_with_all = ["book", "out", "stats", "convert"])]
    pub dump: Option<PathBuf>,
    /// Replay every game of these chunks (files or folders) and count them; the last line is
    /// `<N> games, <M> positions (<K> pass the trainer's default filter)`. The exit status is 1
    /// when any input is missing, unreadable or not data (a damaged tail after whole games is
    /// only reported).
    #[arg(long, num_args = 1.., conflicts_with_all = ["book", "out", "dump", "convert"])]
    pub stats: Option<Vec<PathBuf>>,
    /// Convert a 40-byte `.bin` file into viriformat game records at `--out` (`.vf`); nothing
    /// is written when not one game of it reads.
    #[arg(long, requires = "out", conflicts_with = "book")]
    pub convert: Option<PathBuf>,
    /// Number of games to play.
    #[arg(long, conflicts_with = "positions", value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,
    /// Stop starting games once the output file holds this many positions.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub positions: Option<u64>,
    /// Soft node limit per move: no new iteration starts past it (the hard limit is 8 times it).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Random legal plies after the opening position: `K` or a range `MIN-MAX` (default 2-4
    /// after a book position, 8-9 from the start position).
    #[arg(long, value_parser = parse_ply_range)]
    pub random_plies: Option<(u32, u32)>,
    /// Soft node limit of the search that redraws decided openings (over 1000 cp); 0 for none
    /// (default 4000 without a book, 0 with one).
    #[arg(long)]
    pub check_nodes: Option<u64>,
    /// Syzygy tablebases (directories separated by `:`): a game that reaches them just after
    /// a capture or pawn move ends with their verdict (50-move rule included).
    #[arg(long)]
    pub syzygy: Option<String>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = at_least_one())]
    pub threads: usize,
    /// The evaluation the games' searches run: the net (the default), or the classical one
    /// that generated the `Bench: 2266636` series (to append to one of its chunks).
    #[arg(long, value_enum, default_value_t = EvalArg::Net)]
    pub eval: EvalArg,
    /// Seed of the opening choice and random plies; game `i` depends only on it and `i`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

fn parse_ply_range(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("expected K or MIN-MAX, got '{text}'");
    let (lo, hi) = match text.split_once('-') {
        Some((lo, hi)) => (lo.trim(), hi.trim()),
        None => (text.trim(), text.trim()),
    };
    let lo: u32 = lo.parse().map_err(|_| bad())?;
    let hi: u32 = hi.parse().map_err(|_| bad())?;
    if lo > hi {
        return Err(bad());
    }
    Ok((lo, hi))
}

/// `cutoff datagen`: plays and writes games, or reads chunks (`--dump`, `--stats`,
/// `--convert`).
pub fn run(args: Args) -> ExitCode {
    let done = if let Some(path) = &args.dump {
        dump(path)
    } else if let Some(paths) = &args.stats {
        stats(paths)
    } else if let Some(input) = &args.convert {
        convert(&args, input)
    } else {
        generate(&args)
    };
    match done {
        Ok(summary) => {
            if !summary.is_empty() {
                println!("{summary}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("datagen: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Prints every position of a chunk as a text line.
fn dump(path: &Path) -> Result<String, String> {
    match Format::of_path(path) {
        Some(Format::Bin) => dump_records(path),
        _ => dump_games(path),
    }
}

/// `quiet` or the facts a filter reads, comma-separated.
fn flags(check: bool, capture: bool, promotion: bool, mate: bool) -> String {
    let names: Vec<&str> = [
        (check, "check"),
        (capture, "capture"),
        (promotion, "promotion"),
        (mate, "mate"),
    ]
    .iter()
    .filter_map(|&(set, name)| set.then_some(name))
    .collect();
    if names.is_empty() {
        "quiet".to_string()
    } else {
        names.join(",")
    }
}

/// A viriformat chunk, position by position:
/// `<fen> | <score for White> | <result for White> | game G ply P | <move> | <flags>`.
fn dump_games(path: &Path) -> Result<String, String> {
    let reader = ChunkReader::open(path).map_err(|e| e.to_string())?;
    let mut out = std::io::stdout().lock();
    for (g, game) in reader.enumerate() {
        let game = game.map_err(|e| e.to_string())?;
        for p in game_positions(&game) {
            let line = format!(
                "{} | {} | {} | game {g} ply {} | {} | {}",
                Fen::from_position(&p.pos, EnPassantMode::Legal),
                p.white_score,
                p.result.label(),
                p.ply,
                p.best.to_uci(CastlingMode::Standard),
                flags(
                    p.pos.is_check(),
                    p.best.is_capture(),
                    p.best.is_promotion(),
                    crate::types::Score(i32::from(p.white_score)).is_mate()
                )
            );
            if writeln!(out, "{line}").is_err() {
                return Ok(String::new());
            }
        }
    }
    Ok(String::new())
}

/// Prints every record of a 40-byte file as a text line, streamed a record at a time: a file
/// of any size costs a buffer, and the lines before a bad record come out before its error.
fn dump_records(path: &Path) -> Result<String, String> {
    let named = |what: String| format!("{}: {what}", path.display());
    let (file, _) = crate::files::open_regular(path)?;
    let mut input = std::io::BufReader::with_capacity(1 << 16, file);
    let mut out = std::io::stdout().lock();
    let mut bytes = [0u8; RECORD_BYTES];
    for index in 0u64.. {
        let n = read_full(&mut input, &mut bytes).map_err(|e| named(crate::files::reason(&e)))?;
        if n < RECORD_BYTES {
            if n > 0 {
                eprintln!(
                    "datagen: {}: {n} trailing bytes of a partial record ignored",
                    path.display()
                );
            }
            break;
        }
        let r = Record::decode(&bytes)
            .and_then(|r| r.position().map(|pos| (r, pos)))
            .map_err(|e| named(format!("record {index}: {e}")));
        let (r, pos) = r?;
        let line = format!(
            "{} | {} | {:.1} | game {} ply {} | {} | {}",
            Fen::from_position(&pos, EnPassantMode::Legal),
            r.score,
            r.result,
            r.game,
            r.ply,
            r.best_move_uci(),
            flags(r.in_check, r.capture, r.promotion, r.mate_score)
        );
        if writeln!(out, "{line}").is_err() {
            break;
        }
    }
    Ok(String::new())
}

/// Counts of one or more chunks.
#[derive(Default)]
struct Counts {
    games: u64,
    positions: u64,
    passed: u64,
    /// Inputs missing, unreadable or not data ([`ChunkError::is_fatal`]).
    failed: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.games += other.games;
        self.positions += other.positions;
        self.passed += other.passed;
        self.failed += other.failed;
    }
}

/// Replays every game of one chunk, reporting its problems on stderr; what it holds up to the
/// first problem counts.
fn chunk_stats(path: &Path, filter: &Filter) -> Counts {
    let mut reader = match ChunkReader::open(path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("datagen: {e}; skipped");
            return Counts {
                failed: 1,
                ..Counts::default()
            };
        }
    };
    let mut c = Counts::default();
    let mut problem = false;
    for game in reader.by_ref() {
        match game {
            Ok(game) => {
                c.games += 1;
                c.positions += game.moves.len() as u64;
                c.passed += game_positions(&game)
                    .filter(|p| filter.passes_position(p))
                    .count() as u64;
            }
            Err(e) => {
                eprintln!("datagen: {e}; the rest of this file is skipped");
                problem = true;
                c.failed = u64::from(e.is_fatal());
            }
        }
    }
    for note in reader.take_notes() {
        eprintln!("datagen: {}: {note}", path.display());
    }
    if reader.splits() > 0 {
        eprintln!(
            "datagen: {}: {} games split where records do not follow",
            path.display(),
            reader.splits()
        );
    }
    let manifest = match (manifest::last_entry(path), reader.sha256_hex()) {
        (None, _) => "no manifest line".to_string(),
        (Some(_), None) => "not checked against the manifest".to_string(),
        (Some(e), Some(sha)) if e.sha256 == sha => format!("manifest matches ({})", e.state),
        (Some(e), Some(_)) if e.state == "running" && c.games >= e.games => format!(
            "past its manifest's last checkpoint ({} games: a run stopped or still going)",
            e.games
        ),
        (Some(e), Some(_)) => format!(
            "DIFFERS from its manifest's last line ({}, {} games)",
            e.state, e.games
        ),
    };
    println!(
        "{}: {} games, {} positions ({} pass), {manifest}{}",
        path.display(),
        c.games,
        c.positions,
        c.passed,
        if problem {
            ", read up to a problem"
        } else {
            ""
        }
    );
    c
}

/// The series a chunk belongs to: the build that played it (its manifest's last line, else
/// its file name's `selfplay-N-`, else "unknown build") and what searched its games.
fn series_of(path: &Path) -> (Searched, String) {
    match manifest::last_entry(path) {
        Some(e) => (Searched::of(&e.build, &e.command), e.build),
        None => match manifest::build_from_file_name(path) {
            Some(build) => (Searched::of(&build, ""), build),
            None => (Searched::Classical, "unknown build".to_string()),
        },
    }
}

/// `--stats`: every chunk replayed, the totals last, grouped by the build and evaluation that
/// played them before that. The totals line comes out in any case;
/// an input missing, unreadable or not data makes it an error too (a non-zero exit), so a
/// script that checks the status is not told that a typo or a damaged file was counted.
fn stats(paths: &[PathBuf]) -> Result<String, String> {
    let (chunks, problems) = chunk_paths(paths);
    let mut total = Counts {
        failed: problems.len() as u64,
        ..Counts::default()
    };
    for p in problems {
        eprintln!("datagen: {p}");
    }
    let filter = Filter::default();
    let mut by_build: BTreeMap<(Searched, String), (u64, Counts)> = BTreeMap::new();
    for path in &chunks {
        let counts = chunk_stats(path, &filter);
        let group = by_build.entry(series_of(path)).or_default();
        group.0 += 1;
        group.1.add(&counts);
        total.add(&counts);
    }
    let searched_by = |which: Searched| -> u64 {
        by_build
            .iter()
            .filter(|((s, _), _)| *s == which)
            .map(|(_, (_, c))| c.positions)
            .sum()
    };
    for ((searched, build), (chunks, c)) in &by_build {
        let s = if *chunks == 1 { "" } else { "s" };
        println!(
            "{build} ({}): {chunks} chunk{s}, {} games, {} positions ({} pass)",
            searched.label(),
            c.games,
            c.positions,
            c.passed
        );
    }
    println!(
        "searched by a net: {} positions; by the classical evaluation: {}",
        searched_by(Searched::Net),
        searched_by(Searched::Classical)
    );
    println!(
        "{} games, {} positions ({} pass the trainer's default filter)",
        total.games, total.positions, total.passed
    );
    if total.failed > 0 {
        let s = if total.failed == 1 { "" } else { "s" };
        return Err(format!(
            "{} input{s} missing, unreadable or not data (see above)",
            total.failed
        ));
    }
    Ok(String::new())
}

/// The layout of `--out`: `--format` or the extension, which must agree.
fn output_format(out: &Path, given: Option<Format>) -> Result<Format, String> {
    match (Format::of_path(out), given) {
        (Some(f), None) => Ok(f),
        (Some(f), Some(g)) if f == g => Ok(f),
        (Some(f), Some(g)) => Err(format!(
            "--format {} but {} is named .{} (readers tell the layouts by extension)",
            g.extension(),
            out.display(),
            f.extension()
        )),
        (None, _) => Err(format!(
            "{}: name the output .vf (game records) or .bin (40-byte records)",
            out.display()
        )),
    }
}

/// The command line for the manifest: `cutoff` and the arguments as typed.
fn command_line() -> String {
    manifest_command(
        std::env::args_os()
            .skip(1)
            .map(|a| a.to_string_lossy().into_owned()),
    )
}

/// The manifest's command with the evaluation named (`--eval net` added where the default was
/// taken), so that `--stats` reads what searched the games from the line itself.
fn with_evaluation(command: String, eval: EvalArg) -> String {
    let named = command
        .split_whitespace()
        .any(|w| w == "--eval" || w.starts_with("--eval="));
    match (named, eval) {
        (true, _) => command,
        (false, EvalArg::Net) => format!("{command} --eval net"),
        (false, EvalArg::Classical) => format!("{command} --eval classical"),
    }
}

/// `cutoff` and `args`, each quoted for a shell where it needs it. The program is always
/// named `cutoff`, never by the path it was started from (`./target/release/cutoff`, a
/// worktree's target folder): the manifest says what made a chunk, and that path says only
/// where someone's build happened to be, differing between runs of the same command.
fn manifest_command(args: impl IntoIterator<Item = String>) -> String {
    let quoted = args.into_iter().map(|a| {
        if a.is_empty() || a.contains([' ', '\t', '\'', '"']) {
            format!("'{}'", a.replace('\'', "'\\''"))
        } else {
            a
        }
    });
    std::iter::once("cutoff".to_string())
        .chain(quoted)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `--convert IN.bin --out OUT.vf`: the records' games as game records.
fn convert(args: &Args, input: &Path) -> Result<String, String> {
    let out = args.out.as_deref().ok_or("give --out")?;
    if output_format(out, args.format)? != Format::Viri {
        return Err("--convert writes viriformat: name --out .vf".into());
    }
    let start = Instant::now();
    // Opened before its name is judged, so a missing input says so.
    let mut reader = ChunkReader::open(input).map_err(|e| e.to_string())?;
    if reader.format() != Format::Bin {
        return Err(format!(
            "{}: --convert reads 40-byte .bin files",
            input.display()
        ));
    }
    // Nothing is created before a game has been read: an input that is corrupt from its
    // first record, or empty, leaves no empty chunk (nor manifest line) behind.
    let first = match reader.next() {
        Some(Ok(game)) => game,
        Some(Err(e)) => return Err(format!("{e}; nothing converted")),
        None => return Err(format!("{}: no games; nothing converted", input.display())),
    };
    let (mut writer, _) = ChunkWriter::open(out, Format::Viri, args.append)?;
    let mut problem = None;
    for game in std::iter::once(Ok(first)).chain(reader.by_ref()) {
        match game {
            Ok(game) => writer
                .write_scored(&game)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?,
            Err(e) => problem = Some(e),
        }
    }
    for note in reader.take_notes() {
        eprintln!("datagen: {}: {note}", input.display());
    }
    if let Some(e) = &problem {
        eprintln!("datagen: {e}; the rest of the input is skipped");
    }
    let source = manifest::last_entry(input);
    let run = RunInfo {
        build: source
            .as_ref()
            .map_or("unknown".into(), |e| e.build.clone()),
        seed: source.as_ref().map_or(0, |e| e.seed),
        command: command_line(),
    };
    let (first, next) = source
        .as_ref()
        .map_or((0, 0), |e| (e.first_game, e.next_game));
    writer
        .checkpoint(&run, first, next, "converted")
        .map_err(|e| format!("cannot write the manifest: {e}"))?;
    let in_bytes = std::fs::metadata(input).map_or(0, |m| m.len());
    let out_bytes = std::fs::metadata(out).map_or(0, |m| m.len());
    let summary = format!(
        "converted {} games, {} positions ({} games split) from {} ({} bytes) to {} ({} bytes) in {:.1} s",
        writer.games,
        writer.positions,
        reader.splits(),
        input.display(),
        in_bytes,
        out.display(),
        out_bytes,
        start.elapsed().as_secs_f64()
    );
    if problem.as_ref().is_some_and(ChunkError::is_fatal) {
        return Err(format!(
            "{summary}, but the input could not be read to its end"
        ));
    }
    Ok(summary)
}

/// `Bench: N` of this build searching with `eval`, for the manifest: the bench's node count
/// (about a second), so that a chunk names what played its games (the classical evaluation's
/// is `Bench: 2266636`, the net's the build's own signature).
fn build_signature(eval: EvalArg) -> String {
    let mut searcher = Searcher::new(crate::bench::HASH_MB);
    searcher.set_evaluator(eval.into());
    let totals = crate::bench::bench_on(&mut searcher, crate::bench::DEFAULT_DEPTH, |_, _| {});
    format!("Bench: {}", totals.nodes)
}

/// `--append` goes on only with games of the same build and evaluation as those in the chunk:
/// one chunk, one series.
fn check_same_series(out: &Path, build: &str) -> Result<(), String> {
    match manifest::last_entry(out) {
        Some(last) if last.build != build => Err(format!(
            "{} holds games of {}, this run would play {} (`--eval classical` plays the \
             classical evaluation's games): start a new chunk",
            out.display(),
            last.build,
            build
        )),
        _ => Ok(()),
    }
}

/// Counters shared by the workers for the progress line.
struct Progress {
    start: Instant,
    last_report: Instant,
    games: u64,
    positions: u64,
    plies: u64,
    /// White wins, draws, Black wins.
    results: [u64; 3],
}

impl Progress {
    fn new() -> Progress {
        Progress {
            start: Instant::now(),
            last_report: Instant::now(),
            games: 0,
            positions: 0,
            plies: 0,
            results: [0; 3],
        }
    }

    fn rate(&self) -> f64 {
        nps(self.positions, self.start.elapsed())
    }

    fn line(&self) -> String {
        let elapsed = self.start.elapsed();
        format!(
            "datagen: {} games, {} positions in {:.0} s ({:.0} positions/s, {:.2} games/s, {:.0} plies/game), +{} ={} -{}",
            self.games,
            self.positions,
            elapsed.as_secs_f64(),
            self.rate(),
            nps(self.games, elapsed),
            self.plies as f64 / self.games.max(1) as f64,
            self.results[0],
            self.results[1],
            self.results[2],
        )
    }
}

/// The game settings `args` asks for, with the defaults that depend on having a book.
fn game_config(args: &Args, have_book: bool) -> GameConfig {
    let (plies, check) = if have_book {
        (RANDOM_PLIES_BOOK, 0)
    } else {
        (RANDOM_PLIES_NO_BOOK, CHECK_NODES_NO_BOOK)
    };
    GameConfig {
        nodes: args.nodes,
        random_plies: args.random_plies.unwrap_or(plies),
        check_nodes: args.check_nodes.unwrap_or(check),
        tablebases: None,
    }
}

/// The tables of `--syzygy`, with what was found said on stderr; an error when none could be
/// used.
fn load_tablebases(path: &str) -> Result<Arc<Tablebases>, String> {
    let (tablebases, loaded) = Tablebases::load(path);
    for e in &loaded.errors {
        eprintln!("datagen: --syzygy: {e}");
    }
    if loaded.tables == 0 {
        return Err(format!("--syzygy {path}: no tablebases found"));
    }
    eprintln!(
        "datagen: adjudicating by {} tablebases (up to {} pieces)",
        loaded.tables,
        tablebases.max_pieces()
    );
    Ok(Arc::new(tablebases))
}

/// Plays the games `args` asks for, appending each finished game to `args.out`.
fn generate(args: &Args) -> Result<String, String> {
    if args.games.is_none() && args.positions.is_none() {
        return Err("give --games N or --positions N".into());
    }
    let out = args
        .out
        .as_deref()
        .ok_or("give --out FILE (or --dump, --stats, --convert)")?;
    let format = output_format(out, args.format)?;
    let threads = checked_threads(Some(args.threads)).map_err(|e| format!("--threads: {e}"))?;
    let book = match &args.book {
        Some(path) => load_book(path)?,
        None => Vec::new(),
    };
    let mut config = game_config(args, args.book.is_some());
    if let Some(path) = &args.syzygy {
        config.tablebases = Some(load_tablebases(path)?);
    }
    let build = build_signature(args.eval);
    if args.append {
        check_same_series(out, &build)?;
    }
    let (writer, resume) = ChunkWriter::open(out, format, args.append)?;
    if resume.cut_bytes > 0 {
        eprintln!(
            "datagen: cut a torn last game of {} bytes from the end of {}",
            resume.cut_bytes,
            out.display()
        );
    }
    if resume.positions > 0 {
        eprintln!(
            "datagen: {} holds {} positions; games go on from index {}",
            out.display(),
            resume.positions,
            resume.next_game
        );
    }
    let run = RunInfo {
        build,
        seed: args.seed,
        command: with_evaluation(command_line(), args.eval),
    };
    let pool = worker_pool(threads, "datagen").ok_or("cannot start any worker thread")?;
    stop_on_signals();
    let bar = match (args.games, args.positions) {
        (Some(n), _) => progress_bar(n, "games"),
        (None, n) => {
            let bar = progress_bar(n.unwrap_or(0), "positions");
            bar.set_position(resume.positions.min(n.unwrap_or(0)));
            bar
        }
    };
    let shared = Shared {
        run,
        chunk_first: resume.first_game,
        run_first: resume.next_game,
        ledger: Mutex::new(Ledger {
            next: resume.next_game,
            reserved_end: resume.next_game,
        }),
        written: AtomicU64::new(resume.positions),
        failed: AtomicBool::new(false),
        writer: Mutex::new(writer),
        progress: Mutex::new(Progress::new()),
        error: Mutex::new(None),
        bar,
        games_bar: args.games.is_some(),
    };
    pool.scope(|scope| {
        // As many workers as the pool could get.
        for _ in 0..pool.current_num_threads() {
            scope.spawn(|_| shared.work(args, &book, &config));
        }
    });
    shared.finish(out)
}

/// Set by SIGTERM or SIGINT: the workers claim no new game, finish the ones they play, and the
/// run ends as a finished one does, with its final manifest line (state `done`, counts,
/// checksum), so a stopped chunk needs no sealing by hand.
static STOP_REQUESTED: AtomicBool = AtomicBool::new(false);

/// The handler of SIGTERM and SIGINT: the first asks the run to stop after its current games;
/// a second ends the process at once (the manifest then covers the file as after a kill).
#[cfg(unix)]
extern "C" fn on_stop_signal(_: libc::c_int) {
    if STOP_REQUESTED.swap(true, Ordering::SeqCst) {
        // SAFETY: `_exit` is async-signal-safe and takes no pointer.
        unsafe { libc::_exit(130) };
    }
}

/// Routes SIGTERM and SIGINT to [`on_stop_signal`] for the rest of the process (a datagen run
/// is the process's last work).
fn stop_on_signals() {
    #[cfg(unix)]
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let handler: extern "C" fn(libc::c_int) = on_stop_signal;
        // SAFETY: the handler only swaps an atomic and may call `_exit`, both
        // async-signal-safe; `signal` is given a valid signal number and a function pointer
        // of the type it expects.
        unsafe { libc::signal(signal, handler as libc::sighandler_t) };
    }
}

/// Game indices handed out, and how far the manifest has reserved them.
struct Ledger {
    next: u64,
    reserved_end: u64,
}

/// What the workers of one run share.
struct Shared {
    run: RunInfo,
    /// The chunk's first game index (earlier runs included) and this run's.
    chunk_first: u64,
    run_first: u64,
    ledger: Mutex<Ledger>,
    /// Positions in the file, those there before the run included.
    written: AtomicU64,
    failed: AtomicBool,
    writer: Mutex<ChunkWriter>,
    progress: Mutex<Progress>,
    error: Mutex<Option<String>>,
    bar: ProgressBar,
    /// Whether the bar counts games (`--games`) or positions in the file (`--positions`).
    games_bar: bool,
}

impl Shared {
    /// One worker: plays games until the run's target is met, writing each game whole.
    fn work(&self, args: &Args, book: &[Game], config: &GameConfig) {
        let mut searcher = Searcher::new(HASH_MB);
        searcher.set_evaluator(args.eval.into());
        while let Some(index) = self.claim(args) {
            let Some(record) = play_game(&mut searcher, book, config, args.seed, index) else {
                continue;
            };
            if !self.write(&record) {
                return;
            }
        }
    }

    fn fail(&self, message: String) {
        *self.error.lock().unwrap() = Some(message);
        self.failed.store(true, Ordering::Relaxed);
    }

    /// The next game index to play, or `None` once the target is met. Crossing the end of the
    /// reserved indices writes a checkpoint line reserving the next block first, so a killed
    /// run's manifest always covers every index it used.
    fn claim(&self, args: &Args) -> Option<u64> {
        let mut ledger = self.ledger.lock().unwrap();
        if self.failed.load(Ordering::Relaxed)
            || STOP_REQUESTED.load(Ordering::Relaxed)
            || args
                .positions
                .is_some_and(|n| self.written.load(Ordering::Relaxed) >= n)
            || args
                .games
                .is_some_and(|n| ledger.next - self.run_first >= n)
        {
            return None;
        }
        let index = ledger.next;
        ledger.next += 1;
        if index >= ledger.reserved_end {
            ledger.reserved_end = index + CHECKPOINT_GAMES;
            let writer = self.writer.lock().unwrap();
            if let Err(e) =
                writer.checkpoint(&self.run, self.chunk_first, ledger.reserved_end, "running")
            {
                drop(writer);
                self.fail(format!("cannot write the manifest: {e}"));
                return None;
            }
        }
        Some(index)
    }

    /// Appends a finished game and counts it; false once writing failed.
    fn write(&self, record: &GameRecord) -> bool {
        if let Err(e) = self.writer.lock().unwrap().write_game(record) {
            self.fail(format!("write failed: {e}"));
            return false;
        }
        let n = record.records.len() as u64;
        let in_file = self.written.fetch_add(n, Ordering::Relaxed) + n;
        let mut p = self.progress.lock().unwrap();
        p.games += 1;
        p.positions += n;
        p.plies += u64::from(record.plies);
        p.results[match record.result {
            GameResult::WhiteWins => 0,
            GameResult::Draw => 1,
            GameResult::BlackWins => 2,
        }] += 1;
        if self.bar.is_hidden() {
            if p.last_report.elapsed() >= PROGRESS_INTERVAL {
                p.last_report = Instant::now();
                eprintln!("{}", p.line());
            }
        } else {
            if self.games_bar {
                self.bar.inc(1);
            } else {
                self.bar.set_position(in_file);
            }
            self.bar.set_message(format!(
                "{} positions, {:.0} positions/s, +{} ={} -{}",
                p.positions,
                p.rate(),
                p.results[0],
                p.results[1],
                p.results[2]
            ));
        }
        true
    }

    /// The final manifest line and the summary.
    fn finish(self, out: &Path) -> Result<String, String> {
        self.bar.finish_and_clear();
        let next = self.ledger.into_inner().unwrap().next;
        let writer = self.writer.into_inner().unwrap();
        let error = self.error.into_inner().unwrap();
        let state = if error.is_some() { "failed" } else { "done" };
        let manifest = writer.checkpoint(&self.run, self.chunk_first, next, state);
        if let Some(e) = error {
            return Err(e);
        }
        manifest.map_err(|e| format!("cannot write the manifest: {e}"))?;
        let p = self.progress.into_inner().unwrap();
        eprintln!("{}", p.line());
        Ok(format!(
            "wrote {} positions from {} games to {} in {:.1} s ({} in the file, {}; {})",
            p.positions,
            p.games,
            out.display(),
            p.start.elapsed().as_secs_f64(),
            writer.positions,
            self.run.build,
            manifest::manifest_path(out).display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_command_names_cutoff_not_the_binary_path_and_quotes_spaces() {
        let args = ["datagen", "--out", "my data/x.vf", "--games", "5"].map(String::from);
        assert_eq!(
            manifest_command(args),
            "cutoff datagen --out 'my data/x.vf' --games 5"
        );
    }

    #[test]
    fn ply_ranges_accept_a_single_count_or_min_max() {
        assert_eq!(parse_ply_range("3"), Ok((3, 3)));
        assert_eq!(parse_ply_range("2-4"), Ok((2, 4)));
        assert!(parse_ply_range("4-2").is_err());
        assert!(parse_ply_range("x").is_err());
    }
}
