//! What each piece is worth to an evaluation: the numbers behind the `eval` command's piece
//! boards and `cutoff explain`'s.
//!
//! It is asked of an [`Evaluator`], the door the search uses, so the classical evaluation and
//! a net are measured by one procedure and their numbers can stand side by side. Every
//! value is a difference of two whole evaluations from scratch, from White's side, in
//! centipawns: no term of either evaluation is read from the inside.
//!
//! - A piece's **contribution** (as Stockfish's `eval` prints it): the position's value minus
//!   its value with that piece taken off. Kings are not removed. Where taking the piece off
//!   leaves no legal position (it uncovers a check on the side not to move, say), there is no
//!   value.
//!
//! The piece-square maps of `cutoff explain` are measured the same way, from [`white_value`]
//! and [`with_board`], in `lab::explain::maps`.

use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, FromSetup, Piece, Position, Role, Setup,
};

use super::evaluator::{Evaluator, EvaluatorKind};
use super::nnue::Network;
use super::wdl;
use crate::types::Score;

/// The value of `pos` from White's side, in centipawns, from scratch: the evaluator is set to
/// `pos` as a search root first, so no earlier position leaves anything behind.
pub fn white_value(evaluator: &mut Evaluator, pos: &Chess) -> i32 {
    evaluator.set_root(pos);
    let side = evaluator.evaluate(pos, 0).0;
    if pos.turn().is_white() {
        side
    } else {
        -side
    }
}

/// `pos` with `board` for its pieces, if that is a legal position. Castling rights whose rook
/// is gone and the en-passant square are dropped first (bookkeeping no evaluation reads), so
/// only a position that truly cannot stand is refused: the side not to move in check,
/// impossible checks, pawns on the back rank, too much material.
pub fn with_board(pos: &Chess, board: shakmaty::Board) -> Option<Chess> {
    let mut setup: Setup = pos.to_setup(EnPassantMode::Legal);
    setup.castling_rights &= board.rooks();
    setup.ep_square = None;
    setup.board = board;
    Chess::from_setup(setup, CastlingMode::Chess960).ok()
}

/// One square of a contribution board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    /// A king: never removed.
    King(Color),
    /// A piece and its contribution in centipawns from White's side; `None` when taking it off
    /// leaves no legal position.
    Piece(Piece, Option<i32>),
}

/// Each piece's contribution to one evaluation of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contributions {
    /// The position's value from White's side, in centipawns.
    pub white: i32,
    /// Indexed by square (a1 = 0, h8 = 63).
    pub cells: [Cell; 64],
}

/// Each piece's contribution to `evaluator`'s value of `pos`.
pub fn contributions(evaluator: &mut Evaluator, pos: &Chess) -> Contributions {
    let white = white_value(evaluator, pos);
    let mut cells = [Cell::Empty; 64];
    for (sq, piece) in pos.board().clone() {
        cells[sq as usize] = if piece.role == Role::King {
            Cell::King(piece.color)
        } else {
            let mut board = pos.board().clone();
            board.discard_piece_at(sq);
            let value = with_board(pos, board).map(|p| white - white_value(evaluator, &p));
            Cell::Piece(piece, value)
        };
    }
    Contributions { white, cells }
}

/// Centipawns as pawns with two decimals and a sign: `+3.25`, `-0.40`, `0.00`.
pub fn pawns(cp: i32) -> String {
    let sign = match cp.signum() {
        1 => "+",
        -1 => "-",
        _ => " ",
    };
    format!(
        "{sign}{}.{:02}",
        cp.unsigned_abs() / 100,
        cp.unsigned_abs() % 100
    )
}

/// The board as Stockfish's `eval` draws it: rank 8 first, each square its piece letter above
/// the contribution in pawns; a dot where taking the piece off leaves no legal position.
pub fn board_lines(c: &Contributions) -> Vec<String> {
    let rule = format!(" {}+", "+-------".repeat(8));
    let mut out = vec![rule.clone()];
    for rank in (0..8).rev() {
        let (mut letters, mut values) = (String::from(" "), String::from(" "));
        for file in 0..8 {
            let (letter, value) = match c.cells[rank * 8 + file] {
                Cell::Empty => (' ', String::new()),
                Cell::King(color) => (Role::King.of(color).char(), String::new()),
                Cell::Piece(piece, None) => (piece.char(), ".".to_string()),
                Cell::Piece(piece, Some(cp)) => (piece.char(), pawns(cp)),
            };
            letters.push_str(&format!("|   {letter}   "));
            // A space always follows the bar, so that "-10.66" (six characters) keeps the line's
            // shape (a GUI or script splits the board on " | ").
            values.push_str(&format!("| {value:^6}"));
        }
        out.push(letters + "|");
        out.push(values + "|");
        out.push(rule.clone());
    }
    out
}

/// Win, draw and loss per mille from White's side (a White win first) for a value from
/// White's side, by the model of `kind`'s evaluation.
pub fn white_wdl(kind: EvaluatorKind, pos: &Chess, white: i32) -> Option<(u32, u32, u32)> {
    let model = wdl::model(kind)?;
    let side = if pos.turn().is_white() { white } else { -white };
    let (w, d, l) = model.wdl(Score(side), wdl::material(pos.board()));
    Some(if pos.turn().is_white() {
        (w, d, l)
    } else {
        (l, d, w)
    })
}

/// Which model gives the odds for `net`: nets have no model of their own but the one built in
/// for the net evaluation (eval/wdl.rs, fitted on the first built-in net's games); shown for a
/// net loaded from a file, it is said so.
pub fn net_model_note(net: &Network) -> &'static str {
    match Network::embedded() {
        Some(built_in) if built_in.hash() == net.hash() => "the built-in net's model",
        _ => "the built-in net's model: a net loaded from a file has none of its own",
    }
}

/// The text of one evaluation's piece board: a heading with the total, the board, and the
/// position's odds by that evaluation's model (`model` says which). The `eval` command and
/// `cutoff explain` print these lines, and the page embeds the same [`Contributions`].
pub fn report_lines(
    name: &str,
    c: &Contributions,
    wdl: Option<(u32, u32, u32)>,
    model: &str,
) -> Vec<String> {
    let mut out = vec![format!(
        "Piece contributions, {name}: {} in total (pawns, White's side; a dot: taking the piece off leaves no legal position)",
        pawns(c.white)
    )];
    out.extend(board_lines(c));
    out.push(match wdl {
        Some((w, d, l)) => {
            format!("WDL, {name}, White's side: {w} win, {d} draw, {l} loss per mille ({model})")
        }
        None => format!("WDL, {name}: no model"),
    });
    out
}
