//! Self-play games at a soft node limit, every searched position stored with its search score
//! and the game's result (layout in [`record`]), for tuning the evaluation (`cutoff tune`) and
//! later for a learned one. A run ([`run`]) plays them on threads and writes the file, which
//! `cutoff datagen` ([`crate::cli::datagen`]) starts and reports.
//!
//! Each game starts from a book opening plus a few random legal plies (so that games differ even
//! when the book repeats itself), or without a book from the start position plus 8 or 9 random
//! plies; an opening a short check search finds already decided (beyond [`DECIDED_SCORE`]) is
//! drawn again. Then both sides search every move to the same soft node limit:
//! a new iteration starts only below it, so each move ends on a completed depth. Every searched
//! position is written, with the facts a reader filters on (in check, capture or promotion, mate
//! score, ply); nothing is filtered by today's evaluation. Every game is a pure function of (seed,
//! game index), whatever the thread count. Games are written whole, so an interrupted run keeps
//! every finished game, and `--append` continues a file where its game indices end.
//!
//! Files come in two layouts: viriformat game records (`.vf`, [`viriformat`]), the default, and
//! the older 40-byte position records (`.bin`, [`record`]); [`chunk`] reads both as games,
//! [`positions`] turns a game into what a trainer reads (and the one filter of `--stats` and
//! the trainer), [`output`] writes them, [`manifest`]
//! records what made each file and [`inspect`] reads them back for people (dump, counts,
//! conversion).

pub mod chunk;
pub mod inspect;
pub mod manifest;
pub mod output;
pub mod positions;
pub mod record;
mod result;
pub mod run;
pub mod sha256;
pub mod viriformat;

use std::path::Path;
use std::sync::Arc;

use shakmaty::{CastlingMode, Chess, Color, Position};

use crate::files::read_lines;
use crate::position::{read_fen, FenPolicy, Game};
pub use crate::rng::Rng;
use crate::search::{Limits, Searcher};
use crate::tablebase::{Outcome, Tablebases};
use crate::types::Score;
use record::{Record, RECORD_BYTES};
pub use result::GameResult;
use viriformat::ScoredGame;

/// Transposition table per worker. A few thousand nodes per move never fill it; a small table
/// is also cheap to clear before every game.
pub const HASH_MB: usize = 8;
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
/// The soft node limit of a stored position's search unless `--nodes` names one: no new
/// iteration starts past it.
pub const DEFAULT_NODES: u64 = 5000;
/// The hard node limit of a stored position's search, in per cent of the soft one, unless a
/// game's settings name their own: the iteration that crosses the soft limit is cut soon after
/// it (and the last finished one's move stands), so that a position costs about the nodes
/// asked for. Until the evening of 2 Dec 2026 (chunk s9652) it was 800 %: 8,080 nodes a
/// position at `--nodes 5000`, against 5,862 at 120 % (1.38 times the positions a second), and
/// nets trained on equal amounts of the two kinds of data played level or better for the new
/// one (docs/nets.md, the hard limit's SPRT: +15.9 ± 10.9, H1 of a non-regression test).
pub const HARD_NODES_PERCENT: u64 = 120;
/// An opening whose random plies end the game (or leave no move), or that the check search
/// finds decided, is drawn again at most this many times.
const OPENING_ATTEMPTS: u32 = 32;
/// An opening the check search scores beyond this (centipawns, either side) is already decided
/// and drawn again, as strong engines' datagen does.
pub const DECIDED_SCORE: i32 = 1000;
/// Random plies from the start position when no book is given (8 or 9 balances the sides to
/// move, as Viridithas does).
pub const RANDOM_PLIES_NO_BOOK: (u32, u32) = (8, 9);
/// Random plies after a book position.
pub const RANDOM_PLIES_BOOK: (u32, u32) = (2, 4);
/// Soft node limit of the check search when no book is given.
pub const CHECK_NODES_NO_BOOK: u64 = 4000;

/// What one game produced.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Every searched position, in game order, labelled with the result (40-byte records).
    pub records: Vec<Record>,
    /// The same game as a start position and the moves played with their scores (viriformat).
    pub game: ScoredGame,
    pub result: GameResult,
    /// Plies searched (after the opening).
    pub plies: u32,
    /// Nodes the searches of the stored positions took (what a stored position costs).
    pub nodes: u64,
    /// Stored positions whose search went past twice the soft node limit (an iteration started
    /// below the limit ran on until the hard one, or until it completed).
    pub overruns: u64,
    /// Nodes the opening's check searches took (not stored).
    pub opening_nodes: u64,
}

/// Settings of one game.
#[derive(Clone, Debug)]
pub struct GameConfig {
    pub nodes: u64,
    /// The hard node limit of a stored position's search: an iteration still running there is
    /// cut off (the best move of the last finished one stands). `None`: [`default_hard_nodes`]
    /// of `nodes`.
    pub hard_nodes: Option<u64>,
    pub random_plies: (u32, u32),
    /// Soft node limit of the search that checks an opening is not decided; 0 checks nothing.
    pub check_nodes: u64,
    /// Tablebases that end a game as soon as it reaches them just after a capture or pawn
    /// move (where their verdict is exact), with the 50-move rule.
    pub tablebases: Option<Arc<Tablebases>>,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            nodes: DEFAULT_NODES,
            hard_nodes: None,
            random_plies: RANDOM_PLIES_BOOK,
            check_nodes: 0,
            tablebases: None,
        }
    }
}

/// The hard node limit that goes with the soft limit `nodes` where none is named:
/// [`HARD_NODES_PERCENT`] of it, rounded down, never below it.
pub fn default_hard_nodes(nodes: u64) -> u64 {
    (nodes.saturating_mul(HARD_NODES_PERCENT) / 100).max(nodes)
}

/// The limits of a search to a soft node limit and a hard one (`None`: [`default_hard_nodes`]).
fn node_limits(nodes: u64, hard: Option<u64>) -> Limits {
    Limits {
        soft_nodes: Some(nodes),
        nodes: Some(hard.unwrap_or_else(|| default_hard_nodes(nodes))),
        ..Limits::default()
    }
}

/// Reads openings: one position per line, first four FEN fields (clocks reset), read as GUIs
/// write them ([`FenPolicy::Lenient`]); blank lines and `#` comments are skipped.
pub fn load_book(path: &Path) -> Result<Vec<Game>, String> {
    let lines = read_lines(path).map_err(|e| format!("cannot read {e}"))?;
    let mut games = Vec::new();
    for (n, line) in &lines {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        if fields.is_empty() || fields[0].starts_with('#') {
            continue;
        }
        let fen = format!("{} 0 1", fields.join(" "));
        let pos = read_fen(&fen, CastlingMode::Standard, FenPolicy::Lenient)
            .map_err(|e| format!("{}:{n}: {e}", path.display()))?;
        games.push(Game::new(pos, CastlingMode::Standard));
    }
    if games.is_empty() {
        return Err(format!("{}: no positions", path.display()));
    }
    // Every opening would be drawn again until it gave up: no game, and a run that ends with
    // none would still have taken its game indices. A book with some finished lines is
    // fine (those draws are simply drawn again).
    if games.iter().all(|g| g.root.legal_moves().is_empty()) {
        return Err(format!(
            "{}: every position is finished (mate or stalemate): no game can start from it",
            path.display()
        ));
    }
    Ok(games)
}

/// A book position (the start position when the book is empty) followed by random legal
/// plies, checked by a short search when `config.check_nodes` is set; `None` when every
/// attempt ran into the end of the game or a decided position.
fn opening(
    searcher: &mut Searcher,
    book: &[Game],
    config: &GameConfig,
    rng: &mut Rng,
    nodes: &mut u64,
) -> Option<Game> {
    let (lo, hi) = config.random_plies;
    'attempt: for _ in 0..OPENING_ATTEMPTS {
        let mut game = if book.is_empty() {
            Game::default()
        } else {
            book[rng.below(book.len())].clone()
        };
        let plies = lo + rng.below((hi - lo + 1) as usize) as u32;
        for _ in 0..plies {
            let moves = game.root.legal_moves();
            if moves.is_empty() {
                continue 'attempt;
            }
            game.play(moves[rng.below(moves.len())]);
        }
        if game.root.legal_moves().is_empty() {
            continue;
        }
        if config.check_nodes > 0 {
            searcher.clear();
            let outcome = searcher.run(&game, &node_limits(config.check_nodes, None));
            *nodes += outcome.nodes;
            if outcome.score.0.abs() > DECIDED_SCORE {
                continue;
            }
        }
        return Some(game);
    }
    None
}

/// The tables' verdict on `pos` where it is exact: few enough pieces, just after a capture or
/// pawn move, no castling rights. Wins and losses the 50-move rule spoils are draws.
fn tablebase_verdict(tablebases: Option<&Tablebases>, pos: &Chess) -> Option<GameResult> {
    let tb = tablebases?;
    if pos.board().occupied().count() > tb.max_pieces()
        || pos.halfmoves() != 0
        || pos.castles().any()
    {
        return None;
    }
    Some(match tb.probe_wdl(pos)? {
        Outcome::Win => GameResult::win_for(pos.turn()),
        Outcome::Loss => GameResult::win_for(!pos.turn()),
        _ => GameResult::Draw,
    })
}

/// The result of a game that has ended before its next search, by the rules (mate,
/// stalemate, insufficient material, the 50-move rule, threefold repetition), at the ply limit,
/// or by the tables' exact verdict; `None` while it goes on.
fn game_over(game: &Game, plies: u32, tablebases: Option<&Tablebases>) -> Option<GameResult> {
    let pos = &game.root;
    if pos.legal_moves().is_empty() {
        return Some(if pos.is_check() {
            GameResult::win_for(!pos.turn())
        } else {
            GameResult::Draw
        });
    }
    if pos.is_insufficient_material()
        || pos.halfmoves() >= 100
        || is_threefold(game)
        || plies >= MAX_GAME_PLIES
    {
        return Some(GameResult::Draw);
    }
    tablebase_verdict(tablebases, pos)
}

/// Adjudication from the searching side's scores: a side that keeps `WIN_SCORE` for
/// `WIN_PLIES` plies in a row has won; scores within `DRAW_SCORE` for `DRAW_PLIES` plies after
/// `DRAW_MIN_PLY` are a draw.
struct Adjudication {
    winning_plies: u32,
    /// Read only while `winning_plies` is above 0.
    winning_side: Color,
    drawish_plies: u32,
}

impl Default for Adjudication {
    fn default() -> Self {
        Adjudication {
            winning_plies: 0,
            winning_side: Color::White,
            drawish_plies: 0,
        }
    }
}

impl Adjudication {
    /// Counts the search of `pos` at `plies` that scored `score` (its side to move's view);
    /// the game's result once the scores decide it.
    fn after_search(&mut self, pos: &Chess, score: Score, plies: u32) -> Option<GameResult> {
        if score.0.abs() >= WIN_SCORE {
            let leader = if score > Score::ZERO {
                pos.turn()
            } else {
                !pos.turn()
            };
            if self.winning_plies > 0 && leader == self.winning_side {
                self.winning_plies += 1;
            } else {
                self.winning_side = leader;
                self.winning_plies = 1;
            }
        } else {
            self.winning_plies = 0;
        }
        if plies >= DRAW_MIN_PLY && score.0.abs() <= DRAW_SCORE {
            self.drawish_plies += 1;
        } else {
            self.drawish_plies = 0;
        }
        if self.winning_plies >= WIN_PLIES {
            return Some(GameResult::win_for(self.winning_side));
        }
        (self.drawish_plies >= DRAW_PLIES).then_some(GameResult::Draw)
    }
}

/// Whether the position of `game` has occurred twice before (the third time ends the game).
fn is_threefold(game: &Game) -> bool {
    game.history.iter().filter(|&&k| k == game.root_key).count() >= 2
}

/// Plays game `index` to its end with `searcher` (cleared first) and returns its positions.
pub fn play_game(
    searcher: &mut Searcher,
    book: &[Game],
    config: &GameConfig,
    seed: u64,
    index: u64,
) -> Option<GameRecord> {
    let mut rng = Rng::for_game(seed, index);
    let mut opening_nodes = 0;
    let mut game = opening(searcher, book, config, &mut rng, &mut opening_nodes)?;
    searcher.clear();
    let limits = node_limits(config.nodes, config.hard_nodes);
    let start: Chess = game.root.clone();

    let mut records = Vec::new();
    let mut played = Vec::new();
    let mut adjudication = Adjudication::default();
    let mut plies = 0;
    let (mut nodes, mut overruns) = (0, 0);
    let result = loop {
        if let Some(result) = game_over(&game, plies, config.tablebases.as_deref()) {
            break result;
        }
        let pos = &game.root;
        let outcome = searcher.run(&game, &limits);
        let Some(best) = outcome.best_move else {
            break GameResult::Draw; // unreachable: there are legal moves
        };
        let score = outcome.score;
        nodes += outcome.nodes;
        overruns += u64::from(outcome.nodes > 2 * config.nodes);

        let record = Record::new(pos, score, &best, plies, index);
        played.push((best, record.score));
        records.push(record);
        if let Some(result) = adjudication.after_search(pos, score, plies) {
            break result;
        }

        game.play(best);
        plies += 1;
    };
    for r in &mut records {
        r.result = result.white_score();
    }
    Some(GameRecord {
        records,
        game: ScoredGame {
            start,
            moves: played,
            result,
        },
        result,
        plies,
        nodes,
        overruns,
        opening_nodes,
    })
}

/// What an existing data file already holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Existing {
    pub positions: u64,
    /// One past the highest game index in the file (0 for an empty file).
    pub next_game: u64,
}

/// Counts the records of a data file's bytes and finds where game numbering goes on.
pub fn scan(bytes: &[u8]) -> Existing {
    let mut e = Existing::default();
    for chunk in bytes.chunks_exact(RECORD_BYTES) {
        e.positions += 1;
        let game = u32::from_le_bytes(chunk[36..40].try_into().unwrap());
        e.next_game = e.next_game.max(u64::from(game) + 1);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With tables, a game ends with their verdict where it is exact (just after a capture or
    /// pawn move), and never elsewhere. Skipped loudly ([`crate::testing::skip`], which fails
    /// instead under `CUTOFF_REQUIRE=shared`) only where the shared tables' folder is missing:
    /// where it exists, a loader that refused every table fails the test rather than skip it.
    #[test]
    fn tablebases_adjudicate_only_where_exact() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/syzygy");
        if !std::path::Path::new(dir).is_dir() {
            crate::testing::skip(
                "tablebases_adjudicate_only_where_exact",
                crate::testing::Need::Shared,
                &format!("no Syzygy tables at {dir}"),
            );
            return;
        }
        let (tb, loaded) = Tablebases::load(dir);
        assert!(
            loaded.tables > 0,
            "{dir} exists but no table loaded: {:?}",
            loaded.errors
        );
        let pos = |fen: &str| read_fen(fen, CastlingMode::Standard, FenPolicy::Strict).unwrap();
        let verdict = |fen: &str| tablebase_verdict(Some(&tb), &pos(fen));
        assert_eq!(
            verdict("8/8/8/8/8/3k4/8/3KQ3 b - - 0 1"),
            Some(GameResult::WhiteWins)
        );
        assert_eq!(
            verdict("8/8/8/8/8/3k4/8/3KQ3 w - - 0 1"),
            Some(GameResult::WhiteWins)
        );
        assert_eq!(verdict("8/8/8/8/8/3k4/8/3KQ3 b - - 7 40"), None);
        assert_eq!(
            verdict("8/8/8/8/3k4/8/8/2K1n3 w - - 0 1"),
            Some(GameResult::Draw)
        );
        assert_eq!(
            verdict("r3k3/8/8/8/8/8/8/4K3 w q - 0 1"),
            None,
            "castling rights"
        );
        assert_eq!(
            tablebase_verdict(None, &pos("8/8/8/8/8/3k4/8/3KQ3 b - - 0 1")),
            None
        );
    }

    /// The default hard limit caps every stored position's search near the soft one: at a
    /// soft limit of 1,000 no search runs past twice it (depth 1 always finishes, and 1,000
    /// leaves it room: at 300, a depth 1 of more than 600 nodes was met once the search's
    /// tree changed), where the rule of the chunks before s9652 (a hard limit of 8 times the
    /// soft one, named here) lets some iterations run on. The same games (seed, index) with
    /// both limits, so that the first assertion shows the overruns are there to be cut.
    #[test]
    fn the_default_hard_node_limit_cuts_the_iterations_that_run_past_the_soft_one() {
        let old_rule = GameConfig {
            nodes: 1000,
            hard_nodes: Some(8 * 1000),
            ..GameConfig::default()
        };
        let default = GameConfig {
            hard_nodes: None,
            ..old_rule.clone()
        };
        let play = |config: &GameConfig| {
            let mut searcher = Searcher::new(1);
            (0..4)
                .map(|i| play_game(&mut searcher, &[], config, 11, i).unwrap())
                .fold((0, 0, 0), |(n, o, p), g| {
                    (n + g.nodes, o + g.overruns, p + g.records.len() as u64)
                })
        };
        let (old_nodes, old_overruns, old_positions) = play(&old_rule);
        assert!(old_overruns > 0, "no search ran past 2,000 nodes");
        let (new_nodes, new_overruns, new_positions) = play(&default);
        assert_eq!(new_overruns, 0, "a search ran past the hard limit");
        assert!(
            (new_nodes as f64 / new_positions as f64) < (old_nodes as f64 / old_positions as f64)
        );
    }

    /// The default hard limit is 1.2 times the soft one (`--nodes 5000`: 6,000, the limit the
    /// nets' SPRT tested), never below it, and a named one is taken as it is.
    #[test]
    fn the_hard_node_limit_is_a_fifth_above_the_soft_one_unless_named() {
        assert_eq!(node_limits(5000, None).nodes, Some(6000));
        assert_eq!(node_limits(5000, None).soft_nodes, Some(5000));
        assert_eq!(node_limits(4, None).nodes, Some(4));
        assert_eq!(node_limits(u64::MAX, None).nodes, Some(u64::MAX));
        assert_eq!(node_limits(5000, Some(40_000)).nodes, Some(40_000));
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
