//! `cutoff explain --html FILE`: one position explained by both evaluations, as one
//! self-contained page: each piece's contribution to the net and to the classical evaluation
//! side by side, their totals and odds, the learned piece-square maps of both over a sample,
//! and the classical evaluation's term groups.
//!
//! The numbers are the very [`Explained`] values the text is printed from ([`super::text`]),
//! embedded as JSON (`#cutoff-data`) beside the drawings made from them, so the page and the
//! text agree; a test reads the JSON back.

use std::fmt::Write as _;

use shakmaty::{Chess, EnPassantMode, Piece, Role};

use super::maps::PlacementMap;
use super::Explained;
use crate::eval::classical::report::{self, Row};
use crate::eval::classical::Breakdown;
use crate::eval::explain::{pawns, Cell, Contributions};
use crate::lab::html::board::{coordinates, glyph, ink};
use crate::lab::html::json::Json;
use crate::lab::html::{escape, page};

const EXPLAIN_JS: &str = include_str!("explain.js");
const EXPLAIN_CSS: &str = include_str!("explain.css");

/// Everything the page shows.
pub struct ExplainPage<'a> {
    pub pos: &'a Chess,
    /// The net first, then the classical evaluation.
    pub evaluations: &'a [Explained],
    /// What the sample is (its file and number of positions).
    pub sample: &'a str,
    pub terms: &'a (Vec<Row>, Breakdown),
}

fn cells_json(c: &Contributions) -> Json {
    Json::Arr(
        c.cells
            .iter()
            .map(|cell| match *cell {
                Cell::Empty => Json::Null,
                Cell::King(color) => Json::obj([
                    ("piece", Json::str(Role::King.of(color).char().to_string())),
                    ("value", Json::Null),
                ]),
                Cell::Piece(piece, value) => Json::obj([
                    ("piece", Json::str(piece.char().to_string())),
                    ("value", value.map_or(Json::Null, Json::int)),
                ]),
            })
            .collect(),
    )
}

fn map_json(map: &PlacementMap) -> Json {
    Json::obj([
        ("piece", Json::str(map.piece.char().to_string())),
        (
            "mean",
            Json::Arr(
                (0..64)
                    .map(|sq| map.mean(sq).map_or(Json::Null, Json::Float))
                    .collect(),
            ),
        ),
        (
            "count",
            Json::Arr(map.count.iter().map(|&n| Json::int(n)).collect()),
        ),
    ])
}

fn taper_json(t: shakmaty::ByColor<crate::eval::classical::Taper>) -> Json {
    let pair = |t: crate::eval::classical::Taper| Json::Arr(vec![Json::int(t.mg), Json::int(t.eg)]);
    Json::obj([("white", pair(t.white)), ("black", pair(t.black))])
}

/// The page's data: what the tests read back.
pub fn data(p: &ExplainPage<'_>) -> Json {
    let evaluations = p
        .evaluations
        .iter()
        .map(|e| {
            Json::obj([
                ("name", Json::str(e.name.clone())),
                ("total", Json::int(e.contributions.white)),
                ("cells", cells_json(&e.contributions)),
                (
                    "wdl",
                    e.wdl.map_or(Json::Null, |(w, d, l)| {
                        Json::Arr(vec![Json::int(w), Json::int(d), Json::int(l)])
                    }),
                ),
                ("model", Json::str(e.model.clone())),
                ("maps", Json::Arr(e.maps.iter().map(map_json).collect())),
            ])
        })
        .collect();
    let (rows, b) = p.terms;
    let terms = rows
        .iter()
        .map(|r| {
            Json::obj([
                ("name", Json::str(r.name)),
                (
                    "sums",
                    taper_json(shakmaty::ByColor {
                        white: r.white,
                        black: r.black,
                    }),
                ),
            ])
        })
        .collect();
    Json::obj([
        (
            "fen",
            Json::str(shakmaty::fen::Fen::from_position(p.pos, EnPassantMode::Legal).to_string()),
        ),
        ("sample", Json::str(p.sample)),
        ("evaluations", Json::Arr(evaluations)),
        ("terms", Json::Arr(terms)),
        ("phase", Json::int(b.phase)),
        ("scale", Json::int(b.scale)),
        ("classical_white", Json::int(b.white)),
    ])
}

/// A colour for `v` on a scale of `±span`: blue for White's gain, red for Black's, white at 0.
fn heat(v: f64, span: f64) -> String {
    let t = (v / span.max(1.0)).clamp(-1.0, 1.0);
    let (r, g, b) = if t >= 0.0 {
        (1.0 - 0.75 * t, 1.0 - 0.5 * t, 1.0)
    } else {
        (1.0, 1.0 + 0.6 * t, 1.0 + 0.7 * t)
    };
    let c = |x: f64| (x * 255.0).round() as u8;
    format!("#{:02x}{:02x}{:02x}", c(r), c(g), c(b))
}

/// The board with each piece's contribution: the piece, its value in pawns below it, the
/// square coloured by the value.
fn contribution_svg(e: &Explained, id: &str) -> String {
    const SQ: usize = 56;
    let mut svg = format!(
        r#"<svg class="board" id="{id}" width="{w}" height="{w}" viewBox="0 0 {w} {w}" font-family="DejaVu Sans, sans-serif">"#,
        w = SQ * 8 + 18
    );
    for sq in 0..64 {
        let (file, rank) = (sq % 8, sq / 8);
        let (x, y) = (18 + file * SQ, (7 - rank) * SQ);
        let light = (rank + file) % 2 == 1;
        let (fill, label) = match e.contributions.cells[sq] {
            Cell::Piece(_, Some(cp)) => (heat(f64::from(cp), 900.0), pawns(cp)),
            Cell::Piece(_, None) => ("#d8d8d8".to_string(), ".".to_string()),
            _ => (
                if light { "#f3ead9" } else { "#dccbb0" }.to_string(),
                String::new(),
            ),
        };
        let _ = write!(
            svg,
            r##"<rect class="sq" data-sq="{sq}" x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{fill}" stroke="#bbb" stroke-width="0.5"/>"##
        );
        let piece = match e.contributions.cells[sq] {
            Cell::King(color) => Some(Role::King.of(color)),
            Cell::Piece(p, _) => Some(p),
            Cell::Empty => None,
        };
        if let Some(piece) = piece {
            let (fill, stroke) = ink(piece.color);
            let _ = write!(
                svg,
                r#"<text x="{}" y="{}" font-size="30" text-anchor="middle" fill="{fill}" stroke="{stroke}" stroke-width="1.1" pointer-events="none">{}</text><text class="cv" x="{}" y="{}" font-size="12.5" text-anchor="middle" pointer-events="none">{}</text>"#,
                x + SQ / 2,
                y + 32,
                glyph(piece),
                x + SQ / 2,
                y + SQ - 6,
                escape(&label)
            );
        }
    }
    svg.push_str(&coordinates(SQ, 12));
    svg.push_str("</svg>");
    svg
}

/// The odds as a bar: White's wins, draws, Black's wins.
fn wdl_bar(wdl: Option<(u32, u32, u32)>, model: &str) -> String {
    let Some((w, d, l)) = wdl else {
        return r#"<p class="note">no model</p>"#.to_string();
    };
    let pct = |n: u32| f64::from(n) / 10.0;
    format!(
        r#"<div class="wdl" title="{model}"><span class="w" style="width:{}%">{}</span><span class="d" style="width:{}%">{}</span><span class="l" style="width:{}%">{}</span></div><p class="note">White wins {:.1} %, draw {:.1} %, Black wins {:.1} % ({})</p>"#,
        pct(w),
        if w >= 80 {
            format!("{:.0}%", pct(w))
        } else {
            String::new()
        },
        pct(d),
        if d >= 80 {
            format!("{:.0}%", pct(d))
        } else {
            String::new()
        },
        pct(l),
        if l >= 80 {
            format!("{:.0}%", pct(l))
        } else {
            String::new()
        },
        pct(w),
        pct(d),
        pct(l),
        escape(model)
    )
}

/// The mean of a map over the squares it has a value on.
fn map_mean(map: &PlacementMap) -> Option<f64> {
    let values: Vec<f64> = (0..64).filter_map(|sq| map.mean(sq)).collect();
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The largest distance of a square's average from its map's mean, over `maps`: one colour
/// scale for the net's and the classical map of a piece, so that they compare.
fn spread(maps: &[&PlacementMap]) -> f64 {
    maps.iter()
        .filter_map(|m| map_mean(m).map(|mean| (m, mean)))
        .flat_map(|(m, mean)| (0..64).filter_map(move |sq| m.mean(sq).map(|v| (v - mean).abs())))
        .fold(1.0, f64::max)
}

/// One placement map as an 8×8 heat map: each square coloured by how much better (blue) or
/// worse (red) than the map's mean the piece stands there, from its own side's view; grey
/// where no sample position could take it.
fn heat_map_svg(map: &PlacementMap, span: f64, id: &str) -> String {
    const SQ: usize = 22;
    let w = SQ * 8 + 18;
    let mut svg = format!(
        r#"<svg class="heat" id="{id}" width="{w}" height="{w}" viewBox="0 0 {w} {w}" font-family="DejaVu Sans, sans-serif">"#
    );
    let mean = map_mean(map).unwrap_or(0.0);
    let own = if map.piece.color.is_white() {
        1.0
    } else {
        -1.0
    };
    for sq in 0..64 {
        let (x, y) = (18 + (sq % 8) * SQ, (7 - sq / 8) * SQ);
        let fill = match map.mean(sq) {
            Some(v) => heat(own * (v - mean), span),
            None => "#cfcfcf".to_string(),
        };
        let _ = write!(
            svg,
            r#"<rect class="hm" data-sq="{sq}" x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{fill}"/>"#
        );
    }
    svg.push_str(&coordinates(SQ, 9));
    svg.push_str("</svg>");
    svg
}

fn piece_name(piece: Piece) -> String {
    let color = if piece.color.is_white() {
        "White"
    } else {
        "Black"
    };
    let role = format!("{:?}", piece.role).to_lowercase();
    format!("{color} {role}")
}

/// The heat maps of all twelve pieces: for each, the net's beside the classical one.
fn heat_maps(evaluations: &[Explained]) -> String {
    let mut html = String::from(r#"<div class="maps">"#);
    let count = evaluations.first().map_or(0, |e| e.maps.len());
    for i in 0..count {
        let maps: Vec<&PlacementMap> = evaluations.iter().map(|e| &e.maps[i]).collect();
        let span = spread(&maps);
        let piece = maps[0].piece;
        let _ = write!(
            html,
            r#"<div class="map"><h3>{} {}</h3><div class="pair">"#,
            glyph(piece),
            piece_name(piece)
        );
        for (e, map) in evaluations.iter().zip(&maps) {
            let mean = map_mean(map).map_or("-".to_string(), |m| pawns(m.round() as i32));
            let _ = write!(
                html,
                r#"<figure>{}<figcaption>{}: mean {}</figcaption></figure>"#,
                heat_map_svg(map, span, &format!("map-{}-{i}", e.name.replace(' ', "-"))),
                escape(e.name.split(' ').next().unwrap_or_default()),
                mean
            );
        }
        let _ = write!(
            html,
            r#"</div><p class="note">colour: ±{} pawns around each map's mean</p></div>"#,
            pawns(span.round() as i32).trim()
        );
    }
    html.push_str("</div>");
    html
}

/// The classical evaluation's term groups as a table, as the `eval` command prints them.
fn terms_table(terms: &(Vec<Row>, Breakdown)) -> String {
    let (rows, b) = terms;
    let mut html = String::from(
        "<table class=\"terms\"><tr><th rowspan=\"2\">Term</th><th colspan=\"2\">White</th><th colspan=\"2\">Black</th><th colspan=\"2\">Total</th></tr><tr><th>MG</th><th>EG</th><th>MG</th><th>EG</th><th>MG</th><th>EG</th></tr>",
    );
    for r in rows {
        let t = r.white - r.black;
        let _ = write!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(r.name),
            r.white.mg,
            r.white.eg,
            r.black.mg,
            r.black.eg,
            t.mg,
            t.eg
        );
    }
    let _ = write!(
        html,
        "</table><p class=\"note\">Phase {}/24, endgame scale {}/128: {} cp from White's side.</p>",
        b.phase, b.scale, b.white
    );
    html
}

/// The whole page of `pos` explained by `evaluations` (the net first), the maps measured
/// over `sample` (its file and number of positions).
pub fn explain_page(pos: &Chess, evaluations: &[Explained], sample: &str) -> String {
    let terms = report::rows(pos);
    let p = &ExplainPage {
        pos,
        evaluations,
        sample,
        terms: &terms,
    };
    let fen = shakmaty::fen::Fen::from_position(p.pos, EnPassantMode::Legal).to_string();
    let mut body = format!(
        r#"<h1>What each piece is worth: the net and the classical evaluation</h1><p class="mono">{}</p><h2>Each piece's contribution</h2><p class="note">The position's value minus its value with the piece taken off, in pawns from White's side (kings stay; grey with a dot: taking it off leaves no legal position).</p><div class="board-row">"#,
        escape(&fen)
    );
    for (i, e) in p.evaluations.iter().enumerate() {
        let _ = write!(
            body,
            r#"<div class="panel"><h2>{}: <span class="total">{}</span></h2>{}{}</div>"#,
            escape(&e.name),
            pawns(e.contributions.white),
            contribution_svg(e, &format!("board-{i}")),
            wdl_bar(e.wdl, &e.model)
        );
    }
    let _ = write!(
        body,
        r#"</div><p class="step-text" id="hover">Point at a square to compare the two values.</p><h2>Learned piece-square values</h2><p class="note">For each piece, the average change in value from putting it on each empty square (a king: moving that side's king there) over {}; placements that leave no legal position are skipped. Both evaluations are measured the same way and drawn on one colour scale per piece.</p>{}<h2>Classical term groups</h2>{}"#,
        escape(p.sample),
        heat_maps(p.evaluations),
        terms_table(p.terms)
    );
    let body = format!("<style>{EXPLAIN_CSS}</style>{body}");
    page("Cutoff explains a position", &body, &data(p), EXPLAIN_JS)
}
