//! `cutoff explain`: one position explained by both evaluations, as text and as a page.

pub mod page;
