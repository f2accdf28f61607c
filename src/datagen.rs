//! `cutoff datagen`: self-play games at a fixed node count, written as quiet positions labelled
//! with the game result, for tuning the evaluation (`cutoff tune`, Texel's method).
//!
//! Each game starts from a book opening plus a few random legal plies (so that games differ even
//! when the book repeats itself), then both sides search every move for the same number of nodes.
//! Only positions whose static evaluation is already the quiescence value are kept: the tuner
//! fits the static evaluation, and a position in the middle of an exchange would teach it
//! noise. Every game is a pure function of (seed, game index), whatever the thread count.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Color, EnPassantMode, Position};

use crate::eval::evaluate;
use crate::position::Game;
use crate::search::{Limits, Searcher};
use crate::types::Score;

/// Transposition table per worker. A few thousand nodes per move never fill it; a small table
/// is also cheap to clear before every game.
pub const HASH_MB: usize = 8;
/// Search threads need room for a `MoveList` (about 2 KB) per ply.
const STACK_BYTES: usize = 64 * 1024 * 1024;
/// A side whose score stays at least this high (centipawns, its own view) ...
pub const WIN_SCORE: i32 = 1000;
/// ... for this many consecutive plies has won.
pub const WIN_PLIES: u32 = 6;
/// After this many searched plies, a game whose score stays within `DRAW_SCORE` ...
pub const DRAW_MIN_PLY: u32 = 80;
pub const DRAW_SCORE: i32 = 10;
/// ... for this many consecutive plies is a draw.
pub const DRAW_PLIES: u32 = 12;
/// Searched plies after which a game is called a draw.
pub const MAX_GAME_PLIES: u32 = 400;
/// The first searched plies are still the opening: not recorded.
pub const SKIP_PLIES: u32 = 8;
/// A random ply that ends the game (or leaves no move) is retried with a new opening at most
/// this many times.
const OPENING_ATTEMPTS: u32 = 32;
/// Seconds between two progress lines.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(10);

/// Command-line arguments of `cutoff datagen`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// EPD or FEN file of openings (only the first four FEN fields of each line are used).
    #[arg(long)]
    pub book: PathBuf,
    /// Output file: one `<fen> | <result>` line per position, result 1.0/0.5/0.0 for White.
    #[arg(long)]
    pub out: PathBuf,
    /// Number of games to play.
    #[arg(long, conflicts_with = "positions")]
    pub games: Option<u64>,
    /// Stop starting games once this many positions are written.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 2000)]
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

/// SplitMix64: tiny, fast and good enough to pick openings and random moves reproducibly.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The generator of game `index` under `seed`: independent streams for neighbouring games.
    pub fn for_game(seed: u64, index: u64) -> Rng {
        let mut rng = Rng(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        rng.next_u64();
        rng
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (the modulo bias is far below anything that matters here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A finished game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    Draw,
    BlackWins,
}

impl GameResult {
    /// The label written after each position: White's score.
    pub fn label(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1.0",
            GameResult::Draw => "0.5",
            GameResult::BlackWins => "0.0",
        }
    }

    fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// What one game produced.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// FENs of the recorded quiet positions, in game order.
    pub fens: Vec<String>,
    pub result: GameResult,
    /// Plies searched (after the opening).
    pub plies: u32,
}

/// Settings of one game.
#[derive(Clone, Copy, Debug)]
pub struct GameConfig {
    pub nodes: u64,
    pub random_plies: (u32, u32),
}

/// Reads openings: one position per line, first four FEN fields; blank lines and `#` comments
/// are skipped.
pub fn load_book(path: &Path) -> Result<Vec<Game>, String> {
    let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut games = Vec::new();
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        if fields.is_empty() || fields[0].starts_with('#') {
            continue;
        }
        let fen = format!("{} 0 1", fields.join(" "));
        let game = Game::from_fen(&fen, CastlingMode::Standard)
            .map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        games.push(game);
    }
    if games.is_empty() {
        return Err(format!("{}: no positions", path.display()));
    }
    Ok(games)
}

/// A book position followed by random legal plies, or `None` when every attempt ran into the
/// end of the game.
fn opening(book: &[Game], config: &GameConfig, rng: &mut Rng) -> Option<Game> {
    let (lo, hi) = config.random_plies;
    'attempt: for _ in 0..OPENING_ATTEMPTS {
        let mut game = book[rng.below(book.len())].clone();
        let plies = lo + rng.below((hi - lo + 1) as usize) as u32;
        for _ in 0..plies {
            let moves = game.root.legal_moves();
            if moves.is_empty() {
                continue 'attempt;
            }
            game.play(moves[rng.below(moves.len())]);
        }
        if !game.root.legal_moves().is_empty() {
            return Some(game);
        }
    }
    None
}

/// Whether the position of `game` has occurred twice before (the third time ends the game).
fn is_threefold(game: &Game) -> bool {
    game.history.iter().filter(|&&k| k == game.root_key).count() >= 2
}

/// Plays game `index` to its end with `searcher` (cleared first) and returns its quiet positions.
pub fn play_game(
    searcher: &mut Searcher,
    book: &[Game],
    config: &GameConfig,
    seed: u64,
    index: u64,
) -> Option<GameRecord> {
    let mut rng = Rng::for_game(seed, index);
    let mut game = opening(book, config, &mut rng)?;
    searcher.clear();
    let limits = Limits::nodes(config.nodes);

    let mut fens = Vec::new();
    let mut winning_plies = 0;
    let mut winning_side = Color::White;
    let mut drawish_plies = 0;
    let mut plies = 0;
    let result = loop {
        let pos = &game.root;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break if pos.is_check() {
                GameResult::win_for(!pos.turn())
            } else {
                GameResult::Draw
            };
        }
        if pos.is_insufficient_material()
            || pos.halfmoves() >= 100
            || is_threefold(&game)
            || plies >= MAX_GAME_PLIES
        {
            break GameResult::Draw;
        }

        let outcome = searcher.run(&game, &limits);
        let Some(best) = outcome.best_move else {
            break GameResult::Draw; // unreachable: there are legal moves
        };
        let score = outcome.score;

        if plies >= SKIP_PLIES
            && !pos.is_check()
            && !best.is_capture()
            && !best.is_promotion()
            && !score.is_mate()
            && searcher.quiescence(pos) == evaluate(pos)
        {
            fens.push(Fen::from_position(pos, EnPassantMode::Legal).to_string());
        }

        // Adjudication, from the searching side's score.
        if score.0.abs() >= WIN_SCORE {
            let leader = if score > Score::ZERO {
                pos.turn()
            } else {
                !pos.turn()
            };
            if winning_plies > 0 && leader == winning_side {
                winning_plies += 1;
            } else {
                winning_side = leader;
                winning_plies = 1;
            }
        } else {
            winning_plies = 0;
        }
        if plies >= DRAW_MIN_PLY && score.0.abs() <= DRAW_SCORE {
            drawish_plies += 1;
        } else {
            drawish_plies = 0;
        }
        if winning_plies >= WIN_PLIES {
            break GameResult::win_for(winning_side);
        }
        if drawish_plies >= DRAW_PLIES {
            break GameResult::Draw;
        }

        game.play(best);
        plies += 1;
    };
    Some(GameRecord {
        fens,
        result,
        plies,
    })
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
        let secs = self.start.elapsed().as_secs_f64().max(1e-3);
        format!(
            "datagen: {} games, {} positions in {:.0} s ({:.0} positions/s, {:.2} games/s, {:.0} plies/game), +{} ={} -{}",
            self.games,
            self.positions,
            secs,
            self.positions as f64 / secs,
            self.games as f64 / secs,
            self.plies as f64 / self.games.max(1) as f64,
            self.results[0],
            self.results[1],
            self.results[2],
        )
    }
}

pub fn run(args: Args) -> ExitCode {
    match generate(&args) {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("datagen: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Plays the games `args` asks for, appending positions to `args.out` game by game.
fn generate(args: &Args) -> Result<String, String> {
    if args.games.is_none() && args.positions.is_none() {
        return Err("give --games N or --positions N".into());
    }
    let book = load_book(&args.book)?;
    let file = File::create(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let writer = Mutex::new(BufWriter::new(file));
    let config = GameConfig {
        nodes: args.nodes,
        random_plies: args.random_plies,
    };
    let threads = args.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(STACK_BYTES)
        .build()
        .map_err(|e| e.to_string())?;

    let next_game = AtomicU64::new(0);
    let written = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let now = Instant::now();
    let progress = Mutex::new(Progress {
        start: now,
        last_report: now,
        games: 0,
        positions: 0,
        plies: 0,
        results: [0; 3],
    });
    let error: Mutex<Option<String>> = Mutex::new(None);

    pool.scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|_| {
                let mut searcher = Searcher::new(HASH_MB);
                loop {
                    if failed.load(Ordering::Relaxed)
                        || args
                            .positions
                            .is_some_and(|n| written.load(Ordering::Relaxed) >= n)
                    {
                        return;
                    }
                    let index = next_game.fetch_add(1, Ordering::Relaxed);
                    if args.games.is_some_and(|n| index >= n) {
                        return;
                    }
                    let Some(record) = play_game(&mut searcher, &book, &config, args.seed, index)
                    else {
                        continue;
                    };
                    let mut text = String::new();
                    for fen in &record.fens {
                        text.push_str(fen);
                        text.push_str(" | ");
                        text.push_str(record.result.label());
                        text.push('\n');
                    }
                    {
                        let mut w = writer.lock().unwrap();
                        if let Err(e) = w.write_all(text.as_bytes()).and_then(|_| w.flush()) {
                            *error.lock().unwrap() = Some(format!("write failed: {e}"));
                            failed.store(true, Ordering::Relaxed);
                            return;
                        }
                    }
                    written.fetch_add(record.fens.len() as u64, Ordering::Relaxed);
                    let mut p = progress.lock().unwrap();
                    p.games += 1;
                    p.positions += record.fens.len() as u64;
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
                }
            });
        }
    });

    if let Some(e) = error.into_inner().unwrap() {
        return Err(e);
    }
    let p = progress.into_inner().unwrap();
    eprintln!("{}", p.line());
    Ok(format!(
        "wrote {} positions from {} games to {} in {:.1} s",
        p.positions,
        p.games,
        args.out.display(),
        p.start.elapsed().as_secs_f64()
    ))
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

    #[test]
    fn game_streams_depend_on_seed_and_index_only() {
        let a: Vec<u64> = (0..4).map(|_| Rng::for_game(7, 3).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            Rng::for_game(7, 3).next_u64(),
            Rng::for_game(7, 4).next_u64()
        );
        assert_ne!(
            Rng::for_game(7, 3).next_u64(),
            Rng::for_game(8, 3).next_u64()
        );
    }

    #[test]
    fn threefold_needs_two_earlier_occurrences() {
        let mut game = Game::default();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            game.play_uci(m).unwrap();
        }
        assert!(!is_threefold(&game));
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            game.play_uci(m).unwrap();
        }
        assert!(is_threefold(&game));
    }
}
