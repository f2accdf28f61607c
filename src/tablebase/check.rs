//! The one check of a table file, shared by the loader and `cutoff syzygy verify`, so that the
//! engine never probes a file that verify refuses and verify never passes a file that the
//! engine refuses. In order, each step costing at most what the one before it proved worth
//! reading:
//!
//! 1. the name is a table's (`KQvKR.rtbw`: the material, and WDL or DTZ);
//! 2. the file is regular (opened without blocking: a FIFO is refused, never waited on) and
//!    of a size a table can have (64n + 16 bytes: a body and its checksum);
//! 3. the magic bytes are those of the metric the extension promises (a `.rtbw` copied to
//!    `.rtbz` is refused), and the header's layout and pieces are those of the material the
//!    name promises (a table under another material's name is refused);
//! 4. the file's size lies within the bounds its header's layout sets ([`layout_bounds`]): a
//!    table padded, a real header followed by gigabytes of zeros, or one cut short are
//!    refused from the header alone, before any of the body is read;
//! 5. the embedded checksum matches the body (`checksum.rs`: the whole file is read).
//!
//! Steps 1 to 4 read only the header (a few KB) and are run on every file when loaded; the
//! loader runs step 5 when loading or before the file's first probe (`load.rs`, `gate.rs`).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use shakmaty::{Chess, Role};
use shakmaty_syzygy::{Metric, Syzygy};

use super::checksum;
use crate::files;

/// The first bytes of every WDL (`.rtbw`) and DTZ (`.rtbz`) table file.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// One table file and what its name says it holds.
#[derive(Clone, Debug)]
pub(super) struct TableFile {
    pub(super) path: PathBuf,
    pub(super) metric: Metric,
    /// The roles of each side, white's first, as the name gives them (`KRPvKB`: KRP and KB).
    pub(super) sides: [Vec<Role>; 2],
}

impl TableFile {
    /// The file `path` if its name is a table's (`KQvKR.rtbw`), by the rule of
    /// shakmaty-syzygy's `add_file`, so that no file it would take escapes the checks here.
    pub(super) fn named(path: &Path) -> Option<TableFile> {
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
        })
    }

    /// The material with the sides in the order given, each as shakmaty-syzygy writes it.
    pub(super) fn material(&self, first: usize) -> String {
        let side = |i: usize| {
            let mut roles = self.sides[i].clone();
            roles.sort_by(|a, b| b.cmp(a));
            roles.iter().map(|r| r.upper_char()).collect::<String>()
        };
        format!("{}v{}", side(first), side(1 - first))
    }

    /// The table this file is one of: a later file of the same table replaces an earlier one
    /// that passed, as in shakmaty-syzygy, when it passes too.
    pub(super) fn key(&self) -> (Metric, String) {
        (self.metric, self.material(0).min(self.material(1)))
    }

    fn piece_count(&self) -> usize {
        self.sides[0].len() + self.sides[1].len()
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

    fn has_pawns(&self) -> bool {
        self.sides.iter().flatten().any(|&r| r == Role::Pawn)
    }

    fn both_sides_have_pawns(&self) -> bool {
        self.sides.iter().all(|side| side.contains(&Role::Pawn))
    }

    fn symmetric(&self) -> bool {
        let counts = self.counts();
        counts[0] == counts[1]
    }

    /// Whether the table header `head` (its first bytes) has the layout and the piece list of
    /// this file's material: what shakmaty-syzygy checks first when it opens a table.
    fn header_matches(&self, head: &mut Head) -> Result<bool, String> {
        let counts = self.counts();
        let layout = head.u8(4)?;
        // Layout flags: 1, two sides stored (asymmetric material); 2, pawns.
        if (layout & 2 != 0) != self.has_pawns() || (layout & 1 != 0) == self.symmetric() {
            return Ok(false);
        }
        // After the layout, one byte of piece order (two with pawns on both sides), then the
        // pieces of the first side stored, one a byte, low nibble: 1-6 pawn to king, 8 black.
        let start = 6 + u64::from(self.both_sides_have_pawns());
        let pieces = head.bytes(start, self.piece_count())?;
        let mut found = [[0u8; 7]; 2];
        for &byte in pieces {
            let role = usize::from(byte & 7);
            if !(1..=6).contains(&role) {
                return Ok(false);
            }
            found[usize::from(byte & 8 != 0)][role] += 1;
        }
        Ok(found == counts || found == [counts[1], counts[0]])
    }
}

/// Who a file is, as far as its metadata tells: the file found checked at load or in the
/// background must be the file the prober opens later, not one put in its place since.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FileId {
    len: u64,
    modified: Option<std::time::SystemTime>,
    /// Device and inode, where the system has them.
    node: Option<(u64, u64)>,
}

impl FileId {
    pub(super) fn of(file: &File) -> std::io::Result<FileId> {
        let meta = file.metadata()?;
        #[cfg(unix)]
        let node = {
            use std::os::unix::fs::MetadataExt;
            Some((meta.dev(), meta.ino()))
        };
        #[cfg(not(unix))]
        let node = None;
        Ok(FileId {
            len: meta.len(),
            modified: meta.modified().ok(),
            node,
        })
    }

    pub(super) fn len(&self) -> u64 {
        self.len
    }
}

/// How much of [`check`] to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Depth {
    /// Everything but the checksum: the header alone is read.
    Header,
    /// Everything: the whole file is read.
    Whole,
}

/// Runs the checks of this module's list on `file` (all of them, or all but the checksum),
/// stopping between 16 MiB chunks of the checksum when `stop` says so. The error names the
/// file and why it was refused; a stopped check is an error too (the caller knows it asked).
pub(super) fn check(
    file: &TableFile,
    depth: Depth,
    stop: &dyn Fn() -> bool,
) -> Result<FileId, String> {
    let named = |why: String| format!("{}: {why}", file.path.display());
    let (mut f, len) = files::open_regular(&file.path)?;
    let id = FileId::of(&f).map_err(|e| named(files::reason(&e)))?;
    if len % 64 != 16 {
        return Err(named(format!(
            "{len} bytes, not the size of a table (64n + 16 bytes: a body and its checksum; \
             truncated or damaged?)"
        )));
    }
    {
        let mut head = Head::new(&mut f, len);
        check_header(file, &mut head, len).map_err(named)?;
    }
    if depth == Depth::Whole {
        f.seek(SeekFrom::Start(0))
            .map_err(|e| named(files::reason(&e)))?;
        checksum::check_file(&mut f, len, stop).map_err(named)?;
    }
    Ok(id)
}

/// Steps 3 and 4: the magic, the material and the size the header's layout allows.
fn check_header(file: &TableFile, head: &mut Head, len: u64) -> Result<(), String> {
    let (magic, other, other_ext) = match file.metric {
        Metric::Wdl => (WDL_MAGIC, DTZ_MAGIC, "rtbz"),
        Metric::Dtz => (DTZ_MAGIC, WDL_MAGIC, "rtbw"),
    };
    let found = head.bytes(0, 4)?;
    if found == other {
        return Err(format!(
            "not a Syzygy {} table: the magic bytes of a .{other_ext} file (a table copied \
             under the other extension?)",
            metric_name(file.metric)
        ));
    }
    if found != magic {
        return Err("not a Syzygy table (bad magic bytes)".into());
    }
    if !file.header_matches(head)? {
        return Err(format!(
            "a damaged header (not that of a {} table: another table under its name?)",
            file.material(0)
        ));
    }
    let bounds = layout_bounds(file, head)?;
    if len > bounds.most {
        return Err(format!(
            "{len} bytes, larger than its header's layout allows ({} bytes at most): padded, \
             or damaged",
            bounds.most
        ));
    }
    if len < bounds.least {
        return Err(format!(
            "{len} bytes, smaller than its header's layout needs ({} bytes at least): cut \
             short, or damaged",
            bounds.least
        ));
    }
    Ok(())
}

fn metric_name(metric: Metric) -> &'static str {
    match metric {
        Metric::Wdl => "WDL",
        Metric::Dtz => "DTZ",
    }
}

/// A table file's first bytes, read as far as they are asked for (a header is some KB, at
/// most a few MB for the largest tables: never the body).
pub(super) struct Head<'a> {
    file: &'a mut File,
    len: u64,
    bytes: Vec<u8>,
}

impl<'a> Head<'a> {
    pub(super) fn new(file: &'a mut File, len: u64) -> Head<'a> {
        Head {
            file,
            len,
            bytes: Vec::new(),
        }
    }

    /// The `n` bytes at `at`, or why not (the file ends before them, or cannot be read).
    fn bytes(&mut self, at: u64, n: usize) -> Result<&[u8], String> {
        let end = at
            .checked_add(n as u64)
            .filter(|&end| end <= self.len)
            .ok_or("its header runs past the end of the file (cut short, or damaged)")?;
        if end > self.bytes.len() as u64 {
            let want = end
                .next_multiple_of(4096)
                .max(2 * self.bytes.len() as u64)
                .min(self.len);
            let have = self.bytes.len() as u64;
            self.file
                .seek(SeekFrom::Start(have))
                .map_err(|e| files::reason(&e))?;
            let mut more = Vec::new();
            (&mut *self.file)
                .take(want - have)
                .read_to_end(&mut more)
                .map_err(|e| files::reason(&e))?;
            self.bytes.extend(more);
            if end > self.bytes.len() as u64 {
                return Err("the file ends before its size says (it changed while read?)".into());
            }
        }
        Ok(&self.bytes[at as usize..end as usize])
    }

    fn u8(&mut self, at: u64) -> Result<u8, String> {
        Ok(self.bytes(at, 1)?[0])
    }

    fn u16(&mut self, at: u64) -> Result<u16, String> {
        let b = self.bytes(at, 2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
}

/// The least and the most bytes a table file can have with the header it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bounds {
    pub(super) least: u64,
    pub(super) most: u64,
}

/// One compressed subtable's sizes, from its header.
struct Subtable {
    /// Bytes of each compressed block.
    block_size: u64,
    /// Values per sparse-index entry.
    span: u64,
    /// Compressed blocks, and entries of the block-length table (blocks and padding).
    blocks: u64,
    block_lengths: u64,
}

/// Subtable flags: the DTZ values go through a map; a wide (16-bit) one; a single value.
const MAPPED: u8 = 2;
const WIDE_DTZ: u8 = 16;
const SINGLE_VALUE: u8 = 128;

/// The sizes a table file can have, from its header's layout, as the prober lays the file out
/// when it opens it: after the header, each subtable's sparse index (6 bytes an entry), its
/// block-length table (2 bytes an entry), and its blocks, each subtable's blocks starting on
/// 64 bytes; then the file is padded to 64 bytes and the checksum's 16 follow.
///
/// All of that is in the header but the sparse index, whose length is the number of values of
/// the subtable over its span: here at most every placement of the pieces (64 · 63 · …) and
/// at most 65,536 values a block (a block's length is stored in 16 bits), so the bound holds
/// for every file the generator writes; for the 70 files of the 3- and 4-piece tables it is
/// at most 16 KiB above the size (`the_layout_bounds_hold_every_real_table`). A file
/// padded past it, or a real header before gigabytes of zeros, is refused before its body is
/// read.
pub(super) fn layout_bounds(file: &TableFile, head: &mut Head) -> Result<Bounds, String> {
    let pawn_files = if file.has_pawns() { 4 } else { 1 };
    let sides = if file.metric == Metric::Wdl && !file.symmetric() {
        2
    } else {
        1
    };
    // The layout byte, then per pawn file its order byte(s) and piece list; even-aligned.
    let per_file = 1 + u64::from(file.both_sides_have_pawns()) + file.piece_count() as u64;
    let mut at = 5 + pawn_files * per_file;
    at += at & 1;
    let mut subtables = Vec::new();
    let mut first_flags = Vec::new();
    for _ in 0..pawn_files {
        for side in 0..sides {
            let flags = head.u8(at)?;
            if side == 0 {
                first_flags.push(flags);
            }
            if flags & SINGLE_VALUE != 0 {
                at += 2;
                continue;
            }
            let (subtable, next) = read_subtable(head, at)?;
            subtables.push(subtable);
            at = next;
        }
    }
    if file.metric == Metric::Dtz {
        for flags in first_flags {
            if flags & MAPPED == 0 {
                continue;
            }
            for _ in 0..4 {
                at += if flags & WIDE_DTZ != 0 {
                    u64::from(head.u16(at)?) * 2 + 2
                } else {
                    u64::from(head.u8(at)?) + 1
                };
            }
        }
        at += at & 1;
    }
    let subtable_count = pawn_files * sides;
    let placements: u64 = (0..file.piece_count() as u64).map(|i| 64 - i).product();
    let mut least = at + 16;
    // Every subtable's data is aligned to 64 bytes, single-valued ones too, then the body.
    let mut most = at + 16 + 63 * (subtable_count + 1);
    for s in &subtables {
        let fixed = 2 * s.block_lengths + s.blocks * s.block_size;
        let values = placements.min(65_536 * s.block_lengths);
        least += fixed;
        most += fixed + 6 * values.div_ceil(s.span);
    }
    Ok(Bounds { least, most })
}

/// The sizes in the subtable header at `at`, and where the next header starts.
fn read_subtable(head: &mut Head, at: u64) -> Result<(Subtable, u64), String> {
    let h: [u8; 10] = head.bytes(at, 10)?.try_into().expect("10 bytes");
    let damaged = |what: &str| format!("a damaged header ({what} of a subtable at byte {at})");
    // The prober takes blocks of at most 1 KiB and symbols of at most 32 bits.
    if h[1] > 10 {
        return Err(damaged("the block size"));
    }
    if h[2] >= 32 {
        return Err(damaged("the sparse-index span"));
    }
    let (max_len, min_len) = (h[8], h[9]);
    if max_len > 32 || min_len > max_len {
        return Err(damaged("the symbol lengths"));
    }
    let blocks = u64::from(u32::from_le_bytes([h[4], h[5], h[6], h[7]]));
    let subtable = Subtable {
        block_size: 1 << h[1],
        span: 1 << h[2],
        blocks,
        block_lengths: blocks + u64::from(h[3]),
    };
    let mut next = at + 10 + 2 * u64::from(max_len - min_len + 1);
    let symbols = u64::from(head.u16(next)?);
    next += 2 + 3 * symbols + (symbols & 1);
    Ok((subtable, next))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared() -> Option<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/syzygy");
        if dir.join("KQvK.rtbw").exists() {
            Some(dir)
        } else {
            crate::testing::skip(
                "the_layout_bounds_hold_every_real_table",
                crate::testing::Need::Shared,
                &format!("no Syzygy tables at {}", dir.display()),
            );
            None
        }
    }

    /// Every one of the 70 files of the 3- and 4-piece tables lies within the bounds of its
    /// header's layout, the most at most 16 KiB above its size (10,669 bytes for KPvKP.rtbw,
    /// whose 8 subtables have the shortest spans; so a table padded by more is refused
    /// unread), and passes every check.
    #[test]
    fn the_layout_bounds_hold_every_real_table() {
        let Some(dir) = shared() else {
            return;
        };
        let mut checked = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let Some(file) = TableFile::named(&path) else {
                continue;
            };
            let (mut f, len) = files::open_regular(&path).unwrap();
            let bounds = layout_bounds(&file, &mut Head::new(&mut f, len)).unwrap();
            assert!(
                bounds.least <= len && len <= bounds.most && bounds.most - len <= 16 << 10,
                "{}: {len} bytes, {bounds:?}",
                path.display()
            );
            check(&file, Depth::Whole, &|| false).unwrap();
            checked += 1;
        }
        assert_eq!(checked, 70);
    }
}
