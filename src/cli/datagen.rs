//! `cutoff datagen`: self-play games on worker threads, each finished game appended whole to the
//! output file (the games and the record layout in [`crate::datagen`]).

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::EnPassantMode;

use crate::datagen::record::{self, RECORD_BYTES};
use crate::datagen::{
    load_book, play_game, scan, Existing, GameConfig, GameRecord, GameResult, HASH_MB,
};
use crate::position::Game;
use crate::search::Searcher;
use crate::types::nps;
use crate::util::{checked_threads, worker_pool};

/// Seconds between two progress lines.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(10);

/// Command-line arguments of `cutoff datagen`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// EPD or FEN file of openings (only the first four FEN fields of each line are used).
    #[arg(long, required_unless_present = "dump")]
    pub book: Option<PathBuf>,
    /// Output file of 40-byte records (layout: `cutoff::datagen::record`).
    #[arg(long, required_unless_present = "dump")]
    pub out: Option<PathBuf>,
    /// Add to an existing output file: its last partial record (if any) is dropped and game
    /// numbering goes on after its highest game index, so the same seed gives new games.
    #[arg(long)]
    pub append: bool,
    /// Print a data file as text (`<fen> | <score for White> | <result for White> | ...`) and exit.
    #[arg(long, conflicts_with_all = ["book", "out"])]
    pub dump: Option<PathBuf>,
    /// Number of games to play.
    #[arg(long, conflicts_with = "positions")]
    pub games: Option<u64>,
    /// Stop starting games once the output file holds this many positions.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Soft node limit per move: no new iteration starts past it (the hard limit is 8 times it).
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random legal plies after the book position: `K` or a range `MIN-MAX`.
    #[arg(long, default_value = "2-4", value_parser = parse_ply_range)]
    pub random_plies: (u32, u32),
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
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
    fn line(&self) -> String {
        let elapsed = self.start.elapsed();
        format!(
            "datagen: {} games, {} positions in {:.0} s ({:.0} positions/s, {:.2} games/s, {:.0} plies/game), +{} ={} -{}",
            self.games,
            self.positions,
            elapsed.as_secs_f64(),
            nps(self.positions, elapsed),
            nps(self.games, elapsed),
            self.plies as f64 / self.games.max(1) as f64,
            self.results[0],
            self.results[1],
            self.results[2],
        )
    }
}

/// `cutoff datagen`: plays and writes games, or with `--dump` prints a data file as text.
pub fn run(args: Args) -> ExitCode {
    let done = match &args.dump {
        Some(path) => dump(path),
        None => generate(&args),
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

/// Prints every record of `path` as a text line.
fn dump(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let records = record::decode_all(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = std::io::stdout().lock();
    for r in &records {
        let pos = r.position()?;
        let flags: Vec<&str> = [
            (r.in_check, "check"),
            (r.capture, "capture"),
            (r.promotion, "promotion"),
            (r.mate_score, "mate"),
        ]
        .iter()
        .filter_map(|&(set, name)| set.then_some(name))
        .collect();
        let line = format!(
            "{} | {} | {:.1} | game {} ply {} | {} | {}",
            Fen::from_position(&pos, EnPassantMode::Legal),
            r.score,
            r.result,
            r.game,
            r.ply,
            r.best_move_uci(),
            if flags.is_empty() {
                "quiet".to_string()
            } else {
                flags.join(",")
            }
        );
        if writeln!(out, "{line}").is_err() {
            break;
        }
    }
    if bytes.len() % RECORD_BYTES != 0 {
        eprintln!(
            "datagen: {}: {} trailing bytes of a partial record ignored",
            path.display(),
            bytes.len() % RECORD_BYTES
        );
    }
    Ok(String::new())
}

/// Opens the output: a new file, or with `append` an existing one cut back to whole records.
fn open_output(path: &Path, append: bool) -> Result<(File, Existing), String> {
    let exists = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
    if exists && !append {
        return Err(format!(
            "{} exists; pass --append to add to it",
            path.display()
        ));
    }
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let whole = bytes.len() - bytes.len() % RECORD_BYTES;
    if whole != bytes.len() {
        file.set_len(whole as u64)
            .map_err(|e| format!("cannot truncate {}: {e}", path.display()))?;
        eprintln!(
            "datagen: dropped a partial record of {} bytes at the end of {}",
            bytes.len() - whole,
            path.display()
        );
    }
    let existing = scan(&bytes[..whole]);
    Ok((file, existing))
}

/// Plays the games `args` asks for, appending each finished game's records to `args.out`.
fn generate(args: &Args) -> Result<String, String> {
    if args.games.is_none() && args.positions.is_none() {
        return Err("give --games N or --positions N".into());
    }
    let (Some(book_path), Some(out)) = (&args.book, &args.out) else {
        return Err("give --book and --out (or --dump FILE)".into());
    };
    let threads = checked_threads(Some(args.threads)).map_err(|e| format!("--threads: {e}"))?;
    let book = load_book(book_path)?;
    let (file, existing) = open_output(out, args.append)?;
    if existing.positions > 0 {
        eprintln!(
            "datagen: {} holds {} positions; games go on from index {}",
            out.display(),
            existing.positions,
            existing.next_game
        );
    }
    let writer = Mutex::new(BufWriter::new(file));
    let config = GameConfig {
        nodes: args.nodes,
        random_plies: args.random_plies,
        check_nodes: 0,
    };
    let pool = worker_pool(threads, "datagen").ok_or("cannot start any worker thread")?;

    let shared = Shared {
        first_game: existing.next_game,
        next_game: AtomicU64::new(existing.next_game),
        written: AtomicU64::new(existing.positions),
        failed: AtomicBool::new(false),
        writer,
        progress: Mutex::new(Progress {
            start: Instant::now(),
            last_report: Instant::now(),
            games: 0,
            positions: 0,
            plies: 0,
            results: [0; 3],
        }),
        error: Mutex::new(None),
    };
    pool.scope(|scope| {
        // As many workers as the pool could get.
        for _ in 0..pool.current_num_threads() {
            scope.spawn(|_| shared.work(args, &book, &config));
        }
    });
    let Shared {
        written,
        progress,
        error,
        ..
    } = shared;
    if let Some(e) = error.into_inner().unwrap() {
        return Err(e);
    }
    let p = progress.into_inner().unwrap();
    eprintln!("{}", p.line());
    Ok(format!(
        "wrote {} positions from {} games to {} in {:.1} s ({} in the file)",
        p.positions,
        p.games,
        out.display(),
        p.start.elapsed().as_secs_f64(),
        written.into_inner()
    ))
}

/// What the workers of one run share.
struct Shared {
    first_game: u64,
    next_game: AtomicU64,
    /// Positions in the file, those there before the run included.
    written: AtomicU64,
    failed: AtomicBool,
    writer: Mutex<BufWriter<File>>,
    progress: Mutex<Progress>,
    error: Mutex<Option<String>>,
}

impl Shared {
    /// One worker: plays games until the run's target is met, writing each game whole.
    fn work(&self, args: &Args, book: &[Game], config: &GameConfig) {
        let mut searcher = Searcher::new(HASH_MB);
        loop {
            if self.failed.load(Ordering::Relaxed)
                || args
                    .positions
                    .is_some_and(|n| self.written.load(Ordering::Relaxed) >= n)
            {
                return;
            }
            let index = self.next_game.fetch_add(1, Ordering::Relaxed);
            if args.games.is_some_and(|n| index - self.first_game >= n) {
                return;
            }
            let Some(record) = play_game(&mut searcher, book, config, args.seed, index) else {
                continue;
            };
            if !self.write(&record) {
                return;
            }
        }
    }

    /// Appends a finished game and counts it; false once writing failed.
    fn write(&self, record: &GameRecord) -> bool {
        let mut bytes = Vec::with_capacity(record.records.len() * RECORD_BYTES);
        for r in &record.records {
            bytes.extend_from_slice(&r.encode());
        }
        {
            let mut w = self.writer.lock().unwrap();
            if let Err(e) = w.write_all(&bytes).and_then(|_| w.flush()) {
                *self.error.lock().unwrap() = Some(format!("write failed: {e}"));
                self.failed.store(true, Ordering::Relaxed);
                return false;
            }
        }
        let n = record.records.len() as u64;
        self.written.fetch_add(n, Ordering::Relaxed);
        let mut p = self.progress.lock().unwrap();
        p.games += 1;
        p.positions += n;
        p.plies += u64::from(record.plies);
        p.results[match record.result {
            GameResult::WhiteWins => 0,
            GameResult::Draw => 1,
            GameResult::BlackWins => 2,
        }] += 1;
        if p.last_report.elapsed() >= PROGRESS_INTERVAL {
            p.last_report = Instant::now();
            eprintln!("{}", p.line());
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ply_ranges_accept_a_single_count_or_min_max() {
        assert_eq!(parse_ply_range("3"), Ok((3, 3)));
        assert_eq!(parse_ply_range("2-4"), Ok((2, 4)));
        assert!(parse_ply_range("4-2").is_err());
        assert!(parse_ply_range("x").is_err());
    }
}
