//! The move picker, in stages: each kind of move is generated and scored only when the moves
//! before it have not cut. Most nodes that cut do so with the table's move, a capture or a
//! killer, and then never generate or score their quiet moves. Each use has its list of stages
//! (the `Stage` lists below); every stage hands out the best key first by selection (the first
//! of the highest keys, swapped to the front), so the moves after a cut are never sorted.
//!
//! The main search (`MAIN`):
//! 1. the table's move, decoded from its 16 bits without generating anything;
//! 2. captures and promotions, generated alone, best by MVV-LVA and capture history first,
//!    each one's static exchange computed when it is reached, the losing ones deferred;
//! 3. the two killers, each checked legal (and still quiet) in this position;
//! 4. the quiet moves, generated and scored by history when reached;
//! 5. the captures that lose material, in the order they were deferred.
//!
//! In check (`EVASIONS`), every evasion is generated at once and ordered in one list by the same
//! classes. Quiescence (`QUIESCENCE`) hands out the captures and queen promotions of
//! `position::tactical_moves` by MVV-LVA and capture history, and in check
//! (`QUIESCENCE_EVASIONS`) every evasion by MVV-LVA alone; probcut (`PROBCUT`) the same
//! captures in the same order, leaving out those that do not win its threshold by exchange.

use arrayvec::ArrayVec;
use shakmaty::{Bitboard, Chess, Move, MoveList, Position};

use super::ordering::{
    capture_key, first_highest, is_tactical, main_search_key, mvv_lva, Heuristics, MoveBuffer,
};
use super::see::see_at_least;
use super::tables::history::{Continuation, History};
use super::tables::tt::PackedMove;
use crate::position::{legal_move, noisy_moves, quiet_moves, tactical_moves, CheckInfo};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TableMove,
    GenerateCaptures,
    GoodCaptures,
    Killers,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    /// Quiescence's and probcut's list: the captures and queen promotions, keyed by MVV-LVA
    /// and (when on) capture history.
    GenerateTactical,
    /// Quiescence's list in check: every evasion, keyed by MVV-LVA alone.
    GenerateEvasions,
    /// Every move of the list not yet handed out, best key first.
    Best,
    /// The same, leaving out the moves that do not win `see_threshold` by static exchange.
    Winning,
    Done,
}

use Stage::*;

/// The main search's stages out of check.
const MAIN: &[Stage] = &[
    TableMove,
    GenerateCaptures,
    GoodCaptures,
    Killers,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    Done,
];
/// The main search in check: the evasions, generated and keyed when the picker is made.
const EVASIONS: &[Stage] = &[Best, Done];
/// Quiescence out of check.
const QUIESCENCE: &[Stage] = &[GenerateTactical, Best, Done];
/// Quiescence in check.
const QUIESCENCE_EVASIONS: &[Stage] = &[GenerateEvasions, Best, Done];
/// Probcut (never in check).
const PROBCUT: &[Stage] = &[GenerateTactical, Winning, Done];

/// The staged picker. The moves and keys live in the caller's [`MoveBuffer`] (over two
/// kilobytes, so not in the picker): captures first, then quiet moves after `captures_end`; the
/// captures deferred as losing are moved down over the slots of those already handed out, so
/// they stay in the order they were deferred (best key first) without a list of their own.
pub struct MovePicker<'a> {
    moves: &'a mut MoveList,
    keys: &'a mut ArrayVec<i32, 256>,
    stage: Stage,
    /// The stages after `stage`, each list ending with `Done`.
    rest: &'static [Stage],
    /// The next candidate of the current stage.
    next: usize,
    captures_end: usize,
    /// The deferred captures are `moves[..bad_end]`.
    bad_end: usize,
    table_move: Option<Move>,
    killers: [Option<Move>; 2],
    killer: usize,
    /// The killers handed out, which the quiet stage then leaves out.
    killers_given: [Option<Move>; 2],
    handed_out: usize,
    /// Whether [`MovePicker::end_pruned_quiets`] has looked at the quiet stage already.
    quiets_looked_at: bool,
    /// The ordering steps, fixed for the node (the history itself is read when a stage is
    /// scored): the moves before it, when continuation history is on.
    continuation: Option<Continuation>,
    /// Captures are keyed by capture history as well as MVV-LVA.
    capture_history: bool,
    /// The main search defers the captures that lose material by exchange.
    see_ordering: bool,
    /// The squares the opponent attacks, keying the quiet history (empty when off).
    threats: Bitboard,
    /// Probcut's: the least a capture must win by static exchange to be handed out.
    see_threshold: i32,
}

impl<'a> MovePicker<'a> {
    /// The main search's picker for `pos` in `buffer`, whose moves must be empty. In check
    /// every evasion is generated now and ordered with `ordering`; otherwise nothing is
    /// generated until asked for.
    pub fn new(
        pos: &Chess,
        in_check: bool,
        buffer: &'a mut MoveBuffer,
        tt_move: PackedMove,
        killers: [Option<Move>; 2],
        ordering: Heuristics<'_>,
    ) -> MovePicker<'a> {
        let stages = if in_check { EVASIONS } else { MAIN };
        let mut picker = MovePicker::with_stages(buffer, stages);
        picker.killers = killers;
        picker.continuation = ordering.continuation;
        picker.capture_history = ordering.capture_history;
        picker.see_ordering = ordering.see_ordering;
        picker.threats = ordering.threats;
        if in_check {
            *picker.moves = pos.legal_moves();
            let key = main_search_key(pos, tt_move, killers, ordering);
            for m in picker.moves.iter() {
                picker.keys.push(key(m));
            }
        } else {
            picker.table_move = tt_move.legal_in(pos);
        }
        picker
    }

    /// Quiescence's picker in `buffer` (empty): the captures and queen promotions by MVV-LVA
    /// and, with `capture_history`, capture history; in check every evasion by MVV-LVA alone.
    /// Generated at the first [`MovePicker::next`].
    pub fn quiescence(
        in_check: bool,
        buffer: &'a mut MoveBuffer,
        capture_history: bool,
    ) -> MovePicker<'a> {
        let stages = if in_check {
            QUIESCENCE_EVASIONS
        } else {
            QUIESCENCE
        };
        let mut picker = MovePicker::with_stages(buffer, stages);
        picker.capture_history = capture_history;
        picker
    }

    /// Probcut's picker in `buffer` (empty), for a side not in check: quiescence's captures in
    /// quiescence's order, but only those that win at least `see_threshold` by exchange.
    pub fn probcut(
        buffer: &'a mut MoveBuffer,
        capture_history: bool,
        see_threshold: i32,
    ) -> MovePicker<'a> {
        let mut picker = MovePicker::with_stages(buffer, PROBCUT);
        picker.capture_history = capture_history;
        picker.see_threshold = see_threshold;
        picker
    }

    /// A picker that runs `stages` over `buffer`, every ordering step off.
    #[inline]
    fn with_stages(buffer: &'a mut MoveBuffer, stages: &'static [Stage]) -> MovePicker<'a> {
        let MoveBuffer { moves, keys } = buffer;
        debug_assert!(moves.is_empty());
        keys.clear();
        MovePicker {
            moves,
            keys,
            stage: stages[0],
            rest: &stages[1..],
            next: 0,
            captures_end: 0,
            bad_end: 0,
            table_move: None,
            killers: [None; 2],
            killer: 0,
            killers_given: [None; 2],
            handed_out: 0,
            quiets_looked_at: false,
            continuation: None,
            capture_history: false,
            see_ordering: false,
            threats: Bitboard::EMPTY,
            see_threshold: 0,
        }
    }

    /// How many moves have been handed out (all of them legal): in the main search and
    /// quiescence, none at the end means mate or stalemate, whatever the search then pruned
    /// or excluded (probcut's picker does not count the captures it leaves out).
    #[inline]
    pub fn handed_out(&self) -> usize {
        self.handed_out
    }

    /// Whether the move just handed out is a capture that already showed, by static exchange,
    /// that it loses nothing (the good-capture stage with SEE ordering): a SEE test with a
    /// threshold at or below 0 would pass, so step 9c need not run it again.
    #[inline]
    pub fn gave_winning_capture(&self) -> bool {
        self.stage == Stage::GoodCaptures && self.see_ordering
    }

    /// Step 9's shortcut, for a search whose late-move or futility pruning now holds for every
    /// quiet move left at this node but those for which `kept` holds (those giving check):
    /// when none of the quiet stage's remaining moves is kept, the stage ends here, its moves
    /// counted as handed out as the search would have seen them (and pruned), so the moves
    /// after them keep their indices and the tree is the one searched without the shortcut.
    /// Otherwise nothing changes; either way the stage is looked at once.
    pub fn end_pruned_quiets(&mut self, kept: impl Fn(&Move) -> bool) {
        if self.stage != Stage::Quiets || self.quiets_looked_at {
            return;
        }
        self.quiets_looked_at = true;
        let rest = &self.moves[self.next..];
        if !rest.iter().any(kept) {
            self.handed_out += rest.len();
            self.next = self.moves.len();
        }
    }

    /// The next move, or `None` when every move of the picker's stages has been handed out.
    /// `history` is read when a stage is scored: the history as it stands then. Inlined into
    /// its three callers (the main search, quiescence, probcut), as the main search's picker
    /// was before it served all three: called through a function, the picker cost about 3 %
    /// more instructions over `cutoff bench 8` (callgrind).
    #[inline(always)]
    pub fn next(&mut self, pos: &Chess, history: &History) -> Option<Move> {
        self.next_pruning(pos, history, || false, None)
    }

    /// [`MovePicker::next`] for the main search, which prunes quiet moves (step 9): where
    /// `quiets_pruned` says, as the quiet stage is reached, that every quiet move not giving
    /// check would be skipped from now on (it must go on holding for the rest of the node
    /// once it holds: the pruning rules only tighten as moves are searched), and `checks`
    /// shows that none of them gives check, the quiet moves are counted as handed out without
    /// being keyed or handed out one by one. That is what [`MovePicker::end_pruned_quiets`]
    /// does at the first of them, only before their history is read: the tree is the same.
    #[inline(always)]
    pub fn next_pruning(
        &mut self,
        pos: &Chess,
        history: &History,
        quiets_pruned: impl Fn() -> bool,
        checks: Option<&CheckInfo>,
    ) -> Option<Move> {
        loop {
            match self.stage {
                TableMove => {
                    self.advance();
                    if let Some(m) = self.table_move {
                        return Some(self.give(m));
                    }
                }
                GenerateCaptures => {
                    self.generate_captures(pos, history);
                    self.advance();
                }
                GoodCaptures => match self.select(self.next, self.captures_end) {
                    Some(best) => {
                        let (m, key) = self.take(best);
                        if self.see_ordering && !see_at_least(pos, &m, 0) {
                            self.moves[self.bad_end] = m;
                            self.keys[self.bad_end] = key;
                            self.bad_end += 1;
                        } else {
                            return Some(self.give(m));
                        }
                    }
                    None => self.advance(),
                },
                Killers => {
                    if let Some(m) = self.next_killer(pos) {
                        return Some(self.give(m));
                    }
                    self.advance();
                }
                GenerateQuiets => {
                    let pruned = checks.filter(|_| quiets_pruned());
                    self.generate_quiets(pos, history, pruned);
                    self.advance();
                }
                Quiets => match self.select(self.next, self.moves.len()) {
                    Some(best) => {
                        let (m, _) = self.take(best);
                        return Some(self.give(m));
                    }
                    None => {
                        self.advance();
                        self.next = 0;
                    }
                },
                BadCaptures => {
                    if self.next < self.bad_end {
                        let m = self.moves[self.next];
                        self.next += 1;
                        return Some(self.give(m));
                    }
                    self.advance();
                }
                GenerateTactical => {
                    tactical_moves(pos, self.moves);
                    self.key_captures(pos, history);
                    self.advance();
                }
                GenerateEvasions => {
                    *self.moves = pos.legal_moves();
                    self.keys.extend(self.moves.iter().map(mvv_lva));
                    self.advance();
                }
                Best => match self.select(self.next, self.moves.len()) {
                    Some(best) => {
                        let (m, _) = self.take(best);
                        return Some(self.give(m));
                    }
                    None => self.advance(),
                },
                Winning => match self.select(self.next, self.moves.len()) {
                    Some(best) => {
                        let (m, _) = self.take(best);
                        if see_at_least(pos, &m, self.see_threshold) {
                            return Some(self.give(m));
                        }
                    }
                    None => self.advance(),
                },
                Done => return None,
            }
        }
    }

    /// On to the stage after this one (`Done` stays).
    #[inline]
    fn advance(&mut self) {
        if let [stage, rest @ ..] = self.rest {
            self.stage = *stage;
            self.rest = rest;
        }
    }

    #[inline]
    fn give(&mut self, m: Move) -> Move {
        self.handed_out += 1;
        m
    }

    /// Stage 2's list: every capture and promotion but the table's move, keyed by MVV-LVA and
    /// capture history (their class by SEE is decided when each is reached).
    #[inline(never)]
    fn generate_captures(&mut self, pos: &Chess, history: &History) {
        noisy_moves(pos, self.moves);
        if let Some(table_move) = self.table_move {
            if let Some(at) = self.moves.iter().position(|&m| m == table_move) {
                self.moves.remove(at);
            }
        }
        self.key_captures(pos, history);
        self.captures_end = self.moves.len();
        self.next = 0;
    }

    /// Keys the generated captures by MVV-LVA and, when on, capture history.
    #[inline]
    fn key_captures(&mut self, pos: &Chess, history: &History) {
        let side = pos.turn();
        let capture_history = self.capture_history.then_some(history);
        self.keys.clear();
        for m in self.moves.iter() {
            self.keys.push(capture_key(side, m, capture_history));
        }
    }

    /// Stage 3: the next killer that is a legal quiet move here and not the table's move.
    #[inline(never)]
    fn next_killer(&mut self, pos: &Chess) -> Option<Move> {
        while self.killer < 2 {
            let slot = self.killer;
            self.killer += 1;
            let Some(killer) = self.killers[slot] else {
                continue;
            };
            // Not the table's move again, nor the first killer twice.
            if Some(killer) == self.table_move || (slot == 1 && self.killers[0] == Some(killer)) {
                continue;
            }
            let Some(from) = killer.from() else {
                continue;
            };
            // Equal only if the same piece makes the same move and captures nothing here.
            if legal_move(pos, from, killer.to(), None) == Some(killer) {
                self.killers_given[slot] = Some(killer);
                return Some(killer);
            }
        }
        None
    }

    /// Stage 4's list, after the captures: the quiet moves but the table's move and the
    /// killers handed out, keyed by history. With `pruned_unless_checking` (the search would
    /// prune each quiet move that does not give check, told by this node's checks) and none
    /// giving check, they are counted as handed out instead, and the stage is left empty.
    #[inline(never)]
    fn generate_quiets(
        &mut self,
        pos: &Chess,
        history: &History,
        pruned_unless_checking: Option<&CheckInfo>,
    ) {
        let side = pos.turn();
        let continuation = self.continuation;
        let skip = [
            self.table_move,
            self.killers_given[0],
            self.killers_given[1],
        ];
        self.moves.truncate(self.captures_end);
        self.keys.truncate(self.captures_end);
        quiet_moves(pos, self.moves);
        if pruned_unless_checking
            .is_some_and(|checks| checks.surely_no_quiet_check(&self.moves[self.captures_end..]))
        {
            // Every legal quiet move is in the list, so the quiet ones among the table's move
            // and the killers given (all legal, all different) are there once each.
            let given = skip.iter().flatten().filter(|m| !is_tactical(m)).count();
            self.handed_out += self.moves.len() - self.captures_end - given;
            self.next = self.moves.len();
            return;
        }
        // Most moves land where none of the three was headed: one bit test spares them the
        // three whole-move comparisons.
        let skip_to = skip
            .iter()
            .flatten()
            .fold(Bitboard::EMPTY, |squares, m| squares | m.to());
        let scorer = history.quiet_scorer(side, self.threats, continuation.as_ref());
        let mut at = self.captures_end;
        while at < self.moves.len() {
            let m = self.moves[at];
            if skip_to.contains(m.to()) && skip.contains(&Some(m)) {
                self.moves.remove(at);
                continue;
            }
            self.keys.push(scorer.score(&m));
            at += 1;
        }
        self.next = self.captures_end;
    }

    /// The index of the first of the highest keys in `from..to`, `None` when empty.
    #[inline]
    fn select(&self, from: usize, to: usize) -> Option<usize> {
        if from >= to {
            return None;
        }
        Some(from + first_highest(&self.keys[from..to]))
    }

    /// Swaps the move at `best` to the stage's front and moves past it.
    #[inline(always)]
    fn take(&mut self, best: usize) -> (Move, i32) {
        self.moves.swap(self.next, best);
        self.keys.swap(self.next, best);
        self.next += 1;
        (self.moves[self.next - 1], self.keys[self.next - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::pos as position;
    use crate::search::ordering::is_tactical;
    use crate::search::see::see_at_least;
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    fn heuristics(history: &History) -> Heuristics<'_> {
        Heuristics {
            history,
            continuation: None,
            capture_history: false,
            see_ordering: true,
            threats: Bitboard::EMPTY,
        }
    }

    fn order(pos: &Chess, tt_move: PackedMove, killers: [Option<Move>; 2]) -> Vec<String> {
        let history = History::default();
        let mut buffer = MoveBuffer::new();
        let mut picker = MovePicker::new(
            pos,
            pos.is_check(),
            &mut buffer,
            tt_move,
            killers,
            heuristics(&history),
        );
        let mut order = Vec::new();
        while let Some(picked) = picker.next(pos, &history) {
            order.push(picked.to_string());
        }
        assert_eq!(picker.handed_out(), order.len());
        order
    }

    /// A picker for `pos` (not in check) with no table move and no killers.
    fn plain_picker<'a>(
        pos: &Chess,
        buffer: &'a mut MoveBuffer,
        ordering: Heuristics<'_>,
    ) -> MovePicker<'a> {
        MovePicker::new(pos, false, buffer, PackedMove::NONE, [None; 2], ordering)
    }

    fn find(pos: &Chess, uci: &str) -> Move {
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to_uci(CastlingMode::Standard).to_string() == uci);
        m.unwrap_or_else(|| panic!("{uci} is not legal"))
    }

    #[test]
    fn captures_of_big_pieces_by_small_ones_come_first() {
        // White can take the queen on d5 with the pawn (e4) or the knight (c3), or a pawn on a5.
        let pos = position("4k3/8/8/p2q4/4P3/2N5/8/4K3 w - - 0 1");
        let order = order(&pos, PackedMove::NONE, [None; 2]);
        assert_eq!(order[..2], ["e4xd5", "Nc3xd5"]);
    }

    #[test]
    fn the_stages_come_in_order_table_move_captures_killers_quiets_losing_captures() {
        // Qxd5 wins a pawn but loses the queen to the e6 pawn; Qxa4 wins a knight.
        let pos = position("4k3/8/4p3/3p4/n7/8/8/3QK1N1 w - - 0 1");
        let table = find(&pos, "g1f3");
        let killer = find(&pos, "e1f2");
        let order = order(&pos, PackedMove::new(table), [Some(killer), None]);
        assert_eq!(order[0], "Ng1-f3");
        assert_eq!(order[1], "Qd1xa4");
        assert_eq!(order[2], "Ke1-f2");
        assert_eq!(order.last().unwrap(), "Qd1xd5");
        let mut sorted = order.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), pos.legal_moves().len(), "{order:?}");
    }

    /// Without SEE ordering a losing capture is not deferred: captures all come first.
    #[test]
    fn losing_captures_go_after_quiet_moves_only_with_see_ordering() {
        // Qxd5 wins a pawn but loses the queen to the e6 pawn.
        let pos = position("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1");
        for see_ordering in [true, false] {
            let history = History::default();
            let ordering = Heuristics {
                see_ordering,
                ..heuristics(&history)
            };
            let mut buffer = MoveBuffer::new();
            let mut picker = plain_picker(&pos, &mut buffer, ordering);
            let mut order = Vec::new();
            while let Some(picked) = picker.next(&pos, &history) {
                order.push(picked.to_string());
            }
            let expected_at = if see_ordering { order.len() - 1 } else { 0 };
            assert_eq!(order[expected_at], "Qd1xd5", "{see_ordering}: {order:?}");
        }
    }

    #[test]
    fn a_killer_that_is_not_a_legal_quiet_move_here_is_not_handed_out() {
        // The killer Nb1-c3 of another position: here c3 holds a black pawn.
        let other = position("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
        let killer = find(&other, "b1c3");
        let pos = position("4k3/8/8/8/8/2p5/8/1N2K3 w - - 0 1");
        let order = order(&pos, PackedMove::NONE, [Some(killer), None]);
        assert_eq!(order[0], "Nb1xc3");
        assert_eq!(order.iter().filter(|m| m.contains("c3")).count(), 1);
        assert_eq!(order.len(), pos.legal_moves().len());
    }

    /// Step 9's shortcut: once the quiet stage has begun, ending it hands out the losing
    /// captures next with the indices they had when every pruned quiet move was handed out;
    /// a quiet move still kept (one giving check) keeps the stage as it was.
    #[test]
    fn ending_the_pruned_quiet_stage_keeps_the_later_moves_and_their_indices() {
        // Qxd5 wins a pawn but loses the queen to the e6 pawn: the losing capture comes last.
        let pos = position("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1");
        let full = order(&pos, PackedMove::NONE, [None; 2]);
        let history = History::default();
        for keep_one in [false, true] {
            let mut buffer = MoveBuffer::new();
            let mut picker = plain_picker(&pos, &mut buffer, heuristics(&history));
            // The first quiet move, then the shortcut.
            let mut seen = Vec::new();
            while let Some(m) = picker.next(&pos, &history) {
                seen.push(m.to_string());
                if !is_tactical(&m) {
                    break;
                }
            }
            let kept = find(&pos, "d1d4");
            picker.end_pruned_quiets(|m| keep_one && *m == kept);
            let mut rest = Vec::new();
            while let Some(m) = picker.next(&pos, &history) {
                rest.push((picker.handed_out() - 1, m.to_string()));
            }
            let last = (full.len() - 1, full[full.len() - 1].clone());
            if keep_one {
                let expected: Vec<_> = full.iter().cloned().enumerate().skip(seen.len()).collect();
                assert_eq!(rest, expected);
            } else {
                assert_eq!(
                    rest,
                    [last],
                    "only the losing capture, at its full-order index"
                );
            }
            assert_eq!(picker.handed_out(), full.len());
        }
    }

    /// Step 9's rule asked as the quiet stage is reached: where no quiet move gives check, the
    /// stage hands out none and counts them all (the table's move and the killer, quiet and
    /// handed out before, once), so the losing capture after them keeps its index; where a
    /// quiet move gives check, or the rule does not hold, the order is the full one.
    #[test]
    fn quiet_moves_all_pruned_are_counted_not_handed_out() {
        // Qxd5 loses the queen to the e6 pawn. The black king on h8 behind its pawns can be
        // checked by no quiet move; on e8, Qh5 and Qa4 check it.
        for (fen, quiet_check) in [
            ("7k/6pp/4p3/3p4/8/8/8/3QK3 w - - 0 1", false),
            ("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", true),
        ] {
            let pos = position(fen);
            let table = find(&pos, "d1d2");
            let killer = find(&pos, "e1f2");
            let tt_move = PackedMove::new(table);
            let full = order(&pos, tt_move, [Some(killer), None]);
            let history = History::default();
            let checks = CheckInfo::new(&pos);
            for rule in [false, true] {
                let mut buffer = MoveBuffer::new();
                let mut picker = MovePicker::new(
                    &pos,
                    false,
                    &mut buffer,
                    tt_move,
                    [Some(killer), None],
                    heuristics(&history),
                );
                let mut got = Vec::new();
                while let Some(m) = picker.next_pruning(&pos, &history, || rule, Some(&checks)) {
                    got.push((picker.handed_out() - 1, m.to_string()));
                }
                let everything: Vec<_> = full.iter().cloned().enumerate().collect();
                if rule && !quiet_check {
                    let last = full.len() - 1;
                    let expected = [
                        (0, "Qd1-d2".to_string()),
                        (1, "Ke1-f2".to_string()),
                        (last, "Qd1xd5".to_string()),
                    ];
                    assert_eq!(got, expected, "{fen}");
                } else {
                    assert_eq!(got, everything, "{fen}, rule {rule}");
                }
                assert_eq!(picker.handed_out(), full.len(), "{fen}, rule {rule}");
            }
        }
    }

    /// Every legal move exactly once, whatever the table's move and killers: random 16-bit
    /// table moves (mostly illegal) and killers taken from other positions, over random games.
    #[test]
    fn every_legal_move_is_handed_out_exactly_once() {
        let mut rng = crate::rng::Rng::new(0x9E37_79B9_7F4A_7C15u64);
        let mut rand = move || rng.next_u64();
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        // Per side: quiet moves that were legal in that side's earlier positions.
        let mut killers: [[Option<Move>; 2]; 2] = [[None; 2]; 2];
        let mut positions = 0;
        for fen in starts {
            for _ in 0..20 {
                let mut pos = position(fen);
                for _ in 0..60 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let tt_move = match rand() % 3 {
                        0 => PackedMove::NONE,
                        1 => PackedMove::new(legal[(rand() % legal.len() as u64) as usize]),
                        _ => PackedMove::from_bits(rand() as u16),
                    };
                    let side = pos.turn() as usize;
                    let mut got = order(&pos, tt_move, killers[side]);
                    let mut want: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
                    got.sort();
                    want.sort();
                    let fen = Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
                    assert_eq!(got, want, "{fen}");
                    positions += 1;
                    let quiet = legal[(rand() % legal.len() as u64) as usize];
                    if !is_tactical(&quiet) {
                        killers[side] = [Some(quiet), killers[side][0]];
                    }
                    pos.play_unchecked(legal[(rand() % legal.len() as u64) as usize]);
                }
            }
        }
        assert!(positions > 2000, "{positions}");
    }

    /// Random positions for the order tests: random games from the perft suite's opening, its
    /// "kiwipete" and promotion positions, and a middlegame with checks and en passant.
    fn random_positions(rand: &mut impl FnMut() -> u64) -> Vec<Chess> {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        ];
        let mut positions = Vec::new();
        for fen in starts {
            for _ in 0..15 {
                let mut pos = position(fen);
                for _ in 0..40 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    positions.push(pos.clone());
                    pos.play_unchecked(legal[(rand() % legal.len() as u64) as usize]);
                }
            }
        }
        positions
    }

    /// A capture history with random values for some of the captures of `positions`: many
    /// captures keep 0, so equal keys (ties) are common.
    fn random_capture_history(positions: &[Chess], rand: &mut impl FnMut() -> u64) -> History {
        let mut history = History::default();
        for pos in positions {
            let mut moves = MoveList::new();
            noisy_moves_or_evasions(pos, &mut moves);
            for m in moves.iter().filter(|m| is_tactical(m)) {
                if rand().is_multiple_of(3) {
                    let bonus = [-3000, -400, 400, 1200, 5000][(rand() % 5) as usize];
                    history.update_capture(pos.turn(), m, bonus);
                }
            }
        }
        history
    }

    fn noisy_moves_or_evasions(pos: &Chess, moves: &mut MoveList) {
        if pos.is_check() {
            *moves = pos.legal_moves();
        } else {
            noisy_moves(pos, moves);
        }
    }

    /// The moves the staged picker hands out until it is done.
    fn handed_out(picker: &mut MovePicker<'_>, pos: &Chess, history: &History) -> Vec<Move> {
        let mut order = Vec::new();
        while let Some(m) = picker.next(pos, history) {
            order.push(m);
        }
        order
    }

    /// The selection the picker started with: scan for the first highest key, swap it to the
    /// front. Its order among equal keys is what `Bench: N` was measured with.
    fn reference_order(mut moves: Vec<Move>, mut keys: Vec<i32>) -> Vec<Move> {
        for next in 0..moves.len() {
            let mut best = next;
            for i in next + 1..moves.len() {
                if keys[i] > keys[best] {
                    best = i;
                }
            }
            moves.swap(next, best);
            keys.swap(next, best);
        }
        moves
    }

    /// Faster selection must not change the order, ties included (many moves share a history
    /// score of 0): the same keys, the same moves in the same order as the reference.
    #[test]
    fn selection_order_matches_the_reference_with_ties() {
        let moves = Chess::default().legal_moves();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..2000 {
            let n = 1 + round % moves.len();
            let spread = [1, 2, 3, 1000][round % 4];
            let keys: Vec<i32> = (0..n)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state % spread) as i32 - 1
                })
                .collect();
            let mut buffer = MoveBuffer::new();
            let mut picker = MovePicker::with_stages(&mut buffer, EVASIONS);
            picker.moves.extend(moves.iter().take(n).copied());
            picker.keys.extend(keys.iter().copied());
            let history = History::default();
            let got = handed_out(&mut picker, &Chess::default(), &history);
            let expected = reference_order(moves[..n].to_vec(), keys);
            assert_eq!(got, expected, "round {round}");
        }
    }

    /// Quiescence's and probcut's order, as the engine was measured with it: quiescence's
    /// moves are `tactical_moves` (captures and queen promotions; in check every legal move),
    /// keyed by 8 × MVV-LVA + a quarter of the capture history (MVV-LVA alone in check or
    /// without capture history), handed out by first-highest selection; probcut's are the same
    /// in the same order, less those that do not win its threshold by static exchange.
    fn order_in_words(
        pos: &Chess,
        history: &History,
        capture_history: bool,
        see_threshold: Option<i32>,
    ) -> Vec<Move> {
        let in_check = pos.is_check();
        let mut moves = MoveList::new();
        if in_check {
            moves = pos.legal_moves();
        } else {
            tactical_moves(pos, &mut moves);
        }
        let side = pos.turn();
        let key = |m: &Move| {
            if capture_history && !in_check {
                8 * mvv_lva(m) + history.capture_score(side, m) / 4
            } else {
                mvv_lva(m)
            }
        };
        let keys = moves.iter().map(key).collect();
        reference_order(moves.to_vec(), keys)
            .into_iter()
            .filter(|m| see_threshold.is_none_or(|t| see_at_least(pos, m, t)))
            .collect()
    }

    /// Quiescence and probcut hand out captures by MVV-LVA and capture history, ties by
    /// first-highest selection, probcut leaving out those that lose its threshold by exchange
    /// (`order_in_words`; `MovePicker`'s order, which they took over): over random positions
    /// (in check or not) and random capture histories, with capture history on and off.
    #[test]
    fn quiescence_and_probcut_hand_out_captures_by_mvv_lva_and_capture_history() {
        let mut rng = crate::rng::Rng::new(0x2545_F491_4F6C_DD1Du64);
        let mut rand = move || rng.next_u64();
        let positions = random_positions(&mut rand);
        let history = random_capture_history(&positions, &mut rand);
        let (mut checks, mut ties, mut compared) = (0, 0, 0);
        for pos in &positions {
            let fen = Fen::from_position(pos, shakmaty::EnPassantMode::Legal);
            for capture_history in [true, false] {
                let mut buffer = MoveBuffer::new();
                let mut picker =
                    MovePicker::quiescence(pos.is_check(), &mut buffer, capture_history);
                let got = handed_out(&mut picker, pos, &history);
                let want = order_in_words(pos, &history, capture_history, None);
                assert_eq!(got, want, "quiescence, {capture_history}: {fen}");
                if !pos.is_check() {
                    let threshold = [-300, -100, 0, 100, 300, 900][(rand() % 6) as usize];
                    let mut buffer = MoveBuffer::new();
                    let mut picker = MovePicker::probcut(&mut buffer, capture_history, threshold);
                    let got = handed_out(&mut picker, pos, &history);
                    let want = order_in_words(pos, &history, capture_history, Some(threshold));
                    assert_eq!(got, want, "probcut {threshold}, {capture_history}: {fen}");
                }
                let keys: Vec<i32> = buffer_keys(pos, &history, capture_history);
                ties += usize::from((1..keys.len()).any(|i| keys[..i].contains(&keys[i])));
                compared += 1;
            }
            checks += usize::from(pos.is_check());
        }
        assert!(
            compared > 3000 && checks > 50 && ties > 500,
            "{compared} {checks} {ties}"
        );
    }

    /// Quiescence's keys at `pos`, to count the positions with equal keys.
    fn buffer_keys(pos: &Chess, history: &History, capture_history: bool) -> Vec<i32> {
        let mut buffer = MoveBuffer::new();
        let mut picker = MovePicker::quiescence(pos.is_check(), &mut buffer, capture_history);
        picker.next(pos, history);
        buffer.keys.to_vec()
    }
}
