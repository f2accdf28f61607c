//! Game trees written as nested brackets: `[[3,12,8],[2,4,6],[14,5,2]]`.
//!
//! A list is an inner node whose elements are its children, in move order; an integer
//! (negative allowed) is a leaf. Leaves may sit at different depths. Whitespace is ignored
//! between tokens. Nodes are named by their 1-based path from the root: in the tree above
//! `2.3` is the leaf 6 and `3` is the subtree `[14,5,2]`.

use std::fmt;

use crate::lab::minimax::{GameTree, Value};

/// The largest leaf magnitude accepted: far from the ±∞ of the search window.
pub const MAX_LEAF: Value = 999_999_999_999_999;

/// Deepest nesting accepted, so that parsing and searching can never exhaust the stack.
pub const MAX_NESTING: usize = 1000;

/// The most nodes (lists and leaves) a tree may have: a bound on what a tree costs, refused
/// while parsing before the node past it is made. `cutoff tree` on a tree at the bound took
/// 137 MB, flat or 1000 levels deep (max RSS, docs/reliability.md); one of 20 million leaves
/// (40 MB of `[0,0,…]`, within the 64 MiB input limit) needed 4 GB and more, and aborted. A
/// tree to learn alpha-beta from has dozens.
pub const MAX_NODES: usize = 1_000_000;

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

/// A node keeps its parent and its place among its siblings, not its whole path: a path is as
/// long as the node is deep, and a tree of 200 000 leaves 1000 levels down took 2.4 GB when
/// every node kept its own (its path is walked up when printed, [`BracketTree::path`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode {
    /// The parent's index in [`BracketTree::nodes`]; `None` for the root.
    pub parent: Option<usize>,
    /// The 1-based place among the parent's children (0 for the root).
    pub child: usize,
    /// Levels below the root (0 for the root).
    pub depth: usize,
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
    /// Reads a tree; see the module documentation for the format. A tree of more than
    /// [`MAX_NODES`] nodes or nested deeper than [`MAX_NESTING`] is refused.
    pub fn parse(text: &str) -> Result<BracketTree, ParseError> {
        let mut parser = Parser {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            nodes: Vec::new(),
        };
        parser.skip_ws();
        parser.node(None, 0, 0)?;
        parser.skip_ws();
        if let Some(c) = parser.peek_char() {
            return Err(parser.error(format!("unexpected '{c}' after the end of the tree")));
        }
        Ok(BracketTree {
            nodes: parser.nodes,
        })
    }

    /// A node's 1-based child indices from the root (empty for the root).
    pub fn path_indices(&self, node: usize) -> Vec<usize> {
        let mut path = Vec::with_capacity(self.nodes[node].depth);
        let mut at = node;
        while let Some(parent) = self.nodes[at].parent {
            path.push(self.nodes[at].child);
            at = parent;
        }
        path.reverse();
        path
    }

    /// A node's path as printed: `root`, `2`, `2.3`.
    pub fn path(&self, node: usize) -> String {
        let path = self.path_indices(node);
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

/// Recursive descent over the text's bytes (every token is ASCII, so `pos` is always at a
/// character boundary); `pos` is a 0-based byte index, and an error's column counts characters.
struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    nodes: Vec<TreeNode>,
}

impl Parser<'_> {
    fn error(&self, message: String) -> ParseError {
        self.error_at(self.pos, message)
    }

    /// An error at byte `pos`, its column in characters.
    fn error_at(&self, pos: usize, message: String) -> ParseError {
        let message = if pos >= self.bytes.len() {
            format!("{message} (end of input)")
        } else {
            message
        };
        ParseError {
            column: self.text[..pos].chars().count() + 1,
            message,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// The character at `pos` (which is at a character boundary), for an error.
    fn peek_char(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek_char().filter(|c| c.is_whitespace()) {
            self.pos += c.len_utf8();
        }
    }

    /// Makes the node at `parent`'s child place `child`, `depth` levels down, refusing the one
    /// past [`MAX_NODES`] before it is made.
    fn push(
        &mut self,
        parent: Option<usize>,
        child: usize,
        depth: usize,
        kind: Kind,
    ) -> Result<usize, ParseError> {
        if self.nodes.len() >= MAX_NODES {
            return Err(self.error(format!(
                "a tree of more than {MAX_NODES} nodes (the most `cutoff tree` takes)"
            )));
        }
        let leaves = usize::from(matches!(kind, Kind::Leaf(_)));
        self.nodes.push(TreeNode {
            parent,
            child,
            depth,
            kind,
            leaves,
        });
        Ok(self.nodes.len() - 1)
    }

    /// Parses one node, `parent`'s child number `child`, `depth` levels down; pushes it (and
    /// its subtree) and returns its index.
    fn node(
        &mut self,
        parent: Option<usize>,
        child: usize,
        depth: usize,
    ) -> Result<usize, ParseError> {
        match self.peek() {
            Some(b'[') => self.list(parent, child, depth),
            Some(c) if c == b'-' || c.is_ascii_digit() => self.leaf(parent, child, depth),
            _ => Err(self.error("expected a number or '['".to_string())),
        }
    }

    fn leaf(
        &mut self,
        parent: Option<usize>,
        child: usize,
        depth: usize,
    ) -> Result<usize, ParseError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
            if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
                return Err(self.error("expected a digit after '-'".to_string()));
            }
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let text = &self.text[start..self.pos];
        // A range, not `v.abs() <= MAX_LEAF`: the absolute value of `i64::MIN` is no `i64` (it
        // wraps to itself in a release build, which is negative and passed the check, and
        // panics in a debug one).
        let value = text
            .parse::<Value>()
            .ok()
            .filter(|v| (-MAX_LEAF..=MAX_LEAF).contains(v))
            .ok_or_else(|| {
                self.error_at(
                    start,
                    format!("number {text} out of range (at most 15 digits)"),
                )
            })?;
        self.push(parent, child, depth, Kind::Leaf(value))
    }

    fn list(
        &mut self,
        parent: Option<usize>,
        child: usize,
        depth: usize,
    ) -> Result<usize, ParseError> {
        if depth >= MAX_NESTING {
            return Err(self.error(format!("nesting deeper than {MAX_NESTING} levels")));
        }
        let open = self.pos;
        let index = self.push(parent, child, depth, Kind::Inner(Vec::new()))?;
        self.pos += 1; // '['
        self.skip_ws();
        if self.peek() == Some(b']') {
            return Err(self.error_at(
                open,
                "empty list (a node needs at least one child)".to_string(),
            ));
        }
        let mut children = Vec::new();
        loop {
            children.push(self.node(Some(index), children.len() + 1, depth + 1)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_ws();
                }
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.error("expected ',' or ']'".to_string())),
            }
        }
        self.nodes[index].leaves = children.iter().map(|&c| self.nodes[c].leaves).sum();
        children.shrink_to_fit();
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
