//! One rule for every file Cutoff reads (a net, a tablebase, a data chunk, an EPD suite, a
//! tree): it must be a regular file (symlinks followed; a pipe, a device or a folder is
//! refused before a byte is read, so `/dev/zero` cannot grow memory and a FIFO cannot hang the
//! engine), its size is bounded before reading, and every error names the path and the reason
//! in plain words ("no such file or directory", "a named pipe, not a regular file").
//!
//! Opening never blocks: the file is opened non-blocking and checked with `fstat` on the open
//! descriptor, so a FIFO put in a file's place between a check and the open is refused too.
//!
//! Every file Cutoff writes follows one rule too, in two forms. A file written whole (a net, the
//! tuned weights, an HTML page, an SVG) is checked before the long work that makes it
//! ([`check_output`]: an existing path that is not a regular file is refused, and its folder must
//! take a new file) and written by [`write_whole`] to a temporary file in its folder, renamed
//! over the path: a failure leaves the old file, never half a new one, and a pipe or a device in
//! its place is never opened. A file appended to as work goes on (a data chunk, its MANIFEST)
//! cannot be renamed into place; it is opened by [`open_append`], non-blocking and checked on the
//! descriptor like a file read, so a pipe in its place is refused at once instead of blocking
//! the `open` (where no signal ends the wait). Every error names the path.
//!
//! What an output may replace, the same for both forms and for every command (`existing_output`):
//! - **Never through a symbolic link.** A link at the output path is refused, naming it (and
//!   where it points): writing "the file behind it" put a new file there with the writer's
//!   mode and owner (600 became 644), and a link planted in a shared folder would aim a
//!   command at any file its user may write. A link among the folders above is followed as
//!   ever (the user chose the path). Appending opens with `O_NOFOLLOW` too, so a link put there
//!   after the check is refused by the kernel.
//! - **Never over a file its user could not write in place.** A rename needs only the folder's
//!   permission, so by itself it would let anyone who may write a folder replace any file in
//!   it, and make it theirs. An existing file is replaced only where (1) the kernel grants the
//!   user write access to the file itself (`faccessat(W_OK, AT_EACCESS)`: its mode, its ACL, a
//!   read-only mount); (2) its mode lets someone write it: root passes (1) for every file, and
//!   a file made read-only (`chmod a-w`) is kept from root too, as editors do; (3) in a folder
//!   anyone may write that is sticky (`/tmp`), it belongs to the user or to the folder's owner:
//!   the kernel's own rule for opening such a file (`fs.protected_regular`), which a rename
//!   over it, and root, would otherwise pass.
//! - A replaced file keeps its permission bits, and its owner and group where the system lets
//!   the writer give them (root; a group the user is in): it is the same file, new contents.
//! - Two outputs of one run naming one file are refused ([`check_distinct_outputs`]), however
//!   the path is spelt: the second would replace the first without a word.
//! - The temporary file's name does not grow with the output's (`.cutoff-<pid>-<n>.tmp`, at
//!   most 35 bytes), so it fits wherever the output's name fits: one of 244 to 255 bytes was
//!   refused as too long when the temporary name was the output's name and 6 to 13 bytes more.

use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The reason of an I/O error in plain words (the OS's text without "(os error N)").
pub fn reason(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::NotFound => "no such file or directory".into(),
        ErrorKind::PermissionDenied => "permission denied".into(),
        ErrorKind::IsADirectory => "a directory, not a regular file".into(),
        _ => {
            let text = e.to_string();
            match text.find(" (os error") {
                Some(i) => text[..i].to_string(),
                None => text,
            }
        }
    }
}

/// What kind of thing a non-regular file is, for the error.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let ft = meta.file_type();
    if ft.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a named pipe";
        }
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

/// Opens `path` for reading if it is a regular file (following symlinks), without ever
/// blocking, and returns it with its size. The error is `"<path>: <reason>"`.
pub fn open_regular(path: &Path) -> Result<(File, u64), String> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    let (file, meta) = open_nonblocking_regular(path, &mut options, false)?;
    Ok((file, meta.len()))
}

/// Opens `path` with `options` and `O_NONBLOCK`, then refuses anything but a regular file by
/// the open descriptor's type. A FIFO opened for reading blocks until a writer comes, and one
/// opened for writing until a reader comes (non-blocking with no reader it fails with ENXIO):
/// non-blocking it opens at once, or fails, and the type check refuses it. On a regular file
/// the flag changes nothing. `no_follow` (an output's open) adds `O_NOFOLLOW`: a link at the
/// path fails the open itself, named as a link.
fn open_nonblocking_regular(
    path: &Path,
    options: &mut std::fs::OpenOptions,
    no_follow: bool,
) -> Result<(File, std::fs::Metadata), String> {
    let named = |why: String| format!("{}: {why}", path.display());
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let follow = if no_follow { libc::O_NOFOLLOW } else { 0 };
        options.custom_flags(libc::O_NONBLOCK | follow);
    }
    #[cfg(not(unix))]
    let _ = no_follow;
    let file = options.open(path).map_err(|e| {
        #[cfg(unix)]
        if no_follow && e.raw_os_error() == Some(libc::ELOOP) {
            return named("a symbolic link: outputs are never written through a link".into());
        }
        named(reason(&e))
    })?;
    let meta = file.metadata().map_err(|e| named(reason(&e)))?;
    if !meta.is_file() {
        return Err(named(format!("{}, not a regular file", kind_of(&meta))));
    }
    Ok((file, meta))
}

/// Checks without opening that `path` names a regular file (following symlinks): for files
/// that a library opens itself (the tablebases).
pub fn check_regular(path: &Path) -> Result<u64, String> {
    let meta =
        std::fs::metadata(path).map_err(|e| format!("{}: {}", path.display(), reason(&e)))?;
    if meta.is_file() {
        Ok(meta.len())
    } else {
        Err(format!(
            "{}: {}, not a regular file",
            path.display(),
            kind_of(&meta)
        ))
    }
}

/// The whole of the regular file `path`, refused unread when it is larger than `max` bytes
/// (`what` names the kind of file in that error: "a net file"). The read itself is bounded
/// too, so a file that grows after the size check still costs at most `max + 1` bytes.
pub fn read_bounded(path: &Path, max: u64, what: &str) -> Result<Vec<u8>, String> {
    let (file, len) = open_regular(path)?;
    let too_big = |len: u64| {
        format!(
            "{}: {len} bytes, more than {what} can be ({max} bytes at most)",
            path.display()
        )
    };
    if len > max {
        return Err(too_big(len));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {}", path.display(), reason(&e)))?;
    if bytes.len() as u64 > max {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The largest suite file [`read_lines`] reads: far above any real suite, and a bound on the
/// memory that reading an endless input (`/dev/zero`, a FIFO) could take.
pub const MAX_SUITE_BYTES: u64 = 256 << 20;

/// The lines of a text file (an EPD or perft suite, a list of FENs, datagen's openings) with
/// their 1-based numbers. Refuses what is not a regular file, files over [`MAX_SUITE_BYTES`]
/// and files that are not UTF-8, saying where the bad byte is; every error names the path.
pub fn read_lines(path: &Path) -> Result<Vec<(usize, String)>, String> {
    let bytes = read_bounded(path, MAX_SUITE_BYTES, "a suite file")?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (bad byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect())
}

/// What is at an output path before it is written: `None` when nothing is, the metadata of a
/// regular file the user may replace (the rule of the module documentation), or the error
/// refusing anything else: a link (dangling or not), a folder, a pipe, a device, a file the
/// user could not write.
fn existing_output(path: &Path) -> Result<Option<std::fs::Metadata>, String> {
    let named = |why: String| format!("{}: {why}", path.display());
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(named(reason(&e))),
    };
    if meta.file_type().is_symlink() {
        let to = std::fs::read_link(path).map_or_else(
            |_| "somewhere unreadable".into(),
            |t| t.display().to_string(),
        );
        return Err(named(format!(
            "a symbolic link (to {to}): outputs are never written through a link; name the \
             file itself"
        )));
    }
    if !meta.is_file() {
        return Err(named(format!("{}, not a regular file", kind_of(&meta))));
    }
    may_replace(path, &meta).map_err(named)?;
    Ok(Some(meta))
}

/// Whether the user may replace the existing regular file `path` (rules 1 to 3 of the module
/// documentation); the error is the reason, without the path.
#[cfg(unix)]
fn may_replace(path: &Path, meta: &std::fs::Metadata) -> Result<(), String> {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::MetadataExt;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| "a path with a NUL byte in it".to_string())?;
    // SAFETY: `c_path` is a valid NUL-terminated path that outlives the call; `faccessat` only
    // reads it, and `AT_FDCWD` names the current folder.
    let granted = unsafe {
        libc::faccessat(
            libc::AT_FDCWD,
            c_path.as_ptr(),
            libc::W_OK,
            libc::AT_EACCESS,
        )
    } == 0;
    if !granted {
        let e = std::io::Error::last_os_error();
        return Err(format!(
            "{}: the file is not writable by you, and an output replaces only a file its user \
             could write",
            reason(&e)
        ));
    }
    let mode = meta.mode() & 0o7777;
    if mode & 0o222 == 0 {
        return Err(format!(
            "read-only (mode {mode:04o}): the file is not writable by anyone, and an output \
             replaces only a file its user could write (root too); make it writable (chmod u+w) \
             to have it replaced"
        ));
    }
    // SAFETY: `geteuid` has no preconditions and cannot fail.
    let user = unsafe { libc::geteuid() };
    let folder = folder_of(path);
    if let Ok(dir) = std::fs::metadata(folder) {
        let shared_sticky = dir.mode() & 0o1002 == 0o1002;
        if shared_sticky && meta.uid() != user && meta.uid() != dir.uid() {
            return Err(format!(
                "belongs to user {} in {}, a sticky folder anyone may write: a file there is \
                 replaced only by its owner or the folder's (the kernel's protected_regular \
                 rule)",
                meta.uid(),
                folder.display()
            ));
        }
    }
    Ok(())
}

/// Elsewhere the permission bits are the whole rule: a read-only file is not replaced.
#[cfg(not(unix))]
fn may_replace(_path: &Path, meta: &std::fs::Metadata) -> Result<(), String> {
    if meta.permissions().readonly() {
        return Err("read-only: an output replaces only a file its user could write".into());
    }
    Ok(())
}

/// The folder a file at `path` goes into (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// A new temporary file's path in `folder`: `.cutoff-<pid>-<n>.tmp`, `n` counting this
/// process's temporary files, so that two writers at once never share one. At most 35 bytes
/// whatever the output's name.
fn temporary_path(folder: &Path) -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    folder.join(format!(".cutoff-{}-{n}.tmp", std::process::id()))
}

/// Checks, before the work that makes it, that a file can be written at `path` as
/// [`write_whole`] and [`open_append`] will: nothing there or a regular file the user may
/// replace (no link; a folder, a pipe, a device is refused), and a folder that exists and takes
/// a new file (tried with a probe file, removed at once). The error is `"<path>: <reason>"`.
pub fn check_output(path: &Path) -> Result<(), String> {
    existing_output(path)?;
    let dir = folder_of(path);
    let shown = path.display();
    let meta = std::fs::metadata(dir)
        .map_err(|e| format!("{shown}: its folder {}: {}", dir.display(), reason(&e)))?;
    if !meta.is_dir() {
        return Err(format!("{shown}: {} is not a folder", dir.display()));
    }
    let probe = temporary_path(dir);
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| format!("{shown}: cannot write in {}: {}", dir.display(), reason(&e)))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// The file an output path names, for comparing two: its folder resolved (links, `.`, `..`)
/// and its name; `None` where the folder cannot be resolved ([`check_output`] refuses those).
fn output_identity(path: &Path) -> Option<std::path::PathBuf> {
    let folder = std::fs::canonicalize(folder_of(path)).ok()?;
    Some(folder.join(path.file_name()?))
}

/// Refuses two of one run's outputs (`(flag, path)`, the flags as the user gave them) that name
/// the same file, however spelt (`F`, `./F`, `d/../F`, through a linked folder): the second
/// would silently replace the first. The error is `"<flag> <path>: the same file as <flag>
/// <path>: ..."`.
pub fn check_distinct_outputs(outputs: &[(&str, &Path)]) -> Result<(), String> {
    for (i, (flag, path)) in outputs.iter().enumerate() {
        let Some(file) = output_identity(path) else {
            continue;
        };
        let earlier = outputs[..i]
            .iter()
            .find(|(_, other)| output_identity(other).as_ref() == Some(&file));
        if let Some((other_flag, other)) = earlier {
            return Err(format!(
                "{flag} {}: the same file as {other_flag} {}: each output of a run needs a file \
                 of its own",
                path.display(),
                other.display()
            ));
        }
    }
    Ok(())
}

/// Writes `bytes` as the whole of the file `path`: into a new temporary file in its folder
/// (the one the old file keeps its permission bits, and its owner and group where the system
/// allows), synced, then renamed over `path`. What `existing_output` refuses (a link, a
/// folder, a pipe, a file the user could not write) is refused unopened; on any failure the
/// temporary file is removed and `path` is as it was. The error is `"<path>: <reason>"`.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let named = |why: String| format!("{}: {why}", path.display());
    let old = existing_output(path)?;
    let tmp = temporary_path(folder_of(path));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| {
            if let Some(old) = &old {
                keep_attributes(&f, old)?;
            }
            f.write_all(bytes)?;
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        named(reason(&e))
    })
}

/// Gives the new file `f` the replaced file's owner and group (where the system allows: as
/// root, or a group the user is in; elsewhere the kernel's refusal is the answer, and the file
/// is the writer's as any file it makes), then its permission bits (after the owner, whose
/// change may clear set-id bits; those are not copied: a rewritten file is not to run as its
/// old owner).
fn keep_attributes(f: &File, old: &std::fs::Metadata) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let mine = f.metadata()?;
        if (mine.uid(), mine.gid()) != (old.uid(), old.gid()) {
            // Best effort: the owner first, then the group alone (which a member may give).
            if std::os::unix::fs::fchown(f, Some(old.uid()), Some(old.gid())).is_err() {
                let _ = std::os::unix::fs::fchown(f, None, Some(old.gid()));
            }
        }
        f.set_permissions(std::fs::Permissions::from_mode(old.mode() & 0o777))
    }
    #[cfg(not(unix))]
    {
        f.set_permissions(old.permissions())
    }
}

/// Opens `path` to append to it, creating it if `create` (then the bool is true: the caller
/// made it, and may remove it if nothing goes into it), without ever blocking: a pipe, a device
/// or a folder in its place is refused, a link too (checked, then `O_NOFOLLOW`), and a file the
/// user could not write. `read` opens it for reading too (to check what it holds before going
/// on). The error is `"<path>: <reason>"`.
pub fn open_append(path: &Path, create: bool, read: bool) -> Result<(File, bool), String> {
    let existed = existing_output(path)?.is_some();
    let mut options = std::fs::OpenOptions::new();
    options.read(read).append(true).create(create);
    let (file, _) = open_nonblocking_regular(path, &mut options, true)?;
    Ok((file, !existed))
}

/// An empty folder of this process for a unit test, `cutoff-<module>-<pid>-<name>` under the
/// system's temporary folder (emptied first if a crashed run left it).
#[cfg(test)]
pub(crate) fn fresh_test_dir(module: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-{module}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("cutoff-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn a_missing_file_is_named_with_no_such_file_or_directory() {
        let path = temp("missing.nnue");
        let e = read_bounded(&path, 10, "a net file").unwrap_err();
        assert!(e.contains("missing.nnue: no such file or directory"), "{e}");
    }

    #[test]
    fn a_folder_is_refused_as_not_a_regular_file() {
        let dir = temp("folder");
        std::fs::create_dir_all(&dir).unwrap();
        let e = read_bounded(&dir, 10, "a net file").unwrap_err();
        assert!(e.contains("folder: a directory, not a regular file"), "{e}");
        let e = check_regular(&dir).unwrap_err();
        assert!(e.contains("folder: a directory, not a regular file"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn dev_zero_is_refused_before_a_byte_is_read() {
        let e = read_bounded(Path::new("/dev/zero"), 1 << 20, "a net file").unwrap_err();
        assert!(e.contains("a character device, not a regular file"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn a_named_pipe_is_refused_without_blocking() {
        let path = temp("pipe");
        let _ = std::fs::remove_file(&path);
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_bounded(&path, 10, "a net file").unwrap_err();
        assert!(e.contains("a named pipe, not a regular file"), "{e}");
        let _ = std::fs::remove_file(&path);
    }

    #[cfg(unix)]
    #[test]
    fn an_output_that_is_a_named_pipe_is_refused_unopened_by_every_writer() {
        let path = temp("out-pipe");
        let _ = std::fs::remove_file(&path);
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // Each would block in `open` (no reader) if it opened the pipe to write.
        let errors = [
            check_output(&path).unwrap_err(),
            write_whole(&path, b"x").unwrap_err(),
            open_append(&path, true, false).unwrap_err(),
        ];
        for e in errors {
            assert!(
                e.contains("out-pipe: a named pipe, not a regular file"),
                "{e}"
            );
        }
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_whole_write_replaces_the_file_and_leaves_no_temporary_file() {
        let dir = fresh_test_dir("files", "whole");
        let path = dir.join("page.html");
        std::fs::write(&path, b"old").unwrap();
        check_output(&path).unwrap();
        write_whole(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "a temporary or probe file left: {names:?}");
        // Into a folder that does not exist: refused, naming the path.
        let e = write_whole(&dir.join("no/page.html"), b"x").unwrap_err();
        assert!(e.contains("no such file or directory"), "{e}");
        let e = check_output(&dir.join("no/page.html")).unwrap_err();
        assert!(e.contains("no such file or directory"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Two spellings of one file are one output: `d/F`, `d/./F`, `d/sub/../F` and `F` through
    /// a link to `d`; another name in the same folder is another output.
    #[cfg(unix)]
    #[test]
    fn two_spellings_of_one_output_file_are_refused_as_the_same_file() {
        let dir = fresh_test_dir("files", "same-output");
        std::fs::create_dir(dir.join("sub")).unwrap();
        std::os::unix::fs::symlink(&dir, dir.join("link")).unwrap();
        let f = dir.join("F");
        for other in [
            dir.join("F"),
            dir.join("./F"),
            dir.join("sub/../F"),
            dir.join("link/F"),
        ] {
            let e = check_distinct_outputs(&[("--svg", &f), ("--html", &other)]).unwrap_err();
            assert!(
                e.contains("the same file as --svg"),
                "{}: {e}",
                other.display()
            );
        }
        assert!(check_distinct_outputs(&[("--svg", &f), ("--html", &dir.join("G"))]).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The temporary file's name does not grow with the output's: a name of 255 bytes (the most
    /// Linux filesystems take) is written.
    #[test]
    fn the_temporary_name_is_short_whatever_the_outputs_name() {
        let dir = fresh_test_dir("files", "long-name");
        let name = temporary_path(&dir);
        assert!(name.file_name().unwrap().len() <= 35, "{}", name.display());
        let long = dir.join("n".repeat(255));
        write_whole(&long, b"x").unwrap();
        assert_eq!(std::fs::read(&long).unwrap(), b"x");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_over_the_bound_is_refused_and_one_within_it_read_whole() {
        let path = temp("eleven");
        std::fs::write(&path, b"hello world").unwrap();
        let e = read_bounded(&path, 10, "a net file").unwrap_err();
        assert!(
            e.contains("11 bytes, more than a net file can be (10 bytes at most)"),
            "{e}"
        );
        assert_eq!(read_bounded(&path, 11, "x").unwrap(), b"hello world");
    }
}
