//! The board, floor 1: a game and its repetition history ([`Game`]), move generation helpers beside
//! shakmaty's ([`tactical_moves`], [`quiet_moves`], [`legal_move`]), check information
//! ([`CheckInfo`]), the squares a side attacks ([`attacked_by`], [`pawns_attack`]), what a move
//! changes on the board ([`MoveDelta`]), Zobrist keys ([`full_key`], [`key_after`]) and FEN reading
//! ([`read_fen`], [`pos`]), each in its own room. This front only names the rooms and re-exports
//! what the crate uses, so that `crate::position::X` is the one path to each.

mod check;
mod delta;
mod fen;
mod game;
mod keys;
mod movegen;
mod threats;

pub use check::{gives_check, CheckInfo};
pub use delta::MoveDelta;
pub use fen::{pos, read_fen, FenPolicy};
pub use game::Game;
pub use keys::{child_key, full_key, key_after, null_move, EarlyKey, Key};
pub use movegen::{legal_move, noisy_moves, quiet_moves, tactical_moves};
pub use threats::{attacked_by, pawns_attack};
