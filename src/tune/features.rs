//! Positions as sparse feature vectors: given the phase, the evaluation is linear in its
//! parameters, so a position is stored once as "which table entries count, with which sign" and
//! every epoch only multiplies and adds.

use std::path::Path;

use rayon::prelude::*;
use shakmaty::{Board, Color};

use crate::eval::pst::{self, Taper, MAX_PHASE};

/// Table entries per half (middlegame or endgame): one per role and square.
pub const ENTRIES: usize = 6 * 64;
/// The tuner's parameters: every entry's middlegame value, then every entry's endgame value.
pub const PARAMS: usize = 2 * ENTRIES;
/// Set on a feature that counts against White (a Black piece).
const NEGATIVE: u16 = 1 << 15;
/// A board holds at most 32 pieces.
const MAX_PIECES: usize = 32;

/// Labelled positions, flattened: position `i` owns `features[offsets[i]..offsets[i + 1]]`.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// White's game result: 1.0, 0.5 or 0.0.
    pub results: Vec<f32>,
    /// Game phase, 0 (endgame) to `MAX_PHASE`.
    pub phases: Vec<u8>,
    pub offsets: Vec<u32>,
    /// Entry index `role * 64 + square` (from the owner's side), `NEGATIVE` set for Black.
    pub features: Vec<u16>,
}

/// The entry a feature refers to and its sign (+1 White, -1 Black).
#[inline]
pub fn decode(feature: u16) -> (usize, f64) {
    let index = usize::from(feature & !NEGATIVE);
    let sign = if feature & NEGATIVE != 0 { -1.0 } else { 1.0 };
    (index, sign)
}

/// The features of `board` and its phase. A White and a Black piece on mirrored squares cancel
/// and are left out.
pub fn extract(board: &Board, out: &mut Vec<u16>) -> u8 {
    let mut scratch = arrayvec::ArrayVec::<u16, MAX_PIECES>::new();
    let mut phase = 0;
    for (square, piece) in board {
        let role = piece.role as usize - 1;
        let (sq, flag) = match piece.color {
            Color::White => (usize::from(square), 0),
            Color::Black => (usize::from(square) ^ 56, NEGATIVE),
        };
        scratch.push((role * 64 + sq) as u16 | flag);
        phase += pst::phase_weight(piece.role);
    }
    scratch.sort_unstable_by_key(|f| f & !NEGATIVE);
    let mut i = 0;
    while i < scratch.len() {
        let same_entry =
            i + 1 < scratch.len() && scratch[i] & !NEGATIVE == scratch[i + 1] & !NEGATIVE;
        if same_entry {
            // One piece of each colour: they cancel.
            i += 2;
        } else {
            out.push(scratch[i]);
            i += 1;
        }
    }
    phase.min(MAX_PHASE) as u8
}

/// The evaluation from White's side computed from features and an integer table, exactly as
/// `eval::breakdown` does it.
pub fn white_eval(features: &[u16], phase: u8, table: &[[Taper; 64]; 6]) -> i32 {
    let (mut mg, mut eg) = (0, 0);
    for &f in features {
        let (index, sign) = decode(f);
        let t = table[index / 64][index % 64];
        let sign = sign as i32;
        mg += sign * t.mg;
        eg += sign * t.eg;
    }
    let phase = i32::from(phase);
    (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.results.len()
    }

    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    pub fn push(&mut self, board: &Board, result: f32) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        let phase = extract(board, &mut self.features);
        self.phases.push(phase);
        self.results.push(result);
        self.offsets.push(self.features.len() as u32);
    }

    /// Position `i`: features, phase, result.
    #[inline]
    pub fn get(&self, i: usize) -> (&[u16], u8, f32) {
        let range = self.offsets[i] as usize..self.offsets[i + 1] as usize;
        (&self.features[range], self.phases[i], self.results[i])
    }

    /// Parses `<fen> | <result>` lines (as `cutoff datagen` writes them), in parallel.
    pub fn parse(text: &str) -> Result<Dataset, String> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        let parsed: Vec<(Board, f32)> = lines
            .par_iter()
            .map(|&(n, line)| parse_line(line).map_err(|e| format!("line {}: {e}", n + 1)))
            .collect::<Result<_, _>>()?;
        let mut data = Dataset::default();
        for (board, result) in &parsed {
            data.push(board, *result);
        }
        Ok(data)
    }

    /// Splits off every `every`-th block of `block` consecutive positions (one in `every`, about
    /// `1 / every` of the data) as a validation set. Consecutive lines come from the same game,
    /// and positions of one game are close to duplicates of each other: splitting by blocks keeps
    /// most games wholly on one side, so the validation error shows overfitting.
    pub fn split(&self, every: usize, block: usize) -> (Dataset, Dataset) {
        let (mut train, mut validation) = (Dataset::default(), Dataset::default());
        train.offsets.push(0);
        validation.offsets.push(0);
        for i in 0..self.len() {
            let part = if every > 0 && (i / block.max(1)).is_multiple_of(every) {
                &mut validation
            } else {
                &mut train
            };
            let (features, phase, result) = self.get(i);
            part.features.extend_from_slice(features);
            part.phases.push(phase);
            part.results.push(result);
            part.offsets.push(part.features.len() as u32);
        }
        (train, validation)
    }

    pub fn load(path: &Path) -> Result<Dataset, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Dataset::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// One `<fen> | <result>` line: the board (the only part the evaluation reads) and the result.
pub fn parse_line(line: &str) -> Result<(Board, f32), String> {
    let (fen, result) = line.rsplit_once('|').ok_or("no '|'")?;
    let result: f32 = match result.trim() {
        "1.0" | "1" => 1.0,
        "0.5" | "1/2" => 0.5,
        "0.0" | "0" => 0.0,
        other => return Err(format!("bad result '{other}'")),
    };
    let board_field = fen.split_whitespace().next().ok_or("no FEN")?;
    let board = Board::from_ascii_board_fen(board_field.as_bytes())
        .map_err(|e| format!("bad FEN '{}': {e}", fen.trim()))?;
    Ok((board, result))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrored_pieces_of_both_colours_cancel() {
        let mut out = Vec::new();
        let phase = extract(&shakmaty::Board::default(), &mut out);
        assert!(out.is_empty(), "{out:?}");
        assert_eq!(i32::from(phase), MAX_PHASE);
    }

    #[test]
    fn split_holds_out_whole_blocks_and_loses_nothing() {
        let mut data = Dataset::default();
        for i in 0..100 {
            data.push(&Board::default(), [0.0, 0.5, 1.0][i % 3]);
        }
        let (train, validation) = data.split(4, 10);
        assert_eq!(train.len() + validation.len(), 100);
        // Blocks 0, 4 and 8 (positions 0-9, 40-49, 80-89) are held out.
        assert_eq!(validation.len(), 30);
        assert_eq!(validation.results[10..13], data.results[40..43]);
        assert_eq!(train.results[..3], data.results[10..13]);
        let (all, none) = data.split(0, 10);
        assert_eq!((all.len(), none.len()), (100, 0));
    }

    #[test]
    fn lines_parse_with_any_result_spelling() {
        let (_, r) = parse_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 1.0").unwrap();
        assert_eq!(r, 1.0);
        let (_, r) = parse_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0.5").unwrap();
        assert_eq!(r, 0.5);
        assert!(parse_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 2").is_err());
        assert!(parse_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1").is_err());
    }
}
