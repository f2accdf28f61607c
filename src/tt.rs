//! The transposition table: what earlier searches learnt about a position, keyed by Zobrist
//! hash, so that transpositions are searched once and the best move found before is tried first.

use shakmaty::{Move, Role, Square};

use crate::position::Key;
use crate::types::{Bound, Depth, Score};

/// A move squeezed into 16 bits: from, to (the rook's square for castling) and promotion.
/// Decoding never trusts it: [`PackedMove::matches`] compares against a legal move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PackedMove(u16);

impl PackedMove {
    pub const NONE: PackedMove = PackedMove(0);

    pub fn new(m: Move) -> PackedMove {
        let from = m.from().map_or(0, |sq| u16::from(sq) & 63);
        let to = u16::from(m.to()) & 63;
        let promotion = m.promotion().map_or(0, |r| r as u16);
        PackedMove(from | (to << 6) | (promotion << 12))
    }

    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Whether `m` is the move that was packed (collisions aside, which is why callers only
    /// ever match packed moves against the legal move list).
    #[inline]
    pub fn matches(self, m: Move) -> bool {
        !self.is_none() && PackedMove::new(m) == self
    }

    pub fn from_square(self) -> Square {
        Square::new(u32::from(self.0 & 63))
    }

    pub fn promotion(self) -> Option<Role> {
        Role::try_from(self.0 >> 12).ok()
    }
}

/// One slot. 12 bytes, so a 16 MB table holds about 1.4 million positions.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// The low 32 bits of the key; the high bits chose the slot.
    check: u32,
    mv: PackedMove,
    score: i16,
    depth: u8,
    /// Generation in the high 6 bits, bound in the low 2 (0 means empty).
    generation_bound: u8,
}

const BOUND_MASK: u8 = 0b11;
const GENERATION_STEP: u8 = 0b100;

fn bound_bits(bound: Bound) -> u8 {
    match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    }
}

fn bits_bound(bits: u8) -> Option<Bound> {
    match bits & BOUND_MASK {
        1 => Some(Bound::Exact),
        2 => Some(Bound::Lower),
        3 => Some(Bound::Upper),
        _ => None,
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub mv: PackedMove,
    /// Already adjusted to the probing node's ply (see [`Score::from_tt`]).
    pub score: Score,
    pub depth: Depth,
    pub bound: Bound,
}

pub struct TranspositionTable {
    entries: Vec<Entry>,
    generation: u8,
}

impl TranspositionTable {
    pub fn new(mb: usize) -> TranspositionTable {
        let mut tt = TranspositionTable {
            entries: Vec::new(),
            generation: 0,
        };
        if let Err(e) = tt.resize(mb) {
            eprintln!("{e}");
        }
        tt
    }

    /// Re-allocates to `mb` megabytes (at least one entry), emptying the table. When the
    /// memory cannot be had, keeps a table of the old size and says so.
    pub fn resize(&mut self, mb: usize) -> Result<(), String> {
        let old_len = self.entries.len().max(1);
        let len = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Entry>()).max(1);
        // Free the old table first so that both are never held at once.
        self.entries = Vec::new();
        self.generation = 0;
        match self.entries.try_reserve_exact(len) {
            Ok(()) => {
                self.entries.resize(len, Entry::default());
                Ok(())
            }
            Err(_) => {
                self.entries.resize(old_len, Entry::default());
                Err(format!("cannot allocate {mb} MB for the hash table"))
            }
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 0;
    }

    /// Called once per search, so that entries from older searches are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(GENERATION_STEP);
    }

    #[inline]
    fn index(&self, key: Key) -> usize {
        // Multiply-shift maps the key's high bits uniformly onto 0..len without a division.
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    #[inline]
    pub fn probe(&self, key: Key, ply: usize) -> Option<Hit> {
        let e = self.entries[self.index(key)];
        let bound = bits_bound(e.generation_bound)?;
        if e.check != key as u32 {
            return None;
        }
        Some(Hit {
            mv: e.mv,
            score: Score(i32::from(e.score)).from_tt(ply),
            depth: Depth::from(e.depth),
            bound,
        })
    }

    /// Stores a search result. Replaces the slot unless it holds a deeper result for the same
    /// position from this search; a new position always replaces, keeping the move when the
    /// new result has none.
    #[inline]
    pub fn store(
        &mut self,
        key: Key,
        ply: usize,
        depth: Depth,
        score: Score,
        bound: Bound,
        mv: Option<Move>,
    ) {
        let index = self.index(key);
        let old = self.entries[index];
        let same = old.check == key as u32 && bits_bound(old.generation_bound).is_some();
        let old_current = old.generation_bound & !BOUND_MASK == self.generation;
        if same && old_current && bound != Bound::Exact && i32::from(old.depth) > depth + 2 {
            return;
        }
        let mv = match mv {
            Some(m) => PackedMove::new(m),
            None if same => old.mv,
            None => PackedMove::NONE,
        };
        self.entries[index] = Entry {
            check: key as u32,
            mv,
            score: score.to_tt(ply).0 as i16,
            depth: depth.clamp(0, u8::MAX as Depth) as u8,
            generation_bound: self.generation | bound_bits(bound),
        };
    }

    /// Permille of slots used by the current search, from a sample (UCI's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| {
                bits_bound(e.generation_bound).is_some()
                    && e.generation_bound & !BOUND_MASK == self.generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn stored_results_come_back_with_mate_scores_adjusted() {
        let mut tt = TranspositionTable::new(1);
        let m = Chess::default().legal_moves()[3];
        tt.store(
            0xDEAD_BEEF_1234_5678,
            3,
            5,
            Score::mate_in(7),
            Bound::Exact,
            Some(m),
        );
        let hit = tt.probe(0xDEAD_BEEF_1234_5678, 5).unwrap();
        assert_eq!(hit.score, Score::mate_in(9));
        assert_eq!(hit.depth, 5);
        assert_eq!(hit.bound, Bound::Exact);
        assert!(hit.mv.matches(m));
        assert!(tt.probe(0xDEAD_BEEF_1234_5679, 5).is_none());
    }

    #[test]
    fn packed_moves_match_only_their_move() {
        let moves = Chess::default().legal_moves();
        for a in &moves {
            for b in &moves {
                assert_eq!(PackedMove::new(*a).matches(*b), a == b);
            }
        }
    }

    #[test]
    fn clear_empties_and_hashfull_counts() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..200_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                0,
                1,
                Score(0),
                Bound::Upper,
                None,
            );
        }
        assert!(tt.hashfull() > 0);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
    }
}
