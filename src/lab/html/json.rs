//! A minimal JSON writer for the data the lab's web pages embed (`--html`). The pages need a
//! few nested objects and nothing else, so a small value type beats a serialization crate.
//!
//! Output is safe inside an HTML `<script>` element: `<`, `>` and `&` are written as `\u003c`,
//! `\u003e` and `\u0026`, so no string can close the element or open a comment, and U+2028 and
//! U+2029 (line terminators in old JavaScript) are escaped too.

use std::fmt::Write as _;

/// A JSON value. Numbers are integers or finite floats; objects keep their keys in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// An object from `(key, value)` pairs.
    pub fn obj<const N: usize>(pairs: [(&str, Json); N]) -> Json {
        Json::Obj(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    pub fn str(s: impl Into<String>) -> Json {
        Json::Str(s.into())
    }

    pub fn int(n: impl Into<i128>) -> Json {
        Json::Int(n.into())
    }

    /// The compact text of the value.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(n) => {
                let _ = write!(out, "{n}");
            }
            // JSON has no NaN or infinity: such a float is written as null.
            Json::Float(x) if x.is_finite() => {
                let _ = write!(out, "{x}");
            }
            Json::Float(_) => out.push_str("null"),
            Json::Str(s) => write_string(s, out),
            Json::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Obj(pairs) => {
                out.push('{');
                for (i, (key, value)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(key, out);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_cannot_close_a_script_element() {
        let text = Json::str("</script><!-- \"a\\b\"\n&").to_text();
        assert_eq!(text, r#""\u003c/script\u003e\u003c!-- \"a\\b\"\n\u0026""#);
        assert!(!text.contains('<') && !text.contains('>'));
    }

    #[test]
    fn nested_values_are_written_compactly_in_order() {
        let v = Json::obj([
            (
                "b",
                Json::Arr(vec![Json::int(1), Json::Null, Json::Bool(true)]),
            ),
            ("a", Json::Float(0.5)),
            ("nan", Json::Float(f64::NAN)),
            ("big", Json::int(u64::MAX)),
        ]);
        assert_eq!(
            v.to_text(),
            r#"{"b":[1,null,true],"a":0.5,"nan":null,"big":18446744073709551615}"#
        );
    }
}
