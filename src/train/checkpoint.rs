//! Float checkpoints: the net, AdamW's moments, the step and epoch counts and `K`, one file per
//! epoch (`epoch-0007.ckpt`), so that a stopped run goes on from its last finished epoch exactly
//! as it would have run (the shuffle, the learning rate and λ depend only on the seed, the epoch
//! and the step, given the same recipe). Little-endian: magic `CUTOFFCK`, version u32 (3), hidden
//! u32, epoch u32, step u64, K f64, output buckets u32, the recipe's length u32 and its UTF-8
//! text (one `name value` line per setting that shapes the run: the schedule, the target, the
//! seed, the data's filter and counts), then the parameters, `m` and `v` as f32. The recipe is
//! there because a run resumed under other flags, or on data that has grown, would not go on as
//! it would have; the command compares it with its own and refuses a difference. Version 2 (no
//! recipe) and version 1 (before output buckets: no bucket field either, one bucket) still load.

use std::path::{Path, PathBuf};

use super::net::Net;
use super::TrainState;
use crate::eval::nnue::format;

const MAGIC: &[u8; 8] = b"CUTOFFCK";
const VERSION: u32 = 3;
/// Version 1's header: the same fields but the bucket count.
const V1_HEADER_BYTES: usize = 8 + 4 + 4 + 4 + 8 + 8;
/// Version 2's: the bucket count added.
const V2_HEADER_BYTES: usize = V1_HEADER_BYTES + 4;
/// Version 3's fixed part: the recipe's length added (its text follows).
const HEADER_BYTES: usize = V2_HEADER_BYTES + 4;
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
    let mut out = Vec::with_capacity(HEADER_BYTES + recipe.len() + 12 * p);
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
    let path = path_for(dir, state.epoch);
    crate::files::write_whole(&path, &out).map_err(|e| format!("cannot write {e}"))?;
    Ok(path)
}

/// Reads a checkpoint.
pub fn load(path: &Path) -> Result<Checkpoint, String> {
    // The largest checkpoint there can be: the longest recipe, the float net and AdamW's two
    // moments at the most neurons and buckets the net format takes.
    let max = HEADER_BYTES
        + MAX_RECIPE_BYTES
        + 12 * Net::param_count(format::MAX_HIDDEN, format::OUTPUT_BUCKETS);
    let bytes = crate::files::read_bounded(path, max as u64, "a training checkpoint")?;
    let bad = |what: &str| format!("{}: {what}", path.display());
    if bytes.len() < V1_HEADER_BYTES || &bytes[..8] != MAGIC {
        return Err(bad("not a Cutoff training checkpoint"));
    }
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap_or([0; 4]));
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or([0; 8]));
    let cut = || bad("cut or damaged (wrong size)");
    let (header, buckets, recipe) = match u32_at(8) {
        1 => (V1_HEADER_BYTES, 1, None),
        2 if bytes.len() >= V2_HEADER_BYTES => (V2_HEADER_BYTES, u32_at(36) as usize, None),
        VERSION if bytes.len() >= HEADER_BYTES => {
            let len = u32_at(40) as usize;
            if len > MAX_RECIPE_BYTES || bytes.len() < HEADER_BYTES + len {
                return Err(cut());
            }
            let text = std::str::from_utf8(&bytes[HEADER_BYTES..HEADER_BYTES + len])
                .map_err(|_| bad("damaged (its recipe is not text)"))?;
            (
                HEADER_BYTES + len,
                u32_at(36) as usize,
                Some(text.to_string()),
            )
        }
        2 | VERSION => return Err(cut()),
        v => {
            return Err(bad(&format!(
                "checkpoint version {v} (this build reads 1 to {VERSION})"
            )))
        }
    };
    let hidden = u32_at(12) as usize;
    // A run resumed from it would write nets of this shape: one the engine loads, or none.
    format::check_hidden(hidden).map_err(|e| bad(&format!("a net of {e}")))?;
    format::check_buckets(buckets).map_err(|e| bad(&format!("a net of {e}")))?;
    let p = Net::param_count(hidden, buckets);
    if bytes.len() != header + 12 * p {
        return Err(cut());
    }
    let floats: Vec<f32> = bytes[header..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let state = TrainState {
        net: Net {
            hidden,
            buckets,
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
    })
}

/// The checkpoint of the most epochs in `dir`, if any.
pub fn latest(dir: &Path) -> Option<PathBuf> {
    let entries = std::fs::read_dir(dir).ok()?;
    entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e == "ckpt")
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("epoch-"))
        })
        .max()
}
