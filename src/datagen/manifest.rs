//! `MANIFEST`: what made each data file, one tab-separated line per chunk per checkpoint,
//! appended in the chunks' folder. The last line of a file name describes it; earlier lines
//! are its checkpoints (a killed run keeps the line of its last checkpoint).
//!
//! Fields: file name, build signature (`Bench: N`), seed, game indices `FIRST..NEXT`, games in
//! the file, positions, SHA-256 of the file at that moment, `running` or `done`, and the
//! command line. `NEXT` is where a later `--append` goes on: every game index below it is in
//! the file or was given up (a run reserves indices ahead at each checkpoint, so that appending
//! after a kill can never repeat a game that the file already holds).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::DEFAULT_NODES;

/// The manifest's file name, in the folder of the chunks it describes.
pub const MANIFEST_NAME: &str = "MANIFEST";

const HEADER: &str =
    "# file\tbuild\tseed\tgame indices\tgames\tpositions\tsha256\tstate\tcommand\n";

/// One manifest line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The chunk's file name (no folder).
    pub file: String,
    /// `Bench: N` of the engine that played the games.
    pub build: String,
    pub seed: u64,
    pub first_game: u64,
    /// Game indices at and above this were never used for the file.
    pub next_game: u64,
    pub games: u64,
    pub positions: u64,
    pub sha256: String,
    /// `running` at a checkpoint, `done` at the end of a run.
    pub state: String,
    pub command: String,
}

impl Entry {
    pub fn to_line(&self) -> String {
        let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
        format!(
            "{}\t{}\t{}\t{}..{}\t{}\t{}\t{}\t{}\t{}\n",
            clean(&self.file),
            clean(&self.build),
            self.seed,
            self.first_game,
            self.next_game,
            self.games,
            self.positions,
            self.sha256,
            clean(&self.state),
            clean(&self.command)
        )
    }

    /// Reads a line back (not a comment), or says which field is not what a run writes.
    pub fn parse(line: &str) -> Result<Entry, String> {
        let f: Vec<&str> = line.trim_end_matches(['\n', '\r']).split('\t').collect();
        if f.len() != FIELDS.len() {
            return Err(format!(
                "{} tab-separated fields, not the {} of a manifest line",
                f.len(),
                FIELDS.len()
            ));
        }
        for (i, text) in f.iter().enumerate() {
            check_field(i, text, false)?;
        }
        let number = |text: &str| text.parse::<u64>().expect("checked by check_field");
        let (first, next) = f[3].split_once("..").expect("checked by check_field");
        Ok(Entry {
            file: f[0].to_string(),
            build: f[1].to_string(),
            seed: number(f[2]),
            first_game: number(first),
            next_game: number(next),
            games: number(f[4]),
            positions: number(f[5]),
            sha256: f[6].to_string(),
            state: f[7].to_string(),
            command: f[8].to_string(),
        })
    }
}

/// The fields of a line, by the names the reasons for refusing one use.
const FIELDS: [&str; 9] = [
    "file name",
    "build",
    "seed",
    "game indices",
    "games",
    "positions",
    "sha256",
    "state",
    "command",
];

/// The states a run or a conversion writes.
const STATES: [&str; 4] = ["running", "done", "failed", "converted"];

/// Whether `text` is a number as a run writes one (digits, within `u64`); `partial`: or the
/// start of one, which may be empty.
fn is_number(text: &str, partial: bool) -> bool {
    (partial || !text.is_empty())
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text.len() < 20 || text.parse::<u64>().is_ok())
}

/// Checks field `i` of a line: whole, or (`partial`) as the start of one cut by a torn write.
fn check_field(i: usize, text: &str, partial: bool) -> Result<(), String> {
    let ok = match i {
        0 | 1 => partial || !text.is_empty(),
        2 | 4 | 5 => is_number(text, partial),
        3 => match text.split_once("..") {
            Some((first, next)) => {
                is_number(first, false)
                    && is_number(next, partial)
                    && (partial || first.parse::<u64>().ok() <= next.parse::<u64>().ok())
            }
            None => partial && is_number(text.strip_suffix('.').unwrap_or(text), true),
        },
        6 => {
            (text.len() == 64 || partial && text.len() < 64)
                && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        }
        7 => STATES
            .iter()
            .any(|s| *s == text || partial && s.starts_with(text)),
        _ => true,
    };
    if ok {
        return Ok(());
    }
    let wanted = match i {
        0 | 1 => "a name",
        2 | 4 | 5 => "a number",
        3 => "FIRST..NEXT with FIRST at most NEXT",
        6 => "64 hexadecimal digits",
        _ => "running, done, failed or converted",
    };
    Err(format!(
        "its {} {} is not {wanted}",
        FIELDS[i],
        quoted(text)
    ))
}

/// `text` quoted for an error, escaped, and cut after 40 characters (a line of a binary file
/// put in a manifest's place can be megabytes).
fn quoted(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{:?}...", &text[..end]),
        None => format!("{text:?}"),
    }
}

/// Whether `line`, the last of a manifest and without its newline, is the start of a line as
/// a write cut short leaves it (the fields so far as a run writes them); `Err` says why not.
fn check_torn(line: &str) -> Result<(), String> {
    let f: Vec<&str> = line.trim_end_matches('\r').split('\t').collect();
    if f.len() > FIELDS.len() {
        return Err(format!(
            "{} tab-separated fields, more than the {} of a manifest line",
            f.len(),
            FIELDS.len()
        ));
    }
    let last = f.len() - 1;
    f.iter()
        .enumerate()
        .try_for_each(|(i, text)| check_field(i, text, i == last))
}

/// The evaluation whose searches played a series' games: what the net's data goal counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Searched {
    Net,
    Classical,
    /// Not known: the chunk's manifest cannot be read, so neither can what its line says.
    Unknown,
}

impl Searched {
    pub fn label(self) -> &'static str {
        match self {
            Searched::Net => "net",
            Searched::Classical => "classical",
            Searched::Unknown => "evaluation unknown",
        }
    }

    /// What searched the games of the build `build` whose datagen command was `command`:
    /// the command's `--eval` where it names one (datagen writes it since 27 Nov 2026);
    /// before that, the builds whose default was a net are listed in
    /// [`NET_BUILDS_BEFORE_EVAL_WAS_RECORDED`] and every other build had the classical
    /// evaluation alone.
    pub fn of(build: &str, command: &str) -> Searched {
        match evaluation_named(command) {
            Some("classical") => Searched::Classical,
            Some(_) => Searched::Net,
            None if NET_BUILDS_BEFORE_EVAL_WAS_RECORDED.contains(&build) => Searched::Net,
            None => Searched::Classical,
        }
    }
}

/// The evaluation a manifest's command names with `--eval X` or `--eval=X`, if any.
pub fn evaluation_named(command: &str) -> Option<&str> {
    option_named(command, "--eval")
}

/// The hard node limit of a manifest line that names none, in multiples of its soft one: every
/// run before the evening of 2 Dec 2026 (chunk s9652) searched to 8 times `--nodes`, and since
/// then datagen names the hard limit on every line, typed or not.
pub const HARD_NODES_FACTOR_UNNAMED: u64 = 8;

/// The soft and hard node limits a manifest's command ran with: `--nodes` (default
/// [`DEFAULT_NODES`]) and `--hard-nodes` (default [`HARD_NODES_FACTOR_UNNAMED`] times the soft
/// one); `None` where either is named but not a number.
pub fn node_limits_named(command: &str) -> Option<(u64, u64)> {
    let number = |name| option_named(command, name).map(|v| v.parse::<u64>().ok());
    let soft = number("--nodes").unwrap_or(Some(DEFAULT_NODES))?;
    let unnamed = soft.saturating_mul(HARD_NODES_FACTOR_UNNAMED);
    let hard = number("--hard-nodes").unwrap_or(Some(unnamed))?;
    Some((soft, hard))
}

/// The value a manifest's command gives the option `name` (`name X` or `name=X`), if any.
pub fn option_named<'a>(command: &'a str, name: &str) -> Option<&'a str> {
    let words: Vec<&str> = command.split_whitespace().collect();
    words.iter().enumerate().find_map(|(i, w)| {
        if *w == name {
            words.get(i + 1).copied()
        } else {
            w.strip_prefix(name)?.strip_prefix('=')
        }
    })
}

/// The builds whose datagen searched with a net by default before the manifest's command
/// named the evaluation: the first net's (`cutoff-256-m15-l10`) and the second's
/// (`cutoff-256-m15-l10-d12`). A chunk of either made with `--eval classical` says so.
pub const NET_BUILDS_BEFORE_EVAL_WAS_RECORDED: [&str; 2] = ["Bench: 1992182", "Bench: 1950130"];

/// The build a chunk without a manifest line names in its file name (`selfplay-N-sS.*`, as
/// every chunk of `data/` and `../shared/data` is named): `Bench: N`.
pub fn build_from_file_name(chunk: &Path) -> Option<String> {
    let name = chunk_name(chunk)?;
    let rest = name.strip_prefix("selfplay-")?;
    let digits = rest.split('-').next()?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| format!("Bench: {digits}"))
}

/// The file a chunk's manifest line describes: the target of a link (a folder of links to
/// train on has no manifest; the run that wrote the bytes wrote its lines beside them), else
/// the path itself. Reading and writing both go through it, so a run given a link writes its
/// line where `--stats` and `--append` look for it. A link that leads nowhere stays itself.
pub fn chunk_file(chunk: &Path) -> PathBuf {
    let is_link = std::fs::symlink_metadata(chunk).is_ok_and(|m| m.file_type().is_symlink());
    is_link
        .then(|| std::fs::canonicalize(chunk).ok())
        .flatten()
        .unwrap_or_else(|| chunk.to_path_buf())
}

/// The name `chunk`'s manifest line is filed under: the name of its [`chunk_file`].
pub fn chunk_name(chunk: &Path) -> Option<String> {
    chunk_file(chunk)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
}

/// The manifest beside `chunk` (beside its target, if it is a link: [`chunk_file`]).
pub fn manifest_path(chunk: &Path) -> PathBuf {
    let file = chunk_file(chunk);
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    dir.join(MANIFEST_NAME)
}

/// Checks that the manifest beside `chunk` can be appended to (nothing there yet, or a regular
/// file: a folder, a pipe or a device is refused, naming the manifest) and read back (lines as
/// [`read`] takes them: a line added after garbage would describe its chunk to no reader),
/// before a run or a conversion starts writing the chunk.
pub fn check_writable(chunk: &Path) -> Result<(), String> {
    let path = manifest_path(chunk);
    crate::files::check_output(&path)?;
    read(&path).map(drop)
}

/// Appends `entry` to the manifest beside `chunk` in one write (a header first when the
/// manifest is new), so a killed run never leaves half a line. The manifest is opened by the
/// rule for appended files ([`crate::files::open_append`]): a pipe put in its place is refused,
/// never waited on. The error names the manifest.
pub fn append(chunk: &Path, entry: &Entry) -> Result<(), String> {
    let path = manifest_path(chunk);
    let (mut file, _) = crate::files::open_append(&path, true, false)?;
    let failed = |e: std::io::Error| format!("{}: {}", path.display(), crate::files::reason(&e));
    let mut text = String::new();
    if file.metadata().map_err(failed)?.len() == 0 {
        text.push_str(HEADER);
    }
    text.push_str(&entry.to_line());
    file.write_all(text.as_bytes()).map_err(failed)
}

/// The largest manifest read: a line is some 300 bytes a checkpoint of 256 games, so this is
/// millions of checkpoints; the bound keeps a manifest replaced by an endless file from
/// growing memory.
const MAX_MANIFEST_BYTES: u64 = 64 << 20;

/// Every line of the manifest at `path`, oldest first: none when there is no manifest (nothing
/// at the path), else the lines of a regular file of text as [`append`] writes it, read through
/// the one rule of [`crate::files`] (a pipe, a folder or a device is refused unread, never
/// waited on nor read forever). A manifest that is anything else is refused, naming it and
/// the line: its header first, then lines of the nine fields, comments, and at the end at most
/// a line cut short by a torn write (ignored). A wrong line is never skipped, since the
/// chunks it describes would then be read as chunks without a line (another build's, another
/// evaluation's, game indices from zero).
pub fn read(path: &Path) -> Result<Vec<Entry>, String> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        _ => {}
    }
    let bytes = crate::files::read_bounded(path, MAX_MANIFEST_BYTES, "a manifest")?;
    let at_line = |n: usize, why: String| {
        format!(
            "{}: line {n}: {why}: not a manifest line as datagen writes them",
            path.display()
        )
    };
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let n = 1 + bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        at_line(n, "not text (UTF-8)".into())
    })?;
    let mut entries = Vec::new();
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let n = i + 1;
        let torn = !line.ends_with('\n');
        let header = HEADER.trim_end_matches('\n');
        let body = line.trim_end_matches(['\n', '\r']);
        let read = if n == 1 {
            let is_header = if torn {
                header.starts_with(body)
            } else {
                body == header
            };
            is_header
                .then_some(())
                .ok_or_else(|| format!("not the header {}", quoted(header)))
        } else if body.starts_with('#') {
            Ok(())
        } else if torn {
            check_torn(line)
        } else {
            Entry::parse(line).map(|e| entries.push(e))
        };
        read.map_err(|why| at_line(n, why))?;
    }
    Ok(entries)
}

/// The lines the manifest beside `chunk` has for its name, oldest first ([`read`]; a link is
/// described by the manifest beside its target, under the target's name: [`chunk_file`]).
pub fn entries(chunk: &Path) -> Result<Vec<Entry>, String> {
    let Some(name) = chunk_name(chunk) else {
        return Ok(Vec::new());
    };
    let mut all = read(&manifest_path(chunk))?;
    all.retain(|e| e.file == name);
    Ok(all)
}

/// The last line for `chunk`'s name in its manifest, if it has one: what describes the chunk.
/// An error for a manifest that cannot be read as one ([`read`]).
pub fn last_entry(chunk: &Path) -> Result<Option<Entry>, String> {
    Ok(entries(chunk)?.pop())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::OpenOptions;

    fn entry(file: &str, next: u64) -> Entry {
        Entry {
            file: file.into(),
            build: "Bench: 2266636".into(),
            seed: 7,
            first_game: 0,
            next_game: next,
            games: 3,
            positions: 300,
            sha256: "ab".repeat(32),
            state: "done".into(),
            command: "cutoff datagen --out a.vf\t--seed 7".into(),
        }
    }

    /// A line's node limits come from its command: `--nodes` or the default, `--hard-nodes` or
    /// the rule of the lines before it was written (8 times the soft limit); a limit named but
    /// not a number says nothing.
    #[test]
    fn a_lines_node_limits_are_its_commands_with_the_old_hard_rule_where_unnamed() {
        let limits = node_limits_named;
        assert_eq!(
            limits("cutoff datagen --nodes 300 --hard-nodes 360"),
            Some((300, 360))
        );
        assert_eq!(limits("cutoff datagen --nodes=300"), Some((300, 2400)));
        assert_eq!(
            limits("cutoff datagen --check-nodes 150 --eval net"),
            Some((5000, 40_000))
        );
        assert_eq!(limits("cutoff datagen --nodes lots"), None);
    }

    #[test]
    fn the_evaluation_that_searched_comes_from_the_command_or_the_net_builds() {
        let net = "Bench: 1950130";
        let old = "Bench: 2266636";
        assert_eq!(Searched::of(net, "cutoff datagen --seed 1"), Searched::Net);
        assert_eq!(
            Searched::of(old, "cutoff datagen --seed 1"),
            Searched::Classical
        );
        let classical = "cutoff datagen --eval classical --seed 1";
        assert_eq!(Searched::of(net, classical), Searched::Classical);
        assert_eq!(
            Searched::of("Bench: 5", "cutoff datagen --eval net"),
            Searched::Net
        );
        let equals = "cutoff datagen --eval=classical";
        assert_eq!(Searched::of(net, equals), Searched::Classical);
        // A bare `--eval` at the end names nothing.
        assert_eq!(
            Searched::of(old, "cutoff datagen --eval"),
            Searched::Classical
        );
    }

    #[test]
    fn a_chunk_without_a_manifest_line_names_its_build_in_its_file_name() {
        let build = |name: &str| build_from_file_name(Path::new(name));
        assert_eq!(
            build("../shared/data/selfplay-2266636-s3001.bin").as_deref(),
            Some("Bench: 2266636")
        );
        assert_eq!(build("games.vf"), None);
        assert_eq!(build("selfplay--s1.vf"), None);
        assert_eq!(build("selfplay-12a-s1.vf"), None);
    }

    /// A folder of links to chunks (what `cutoff train --data` is given to leave a chunk out)
    /// has no manifest: a link's line is read beside its target, so `datagen --stats` counts a
    /// net-searched chunk as net-searched through its link, and written there by a run given
    /// the link.
    #[cfg(unix)]
    #[test]
    fn a_link_to_a_chunk_reads_the_manifest_beside_its_target() {
        let dir = std::env::temp_dir().join(format!("cutoff-manifest-link-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (data, links) = (dir.join("data"), dir.join("links"));
        std::fs::create_dir_all(&data).unwrap();
        std::fs::create_dir_all(&links).unwrap();
        let chunk = data.join("a.vf");
        std::fs::write(&chunk, b"").unwrap();
        let mut line = entry("a.vf", 256);
        line.command = "cutoff datagen --out a.vf --eval net".into();
        append(&chunk, &line).unwrap();
        let link = links.join("a.vf");
        std::os::unix::fs::symlink(&chunk, &link).unwrap();
        let read = last_entry(&link)
            .unwrap()
            .expect("the link's line, read beside its target");
        assert_eq!(read, line);
        assert_eq!(Searched::of(&read.build, &read.command), Searched::Net);
        // A run given the link writes where it reads: beside the target, under its name.
        assert_eq!(manifest_path(&link), data.join(MANIFEST_NAME));
        check_writable(&link).unwrap();
        let later = Entry {
            next_game: 512,
            ..line.clone()
        };
        append(&link, &later).unwrap();
        assert!(!links.join(MANIFEST_NAME).exists());
        assert_eq!(last_entry(&chunk), Ok(Some(later.clone())));
        // A link under another name is described by its target's line.
        let renamed = links.join("renamed.vf");
        std::os::unix::fs::symlink(&chunk, &renamed).unwrap();
        assert_eq!(last_entry(&renamed), Ok(Some(later)));
        // A plain file with no line of its own stays without one.
        std::fs::write(links.join("b.vf"), b"").unwrap();
        assert_eq!(last_entry(&links.join("b.vf")), Ok(None));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn lines_read_back_and_the_last_line_of_a_file_wins() {
        let dir = std::env::temp_dir().join(format!("cutoff-manifest-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let chunk = dir.join("a.vf");
        append(&chunk, &entry("a.vf", 256)).unwrap();
        append(&dir.join("b.vf"), &entry("b.vf", 9)).unwrap();
        append(&chunk, &entry("a.vf", 512)).unwrap();
        // A torn last line (a kill in the middle of a write) is not read.
        let mut f = OpenOptions::new()
            .append(true)
            .open(dir.join(MANIFEST_NAME))
            .unwrap();
        f.write_all(b"a.vf\tBench: 1\t7\t0..999").unwrap();
        let last = last_entry(&chunk).unwrap().unwrap();
        assert_eq!(last.next_game, 512);
        assert_eq!(last.command, "cutoff datagen --out a.vf --seed 7");
        let text = std::fs::read_to_string(dir.join(MANIFEST_NAME)).unwrap();
        assert!(text.starts_with("# file\t"));
        assert_eq!(text.matches("# file").count(), 1);
        assert_eq!(last_entry(&dir.join("c.vf")), Ok(None));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Every line of a manifest is one a run wrote, or the manifest is refused naming the line:
    /// a line skipped would leave its chunk read as one without a line.
    #[test]
    fn a_manifest_line_not_as_a_run_writes_it_is_refused_naming_the_line() {
        let dir = crate::files::fresh_test_dir("manifest", "strict");
        let path = dir.join(MANIFEST_NAME);
        let good = entry("a.vf", 256).to_line();
        let refused = |text: &str| {
            std::fs::write(&path, text).unwrap();
            read(&path).unwrap_err()
        };
        let cases = [
            (
                format!("{HEADER}{good}x\ty\n"),
                "line 3: 2 tab-separated fields",
            ),
            (good.clone(), "line 1: not the header"),
            (good.replace("\t7\t", "\tseven\t"), "line 1: not the header"),
            (
                format!("{HEADER}{}", good.replace("\t7\t", "\tseven\t")),
                "line 2: its seed \"seven\" is not a number",
            ),
            (
                format!("{HEADER}{}", good.replace("0..256", "9..3")),
                "FIRST..NEXT with FIRST at most NEXT",
            ),
            (
                format!("{HEADER}{}", good.replace("\tdone\t", "\tfinished\t")),
                "its state \"finished\"",
            ),
            (
                format!("{HEADER}{}", good.replace(&"ab".repeat(32), "ab")),
                "its sha256 \"ab\" is not 64 hexadecimal digits",
            ),
            (
                format!("{HEADER}{good}garbage\tat\tthe end"),
                "line 3: its seed",
            ),
        ];
        for (text, why) in cases {
            let e = refused(&text);
            assert!(
                e.contains(why) && e.contains(&*path.to_string_lossy()),
                "{why}: {e}"
            );
        }
        // What a run writes reads back, with comments and a torn last line (a write cut
        // short) ignored; an empty manifest and none at all have no line.
        let torn = &good[..good.len() / 2];
        std::fs::write(&path, format!("{HEADER}{good}# a note\n{good}{torn}")).unwrap();
        assert_eq!(read(&path).unwrap().len(), 2);
        std::fs::write(&path, "").unwrap();
        assert_eq!(read(&path), Ok(Vec::new()));
        std::fs::remove_file(&path).unwrap();
        assert_eq!(read(&path), Ok(Vec::new()));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
