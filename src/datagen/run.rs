//! A generation run: worker threads that claim game indices, play them and append each finished
//! game whole to one chunk, with a manifest line reserving the indices ahead of use, so a run
//! killed at any moment leaves a chunk its manifest covers. A stop asked by SIGTERM or SIGINT
//! ends the run as a finished one does (its `done` line sealed), and `--append` is refused on a
//! chunk of another series. The command (`crate::cli::datagen`) checks the arguments, opens the
//! chunk, and draws the progress this module reports through a callback.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rayon::ThreadPool;

use super::manifest;
use super::output::{ChunkWriter, Resume, RunInfo};
use super::{play_game, GameConfig, GameRecord, GameResult, HASH_MB};
use crate::eval::EvaluatorKind;
use crate::position::Game;
use crate::search::Searcher;
use crate::types::nps;

/// Game indices reserved at each checkpoint: a manifest line every this many games.
const CHECKPOINT_GAMES: u64 = 256;

/// What a run plays: the command's arguments, checked and with their defaults filled in.
pub struct Settings {
    /// What every manifest line of the run repeats (the build that plays, the seed, the command).
    pub run: RunInfo,
    /// The evaluation the games' searches run.
    pub evaluator: EvaluatorKind,
    /// Games to play in this run, if the run counts games.
    pub games: Option<u64>,
    /// Positions the chunk should hold (earlier runs' included), if the run counts positions.
    pub positions: Option<u64>,
    pub game: GameConfig,
    /// Openings; empty for games from the start position.
    pub book: Vec<Game>,
}

/// What a run has played so far, for its progress line and summary.
#[derive(Clone, Debug)]
pub struct Tally {
    pub start: Instant,
    pub games: u64,
    pub positions: u64,
    pub plies: u64,
    /// Nodes searched for the stored positions, and for the openings' checks.
    pub nodes: u64,
    pub opening_nodes: u64,
    /// Stored positions whose search passed twice the soft node limit.
    pub overruns: u64,
    /// White wins, draws, Black wins.
    pub results: [u64; 3],
}

impl Tally {
    fn new() -> Tally {
        Tally {
            start: Instant::now(),
            games: 0,
            positions: 0,
            plies: 0,
            nodes: 0,
            opening_nodes: 0,
            overruns: 0,
            results: [0; 3],
        }
    }

    /// Mean nodes searched per stored position (its own search only).
    pub fn nodes_per_position(&self) -> f64 {
        self.nodes as f64 / self.positions.max(1) as f64
    }

    /// Positions written per second since the run started.
    pub fn rate(&self) -> f64 {
        nps(self.positions, self.start.elapsed())
    }

    fn count(&mut self, record: &GameRecord) {
        self.games += 1;
        self.positions += record.records.len() as u64;
        self.plies += u64::from(record.plies);
        self.nodes += record.nodes;
        self.opening_nodes += record.opening_nodes;
        self.overruns += record.overruns;
        self.results[match record.result {
            GameResult::WhiteWins => 0,
            GameResult::Draw => 1,
            GameResult::BlackWins => 2,
        }] += 1;
    }
}

/// A run that ended well: what it played, and the positions its chunk now holds.
#[derive(Debug)]
pub struct Finished {
    pub tally: Tally,
    pub in_file: u64,
}

/// `--append` goes on only with games of the same build and evaluation as those in the chunk,
/// searched to the same node limits (`limits`: soft, hard) as its manifest's last line names:
/// one chunk, one series.
pub fn check_same_series(out: &Path, build: &str, limits: (u64, u64)) -> Result<(), String> {
    let Some(last) = manifest::last_entry(out)? else {
        return Ok(());
    };
    if last.build != build {
        return Err(format!(
            "{} holds games of {}, this run would play {} (`--eval classical` plays the \
             classical evaluation's games): start a new chunk",
            out.display(),
            last.build,
            build
        ));
    }
    // The same build may search to other limits (the hard limit's default changed on 2 Dec
    // 2026 without a bench change), and the data would then be of two kinds.
    let named = manifest::node_limits_named(&last.command);
    if named != Some(limits) {
        let held = match named {
            Some((soft, hard)) => format!("--nodes {soft} --hard-nodes {hard}"),
            None => "node limits its manifest line does not say".to_string(),
        };
        return Err(format!(
            "{} holds games searched with {held}, this run would search with --nodes {} \
             --hard-nodes {}: give the same limits or start a new chunk",
            out.display(),
            limits.0,
            limits.1
        ));
    }
    Ok(())
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

/// Routes SIGTERM and SIGINT to the handler that asks a run to stop, for the rest of the
/// process. The command calls it before [`play`] (a datagen run is the process's last work);
/// `play` itself leaves the process's signals alone, so a test can run it.
pub fn stop_on_signals() {
    #[cfg(unix)]
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let handler: extern "C" fn(libc::c_int) = on_stop_signal;
        // SAFETY: the handler only swaps an atomic and may call `_exit`, both
        // async-signal-safe; `signal` is given a valid signal number and a function pointer
        // of the type it expects.
        unsafe { libc::signal(signal, handler as libc::sighandler_t) };
    }
}

/// Plays the games `settings` asks for on `pool`'s threads, appending each finished game to
/// `writer`'s chunk (which holds what `resume` says), and seals the chunk with its final
/// manifest line (`done`, or `failed` after a write error). `on_game` hears of every game
/// written, with the run's tally and the positions now in the chunk; it is called by the
/// worker that wrote the game, one call at a time.
pub fn play<F>(
    settings: &Settings,
    pool: &ThreadPool,
    writer: ChunkWriter,
    resume: &Resume,
    on_game: F,
) -> Result<Finished, String>
where
    F: Fn(&Tally, u64) + Sync,
{
    let shared = Shared {
        settings,
        chunk_first: resume.first_game,
        run_first: resume.next_game,
        ledger: Mutex::new(Ledger {
            next: resume.next_game,
            reserved_end: resume.next_game,
        }),
        written: AtomicU64::new(resume.positions),
        failed: AtomicBool::new(false),
        writer: Mutex::new(writer),
        tally: Mutex::new(Tally::new()),
        error: Mutex::new(None),
        on_game,
    };
    pool.scope(|scope| {
        // As many workers as the pool could get.
        for _ in 0..pool.current_num_threads() {
            scope.spawn(|_| shared.work());
        }
    });
    shared.finish()
}

/// Game indices handed out, and how far the manifest has reserved them.
struct Ledger {
    next: u64,
    reserved_end: u64,
}

/// What the workers of one run share.
struct Shared<'a, F> {
    settings: &'a Settings,
    /// The chunk's first game index (earlier runs included) and this run's.
    chunk_first: u64,
    run_first: u64,
    ledger: Mutex<Ledger>,
    /// Positions in the file, those there before the run included.
    written: AtomicU64,
    failed: AtomicBool,
    writer: Mutex<ChunkWriter>,
    tally: Mutex<Tally>,
    error: Mutex<Option<String>>,
    on_game: F,
}

impl<F: Fn(&Tally, u64) + Sync> Shared<'_, F> {
    /// One worker: plays games until the run's target is met, writing each game whole.
    fn work(&self) {
        let settings = self.settings;
        let mut searcher = Searcher::new(HASH_MB);
        searcher.set_evaluator(settings.evaluator);
        while let Some(index) = self.claim() {
            let seed = settings.run.seed;
            let played = play_game(&mut searcher, &settings.book, &settings.game, seed, index);
            let Some(record) = played else {
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
    fn claim(&self) -> Option<u64> {
        let mut ledger = self.ledger.lock().unwrap();
        let settings = self.settings;
        if self.failed.load(Ordering::Relaxed)
            || STOP_REQUESTED.load(Ordering::Relaxed)
            || settings
                .positions
                .is_some_and(|n| self.written.load(Ordering::Relaxed) >= n)
            || settings
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
            let run = &settings.run;
            if let Err(e) = writer.checkpoint(run, self.chunk_first, ledger.reserved_end, "running")
            {
                drop(writer);
                self.fail(e);
                return None;
            }
        }
        Some(index)
    }

    /// Appends a finished game, counts it and reports it; false once writing failed.
    fn write(&self, record: &GameRecord) -> bool {
        let mut writer = self.writer.lock().unwrap();
        if let Err(e) = writer.write_game(record) {
            let path = writer.path().display().to_string();
            drop(writer);
            self.fail(format!("cannot write {path}: {}", crate::files::reason(&e)));
            return false;
        }
        drop(writer);
        let n = record.records.len() as u64;
        let in_file = self.written.fetch_add(n, Ordering::Relaxed) + n;
        let mut tally = self.tally.lock().unwrap();
        tally.count(record);
        (self.on_game)(&tally, in_file);
        true
    }

    /// The final manifest line, and what the run played. A chunk the run created and put no
    /// game into (a failure, or a stop, before the first game ended) is removed instead: an
    /// empty file is not data, and nothing is left behind.
    fn finish(self) -> Result<Finished, String> {
        let next = self.ledger.into_inner().unwrap().next;
        let writer = self.writer.into_inner().unwrap();
        let error = self.error.into_inner().unwrap();
        let tally = self.tally.into_inner().unwrap();
        if writer.created_empty() {
            let removed = writer.abandon();
            return match error {
                Some(e) => Err(e),
                None => removed.map(|()| Finished { tally, in_file: 0 }),
            };
        }
        let state = if error.is_some() { "failed" } else { "done" };
        let manifest = writer.checkpoint(&self.settings.run, self.chunk_first, next, state);
        if let Some(e) = error {
            return Err(e);
        }
        manifest?;
        Ok(Finished {
            tally,
            in_file: writer.positions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::chunk::Format;
    use std::path::PathBuf;

    fn temp(name: &str) -> PathBuf {
        crate::files::fresh_test_dir("run", name)
    }

    fn settings(games: u64, build: &str) -> Settings {
        Settings {
            run: RunInfo {
                build: build.into(),
                seed: 3,
                command: "test".into(),
            },
            evaluator: EvaluatorKind::Classical,
            games: Some(games),
            positions: None,
            game: GameConfig {
                nodes: 100,
                ..GameConfig::default()
            },
            book: Vec::new(),
        }
    }

    #[test]
    fn a_run_plays_its_games_reports_each_and_seals_the_chunk_done() {
        let dir = temp("play");
        let path = dir.join("c.vf");
        let settings = settings(3, "Bench: 1");
        let (writer, resume) = ChunkWriter::open(&path, Format::Viri, false).unwrap();
        let pool = crate::threads::worker_pool(2, "test").unwrap();
        let reported = AtomicU64::new(0);
        let most_in_file = AtomicU64::new(0);
        let on_game = |_: &Tally, in_file: u64| {
            reported.fetch_add(1, Ordering::Relaxed);
            most_in_file.fetch_max(in_file, Ordering::Relaxed);
        };
        let done = play(&settings, &pool, writer, &resume, on_game).unwrap();
        assert_eq!(done.tally.games, 3);
        assert_eq!(reported.load(Ordering::Relaxed), 3);
        assert_eq!(
            done.in_file, done.tally.positions,
            "a new chunk holds this run's games"
        );
        assert_eq!(most_in_file.load(Ordering::Relaxed), done.in_file);
        // Every stored position's search passed the soft limit (100) or was cut at the hard
        // one (800), so the mean cost of a position lies between them.
        let per_position = done.tally.nodes_per_position();
        assert!(
            (100.0..=800.0).contains(&per_position),
            "{per_position} nodes a position"
        );
        assert!(done.tally.overruns <= done.tally.positions);
        let last = manifest::last_entry(&path).unwrap().unwrap();
        assert_eq!((last.state.as_str(), last.next_game), ("done", 3));
        assert_eq!(last.positions, done.in_file);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_run_that_fails_before_its_first_game_removes_the_chunk_it_created() {
        let dir = temp("fails-first");
        let path = dir.join("c.vf");
        let (writer, resume) = ChunkWriter::open(&path, Format::Viri, false).unwrap();
        // The manifest becomes a folder after the checks: the first checkpoint fails.
        std::fs::create_dir(manifest::manifest_path(&path)).unwrap();
        let pool = crate::threads::worker_pool(1, "test").unwrap();
        let e = play(&settings(2, "Bench: 1"), &pool, writer, &resume, |_, _| {}).unwrap_err();
        assert!(
            e.contains("MANIFEST: a directory, not a regular file"),
            "{e}"
        );
        assert!(!path.exists(), "an empty chunk was left behind");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn appending_is_refused_on_a_chunk_another_build_played() {
        let dir = temp("series");
        let path = dir.join("c.vf");
        assert!(
            check_same_series(&path, "Bench: 1", OLD_DEFAULTS).is_ok(),
            "no manifest yet"
        );
        let (writer, _) = ChunkWriter::open(&path, Format::Viri, false).unwrap();
        writer
            .checkpoint(&settings(1, "Bench: 1").run, 0, 0, "done")
            .unwrap();
        assert!(check_same_series(&path, "Bench: 1", OLD_DEFAULTS).is_ok());
        let refused = check_same_series(&path, "Bench: 2", OLD_DEFAULTS).unwrap_err();
        assert!(refused.contains("holds games of Bench: 1"), "{refused}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The limits a line of the old rule implies: a command that names neither (`test`).
    const OLD_DEFAULTS: (u64, u64) = (5000, 40_000);

    /// One build, other node limits: the hard limit's default changed without the bench, so
    /// `--append` compares the limits its manifest line names (a line that names no hard limit
    /// was made with 8 times the soft one) with the run's.
    #[test]
    fn appending_is_refused_on_a_chunk_searched_to_other_node_limits() {
        let dir = temp("limits");
        let cases = [
            (
                "cutoff datagen --nodes 100 --hard-nodes 120",
                (100, 120),
                (100, 800),
            ),
            ("cutoff datagen --nodes 100", (100, 800), (100, 120)),
            (
                "cutoff datagen --hard-nodes=6000",
                (5000, 6000),
                (5000, 40_000),
            ),
            ("test", OLD_DEFAULTS, (5000, 6000)),
        ];
        for (i, (command, same, other)) in cases.into_iter().enumerate() {
            let path = dir.join(format!("c{i}.vf"));
            let mut run = settings(1, "Bench: 1").run;
            run.command = command.into();
            let (writer, _) = ChunkWriter::open(&path, Format::Viri, false).unwrap();
            writer.checkpoint(&run, 0, 0, "done").unwrap();
            assert!(
                check_same_series(&path, "Bench: 1", same).is_ok(),
                "{command}"
            );
            let refused = check_same_series(&path, "Bench: 1", other).unwrap_err();
            assert!(
                refused.contains("give the same limits"),
                "{command}: {refused}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
