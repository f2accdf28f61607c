//! Parsing UCI input lines into commands. Nothing here touches engine state, so every error is
//! found before anything changes.

use std::time::Duration;

use crate::search::Limits;

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    StartPos,
    Fen(String),
}

/// `go`: the search's limits, read straight into the search's own [`Limits`] (any subset, as
/// given), and what only the protocol has.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// Depth, nodes, mate, move time, both clocks, infinite. Its root moves stay empty here:
    /// those of `searchmoves` are checked against the position when the search starts.
    pub limits: Limits,
    /// `searchmoves`, in UCI notation as typed.
    pub searchmoves: Vec<String>,
    /// `go ponder`: the clock does not run until `ponderhit`.
    pub ponder: bool,
    /// `go perft <depth>`: count leaves instead of searching.
    pub perft: Option<u32>,
    /// One message per parameter that was ignored (unknown, missing or bad value). The search
    /// still runs with the parameters that parsed: a GUI that sent `go` waits for `bestmove`.
    pub errors: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    IsReady,
    UciNewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        start: Start,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Quit,
    /// `d`: show the board, FEN and key.
    Display,
    /// `eval`: show the static evaluation.
    Eval,
    /// `debug on|off`, `register ...`: accepted and ignored.
    Ignored,
    /// A blank line.
    Empty,
}

/// Parses one line. `Err` carries the text for `info string error: ...`.
pub fn parse(line: &str) -> Result<Command, String> {
    let mut words = line.split_whitespace();
    let Some(head) = words.next() else {
        return Ok(Command::Empty);
    };
    let rest: Vec<&str> = words.collect();
    match head {
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::UciNewGame),
        "setoption" => parse_setoption(&rest, line),
        "position" => parse_position(&rest),
        "go" => parse_go(&rest).map(Command::Go),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        "debug" | "register" => Ok(Command::Ignored),
        other => Err(format!("unknown command '{}'", truncate(other))),
    }
}

/// Keeps error messages short whatever garbage came in.
fn truncate(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        s.chars().take(MAX).collect::<String>() + "..."
    }
}

/// `setoption name <words...> [value <text>]`: names may contain spaces (read as words, one
/// space between), and the value is the rest of `line` as typed after the one space that
/// follows `value`, trailing white space trimmed: a path may hold repeated spaces or tabs.
fn parse_setoption(words: &[&str], line: &str) -> Result<Command, String> {
    if words.first() != Some(&"name") {
        return Err("setoption: expected 'name'".into());
    }
    let value_at = words.iter().position(|w| *w == "value");
    let name_words = &words[1..value_at.unwrap_or(words.len())];
    if name_words.is_empty() {
        return Err("setoption: missing option name".into());
    }
    let value = value_at.map(|i| {
        // Every word is a slice of `line`: where `value` ends in it is found from the pointers.
        let end = words[i].as_ptr() as usize + words[i].len() - line.as_ptr() as usize;
        let mut rest = line[end..].chars();
        rest.next(); // The one space (or tab) after `value`.
        rest.as_str().trim_end().to_string()
    });
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

fn parse_position(words: &[&str]) -> Result<Command, String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let spec = &words[..moves_at.unwrap_or(words.len())];
    let moves = moves_at
        .map(|i| words[i + 1..].iter().map(|s| s.to_string()).collect())
        .unwrap_or_default();
    let start = match spec.first() {
        Some(&"startpos") if spec.len() == 1 => Start::StartPos,
        Some(&"startpos") => return Err("position: unexpected words after 'startpos'".into()),
        Some(&"fen") if spec.len() > 1 => Start::Fen(spec[1..].join(" ")),
        Some(&"fen") => return Err("position: missing FEN".into()),
        _ => return Err("position: expected 'startpos' or 'fen'".into()),
    };
    Ok(Command::Position { start, moves })
}

/// Reads the value after `key`. A missing value, or a `go` keyword in its place, is an error
/// that leaves the keyword to be read next (`go depth infinite` still searches endlessly).
fn number<T: std::str::FromStr>(key: &str, value: Option<&&str>) -> Result<T, String> {
    let v = value
        .filter(|v| !is_go_keyword(v))
        .ok_or_else(|| format!("go: missing value after '{key}'; '{key}' ignored"))?;
    v.parse()
        .map_err(|_| format!("go: bad value '{}' for '{key}'; ignored", truncate(v)))
}

/// Clock values may be negative (some GUIs send them when a clock ran over): read as zero.
fn millis(key: &str, value: Option<&&str>) -> Result<Duration, String> {
    let ms: i64 = number(key, value)?;
    Ok(Duration::from_millis(ms.max(0) as u64))
}

/// How many words a parameter whose value failed to parse takes: the value too, unless it is
/// missing or is the next keyword.
fn words_taken(value: Option<&&str>) -> usize {
    match value {
        Some(v) if !is_go_keyword(v) => 2,
        _ => 1,
    }
}

/// The longest mate `go mate` looks for, in moves: far beyond any search's depth.
pub const MATE_MAX: u32 = 1000;

/// Reads `go`'s parameters. A bad parameter is reported in [`Go::errors`] and skipped, so
/// the search starts with what parsed; only `go perft` with a bad depth is refused outright
/// (it asks for a count, not a search, and answers no `bestmove` either way).
fn parse_go(words: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let value = words.get(i + 1);
        let parsed: Result<(), String> = match key {
            "wtime" => millis(key, value).map(|v| go.limits.clocks.time.white = Some(v)),
            "btime" => millis(key, value).map(|v| go.limits.clocks.time.black = Some(v)),
            "winc" => millis(key, value).map(|v| go.limits.clocks.increment.white = Some(v)),
            "binc" => millis(key, value).map(|v| go.limits.clocks.increment.black = Some(v)),
            "movetime" => millis(key, value).map(|v| go.limits.movetime = Some(v)),
            "movestogo" => number(key, value).map(|v| go.limits.clocks.moves_to_go = Some(v)),
            "depth" => number::<i32>(key, value).and_then(|d| {
                if d < 1 {
                    return Err(format!("go: depth {d} must be at least 1; ignored"));
                }
                go.limits.depth = Some(d);
                Ok(())
            }),
            "nodes" => number(key, value).map(|v| go.limits.nodes = Some(v)),
            // Clamped: no search reaches that deep, and the plies of a larger mate overflow.
            "mate" => number::<u32>(key, value).and_then(|n| {
                if n < 1 {
                    return Err("go: mate 0 must be at least 1; ignored".to_string());
                }
                go.limits.mate = Some(n.min(MATE_MAX));
                Ok(())
            }),
            "perft" => {
                go.perft = Some(number(key, value)?);
                Ok(())
            }
            "infinite" => {
                go.limits.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                go.ponder = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                // Runs to the end of the line, or to the next keyword if a GUI put one after.
                i += 1;
                while i < words.len() && !is_go_keyword(words[i]) {
                    go.searchmoves.push(words[i].to_string());
                    i += 1;
                }
                continue;
            }
            other => {
                go.errors.push(format!(
                    "go: unknown parameter '{}'; ignored",
                    truncate(other)
                ));
                i += 1;
                continue;
            }
        };
        match parsed {
            Ok(()) => i += 2,
            Err(e) => {
                go.errors.push(e);
                i += words_taken(value);
            }
        }
    }
    Ok(go)
}

fn is_go_keyword(w: &str) -> bool {
    matches!(
        w,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
            | "ponder"
            | "perft"
            | "searchmoves"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setoption_names_may_have_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 30").unwrap(),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash").unwrap(),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(parse("setoption value 3").is_err());
    }

    #[test]
    fn setoption_values_are_kept_as_typed_after_the_space_following_value() {
        let value = |line: &str| match parse(line).unwrap() {
            Command::SetOption { value, .. } => value,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(
            value("setoption name EvalFile value /tmp/a  b\tc.nnue  \r\n").as_deref(),
            Some("/tmp/a  b\tc.nnue")
        );
        assert_eq!(
            value("setoption  name\tSyzygyPath   value\t x:y").as_deref(),
            Some(" x:y")
        );
        assert_eq!(value("setoption name Hash value").as_deref(), Some(""));
        assert_eq!(
            value("setoption name Hash value 64 value 2").as_deref(),
            Some("64 value 2")
        );
        assert_eq!(value("setoption name Clear Hash"), None);
    }

    #[test]
    fn position_reads_fen_and_moves() {
        let cmd = parse("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 moves a1a2 c1c2").unwrap();
        assert_eq!(
            cmd,
            Command::Position {
                start: Start::Fen("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()),
                moves: vec!["a1a2".into(), "c1c2".into()]
            }
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position startpos e2e4").is_err());
    }

    #[test]
    fn go_accepts_any_subset() {
        let go = match parse("go wtime 100").unwrap() {
            Command::Go(g) => g,
            _ => unreachable!(),
        };
        assert_eq!(
            go.limits.clocks.time.white,
            Some(Duration::from_millis(100))
        );
        assert_eq!(go.limits.clocks.time.black, None);
        let go = match parse("go infinite searchmoves e2e4 d2d4").unwrap() {
            Command::Go(g) => g,
            _ => unreachable!(),
        };
        assert!(go.limits.infinite);
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        let go = match parse("go wtime -20 btime 5000 ponder").unwrap() {
            Command::Go(g) => g,
            _ => unreachable!(),
        };
        assert_eq!(go.limits.clocks.time.white, Some(Duration::ZERO));
        assert!(go.ponder);
    }

    #[test]
    fn an_enormous_mate_distance_is_clamped() {
        let go = match parse("go mate 4294967295").unwrap() {
            Command::Go(g) => g,
            _ => unreachable!(),
        };
        assert_eq!(go.limits.mate, Some(MATE_MAX));
    }

    fn go(line: &str) -> Go {
        match parse(line).unwrap() {
            Command::Go(g) => g,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn bad_go_parameters_are_reported_and_the_rest_kept() {
        let g = go("go depth abc movetime 50");
        assert_eq!(
            (g.limits.depth, g.limits.movetime),
            (None, Some(Duration::from_millis(50)))
        );
        assert_eq!(g.errors.len(), 1, "{:?}", g.errors);
        assert!(go("go depth").errors[0].contains("missing value"));
        let g = go("go fast depth 3");
        assert_eq!((g.limits.depth, g.errors.len()), (Some(3), 1));
        // A keyword where a value should be is read as the keyword.
        let g = go("go wtime infinite");
        assert!(g.limits.infinite && g.limits.clocks.time.white.is_none() && g.errors.len() == 1);
        let g = go("go depth -5 go go nodes 7");
        assert_eq!(
            (g.limits.depth, g.limits.nodes, g.errors.len()),
            (None, Some(7), 3)
        );
        assert_eq!(go("go mate 0").limits.mate, None);
        assert_eq!(go("go mate 0").errors.len(), 1);
        assert!(go("go depth 3 movetime 9").errors.is_empty());
        // `go perft` asks for a count, not a search: a bad depth refuses it.
        assert!(parse("go perft x").is_err());
    }

    #[test]
    fn unknown_commands_are_errors_and_blank_lines_are_not() {
        assert!(parse("fly").is_err());
        assert_eq!(parse("   ").unwrap(), Command::Empty);
    }
}
