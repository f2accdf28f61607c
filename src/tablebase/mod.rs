//! Syzygy endgame tablebases: the tables of a `SyzygyPath`, opened once and read by every
//! search thread, and the two questions the search asks of them: the outcome of a position just
//! after a capture or pawn move (WDL, in the search), and the ranking of the root moves (DTZ,
//! with WDL where DTZ is missing).
//!
//! Probing is `shakmaty-syzygy`'s, the crate made for shakmaty positions. Every file is put
//! through one check (`check.rs`: its name, a regular file, its size, its magic, its material,
//! the size its header's layout allows, and its embedded checksum, `checksum.rs`), the very
//! check `cutoff syzygy verify` runs: so the engine never probes a file verify refuses, and
//! verify never passes one the engine refuses. The header checks run on every file when
//! loaded; the checksum too, up to a budget of bytes read (`load.rs`), and for a larger table
//! in the background at its first probe, the table giving no answer until it passed
//! (`gate.rs`). One bad file loses only itself and is named; a probe that fails anyway (a
//! read error) is "no answer", never a crash, and the search goes on.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{Dtz, MaybeRounded, Wdl};

mod check;
mod checksum;
mod gate;
mod load;
mod tables;

pub use gate::Reporter;
pub use load::{LoadOptions, CHECKSUM_AT_LOAD};
pub use tables::{Loaded, Tablebases};

/// The outcome of a position for the side to move, as the tables give it (WDL<sub>50</sub>).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    Loss,
    /// A loss the 50-move rule saves.
    BlessedLoss,
    Draw,
    /// A win the 50-move rule spoils.
    CursedWin,
    Win,
}

impl Outcome {
    fn of(wdl: Wdl) -> Outcome {
        match wdl {
            Wdl::Loss => Outcome::Loss,
            Wdl::BlessedLoss => Outcome::BlessedLoss,
            Wdl::Draw => Outcome::Draw,
            Wdl::CursedWin => Outcome::CursedWin,
            Wdl::Win => Outcome::Win,
        }
    }

    /// -2 (loss) to 2 (win).
    pub fn signum2(self) -> i32 {
        match self {
            Outcome::Loss => -2,
            Outcome::BlessedLoss => -1,
            Outcome::Draw => 0,
            Outcome::CursedWin => 1,
            Outcome::Win => 2,
        }
    }
}

impl Tablebases {
    /// The tables of every directory of `path` (`:`-separated; empty or `<empty>`: none),
    /// each file checked, by default options (the first [`CHECKSUM_AT_LOAD`] bytes
    /// checksummed at load, the rest at their first probe).
    pub fn load(path: &str) -> (Tablebases, Loaded) {
        load::load(path, &LoadOptions::default())
    }

    /// [`Tablebases::load`] with `options`.
    pub fn load_with(path: &str, options: &LoadOptions) -> (Tablebases, Loaded) {
        load::load(path, options)
    }

    /// The whole check of the table file `path` (`cutoff syzygy verify`): the one every file
    /// passes before the engine probes it, reading the file a chunk at a time; the error
    /// names the path and why.
    pub fn verify_file(path: &Path) -> Result<(), String> {
        let Some(file) = check::TableFile::named(path) else {
            return Err(format!(
                "{}: not the name of a Syzygy table (such as KQvKR.rtbw or KQvKR.rtbz): the \
                 engine does not load it",
                path.display()
            ));
        };
        check::check(&file, check::Depth::Whole, &|| false).map(drop)
    }

    /// How many tables are still to be checksummed (at their first probe) before they answer.
    pub fn pending(&self) -> usize {
        self.gates.0.pending()
    }

    /// Each file refused since the load returned (at its first probe), as reported.
    pub fn refused_since_loaded(&self) -> Vec<String> {
        self.gates.0.refused()
    }

    /// The `SyzygyPath` these tables were loaded from (empty: none).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The most pieces of any table (0 without tables).
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    pub fn is_empty(&self) -> bool {
        self.wdl.is_empty()
    }

    /// The outcome of `pos` for the side to move, `pos` being reached by a capture or pawn
    /// move (the half-move clock is 0, so the tables' WDL is exact). `None` when no table
    /// answers (missing, damaged, castling rights, too many pieces).
    #[inline]
    pub fn probe_wdl(&self, pos: &Chess) -> Option<Outcome> {
        guarded(|| self.tables.probe_wdl_after_zeroing(pos).ok()).map(Outcome::of)
    }

    /// The distance to zeroing of `pos` (rounded in some tables), `None` when no table answers.
    fn probe_dtz(&self, pos: &Chess) -> Option<MaybeRounded<Dtz>> {
        guarded(|| self.tables.probe_dtz(pos).ok())
    }

    /// Ranks the moves of `root` (the game's position, whose half-move clock and
    /// repetitions count) as Stockfish does: by DTZ when the DTZ tables answer for every move,
    /// else by WDL. `repeated` says whether the root has occurred before (a win then counts as
    /// one that the 50-move rule might spoil). Returns each move's rank (higher is better;
    /// sure wins equal) and whether DTZ ranked them; `None` when the tables cannot rank.
    pub fn rank_root_moves(
        &self,
        root: &Chess,
        moves: &[Move],
        repeated: bool,
        fifty_move_rule: bool,
    ) -> Option<(Vec<RootRank>, bool)> {
        if root.board().occupied().count() > self.max_pieces() || root.castles().any() {
            return None;
        }
        if let Some(ranks) = self.rank_by_dtz(root, moves, repeated, fifty_move_rule) {
            return Some((ranks, true));
        }
        self.rank_by_wdl(root, moves, fifty_move_rule)
            .map(|ranks| (ranks, false))
    }

    fn rank_by_dtz(
        &self,
        root: &Chess,
        moves: &[Move],
        repeated: bool,
        fifty_move_rule: bool,
    ) -> Option<Vec<RootRank>> {
        let clock = root.halfmoves() as i32;
        let bound = if fifty_move_rule { MAX_DTZ - 100 } else { 1 };
        moves
            .iter()
            .map(|&m| {
                let mut child = root.clone();
                child.play_unchecked(m);
                // The DTZ of the move from the root's side, counting the move itself.
                let dtz = if child.is_checkmate() {
                    1
                } else if child.halfmoves() == 0 {
                    let wdl = self.probe_wdl(&child)?;
                    dtz_before_zeroing(-wdl.signum2())
                } else {
                    let d = -self.probe_dtz(&child)?.ignore_rounding().0;
                    d + d.signum()
                };
                let rank = dtz_rank(dtz, clock, repeated, fifty_move_rule);
                Some(RootRank {
                    mv: m,
                    rank,
                    outcome: rank_outcome(rank, bound),
                })
            })
            .collect()
    }

    fn rank_by_wdl(
        &self,
        root: &Chess,
        moves: &[Move],
        fifty_move_rule: bool,
    ) -> Option<Vec<RootRank>> {
        moves
            .iter()
            .map(|&m| {
                let mut child = root.clone();
                child.play_unchecked(m);
                let wdl = if child.is_checkmate() {
                    2
                } else {
                    -self.probe_wdl(&child)?.signum2()
                };
                let wdl = if fifty_move_rule {
                    wdl
                } else {
                    2 * wdl.signum()
                };
                let rank = WDL_RANKS[(wdl + 2) as usize];
                Some(RootRank {
                    mv: m,
                    rank,
                    outcome: rank_outcome(rank, MAX_DTZ - 100),
                })
            })
            .collect()
    }
}

/// Runs a probe, turning a panic inside the prober (a table damaged in a way its checks did
/// not catch) into "no answer".
#[inline]
fn guarded<T>(probe: impl FnOnce() -> Option<T>) -> Option<T> {
    catch_unwind(AssertUnwindSafe(probe)).ok().flatten()
}

/// Stockfish's scale of root ranks: a sure win is `MAX_DTZ`, a sure loss `-MAX_DTZ`.
pub const MAX_DTZ: i32 = 1 << 18;

/// Ranks of the WDL values -2..=2 when no DTZ is at hand (Stockfish's `WDL_to_rank`).
const WDL_RANKS: [i32; 5] = [-MAX_DTZ, -MAX_DTZ + 101, 0, MAX_DTZ - 101, MAX_DTZ];

/// The DTZ of a position just after zeroing with outcome `wdl` (-2..=2), from its side.
fn dtz_before_zeroing(wdl: i32) -> i32 {
    match wdl {
        2 => 1,
        1 => 101,
        -1 => -101,
        -2 => -1,
        _ => 0,
    }
}

/// A root move's rank from its DTZ (after Stockfish's `root_probe`): a sure win ranks higher
/// the sooner it zeroes the 50-move counter, a win the rule may spoil lower the longer it
/// takes; a loss higher the longer it resists, higher still once a 50-move draw is in sight.
///
/// Stockfish ranks every sure win alike and lets its search choose among them; Cutoff's
/// search, so choosing, made too little progress (KBNvK and KQvKR converted with one or two
/// plies to spare under the 50-move rule, `tools/tb_conversion.py`), so the shortest way to
/// the next zeroing move is kept, which the tables guarantee wins in time.
fn dtz_rank(dtz: i32, clock: i32, repeated: bool, fifty_move_rule: bool) -> i32 {
    let clock = if fifty_move_rule { clock } else { 0 };
    if dtz > 0 {
        if (dtz + clock <= 99 && !repeated) || !fifty_move_rule {
            MAX_DTZ - dtz.min(99)
        } else {
            MAX_DTZ - (dtz + clock)
        }
    } else if dtz < 0 {
        if -dtz * 2 + clock < 100 || !fifty_move_rule {
            -MAX_DTZ + (-dtz).min(99)
        } else {
            -MAX_DTZ + (-dtz + clock)
        }
    } else {
        0
    }
}

/// The outcome a rank promises: a win at or above `bound`, a loss at or below its negation,
/// else a draw (a win or loss the 50-move rule turns into a draw).
fn rank_outcome(rank: i32, bound: i32) -> Outcome {
    if rank >= bound {
        Outcome::Win
    } else if rank > 0 {
        Outcome::CursedWin
    } else if rank == 0 {
        Outcome::Draw
    } else if rank > -bound {
        Outcome::BlessedLoss
    } else {
        Outcome::Loss
    }
}

/// A root move and what the tables say of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootRank {
    pub mv: Move,
    /// Higher is better; moves of equal rank are equally good by the tables.
    pub rank: i32,
    /// What the move leads to, from the root's side (with the 50-move rule if it counts).
    pub outcome: Outcome,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_stockfish() {
        // A quick win is a sure win, a quicker one better; one that needs 60 more plies at
        // clock 50 may be spoiled.
        assert_eq!(dtz_rank(5, 0, false, true), MAX_DTZ - 5);
        assert!(dtz_rank(3, 0, false, true) > dtz_rank(5, 0, false, true));
        assert_eq!(dtz_rank(60, 50, false, true), MAX_DTZ - 110);
        assert_eq!(dtz_rank(60, 50, false, false), MAX_DTZ - 60);
        assert_eq!(dtz_rank(5, 0, true, true), MAX_DTZ - 5);
        assert_eq!(dtz_rank(-10, 0, false, true), -MAX_DTZ + 10);
        assert!(dtz_rank(-12, 0, false, true) > dtz_rank(-10, 0, false, true));
        assert_eq!(dtz_rank(-40, 30, false, true), -MAX_DTZ + 70);
        assert_eq!(dtz_rank(0, 30, false, true), 0);
        let bound = MAX_DTZ - 100;
        assert_eq!(rank_outcome(MAX_DTZ, bound), Outcome::Win);
        assert_eq!(rank_outcome(MAX_DTZ - 99, bound), Outcome::Win);
        assert_eq!(rank_outcome(MAX_DTZ - 110, bound), Outcome::CursedWin);
        assert_eq!(rank_outcome(0, bound), Outcome::Draw);
        // Losing in 40 at clock 30 is still a loss (the rule needs 101 plies); in 60 at 50 the
        // rule saves it.
        assert_eq!(rank_outcome(-MAX_DTZ + 70, bound), Outcome::Loss);
        assert_eq!(dtz_rank(-60, 50, false, true), -MAX_DTZ + 110);
        assert_eq!(rank_outcome(-MAX_DTZ + 110, bound), Outcome::BlessedLoss);
        assert_eq!(rank_outcome(-MAX_DTZ, bound), Outcome::Loss);
    }

    #[test]
    fn a_missing_directory_is_an_error_naming_it_and_nothing_is_loaded() {
        let (tb, loaded) = Tablebases::load("/no/such/dir:<empty>");
        assert!(tb.is_empty());
        assert_eq!(tb.max_pieces(), 0);
        assert_eq!(loaded.errors.len(), 1);
        assert!(
            loaded.errors[0].contains("/no/such/dir"),
            "{:?}",
            loaded.errors
        );
    }
}
