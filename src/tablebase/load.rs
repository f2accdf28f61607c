//! Loading the tables of a `SyzygyPath` so that whatever sits in its folders costs at most
//! itself. shakmaty-syzygy only looks at a file's name and size when it is added and opens it
//! at its first probe, with a blocking open; so here every table file is first opened without
//! blocking and its header read (a FIFO named `KQvK.rtbw` is refused instead of hanging the
//! engine, a zero-filled file with the right magic is refused), then a small one's embedded
//! checksum is checked (a damaged body can mislead the search, not only fail it), and each
//! larger table is probed in a few positions of its material, so that one truncated or damaged
//! is named and dropped when loaded instead of silently answering nothing, or wrongly, in
//! every search after. A file whose checksum matched is the generator's, byte for byte, and
//! is not probed: checking the 70 files of the 3- and 4-piece tables costs less than probing
//! them did.
//!
//! Folders are read in order and a later file of a table replaces an earlier one, as in
//! shakmaty-syzygy, but only if it passes: a refused file leaves the table of an earlier
//! folder in use. A DTZ table is used and counted only beside a WDL table that passed (every
//! probe reads the WDL table first).

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, Read};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use shakmaty::{Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Role, Setup};
use shakmaty_syzygy::filesystem::{Filesystem, RandomAccessFile, ReadHint};
use shakmaty_syzygy::{Material, Metric, ProbeError, Syzygy, SyzygyError, Tablebase};

use super::checksum::{self, CHECKSUM_AT_LOAD};
use super::tables::{Loaded, Tablebases};
use crate::files;
use crate::rng::Rng;

/// The first bytes of every WDL (`.rtbw`) and DTZ (`.rtbz`) table file.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Separators of several directories in one `SyzygyPath` (`;` as well, as on Windows).
const PATH_SEPARATORS: [char; 2] = [':', ';'];

/// Positions probed per side to move when a table too large for its checksum to be checked at
/// load is loaded: a table cut to 2,000 of its 5,392 bytes (KQvK.rtbz) fails most of them.
const PROBES_PER_SIDE: usize = 8;

/// The seed of the probed positions: the same ones at every load, so a check is repeatable.
const PROBE_SEED: u64 = 0x5359_5A59_4759;

/// One table file and what its name says it holds.
#[derive(Clone)]
struct TableFile {
    path: PathBuf,
    metric: Metric,
    /// The roles of each side, white's first, as the name gives them (`KRPvKB`: KRP and KB).
    sides: [Vec<Role>; 2],
    /// Whether its embedded checksum was found right when it was loaded: then it is the
    /// generator's file byte for byte, and is not probed.
    checksummed: bool,
}

impl TableFile {
    /// The file `path` if its name is a table's (`KQvKR.rtbw`), by the rule of
    /// shakmaty-syzygy's `add_file`, so that no file it would take escapes the checks here.
    fn named(path: &Path) -> Option<TableFile> {
        let metric = match path.extension()?.to_str()? {
            "rtbw" => Metric::Wdl,
            "rtbz" => Metric::Dtz,
            _ => return None,
        };
        let (white, black) = path.file_stem()?.to_str()?.split_once('v')?;
        let roles = |side: &str| {
            side.chars()
                .map(Role::from_char)
                .collect::<Option<Vec<_>>>()
        };
        let sides = [roles(white)?, roles(black)?];
        let count = sides[0].len() + sides[1].len();
        if sides.iter().any(Vec::is_empty) || count > <Chess as Syzygy>::MAX_PIECES {
            return None;
        }
        Some(TableFile {
            path: path.to_path_buf(),
            metric,
            sides,
            checksummed: false,
        })
    }

    /// The material with the sides in the order given, each as shakmaty-syzygy writes it.
    fn material(&self, first: usize) -> String {
        let side = |i: usize| {
            let mut roles = self.sides[i].clone();
            roles.sort_by(|a, b| b.cmp(a));
            roles.iter().map(|r| r.upper_char()).collect::<String>()
        };
        format!("{}v{}", side(first), side(1 - first))
    }

    /// Whether `material` (as an error of the prober names it) is this file's, either way round.
    fn is(&self, material: &Material) -> bool {
        let m = material.to_string();
        m == self.material(0) || m == self.material(1)
    }

    /// The table this file is one of: a later file of the same table replaces an earlier one
    /// that passed, as in shakmaty-syzygy, when it passes too.
    fn key(&self) -> (Metric, String) {
        (self.metric, self.material(0).min(self.material(1)))
    }

    /// How many pieces of each role (index `Role as usize`) each side has.
    fn counts(&self) -> [[u8; 7]; 2] {
        let mut counts = [[0; 7]; 2];
        for (side, roles) in counts.iter_mut().zip(&self.sides) {
            for &role in roles {
                side[role as usize] += 1;
            }
        }
        counts
    }

    /// Whether the table header `head` (its first bytes) has the layout and the piece list of
    /// this file's material: what shakmaty-syzygy checks first when it opens a table.
    fn header_matches(&self, head: &[u8]) -> bool {
        let counts = self.counts();
        let has_pawns = counts.iter().any(|side| side[Role::Pawn as usize] > 0);
        let both_pawns = counts.iter().all(|side| side[Role::Pawn as usize] > 0);
        let symmetric = counts[0] == counts[1];
        let Some(&layout) = head.get(4) else {
            return false;
        };
        // Layout flags: 1, two sides stored (asymmetric material); 2, pawns.
        if (layout & 2 != 0) != has_pawns || (layout & 1 != 0) == symmetric {
            return false;
        }
        // After the layout, one byte of piece order (two with pawns on both sides), then the
        // pieces of the first side stored, one a byte, low nibble: 1-6 pawn to king, 8 black.
        let start = 6 + usize::from(both_pawns);
        let Some(pieces) = head.get(start..start + self.sides[0].len() + self.sides[1].len())
        else {
            return false;
        };
        let mut found = [[0u8; 7]; 2];
        for &byte in pieces {
            let role = usize::from(byte & 7);
            if !(1..=6).contains(&role) {
                return false;
            }
            found[usize::from(byte & 8 != 0)][role] += 1;
        }
        found == counts || found == [counts[1], counts[0]]
    }
}

/// The tables of every directory of `path` (`:`-separated; empty or `<empty>`: none), each
/// file checked and each table probed; every directory or file that cannot be used is named
/// in the errors, and a directory that gives no usable table is one of them.
pub(super) fn load(path: &str) -> (Tablebases, Loaded) {
    let mut loaded = Loaded::default();
    let mut found: Vec<TableFile> = Vec::new();
    for dir in path.split(PATH_SEPARATORS).map(str::trim) {
        if dir.is_empty() || dir == "<empty>" {
            continue;
        }
        loaded.directories += 1;
        scan_directory(Path::new(dir), &mut found, &mut loaded.errors);
    }
    // Each table's files in the order of the path: the last one that passes is used.
    let mut candidates: Vec<Vec<TableFile>> = Vec::with_capacity(found.len());
    let mut index: HashMap<(Metric, String), usize> = HashMap::new();
    for file in found {
        match index.entry(file.key()) {
            Entry::Occupied(i) => candidates[*i.get()].push(file),
            Entry::Vacant(slot) => {
                slot.insert(candidates.len());
                candidates.push(vec![file]);
            }
        }
    }
    let tb = verified(candidates, &mut loaded.errors);
    loaded.files = tb.wdl.len() + tb.dtz.len();
    loaded.tables = tb.wdl.len();
    (tb, loaded)
}

/// Adds the table files of `dir` that pass [`check_file`] to `found`; each one that does not
/// is an error naming it, and so is the directory when it gives none.
fn scan_directory(dir: &Path, found: &mut Vec<TableFile>, errors: &mut Vec<String>) {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            let why = files::reason(&e);
            return errors.push(format!(
                "{}: cannot read the directory: {why}",
                dir.display()
            ));
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    paths.sort();
    let before = found.len();
    for mut file in paths.iter().filter_map(|p| TableFile::named(p)) {
        match check_file(&file) {
            Ok(checksummed) => {
                file.checksummed = checksummed;
                found.push(file);
            }
            Err(e) => errors.push(e),
        }
    }
    if found.len() == before {
        errors.push(format!(
            "{}: no usable Syzygy table (.rtbw, .rtbz) in this directory",
            dir.display()
        ));
    }
}

/// Checks, without ever blocking and before the prober opens it, that `file` is a regular
/// file of a size a table can have (64n + 16 bytes, shakmaty-syzygy's rule) whose header has
/// the right magic bytes, layout and pieces, and, up to [`CHECKSUM_AT_LOAD`] bytes, whose
/// embedded checksum matches (larger files: `cutoff syzygy verify`). Whether the checksum was
/// checked.
fn check_file(file: &TableFile) -> Result<bool, String> {
    let named = |why: String| format!("{}: {why}", file.path.display());
    let (f, len) = files::open_regular(&file.path)?;
    if len % 64 != 16 {
        return Err(named(format!(
            "{len} bytes, not the size of a table (truncated or damaged?)"
        )));
    }
    let whole = len <= CHECKSUM_AT_LOAD;
    let wanted = if whole { len } else { 16 };
    let mut head = Vec::with_capacity(wanted as usize);
    f.take(wanted)
        .read_to_end(&mut head)
        .map_err(|e| named(files::reason(&e)))?;
    let magic = match file.metric {
        Metric::Wdl => WDL_MAGIC,
        Metric::Dtz => DTZ_MAGIC,
    };
    if head.get(..4) != Some(&magic[..]) {
        return Err(named("not a Syzygy table (bad magic bytes)".into()));
    }
    if !file.header_matches(&head) {
        return Err(named(format!(
            "a damaged header (not that of a {} table)",
            file.material(0)
        )));
    }
    if whole {
        checksum::check_bytes(&head).map_err(named)?;
    }
    Ok(whole)
}

/// The tables of `candidates` (each table's files in the order of the path), the last file
/// of each probed in a few positions of its material unless its checksum was checked. One
/// whose probe fails is named in `errors` and left out, and the table's previous file, if
/// any, is tried in its place; then a DTZ table whose WDL partner did not pass is named and
/// left out too.
fn verified(mut candidates: Vec<Vec<TableFile>>, errors: &mut Vec<String>) -> Tablebases {
    let mut good: Vec<TableFile> = Vec::with_capacity(candidates.len());
    // The tables last built, while they hold exactly `good`.
    let mut tb = None;
    loop {
        let mut trying = HashMap::new();
        let mut files = Vec::new();
        for (i, table) in candidates.iter_mut().enumerate() {
            if let Some(file) = table.pop() {
                trying.insert(file.key(), i);
                files.push(file);
            }
        }
        if trying.is_empty() {
            break;
        }
        files.splice(0..0, std::mem::take(&mut good));
        let (built, added) = Tablebases::with_files(files, errors);
        let mut all_passed = true;
        for file in added {
            let Some(&i) = trying.get(&file.key()) else {
                good.push(file);
                continue;
            };
            let checked = if file.checksummed {
                Ok(())
            } else {
                built.probe_check(&file)
            };
            match checked {
                Ok(()) => {
                    candidates[i].clear();
                    good.push(file);
                }
                Err(why) => {
                    all_passed = false;
                    errors.push(format!("{}: {why}; not used", file.path.display()));
                }
            }
        }
        tb = all_passed.then_some(built);
    }
    let wdl: HashSet<String> = good
        .iter()
        .filter(|f| f.metric == Metric::Wdl)
        .map(|f| f.key().1)
        .collect();
    let before = good.len();
    good.retain(|f| {
        let partnered = f.metric == Metric::Wdl || wdl.contains(&f.key().1);
        if !partnered {
            errors.push(format!(
                "{}: not used: its WDL table ({}.rtbw) is missing or refused, and every probe \
                 reads the WDL table first",
                f.path.display(),
                f.material(0)
            ));
        }
        partnered
    });
    match tb {
        Some(tb) if good.len() == before => tb,
        // A table that failed cannot be taken out of a `Tablebase`: the good ones are added
        // anew (which only notes their paths; they are opened again at their first probe).
        _ => Tablebases::with_files(good, errors).0,
    }
}

impl Tablebases {
    /// The tables of `table_files`, read through [`RegularFiles`], and the files added.
    fn with_files(
        table_files: Vec<TableFile>,
        errors: &mut Vec<String>,
    ) -> (Tablebases, Vec<TableFile>) {
        let mut tb = Tablebases {
            tables: Tablebase::with_filesystem(Arc::new(RegularFiles)),
            ..Tablebases::default()
        };
        let mut added = Vec::with_capacity(table_files.len());
        for file in table_files {
            match tb.tables.add_file(&file.path) {
                Ok(()) => {
                    let names = match file.metric {
                        Metric::Wdl => &mut tb.wdl,
                        Metric::Dtz => &mut tb.dtz,
                    };
                    names.push(file.material(0));
                    added.push(file);
                }
                Err(e) => errors.push(format!(
                    "{}: {} (truncated or damaged?)",
                    file.path.display(),
                    files::reason(&e)
                )),
            }
        }
        (tb, added)
    }

    /// Probes `file`'s table (WDL or DTZ, as the file is) in a few positions of its material,
    /// both sides to move: the reason it failed, when a probe failed in this very table. A
    /// missing or failing table of another material (reached by a capture) is not this
    /// file's fault and is passed over; a panic in the prober is blamed on it.
    fn probe_check(&self, file: &TableFile) -> Result<(), String> {
        for pos in sample_positions(&file.sides) {
            let probed = catch_unwind(AssertUnwindSafe(|| match file.metric {
                Metric::Wdl => self.tables.probe_wdl_after_zeroing(&pos).map(drop),
                Metric::Dtz => self.tables.probe_dtz(&pos).map(drop),
            }));
            match probed {
                Err(_) => return Err("probing it panicked".into()),
                Ok(Err(SyzygyError::ProbeFailed {
                    metric,
                    material,
                    error,
                })) if metric == file.metric && file.is(&material) => {
                    return Err(match *error {
                        ProbeError::Read { error } => {
                            format!("cannot be read: {}", files::reason(&error))
                        }
                        ProbeError::Magic { .. } => "not a Syzygy table (bad magic bytes)".into(),
                        ProbeError::CorruptedTable { .. } => {
                            "truncated or damaged (probing it failed)".into()
                        }
                    });
                }
                Ok(_) => {}
            }
        }
        Ok(())
    }
}

/// A few legal positions of the material `sides` (white's roles, black's), as many with each
/// side to move: pawns off the back ranks, no castling or en passant, and shakmaty's own
/// validation for the rest (kings apart, the side not to move not in check). The same ones
/// every time; fewer, or none, where the material hardly has legal positions.
fn sample_positions(sides: &[Vec<Role>; 2]) -> Vec<Chess> {
    let mut rng = Rng::new(PROBE_SEED);
    let mut positions = Vec::with_capacity(2 * PROBES_PER_SIDE);
    for turn in [Color::White, Color::Black] {
        let mut found = 0;
        for _ in 0..PROBES_PER_SIDE * 50 {
            if found == PROBES_PER_SIDE {
                break;
            }
            if let Some(pos) = random_position(sides, turn, &mut rng) {
                positions.push(pos);
                found += 1;
            }
        }
    }
    positions
}

/// The pieces of `sides` put on random free squares (pawns off the back ranks), `turn` to
/// move, if that is a legal position.
fn random_position(sides: &[Vec<Role>; 2], turn: Color, rng: &mut Rng) -> Option<Chess> {
    let mut board = Board::empty();
    for (color, roles) in [Color::White, Color::Black].into_iter().zip(sides) {
        for &role in roles {
            let mut free = !board.occupied();
            if role == Role::Pawn {
                free &= !Bitboard::BACKRANKS;
            }
            let square = free.into_iter().nth(rng.below(free.count().max(1)))?;
            board.set_piece_at(square, role.of(color));
        }
    }
    let setup = Setup {
        board,
        turn,
        ..Setup::empty()
    };
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}

/// The prober's view of the files: it opens each table lazily, at its first probe, and here
/// through [`files::open_regular`], so a table replaced by a FIFO after loading is refused
/// rather than waited on by a search.
struct RegularFiles;

impl Filesystem for RegularFiles {
    fn regular_file_size(&self, path: &Path) -> io::Result<u64> {
        files::check_regular(path).map_err(io::Error::other)
    }

    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        fs::read_dir(path)?.map(|e| e.map(|e| e.path())).collect()
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn RandomAccessFile>> {
        let (file, _) = files::open_regular(path).map_err(io::Error::other)?;
        Ok(Box::new(TableData {
            file,
            head: Mutex::new(Vec::new()),
            header_read: AtomicBool::new(false),
        }))
    }
}

/// How far into a file header reads are served from memory (a 7-piece table's header is
/// some 100 KB at most); beyond it they go to the file.
const MAX_HEAD: u64 = 1 << 20;

/// An open table file, read at offsets. The prober reads a table's header (only when it opens
/// the table) a few bytes at a time, some 1,400 reads for a 4-piece table, a system call
/// each; so header reads are served from the file's first bytes read ahead, which made
/// loading when it opened every table to probe it about ten times faster (140 ms to 12 ms for
/// the 3- and 4-piece tables), and so opening a table at a search's first probe of it. Those
/// bytes are dropped at the first other read, when the table is open and probed.
struct TableData {
    file: fs::File,
    /// The file's first bytes, as far as the header reads went (rounded up).
    head: Mutex<Vec<u8>>,
    /// Whether the header is read and `head` dropped.
    header_read: AtomicBool,
}

impl TableData {
    fn read_file(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        #[cfg(unix)]
        {
            std::os::unix::fs::FileExt::read_at(&self.file, buf, offset)
        }
        #[cfg(windows)]
        {
            std::os::windows::fs::FileExt::seek_read(&self.file, buf, offset)
        }
    }

    fn head(&self) -> std::sync::MutexGuard<'_, Vec<u8>> {
        self.head.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl RandomAccessFile for TableData {
    fn read_at(&self, buf: &mut [u8], offset: u64, hint: ReadHint) -> io::Result<usize> {
        let end = offset.saturating_add(buf.len() as u64);
        if hint != ReadHint::Header {
            // A load first: the probes of every search thread pass here.
            if !self.header_read.load(Ordering::Relaxed)
                && !self.header_read.swap(true, Ordering::Relaxed)
            {
                *self.head() = Vec::new();
            }
            return self.read_file(buf, offset);
        }
        if end > MAX_HEAD {
            return self.read_file(buf, offset);
        }
        let mut head = self.head();
        if end > head.len() as u64 {
            let have = head.len();
            let want = (end.next_multiple_of(4096) as usize).max(2 * have);
            head.resize(want.min(MAX_HEAD as usize), 0);
            let read = self.read_file(&mut head[have..], have as u64);
            head.truncate(have + *read.as_ref().unwrap_or(&0));
            read?;
            if end > head.len() as u64 {
                // Past the end of the file (or a short read): the file answers.
                return self.read_file(buf, offset);
            }
        }
        let from = offset as usize;
        buf.copy_from_slice(&head[from..from + buf.len()]);
        Ok(buf.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    fn temp_dir(name: &str) -> PathBuf {
        crate::files::fresh_test_dir("tbload", name)
    }

    #[test]
    fn only_names_the_prober_takes_are_table_files() {
        let metric = |name: &str| TableFile::named(Path::new(name)).map(|f| f.metric);
        assert_eq!(metric("/t/KQvK.rtbw"), Some(Metric::Wdl));
        assert_eq!(metric("/t/KRPvKB.rtbz"), Some(Metric::Dtz));
        for name in [
            "/t/KQvK.txt",
            "/t/KQvK",
            "/t/KQK.rtbw",
            "/t/vK.rtbw",
            "/t/KXvK.rtbw",
            "/t/KQQQQQvKR.rtbw",
        ] {
            assert_eq!(metric(name), None, "{name}");
        }
        let file = TableFile::named(Path::new("KPRvKQ.rtbw")).unwrap();
        assert_eq!(file.material(0), "KRPvKQ");
        assert_eq!(file.key(), (Metric::Wdl, "KQvKRP".to_string()));
    }

    #[test]
    fn sampled_positions_are_legal_positions_of_the_material_with_both_sides_to_move() {
        let file = TableFile::named(Path::new("KRPvKB.rtbw")).unwrap();
        let positions = sample_positions(&file.sides);
        assert_eq!(positions.len(), 2 * PROBES_PER_SIDE);
        for (i, pos) in positions.iter().enumerate() {
            let turn = if i < PROBES_PER_SIDE {
                Color::White
            } else {
                Color::Black
            };
            assert_eq!(pos.turn(), turn);
            assert_eq!(Material::from_board(pos.board()).to_string(), "KRPvKB");
            assert!(!pos.castles().any() && pos.maybe_ep_square().is_none());
            assert!((pos.board().pawns() & Bitboard::BACKRANKS).is_empty());
        }
        assert_eq!(sample_positions(&file.sides), positions, "not repeatable");
    }

    #[test]
    fn a_directory_with_no_table_is_an_error_naming_it() {
        let dir = temp_dir("no-table");
        fs::write(dir.join("notes.txt"), "x").unwrap();
        let (tb, loaded) = Tablebases::load(dir.to_str().unwrap());
        assert!(tb.is_empty());
        assert_eq!(loaded.directories, 1);
        assert_eq!(loaded.errors.len(), 1, "{:?}", loaded.errors);
        assert!(
            loaded.errors[0].contains(dir.to_str().unwrap())
                && loaded.errors[0].contains("no usable Syzygy table"),
            "{:?}",
            loaded.errors
        );
        let (_, loaded) = Tablebases::load("<empty>:");
        assert_eq!((loaded.directories, loaded.errors.len()), (0, 0));
        let _ = fs::remove_dir_all(&dir);
    }

    /// Header reads come from the bytes read ahead, in any order and across chunks, and
    /// equal the file's; so do reads past the end and reads after the header is dropped.
    #[test]
    fn header_reads_from_memory_equal_the_files_bytes() {
        let dir = temp_dir("head");
        let path = dir.join("data");
        let bytes: Vec<u8> = (0..10_000u32).map(|i| (i * 7 + i / 251) as u8).collect();
        fs::write(&path, &bytes).unwrap();
        let file = RegularFiles.open(&path).unwrap();
        let read = |offset: u64, len: usize, hint: ReadHint| {
            let mut buf = vec![0; len];
            file.read_exact_at(&mut buf, offset, hint).map(|()| buf)
        };
        for (offset, len) in [(0, 4), (5000, 3), (4094, 4), (100, 2), (98, 2), (9_990, 10)] {
            let got = read(offset, len, ReadHint::Header).unwrap();
            assert_eq!(got, bytes[offset as usize..][..len], "{offset}");
        }
        assert!(read(9_995, 10, ReadHint::Header).is_err());
        assert_eq!(read(8000, 3, ReadHint::Data).unwrap(), bytes[8000..8003]);
        assert_eq!(read(10, 3, ReadHint::Header).unwrap(), bytes[10..13]);
        let _ = fs::remove_dir_all(&dir);
    }
}
