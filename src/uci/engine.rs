//! The UCI session: executing each command on the position, the options and the searcher it
//! keeps, and starting and stopping the search thread. What it hands off lives beside it: the
//! search thread's task (`task`), the `info` lines (`info`), the `d` and `eval` displays
//! (`display`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use super::command::{Command, Go, Start};
use super::display;
use super::options::{self, Action, Apply, Change, Options};
use super::output::{send, send_error};
use super::perft::uci_perft;
use super::task::SearchTask;
use crate::eval::wdl;
use crate::eval::{EvaluatorKind, Network};
use crate::position::{read_fen, FenPolicy, Game};
use crate::search::{Control, Limits, NetSlot, Searcher, Settings, TableReady};
use crate::tablebase::{LoadOptions, Tablebases, CHECKSUM_AT_LOAD};

/// How long a bounded search may go on after end of input before it is stopped: enough for
/// the searches scripts pipe in (`go depth 12`, `go movetime 5000`), while a search with a
/// limit it would take hours to reach (`go depth 200`) still answers and exits soon.
pub const EOF_GRACE: Duration = Duration::from_secs(10);

/// Whether the loop should go on reading.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Engine {
    game: Game,
    options: Options,
    searcher: Arc<Mutex<Searcher>>,
    control: Arc<Control>,
    search_thread: Option<JoinHandle<()>>,
    /// True from `go` until the search has decided its move; cleared before `bestmove` is
    /// printed, so that a command answering it (a `setoption`) never finds the search busy.
    searching: Arc<AtomicBool>,
    /// The running search has no limit of its own (`go infinite`, a bare `go`, `go mate`
    /// alone): at end of input it is stopped, not awaited.
    searching_endlessly: bool,
    /// Where the searcher keeps its net, read here so that `eval` never waits for the
    /// searcher's lock while a search runs (the searcher's own slot, not a copy).
    network: NetSlot,
    /// Whether the table the last `ucinewgame` (or `Clear Hash`) empties in the background is
    /// empty: `isready` answers once it is. The next `go` does not wait for it past its clock
    /// (`Searcher::clear_in_background`).
    table_ready: TableReady,
}

impl Default for Engine {
    fn default() -> Self {
        let searcher = Searcher::new(options::HASH_DEFAULT_MB);
        Engine {
            game: Game::default(),
            network: searcher.net_slot(),
            searcher: Arc::new(Mutex::new(searcher)),
            options: Options::default(),
            control: Arc::new(Control::default()),
            search_thread: None,
            searching: Arc::new(AtomicBool::new(false)),
            searching_endlessly: false,
            table_ready: TableReady::done(),
        }
    }
}

impl Engine {
    pub fn execute(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => {
                send(&format!("id name Cutoff {}", env!("CARGO_PKG_VERSION")));
                send("id author the Cutoff developers");
                for line in options::declarations() {
                    send(&line);
                }
                send("uciok");
            }
            Command::IsReady => {
                // Ready once the table a `ucinewgame` is emptying is empty; never waits for
                // a search, whose searcher it does not touch.
                self.table_ready.wait();
                send("readyok");
            }
            Command::UciNewGame => {
                self.stop_search();
                self.clear_in_background();
                self.game = Game::new(Chess::default(), self.castling_mode());
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { start, moves } => match self.build_game(&start, &moves) {
                Ok(game) => self.game = game,
                Err(e) => send_error(&format!("{e}; position unchanged")),
            },
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop_search(),
            Command::PonderHit => self.control.ponderhit(),
            Command::Quit => {
                self.stop_search();
                return Flow::Quit;
            }
            Command::Display => display::board(&self.game),
            Command::Eval => {
                let settings = self.search_settings();
                let network = self.network.get();
                display::evaluation(&self.game.root, network.as_ref(), &settings);
            }
            Command::Ignored | Command::Empty => {}
        }
        Flow::Continue
    }

    /// End of input: stop an endless search at once; let a bounded one finish and answer, for
    /// at most [`EOF_GRACE`], then stop it too. Either way it answers `bestmove`; then quit.
    pub fn finish(&mut self) {
        if let Some(handle) = self.search_thread.take() {
            if self.searching_endlessly || self.control.is_pondering() {
                self.control.stop();
            } else {
                let deadline = std::time::Instant::now() + EOF_GRACE;
                while !handle.is_finished() && std::time::Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(5));
                }
                self.control.stop();
            }
            let _ = handle.join();
        }
    }

    fn is_searching(&self) -> bool {
        self.searching.load(Ordering::SeqCst)
    }

    /// Stops a running search (it answers `bestmove`) and waits for it.
    fn stop_search(&mut self) {
        if let Some(handle) = self.search_thread.take() {
            self.control.stop();
            let _ = handle.join();
        }
    }

    /// Empties the searcher's tables, the transposition table in the background: the next
    /// `go` is not held up past its clock, `isready` waits for it.
    fn clear_in_background(&mut self) {
        let ready = self.lock_searcher().clear_in_background();
        self.table_ready = ready;
    }

    fn lock_searcher(&self) -> std::sync::MutexGuard<'_, Searcher> {
        // A panicked search leaves the tables usable; recover them rather than die.
        self.searcher.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The settings the next search runs with: the options', with the strength limit when
    /// `UCI_LimitStrength` is on.
    fn search_settings(&self) -> Settings {
        Settings {
            strength_elo: self.options.limit_strength.then_some(self.options.elo),
            ..self.options.search
        }
    }

    fn castling_mode(&self) -> CastlingMode {
        CastlingMode::from_chess960(self.options.chess960)
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let change = match options::parse_change(name, value) {
            Ok(c) => c,
            Err(e) => return send_error(&e),
        };
        if self.is_searching() {
            return send_error(&format!("cannot change '{name}' while searching"));
        }
        // The search has answered; its thread is about to end and release the tables.
        if let Some(handle) = self.search_thread.take() {
            let _ = handle.join();
        }
        match change {
            Change::Declared { option, value } => {
                let Some(declared) = options::declared(option) else {
                    return send_error(&format!("no such option '{name}'"));
                };
                match declared.apply {
                    Apply::Store(store) => store(&mut self.options, &value),
                    Apply::Act(act) => self.act(act(&value)),
                }
            }
            #[cfg(feature = "spsa")]
            Change::Tunable(name, value) => {
                if let Err(e) = crate::search::params::set(name, value) {
                    send_error(&e);
                }
            }
        }
    }

    /// Carries out what an option asks beyond storing a value; the value is stored only if
    /// it succeeds, and a failure keeps the previous state.
    fn act(&mut self, action: Action) {
        match action {
            Action::ResizeHash(mb) => {
                // Checked before the old table is freed: a refusal keeps it, contents and all.
                let mut searcher = self.lock_searcher();
                let old = searcher.hash_mb();
                let resized = crate::memory::check_table_size("hash table", mb, old)
                    .and_then(|()| searcher.resize_hash(mb));
                if let Err(e) = resized {
                    send_error(&format!("{e}; keeping the {old} MB table"));
                }
            }
            Action::ClearHash => self.clear_in_background(),
            Action::SetThreads(n) => {
                // Checked before any is started: a helper that starts but cannot allocate its
                // tables, or leaves no room for the search thread, would abort the process.
                let mut searcher = self.lock_searcher();
                let old = searcher.threads();
                let started = crate::memory::check_threads(n.saturating_sub(old))
                    .and_then(|()| searcher.set_threads(n));
                if let Err(e) = started {
                    send_error(&format!(
                        "{e}; Threads stays at {old}: searches run on {old} thread{}",
                        if old == 1 { "" } else { "s" }
                    ));
                }
            }
            Action::Chess960(on) => {
                self.options.chess960 = on;
                self.game.castling_mode = self.castling_mode();
            }
            Action::LoadTablebases(path) => self.load_tablebases(&path),
            Action::SetEvaluation(kind) => {
                if kind == EvaluatorKind::Net && self.lock_searcher().network().is_none() {
                    return send_error("Evaluation: no net is loaded (set EvalFile first)");
                }
                self.options.search.evaluator = kind;
            }
            Action::LoadNet(path) => self.load_net(&path),
        }
    }

    /// Loads the net of `path` (empty: the built-in one). A missing, truncated or damaged
    /// file is reported and the current net stays.
    fn load_net(&mut self, path: &str) {
        let loaded = if path.is_empty() {
            Network::embedded().ok_or_else(|| "this build has no built-in net".to_string())
        } else {
            Network::load(std::path::Path::new(path)).map(Arc::new)
        };
        let network = match loaded {
            Ok(n) => n,
            Err(e) => return send_error(&format!("EvalFile: {e}; keeping the current net")),
        };
        let description = format!("{} {:016x}", network.describe(), network.hash());
        let set = self.lock_searcher().set_network(Arc::clone(&network));
        match set {
            Ok(()) => send(&format!(
                "info string EvalFile: loaded the {description} from {}",
                if path.is_empty() { "the binary" } else { path }
            )),
            Err(e) => send_error(&format!("EvalFile: {e}")),
        }
    }

    /// Opens the tables of `path`, reporting what was found and every file or directory that
    /// could not be used. When a path naming directories gives no usable table (a typo, an
    /// empty folder), the previous tables stay; only `<empty>` or an empty value unloads them.
    ///
    /// A table beyond the bytes checksummed at load is checksummed at its first probe, on a
    /// thread of its own; one refused then is reported when found, as an `info string error`
    /// of its own (a line may come at any time, as `info` lines do).
    fn load_tablebases(&mut self, path: &str) {
        let options = LoadOptions {
            report: Some(Arc::new(|line: &str| {
                send_error(&format!("SyzygyPath: {line}"))
            })),
            ..LoadOptions::default()
        };
        let (tablebases, loaded) = Tablebases::load_with(path, &options);
        for e in &loaded.errors {
            send_error(&format!("SyzygyPath: {e}"));
        }
        if loaded.tables == 0 && loaded.directories > 0 {
            let searcher = self.lock_searcher();
            let kept = match searcher.tablebase_path() {
                "" => "none",
                kept => kept,
            };
            return send_error(&format!(
                "SyzygyPath: no tables loaded; keeping the previous ones ({kept})"
            ));
        }
        let pieces = tablebases.max_pieces();
        let set = self.lock_searcher().set_tablebases(tablebases);
        match set {
            Ok(()) => {
                let pending = match loaded.pending {
                    0 => String::new(),
                    n => format!(
                        ", {n} of them beyond the {} MiB checksummed at load: each is \
                         checksummed at its first probe and not probed before",
                        CHECKSUM_AT_LOAD >> 20
                    ),
                };
                send(&format!(
                    "info string Found {} tablebases ({} files, up to {pieces} pieces{pending})",
                    loaded.tables, loaded.files
                ));
            }
            Err(e) => send_error(&format!("SyzygyPath: {e}")),
        }
    }

    /// Builds the game a `position` command describes; the current one stays on any error.
    fn build_game(&self, start: &Start, moves: &[String]) -> Result<Game, String> {
        let mode = self.castling_mode();
        let mut game = match start {
            Start::StartPos => Game::new(Chess::default(), mode),
            Start::Fen(fen) => Game::new(read_fen(fen, mode, FenPolicy::Lenient)?, mode),
        };
        for (i, m) in moves.iter().enumerate() {
            game.play_uci(m)
                .map_err(|e| format!("{e} (move {} of the list)", i + 1))?;
        }
        Ok(game)
    }

    fn go(&mut self, go: Go) {
        if let Some(depth) = go.perft {
            self.stop_search();
            return uci_perft(&self.game, depth);
        }
        for e in &go.errors {
            send_error(e);
        }
        let ponder = go.ponder;
        let limits = self.limits(go);
        // One bestmove per go: a search still running answers before the new one starts.
        self.stop_search();

        let game = self.game.clone();
        let searcher = Arc::clone(&self.searcher);
        let control = Arc::clone(&self.control);
        let config = self.search_settings();
        let wdl = self
            .options
            .show_wdl
            .then(|| wdl::model(config.effective_evaluator()))
            .flatten()
            .map(|model| (model, wdl::material(game.root.board())));
        self.searching_endlessly = limits.is_endless();
        control.begin(ponder);
        self.searching.store(true, Ordering::SeqCst);
        let task = SearchTask {
            searcher,
            game,
            limits,
            control,
            config,
            wdl,
            searching: Arc::clone(&self.searching),
        };
        match task.start() {
            Some(handle) => self.search_thread = Some(handle),
            // The search ran here, and has answered.
            None => self.searching_endlessly = false,
        }
    }

    /// The search limits of `go`, with its `searchmoves` checked against the position: the
    /// legal ones restrict the root, the others are reported in one line and ignored.
    fn limits(&self, go: Go) -> Limits {
        let pos = &self.game.root;
        let mut searchmoves = Vec::new();
        let mut illegal = Vec::new();
        for text in &go.searchmoves {
            match text
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(pos).ok())
            {
                Some(m) => searchmoves.push(m),
                None => illegal.push(text),
            }
        }
        // One report however many there are: a single line of input must not flood stdout.
        match illegal.as_slice() {
            [] => {}
            [one] => send_error(&format!("searchmoves: '{one}' is not legal here; ignored")),
            [first, ..] => send_error(&format!(
                "searchmoves: {} moves are not legal here (the first: '{first}'); ignored",
                illegal.len()
            )),
        }
        Limits {
            searchmoves,
            ..go.limits
        }
    }
}
