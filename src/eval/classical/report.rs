//! The `eval` command's table: each term group's middlegame and endgame contribution for White,
//! for Black and in total, then the phase, the endgame scale and the final value.

use shakmaty::{Chess, Position};

use super::params::GROUPS;
use super::scale::SCALE_NORMAL;
use super::taper::Taper;
use super::trace::Terms;
use super::{traced, Breakdown, MAX_PHASE};

fn cells(t: Taper) -> String {
    format!("{:>6} {:>6}", t.mg, t.eg)
}

/// One term group's sums: White's and Black's middlegame and endgame values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub name: &'static str,
    pub white: Taper,
    pub black: Taper,
}

/// The term groups that count in `pos` (in `GROUPS` order, the all-zero ones left out) and
/// the evaluation they add up to: what the table prints and `cutoff explain`'s page shows.
pub fn rows(pos: &Chess) -> (Vec<Row>, Breakdown) {
    let mut terms = Terms::default();
    let b = traced(pos.board(), pos.turn(), &mut terms);
    let rows = GROUPS
        .iter()
        .zip(&terms.by_group)
        .filter(|(_, [white, black])| *white != Taper::default() || *black != Taper::default())
        .map(|(&(name, _, _), &[white, black])| Row { name, white, black })
        .collect();
    (rows, b)
}

/// The lines of the table for `pos`.
pub fn lines(pos: &Chess) -> Vec<String> {
    let (rows, b) = rows(pos);
    let rule = format!("{:-<28}+{:-<15}+{:-<15}+{:-<14}", "", "", "", "");
    let mut out = vec![
        format!(
            "{:<28}|{:^15}|{:^15}|{:^14}",
            " Term", "White", "Black", "Total"
        ),
        format!(
            "{:<28}|{:>7}{:>7} |{:>7}{:>7} |{:>7}{:>7}",
            "", "MG", "EG", "MG", "EG", "MG", "EG"
        ),
        rule.clone(),
    ];
    let mut sums = [Taper::default(); 2];
    for Row { name, white, black } in rows {
        sums[0] += white;
        sums[1] += black;
        out.push(format!(
            " {name:<27}| {} | {} | {}",
            cells(white),
            cells(black),
            cells(white - black)
        ));
    }
    out.push(rule);
    out.push(format!(
        " {:<27}| {} | {} | {}",
        "Total",
        cells(sums[0]),
        cells(sums[1]),
        cells(b.white_minus_black)
    ));
    out.push(format!(
        "Phase: {}/{MAX_PHASE}, endgame scale {}/{SCALE_NORMAL}",
        b.phase, b.scale
    ));
    let stm = if pos.turn().is_white() {
        b.white
    } else {
        -b.white
    };
    out.push(format!(
        "Final evaluation: {} cp (White side), {stm} cp (side to move)",
        b.white
    ));
    out
}
