//! Writing a chunk: each finished game in one write of its whole bytes, straight to the file
//! (no buffer left behind), so a run killed at any moment leaves whole games and at most a
//! torn last one, which readers drop and `--append` cuts. The file's SHA-256 is kept running
//! for the manifest.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::chunk::Format;
use super::manifest::{self, Entry};
use super::sha256::Sha256;
use super::viriformat::{GameReader, ReadErrorKind, ScoredGame};
use super::{scan, GameRecord};

/// What an existing chunk holds when a run goes on with it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resume {
    pub games: u64,
    pub positions: u64,
    /// The first game index of the chunk (from its manifest line).
    pub first_game: u64,
    /// Where game numbering goes on.
    pub next_game: u64,
    /// Bytes of a torn last game (or record) cut from the end.
    pub cut_bytes: u64,
}

/// An open chunk being written.
pub struct ChunkWriter {
    path: PathBuf,
    format: Format,
    file: File,
    sha: Sha256,
    pub games: u64,
    pub positions: u64,
    /// Whether this writer created the file (a failure removes it then).
    created: bool,
    /// The file's length when opened, its torn tail cut (a failure cuts it back to it).
    start_len: u64,
}

/// The whole games at the start of a viriformat file's bytes: (games, positions, bytes they
/// take); an error for a corrupt game (a torn tail only ends the count).
fn whole_viri_games(bytes: &[u8]) -> Result<(u64, u64, u64), String> {
    let mut reader = GameReader::new(bytes);
    let (mut games, mut positions, mut end) = (0, 0, 0);
    while let Some(game) = reader.next() {
        match game {
            Ok(g) => {
                games += 1;
                positions += g.moves.len() as u64;
            }
            Err(e) if e.kind == ReadErrorKind::Torn => return Ok((games, positions, end)),
            Err(e) => return Err(e.to_string()),
        }
        end = reader.offset();
    }
    Ok((games, positions, end))
}

/// What the existing bytes of a chunk hold for a run going on with them, how many of them are
/// whole games (or records) to keep, and the SHA-256 of those. `lines` are the chunk's
/// manifest lines, oldest first.
fn resume_of(
    path: &Path,
    format: Format,
    bytes: &[u8],
    lines: &[Entry],
) -> Result<(Resume, usize, Sha256), String> {
    let shown = path.display();
    let mut resume = Resume::default();
    let whole = match format {
        Format::Viri => {
            let (games, positions, end) =
                whole_viri_games(bytes).map_err(|e| format!("{shown}: {e}; not adding to it"))?;
            resume.games = games;
            resume.positions = positions;
            if games > 0 && lines.is_empty() {
                return Err(format!(
                    "{shown} has no line in {}: where its game indices end is unknown (use a new file)",
                    manifest::manifest_path(path).display()
                ));
            }
            end as usize
        }
        Format::Bin => {
            let whole = bytes.len() - bytes.len() % super::RECORD_BYTES;
            let existing = scan(&bytes[..whole]);
            resume.positions = existing.positions;
            resume.next_game = existing.next_game;
            whole
        }
    };
    let mut sha = Sha256::new();
    sha.update(&bytes[..whole]);
    if let Some(e) = numbering_line(lines, whole == 0, &sha.hex()) {
        resume.next_game = resume.next_game.max(e.next_game);
        resume.first_game = e.first_game;
    } else {
        resume.first_game = resume.next_game;
    }
    resume.cut_bytes = (bytes.len() - whole) as u64;
    Ok((resume, whole, sha))
}

/// The manifest line whose `NEXT` a run going on with a chunk takes, so that runs that failed
/// and added nothing to it (a kill or an error before their first game, a stop with no game
/// finished) change nothing: a later run gives the same games as it would without them.
///
/// A chunk that holds nothing (`empty`) takes none: its numbering starts where a new file's
/// does, whatever lines its name has. Otherwise, going back from the last line over the lines
/// that describe the file as it is now (`sha256`), the earliest of them that ended a run
/// (`done`, `failed`, `converted`: its `NEXT` is exact); the runs after it added no byte, so
/// no game of theirs is in the file. With no such line, the last line: every index below its
/// `NEXT` is in the file or was given up, and a game written after that checkpoint (the file
/// no longer what it describes) cannot be told from the games before it.
fn numbering_line<'a>(lines: &'a [Entry], empty: bool, sha256: &str) -> Option<&'a Entry> {
    if empty {
        return None;
    }
    let unchanged = lines.iter().rev().take_while(|e| e.sha256 == sha256);
    unchanged
        .filter(|e| e.state != "running")
        .last()
        .or(lines.last())
}

impl ChunkWriter {
    /// Opens `path` for a run: a new file, or with `append` an existing one, its torn tail cut
    /// off and its game numbering taken from its manifest line (viriformat keeps no game
    /// index) or, for 40-byte files, from its records.
    pub fn open(
        path: &Path,
        format: Format,
        append: bool,
    ) -> Result<(ChunkWriter, Resume), String> {
        let shown = path.display();
        // Both files checked before either is touched: a folder, a pipe or a device in the
        // chunk's or the manifest's place is refused at once, naming it, and nothing is
        // created (crate::files, the rule for every file written).
        crate::files::check_output(path)?;
        manifest::check_writable(path)?;
        let exists = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
        if exists && !append {
            return Err(format!("{shown} exists; pass --append to add to it"));
        }
        // The chunk's line read before the chunk is created: a manifest that cannot be read
        // leaves nothing behind.
        let lines = manifest::entries(path)?;
        let (mut file, created) = crate::files::open_append(path, true, true)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read {shown}: {e}"))?;
        let (resume, whole, sha) = resume_of(path, format, &bytes, &lines)?;
        if whole != bytes.len() {
            file.set_len(whole as u64)
                .map_err(|e| format!("cannot truncate {shown}: {e}"))?;
        }
        file.seek(SeekFrom::End(0))
            .map_err(|e| format!("cannot seek {shown}: {e}"))?;
        let writer = ChunkWriter {
            path: path.to_path_buf(),
            format,
            file,
            sha,
            games: resume.games,
            positions: resume.positions,
            created,
            start_len: whole as u64,
        };
        Ok((writer, resume))
    }

    /// Undoes what this writer did to its chunk after a failure, so that nothing is left
    /// behind: a chunk it created is removed, an existing one cut back to the length it had
    /// (its torn tail already cut). Its manifest keeps the lines written, which describe no
    /// game beyond that length.
    pub fn abandon(self) -> Result<(), String> {
        let shown = self.path.display();
        if self.created {
            drop(self.file);
            std::fs::remove_file(&self.path)
                .map_err(|e| format!("cannot remove {shown}: {}", crate::files::reason(&e)))
        } else {
            self.file
                .set_len(self.start_len)
                .map_err(|e| format!("cannot truncate {shown}: {}", crate::files::reason(&e)))
        }
    }

    /// Whether the chunk holds no game: it was created by this writer and nothing went in.
    pub fn created_empty(&self) -> bool {
        self.created && self.games == 0
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends a finished game in one write.
    pub fn write_game(&mut self, record: &GameRecord) -> std::io::Result<()> {
        match self.format {
            Format::Viri => self.write_scored(&record.game),
            Format::Bin => {
                let bytes: Vec<u8> = record.records.iter().flat_map(|r| r.encode()).collect();
                self.write_bytes(&bytes, record.records.len())
            }
        }
    }

    /// Appends a game to a viriformat chunk in one write (the converter's way in).
    pub fn write_scored(&mut self, game: &ScoredGame) -> std::io::Result<()> {
        if self.format != Format::Viri {
            return Err(std::io::Error::other(
                "a 40-byte chunk takes records, not games",
            ));
        }
        let mut bytes = Vec::with_capacity(game.encoded_len());
        game.encode(&mut bytes);
        self.write_bytes(&bytes, game.moves.len())
    }

    fn write_bytes(&mut self, bytes: &[u8], positions: usize) -> std::io::Result<()> {
        self.file.write_all(bytes)?;
        self.sha.update(bytes);
        self.games += 1;
        self.positions += positions as u64;
        Ok(())
    }

    /// The file's SHA-256 as written so far.
    pub fn sha256_hex(&self) -> String {
        self.sha.hex()
    }

    /// Forces the written games to disk (at checkpoints, so a manifest line never describes
    /// bytes a crash could lose).
    pub fn sync(&self) -> std::io::Result<()> {
        self.file.sync_data()
    }

    /// A manifest line for the chunk as it is now.
    pub fn entry(&self, run: &RunInfo, first_game: u64, next_game: u64, state: &str) -> Entry {
        Entry {
            file: manifest::chunk_name(&self.path).unwrap_or_default(),
            build: run.build.clone(),
            seed: run.seed,
            first_game,
            next_game,
            games: self.games,
            positions: self.positions,
            sha256: self.sha256_hex(),
            state: state.to_string(),
            command: run.command.clone(),
        }
    }

    /// Syncs the file and appends its manifest line; the error names the file that failed.
    pub fn checkpoint(
        &self,
        run: &RunInfo,
        first_game: u64,
        next_game: u64,
        state: &str,
    ) -> Result<(), String> {
        self.sync().map_err(|e| {
            format!(
                "cannot write {}: {}",
                self.path.display(),
                crate::files::reason(&e)
            )
        })?;
        manifest::append(&self.path, &self.entry(run, first_game, next_game, state))
            .map_err(|e| format!("cannot write the manifest: {e}"))
    }
}

/// What every manifest line of a run repeats.
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// `Bench: N` of this build.
    pub build: String,
    pub seed: u64,
    pub command: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::{play_game, GameConfig};
    use crate::search::Searcher;
    use std::fs::OpenOptions;

    fn temp(name: &str) -> PathBuf {
        crate::files::fresh_test_dir("output", name)
    }

    #[test]
    fn abandoning_removes_a_created_chunk_and_cuts_an_appended_one_back() {
        let dir = temp("abandon");
        let path = dir.join("c.vf");
        let config = GameConfig {
            nodes: 100,
            ..GameConfig::default()
        };
        let mut searcher = Searcher::new(1);
        let game = play_game(&mut searcher, &[], &config, 2, 0).unwrap();
        let (mut w, _) = ChunkWriter::open(&path, Format::Viri, false).unwrap();
        w.write_game(&game).unwrap();
        w.abandon().unwrap();
        assert!(!path.exists(), "a created chunk stays after a failure");
        let (mut w, _) = ChunkWriter::open(&path, Format::Viri, false).unwrap();
        w.write_game(&game).unwrap();
        let run = RunInfo {
            build: "Bench: 1".into(),
            seed: 2,
            command: "test".into(),
        };
        w.checkpoint(&run, 0, 1, "done").unwrap();
        drop(w);
        let before = std::fs::read(&path).unwrap();
        let (mut w, _) = ChunkWriter::open(&path, Format::Viri, true).unwrap();
        w.write_game(&game).unwrap();
        w.abandon().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), before, "not cut back");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn append_cuts_a_torn_game_and_goes_on_after_the_reserved_indices() {
        let dir = temp("append");
        let path = dir.join("c.vf");
        let run = RunInfo {
            build: "Bench: 1".into(),
            seed: 2,
            command: "test".into(),
        };
        let config = GameConfig {
            nodes: 100,
            ..GameConfig::default()
        };
        let mut searcher = Searcher::new(1);
        let (mut w, resume) = ChunkWriter::open(&path, Format::Viri, false).unwrap();
        assert_eq!(resume, Resume::default());
        w.checkpoint(&run, 0, 256, "running").unwrap();
        let mut positions = 0;
        for i in 0..2 {
            let g = play_game(&mut searcher, &[], &config, 2, i).unwrap();
            positions += g.records.len() as u64;
            w.write_game(&g).unwrap();
        }
        let sha = w.sha256_hex();
        drop(w);
        assert_eq!(
            sha,
            super::super::sha256::sha256_hex(&std::fs::read(&path).unwrap())
        );
        // A torn third game.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&[1, 2, 3, 4, 5, 6, 7, 8, 9]).unwrap();
        drop(f);
        assert!(
            ChunkWriter::open(&path, Format::Viri, false).is_err(),
            "exists"
        );
        let (w, resume) = ChunkWriter::open(&path, Format::Viri, true).unwrap();
        assert_eq!(resume.games, 2);
        assert_eq!(resume.positions, positions);
        assert_eq!(resume.next_game, 256, "after the reserved indices");
        assert_eq!(resume.cut_bytes, 9);
        assert_eq!(w.sha256_hex(), sha);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `--append` through a link (a folder of links, a chunk renamed by its link) is refused,
    /// naming the link: no output is written through one (crate::files). It resumed from the
    /// target's line and wrote its bytes into the target; now the target and its manifest line
    /// are as they were, and the target itself is appended to as ever.
    #[cfg(unix)]
    #[test]
    fn appending_through_a_link_is_refused_naming_it_and_the_target_is_kept() {
        let dir = temp("link");
        let (data, links) = (dir.join("data"), dir.join("links"));
        std::fs::create_dir_all(&data).unwrap();
        std::fs::create_dir_all(&links).unwrap();
        let path = data.join("c.vf");
        let run = RunInfo {
            build: "Bench: 1".into(),
            seed: 2,
            command: "test".into(),
        };
        let config = GameConfig {
            nodes: 100,
            ..GameConfig::default()
        };
        let game = play_game(&mut Searcher::new(1), &[], &config, 2, 0).unwrap();
        let (mut w, _) = ChunkWriter::open(&path, Format::Viri, false).unwrap();
        w.write_game(&game).unwrap();
        w.checkpoint(&run, 0, 256, "done").unwrap();
        drop(w);
        let bytes = std::fs::read(&path).unwrap();
        let link = links.join("other.vf");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let e = ChunkWriter::open(&link, Format::Viri, true)
            .map(|_| ())
            .unwrap_err();
        assert!(e.contains("other.vf: a symbolic link (to "), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        assert!(!links.join(manifest::MANIFEST_NAME).exists());
        let last = manifest::last_entry(&path).unwrap().unwrap();
        assert_eq!((last.file.as_str(), last.next_game), ("c.vf", 256));
        let (w, resume) = ChunkWriter::open(&path, Format::Viri, true).unwrap();
        assert_eq!(resume.next_game, 256);
        drop(w);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Where numbering goes on: past every index a game in the file may have, and nowhere
    /// past what runs that added nothing took (the lines after the file's last change).
    #[test]
    fn numbering_goes_on_from_the_first_run_end_the_file_still_matches() {
        let line = |sha: &str, next: u64, state: &str| Entry {
            file: "c.vf".into(),
            build: "Bench: 1".into(),
            seed: 1,
            first_game: 0,
            next_game: next,
            games: 1,
            positions: 1,
            sha256: sha.repeat(64),
            state: state.into(),
            command: "test".into(),
        };
        let next = |lines: &[Entry], empty: bool, now: &str| {
            numbering_line(lines, empty, &now.repeat(64)).map(|e| e.next_game)
        };
        let done = [line("a", 256, "running"), line("b", 10, "done")];
        // Later runs that added nothing: a kill at the start, a stop with no game finished.
        let failed = [
            line("b", 266, "running"),
            line("b", 12, "done"),
            line("b", 268, "running"),
        ];
        let history: Vec<Entry> = done.iter().chain(&failed).cloned().collect();
        assert_eq!(next(&done, false, "b"), Some(10));
        assert_eq!(next(&history, false, "b"), Some(10));
        // A game written after the last checkpoint: the last line's reservation holds.
        assert_eq!(next(&history, false, "c"), Some(268));
        // A killed run whose checkpoint still matches: nothing ended a run, the last line.
        assert_eq!(next(&done[..1], false, "a"), Some(256));
        // A chunk holding nothing starts as a new one, whatever its name's lines.
        assert_eq!(next(&history, true, "e"), None);
    }
}
