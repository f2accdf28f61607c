//! One rule for every file Cutoff reads (a net, a tablebase, a data chunk, an EPD suite, a
//! tree): it must be a regular file (symlinks followed; a pipe, a device or a folder is
//! refused before a byte is read, so `/dev/zero` cannot grow memory and a FIFO cannot hang the
//! engine), its size is bounded before reading, and every error names the path and the reason
//! in plain words ("no such file or directory", "a named pipe, not a regular file").
//!
//! Opening never blocks: the file is opened non-blocking and checked with `fstat` on the open
//! descriptor, so a FIFO put in a file's place between a check and the open is refused too.

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
    let named = |why: String| format!("{}: {why}", path.display());
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A FIFO opened for reading blocks until a writer comes; non-blocking it opens at once
        // and the type check below refuses it. On a regular file the flag changes nothing.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| named(reason(&e)))?;
    let meta = file.metadata().map_err(|e| named(reason(&e)))?;
    if !meta.is_file() {
        return Err(named(format!("{}, not a regular file", kind_of(&meta))));
    }
    Ok((file, meta.len()))
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
