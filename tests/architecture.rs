//! The layering of `src/` (docs/architecture.md), checked on the source text: every module's
//! `crate::` and `super::` paths, and the paths into its own children (`use child::...`,
//! `child::f()`, `self::child::...`), form the import graph, which must have no circle, no arrow
//! running up a layer, and no arrow from a `search/` file back up to the search's front
//! (`search/mod.rs`). Library code below the command line and `uci/` never prints to stdout.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers from the bottom up; a module may import its own layer's modules only when
/// they share a top-level module, and any module of a lower layer. A top-level module missing
/// here fails `every_module_has_a_layer`, so a new one must be placed on purpose.
const LAYERS: &[&[&str]] = &[
    // Numbers, memory sizes, the random-number generator, the one rule for reading files (and
    // suite files' lines), the golden-section search, the run-time hooks tests set in the
    // engine's environment, what a test that cannot run says (for tests only): depend on
    // nothing of ours.
    &[
        "types",
        "memory",
        "rng",
        "files",
        "golden_section",
        "test_hooks",
        "testing",
    ],
    // The board, and the worker threads (each with the stack `memory` sizes).
    &["threads", "position"],
    // What the search reads: the evaluation, tablebases; the EPD format.
    &["eval", "tablebase", "epd"],
    // The search, and the move-tree counter beside it.
    &["search", "perft"],
    // Libraries the commands drive: bench positions, EPD problems searched, self-play data, the
    // lab (the alpha-beta searches of `tree` and `compare`, `explain`, and the pages of all three).
    &["bench", "solve", "datagen", "lab"],
    // The tuner fits the evaluation to datagen's records; the trainer fits the net to them.
    &["tune", "train"],
    // The two front doors: the command line and the UCI loop.
    &["cli", "uci"],
];

/// Modules (by path, `a::b`) allowed to print to stdout: the command line and the UCI loop,
/// and the skip notice of tests (`SKIPPED: ...`, printed only by tests).
const PRINTERS: &[&str] = &["cli", "uci", "main", "testing"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/search/mod.rs` -> `search`, `src/search/time.rs` -> `search::time`, `src/lib.rs` -> ``.
fn module_of(path: &Path) -> String {
    let rel = path.strip_prefix(src()).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts.join("::")
}

/// The source without comments and without its `#[cfg(test)]` tail (unit tests may reach
/// anywhere). String literals are kept: paths inside them are rare and harmless here.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path a `use` names, with `{a, b::{c, d}}` groups expanded: `crate::x::{y, z}` gives
/// `crate::x::y` and `crate::x::z`.
fn expand_group(prefix: &str, body: &str, out: &mut Vec<String>) {
    let mut depth = 0;
    let mut item = String::new();
    let mut items = Vec::new();
    for ch in body.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        item.push(ch);
    }
    items.push(item);
    for item in items {
        let item: String = item.split_whitespace().collect();
        if item.is_empty() {
            continue;
        }
        match item.find("::{") {
            Some(i) if item.ends_with('}') => {
                let sub = format!("{prefix}::{}", &item[..i]);
                expand_group(&sub, &item[i + 3..item.len() - 1], out);
            }
            _ => out.push(format!("{prefix}::{item}")),
        }
    }
}

/// The paths starting with `crate::` or `super::` that a module's code names, with groups
/// expanded.
fn paths_in(code: &str) -> Vec<String> {
    paths_starting(code, &["crate::", "super::"])
}

/// The paths into a module's own children (`children`: their names) that its code names:
/// `child::x`, `self::child::x` and `use child::{x, y}`, each given as `child::x`. A path
/// reached through something else (`other::child::x`, `crate::child::x`) is not one of them.
fn child_paths_in(code: &str, children: &[&str]) -> Vec<String> {
    let starts: Vec<String> = children
        .iter()
        .flat_map(|c| [format!("{c}::"), format!("self::{c}::")])
        .collect();
    let starts: Vec<&str> = starts.iter().map(String::as_str).collect();
    paths_starting(code, &starts)
        .into_iter()
        .map(|p| p.strip_prefix("self::").map_or(p.clone(), str::to_string))
        .collect()
}

/// The paths starting with one of `starts` (each ending in `::`, and not itself the tail of a
/// longer path or name) that the code names, with groups expanded.
fn paths_starting(code: &str, starts: &[&str]) -> Vec<String> {
    let mut paths = Vec::new();
    let is_path_char = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    for start in starts {
        for (at, _) in code.match_indices(start) {
            let before = code[..at].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path: String = code[at..]
                .chars()
                .take_while(|c| is_path_char(*c))
                .collect();
            let after = &code[at + path.len()..];
            if after.starts_with('{') && path.ends_with("::") {
                let mut depth = 0;
                let end = after
                    .char_indices()
                    .find(|&(_, c)| {
                        depth += match c {
                            '{' => 1,
                            '}' => -1,
                            _ => 0,
                        };
                        depth == 0
                    })
                    .map_or(after.len(), |(i, _)| i);
                expand_group(path.trim_end_matches(':'), &after[1..end], &mut paths);
            } else {
                paths.push(path.trim_end_matches(':').to_string());
            }
        }
    }
    paths
}

struct Graph {
    modules: BTreeSet<String>,
    /// module -> the modules it imports (the longest module prefix of each path).
    edges: BTreeMap<String, BTreeSet<String>>,
    code: BTreeMap<String, String>,
}

fn graph() -> Graph {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(f)).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut code = BTreeMap::new();
    for file in &files {
        let module = module_of(file);
        let text = code_of(&fs::read_to_string(file).unwrap());
        // A module's own children, named without `crate::` or `super::`: `use child::x`.
        let children: Vec<&str> = modules
            .iter()
            .filter_map(|m| match module.as_str() {
                "" => Some(m.as_str()),
                _ => m.strip_prefix(&format!("{module}::")),
            })
            .filter(|c| !c.is_empty() && !c.contains("::"))
            .collect();
        let own = child_paths_in(&text, &children)
            .into_iter()
            .map(|p| format!("self::{p}"));
        for path in paths_in(&text).into_iter().chain(own) {
            let mut parts: Vec<&str> = path.split("::").collect();
            let mut target: Vec<&str> = if parts[0] == "self" {
                parts.remove(0);
                module.split("::").filter(|p| !p.is_empty()).collect()
            } else if parts[0] == "super" {
                let mut base: Vec<&str> = module.split("::").collect();
                // `super` of `a::b` is `a`; a file's own children use `self`, not `super`.
                while parts.first() == Some(&"super") {
                    base.pop();
                    parts.remove(0);
                }
                base
            } else {
                parts.remove(0);
                Vec::new()
            };
            target.extend(parts);
            let found = (1..=target.len())
                .rev()
                .map(|k| target[..k].join("::"))
                .find(|m| modules.contains(m));
            if let Some(t) = found.filter(|t| *t != module) {
                edges.entry(module.clone()).or_default().insert(t);
            }
        }
        code.insert(module, text);
    }
    Graph {
        modules,
        edges,
        code,
    }
}

fn top(module: &str) -> &str {
    module.split("::").next().unwrap()
}

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&top(module)))
}

/// A circle through `start`, if the graph has one (depth-first search).
fn circle_from(
    start: &str,
    edges: &BTreeMap<String, BTreeSet<String>>,
    path: &mut Vec<String>,
) -> Option<Vec<String>> {
    let here = path.last().unwrap().clone();
    for next in edges.get(&here).into_iter().flatten() {
        if next == start {
            let mut circle = path.clone();
            circle.push(next.clone());
            return Some(circle);
        }
        if !path.contains(next) && next.as_str() > start {
            path.push(next.clone());
            if let Some(c) = circle_from(start, edges, path) {
                return Some(c);
            }
            path.pop();
        }
    }
    None
}

fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.keys().chain(edges.values().flatten()).collect();
    nodes
        .into_iter()
        .filter_map(|n| circle_from(n, edges, &mut vec![n.clone()]))
        .collect()
}

/// Whether the code calls `print!` or `println!` (not `eprint!`/`eprintln!`, which go to stderr).
fn prints_to_stdout(code: &str) -> bool {
    ["print!(", "println!("].iter().any(|mac| {
        code.match_indices(mac).any(|(at, _)| {
            !code[..at]
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    })
}

#[test]
fn the_checker_sees_imports_of_every_form() {
    let code = "use crate::a::{b, c::{d, e}};\nuse super::f;\nlet x = crate::g::h(1);";
    let mut paths = paths_in(code);
    paths.sort();
    assert_eq!(
        paths,
        [
            "crate::a::b",
            "crate::a::c::d",
            "crate::a::c::e",
            "crate::g::h",
            "super::f"
        ]
    );
    let code = "use child::{X, y::Z};\nlet v = child::f(self::child::g());\n\
                use other::child::W;\nlet w = crate::child::V + mychild::U;";
    let mut own = child_paths_in(code, &["child"]);
    own.sort();
    assert_eq!(own, ["child::X", "child::f", "child::g", "child::y::Z"]);
    let g = graph();
    assert!(
        g.edges
            .get("search::shared")
            .is_some_and(|e| e.contains("search::tables::tt")),
        "the search's shared state imports the table, and the checker must see it"
    );
    assert!(
        g.edges
            .get("datagen")
            .is_some_and(|e| e.contains("datagen::viriformat")),
        "datagen's front imports its child by `use viriformat::...`, and the checker must see it"
    );
}

#[test]
fn the_checker_finds_a_circle() {
    let mut edges = BTreeMap::new();
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    edges.insert("a".to_string(), set(&["b"]));
    edges.insert("b".to_string(), set(&["c"]));
    edges.insert("c".to_string(), set(&["a"]));
    assert_eq!(circles(&edges).len(), 1);
    edges.insert("c".to_string(), set(&["d"]));
    assert!(circles(&edges).is_empty());
    assert!(prints_to_stdout("x; println!(\"{}\", 1);"));
    assert!(!prints_to_stdout("eprintln!(\"{}\", 1); eprint!(\"x\");"));
}

#[test]
fn no_module_imports_in_a_circle() {
    let g = graph();
    let found = circles(&g.edges);
    assert!(found.is_empty(), "import circles: {found:?}");
    let mut tops: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, tos) in &g.edges {
        for to in tos.iter().filter(|to| top(to) != top(from)) {
            tops.entry(top(from).to_string())
                .or_default()
                .insert(top(to).to_string());
        }
    }
    let found = circles(&tops);
    assert!(
        found.is_empty(),
        "circles between top-level modules: {found:?}"
    );
}

#[test]
fn every_module_has_a_layer() {
    let g = graph();
    let missing: Vec<&String> = g
        .modules
        .iter()
        .filter(|m| !m.is_empty() && *m != "main" && layer(m).is_none())
        .collect();
    assert!(
        missing.is_empty(),
        "modules without a layer in LAYERS: {missing:?}"
    );
}

#[test]
fn imports_run_down_the_layers_only() {
    let g = graph();
    let mut upward = Vec::new();
    for (from, tos) in &g.edges {
        let Some(lf) = layer(from) else { continue };
        for to in tos {
            let Some(lt) = layer(to) else { continue };
            if lt > lf || (lt == lf && top(to) != top(from)) {
                upward.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that do not run downwards: {upward:?}"
    );
}

#[test]
fn no_search_file_imports_the_search_front() {
    let g = graph();
    let back: Vec<&String> = g
        .edges
        .iter()
        .filter(|(from, tos)| from.starts_with("search::") && tos.contains("search"))
        .map(|(from, _)| from)
        .collect();
    assert!(
        back.is_empty(),
        "search files importing search/mod.rs: {back:?}"
    );
}

#[test]
fn only_the_command_line_and_uci_print_to_stdout() {
    let g = graph();
    let printers: Vec<&String> = g
        .code
        .iter()
        .filter(|(m, _)| !PRINTERS.contains(&top(m)))
        .filter(|(_, code)| prints_to_stdout(code))
        .map(|(m, _)| m)
        .collect();
    assert!(
        printers.is_empty(),
        "library modules printing to stdout: {printers:?}"
    );
}

/// The search's code (comments and unit tests left out), by module, and the modules that
/// say `needle`.
fn search_modules_saying(g: &Graph, needle: &str) -> Vec<String> {
    g.code
        .iter()
        .filter(|(m, code)| m.starts_with("search") && code.contains(needle))
        .map(|(m, _)| m.clone())
        .collect()
}

/// Search and quiescence reach the evaluation only through the evaluator door: no search file
/// imports anything of the evaluation but the evaluator's types, and only the worker (whose
/// `evaluate` is the door) asks the evaluator for a value. A second evaluator then has one
/// place to plug into.
#[test]
fn the_search_evaluates_only_through_the_evaluator_door() {
    let g = graph();
    let mut strays = Vec::new();
    for (module, code) in g.code.iter().filter(|(m, _)| top(m) == "search") {
        for path in paths_in(code) {
            let allowed = [
                "crate::eval::Evaluator",
                "crate::eval::EvaluatorKind",
                "crate::eval::Network",
            ];
            if path.starts_with("crate::eval") && !allowed.contains(&path.as_str()) {
                strays.push(format!("{module}: {path}"));
            }
        }
    }
    assert!(
        strays.is_empty(),
        "the evaluation reached around the door: {strays:?}"
    );
    assert_eq!(
        search_modules_saying(&g, "evaluator.evaluate("),
        ["search::worker"]
    );
}

/// Every child position of the search is made by the move doors of `search/apply.rs`: no
/// other search file plays a move or passes, so that the key stack, the frame, the prefetch
/// and the evaluator's hooks cannot be forgotten at one site.
#[test]
fn the_search_makes_children_only_through_the_move_doors() {
    let g = graph();
    assert_eq!(
        search_modules_saying(&g, "play_unchecked"),
        ["search::apply"]
    );
    assert!(search_modules_saying(&g, ".play(").is_empty());
    for import in ["null_move", "key_after", "child_key"] {
        let path = format!("crate::position::{import}");
        let importers: Vec<&String> = g
            .code
            .iter()
            .filter(|(m, code)| top(m) == "search" && paths_in(code).contains(&path))
            .map(|(m, _)| m)
            .collect();
        assert!(
            importers.iter().all(|m| *m == "search::apply"),
            "{path} outside the doors: {importers:?}"
        );
    }
    for door in [
        "fn visit_child",
        "fn visit_null_child",
        "evaluator.on_move",
        "evaluator.on_null_move",
    ] {
        assert_eq!(search_modules_saying(&g, door), ["search::apply"], "{door}");
    }
}

/// The evaluation's rooms: `eval::classical` and `eval::nnue` are siblings that do not import
/// each other, nor the door (`eval::evaluator`), the WDL model or anything else beside them in
/// `eval/`; and no file in `eval/` imports `eval/mod.rs`, which only names the rooms and
/// re-exports the door for the layers above. So a tool asks both evaluations through one
/// interface, and either room can change without the other noticing.
#[test]
fn the_two_evaluations_are_siblings_below_the_door() {
    let g = graph();
    let room = |m: &str| -> Option<&'static str> {
        ["classical", "nnue"]
            .into_iter()
            .find(|r| m == format!("eval::{r}") || m.starts_with(&format!("eval::{r}::")))
    };
    let mut wrong = Vec::new();
    for (from, tos) in g.edges.iter().filter(|(m, _)| top(m) == "eval") {
        for to in tos.iter().filter(|to| top(to) == "eval") {
            let upward = to == "eval";
            let out_of_room = room(from).is_some_and(|r| room(to) != Some(r));
            if upward || out_of_room {
                wrong.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports out of the evaluation's rooms: {wrong:?}"
    );
    let door = &g.edges["eval::evaluator"];
    assert!(
        door.contains("eval::classical") && door.contains("eval::nnue"),
        "the door opens onto both rooms: {door:?}"
    );
}

/// The net file's format is defined once, in `eval::nnue::format`: the engine reads nets and the
/// trainer writes them through it. Each of these marks a piece of the format (the magic, the
/// hash's offset basis, the input count, the header size, the quantisation, the widest net, the
/// range check, the feature index); found in any other module's code, it is a second
/// definition, which the two sides were before (`train::quantised`, `train::data`).
#[test]
fn the_net_format_is_defined_in_one_module() {
    let g = graph();
    let marks = [
        "b\"CUTOFFNN\"",
        "0xcbf2_9ce4_8422_2325",
        "INPUTS: usize = 768",
        "HEADER_BYTES: usize = 64",
        "const QA",
        "const QB",
        "const MAX_HIDDEN",
        "fn check_range",
        "fn feature_index",
    ];
    let mut elsewhere = Vec::new();
    for (module, code) in g.code.iter().filter(|(m, _)| *m != "eval::nnue::format") {
        for mark in marks.iter().filter(|mark| code.contains(*mark)) {
            elsewhere.push(format!("{module}: {mark}"));
        }
    }
    assert!(
        elsewhere.is_empty(),
        "the net format defined outside eval::nnue::format: {elsewhere:?}"
    );
    let format = &g.code["eval::nnue::format"];
    assert!(marks
        .iter()
        .filter(|m| **m != "fn feature_index")
        .all(|m| format.contains(m)));
    let users = ["train::quantised", "train::data", "train::checkpoint"];
    for user in users {
        assert!(
            g.edges[user].contains("eval::nnue::format"),
            "{user} does not use the format"
        );
    }
}

/// When a search stops has one room, `search::stop` (the limits of `go`, the clocks, the time
/// budget, the stop policy and the control), and what a search reports has another,
/// `search::report`: each of these types is defined in its room only, and the stop room names
/// none of the report's. The UCI layer declares no limit of `go` of its own: its parser fills
/// the search's `Limits` (they once were two types repeating each other's fields: issue 78).
#[test]
fn when_to_stop_and_what_is_reported_each_have_one_room() {
    let g = graph();
    let in_room = |m: &str, room: &str| m == room || m.starts_with(&format!("{room}::"));
    let mut wrong = Vec::new();
    let rooms = [
        ("search::stop", "struct Limits "),
        ("search::stop", "struct Clocks "),
        ("search::stop", "struct Clock "),
        ("search::stop", "struct TimeBudget "),
        ("search::stop", "struct StopPolicy "),
        ("search::stop", "struct Control "),
        ("search::report", "struct IterationInfo<"),
        ("search::report", "trait Reporter "),
        ("search::report", "struct SearchOutcome "),
    ];
    for (room, definition) in rooms {
        let at: Vec<&String> = g
            .code
            .iter()
            .filter(|(_, code)| code.contains(definition))
            .map(|(m, _)| m)
            .collect();
        if at.len() != 1 || !in_room(at[0], room) {
            wrong.push(format!(
                "{definition}: defined in {at:?}, not once in {room}"
            ));
        }
    }
    for (module, code) in g.code.iter().filter(|(m, _)| in_room(m, "search::stop")) {
        for name in ["IterationInfo", "Reporter", "SearchOutcome"] {
            if code.contains(name) {
                wrong.push(format!("{module} names {name}"));
            }
        }
    }
    let limits = [
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "movetime",
        "depth",
        "nodes",
        "mate",
        "infinite",
    ];
    for (module, code) in g.code.iter().filter(|(m, _)| in_room(m, "uci")) {
        for field in limits {
            if code.contains(&format!("pub {field}:")) {
                wrong.push(format!("{module} declares its own `{field}`"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:?}");
}

/// The UCI session (`uci::engine`) hands each job beside it to a file of its own: the search
/// thread and its answer to `uci::task`, the `info` lines to `uci::info`, the `d` and `eval`
/// displays to `uci::display` (they were all one file of four jobs: issue 78). Each mark below
/// is found in its file's code and in no other file of `uci/`.
#[test]
fn the_uci_session_hands_each_job_to_its_own_file() {
    let g = graph();
    let marks = [
        ("uci::task", "\"bestmove "),
        ("uci::task", "thread::Builder"),
        ("uci::info", "impl Reporter for"),
        ("uci::info", "\"info depth {} seldepth"),
        ("uci::display", "\"Fen: "),
        ("uci::display", "Net evaluation ("),
    ];
    let mut wrong = Vec::new();
    for (home, mark) in marks {
        let at: Vec<&String> = g
            .code
            .iter()
            .filter(|(m, code)| top(m) == "uci" && code.contains(mark))
            .map(|(m, _)| m)
            .collect();
        if at != [home] {
            wrong.push(format!("{mark}: in {at:?}, not only in {home}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:?}");
}

/// Each piece of the engine's state has one owner, the searcher (`search::Searcher` and its
/// `search::shared::Shared`), which the UCI layer asks: `uci/` keeps no hash size, thread
/// count, tablebase path or net of its own (it once kept each beside the searcher's: issue 78),
/// and the rule that the net needs one loaded is written once, in the evaluator door.
#[test]
fn the_engine_state_has_one_owner() {
    let g = graph();
    let mut wrong = Vec::new();
    // A field's declaration (`threads: usize`), not a path (`crate::threads::`).
    let copies = [
        "hash_mb: ",
        "threads: ",
        "syzygy_path",
        "Option<Arc<Network>>",
    ];
    for (module, code) in g.code.iter().filter(|(m, _)| top(m) == "uci") {
        for copy in copies.iter().filter(|c| code.contains(*c)) {
            wrong.push(format!("{module} keeps `{copy}`"));
        }
    }
    let rule = "(EvaluatorKind::Net, None)";
    let at: Vec<&String> = g
        .code
        .iter()
        .filter(|(_, code)| code.contains(rule))
        .map(|(m, _)| m)
        .collect();
    if at != ["eval::evaluator"] {
        wrong.push(format!("{rule} decided in {at:?}"));
    }
    assert!(wrong.is_empty(), "{wrong:?}");
}

/// The lab's rooms: `lab::tree`, `lab::compare` and `lab::explain` each hold one feature whole
/// and do not import each other; what they share (the page shell `lab::html`, the searches of
/// `lab::minimax`) imports no feature, the shell nothing else of the lab, and nothing imports
/// `lab/mod.rs`, which only names the rooms. In each room the data never imports the drawings
/// (the page, the table, the plot) nor the shell: a page is drawn from what the text is printed
/// from, never the other way round (what `reference/` below `pages/` kept as two layers).
#[test]
fn the_lab_features_are_rooms_over_the_shared_page_machinery() {
    let g = graph();
    let under = |m: &str, room: &str| m == room || m.starts_with(&format!("{room}::"));
    let feature = |m: &str| -> Option<&'static str> {
        ["lab::tree", "lab::compare", "lab::explain"]
            .into_iter()
            .find(|f| under(m, f))
    };
    let drawing = |m: &str| {
        under(m, "lab::html")
            || ["::page", "::table", "::plot"]
                .iter()
                .any(|d| m.ends_with(d))
    };
    let mut wrong = Vec::new();
    for (from, tos) in g.edges.iter().filter(|(m, _)| top(m) == "lab") {
        for to in tos.iter().filter(|to| top(to) == "lab") {
            let across = feature(to).is_some() && feature(from) != feature(to);
            let shell_reaching_out = under(from, "lab::html") && !under(to, "lab::html");
            let data_on_drawing = !drawing(from) && drawing(to);
            if to == "lab" || across || shell_reaching_out || data_on_drawing {
                wrong.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports out of the lab's rooms: {wrong:?}"
    );
    for page in [
        "lab::tree::page",
        "lab::compare::page",
        "lab::explain::page",
    ] {
        assert!(
            g.edges.get(page).is_some_and(|e| e.contains("lab::html")),
            "{page} is drawn in the shared page shell"
        );
    }
}

/// The front doors of `train` and `epd` are doors: flags, one call into the library and the
/// lines they print. The run of `train` (its recipe, going on from a checkpoint, loading the
/// data, the epochs, writing the net) is in `train::run`, `train::recipe` and `train::resume`;
/// searching the EPD problems (the searcher, the workers and their channel) is in `solve`.
/// Each of these marks, found in the door's code, is that work back in the door, where it was.
#[test]
fn the_train_and_epd_doors_leave_the_work_to_the_library() {
    let g = graph();
    let doors = [
        (
            "cli::train",
            &[
                "checkpoint::latest(",
                "checkpoint::load(",
                "checkpoint::save(",
                "data::load(",
                "train_epoch(",
                "write_net(",
                "fit_k(",
            ][..],
        ),
        (
            "cli::epd",
            &["Searcher", ".run(", "mpsc", "worker_pool("][..],
        ),
    ];
    let mut work = Vec::new();
    for (door, marks) in doors {
        let code = &g.code[door];
        work.extend(
            marks
                .iter()
                .filter(|mark| code.contains(*mark))
                .map(|mark| format!("{door}: {mark}")),
        );
    }
    assert!(work.is_empty(), "library work in a front door: {work:?}");
    for (library, mark) in [
        ("train::run", "train_epoch("),
        ("train::resume", "checkpoint::latest("),
        ("solve", "searcher.run("),
    ] {
        assert!(g.code[library].contains(mark), "{library} lacks {mark}");
    }
}

/// `testing` (what a test that cannot run says) is for tests only: `lib.rs` declares it under
/// `#[cfg(test)]` alone, so the built engine does not carry it, and the integration tests
/// include the same file from `tests/common`. No library module's own code (unit tests left
/// out) names it, which would not build without `cfg(test)` anyway; the test hooks the built engine reads at run time are
/// in `test_hooks`.
#[test]
fn testing_is_compiled_for_tests_only() {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let code: String = lib
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        code.contains("#[cfg(test)]\nmod testing;"),
        "lib.rs does not declare `testing` for tests only"
    );
    assert_eq!(code.matches("mod testing;").count(), 1, "{code}");
    let common = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/common/mod.rs");
    let common = fs::read_to_string(common).unwrap();
    assert!(common.contains("#[path = \"../../src/testing.rs\"]\npub mod testing;"));
    let g = graph();
    let users: Vec<&String> = g
        .code
        .iter()
        .filter(|(m, code)| {
            // The unit tests' own files (`#[cfg(test)] mod tests;`) may use it.
            *m != "testing"
                && !m.ends_with("::tests")
                && paths_in(code)
                    .iter()
                    .any(|p| p.starts_with("crate::testing"))
        })
        .map(|(m, _)| m)
        .collect();
    assert!(users.is_empty(), "library code using `testing`: {users:?}");
    assert!(g.code["search"].contains("crate::test_hooks::fail_search_at_depth()"));
}
