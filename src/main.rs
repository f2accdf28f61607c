use std::process::ExitCode;
use std::sync::LazyLock;

use clap::{Parser, Subcommand};
use cutoff::cli::{bench, compare, datagen, epd, explain, perft, syzygy, train, tree, tune};
use cutoff::uci;

/// `cutoff --version`: the package's version, the commit built (`CUTOFF_COMMIT`, from build.rs)
/// and the build's bench signature, so that a bug report or a match log names the build.
static VERSION: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{} ({}, Bench: {})",
        env!("CARGO_PKG_VERSION"),
        env!("CUTOFF_COMMIT"),
        cutoff::bench::SIGNATURE
    )
});

/// Cutoff: a UCI chess engine. With no subcommand it speaks UCI on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "cutoff", version = VERSION.as_str(), about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Speak UCI on stdin/stdout (the default).
    Uci,
    /// Count the leaf nodes of the legal move tree to a depth.
    Perft(perft::Args),
    /// Check every position of a perft EPD suite (`D1 n; D2 n; ...`).
    PerftSuite(perft::SuiteArgs),
    /// Run an EPD test suite (bm/am/c0) under a search limit.
    Epd(epd::Args),
    /// Fixed-depth search of built-in positions: `<N> nodes <M> nps` (OpenBench's signature).
    Bench(bench::Args),
    /// Minimax and alpha-beta on a bracketed game tree, showing what was pruned.
    Tree(tree::Args),
    /// Minimax against alpha-beta with several move orderings on a chess position.
    Compare(compare::Args),
    /// What each piece is worth to the net and to the classical evaluation, and their learned
    /// piece-square values.
    Explain(explain::Args),
    /// Self-play training data: every searched position stored with its score and the result.
    ///
    /// Games start from the start position after 8-9 random plies (a 4000-node search redraws
    /// an opening already decided), or from `--book` lines after 2-4; each move is searched to
    /// `--nodes` soft nodes with the net evaluation (`--eval classical` for the classical one).
    /// Every searched position is kept, with its score and the move played, and the game's result
    /// is written with it: the trainer's filter picks positions when it reads them. Games are
    /// appended whole to `--out`, viriformat game records (`.vf`, the default layout) or 40-byte
    /// records (`.bin`), with a line in the folder's MANIFEST. `--dump`, `--stats` and
    /// `--convert` read chunks instead.
    Datagen(datagen::Args),
    /// Fit the evaluation weights to game results (Texel's method) and write them as Rust.
    Tune(tune::Args),
    /// Train the learned evaluation (NNUE) on self-play data and write the quantised net.
    Train(train::Args),
    /// Syzygy tablebase files: `verify` checks each file's embedded checksum.
    Syzygy(syzygy::Args),
}

/// The UCI loop's commands: typed as a subcommand (`cutoff eval`), one of them is told where it
/// belongs rather than only that no such subcommand exists. (`uci` is a subcommand too.)
const UCI_COMMANDS: &[&str] = &[
    "isready",
    "ucinewgame",
    "setoption",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "debug",
    "register",
];

/// What to say to `cutoff <word> ...` when `word` is a UCI command: where to type it, and the
/// same line piped into the loop.
fn uci_command_hint(args: &[String]) -> Option<String> {
    let word = args.first()?;
    if !UCI_COMMANDS.contains(&word.as_str()) {
        return None;
    }
    let line = args.join(" ").replace('\'', "");
    let mut hint = format!(
        "`{word}` is a UCI command, not a subcommand: run `cutoff` (the UCI loop) and type it \
         there, or pipe it in: `echo '{line}' | cutoff`"
    );
    match word.as_str() {
        "eval" | "d" | "go" => hint.push_str(&format!(
            " (for another position: `printf 'position fen <FEN>\\n{line}\\n' | cutoff`)"
        )),
        "position" => {
            hint.push_str(" (it prints nothing by itself: follow it with `d`, `eval` or `go`)")
        }
        _ => {}
    }
    if word == "eval" {
        hint.push_str(
            "; `cutoff explain [--fen F]` prints the same boards of what each piece is worth",
        );
    }
    Some(hint)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let args: Vec<String> = std::env::args().skip(1).collect();
            if e.kind() == clap::error::ErrorKind::InvalidSubcommand {
                if let Some(hint) = uci_command_hint(&args) {
                    eprintln!("error: {hint}");
                    return ExitCode::from(2);
                }
            }
            e.exit()
        }
    };
    if !matches!(cli.command, None | Some(Command::Uci)) {
        stop_quietly_when_stdout_closes();
    }
    match cli.command {
        None | Some(Command::Uci) => {
            uci::run();
            ExitCode::SUCCESS
        }
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::PerftSuite(args)) => perft::run_suite(args),
        Some(Command::Epd(args)) => epd::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Tree(args)) => tree::run(args),
        Some(Command::Compare(args)) => compare::run(args),
        Some(Command::Explain(args)) => explain::run(args),
        Some(Command::Datagen(args)) => datagen::run(args),
        Some(Command::Tune(args)) => tune::run(args),
        Some(Command::Train(args)) => train::run(args),
        Some(Command::Syzygy(args)) => syzygy::run(args),
    }
}

/// The command-line tools print with `println!`, which panics once stdout is closed
/// (`cutoff bench | head`). With the default SIGPIPE action restored they end like any Unix
/// filter instead: silently, killed by SIGPIPE. The UCI loop keeps Rust's default (SIGPIPE
/// ignored) and quits by itself when a write fails (see `uci::output::send`).
#[cfg(unix)]
fn stop_quietly_when_stdout_closes() {
    // SAFETY: `signal` only sets the disposition of SIGPIPE to the default action; no handler
    // of ours runs, so there is no async-signal-safety to uphold. It is called at the top of
    // `main`, before any thread is started, so no other thread observes the change midway.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn stop_quietly_when_stdout_closes() {}
