//! A small JSON reader for the tests that read back the data the lab pages embed (`cutoff tree
//! --html`, `compare --html`, `explain --html`): the page's numbers must equal the text output's.

#[derive(Clone, Debug, PartialEq)]
pub enum J {
    Null,
    Bool(bool),
    /// The number's text, exactly as written (counts can exceed an f64's integers).
    Num(String),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    pub fn get(&self, key: &str) -> &J {
        match self {
            J::Obj(pairs) => {
                &pairs
                    .iter()
                    .find(|(k, _)| k == key)
                    .unwrap_or_else(|| panic!("no key {key}"))
                    .1
            }
            _ => panic!("not an object looking up {key}"),
        }
    }
    pub fn arr(&self) -> &[J] {
        match self {
            J::Arr(items) => items,
            other => panic!("not an array: {other:?}"),
        }
    }
    pub fn s(&self) -> &str {
        match self {
            J::Str(s) => s,
            other => panic!("not a string: {other:?}"),
        }
    }
    /// A number as f64, `None` for anything else (`null` where a value may be missing).
    pub fn num(&self) -> Option<f64> {
        match self {
            J::Num(n) => n.parse().ok(),
            _ => None,
        }
    }
    pub fn n(&self) -> String {
        match self {
            J::Num(n) => n.clone(),
            other => panic!("not a number: {other:?}"),
        }
    }
}

pub struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) {
        self.ws();
        assert_eq!(
            self.s.get(self.i),
            Some(&c),
            "expected {:?} at {}",
            c as char,
            self.i
        );
        self.i += 1;
    }
    fn value(&mut self) -> J {
        self.ws();
        match self.s[self.i] {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => {
                self.i += 1;
                J::Str(self.string())
            }
            b't' | b'f' | b'n' => self.literal(),
            _ => self.number(),
        }
    }
    fn object(&mut self) -> J {
        self.i += 1;
        let mut pairs = Vec::new();
        self.ws();
        if self.s[self.i] == b'}' {
            self.i += 1;
            return J::Obj(pairs);
        }
        loop {
            self.ws();
            let J::Str(key) = self.value() else {
                panic!("object key at {}", self.i)
            };
            self.eat(b':');
            pairs.push((key, self.value()));
            self.ws();
            self.i += 1;
            match self.s[self.i - 1] {
                b',' => continue,
                b'}' => return J::Obj(pairs),
                c => panic!("unexpected {:?} in object at {}", c as char, self.i),
            }
        }
    }
    fn array(&mut self) -> J {
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.s[self.i] == b']' {
            self.i += 1;
            return J::Arr(items);
        }
        loop {
            items.push(self.value());
            self.ws();
            self.i += 1;
            match self.s[self.i - 1] {
                b',' => continue,
                b']' => return J::Arr(items),
                c => panic!("unexpected {:?} in array at {}", c as char, self.i),
            }
        }
    }
    /// The rest of a string whose opening quote is consumed.
    fn string(&mut self) -> String {
        let mut out = String::new();
        loop {
            let c = self.s[self.i];
            self.i += 1;
            match c {
                b'"' => return out,
                b'\\' => {
                    let e = self.s[self.i];
                    self.i += 1;
                    match e {
                        b'n' => out.push('\n'),
                        b't' => out.push('\t'),
                        b'r' => out.push('\r'),
                        b'u' => {
                            let hex = std::str::from_utf8(&self.s[self.i..self.i + 4]).unwrap();
                            out.push(
                                char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap(),
                            );
                            self.i += 4;
                        }
                        other => out.push(other as char),
                    }
                }
                _ => {
                    // Copy one UTF-8 character whole.
                    let start = self.i - 1;
                    let len = match c {
                        0..=0x7f => 1,
                        0xc0..=0xdf => 2,
                        0xe0..=0xef => 3,
                        _ => 4,
                    };
                    out.push_str(std::str::from_utf8(&self.s[start..start + len]).unwrap());
                    self.i = start + len;
                }
            }
        }
    }
    fn literal(&mut self) -> J {
        for (word, v) in [
            ("true", J::Bool(true)),
            ("false", J::Bool(false)),
            ("null", J::Null),
        ] {
            if self.s[self.i..].starts_with(word.as_bytes()) {
                self.i += word.len();
                return v;
            }
        }
        panic!("bad literal at {}", self.i)
    }
    fn number(&mut self) -> J {
        let start = self.i;
        while self.i < self.s.len() && b"-+.eE0123456789".contains(&self.s[self.i]) {
            self.i += 1;
        }
        assert!(self.i > start, "unexpected byte at {start}");
        J::Num(
            std::str::from_utf8(&self.s[start..self.i])
                .unwrap()
                .to_string(),
        )
    }
}

pub fn parse_json(text: &str) -> J {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value();
    p.ws();
    assert_eq!(p.i, text.len(), "trailing text after the JSON");
    v
}

/// The JSON in `<script type="application/json" id="cutoff-data">`, parsed.
pub fn page_data(html: &str) -> J {
    let open = r#"<script type="application/json" id="cutoff-data">"#;
    let start = html.find(open).expect("the page embeds its data") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    parse_json(&html[start..end])
}
