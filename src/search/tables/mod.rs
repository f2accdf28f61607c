//! The search's tables, in one room: what it learns and keeps while it searches. The
//! transposition table (`tt`, shared by every thread), and each thread's own: the move
//! histories (`history`: butterfly, continuation, capture), the killers (`killers`, one pair per
//! ply), the evaluation's correction history (`correction`) and the principal variation (`pv`).

pub(crate) mod correction;
pub mod history;
pub mod killers;
pub mod pv;
pub mod tt;
