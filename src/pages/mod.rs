//! The self-contained web pages (`--html`) and the JSON inside them, apart from the data they
//! draw: the tree and compare pages draw the alpha-beta lab ([`crate::reference`]), the explain
//! page draws the evaluation's breakdown ([`crate::eval::explain`]). Each page is one HTML file
//! with its styles, script and drawings inline and no external address anywhere; its numbers
//! ride along as JSON in `<script type="application/json" id="cutoff-data">`, which the script
//! draws from and the tests read back. The pages build on the text reports, never the other
//! way round.
//!
//! - [`tree`]: `cutoff tree --html`; [`compare`]: `cutoff compare --html`; [`explain`]:
//!   `cutoff explain --html`.
//! - [`json`]: the small JSON writer they embed their data with.
//! - `assets/`: the page frame, the shared style and each page's script and style, included in
//!   the binary.

pub mod compare;
pub mod explain;
pub mod json;
pub mod tree;

use json::Json;

const PAGE: &str = include_str!("assets/page.html");
const CSS: &str = include_str!("assets/page.css");

/// The `id` of the script element holding the page's data.
pub const DATA_ID: &str = "cutoff-data";

/// Escapes text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The whole page: `body` is trusted HTML; `script` (may be empty) runs after the data.
pub fn page(title: &str, body: &str, data: &Json, script: &str) -> String {
    // The JSON writer escapes `<`, so nothing in the data can end its script element early.
    PAGE.replace("{{TITLE}}", &escape(title))
        .replace("{{CSS}}", CSS)
        .replace("{{SCRIPT}}", script)
        .replace("{{BODY}}", body)
        .replace("{{DATA}}", &data.to_text())
}
