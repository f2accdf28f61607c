//! A finished game's result, in a room of its own below the games that produce it
//! (`datagen/mod.rs`) and the layout that stores it ([`super::viriformat`]), so that neither
//! imports the other for it.

use shakmaty::Color;

/// A finished game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    Draw,
    BlackWins,
}

impl GameResult {
    /// White's score as text: 1.0, 0.5 or 0.0.
    pub fn label(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1.0",
            GameResult::Draw => "0.5",
            GameResult::BlackWins => "0.0",
        }
    }

    /// White's score.
    pub fn white_score(self) -> f32 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWins => 0.0,
        }
    }

    pub(super) fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}
