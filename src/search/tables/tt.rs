//! The transposition table: what earlier searches learnt about a position, keyed by Zobrist
//! hash, so that transpositions are searched once and the best move found before is tried first.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU8, Ordering};

use shakmaty::{Chess, Move, Role, Square};

use crate::position::{legal_move, Key};
use crate::types::{Bound, Depth, Score};

/// A move squeezed into 16 bits: from, to (the rook's square for castling) and promotion.
/// Decoding never trusts it: [`PackedMove::matches`] compares against a legal move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PackedMove(u16);

impl PackedMove {
    pub const NONE: PackedMove = PackedMove(0);

    #[inline]
    pub fn new(m: Move) -> PackedMove {
        let (from, to, promotion) = match m {
            // Most moves: one match instead of one per shakmaty accessor.
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => (u16::from(from), u16::from(to), promotion),
            _ => (
                m.from().map_or(0, |sq| u16::from(sq) & 63),
                u16::from(m.to()) & 63,
                m.promotion(),
            ),
        };
        let promotion = promotion.map_or(0, |r| r as u16);
        PackedMove(from | (to << 6) | (promotion << 12))
    }

    /// The 16 bits as stored, for tests that try every value.
    pub fn from_bits(bits: u16) -> PackedMove {
        PackedMove(bits)
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

    /// The legal move of `pos` this packs, if any, found without generating the moves (see
    /// [`crate::position::legal_move`]): the search tries the table's move before it
    /// generates the others.
    #[inline]
    pub fn legal_in(self, pos: &Chess) -> Option<Move> {
        if self.is_none() {
            return None;
        }
        let to = Square::new(u32::from((self.0 >> 6) & 63));
        let promotion = match self.0 >> 12 {
            0 => None,
            bits => Some(Role::try_from(bits).ok()?),
        };
        let m = legal_move(pos, self.from_square(), to, promotion)?;
        (PackedMove::new(m) == self).then_some(m)
    }

    pub fn from_square(self) -> Square {
        Square::new(u32::from(self.0 & 63))
    }

    pub fn promotion(self) -> Option<Role> {
        Role::try_from(self.0 >> 12).ok()
    }
}

/// One slot: three 32-bit words, 12 bytes, so a 16 MB table holds about 1.4 million positions.
///
/// Threads read and write slots without a lock, so a slot may be read half-written, or written
/// by two threads at once. The check word is therefore stored XORed with both data words: a
/// probe recomputes it, and a slot whose words come from different stores fails the check
/// (except by a 1 in 2^32 chance, the same as a collision between keys, and like a colliding
/// key it can only give a wrong move, which the search matches against the legal moves, or a
/// wrong score). Relaxed loads and stores suffice: nothing else is published through a slot.
#[derive(Debug, Default)]
struct Slot {
    /// `mv` in the low 16 bits, `score` in the high 16.
    move_score: AtomicU32,
    /// `depth` in the low 8 bits, generation and bound in the next 8, the static evaluation
    /// in the high 16.
    depth_generation_bound: AtomicU32,
    /// The low 32 bits of the key (the high bits chose the slot) XOR the two words above.
    check: AtomicU32,
}

/// A slot's contents, as one store wrote them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    check: u32,
    mv: PackedMove,
    score: i16,
    depth: u8,
    /// Generation in the high 6 bits, bound in the low 2 (0 means empty).
    generation_bound: u8,
    /// The position's static evaluation, [`NO_EVAL`] where none was known (in check).
    eval: i16,
}

/// The stored evaluation of a position evaluated in check (where the search takes none), or
/// of one whose evaluation does not fit in 16 bits.
const NO_EVAL: i16 = i16::MIN;

impl Entry {
    fn words(self) -> (u32, u32) {
        (
            u32::from(self.mv.0) | (u32::from(self.score as u16) << 16),
            u32::from(self.depth)
                | (u32::from(self.generation_bound) << 8)
                | (u32::from(self.eval as u16) << 16),
        )
    }
}

impl Slot {
    /// The entry, with `check` already un-XORed (a torn slot gives a check matching no key).
    #[inline]
    fn load(&self) -> Entry {
        let move_score = self.move_score.load(Ordering::Relaxed);
        let rest = self.depth_generation_bound.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed) ^ move_score ^ rest;
        Entry {
            check,
            mv: PackedMove(move_score as u16),
            score: (move_score >> 16) as u16 as i16,
            depth: rest as u8,
            generation_bound: (rest >> 8) as u8,
            eval: (rest >> 16) as u16 as i16,
        }
    }

    /// The slot of an empty table, written word by word (what `Slot::default` holds).
    fn save_empty(&self) {
        self.move_score.store(0, Ordering::Relaxed);
        self.depth_generation_bound.store(0, Ordering::Relaxed);
        self.check.store(0, Ordering::Relaxed);
    }

    #[inline]
    fn save(&self, e: Entry) {
        let (move_score, rest) = e.words();
        self.move_score.store(move_score, Ordering::Relaxed);
        self.depth_generation_bound.store(rest, Ordering::Relaxed);
        self.check
            .store(e.check ^ move_score ^ rest, Ordering::Relaxed);
    }
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
    /// The position's static evaluation as the storing node took it, so that a node finding
    /// its position here need not evaluate it again.
    pub eval: Option<Score>,
}

impl Hit {
    /// Whether the stored result decides a node searched with window (`alpha`, `beta`): an
    /// exact value, a lower bound at or above beta, or an upper bound at or below alpha.
    #[inline]
    pub fn settles(&self, alpha: Score, beta: Score) -> bool {
        self.bound.settles(self.score, alpha, beta)
    }
}

/// What a node stores: its result and, where it took one, its static evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    pub depth: Depth,
    pub score: Score,
    pub bound: Bound,
    pub mv: Option<Move>,
    /// The raw static evaluation (before any correction); `None` in check.
    pub eval: Option<Score>,
}

/// Asks Linux to back the reserved but not yet touched buffer of `slots` with 2 MB pages:
/// nearly every probe lands on a different 4 KB page, so with small pages most probes also miss
/// the TLB. Only advice: where the kernel has no huge pages to give (or another system runs
/// this), the table works the same on small pages.
fn advise_huge_pages(slots: &mut Vec<Slot>) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = slots.as_mut_ptr() as usize;
        let end = start + slots.capacity() * std::mem::size_of::<Slot>();
        let (first, last) = (start.next_multiple_of(PAGE), end / PAGE * PAGE);
        if last > first {
            // SAFETY: `madvise` with `MADV_HUGEPAGE` neither reads nor changes the memory's
            // contents and frees nothing; it only tells the kernel how to back the pages. The
            // range [first, last) lies inside the buffer `slots` owns (rounded inwards to whole
            // pages, so no page of another allocation is advised). A failure (for example
            // EINVAL where pages are not 4 KB) leaves the memory as it was, so the result is
            // ignored.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = slots;
}

/// Shared by all search threads: probes and stores take `&self` and never lock.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    /// Set by the main thread between searches, read by every store.
    generation: AtomicU8,
}

impl TranspositionTable {
    pub fn new(mb: usize) -> TranspositionTable {
        let mut tt = TranspositionTable {
            slots: Vec::new(),
            generation: AtomicU8::new(0),
        };
        if let Err(e) = tt.resize(mb) {
            eprintln!("{e}");
        }
        tt
    }

    /// Re-allocates to `mb` megabytes (at least one entry), emptying the table. When the
    /// memory cannot be had, keeps a table of the old size and says so.
    pub fn resize(&mut self, mb: usize) -> Result<(), String> {
        let old_len = self.slots.len().max(1);
        let len = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Slot>()).max(1);
        // Free the old table first so that both are never held at once.
        self.slots = Vec::new();
        *self.generation.get_mut() = 0;
        match self.slots.try_reserve_exact(len) {
            Ok(()) => {
                advise_huge_pages(&mut self.slots);
                self.slots.resize_with(len, Slot::default);
                Ok(())
            }
            Err(_) => {
                self.slots.resize_with(old_len, Slot::default);
                Err(format!("cannot allocate {mb} MB for the hash table"))
            }
        }
    }

    /// Empties the table. Needs the table to itself (between searches), which lets the
    /// compiler write the zeros in bulk.
    pub fn clear(&mut self) {
        self.slots.fill_with(Slot::default);
        *self.generation.get_mut() = 0;
    }

    /// Starts emptying the table while others may use it (a clear in the background, in
    /// parts: [`TranspositionTable::clear_part`]): the generation goes back to where
    /// [`TranspositionTable::clear`] leaves it. Once every part is zeroed, and no search ran
    /// in between, the table is exactly what `clear` makes.
    pub fn begin_shared_clear(&self) {
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Zeroes part `part` of `parts` (contiguous, together the whole table) through the slots'
    /// atomics, so a search may probe and store at the same time: a slot it stores while being
    /// zeroed is read back half-zeroed at worst, which its check word refuses like any torn
    /// slot. Stops early, between blocks, once `cancelled` is set; returns whether it zeroed
    /// its whole part.
    pub fn clear_part(&self, part: usize, parts: usize, cancelled: &AtomicBool) -> bool {
        const BLOCK: usize = 1 << 16;
        let parts = parts.max(1);
        let len = self.slots.len();
        let (start, end) = (len * part / parts, len * (part + 1) / parts);
        for block in self.slots[start..end].chunks(BLOCK) {
            if cancelled.load(Ordering::Relaxed) {
                return false;
            }
            for slot in block {
                slot.save_empty();
            }
        }
        true
    }

    /// Called once per search, so that entries from older searches are replaced first.
    pub fn new_search(&self) {
        let next = self.generation().wrapping_add(GENERATION_STEP);
        self.generation.store(next, Ordering::Relaxed);
    }

    #[inline]
    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    #[inline]
    fn index(&self, key: Key) -> usize {
        // Multiply-shift maps the key's high bits uniformly onto 0..len without a division.
        ((u128::from(key) * self.slots.len() as u128) >> 64) as usize
    }

    /// Starts loading `key`'s slot into the cache without waiting for it, so that a probe a
    /// little later finds it there. Without it the probe's load from memory took 19 % of the
    /// search's cycles (`perf`, `go movetime 8000` on a middlegame, `Bench: 2400722`). A
    /// 12-byte slot straddles two cache lines at 2 of every 16 indices: both lines are asked
    /// for, or the probe waits on the second.
    #[inline]
    pub fn prefetch(&self, key: Key) {
        crate::memory::prefetch_whole(&self.slots[self.index(key)]);
    }

    #[inline]
    pub fn probe(&self, key: Key, ply: usize) -> Option<Hit> {
        let e = self.slots[self.index(key)].load();
        let bound = bits_bound(e.generation_bound)?;
        if e.check != key as u32 {
            return None;
        }
        Some(Hit {
            mv: e.mv,
            score: Score(i32::from(e.score)).from_tt(ply),
            depth: Depth::from(e.depth),
            bound,
            eval: (e.eval != NO_EVAL).then_some(Score(i32::from(e.eval))),
        })
    }

    /// Stores a search result, with the position's static evaluation where the node had one.
    /// Replaces the slot unless it holds a deeper result for the same position from this
    /// search; a new position always replaces, keeping the move (and the evaluation) when the
    /// new result has none.
    #[inline]
    pub fn store(&self, key: Key, ply: usize, result: Stored) {
        let Stored {
            depth,
            score,
            bound,
            mv,
            eval,
        } = result;
        let slot = &self.slots[self.index(key)];
        let old = slot.load();
        let generation = self.generation();
        let same = old.check == key as u32 && bits_bound(old.generation_bound).is_some();
        let old_current = old.generation_bound & !BOUND_MASK == generation;
        if same && old_current && bound != Bound::Exact && i32::from(old.depth) > depth + 2 {
            return;
        }
        let mv = match mv {
            Some(m) => PackedMove::new(m),
            None if same => old.mv,
            None => PackedMove::NONE,
        };
        let eval = match eval.and_then(|e| i16::try_from(e.0).ok()) {
            Some(e) => e,
            None if same => old.eval,
            None => NO_EVAL,
        };
        slot.save(Entry {
            check: key as u32,
            mv,
            score: score.to_tt(ply).0 as i16,
            depth: depth.clamp(0, u8::MAX as Depth) as u8,
            generation_bound: generation | bound_bits(bound),
            eval,
        });
    }

    /// Permille of slots used by the current search, from a sample (UCI's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let generation = self.generation();
        let used = self.slots[..sample]
            .iter()
            .filter(|slot| {
                let e = slot.load();
                bits_bound(e.generation_bound).is_some()
                    && e.generation_bound & !BOUND_MASK == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// Fills the table with entries of many keys (tests of clearing it).
#[cfg(test)]
pub(crate) fn fill_for_tests(tt: &TranspositionTable) {
    for k in 0..200_000u64 {
        let stored = Stored {
            depth: 1,
            score: Score(0),
            bound: Bound::Upper,
            mv: None,
            eval: None,
        };
        tt.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0, stored);
    }
}

/// Whether every slot is as a new table's and the generation is a new table's.
#[cfg(test)]
pub(crate) fn is_empty_for_tests(tt: &TranspositionTable) -> bool {
    tt.generation() == 0 && tt.slots.iter().all(|s| s.load() == Entry::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn stored_results_come_back_with_mate_scores_adjusted() {
        let tt = TranspositionTable::new(1);
        let m = Chess::default().legal_moves()[3];
        let stored = Stored {
            depth: 5,
            score: Score::mate_in(7),
            bound: Bound::Exact,
            mv: Some(m),
            eval: Some(Score(-57)),
        };
        tt.store(0xDEAD_BEEF_1234_5678, 3, stored);
        let hit = tt.probe(0xDEAD_BEEF_1234_5678, 5).unwrap();
        assert_eq!(hit.score, Score::mate_in(9));
        assert_eq!(hit.depth, 5);
        assert_eq!(hit.bound, Bound::Exact);
        assert!(hit.mv.matches(m));
        assert_eq!(hit.eval, Some(Score(-57)));
        assert!(tt.probe(0xDEAD_BEEF_1234_5679, 5).is_none());
    }

    /// A node in check stores no evaluation; storing its position again keeps the one an
    /// earlier store had, and an evaluation outside 16 bits is stored as none, never wrapped.
    #[test]
    fn evaluations_are_kept_when_a_store_has_none_and_never_wrapped() {
        let tt = TranspositionTable::new(1);
        let result = |eval| Stored {
            depth: 3,
            score: Score(10),
            bound: Bound::Lower,
            mv: None,
            eval,
        };
        tt.store(0x0123_4567_89AB_CDEF, 0, result(None));
        assert_eq!(tt.probe(0x0123_4567_89AB_CDEF, 0).unwrap().eval, None);
        tt.store(0x0123_4567_89AB_CDEF, 0, result(Some(Score(123))));
        tt.store(0x0123_4567_89AB_CDEF, 0, result(None));
        assert_eq!(
            tt.probe(0x0123_4567_89AB_CDEF, 0).unwrap().eval,
            Some(Score(123))
        );
        tt.store(0xFEDC_BA98_7654_3210, 0, result(Some(Score(40_000))));
        assert_eq!(tt.probe(0xFEDC_BA98_7654_3210, 0).unwrap().eval, None);
        tt.store(0x7777_0000_1234_5678, 0, result(Some(Score(-32_767))));
        assert_eq!(
            tt.probe(0x7777_0000_1234_5678, 0).unwrap().eval,
            Some(Score(-32_767))
        );
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
        fill_for_tests(&tt);
        assert!(tt.hashfull() > 0);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
    }

    /// Several threads store and probe overlapping keys in a small table at once; every hit
    /// must carry the data stored with its key, never a mix of two stores.
    #[test]
    fn concurrent_stores_never_produce_torn_hits() {
        // 64 slots, 16 keys each: the key's high bits choose the slot, its low 32 bits are
        // checked, so keys differing only there keep overwriting each other's slots.
        const SLOTS: u64 = 64;
        const KEYS: u64 = SLOTS * 16;
        const OPS_PER_THREAD: usize = 500_000;
        let tt = TranspositionTable::new(1);
        let moves = Chess::default().legal_moves();
        // Everything stored is a function of the key, so a hit can be checked against it.
        let key_of = |i: u64| {
            let slot = (i % SLOTS + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) & !0xFFFF_FFFF;
            slot | (i + 1).wrapping_mul(0xC2B2_AE3D_27D4_EB4F) >> 32
        };
        let data_of = |key: u64| {
            let h = key.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 20;
            let depth = (h % 60) as Depth + 1;
            let score = Score((h >> 8) as i32 % 2000 - 1000);
            let bound = [Bound::Exact, Bound::Lower, Bound::Upper][(h >> 24) as usize % 3];
            let mv = moves[(h >> 30) as usize % moves.len()];
            let eval = Score((h >> 34) as i32 % 3000 - 1500);
            (depth, score, bound, mv, eval)
        };
        let hits = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let (tt, hits) = (&tt, &hits);
                scope.spawn(move || {
                    let mut rng = 0x2545_F491_4F6C_DD1D_u64 ^ (thread << 32);
                    for _ in 0..OPS_PER_THREAD {
                        rng ^= rng << 13;
                        rng ^= rng >> 7;
                        rng ^= rng << 17;
                        let key = key_of(rng % KEYS);
                        let (depth, score, bound, mv, eval) = data_of(key);
                        if rng >> 63 == 0 {
                            let stored = Stored {
                                depth,
                                score,
                                bound,
                                mv: Some(mv),
                                eval: Some(eval),
                            };
                            tt.store(key, 0, stored);
                        } else if let Some(hit) = tt.probe(key, 0) {
                            hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            assert_eq!(hit.depth, depth, "torn depth for {key:x}");
                            assert_eq!(hit.score, score, "torn score for {key:x}");
                            assert_eq!(hit.bound, bound, "torn bound for {key:x}");
                            assert!(hit.mv.matches(mv), "torn move for {key:x}");
                            assert_eq!(hit.eval, Some(eval), "torn evaluation for {key:x}");
                        }
                    }
                });
            }
        });
        assert!(
            hits.into_inner() > 10_000,
            "the probes should have found entries"
        );
    }
}
