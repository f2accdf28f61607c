//! Cutoff against Cutoff: two engine processes, real clocks, the game tracked with shakmaty.
//!
//! Every bestmove must be legal, every search report well formed, and no clock may drop below zero (a ~50 ms
//! allowance covers pipe latency and scheduling on a loaded CI machine; cutechess-cli and fastchess allow none).

mod common;

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use common::*;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

/// Clock allowance for pipe latency and scheduling.
const LATENCY_ALLOWANCE_MS: i64 = 50;

/// Games run one at a time: two engines per game already fill the two cores, and a third or fourth engine
/// process competing for CPU would turn scheduling delays into lost time.
static ONE_GAME_AT_A_TIME: Mutex<()> = Mutex::new(());

fn exclusive() -> MutexGuard<'static, ()> {
    ONE_GAME_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[derive(Clone, Copy, Debug)]
enum TimeControl {
    /// Base time and increment per move, in ms.
    Increment { base: i64, inc: i64 },
    /// `moves` moves in `base` ms, repeating.
    MovesToGo { base: i64, moves: u32 },
}

#[derive(Debug)]
struct GameRecord {
    moves: Vec<String>,
    result: String,
    min_clock_left: [i64; 2],
}

impl GameRecord {
    /// Prints the game and the lowest clocks to stderr (shown when a test fails).
    fn log(&self, label: &str) {
        eprintln!(
            "{label}: {} after {} plies; lowest clocks white {} ms, black {} ms\n{}",
            self.result,
            self.moves.len(),
            self.min_clock_left[0],
            self.min_clock_left[1],
            self.moves.join(" ")
        );
    }
}

fn play_game(
    white: &mut Engine,
    black: &mut Engine,
    tc: TimeControl,
    max_plies: usize,
) -> GameRecord {
    for e in [&mut *white, &mut *black] {
        e.send("ucinewgame");
        e.sync();
    }
    let mut pos = Chess::default();
    let mut moves: Vec<String> = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let key = |p: &Chess| -> u64 { p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0 };
    *seen.entry(key(&pos)).or_default() += 1;
    let (base, inc) = match tc {
        TimeControl::Increment { base, inc } => (base, inc),
        TimeControl::MovesToGo { base, .. } => (base, 0),
    };
    let mut clock = [base, base]; // [white, black]
    let mut moves_made = [0u32, 0u32];
    let mut min_left = [base, base];
    let result = loop {
        if pos.is_checkmate() {
            break format!("checkmate, {:?} wins", pos.turn().other());
        }
        if pos.is_stalemate() {
            break "stalemate".to_string();
        }
        if pos.is_insufficient_material() {
            break "insufficient material".to_string();
        }
        if pos.halfmoves() >= 100 {
            break "fifty-move rule".to_string();
        }
        if seen[&key(&pos)] >= 3 {
            break "threefold repetition".to_string();
        }
        if moves.len() >= max_plies {
            break "adjourned".to_string();
        }
        let side = pos.turn();
        let idx = if side == Color::White { 0 } else { 1 };
        let engine: &mut Engine = if side == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        let go = match tc {
            TimeControl::Increment { .. } => format!(
                "go wtime {} btime {} winc {inc} binc {inc}",
                clock[0].max(1),
                clock[1].max(1)
            ),
            TimeControl::MovesToGo { moves: per, .. } => format!(
                "go wtime {} btime {} movestogo {}",
                clock[0].max(1),
                clock[1].max(1),
                per - moves_made[idx] % per
            ),
        };
        engine.send(&position);
        let r = engine.go(&go, Duration::from_millis(clock[idx].max(0) as u64 + 5_000));
        let used = r.elapsed.as_millis() as i64;
        clock[idx] -= used;
        min_left[idx] = min_left[idx].min(clock[idx]);
        assert!(
            clock[idx] >= -LATENCY_ALLOWANCE_MS,
            "{side:?} lost on time at ply {}: `{go}` took {used} ms, clock now {} ms\nmoves: {}\n{}",
            moves.len() + 1,
            clock[idx],
            moves.join(" "),
            engine.transcript()
        );
        check_search(&pos, &r, CastlingMode::Standard);
        let m = strict_move(&pos, &r.bestmove, CastlingMode::Standard).unwrap();
        pos.play_unchecked(m);
        moves.push(r.bestmove.clone());
        *seen.entry(key(&pos)).or_default() += 1;
        moves_made[idx] += 1;
        match tc {
            TimeControl::Increment { .. } => clock[idx] += inc,
            TimeControl::MovesToGo { base, moves: per } => {
                if moves_made[idx].is_multiple_of(per) {
                    clock[idx] += base;
                }
            }
        }
    };
    GameRecord {
        moves,
        result,
        min_clock_left: min_left,
    }
}

fn engines() -> (Engine, Engine) {
    (Engine::started(), Engine::started())
}

#[test]
fn two_games_at_one_second_plus_increment_never_lose_on_time() {
    let _serial = exclusive();
    let (mut a, mut b) = engines();
    let tc = TimeControl::Increment {
        base: 1_000,
        inc: 10,
    };
    let g1 = play_game(&mut a, &mut b, tc, 60);
    let g2 = play_game(&mut b, &mut a, tc, 60);
    for (i, g) in [g1, g2].iter().enumerate() {
        g.log(&format!("game {}", i + 1));
        assert!(!g.moves.is_empty());
    }
}

#[test]
fn game_with_movestogo_never_loses_on_time() {
    let _serial = exclusive();
    // 20 moves in 1 s, repeating: the game passes one time-control boundary (move 20) within 60 plies.
    let (mut a, mut b) = engines();
    let g = play_game(
        &mut a,
        &mut b,
        TimeControl::MovesToGo {
            base: 1_000,
            moves: 20,
        },
        60,
    );
    g.log("movestogo game");
    assert!(!g.moves.is_empty());
}

#[test]
fn game_with_ponder_and_ponderhit_never_loses_on_time() {
    let _serial = exclusive();
    // White ponders on its predicted reply; on a hit it sends `ponderhit`, on a miss `stop` and a fresh search.
    let (mut white, mut black) = engines();
    white.send("setoption name Ponder value true");
    white.sync();
    let (base, inc) = (1_000i64, 10i64);
    let mut clock = [base, base];
    let mut pos = Chess::default();
    let mut moves: Vec<String> = Vec::new();
    let mut pondering: Option<String> = None; // predicted Black move White is pondering on
    for e in [&mut white, &mut black] {
        e.send("ucinewgame");
        e.sync();
    }
    let (mut hits, mut misses) = (0, 0);
    // Every other Black move is the reply White predicted, so that `ponderhit` is certain to
    // be exercised (two Cutoffs agree often, but not on every move); the others are Black's own.
    let mut black_moves = 0;
    for _ in 0..40 {
        if pos.legal_moves().is_empty() {
            break;
        }
        let white_to_move = pos.turn() == Color::White;
        if !white_to_move {
            black_moves += 1;
            if let Some(predicted) = pondering.as_ref().filter(|_| black_moves % 2 == 1) {
                let m = strict_move(&pos, predicted, CastlingMode::Standard).unwrap();
                pos.play_unchecked(m);
                moves.push(predicted.clone());
                continue;
            }
        }
        let idx = if white_to_move { 0 } else { 1 };
        let go_clock = format!(
            "wtime {} btime {} winc {inc} binc {inc}",
            clock[0], clock[1]
        );
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        let timeout = Duration::from_millis(clock[idx] as u64 + 5_000);
        let r = if white_to_move {
            let outcome = ponder_outcome(pondering.take(), moves.last().map(String::as_str));
            match outcome {
                PonderOutcome::Hit => hits += 1,
                PonderOutcome::Miss => misses += 1,
                PonderOutcome::None => {}
            }
            white_answers(&mut white, outcome, &position, &go_clock, timeout)
        } else {
            black.send(&position);
            black.go(&format!("go {go_clock}"), timeout)
        };
        let used = r.elapsed.as_millis() as i64;
        clock[idx] -= used;
        assert!(
            clock[idx] >= -LATENCY_ALLOWANCE_MS,
            "side {idx} lost on time: took {used} ms, clock {} ms\nmoves: {}",
            clock[idx],
            moves.join(" ")
        );
        clock[idx] += inc;
        check_search(&pos, &r, CastlingMode::Standard);
        let m = strict_move(&pos, &r.bestmove, CastlingMode::Standard).unwrap();
        pos.play_unchecked(m);
        moves.push(r.bestmove.clone());
        if white_to_move {
            pondering = start_pondering(&mut white, &pos, &moves, r.ponder.as_deref(), clock, inc);
        }
    }
    if pondering.is_some() {
        white.send("stop");
        white.wait_bestmove(Duration::from_secs(5));
    }
    eprintln!(
        "ponder game: {hits} hits, {misses} misses; moves: {}",
        moves.join(" ")
    );
    assert!(
        hits > 0,
        "no ponderhit was ever sent ({misses} misses): the test did not test it; moves: {}",
        moves.join(" ")
    );
}

/// What White's pondering came to when Black has moved.
#[derive(Clone, Copy)]
enum PonderOutcome {
    /// Black played the predicted move: `ponderhit` turns the ponder search into ours.
    Hit,
    /// Black played another move: the ponder search is stopped and a fresh one started.
    Miss,
    /// White was not pondering.
    None,
}

fn ponder_outcome(pondering: Option<String>, last_move: Option<&str>) -> PonderOutcome {
    match pondering {
        Some(predicted) if last_move == Some(predicted.as_str()) => PonderOutcome::Hit,
        Some(_) => PonderOutcome::Miss,
        None => PonderOutcome::None,
    }
}

/// White's search for its move: the ponder search itself after a hit, else a fresh one.
fn white_answers(
    white: &mut Engine,
    outcome: PonderOutcome,
    position: &str,
    go_clock: &str,
    timeout: Duration,
) -> SearchResult {
    match outcome {
        PonderOutcome::Hit => {
            white.send("ponderhit");
            return white.wait_bestmove(timeout);
        }
        PonderOutcome::Miss => {
            white.send("stop");
            white.wait_bestmove(Duration::from_secs(5));
        }
        PonderOutcome::None => {}
    }
    white.send(position);
    white.go(&format!("go {go_clock}"), timeout)
}

/// After White's move, ponders on the position after the predicted reply (our clock runs only
/// after Black moves). Returns the predicted move when pondering started.
fn start_pondering(
    white: &mut Engine,
    pos: &Chess,
    moves: &[String],
    ponder: Option<&str>,
    clock: [i64; 2],
    inc: i64,
) -> Option<String> {
    let p = ponder?;
    let mut after = pos.clone();
    let pm = strict_move(&after, p, CastlingMode::Standard).unwrap();
    after.play_unchecked(pm);
    if after.legal_moves().is_empty() {
        return None;
    }
    white.send(&format!("position startpos moves {} {p}", moves.join(" ")));
    white.send(&format!(
        "go ponder wtime {} btime {} winc {inc} binc {inc}",
        clock[0], clock[1]
    ));
    Some(p.to_string())
}
