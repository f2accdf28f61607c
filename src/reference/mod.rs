//! Plain reference minimax and alpha-beta over a game-tree trait, separate from the production
//! search, to test and show that alpha-beta returns the minimax value with fewer nodes.

pub mod compare;
pub mod tree;
