//! `cutoff tree "<tree>"`: minimax and alpha-beta on a bracket tree, showing what was pruned.
//!
//! Prints `key: value` lines: both values and leaf counts, one `pruned:` line per cutoff with
//! the subtrees it skipped (1-based paths, leaves covered) and the α/β that fired, then
//! counters. `--trace` first prints every step of the alpha-beta search; `--html` writes the
//! search as a web page.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::lab::minimax::Side;
use crate::lab::tree::bracket::BracketTree;
use crate::lab::tree::page::{tree_page, Order};
use crate::lab::tree::{analyse, summary, trace_text};

/// Command-line arguments of `cutoff tree`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The tree as nested brackets with integer leaves, e.g. `"[[3,12,8],[2,4,6],[14,5,2]]"`,
    /// or `-` to read it from standard input (for trees too long for a command line).
    pub tree: String,
    /// Print every step of the alpha-beta search: nodes entered with their window, leaf
    /// values, α/β updates and cutoffs.
    #[arg(long)]
    pub trace: bool,
    /// The root is MIN instead of MAX (levels still alternate).
    #[arg(long)]
    pub min_root: bool,
    /// Also write the search as a self-contained web page to FILE: the tree drawn, the pruned
    /// subtrees greyed with their cut, and a step control that replays the search.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Which searches the page shows: `oracle` adds the same tree searched best-first.
    #[arg(long, value_enum, default_value = "written", requires = "html")]
    pub order: Order,
}

/// The largest tree read from standard input: a bound on what endless input can take. What a
/// tree costs once read is bounded by its nodes ([`crate::lab::tree::bracket::MAX_NODES`]).
const MAX_STDIN_BYTES: u64 = 64 << 20;

/// The most nodes `--trace` and `--html` show: every step they print or replay names a node by
/// its whole path, so what they write grows with the nodes times the depth (a tree at the node
/// limit, 1000 levels deep, would print gigabytes). A page of more is past reading anyway.
pub const MAX_SHOWN_NODES: usize = 10_000;

/// The tree text: the argument, or standard input for `-`.
fn tree_text(arg: &str) -> Result<String, String> {
    use std::io::Read;
    if arg != "-" {
        return Ok(arg.to_string());
    }
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_STDIN_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    if bytes.len() as u64 > MAX_STDIN_BYTES {
        return Err(format!(
            "standard input is larger than {} MiB",
            MAX_STDIN_BYTES >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|_| "standard input is not UTF-8 text".to_string())
}

/// `cutoff tree`: exits with failure when alpha-beta and minimax disagree.
pub fn run(args: Args) -> ExitCode {
    if let Some(Err(e)) = args.html.as_deref().map(crate::files::check_output) {
        eprintln!("error: --html {e}");
        return ExitCode::from(2);
    }
    let text = match tree_text(&args.tree) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let tree = match BracketTree::parse(&text) {
        Ok(tree) => tree,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let shown = [("--trace", args.trace), ("--html", args.html.is_some())];
    if let Some((flag, _)) = shown.iter().find(|(_, on)| *on) {
        if tree.nodes.len() > MAX_SHOWN_NODES {
            eprintln!(
                "error: {flag}: a tree of {} nodes; {flag} shows at most {MAX_SHOWN_NODES} nodes \
                 (every step names a node's whole path): leave it out to have the tree analysed",
                tree.nodes.len()
            );
            return ExitCode::from(2);
        }
    }
    let side = if args.min_root { Side::Min } else { Side::Max };
    let report = analyse(&tree, side, args.trace || args.html.is_some());
    if let (true, Some(events)) = (args.trace, &report.events) {
        print!("{}", trace_text(&tree, events));
        println!();
    }
    print!("{}", summary(&tree, side, &report));
    if let Some(path) = &args.html {
        match crate::files::write_whole(
            path,
            tree_page(&tree, side, &report, args.order).as_bytes(),
        ) {
            Ok(()) => eprintln!("tree: wrote {}", path.display()),
            Err(e) => {
                eprintln!("error: cannot write {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if report.minimax == report.alphabeta {
        ExitCode::SUCCESS
    } else {
        eprintln!("error: alpha-beta returned a different value from minimax");
        ExitCode::FAILURE
    }
}
