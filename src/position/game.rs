//! A game: the root position, how it was reached (for repetition), and the castling notation.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use super::fen::{read_fen, FenPolicy};
use super::keys::{child_key, full_key, Key};

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
    fn illegal_moves_are_refused_and_leave_the_game_alone() {
        let mut game = Game::default();
        let before = game.fen();
        assert!(game.play_uci("e2e5").is_err());
        assert!(game.play_uci("zz").is_err());
        assert_eq!(game.fen(), before);
    }
}
