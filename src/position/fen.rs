//! FEN reading: [`read_fen`], the one FEN reader of the engine and its tools, with the
//! policy of what it repairs, and [`pos`] for the fixed positions of tests.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, PositionError};

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

/// The position of a FEN known to be good, in standard castling mode under
/// [`FenPolicy::Strict`]: meant for tests and fixed positions (a test's position, a tool's
/// built-in one), where a bad FEN is the programmer's mistake. It panics with [`read_fen`]'s
/// error, which names the FEN and what is wrong with it. Unit tests in `src/` cannot reach the
/// integration tests' helpers, so this is the one such helper for both.
pub fn pos(fen: &str) -> Chess {
    read_fen(fen, CastlingMode::Standard, FenPolicy::Strict).unwrap_or_else(|e| panic!("{e}"))
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

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingSide, Color, EnPassantMode, Position};

    /// A test's bad FEN fails it with the FEN and the reason in the message, not a bare
    /// `unwrap` on an error: what `pos` is for.
    #[test]
    fn pos_panics_naming_the_fen_and_what_is_wrong_with_it() {
        let start = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(start, Chess::default());
        for (fen, expected) in [
            ("garbage", "bad FEN 'garbage': "),
            (
                "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
                "illegal position '4k3/8/8/8/8/8/8/4RK2 w - - 0 1': ",
            ),
        ] {
            let panic = std::panic::catch_unwind(|| pos(fen)).unwrap_err();
            let message = panic
                .downcast_ref::<String>()
                .map_or("(not a String)", String::as_str);
            assert!(message.starts_with(expected), "{fen}: {message}");
        }
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
}
