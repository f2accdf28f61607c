//! Data files ("chunks") of either format read as whole games: viriformat files (`.vf`, see
//! [`super::viriformat`]) and the older 40-byte record files (`.bin`, see [`super::record`]),
//! told apart by extension. Everything that reads data — `--stats`, `--dump`, the converter,
//! the training reader — goes through here, so they agree on what a file holds.
//!
//! A 40-byte file holds whole games, each game's records consecutive with one game index, the
//! ply counting up by one and the stored best move being the move played; the reader checks
//! all of it. A record whose position is not the previous position after the previous best
//! move starts a new game (a *split*, counted and described in [`ChunkReader::take_notes`]).

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

use super::record::{Record, RECORD_BYTES};
use super::sha256::Sha256;
use super::viriformat::{read_full, GameReader, ReadError, ReadErrorKind, ScoredGame, ZERO_FILLED};
use super::GameResult;

/// The two layouts of a data file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Viriformat game records, `.vf`.
    Viri,
    /// 40-byte position records, `.bin`.
    Bin,
}

impl Format {
    /// The format a file name promises, from its extension.
    pub fn of_path(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()? {
            "vf" => Some(Format::Viri),
            "bin" => Some(Format::Bin),
            _ => None,
        }
    }

    /// `vf` or `bin`, as `--format` takes it.
    pub fn parse(text: &str) -> Result<Format, String> {
        match text {
            "vf" => Ok(Format::Viri),
            "bin" => Ok(Format::Bin),
            _ => Err(format!("unknown format '{text}' (vf or bin)")),
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Viri => "vf",
            Format::Bin => "bin",
        }
    }
}

/// A problem with one chunk: the file, and where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkError {
    pub path: PathBuf,
    pub error: ReadError,
    /// The file gave no whole game before the problem: it could not be opened (missing, not
    /// a regular file, named neither `.vf` nor `.bin`) or its first game does not read.
    pub nothing_read: bool,
}

impl ChunkError {
    /// Whether the problem makes the file count as unreadable or not data, which a command
    /// reports with a non-zero exit: nothing read from it, or a read error of the system. A
    /// torn or corrupt tail after whole games is not: a run still appending, or killed, leaves
    /// one, and the games before it are good.
    pub fn is_fatal(&self) -> bool {
        self.nothing_read || self.error.kind == ReadErrorKind::Io
    }
}

impl std::fmt::Display for ChunkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.error)
    }
}

/// Passes bytes through while hashing them, so reading a chunk also checks it against its
/// manifest line.
struct Hashing<R> {
    inner: R,
    sha: Sha256,
    bytes: u64,
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.sha.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
}

type Input = BufReader<Hashing<File>>;

enum Games {
    Viri(GameReader<Input>),
    Bin(Box<BinGames<Input>>),
}

/// The games of one chunk file, streamed: whole, legal games until the end of the file or the
/// first problem, which comes once as an error naming the file and offset (the rest of that
/// file is skipped).
pub struct ChunkReader {
    path: PathBuf,
    format: Format,
    games: Games,
    /// Whole games read so far.
    read: u64,
    finished: bool,
    clean_end: bool,
}

impl ChunkReader {
    /// Opens `path`, its format known by its extension. The file is opened first, through the
    /// one rule for every file read ([`crate::files::open_regular`]), so a missing path says
    /// "no such file or directory" rather than that its name is wrong, and a device or a pipe
    /// is refused before a byte is read.
    pub fn open(path: &Path) -> Result<ChunkReader, ChunkError> {
        let error = |message: String| ChunkError {
            path: path.to_path_buf(),
            error: ReadError {
                offset: 0,
                kind: ReadErrorKind::Open,
                message,
            },
            nothing_read: true,
        };
        let (file, _) = crate::files::open_regular(path).map_err(|e| {
            // The rule's error is "<path>: <reason>"; the path is shown once, by ChunkError.
            let prefix = format!("{}: ", path.display());
            error(e.strip_prefix(&prefix).unwrap_or(&e).to_string())
        })?;
        let format = Format::of_path(path)
            .ok_or_else(|| error("not a data file: the name must end in .vf or .bin".into()))?;
        let input = BufReader::with_capacity(
            1 << 16,
            Hashing {
                inner: file,
                sha: Sha256::new(),
                bytes: 0,
            },
        );
        let games = match format {
            Format::Viri => Games::Viri(GameReader::new(input)),
            Format::Bin => Games::Bin(Box::new(BinGames::new(input))),
        };
        Ok(ChunkReader {
            path: path.to_path_buf(),
            format,
            games,
            read: 0,
            finished: false,
            clean_end: false,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn format(&self) -> Format {
        self.format
    }

    /// The file's SHA-256 once it has been read to its end without a problem.
    pub fn sha256_hex(&self) -> Option<String> {
        if !self.clean_end {
            return None;
        }
        let hashing = match &self.games {
            Games::Viri(r) => r.input().get_ref(),
            Games::Bin(r) => r.input.get_ref(),
        };
        Some(hashing.sha.hex())
    }

    /// What the reader noticed without stopping: games of a 40-byte file split where the
    /// records do not follow each other.
    pub fn take_notes(&mut self) -> Vec<String> {
        match &mut self.games {
            Games::Viri(_) => Vec::new(),
            Games::Bin(b) => std::mem::take(&mut b.notes),
        }
    }

    /// Games split from their neighbours so far (40-byte files only).
    pub fn splits(&self) -> u64 {
        match &self.games {
            Games::Viri(_) => 0,
            Games::Bin(b) => b.splits,
        }
    }

    fn wrap(&self, mut error: ReadError) -> ChunkError {
        if error.offset == 0 && error.kind == ReadErrorKind::Corrupt && error.message != ZERO_FILLED
        {
            error.message.push_str(match self.format {
                Format::Viri => " (the first game does not read: is it a 40-byte file named .vf?)",
                Format::Bin => {
                    " (the first record does not read: is it a viriformat file named .bin?)"
                }
            });
        }
        ChunkError {
            path: self.path.clone(),
            error,
            nothing_read: self.read == 0,
        }
    }
}

impl Iterator for ChunkReader {
    type Item = Result<ScoredGame, ChunkError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        let item = match &mut self.games {
            Games::Viri(r) => r.next(),
            Games::Bin(r) => r.next(),
        };
        match item {
            None if self.read == 0 => {
                // An empty file, or one of extension records only: no whole game, not data
                // (every reader then says so, and its command exits non-zero).
                self.finished = true;
                Some(Err(ChunkError {
                    path: self.path.clone(),
                    error: ReadError {
                        offset: 0,
                        kind: ReadErrorKind::Open,
                        message: "no whole game: not data".into(),
                    },
                    nothing_read: true,
                }))
            }
            None => {
                self.finished = true;
                self.clean_end = true;
                None
            }
            Some(Ok(game)) => {
                self.read += 1;
                Some(Ok(game))
            }
            Some(Err(e)) => {
                self.finished = true;
                Some(Err(self.wrap(e)))
            }
        }
    }
}

/// The chunk files named: files as given, folders by their `.vf` and `.bin` entries (sorted by
/// name, not recursive). Paths that cannot be listed come back as problems, not errors, and so
/// does a folder with no chunk in it (empty, or a folder named `x.vf`): not data. An
/// entry so named that is not a regular file (a dangling link, a device) is listed too, so
/// that the reader refuses it by name rather than it vanishing from the count.
pub fn chunk_paths(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for path in paths {
        if path.is_dir() {
            match std::fs::read_dir(path) {
                Ok(entries) => {
                    let mut found: Vec<PathBuf> = entries
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| !p.is_dir() && Format::of_path(p).is_some())
                        .collect();
                    found.sort();
                    if found.is_empty() {
                        problems.push(format!(
                            "{}: a folder with no .vf or .bin file: not data",
                            path.display()
                        ));
                    }
                    out.extend(found);
                }
                Err(e) => problems.push(format!("{}: cannot list: {e}", path.display())),
            }
        } else {
            out.push(path.clone());
        }
    }
    (out, problems)
}

/// The game being assembled from 40-byte records.
struct Pending {
    game: ScoredGame,
    index: u32,
    ply: u16,
    /// The last record's position and best move.
    last: Chess,
    last_move: Move,
}

/// Whole games from a stream of 40-byte records (see the module's notes).
pub struct BinGames<R> {
    input: R,
    offset: u64,
    pending: Option<Pending>,
    done: bool,
    splits: u64,
    notes: Vec<String>,
}

/// Notes kept about splits (the count goes on past them).
const MAX_NOTES: usize = 5;

/// The game result a record's result field stands for.
fn result_of(white: f32) -> Option<GameResult> {
    match (white * 2.0).round() as i32 {
        0 => Some(GameResult::BlackWins),
        1 => Some(GameResult::Draw),
        2 => Some(GameResult::WhiteWins),
        _ => None,
    }
}

/// A record's position and best move, checked against each other and the record's flags.
fn checked(r: &Record) -> Result<(Chess, Move), String> {
    let pos = r.position()?;
    let uci: UciMove = r
        .best_move_uci()
        .parse()
        .map_err(|_| format!("unreadable best move {}", r.best_move))?;
    let m = uci
        .to_move(&pos)
        .map_err(|_| format!("illegal best move {}", r.best_move_uci()))?;
    if r.in_check != pos.is_check()
        || r.capture != m.is_capture()
        || r.promotion != m.is_promotion()
    {
        return Err("flags disagree with the position and its best move".into());
    }
    Ok((pos, m))
}

impl<R: Read> BinGames<R> {
    pub fn new(input: R) -> BinGames<R> {
        BinGames {
            input,
            offset: 0,
            pending: None,
            done: false,
            splits: 0,
            notes: Vec::new(),
        }
    }

    fn fail(&mut self, at: u64, kind: ReadErrorKind, message: &str) -> ReadError {
        self.done = true;
        let dropped = match self.pending.take() {
            Some(p) => format!(
                "; the game before it ({} positions) may be incomplete and is dropped",
                p.game.moves.len()
            ),
            None => String::new(),
        };
        ReadError {
            offset: at,
            kind,
            message: format!("{message}{dropped}"),
        }
    }

    /// Whether `record` at (`pos`) goes on the pending game; a reason when it has the same
    /// game index but does not follow.
    fn follows(p: &Pending, r: &Record, pos: &Chess, result: GameResult) -> Result<(), String> {
        let mut after = p.last.clone();
        after.play_unchecked(p.last_move);
        if r.ply != p.ply.wrapping_add(1) {
            Err(format!("ply {} after ply {}", r.ply, p.ply))
        } else if result != p.game.result {
            Err("the result changes".into())
        } else if *pos != after || u32::from(r.halfmoves) != after.halfmoves().min(255) {
            Err("the position is not the one after the previous best move".into())
        } else {
            Ok(())
        }
    }

    /// Reads the next record into the pending game; `Ok(Some(game))` when it started a new game
    /// and the finished one comes out, `Ok(None)` at the end of the input.
    fn step(&mut self) -> Result<Option<Option<ScoredGame>>, ReadError> {
        let at = self.offset;
        let mut bytes = [0u8; RECORD_BYTES];
        let n = read_full(&mut self.input, &mut bytes)
            .map_err(|e| self.fail(at, ReadErrorKind::Io, &e.to_string()))?;
        self.offset += n as u64;
        if n == 0 {
            self.done = true;
            return Ok(Some(self.pending.take().map(|p| p.game)));
        }
        if n < RECORD_BYTES {
            let message = format!("the file ends inside a record ({n} of {RECORD_BYTES} bytes)");
            return Err(self.fail(at, ReadErrorKind::Torn, &message));
        }
        let record = Record::decode(&bytes)
            .and_then(|r| {
                let result = result_of(r.result).ok_or("bad result")?;
                let (pos, m) = checked(&r)?;
                Ok((r, pos, m, result))
            })
            .map_err(|e| self.fail(at, ReadErrorKind::Corrupt, &format!("record: {e}")));
        let (r, pos, m, result) = record?;
        if let Some(p) = self.pending.as_mut() {
            // Ply 0 under the same index is a new game (files of several runs put together).
            if p.index == r.game && r.ply != 0 {
                match Self::follows(p, &r, &pos, result) {
                    Ok(()) => {
                        p.game.moves.push((m, r.score));
                        p.ply = r.ply;
                        p.last = pos;
                        p.last_move = m;
                        return Ok(None);
                    }
                    Err(reason) => {
                        self.splits += 1;
                        if self.notes.len() < MAX_NOTES {
                            self.notes
                                .push(format!("byte {at}: game {} split: {reason}", r.game));
                        }
                    }
                }
            }
        }
        let new = Pending {
            game: ScoredGame {
                start: pos.clone(),
                moves: vec![(m, r.score)],
                result,
            },
            index: r.game,
            ply: r.ply,
            last: pos,
            last_move: m,
        };
        Ok(Some(self.pending.replace(new).map(|p| p.game)))
    }
}

impl<R: Read> Iterator for BinGames<R> {
    type Item = Result<ScoredGame, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            match self.step() {
                Err(e) => return Some(Err(e)),
                Ok(Some(Some(game))) => return Some(Ok(game)),
                Ok(Some(None)) | Ok(None) => {}
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Score;

    /// The 40-byte records of a game from the start through `ucis`, game index `index`.
    fn records(ucis: &[&str], index: u64, result: f32) -> Vec<u8> {
        let mut pos = Chess::default();
        let mut out = Vec::new();
        for (ply, u) in ucis.iter().enumerate() {
            let m = u.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            let mut r = Record::new(&pos, Score(ply as i32), &m, ply as u32, index);
            r.result = result;
            out.extend_from_slice(&r.encode());
            pos.play_unchecked(m);
        }
        out
    }

    #[test]
    fn consecutive_records_make_whole_games() {
        let mut bytes = records(&["e2e4", "e7e5", "g1f3"], 0, 1.0);
        bytes.extend(records(&["d2d4", "d7d5"], 1, 0.5));
        let games: Vec<_> = BinGames::new(bytes.as_slice()).collect();
        assert_eq!(games.len(), 2);
        let g0 = games[0].as_ref().unwrap();
        assert_eq!(g0.moves.len(), 3);
        assert_eq!(g0.result, GameResult::WhiteWins);
        assert_eq!(g0.start, Chess::default());
        // Scores are stored from White's side: ply 1 (Black, +1) is -1 for White.
        assert_eq!(g0.moves.iter().map(|m| m.1).collect::<Vec<_>>(), [0, -1, 2]);
        assert_eq!(games[1].as_ref().unwrap().result, GameResult::Draw);
    }

    #[test]
    fn a_record_that_does_not_follow_splits_the_game() {
        // Same game index, but the second part does not continue the first.
        let mut bytes = records(&["e2e4", "e7e5"], 3, 0.5);
        let mut tail = records(&["d2d4", "d7d5", "c2c4"], 3, 0.5);
        tail.drain(..2 * RECORD_BYTES);
        // Make it ply 2 so only the position disagrees.
        tail[32..34].copy_from_slice(&2u16.to_le_bytes());
        bytes.extend(tail);
        let mut reader = BinGames::new(bytes.as_slice());
        let games: Vec<_> = reader.by_ref().collect();
        assert_eq!(games.len(), 2);
        assert!(games.iter().all(|g| g.is_ok()));
        assert_eq!(reader.splits, 1);
        assert!(
            reader.notes[0].contains("not the one after"),
            "{:?}",
            reader.notes
        );
    }

    #[test]
    fn a_torn_record_drops_the_game_in_progress() {
        let mut bytes = records(&["e2e4", "e7e5"], 0, 0.5);
        bytes.extend(records(&["d2d4", "d7d5"], 1, 0.5));
        bytes.truncate(bytes.len() - 7);
        let games: Vec<_> = BinGames::new(bytes.as_slice()).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].as_ref().unwrap().moves.len(), 2);
        let e = games[1].as_ref().unwrap_err();
        assert_eq!(e.kind, ReadErrorKind::Torn);
        assert_eq!(e.offset, 3 * RECORD_BYTES as u64);
        assert!(e.message.contains("dropped"), "{e}");
    }

    #[test]
    fn random_and_damaged_bytes_never_panic_either_reader() {
        let mut rng = crate::datagen::Rng::for_game(3, 4);
        let mut sample = records(&["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"], 0, 1.0);
        sample.extend(records(&["d2d4", "d7d5", "c2c4"], 1, 0.0));
        let mut vf = Vec::new();
        for game in BinGames::new(sample.as_slice()) {
            game.unwrap().encode(&mut vf);
        }
        for round in 0..3000 {
            let bytes: Vec<u8> = match round % 3 {
                0 => (0..rng.below(400)).map(|_| rng.next_u64() as u8).collect(),
                1 => {
                    let mut b = sample.clone();
                    for _ in 0..1 + rng.below(4) {
                        let i = rng.below(b.len());
                        b[i] ^= 1 << rng.below(8);
                    }
                    b.truncate(rng.below(b.len() + 1));
                    b
                }
                _ => {
                    let mut b = vf.clone();
                    for _ in 0..1 + rng.below(4) {
                        let i = rng.below(b.len());
                        b[i] ^= 1 << rng.below(8);
                    }
                    b.truncate(rng.below(b.len() + 1));
                    b
                }
            };
            // Each reader yields games and at most one error, last.
            for results in [
                BinGames::new(bytes.as_slice())
                    .map(|r| r.is_ok())
                    .collect::<Vec<_>>(),
                crate::datagen::viriformat::GameReader::new(bytes.as_slice())
                    .map(|r| r.is_ok())
                    .collect(),
            ] {
                let errors = results.iter().filter(|ok| !**ok).count();
                assert!(errors <= 1, "round {round}");
                assert!(errors == 0 || !results.last().unwrap(), "round {round}");
            }
        }
    }

    #[test]
    fn an_illegal_best_move_is_corrupt() {
        let mut bytes = records(&["e2e4", "e7e5"], 0, 0.5);
        // e7e5 becomes e7e4 (from 52 to 28).
        let code = 52u16 | 28 << 6;
        bytes[RECORD_BYTES + 34..RECORD_BYTES + 36].copy_from_slice(&code.to_le_bytes());
        let games: Vec<_> = BinGames::new(bytes.as_slice()).collect();
        assert_eq!(games.len(), 1);
        let e = games[0].as_ref().unwrap_err();
        assert_eq!((e.kind.clone(), e.offset), (ReadErrorKind::Corrupt, 40));
    }

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cutoff-chunk-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn a_missing_chunk_is_called_missing_whatever_its_name() {
        for name in ["gone.vf", "gone.txt"] {
            let e = ChunkReader::open(&temp(name)).err().unwrap();
            assert!(e.is_fatal());
            let text = e.to_string();
            assert!(
                text.ends_with(&format!("{name}: no such file or directory")),
                "{text}"
            );
        }
    }

    #[test]
    fn only_a_file_without_a_whole_game_is_fatal_not_a_damaged_tail() {
        let read = |name: &str, bytes: &[u8]| {
            let path = temp(name);
            std::fs::write(&path, bytes).unwrap();
            let errors: Vec<ChunkError> = ChunkReader::open(&path)
                .unwrap()
                .filter_map(Result::err)
                .collect();
            let _ = std::fs::remove_file(&path);
            errors
        };
        let whole = records(&["e2e4", "e7e5"], 0, 0.5);
        let mut damaged = records(&["d2d4", "d7d5"], 1, 0.5);
        damaged.extend([0xff; RECORD_BYTES]);
        // A whole game, then a game cut by a bad record: a damaged tail.
        let tail = read("tail.bin", &[whole, damaged.clone()].concat());
        assert_eq!(tail.len(), 1);
        assert!(!tail[0].is_fatal(), "{}", tail[0]);
        // The first game is cut by the bad record: no whole game came out.
        let first = read("first.bin", &damaged);
        assert_eq!(first.len(), 1);
        assert!(first[0].is_fatal(), "{}", first[0]);
        // An empty chunk holds no whole game either: not data (issue 56).
        let empty = read("empty.bin", b"");
        assert_eq!(empty.len(), 1);
        assert!(empty[0].is_fatal(), "{}", empty[0]);
        assert!(empty[0].to_string().ends_with("no whole game: not data"));
    }
}
