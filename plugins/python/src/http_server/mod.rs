//! The standard library's `http.server` (`python_http_server`).
//!
//! Handlers are classes with `do_GET` / `do_POST` / … methods (subclasses
//! of `BaseHTTPRequestHandler` and friends, also in-tree ones);
//! `do_HEAD = do_GET` aliases count. A `do_X` method serves method X; its
//! paths are the string literals starting with `/` it compares the request
//! path with, directly or in the `self.helper()` methods it calls:
//! `self.path == '/health'` (either side, also `!=`), `path in ('/a',
//! '/b')`, `self.path.startswith('/api/')` (the prefix as written), `case
//! '/x':`, `re.match(r'^/users/(?P<id>\d+)$', path)` (→ `/users/{id}`,
//! unnamed groups → `{param}`), and the keys of dispatch tables (`routes =
//! {'/health': self.health}` in the method, or a class / module-level dict
//! the method names; `('POST', '/x')` keys bind the method too). A `do_X`
//! without any visible path comparison is reported as `/`.
//!
//! Parameters: reads inside an `if` / `elif` / `case` branch belong to
//! that branch's path (a dispatch table's handler method reads to its key),
//! reads outside every branch to all the method's paths:
//! `parse_qs(urlparse(self.path).query)` → query (`parse_qs` of a body →
//! form), `json.loads(self.rfile.read(n))` → json, `cgi.FieldStorage` →
//! form, `SimpleCookie(self.headers['Cookie'])` → cookie, each read by
//! `['x']` / `.get('x')` (also through an alias, or a `self.helper()`
//! returning one of these), and `self.headers['X']` / `.get('X')` → header.

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::Code;
use std::collections::HashMap;
use std::ops::Range;

use crate::py::lines::{block_body, line_at, logical_lines, LogicalLine};
use crate::py::module::assignment_target;
use crate::py::outline::{outline, Def, DefKind};
use crate::py::request::{find_word_in, request_reads_with};
use crate::py::strexpr::StrExpr;

pub struct HttpServer;

const METHODS: [&str; 9] = [
    "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT",
];

/// A path found in a handler.
#[derive(Clone, Debug)]
struct Hit {
    url: String,
    /// Bound by a `('POST', '/x')` table key.
    method: Option<String>,
    offset: usize,
    params: Vec<(usize, Param)>,
}

struct Ctx<'a> {
    code: &'a Code<'a>,
    lines: &'a [LogicalLine],
    /// The class's methods by name.
    methods: HashMap<&'a str, &'a Def>,
    /// Class and module-level collections: name → range of the value.
    tables: Vec<(String, Range<usize>)>,
    /// Methods whose body returns a parsed source (`return json.loads(…)`).
    returning: HashMap<String, ParamKind>,
}

/// The open bracket enclosing `offset` (not crossing a logical line start).
fn enclosing_open(code: &Code<'_>, from: usize, offset: usize) -> Option<usize> {
    let bytes = code.text().as_bytes();
    let mut depth = 0usize;
    let mut i = offset;
    while i > from {
        i -= 1;
        if !code.is_code(i) {
            continue;
        }
        match bytes[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => {
                if depth == 0 {
                    return Some(i);
                }
                depth -= 1;
            }
            _ => {}
        }
    }
    None
}

/// `^/users/(?P<id>\d+)/?$` → `/users/{id}`; `None` unless it reads as a
/// path pattern.
fn regex_path(re: &str) -> Option<String> {
    let re = re.strip_prefix('^').unwrap_or(re);
    let re = re.strip_suffix('$').unwrap_or(re);
    let re = re.strip_suffix("/?").unwrap_or(re);
    if !re.starts_with('/') {
        return None;
    }
    let bytes = re.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    let mut unnamed = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => {
                // Skip the group.
                let mut depth = 0;
                let mut j = i;
                while j < bytes.len() {
                    match bytes[j] {
                        b'\\' => j += 1,
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                let group = re.get(i + 1..j.min(re.len()))?;
                if let Some(named) = group.strip_prefix("?P<") {
                    let name = named.split('>').next()?;
                    out.push_str(&format!("{{{name}}}"));
                } else if group.starts_with("?:") {
                    return None;
                } else {
                    unnamed += 1;
                    if unnamed == 1 {
                        out.push_str("{param}");
                    } else {
                        out.push_str(&format!("{{param{unnamed}}}"));
                    }
                }
                i = j + 1;
            }
            b'\\' => {
                let next = *bytes.get(i + 1)?;
                if next.is_ascii_alphanumeric() {
                    return None;
                }
                out.push(next as char);
                i += 2;
            }
            b'.' | b'*' | b'+' | b'?' | b'[' | b'|' | b'{' => return None,
            b => {
                out.push(b as char);
                i += 1;
            }
        }
    }
    Some(out)
}

impl Ctx<'_> {
    fn text(&self) -> &str {
        self.code.text()
    }

    /// Text of the logical line before `offset`, trimmed.
    fn before(&self, offset: usize) -> &str {
        let start = line_at(self.lines, offset)
            .and_then(|i| self.lines.get(i))
            .map_or(0, |l| l.start);
        self.text().get(start..offset).unwrap_or("").trim_end()
    }

    fn after(&self, offset: usize) -> &str {
        let end = line_at(self.lines, offset)
            .and_then(|i| self.lines.get(i))
            .map_or(self.text().len(), |l| l.end);
        self.text().get(offset..end).unwrap_or("").trim_start()
    }

    /// The body of the `if` / `elif` / `case` header containing `offset`.
    fn branch(&self, offset: usize) -> Option<Range<usize>> {
        let idx = line_at(self.lines, offset)?;
        let line = self.lines.get(idx)?;
        let head = line.text(self.code);
        let is_branch = ["if ", "elif ", "case ", "if(", "elif("]
            .iter()
            .any(|k| head.starts_with(k));
        is_branch.then(|| block_body(self.code, self.lines, idx))
    }

    /// Paths in `range` and where their branches are.
    fn hits(&self, range: Range<usize>, table: bool) -> Vec<(Hit, Option<Range<usize>>)> {
        let mut out = Vec::new();
        for lit in self.code.strings() {
            if lit.start < range.start || lit.end > range.end || lit.interpolated {
                continue;
            }
            let before = self.before(lit.start);
            let after = self.after(lit.end);
            let open = enclosing_open(self.code, range.start, lit.start);
            let open_ch = open.and_then(|o| self.text().as_bytes().get(o).copied());
            let regex = ["match(", "fullmatch(", "search(", "compile("]
                .iter()
                .any(|f| before.ends_with(f));
            let url = if regex {
                match regex_path(&lit.value) {
                    Some(u) => u,
                    None => continue,
                }
            } else if lit.value.starts_with('/') {
                lit.value.clone()
            } else {
                continue;
            };
            let dict_key = after.starts_with(':') && open_ch == Some(b'{');
            // `('POST', '/x'): handler` in a dict.
            let mut method = None;
            let mut tuple_key = false;
            if open_ch == Some(b'(') && before.ends_with(',') {
                if let Some(o) = open {
                    let inner = self.text().get(o + 1..lit.start).unwrap_or("");
                    let m = inner.trim().trim_end_matches(',').trim();
                    let m = m
                        .trim_matches(|c| c == '\'' || c == '"')
                        .to_ascii_uppercase();
                    let close = self.code.matching(o).unwrap_or(o);
                    let outer = enclosing_open(self.code, range.start, o);
                    if METHODS.contains(&m.as_str())
                        && self.after(close + 1).starts_with(':')
                        && outer.is_some_and(|p| self.text().as_bytes().get(p) == Some(&b'{'))
                    {
                        method = Some(m);
                        tuple_key = true;
                    }
                }
            }
            let in_collection = matches!(open_ch, Some(b'(' | b'[' | b'{'))
                && open.is_some_and(|o| {
                    let b = self.before(o);
                    b.ends_with(" in") || table || b.ends_with('=')
                });
            let compared = before.ends_with("==")
                || before.ends_with("!=")
                || after.starts_with("==")
                || after.starts_with("!=")
                || before.ends_with("startswith(")
                || before.ends_with("case")
                || (before.ends_with('|') && before.trim_start().starts_with("case "))
                || regex;
            if !(compared || dict_key || tuple_key || in_collection) {
                continue;
            }
            let mut hit = Hit {
                url,
                method,
                offset: lit.start,
                params: Vec::new(),
            };
            // A dispatch table's value: `self.handle_x` / `handle_x`.
            if dict_key || tuple_key {
                let value_at = if tuple_key {
                    open.and_then(|o| self.code.matching(o)).map(|c| c + 1)
                } else {
                    Some(lit.end)
                };
                if let Some(v) = value_at {
                    let rest = self.after(v).trim_start_matches(':').trim_start();
                    let name: String = rest
                        .trim_start_matches("self.")
                        .trim_start_matches(['\'', '"'])
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if let Some(def) = self.methods.get(name.as_str()) {
                        hit.params = self.all_reads(def.body.clone(), &mut Vec::new());
                    }
                }
            }
            let branch = if dict_key || tuple_key {
                None
            } else {
                self.branch(lit.start)
            };
            out.push((hit, branch));
        }
        out
    }

    /// Every read in `range`, following `self.helper()` calls.
    fn all_reads(&self, range: Range<usize>, visited: &mut Vec<String>) -> Vec<(usize, Param)> {
        let mut out = self.reads(range.clone());
        for (name, def) in self.helper_calls(range) {
            if visited.contains(&name) || visited.len() > 16 {
                continue;
            }
            visited.push(name);
            out.extend(self.all_reads(def.body.clone(), visited));
        }
        out
    }

    /// `self.name(` calls of methods of the class in `range`, with offsets.
    fn helper_calls(&self, range: Range<usize>) -> Vec<(String, &Def)> {
        let mut out = Vec::new();
        for occ in find_word_in(self.code, "self", range) {
            let Some(rest) = self.text().get(occ + 5..) else {
                continue;
            };
            if self.text().as_bytes().get(occ + 4) != Some(&b'.') {
                continue;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if let Some(def) = self.methods.get(name.as_str()) {
                out.push((name, *def));
            }
        }
        out
    }

    /// Reads in `range` itself.
    fn reads(&self, range: Range<usize>) -> Vec<(usize, Param)> {
        let code = self.code;
        let text = self.text();
        let bytes = text.as_bytes();
        let key = |e: &StrExpr| e.literal();
        let mut out = request_reads_with(
            code,
            range.clone(),
            &["self".to_string()],
            &key,
            &|a| (a == "headers").then_some(ParamKind::Header),
            false,
        );
        // Sources: (offset after the call, kind, start of the call).
        let mut sources: Vec<(usize, ParamKind, usize)> = Vec::new();
        for (word, kind) in [
            ("parse_qs", None),
            ("parse_qsl", None),
            ("loads", Some(ParamKind::Json)),
            ("SimpleCookie", Some(ParamKind::Cookie)),
            ("FieldStorage", Some(ParamKind::Form)),
        ] {
            for occ in find_word_in(code, word, range.clone()) {
                let open = occ + word.len();
                if bytes.get(open) != Some(&b'(') {
                    continue;
                }
                if word == "loads" && !text.get(..occ).is_some_and(|t| t.ends_with("json.")) {
                    continue;
                }
                let Some(close) = code.matching(open) else {
                    continue;
                };
                let kind = kind.unwrap_or_else(|| {
                    let mut arg = text.get(open + 1..close).unwrap_or("").trim();
                    // `parse_qs(raw)` with `raw = self.rfile.read(…)` earlier.
                    if !arg.is_empty() && arg.bytes().all(is_ident_byte) {
                        let assign = format!("{arg} = ");
                        if let Some(line) = text
                            .get(range.start..occ)
                            .and_then(|t| t.rfind(&assign).map(|i| range.start + i))
                            .map(|i| {
                                let end = text[i..].find('\n').map_or(text.len(), |e| i + e);
                                &text[i..end]
                            })
                        {
                            arg = line;
                        }
                    }
                    if arg.contains("query") || arg.contains("path") {
                        ParamKind::Query
                    } else if ["rfile", "body", "post", "data", "content", "decode"]
                        .iter()
                        .any(|w| arg.to_ascii_lowercase().contains(w))
                    {
                        ParamKind::Form
                    } else {
                        ParamKind::Query
                    }
                });
                sources.push((close + 1, kind, occ));
            }
        }
        for occ in find_word_in(code, "self", range.clone()) {
            if bytes.get(occ + 4) != Some(&b'.') {
                continue;
            }
            let name: String = text
                .get(occ + 5..)
                .unwrap_or("")
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let open = occ + 5 + name.len();
            if let (Some(kind), Some(b'(')) = (self.returning.get(&name), bytes.get(open)) {
                if let Some(close) = code.matching(open) {
                    sources.push((close + 1, *kind, occ));
                }
            }
        }
        for (after, kind, start) in sources {
            let mut p = after;
            // `dict(parse_qsl(...))`.
            if bytes.get(p) == Some(&b')') {
                p += 1;
            }
            if let Some(k) = accessor(code, p) {
                out.push((start, Param::new(kind, k)));
                continue;
            }
            let Some(alias) = alias_of(code, start) else {
                continue;
            };
            for occ in find_word_in(code, &alias, after..range.end) {
                if occ > 0 && bytes[occ - 1] == b'.' {
                    continue;
                }
                if let Some(k) = accessor(code, occ + alias.len()) {
                    out.push((occ, Param::new(kind, k)));
                }
            }
        }
        out.sort_by_key(|(o, _)| *o);
        out
    }
}

/// `['x']`, `.get('x')`, `.getvalue('x')`, `.getfirst('x')`, `.getlist('x')`.
fn accessor(code: &Code<'_>, p: usize) -> Option<String> {
    let bytes = code.text().as_bytes();
    let open = match *bytes.get(p)? {
        b'[' => p,
        b'.' => {
            let name: String = code
                .text()
                .get(p + 1..)?
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !matches!(
                name.as_str(),
                "get" | "getvalue" | "getfirst" | "getlist" | "pop"
            ) {
                return None;
            }
            let open = p + 1 + name.len();
            (bytes.get(open) == Some(&b'(')).then_some(open)?
        }
        _ => return None,
    };
    let first = code.args(open).into_iter().next()?;
    let lit = code.string_at(first.start)?;
    (!lit.interpolated && !lit.value.is_empty()).then_some(lit.value)
}

/// `NAME = [dict(][json.|urllib.parse.|…]source(…)` → NAME.
fn alias_of(code: &Code<'_>, start: usize) -> Option<String> {
    let text = code.text();
    let line_start = text.get(..start)?.rfind('\n').map_or(0, |p| p + 1);
    let mut prefix = text.get(line_start..start)?.trim();
    // Drop the dotted qualifier (`json.`, `urllib.parse.`, `self.`).
    while let Some(p) = prefix.strip_suffix('.') {
        let p = p.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
        prefix = p;
    }
    let prefix = prefix.trim_end();
    let prefix = prefix.strip_suffix("dict(").unwrap_or(prefix).trim_end();
    let lhs = prefix.strip_suffix('=')?.trim_end();
    if lhs.ends_with(['=', '!', '<', '>']) {
        return None;
    }
    let name = lhs.split(':').next()?.trim();
    (!name.is_empty() && !name.as_bytes()[0].is_ascii_digit() && name.bytes().all(is_ident_byte))
        .then(|| name.to_string())
}

fn analyze_file(file: &SourceFile, out: &mut Output) {
    let code = file.python();
    let lines = logical_lines(&code);
    let defs = outline(&code, &lines);
    // Module-level collections.
    let mut module_tables: Vec<(String, Range<usize>)> = Vec::new();
    for line in lines.iter().filter(|l| l.indent == 0) {
        if let Some((name, value)) = assignment_target(&code, line) {
            let v = code.skip_ws(value);
            if matches!(code.text().as_bytes().get(v), Some(b'{' | b'[' | b'('))
                || code.slice(v..line.end).starts_with("re.compile(")
            {
                module_tables.push((name, v..line.end));
            }
        }
    }
    for (ci, class) in defs.iter().enumerate() {
        if class.kind != DefKind::Class {
            continue;
        }
        let members: Vec<&Def> = defs
            .iter()
            .filter(|d| d.is_child_of(ci) && d.kind == DefKind::Function)
            .collect();
        let mut handlers: Vec<(String, &Def)> = members
            .iter()
            .filter_map(|d| {
                let m = d.name.strip_prefix("do_")?;
                METHODS.contains(&m).then(|| (m.to_string(), *d))
            })
            .collect();
        if handlers.is_empty() {
            continue;
        }
        let mut tables = module_tables.clone();
        // Class-level `do_HEAD = do_GET` and collections.
        let first = lines.partition_point(|l| l.start < class.body.start);
        let body_lines: Vec<&LogicalLine> = lines[first..]
            .iter()
            .take_while(|l| l.end <= class.body.end)
            .collect();
        let indent = body_lines.iter().map(|l| l.indent).min();
        for l in body_lines.iter().filter(|l| Some(l.indent) == indent) {
            let Some((name, value)) = assignment_target(&code, l) else {
                continue;
            };
            let v = code.skip_ws(value);
            let rhs = code.slice(v..l.end).trim();
            if let (Some(m), Some(def)) = (
                name.strip_prefix("do_").filter(|m| METHODS.contains(m)),
                members.iter().find(|d| d.name == rhs),
            ) {
                handlers.push((m.to_string(), def));
            } else if matches!(code.text().as_bytes().get(v), Some(b'{' | b'[' | b'(')) {
                tables.push((name, v..l.end));
            }
        }
        let mut returning = HashMap::new();
        for d in &members {
            let body = code.slice(d.body.clone());
            let kind = if body.contains("return json.loads(") {
                Some(ParamKind::Json)
            } else if body.contains("return parse_qs(") || body.contains("return dict(parse_qsl(") {
                Some(if body.contains("query") {
                    ParamKind::Query
                } else {
                    ParamKind::Form
                })
            } else {
                None
            };
            if let Some(k) = kind {
                returning.insert(d.name.clone(), k);
            }
        }
        let ctx = Ctx {
            code: &code,
            lines: &lines,
            methods: members.iter().map(|d| (d.name.as_str(), *d)).collect(),
            tables,
            returning,
        };
        for (method, def) in handlers {
            emit(&ctx, file, &method, def, out);
        }
    }
}

/// Endpoints of one `do_X` method.
fn emit(ctx: &Ctx<'_>, file: &SourceFile, method: &str, def: &Def, out: &mut Output) {
    let mut hits: Vec<Hit> = Vec::new();
    let mut common: Vec<(usize, Param)> = Vec::new();
    let mut visited = vec![def.name.clone()];
    collect(ctx, def.body.clone(), &mut visited, &mut hits, &mut common);
    hits.retain(|h| h.method.as_deref().is_none_or(|m| m == method));
    let common: Vec<Param> = common.into_iter().map(|(_, p)| p).collect();
    if hits.is_empty() {
        out.endpoint(
            Endpoint::new(method, "/")
                .at(file, file.line_of(def.start))
                .params(common),
        );
        return;
    }
    let mut seen: Vec<&str> = Vec::new();
    for hit in &hits {
        if seen.contains(&hit.url.as_str()) {
            continue;
        }
        seen.push(&hit.url);
        let mut params: Vec<(usize, Param)> = hits
            .iter()
            .filter(|h| h.url == hit.url)
            .flat_map(|h| h.params.clone())
            .collect();
        params.sort_by_key(|(o, _)| *o);
        out.endpoint(
            Endpoint::new(method, hit.url.clone())
                .at(file, file.line_of(hit.offset))
                .params(params.into_iter().map(|(_, p)| p))
                .params(common.iter().cloned()),
        );
    }
}

/// Paths and reads of `range`, following helpers and referenced tables.
fn collect(
    ctx: &Ctx<'_>,
    range: Range<usize>,
    visited: &mut Vec<String>,
    hits: &mut Vec<Hit>,
    common: &mut Vec<(usize, Param)>,
) {
    let found = ctx.hits(range.clone(), false);
    let branches: Vec<Range<usize>> = found.iter().filter_map(|(_, b)| b.clone()).collect();
    let in_branch = |o: usize| branches.iter().position(|b| b.start <= o && o < b.end);
    let mut local: Vec<(Hit, Option<Range<usize>>)> = found;
    for (o, p) in ctx.reads(range.clone()) {
        match in_branch(o) {
            Some(_) => {
                for (h, b) in local.iter_mut() {
                    if b.as_ref().is_some_and(|b| b.start <= o && o < b.end) {
                        h.params.push((o, p.clone()));
                    }
                }
            }
            None => common.push((o, p)),
        }
    }
    for (name, def) in ctx.helper_calls(range.clone()) {
        if visited.contains(&name) || visited.len() > 16 {
            continue;
        }
        visited.push(name.clone());
        let call_at = ctx
            .text()
            .get(range.clone())
            .and_then(|t| t.find(&format!("self.{name}")))
            .map_or(range.start, |i| range.start + i);
        if in_branch(call_at).is_some() {
            let reads = ctx.all_reads(def.body.clone(), &mut visited.clone());
            for (h, b) in local.iter_mut() {
                if b.as_ref()
                    .is_some_and(|b| b.start <= call_at && call_at < b.end)
                {
                    h.params.extend(reads.iter().cloned());
                }
            }
        } else {
            collect(ctx, def.body.clone(), visited, hits, common);
        }
    }
    // Tables the range names.
    for (name, value) in &ctx.tables {
        if find_word_in(ctx.code, name, range.clone()).is_empty() {
            continue;
        }
        if visited.contains(name) {
            continue;
        }
        visited.push(name.clone());
        hits.extend(ctx.hits(value.clone(), true).into_iter().map(|(h, _)| h));
    }
    hits.extend(local.into_iter().map(|(h, _)| h));
    hits.sort_by_key(|h| h.offset);
}

impl Analyzer for HttpServer {
    fn tech(&self) -> Tech {
        Tech::new("python_http_server", "Python", "http.server")
            .aliases(["http.server", "http-server", "python-http-server", "basehttpserver"])
            .files(["*.py"])
            .detect(Detect::files(["*.py"]).regex([
                r"^\s*(from\s+(http\.server|BaseHTTPServer|SimpleHTTPServer)\s+import\b|import\s+(http\.server|BaseHTTPServer)\b)",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        analyze_file(file, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str) -> Vec<String> {
        let mut out = Output::new();
        HttpServer.analyze(&SourceFile::new("server.py", src), &mut out);
        out.endpoints()
            .iter()
            .map(|e| {
                crate::test_support::summary(
                    e,
                    crate::test_support::Style {
                        at: crate::test_support::At::Line,
                        ..crate::test_support::COMPACT
                    },
                )
            })
            .collect()
    }

    #[test]
    fn regexes() {
        assert_eq!(
            regex_path(r"^/users/(?P<id>\d+)/?$").as_deref(),
            Some("/users/{id}")
        );
        assert_eq!(
            regex_path(r"^/a/(\d+)/b/([^/]+)$").as_deref(),
            Some("/a/{param}/b/{param2}")
        );
        assert_eq!(regex_path(r"^/x\.json$").as_deref(), Some("/x.json"));
        assert_eq!(regex_path(r"users/.*"), None);
    }

    #[test]
    fn comparisons_tables_and_branch_params() {
        let src = "import json\nfrom http.server import BaseHTTPRequestHandler\nfrom urllib.parse import urlparse, parse_qs\n\nROUTES = {'/a': 1, '/b': 2}\n\nclass H(BaseHTTPRequestHandler):\n    def do_GET(self):\n        parsed = urlparse(self.path)\n        qs = parse_qs(parsed.query)\n        token = self.headers.get('X-Token')\n        if parsed.path == '/health':\n            return self.ok()\n        elif parsed.path.startswith('/items/'):\n            limit = qs.get('limit')\n        elif '/users' == parsed.path:\n            self.users()\n\n    def users(self):\n        page = parse_qs(urlparse(self.path).query)['page']\n\n    def do_POST(self):\n        data = json.loads(self.rfile.read(int(self.headers['Content-Length'])))\n        handler = {'/login': self.login}.get(self.path)\n\n    def login(self):\n        body = self.read_json()\n        user = body['user']\n\n    def read_json(self):\n        return json.loads(self.rfile.read(1))\n\n    do_PUT = do_POST\n\nclass Plain(BaseHTTPRequestHandler):\n    def do_DELETE(self):\n        c = self.headers['Cookie']\n\n    def x(self):\n        if self.path == '/not-a-handler':\n            pass\n";
        assert_eq!(
            run(src),
            vec![
                "GET /health @12 [header:X-Token]",
                "GET /items/ @14 [query:limit,header:X-Token]",
                "GET /users @16 [query:page,header:X-Token]",
                "POST /login @24 [json:user,header:Content-Length]",
                "PUT /login @24 [json:user,header:Content-Length]",
                "DELETE / @36 [header:Cookie]",
            ]
        );
    }
}
