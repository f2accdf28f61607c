//! The evaluation's parameters as Rust source: `src/eval/weights.rs` is written (and read back)
//! here, so that a tuning run changes the engine by replacing one generated file.

use crate::eval::pst::{Taper, TABLE};
use crate::eval::weights;

/// Role names as the generated constants spell them, in `Role` order.
pub const ROLE_NAMES: [&str; 6] = ["PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING"];
const PAWN: usize = 0;
const KING: usize = 5;
/// Squares a pawn can stand on (ranks 2 to 7), a1 = 0.
const PAWN_SQUARES: std::ops::Range<usize> = 8..56;
/// Marks the line of the header that names what produced the file.
const SOURCE_PREFIX: &str = "//! Source: ";

/// Material and placement values as the engine's source holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    pub material: [Taper; 6],
    /// Middlegame placement `[role][square]`, a1 = 0, from the piece owner's side.
    pub mg: [[i32; 64]; 6],
    /// Endgame placement, indexed like `mg`.
    pub eg: [[i32; 64]; 6],
}

/// Table rows are written rank 8 first; this maps between the written index and the square.
const fn written(index: usize) -> usize {
    index ^ 56
}

impl Weights {
    /// The weights compiled into this engine.
    pub fn current() -> Weights {
        let mg_written = [
            &weights::PAWN_MG,
            &weights::KNIGHT_MG,
            &weights::BISHOP_MG,
            &weights::ROOK_MG,
            &weights::QUEEN_MG,
            &weights::KING_MG,
        ];
        let eg_written = [
            &weights::PAWN_EG,
            &weights::KNIGHT_EG,
            &weights::BISHOP_EG,
            &weights::ROOK_EG,
            &weights::QUEEN_EG,
            &weights::KING_EG,
        ];
        let mut w = Weights {
            material: weights::MATERIAL,
            mg: [[0; 64]; 6],
            eg: [[0; 64]; 6],
        };
        for role in 0..6 {
            for sq in 0..64 {
                w.mg[role][sq] = mg_written[role][written(sq)];
                w.eg[role][sq] = eg_written[role][written(sq)];
            }
        }
        w
    }

    /// Material plus placement per role and square: what the evaluation adds up (equal to
    /// `pst::TABLE` for [`Weights::current`]).
    pub fn combined(&self) -> [[Taper; 64]; 6] {
        let mut table = [[Taper::default(); 64]; 6];
        for (role, row) in table.iter_mut().enumerate() {
            for (sq, t) in row.iter_mut().enumerate() {
                t.mg = self.material[role].mg + self.mg[role][sq];
                t.eg = self.material[role].eg + self.eg[role][sq];
            }
        }
        table
    }

    /// Splits fitted per-square totals (`[mg; 384]` then `[eg; 384]`, index `role * 64 +
    /// square`) back into material and placement.
    ///
    /// Only the totals affect the evaluation; the split is a presentation choice. The placement
    /// tables keep the average they have in `start` (over the squares the role can stand on) and
    /// material absorbs the rest, so a run that changes nothing writes `start` back unchanged.
    /// Both kings are always on the board, so a constant added to the whole king table cancels
    /// out: the fit cannot see it, and it is removed by keeping the king table's average too.
    pub fn from_totals(totals: &[f64], start: &Weights) -> Weights {
        assert_eq!(totals.len(), 2 * 6 * 64);
        let start_totals = start.combined();
        let mut w = start.clone();
        for role in 0..6 {
            let squares = if role == PAWN { PAWN_SQUARES } else { 0..64 };
            for (half, is_mg) in [(0, true), (1, false)] {
                let total = |sq: usize| totals[half * 384 + role * 64 + sq];
                let start_total = |sq: usize| {
                    let t = start_totals[role][sq];
                    f64::from(if is_mg { t.mg } else { t.eg })
                };
                let shift = squares
                    .clone()
                    .map(|sq| total(sq) - start_total(sq))
                    .sum::<f64>()
                    / squares.len() as f64;
                let start_material = if is_mg {
                    start.material[role].mg
                } else {
                    start.material[role].eg
                };
                let material = if role == KING {
                    start_material
                } else {
                    (f64::from(start_material) + shift).round() as i32
                };
                // The king's shift is invisible to the fit: drop it.
                let drop = if role == KING { shift } else { 0.0 };
                let table = if is_mg { &mut w.mg } else { &mut w.eg };
                for (sq, entry) in table[role].iter_mut().enumerate() {
                    *entry = if squares.contains(&sq) {
                        (total(sq) - drop).round() as i32 - material
                    } else {
                        0
                    };
                }
                if is_mg {
                    w.material[role].mg = material;
                } else {
                    w.material[role].eg = material;
                }
            }
        }
        w
    }

    /// The Rust source of `src/eval/weights.rs`; `source` names what produced it (the exact
    /// command line of a tuning run).
    pub fn render(&self, source: &str) -> String {
        let mut s = String::new();
        s.push_str(
            "//! Evaluation weights: material and middlegame/endgame piece-square tables.\n\
             //!\n\
             //! Generated by `cutoff tune`; do not edit by hand (docs/tuning.md says how to\n\
             //! regenerate it).\n",
        );
        s.push_str(SOURCE_PREFIX);
        s.push_str(source);
        s.push('\n');
        s.push_str(
            "//!\n\
             //! Tables are written as White sees the board: the first row is rank 8, the last row\n\
             //! rank 1. Each entry is added to its role's `MATERIAL` value; Black pieces use the\n\
             //! vertically mirrored square.\n\
             \n\
             use super::pst::Taper;\n\
             \n\
             /// Piece values by role (pawn, knight, bishop, rook, queen, king).\n\
             #[rustfmt::skip]\n\
             pub const MATERIAL: [Taper; 6] = [\n",
        );
        for t in &self.material {
            s.push_str(&format!("    Taper {{ mg: {}, eg: {} }},\n", t.mg, t.eg));
        }
        s.push_str("];\n");
        for (role, name) in ROLE_NAMES.iter().enumerate() {
            for (suffix, table) in [("MG", &self.mg), ("EG", &self.eg)] {
                s.push_str(&format!(
                    "\n#[rustfmt::skip]\npub const {name}_{suffix}: [i32; 64] = [\n"
                ));
                for rank_row in 0..8 {
                    s.push_str("   ");
                    for file in 0..8 {
                        let v = table[role][written(rank_row * 8 + file)];
                        s.push_str(&format!(" {v:>4},"));
                    }
                    s.push('\n');
                }
                s.push_str("];\n");
            }
        }
        s
    }

    /// Reads back what [`Weights::render`] wrote: the weights and the source line.
    pub fn parse(text: &str) -> Result<(Weights, String), String> {
        let source = text
            .lines()
            .find_map(|l| l.strip_prefix(SOURCE_PREFIX))
            .ok_or("no source line")?
            .to_string();
        let numbers = |name: &str| -> Result<Vec<i32>, String> {
            let start = text
                .find(&format!("pub const {name}:"))
                .ok_or(format!("no {name}"))?;
            let body = &text[start..];
            let open = body.find("= [").ok_or(format!("{name}: no '= ['"))? + 3;
            let close = body.find("];").ok_or(format!("{name}: no '];'"))?;
            body[open..close]
                .split(|c: char| !(c.is_ascii_digit() || c == '-'))
                .filter(|t| !t.is_empty())
                .map(|t| t.parse().map_err(|e| format!("{name}: {t}: {e}")))
                .collect()
        };
        let mut w = Weights {
            material: [Taper::default(); 6],
            mg: [[0; 64]; 6],
            eg: [[0; 64]; 6],
        };
        let material = numbers("MATERIAL")?;
        if material.len() != 12 {
            return Err(format!("MATERIAL: {} numbers, not 12", material.len()));
        }
        for role in 0..6 {
            w.material[role] = Taper {
                mg: material[2 * role],
                eg: material[2 * role + 1],
            };
        }
        for (role, name) in ROLE_NAMES.iter().enumerate() {
            for (suffix, table) in [("MG", &mut w.mg), ("EG", &mut w.eg)] {
                let values = numbers(&format!("{name}_{suffix}"))?;
                if values.len() != 64 {
                    return Err(format!("{name}_{suffix}: {} numbers, not 64", values.len()));
                }
                for (index, v) in values.into_iter().enumerate() {
                    table[role][written(index)] = v;
                }
            }
        }
        Ok((w, source))
    }
}

/// The per-square totals the evaluation uses, as the tuner's parameter vector (`[mg; 384]` then
/// `[eg; 384]`, index `role * 64 + square`).
pub fn current_totals() -> Vec<f64> {
    let mut p = vec![0.0; 2 * 6 * 64];
    for role in 0..6 {
        for sq in 0..64 {
            p[role * 64 + sq] = f64::from(TABLE[role][sq].mg);
            p[384 + role * 64 + sq] = f64::from(TABLE[role][sq].eg);
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMITTED: &str = include_str!("../eval/weights.rs");

    #[test]
    fn committed_weights_file_regenerates_identically() {
        let (parsed, source) = Weights::parse(COMMITTED).unwrap();
        assert_eq!(parsed, Weights::current());
        assert_eq!(parsed.render(&source), COMMITTED);
    }

    #[test]
    fn current_weights_are_what_the_evaluation_uses() {
        assert_eq!(Weights::current().combined(), TABLE);
    }

    #[test]
    fn unchanged_totals_split_back_into_the_starting_weights() {
        let start = Weights::current();
        assert_eq!(Weights::from_totals(&current_totals(), &start), start);
    }

    #[test]
    fn split_keeps_totals_and_moves_a_uniform_shift_into_material() {
        let start = Weights::current();
        let mut totals = current_totals();
        // Knights everywhere 7 better in the middlegame, one square of the rook table 3 worse.
        for sq in 0..64 {
            totals[64 + sq] += 7.0;
        }
        totals[3 * 64 + 10] -= 3.0;
        let w = Weights::from_totals(&totals, &start);
        assert_eq!(w.material[1].mg, start.material[1].mg + 7);
        assert_eq!(w.mg[1], start.mg[1]);
        assert_eq!(w.material[3].mg, start.material[3].mg);
        let combined = w.combined();
        assert_eq!(combined[3][10].mg, TABLE[3][10].mg - 3);
    }

    #[test]
    fn a_uniform_king_shift_is_dropped() {
        let start = Weights::current();
        let mut totals = current_totals();
        for sq in 0..64 {
            totals[384 + 5 * 64 + sq] += 40.0;
        }
        assert_eq!(Weights::from_totals(&totals, &start), start);
    }

    #[test]
    fn rendered_weights_parse_back() {
        let mut w = Weights::current();
        w.material[4].mg = 1234;
        w.mg[0][12] = -7;
        w.eg[5][63] = 99;
        let text = w.render("cutoff tune --data x --epochs 3");
        let (back, source) = Weights::parse(&text).unwrap();
        assert_eq!(back, w);
        assert_eq!(source, "cutoff tune --data x --epochs 3");
    }
}
