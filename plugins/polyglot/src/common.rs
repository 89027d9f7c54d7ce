//! Helpers shared by the analyzers of this plugin: lexical conventions of
//! the languages the SDK has no preset for, route calls shaped
//! `verb "path"` / `recv.verb("path")`, and request reads given as a table.

use std::ops::Range;

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::prelude::*;

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

/// Perl (`#` comments; POD blocks are rare in route files).
pub const PERL: Syntax = Syntax {
    line_comments: &["#"],
    ..BASE
};

/// Clojure: `;` comments, `"` strings only (`'` quotes a form).
pub const CLOJURE: Syntax = Syntax {
    line_comments: &[";"],
    quotes: b"\"",
    ..BASE
};

/// Lua: `--` and `--[[ … ]]`.
pub const LUA: Syntax = Syntax {
    line_comments: &["--"],
    block_comments: &[("--[[", "]]")],
    ..BASE
};

/// Haskell: `--`, nested `{- -}`, `"` strings (`'` is part of names).
pub const HASKELL: Syntax = Syntax {
    line_comments: &["--"],
    block_comments: &[("{-", "-}")],
    nested_block_comments: true,
    quotes: b"\"",
    ..BASE
};

/// R: `#` comments.
pub const R: Syntax = Syntax {
    line_comments: &["#"],
    ..BASE
};

/// Classic ASP (VBScript): `'` comments, `"` strings.
pub const VBSCRIPT: Syntax = Syntax {
    line_comments: &["'"],
    quotes: b"\"",
    ..BASE
};

/// Zig: `//` comments, `"` strings, `'c'` chars.
pub const ZIG: Syntax = Syntax {
    line_comments: &["//"],
    quotes: b"\"'",
    char_literals: true,
    ..BASE
};

/// Erlang: `%` comments, `"` strings and `'quoted'` atoms.
pub const ERLANG: Syntax = Syntax {
    line_comments: &["%"],
    ..BASE
};

/// Dart: C comments, `'` and `"` strings (also tripled), `r'raw'`.
pub const DART: Syntax = Syntax {
    line_comments: &["//"],
    block_comments: &[("/*", "*/")],
    triple_quotes: true,
    prefixes: b"r",
    ..BASE
};

/// A route call found in code.
#[derive(Clone, Debug)]
pub struct Call {
    /// Offset of the verb word.
    pub at: usize,
    /// The verb as written.
    pub verb: String,
    /// The receiver (`app` in `app.get(`), empty for a bare call.
    pub recv: String,
    /// The first string argument.
    pub path: String,
    /// Offset just past the path literal.
    pub after: usize,
    /// Offset of the `(` opening the argument list, if any.
    pub paren: Option<usize>,
}

/// Every `recv<sep>verb ( "path"` (with `seps`, e.g. `.`, `:`, `->`) or, when
/// `bare`, `verb "path"` at the start of a statement.
pub fn verb_calls(code: &Code, verbs: &[&str], seps: &[&str], bare: bool) -> Vec<Call> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for verb in verbs {
        for at in code.find_word(verb) {
            let before = &text[..at];
            let mut recv = String::new();
            let mut ok = false;
            for sep in seps {
                if let Some(rest) = before.strip_suffix(sep) {
                    recv = code.ident_before(rest.len()).unwrap_or("").to_string();
                    let trimmed = rest.trim_end();
                    if recv.is_empty() && !trimmed.ends_with(')') {
                        break;
                    }
                    ok = true;
                    break;
                }
            }
            if !ok && bare {
                let prev = before.trim_end_matches([' ', '\t']);
                ok = prev.is_empty()
                    || prev.ends_with(['\n', ';', '{', '(', '['])
                    || prev.ends_with("do")
                    || prev.ends_with("$");
                if !ok {
                    continue;
                }
            }
            if !ok {
                continue;
            }
            let mut p = code.skip_ws(at + verb.len());
            let mut paren = None;
            if bytes.get(p) == Some(&b'(') {
                paren = Some(p);
                p = code.skip_ws(p + 1);
            }
            let Some(lit) = code.string_at(p) else {
                continue;
            };
            out.push(Call {
                at,
                verb: verb.to_string(),
                recv,
                path: lit.value,
                after: lit.end,
                paren,
            });
        }
    }
    out.sort_by_key(|c| c.at);
    out
}

/// How a read's value becomes a parameter type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Fixed(ParamKind),
    /// Query on GET/HEAD/DELETE, form otherwise (`param("x")` helpers).
    QueryOrForm,
    /// Query on GET/HEAD/DELETE, json otherwise.
    QueryOrJson,
}

/// A request read: the text before the name, and what it yields. After the
/// needle come optional whitespace and one `(`, `[` or `{`, then the name as
/// a string literal, or a bare identifier/keyword (`{x}`, `.x`, `:x`).
pub type Read = (&'static str, Kind);

/// The parameters read in `range` through `table`, in source order.
pub fn reads(code: &Code, range: Range<usize>, table: &[Read], method: &str) -> Vec<Param> {
    let bytes = code.text().as_bytes();
    let mut found: Vec<(usize, Param)> = Vec::new();
    let mut used = std::collections::HashSet::new();
    for (needle, kind) in table {
        for at in code.find_all_in(needle, range.clone()) {
            if at > 0
                && needle.as_bytes().first().is_some_and(|b| is_ident_byte(*b))
                && is_ident_byte(bytes[at - 1])
            {
                continue;
            }
            let after = at + needle.len();
            if needle.as_bytes().last().is_some_and(|b| is_ident_byte(*b))
                && bytes.get(after).is_some_and(|b| is_ident_byte(*b))
            {
                continue;
            }
            let Some((name, pos)) = name_after(code, after) else {
                continue;
            };
            // `rc.name = …` writes, it does not read.
            if needle.ends_with('.') {
                let end = code.skip_ws(pos + name.len());
                if bytes.get(end) == Some(&b'=') && bytes.get(end + 1) != Some(&b'=') {
                    continue;
                }
            }
            if used.contains(&pos) {
                continue;
            }
            used.insert(pos);
            let kind = match kind {
                Kind::Fixed(k) => *k,
                Kind::QueryOrForm | Kind::QueryOrJson
                    if matches!(method, "GET" | "HEAD" | "DELETE") =>
                {
                    ParamKind::Query
                }
                Kind::QueryOrForm => ParamKind::Form,
                Kind::QueryOrJson => ParamKind::Json,
            };
            if kind == ParamKind::Path {
                continue;
            }
            found.push((at, Param::new(kind, name)));
        }
    }
    found.sort_by_key(|(at, _)| *at);
    let mut out: Vec<Param> = Vec::new();
    for (_, p) in found {
        if !out.iter().any(|q| q.name == p.name && q.kind == p.kind) {
            out.push(p);
        }
    }
    out
}

/// The name at `offset`: a string literal or a bare identifier, after an
/// optional bracket; keywords (`:x`) lose their colon.
pub fn name_after(code: &Code, offset: usize) -> Option<(String, usize)> {
    let bytes = code.text().as_bytes();
    let mut p = code.skip_ws(offset);
    if matches!(bytes.get(p), Some(b'(' | b'[' | b'{')) {
        p = code.skip_ws(p + 1);
    }
    // Erlang binaries: <<"name">>
    if bytes.get(p..p + 3) == Some(b"<<\"") {
        p += 2;
    }
    if let Some(lit) = code.string_at(p) {
        if lit.start == p || code.skip_ws(p) == lit.start {
            let v = lit.value.trim().to_string();
            return (!v.is_empty() && !v.contains(['{', '$', '#', ' '])).then_some((v, lit.start));
        }
    }
    if matches!(bytes.get(p), Some(b':' | b'<')) {
        p += 1;
    }
    let id = code.ident_at(p)?;
    if code.skip_ws(p) != p {
        return None;
    }
    let id = id.trim_start_matches('$');
    (!id.is_empty() && !id.as_bytes()[0].is_ascii_digit()).then(|| (id.to_string(), p))
}

/// `open` is a `{`: the range inside the braces (to the end when unmatched).
pub fn block(code: &Code, open: usize) -> Range<usize> {
    let end = code.matching(open).unwrap_or(code.text().len());
    open..end
}

/// The first code `{` at or after `from`, before any `stop` byte.
pub fn next_brace(code: &Code, from: usize, stop: &[u8]) -> Option<usize> {
    let bytes = code.text().as_bytes();
    let mut i = from;
    while i < bytes.len() {
        if code.is_code(i) {
            if bytes[i] == b'{' {
                return Some(i);
            }
            if stop.contains(&bytes[i]) {
                return None;
            }
        }
        i += 1;
    }
    None
}

/// Join URL pieces with single slashes, no trailing `/` (the SDK helper).
pub use portolan_plugin_sdk::paths::join_trimmed as join_url;

/// An endpoint with parameters; a name that is a placeholder of the URL
/// is a path parameter (added by the host), not a query or form one.
pub fn endpoint(
    method: &str,
    url: &str,
    file: &SourceFile,
    line: u32,
    params: Vec<Param>,
) -> Endpoint {
    let holes = portolan_plugin_sdk::urls::path_placeholders(url);
    Endpoint::new(method, url)
        .at(file, line)
        .params(params.into_iter().filter(|p| !holes.contains(&p.name)))
}

/// The indentation block of the line holding `at`: to the first later
/// non-blank line indented no deeper (Haskell `do` blocks, YAML-like route
/// files).
pub fn indent_block(text: &str, at: usize) -> Range<usize> {
    use portolan_plugin_sdk::text::{indent_of_line, indent_width, line_end_of, line_start_of};
    let start = line_start_of(text, at);
    let indent = indent_of_line(text, at);
    let mut pos = line_end_of(text, at);
    while pos < text.len() {
        let line_start = pos + 1;
        if line_start >= text.len() {
            break;
        }
        let end = line_end_of(text, line_start);
        let line = &text[line_start..end];
        if !line.trim().is_empty() && indent_width(line) <= indent {
            return start..line_start;
        }
        pos = end;
    }
    start..text.len()
}

/// Upper-case HTTP method for a verb word, or `None`.
pub fn method_of(verb: &str) -> Option<&'static str> {
    Some(match verb.to_ascii_lowercase().as_str() {
        "get" => "GET",
        "post" => "POST",
        "put" => "PUT",
        "patch" => "PATCH",
        "delete" | "del" => "DELETE",
        "options" => "OPTIONS",
        "head" => "HEAD",
        _ => return None,
    })
}

/// Document-root directory names: a page's URL is its path below the last
/// of these on its path.
const DOC_ROOTS: &[&str] = &[
    "public",
    "public_html",
    "www",
    "wwwroot",
    "htdocs",
    "html",
    "webroot",
];

/// A served page and its endpoints, whose URLs are suffixes of the page's
/// URL (`""` for the page itself, `/Method` for a web-service method).
#[derive(serde::Serialize, serde::Deserialize)]
pub struct Page {
    pub path: String,
    pub endpoints: Vec<Endpoint>,
}

/// The pages' endpoints at their URLs: the path below the last document
/// root directory, else below the deepest directory holding every page
/// (a plugin sees display paths, not the base path).
pub fn link_pages(pages: Vec<Page>) -> Vec<Endpoint> {
    let dirs: Vec<&str> = pages
        .iter()
        .map(|p| p.path.rsplit_once('/').map_or("", |(d, _)| d))
        .collect();
    let mut common: Option<Vec<&str>> = None;
    for d in &dirs {
        let segs: Vec<&str> = d.split('/').filter(|s| !s.is_empty()).collect();
        common = Some(match common {
            None => segs,
            Some(c) => c
                .iter()
                .zip(&segs)
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| *a)
                .collect(),
        });
    }
    let common = common.unwrap_or_default().len();
    let mut out = Vec::new();
    for p in pages {
        let segs: Vec<&str> = p.path.split('/').filter(|s| !s.is_empty()).collect();
        let root = segs[..segs.len().saturating_sub(1)]
            .iter()
            .rposition(|s| DOC_ROOTS.contains(&s.to_ascii_lowercase().as_str()))
            .map_or(common, |i| i + 1);
        let url = format!("/{}", segs[root.min(segs.len())..].join("/"));
        for mut e in p.endpoints {
            e.url = format!("{url}{}", e.url);
            out.push(e);
        }
    }
    out
}

/// The methods a route declared without one is reported with (tagged
/// `any_method`).
pub const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// The bodies of the functions and methods defined in a file (C-like
/// languages: `T name(…) {…}`, also `Cls::name(…)`, Dart's `name(…) async
/// {…}` and arrow bodies `name(…) => expr;`), first definition of each
/// name, found in one pass so that looking up every route's handler stays
/// linear.
pub struct Fns(std::collections::HashMap<String, Range<usize>>);

impl Fns {
    pub fn new(code: &Code) -> Fns {
        let text = code.text();
        let bytes = text.as_bytes();
        let mut map = std::collections::HashMap::new();
        for p in code.find_all("(") {
            let Some(name) = code.ident_before(p) else {
                continue;
            };
            if map.contains_key(name)
                || matches!(name, "if" | "for" | "while" | "switch" | "catch" | "return")
            {
                continue;
            }
            let Some(close) = code.matching(p) else {
                continue;
            };
            let mut after = code.skip_ws(close + 1);
            if text[after..].starts_with("async") {
                after = code.skip_ws(after + 5);
            }
            let body = if text[after..].starts_with("=>") {
                let end = text[after..].find(';').map_or(text.len(), |i| after + i);
                Some(after..end)
            } else {
                // The body's `{` before any `;`, `,`, `)`, `=`, `(` (a call or a declaration).
                let mut i = close + 1;
                let mut found = None;
                while i < bytes.len() && i < close + 400 {
                    if code.is_code(i) {
                        match bytes[i] {
                            b'{' => {
                                found = Some(block(code, i));
                                break;
                            }
                            b';' | b',' | b')' | b'=' | b'(' | b'}' => break,
                            _ => {}
                        }
                    }
                    i += 1;
                }
                found
            };
            if let Some(b) = body {
                map.insert(name.to_string(), b);
            }
        }
        Fns(map)
    }

    pub fn get(&self, name: &str) -> Option<Range<usize>> {
        self.0.get(name).cloned()
    }
}

/// The string literals (in source order, from `Code::strings`) that lie
/// within `range`, found by binary search.
pub fn strings_in(strings: &[StringLit], range: Range<usize>) -> &[StringLit] {
    let from = strings.partition_point(|s| s.start < range.start);
    let to = strings.partition_point(|s| s.start < range.end);
    let to = to.max(from);
    let mut end = to;
    while end > from && strings[end - 1].end > range.end {
        end -= 1;
    }
    &strings[from..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_not_query_params() {
        let f = SourceFile::new("a.lua", "x");
        let e = endpoint(
            "GET",
            "/posts/:id",
            &f,
            1,
            vec![Param::query("id"), Param::query("q")],
        );
        assert_eq!(e.params, vec![Param::query("q")]);
    }

    #[test]
    fn function_index_finds_definitions_not_calls() {
        let src = "void list(int a);\nint main() { list(1); }\nvoid list(int a) { get(\"q\"); }\n";
        let code = Code::new(src, Syntax::C_LIKE);
        let fns = Fns::new(&code);
        let body = fns.get("list").map(|r| &src[r]);
        assert_eq!(body, Some("{ get(\"q\"); "));
    }

    #[test]
    fn strings_in_a_range() {
        let code = Code::new("a('x', 'y') b('z')", DART);
        let all = code.strings();
        let got: Vec<&str> = strings_in(&all, 0..11)
            .iter()
            .map(|s| s.value.as_str())
            .collect();
        assert_eq!(got, ["x", "y"]);
    }
}
