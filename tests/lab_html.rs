//! The lab's web pages (`cutoff tree --html`, `cutoff compare --html`): the data they embed is
//! read back and must equal what the text commands print, the HTML must hold together, and
//! nothing in it may point outside the file.
//!
//! `page_runs_in_headless_chromium_and_the_step_control_advances` needs Debian's `chromium`
//! (or `CHROMIUM=/path/to/browser`) and is ignored by default; run it with
//! `cargo test --release --test lab_html -- --ignored`.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::json::{page_data, J};
use cutoff::lab::minimax::Side;
use cutoff::lab::tree::bracket::{BracketTree, ROOT};
use cutoff::lab::tree::page::{tree_page, Order};
use cutoff::lab::tree::{analyse, summary, trace_text};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Reading a page back: a small JSON parser and the embedded data.

// ---------------------------------------------------------------------------------------------
// Well-formedness and self-containment.

/// Elements that have no end tag.
const VOID: [&str; 6] = ["meta", "br", "hr", "img", "input", "link"];

/// Checks that every element opened in the page (outside script and style text) is closed in
/// order, and returns how many elements there were.
fn assert_tags_balance(html: &str) -> usize {
    let mut stack: Vec<String> = Vec::new();
    let mut count = 0;
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        rest = &rest[lt + 1..];
        if rest.starts_with("!") {
            rest = &rest[rest.find('>').unwrap() + 1..];
            continue;
        }
        let gt = rest.find('>').expect("unclosed tag");
        let tag = &rest[..gt];
        rest = &rest[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack
                .pop()
                .unwrap_or_else(|| panic!("</{name}> closes nothing"));
            assert_eq!(open, name.trim(), "</{name}> closes <{open}>");
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        count += 1;
        if tag.ends_with('/') || VOID.contains(&name.as_str()) {
            continue;
        }
        if name == "script" || name == "style" {
            // Raw text: skip to the end tag (the JSON writer escapes '<', so none comes early).
            let end = format!("</{name}>");
            rest = &rest[rest.find(&end).unwrap_or_else(|| panic!("no {end}")) + end.len()..];
            continue;
        }
        stack.push(name);
    }
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
    count
}

/// No address outside the file: no URL, no protocol-relative source, no imports.
fn assert_self_contained(html: &str) {
    for needle in [
        "http://",
        "https://",
        "src=\"//",
        "href=\"//",
        "url(",
        "@import",
        "<link",
        "<script src",
    ] {
        assert!(!html.contains(needle), "the page contains {needle:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// `cutoff tree --html`.

fn cutoff(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .output()
        .expect("run cutoff");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn temp_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lab_html-{}-{name}", std::process::id()))
}

/// The value of `key: value` in `cutoff tree`'s output.
fn field<'a>(text: &'a str, key: &str) -> &'a str {
    let prefix = format!("{key}: ");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no {key:?} in\n{text}"))
}

/// The page's trace lines (each event's text, indented by its depth) as `--trace` prints them.
fn page_trace(search: &J) -> String {
    search
        .get("events")
        .arr()
        .iter()
        .map(|e| {
            let indent: usize = e.get("indent").n().parse().unwrap();
            format!("{}{}\n", "  ".repeat(indent), e.get("text").s())
        })
        .collect()
}

/// Everything the page says about the written-order search equals the text output `text`
/// (the summary `cutoff tree` prints), and its events are the trace `trace`.
fn assert_page_matches(data: &J, text: &str, trace: &str) {
    let written = &data.get("searches").arr()[0];
    assert_eq!(written.get("key").s(), "written");
    assert_eq!(data.get("minimax").s(), field(text, "minimax"));
    assert_eq!(
        data.get("minimax_leaves").n(),
        field(text, "minimax leaves")
    );
    assert_eq!(written.get("value").s(), field(text, "alphabeta"));
    assert_eq!(written.get("nodes").n(), field(text, "alphabeta nodes"));
    assert_eq!(written.get("leaves").n(), field(text, "alphabeta leaves"));
    assert_eq!(
        written.get("pruned_leaves").n(),
        field(text, "pruned leaves")
    );
    assert!(field(text, "cutoffs").starts_with(&format!("{} (", written.get("cutoffs").n())));
    assert_eq!(
        written.get("first_move_cutoffs").n(),
        field(text, "first-move cutoffs")
    );
    assert_eq!(page_trace(written), trace);
    // Leaves evaluated plus leaves pruned is every leaf.
    let total: u64 = data.get("total_leaves").n().parse().unwrap();
    let leaves: u64 = written.get("leaves").n().parse().unwrap();
    let pruned: u64 = written.get("pruned_leaves").n().parse().unwrap();
    assert_eq!(leaves + pruned, total);
    if let Some(oracle) = data.get("searches").arr().get(1) {
        assert_eq!(
            oracle.get("leaves").n(),
            field(text, "oracle-order alphabeta leaves")
        );
        assert_eq!(oracle.get("value").s(), field(text, "alphabeta"));
    }
}

/// The trees of `tests/reference_trees.rs`, worked by hand there.
const TEXTBOOK: [&str; 5] = [
    "[[3,12,8],[2,4,6],[14,5,2]]",
    "[[[3,5],[6,9]],[[1,2],[0,-1]]]",
    "[[[[5,6],[7,4,5]],[[3]]],[[[6],[6,9]],[[7]]],[[[5]],[[9,8],[6]]]]",
    "[[1,[2,3]],[[4],5,[6,[7,8]]],9]",
    "7",
];

#[test]
fn tree_page_embeds_the_trace_and_the_counts_cutoff_tree_prints() {
    for tree in TEXTBOOK {
        for min_root in [false, true] {
            let page = temp_file("textbook.html");
            let mut args = vec![
                "tree",
                tree,
                "--html",
                page.to_str().unwrap(),
                "--order",
                "oracle",
            ];
            let mut trace_args = vec!["tree", "--trace", tree];
            if min_root {
                args.push("--min-root");
                trace_args.push("--min-root");
            }
            let (code, text, err) = cutoff(&args);
            assert_eq!(code, 0, "{err}");
            // --html leaves stdout as it was without it.
            let plain: Vec<&str> = args
                .iter()
                .copied()
                .filter(|a| !a.starts_with("--"))
                .take(2)
                .collect();
            let plain = if min_root {
                [plain.clone(), vec!["--min-root"]].concat()
            } else {
                plain
            };
            assert_eq!(cutoff(&plain).1, text, "stdout changed by --html");
            let (_, traced, _) = cutoff(&trace_args);
            let (trace, summary_text) = traced.split_once("\n\n").unwrap();
            assert_eq!(summary_text, text);

            let html = std::fs::read_to_string(&page).unwrap();
            std::fs::remove_file(&page).unwrap();
            assert_self_contained(&html);
            assert!(assert_tags_balance(&html) > 20);
            let data = page_data(&html);
            assert_eq!(data.get("searches").arr().len(), 2);
            assert_page_matches(&data, &text, &format!("{trace}\n"));
            // The static summary shows the same counts as the data.
            let evaluated = format!(
                r#"id="leaves-evaluated">{}<"#,
                field(&text, "alphabeta leaves")
            );
            assert!(html.contains(&evaluated), "{tree}: missing {evaluated}");
        }
    }
}

#[test]
fn pruned_subtrees_carry_their_cut_condition_on_the_page() {
    let page = temp_file("cut.html");
    let (code, _, err) = cutoff(&[
        "tree",
        "[[3,12,8],[2,4,6],[14,5,2]]",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(&page).unwrap();
    std::fs::remove_file(&page).unwrap();
    let data = page_data(&html);
    let searches = data.get("searches").arr();
    assert_eq!(
        searches.len(),
        1,
        "without --order oracle only the written order is shown"
    );
    let cuts = searches[0].get("cuts").arr();
    assert_eq!(cuts.len(), 2);
    assert_eq!(
        cuts[0].get("label").s(),
        "\u{3b1} = 3 \u{2265} \u{3b2} = 2 at node 2"
    );
    let skipped: Vec<String> = cuts[0].get("skipped").arr().iter().map(|n| n.n()).collect();
    let paths: Vec<&str> = skipped
        .iter()
        .map(|n| {
            data.get("nodes").arr()[n.parse::<usize>().unwrap()]
                .get("path")
                .s()
        })
        .collect();
    assert_eq!(paths, ["2.2", "2.3"]);
    assert!(html.contains("\u{3b1} = 3 \u{2265} \u{3b2} = 2 at node 2: skipped 2.2-2.3 (2 leaves)"));
    // A cut by the last move skips nothing.
    assert!(cuts[1].get("skipped").arr().is_empty());
}

#[test]
fn order_oracle_draws_every_node_s_children_in_the_order_searched() {
    let text = "[[3,12,8],[2,4,6],[14,5,2]]";
    let t = BracketTree::parse(text).unwrap();
    let report = analyse(&t, Side::Max, true);
    let data = page_data(&tree_page(&t, Side::Max, &report, Order::Oracle));
    let order = |k: usize, n: usize| -> Vec<String> {
        data.get("searches").arr()[k].get("order").arr()[n]
            .arr()
            .iter()
            .map(|c| {
                data.get("nodes").arr()[c.n().parse::<usize>().unwrap()]
                    .get("path")
                    .s()
                    .to_string()
            })
            .collect()
    };
    // Written order: as written. Oracle order: best first for the side to move (MAX at the
    // root: 1 is worth 3, 2 and 3 are worth 2; MIN below: lowest first).
    assert_eq!(order(0, ROOT), ["1", "2", "3"]);
    assert_eq!(order(1, ROOT), ["1", "2", "3"]);
    assert_eq!(order(1, t.children(ROOT)[0]), ["1.1", "1.3", "1.2"]);
    assert_eq!(order(1, t.children(ROOT)[2]), ["3.3", "3.2", "3.1"]);
    // The oracle events skip 3.2 and 3.1 after 3.3: listed as tried, not as a range.
    let oracle_trace = page_trace(&data.get("searches").arr()[1]);
    assert!(
        oracle_trace.contains("cutoff at 3: alpha=3 >= beta=2, skipping 3.2, 3.1 (2 leaves)"),
        "{oracle_trace}"
    );
}

/// Ragged trees, as in `tests/reference_trees.rs`: up to 6 levels, 1..=4 children.
fn ragged_tree() -> impl Strategy<Value = String> {
    (-9i64..=9)
        .prop_map(|v| v.to_string())
        .prop_recursive(6, 300, 4, |inner| {
            prop::collection::vec(inner, 1..=4).prop_map(|v| format!("[{}]", v.join(",")))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_tree_pages_agree_with_the_text_output(text in ragged_tree(), min_root: bool) {
        let t = BracketTree::parse(&text).unwrap();
        let side = if min_root { Side::Min } else { Side::Max };
        let report = analyse(&t, side, true);
        let html = tree_page(&t, side, &report, Order::Oracle);
        assert_self_contained(&html);
        assert_tags_balance(&html);
        let data = page_data(&html);
        let trace = trace_text(&t, report.events.as_deref().unwrap());
        assert_page_matches(&data, &summary(&t, side, &report), &trace);
        // Every node's drawing order is a permutation of its children.
        for search in data.get("searches").arr() {
            for (n, kids) in search.get("order").arr().iter().enumerate() {
                let mut got: Vec<usize> = kids.arr().iter().map(|c| c.n().parse().unwrap()).collect();
                got.sort_unstable();
                prop_assert_eq!(got, t.children(n).to_vec());
            }
        }
    }
}

#[test]
fn data_cannot_close_its_script_element() {
    // The trace lines hold `<=` (fail-hard bounds) and `->`: in the page's data they must be
    // written `\u003c=` and `-\u003e`, so no text can ever end the script element early.
    let t = BracketTree::parse("[[3,12,8],[2,4,6],[14,5,2]]").unwrap();
    let html = tree_page(&t, Side::Max, &analyse(&t, Side::Max, true), Order::Written);
    let open = r#"<script type="application/json" id="cutoff-data">"#;
    let start = html.find(open).unwrap() + open.len();
    let json = &html[start..start + html[start..].find("</script>").unwrap()];
    assert!(!json.contains('<') && !json.contains('>'), "{json}");
    assert!(json.contains("true value \\u003c= 3") && json.contains("-\\u003e"));
}

// ---------------------------------------------------------------------------------------------
// `cutoff compare --html`.

/// WAC.004: White mates in 2 (Qxh7+ Kxh7 hxg6#).
const WAC_004: &str = "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1";

#[test]
fn compare_page_tables_equal_the_text_tables_with_moves_in_san() {
    let page = temp_file("compare.html");
    let (code, text, err) = cutoff(&[
        "compare",
        "--fen",
        WAC_004,
        "--depth",
        "1..3",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(&page).unwrap();
    std::fs::remove_file(&page).unwrap();
    assert_self_contained(&html);
    assert!(assert_tags_balance(&html) > 100);
    let data = page_data(&html);
    assert_eq!(data.get("fen").s(), WAC_004);
    let depths = data.get("depths").arr();
    assert_eq!(depths.len(), 3);

    // Each text row: label, value (`cp 31` / `mate 2`), nodes, leaves, ..., cutoffs, 1st-move.
    for (block, depth) in text.split("depth: ").skip(1).zip(depths) {
        assert_eq!(block.lines().next().unwrap(), depth.get("depth").n());
        let modes = depth.get("modes").arr();
        for mode in modes {
            let label = mode.get("label").s();
            let row = block
                .lines()
                .find(|l| l.starts_with(&format!("{label} ")))
                .unwrap();
            let cols: Vec<&str> = row[label.len()..].split_whitespace().collect();
            let c = mode.get("counters");
            assert_eq!(
                format!("{} {}", cols[0], cols[1]),
                mode.get("value_text").s(),
                "{row}"
            );
            assert_eq!(cols[2], c.get("nodes").n(), "{row}");
            assert_eq!(cols[3], c.get("leaves").n(), "{row}");
            if label != "minimax" {
                assert_eq!(cols[6], c.get("cutoffs").n(), "{row}");
            }
        }
        assert_eq!(depth.get("agree"), &J::Bool(true));
    }
    // Depth 3 sees the mate: the principal line is the mating line, in SAN.
    let line: Vec<&str> = data
        .get("principal")
        .get("line")
        .arr()
        .iter()
        .map(J::s)
        .collect();
    assert_eq!(line, ["Qxh7+", "Kxh7", "hxg6#"]);
    assert_eq!(
        data.get("principal").get("root_moves").arr()[0]
            .get("san")
            .s(),
        "Qxh7+"
    );
    assert!(html.contains("Qxh7+ Kxh7 hxg6#"));
    // The board: 64 squares and one glyph per piece of the FEN.
    let board = &html[html.find(r#"<svg class="board""#).unwrap()..];
    let board = &board[..board.find("</svg>").unwrap()];
    assert_eq!(board.matches("<rect").count(), 64);
    let pieces = WAC_004
        .split(' ')
        .next()
        .unwrap()
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .count();
    assert_eq!(board.matches("<title>").count(), pieces);
    // The cost curve, with the dashed minimal-tree line.
    assert!(html.contains("stroke-dasharray=\"6,4\""));
}

// ---------------------------------------------------------------------------------------------
// A real browser.

fn chromium() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".to_string())
}

/// Runs headless Chromium on `url` with extra `args`; returns (stdout, console lines).
fn headless(url: &str, args: &[&str]) -> (String, Vec<String>) {
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=3000",
        ])
        .args(args)
        .arg(url)
        .output()
        .expect("run chromium (install Debian's `chromium` or set CHROMIUM)");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let console = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
        .map(str::to_string)
        .collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), console)
}

/// The `data-step` of the panel with id `panel-{key}` in a dumped DOM.
fn panel_step(dom: &str, key: &str) -> usize {
    let at = dom
        .find(&format!(r#"id="panel-{key}""#))
        .unwrap_or_else(|| panic!("no panel {key} in the DOM"));
    let tag = &dom[dom[..at].rfind('<').unwrap()..at + dom[at..].find('>').unwrap()];
    let step = tag
        .split("data-step=\"")
        .nth(1)
        .unwrap_or_else(|| panic!("no data-step in {tag}"));
    step[..step.find('"').unwrap()].parse().unwrap()
}

#[test]
#[ignore = "needs headless Chromium: cargo test --release --test lab_html -- --ignored"]
fn page_runs_in_headless_chromium_and_the_step_control_advances() {
    let page = temp_file("browser.html");
    let (code, _, err) = cutoff(&[
        "tree",
        "[[[3,5],[6,9]],[[1,2],[0,-1]]]",
        "--html",
        page.to_str().unwrap(),
        "--order",
        "oracle",
    ]);
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(&page).unwrap();
    let data = page_data(&html);
    let events = data.get("searches").arr()[0].get("events").arr();
    let url = format!("file://{}", page.display());

    // Loaded plainly, the page shows the finished search in both panels, with no error.
    let (dom, console) = headless(&url, &["--dump-dom"]);
    assert!(console.is_empty(), "console: {console:?}");
    assert!(!dom.contains("data-errors=\""), "script error in the DOM");
    assert_eq!(panel_step(&dom, "written"), events.len());
    assert_eq!(
        panel_step(&dom, "oracle"),
        data.get("searches").arr()[1].get("events").arr().len()
    );
    // Count only what was drawn: the script's own source follows the data element.
    let drawn = &dom[..dom.find(r#"<script type="application/json""#).unwrap()];
    assert_eq!(
        drawn.matches(r#"<g class="node "#).count(),
        2 * data.get("nodes").arr().len(),
        "every node drawn in each panel"
    );

    // With #demo the page presses Home and then → three times: the written-order panel is at
    // step 3 and shows the third event's trace line; the other panel did not move.
    let (dom, console) = headless(&format!("{url}#demo"), &["--dump-dom"]);
    assert!(console.is_empty(), "console: {console:?}");
    assert!(dom.contains(r#"data-demo="done""#), "the demo did not run");
    assert_eq!(panel_step(&dom, "written"), 3);
    // The DOM dump writes text with `&`, `<` and `>` as entities.
    let third = events[2]
        .get("text")
        .s()
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    assert!(
        dom.contains(&format!(r#"<div class="step-text">{third}</div>"#)),
        "step text is not {third:?}"
    );
    assert_eq!(
        panel_step(&dom, "oracle"),
        data.get("searches").arr()[1].get("events").arr().len()
    );

    // And it draws: a screenshot of the page is a real picture, not a blank one.
    let png = temp_file("browser.png");
    let (_, console) = headless(
        &url,
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1200,800",
        ],
    );
    assert!(console.is_empty(), "console: {console:?}");
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"), "not a PNG");
    assert!(
        bytes.len() > 20_000,
        "a {} byte screenshot is too plain to hold the tree",
        bytes.len()
    );
    std::fs::remove_file(&png).unwrap();
    std::fs::remove_file(&page).unwrap();
}
