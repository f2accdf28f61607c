//! A game: the root position, how it was reached (for repetition), and the castling notation.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, PositionError};

/// Zobrist key of a position, as the transposition table and repetition detection use it.
pub type Key = u64;

/// The full hash of a position, computed from scratch.
pub fn full_key(pos: &Chess) -> Key {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key of `pos` after playing the legal move `m` (whose result is `child`), updated
/// incrementally where shakmaty can and recomputed where it cannot.
#[inline]
pub fn child_key(pos: &Chess, key: Key, m: Move, child: &Chess) -> Key {
    match pos.update_zobrist_hash::<Zobrist64>(Zobrist64(key), m, EnPassantMode::Legal) {
        Some(k) => k.0,
        None => full_key(child),
    }
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

    /// Parses a FEN (X-FEN and Shredder-FEN castling rights are accepted in Chess960 mode).
    /// Castling rights without their rook and an impossible en-passant square are dropped, as
    /// GUIs expect; a position that cannot occur (a missing king, the side not to move in
    /// check, ...) is refused.
    pub fn from_fen(fen: &str, castling_mode: CastlingMode) -> Result<Game, String> {
        let fen: Fen = fen
            .trim()
            .parse()
            .map_err(|e| format!("bad FEN '{}': {e}", fen.trim()))?;
        let pos: Chess = fen
            .into_position(castling_mode)
            .or_else(PositionError::ignore_invalid_castling_rights)
            .or_else(PositionError::ignore_invalid_ep_square)
            .map_err(|e| format!("illegal position: {e}"))?;
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
    fn fens_with_stray_castling_rights_are_accepted_and_impossible_ones_refused() {
        let g = Game::from_fen("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", CastlingMode::Standard).unwrap();
        assert_eq!(g.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert!(Game::from_fen("8/8/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard).is_err());
        assert!(Game::from_fen("rnbqkbnr/pppppppp/8/8", CastlingMode::Standard).is_err());
        assert!(Game::from_fen("garbage", CastlingMode::Standard).is_err());
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

    #[test]
    fn illegal_moves_are_refused_and_leave_the_game_alone() {
        let mut game = Game::default();
        let before = game.fen();
        assert!(game.play_uci("e2e5").is_err());
        assert!(game.play_uci("zz").is_err());
        assert_eq!(game.fen(), before);
    }
}
