//! A training run from its [`Recipe`] to the net on disk: the checkpoint to go on from
//! (checked before the data is read), the positions loaded and mirrored, `K` fitted or given,
//! the epochs with the quantised net (and a checkpoint) written after each, and at the end the
//! net read back by the engine's own loader. What happens is told through [`Event`]s, which the
//! command ([`crate::cli::train`]) prints; this module prints nothing.

use std::path::Path;
use std::time::Instant;

use shakmaty::CastlingMode;

use super::data::{self, Loaded, Sample};
use super::quantised::{quantise_centred, rounding_error, write_net, QuantisedNet, Rounding};
use super::recipe::Recipe;
use super::resume::{resume_point, start_state, Start};
use super::{checkpoint, train_epoch, EpochReport, TrainConfig, TrainState};
use crate::datagen::GameResult;
use crate::eval::nnue::format::Layout;
use crate::eval::Network;
use crate::position::{read_fen, FenPolicy};

/// What a run tells as it goes, in order.
#[derive(Debug)]
pub enum Event<'a> {
    /// Something the user should know that does not stop the run (an old checkpoint, a `K`
    /// not to be trusted).
    Warning(String),
    /// A data input that could not be read, or a torn chunk tail.
    Problem(&'a str),
    /// The positions are loaded (and mirrored): `bytes` of them in memory, in `seconds`.
    Loaded {
        loaded: &'a Loaded,
        bytes: usize,
        seconds: f64,
    },
    /// Going on from the checkpoint at `path`, after its `epoch` epochs, with its `K`.
    Resuming {
        path: &'a Path,
        epoch: usize,
        k: f64,
    },
    /// The epochs start (or go on), with `K` settled.
    Training { k: f64 },
    /// An epoch starts over `positions` training positions.
    EpochStart { positions: usize },
    /// `done` positions of the epoch trained.
    Progress { done: usize },
    /// The epoch's steps are over (it may still have diverged).
    EpochTrained,
    /// An epoch's net (and checkpoint) written: its numbers, and the `seconds` its steps took
    /// over `positions` training positions.
    EpochWritten {
        report: EpochReport,
        positions: usize,
        seconds: f64,
    },
    /// The last net quantised: how far it is from the float net on the validation positions,
    /// centred (as written) and only rounded.
    Rounding { centred: Rounding, plain: Rounding },
    /// One of the reference positions, evaluated by the float and by the quantised net.
    Example {
        fen: &'static str,
        float: f32,
        quantised: i64,
    },
}

/// A run that ended well.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Finished {
    /// The `K` it trained with.
    pub k: f64,
    /// Epochs finished, those of the checkpoint it resumed from included.
    pub epochs: usize,
    /// The last epoch this run trained (`None` when a resumed run had none left).
    pub last: Option<EpochReport>,
    /// The checksum of the net written, as the engine's loader read it back.
    pub hash: u64,
}

/// Positions whose evaluations end every run: a reference for the engine's inference, which
/// must give the quantised numbers exactly.
pub const EXAMPLES: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "8/5pk1/6p1/8/8/6P1/5PK1/3R4 w - - 0 40",
    "8/5pk1/6p1/8/8/6P1/5PK1/3R4 b - - 0 40",
    "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
];

/// Trains as `recipe` says, on the current rayon pool (the net does not depend on its size),
/// telling `observe` what happens. A run refused (a damaged checkpoint, another recipe, data
/// that does not read, a batch the data cannot fill) or that diverges is an error saying why;
/// the nets and checkpoints of the epochs before it are kept.
pub fn train(recipe: &Recipe, mut observe: impl FnMut(Event)) -> Result<Finished, String> {
    let resumed = resume_point(recipe, &mut |w| observe(Event::Warning(w)))?;
    let loaded = load(recipe, &mut observe)?;
    recipe.check_batch(loaded.train.len())?;
    let record = recipe.record(&loaded);
    let warn = &mut |w| observe(Event::Warning(w));
    let Start { mut state, k, from } = start_state(recipe, &loaded, &record, resumed, warn)?;
    if let Some(path) = &from {
        observe(Event::Resuming {
            path,
            epoch: state.epoch,
            k,
        });
    }
    let config = recipe.config(k);
    observe(Event::Training { k });
    let mut last = None;
    while state.epoch < recipe.epochs {
        last = Some(epoch(
            recipe,
            &config,
            &loaded,
            &record,
            &mut state,
            &mut observe,
        )?);
    }
    let q = quantise_centred(&state.net, &loaded.train);
    write_net(&recipe.out, &q)?;
    let plain = rounding_error(
        &state.net,
        &QuantisedNet::from_float(&state.net),
        &loaded.validation,
    );
    let centred = rounding_error(&state.net, &q, &loaded.validation);
    observe(Event::Rounding { centred, plain });
    for (fen, sample) in examples(recipe.inputs) {
        observe(Event::Example {
            fen,
            float: state.net.evaluate(&sample),
            quantised: q.evaluate(sample.stm_features(), sample.nstm_features()),
        });
    }
    // Read back by the engine's own loader: the net on disk is one the engine plays.
    let hash = Network::load(&recipe.out)?.hash();
    Ok(Finished {
        k,
        epochs: state.epoch,
        last,
        hash,
    })
}

/// The positions of [`EXAMPLES`] as samples of inputs `layout` (each that reads).
fn examples(layout: Layout) -> impl Iterator<Item = (&'static str, Sample)> {
    EXAMPLES.iter().filter_map(move |&fen| {
        let pos = read_fen(fen, CastlingMode::Standard, FenPolicy::Strict).ok()?;
        Some((fen, Sample::new(&pos, 0, GameResult::Draw, layout)))
    })
}

/// One epoch trained on `config`, its net and its checkpoint (recording `record`) written. A diverged epoch's net is no net
/// (its weights quantise to zeros): neither it nor its checkpoint is written, and the run ends
/// with an error.
fn epoch(
    recipe: &Recipe,
    config: &TrainConfig,
    loaded: &Loaded,
    record: &str,
    state: &mut TrainState,
    observe: &mut impl FnMut(Event),
) -> Result<EpochReport, String> {
    let start = Instant::now();
    let positions = loaded.train.len();
    observe(Event::EpochStart { positions });
    let report = train_epoch(state, &loaded.train, &loaded.validation, config, |done| {
        observe(Event::Progress { done })
    });
    observe(Event::EpochTrained);
    let report = report.map_err(|e| {
        format!(
            "{e}; stopped without writing a net or a checkpoint for it (those of the epochs \
             before it are kept)"
        )
    })?;
    let seconds = start.elapsed().as_secs_f64();
    write_net(&recipe.out, &quantise_centred(&state.net, &loaded.train))?;
    if let Some(dir) = &recipe.checkpoint {
        checkpoint::save(dir, state, config.target.k, record)?;
    }
    observe(Event::EpochWritten {
        report,
        positions,
        seconds,
    });
    Ok(report)
}

/// The positions of `recipe.data`, mirrored where it says, told as they load; an error where an
/// input is missing, unreadable or not data, or where no training position is left.
fn load(recipe: &Recipe, observe: &mut impl FnMut(Event)) -> Result<Loaded, String> {
    let start = Instant::now();
    let mut loaded = data::load(
        &recipe.data,
        recipe.filter,
        recipe.max_positions,
        recipe.inputs,
    );
    if recipe.mirrored {
        let mirrored: Vec<Sample> = loaded.train.iter().map(Sample::mirrored).collect();
        loaded.train.extend(mirrored);
    }
    for problem in &loaded.problems {
        observe(Event::Problem(problem));
    }
    let bytes = (loaded.train.len() + loaded.validation.len()) * std::mem::size_of::<Sample>();
    observe(Event::Loaded {
        loaded: &loaded,
        bytes,
        seconds: start.elapsed().as_secs_f64(),
    });
    if loaded.failed > 0 {
        return Err(format!(
            "{} of the data inputs missing, unreadable or not data (above); not training",
            loaded.failed
        ));
    }
    if loaded.train.is_empty() {
        return Err("no training positions".into());
    }
    Ok(loaded)
}
