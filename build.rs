//! Names the commit a binary was built from, for `cutoff --version`: `CUTOFF_COMMIT` is
//! `git rev-parse --short HEAD`, or `unknown` where there is no git or no repository (a source
//! tarball must still build). Cargo reruns this when HEAD or the branch it names moves.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `git <args>` in the package's folder, its output trimmed; `None` if git is missing or fails.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// A path git printed, relative to the package's folder unless absolute.
fn git_path(args: &[&str]) -> Option<PathBuf> {
    let path = PathBuf::from(git(args)?);
    Some(if path.is_absolute() {
        path
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
    })
}

fn main() {
    let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=CUTOFF_COMMIT={commit}");
    println!("cargo:rerun-if-changed=build.rs");
    // What moves when a commit is made or checked out: HEAD (in a worktree, its own), the
    // branch HEAD names (under the repository's common folder) and the packed refs. Only files
    // that exist are named: cargo reruns every build for a path that is missing.
    let mut watched = Vec::new();
    if let Some(dir) = git_path(&["rev-parse", "--git-dir"]) {
        watched.push(dir.join("HEAD"));
    }
    if let Some(common) = git_path(&["rev-parse", "--git-common-dir"]) {
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watched.push(common.join(branch));
        }
        watched.push(common.join("packed-refs"));
    }
    for path in watched.iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
