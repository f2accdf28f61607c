//! The command-line tools, side by side: each file is one subcommand's arguments (clap `Args`),
//! its `run`, and what it prints. The work itself is in the library modules below them
//! ([`crate::perft`], [`crate::epd`], [`crate::bench`], [`crate::datagen`], [`crate::tune`], [`crate::train`],
//! [`crate::reference`]), and what the commands share in [`crate::util`]. No command imports
//! another.

pub mod bench;
pub mod compare;
pub mod datagen;
pub mod epd;
pub mod perft;
pub mod train;
pub mod tree;
pub mod tune;
