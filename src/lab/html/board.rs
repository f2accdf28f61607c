//! What the pages' chess boards share: the pieces as chess glyphs in their colours, and the file
//! letters and rank numbers around the squares.

use std::fmt::Write as _;

use shakmaty::{Color, Piece, Role};

/// The piece's chess glyph (the filled set, coloured by [`ink`]).
pub fn glyph(piece: Piece) -> char {
    match piece.role {
        Role::King => '\u{265a}',
        Role::Queen => '\u{265b}',
        Role::Rook => '\u{265c}',
        Role::Bishop => '\u{265d}',
        Role::Knight => '\u{265e}',
        Role::Pawn => '\u{265f}',
    }
}

/// The fill and stroke a glyph of `color` is drawn in.
pub fn ink(color: Color) -> (&'static str, &'static str) {
    match color {
        Color::White => ("#fff", "#222"),
        Color::Black => ("#111", "#111"),
    }
}

/// File letters and rank numbers around an 8×8 drawing of squares `sq` wide, White at the
/// bottom, the squares starting 18 to the right, in type of `size`.
pub fn coordinates(sq: usize, size: usize) -> String {
    let mut s = String::new();
    for i in 0..8 {
        let _ = write!(
            s,
            r##"<text x="8" y="{}" font-size="{size}" text-anchor="middle" fill="#555">{}</text><text x="{}" y="{}" font-size="{size}" text-anchor="middle" fill="#555">{}</text>"##,
            (7 - i) * sq + sq / 2 + 4,
            i + 1,
            18 + i * sq + sq / 2,
            sq * 8 + 14,
            (b'a' + i as u8) as char
        );
    }
    s
}
