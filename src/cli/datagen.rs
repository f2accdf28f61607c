//! `cutoff datagen`: self-play games on worker threads, each finished game appended whole to the
//! output chunk, with its manifest line (the games and the layouts in [`crate::datagen`], the
//! run in [`crate::datagen::run`]); `--dump`, `--stats` and `--convert` read chunks of either
//! layout ([`crate::datagen::inspect`]). This file checks the arguments and prints.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::ProgressBar;

use super::{at_least_one, checked_threads, progress_bar, threads, usage, EvalArg, Failure};
use crate::datagen::chunk::{chunk_paths, Format};
use crate::datagen::inspect::{self, ChunkStats, ManifestCheck};
use crate::datagen::manifest::{self, Searched};
use crate::datagen::output::{ChunkWriter, Resume, RunInfo};
use crate::datagen::run::{self as generation, Settings, Tally};
use crate::datagen::{
    default_hard_nodes, load_book, GameConfig, CHECK_NODES_NO_BOOK, DEFAULT_NODES,
    RANDOM_PLIES_BOOK, RANDOM_PLIES_NO_BOOK,
};
use crate::search::Searcher;
use crate::tablebase::{LoadOptions, Tablebases};
use crate::threads::worker_pool;
use crate::types::nps;

/// Seconds between two progress lines (when stderr is not a terminal and the bar is hidden).
const PROGRESS_INTERVAL: Duration = Duration::from_secs(10);

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
    #[arg(long, conflicts_with = "positions", value_parser = at_least_one::<u64>())]
    pub games: Option<u64>,
    /// Stop starting games once the output file holds this many positions.
    #[arg(long, value_parser = at_least_one::<u64>())]
    pub positions: Option<u64>,
    /// Soft node limit per move: no new iteration starts past it.
    #[arg(long, default_value_t = DEFAULT_NODES, value_parser = at_least_one::<u64>())]
    pub nodes: u64,
    /// Hard node limit per move: an iteration still running here is cut off and the last
    /// finished one's move is played (default 1.2 times `--nodes`, rounded down; at least
    /// `--nodes`).
    #[arg(long, value_parser = at_least_one::<u64>())]
    pub hard_nodes: Option<u64>,
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
    #[arg(long, default_value_t = 1, value_parser = threads::<usize>())]
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
        dump(path).map_err(Failure::from)
    } else if let Some(paths) = &args.stats {
        stats(paths).map_err(Failure::from)
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
        Err(failure) => failure.exit(),
    }
}

/// `--dump`: every position of a chunk as a text line on stdout, until stdout goes away.
fn dump(path: &Path) -> Result<String, String> {
    let mut out = std::io::stdout().lock();
    let notes = inspect::dump(path, |line| writeln!(out, "{line}").is_ok())?;
    for note in notes {
        eprintln!("datagen: {note}");
    }
    Ok(String::new())
}

/// A chunk counted by `--stats`: its problems on stderr, then its line (none for a chunk that
/// could not be opened).
fn print_chunk(path: &Path, chunk: &ChunkStats) {
    for note in &chunk.notes {
        eprintln!("datagen: {note}");
    }
    let Some(manifest) = &chunk.manifest else {
        return;
    };
    let c = &chunk.counts;
    println!(
        "{}: {} games, {} positions ({} pass), {manifest}{}",
        path.display(),
        c.games,
        c.positions,
        c.passed,
        if chunk.read_up_to_a_problem {
            ", read up to a problem"
        } else {
            ""
        }
    );
}

/// `--stats`: every chunk replayed, the totals last, grouped by the build and evaluation that
/// played them before that. The totals line comes out in any case;
/// an input missing, unreadable or not data makes it an error too (a non-zero exit), so a
/// script that checks the status is not told that a typo or a damaged file was counted.
fn stats(paths: &[PathBuf]) -> Result<String, String> {
    let (chunks, problems) = chunk_paths(paths);
    for p in &problems {
        eprintln!("datagen: {p}");
    }
    let (mut differing, mut unreadable) = (0, 0);
    let stats = inspect::stats(&chunks, |path, chunk| {
        differing += u64::from(matches!(
            chunk.manifest,
            Some(ManifestCheck::Differs { .. })
        ));
        unreadable += u64::from(chunk.series.0 == Searched::Unknown);
        print_chunk(path, chunk);
    });
    for ((searched, build), series) in &stats.by_series {
        let (chunks, c) = (series.chunks, &series.counts);
        let s = if chunks == 1 { "" } else { "s" };
        println!(
            "{build} ({}): {chunks} chunk{s}, {} games, {} positions ({} pass)",
            searched.label(),
            c.games,
            c.positions,
            c.passed
        );
    }
    let unknown = stats.searched_by(Searched::Unknown);
    println!(
        "searched by a net: {} positions; by the classical evaluation: {}{}",
        stats.searched_by(Searched::Net),
        stats.searched_by(Searched::Classical),
        if unknown > 0 {
            format!("; unknown (a MANIFEST that cannot be read): {unknown}")
        } else {
            String::new()
        }
    );
    let total = &stats.total;
    println!(
        "{} games, {} positions ({} pass the trainer's default filter)",
        total.games, total.positions, total.passed
    );
    let failed = problems.len() as u64 + total.failed;
    let mut errors = Vec::new();
    if failed > 0 {
        let s = if failed == 1 { "" } else { "s" };
        errors.push(format!("{failed} input{s} missing, unreadable or not data"));
    }
    if differing > 0 {
        errors.push(format!(
            "{differing} chunk(s) differ from their manifest's last line"
        ));
    }
    if unreadable > 0 {
        errors.push(format!(
            "{unreadable} chunk(s) beside a MANIFEST that cannot be read"
        ));
    }
    if !errors.is_empty() {
        return Err(format!("{} (see above)", errors.join("; ")));
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

/// The manifest's command with the evaluation and the hard node limit named (`--eval net`,
/// `--hard-nodes 6000` added where the default was taken), so that `--stats` reads what
/// searched the games from the line itself, and the line says which hard limit made the data
/// (the default changed on 2 Dec 2026, from s9652 on: a line without one was made with 8 times
/// `--nodes`).
fn with_defaults_named(command: String, eval: EvalArg, hard_nodes: u64) -> String {
    let command = match (manifest::evaluation_named(&command).is_some(), eval) {
        (true, _) => command,
        (false, EvalArg::Net) => format!("{command} --eval net"),
        (false, EvalArg::Classical) => format!("{command} --eval classical"),
    };
    match manifest::option_named(&command, "--hard-nodes") {
        Some(_) => command,
        None => format!("{command} --hard-nodes {hard_nodes}"),
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
fn convert(args: &Args, input: &Path) -> Result<String, Failure> {
    let out = args.out.as_deref().ok_or_else(|| usage("give --out"))?;
    if output_format(out, args.format).map_err(usage)? != Format::Viri {
        return Err(usage("--convert writes viriformat: name --out .vf"));
    }
    let done = inspect::convert(input, out, args.append, command_line())?;
    for note in &done.notes {
        eprintln!("datagen: {note}");
    }
    let summary = format!(
        "converted {} games, {} positions ({} games split) from {} ({} bytes) to {} ({} bytes) in {:.1} s",
        done.games,
        done.positions,
        done.splits,
        input.display(),
        done.in_bytes,
        out.display(),
        done.out_bytes,
        done.elapsed.as_secs_f64()
    );
    if done.input_failed {
        return Err(Failure::Run(format!(
            "{summary}, but the input could not be read to its end"
        )));
    }
    Ok(summary)
}

/// `Bench: N` of this build searching with `eval`, for the manifest: the bench's node count
/// (about a second), so that a chunk names what played its games (the classical evaluation's
/// is `Bench: 2266636`, the net's the build's own signature). Here rather than in the run,
/// which sits beside the bench in the layers and may not use it.
fn build_signature(eval: EvalArg) -> String {
    let mut searcher = Searcher::new(crate::bench::HASH_MB);
    searcher.set_evaluator(eval.into());
    let totals = crate::bench::bench_on(&mut searcher, crate::bench::DEFAULT_DEPTH, |_, _| {});
    format!("Bench: {}", totals.nodes)
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
        hard_nodes: args.hard_nodes,
        random_plies: args.random_plies.unwrap_or(plies),
        check_nodes: args.check_nodes.unwrap_or(check),
        tablebases: None,
    }
}

/// The tables of `--syzygy`, with what was found said on stderr; an error when none could be
/// used. Every file is checksummed before the games (none is left to its first probe), so
/// that a game's adjudication never depends on how far a background check has come: the
/// same seed makes the same games.
fn load_tablebases(path: &str) -> Result<Arc<Tablebases>, String> {
    let options = LoadOptions {
        checksum_at_load: u64::MAX,
        report: None,
    };
    let (tablebases, loaded) = Tablebases::load_with(path, &options);
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

/// What an appended chunk already held, on stderr.
fn print_resume(out: &Path, resume: &Resume) {
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
}

/// The run's progress line: games, positions, rates and results so far.
fn progress_line(t: &Tally) -> String {
    let elapsed = t.start.elapsed();
    format!(
        "datagen: {} games, {} positions in {:.0} s ({:.0} positions/s, {:.2} games/s, {:.0} plies/game, {:.0} nodes/position, {:.1} % past twice the soft limit, {:.0} opening nodes/game), +{} ={} -{}",
        t.games,
        t.positions,
        elapsed.as_secs_f64(),
        t.rate(),
        nps(t.games, elapsed),
        t.plies as f64 / t.games.max(1) as f64,
        t.nodes_per_position(),
        100.0 * t.overruns as f64 / t.positions.max(1) as f64,
        t.opening_nodes as f64 / t.games.max(1) as f64,
        t.results[0],
        t.results[1],
        t.results[2],
    )
}

/// A run's progress on stderr: the bar on a terminal, else a line every `PROGRESS_INTERVAL`.
struct Shown {
    bar: ProgressBar,
    /// Whether the bar counts games (`--games`) or positions in the file (`--positions`).
    games_bar: bool,
    last_line: Mutex<Instant>,
}

impl Shown {
    /// A game was written: `in_file` positions are now in the chunk.
    fn game(&self, t: &Tally, in_file: u64) {
        if self.bar.is_hidden() {
            let mut last = self.last_line.lock().unwrap();
            if last.elapsed() >= PROGRESS_INTERVAL {
                *last = Instant::now();
                eprintln!("{}", progress_line(t));
            }
            return;
        }
        if self.games_bar {
            self.bar.inc(1);
        } else {
            self.bar.set_position(in_file);
        }
        self.bar.set_message(format!(
            "{} positions, {:.0} positions/s, {:.0} nodes/position, +{} ={} -{}",
            t.positions,
            t.rate(),
            t.nodes_per_position(),
            t.results[0],
            t.results[1],
            t.results[2]
        ));
    }
}

/// Plays the games `args` asks for, appending each finished game to `args.out`.
fn generate(args: &Args) -> Result<String, Failure> {
    // What the command line itself gets wrong first (exit 2); the book, the tables and the
    // games after it are the work (exit 1).
    if args.games.is_none() && args.positions.is_none() {
        return Err(usage("give --games N or --positions N"));
    }
    let out = args
        .out
        .as_deref()
        .ok_or_else(|| usage("give --out FILE (or --dump, --stats, --convert)"))?;
    let format = output_format(out, args.format).map_err(usage)?;
    if args.hard_nodes.is_some_and(|hard| hard < args.nodes) {
        return Err(usage("--hard-nodes must be at least --nodes"));
    }
    // The chunk's and the manifest's paths before the book, the tables and the bench (the
    // chunk is opened, and checked again, only after them).
    crate::files::check_output(out).map_err(usage)?;
    manifest::check_writable(out).map_err(usage)?;
    let threads =
        checked_threads(Some(args.threads)).map_err(|e| usage(format!("--threads: {e}")))?;
    let book = match &args.book {
        Some(path) => load_book(path)?,
        None => Vec::new(),
    };
    let mut game = game_config(args, args.book.is_some());
    if let Some(path) = &args.syzygy {
        game.tablebases = Some(load_tablebases(path)?);
    }
    let build = build_signature(args.eval);
    let hard_nodes = args.hard_nodes.unwrap_or(default_hard_nodes(args.nodes));
    if args.append {
        generation::check_same_series(out, &build, (args.nodes, hard_nodes))?;
    }
    let (writer, resume) = ChunkWriter::open(out, format, args.append)?;
    print_resume(out, &resume);
    let settings = Settings {
        run: RunInfo {
            build,
            seed: args.seed,
            command: with_defaults_named(command_line(), args.eval, hard_nodes),
        },
        evaluator: args.eval.into(),
        games: args.games,
        positions: args.positions,
        game,
        book,
    };
    let pool = worker_pool(threads, "datagen").ok_or("cannot start any worker thread")?;
    generation::stop_on_signals();
    let bar = match (args.games, args.positions) {
        (Some(n), _) => progress_bar(n, "games"),
        (None, n) => {
            let bar = progress_bar(n.unwrap_or(0), "positions");
            bar.set_position(resume.positions.min(n.unwrap_or(0)));
            bar
        }
    };
    let shown = Shown {
        bar,
        games_bar: args.games.is_some(),
        last_line: Mutex::new(Instant::now()),
    };
    let done = generation::play(&settings, &pool, writer, &resume, |t, n| shown.game(t, n));
    shown.bar.finish_and_clear();
    let done = done?;
    eprintln!("{}", progress_line(&done.tally));
    Ok(format!(
        "wrote {} positions from {} games to {} in {:.1} s ({} in the file, {}; {})",
        done.tally.positions,
        done.tally.games,
        out.display(),
        done.tally.start.elapsed().as_secs_f64(),
        done.in_file,
        settings.run.build,
        manifest::manifest_path(out).display()
    ))
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
    fn the_manifest_command_names_the_evaluation_and_the_hard_limit_once_default_or_not() {
        let typed = "cutoff datagen --games 5".to_string();
        assert_eq!(
            with_defaults_named(typed.clone(), EvalArg::Net, 6000),
            "cutoff datagen --games 5 --eval net --hard-nodes 6000"
        );
        assert_eq!(
            with_defaults_named(typed, EvalArg::Classical, 120),
            "cutoff datagen --games 5 --eval classical --hard-nodes 120"
        );
        let named = "cutoff datagen --eval=classical --hard-nodes=7000 --games 5".to_string();
        assert_eq!(
            with_defaults_named(named.clone(), EvalArg::Classical, 6000),
            named
        );
        let spaced = "cutoff datagen --hard-nodes 7000 --eval net".to_string();
        assert_eq!(
            with_defaults_named(spaced.clone(), EvalArg::Net, 6000),
            spaced
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
