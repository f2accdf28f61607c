//! A game: the root position, how it was reached (for repetition), and the castling notation;
//! and [`read_fen`], the one FEN reader of the engine and its tools.

use shakmaty::attacks::{self, bishop_attacks, rook_attacks};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, File, Move, MoveList, Piece, Position,
    PositionError, Role, Square,
};

/// How much of what shakmaty refuses in a FEN [`read_fen`] accepts.
///
/// Under both policies a check that no game can reach (two sliders checking along one line, a
/// check an en-passant capture could not have given) is accepted: move generation copes, and
/// published perft suites contain such positions. A position that cannot be played at all (a
/// missing or extra king, pawns on the back rank, the side not to move in check, too much
/// material) is refused under both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenPolicy {
    /// Nothing else is changed: every castling right must have its king and rook, and the
    /// en-passant square must be one a pawn could just have passed. For files whose lines state
    /// facts about the position as written (perft counts, best moves), and for `perft --fen`,
    /// where Chess960 castling rights read in standard mode must be an error, not dropped.
    Strict,
    /// Also repairs what GUIs and hand-made data write loosely: castling rights without their
    /// king or rook, and an impossible en-passant square, are dropped (neither allows a move,
    /// so the legal moves are those of the FEN as written). For `position fen`, datagen books and
    /// tuning data.
    Lenient,
}

/// Reads a FEN (leading and trailing space ignored; missing trailing fields take their usual
/// defaults) in a castling mode: X-FEN and Shredder-FEN castling rights are read in Chess960
/// mode. The error names the text and says what is wrong with it.
pub fn read_fen(text: &str, mode: CastlingMode, policy: FenPolicy) -> Result<Chess, String> {
    let text = text.trim();
    check_counters(text)?;
    let fen: Fen = text.parse().map_err(|e| format!("bad FEN '{text}': {e}"))?;
    let pos = fen
        .into_position(mode)
        .or_else(PositionError::ignore_impossible_check);
    let pos = match policy {
        FenPolicy::Strict => pos,
        FenPolicy::Lenient => pos
            .or_else(PositionError::ignore_invalid_castling_rights)
            .or_else(PositionError::ignore_invalid_ep_square),
    };
    pos.map_err(|e| {
        // shakmaty's message starts with "illegal position: " itself.
        let message = e.to_string();
        let reasons = message
            .strip_prefix("illegal position: ")
            .unwrap_or(&message);
        format!("illegal position '{text}': {reasons}")
    })
}

/// Refuses a halfmove clock or fullmove number beyond `u32`, which shakmaty would read as
/// 4294967295 without a word: a number that large is no count of moves but a damaged field.
/// The fields are found as shakmaty finds them (split at spaces and underscores, after the
/// board, side, castling and en-passant fields, a three-check field such as `3+3` skipped);
/// anything but digits there is left to shakmaty's own error.
fn check_counters(text: &str) -> Result<(), String> {
    let counters = text
        .split([' ', '_'])
        .filter(|field| !field.is_empty())
        .skip(4)
        .filter(|field| !field.contains('+'));
    for (name, field) in ["halfmove clock", "fullmove number"]
        .into_iter()
        .zip(counters)
    {
        if field.bytes().all(|b| b.is_ascii_digit()) && field.parse::<u32>().is_err() {
            return Err(format!(
                "bad FEN '{text}': {name} {field} is beyond {}",
                u32::MAX
            ));
        }
    }
    Ok(())
}

/// Zobrist key of a position, as the transposition table and repetition detection use it.
pub type Key = u64;

/// The full hash of a position, computed from scratch.
pub fn full_key(pos: &Chess) -> Key {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key of `pos` after playing the legal move `m` (whose result is `child`), updated
/// incrementally for every move.
#[inline]
pub fn child_key(pos: &Chess, key: Key, m: Move, child: &Chess) -> Key {
    key_after(pos, key, m).finish(child)
}

/// A child's key computed before its move is played, so that the search can prefetch the
/// child's table slot while it plays the move. It is the child's key exactly, except where the
/// move is a double push beside an enemy pawn: whether the child then has a *legal* en-passant
/// capture (the keys follow shakmaty's `EnPassantMode::Legal`) needs the child, and
/// [`EarlyKey::finish`] adds its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EarlyKey {
    /// The child's key, less its en-passant file where `check_ep` is set.
    pub key: Key,
    check_ep: bool,
}

impl EarlyKey {
    /// The child's key, given the child (read only after a double push beside an enemy pawn).
    #[inline]
    pub fn finish(self, child: &Chess) -> Key {
        match self.check_ep.then(|| child.ep_square(EnPassantMode::Legal)) {
            Some(Some(sq)) => self.key ^ Zobrist64::zobrist_for_en_passant_file(sq.file()).0,
            _ => self.key,
        }
    }
}

/// The key of `pos` after the legal move `m`, from `pos`'s key, for every kind of move: the
/// side to move; the pieces that leave and arrive (captures, en passant, promotions, both
/// castlings, Chess960's included); the castling rights the move loses (a king move loses its
/// side's, a move from or onto a right's rook square that right); the parent's en-passant file
/// if it had a legal capture; the child's is settled by [`EarlyKey::finish`]. Equal to
/// [`full_key`] of the child (a test walks the perft suites' trees to hold it to that).
#[inline]
pub fn key_after(pos: &Chess, key: Key, m: Move) -> EarlyKey {
    let us = pos.turn();
    let z = |sq: Square, role: Role, color: Color| {
        Zobrist64::zobrist_for_piece(sq, Piece { color, role }).0
    };
    let mut k = key ^ Zobrist64::zobrist_for_white_turn().0;
    let mut check_ep = false;
    // The squares whose castling rights the move ends, and whether it is a king move.
    let (touched, king_move) = match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            k ^= z(from, role, us) ^ z(to, promotion.unwrap_or(role), us);
            if let Some(taken) = capture {
                k ^= z(to, taken, !us);
            }
            if role == Role::Pawn && from.distance(to) == 2 {
                // Our pawn on the passed square attacks exactly the squares beside `to`.
                let passed = Square::new((u32::from(from) + u32::from(to)) / 2);
                let board = pos.board();
                check_ep =
                    (attacks::pawn_attacks(us, passed) & board.pawns() & board.by_color(!us)).any();
            }
            (Bitboard::from(from) | to, role == Role::King)
        }
        Move::EnPassant { from, to } => {
            let taken = Square::from_coords(to.file(), from.rank());
            k ^= z(from, Role::Pawn, us) ^ z(to, Role::Pawn, us) ^ z(taken, Role::Pawn, !us);
            (Bitboard::EMPTY, false)
        }
        Move::Castle { king, rook } => {
            let side = shakmaty::CastlingSide::from_queen_side(rook < king);
            k ^= z(king, Role::King, us) ^ z(rook, Role::Rook, us);
            k ^= z(side.king_to(us), Role::King, us) ^ z(side.rook_to(us), Role::Rook, us);
            (Bitboard::EMPTY, true)
        }
        Move::Put { role, to } => {
            k ^= z(to, role, us);
            (Bitboard::EMPTY, false)
        }
    };
    let castles = pos.castles();
    if castles.any() {
        for color in Color::ALL {
            for side in shakmaty::CastlingSide::ALL {
                let lost = castles
                    .rook(color, side)
                    .is_some_and(|sq| (king_move && color == us) || touched.contains(sq));
                if lost {
                    k ^= Zobrist64::zobrist_for_castling_right(color, side).0;
                }
            }
        }
    }
    if let Some(sq) = pos.ep_square(EnPassantMode::Legal) {
        k ^= Zobrist64::zobrist_for_en_passant_file(sq.file()).0;
    }
    EarlyKey { key: k, check_ep }
}

/// The position after the side to move passes (a null move), with its key updated
/// incrementally; `None` in check, where passing is illegal. shakmaty rebuilds the position
/// for this, so it is far dearer than a real move: use it sparingly.
pub fn null_move(pos: &Chess, key: Key) -> Option<(Chess, Key)> {
    let mut k = Zobrist64(key);
    k ^= Zobrist64::zobrist_for_white_turn();
    if let Some(sq) = pos.ep_square(EnPassantMode::Legal) {
        k ^= Zobrist64::zobrist_for_en_passant_file(sq.file());
    }
    let child = pos.clone().swap_turn().ok()?;
    Some((child, k.0))
}

/// Whether the legal move `m` gives check: exactly `is_check()` of the position after it, read
/// from the attack tables without playing the move, so the search need not copy and play the
/// moves it prunes. One move's question; a node that asks for many moves builds one
/// [`CheckInfo`] and asks it.
#[inline]
pub fn gives_check(pos: &Chess, m: &Move) -> bool {
    CheckInfo::new(pos).gives_check(pos, m)
}

/// What a node needs to tell whether each of its moves gives check, worked out once: the
/// squares from which each kind of piece of ours would attack the enemy king, and our pieces
/// whose leaving the line uncovers a slider of ours aimed at it (Stockfish's check squares and
/// discovered-check candidates). Per move it is then one or two bitboard tests instead of an
/// attack-table lookup from the move's square (`shakmaty::attacks::attacks` was 7 % of a
/// search's `perf` samples).
///
/// A move checks directly (the piece it puts on `to` attacks the king) or by discovery (a
/// slider of ours sees the king through the square the move empties). `pos` must be legal as
/// [`read_fen`] makes it: the side not to move is not in check, so no piece of ours attacks
/// the king already. Promotions, en passant and castling, rare, are worked out in full.
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// The enemy king, `None` in a position without one (then nothing checks).
    king: Option<Square>,
    /// Indexed by `Role as usize` (pawn = 1 ... king = 6): where that piece of ours would give
    /// check from, with the board's occupancy as it is.
    check_squares: [Bitboard; 7],
    /// Our pieces alone between the enemy king and a slider of ours aimed at it.
    discoverers: Bitboard,
}

impl CheckInfo {
    #[inline]
    pub fn new(pos: &Chess) -> CheckInfo {
        let board = pos.board();
        let us = pos.turn();
        let Some(king) = board.king_of(!us) else {
            return CheckInfo {
                king: None,
                check_squares: [Bitboard(0); 7],
                discoverers: Bitboard(0),
            };
        };
        let occupied = board.occupied();
        let bishop = bishop_attacks(king, occupied);
        let rook = rook_attacks(king, occupied);
        let ours = board.by_color(us);
        CheckInfo {
            king: Some(king),
            check_squares: [
                Bitboard(0),
                attacks::pawn_attacks(!us, king),
                attacks::knight_attacks(king),
                bishop,
                rook,
                bishop | rook,
                Bitboard(0),
            ],
            discoverers: pinned_candidates(board, ours, king) & ours,
        }
    }

    /// Whether the legal move `m` of the node's position `pos` gives check.
    #[inline]
    pub fn gives_check(&self, pos: &Chess, m: &Move) -> bool {
        let Some(king) = self.king else {
            return false;
        };
        match *m {
            Move::Normal {
                role,
                from,
                to,
                promotion: None,
                ..
            } => {
                // The occupancy differs from the node's only on `from` and `to`: `to` cannot
                // lie between itself and the king, and `from` could only if the piece had seen
                // the king before, which a legal position rules out.
                self.check_squares[role as usize].contains(to)
                    || (self.discoverers.contains(from) && !attacks::aligned(from, to, king))
            }
            Move::Normal { .. } | Move::EnPassant { .. } => gives_check_in_full(pos, m, king),
            Move::Castle { .. } | Move::Put { .. } => {
                let mut child = pos.clone();
                child.play_unchecked(*m);
                child.is_check()
            }
        }
    }
}

/// [`CheckInfo::gives_check`] for a promotion or en passant, from the attack tables with the
/// occupancy after the move: the piece on `to`, and a discovery through any square emptied.
fn gives_check_in_full(pos: &Chess, m: &Move, king: Square) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let (role, from, to, emptied) = match *m {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => (promotion.unwrap_or(role), from, to, Bitboard::from(from)),
        Move::EnPassant { from, to } => {
            let taken = Square::from_coords(to.file(), from.rank());
            (Role::Pawn, from, to, Bitboard::from(from) | taken)
        }
        Move::Castle { .. } | Move::Put { .. } => unreachable!("castling is played in full"),
    };
    let occupied = (board.occupied() & !emptied) | to;
    if attacks::attacks(to, Piece { color: us, role }, occupied).contains(king) {
        return true;
    }
    // A discovery needs an emptied square on a line through the king; it is given by a slider
    // of ours that stayed where it was (the moved piece was looked at above).
    if emptied
        .into_iter()
        .all(|sq| attacks::ray(king, sq).is_empty())
    {
        return false;
    }
    let ours = board.by_color(us) & !Bitboard::from(from);
    (rook_attacks(king, occupied) & board.rooks_and_queens() & ours).any()
        || (bishop_attacks(king, occupied) & board.bishops_and_queens() & ours).any()
}

/// Appends to `moves` the legal captures (under-promotions that capture included) and
/// promotions to a queen of a position whose side to move is not in check: what quiescence
/// searches when it may stand pat. The list is the caller's, so that over a kilobyte of moves is
/// not copied out of here at every quiescence node.
///
/// shakmaty 0.30 has no capture generator of its own (`capture_moves` generates every legal move
/// and drops the quiet ones), so this one reads its attack tables. The moves come in the order of
/// `legal_moves` filtered to the same moves (en passant, pawn captures towards the a-file side
/// then the h-file side, queen push-promotions, knights, bishops, rooks, queens, king), so that
/// a picker breaking ties by list position orders them the same way either way. Legality is
/// shakmaty's own test: a pinned piece moves along its pin only, the king only to unattacked
/// squares, and en passant is left to shakmaty.
pub fn tactical_moves(pos: &Chess, moves: &mut MoveList) {
    captures_and_promotions(pos, moves, &[Role::Queen]);
}

/// Appends every legal capture and promotion (what the search calls tactical) of a
/// position whose side to move is not in check: [`tactical_moves`] and the pushes that
/// under-promote. The main search's first generation stage: a node that a capture cuts never
/// generates its quiet moves.
pub fn noisy_moves(pos: &Chess, moves: &mut MoveList) {
    captures_and_promotions(
        pos,
        moves,
        &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight],
    );
}

/// The captures, and the pushes that promote to one of `push_promotions`.
#[inline(always)]
fn captures_and_promotions(pos: &Chess, moves: &mut MoveList, push_promotions: &[Role]) {
    if pos.maybe_ep_square().is_some() {
        moves.extend(pos.en_passant_moves());
    }
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return;
    };
    debug_assert!(!pos.is_check(), "captures alone need a side not in check");
    let them = board.by_color(!us);
    let occupied = board.occupied();
    let pinned = pinned_candidates(board, them, king);
    let legal =
        |from: Square, to: Square| !pinned.contains(from) || attacks::aligned(from, to, king);
    let mut push = |role: Role, from: Square, to: Square, promotion: Option<Role>| {
        if legal(from, to) {
            moves.push(Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion,
            });
        }
    };

    // Pawn captures, one diagonal at a time, as shakmaty orders them; then pushes to a queen.
    let pawns = board.pawns() & board.by_color(us);
    let (west, east, forward) = match us {
        Color::White => (7, 9, 8),
        Color::Black => (-9, -7, -8),
    };
    for (shift, keep) in [
        (west, !Bitboard::from(File::A)),
        (east, !Bitboard::from(File::H)),
    ] {
        let targets = (pawns & keep).shift(shift) & them;
        for to in targets & !Bitboard::BACKRANKS {
            push(Role::Pawn, from_offset(to, shift), to, None);
        }
        for to in targets & Bitboard::BACKRANKS {
            for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                push(Role::Pawn, from_offset(to, shift), to, Some(promotion));
            }
        }
    }
    for to in pawns.shift(forward) & !occupied & Bitboard::BACKRANKS {
        for &promotion in push_promotions {
            push(Role::Pawn, from_offset(to, forward), to, Some(promotion));
        }
    }

    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in board.by_piece(role.of(us)) {
            let piece = Piece { color: us, role };
            for to in attacks::attacks(from, piece, occupied) & them {
                push(role, from, to, None);
            }
        }
    }

    for to in attacks::king_attacks(king) & them {
        if board.attacks_to(to, !us, occupied).is_empty() {
            moves.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
}

/// Appends to `moves` the legal quiet moves (neither capture nor promotion) of a position whose
/// side to move is not in check: the main search's last generation stage, reached only at
/// nodes that the table's move, the captures and the killers did not cut. In the order of
/// `legal_moves` filtered to the same moves (pawn pushes, double pushes, knights, bishops,
/// rooks, queens, king, castling king side then queen side), so that the picker's ties fall
/// as they did when the quiet moves were taken from shakmaty's list.
pub fn quiet_moves(pos: &Chess, moves: &mut MoveList) {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return;
    };
    debug_assert!(
        !pos.is_check(),
        "quiet moves alone need a side not in check"
    );
    let them = board.by_color(!us);
    let occupied = board.occupied();
    let empty = !occupied;
    let pinned = pinned_candidates(board, them, king);
    let legal =
        |from: Square, to: Square| !pinned.contains(from) || attacks::aligned(from, to, king);
    let mut push = |role: Role, from: Square, to: Square| {
        if legal(from, to) {
            moves.push(Move::Normal {
                role,
                from,
                capture: None,
                to,
                promotion: None,
            });
        }
    };

    let pawns = board.pawns() & board.by_color(us);
    let (forward, double_ranks) = match us {
        Color::White => (8, Bitboard::SOUTH),
        Color::Black => (-8, Bitboard::NORTH),
    };
    let single = pawns.shift(forward) & empty;
    for to in single & !Bitboard::BACKRANKS {
        push(Role::Pawn, from_offset(to, forward), to);
    }
    for to in single.shift(forward) & double_ranks & empty {
        push(Role::Pawn, from_offset(to, 2 * forward), to);
    }
    for from in board.by_piece(Role::Knight.of(us)) {
        for to in attacks::knight_attacks(from) & empty {
            push(Role::Knight, from, to);
        }
    }
    for from in board.by_piece(Role::Bishop.of(us)) {
        for to in bishop_attacks(from, occupied) & empty {
            push(Role::Bishop, from, to);
        }
    }
    for from in board.by_piece(Role::Rook.of(us)) {
        for to in rook_attacks(from, occupied) & empty {
            push(Role::Rook, from, to);
        }
    }
    for from in board.by_piece(Role::Queen.of(us)) {
        for to in attacks::queen_attacks(from, occupied) & empty {
            push(Role::Queen, from, to);
        }
    }
    for to in attacks::king_attacks(king) & empty {
        // Not in check, so no slider looks through the king's square: the board as it is.
        if board.attacks_to(to, !us, occupied).is_empty() {
            moves.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: None,
                to,
                promotion: None,
            });
        }
    }
    if pos.castles().has_color(us) {
        moves.extend(pos.castling_moves(shakmaty::CastlingSide::KingSide));
        moves.extend(pos.castling_moves(shakmaty::CastlingSide::QueenSide));
    }
}

/// The legal move of `pos` from `from` to `to` (the rook's square for castling) with
/// `promotion`, if there is one: what the table's 16-bit move means in this position, found
/// without generating the moves, so that the table's move can be searched before any other
/// move is generated. Anything else gives `None`: a colliding entry may carry any 16 bits.
/// Equal to looking the move up in `legal_moves` (a test holds it to that for every 16-bit
/// value in the perft suites' positions).
#[inline]
pub fn legal_move(pos: &Chess, from: Square, to: Square, promotion: Option<Role>) -> Option<Move> {
    let board = pos.board();
    let us = pos.turn();
    let ours = board.by_color(us);
    if !ours.contains(from) {
        return None;
    }
    let role = board.role_at(from)?;
    if ours.contains(to) {
        // Only castling lands on a piece of one's own: the king onto its rook. Rare enough to
        // leave to shakmaty (castling through check, Chess960's squares).
        let castle = Move::Castle {
            king: from,
            rook: to,
        };
        let candidate = role == Role::King && promotion.is_none() && board.rooks().contains(to);
        return (candidate && pos.is_legal(castle)).then_some(castle);
    }
    let capture = board.role_at(to);
    if capture == Some(Role::King) {
        return None;
    }
    let m = if role == Role::Pawn {
        pawn_move(pos, from, to, capture, promotion)?
    } else {
        let piece = Piece { color: us, role };
        if promotion.is_some() || !attacks::attacks(from, piece, board.occupied()).contains(to) {
            return None;
        }
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion: None,
        }
    };
    leaves_king_safe(pos, m).then_some(m)
}

/// The pawn move from `from` to `to`, if a pawn of the side to move can make it (pseudo-legal):
/// a push, a double push from its second rank, a capture, en passant onto the position's
/// en-passant square; a promotion exactly when it reaches the last rank.
#[inline]
fn pawn_move(
    pos: &Chess,
    from: Square,
    to: Square,
    capture: Option<Role>,
    promotion: Option<Role>,
) -> Option<Move> {
    let us = pos.turn();
    let last_rank = to.rank() == us.relative_rank(shakmaty::Rank::Eighth);
    let promotes_well = match promotion {
        None => !last_rank,
        Some(role) => last_rank && !matches!(role, Role::Pawn | Role::King),
    };
    if !promotes_well {
        return None;
    }
    let normal = Move::Normal {
        role: Role::Pawn,
        from,
        capture,
        to,
        promotion,
    };
    if attacks::pawn_attacks(us, from).contains(to) {
        return match capture {
            Some(_) => Some(normal),
            None if pos.maybe_ep_square() == Some(to) => Some(Move::EnPassant { from, to }),
            None => None,
        };
    }
    if capture.is_some() {
        return None;
    }
    let forward = us.fold_wb(8, -8);
    let one = from.offset(forward)?;
    if to == one {
        return Some(normal);
    }
    let from_start = from.rank() == us.relative_rank(shakmaty::Rank::Second);
    let double =
        from_start && !pos.board().occupied().contains(one) && one.offset(forward) == Some(to);
    double.then_some(normal)
}

/// Whether the pseudo-legal move `m` (not castling) leaves the mover's king unattacked: the
/// attackers of the king's square after the move, less the piece the move captures.
#[inline]
fn leaves_king_safe(pos: &Chess, m: Move) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let occupied = board.occupied();
    let (from, to, captured) = match m {
        Move::Normal { from, to, .. } => (from, to, to),
        Move::EnPassant { from, to } => (from, to, Square::from_coords(to.file(), from.rank())),
        _ => return false,
    };
    let after = (occupied ^ Bitboard::from_square(from) ^ Bitboard::from_square(captured))
        | Bitboard::from_square(to);
    let target = if from == king { to } else { king };
    (board.attacks_to(target, !us, after) & !Bitboard::from_square(captured)).is_empty()
}

/// The square `offset` steps back from `to` (a pawn's origin).
#[inline]
fn from_offset(to: Square, offset: i32) -> Square {
    Square::new((u32::from(to) as i32 - offset) as u32)
}

/// Pieces alone between `king` and an enemy slider aiming at it (shakmaty's slider blockers):
/// a piece of ours among them is pinned and may move only along the line.
#[inline]
fn pinned_candidates(board: &shakmaty::Board, them: Bitboard, king: Square) -> Bitboard {
    let snipers = (rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens());
    let mut blockers = Bitboard(0);
    for sniper in snipers & them {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            blockers |= between;
        }
    }
    blockers
}

/// The position to search and the keys of the positions played before it.
#[derive(Clone, Debug)]
pub struct Game {
    pub root: Chess,
    pub root_key: Key,
    /// Keys of the earlier positions of the game, oldest first, back to the last irreversible
    /// move (older ones can never repeat).
    pub history: Vec<Key>,
    pub castling_mode: CastlingMode,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Chess::default(), CastlingMode::Standard)
    }
}

impl Game {
    pub fn new(root: Chess, castling_mode: CastlingMode) -> Game {
        let root_key = full_key(&root);
        Game {
            root,
            root_key,
            history: Vec::new(),
            castling_mode,
        }
    }

    /// A game starting from a FEN read as GUIs send it ([`FenPolicy::Lenient`]).
    pub fn from_fen(fen: &str, castling_mode: CastlingMode) -> Result<Game, String> {
        let pos = read_fen(fen, castling_mode, FenPolicy::Lenient)?;
        Ok(Game::new(pos, castling_mode))
    }

    /// Plays a move given in UCI notation (either castling notation), keeping the history.
    pub fn play_uci(&mut self, text: &str) -> Result<(), String> {
        let uci: UciMove = text
            .parse()
            .map_err(|_| format!("cannot read move '{text}'"))?;
        let m = uci
            .to_move(&self.root)
            .map_err(|_| format!("illegal move '{text}'"))?;
        self.play(m);
        Ok(())
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        let mut child = self.root.clone();
        child.play_unchecked(m);
        let key = child_key(&self.root, self.root_key, m, &child);
        if child.halfmoves() == 0 {
            self.history.clear();
        } else {
            self.history.push(self.root_key);
        }
        self.root = child;
        self.root_key = key;
    }

    pub fn fen(&self) -> String {
        Fen::from_position(&self.root, EnPassantMode::Legal).to_string()
    }

    /// A move in the notation this game prints (king-takes-rook castling only in Chess960).
    pub fn uci(&self, m: Move) -> String {
        m.to_uci(self.castling_mode).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingSide, Color};

    #[test]
    fn incremental_keys_match_full_keys_through_a_game() {
        let mut game = Game::default();
        for m in [
            "e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6", "d5c6", "d8d2", "b1d2", "e7e5", "g1f3",
            "b8c6",
        ] {
            game.play_uci(m).unwrap();
            assert_eq!(game.root_key, full_key(&game.root), "after {m}");
        }
        game.play_uci("e1h1").unwrap(); // king-takes-rook castling is accepted on input
        assert_eq!(game.root_key, full_key(&game.root));
    }

    #[test]
    fn keys_known_before_the_move_match_the_child_hashed_from_scratch() {
        // Castling both ways, en passant, promotions with and without capture, checks.
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let (mut answered, mut moves) = (0, 0);
        for fen in fens {
            let pos = Game::from_fen(fen, CastlingMode::Standard).unwrap().root;
            let key = full_key(&pos);
            for m in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                let early = key_after(&pos, key, m);
                moves += 1;
                if early.key == full_key(&child) {
                    answered += 1;
                }
                assert_eq!(
                    child_key(&pos, key, m, &child),
                    full_key(&child),
                    "{fen}: {m}"
                );
            }
        }
        // Every move here but the double pushes beside an enemy pawn has its key before it is
        // played (f2f4 in the second position; the whole trees: tests/perft_suites.rs).
        assert!(
            moves > 100 && answered + 2 >= moves,
            "key_after exact {answered} times in {moves}"
        );
    }

    #[test]
    fn fens_with_stray_castling_rights_are_accepted_and_impossible_ones_refused() {
        let g = Game::from_fen("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", CastlingMode::Standard).unwrap();
        assert_eq!(g.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert!(Game::from_fen("8/8/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard).is_err());
        assert!(Game::from_fen("rnbqkbnr/pppppppp/8/8", CastlingMode::Standard).is_err());
        assert!(Game::from_fen("garbage", CastlingMode::Standard).is_err());
    }

    #[test]
    fn fen_counters_beyond_u32_are_refused_and_the_largest_accepted() {
        let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        for policy in [FenPolicy::Strict, FenPolicy::Lenient] {
            let read = |counters: &str| {
                read_fen(
                    &format!("{board} {counters}"),
                    CastlingMode::Standard,
                    policy,
                )
            };
            let pos = read("4294967295 4294967295").unwrap();
            assert_eq!(
                (pos.halfmoves(), pos.fullmoves().get()),
                (u32::MAX, u32::MAX)
            );
            let err = read("0 99999999999999999999").unwrap_err();
            assert!(
                err.contains("fullmove number 99999999999999999999 is beyond 4294967295"),
                "{err}"
            );
            let err = read("4294967296 1").unwrap_err();
            assert!(
                err.contains("halfmove clock 4294967296 is beyond 4294967295"),
                "{err}"
            );
            // Underscores separate fields as spaces do, in shakmaty and here.
            let err = read_fen(
                &format!("{board}_0_4294967296"),
                CastlingMode::Standard,
                policy,
            )
            .unwrap_err();
            assert!(err.contains("fullmove number 4294967296"), "{err}");
        }
    }

    #[test]
    fn strict_refuses_stray_castling_rights_and_ep_squares_that_lenient_drops() {
        for (fen, repaired) in [
            (
                "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            ),
        ] {
            let strict = read_fen(fen, CastlingMode::Standard, FenPolicy::Strict);
            assert!(
                strict.unwrap_err().starts_with("illegal position '"),
                "{fen}"
            );
            let lenient = read_fen(fen, CastlingMode::Standard, FenPolicy::Lenient).unwrap();
            assert_eq!(
                Fen::from_position(&lenient, EnPassantMode::Legal).to_string(),
                repaired
            );
        }
    }

    #[test]
    fn chess960_castling_rights_need_chess960_mode_unless_dropped_leniently() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        assert!(read_fen(fen, CastlingMode::Standard, FenPolicy::Strict).is_err());
        let chess960 = read_fen(fen, CastlingMode::Chess960, FenPolicy::Strict).unwrap();
        assert!(chess960.castles().has(Color::White, CastlingSide::KingSide));
        let dropped = read_fen(fen, CastlingMode::Standard, FenPolicy::Lenient).unwrap();
        assert!(dropped.castles().is_empty());
    }

    #[test]
    fn both_policies_accept_an_impossible_check_and_refuse_an_unplayable_position() {
        // Two bishops checking along one diagonal: line 51 of epd/perft_standard.epd.
        let impossible_check = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1";
        for policy in [FenPolicy::Strict, FenPolicy::Lenient] {
            assert!(read_fen(impossible_check, CastlingMode::Standard, policy).is_ok());
            for unplayable in [
                "8/8/8/8/8/8/8/4K3 w - - 0 1",
                "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
                "Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            ] {
                let e = read_fen(unplayable, CastlingMode::Standard, policy).unwrap_err();
                assert!(
                    e.starts_with(&format!("illegal position '{unplayable}': ")),
                    "{e}"
                );
            }
            let e = read_fen(" garbage ", CastlingMode::Standard, policy).unwrap_err();
            assert!(e.starts_with("bad FEN 'garbage': "), "{e}");
        }
    }

    #[test]
    fn null_move_keys_match_full_keys() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        ] {
            let g = Game::from_fen(fen, CastlingMode::Standard).unwrap();
            let (child, key) = null_move(&g.root, g.root_key).unwrap();
            assert_eq!(key, full_key(&child), "{fen}");
            assert_ne!(child.turn(), g.root.turn());
        }
        let in_check =
            Game::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
        assert!(null_move(&in_check.root, in_check.root_key).is_none());
    }

    /// From the start and from positions full of pins, promotions and en passant, random games:
    /// in every position not in check, the generated moves are exactly shakmaty's legal moves
    /// that capture or promote to a queen, in the same order.
    #[test]
    fn tactical_and_quiet_moves_come_in_shakmatys_order_and_noisy_moves_add_every_promotion() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2",
            "4k3/8/8/2KPp2q/8/8/8/8 w - e6 0 2",
            "4k3/1b6/8/3P4/4K3/8/6q1/8 w - - 0 1",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        let mut tactical = 0;
        for fen in starts {
            for _ in 0..30 {
                let mut pos = Game::from_fen(fen, CastlingMode::Standard).unwrap().root;
                for _ in 0..80 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    if !pos.is_check() {
                        let mut expected = legal.clone();
                        expected.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
                        let fen = Fen::from_position(&pos, EnPassantMode::Legal);
                        let mut moves = MoveList::new();
                        tactical_moves(&pos, &mut moves);
                        assert_eq!(moves, expected, "{fen}");
                        // The main search's stage: every promotion as well, in any order.
                        let mut noisy = MoveList::new();
                        noisy_moves(&pos, &mut noisy);
                        let mut all_noisy = legal.clone();
                        all_noisy.retain(|m| m.is_capture() || m.is_promotion());
                        let key = |m: &Move| m.to_string();
                        noisy.sort_by_key(key);
                        all_noisy.sort_by_key(key);
                        assert_eq!(noisy, all_noisy, "{fen}");
                        // And the rest, the quiet moves, in shakmaty's order.
                        let mut quiet = MoveList::new();
                        quiet_moves(&pos, &mut quiet);
                        let mut all_quiet = legal.clone();
                        all_quiet.retain(|m| !m.is_capture() && !m.is_promotion());
                        assert_eq!(quiet, all_quiet, "{fen}");
                        checked += 1;
                        tactical += expected.len();
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    pos.play_unchecked(legal[(state % legal.len() as u64) as usize]);
                }
            }
        }
        assert!(
            checked > 10_000 && tactical > 20_000,
            "{checked} {tactical}"
        );
    }

    #[test]
    fn illegal_moves_are_refused_and_leave_the_game_alone() {
        let mut game = Game::default();
        let before = game.fen();
        assert!(game.play_uci("e2e5").is_err());
        assert!(game.play_uci("zz").is_err());
        assert_eq!(game.fen(), before);
    }
}
