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
    let (file, meta) = open_nonblocking_regular(path, &mut options)?;
    Ok((file, meta.len()))
}

/// Opens `path` with `options` and `O_NONBLOCK`, then refuses anything but a regular file by
/// the open descriptor's type. A FIFO opened for reading blocks until a writer comes, and one
/// opened for writing until a reader comes (non-blocking with no reader it fails with ENXIO):
/// non-blocking it opens at once, or fails, and the type check refuses it. On a regular file
/// the flag changes nothing.
fn open_nonblocking_regular(
    path: &Path,
    options: &mut std::fs::OpenOptions,
) -> Result<(File, std::fs::Metadata), String> {
    let named = |why: String| format!("{}: {why}", path.display());
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| named(reason(&e)))?;
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

/// What is at an output path before it is written: `None` when nothing is (or a dangling link),
/// the metadata of a regular file (links followed), or the error refusing anything else.
fn existing_output(path: &Path) -> Result<Option<std::fs::Metadata>, String> {
    let named = |why: String| format!("{}: {why}", path.display());
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(Some(meta)),
        Ok(meta) => Err(named(format!("{}, not a regular file", kind_of(&meta)))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(named(reason(&e))),
    }
}

/// The folder a file at `path` goes into (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Checks, before the work that makes it, that a file can be written at `path` as
/// [`write_whole`] and [`open_append`] will: nothing there or a regular file (links followed;
/// a folder, a pipe, a device is refused), and a folder that exists and takes a new file (tried
/// with a probe file, removed at once). The error is `"<path>: <reason>"`.
pub fn check_output(path: &Path) -> Result<(), String> {
    existing_output(path)?;
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = folder_of(&target);
    let shown = path.display();
    let meta = std::fs::metadata(dir)
        .map_err(|e| format!("{shown}: its folder {}: {}", dir.display(), reason(&e)))?;
    if !meta.is_dir() {
        return Err(format!("{shown}: {} is not a folder", dir.display()));
    }
    let probe = dir.join(format!(".cutoff-probe-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| format!("{shown}: cannot write in {}: {}", dir.display(), reason(&e)))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Writes `bytes` as the whole of the file `path`: into a new temporary file in its folder
/// (the folder of the file a link points to, so the link stays), synced, then renamed over
/// `path`. An existing path that is not a regular file is refused unopened; on any failure
/// the temporary file is removed and `path` is as it was. The error is `"<path>: <reason>"`.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let named = |why: String| format!("{}: {why}", path.display());
    existing_output(path)?;
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let name = target
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let tmp = folder_of(&target).join(format!(".{name}.tmp-{}", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, &target));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        named(reason(&e))
    })
}

/// Opens `path` to append to it, creating it if `create` (then the bool is true: the caller
/// made it, and may remove it if nothing goes into it), without ever blocking: a pipe, a device
/// or a folder in its place is refused. `read` opens it for reading too (to check what it
/// holds before going on). The error is `"<path>: <reason>"`.
pub fn open_append(path: &Path, create: bool, read: bool) -> Result<(File, bool), String> {
    let existed = existing_output(path)?.is_some();
    let mut options = std::fs::OpenOptions::new();
    options.read(read).append(true).create(create);
    let (file, _) = open_nonblocking_regular(path, &mut options)?;
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
