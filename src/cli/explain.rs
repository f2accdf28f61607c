//! `cutoff explain [--fen F] [--html FILE] [--eval-file NET] [--sample FILE]`: what each
//! piece of a position is worth to the net and to the classical evaluation, the odds by each
//! one's model, and the piece-square values each has learned (or was tuned to), measured the
//! same way over a sample of positions; with `--html`, the same as one self-contained page.
//!
//! The work is [`crate::lab::explain`]'s; this door reads the arguments, prints and writes.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use shakmaty::CastlingMode;

use crate::lab::explain::page::explain_page;
use crate::lab::explain::{explain, network, sample, text};
use crate::position::{read_fen, FenPolicy};

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
    let explained = explain(&net, &pos, &positions);
    for line in text(&explained, &pos, &described) {
        println!("{line}");
    }
    eprintln!(
        "explain: {:.0} ms (both evaluations, the maps over {described})",
        start.elapsed().as_secs_f64() * 1000.0
    );
    if let Some(path) = &args.html {
        let page = explain_page(&pos, &explained, &described);
        if let Err(e) = crate::files::write_whole(path, page.as_bytes()) {
            eprintln!("error: cannot write {e}");
            return ExitCode::FAILURE;
        }
        eprintln!("explain: wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
