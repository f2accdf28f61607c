//! A training run as it was asked for ([`Recipe`]: the command's flags, checked, their
//! defaults filled in), the settings of it that a checkpoint records, and where two records
//! differ: a run resumed under another recipe would not go on as the unbroken one would have.

use std::path::PathBuf;

use super::data::Loaded;
use super::net::Target;
use super::TrainConfig;
use crate::datagen::positions::Filter;
use crate::eval::nnue::format::Layout;

/// What a run does, from the data read to the net written.
#[derive(Clone, Debug, PartialEq)]
pub struct Recipe {
    /// Data files or folders (their `.vf` and `.bin` chunks): every one must hold data.
    pub data: Vec<PathBuf>,
    /// Where the quantised net is written, after every epoch and at the end.
    pub out: PathBuf,
    /// Neurons of the feature transformer, per perspective.
    pub hidden: usize,
    /// Output buckets by piece count.
    pub buckets: usize,
    pub epochs: usize,
    /// Positions per optimizer step.
    pub batch: Batch,
    /// AdamW's learning rate at the start, and where its cosine ends.
    pub lr: f64,
    pub lr_end: f64,
    pub weight_decay: f64,
    /// λ of the first epoch, and of the last where it moves (`None`: flat).
    pub lambda: f64,
    pub lambda_end: Option<f64>,
    /// Seed of the initial weights and of every epoch's shuffle.
    pub seed: u64,
    /// `K` as given; `None`: fitted to the training positions.
    pub k: Option<f64>,
    /// Folder for a float checkpoint after every epoch.
    pub checkpoint: Option<PathBuf>,
    /// Go on from the latest checkpoint in `checkpoint` (checked before the data is read).
    pub resume: bool,
    /// Which positions of the games are kept.
    pub filter: Filter,
    /// At most this many positions (the first in chunk order).
    pub max_positions: Option<usize>,
    /// Every training position's left-right mirror added to the training set (never with
    /// mirrored inputs, where a mirror's inputs are its original's).
    pub mirrored: bool,
    /// How the net's inputs see the board (`--inputs`): what its file says.
    pub inputs: Layout,
}

/// Positions per optimizer step, and whether the user named the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Batch {
    /// `--batch` given: a step must be able to take that many, so a batch larger than the
    /// training positions is refused.
    Named(usize),
    /// The built-in net's: a quick run with fewer positions takes them all in one step.
    Default(usize),
}

impl Batch {
    /// The positions a step takes at most.
    pub fn size(self) -> usize {
        match self {
            Batch::Named(n) | Batch::Default(n) => n,
        }
    }
}

impl Recipe {
    /// The trainer's settings, with `k` the scale the run settled on.
    pub fn config(&self, k: f64) -> TrainConfig {
        TrainConfig {
            hidden: self.hidden,
            buckets: self.buckets,
            epochs: self.epochs,
            batch: self.batch.size(),
            lr: self.lr,
            lr_end: Some(self.lr_end),
            weight_decay: self.weight_decay,
            target: Target {
                k,
                lambda: self.lambda,
            },
            lambda_end: self.lambda_end,
            seed: self.seed,
        }
    }

    /// The settings that shape a run past its start, one `name value` line each, as its
    /// checkpoints record them: the schedule, the target, the shuffle's seed and the positions
    /// it shuffles. A run resumed under any other would not go on as the unbroken one would
    /// have (`--data` that has gained a chunk since shows in the counts). `--hidden` and
    /// `--output-buckets` are the checkpoint's shape, checked on their own.
    pub fn record(&self, loaded: &Loaded) -> String {
        let given = |v: Option<String>| v.unwrap_or_else(|| "(not given)".into());
        [
            ("--epochs", self.epochs.to_string()),
            ("--batch", self.batch.size().to_string()),
            ("--lr", self.lr.to_string()),
            ("--lr-end", self.lr_end.to_string()),
            ("--weight-decay", self.weight_decay.to_string()),
            ("--lambda", self.lambda.to_string()),
            (
                "--lambda-end",
                given(self.lambda_end.map(|v| v.to_string())),
            ),
            ("--seed", self.seed.to_string()),
            ("--min-ply", self.filter.min_ply.to_string()),
            ("--max-score", self.filter.max_score.to_string()),
            (
                "--max-positions",
                given(self.max_positions.map(|v| v.to_string())),
            ),
            ("mirrored", self.mirrored.to_string()),
            ("--inputs", self.inputs.name().to_string()),
            (
                "data",
                format!(
                    "{} chunks, {} games, {} training + {} validation positions",
                    loaded.chunks,
                    loaded.games,
                    loaded.train.len(),
                    loaded.validation.len()
                ),
            ),
        ]
        .map(|(name, value)| format!("{name} {value}\n"))
        .concat()
    }

    /// That a named batch is one the data can fill: a step takes at most every training
    /// position, so a larger batch asks for what the run cannot do (the default is the
    /// built-in net's recipe, and takes them all where a quick run has fewer).
    pub fn check_batch(&self, positions: usize) -> Result<(), String> {
        match self.batch {
            Batch::Named(batch) if batch > positions => Err(format!(
                "--batch {batch} is more than the {positions} training positions: a step takes \
                 at most all of them (give at most {positions}, or more data)"
            )),
            _ => Ok(()),
        }
    }
}

/// Settings recorded since checkpoints first held a recipe, with the value every run before
/// them had: a recipe that does not record one was trained with it, so a run started before
/// the setting existed still goes on under this build.
const RECORDED_SINCE: &[(&str, &str)] = &[("--inputs", "plain")];

/// Where two recorded recipes differ, one `name: recorded there, given here` item per setting
/// (a setting recorded since the first recipes, missing from either, is its value before it
/// was recorded: `RECORDED_SINCE`).
pub fn differences(recorded: &str, ours: &str) -> Vec<String> {
    let lines = |text: &str| -> Vec<(String, String)> {
        text.lines()
            .map(|line| {
                let (name, value) = line.split_once(' ').unwrap_or((line, ""));
                (name.to_string(), value.to_string())
            })
            .collect()
    };
    let (theirs, mine) = (lines(recorded), lines(ours));
    let value = |of: &[(String, String)], name: &str| {
        of.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .or_else(|| {
                RECORDED_SINCE
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            })
            .unwrap_or_else(|| "(not recorded)".to_string())
    };
    let only_there = theirs
        .iter()
        .filter(|(n, _)| !mine.iter().any(|(m, _)| m == n));
    mine.iter()
        .chain(only_there)
        .map(|(name, _)| name)
        .filter_map(|name| {
            let (there, here) = (value(&theirs, name), value(&mine, name));
            (there != here).then(|| format!("{name}: {there} there, {here} here"))
        })
        .collect()
}
