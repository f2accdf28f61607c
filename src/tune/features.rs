//! Positions as sparse coefficient vectors: given the phase and the endgame scale, the
//! evaluation is linear in its parameters, so a position is traced once ("parameter `i` counts
//! `c` times for White, net") and every epoch only multiplies and adds.

use std::path::Path;

use rayon::prelude::*;
use shakmaty::{Board, CastlingMode, Color, Position};

use crate::datagen::record::{decode_all, Record, RECORD_BYTES};
use crate::eval::classical::trace::Trace;
use crate::eval::classical::{self as eval, params, scale::SCALE_NORMAL, Taper, MAX_PHASE};
use crate::position::{read_fen, FenPolicy};

/// Expected score for White of a White-side evaluation: `1 / (1 + 10^(-k * eval / 400))`.
#[inline]
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// The tuner's parameters: every parameter's middlegame value, then every endgame value.
pub const PARAMS: usize = 2 * params::COUNT;
/// Searched plies from the opening below which a stored position is still book-like.
pub const MIN_PLY: u16 = 8;
/// Positions decoded per parallel work item.
const LOAD_CHUNK: usize = 4096;

/// The trace the tuner records: `(index, net count for White)` pairs, merged per index.
#[derive(Clone, Debug, Default)]
pub struct Sparse(pub Vec<(u16, i32)>);

impl Trace for Sparse {
    #[inline]
    fn add(&mut self, index: usize, color: Color, count: i32) {
        if count != 0 {
            let signed = if color.is_white() { count } else { -count };
            self.0.push((index as u16, signed));
        }
    }
}

impl Sparse {
    /// Sums the counts of each index and drops the ones that cancel.
    fn merged(mut self) -> Vec<(u16, i32)> {
        self.0.sort_unstable_by_key(|&(i, _)| i);
        let mut out: Vec<(u16, i32)> = Vec::with_capacity(self.0.len());
        for (i, c) in self.0 {
            match out.last_mut() {
                Some(last) if last.0 == i => last.1 += c,
                _ => out.push((i, c)),
            }
        }
        out.retain(|&(_, c)| c != 0);
        out
    }
}

/// Labelled positions, flattened: position `i` owns `entries[offsets[i]..offsets[i + 1]]`.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// White's game result: 1.0, 0.5 or 0.0.
    pub results: Vec<f32>,
    /// The search score from White's side, in centipawns (NaN where the data has none).
    pub scores: Vec<f32>,
    /// What the error compares the evaluation with: the result unless blended with the score.
    pub targets: Vec<f32>,
    /// Game phase, 0 (endgame) to `MAX_PHASE`.
    pub phases: Vec<u8>,
    /// Endgame scale under the weights the data was traced with.
    pub scales: Vec<u8>,
    pub offsets: Vec<u32>,
    /// Parameter index and its net coefficient for White.
    pub entries: Vec<(u16, i16)>,
}

/// One traced position before it joins a data set.
pub struct Traced {
    pub entries: Vec<(u16, i32)>,
    pub phase: u8,
    pub scale: u8,
}

/// Traces `board` with `turn` to move.
pub fn trace(board: &Board, turn: Color) -> Traced {
    let mut sparse = Sparse::default();
    let b = eval::traced(board, turn, &mut sparse);
    Traced {
        entries: sparse.merged(),
        phase: b.phase as u8,
        scale: b.scale as u8,
    }
}

/// The evaluation from White's side computed from a trace and integer weights, exactly as
/// `eval::breakdown` does it.
pub fn white_eval(entries: &[(u16, i16)], phase: u8, scale: u8, weights: &[Taper]) -> i32 {
    let mut sum = Taper::default();
    for &(i, c) in entries {
        sum += weights[usize::from(i)] * i32::from(c);
    }
    eval::blend(sum, i32::from(phase), i32::from(scale))
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.results.len()
    }

    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    pub fn push(&mut self, traced: &Traced, result: f32, score: f32) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.entries.extend(
            traced
                .entries
                .iter()
                .map(|&(i, c)| (i, c.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16)),
        );
        self.phases.push(traced.phase);
        self.scales.push(traced.scale);
        self.results.push(result);
        self.scores.push(score);
        self.targets.push(result);
        self.offsets.push(self.entries.len() as u32);
    }

    /// Position `i`: entries, middlegame share, endgame share (scaled), target.
    #[inline]
    pub fn get(&self, i: usize) -> (&[(u16, i16)], f64, f64, f32) {
        let range = self.offsets[i] as usize..self.offsets[i + 1] as usize;
        let phase = f64::from(self.phases[i]) / f64::from(MAX_PHASE);
        let scale = f64::from(self.scales[i]) / f64::from(SCALE_NORMAL);
        (
            &self.entries[range],
            phase,
            (1.0 - phase) * scale,
            self.targets[i],
        )
    }

    /// Appends every position of `other`.
    fn extend(&mut self, other: &Dataset) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        let base = self.entries.len() as u32;
        self.entries.extend_from_slice(&other.entries);
        self.offsets
            .extend(other.offsets.iter().skip(1).map(|o| o + base));
        self.results.extend_from_slice(&other.results);
        self.scores.extend_from_slice(&other.scores);
        self.targets.extend_from_slice(&other.targets);
        self.phases.extend_from_slice(&other.phases);
        self.scales.extend_from_slice(&other.scales);
    }

    /// Sets each target to `lambda · result + (1 − lambda) · sigmoid(k · score)`; positions
    /// without a score keep their result.
    pub fn blend(&mut self, lambda: f64, k: f64) {
        for i in 0..self.len() {
            let (r, s) = (f64::from(self.results[i]), f64::from(self.scores[i]));
            self.targets[i] = if s.is_nan() {
                r as f32
            } else {
                (lambda * r + (1.0 - lambda) * sigmoid(k, s)) as f32
            };
        }
    }

    /// Splits off every `every`-th block of `block` consecutive positions (one in `every`) as a
    /// validation set. Consecutive positions come from the same game and are close to
    /// duplicates: splitting by blocks keeps most games wholly on one side, so the validation
    /// error shows overfitting.
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
            let range = self.offsets[i] as usize..self.offsets[i + 1] as usize;
            part.entries.extend_from_slice(&self.entries[range]);
            part.phases.push(self.phases[i]);
            part.scales.push(self.scales[i]);
            part.results.push(self.results[i]);
            part.scores.push(self.scores[i]);
            part.targets.push(self.targets[i]);
            part.offsets.push(part.entries.len() as u32);
        }
        (train, validation)
    }

    /// The quiet positions of `cutoff datagen` records (see [`Record::is_quiet`]), from ply
    /// `MIN_PLY` on, in parallel.
    pub fn from_records(records: &[Record]) -> Dataset {
        let parts: Vec<Dataset> = records
            .par_chunks(LOAD_CHUNK)
            .map(|chunk| {
                let mut part = Dataset::default();
                for r in chunk.iter().filter(|r| r.is_quiet() && r.ply >= MIN_PLY) {
                    part.push(&trace(&r.board, r.turn), r.result, f32::from(r.score));
                }
                part
            })
            .collect();
        let mut data = Dataset::default();
        data.offsets.push(0);
        for p in &parts {
            data.extend(p);
        }
        data
    }

    /// Parses `<fen> | <result>` lines, in parallel (no search score).
    pub fn parse(text: &str) -> Result<Dataset, String> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        let parsed: Vec<(Traced, f32)> = lines
            .par_iter()
            .map(|&(n, line)| {
                parse_line(line)
                    .map(|(board, turn, result)| (trace(&board, turn), result))
                    .map_err(|e| format!("line {}: {e}", n + 1))
            })
            .collect::<Result<_, _>>()?;
        let mut data = Dataset::default();
        for (traced, result) in &parsed {
            data.push(traced, *result, f32::NAN);
        }
        Ok(data)
    }

    /// Loads a data file: `cutoff datagen` records, or text lines `<fen> | <result>`, read
    /// through the one rule for files (a regular file, at most [`MAX_DATA_BYTES`]).
    pub fn load(path: &Path) -> Result<Dataset, String> {
        let bytes = crate::files::read_bounded(path, MAX_DATA_BYTES, "a tuning data file")?;
        let context = |e: String| format!("{}: {e}", path.display());
        if is_text(&bytes) {
            let text = String::from_utf8(bytes).map_err(|e| context(e.to_string()))?;
            Dataset::parse(&text).map_err(context)
        } else {
            let records = decode_all(&bytes).map_err(context)?;
            Ok(Dataset::from_records(&records))
        }
    }
}

/// The largest tuning file read whole: 100 M positions of 40 bytes, far beyond what the tuner
/// has used (1.9 M); a bound on the memory a wrong path can take.
pub const MAX_DATA_BYTES: u64 = 4 << 30;

/// Whether a data file is text: a FEN line starts with a board of letters, digits and '/'.
fn is_text(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(RECORD_BYTES)];
    !head.is_empty()
        && head
            .iter()
            .all(|&b| b.is_ascii_graphic() || b == b' ' || b == b'\n' || b == b'\r')
}

/// One `<fen> | <result>` line: the board, the side to move (White if the FEN omits it) and
/// White's result. The FEN is read as hand-made data writes it ([`FenPolicy::Lenient`]); the
/// evaluation needs a playable position (both kings), so an impossible one is an error.
pub fn parse_line(line: &str) -> Result<(Board, Color, f32), String> {
    let (fen, result) = line.rsplit_once('|').ok_or("no '|'")?;
    let result: f32 = match result.trim() {
        "1.0" | "1" => 1.0,
        "0.5" | "1/2" => 0.5,
        "0.0" | "0" => 0.0,
        other => return Err(format!("bad result '{other}'")),
    };
    if fen.trim().is_empty() {
        return Err("no FEN".into());
    }
    let pos = read_fen(fen, CastlingMode::Standard, FenPolicy::Lenient)?;
    Ok((pos.board().clone(), pos.turn(), result))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_terms_of_the_start_position_cancel_except_tempo() {
        let t = trace(&Board::default(), Color::White);
        assert_eq!(t.entries, vec![(params::TEMPO as u16, 1)]);
        assert_eq!(i32::from(t.phase), MAX_PHASE);
    }

    #[test]
    fn split_holds_out_whole_blocks_and_loses_nothing() {
        let mut data = Dataset::default();
        let t = trace(&Board::default(), Color::White);
        for i in 0..100 {
            data.push(&t, [0.0, 0.5, 1.0][i % 3], 0.0);
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
        let (_, turn, r) = parse_line("4k3/8/8/8/8/8/8/4K3 b - - 0 1 | 1.0").unwrap();
        assert_eq!((turn, r), (Color::Black, 1.0));
        let (_, _, r) = parse_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0.5").unwrap();
        assert_eq!(r, 0.5);
        assert!(parse_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 2").is_err());
        assert!(parse_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1").is_err());
        // Only the board given: White to move; stray castling rights are dropped.
        let (_, turn, _) = parse_line("4k3/8/8/8/8/8/8/4K3 | 0").unwrap();
        assert_eq!(turn, Color::White);
        assert!(parse_line("4k3/8/8/8/8/8/8/4K3 b KQkq - 0 1 | 0").is_ok());
        // No king to evaluate around, or no FEN at all.
        assert!(parse_line("8/8/8/8/8/8/8/4K3 w - - 0 1 | 0").is_err());
        assert!(parse_line(" | 0").is_err());
    }

    #[test]
    fn blending_mixes_result_and_score() {
        let mut data = Dataset::default();
        let t = trace(&Board::default(), Color::White);
        data.push(&t, 1.0, 0.0);
        data.push(&t, 0.0, f32::NAN);
        data.blend(0.25, 1.0);
        assert!((data.targets[0] - (0.25 + 0.75 * 0.5)).abs() < 1e-6);
        assert_eq!(data.targets[1], 0.0);
    }
}
