//! Where keys are in the source text of a JSON or YAML document.
//!
//! serde gives no positions, so [`SourceMap`] re-scans the text with a small
//! structural reader that knows enough YAML (block mappings and sequences,
//! compact `- key:` items, flow `{…}`/`[…]` collections — hence JSON —,
//! quoted and plain keys, block scalars, multi-line scalars, comments,
//! anchors, tags and document markers) to record the byte offset of every
//! mapping key and sequence item. Lookups go by a path of keys and indexes,
//! so a key that also appears in a description or elsewhere in the tree
//! never matches by accident.
//!
//! The reader is lenient and never fails: on text it does not understand it
//! skips a line or a character and goes on, so a lookup may find nothing —
//! callers fall back to a parent's line (see [`SourceMap::nearest_line`]).

use std::borrow::Cow;

use crate::lex::unescape;
use crate::text::LineIndex;

/// One step of a lookup path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seg<'a> {
    /// A mapping key, as decoded (quotes and escapes resolved).
    Key(&'a str),
    /// A sequence item, 0-based.
    Index(usize),
}

#[derive(Debug, PartialEq, Eq)]
enum Label {
    Key(String),
    Index(usize),
}

impl Label {
    fn matches(&self, seg: &Seg<'_>) -> bool {
        match (self, seg) {
            (Label::Key(a), Seg::Key(b)) => a == b,
            (Label::Index(a), Seg::Index(b)) => a == b,
            _ => false,
        }
    }
}

#[derive(Debug)]
struct Node {
    /// Offset of the key (its opening quote when quoted) or of the item
    /// (its `-` in block style).
    start: usize,
    children: Vec<(Label, usize)>,
}

/// Positions of the keys and items of one document (the first one of a YAML
/// stream).
pub struct SourceMap {
    nodes: Vec<Node>,
    lines: LineIndex,
}

impl SourceMap {
    /// Map every key of the document.
    pub fn new(text: &str) -> Self {
        Self::with_max_depth(text, usize::MAX)
    }

    /// Map keys down to `max_depth` levels (1 = the top-level keys); deeper
    /// content is still read but not recorded. Cheaper for large documents
    /// when only the first levels are looked up.
    pub fn with_max_depth(text: &str, max_depth: usize) -> Self {
        let mut scanner = Scanner {
            s: text.as_bytes(),
            pos: 0,
            nodes: vec![Node {
                start: 0,
                children: Vec::new(),
            }],
            max_depth,
            nesting: 0,
        };
        scanner.document();
        SourceMap {
            nodes: scanner.nodes,
            lines: LineIndex::new(text),
        }
    }

    fn node(&self, path: &[Seg<'_>]) -> (usize, usize) {
        let mut id = 0;
        for (depth, seg) in path.iter().enumerate() {
            let next = self.nodes[id]
                .children
                .iter()
                .find(|(label, _)| label.matches(seg));
            match next {
                Some((_, child)) => id = *child,
                None => return (id, depth),
            }
        }
        (id, path.len())
    }

    /// Byte offset of the key or item at `path`.
    pub fn offset(&self, path: &[Seg<'_>]) -> Option<usize> {
        match self.node(path) {
            (id, depth) if depth == path.len() && !path.is_empty() => Some(self.nodes[id].start),
            _ => None,
        }
    }

    /// 1-based line of the key or item at `path`.
    pub fn line(&self, path: &[Seg<'_>]) -> Option<u32> {
        self.offset(path).map(|o| self.lines.line_of(o))
    }

    /// Line of the key at `path`, else of its deepest ancestor found, else 1.
    pub fn nearest_line(&self, path: &[Seg<'_>]) -> u32 {
        match self.node(path) {
            (_, 0) => 1,
            (id, _) => self.lines.line_of(self.nodes[id].start),
        }
    }
}

/// Sentinel node id: content below is read but not recorded.
const NONE: usize = usize::MAX;
/// Deeper nesting than this is not followed (serde refuses far less).
const MAX_NESTING: usize = 256;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// The value after `key:` — a block sequence may sit at the key's indent.
    MapValue,
    /// The content after `- ` — may be a compact mapping or sequence.
    SeqItem,
}

struct Scanner<'t> {
    s: &'t [u8],
    pos: usize,
    nodes: Vec<Node>,
    max_depth: usize,
    nesting: usize,
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn at(&self, i: usize) -> Option<u8> {
        self.s.get(i).copied()
    }

    fn eof(&self) -> bool {
        self.pos >= self.s.len()
    }

    fn text(&self, range: std::ops::Range<usize>) -> Cow<'_, str> {
        String::from_utf8_lossy(self.s.get(range).unwrap_or_default())
    }

    fn child(&mut self, parent: usize, depth: usize, label: Label, start: usize) -> usize {
        if parent == NONE || depth > self.max_depth {
            return NONE;
        }
        let id = self.nodes.len();
        self.nodes.push(Node {
            start,
            children: Vec::new(),
        });
        if let Some(p) = self.nodes.get_mut(parent) {
            p.children.push((label, id));
        }
        id
    }

    // ---- lines -------------------------------------------------------------

    fn line_start(&self, pos: usize) -> usize {
        let pos = pos.min(self.s.len());
        self.s[..pos]
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |p| p + 1)
    }

    fn col(&self, pos: usize) -> usize {
        pos - self.line_start(pos)
    }

    /// Indent (leading spaces/tabs) of the line starting at `start`.
    fn indent_at(&self, start: usize) -> usize {
        self.s[start.min(self.s.len())..]
            .iter()
            .take_while(|b| is_blank(**b))
            .count()
    }

    /// Move to the start of the next line (or the end).
    fn next_line(&mut self) {
        match self.s[self.pos.min(self.s.len())..]
            .iter()
            .position(|b| *b == b'\n')
        {
            Some(p) => self.pos += p + 1,
            None => self.pos = self.s.len(),
        }
    }

    /// Is the line starting at `start` empty or only a comment?
    fn line_is_blank(&self, start: usize) -> bool {
        let first = start + self.indent_at(start);
        matches!(self.at(first), None | Some(b'\n' | b'\r' | b'#'))
    }

    /// Is there a `---` / `...` document marker at `start`?
    fn doc_marker(&self, start: usize) -> bool {
        let three = self.s.get(start..start + 3);
        (three == Some(b"---") || three == Some(b"..."))
            && self.at(start + 3).is_none_or(|b| b.is_ascii_whitespace())
    }

    /// From a line start, skip empty and comment lines. A document marker
    /// ends the (first) document: the position moves to the end.
    fn skip_blank_lines(&mut self) {
        while !self.eof() {
            if self.doc_marker(self.pos) {
                self.pos = self.s.len();
                return;
            }
            if !self.line_is_blank(self.pos) {
                return;
            }
            self.next_line();
        }
    }

    /// Skip the rest of the current line, then every following line that is
    /// blank or indented deeper than `indent` (continuation of a scalar).
    fn finish_line(&mut self, indent: isize) {
        self.next_line();
        while !self.eof() {
            let ind = self.indent_at(self.pos) as isize;
            if !self.line_is_blank(self.pos) && ind <= indent {
                return;
            }
            if ind == 0 && self.doc_marker(self.pos) {
                return;
            }
            self.next_line();
        }
    }

    fn skip_inline_ws(&mut self) {
        while self.peek().is_some_and(is_blank) {
            self.pos += 1;
        }
    }

    /// Skip whitespace, newlines and comments (flow context).
    fn skip_flow_ws(&mut self) {
        while let Some(b) = self.peek() {
            if b.is_ascii_whitespace() {
                self.pos += 1;
            } else if b == b'#'
                && (self.pos == 0
                    || self
                        .at(self.pos - 1)
                        .is_some_and(|p| p.is_ascii_whitespace()))
            {
                self.next_line();
            } else {
                return;
            }
        }
    }

    /// Skip anchors (`&a`) and tags (`!t`, `!!str`) before a node.
    fn skip_properties(&mut self) {
        while matches!(self.peek(), Some(b'&' | b'!')) {
            while self.peek().is_some_and(|b| !b.is_ascii_whitespace()) {
                self.pos += 1;
            }
            self.skip_inline_ws();
        }
    }

    fn is_dash(&self, pos: usize) -> bool {
        self.at(pos) == Some(b'-') && self.at(pos + 1).is_none_or(|b| b.is_ascii_whitespace())
    }

    // ---- scalars -----------------------------------------------------------

    /// A quoted scalar starting at `start` (on its quote): the decoded value
    /// and the offset past the closing quote. `None` if `single_line` and it
    /// does not close on its line.
    fn quoted(&self, start: usize, single_line: bool) -> Option<(String, usize)> {
        let quote = self.at(start)?;
        let mut i = start + 1;
        while let Some(b) = self.at(i) {
            if b == b'\n' && single_line {
                return None;
            }
            if quote == b'"' && b == b'\\' {
                i += 2;
                continue;
            }
            if b == quote {
                if quote == b'\'' && self.at(i + 1) == Some(b'\'') {
                    i += 2;
                    continue;
                }
                let raw = self.text(start + 1..i);
                let value = if quote == b'"' {
                    unescape(&raw)
                } else {
                    raw.replace("''", "'")
                };
                return Some((value, i + 1));
            }
            i += 1;
        }
        if single_line {
            return None;
        }
        Some((
            self.text(start + 1..self.s.len()).into_owned(),
            self.s.len(),
        ))
    }

    /// An implicit block key at `pos`: its decoded text and the offset just
    /// past its `:`.
    fn block_key(&self, pos: usize) -> Option<(String, usize)> {
        let first = self.at(pos)?;
        if first == b'"' || first == b'\'' {
            let (key, mut end) = self.quoted(pos, true)?;
            while self.at(end).is_some_and(is_blank) {
                end += 1;
            }
            return (self.at(end) == Some(b':')).then_some((key, end + 1));
        }
        if b"[]{},#&*!|>%@`\n\r".contains(&first) {
            return None;
        }
        let next_is_space = self.at(pos + 1).is_none_or(|b| b.is_ascii_whitespace());
        if matches!(first, b'-' | b'?' | b':') && next_is_space {
            return None;
        }
        let mut i = pos;
        while let Some(b) = self.at(i) {
            match b {
                b'\n' | b'\r' => return None,
                b'#' if i > pos && self.at(i - 1).is_some_and(is_blank) => return None,
                b':' if self.at(i + 1).is_none_or(|n| n.is_ascii_whitespace()) => {
                    let key = self.text(pos..i);
                    return Some((key.trim_end().to_string(), i + 1));
                }
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// A plain scalar in flow context (may span lines): its trimmed text.
    fn flow_plain(&mut self) -> String {
        let start = self.pos;
        while let Some(b) = self.peek() {
            let ends = match b {
                b',' | b'[' | b']' | b'{' | b'}' => true,
                b':' => self
                    .at(self.pos + 1)
                    .is_none_or(|n| n.is_ascii_whitespace() || b",[]{}".contains(&n)),
                b'#' => {
                    self.pos > start
                        && self
                            .at(self.pos - 1)
                            .is_some_and(|p| p.is_ascii_whitespace())
                }
                _ => false,
            };
            if ends {
                break;
            }
            self.pos += 1;
        }
        self.text(start..self.pos).trim().to_string()
    }

    // ---- block structure ----------------------------------------------------

    fn document(&mut self) {
        if self.s.starts_with("\u{feff}".as_bytes()) {
            self.pos = 3;
        }
        // Directives and the `---` that opens the document.
        while !self.eof() {
            let first = self.pos + self.indent_at(self.pos);
            if self.line_is_blank(self.pos) || self.at(self.pos) == Some(b'%') {
                self.next_line();
            } else if self.s.get(self.pos..self.pos + 3) == Some(b"---")
                && self.doc_marker(self.pos)
            {
                self.pos += 3;
                self.value(0, 0, -1, Ctx::SeqItem);
                return;
            } else {
                self.pos = first;
                self.inline(0, 0, -1, true);
                return;
            }
        }
    }

    /// The value after `key:` or `- ` (the position is just past the colon
    /// or dash). `indent` is the indent of the owning mapping or the column
    /// of the dash. Leaves the position at the start of a line.
    fn value(&mut self, node: usize, depth: usize, indent: isize, ctx: Ctx) {
        self.skip_inline_ws();
        self.skip_properties();
        if matches!(self.peek(), None | Some(b'\n' | b'\r' | b'#')) {
            self.next_line();
            self.skip_blank_lines();
            if self.eof() {
                return;
            }
            let ind = self.indent_at(self.pos);
            let first = self.pos + ind;
            let nested = ind as isize > indent
                || (ind as isize == indent && ctx == Ctx::MapValue && self.is_dash(first));
            if nested {
                self.pos = first;
                self.skip_properties();
                self.inline(node, depth, indent, true);
            }
            return;
        }
        self.inline(node, depth, indent, ctx == Ctx::SeqItem);
    }

    /// A node starting at the current (non-blank) position. `compact`: a
    /// mapping or sequence may start here (not only on a new line).
    fn inline(&mut self, node: usize, depth: usize, indent: isize, compact: bool) {
        let pos = self.pos;
        if compact && self.is_dash(pos) {
            let col = self.col(pos);
            return self.block_seq(node, depth, col);
        }
        if compact && self.block_key(pos).is_some() {
            let col = self.col(pos);
            return self.block_map(node, depth, col);
        }
        match self.peek() {
            Some(b'{' | b'[') => {
                self.flow(node, depth);
                self.finish_line(indent);
            }
            Some(b'"' | b'\'') => {
                self.pos = self.quoted(pos, false).map_or(self.s.len(), |(_, e)| e);
                self.finish_line(indent);
            }
            // Plain scalars, block scalars (`|`, `>`) and aliases: the rest
            // of the line and the deeper lines below.
            _ => self.finish_line(indent),
        }
    }

    /// A block mapping whose first key is at the current position, column `n`.
    fn block_map(&mut self, node: usize, depth: usize, n: usize) {
        if self.nesting >= MAX_NESTING {
            self.pos = self.s.len();
            return;
        }
        self.nesting += 1;
        loop {
            let key_start = self.pos;
            match self.block_key(key_start) {
                Some((key, after)) => {
                    let child = self.child(node, depth + 1, Label::Key(key), key_start);
                    self.pos = after;
                    self.value(child, depth + 1, n as isize, Ctx::MapValue);
                }
                // `? complex key` or garbage: skip the line.
                None => self.next_line(),
            }
            // Next entry: a line at exactly column `n` with a key.
            loop {
                self.skip_blank_lines();
                if self.eof() {
                    self.nesting -= 1;
                    return;
                }
                let ind = self.indent_at(self.pos);
                if ind < n || self.is_dash(self.pos + ind) && ind == n {
                    self.nesting -= 1;
                    return;
                }
                if ind > n {
                    self.next_line();
                    continue;
                }
                self.pos += ind;
                break;
            }
        }
    }

    /// A block sequence whose first `-` is at the current position, column `n`.
    fn block_seq(&mut self, node: usize, depth: usize, n: usize) {
        if self.nesting >= MAX_NESTING {
            self.pos = self.s.len();
            return;
        }
        self.nesting += 1;
        let mut index = 0;
        loop {
            let child = self.child(node, depth + 1, Label::Index(index), self.pos);
            index += 1;
            self.pos += 1;
            self.value(child, depth + 1, n as isize, Ctx::SeqItem);
            loop {
                self.skip_blank_lines();
                if self.eof() {
                    self.nesting -= 1;
                    return;
                }
                let ind = self.indent_at(self.pos);
                if ind < n || (ind == n && !self.is_dash(self.pos + ind)) {
                    self.nesting -= 1;
                    return;
                }
                if ind > n {
                    self.next_line();
                    continue;
                }
                self.pos += ind;
                break;
            }
        }
    }

    // ---- flow structure -----------------------------------------------------

    /// A flow collection at the current `{` or `[`; leaves the position past
    /// its closer.
    fn flow(&mut self, node: usize, depth: usize) {
        if self.nesting >= MAX_NESTING {
            self.pos = self.s.len();
            return;
        }
        self.nesting += 1;
        let is_map = self.peek() == Some(b'{');
        let close = if is_map { b'}' } else { b']' };
        self.pos += 1;
        let mut index = 0;
        loop {
            let before = self.pos;
            self.skip_flow_ws();
            match self.peek() {
                None => break,
                Some(b) if b == close => {
                    self.pos += 1;
                    break;
                }
                Some(b',') => {
                    self.pos += 1;
                    continue;
                }
                // A stray closer of the other kind: give up on this level.
                Some(b'}' | b']') => {
                    self.pos += 1;
                    break;
                }
                _ => {}
            }
            if is_map {
                self.flow_entry(node, depth);
            } else {
                let child = self.child(node, depth + 1, Label::Index(index), self.pos);
                index += 1;
                self.flow_value(child, depth + 1);
                self.skip_flow_ws();
                // A single-pair mapping inside a sequence: `[a: b]`.
                if self.peek() == Some(b':') {
                    self.pos += 1;
                    self.flow_value(NONE, depth + 1);
                }
            }
            if self.pos == before {
                self.pos += 1;
            }
        }
        self.nesting -= 1;
    }

    /// `key: value` in a flow mapping.
    fn flow_entry(&mut self, node: usize, depth: usize) {
        if self.peek() == Some(b'?')
            && self
                .at(self.pos + 1)
                .is_none_or(|b| b.is_ascii_whitespace())
        {
            self.pos += 1;
            self.skip_flow_ws();
        }
        self.skip_properties();
        let key_start = self.pos;
        let key = match self.peek() {
            Some(b'"' | b'\'') => match self.quoted(key_start, false) {
                Some((key, end)) => {
                    self.pos = end;
                    Some(key)
                }
                None => None,
            },
            Some(b'{' | b'[') => {
                self.flow(NONE, depth + 1);
                None
            }
            _ => Some(self.flow_plain()),
        };
        self.skip_flow_ws();
        if self.peek() == Some(b':') {
            self.pos += 1;
            let child = match key {
                Some(key) => self.child(node, depth + 1, Label::Key(key), key_start),
                None => NONE,
            };
            self.flow_value(child, depth + 1);
        }
    }

    /// A value in flow context.
    fn flow_value(&mut self, node: usize, depth: usize) {
        self.skip_flow_ws();
        self.skip_properties();
        self.skip_flow_ws();
        match self.peek() {
            Some(b'{' | b'[') => self.flow(node, depth),
            Some(b'"' | b'\'') => {
                self.pos = self
                    .quoted(self.pos, false)
                    .map_or(self.s.len(), |(_, e)| e);
            }
            Some(b',' | b'}' | b']') | None => {}
            _ => {
                self.flow_plain();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Seg::{Index, Key};

    fn line(text: &str, path: &[Seg<'_>]) -> Option<u32> {
        SourceMap::new(text).line(path)
    }

    #[test]
    fn block_yaml() {
        let y = "\
openapi: 3.0.0
info:
  description: |
    paths:
      /a:
        get: no
  title: x
paths:
  # comment
  /a:
    get:
      summary: \"/a\"
    post: {}
  '/b/{id}':
    parameters:
      - name: id
        in: path
    \"delete\": &d
      x: 1
";
        assert_eq!(line(y, &[Key("paths")]), Some(8));
        assert_eq!(line(y, &[Key("paths"), Key("/a"), Key("get")]), Some(11));
        assert_eq!(line(y, &[Key("paths"), Key("/a"), Key("post")]), Some(13));
        assert_eq!(line(y, &[Key("paths"), Key("/b/{id}")]), Some(14));
        assert_eq!(
            line(
                y,
                &[
                    Key("paths"),
                    Key("/b/{id}"),
                    Key("parameters"),
                    Index(0),
                    Key("in")
                ]
            ),
            Some(17)
        );
        assert_eq!(
            line(y, &[Key("paths"), Key("/b/{id}"), Key("delete")]),
            Some(18)
        );
        assert_eq!(line(y, &[Key("info"), Key("title")]), Some(7));
        assert_eq!(
            line(y, &[Key("info"), Key("description"), Key("paths")]),
            None
        );
    }

    #[test]
    fn json_pretty_and_minified() {
        let j = "{\n  \"info\": {\"description\": \"see \\\"paths\\\": /a\"},\n  \"paths\": {\n    \"/a\": {\n      \"get\": {\n        \"x\": [1, {\"get\": 2}]\n      },\n\t\"post\": {}\n    }\n  }\n}\n";
        assert_eq!(line(j, &[Key("paths"), Key("/a"), Key("get")]), Some(5));
        assert_eq!(line(j, &[Key("paths"), Key("/a"), Key("post")]), Some(8));
        let m = SourceMap::new("{\"a\":{\"b\":[{\"c\":1},{\"d\":\"}\"}]},\"e\":2}");
        assert_eq!(
            m.offset(&[Key("a"), Key("b"), Index(1), Key("d")]),
            Some(20)
        );
        assert_eq!(m.offset(&[Key("e")]), Some(31));
    }

    #[test]
    fn compact_sequences_and_same_indent_lists() {
        let y = "list:\n- a: 1\n  b: 2\n- - x\n  - c: 3\nafter: 1\n";
        let m = SourceMap::new(y);
        assert_eq!(m.line(&[Key("list"), Index(0), Key("b")]), Some(3));
        assert_eq!(
            m.line(&[Key("list"), Index(1), Index(1), Key("c")]),
            Some(5)
        );
        assert_eq!(m.line(&[Key("after")]), Some(6));
    }

    #[test]
    fn flow_yaml_inside_block_and_multiline_scalars() {
        let y = "a: {x: 1, 'y': [1, 2],\n  z: {w: 2}}\nb: \"multi\n  line: no\"\nc: plain\n  continued: no\nd: >-\n  e: no\ne: 1\n";
        let m = SourceMap::new(y);
        assert_eq!(m.line(&[Key("a"), Key("z"), Key("w")]), Some(2));
        assert_eq!(m.line(&[Key("a"), Key("y")]), Some(1));
        assert_eq!(m.line(&[Key("c")]), Some(5));
        assert_eq!(m.line(&[Key("d")]), Some(7));
        assert_eq!(m.line(&[Key("e")]), Some(9));
        assert_eq!(m.line(&[Key("b"), Key("line")]), None);
    }

    #[test]
    fn markers_properties_and_fallbacks() {
        let y = "%YAML 1.2\n---\nbase: &b !!map\n  k: 1\nuse:\n  <<: *b\n  \"q\\\"k\": 2\n...\nlater: 1\n";
        let m = SourceMap::new(y);
        assert_eq!(m.line(&[Key("base"), Key("k")]), Some(4));
        assert_eq!(m.line(&[Key("use"), Key("q\"k")]), Some(7));
        assert_eq!(m.line(&[Key("later")]), None);
        assert_eq!(m.nearest_line(&[Key("use"), Key("missing")]), 5);
        assert_eq!(m.nearest_line(&[Key("missing")]), 1);
        let m = SourceMap::with_max_depth(y, 1);
        assert_eq!(m.line(&[Key("base")]), Some(3));
        assert_eq!(m.line(&[Key("base"), Key("k")]), None);
    }

    #[test]
    fn crlf_tabs_and_spaced_colons() {
        let y = "a:\r\n  b :\r\n    c:\t1\r\n  'd' : 2\r\n";
        let m = SourceMap::new(y);
        assert_eq!(m.line(&[Key("a"), Key("b"), Key("c")]), Some(3));
        assert_eq!(m.line(&[Key("a"), Key("d")]), Some(4));
        let j = "{\r\n\t\"a\" : {\r\n\t\t\"b\":\t[\r\n\t\t\t{\"c\": 1}\r\n\t\t]\r\n\t}\r\n}";
        assert_eq!(
            SourceMap::new(j).line(&[Key("a"), Key("b"), Index(0), Key("c")]),
            Some(4)
        );
    }

    #[test]
    fn never_panics_on_garbage() {
        for text in [
            "",
            "-",
            ":",
            "{",
            "[",
            "\"",
            "'",
            "a: \"unclosed",
            "{\"a\": [",
            "- - - -",
            "a:\n\t- b",
            "? x\n: y",
            "a: |\n",
            "\u{feff}",
            "\u{feff}é: ü\n  ö",
            "{é:",
            "]]]}}}",
            "key: 'it''s'\n",
            "a:\n  - b\n - c\n d: 1",
        ] {
            let m = SourceMap::new(text);
            let _ = m.nearest_line(&[Key("a"), Index(0)]);
        }
        let deep = "[".repeat(100_000);
        let _ = SourceMap::new(&deep);
        let deep = (0..2000)
            .map(|i| format!("{}- x\n", " ".repeat(i)))
            .collect::<String>();
        let _ = SourceMap::new(&deep);
    }
}
