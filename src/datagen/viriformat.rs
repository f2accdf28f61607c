//! Game records in the public *viriformat* layout, the self-play format of the Viridithas engine
//! that bullet's data tools and other engines' trainers read: a file is whole games one after
//! another, each a start position and the moves played with their search scores, so a game of
//! 100 positions takes 436 bytes where 40-byte records take 4,000.
//!
//! Written from the format's published specification (the `viriformat` crate's README); the
//! crate itself is not used because it brings its own board and move types, which do not mix
//! with shakmaty's. All integers little-endian, squares a1 = 0, h1 = 7, h8 = 63.
//!
//! A game is a 32-byte packed board (marlinformat's `PackedBoard`):
//!
//! | bytes  | field |
//! |--------|-------|
//! | 0..8   | occupancy bitboard (never zero: a zero marks a reserved extension record; one of id 0 and length 0, sixteen zero bytes, is refused as zero-filled) |
//! | 8..24  | a 4-bit piece per occupied square in ascending order, low nibble first: pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5, 6 for a rook that still has its castling right; +8 for Black |
//! | 24     | bit 7 set when Black is to move; bits 0..7 the en-passant target square, 64 for none |
//! | 25     | half-move clock |
//! | 26..28 | full-move number (u16) |
//! | 28..30 | a score for the position (i16; 0 here, as Viridithas writes it) |
//! | 30     | the game's result: 0 Black won, 1 draw, 2 White won |
//! | 31     | unused (0) |
//!
//! then one 4-byte entry per move played, a u16 move and the i16 search score **from White's
//! side** of the position the move was played in, then four zero bytes.
//!
//! A move is `from | to << 6 | promotion << 12 | kind << 14`: promotion knight 0, bishop 1,
//! rook 2, queen 3; kind 1 en passant, 2 castling (written king takes rook: e1h1 is White's
//! short castling), 3 promotion (captures included), 0 anything else.
//!
//! The reader replays every game with shakmaty, so a game it returns is legal from its first
//! move to its last; a file cut short in the middle of a game (a torn tail) or a record that
//! does not parse or replay is an error naming its offset, after which the reader stops.

use std::io::Read;

use shakmaty::{
    Bitboard, Board, ByColor, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, Piece,
    Position, Role, Setup, Square,
};

use super::result::GameResult;

/// Bytes of a packed board, the head of a game.
pub const BOARD_BYTES: usize = 32;
/// Bytes of one move entry (and of the terminator).
pub const MOVE_BYTES: usize = 4;
/// The piece code of a rook that still has its castling right.
const UNMOVED_ROOK: u8 = 6;
/// The en-passant field when there is no en-passant square.
const NO_EP_SQUARE: u8 = 64;
/// Move kinds (bits 14 and 15).
const KIND_EN_PASSANT: u16 = 1;
const KIND_CASTLE: u16 = 2;
const KIND_PROMOTION: u16 = 3;
/// The error of sixteen zero bytes where a game or an extension record should start.
pub const ZERO_FILLED: &str =
    "zero bytes where a game should start (a zero-filled file or a hole in one): not data";
/// More moves than any game has (our games end at 400 plies plus the opening): a longer one is
/// garbage read as moves, and reading stops before it takes all memory.
pub const MAX_GAME_MOVES: usize = 10_000;

/// A game as stored: where it started, each move played with the search score of the position
/// it was played in (from White's side), and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoredGame {
    /// The first searched position, with its move counters.
    pub start: Chess,
    pub moves: Vec<(Move, i16)>,
    pub result: GameResult,
}

impl ScoredGame {
    /// Bytes of the game in viriformat.
    pub fn encoded_len(&self) -> usize {
        BOARD_BYTES + MOVE_BYTES * (self.moves.len() + 1)
    }

    /// Appends the game to `out` (the moves are taken as legal: they come from a replay or a
    /// search).
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&pack_board(&self.start, 0, wdl_of(self.result)));
        for (m, score) in &self.moves {
            out.extend_from_slice(&encode_move(m).to_le_bytes());
            out.extend_from_slice(&score.to_le_bytes());
        }
        out.extend_from_slice(&[0; MOVE_BYTES]);
    }

    /// Each position of the game with the move played in it and its score (White's side).
    pub fn positions(&self) -> impl Iterator<Item = (Chess, Move, i16)> + '_ {
        let mut pos = self.start.clone();
        self.moves.iter().map(move |&(m, score)| {
            let before = pos.clone();
            pos.play_unchecked(m);
            (before, m, score)
        })
    }
}

/// The result byte: 0 Black won, 1 draw, 2 White won.
pub fn wdl_of(result: GameResult) -> u8 {
    match result {
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::WhiteWins => 2,
    }
}

fn result_of(wdl: u8) -> Option<GameResult> {
    match wdl {
        0 => Some(GameResult::BlackWins),
        1 => Some(GameResult::Draw),
        2 => Some(GameResult::WhiteWins),
        _ => None,
    }
}

/// Packs a position with a score and a result byte (the 32-byte head of a game).
pub fn pack_board(pos: &Chess, score: i16, wdl: u8) -> [u8; BOARD_BYTES] {
    let mut out = [0u8; BOARD_BYTES];
    let board = pos.board();
    let occupied = board.occupied();
    let castling = pos.castles().castling_rights();
    out[0..8].copy_from_slice(&u64::from(occupied).to_le_bytes());
    for (i, square) in occupied.into_iter().enumerate() {
        let Some(piece) = board.piece_at(square) else {
            continue;
        };
        let code = if piece.role == Role::Rook && castling.contains(square) {
            UNMOVED_ROOK
        } else {
            piece.role as u8 - 1
        };
        let nibble = code | if piece.color.is_black() { 8 } else { 0 };
        out[8 + i / 2] |= nibble << (4 * (i % 2));
    }
    let ep = pos
        .ep_square(EnPassantMode::Legal)
        .map_or(NO_EP_SQUARE, u8::from);
    out[24] = ep | if pos.turn().is_black() { 0x80 } else { 0 };
    out[25] = pos.halfmoves().min(255) as u8;
    let fullmoves = u16::try_from(pos.fullmoves().get()).unwrap_or(u16::MAX);
    out[26..28].copy_from_slice(&fullmoves.to_le_bytes());
    out[28..30].copy_from_slice(&score.to_le_bytes());
    out[30] = wdl;
    out
}

/// A packed board read back: the position (checked legal by shakmaty), its score and result.
#[derive(Clone, Debug)]
pub struct Unpacked {
    pub pos: Chess,
    pub score: i16,
    pub result: GameResult,
}

/// Reads a packed board. Castling rights come from the unmoved-rook codes; a position standard
/// chess rejects for its castling rights is read as Chess960 (files of other engines).
pub fn unpack_board(bytes: &[u8; BOARD_BYTES]) -> Result<Unpacked, String> {
    let occupied = Bitboard(u64::from_le_bytes(bytes[0..8].try_into().unwrap()));
    if occupied.is_empty() {
        return Err("empty board".into());
    }
    if occupied.count() > 32 {
        return Err(format!("{} pieces", occupied.count()));
    }
    let mut board = Board::empty();
    let mut castling = Bitboard::EMPTY;
    for (i, square) in occupied.into_iter().enumerate() {
        let nibble = (bytes[8 + i / 2] >> (4 * (i % 2))) & 15;
        let color = Color::from_white(nibble & 8 == 0);
        let role = match nibble & 7 {
            UNMOVED_ROOK => {
                castling.add(square);
                Role::Rook
            }
            7 => return Err(format!("piece code 7 on {square}")),
            code => Role::try_from(code + 1).map_err(|_| format!("bad piece {code}"))?,
        };
        board.set_piece_at(square, Piece { color, role });
    }
    let ep_square = match bytes[24] & 0x7f {
        NO_EP_SQUARE => None,
        s @ 0..=63 => Some(Square::new(u32::from(s))),
        s => return Err(format!("bad en-passant square {s}")),
    };
    let result = result_of(bytes[30]).ok_or_else(|| format!("bad result byte {}", bytes[30]))?;
    let fullmoves = u16::from_le_bytes([bytes[26], bytes[27]]).max(1);
    let setup = Setup {
        board,
        promoted: Bitboard::EMPTY,
        pockets: None,
        turn: Color::from_white(bytes[24] & 0x80 == 0),
        castling_rights: castling,
        ep_square,
        remaining_checks: None::<ByColor<_>>,
        halfmoves: u32::from(bytes[25]),
        fullmoves: std::num::NonZeroU32::new(u32::from(fullmoves))
            .unwrap_or(std::num::NonZeroU32::MIN),
    };
    let pos = match Chess::from_setup(setup.clone(), CastlingMode::Standard) {
        Ok(pos) => pos,
        Err(_) => Chess::from_setup(setup, CastlingMode::Chess960)
            .map_err(|e| format!("illegal position: {e}"))?,
    };
    Ok(Unpacked {
        pos,
        score: i16::from_le_bytes([bytes[28], bytes[29]]),
        result,
    })
}

/// A move's 16-bit code. A drop (no such move in chess) gets from = to, which no reader takes.
pub fn encode_move(m: &Move) -> u16 {
    let sq = |s: Square| u16::from(s);
    match *m {
        Move::Normal {
            from,
            to,
            promotion: Some(role),
            ..
        } => sq(from) | sq(to) << 6 | (role as u16 - 2) << 12 | KIND_PROMOTION << 14,
        Move::Normal { from, to, .. } => sq(from) | sq(to) << 6,
        Move::EnPassant { from, to } => sq(from) | sq(to) << 6 | KIND_EN_PASSANT << 14,
        Move::Castle { king, rook } => sq(king) | sq(rook) << 6 | KIND_CASTLE << 14,
        Move::Put { to, .. } => sq(to) | sq(to) << 6,
    }
}

/// The legal move of `pos` that `code` stands for. The promotion bits of a move that is not a
/// promotion are ignored (the specification lets writers leave anything there).
pub fn decode_move(code: u16, pos: &Chess) -> Result<Move, String> {
    let normalize = |c: u16| {
        if c >> 14 == KIND_PROMOTION {
            c
        } else {
            c & !(3 << 12)
        }
    };
    let wanted = normalize(code);
    pos.legal_moves()
        .into_iter()
        .find(|m| encode_move(m) == wanted)
        .ok_or_else(|| {
            let from = Square::new(u32::from(code & 63));
            let to = Square::new(u32::from((code >> 6) & 63));
            format!("illegal move {from}{to} (code {code:#06x})")
        })
}

/// Why a file's games stop being readable at some point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadErrorKind {
    /// The file ends inside a game: a killed or interrupted write, or a cut copy.
    Torn,
    /// Bytes that do not parse, or a move that is not legal.
    Corrupt,
    /// The file could not be read.
    Io,
    /// The file could not be opened, is not one to read, or holds no whole game (its message
    /// says which); nothing was read.
    Open,
}

/// A problem at a byte offset of a file (the start of the game or record it concerns).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub offset: u64,
    pub kind: ReadErrorKind,
    pub message: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.kind {
            ReadErrorKind::Torn => "torn tail",
            ReadErrorKind::Corrupt => "corrupt",
            ReadErrorKind::Io => "read error",
            // Nothing was read, so no offset: the message says why.
            ReadErrorKind::Open => return write!(f, "{}", self.message),
        };
        write!(f, "{what} at byte {}: {}", self.offset, self.message)
    }
}

/// Reads bytes until `buf` is full or the input ends; returns how many were read.
pub(crate) fn read_full(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Streams the games of a viriformat file, replaying each: yields games until the input ends
/// cleanly or a problem is met, which is yielded once as an error; nothing comes after it.
/// Extension records (zero occupancy) are skipped.
pub struct GameReader<R> {
    input: R,
    offset: u64,
    done: bool,
}

impl<R: Read> GameReader<R> {
    pub fn new(input: R) -> GameReader<R> {
        GameReader {
            input,
            offset: 0,
            done: false,
        }
    }

    /// The input being read.
    pub fn input(&self) -> &R {
        &self.input
    }

    /// Bytes consumed so far (whole games and skipped records).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    fn fail(&mut self, at: u64, kind: ReadErrorKind, message: String) -> ReadError {
        self.done = true;
        ReadError {
            offset: at,
            kind,
            message,
        }
    }

    /// Reads exactly `buf.len()` bytes of the record starting at `at`; a short read is a torn
    /// tail.
    fn read_part(&mut self, at: u64, buf: &mut [u8], what: &str) -> Result<(), ReadError> {
        match read_full(&mut self.input, buf) {
            Ok(n) if n == buf.len() => {
                self.offset += n as u64;
                Ok(())
            }
            Ok(n) => {
                self.offset += n as u64;
                let message = format!(
                    "the file ends inside {what} ({} bytes of the game read)",
                    self.offset - at
                );
                Err(self.fail(at, ReadErrorKind::Torn, message))
            }
            Err(e) => Err(self.fail(at, ReadErrorKind::Io, e.to_string())),
        }
    }

    /// Skips an extension record whose 8 zero bytes were read: a 2-byte id, a 2-byte length,
    /// that many bytes of payload and four zero bytes.
    fn skip_extension(&mut self, at: u64) -> Result<(), ReadError> {
        let mut id_length = [0u8; 4];
        self.read_part(at, &mut id_length, "an extension record")?;
        if id_length == [0; 4] {
            // Sixteen zero bytes would pass as an empty record of id 0, which no writer makes:
            // it is what a zero-filled file or a hole looks like, and reading on through a
            // sparse gigabyte of them would find nothing but take seconds.
            return Err(self.fail(at, ReadErrorKind::Corrupt, ZERO_FILLED.into()));
        }
        let length = usize::from(u16::from_le_bytes([id_length[2], id_length[3]]));
        let mut rest = vec![0u8; length + MOVE_BYTES];
        self.read_part(at, &mut rest, "an extension record")?;
        if rest[length..] != [0; MOVE_BYTES] {
            let message = "zero occupancy, but no extension record's terminator".into();
            return Err(self.fail(at, ReadErrorKind::Corrupt, message));
        }
        Ok(())
    }

    fn read_game(&mut self) -> Option<Result<ScoredGame, ReadError>> {
        loop {
            let at = self.offset;
            let mut head = [0u8; BOARD_BYTES];
            match read_full(&mut self.input, &mut head[..8]) {
                Ok(0) => {
                    self.done = true;
                    return None;
                }
                Ok(n) => self.offset += n as u64,
                Err(e) => return Some(Err(self.fail(at, ReadErrorKind::Io, e.to_string()))),
            }
            if self.offset - at == 8 && head[..8] == [0; 8] {
                if let Err(e) = self.skip_extension(at) {
                    return Some(Err(e));
                }
                continue;
            }
            if self.offset - at < 8 {
                let message = format!(
                    "the file ends inside a game's board ({} bytes)",
                    self.offset - at
                );
                return Some(Err(self.fail(at, ReadErrorKind::Torn, message)));
            }
            if let Err(e) = self.read_part(at, &mut head[8..], "a game's board") {
                return Some(Err(e));
            }
            return Some(self.read_moves(at, &head));
        }
    }

    fn read_moves(&mut self, at: u64, head: &[u8; BOARD_BYTES]) -> Result<ScoredGame, ReadError> {
        let unpacked = unpack_board(head)
            .map_err(|e| self.fail(at, ReadErrorKind::Corrupt, format!("board: {e}")))?;
        let mut pos = unpacked.pos.clone();
        let mut moves = Vec::new();
        loop {
            let mut entry = [0u8; MOVE_BYTES];
            self.read_part(at, &mut entry, "a game's moves")?;
            if entry == [0; MOVE_BYTES] {
                break;
            }
            if moves.len() >= MAX_GAME_MOVES {
                let message = format!("more than {MAX_GAME_MOVES} moves without a terminator");
                return Err(self.fail(at, ReadErrorKind::Corrupt, message));
            }
            let code = u16::from_le_bytes([entry[0], entry[1]]);
            let m = decode_move(code, &pos).map_err(|e| {
                let message = format!("move {} of the game: {e}", moves.len() + 1);
                self.fail(at, ReadErrorKind::Corrupt, message)
            })?;
            pos.play_unchecked(m);
            moves.push((m, i16::from_le_bytes([entry[2], entry[3]])));
        }
        Ok(ScoredGame {
            start: unpacked.pos,
            moves,
            result: unpacked.result,
        })
    }
}

impl<R: Read> Iterator for GameReader<R> {
    type Item = Result<ScoredGame, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        self.read_game()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::pos;
    use shakmaty::uci::UciMove;

    /// A game from `fen` through `ucis`, each move scored by its index.
    fn game(fen: &str, ucis: &[&str], result: GameResult) -> ScoredGame {
        let start = pos(fen);
        let mut p = start.clone();
        let mut moves = Vec::new();
        for (i, u) in ucis.iter().enumerate() {
            let m = u.parse::<UciMove>().unwrap().to_move(&p).unwrap();
            p.play_unchecked(m);
            moves.push((m, i as i16 * 37 - 500));
        }
        ScoredGame {
            start,
            moves,
            result,
        }
    }

    fn round_trip(g: &ScoredGame) -> ScoredGame {
        let mut bytes = Vec::new();
        g.encode(&mut bytes);
        assert_eq!(bytes.len(), g.encoded_len());
        let mut games: Vec<_> = GameReader::new(bytes.as_slice()).collect();
        assert_eq!(games.len(), 1);
        let back = games.pop().unwrap().unwrap();
        assert_eq!(&back, g);
        assert_eq!(back.start.halfmoves(), g.start.halfmoves());
        assert_eq!(back.start.fullmoves(), g.start.fullmoves());
        back
    }

    #[test]
    fn the_start_position_packs_as_the_specification_example() {
        let bytes = pack_board(&Chess::default(), 0, 2);
        let expected: [u8; 32] = [
            0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0x16, 0x42, 0x25, 0x61, 0, 0, 0, 0, 0x88, 0x88,
            0x88, 0x88, 0x9e, 0xca, 0xad, 0xe9, 0x40, 0, 1, 0, 0, 0, 2, 0,
        ];
        assert_eq!(bytes, expected);
        // The example's first moves: 1. e4 (+10) 1... e5 (+20) are 0c07 0a00 3409 1400.
        let g = game(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["e2e4", "e7e5"],
            GameResult::WhiteWins,
        );
        let mut out = Vec::new();
        ScoredGame {
            moves: vec![(g.moves[0].0, 10), (g.moves[1].0, 20)],
            ..g
        }
        .encode(&mut out);
        assert_eq!(
            &out[32..],
            &[0x0c, 0x07, 0x0a, 0, 0x34, 0x09, 0x14, 0, 0, 0, 0, 0]
        );
    }

    #[test]
    fn castling_both_sides_both_colours_round_trips_as_king_takes_rook() {
        let g = round_trip(&game(
            "r3k2r/pppqbppp/2npbn2/4p3/4P3/2NPBN2/PPPQBPPP/R3K2R w KQkq - 4 8",
            &["e1g1", "e8c8", "f1e1", "d8e8"],
            GameResult::Draw,
        ));
        assert_eq!(encode_move(&g.moves[0].0), 4 | 7 << 6 | 2 << 14);
        assert_eq!(encode_move(&g.moves[1].0), 60 | 56 << 6 | 2 << 14);
        let g = round_trip(&game(
            "r3k2r/pppqbppp/2npbn2/4p3/4P3/2NPBN2/PPPQBPPP/R3K2R w KQkq - 4 8",
            &["e1c1", "e8g8"],
            GameResult::BlackWins,
        ));
        assert_eq!(encode_move(&g.moves[0].0), 4 | 2 << 14);
        assert_eq!(encode_move(&g.moves[1].0), 60 | 63 << 6 | 2 << 14);
    }

    #[test]
    fn rooks_with_castling_rights_get_the_unmoved_code() {
        // White may castle short only; Black long only.
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1");
        let bytes = pack_board(&p, 0, 1);
        // Pieces in square order: a1 R, e1 K, h1 R(unmoved), a8 r(unmoved), e8 k, h8 r.
        assert_eq!(bytes[8], 0x3 | 0x5 << 4);
        assert_eq!(bytes[9], 0x6 | 0xe << 4);
        assert_eq!(bytes[10], 0xd | 0xb << 4);
        assert_eq!(unpack_board(&bytes).unwrap().pos, p);
    }

    #[test]
    fn en_passant_round_trips_with_its_square_and_kind() {
        let g = round_trip(&game(
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            &["e5f6", "e7f6", "a2a3", "d5d4", "c2c4", "d4c3"],
            GameResult::WhiteWins,
        ));
        assert_eq!(pack_board(&g.start, 0, 2)[24], 45, "f6, White to move");
        assert_eq!(encode_move(&g.moves[0].0) >> 14, 1);
        assert_eq!(encode_move(&g.moves[5].0) >> 14, 1);
        assert!(matches!(g.moves[5].0, Move::EnPassant { .. }));
    }

    #[test]
    fn every_promotion_piece_round_trips_with_and_without_capture() {
        for (uci, code) in [("b7b8n", 0), ("b7b8b", 1), ("b7b8r", 2), ("b7b8q", 3)] {
            let g = round_trip(&game(
                "r1n1k3/1P6/8/8/8/8/6p1/4K2R w K - 0 40",
                &[uci, "g2h1q"],
                GameResult::Draw,
            ));
            assert_eq!(encode_move(&g.moves[0].0) >> 12, code | 3 << 2, "{uci}");
            assert_eq!(encode_move(&g.moves[1].0) >> 12, 3 | 3 << 2, "capture");
        }
        for uci in ["b7a8n", "b7a8b", "b7a8r", "b7a8q", "b7c8q"] {
            let g = round_trip(&game(
                "r1n1k3/1P6/8/8/8/8/6p1/4K2R w K - 0 40",
                &[uci],
                GameResult::WhiteWins,
            ));
            assert!(
                g.moves[0].0.is_capture() && g.moves[0].0.is_promotion(),
                "{uci}"
            );
        }
    }

    #[test]
    fn a_torn_last_game_is_reported_after_the_whole_ones() {
        let g = game(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["e2e4", "e7e5", "g1f3"],
            GameResult::Draw,
        );
        let mut bytes = Vec::new();
        g.encode(&mut bytes);
        g.encode(&mut bytes);
        let whole = bytes.len();
        for cut in [
            whole - 1,
            whole - 4,
            whole - 5,
            whole / 2 + 10,
            whole / 2 + 31,
        ] {
            let read: Vec<_> = GameReader::new(&bytes[..cut]).collect();
            assert_eq!(read.len(), 2, "cut at {cut}");
            assert_eq!(read[0].as_ref().unwrap(), &g);
            let e = read[1].as_ref().unwrap_err();
            assert_eq!(e.kind, ReadErrorKind::Torn, "cut at {cut}");
            assert_eq!(e.offset, (whole / 2) as u64);
        }
    }

    #[test]
    fn an_illegal_move_is_corrupt_and_ends_the_reading() {
        let g = game(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["e2e4", "e7e5"],
            GameResult::Draw,
        );
        let mut bytes = Vec::new();
        g.encode(&mut bytes);
        g.encode(&mut bytes);
        // The second move becomes e7e6 played twice: e6e6 is no move.
        let second = bytes.len() / 2;
        bytes[36..38].copy_from_slice(&(44u16 | 44 << 6).to_le_bytes());
        let read: Vec<_> = GameReader::new(bytes.as_slice()).collect();
        assert_eq!(read.len(), 1);
        let e = read[0].as_ref().unwrap_err();
        assert_eq!((e.kind.clone(), e.offset), (ReadErrorKind::Corrupt, 0));
        assert!(e.message.contains("move 2"), "{e}");
        // A bad result byte in the second game's board.
        let mut bytes2 = Vec::new();
        g.encode(&mut bytes2);
        g.encode(&mut bytes2);
        bytes2[second + 30] = 3;
        let read: Vec<_> = GameReader::new(bytes2.as_slice()).collect();
        assert_eq!(read.len(), 2);
        assert!(read[0].is_ok());
        assert_eq!(read[1].as_ref().unwrap_err().offset, second as u64);
    }

    #[test]
    fn sixteen_zero_bytes_are_refused_as_zero_filled_not_skipped() {
        // Zeros read as empty extension records of id 0 would be skipped to the end of any
        // zero-filled file or hole.
        for zeros in [16, 1 << 20] {
            let bytes = vec![0u8; zeros];
            let read: Vec<_> = GameReader::new(bytes.as_slice()).collect();
            assert_eq!(read.len(), 1, "{zeros} zero bytes");
            let e = read[0].as_ref().unwrap_err();
            assert_eq!((e.kind.clone(), e.offset), (ReadErrorKind::Corrupt, 0));
            assert_eq!(e.message, ZERO_FILLED);
        }
    }

    #[test]
    fn extension_records_are_skipped() {
        let g = game(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["d2d4"],
            GameResult::Draw,
        );
        let mut bytes = vec![0u8; 8];
        bytes.extend_from_slice(&7u16.to_le_bytes());
        bytes.extend_from_slice(&30u16.to_le_bytes());
        bytes.extend_from_slice(&[0xab; 30]);
        bytes.extend_from_slice(&[0; 4]);
        g.encode(&mut bytes);
        let read: Vec<_> = GameReader::new(bytes.as_slice()).collect();
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].as_ref().unwrap(), &g);
    }
}
