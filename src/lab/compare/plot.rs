//! The plot of `cutoff compare --svg` (and of its page): nodes against depth, one line per
//! mode, drawn by a small hand-written SVG line plot with a logarithmic y axis, without pulling
//! a plotting crate and its font stack into the build.

use std::fmt::Write as _;

use super::chess::{minimal_tree_leaves, Mode};
use super::DepthResults;

/// The SVG plot of nodes against depth for all modes, with the minimal-tree line.
pub fn svg_plot(fen: &str, root_moves: usize, all: &[DepthResults]) -> String {
    let mut series: Vec<Series> = Mode::ALL
        .iter()
        .map(|&mode| Series {
            name: mode.short().to_string(),
            points: all
                .iter()
                .map(|r| (f64::from(r.depth), r.get(mode).counters.nodes as f64))
                .collect(),
            dashed: false,
        })
        .collect();
    series.push(Series {
        name: format!("minimal tree, b={root_moves} (leaves)"),
        points: all
            .iter()
            .map(|r| {
                (
                    f64::from(r.depth),
                    minimal_tree_leaves(root_moves as f64, r.depth as u32),
                )
            })
            .collect(),
        dashed: true,
    });
    let notes = [
        "ID + hash move: nodes of all".to_string(),
        "  iterations 1..d summed.".to_string(),
        "oracle: final pass only.".to_string(),
        "minimal tree: Knuth-Moore".to_string(),
        "  b^\u{2308}d/2\u{2309} + b^\u{230a}d/2\u{230b} \u{2212} 1 leaves,".to_string(),
        format!("  b = {root_moves} root moves."),
    ];
    plot(
        &Labels {
            title: "Nodes searched to a fixed depth: minimax vs alpha-beta",
            subtitle: fen,
            x: "depth (plies)",
            y: "nodes (log scale)",
            notes: &notes,
        },
        &series,
    )
}

/// One line of the plot.
#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    /// (x, y) points; y must be positive (log scale). Non-positive y are left out.
    pub points: Vec<(f64, f64)>,
    pub dashed: bool,
}

const WIDTH: f64 = 860.0;
const HEIGHT: f64 = 520.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 250.0;
const TOP: f64 = 56.0;
const BOTTOM: f64 = 62.0;
const COLORS: [&str; 8] = [
    "#d62728", "#ff7f0e", "#2ca02c", "#1f77b4", "#9467bd", "#7f7f7f", "#8c564b", "#e377c2",
];

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `1`, `10`, `100`, `1k`, … `1G`: the decade labels of the y axis.
fn decade_label(exp: i32) -> String {
    const SUFFIX: [(i32, &str); 4] = [(12, "T"), (9, "G"), (6, "M"), (3, "k")];
    for (e, s) in SUFFIX {
        if exp >= e {
            return format!("{}{s}", 10u64.pow((exp - e) as u32));
        }
    }
    if exp >= 0 {
        10u64.pow(exp as u32).to_string()
    } else {
        format!("1e{exp}")
    }
}

/// Everything a plot says besides its data.
pub struct Labels<'a> {
    pub title: &'a str,
    /// A smaller line under the title (centred on the whole picture).
    pub subtitle: &'a str,
    pub x: &'a str,
    pub y: &'a str,
    /// Lines of small print under the legend.
    pub notes: &'a [String],
}

/// The data's range and the mapping from data to picture coordinates: x linear, y by decades.
struct Frame {
    x_min: f64,
    x_max: f64,
    /// The lowest and highest power of ten on the y axis (`e_lo < e_hi`).
    e_lo: i32,
    e_hi: i32,
}

const PLOT_W: f64 = WIDTH - LEFT - RIGHT;
const PLOT_H: f64 = HEIGHT - TOP - BOTTOM;

impl Frame {
    /// The smallest frame holding every positive point, at least one unit wide and one decade
    /// high (a fixed default when there is nothing to show).
    fn fit(series: &[Series]) -> Frame {
        let points = || {
            series
                .iter()
                .flat_map(|s| s.points.iter())
                .filter(|p| p.1 > 0.0)
        };
        let (mut x_min, mut x_max) = points()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                (a.min(p.0), b.max(p.0))
            });
        let (y_lo, y_hi) = points().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.1), b.max(p.1))
        });
        if !x_min.is_finite() {
            (x_min, x_max) = (0.0, 1.0);
        }
        if x_max - x_min < 1.0 {
            x_min -= 0.5;
            x_max += 0.5;
        }
        let (mut e_lo, mut e_hi) = if y_lo.is_finite() {
            (y_lo.log10().floor() as i32, y_hi.log10().ceil() as i32)
        } else {
            (0, 1)
        };
        if e_hi <= e_lo {
            e_hi = e_lo + 1;
        }
        e_lo = e_lo.min(e_hi - 1);
        Frame {
            x_min,
            x_max,
            e_lo,
            e_hi,
        }
    }

    fn sx(&self, x: f64) -> f64 {
        LEFT + (x - self.x_min) / (self.x_max - self.x_min) * PLOT_W
    }

    fn sy(&self, y: f64) -> f64 {
        TOP + PLOT_H
            - (y.log10() - f64::from(self.e_lo)) / f64::from(self.e_hi - self.e_lo) * PLOT_H
    }
}

/// Draws the series with x ticks at every integer x and y gridlines at every power of ten.
pub fn plot(labels: &Labels, series: &[Series]) -> String {
    let frame = Frame::fit(series);
    let mut svg = String::new();
    draw_header(&mut svg, labels);
    draw_grid(&mut svg, &frame);
    draw_axes(&mut svg, labels);
    for (i, s) in series.iter().enumerate() {
        draw_series(&mut svg, &frame, i, s);
    }
    let notes_top = TOP + 14.0 + 22.0 * series.len() as f64 + 10.0;
    for (i, note) in labels.notes.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" font-size="11" fill="#444" xml:space="preserve">{}</text>"##,
            LEFT + PLOT_W + 16.0,
            notes_top + 16.0 * i as f64,
            escape(note)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// The opening tag, the white background, the title and the subtitle.
fn draw_header(svg: &mut String, labels: &Labels) {
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="24" font-size="17" text-anchor="middle" font-weight="bold">{}</text>"#,
        WIDTH / 2.0,
        escape(labels.title)
    );
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="42" font-size="11" text-anchor="middle" fill="#444">{}</text>"##,
        WIDTH / 2.0,
        escape(labels.subtitle)
    );
}

/// Horizontal gridlines with labels at each decade, vertical ticks at each integer x.
fn draw_grid(svg: &mut String, frame: &Frame) {
    for e in frame.e_lo..=frame.e_hi {
        let y = frame.sy(10f64.powi(e));
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/>"##,
            LEFT + PLOT_W
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="end">{}</text>"#,
            LEFT - 8.0,
            y + 4.0,
            decade_label(e)
        );
    }
    let mut x = frame.x_min.ceil();
    while x <= frame.x_max {
        let px = frame.sx(x);
        let _ = writeln!(
            svg,
            r##"<line x1="{px:.1}" y1="{TOP}" x2="{px:.1}" y2="{:.1}" stroke="#eee"/>"##,
            TOP + PLOT_H
        );
        let _ = writeln!(
            svg,
            r#"<text x="{px:.1}" y="{:.1}" font-size="12" text-anchor="middle">{x}</text>"#,
            TOP + PLOT_H + 18.0
        );
        x += 1.0;
    }
}

/// The plot's border and the axis labels.
fn draw_axes(svg: &mut String, labels: &Labels) {
    let _ = writeln!(
        svg,
        r#"<rect x="{LEFT}" y="{TOP}" width="{PLOT_W}" height="{PLOT_H}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle">{}</text>"#,
        LEFT + PLOT_W / 2.0,
        HEIGHT - 18.0,
        escape(labels.x)
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(20,{:.1}) rotate(-90)" font-size="13" text-anchor="middle">{}</text>"#,
        TOP + PLOT_H / 2.0,
        escape(labels.y)
    );
}

/// Series `i`: its line and points, and its row of the legend.
fn draw_series(svg: &mut String, frame: &Frame, i: usize, s: &Series) {
    let color = COLORS[i % COLORS.len()];
    let pts: Vec<(f64, f64)> = s
        .points
        .iter()
        .filter(|p| p.1 > 0.0)
        .map(|&(x, y)| (frame.sx(x), frame.sy(y)))
        .collect();
    let dash = if s.dashed {
        r#" stroke-dasharray="6,4""#
    } else {
        ""
    };
    if pts.len() > 1 {
        let coords: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let _ = writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2"{dash}/>"#,
            coords.join(" ")
        );
    }
    for (x, y) in &pts {
        let _ = writeln!(
            svg,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="3.5" fill="{color}"/>"#
        );
    }
    let ly = TOP + 14.0 + 22.0 * i as f64;
    let lx = LEFT + PLOT_W + 16.0;
    let _ = writeln!(
        svg,
        r#"<line x1="{lx}" y1="{ly}" x2="{:.1}" y2="{ly}" stroke="{color}" stroke-width="2"{dash}/>"#,
        lx + 26.0
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" font-size="12">{}</text>"#,
        lx + 32.0,
        ly + 4.0,
        escape(&s.name)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decades_are_labelled_with_suffixes() {
        assert_eq!(decade_label(0), "1");
        assert_eq!(decade_label(2), "100");
        assert_eq!(decade_label(4), "10k");
        assert_eq!(decade_label(9), "1G");
    }

    #[test]
    fn plot_escapes_text_and_draws_every_series() {
        let s = |name: &str| Series {
            name: name.to_string(),
            points: vec![(1.0, 20.0), (2.0, 400.0), (3.0, 0.0)],
            dashed: false,
        };
        let labels = Labels {
            title: "a <b>",
            subtitle: "",
            x: "depth",
            y: "nodes",
            notes: &[],
        };
        let svg = plot(&labels, &[s("x&y"), s("z")]);
        assert!(svg.contains("a &lt;b&gt;") && svg.contains("x&amp;y"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 4); // y = 0 cannot go on a log scale
    }
}
