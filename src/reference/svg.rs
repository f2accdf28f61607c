//! A small hand-written SVG line plot with a logarithmic y axis: enough for "nodes against
//! depth, one line per mode", without pulling a plotting crate and its font stack into the build.

use std::fmt::Write as _;

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

/// Draws the series with x ticks at every integer x and y gridlines at every power of ten.
pub fn plot(labels: &Labels, series: &[Series]) -> String {
    let points = || {
        series
            .iter()
            .flat_map(|s| s.points.iter())
            .filter(|p| p.1 > 0.0)
    };
    let (mut x_min, mut x_max) = points().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
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

    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let sx = |x: f64| LEFT + (x - x_min) / (x_max - x_min) * plot_w;
    let sy =
        |y: f64| TOP + plot_h - (y.log10() - f64::from(e_lo)) / f64::from(e_hi - e_lo) * plot_h;

    let mut svg = String::new();
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

    // Horizontal gridlines and labels at each decade.
    for e in e_lo..=e_hi {
        let y = sy(10f64.powi(e));
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/>"##,
            LEFT + plot_w
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="end">{}</text>"#,
            LEFT - 8.0,
            y + 4.0,
            decade_label(e)
        );
    }
    // Vertical ticks at integer x.
    let mut x = x_min.ceil();
    while x <= x_max {
        let px = sx(x);
        let _ = writeln!(
            svg,
            r##"<line x1="{px:.1}" y1="{TOP}" x2="{px:.1}" y2="{:.1}" stroke="#eee"/>"##,
            TOP + plot_h
        );
        let _ = writeln!(
            svg,
            r#"<text x="{px:.1}" y="{:.1}" font-size="12" text-anchor="middle">{x}</text>"#,
            TOP + plot_h + 18.0
        );
        x += 1.0;
    }
    // Axes and their labels.
    let _ = writeln!(
        svg,
        r#"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle">{}</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 18.0,
        escape(labels.x)
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(20,{:.1}) rotate(-90)" font-size="13" text-anchor="middle">{}</text>"#,
        TOP + plot_h / 2.0,
        escape(labels.y)
    );

    // The lines, then the legend.
    for (i, s) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(|p| p.1 > 0.0)
            .map(|&(x, y)| (sx(x), sy(y)))
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
        let lx = LEFT + plot_w + 16.0;
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
    let notes_top = TOP + 14.0 + 22.0 * series.len() as f64 + 10.0;
    for (i, note) in labels.notes.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" font-size="11" fill="#444" xml:space="preserve">{}</text>"##,
            LEFT + plot_w + 16.0,
            notes_top + 16.0 * i as f64,
            escape(note)
        );
    }
    svg.push_str("</svg>\n");
    svg
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
