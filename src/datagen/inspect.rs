//! Reading chunks back for people: every position as a text line (`--dump`), the games and
//! positions of chunks counted and checked against their manifests, grouped by the series that
//! played them (`--stats`), and a 40-byte file rewritten as game records (`--convert`). Each
//! returns what it found, streaming a line or a chunk at a time through a callback where the
//! input can be large; the command (`crate::cli::datagen`) prints it all.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, EnPassantMode, Position};

use super::chunk::{ChunkError, ChunkReader, Format};
use super::manifest::{self, Searched};
use super::output::{ChunkWriter, RunInfo};
use super::positions::{game_positions, Filter};
use super::record::{Record, RECORD_BYTES};
use super::viriformat::{read_full, ReadErrorKind};
use crate::files::reason;
use crate::types::Score;

/// Every position of a chunk as a text line, handed to `emit` one at a time (a chunk of any
/// size costs a game's memory, and the lines before a bad game or record come out before its
/// error). `emit` returns false to stop early (the reader of the lines went away), which is
/// no error. What was noticed without stopping comes back, for stderr.
pub fn dump(path: &Path, emit: impl FnMut(&str) -> bool) -> Result<Vec<String>, String> {
    match Format::of_path(path) {
        Some(Format::Bin) => dump_records(path, emit),
        _ => dump_games(path, emit),
    }
}

/// `quiet` or the facts a filter reads, comma-separated.
fn flags(check: bool, capture: bool, promotion: bool, mate: bool) -> String {
    let names: Vec<&str> = [
        (check, "check"),
        (capture, "capture"),
        (promotion, "promotion"),
        (mate, "mate"),
    ]
    .iter()
    .filter_map(|&(set, name)| set.then_some(name))
    .collect();
    if names.is_empty() {
        "quiet".to_string()
    } else {
        names.join(",")
    }
}

/// A viriformat chunk, position by position:
/// `<fen> | <score for White> | <result for White> | game G ply P | <move> | <flags>`.
fn dump_games(path: &Path, mut emit: impl FnMut(&str) -> bool) -> Result<Vec<String>, String> {
    let reader = ChunkReader::open(path).map_err(|e| e.to_string())?;
    for (g, game) in reader.enumerate() {
        let game = game.map_err(|e| e.to_string())?;
        for p in game_positions(&game) {
            let line = format!(
                "{} | {} | {} | game {g} ply {} | {} | {}",
                Fen::from_position(&p.pos, EnPassantMode::Legal),
                p.white_score,
                p.result.label(),
                p.ply,
                p.best.to_uci(CastlingMode::Standard),
                flags(
                    p.pos.is_check(),
                    p.best.is_capture(),
                    p.best.is_promotion(),
                    Score(i32::from(p.white_score)).is_mate()
                )
            );
            if !emit(&line) {
                return Ok(Vec::new());
            }
        }
    }
    Ok(Vec::new())
}

/// Every record of a 40-byte file as a text line, read a record at a time through a buffer.
/// A partial record at the end is ignored, with a note.
fn dump_records(path: &Path, mut emit: impl FnMut(&str) -> bool) -> Result<Vec<String>, String> {
    let named = |what: String| format!("{}: {what}", path.display());
    let (file, _) = crate::files::open_regular(path)?;
    let mut input = std::io::BufReader::with_capacity(1 << 16, file);
    let mut bytes = [0u8; RECORD_BYTES];
    for index in 0u64.. {
        let n = read_full(&mut input, &mut bytes).map_err(|e| named(crate::files::reason(&e)))?;
        if n < RECORD_BYTES {
            if index == 0 {
                // Empty, or less than one record: nothing to dump is not data.
                return Err(named("no whole record: not data".into()));
            }
            if n > 0 {
                return Ok(vec![named(format!(
                    "{n} trailing bytes of a partial record ignored"
                ))]);
            }
            break;
        }
        let r = Record::decode(&bytes)
            .and_then(|r| r.position().map(|pos| (r, pos)))
            .map_err(|e| named(format!("record {index}: {e}")));
        let (r, pos) = r?;
        let line = format!(
            "{} | {} | {:.1} | game {} ply {} | {} | {}",
            Fen::from_position(&pos, EnPassantMode::Legal),
            r.score,
            r.result,
            r.game,
            r.ply,
            r.best_move_uci(),
            flags(r.in_check, r.capture, r.promotion, r.mate_score)
        );
        if !emit(&line) {
            break;
        }
    }
    Ok(Vec::new())
}

/// Counts of one or more chunks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub games: u64,
    pub positions: u64,
    /// Positions that pass the trainer's default filter.
    pub passed: u64,
    /// Inputs missing, unreadable or not data ([`ChunkError::is_fatal`]).
    pub failed: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.games += other.games;
        self.positions += other.positions;
        self.passed += other.passed;
        self.failed += other.failed;
    }
}

/// How a chunk read to its end agrees with the last line its manifest has for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ManifestCheck {
    NoLine,
    /// The chunk was not read to its end, so its checksum is unknown.
    NotChecked,
    Matches {
        state: String,
    },
    /// More games than the last checkpoint reserved, from a run stopped or still going.
    PastCheckpoint {
        games: u64,
    },
    Differs {
        state: String,
        games: u64,
    },
    /// The manifest beside the chunk is not one that can be read (a pipe, a folder, a
    /// device, lines that are not manifest lines): the chunk's line, if any, is unknown.
    Unreadable,
}

impl fmt::Display for ManifestCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManifestCheck::NoLine => write!(f, "no manifest line"),
            ManifestCheck::NotChecked => write!(f, "not checked against the manifest"),
            ManifestCheck::Matches { state } => write!(f, "manifest matches ({state})"),
            ManifestCheck::PastCheckpoint { games } => write!(
                f,
                "past its manifest's last checkpoint ({games} games: a run stopped or still going)"
            ),
            ManifestCheck::Differs { state, games } => write!(
                f,
                "DIFFERS from its manifest's last line ({state}, {games} games)"
            ),
            ManifestCheck::Unreadable => write!(f, "its MANIFEST cannot be read (see above)"),
        }
    }
}

/// One chunk replayed: what it holds up to its first problem, and what was noticed.
#[derive(Clone, Debug)]
pub struct ChunkStats {
    pub counts: Counts,
    /// Problems and notes, in the order met, for stderr.
    pub notes: Vec<String>,
    /// `None` when the chunk could not be opened (it was skipped, and counts as failed).
    pub manifest: Option<ManifestCheck>,
    /// Whether a problem ended the reading before the file's end.
    pub read_up_to_a_problem: bool,
    /// The series the chunk belongs to (`series_of`).
    pub series: (Searched, String),
}

/// Replays every game of one chunk, counting what passes `filter`. Its manifest is read once,
/// for both the check and the series; one that cannot be read is a note naming it, and the
/// chunk's series is unknown.
fn chunk_stats(path: &Path, filter: &Filter) -> ChunkStats {
    let line = manifest::last_entry(path);
    let series = series_of(path, line.as_ref().ok());
    let mut notes = Vec::new();
    let line = line.unwrap_or_else(|e| {
        notes.push(e);
        None
    });
    let unreadable = series.0 == Searched::Unknown;
    let mut reader = match ChunkReader::open(path) {
        Ok(r) => r,
        Err(e) => {
            notes.push(format!("{e}; skipped"));
            return ChunkStats {
                counts: Counts {
                    failed: 1,
                    ..Counts::default()
                },
                notes,
                manifest: None,
                read_up_to_a_problem: false,
                series,
            };
        }
    };
    let mut c = Counts::default();
    let mut problem = false;
    for game in reader.by_ref() {
        match game {
            Ok(game) => {
                c.games += 1;
                c.positions += game.moves.len() as u64;
                c.passed += game_positions(&game)
                    .filter(|p| filter.passes_position(p))
                    .count() as u64;
            }
            Err(e) => {
                // A file with no whole game has no rest to skip: it ended.
                let ended = e.error.kind == ReadErrorKind::Open;
                let rest = if ended {
                    ""
                } else {
                    "; the rest of this file is skipped"
                };
                notes.push(format!("{e}{rest}"));
                problem = !ended;
                c.failed = u64::from(e.is_fatal());
            }
        }
    }
    notes.extend(
        reader
            .take_notes()
            .into_iter()
            .map(|note| format!("{}: {note}", path.display())),
    );
    if reader.splits() > 0 {
        notes.push(format!(
            "{}: {} games split where records do not follow",
            path.display(),
            reader.splits()
        ));
    }
    let manifest = match (line, reader.sha256_hex()) {
        _ if unreadable => ManifestCheck::Unreadable,
        (None, _) => ManifestCheck::NoLine,
        (Some(_), None) => ManifestCheck::NotChecked,
        // The checksum and the counts: a line whose counts were changed under a right
        // checksum is no more honest than a wrong checksum.
        (Some(e), Some(sha))
            if e.sha256 == sha && (e.games, e.positions) == (c.games, c.positions) =>
        {
            ManifestCheck::Matches { state: e.state }
        }
        (Some(e), Some(_)) if e.state == "running" && c.games >= e.games => {
            ManifestCheck::PastCheckpoint { games: e.games }
        }
        (Some(e), Some(_)) => ManifestCheck::Differs {
            state: e.state,
            games: e.games,
        },
    };
    ChunkStats {
        counts: c,
        notes,
        manifest: Some(manifest),
        read_up_to_a_problem: problem,
        series,
    }
}

/// The series a chunk belongs to: the build that played it (its manifest's last line `line`,
/// else its file name's `selfplay-N-`, else "unknown build") and what searched its games. With
/// its manifest unreadable (`line` is `None`) what searched is unknown: it is never guessed
/// from the name, which would count a net's games as the classical evaluation's.
fn series_of(path: &Path, line: Option<&Option<manifest::Entry>>) -> (Searched, String) {
    let named = || manifest::build_from_file_name(path);
    match line {
        Some(Some(e)) => (Searched::of(&e.build, &e.command), e.build.clone()),
        Some(None) => match named() {
            Some(build) => (Searched::of(&build, ""), build),
            None => (Searched::Classical, "unknown build".to_string()),
        },
        None => (
            Searched::Unknown,
            named().unwrap_or_else(|| "unknown build".to_string()),
        ),
    }
}

/// The chunks of one series and their counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Series {
    pub chunks: u64,
    pub counts: Counts,
}

/// Chunks counted: by series (what searched, the build that played), and in all.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub by_series: BTreeMap<(Searched, String), Series>,
    pub total: Counts,
}

impl Stats {
    /// The positions of the series that `which` searched: what the net's data goal counts.
    pub fn searched_by(&self, which: Searched) -> u64 {
        self.by_series
            .iter()
            .filter(|((s, _), _)| *s == which)
            .map(|(_, series)| series.counts.positions)
            .sum()
    }
}

/// Replays every game of `chunks`, handing each chunk's count to `each` as soon as it is
/// known (a folder of large chunks takes a while), and returns the counts by series and in
/// all. A chunk that cannot be opened still counts in its series, as a chunk with nothing read.
pub fn stats(chunks: &[PathBuf], mut each: impl FnMut(&Path, &ChunkStats)) -> Stats {
    let filter = Filter::default();
    let mut stats = Stats::default();
    for path in chunks {
        let chunk = chunk_stats(path, &filter);
        each(path, &chunk);
        let series = stats.by_series.entry(chunk.series.clone()).or_default();
        series.chunks += 1;
        series.counts.add(&chunk.counts);
        stats.total.add(&chunk.counts);
    }
    stats
}

/// A conversion that wrote its games.
#[derive(Clone, Debug)]
pub struct Converted {
    pub games: u64,
    pub positions: u64,
    /// Games split where the input's records do not follow each other.
    pub splits: u64,
    pub in_bytes: u64,
    pub out_bytes: u64,
    pub elapsed: Duration,
    /// What the reader noticed, and the problem that ended it early, for stderr.
    pub notes: Vec<String>,
    /// Whether a read error of the system stopped the input early (a corrupt or torn tail is
    /// only noted): the games before it were converted, but the conversion failed.
    pub input_failed: bool,
}

/// The games of the 40-byte file `input` as game records at the viriformat chunk `out` (added
/// to it with `append`), with a manifest line `converted` carrying the input's build, seed and
/// game indices and `command`. Nothing is created before a game has been read: an input that
/// is corrupt from its first record, or empty, leaves no empty chunk (nor manifest line); and a
/// failure after that (a write, the manifest line) removes the chunk it created, or cuts an
/// appended one back to its length before.
pub fn convert(
    input: &Path,
    out: &Path,
    append: bool,
    command: String,
) -> Result<Converted, String> {
    let start = Instant::now();
    // Opened before its name is judged, so a missing input says so.
    let mut reader = ChunkReader::open(input).map_err(|e| e.to_string())?;
    if reader.format() != Format::Bin {
        return Err(format!(
            "{}: --convert reads 40-byte .bin files",
            input.display()
        ));
    }
    // The input's line (its build, seed and game indices) before anything is written: a
    // manifest that cannot be read is refused with nothing converted.
    let source = manifest::last_entry(input)?;
    let first = match reader.next() {
        Some(Ok(game)) => game,
        Some(Err(e)) => return Err(format!("{e}; nothing converted")),
        None => return Err(format!("{}: no games; nothing converted", input.display())),
    };
    let (mut writer, _) = ChunkWriter::open(out, Format::Viri, append)?;
    let mut problem = None;
    for game in std::iter::once(Ok(first)).chain(reader.by_ref()) {
        match game {
            Ok(game) => {
                if let Err(e) = writer.write_scored(&game) {
                    let error = format!("cannot write {}: {}", out.display(), reason(&e));
                    return Err(abandoned(writer, error));
                }
            }
            Err(e) => problem = Some(e),
        }
    }
    let mut notes: Vec<String> = reader
        .take_notes()
        .into_iter()
        .map(|note| format!("{}: {note}", input.display()))
        .collect();
    if let Some(e) = &problem {
        notes.push(format!("{e}; the rest of the input is skipped"));
    }
    let run = RunInfo {
        build: source
            .as_ref()
            .map_or("unknown".into(), |e| e.build.clone()),
        seed: source.as_ref().map_or(0, |e| e.seed),
        command,
    };
    let (first, next) = source
        .as_ref()
        .map_or((0, 0), |e| (e.first_game, e.next_game));
    if let Err(e) = writer.checkpoint(&run, first, next, "converted") {
        return Err(abandoned(writer, e));
    }
    Ok(Converted {
        games: writer.games,
        positions: writer.positions,
        splits: reader.splits(),
        in_bytes: std::fs::metadata(input).map_or(0, |m| m.len()),
        out_bytes: std::fs::metadata(out).map_or(0, |m| m.len()),
        elapsed: start.elapsed(),
        notes,
        input_failed: problem.as_ref().is_some_and(ChunkError::is_fatal),
    })
}

/// `error`, after the conversion's output is undone (a new chunk removed, an appended one cut
/// back), with what undoing it met if it failed too.
fn abandoned(writer: ChunkWriter, error: String) -> String {
    match writer.abandon() {
        Ok(()) => format!("{error}; nothing converted"),
        Err(also) => format!("{error}; {also}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_with_nothing_to_filter_on_reads_quiet() {
        assert_eq!(flags(false, false, false, false), "quiet");
        assert_eq!(flags(true, true, false, true), "check,capture,mate");
        assert_eq!(flags(false, false, true, false), "promotion");
    }

    #[test]
    fn a_chunk_that_cannot_be_opened_is_skipped_failed_in_its_named_series() {
        let missing = PathBuf::from("/nonexistent/cutoff/selfplay-7-s1.vf");
        let mut seen = Vec::new();
        let stats = stats(std::slice::from_ref(&missing), |path, chunk| {
            seen.push((
                path.to_path_buf(),
                chunk.manifest.clone(),
                chunk.notes.len(),
            ));
        });
        assert_eq!(seen, [(missing, None, 1)]);
        assert_eq!(stats.total.failed, 1);
        let series = &stats.by_series[&(Searched::Classical, "Bench: 7".to_string())];
        assert_eq!(series.chunks, 1);
        assert_eq!(stats.searched_by(Searched::Net), 0);
    }
}
