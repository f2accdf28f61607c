//! Float checkpoints: the net, AdamW's moments, the step and epoch counts and `K`, one file per
//! epoch (`epoch-0007.ckpt`), so that a stopped run goes on from its last finished epoch exactly
//! as it would have run (the shuffle, the learning rate and λ depend only on the seed, the epoch
//! and the step, given the same recipe). Little-endian: magic `CUTOFFCK`, version u32 (4), hidden
//! u32, epoch u32, step u64, K f64, output buckets u32, the recipe's length u32 and its UTF-8
//! text (one `name value` line per setting that shapes the run: the schedule, the target, the
//! seed, the data's filter and counts), then the parameters, `m` and `v` as f32, and last the
//! FNV-1a (64 bits, the net file's checksum) of every byte before it. The recipe is there because
//! a run resumed under other flags, or on data that has grown, would not go on as it would have;
//! the command compares it with its own and refuses a difference.
//!
//! A checkpoint is checked before a run goes on from it: its checksum (any changed byte, a file
//! cut short or grown), its shape (one the engine loads), and its numbers, every weight, moment
//! and `K` finite (`v` not below 0, `K` above 0): a run resumed from a NaN trained a net of zeros,
//! and a flipped byte was taken without a word. Version 3 (no checksum), version 2 (no recipe)
//! and version 1 (before output buckets: no bucket field either, one bucket) still load, their
//! shape and numbers checked: a run started under an older build goes on under this one, and
//! [`Checkpoint::checksummed`] tells the command to say that its bytes could not be checked.

use std::path::{Path, PathBuf};

use super::net::Net;
use super::TrainState;
use crate::eval::nnue::format;

const MAGIC: &[u8; 8] = b"CUTOFFCK";
const VERSION: u32 = 4;
/// Version 1's header: the same fields but the bucket count.
const V1_HEADER_BYTES: usize = 8 + 4 + 4 + 4 + 8 + 8;
/// Version 2's: the bucket count added.
const V2_HEADER_BYTES: usize = V1_HEADER_BYTES + 4;
/// Version 3's fixed part, and version 4's: the recipe's length added (its text follows).
const HEADER_BYTES: usize = V2_HEADER_BYTES + 4;
/// Version 4's checksum after the floats: a u64.
const CHECKSUM_BYTES: usize = 8;
/// The longest recipe a checkpoint may hold: a dozen short lines take a few hundred bytes.
const MAX_RECIPE_BYTES: usize = 1 << 16;

/// What a checkpoint holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub state: TrainState,
    /// The run's `K` (centipawns).
    pub k: f64,
    /// The recipe the run was started with; `None` from a checkpoint written before version 3.
    pub recipe: Option<String>,
    /// The format version it was written in (1 to 4).
    pub version: u32,
}

impl Checkpoint {
    /// Whether its bytes were checked against a checksum (version 4 on): one written before
    /// had only its shape and numbers checked.
    pub fn checksummed(&self) -> bool {
        self.version >= 4
    }
}

/// The file of the checkpoint after `epoch` epochs.
pub fn path_for(dir: &Path, epoch: usize) -> PathBuf {
    dir.join(format!("epoch-{epoch:04}.ckpt"))
}

/// Writes `state` (with the run's `k` and `recipe`) into `dir`, through a temporary file and a
/// rename.
pub fn save(dir: &Path, state: &TrainState, k: f64, recipe: &str) -> Result<PathBuf, String> {
    if recipe.len() > MAX_RECIPE_BYTES {
        return Err(format!(
            "a recipe of {} bytes (a checkpoint holds at most {MAX_RECIPE_BYTES})",
            recipe.len()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let p = state.net.params.len();
    let mut out = Vec::with_capacity(HEADER_BYTES + recipe.len() + 12 * p + CHECKSUM_BYTES);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(state.net.hidden as u32).to_le_bytes());
    out.extend_from_slice(&(state.epoch as u32).to_le_bytes());
    out.extend_from_slice(&state.step.to_le_bytes());
    out.extend_from_slice(&k.to_le_bytes());
    out.extend_from_slice(&(state.net.buckets as u32).to_le_bytes());
    out.extend_from_slice(&(recipe.len() as u32).to_le_bytes());
    out.extend_from_slice(recipe.as_bytes());
    for x in state.net.params.iter().chain(&state.m).chain(&state.v) {
        out.extend_from_slice(&x.to_le_bytes());
    }
    let checksum = format::fnv1a(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    let path = path_for(dir, state.epoch);
    crate::files::write_whole(&path, &out).map_err(|e| format!("cannot write {e}"))?;
    Ok(path)
}

/// Reads a checkpoint and checks it (the module documentation): every error names the path
/// and says what is wrong.
pub fn load(path: &Path) -> Result<Checkpoint, String> {
    // The largest checkpoint there can be: the longest recipe, the float net and AdamW's two
    // moments at the most neurons and buckets the net format takes, and the checksum.
    let max = HEADER_BYTES
        + MAX_RECIPE_BYTES
        + 12 * Net::param_count(
            format::Layout::MirroredKingBuckets,
            format::MAX_HIDDEN,
            format::OUTPUT_BUCKETS,
        )
        + CHECKSUM_BYTES;
    let bytes = crate::files::read_bounded(path, max as u64, "a training checkpoint")?;
    let bad = |what: &str| format!("{}: {what}", path.display());
    if bytes.len() < V1_HEADER_BYTES || &bytes[..8] != MAGIC {
        return Err(bad("not a Cutoff training checkpoint"));
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    let body = if version == VERSION {
        checked_body(&bytes).map_err(|e| bad(&e))?
    } else {
        &bytes[..]
    };
    let checkpoint = parse(body, version).map_err(|e| bad(&e))?;
    check_numbers(&checkpoint).map_err(|e| bad(&format!("damaged: {e}")))?;
    Ok(checkpoint)
}

/// A version 4 file's bytes before its checksum, if the checksum is theirs.
fn checked_body(bytes: &[u8]) -> Result<&[u8], String> {
    if bytes.len() < HEADER_BYTES + CHECKSUM_BYTES {
        return Err("cut or damaged (shorter than its header)".into());
    }
    let (body, stored) = bytes.split_at(bytes.len() - CHECKSUM_BYTES);
    let stored = u64::from_le_bytes(stored.try_into().unwrap_or([0; 8]));
    let computed = format::fnv1a(body);
    if stored != computed {
        return Err(format!(
            "damaged: its checksum (FNV-1a {stored:016x}) is not that of its bytes \
             ({computed:016x}): a byte changed, or the file was cut or grown, since it was written"
        ));
    }
    Ok(body)
}

/// The checkpoint in `bytes` (a version 4 file without its checksum), by the layout of
/// `version`; the error is the reason alone.
fn parse(bytes: &[u8], version: u32) -> Result<Checkpoint, String> {
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap_or([0; 4]));
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or([0; 8]));
    let cut = || "cut or damaged (wrong size)".to_string();
    let (header, buckets, recipe) = match version {
        1 => (V1_HEADER_BYTES, 1, None),
        2 if bytes.len() >= V2_HEADER_BYTES => (V2_HEADER_BYTES, u32_at(36) as usize, None),
        3 | VERSION if bytes.len() >= HEADER_BYTES => {
            let len = u32_at(40) as usize;
            if len > MAX_RECIPE_BYTES || bytes.len() < HEADER_BYTES + len {
                return Err(cut());
            }
            let text = std::str::from_utf8(&bytes[HEADER_BYTES..HEADER_BYTES + len])
                .map_err(|_| "damaged (its recipe is not text)".to_string())?;
            (
                HEADER_BYTES + len,
                u32_at(36) as usize,
                Some(text.to_string()),
            )
        }
        2 | 3 | VERSION => return Err(cut()),
        v => {
            return Err(format!(
                "checkpoint version {v} (this build reads 1 to {VERSION})"
            ))
        }
    };
    let hidden = u32_at(12) as usize;
    // A run resumed from it would write nets of this shape: one the engine loads, or none.
    format::check_hidden(hidden).map_err(|e| format!("a net of {e}"))?;
    format::check_buckets(buckets).map_err(|e| format!("a net of {e}"))?;
    // The input layout is the recipe's (below), but its size shows in the file's: a net of
    // king buckets has four times the input rows of the others.
    let Some((layout, p)) = [format::Layout::Plain, format::Layout::MirroredKingBuckets]
        .into_iter()
        .map(|layout| (layout, Net::param_count(layout, hidden, buckets)))
        .find(|&(_, p)| bytes.len() == header + 12 * p)
    else {
        return Err(cut());
    };
    let floats: Vec<f32> = bytes[header..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let state = TrainState {
        net: Net {
            hidden,
            buckets,
            // Not in the file: its recipe records it, and a resumed run sets it from the recipe
            // it was held to (`resume::start_state`); here plain, or king buckets where the
            // size says so.
            layout,
            params: floats[..p].to_vec(),
        },
        m: floats[p..2 * p].to_vec(),
        v: floats[2 * p..].to_vec(),
        step: u64_at(20),
        epoch: u32_at(16) as usize,
    };
    Ok(Checkpoint {
        state,
        k: f64::from_bits(u64_at(28)),
        recipe,
        version,
    })
}

/// That every number a run goes on from is one: the weights and both moments finite, the
/// second moment (a running mean of squares) not below 0, `K` finite and above 0. The error
/// names the first that is not.
fn check_numbers(c: &Checkpoint) -> Result<(), String> {
    if !(c.k.is_finite() && c.k > 0.0) {
        return Err(format!("K is {} (a finite number above 0)", c.k));
    }
    let state = &c.state;
    for (what, values) in [
        ("weight", &state.net.params),
        ("first moment", &state.m),
        ("second moment", &state.v),
    ] {
        if let Some(i) = values.iter().position(|x| !x.is_finite()) {
            return Err(format!("{what} {i} is {} (not a finite number)", values[i]));
        }
    }
    if let Some(i) = state.v.iter().position(|&x| x < 0.0) {
        return Err(format!(
            "second moment {i} is {} (a mean of squares, never below 0)",
            state.v[i]
        ));
    }
    Ok(())
}

/// That checkpoints can go into `dir`, checked before the first epoch (which would otherwise
/// fail only at its end, its net already written): a folder, or a path whose nearest existing
/// ancestor is a folder ([`save`] creates the rest). A file, a pipe or a device there is
/// refused.
pub fn check_dir(dir: &Path) -> Result<(), String> {
    let shown = dir.display();
    let mut at = dir;
    loop {
        match std::fs::metadata(at) {
            Ok(meta) if meta.is_dir() => return Ok(()),
            Ok(_) if at == dir => return Err(format!("{shown}: exists and is not a folder")),
            Ok(_) => return Err(format!("{shown}: {} is not a folder", at.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("{}: {}", at.display(), crate::files::reason(&e))),
        }
        match at.parent() {
            Some(up) if !up.as_os_str().is_empty() => at = up,
            _ => return Ok(()),
        }
    }
}

/// The checkpoint of the most epochs in `dir` (`epoch-NNNN.ckpt` of the highest number, read
/// as a number: `epoch-10000` comes after `epoch-9999`, which its name sorts before), if any;
/// a folder that cannot be read is an error naming it.
pub fn latest(dir: &Path) -> Result<Option<PathBuf>, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {}", dir.display(), crate::files::reason(&e)))?;
    let epoch_of = |p: &Path| -> Option<u64> {
        let name = p.file_name()?.to_str()?;
        let digits = name.strip_prefix("epoch-")?.strip_suffix(".ckpt")?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok()
    };
    Ok(entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| epoch_of(&p).map(|n| (n, p)))
        .max()
        .map(|(_, p)| p))
}
