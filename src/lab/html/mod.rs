//! The page machinery the lab's three pages share: the page shell (`page.html`, with the
//! shared style `page.css`), HTML escaping, the small JSON writer ([`json`]) the pages embed
//! their numbers with, and what their chess boards share ([`board`]). Each page is one HTML file with its styles, script and drawings
//! inline and no external address anywhere; its numbers ride along as JSON in
//! `<script type="application/json" id="cutoff-data">`, which the script draws from and the
//! tests read back. What each page draws lives with its feature: [`crate::lab::tree::page`],
//! [`crate::lab::compare::page`], [`crate::lab::explain::page`], each with its script and style
//! beside it; this module knows none of them.

pub mod board;
pub mod json;

use json::Json;

const PAGE: &str = include_str!("page.html");
const CSS: &str = include_str!("page.css");

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
    fill(
        PAGE,
        &[
            ("{{TITLE}}", &escape(title)),
            ("{{CSS}}", CSS),
            ("{{SCRIPT}}", script),
            ("{{BODY}}", body),
            ("{{DATA}}", &data.to_text()),
        ],
    )
}

/// `template` with each placeholder replaced by its value, in one pass: a value is never
/// scanned again, so text that holds a placeholder's name (a title or a path the user chose)
/// stays as it is, where one `replace` after another filled it with what came later.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let at = &rest[start..];
        match values.iter().find(|(name, _)| at.starts_with(name)) {
            Some((name, value)) => {
                out.push_str(value);
                rest = &at[name.len()..];
            }
            None => {
                out.push_str("{{");
                rest = &at[2..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a page is filled with is never read as the template again: a title or body that
    /// holds a placeholder's name (a file path `{{DATA}}.html`, a sample named so) keeps it as
    /// text, and the data appears once, in its script element.
    #[test]
    fn text_holding_a_placeholder_name_is_never_filled() {
        let data = Json::obj([("marker", Json::str("the-data"))]);
        let html = page("{{DATA}} {{BODY}}", "<p>{{DATA}} {{CSS}}</p>", &data, "");
        assert_eq!(html.matches("the-data").count(), 1, "{html}");
        assert_eq!(html.matches("{{DATA}}").count(), 2, "{html}");
        assert!(html.contains("<p>{{DATA}} {{CSS}}</p>"), "{html}");
    }
}
