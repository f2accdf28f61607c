//! The data file of `cutoff datagen`: one fixed-size binary record per searched position.
//!
//! A record keeps what any later consumer needs — the whole position, the search score, the
//! game result, the move played — and the facts a reader filters on (in check, tactical best
//! move, mate score, ply), so that the stored data does not depend on today's evaluation. The
//! classical tuner keeps quiet positions when reading; a learned evaluator can read them all.
//!
//! Layout, 40 bytes, integers little-endian:
//!
//! | bytes  | field |
//! |--------|-------|
//! | 0..8   | occupancy: bit `i` set when square `i` (a1 = 0, h8 = 63) holds a piece |
//! | 8..24  | one nibble per occupied square in ascending order, low nibble first: role 1 (pawn) to 6 (king), plus 8 for Black |
//! | 24..26 | search score in centipawns **from White's side** (i16; mate scores as the engine's `±(32000 − plies)`) |
//! | 26     | game result for White: 0 loss, 1 draw, 2 win |
//! | 27     | flags: 1 Black to move, 2 side to move in check, 4 best move captures, 8 best move promotes, 16 mate score |
//! | 28     | castling rights: 1 White short, 2 White long, 4 Black short, 8 Black long |
//! | 29     | en-passant file + 1 where an en-passant capture is legal, else 0 |
//! | 30     | half-move clock (capped at 255) |
//! | 31     | 0 (reserved) |
//! | 32..34 | searched plies since the opening before this position (u16) |
//! | 34..36 | best move: from + 64·to + 4096·promotion role (0 none); castling as king takes rook (e1h1) |
//! | 36..40 | game index under the run's seed (u32), so appended runs continue the stream |

use shakmaty::{
    Bitboard, Board, ByColor, CastlingMode, Chess, Color, EnPassantMode, File, FromSetup, Move,
    Piece, Position, Rank, Role, Setup, Square,
};

use crate::types::Score;

/// Bytes per record.
pub const RECORD_BYTES: usize = 40;

const FLAG_BLACK_TO_MOVE: u8 = 1;
const FLAG_IN_CHECK: u8 = 2;
const FLAG_CAPTURE: u8 = 4;
const FLAG_PROMOTION: u8 = 8;
const FLAG_MATE_SCORE: u8 = 16;

/// One searched position as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub board: Board,
    pub turn: Color,
    /// Castling rights as rook squares (standard chess: a1, h1, a8, h8).
    pub castling: Bitboard,
    pub ep_file: Option<File>,
    pub halfmoves: u8,
    /// Search score from White's side.
    pub score: i16,
    /// White's result: 0.0, 0.5 or 1.0.
    pub result: f32,
    pub in_check: bool,
    pub capture: bool,
    pub promotion: bool,
    pub mate_score: bool,
    pub ply: u16,
    /// Best move as `from + 64·to + 4096·promotion role`.
    pub best_move: u16,
    pub game: u32,
}

/// The best move's 16-bit code.
pub fn encode_move(m: &Move) -> u16 {
    let from = m.from().map_or(0, u16::from);
    let to = u16::from(m.to());
    let promo = m.promotion().map_or(0, |r| r as u16);
    from | (to << 6) | (promo << 12)
}

impl Record {
    /// The record of `pos`, searched to `score` (side to move's view) with `best` as its move.
    pub fn new(pos: &Chess, score: Score, best: &Move, ply: u32, game: u64) -> Record {
        let white = if pos.turn().is_white() {
            score.0
        } else {
            -score.0
        };
        let setup = pos.to_setup(EnPassantMode::Legal);
        Record {
            board: pos.board().clone(),
            turn: pos.turn(),
            castling: setup.castling_rights,
            ep_file: setup.ep_square.map(|s| s.file()),
            halfmoves: setup.halfmoves.min(255) as u8,
            score: white.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            result: 0.5,
            in_check: pos.is_check(),
            capture: best.is_capture(),
            promotion: best.is_promotion(),
            mate_score: score.is_mate(),
            ply: ply.min(u32::from(u16::MAX)) as u16,
            best_move: encode_move(best),
            game: game as u32,
        }
    }

    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        let occupied = self.board.occupied();
        out[0..8].copy_from_slice(&u64::from(occupied).to_le_bytes());
        for (i, square) in occupied.into_iter().enumerate() {
            let piece = self
                .board
                .piece_at(square)
                .expect("occupied square has a piece");
            let nibble = piece.role as u8 | if piece.color.is_black() { 8 } else { 0 };
            out[8 + i / 2] |= nibble << (4 * (i % 2));
        }
        out[24..26].copy_from_slice(&self.score.to_le_bytes());
        out[26] = (self.result * 2.0).round() as u8;
        out[27] = flag(self.turn.is_black(), FLAG_BLACK_TO_MOVE)
            | flag(self.in_check, FLAG_IN_CHECK)
            | flag(self.capture, FLAG_CAPTURE)
            | flag(self.promotion, FLAG_PROMOTION)
            | flag(self.mate_score, FLAG_MATE_SCORE);
        out[28] = castling_bits(self.castling);
        out[29] = self.ep_file.map_or(0, |f| f as u8 + 1);
        out[30] = self.halfmoves;
        out[32..34].copy_from_slice(&self.ply.to_le_bytes());
        out[34..36].copy_from_slice(&self.best_move.to_le_bytes());
        out[36..40].copy_from_slice(&self.game.to_le_bytes());
        out
    }

    pub fn decode(bytes: &[u8; RECORD_BYTES]) -> Result<Record, String> {
        let occupied = Bitboard(u64::from_le_bytes(bytes[0..8].try_into().unwrap()));
        if occupied.count() > 32 {
            return Err(format!("{} pieces", occupied.count()));
        }
        let mut board = Board::empty();
        for (i, square) in occupied.into_iter().enumerate() {
            let nibble = (bytes[8 + i / 2] >> (4 * (i % 2))) & 15;
            let role = Role::try_from(nibble & 7).map_err(|_| format!("bad piece {nibble}"))?;
            let color = Color::from_white(nibble & 8 == 0);
            board.set_piece_at(square, Piece { color, role });
        }
        let flags = bytes[27];
        if bytes[26] > 2 {
            return Err(format!("bad result {}", bytes[26]));
        }
        Ok(Record {
            board,
            turn: Color::from_white(flags & FLAG_BLACK_TO_MOVE == 0),
            castling: castling_squares(bytes[28]),
            ep_file: match bytes[29] {
                0 => None,
                f @ 1..=8 => Some(File::new(u32::from(f - 1))),
                f => return Err(format!("bad en-passant file {f}")),
            },
            halfmoves: bytes[30],
            score: i16::from_le_bytes([bytes[24], bytes[25]]),
            result: f32::from(bytes[26]) / 2.0,
            in_check: flags & FLAG_IN_CHECK != 0,
            capture: flags & FLAG_CAPTURE != 0,
            promotion: flags & FLAG_PROMOTION != 0,
            mate_score: flags & FLAG_MATE_SCORE != 0,
            ply: u16::from_le_bytes([bytes[32], bytes[33]]),
            best_move: u16::from_le_bytes([bytes[34], bytes[35]]),
            game: u32::from_le_bytes(bytes[36..40].try_into().unwrap()),
        })
    }

    /// Whether the classical tuner should learn from it: not in check, a quiet best move and no
    /// mate score (the static evaluation cannot see tactics or mates).
    pub fn is_quiet(&self) -> bool {
        !self.in_check && !self.capture && !self.promotion && !self.mate_score
    }

    /// The full position (fails only on a corrupt record).
    pub fn position(&self) -> Result<Chess, String> {
        let ep_square = self.ep_file.map(|f| {
            let rank = if self.turn.is_white() {
                Rank::Sixth
            } else {
                Rank::Third
            };
            Square::from_coords(f, rank)
        });
        let setup = Setup {
            board: self.board.clone(),
            promoted: Bitboard::EMPTY,
            pockets: None,
            turn: self.turn,
            castling_rights: self.castling,
            ep_square,
            remaining_checks: None::<ByColor<_>>,
            halfmoves: u32::from(self.halfmoves),
            fullmoves: std::num::NonZeroU32::MIN,
        };
        Chess::from_setup(setup, CastlingMode::Standard).map_err(|e| e.to_string())
    }

    /// The best move in UCI notation (`e2e4`, `e7e8q`; castling as king takes rook, `e1h1`,
    /// since the record stores shakmaty's `Move::to()`, the rook's square for castling).
    pub fn best_move_uci(&self) -> String {
        let from = Square::new(u32::from(self.best_move & 63));
        let to = Square::new(u32::from((self.best_move >> 6) & 63));
        let promo = match self.best_move >> 12 {
            0 => String::new(),
            r => Role::try_from(r as u8).map_or(String::new(), |r| r.char().to_string()),
        };
        format!("{from}{to}{promo}")
    }
}

fn flag(set: bool, bit: u8) -> u8 {
    if set {
        bit
    } else {
        0
    }
}

const CASTLING_ROOKS: [Square; 4] = [Square::H1, Square::A1, Square::H8, Square::A8];

fn castling_bits(rooks: Bitboard) -> u8 {
    CASTLING_ROOKS
        .iter()
        .enumerate()
        .filter(|(_, &sq)| rooks.contains(sq))
        .fold(0, |bits, (i, _)| bits | 1 << i)
}

fn castling_squares(bits: u8) -> Bitboard {
    CASTLING_ROOKS
        .iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0)
        .fold(Bitboard::EMPTY, |b, (_, &sq)| b | sq)
}

/// Reads every whole record of a data file's bytes (a trailing partial record, left by an
/// interrupted write, is ignored).
pub fn decode_all(bytes: &[u8]) -> Result<Vec<Record>, String> {
    bytes
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, chunk)| {
            Record::decode(chunk.try_into().unwrap()).map_err(|e| format!("record {i}: {e}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::pos;

    #[test]
    fn records_round_trip_position_score_and_flags() {
        for (fen, uci) in [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 1",
                "e5f7",
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                "e5f6",
            ),
            ("8/1P6/8/8/8/8/6k1/4K3 w - - 0 1", "b7b8n"),
            ("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "e1e2"),
        ] {
            let p = pos(fen);
            let m = shakmaty::uci::UciMove::from_ascii(uci.as_bytes())
                .unwrap()
                .to_move(&p)
                .unwrap();
            let mut r = Record::new(&p, Score(-57), &m, 17, 123_456);
            r.result = 1.0;
            let bytes = r.encode();
            let back = Record::decode(&bytes).unwrap();
            assert_eq!(back, r, "{fen}");
            assert_eq!(back.position().unwrap(), p, "{fen}");
            assert_eq!(back.best_move_uci(), uci);
            let white = if p.turn().is_white() { -57 } else { 57 };
            assert_eq!(back.score, white, "score is stored from White's side");
        }
    }

    #[test]
    fn flags_record_check_capture_and_promotion() {
        let p = pos("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
        let m = p.legal_moves()[0];
        let r = Record::new(&p, Score(0), &m, 0, 0);
        assert!(r.in_check && !r.is_quiet());
        let p = pos("8/1P6/8/8/8/8/6k1/4K3 w - - 0 1");
        let promo = p
            .legal_moves()
            .into_iter()
            .find(|m| m.is_promotion())
            .unwrap();
        assert!(!Record::new(&p, Score(0), &promo, 0, 0).is_quiet());
        let quiet = p
            .legal_moves()
            .into_iter()
            .find(|m| m.role() == Role::King)
            .unwrap();
        assert!(Record::new(&p, Score(0), &quiet, 0, 0).is_quiet());
        assert!(!Record::new(&p, Score::mate_in(3), &quiet, 0, 0).is_quiet());
    }

    #[test]
    fn a_partial_trailing_record_is_ignored() {
        let p = Chess::default();
        let m = p.legal_moves()[0];
        let r = Record::new(&p, Score(12), &m, 0, 5).encode();
        let mut bytes = r.to_vec();
        bytes.extend_from_slice(&r[..17]);
        assert_eq!(decode_all(&bytes).unwrap().len(), 1);
    }
}
