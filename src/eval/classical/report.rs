//! The `eval` command's table: each term group's middlegame and endgame contribution for White,
//! for Black and in total, then the phase, the endgame scale and the final value.

use shakmaty::{Chess, Position};

use super::params::GROUPS;
use super::scale::SCALE_NORMAL;
use super::taper::Taper;
use super::trace::Terms;
use super::{traced, MAX_PHASE};

fn cells(t: Taper) -> String {
    format!("{:>6} {:>6}", t.mg, t.eg)
}

/// The lines of the table for `pos`.
pub fn lines(pos: &Chess) -> Vec<String> {
    let mut terms = Terms::default();
    let b = traced(pos.board(), pos.turn(), &mut terms);
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
    for (&(name, _, _), [white, black]) in GROUPS.iter().zip(&terms.by_group) {
        if *white == Taper::default() && *black == Taper::default() {
            continue;
        }
        sums[0] += *white;
        sums[1] += *black;
        out.push(format!(
            " {name:<27}| {} | {} | {}",
            cells(*white),
            cells(*black),
            cells(*white - *black)
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
