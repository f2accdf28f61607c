//! `cutoff explain`: one position explained by both evaluations, as text and as a page.
//!
//! What each piece is worth and where each stands best are measured in [`crate::eval::explain`]
//! (the UCI `eval` command prints the piece boards too); here both evaluations are asked for
//! them ([`explain()`]), over the sample the maps are measured on ([`sample`]), and the text the
//! command prints is written ([`text`]); [`page`] draws the same [`Explained`] values as the
//! `--html` page.

pub mod maps;
pub mod page;

use std::path::Path;
use std::sync::Arc;

use shakmaty::{CastlingMode, Chess};

use crate::eval::classical::report;
use crate::eval::explain::{self, report_lines, Contributions};
use crate::eval::{Evaluator, EvaluatorKind, Network};
use crate::position::{read_fen, FenPolicy};
use maps::{map_lines, placement_maps, PlacementMap};

/// The committed sample the maps are measured over (explain/sample.fen says how it was drawn).
const SAMPLE: &str = include_str!("../../../explain/sample.fen");
const SAMPLE_NAME: &str = "explain/sample.fen";

/// One evaluation's view of the position: its name, contributions, odds and which model
/// gave them, and its placement maps over the sample.
#[derive(Clone, Debug)]
pub struct Explained {
    pub name: String,
    pub contributions: Contributions,
    pub wdl: Option<(u32, u32, u32)>,
    pub model: String,
    pub maps: Vec<PlacementMap>,
}

/// The positions of a sample file's text; errors name the line.
fn parse_sample(text: &str, name: &str) -> Result<Vec<Chess>, String> {
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = read_fen(line, CastlingMode::Chess960, FenPolicy::Lenient)
            .map_err(|e| format!("{name}:{}: {e}", i + 1))?;
        positions.push(pos);
    }
    if positions.is_empty() {
        return Err(format!("{name}: no positions"));
    }
    Ok(positions)
}

/// The sample's positions and what to call it.
pub fn sample(path: Option<&Path>) -> Result<(Vec<Chess>, String), String> {
    let (text, name) = match path {
        None => (SAMPLE.to_string(), SAMPLE_NAME.to_string()),
        Some(path) => {
            let lines = crate::files::read_lines(path)?;
            let text: Vec<String> = lines.into_iter().map(|(_, l)| l).collect();
            (text.join("\n"), path.display().to_string())
        }
    };
    let positions = parse_sample(&text, &name)?;
    let described = format!("the {} positions of {name}", positions.len());
    Ok((positions, described))
}

/// The net to explain: `--eval-file` through the bounded loader of UCI `EvalFile`, or the
/// built-in one.
pub fn network(path: Option<&Path>) -> Result<Arc<Network>, String> {
    match path {
        Some(path) => Network::load(path).map(Arc::new),
        None => Network::embedded().ok_or_else(|| "this build has no built-in net".to_string()),
    }
}

/// One evaluation explained: the contributions, odds and maps, with the text printed.
fn explain_one(
    kind: EvaluatorKind,
    net: &Arc<Network>,
    pos: &Chess,
    sample: &[Chess],
) -> Explained {
    let mut evaluator = Evaluator::new(kind, Some(net));
    let (name, model) = match kind {
        EvaluatorKind::Net => (
            format!("net {:016x}", net.hash()),
            explain::net_model_note(net).to_string(),
        ),
        EvaluatorKind::Classical => (
            "classical evaluation".to_string(),
            "the classical evaluation's model".to_string(),
        ),
    };
    let contributions = explain::contributions(&mut evaluator, pos);
    let wdl = explain::white_wdl(kind, pos, contributions.white);
    let maps = placement_maps(&mut evaluator, sample);
    Explained {
        name,
        contributions,
        wdl,
        model,
        maps,
    }
}

/// What the page shows, as the lines of text the command prints: both boards, the classical
/// table, both maps per piece.
pub fn text(explained: &[Explained], pos: &Chess, sample: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in explained {
        out.extend(report_lines(&e.name, &e.contributions, e.wdl, &e.model));
        out.push(String::new());
    }
    out.extend(report::lines(pos));
    out.push(String::new());
    out.push(format!(
        "Learned piece-square values: the average change in value from putting the piece on each square (a king: moving it there), pawns from White's side, over {sample}; a dot: no legal placement"
    ));
    let pieces = explained.first().map_or(0, |e| e.maps.len());
    for i in 0..pieces {
        for e in explained {
            let map = &e.maps[i];
            out.push(format!("Placement map, {}, {}:", e.name, map.piece.char()));
            out.extend(map_lines(map));
        }
    }
    out
}

/// Both evaluations explained, the net first: the contributions, odds and maps of each.
pub fn explain(net: &Arc<Network>, pos: &Chess, sample: &[Chess]) -> Vec<Explained> {
    [EvaluatorKind::Net, EvaluatorKind::Classical]
        .into_iter()
        .map(|kind| explain_one(kind, net, pos, sample))
        .collect()
}
