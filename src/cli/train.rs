//! `cutoff train`: its flags, checked and turned into a [`Recipe`], and the lines of the run on
//! stderr as [`crate::train::run`] tells them (loading, fitting `K` or going on from a
//! checkpoint, the epochs, the quantised net); the summary on stdout. The net and its file in
//! docs/nets.md.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use indicatif::ProgressBar;

use super::{
    at_least_one, checked_threads, progress_bar, threads, usage, Failure, FloatRange, IntRange,
    LAMBDA,
};
use crate::datagen::positions::Filter;
use crate::eval::nnue::format::{self, Layout};
use crate::files;
use crate::threads::worker_pool;
use crate::train::recipe::{Batch, Recipe};
use crate::train::run::{self, Event};
use crate::train::{checkpoint, EpochReport, MAX_K};

/// Command-line arguments of `cutoff train`. The defaults are the recipe of the built-in net,
/// `nets/cutoff-256-m40-l10-30-d60-lr5e6-b8.nnue` (docs/nets.md): 256 neurons, 8 output
/// buckets, 40 epochs, λ rising from 0.1 to 0.3, the learning rate falling from 0.001 to
/// 0.000005, mirrored positions; only its seed (7) is not the default.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Data files or folders (their `.vf` and `.bin` files), of either format. Every one must
    /// exist and hold data: a missing or unreadable one stops the run before training.
    #[arg(long, num_args = 1.., default_values = ["data", "../shared/data"])]
    pub data: Vec<PathBuf>,
    /// Where to write the quantised net (after every epoch and at the end); checked before
    /// training: its folder must exist and be writable, and it must not be a folder, a pipe or
    /// a device.
    #[arg(long, default_value = "nets/cutoff.nnue")]
    pub out: PathBuf,
    /// Neurons of the feature transformer (per perspective): a multiple of 16 from 16 to 1024,
    /// the widths the engine loads; any other is a usage error before anything is read.
    #[arg(long, default_value_t = 256, value_parser = net_width)]
    pub hidden: usize,
    /// Output buckets by piece count: 8 (one output layer per four pieces on the board, the
    /// built-in net's) or 1 (one for all, the nets before it); any other is a usage error.
    #[arg(long, default_value_t = 8, value_parser = output_buckets)]
    pub output_buckets: usize,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 40, value_parser = at_least_one::<usize>())]
    pub epochs: usize,
    /// Positions per optimizer step (default 16384): 1 to 262144 (what memory can
    /// hold), and at most the training positions (checked once they are loaded; the default
    /// takes all of them where there are fewer).
    #[arg(long, value_parser = BATCH.parser::<usize>())]
    pub batch: Option<usize>,
    /// AdamW's learning rate at the start; a cosine takes it to `--lr-end` by the last step.
    /// Above 0 and at most 1.
    #[arg(long, default_value_t = 0.001, value_parser = LEARNING_RATE.parser())]
    pub lr: f64,
    /// The learning rate the cosine ends at, after the last step: above 0 and at most `--lr`
    /// (default: 0.000005, the built-in net's, or `--lr` where that is lower).
    #[arg(long, value_name = "LR", value_parser = LEARNING_RATE.parser())]
    pub lr_end: Option<f64>,
    /// AdamW's decoupled weight decay (weights only, not biases): 0 to 1.
    #[arg(long, default_value_t = 0.01, value_parser = WEIGHT_DECAY.parser())]
    pub weight_decay: f64,
    /// Weight of the game result in the target; the rest is the search score's expected result.
    /// The first epoch's (0 to 1; default 0.1); given without `--lambda-end`, it holds for every
    /// epoch.
    #[arg(long, value_name = "LAMBDA", value_parser = LAMBDA.parser())]
    pub lambda: Option<f64>,
    /// λ of the last epoch, reached in equal steps from `--lambda` at the first (0 to 1;
    /// default: 0.3, the built-in net's, unless `--lambda` is given, which then holds flat).
    #[arg(long, value_name = "LAMBDA", value_parser = LAMBDA.parser())]
    pub lambda_end: Option<f64>,
    /// Seed of the initial weights and of every epoch's shuffle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Use this `K` (centipawns) instead of fitting one: above 0 and at most 100000.
    #[arg(long, value_parser = K.parser())]
    pub k: Option<f64>,
    /// Worker threads (default: all cores); the net does not depend on it.
    #[arg(long, value_parser = threads::<usize>())]
    pub threads: Option<usize>,
    /// Folder for a float checkpoint after every epoch (net, optimizer state, epoch); created
    /// if missing, and checked before training: a path there must be a folder.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Go on from the latest checkpoint in `--checkpoint` (`epoch-NNNN.ckpt`, the most epochs),
    /// checked before the data is read: its checksum, its numbers (all finite) and its shape. A
    /// folder that holds no checkpoint, or a damaged one, is refused, naming it.
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,
    /// Load at most this many positions (the first in chunk order), for quick runs.
    #[arg(long, value_parser = at_least_one::<usize>())]
    pub max_positions: Option<usize>,
    /// Skip positions before this game ply.
    #[arg(long, default_value_t = Filter::default().min_ply)]
    pub min_ply: u32,
    /// Skip positions whose |score| is above this (centipawns).
    #[arg(long, default_value_t = Filter::default().max_score)]
    pub max_score: i32,
    /// Add every training position's left-right mirror to the training set (validation stays
    /// as played): twice the examples for the same games, against overfitting. The default;
    /// accepted for the command lines that name it.
    #[arg(long, overrides_with = "no_mirror")]
    pub mirror: bool,
    /// Train on the positions as played only, without their mirrors.
    #[arg(long, overrides_with = "mirror")]
    pub no_mirror: bool,
    /// How the net's inputs see the board: `plain` (every net before generation 4),
    /// `mirrored` (a side whose king stands on files e-h sees the board mirrored left to right,
    /// so the net learns one king side instead of two; written as a version 3 file) or
    /// `mirrored-kb4` (mirrored, and a set of inputs for each of 4 regions of the side's own
    /// king: its back rank's files a-c or f-h, d or e, the second rank, the rest). With either
    /// mirrored layout the positions' mirrors are not added (their inputs are the positions'
    /// own), so an epoch takes half the positions.
    #[arg(long, value_name = "LAYOUT", default_value = "plain", value_parser = input_layout)]
    pub inputs: Layout,
}

/// `--inputs`: a layout's name ([`Layout::from_name`]).
fn input_layout(value: &str) -> Result<Layout, String> {
    Layout::from_name(value).ok_or_else(|| {
        let names: Vec<&str> = Layout::ALL.iter().map(|l| l.name()).collect();
        format!(
            "not an input layout; the trainer takes {}",
            names.join(" or ")
        )
    })
}

/// `--hidden`: a width the engine loads ([`format::check_hidden`]), so that no run can end
/// with a net the engine refuses for its shape.
fn net_width(value: &str) -> Result<usize, String> {
    count_the_engine_loads(value, "neurons", format::HIDDEN_RULE, format::check_hidden)
}

/// A count of `what` that the engine loads: a number, then the format's own `check`, whose
/// reason is the loader's (`rule` says in words what it takes).
fn count_the_engine_loads(
    value: &str,
    what: &str,
    rule: &str,
    check: fn(usize) -> Result<(), String>,
) -> Result<usize, String> {
    let count: usize = value
        .parse()
        .map_err(|_| format!("not a number of {what}; the engine loads {rule}"))?;
    check(count)?;
    Ok(count)
}

// Every float flag goes through its range's parser ([`FloatRange`]): NaN, an infinity or a
// number no run can use is a usage error (exit 2) before anything is read. Unbounded, `--lr NaN`
// (or `inf`, `0`, `3.4e38`) and `--weight-decay NaN` trained, printed `train loss NaN`, wrote a
// net of zeros and exited 0.

/// `--lr` and `--lr-end`: above 0 (the cosine falls to the end, not through it) and at most 1.
/// AdamW moves every weight by about the learning rate each step, and the output weights are
/// clipped to ±1.98: a rate of 1 already moves them by a quarter of their range a step (the
/// built-in net's starts at 0.001).
pub const LEARNING_RATE: FloatRange = FloatRange::above(0.0, 1.0);

/// `--weight-decay`: 0 to 1. A step shrinks a weight by `lr · decay` of itself; with `--lr` at
/// most 1 that share stays at most 1, so the decay shrinks a weight and never flips its sign
/// (which grows it without bound once the share passes 2).
pub const WEIGHT_DECAY: FloatRange = FloatRange::from_to(0.0, 1.0);

/// `--k` (centipawns): above 0, and at most the trainer's [`MAX_K`], twenty times the top of the
/// fit's search range (5000 cp): past that every target and every prediction is within a hair
/// of one half.
pub const K: FloatRange = FloatRange::above(0.0, MAX_K);

/// `--batch`: 1 to 262144 positions (16 times the built-in net's 16384). What a step holds in
/// memory grows with it: the batch's positions (68 bytes each) and one gradient buffer for each
/// 1024 of them, 4 bytes a parameter: at the ceiling 256 buffers, about 206 MB at 256 neurons and
/// 823 MB at 1024 (computed from the sizes). Unbounded, `--batch 1000000000` aborted allocating
/// 68 GB and `--batch 4611686018427387904` panicked (`capacity overflow`).
pub const BATCH: IntRange = IntRange::from_to(1, 1 << 18);

/// The built-in net's batch: the default of `--batch`.
pub const DEFAULT_BATCH: usize = 16384;

/// `--output-buckets`: a count the engine loads ([`format::check_buckets`]).
fn output_buckets(value: &str) -> Result<usize, String> {
    count_the_engine_loads(value, "buckets", format::BUCKET_RULE, format::check_buckets)
}

/// The built-in net's λ at its first and last epoch: the defaults of `--lambda` and
/// `--lambda-end`.
pub const DEFAULT_LAMBDA: (f64, f64) = (0.1, 0.3);

/// The built-in net's last learning rate: the default of `--lr-end` (capped at `--lr`).
pub const DEFAULT_LR_END: f64 = 0.000005;

impl Args {
    /// Whether the training positions are mirrored: unless `--no-mirror` (the last of
    /// `--mirror` and `--no-mirror` given wins), and never with mirrored inputs, where a
    /// mirror's inputs are its original's ([`Args::mirror_dropped`]).
    pub fn mirrored(&self) -> bool {
        !self.no_mirror && self.inputs == Layout::Plain
    }

    /// Whether the mirrors asked for (the default) are left out for mirrored inputs: said on
    /// stderr, since the flag's default is then not what runs.
    pub fn mirror_dropped(&self) -> bool {
        !self.no_mirror && self.inputs.king_relative()
    }

    /// λ of the first epoch.
    pub fn lambda(&self) -> f64 {
        self.lambda.unwrap_or(DEFAULT_LAMBDA.0)
    }

    /// λ of the last epoch where it moves; `None` where it stays flat (`--lambda` given alone).
    /// With neither flag, the built-in net's rise; a user who names `--lambda` alone asks for
    /// that λ, not for a schedule they did not write.
    pub fn lambda_end(&self) -> Option<f64> {
        match (self.lambda, self.lambda_end) {
            (_, Some(end)) => Some(end),
            (Some(_), None) => None,
            (None, None) => Some(DEFAULT_LAMBDA.1),
        }
    }

    /// The learning rate the cosine falls to.
    pub fn lr_end(&self) -> f64 {
        self.lr_end.unwrap_or(DEFAULT_LR_END.min(self.lr))
    }

    /// Positions per step: `--batch` as named, or the built-in net's 16384.
    pub fn batch(&self) -> Batch {
        self.batch
            .map_or(Batch::Default(DEFAULT_BATCH), Batch::Named)
    }
}

/// `cutoff train`: progress and per-epoch lines on stderr, a summary line on stdout.
pub fn run(args: Args) -> ExitCode {
    // The flags and paths first (exit 2), then the work (exit 1).
    let checked = checked_threads(args.threads)
        .map_err(|e| format!("--threads: {e}"))
        .and_then(|threads| check(&args).map(|()| threads));
    let threads = match checked {
        Ok(threads) => threads,
        Err(e) => return usage(e).exit(),
    };
    let done = worker_pool(threads, "train")
        .ok_or_else(|| "cannot start any worker thread".to_string())
        .and_then(|pool| pool.install(|| train(&args)));
    match done {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => Failure::Run(e).exit(),
    }
}

/// λ as the run's lines print it: one value, or `start -> end` when it moves.
fn lambda_schedule(args: &Args) -> String {
    match args.lambda_end() {
        Some(end) => format!("{} -> {end}", args.lambda()),
        None => args.lambda().to_string(),
    }
}

/// The checks of what clap's value ranges cannot say (the counts and every float flag alone are
/// refused by clap), and of the paths, before a minute goes into loading the data or an epoch
/// into training.
fn check(args: &Args) -> Result<(), String> {
    if let Some(end) = args.lr_end.filter(|&end| end > args.lr) {
        return Err(format!(
            "--lr-end {end} is above --lr {}: the learning rate only falls",
            args.lr
        ));
    }
    for path in &args.data {
        // Files and folders both: what is in them is judged by the chunk reader.
        std::fs::metadata(path)
            .map_err(|e| format!("--data {}: {}", path.display(), files::reason(&e)))?;
    }
    // As `train::quantised::write_net` will write it: a temporary file in its folder renamed over it. Checked
    // here, or the run would fail only after its first epoch.
    files::check_output(&args.out).map_err(|e| format!("--out {e}"))?;
    match &args.checkpoint {
        Some(dir) => checkpoint::check_dir(dir).map_err(|e| format!("--checkpoint {e}")),
        None => Ok(()),
    }
}

/// The run the flags ask for, their defaults filled in.
fn recipe(args: &Args) -> Recipe {
    Recipe {
        data: args.data.clone(),
        out: args.out.clone(),
        hidden: args.hidden,
        buckets: args.output_buckets,
        epochs: args.epochs,
        batch: args.batch(),
        lr: args.lr,
        lr_end: args.lr_end(),
        weight_decay: args.weight_decay,
        lambda: args.lambda(),
        lambda_end: args.lambda_end(),
        seed: args.seed,
        k: args.k,
        checkpoint: args.checkpoint.clone(),
        resume: args.resume,
        filter: Filter {
            min_ply: args.min_ply,
            max_score: args.max_score,
            ..Filter::default()
        },
        max_positions: args.max_positions,
        mirrored: args.mirrored(),
        inputs: args.inputs,
    }
}

/// The training itself, after [`check`] has passed: the run's events on stderr as they come,
/// and the summary line.
fn train(args: &Args) -> Result<String, String> {
    let run_start = Instant::now();
    if args.mirror_dropped() {
        eprintln!(
            "train: --inputs mirrored: the positions' left-right mirrors (--mirror) are not \
             added: with mirrored inputs a mirror's inputs are its original's"
        );
    }
    let mut shown = Shown {
        args,
        bar: None,
        lowest_at_end: None,
    };
    let done = run::train(&recipe(args), |event| shown.show(event))?;
    Ok(format!(
        "K {:.2}  lambda {}  {} epochs in {:.1} s  train loss {}  validation loss {}  wrote {} ({} bytes, FNV-1a {:016x})",
        done.k,
        lambda_schedule(args),
        done.epochs,
        run_start.elapsed().as_secs_f64(),
        done.last.map_or("-".into(), |r| format!("{:.6}", r.train_loss)),
        done.last
            .and_then(|r| r.validation_loss)
            .map_or("-".into(), |v| format!("{v:.6}")),
        args.out.display(),
        format::file_bytes(args.inputs, args.hidden, args.output_buckets),
        done.hash
    ))
}

/// What a run's events look like on stderr: a line each, and a progress bar over each epoch.
struct Shown<'a> {
    args: &'a Args,
    /// The epoch's bar and when the epoch started (for its rate).
    bar: Option<(ProgressBar, Instant)>,
    /// The epoch (of those shown) whose validation loss against the last epoch's target was
    /// lowest, and that loss: where a run with a rising λ stopped learning.
    lowest_at_end: Option<(usize, f64)>,
}

impl Shown<'_> {
    fn show(&mut self, event: Event) {
        match event {
            Event::Warning(warning) => eprintln!("train: warning: {warning}"),
            Event::Problem(problem) => eprintln!("train: {problem}"),
            Event::Loaded {
                loaded,
                bytes,
                seconds,
            } => eprintln!(
                "train: {} chunks, {} games, {} positions read; {} training + {} validation positions kept ({:.0} MiB) in {seconds:.1} s",
                loaded.chunks,
                loaded.games,
                loaded.positions,
                loaded.train.len(),
                loaded.validation.len(),
                bytes as f64 / f64::from(1 << 20),
            ),
            Event::Resuming { path, epoch, k } => eprintln!(
                "train: resuming from {} (epoch {epoch}, K {k:.2})",
                path.display()
            ),
            Event::Training { k } => self.training(k),
            Event::EpochStart { positions } => {
                self.bar = Some((progress_bar(positions as u64, "positions"), Instant::now()));
            }
            Event::Progress { done } => {
                if let Some((bar, start)) = &self.bar {
                    bar.set_position(done as u64);
                    let rate = done as f64 / start.elapsed().as_secs_f64().max(1e-9);
                    bar.set_message(format!("{rate:.0} pos/s"));
                }
            }
            Event::EpochTrained => {
                if let Some((bar, _)) = self.bar.take() {
                    bar.finish_and_clear();
                }
            }
            Event::EpochWritten {
                report,
                positions,
                seconds,
            } => {
                if let Some(v) = report.validation_loss_at_end {
                    if self.lowest_at_end.is_none_or(|(_, low)| v < low) {
                        self.lowest_at_end = Some((report.epoch, v));
                    }
                }
                let yardstick = self.args.lambda_end().and(self.lowest_at_end);
                epoch_line(&report, positions, seconds, yardstick);
            }
            Event::Rounding { centred, plain } => eprintln!(
                "train: quantised vs float on the validation positions: mean {:.2} cp (signed {:+.2}), worst {:.1} cp; \
                 rounded only: mean {:.2} cp (signed {:+.2}), worst {:.1} cp",
                centred.mean_abs, centred.mean, centred.worst, plain.mean_abs, plain.mean, plain.worst
            ),
            Event::Example {
                fen,
                float,
                quantised,
            } => eprintln!("train: {fen}: float {float:.1} cp, quantised {quantised} cp"),
        }
    }

    /// The line that opens the epochs: the scale and the recipe.
    fn training(&self, k: f64) {
        let args = self.args;
        let inputs = match args.inputs {
            Layout::Plain => "",
            Layout::Mirrored => ", mirrored inputs",
            Layout::MirroredKingBuckets => ", mirrored inputs in 4 king buckets",
        };
        eprintln!(
            "train: K = {k:.2} cp, lambda {}, {} neurons, {} output bucket(s){inputs}, batch {}, lr {} (cosine to {}), {} epochs",
            lambda_schedule(args),
            args.hidden,
            args.output_buckets,
            args.batch().size(),
            args.lr,
            args.lr_end(),
            args.epochs
        );
    }
}

/// An epoch's line: its losses, its speed over `positions` in `seconds`, its last learning rate
/// and its λ; where λ rises (`lowest_at_end` given: the epoch of the lowest so far), the
/// validation loss against the last epoch's target too, the one yardstick of the whole run.
fn epoch_line(
    report: &EpochReport,
    positions: usize,
    seconds: f64,
    lowest_at_end: Option<(usize, f64)>,
) {
    let mut validation = report
        .validation_loss
        .map_or("-".to_string(), |v| format!("{v:.6}"));
    if let (Some(v), Some((epoch, _))) = (report.validation_loss_at_end, lowest_at_end) {
        validation += &format!(" (at the last lambda {v:.6}, lowest at epoch {epoch})");
    }
    eprintln!(
        "epoch {:3}  train loss {:.6}  validation loss {validation}  {:.0} pos/s  {seconds:.1} s  lr {:.3e}  lambda {:.4}",
        report.epoch,
        report.train_loss,
        positions as f64 / seconds.max(1e-9),
        report.lr,
        report.lambda
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::quantised::{write_net, QuantisedNet};
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn parse(flags: &[&str]) -> Args {
        Cli::parse_from(std::iter::once("train").chain(flags.iter().copied())).args
    }

    #[test]
    fn the_defaults_are_the_built_in_nets_recipe() {
        let args = parse(&[]);
        assert_eq!(
            (args.hidden, args.epochs, args.output_buckets),
            (256, 40, 8)
        );
        assert_eq!((args.lambda(), args.lambda_end()), (0.1, Some(0.3)));
        assert_eq!((args.lr, args.lr_end()), (0.001, 0.000005));
        assert!(args.mirrored());
    }

    /// `--lambda` alone holds λ flat (what its user wrote); `--lambda-end` alone moves from the
    /// default start; `--lr` below the default end takes the end down with it.
    #[test]
    fn lambda_alone_is_flat_and_lr_end_never_defaults_above_lr() {
        let flat = parse(&["--lambda", "0.5"]);
        assert_eq!((flat.lambda(), flat.lambda_end()), (0.5, None));
        assert_eq!(lambda_schedule(&flat), "0.5");
        let rising = parse(&["--lambda-end", "0.6"]);
        assert_eq!((rising.lambda(), rising.lambda_end()), (0.1, Some(0.6)));
        assert_eq!(lambda_schedule(&rising), "0.1 -> 0.6");
        let low = parse(&["--lr", "0.000001"]);
        assert_eq!(low.lr_end(), 0.000001);
        assert_eq!(parse(&["--lr-end", "0.0001"]).lr_end(), 0.0001);
    }

    /// `--lr-end` above `--lr` is refused before anything is read (the cosine only falls), and
    /// one of 0 or below is a usage error; `--lambda-end` outside 0..=1 is refused as
    /// `--lambda` is.
    #[test]
    fn lr_end_above_lr_or_not_above_zero_and_lambda_end_outside_0_1_are_refused() {
        let e = check(&parse(&["--lr", "0.001", "--lr-end", "0.002"])).unwrap_err();
        assert!(
            e.contains("--lr-end 0.002 is above --lr 0.001: the learning rate only falls"),
            "{e}"
        );
        for bad in ["0", "-1e-6", "inf", "x"] {
            let e = Cli::try_parse_from(["train", &format!("--lr-end={bad}")])
                .err()
                .unwrap_or_else(|| panic!("--lr-end {bad} accepted"))
                .to_string();
            assert!(e.contains("invalid value") && e.contains("--lr-end"), "{e}");
        }
        let e = Cli::try_parse_from(["train", "--lambda-end", "1.5"])
            .err()
            .expect("--lambda-end 1.5 accepted")
            .to_string();
        assert!(
            e.contains("'1.5' for '--lambda-end") && e.contains("from 0 to 1"),
            "{e}"
        );
        let ok = parse(&[
            "--lr",
            "0.001",
            "--lr-end",
            "0.001",
            "--lambda-end",
            "0.3",
            "--data",
            "/no/such/folder",
        ]);
        assert_eq!((ok.lr_end, ok.lambda_end), (Some(0.001), Some(0.3)));
        let e = check(&ok).unwrap_err();
        assert!(
            e.starts_with("--data"),
            "the recipe passed, the paths are next: {e}"
        );
    }

    /// Every float flag refuses NaN, the infinities and numbers no run can use, as a usage
    /// error naming the flag and what it takes, before anything is read: `--lr NaN` (or `inf`,
    /// `0`, `3.4e38`) and `--weight-decay NaN` trained a net of zeros and exited 0. Each bound
    /// itself is taken.
    #[test]
    fn every_float_flag_refuses_nan_infinities_and_values_no_run_can_use() {
        let flags = [
            ("--lr", LEARNING_RATE),
            ("--lr-end", LEARNING_RATE),
            ("--weight-decay", WEIGHT_DECAY),
            ("--lambda", LAMBDA),
            ("--lambda-end", LAMBDA),
            ("--k", K),
        ];
        for (flag, range) in flags {
            for bad in [
                "NaN", "nan", "inf", "-inf", "infinity", "3.4e38", "-1", "1e400",
            ] {
                let e = Cli::try_parse_from(["train", &format!("{flag}={bad}")])
                    .err()
                    .unwrap_or_else(|| panic!("{flag} {bad} accepted"))
                    .to_string();
                assert!(
                    e.contains(&format!("'{bad}' for '{flag} ")) && e.contains(&range.to_string()),
                    "{flag} {bad}: {e}"
                );
            }
        }
        for bad in [
            "--lr=0",
            "--lr-end=0",
            "--k=0",
            "--lr=1.5",
            "--weight-decay=1.01",
        ] {
            assert!(
                Cli::try_parse_from(["train", bad]).is_err(),
                "{bad} accepted"
            );
        }
        let edges = parse(&[
            "--lr=1",
            "--lr-end=1e-12",
            "--weight-decay=0",
            "--lambda=0",
            "--lambda-end=1",
            "--k=100000",
        ]);
        assert_eq!(
            (edges.lr, edges.lr_end, edges.weight_decay),
            (1.0, Some(1e-12), 0.0)
        );
        assert_eq!(
            (edges.lambda(), edges.lambda_end(), edges.k),
            (0.0, Some(1.0), Some(1e5))
        );
        assert_eq!(parse(&["--weight-decay=1"]).weight_decay, 1.0);
    }

    /// `--k` takes exactly the `K`s the trainer takes from a checkpoint it resumes
    /// (`train::k_in_range`), in the words its refusal of one uses: the two bounds are one.
    #[test]
    fn k_takes_what_a_resumed_checkpoint_may_hold() {
        for k in [
            f64::NAN,
            f64::NEG_INFINITY,
            -1.0,
            0.0,
            1e-9,
            130.0,
            MAX_K,
            MAX_K * (1.0 + 1e-12),
            f64::INFINITY,
        ] {
            assert_eq!(K.contains(k), crate::train::k_in_range(k), "{k}");
        }
        assert_eq!(
            K.to_string(),
            format!("a number above 0 and at most {MAX_K}")
        );
    }

    #[test]
    fn no_mirror_turns_mirroring_off_and_the_last_flag_wins() {
        assert!(!parse(&["--no-mirror"]).mirrored());
        assert!(parse(&["--mirror"]).mirrored());
        assert!(parse(&["--no-mirror", "--mirror"]).mirrored());
        assert!(!parse(&["--mirror", "--no-mirror"]).mirrored());
    }

    /// With mirrored inputs (with or without king buckets) the positions' mirrors are never
    /// added (a mirror's inputs are its original's), whatever `--mirror` says, and the run says
    /// so where they were asked for (the default or `--mirror`), not where `--no-mirror` left
    /// them out anyway.
    #[test]
    fn mirrored_inputs_drop_the_mirrors_and_say_so_only_where_they_were_asked_for() {
        for flags in [&[][..], &["--mirror"][..], &["--no-mirror"][..]] {
            for layout in ["mirrored", "mirrored-kb4"] {
                let args: Vec<&str> = ["--inputs", layout].iter().chain(flags).copied().collect();
                let parsed = parse(&args);
                assert!(!parsed.mirrored(), "{args:?}");
                assert_eq!(
                    parsed.mirror_dropped(),
                    flags != ["--no-mirror"],
                    "{args:?}"
                );
            }
            let plain: Vec<&str> = ["--inputs", "plain"].iter().chain(flags).copied().collect();
            assert!(!parse(&plain).mirror_dropped(), "{plain:?}");
        }
    }

    /// Every shape `train` accepts (each `--hidden` with each `--output-buckets`) gives a net
    /// the engine loads, and every width or bucket count it does not is one the engine
    /// refuses: the trainer offers exactly the shapes the engine runs (it took 1 to 4096
    /// neurons before, the engine multiples of 16 up to 1024).
    #[test]
    fn every_width_train_accepts_writes_a_net_the_engine_loads() {
        let dir = std::env::temp_dir().join(format!("cutoff-train-widths-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("net.nnue");
        let buckets: Vec<usize> = (0..=64usize)
            .filter_map(|b| {
                let flags = ["train", "--output-buckets", &b.to_string()];
                Cli::try_parse_from(flags)
                    .ok()
                    .map(|cli| cli.args.output_buckets)
            })
            .collect();
        assert_eq!(buckets, [1, 8]);
        let mut accepted = Vec::new();
        for width in 0..=4200usize {
            for &b in &buckets {
                let (width, b) = (width.to_string(), b.to_string());
                let flags = ["train", "--hidden", &width, "--output-buckets", &b];
                let Ok(cli) = Cli::try_parse_from(flags) else {
                    continue;
                };
                let (hidden, buckets) = (cli.args.hidden, cli.args.output_buckets);
                let net = crate::train::net::Net::new(hidden, buckets, 3);
                let written = write_net(&out, &QuantisedNet::from_float(&net));
                match written.and_then(|()| crate::eval::Network::load(&out)) {
                    Ok(net) => assert_eq!((net.hidden(), net.buckets()), (hidden, buckets)),
                    Err(e) => panic!("--hidden {width} --output-buckets {b}: {e}"),
                }
                accepted.push((hidden, buckets));
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
        let engine: Vec<(usize, usize)> = (16..=1024)
            .step_by(16)
            .flat_map(|h| [(h, 1), (h, 8)])
            .collect();
        assert_eq!(accepted, engine);
    }
}
