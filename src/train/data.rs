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
use crate::eval::nnue::format::{self, fnv1a, other_view, Layout, INPUTS, MAX_PIECES};

/// One game in this many goes to validation.
pub const VALIDATION_ONE_IN: u64 = 20;

/// [`Sample::packed`]'s bits above the piece count (at most 32: six bits).
const COUNT_BITS: u8 = 0x3f;
/// The sample's inputs are mirrored ([`Layout::Mirrored`], with or without king buckets).
const MIRRORED_INPUTS: u8 = 0x40;
/// With mirrored inputs, the opponent's king stands on the other half (files a-d or e-h) from
/// the side to move's: its view is flipped left to right against the side to move's.
const VIEWS_DIFFER: u8 = 0x80;
/// [`Sample::result_buckets`]'s low two bits: the result in halves (0, 1, 2).
const RESULT_BITS: u8 = 0x03;
/// Where the side to move's king bucket starts in [`Sample::result_buckets`] (two bits), and
/// the opponent's (two bits) after it: 0 without king buckets.
const STM_BUCKET_SHIFT: u8 = 2;
const NSTM_BUCKET_SHIFT: u8 = 4;

/// One position as the trainer learns from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The side to move's input indices ([`format::input`], in the sample's layout); the
    /// count are used. The opponent's are derived ([`other_view`] of the side to move's
    /// feature, flipped left to right where its king's half is not the side to move's, in its
    /// own king bucket's inputs), which halves the memory.
    features: [u16; MAX_PIECES],
    /// The count of features (pieces) in the low six bits, [`MIRRORED_INPUTS`] and
    /// [`VIEWS_DIFFER`] above them: packed, so that a sample stays 68 bytes.
    packed: u8,
    /// The game's result for the side to move in the low two bits, in halves (0 loss, 1 draw,
    /// 2 win), then the two sides' king buckets (side to move first, two bits each; 0
    /// without king buckets): packed for the same reason.
    result_buckets: u8,
    /// The stored search score, centipawns, side to move's view.
    score: i16,
}

impl Sample {
    /// `pos` with its search score from White's side and the game's result, its inputs seen
    /// as a net of `layout` sees them.
    pub fn new(pos: &Chess, white_score: i16, result: GameResult, layout: Layout) -> Sample {
        let stm = pos.turn();
        let board = pos.board();
        let king = |side| board.king_of(side).unwrap_or(shakmaty::Square::A1);
        let (ours, theirs) = (king(stm), king(!stm));
        let mut features = [0u16; MAX_PIECES];
        let mut count = 0;
        for (sq, piece) in board.iter().take(MAX_PIECES) {
            features[count] = format::input(layout, stm, ours, piece.color, piece.role, sq) as u16;
            count += 1;
        }
        let mut packed = count as u8;
        if layout.king_relative() {
            packed |= MIRRORED_INPUTS;
        }
        if layout.flip(ours) != layout.flip(theirs) {
            packed |= VIEWS_DIFFER;
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
        let buckets = (layout.king_bucket(stm, ours) as u8) << STM_BUCKET_SHIFT
            | (layout.king_bucket(!stm, theirs) as u8) << NSTM_BUCKET_SHIFT;
        Sample {
            features,
            packed,
            result_buckets: result | buckets,
            score,
        }
    }

    /// The same position mirrored left to right (file a <-> h): the evaluation is blind to that
    /// mirror (castling rights are not inputs), so with plain inputs it is a second, different
    /// training example of the same knowledge (the feature index's low three bits are the
    /// file). With mirrored inputs it is the sample itself: each side's king changes half, so
    /// each view's flip turns back what the mirror turned.
    pub fn mirrored(&self) -> Sample {
        if self.packed & MIRRORED_INPUTS != 0 {
            return *self;
        }
        let mut m = *self;
        for f in &mut m.features[..self.count()] {
            *f = format::mirrored(usize::from(*f)) as u16;
        }
        m
    }

    /// How many features (pieces) there are.
    #[inline]
    fn count(&self) -> usize {
        usize::from(self.packed & COUNT_BITS)
    }

    /// The side to move's active inputs.
    #[inline]
    pub fn stm_features(&self) -> impl Iterator<Item = usize> + '_ {
        self.features[..self.count()]
            .iter()
            .map(|&f| usize::from(f))
    }

    /// The opponent's active inputs: the side to move's seen from the other side, flipped
    /// left to right where the two kings' halves differ (mirrored inputs only), moved from
    /// the side to move's king bucket's inputs to the opponent's (king buckets only).
    #[inline]
    pub fn nstm_features(&self) -> impl Iterator<Item = usize> + '_ {
        let flip = if self.packed & VIEWS_DIFFER != 0 {
            7
        } else {
            0
        };
        let bucket = |shift: u8| INPUTS * usize::from((self.result_buckets >> shift) & 3);
        let (ours, theirs) = (bucket(STM_BUCKET_SHIFT), bucket(NSTM_BUCKET_SHIFT));
        self.stm_features()
            .map(move |f| (other_view(f - ours) ^ flip) + theirs)
    }

    /// Pieces on the board, kings included: what picks the output bucket.
    #[inline]
    pub fn pieces(&self) -> u32 {
        self.count() as u32
    }

    /// The game's result for the side to move: 1, 0.5 or 0.
    #[inline]
    pub fn result(&self) -> f32 {
        f32::from(self.result_buckets & RESULT_BITS) / 2.0
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

/// Reads one chunk, at most `limit` kept positions, their inputs in `layout`.
fn load_chunk(path: &Path, filter: Filter, limit: usize, layout: Layout) -> ChunkSamples {
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
                let sample = Sample::new(&p.pos, p.white_score, p.result, layout);
                out.samples.push((held_out, sample));
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
/// ones in chunk order), their inputs as a net of `layout` sees them. The result is the same
/// whatever the thread count.
pub fn load(
    paths: &[PathBuf],
    filter: Filter,
    max_positions: Option<usize>,
    layout: Layout,
) -> Loaded {
    let (chunks, mut problems) = chunk_paths(paths);
    let limit = max_positions.unwrap_or(usize::MAX);
    let per_chunk: Vec<ChunkSamples> = chunks
        .par_iter()
        .map(|path| load_chunk(path, filter, limit, layout))
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
        let s = Sample::new(&pos, 40, GameResult::WhiteWins, Layout::Plain);
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
            Sample::new(&pos, 25, GameResult::Draw, Layout::Plain).mirrored(),
            Sample::new(&flipped, 25, GameResult::Draw, Layout::Plain),
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
            sorted(&mut Sample::new(&pos, 25, GameResult::Draw, Layout::Plain).stm_features())
        );
    }

    #[test]
    fn the_validation_split_keeps_about_one_game_in_twenty() {
        let held = (0..20_000)
            .filter(|&g| is_validation_game("a.vf", g))
            .count();
        assert!((800..1200).contains(&held), "{held}");
    }

    /// With mirrored inputs (with and without king buckets) each side's view is flipped by its
    /// own king: the side to move's stored features and the opponent's derived ones are the
    /// format's inputs for each side, with the kings on the same half and on different halves
    /// and in the same or different king buckets; and a sample's mirror is the sample itself,
    /// which is the sample of the mirrored position.
    #[test]
    fn a_mirrored_inputs_sample_flips_each_view_by_its_own_king() {
        for layout in [Layout::Mirrored, Layout::MirroredKingBuckets] {
            mirrored_inputs_sample_flips_each_view_by_its_own_king(layout);
        }
    }

    fn mirrored_inputs_sample_flips_each_view_by_its_own_king(layout: Layout) {
        let parse = |fen: &str| -> Chess {
            fen.parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap()
        };
        let sorted = |it: &mut dyn Iterator<Item = usize>| {
            let mut v: Vec<usize> = it.collect();
            v.sort_unstable();
            v
        };
        for (fen, differ) in [
            (
                "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b - - 0 8",
                false,
            ),
            ("2kr3r/ppp2ppp/8/8/8/8/PP3PPP/R5K1 w - - 0 30", true),
            ("2kr3r/ppp2ppp/8/8/8/8/PP3PPP/2KR4 b - - 0 30", false),
            ("8/5pk1/6p1/8/8/6P1/1K3P2/3R4 w - - 0 40", true),
            ("8/8/4k3/8/2p5/8/3K4/8 b - - 0 50", true),
            ("8/8/8/8/2p5/5k2/3K4/8 w - - 0 50", true),
        ] {
            let pos = parse(fen);
            let s = Sample::new(&pos, 0, GameResult::Draw, layout);
            let board = pos.board();
            let view = |side: shakmaty::Color| -> Vec<usize> {
                let king = board.king_of(side).unwrap();
                let mut v: Vec<usize> = board
                    .iter()
                    .map(|(sq, p)| format::input(layout, side, king, p.color, p.role, sq))
                    .collect();
                v.sort_unstable();
                v
            };
            assert_eq!(sorted(&mut s.stm_features()), view(pos.turn()), "{fen}");
            assert_eq!(sorted(&mut s.nstm_features()), view(!pos.turn()), "{fen}");
            assert_eq!(s.packed & VIEWS_DIFFER != 0, differ, "{fen}");
            assert_eq!(s.mirrored(), s);
            let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
            setup.board.flip_horizontal();
            let twin: Chess =
                shakmaty::FromSetup::from_setup(setup, shakmaty::CastlingMode::Standard).unwrap();
            let t = Sample::new(&twin, 0, GameResult::Draw, layout);
            assert_eq!(sorted(&mut t.stm_features()), sorted(&mut s.stm_features()));
            assert_eq!(
                sorted(&mut t.nstm_features()),
                sorted(&mut s.nstm_features())
            );
        }
        assert_eq!(std::mem::size_of::<Sample>(), 68);
    }
}
