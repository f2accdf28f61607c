//! The two displays a person asks for at the UCI prompt: `d` (the board, FEN, key and
//! checkers) and `eval` (the classical evaluation's trace, then each evaluation's contribution
//! by piece and its odds).

use std::sync::Arc;

use shakmaty::{Chess, Position};

use super::output::send;
use crate::eval;
use crate::eval::{explain, Evaluator, EvaluatorKind, Network};
use crate::position::Game;
use crate::search::Settings;

/// `d`: the board drawn, the FEN, the key and the checkers of `game`'s position.
pub(super) fn board(game: &Game) {
    let board = game.root.board();
    send(" +---+---+---+---+---+---+---+---+");
    for rank in (0..8).rev() {
        let mut line = String::from(" |");
        for file in 0..8 {
            let sq =
                shakmaty::Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
            let c = board.piece_at(sq).map_or(' ', |p| p.char());
            line += &format!(" {c} |");
        }
        send(&format!("{line} {}", rank + 1));
        send(" +---+---+---+---+---+---+---+---+");
    }
    send("   a   b   c   d   e   f   g   h");
    send(&format!("Fen: {}", game.fen()));
    send(&format!("Key: {:016X}", game.root_key));
    let checkers: Vec<String> = game
        .root
        .checkers()
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    send(&format!("Checkers: {}", checkers.join(" ")));
}

/// `eval`: every term group's contribution, like a classical engine's eval trace, then for
/// each evaluation each piece's contribution and the odds by that evaluation's model; the net's
/// is `network`'s (none: not loaded), and `settings` (the next search's) say which one the
/// search uses.
pub(super) fn evaluation(pos: &Chess, network: Option<&Arc<Network>>, settings: &Settings) {
    for line in eval::classical::report::lines(pos) {
        send(&line);
    }
    let mut classical = Evaluator::new(EvaluatorKind::Classical, None);
    let c = explain::contributions(&mut classical, pos);
    let wdl = explain::white_wdl(EvaluatorKind::Classical, pos, c.white);
    let name = "classical evaluation";
    for line in explain::report_lines(name, &c, wdl, "the classical evaluation's model") {
        send(&line);
    }
    match network {
        Some(net) => {
            let side = net.evaluate(pos);
            let white = if pos.turn().is_white() { side } else { -side };
            send(&format!(
                "Net evaluation ({} {:016x}): {} cp (White side), {} cp (side to move){}",
                net.describe(),
                net.hash(),
                white.0,
                side.0,
                match (settings.effective_evaluator(), settings.evaluator) {
                    (EvaluatorKind::Net, _) => "; the search uses it",
                    (EvaluatorKind::Classical, EvaluatorKind::Net) => {
                        "; the search uses the classical evaluation (UCI_LimitStrength)"
                    }
                    (EvaluatorKind::Classical, EvaluatorKind::Classical) => {
                        "; the search uses the classical evaluation (Evaluation)"
                    }
                }
            ));
            let mut evaluator = Evaluator::new(EvaluatorKind::Net, Some(net));
            let c = explain::contributions(&mut evaluator, pos);
            let wdl = explain::white_wdl(EvaluatorKind::Net, pos, c.white);
            let model = explain::net_model_note(net);
            for line in explain::report_lines("net", &c, wdl, model) {
                send(&line);
            }
        }
        None => send("Net evaluation: no net loaded (EvalFile)"),
    }
}
