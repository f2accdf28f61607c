//! `cutoff explain [--fen F] [--html FILE] [--eval-file NET] [--sample FILE]`: what each
//! piece of a position is worth to the net and to the classical evaluation, the odds by each
//! one's model, and the piece-square values each has learned (or was tuned to), measured the
//! same way over a sample of positions; with `--html`, the same as one self-contained page.
//!
//! The numbers come from `eval::explain`, which the UCI `eval` command prints too.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use shakmaty::{CastlingMode, Chess};

use crate::eval::classical::report;
use crate::eval::explain::{self, map_lines, placement_maps, report_lines};
use crate::eval::{Evaluator, EvaluatorKind, Network};
use crate::lab::explain::page::{explain_page, ExplainPage, Explained};
use crate::position::{read_fen, FenPolicy};

/// The committed sample the maps are measured over (explain/sample.fen says how it was drawn).
const SAMPLE: &str = include_str!("../../explain/sample.fen");
const SAMPLE_NAME: &str = "explain/sample.fen";

/// Command-line arguments of `cutoff explain`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Also write everything as a self-contained web page to this file.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// The net to explain (default: the built-in one), read as UCI `EvalFile` reads it.
    #[arg(long, value_name = "NET")]
    pub eval_file: Option<PathBuf>,
    /// FEN positions (one a line, `#` comments) to measure the piece-square maps over
    /// (default: the built-in sample, explain/sample.fen).
    #[arg(long, value_name = "FILE")]
    pub sample: Option<PathBuf>,
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
fn sample(path: Option<&Path>) -> Result<(Vec<Chess>, String), String> {
    let (text, name) = match path {
        None => (SAMPLE.to_string(), SAMPLE_NAME.to_string()),
        Some(path) => {
            let lines = crate::util::read_lines(path)?;
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
fn network(path: Option<&Path>) -> Result<Arc<Network>, String> {
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

/// Prints what the page shows, as text: both boards, the classical table, both maps per piece.
fn print_text(explained: &[Explained], pos: &Chess, sample: &str) {
    for e in explained {
        for line in report_lines(&e.name, &e.contributions, e.wdl, &e.model) {
            println!("{line}");
        }
        println!();
    }
    for line in report::lines(pos) {
        println!("{line}");
    }
    println!();
    println!(
        "Learned piece-square values: the average change in value from putting the piece on each square (a king: moving it there), pawns from White's side, over {sample}; a dot: no legal placement"
    );
    let pieces = explained.first().map_or(0, |e| e.maps.len());
    for i in 0..pieces {
        for e in explained {
            let map = &e.maps[i];
            println!("Placement map, {}, {}:", e.name, map.piece.char());
            for line in map_lines(map) {
                println!("{line}");
            }
        }
    }
}

/// `cutoff explain`.
pub fn run(args: Args) -> ExitCode {
    let fen = args
        .fen
        .as_deref()
        .unwrap_or("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let loaded = read_fen(fen, CastlingMode::Chess960, FenPolicy::Strict).and_then(|pos| {
        if let Some(path) = &args.html {
            crate::files::check_output(path).map_err(|e| format!("--html {e}"))?;
        }
        let net = network(args.eval_file.as_deref())?;
        let (positions, described) = sample(args.sample.as_deref())?;
        Ok((pos, net, positions, described))
    });
    let (pos, net, positions, described) = match loaded {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let explained: Vec<Explained> = [EvaluatorKind::Net, EvaluatorKind::Classical]
        .into_iter()
        .map(|kind| explain_one(kind, &net, &pos, &positions))
        .collect();
    print_text(&explained, &pos, &described);
    eprintln!(
        "explain: {:.0} ms (both evaluations, the maps over {described})",
        start.elapsed().as_secs_f64() * 1000.0
    );
    if let Some(path) = &args.html {
        let terms = report::rows(&pos);
        let page = explain_page(&ExplainPage {
            pos: &pos,
            evaluations: &explained,
            sample: &described,
            terms: &terms,
        });
        if let Err(e) = crate::files::write_whole(path, page.as_bytes()) {
            eprintln!("error: cannot write {e}");
            return ExitCode::FAILURE;
        }
        eprintln!("explain: wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
