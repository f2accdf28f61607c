//! Going on from a checkpoint (`--resume`): the latest one in the checkpoint folder, read and
//! checked before the data is loaded, then held to the recipe the run started with; or, for a
//! new run, a fresh net and the fitted (or given) `K`. What the run should say but that does
//! not stop it (an old checkpoint, a `K` not to be trusted) goes to a `warn` callback.

use std::path::PathBuf;

use super::checkpoint::{self, Checkpoint};
use super::data::Loaded;
use super::recipe::{self, Recipe};
use super::{fit_k, k_fit_warning, k_in_range, TrainState, MAX_K};

/// A checkpoint to go on from, and its path.
pub struct Resumed {
    pub path: PathBuf,
    pub checkpoint: Checkpoint,
}

/// With `resume`, the latest checkpoint in the checkpoint folder, read and checked before the
/// data is loaded (its checksum, its numbers, its shape against `hidden` and `buckets`, its `K`
/// against what `--k` takes). A folder that holds none is refused, naming it: it trained from
/// scratch, and a user who asked to go on from a run would not have asked for a new one.
pub fn resume_point(
    recipe: &Recipe,
    warn: &mut impl FnMut(String),
) -> Result<Option<Resumed>, String> {
    let (true, Some(dir)) = (recipe.resume, recipe.checkpoint.as_deref()) else {
        return Ok(None);
    };
    let path = checkpoint::latest(dir)
        .map_err(|e| format!("--resume: {e}: no checkpoint to go on from"))?
        .ok_or_else(|| {
            format!(
                "--resume: no checkpoint (epoch-NNNN.ckpt) in {}: nothing to go on from (leave \
                 out --resume to start a new run there)",
                dir.display()
            )
        })?;
    let checkpoint = checkpoint::load(&path)?;
    let shown = path.display();
    let net = &checkpoint.state.net;
    if net.hidden != recipe.hidden {
        return Err(format!(
            "{shown} has {} neurons, --hidden is {}",
            net.hidden, recipe.hidden
        ));
    }
    if net.buckets != recipe.buckets {
        return Err(format!(
            "{shown} has {} output buckets, --output-buckets is {}",
            net.buckets, recipe.buckets
        ));
    }
    if !k_in_range(checkpoint.k) {
        return Err(format!(
            "{shown}: damaged: K is {}, outside what --k takes (a number above 0 and at most \
             {MAX_K})",
            checkpoint.k
        ));
    }
    if !checkpoint.checksummed() {
        // Kept loading so that a run started under an older build goes on under this one.
        warn(format!(
            "{shown} was written before checkpoints carried a checksum (version {}): its bytes \
             cannot be checked, only its shape and its numbers (all finite); going on from it",
            checkpoint.version
        ));
    }
    Ok(Some(Resumed { path, checkpoint }))
}

/// Where a run starts.
pub struct Start {
    pub state: TrainState,
    /// The scale of the target (centipawns).
    pub k: f64,
    /// The checkpoint it goes on from; `None` for a new run.
    pub from: Option<PathBuf>,
}

/// The starting state and `K`: the checkpoint [`resume_point`] found (refused if it was
/// trained to another recipe than `record`), else a fresh net and the fitted (or given) `K`.
pub fn start_state(
    recipe: &Recipe,
    loaded: &Loaded,
    record: &str,
    resumed: Option<Resumed>,
    warn: &mut impl FnMut(String),
) -> Result<Start, String> {
    if let Some(Resumed { path, checkpoint }) = resumed {
        let Checkpoint {
            state,
            k,
            recipe: recorded,
            ..
        } = checkpoint;
        match recorded {
            Some(recorded) => {
                let differences = recipe::differences(&recorded, record);
                if !differences.is_empty() {
                    return Err(format!(
                        "{} was trained under another recipe, and a resumed run goes on as the \
                         unbroken one only under its own (the same flags, the same data): {}",
                        path.display(),
                        differences.join("; ")
                    ));
                }
            }
            None => warn(format!(
                "{} records no recipe (written before checkpoint version 3): going on under the \
                 flags and data given, unchecked",
                path.display()
            )),
        }
        let mut state = state;
        // The recipes agree, `--inputs` among them: the net goes on in its layout, whose
        // input rows the file must have.
        if state.net.layout.inputs() != recipe.inputs.inputs() {
            return Err(format!(
                "{} holds a net of {} input rows, and --inputs {} has {}",
                path.display(),
                state.net.layout.inputs(),
                recipe.inputs.name(),
                recipe.inputs.inputs()
            ));
        }
        state.net.layout = recipe.inputs;
        return Ok(Start {
            state,
            k,
            from: Some(path),
        });
    }
    let k = match recipe.k {
        Some(k) => k,
        None => {
            let k = fit_k(&loaded.train);
            // A mirror has its original's score and result: it tells the fit nothing new.
            let played = loaded.train.len() / if recipe.mirrored { 2 } else { 1 };
            if let Some(warning) = k_fit_warning(played, k) {
                warn(warning);
            }
            k
        }
    };
    let state = TrainState::of_layout(recipe.inputs, recipe.hidden, recipe.buckets, recipe.seed);
    Ok(Start {
        state,
        k,
        from: None,
    })
}
