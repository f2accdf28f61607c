//! `position::gives_check` reads from the attack tables whether a move checks, so the search
//! can prune quiet moves without playing them; the search stays node-for-node the same only if
//! it agrees with playing the move and asking `is_check()`, on every legal move of positions
//! rich in discovered checks, en passant, promotions and castling (Chess960 included).

use cutoff::bench::POSITIONS;
use cutoff::datagen::Rng;
use cutoff::position::{gives_check, read_fen, CheckInfo, FenPolicy};
use shakmaty::{CastlingMode, Chess, Move, Position};

/// Checks every legal move of `pos`; returns how many moves were checked and how many checked.
fn agrees_on_every_move(pos: &Chess, origin: &str) -> (usize, usize) {
    let mut checks = 0;
    let moves = pos.legal_moves();
    for m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(*m);
        let expected = child.is_check();
        assert_eq!(
            gives_check(pos, m),
            expected,
            "move {m:?} in {} (from {origin})",
            shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
        );
        checks += usize::from(expected);
    }
    (moves.len(), checks)
}

/// The position and every position one move after it.
fn agrees_at_and_below(pos: &Chess, origin: &str) -> (usize, usize) {
    let (mut moves, mut checks) = agrees_on_every_move(pos, origin);
    for m in &pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(*m);
        let (n, c) = agrees_on_every_move(&child, origin);
        moves += n;
        checks += c;
    }
    (moves, checks)
}

fn suite(file: &str, mode: CastlingMode) -> Vec<Chess> {
    let path = format!("{}/epd/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let fen = line.split(';').next().unwrap();
            read_fen(fen, mode, FenPolicy::Strict).unwrap()
        })
        .collect()
}

/// Checks no suite position is sure to hold: each FEN has a move that checks in the way named.
const SPECIAL_CASES: &[(&str, &str)] = &[
    // exd6 e.p. empties d5 and opens the a2-g8 diagonal to the king.
    (
        "6k1/8/8/3pP3/8/8/B7/4K3 w - d6 0 2",
        "en passant, discovery through the taken pawn",
    ),
    // exd6 e.p. empties e5 and d5 and opens the fifth rank.
    (
        "8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 2",
        "en passant, discovery along the rank",
    ),
    // exd6 e.p. puts the pawn on d6, attacking the king on c7.
    ("8/2k5/8/3pP3/8/8/8/4K3 w - d6 0 2", "en passant, direct"),
    // Any knight move uncovers the rook on d1; b8=N checks the king on d7.
    (
        "8/1P1k4/8/8/3N4/8/8/3RK3 w - - 0 1",
        "a knight promotion and a discovery",
    ),
    // O-O puts the rook on f1, facing the king on f8.
    (
        "5k2/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        "a castling rook's check",
    ),
    // The king steps off the long diagonal and uncovers the bishop.
    ("7k/8/8/8/8/8/1K6/B7 w - - 0 1", "a king's discovery"),
];

#[test]
fn gives_check_agrees_with_playing_the_move_in_rare_cases() {
    for (fen, what) in SPECIAL_CASES {
        let pos = read_fen(fen, CastlingMode::Standard, FenPolicy::Strict).unwrap();
        let (_, checks) = agrees_on_every_move(&pos, what);
        assert!(checks > 0, "{what}: no checking move in {fen}");
    }
}

#[test]
fn gives_check_agrees_with_playing_the_move_on_suites_and_bench_positions() {
    let mut total = (0, 0);
    let mut add = |(n, c): (usize, usize)| {
        total.0 += n;
        total.1 += c;
    };
    for (i, pos) in suite("perft_standard.epd", CastlingMode::Standard)
        .iter()
        .enumerate()
    {
        add(agrees_at_and_below(
            pos,
            &format!("perft_standard.epd #{i}"),
        ));
    }
    for (i, pos) in suite("perft_960.epd", CastlingMode::Chess960)
        .iter()
        .enumerate()
    {
        add(agrees_at_and_below(pos, &format!("perft_960.epd #{i}")));
    }
    for fen in POSITIONS {
        let pos = read_fen(fen, CastlingMode::Standard, FenPolicy::Strict).unwrap();
        add(agrees_at_and_below(&pos, "bench"));
    }
    // Enough moves, and enough checks among them, for the comparison to mean something.
    assert!(total.0 > 100_000 && total.1 > 2_000, "{total:?}");
}

#[test]
fn gives_check_agrees_with_playing_the_move_along_random_games() {
    let starts: Vec<Chess> = POSITIONS
        .iter()
        .map(|fen| read_fen(fen, CastlingMode::Standard, FenPolicy::Strict).unwrap())
        .chain(std::iter::once(Chess::default()))
        .collect();
    let mut positions = 0;
    let mut checks = 0;
    for game in 0..200 {
        let mut rng = Rng::for_game(0x6976_6573_2b63_6865, game);
        let mut pos = starts[game as usize % starts.len()].clone();
        for _ in 0..150 {
            let (_, c) = agrees_on_every_move(&pos, &format!("random game {game}"));
            positions += 1;
            checks += c;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    assert!(positions > 5_000 && checks > 1_000, "{positions} {checks}");
}

/// `CheckInfo::surely_no_quiet_check`, which lets the search skip a quiet stage that step 9
/// prunes whole, must never say "none" where a quiet move (neither capture nor promotion)
/// checks: over the perft suites' and bench positions and one move below them, it agrees
/// with playing each quiet move wherever it answers, and answers often enough to matter.
#[test]
fn no_quiet_check_is_claimed_where_a_quiet_move_checks() {
    let mut positions: Vec<Chess> = suite("perft_standard.epd", CastlingMode::Standard);
    positions.extend(suite("perft_960.epd", CastlingMode::Chess960));
    positions.extend(
        POSITIONS
            .iter()
            .map(|fen| read_fen(fen, CastlingMode::Standard, FenPolicy::Strict).unwrap()),
    );
    let children: Vec<Chess> = positions
        .iter()
        .flat_map(|pos| {
            pos.legal_moves().into_iter().map(move |m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                child
            })
        })
        .collect();
    positions.extend(children);
    let (mut claimed, mut with_quiet_check) = (0, 0);
    for pos in positions.iter().filter(|pos| !pos.is_check()) {
        let quiets: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| !m.is_capture() && !m.is_promotion())
            .collect();
        let checking = quiets.iter().any(|m| {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            child.is_check()
        });
        let sure = CheckInfo::new(pos).surely_no_quiet_check(&quiets);
        assert!(
            !(sure && checking),
            "claimed no quiet check in {}",
            shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
        );
        claimed += usize::from(sure);
        with_quiet_check += usize::from(checking);
    }
    assert!(
        claimed > 500 && with_quiet_check > 500,
        "{claimed} {with_quiet_check}"
    );
}
