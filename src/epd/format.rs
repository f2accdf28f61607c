//! The EPD format: a line is the four FEN position fields (board, side, castling, en passant),
//! optionally the two FEN clocks (perft suites carry them), then operations
//! `opcode operand ... ;`. shakmaty's `fen::Epd` reads only the position fields, so the
//! operations are split off here. Operands may be quoted (`id "WAC.001"`,
//! `c0 "f5=10, Be5+=2"`), and a quoted operand may hold spaces and semicolons. Moves are read
//! as SAN (`Nf3`, `exd5+`, `O-O`) or as UCI (`g1f3`).

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

use crate::position::{read_fen, FenPolicy};

/// The four position fields every EPD line starts with.
const POSITION_FIELDS: usize = 4;
/// FEN's halfmove clock and fullmove number, which perft suites put before the operations.
const MAX_CLOCK_FIELDS: usize = 2;

/// One EPD operation: `bm Nf3 e4;` is opcode `bm`, operands `["Nf3", "e4"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub opcode: String,
    /// Operands with the quotes of quoted ones removed.
    pub operands: Vec<String>,
}

/// One parsed EPD line.
#[derive(Clone, Debug)]
pub struct EpdRecord {
    /// The position fields (and clocks, when given) as written.
    pub fen: String,
    pub position: Chess,
    /// Standard unless the castling rights only make sense in Chess960 (Shredder-FEN).
    pub castling_mode: CastlingMode,
    pub operations: Vec<Operation>,
}

impl EpdRecord {
    /// The first operation with this opcode.
    pub fn operation(&self, opcode: &str) -> Option<&Operation> {
        self.operations.iter().find(|op| op.opcode == opcode)
    }

    /// The `id` operand.
    pub fn id(&self) -> Option<&str> {
        self.operation("id")
            .and_then(|op| op.operands.first())
            .map(String::as_str)
    }

    /// The moves of operation `opcode` (`bm`, `am`), empty when it is absent. Present, it must
    /// list a move: `bm ;` asks for nothing, and was read as a position without a best move,
    /// which is never judged (a suite of such lines reported `solved 0/0` and exit 0), so it is
    /// an error like an unreadable move.
    pub fn moves(&self, opcode: &str) -> Result<Vec<Move>, String> {
        self.operation(opcode).map_or(Ok(Vec::new()), |op| {
            if op.operands.is_empty() {
                return Err(format!("{opcode}: no move listed"));
            }
            op.operands
                .iter()
                .map(|text| parse_move(&self.position, text).map_err(|e| format!("{opcode}: {e}")))
                .collect()
        })
    }

    /// An STS-style `c0 "f5=10, Be5+=2"` table; `None` when there is no `c0` or it is a plain
    /// comment (`c0 "All win but e3 is best."`).
    pub fn move_points(&self) -> Result<Option<Vec<(Move, i32)>>, String> {
        let Some(op) = self.operation("c0") else {
            return Ok(None);
        };
        let text = op.operands.join(" ");
        let mut entries = Vec::new();
        for entry in text.split(',') {
            let Some((mv, points)) = entry.trim().rsplit_once('=') else {
                return Ok(None);
            };
            let Ok(points) = points.trim().parse::<i32>() else {
                return Ok(None);
            };
            entries.push((mv.trim(), points));
        }
        entries
            .into_iter()
            .map(|(mv, points)| {
                parse_move(&self.position, mv)
                    .map(|m| (m, points))
                    .map_err(|e| format!("c0: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// Perft counts `D<depth> <count>`, in the order given.
    pub fn perft_counts(&self) -> Result<Vec<(u32, u64)>, String> {
        let mut counts = Vec::new();
        for op in &self.operations {
            let Some(depth) = op
                .opcode
                .strip_prefix(['D', 'd'])
                .and_then(|d| d.parse::<u32>().ok())
            else {
                continue;
            };
            let count = match op.operands.as_slice() {
                [n] => n
                    .parse::<u64>()
                    .map_err(|_| format!("D{depth}: bad count '{n}'"))?,
                _ => return Err(format!("D{depth}: expected one count")),
            };
            counts.push((depth, count));
        }
        Ok(counts)
    }
}

/// A token of the operation part of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Quoted(String),
    Semicolon,
}

/// Splits text into words, quoted strings and semicolons.
fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == ';' {
            chars.next();
            tokens.push(Token::Semicolon);
        } else if c == '"' {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => s.push(c),
                    None => return Err(format!("unterminated quoted operand \"{s}")),
                }
            }
            tokens.push(Token::Quoted(s));
        } else {
            let mut s = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == ';' {
                    break;
                }
                s.push(c);
                chars.next();
            }
            tokens.push(Token::Word(s));
        }
    }
    Ok(tokens)
}

/// Parses one line. `Ok(None)` for blank lines and `#` comments.
pub fn parse_line(line: &str) -> Result<Option<EpdRecord>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut tokens = tokenize(line)?.into_iter().peekable();
    let mut fields = Vec::new();
    while fields.len() < POSITION_FIELDS {
        match tokens.next() {
            Some(Token::Word(w)) => fields.push(w),
            _ => return Err(format!("expected {POSITION_FIELDS} position fields")),
        }
    }
    // Operations never start with a digit, so leading numbers are the FEN clocks.
    let mut clocks = 0;
    while clocks < MAX_CLOCK_FIELDS {
        match tokens.peek() {
            Some(Token::Word(w)) if w.bytes().all(|b| b.is_ascii_digit()) => {
                fields.push(w.clone());
                tokens.next();
                clocks += 1;
            }
            _ => break,
        }
    }
    let fen = fields.join(" ");
    let (position, castling_mode) = parse_position(&fen)?;
    let operations = parse_operations(tokens)?;
    Ok(Some(EpdRecord {
        fen,
        position,
        castling_mode,
        operations,
    }))
}

/// Reads the position fields as written ([`FenPolicy::Strict`]: a suite's counts and moves are
/// about exactly that position), in Chess960 when the castling rights only make sense there
/// (Shredder-FEN `HFhf`). The error is the standard reading's.
fn parse_position(fen: &str) -> Result<(Chess, CastlingMode), String> {
    match read_fen(fen, CastlingMode::Standard, FenPolicy::Strict) {
        Ok(pos) => Ok((pos, CastlingMode::Standard)),
        Err(standard_err) => read_fen(fen, CastlingMode::Chess960, FenPolicy::Strict)
            .map(|pos| (pos, CastlingMode::Chess960))
            .map_err(|_| standard_err),
    }
}

/// Groups the tokens after the position into operations, one per `;` (the last `;` may be
/// missing; empty operations, as in perft suites' leading `;D1`, are skipped).
fn parse_operations(tokens: impl Iterator<Item = Token>) -> Result<Vec<Operation>, String> {
    let mut operations = Vec::new();
    let mut current: Vec<Token> = Vec::new();
    for token in tokens.chain(std::iter::once(Token::Semicolon)) {
        if token != Token::Semicolon {
            current.push(token);
            continue;
        }
        let mut parts = std::mem::take(&mut current).into_iter();
        let Some(first) = parts.next() else { continue };
        let opcode = match first {
            Token::Word(w) if is_opcode(&w) => w,
            Token::Word(w) | Token::Quoted(w) => return Err(format!("bad opcode '{w}'")),
            Token::Semicolon => unreachable!("semicolons end operations"),
        };
        let operands = parts
            .map(|t| match t {
                Token::Word(s) | Token::Quoted(s) => s,
                Token::Semicolon => unreachable!("semicolons end operations"),
            })
            .collect();
        operations.push(Operation { opcode, operands });
    }
    Ok(operations)
}

/// Opcodes start with a letter and continue with letters, digits and underscores.
fn is_opcode(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Reads a legal move in UCI (`g1f3`, `e1h1`) or SAN (`Nf3`, `Qxf7#`, `O-O`) notation.
/// Trailing annotation marks (`!`, `?`) are ignored.
pub fn parse_move(pos: &Chess, text: &str) -> Result<Move, String> {
    let clean = text.trim().trim_end_matches(['!', '?']);
    if looks_like_uci(clean) {
        if let Ok(m) = clean.parse::<UciMove>().map(|u| u.to_move(pos)) {
            return m.map_err(|_| format!("illegal move '{text}'"));
        }
    }
    let san =
        SanPlus::from_ascii(clean.as_bytes()).map_err(|_| format!("cannot read move '{text}'"))?;
    san.san
        .to_move(pos)
        .map_err(|e| format!("move '{text}': {e}"))
}

/// `e2e4`, `e7e8q`: square, square, optional promotion piece.
fn looks_like_uci(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    matches!(b.len(), 4 | 5)
        && square(b[0], b[1])
        && square(b[2], b[3])
        && (b.len() == 4 || b"qrbn".contains(&b[4]))
}

/// A move in SAN with its check or mate suffix, for display.
pub fn san(pos: &Chess, m: Move) -> String {
    SanPlus::from_move(pos.clone(), m).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_keep_quoted_semicolons_and_spaces() {
        let tokens = tokenize(r#"id "a; b" ;bm e4"#).unwrap();
        assert_eq!(
            tokens,
            vec![
                Token::Word("id".into()),
                Token::Quoted("a; b".into()),
                Token::Semicolon,
                Token::Word("bm".into()),
                Token::Word("e4".into()),
            ]
        );
    }

    #[test]
    fn uci_shape_is_recognised() {
        assert!(looks_like_uci("e2e4"));
        assert!(looks_like_uci("e7e8q"));
        assert!(!looks_like_uci("Nf3"));
        assert!(!looks_like_uci("e7e8k"));
    }
}
