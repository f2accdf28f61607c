//! `cutoff syzygy verify PATH...`: every table file put through the whole check the engine
//! puts it through before probing it ([`Tablebases::verify_file`]: its name, size, magic,
//! material, the size its header's layout allows, and its embedded checksum as the
//! generator's `tbcheck` computes it), so that a file passes here exactly when the engine
//! would use it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::files;
use crate::tablebase::Tablebases;

/// Command-line arguments of `cutoff syzygy`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// What `cutoff syzygy` does.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Check each table file as the engine does before it probes it (its name, size, magic
    /// bytes, material, its header's layout and its embedded checksum, as the generator's
    /// `tbcheck` computes it): prints `PATH: OK` for each good file, names each refused one in
    /// an error with the reason, and exits non-zero if any failed.
    Verify {
        /// Table files, or folders whose `.rtbw` and `.rtbz` files are all checked.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
}

/// `cutoff syzygy`.
pub fn run(args: Args) -> ExitCode {
    match args.command {
        Command::Verify { paths } => verify(&paths),
    }
}

/// Checks every table file of `paths`; a path that cannot be read, or a folder without tables,
/// is a failure too.
fn verify(paths: &[PathBuf]) -> ExitCode {
    let (mut checked, mut failed, mut unread) = (0usize, 0usize, 0usize);
    for path in paths {
        let files = match table_files(path) {
            Ok(files) => files,
            Err(e) => {
                eprintln!("error: {e}");
                unread += 1;
                continue;
            }
        };
        for file in files {
            checked += 1;
            match Tablebases::verify_file(&file) {
                Ok(()) => println!("{}: OK", file.display()),
                Err(e) => {
                    eprintln!("error: {e}");
                    failed += 1;
                }
            }
        }
    }
    match unread {
        0 => println!("{checked} files checked, {failed} failed"),
        _ => println!("{checked} files checked, {failed} failed, {unread} paths not read"),
    }
    if failed == 0 && unread == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `path` itself, or the `.rtbw` and `.rtbz` files of the folder `path` in name order.
fn table_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    let named = |why: String| format!("{}: {why}", path.display());
    let meta = fs::metadata(path).map_err(|e| named(files::reason(&e)))?;
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries = fs::read_dir(path).map_err(|e| named(files::reason(&e)))?;
    let mut tables: Vec<PathBuf> = entries
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rtbw" || x == "rtbz"))
        .collect();
    if tables.is_empty() {
        return Err(named(
            "no Syzygy table (.rtbw, .rtbz) in this folder".into(),
        ));
    }
    tables.sort();
    Ok(tables)
}
