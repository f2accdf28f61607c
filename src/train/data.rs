//! The training positions in memory: each one as the feature indices of its pieces from the side
//! to move's view, its score and its result, in 68 bytes (3.6 M positions take about 250 MB), so
//! that an epoch reads memory, not files. Loaded from chunks of both formats through datagen's
//! one chunk reader and filter, and split into training and validation **by game**: positions of
//! one game are near copies of each other, and a split by position would measure memory.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use shakmaty::{Chess, Position};

use crate::datagen::chunk::{chunk_paths, ChunkReader};
use crate::datagen::positions::{game_positions, Filter};
use crate::datagen::GameResult;
use crate::eval::nnue::format::{self, fnv1a, other_view, MAX_PIECES};

/// One game in this many goes to validation.
pub const VALIDATION_ONE_IN: u64 = 20;

/// One position as the trainer learns from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The side to move's feature indices; `count` are used. The opponent's are derived
    /// ([`other_view`]), which halves the memory.
    features: [u16; MAX_PIECES],
    count: u8,
    /// The game's result for the side to move, in halves: 0 loss, 1 draw, 2 win.
    result: u8,
    /// The stored search score, centipawns, side to move's view.
    score: i16,
}

impl Sample {
    /// `pos` with its search score from White's side and the game's result.
    pub fn new(pos: &Chess, white_score: i16, result: GameResult) -> Sample {
        let stm = pos.turn();
        let mut features = [0u16; MAX_PIECES];
        let mut count = 0;
        for (sq, piece) in pos.board().iter().take(MAX_PIECES) {
            features[count] = format::feature(stm, piece.color, piece.role, sq) as u16;
            count += 1;
        }
        let white_halves = match result {
            GameResult::WhiteWins => 2,
            GameResult::Draw => 1,
            GameResult::BlackWins => 0,
        };
        let (result, score) = if stm.is_white() {
            (white_halves, white_score)
        } else {
            (2 - white_halves, white_score.saturating_neg())
        };
        Sample {
            features,
            count: count as u8,
            result,
            score,
        }
    }

    /// The same position mirrored left to right (file a <-> h): the evaluation is blind to that
    /// mirror (castling rights are not inputs), so it is a second, different training example
    /// of the same knowledge. The feature index's low three bits are the file.
    pub fn mirrored(&self) -> Sample {
        let mut m = *self;
        for f in &mut m.features[..usize::from(self.count)] {
            *f = format::mirrored(usize::from(*f)) as u16;
        }
        m
    }

    /// The side to move's active inputs.
    #[inline]
    pub fn stm_features(&self) -> impl Iterator<Item = usize> + '_ {
        self.features[..usize::from(self.count)]
            .iter()
            .map(|&f| usize::from(f))
    }

    /// The opponent's active inputs.
    #[inline]
    pub fn nstm_features(&self) -> impl Iterator<Item = usize> + '_ {
        self.stm_features().map(other_view)
    }

    /// Pieces on the board, kings included: what picks the output bucket.
    #[inline]
    pub fn pieces(&self) -> u32 {
        u32::from(self.count)
    }

    /// The game's result for the side to move: 1, 0.5 or 0.
    #[inline]
    pub fn result(&self) -> f32 {
        f32::from(self.result) / 2.0
    }

    /// The stored search score, side to move's view, centipawns.
    #[inline]
    pub fn score(&self) -> f32 {
        f32::from(self.score)
    }
}

/// What loading found.
#[derive(Debug, Default)]
pub struct Loaded {
    pub train: Vec<Sample>,
    pub validation: Vec<Sample>,
    /// Chunk files read.
    pub chunks: usize,
    pub games: u64,
    /// Positions read before the filter.
    pub positions: u64,
    /// Unreadable paths, torn or corrupt chunk tails (the whole games before them count).
    pub problems: Vec<String>,
    /// Inputs missing, unreadable or not data (a tail problem is not one): `cutoff train`
    /// refuses to train when there are any, rather than train on less than it was given.
    pub failed: usize,
}

/// One chunk's kept positions in game order, each marked for validation or not.
#[derive(Default)]
struct ChunkSamples {
    samples: Vec<(bool, Sample)>,
    games: u64,
    positions: u64,
    problems: Vec<String>,
    failed: bool,
}

/// Whether game `game` of the chunk named `name` is held out. Keyed on the file's name, not its
/// path, so the same file read from elsewhere splits the same way.
pub fn is_validation_game(name: &str, game: u64) -> bool {
    let mut key = name.as_bytes().to_vec();
    key.extend_from_slice(&game.to_le_bytes());
    fnv1a(&key).is_multiple_of(VALIDATION_ONE_IN)
}

/// Reads one chunk, at most `limit` kept positions.
fn load_chunk(path: &Path, filter: Filter, limit: usize) -> ChunkSamples {
    let mut out = ChunkSamples::default();
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let reader = match ChunkReader::open(path) {
        Ok(r) => r,
        Err(e) => {
            out.problems.push(e.to_string());
            out.failed = true;
            return out;
        }
    };
    for (game_number, game) in reader.enumerate() {
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                out.failed = e.is_fatal();
                out.problems.push(e.to_string());
                break;
            }
        };
        out.games += 1;
        let held_out = is_validation_game(&name, game_number as u64);
        for p in game_positions(&game) {
            out.positions += 1;
            if filter.passes_position(&p) {
                out.samples
                    .push((held_out, Sample::new(&p.pos, p.white_score, p.result)));
            }
        }
        if out.samples.len() >= limit {
            out.samples.truncate(limit);
            break;
        }
    }
    out
}

/// Loads every chunk of `paths` (files, or folders by their `.vf` and `.bin` files) in
/// parallel, keeping the positions `filter` passes, at most `max_positions` in all (the first
/// ones in chunk order). The result is the same whatever the thread count.
pub fn load(paths: &[PathBuf], filter: Filter, max_positions: Option<usize>) -> Loaded {
    let (chunks, mut problems) = chunk_paths(paths);
    let limit = max_positions.unwrap_or(usize::MAX);
    let per_chunk: Vec<ChunkSamples> = chunks
        .par_iter()
        .map(|path| load_chunk(path, filter, limit))
        .collect();
    let mut loaded = Loaded {
        chunks: chunks.len(),
        failed: problems.len(),
        ..Loaded::default()
    };
    let mut kept = 0;
    for chunk in per_chunk {
        loaded.games += chunk.games;
        loaded.positions += chunk.positions;
        problems.extend(chunk.problems);
        loaded.failed += usize::from(chunk.failed);
        for (held_out, sample) in chunk.samples {
            if kept == limit {
                break;
            }
            kept += 1;
            if held_out {
                loaded.validation.push(sample);
            } else {
                loaded.train.push(sample);
            }
        }
    }
    loaded.problems = problems;
    loaded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_is_seen_from_the_side_to_move() {
        let pos: Chess = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let s = Sample::new(&pos, 40, GameResult::WhiteWins);
        assert_eq!(s.score(), -40.0);
        assert_eq!(s.result(), 0.0);
        assert_eq!(s.stm_features().count(), 32);
        // Black to move: Black's own e7 pawn is seen on e2 of the flipped board.
        assert!(s.stm_features().any(|f| f == 12));
        // White's e4 pawn, from White's view, is an own pawn on e4.
        assert!(s.nstm_features().any(|f| f == 28));
    }

    #[test]
    fn a_mirrored_sample_is_the_sample_of_the_mirrored_position() {
        let parse = |fen: &str| -> Chess {
            fen.parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap()
        };
        let pos = parse("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b - - 0 8");
        let flipped = parse("1kr1qb1r/pppb2pp/2np1n2/4p3/4PP2/2NP1N2/PPP3PP/R1BKQ2R b - - 0 8");
        let (a, b) = (
            Sample::new(&pos, 25, GameResult::Draw).mirrored(),
            Sample::new(&flipped, 25, GameResult::Draw),
        );
        let sorted = |it: &mut dyn Iterator<Item = usize>| {
            let mut v: Vec<usize> = it.collect();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&mut a.stm_features()), sorted(&mut b.stm_features()));
        assert_eq!(
            sorted(&mut a.nstm_features()),
            sorted(&mut b.nstm_features())
        );
        assert_eq!((a.score(), a.result()), (b.score(), b.result()));
        assert_ne!(
            sorted(&mut a.stm_features()),
            sorted(&mut Sample::new(&pos, 25, GameResult::Draw).stm_features())
        );
    }

    #[test]
    fn the_validation_split_keeps_about_one_game_in_twenty() {
        let held = (0..20_000)
            .filter(|&g| is_validation_game("a.vf", g))
            .count();
        assert!((800..1200).contains(&held), "{held}");
    }
}
