//! Comment- and string-aware views of source code.
//!
//! [`Code`] classifies every byte of a file as code, comment or string
//! literal in one pass. Analyzers search the code (commented-out routes and
//! look-alikes inside strings never match), read string literals with
//! escapes decoded, find matching brackets and split call arguments — all
//! with byte offsets into the original text, so line numbers stay exact.

/// Lexical conventions of a language family.
#[derive(Clone, Copy, Debug)]
pub struct Syntax {
    /// Line comment openers, e.g. `#`, `//`.
    pub line_comments: &'static [&'static str],
    /// Block comment delimiters, e.g. `/*` `*/`.
    pub block_comments: &'static [(&'static str, &'static str)],
    /// Block comments nest (Rust, Swift, Scala).
    pub nested_block_comments: bool,
    /// Quote characters that open a string literal.
    pub quotes: &'static [u8],
    /// `"""` / `'''` open multi-line literals (Python, Kotlin, Java, Swift).
    pub triple_quotes: bool,
    /// Letters that may prefix a literal (`r`, `b`, `f`, `u` in Python).
    pub prefixes: &'static [u8],
    /// `'` starts a char literal only when it closes within a character
    /// (Rust lifetimes, `'a`, are code).
    pub char_literals: bool,
    /// Rust raw strings `r"…"`, `r#"…"#`.
    pub rust_raw: bool,
    /// Backtick strings have no escapes (Go raw strings).
    pub raw_backtick: bool,
    /// `${…}` interpolation in backtick strings (JavaScript templates).
    pub dollar_brace_in_backtick: bool,
    /// `#{…}` interpolation in double-quoted strings (Ruby, Crystal, Elixir).
    pub hash_brace_in_double: bool,
    /// Ruby's `=begin` … `=end` block comments.
    pub ruby_block_comments: bool,
    /// C# verbatim strings `@"…"` (with `""` as the escaped quote).
    pub verbatim_at: bool,
    /// C# interpolated strings `$"…{x}…"`: a hole may hold quotes
    /// (`$"{name ?? "all"}"`), and `{{` is an escaped brace.
    pub dollar_quote_holes: bool,
    /// JavaScript regular expression literals (`/'/g`): a `/` where an
    /// operand is expected opens one; its bytes are neither code nor a
    /// string, so quotes and comment markers inside it change nothing.
    pub regex_literals: bool,
}

impl Syntax {
    const BASE: Syntax = Syntax {
        line_comments: &[],
        block_comments: &[],
        nested_block_comments: false,
        quotes: b"\"'",
        triple_quotes: false,
        prefixes: &[],
        char_literals: false,
        rust_raw: false,
        raw_backtick: false,
        dollar_brace_in_backtick: false,
        hash_brace_in_double: false,
        ruby_block_comments: false,
        verbatim_at: false,
        dollar_quote_holes: false,
        regex_literals: false,
    };

    pub const PYTHON: Syntax = Syntax {
        line_comments: &["#"],
        triple_quotes: true,
        prefixes: b"rRbBfFuU",
        ..Syntax::BASE
    };

    /// JavaScript and TypeScript.
    pub const JAVASCRIPT: Syntax = Syntax {
        line_comments: &["//"],
        block_comments: &[("/*", "*/")],
        quotes: b"\"'`",
        dollar_brace_in_backtick: true,
        regex_literals: true,
        ..Syntax::BASE
    };

    /// Java, Kotlin, Scala, Swift, Dart, C and C++ (`"""` text blocks too).
    pub const C_LIKE: Syntax = Syntax {
        line_comments: &["//"],
        block_comments: &[("/*", "*/")],
        triple_quotes: true,
        char_literals: true,
        ..Syntax::BASE
    };

    pub const CSHARP: Syntax = Syntax {
        verbatim_at: true,
        dollar_quote_holes: true,
        ..Syntax::C_LIKE
    };

    pub const GO: Syntax = Syntax {
        line_comments: &["//"],
        block_comments: &[("/*", "*/")],
        quotes: b"\"'`",
        raw_backtick: true,
        char_literals: true,
        ..Syntax::BASE
    };

    pub const RUST: Syntax = Syntax {
        line_comments: &["//"],
        block_comments: &[("/*", "*/")],
        nested_block_comments: true,
        quotes: b"\"'",
        prefixes: b"b",
        char_literals: true,
        rust_raw: true,
        ..Syntax::BASE
    };

    pub const PHP: Syntax = Syntax {
        line_comments: &["//", "#"],
        block_comments: &[("/*", "*/")],
        ..Syntax::BASE
    };

    /// Ruby and Crystal.
    pub const RUBY: Syntax = Syntax {
        line_comments: &["#"],
        hash_brace_in_double: true,
        ruby_block_comments: true,
        ..Syntax::BASE
    };

    pub const ELIXIR: Syntax = Syntax {
        line_comments: &["#"],
        triple_quotes: true,
        hash_brace_in_double: true,
        ..Syntax::BASE
    };

    /// YAML, TOML, shell, properties-like files.
    pub const HASH_COMMENTS: Syntax = Syntax {
        line_comments: &["#"],
        ..Syntax::BASE
    };
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    Code,
    Comment,
    Str,
    /// A regular expression literal (JavaScript).
    Regex,
}

/// A string literal found in the code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StringLit {
    /// Decoded value (escapes resolved; interpolations kept as written).
    pub value: String,
    /// Offset of the first byte (prefix or opening quote).
    pub start: usize,
    /// Offset just past the closing quote.
    pub end: usize,
    /// The literal interpolates (`f"…"`, `` `…${x}` ``, `"#{x}"`).
    pub interpolated: bool,
}

/// A classified view of one file.
pub struct Code<'a> {
    src: &'a str,
    syntax: Syntax,
    class: Vec<Class>,
    blanked: String,
    /// (opener, closer) offsets of every matched bracket, by opener; built
    /// on the first [`Code::matching`].
    pairs: std::cell::OnceCell<Vec<(usize, usize)>>,
}

impl<'a> Code<'a> {
    pub fn new(src: &'a str, syntax: Syntax) -> Self {
        let class = classify(src.as_bytes(), &syntax);
        let mut blanked = src.as_bytes().to_vec();
        for (b, c) in blanked.iter_mut().zip(&class) {
            if *c == Class::Comment && *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
        // Blanking replaces whole comments, which start and end on char
        // boundaries, with ASCII spaces: still UTF-8. Fall back to the source
        // in the impossible case it is not.
        let blanked = String::from_utf8(blanked).unwrap_or_else(|_| src.to_string());
        Code {
            src,
            syntax,
            class,
            blanked,
            pairs: std::cell::OnceCell::new(),
        }
    }

    /// The original text.
    pub fn source(&self) -> &'a str {
        self.src
    }

    /// The text with comments replaced by spaces (newlines kept), so offsets
    /// and lines match the original.
    pub fn text(&self) -> &str {
        &self.blanked
    }

    /// Is the byte at `offset` code (not in a comment or string)?
    pub fn is_code(&self, offset: usize) -> bool {
        self.class.get(offset) == Some(&Class::Code)
    }

    /// Is the byte at `offset` inside a regular expression literal (only
    /// with [`Syntax::regex_literals`])?
    pub fn is_regex(&self, offset: usize) -> bool {
        self.class.get(offset) == Some(&Class::Regex)
    }

    /// Is the byte at `offset` inside a comment?
    pub fn is_comment(&self, offset: usize) -> bool {
        self.class.get(offset) == Some(&Class::Comment)
    }

    /// Offsets of `needle` where it starts in code.
    pub fn find_all<'s>(&'s self, needle: &'s str) -> impl Iterator<Item = usize> + 's {
        self.blanked
            .match_indices(needle)
            .map(|(i, _)| i)
            .filter(move |i| self.is_code(*i))
    }

    /// Offsets of `needle` where it starts in code, within `range` (a
    /// function body, an argument list): linear in the range, not in the
    /// file, so a per-item search stays linear overall. The range is
    /// clamped to the text and narrowed to char boundaries.
    pub fn find_all_in<'s>(
        &'s self,
        needle: &'s str,
        range: std::ops::Range<usize>,
    ) -> impl Iterator<Item = usize> + 's {
        let text = self.blanked.as_str();
        let mut end = range.end.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let mut start = range.start.min(end);
        while !text.is_char_boundary(start) {
            start += 1;
        }
        text[start..end]
            .match_indices(needle)
            .map(move |(i, _)| start + i)
            .filter(move |i| self.is_code(*i))
    }

    /// [`Code::find_word`] within `range` (see [`Code::find_all_in`]).
    pub fn find_word_in<'s>(
        &'s self,
        word: &'s str,
        range: std::ops::Range<usize>,
    ) -> impl Iterator<Item = usize> + 's {
        let bytes = self.blanked.as_bytes();
        self.find_all_in(word, range).filter(move |&i| {
            let before_ok = i == 0 || !is_ident_byte(bytes[i - 1]);
            let after = i + word.len();
            let after_ok = after >= bytes.len() || !is_ident_byte(bytes[after]);
            before_ok && after_ok
        })
    }

    /// Offsets of a whole-word identifier `word` in code (not part of a
    /// longer identifier).
    pub fn find_word<'s>(&'s self, word: &'s str) -> impl Iterator<Item = usize> + 's {
        self.find_word_in(word, 0..self.blanked.len())
    }

    /// Index of the first non-whitespace byte at or after `offset`.
    pub fn skip_ws(&self, mut offset: usize) -> usize {
        let bytes = self.blanked.as_bytes();
        while offset < bytes.len() && bytes[offset].is_ascii_whitespace() {
            offset += 1;
        }
        offset
    }

    /// Like [`Code::skip_ws`] but stops at a newline.
    pub fn skip_inline_ws(&self, mut offset: usize) -> usize {
        let bytes = self.blanked.as_bytes();
        while offset < bytes.len() && (bytes[offset] == b' ' || bytes[offset] == b'\t') {
            offset += 1;
        }
        offset
    }

    /// The string literal starting at `offset` (after optional whitespace).
    pub fn string_at(&self, offset: usize) -> Option<StringLit> {
        let start = self.skip_ws(offset);
        if self.class.get(start) != Some(&Class::Str) {
            return None;
        }
        if start > 0 && self.class[start - 1] == Class::Str {
            // The middle of a literal, not its start.
            let prev = self.src.as_bytes()[start - 1];
            if !self.syntax.prefixes.contains(&prev) {
                return None;
            }
        }
        let mut end = start;
        while end < self.class.len() && self.class[end] == Class::Str {
            end += 1;
            // Two adjacent literals ("a" "b") are separate: stop after the
            // closing quote of the first.
        }
        let end = self.literal_end(start).unwrap_or(end);
        let raw = &self.src[start..end];
        Some(decode_literal(raw, start, &self.syntax))
    }

    /// Every string literal in the file, in order.
    pub fn strings(&self) -> Vec<StringLit> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < self.class.len() {
            if self.class[i] == Class::Str {
                match self.string_at(i) {
                    Some(lit) if lit.end > i => {
                        i = lit.end;
                        out.push(lit);
                        continue;
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        out
    }

    fn literal_end(&self, start: usize) -> Option<usize> {
        let bytes = self.src.as_bytes();
        let mut i = start;
        while i < bytes.len() && self.syntax.prefixes.contains(&bytes[i]) {
            i += 1;
        }
        if self.syntax.rust_raw && bytes.get(i) == Some(&b'r') {
            i += 1;
        }
        let (_, len) = scan_literal(bytes, i, &self.syntax, 0)?;
        Some(i + len)
    }

    /// Given the offset of an opening `(`, `[` or `{`, the offset of its
    /// matching closer (strings and comments skipped).
    pub fn matching(&self, open: usize) -> Option<usize> {
        if !self.is_code(open) {
            return None;
        }
        // All pairs are found in one pass the first time (a stack per
        // bracket kind, each kind counted on its own), so a file of `n`
        // unbalanced openers costs O(n log n), not O(n²).
        let pairs = self.pairs.get_or_init(|| {
            let bytes = self.blanked.as_bytes();
            let mut stacks: [Vec<usize>; 4] = Default::default();
            let mut pairs = Vec::new();
            for (i, &b) in bytes.iter().enumerate() {
                let kind = match b {
                    b'(' | b')' => 0,
                    b'[' | b']' => 1,
                    b'{' | b'}' => 2,
                    b'<' | b'>' => 3,
                    _ => continue,
                };
                if !self.is_code(i) {
                    continue;
                }
                if matches!(b, b'(' | b'[' | b'{' | b'<') {
                    stacks[kind].push(i);
                } else if let Some(o) = stacks[kind].pop() {
                    pairs.push((o, i));
                }
            }
            pairs.sort_unstable();
            pairs
        });
        let k = pairs.binary_search_by_key(&open, |p| p.0).ok()?;
        Some(pairs[k].1)
    }

    /// Split the argument list of a call whose `(` is at `open` into the
    /// byte ranges of its top-level arguments (trimmed). Works for `[`/`{`.
    pub fn args(&self, open: usize) -> Vec<std::ops::Range<usize>> {
        let Some(close) = self.matching(open) else {
            return Vec::new();
        };
        self.split_top_level(open + 1, close, b',')
    }

    /// Split `start..end` at top-level `sep` bytes (outside brackets,
    /// strings and comments), returning trimmed, non-empty ranges.
    pub fn split_top_level(
        &self,
        start: usize,
        end: usize,
        sep: u8,
    ) -> Vec<std::ops::Range<usize>> {
        let bytes = self.blanked.as_bytes();
        let mut out = Vec::new();
        let mut depth = 0i32;
        let mut piece = start;
        for i in start..end.min(bytes.len()) {
            if !self.is_code(i) {
                continue;
            }
            match bytes[i] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                b if b == sep && depth == 0 => {
                    push_trimmed(&mut out, bytes, piece, i);
                    piece = i + 1;
                }
                _ => {}
            }
        }
        push_trimmed(&mut out, bytes, piece, end.min(bytes.len()));
        out
    }

    /// The text of a range, comments blanked.
    pub fn slice(&self, range: std::ops::Range<usize>) -> &str {
        self.blanked.get(range).unwrap_or("")
    }

    /// If the argument at `range` is `name=value` / `name: value` (keyword
    /// argument or object property), return the name and the value range.
    pub fn keyword_arg(
        &self,
        range: std::ops::Range<usize>,
    ) -> Option<(&str, std::ops::Range<usize>)> {
        let text = self.slice(range.clone());
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() && is_ident_byte(bytes[i]) {
            i += 1;
        }
        if i == 0 {
            return None;
        }
        let name = &text[..i];
        let mut j = i;
        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        let sep = *bytes.get(j)?;
        let is_kw = (sep == b'=' && bytes.get(j + 1) != Some(&b'='))
            || (sep == b':' && bytes.get(j + 1) != Some(&b':'));
        if !is_kw {
            return None;
        }
        let value_start = self.skip_ws(range.start + j + 1);
        Some((name, value_start..range.end))
    }

    /// The identifier ending just before `offset` (skipping whitespace), e.g.
    /// the receiver `app` in `app.route(` when given the offset of `.`.
    pub fn ident_before(&self, offset: usize) -> Option<&str> {
        let bytes = self.blanked.as_bytes();
        let mut end = offset.min(bytes.len());
        while end > 0 && bytes[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        let mut start = end;
        while start > 0 && is_ident_byte(bytes[start - 1]) {
            start -= 1;
        }
        (start < end).then(|| &self.blanked[start..end])
    }

    /// The identifier starting at `offset` (after whitespace).
    pub fn ident_at(&self, offset: usize) -> Option<&str> {
        let bytes = self.blanked.as_bytes();
        let start = self.skip_ws(offset);
        let mut end = start;
        while end < bytes.len() && is_ident_byte(bytes[end]) {
            end += 1;
        }
        (start < end).then(|| &self.blanked[start..end])
    }
}

/// ASCII letters, digits, `_`, and any non-ASCII byte (identifiers in most
/// languages may contain Unicode letters).
pub fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

fn push_trimmed(out: &mut Vec<std::ops::Range<usize>>, bytes: &[u8], mut s: usize, mut e: usize) {
    while s < e && bytes[s].is_ascii_whitespace() {
        s += 1;
    }
    while e > s && bytes[e - 1].is_ascii_whitespace() {
        e -= 1;
    }
    if s < e {
        out.push(s..e);
    }
}

fn starts(bytes: &[u8], i: usize, pat: &str) -> bool {
    bytes.get(i..i + pat.len()) == Some(pat.as_bytes())
}

/// Classify every byte.
fn classify(bytes: &[u8], syn: &Syntax) -> Vec<Class> {
    let mut class = vec![Class::Code; bytes.len()];
    let starters = starters(syn);
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let b = bytes[i];
        if !starters[usize::from(b)] {
            // Fast path: a byte that opens nothing (most of them).
            if !b.is_ascii_whitespace() {
                line_start = false;
            }
            i += 1;
            continue;
        }
        if b == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        // Ruby =begin/=end at the start of a line.
        if syn.ruby_block_comments && line_start && starts(bytes, i, "=begin") {
            let end = find_from(bytes, i, b"\n=end")
                .map(|e| line_end(bytes, e + 1))
                .unwrap_or(bytes.len());
            mark(&mut class, i, end, Class::Comment);
            i = end;
            continue;
        }
        if !b.is_ascii_whitespace() {
            line_start = false;
        }
        if let Some(lc) = syn.line_comments.iter().find(|lc| starts(bytes, i, lc)) {
            // `#` in PHP attributes `#[Route(...)]` is code, not a comment.
            let php_attribute =
                *lc == "#" && syn.line_comments.contains(&"//") && bytes.get(i + 1) == Some(&b'[');
            if !php_attribute {
                let end = line_end(bytes, i);
                mark(&mut class, i, end, Class::Comment);
                i = end;
                continue;
            }
        }
        if let Some((open, close)) = syn.block_comments.iter().find(|(o, _)| starts(bytes, i, o)) {
            let end = block_comment_end(bytes, i, open, close, syn.nested_block_comments);
            mark(&mut class, i, end, Class::Comment);
            i = end;
            continue;
        }
        if syn.regex_literals && b == b'/' && regex_may_start(bytes, &class, i) {
            if let Some(len) = scan_regex(bytes, i) {
                mark(&mut class, i, i + len, Class::Regex);
                i += len;
                continue;
            }
        }
        // String literal, possibly prefixed.
        let prev_ident = i > 0 && is_ident_byte(bytes[i - 1]);
        let mut j = i;
        if !prev_ident {
            while j < bytes.len() && j - i < 2 && syn.prefixes.contains(&bytes[j]) {
                j += 1;
            }
            if syn.rust_raw
                && bytes.get(j) == Some(&b'r')
                && matches!(bytes.get(j + 1), Some(b'"') | Some(b'#'))
            {
                j += 1;
            }
        }
        let verbatim =
            syn.verbatim_at && bytes.get(j) == Some(&b'@') && bytes.get(j + 1) == Some(&b'"');
        let quote = j < bytes.len() && syn.quotes.contains(&bytes[j]);
        let rust_raw = syn.rust_raw && j > i && bytes.get(j) == Some(&b'#');
        if verbatim || quote || rust_raw {
            if let Some((_, len)) = scan_literal(bytes, j, syn, 0) {
                mark(&mut class, i, j + len, Class::Str);
                i = j + len;
                continue;
            }
        }
        i += 1;
    }
    class
}

/// The bytes at which [`classify`] may find something other than plain
/// code: a newline, the first byte of a comment opener, a quote, a string
/// prefix, `/` (regex literals), `@` (verbatim strings), `r` (Rust raw
/// strings), `=` (Ruby `=begin`). Every other byte is code and only ends
/// a line start.
fn starters(syn: &Syntax) -> [bool; 256] {
    let mut t = [false; 256];
    if syn.line_comments.iter().any(|lc| lc.is_empty())
        || syn.block_comments.iter().any(|(open, _)| open.is_empty())
    {
        // An empty opener matches anywhere: no fast path.
        return [true; 256];
    }
    t[usize::from(b'\n')] = true;
    for lc in syn.line_comments {
        if let Some(&f) = lc.as_bytes().first() {
            t[usize::from(f)] = true;
        }
    }
    for (open, _) in syn.block_comments {
        if let Some(&f) = open.as_bytes().first() {
            t[usize::from(f)] = true;
        }
    }
    for &q in syn.quotes.iter().chain(syn.prefixes) {
        t[usize::from(q)] = true;
    }
    if syn.regex_literals {
        t[usize::from(b'/')] = true;
    }
    if syn.verbatim_at {
        t[usize::from(b'@')] = true;
    }
    if syn.rust_raw {
        t[usize::from(b'r')] = true;
    }
    if syn.ruby_block_comments {
        t[usize::from(b'=')] = true;
    }
    t
}

/// Can a `/` at `i` open a regular expression literal? Yes where an
/// operand is expected: at the start, after an operator or opening
/// bracket, after `=>`, or after a keyword such as `return`; not after an
/// identifier, a number, a closing bracket or a literal (division), nor
/// after `<` (JSX closing tags).
fn regex_may_start(bytes: &[u8], class: &[Class], i: usize) -> bool {
    let mut p = i;
    while p > 0 {
        p -= 1;
        if class[p] == Class::Comment || bytes[p].is_ascii_whitespace() {
            continue;
        }
        if class[p] != Class::Code {
            return false;
        }
        let c = bytes[p];
        return match c {
            b'(' | b',' | b'=' | b':' | b'[' | b'!' | b'&' | b'|' | b'?' | b'{' | b';' | b'+'
            | b'-' | b'*' | b'%' | b'~' | b'^' => true,
            b'>' => p > 0 && bytes[p - 1] == b'=',
            _ if is_ident_byte(c) => {
                let mut s = p + 1;
                while s > 0 && is_ident_byte(bytes[s - 1]) {
                    s -= 1;
                }
                matches!(
                    &bytes[s..=p],
                    b"return"
                        | b"typeof"
                        | b"case"
                        | b"do"
                        | b"else"
                        | b"in"
                        | b"of"
                        | b"new"
                        | b"delete"
                        | b"void"
                        | b"throw"
                        | b"instanceof"
                        | b"yield"
                        | b"await"
                )
            }
            _ => false,
        };
    }
    true
}

/// Length of the regular expression literal (with flags) opening at `i`,
/// or `None` when no closing `/` follows on the same line.
fn scan_regex(bytes: &[u8], i: usize) -> Option<usize> {
    let mut k = i + 1;
    let mut in_class = false;
    while k < bytes.len() {
        match bytes[k] {
            b'\\' => k += 1,
            b'\n' | b'\r' => return None,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'/' if !in_class => {
                k += 1;
                while k < bytes.len() && bytes[k].is_ascii_alphabetic() {
                    k += 1;
                }
                return Some(k - i);
            }
            _ => {}
        }
        k += 1;
    }
    None
}

fn mark(class: &mut [Class], start: usize, end: usize, c: Class) {
    let end = end.min(class.len());
    for slot in &mut class[start..end] {
        *slot = c;
    }
}

fn line_end(bytes: &[u8], i: usize) -> usize {
    bytes[i..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| i + p)
}

fn find_from(bytes: &[u8], i: usize, pat: &[u8]) -> Option<usize> {
    bytes[i..]
        .windows(pat.len())
        .position(|w| w == pat)
        .map(|p| i + p)
}

fn block_comment_end(bytes: &[u8], start: usize, open: &str, close: &str, nested: bool) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < bytes.len() {
        if starts(bytes, i, open) && (nested || depth == 0) {
            depth += 1;
            i += open.len();
        } else if starts(bytes, i, close) {
            depth -= 1;
            i += close.len();
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    bytes.len()
}

/// Interpolations nest literals in literals (`"#{"#{…}"}"`); past this
/// depth an interpolation opener is plain text, so a file of unbalanced
/// openers cannot overflow the stack (real code nests two or three deep).
const MAX_INTERPOLATION_DEPTH: usize = 16;

/// Scan a literal whose opening delimiter (after prefixes) is at `i`,
/// `depth` interpolations deep. Returns (kind, length from `i`). `None`
/// when `i` is not a literal start (e.g. a Rust lifetime).
fn scan_literal(bytes: &[u8], i: usize, syn: &Syntax, depth: usize) -> Option<(u8, usize)> {
    let q = *bytes.get(i)?;
    // Rust raw strings: r#*"…"#*  (the `r` is already consumed by the caller).
    if syn.rust_raw && (q == b'#' || (q == b'"' && i > 0 && bytes[i - 1] == b'r')) {
        let mut hashes = 0;
        let mut k = i;
        while bytes.get(k) == Some(&b'#') {
            hashes += 1;
            k += 1;
        }
        if bytes.get(k) != Some(&b'"') {
            return None;
        }
        let mut closing = vec![b'"'];
        closing.extend(std::iter::repeat_n(b'#', hashes));
        let end = find_from(bytes, k + 1, &closing).map_or(bytes.len(), |e| e + closing.len());
        return Some((b'r', end - i));
    }
    if syn.verbatim_at && q == b'@' {
        // @"…" with "" escapes.
        let mut k = i + 2;
        while k < bytes.len() {
            if bytes[k] == b'"' {
                if bytes.get(k + 1) == Some(&b'"') {
                    k += 2;
                    continue;
                }
                return Some((b'@', k + 1 - i));
            }
            k += 1;
        }
        return Some((b'@', bytes.len() - i));
    }
    if !syn.quotes.contains(&q) {
        return None;
    }
    if syn.char_literals && q == b'\'' {
        // 'x', '\n', '\'' , '\u{1F600}' — otherwise a lifetime or label.
        let mut k = i + 1;
        if bytes.get(k) == Some(&b'\\') {
            k += 2;
            while k < bytes.len() && k - i < 12 && bytes[k] != b'\'' && bytes[k] != b'\n' {
                k += 1;
            }
        } else {
            // One UTF-8 character.
            let ch_len = utf8_len(*bytes.get(k)?);
            k += ch_len;
        }
        return (bytes.get(k) == Some(&b'\'')).then_some((q, k + 1 - i));
    }
    if syn.triple_quotes
        && (q == b'"' || q == b'\'')
        && bytes.get(i + 1) == Some(&q)
        && bytes.get(i + 2) == Some(&q)
    {
        let closing = [q, q, q];
        let mut k = i + 3;
        while k < bytes.len() {
            if bytes[k] == b'\\' {
                k += 2;
                continue;
            }
            if bytes[k..].starts_with(&closing) {
                // Extra quotes right before the closer belong to the content.
                let mut e = k + 3;
                while bytes.get(e) == Some(&q) {
                    e += 1;
                }
                return Some((q, e - i));
            }
            k += 1;
        }
        return Some((q, bytes.len() - i));
    }
    let raw = q == b'`' && syn.raw_backtick;
    let nest = depth < MAX_INTERPOLATION_DEPTH;
    let interp_dollar = nest && q == b'`' && syn.dollar_brace_in_backtick;
    let interp_hash = nest && q == b'"' && syn.hash_brace_in_double;
    let holes = nest && q == b'"' && syn.dollar_quote_holes && i > 0 && bytes[i - 1] == b'$';
    let multiline = q == b'`'
        || syn.hash_brace_in_double
        || syn.line_comments.contains(&"#") && !syn.triple_quotes;
    let mut k = i + 1;
    while k < bytes.len() {
        let b = bytes[k];
        if b == b'\\' && !raw {
            k += 2;
            continue;
        }
        if b == q {
            return Some((q, k + 1 - i));
        }
        if b == b'\n' && !multiline {
            // Unterminated single-line literal: stop at the line end.
            return Some((q, k - i));
        }
        if (interp_dollar && b == b'$' || interp_hash && b == b'#')
            && bytes.get(k + 1) == Some(&b'{')
        {
            k = skip_interpolation(bytes, k + 1, syn, depth + 1);
            continue;
        }
        if holes && b == b'{' {
            k = if bytes.get(k + 1) == Some(&b'{') {
                k + 2
            } else {
                skip_interpolation(bytes, k, syn, depth + 1)
            };
            continue;
        }
        k += 1;
    }
    Some((q, bytes.len() - i))
}

/// `open` is the `{` of an interpolation; return the offset after its `}`.
fn skip_interpolation(bytes: &[u8], open: usize, syn: &Syntax, nesting: usize) -> usize {
    let mut depth = 0usize;
    let mut k = open;
    while k < bytes.len() {
        let b = bytes[k];
        if syn.quotes.contains(&b) {
            if let Some((_, len)) = scan_literal(bytes, k, syn, nesting) {
                k += len.max(1);
                continue;
            }
        }
        if b == b'{' {
            depth += 1;
        } else if b == b'}' {
            depth -= 1;
            if depth == 0 {
                return k + 1;
            }
        }
        k += 1;
    }
    bytes.len()
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

/// Decode a literal's raw text (prefix + quotes) to its value.
fn decode_literal(raw: &str, start: usize, syn: &Syntax) -> StringLit {
    let bytes = raw.as_bytes();
    let mut i = 0;
    let mut is_raw = false;
    let mut interpolated = false;
    while i < bytes.len()
        && (syn.prefixes.contains(&bytes[i]) || (syn.rust_raw && bytes[i] == b'r'))
    {
        match bytes[i] {
            b'r' | b'R' => is_raw = true,
            b'f' | b'F' => interpolated = true,
            _ => {}
        }
        i += 1;
    }
    let body_and_quotes = &raw[i..];
    let (open_len, close_len, kind) = if let Some(rest) = body_and_quotes.strip_prefix('@') {
        is_raw = true;
        let _ = rest;
        (2, 1, b'@')
    } else if body_and_quotes.starts_with('#')
        || (is_raw && syn.rust_raw && body_and_quotes.starts_with('"'))
    {
        let hashes = body_and_quotes.bytes().take_while(|b| *b == b'#').count();
        is_raw = true;
        (hashes + 1, hashes + 1, b'r')
    } else {
        let q = body_and_quotes.as_bytes().first().copied().unwrap_or(b'"');
        let triple = syn.triple_quotes
            && body_and_quotes.len() >= 6
            && body_and_quotes.as_bytes().get(1) == Some(&q)
            && body_and_quotes.as_bytes().get(2) == Some(&q);
        if triple {
            (3, 3, q)
        } else {
            (1, 1, q)
        }
    };
    if kind == b'`' {
        is_raw = is_raw || syn.raw_backtick;
        interpolated = syn.dollar_brace_in_backtick && body_and_quotes.contains("${");
    }
    if kind == b'"' && syn.hash_brace_in_double && body_and_quotes.contains("#{") {
        interpolated = true;
    }
    let inner_end = body_and_quotes
        .len()
        .saturating_sub(close_len)
        .max(open_len.min(body_and_quotes.len()));
    let closed = body_and_quotes.len() >= open_len + close_len
        && body_and_quotes
            .as_bytes()
            .last()
            .is_some_and(|b| *b == b'"' || *b == b'\'' || *b == b'`' || *b == b'#');
    let inner = if closed {
        body_and_quotes.get(open_len..inner_end).unwrap_or("")
    } else {
        body_and_quotes
            .get(open_len.min(body_and_quotes.len())..)
            .unwrap_or("")
    };
    let value = if kind == b'@' {
        inner.replace("\"\"", "\"")
    } else if is_raw {
        inner.to_string()
    } else {
        unescape(inner)
    };
    StringLit {
        value,
        start,
        end: start + raw.len(),
        interpolated,
    }
}

/// Resolve common backslash escapes; unknown escapes keep the character.
pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('\n') => {}
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => {
                        out.push_str("\\x");
                        out.push_str(&hex);
                    }
                }
            }
            Some('u') => {
                let mut hex = String::new();
                if chars.peek() == Some(&'{') {
                    chars.next();
                    for ch in chars.by_ref() {
                        if ch == '}' {
                            break;
                        }
                        hex.push(ch);
                    }
                } else {
                    hex = chars.by_ref().take(4).collect();
                }
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => {
                        out.push_str("\\u");
                        out.push_str(&hex);
                    }
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_within_a_range() {
        let src = "fn a() { r.route(x) } // r.route\nfn é() { r.route(y); route }\n";
        let code = Code::new(src, Syntax::RUST);
        let all: Vec<usize> = code.find_all(".route").collect();
        assert_eq!(all.len(), 2, "the comment is not code");
        let second = src.find("fn é").unwrap();
        let inside: Vec<usize> = code.find_all_in(".route", second..src.len()).collect();
        assert_eq!(inside, vec![all[1]]);
        // Out-of-range and mid-character bounds are clamped, not a panic.
        assert_eq!(
            code.find_all_in(".route", second + 4..usize::MAX).count(),
            1
        );
        let (from, to) = (500, 9);
        assert_eq!(code.find_all_in(".route", from..to).count(), 0);
        // `r.route` and the bare `route`: both whole words.
        let words: Vec<usize> = code.find_word_in("route", second..src.len()).collect();
        assert_eq!(words, vec![all[1] + 1, src.rfind("route").unwrap()]);
    }

    #[test]
    fn python_comments_are_blanked_and_strings_kept() {
        let src = "x = '#not a comment'  # real comment\n@app.route(\"/a\")\n";
        let code = Code::new(src, Syntax::PYTHON);
        assert_eq!(code.text().len(), src.len());
        assert!(code.text().contains("'#not a comment'"));
        assert!(!code.text().contains("real comment"));
        let at = code.find_all("@app.route(").next().unwrap();
        let lit = code.string_at(at + "@app.route(".len()).unwrap();
        assert_eq!(lit.value, "/a");
    }

    #[test]
    fn commented_out_routes_are_not_found() {
        let src = "# @app.route('/old')\n\"\"\"\n@app.route('/doc')\n\"\"\"\n@app.route('/new')\n";
        let code = Code::new(src, Syntax::PYTHON);
        let hits: Vec<_> = code.find_all("@app.route(").collect();
        assert_eq!(hits.len(), 1);
        assert_eq!(code.string_at(hits[0] + 11).unwrap().value, "/new");
    }

    #[test]
    fn python_prefixes_and_escapes() {
        let code = Code::new(r#"a(r"\d+", f"/u/{x}", 'it\'s', b"x")"#, Syntax::PYTHON);
        let strs: Vec<_> = code
            .strings()
            .into_iter()
            .map(|s| (s.value, s.interpolated))
            .collect();
        assert_eq!(
            strs,
            vec![
                ("\\d+".to_string(), false),
                ("/u/{x}".to_string(), true),
                ("it's".to_string(), false),
                ("x".to_string(), false)
            ]
        );
    }

    #[test]
    fn args_split_at_top_level() {
        let src = "route('/a', methods=['GET', 'POST'], defaults={'a': (1, 2)})";
        let code = Code::new(src, Syntax::PYTHON);
        let args = code.args(5);
        let texts: Vec<_> = args.iter().map(|r| code.slice(r.clone())).collect();
        assert_eq!(
            texts,
            vec!["'/a'", "methods=['GET', 'POST']", "defaults={'a': (1, 2)}"]
        );
        let (name, value) = code.keyword_arg(args[1].clone()).unwrap();
        assert_eq!(name, "methods");
        assert_eq!(code.slice(value), "['GET', 'POST']");
    }

    #[test]
    fn javascript_templates_and_comments() {
        let src = "app.get(`/u/${id + \"}\"}`, h) // app.get('/x')\n/* app.post('/y') */";
        let code = Code::new(src, Syntax::JAVASCRIPT);
        assert_eq!(code.find_all("app.get(").count(), 1);
        assert_eq!(code.find_all("app.post(").count(), 0);
        let lit = code.string_at(8).unwrap();
        assert!(lit.interpolated);
        assert_eq!(lit.value, "/u/${id + \"}\"}");
    }

    #[test]
    fn javascript_regex_literals() {
        let src = "const q = s.replace(/'/g, \"\\\\'\").split(/[/`]/);\nconst r = x => /\\/\\*/.test(x);\nlet half = a / 2 / b; // c\nif (ok) return /\"/;\napp.get('/a', h);\n";
        let code = Code::new(src, Syntax::JAVASCRIPT);
        assert_eq!(code.find_all("app.get(").count(), 1);
        let strs: Vec<_> = code.strings().into_iter().map(|s| s.value).collect();
        assert_eq!(strs, vec!["\\'", "/a"]);
        assert!(code.is_code(src.find("a / 2").unwrap() + 2));
        assert!(!code.text().contains(" c"));
        // JSX closing tags are not regular expressions.
        let jsx = "const v = <p>{x}</p>;\nrouter.get('/b', h);\n";
        let code = Code::new(jsx, Syntax::JAVASCRIPT);
        assert_eq!(code.find_all("router.get(").count(), 1);
    }

    #[test]
    fn rust_lifetimes_raw_strings_and_nested_comments() {
        let src = "fn f<'a>(x: &'a str) { let c = '\"'; let r = r#\"a\"b\"#; /* a /* b */ c */ route(\"/z\") }";
        let code = Code::new(src, Syntax::RUST);
        let strs: Vec<_> = code.strings().into_iter().map(|s| s.value).collect();
        assert_eq!(strs, vec!["\"", "a\"b", "/z"]);
        assert!(!code.text().contains(" c */"));
    }

    #[test]
    fn ruby_interpolation_and_block_comments() {
        let src = "get \"/a/#{x[\"k\"]}\" do\n=begin\nget '/hidden'\n=end\nend\n";
        let code = Code::new(src, Syntax::RUBY);
        assert_eq!(code.find_word("get").count(), 1);
        assert!(code.string_at(3).unwrap().interpolated);
    }

    #[test]
    fn nested_interpolations_are_bounded() {
        // Each `"#{` opens a literal inside an interpolation: without a
        // depth bound this recursed once per opener (a stack overflow).
        for (syntax, opener) in [
            (Syntax::RUBY, "\"#{"),
            (Syntax::ELIXIR, "\"#{"),
            (Syntax::JAVASCRIPT, "`${"),
            (Syntax::CSHARP, "$\"{"),
        ] {
            let src = format!("x = {}\nget '/a'\n", opener.repeat(200_000));
            let code = Code::new(&src, syntax);
            assert!(code.text().len() == src.len());
        }
        // Real nesting still works.
        let code = Code::new("get \"/a/#{x[\"#{y[\"k\"]}\"]}\" do\nend\n", Syntax::RUBY);
        assert_eq!(code.find_word("get").count(), 1);
        assert_eq!(code.find_word("do").count(), 1);
    }

    #[test]
    fn php_hash_attributes_are_code() {
        let src = "#[Route('/a')]\n# comment Route('/b')\n";
        let code = Code::new(src, Syntax::PHP);
        let strs: Vec<_> = code.strings().into_iter().map(|s| s.value).collect();
        assert_eq!(strs, vec!["/a"]);
    }

    #[test]
    fn csharp_verbatim_strings() {
        let code = Code::new(r#"[Route(@"api/""x""")]"#, Syntax::CSHARP);
        assert_eq!(code.strings()[0].value, "api/\"x\"");
    }

    #[test]
    fn csharp_interpolation_holes_hold_quotes() {
        let code = Code::new(
            r#"base($"api/v{v}/{r ?? "[controller]"}/{{x}}") + "/y""#,
            Syntax::CSHARP,
        );
        let strs: Vec<_> = code.strings().into_iter().map(|s| s.value).collect();
        assert_eq!(strs, vec![r#"api/v{v}/{r ?? "[controller]"}/{{x}}"#, "/y"]);
    }

    #[test]
    fn go_raw_backticks() {
        let code = Code::new("r.GET(`/a\\b`, h) // r.GET(\"/c\")", Syntax::GO);
        let strs: Vec<_> = code.strings().into_iter().map(|s| s.value).collect();
        assert_eq!(strs, vec!["/a\\b"]);
    }

    #[test]
    fn matching_brackets_skip_strings() {
        let code = Code::new("f(a, \")\", g(b))", Syntax::PYTHON);
        assert_eq!(code.matching(1), Some(14));
    }

    #[test]
    fn ident_helpers() {
        let code = Code::new("users_bp.route('/x')", Syntax::PYTHON);
        assert_eq!(code.ident_before(8), Some("users_bp"));
        assert_eq!(code.ident_at(9), Some("route"));
    }
}
