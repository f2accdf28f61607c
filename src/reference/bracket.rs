//! Game trees written as nested brackets: `[[3,12,8],[2,4,6],[14,5,2]]`.
//!
//! A list is an inner node whose elements are its children, in move order; an integer
//! (negative allowed) is a leaf. Leaves may sit at different depths. Whitespace is ignored
//! between tokens. Nodes are named by their 1-based path from the root: in the tree above
//! `2.3` is the leaf 6 and `3` is the subtree `[14,5,2]`.

use std::fmt;

use super::minimax::{GameTree, Value};

/// The largest leaf magnitude accepted: far from the ±∞ of the search window.
pub const MAX_LEAF: Value = 999_999_999_999_999;

/// Deepest nesting accepted, so that parsing and searching can never exhaust the stack.
pub const MAX_NESTING: usize = 1000;

/// Why a tree could not be read, and where: `column` is the 1-based character position (one
/// past the last character when the input ended too early).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at column {}", self.message, self.column)
    }
}

impl std::error::Error for ParseError {}

/// One node of a parsed tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Leaf(Value),
    /// Indices of the children in [`BracketTree::nodes`], in move order.
    Inner(Vec<usize>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode {
    /// 1-based child indices from the root (empty for the root).
    pub path: Vec<usize>,
    pub kind: Kind,
    /// How many leaves this subtree holds (1 for a leaf).
    pub leaves: usize,
}

/// A parsed bracket tree. The root is node 0; a node's children come after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BracketTree {
    pub nodes: Vec<TreeNode>,
}

/// The root's index in [`BracketTree::nodes`].
pub const ROOT: usize = 0;

impl BracketTree {
    /// Reads a tree; see the module documentation for the format.
    pub fn parse(text: &str) -> Result<BracketTree, ParseError> {
        let mut parser = Parser {
            chars: text.chars().collect(),
            pos: 0,
            nodes: Vec::new(),
        };
        parser.skip_ws();
        parser.node(Vec::new())?;
        parser.skip_ws();
        if parser.pos < parser.chars.len() {
            return Err(parser.error(format!(
                "unexpected '{}' after the end of the tree",
                parser.chars[parser.pos]
            )));
        }
        Ok(BracketTree {
            nodes: parser.nodes,
        })
    }

    /// A node's path as printed: `root`, `2`, `2.3`.
    pub fn path(&self, node: usize) -> String {
        let path = &self.nodes[node].path;
        if path.is_empty() {
            "root".to_string()
        } else {
            path.iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(".")
        }
    }

    /// The children of `node` (empty for a leaf).
    pub fn children(&self, node: usize) -> &[usize] {
        match &self.nodes[node].kind {
            Kind::Leaf(_) => &[],
            Kind::Inner(children) => children,
        }
    }

    /// Leaves in the whole tree.
    pub fn leaf_count(&self) -> usize {
        self.nodes[ROOT].leaves
    }

    /// The tree written back in canonical form (`[[3,12,8],[2,4,6]]`, no spaces).
    pub fn to_brackets(&self, node: usize) -> String {
        match &self.nodes[node].kind {
            Kind::Leaf(v) => v.to_string(),
            Kind::Inner(children) => format!(
                "[{}]",
                children
                    .iter()
                    .map(|&c| self.to_brackets(c))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        }
    }
}

/// Nodes are arena indices and a move is the index of the child it leads to.
impl GameTree for BracketTree {
    type Node = usize;
    type Move = usize;

    fn moves(&self, node: &usize) -> Vec<usize> {
        self.children(*node).to_vec()
    }

    fn play(&self, _node: &usize, m: usize) -> usize {
        m
    }

    fn leaf_value(&self, node: &usize) -> Value {
        match self.nodes[*node].kind {
            Kind::Leaf(v) => v,
            Kind::Inner(_) => unreachable!("leaf_value is only asked of leaves"),
        }
    }
}

/// Recursive descent over the characters; `pos` is a 0-based character index.
struct Parser {
    chars: Vec<char>,
    pos: usize,
    nodes: Vec<TreeNode>,
}

impl Parser {
    fn error(&self, message: String) -> ParseError {
        let message = if self.pos >= self.chars.len() {
            format!("{message} (end of input)")
        } else {
            message
        };
        ParseError {
            column: self.pos + 1,
            message,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// Parses one node at `path`, pushes it (and its subtree) and returns its index.
    fn node(&mut self, path: Vec<usize>) -> Result<usize, ParseError> {
        match self.peek() {
            Some('[') => self.list(path),
            Some(c) if c == '-' || c.is_ascii_digit() => self.leaf(path),
            _ => Err(self.error("expected a number or '['".to_string())),
        }
    }

    fn leaf(&mut self, path: Vec<usize>) -> Result<usize, ParseError> {
        let start = self.pos;
        if self.peek() == Some('-') {
            self.pos += 1;
            if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
                return Err(self.error("expected a digit after '-'".to_string()));
            }
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        // A range, not `v.abs() <= MAX_LEAF`: the absolute value of `i64::MIN` is no `i64` (it
        // wraps to itself in a release build, which is negative and passed the check, and
        // panics in a debug one).
        let value = text
            .parse::<Value>()
            .ok()
            .filter(|v| (-MAX_LEAF..=MAX_LEAF).contains(v))
            .ok_or_else(|| ParseError {
                column: start + 1,
                message: format!("number {text} out of range (at most 15 digits)"),
            })?;
        self.nodes.push(TreeNode {
            path,
            kind: Kind::Leaf(value),
            leaves: 1,
        });
        Ok(self.nodes.len() - 1)
    }

    fn list(&mut self, path: Vec<usize>) -> Result<usize, ParseError> {
        if path.len() >= MAX_NESTING {
            return Err(self.error(format!("nesting deeper than {MAX_NESTING} levels")));
        }
        let open = self.pos;
        self.pos += 1; // '['
        let index = self.nodes.len();
        self.nodes.push(TreeNode {
            path: path.clone(),
            kind: Kind::Inner(Vec::new()),
            leaves: 0,
        });
        self.skip_ws();
        if self.peek() == Some(']') {
            return Err(ParseError {
                column: open + 1,
                message: "empty list (a node needs at least one child)".to_string(),
            });
        }
        let mut children = Vec::new();
        loop {
            let mut child_path = path.clone();
            child_path.push(children.len() + 1);
            children.push(self.node(child_path)?);
            self.skip_ws();
            match self.peek() {
                Some(',') => {
                    self.pos += 1;
                    self.skip_ws();
                }
                Some(']') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.error("expected ',' or ']'".to_string())),
            }
        }
        self.nodes[index].leaves = children.iter().map(|&c| self.nodes[c].leaves).sum();
        self.nodes[index].kind = Kind::Inner(children);
        Ok(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_leaf_counts_follow_the_brackets() {
        let t = BracketTree::parse(" [ [3, 12,8], 7,[[-2]] ] ").unwrap();
        assert_eq!(t.leaf_count(), 5);
        assert_eq!(t.to_brackets(ROOT), "[[3,12,8],7,[[-2]]]");
        let paths: Vec<String> = (0..t.nodes.len()).map(|i| t.path(i)).collect();
        assert_eq!(
            paths,
            ["root", "1", "1.1", "1.2", "1.3", "2", "3", "3.1", "3.1.1"]
        );
    }

    #[test]
    fn errors_name_the_column() {
        let err = |s: &str| BracketTree::parse(s).unwrap_err();
        assert_eq!(err("[1 2]").column, 4);
        assert_eq!(err("[1,]").column, 4);
        assert_eq!(err("[1,[2]").column, 7);
        assert!(err("[1,[2]").message.contains("end of input"));
        assert_eq!(err("[1,[]]").column, 4);
        assert_eq!(err("[1]]").column, 4);
        assert_eq!(err("[1,-]").column, 5);
        assert_eq!(err("").column, 1);
        assert_eq!(err("[1,9999999999999999]").column, 4);
    }

    /// `i64::MIN` passed the range check (its `abs()` wrapped to itself) and `cutoff tree`
    /// reported a minimax/alpha-beta mismatch on it (issue 80); it is out of range as every
    /// leaf past ±`MAX_LEAF` is, and `±MAX_LEAF` itself reads.
    #[test]
    fn the_most_negative_i64_leaf_is_out_of_range_like_any_leaf_past_the_limit() {
        for leaf in [
            i64::MIN,
            i64::MIN + 1,
            -MAX_LEAF - 1,
            MAX_LEAF + 1,
            i64::MAX,
        ] {
            let err = BracketTree::parse(&format!("[1,{leaf}]")).unwrap_err();
            assert_eq!(err.column, 4, "{leaf}");
            assert!(err.message.contains("out of range"), "{leaf}: {err}");
        }
        let edges = BracketTree::parse(&format!("[{},{MAX_LEAF}]", -MAX_LEAF)).unwrap();
        assert_eq!(
            edges.to_brackets(ROOT),
            "[-999999999999999,999999999999999]"
        );
    }

    #[test]
    fn absurd_nesting_is_an_error_not_a_stack_overflow() {
        let deep = "[".repeat(100_000) + "1" + &"]".repeat(100_000);
        assert!(BracketTree::parse(&deep)
            .unwrap_err()
            .message
            .contains("nesting"));
    }
}
