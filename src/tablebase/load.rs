//! Loading the tables of a `SyzygyPath` so that whatever sits in its folders costs at most
//! itself, and so that the engine never probes a file `cutoff syzygy verify` refuses.
//!
//! Every table file is put through the header checks of `check.rs` when loaded (opened
//! without blocking; its size, magic, material and the size its header's layout allows), so a
//! FIFO, a file under the wrong name or extension, one cut short or padded, or a real header
//! before gigabytes of zeros is named and dropped at once, unread. Then each table's file is
//! checksummed whole, the smallest first, as long as the bytes read stay within the budget of
//! [`LoadOptions::checksum_at_load`] (256 MiB by default: every 3-, 4- and many 5-piece
//! tables); a larger table is registered but gated (`gate.rs`): it is checksummed in the
//! background at its first probe and gives no answer until it passed. So loading costs at
//! most the budget's reading, however large the tables, and no table is ever read unchecked.
//!
//! Folders are read in order and a later file of a table replaces an earlier one, as in
//! shakmaty-syzygy, but only if it passes: a refused file leaves the table of an earlier
//! folder in use. A DTZ table is used and counted only beside a WDL table (every probe reads
//! the WDL table first).

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use shakmaty_syzygy::{Metric, Tablebase};

use super::check::{self, Depth, TableFile};
use super::gate::{Gate, Gates, RegularFiles, Reporter};
use super::tables::{Closing, Loaded, Tablebases};
use crate::files;

/// Separators of several directories in one `SyzygyPath` (`;` as well, as on Windows).
const PATH_SEPARATORS: [char; 2] = [':', ';'];

/// The bytes checksummed when loading by default. Measured on a busy 2-core machine, files in
/// the page cache (`Bench: 1484865`): `setoption name SyzygyPath` with the 70 files of the 3-
/// and 4-piece tables (4.4 MB) answers in 0.01-0.03 s; `cutoff syzygy verify` hashes 256 MiB
/// in 0.31-0.45 s (0.06-0.09 s of CPU); from a disk it takes what reading 256 MiB takes. The
/// rest, up to the terabytes of the 7-piece tables, are checksummed at their first probe.
pub const CHECKSUM_AT_LOAD: u64 = 256 << 20;

/// How a `SyzygyPath` is loaded.
#[derive(Clone)]
pub struct LoadOptions {
    /// The bytes of table files checksummed before the load returns, the smallest tables
    /// first; the rest are checksummed in the background at their first probe and not probed
    /// before. `u64::MAX`: every file at load, so that what the tables answer never depends
    /// on timing (datagen's adjudication).
    pub checksum_at_load: u64,
    /// Where a file refused in the background is reported (besides
    /// [`Tablebases::refused_since_loaded`]).
    pub report: Option<Reporter>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            checksum_at_load: CHECKSUM_AT_LOAD,
            report: None,
        }
    }
}

/// A table file that passed the header checks: it and its size.
#[derive(Clone)]
struct Candidate {
    file: TableFile,
    len: u64,
}

/// The tables of every directory of `path` (`:`-separated; empty or `<empty>`: none), each
/// file checked; every directory or file that cannot be used is named in the errors, and a
/// directory that gives no usable table is one of them.
pub(super) fn load(path: &str, options: &LoadOptions) -> (Tablebases, Loaded) {
    let mut loaded = Loaded::default();
    let mut found: Vec<Candidate> = Vec::new();
    for dir in path.split(PATH_SEPARATORS).map(str::trim) {
        if dir.is_empty() || dir == "<empty>" {
            continue;
        }
        loaded.directories += 1;
        scan_directory(Path::new(dir), &mut found, &mut loaded.errors);
    }
    // Each table's files in the order of the path: the last one that passes is used.
    let mut candidates: Vec<Vec<Candidate>> = Vec::with_capacity(found.len());
    let mut index: HashMap<(Metric, String), usize> = HashMap::new();
    for file in found {
        match index.entry(file.file.key()) {
            Entry::Occupied(i) => candidates[*i.get()].push(file),
            Entry::Vacant(slot) => {
                slot.insert(candidates.len());
                candidates.push(vec![file]);
            }
        }
    }
    let mut chosen = choose(candidates, options.checksum_at_load, &mut loaded.errors);
    keep_partnered(&mut chosen, &mut loaded.errors);
    loaded.pending = chosen
        .iter()
        .filter(|(_, gate)| matches!(gate, Gate::Pending { .. }))
        .count();
    let mut tb = Tablebases::with_gates(chosen, options.report.clone(), &mut loaded);
    tb.path = path.to_string();
    loaded.files = tb.wdl.len() + tb.dtz.len();
    loaded.tables = tb.wdl.len();
    (tb, loaded)
}

/// Adds the table files of `dir` that pass the header checks to `found`; each one that does
/// not is an error naming it, and so is the directory when it gives none.
fn scan_directory(dir: &Path, found: &mut Vec<Candidate>, errors: &mut Vec<String>) {
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
    for file in paths.iter().filter_map(|p| TableFile::named(p)) {
        match check::check(&file, Depth::Header, &|| false) {
            Ok(id) => found.push(Candidate {
                file,
                len: id.len(),
            }),
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

/// Each table's gate, from its files in the order of the path (the last tried first): the
/// tables whose last file is smallest first, each file checksummed now while the bytes read
/// stay within `budget`, one that fails named in `errors` and the file before it tried in its
/// place; a table whose next file is beyond the budget is pending, its files kept for the
/// background check. A table none of whose files passed is left out.
fn choose(
    mut candidates: Vec<Vec<Candidate>>,
    budget: u64,
    errors: &mut Vec<String>,
) -> Vec<(TableFile, Gate)> {
    candidates.sort_by_key(|files| files.last().map_or(0, |c| c.len));
    let mut left = budget;
    let mut chosen = Vec::with_capacity(candidates.len());
    for mut files in candidates {
        let Some(registered) = files.last().map(|c| c.file.clone()) else {
            continue;
        };
        while let Some(next) = files.last() {
            if next.len > left {
                let candidates = files.into_iter().map(|c| c.file).collect();
                chosen.push((
                    registered,
                    Gate::Pending {
                        candidates,
                        asked: false,
                    },
                ));
                break;
            }
            left -= next.len;
            let file = files.pop().expect("a file").file;
            match check::check(&file, Depth::Whole, &|| false) {
                Ok(id) => {
                    chosen.push((registered, Gate::Checked { file, id }));
                    break;
                }
                Err(why) => errors.push(format!("{why}; not used")),
            }
        }
    }
    chosen
}

/// Leaves out (and names) each DTZ table without its WDL table, which every probe reads first.
fn keep_partnered(chosen: &mut Vec<(TableFile, Gate)>, errors: &mut Vec<String>) {
    let wdl: HashSet<String> = chosen
        .iter()
        .filter(|(f, _)| f.metric == Metric::Wdl)
        .map(|(f, _)| f.key().1)
        .collect();
    chosen.retain(|(f, _)| {
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
}

impl Tablebases {
    /// The tables of `chosen` (each registered under its path, and read only through its
    /// gate), their names counted; the background checksum thread started if a table needs
    /// it (if it cannot start, those tables are refused, and that is an error).
    fn with_gates(
        chosen: Vec<(TableFile, Gate)>,
        report: Option<Reporter>,
        loaded: &mut Loaded,
    ) -> Tablebases {
        let mut names: Vec<(Metric, String)> = Vec::with_capacity(chosen.len());
        let mut gates = HashMap::with_capacity(chosen.len());
        let mut registered = Vec::with_capacity(chosen.len());
        for (file, gate) in chosen {
            names.push((file.metric, file.material(0)));
            gates.insert(file.path.clone(), gate);
            registered.push(file.path);
        }
        let gates = Arc::new(Gates::new(gates, report));
        if let Err(e) = gates.start() {
            let refused = gates.refuse_pending();
            loaded.errors.push(format!(
                "cannot start the thread that checksums the larger tables at their first \
                 probe: {e}; those {refused} files are not used"
            ));
            loaded.pending = 0;
        }
        let mut tables = Tablebase::with_filesystem(Arc::new(RegularFiles {
            gates: Arc::clone(&gates),
        }));
        let (mut wdl, mut dtz) = (Vec::new(), Vec::new());
        for (path, (metric, name)) in registered.iter().zip(names) {
            match tables.add_file(path) {
                Ok(()) => match metric {
                    Metric::Wdl => wdl.push(name),
                    Metric::Dtz => dtz.push(name),
                },
                Err(e) => loaded.errors.push(format!(
                    "{}: {} (truncated or damaged?)",
                    path.display(),
                    files::reason(&e)
                )),
            }
        }
        Tablebases {
            tables,
            wdl,
            dtz,
            gates: Closing(gates),
            path: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
