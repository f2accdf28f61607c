//! The prober's view of the table files, and the gate every file passes before the prober may
//! read it: its whole check, checksum included (`check.rs`, the one `cutoff syzygy verify`
//! runs), has passed, on the very file opened.
//!
//! shakmaty-syzygy opens a table at its first probe, through [`RegularFiles::open`], and
//! keeps it open. Each table registered has a [`Gate`]: `Checked` when its file passed the
//! whole check (when loaded, or since), `Pending` while it has not been checksummed yet (it
//! was beyond the bytes checksummed at load), `Refused` when none of its files passed. An
//! open of a pending table fails, so that probe is no answer and the search goes on, and asks
//! the background thread to checksum it; once it passes, the next probe opens it. An open of
//! a checked table opens the checked file and compares it with the one checked (its device,
//! inode, size and time of change): a file put in its place since is checked anew first.
//!
//! So the engine never reads a byte of a table file that verify would refuse. The cost: a
//! large table gives no answer from its first probe until its checksum is done (the hash
//! itself runs at some 3 GB a second of CPU, `load::CHECKSUM_AT_LOAD`: reading the file
//! usually takes longer), once per file and load, on one background thread; a table no
//! search reaches is never read. While a table is pending, or after it was refused, a probe
//! reaching it costs a lock and the prober's error (one small allocation), where a checked
//! table costs nothing here: the prober keeps it open after its first probe.

use std::collections::{HashMap, VecDeque};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use shakmaty_syzygy::filesystem::{Filesystem, RandomAccessFile, ReadHint};

use super::check::{self, Depth, FileId, TableFile};
use crate::files;

/// Where a file refused after the load returned (at its first probe) is reported, one line
/// naming it and why, as the load's own errors are.
pub type Reporter = Arc<dyn Fn(&str) + Send + Sync>;

/// Where one table stands.
#[derive(Debug)]
pub(super) enum Gate {
    /// `file` passed the whole check; `id` is the file that passed.
    Checked { file: TableFile, id: FileId },
    /// Not checksummed yet: the table's files in the order of the path, the last tried first
    /// (an earlier folder's file replaces a later one that fails, as when loading); whether
    /// the background thread was asked.
    Pending {
        candidates: Vec<TableFile>,
        asked: bool,
    },
    /// None of its files passed.
    Refused,
}

/// The gates of one load's tables, by the path registered with the prober, and the queue of
/// the background thread that checksums the pending ones.
pub(super) struct Gates {
    gates: HashMap<PathBuf, Mutex<Gate>>,
    queue: Mutex<VecDeque<PathBuf>>,
    wake: Condvar,
    /// Set when the tables are dropped: the thread stops between chunks and says nothing.
    closed: AtomicBool,
    report: Option<Reporter>,
    /// Every file refused after the load, as reported.
    refused: Mutex<Vec<String>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl std::fmt::Debug for Gates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gates")
            .field("tables", &self.gates.len())
            .field("pending", &self.pending())
            .finish()
    }
}

impl Gates {
    pub(super) fn new(gates: HashMap<PathBuf, Gate>, report: Option<Reporter>) -> Gates {
        Gates {
            gates: gates.into_iter().map(|(p, g)| (p, Mutex::new(g))).collect(),
            queue: Mutex::new(VecDeque::new()),
            wake: Condvar::new(),
            closed: AtomicBool::new(false),
            report,
            refused: Mutex::new(Vec::new()),
        }
    }

    /// How many tables are still waiting for their checksum.
    pub(super) fn pending(&self) -> usize {
        self.gates
            .values()
            .filter(|g| matches!(*lock(g), Gate::Pending { .. }))
            .count()
    }

    /// The files refused after the load returned, each as reported.
    pub(super) fn refused(&self) -> Vec<String> {
        lock(&self.refused).clone()
    }

    /// Starts the thread that checksums pending tables as they are asked for, if any are.
    pub(super) fn start(self: &Arc<Self>) -> io::Result<()> {
        if self.pending() == 0 {
            return Ok(());
        }
        let gates = Arc::clone(self);
        std::thread::Builder::new()
            .name("syzygy-checksum".into())
            .spawn(move || gates.serve())
            .map(drop)
    }

    /// Refuses every pending table (when the thread cannot start): their files count for
    /// nothing, and the count of how many is returned.
    pub(super) fn refuse_pending(&self) -> usize {
        let mut refused = 0;
        for gate in self.gates.values() {
            let mut gate = lock(gate);
            if matches!(*gate, Gate::Pending { .. }) {
                *gate = Gate::Refused;
                refused += 1;
            }
        }
        refused
    }

    /// Stops the thread: the tables are dropped.
    pub(super) fn close(&self) {
        self.closed.store(true, Ordering::Relaxed);
        let _queue = lock(&self.queue);
        self.wake.notify_all();
    }

    fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }

    /// The open file of the table registered as `path`, if its gate lets it through; else
    /// the reason, after asking for the checksum of a pending table.
    fn open(&self, path: &Path) -> io::Result<fs::File> {
        let Some(gate) = self.gates.get(path) else {
            return Err(io::Error::other("not a table of this load"));
        };
        let mut gate = lock(gate);
        if let Gate::Checked { file, id } = &*gate {
            let (opened, _) = files::open_regular(&file.path).map_err(io::Error::other)?;
            if FileId::of(&opened)? == *id {
                return Ok(opened);
            }
            // Another file in its place since it was checked: check that one first.
            *gate = Gate::Pending {
                candidates: vec![file.clone()],
                asked: false,
            };
        }
        match &mut *gate {
            Gate::Pending { asked, .. } => {
                if !std::mem::replace(asked, true) {
                    lock(&self.queue).push_back(path.to_path_buf());
                    self.wake.notify_one();
                }
                Err(io::ErrorKind::WouldBlock.into())
            }
            // Without a message: a table refused in the background stays registered with
            // the prober (which cannot drop a table), so each probe reaching it passes here.
            _ => Err(io::ErrorKind::InvalidData.into()),
        }
    }

    /// The background thread: checksums each table asked for, in the order asked, until the
    /// tables are dropped.
    fn serve(&self) {
        loop {
            let next = {
                let mut queue = lock(&self.queue);
                loop {
                    if self.is_closed() {
                        return;
                    }
                    if let Some(path) = queue.pop_front() {
                        break path;
                    }
                    queue = self
                        .wake
                        .wait(queue)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            };
            self.settle(&next);
        }
    }

    /// Checksums the pending table registered as `path`: its last file that passes is
    /// checked, each one that fails is reported; none passing, the table is refused.
    fn settle(&self, path: &Path) {
        let Some(gate) = self.gates.get(path) else {
            return;
        };
        let candidates = match &*lock(gate) {
            Gate::Pending { candidates, .. } => candidates.clone(),
            _ => return,
        };
        for file in candidates.iter().rev() {
            let checked = check::check(file, Depth::Whole, &|| self.is_closed());
            if self.is_closed() {
                return;
            }
            match checked {
                Ok(id) => {
                    *lock(gate) = Gate::Checked {
                        file: file.clone(),
                        id,
                    };
                    return;
                }
                Err(why) => self.tell(&format!("{why}; not used (checked at its first probe)")),
            }
        }
        *lock(gate) = Gate::Refused;
    }

    fn tell(&self, line: &str) {
        lock(&self.refused).push(line.to_string());
        if let Some(report) = &self.report {
            report(line);
        }
    }
}

/// The prober's view of the files: it opens each table lazily, at its first probe, and here
/// only through its [`Gate`] and [`files::open_regular`], so a table not checksummed is not
/// read and one replaced by a FIFO after loading is refused rather than waited on by a search.
pub(super) struct RegularFiles {
    pub(super) gates: Arc<Gates>,
}

impl Filesystem for RegularFiles {
    fn regular_file_size(&self, path: &Path) -> io::Result<u64> {
        files::check_regular(path).map_err(io::Error::other)
    }

    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        fs::read_dir(path)?.map(|e| e.map(|e| e.path())).collect()
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn RandomAccessFile>> {
        let file = self.gates.open(path)?;
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

    fn temp_dir(name: &str) -> PathBuf {
        crate::files::fresh_test_dir("tbgate", name)
    }

    /// Gates of one table file `path`, checked as it is now.
    fn checked(path: &Path) -> Arc<Gates> {
        let file = TableFile::named(path).unwrap();
        let (opened, _) = files::open_regular(path).unwrap();
        let id = FileId::of(&opened).unwrap();
        let gates = HashMap::from([(path.to_path_buf(), Gate::Checked { file, id })]);
        Arc::new(Gates::new(gates, None))
    }

    /// Header reads come from the bytes read ahead, in any order and across chunks, and
    /// equal the file's; so do reads past the end and reads after the header is dropped.
    #[test]
    fn header_reads_from_memory_equal_the_files_bytes() {
        let dir = temp_dir("head");
        let path = dir.join("KQvK.rtbw");
        let bytes: Vec<u8> = (0..10_000u32).map(|i| (i * 7 + i / 251) as u8).collect();
        fs::write(&path, &bytes).unwrap();
        let file = RegularFiles {
            gates: checked(&path),
        }
        .open(&path)
        .unwrap();
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

    /// A checked file replaced by another after its check (a new inode, here a new size) is
    /// not opened: the gate turns pending again and asks for the new file's checksum; a path
    /// no gate knows is never opened.
    #[test]
    fn a_file_replaced_after_its_check_is_not_opened_before_it_is_checked_again() {
        let dir = temp_dir("replaced");
        let path = dir.join("KQvK.rtbw");
        fs::write(&path, [1u8; 80]).unwrap();
        let files = RegularFiles {
            gates: checked(&path),
        };
        assert!(files.open(&path).is_ok());
        let other = dir.join("other");
        fs::write(&other, [2u8; 144]).unwrap();
        fs::rename(&other, &path).unwrap();
        let err = files
            .open(&path)
            .err()
            .expect("the replaced file was opened");
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
        assert_eq!(files.gates.pending(), 1);
        assert_eq!(lock(&files.gates.queue).len(), 1);
        // Asked once however often it is opened.
        assert!(files.open(&path).is_err());
        assert_eq!(lock(&files.gates.queue).len(), 1);
        assert!(files.open(&dir.join("KRvK.rtbw")).is_err());
        let _ = fs::remove_dir_all(&dir);
    }
}
