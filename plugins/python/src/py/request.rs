//! Parameters read from a Werkzeug-style `request` object (Flask, Quart,
//! Flask-RESTX, …) inside a handler body:
//!
//! | read | kind |
//! | --- | --- |
//! | `request.args` / `request.values` `.get('q')`, `['q']`, `.getlist('q')` | query |
//! | `request.form…` | form |
//! | `request.json…`, `request.get_json()…` | json |
//! | `request.headers…`, `request.authorization` (`Authorization`) | header |
//! | `request.cookies…` | cookie |
//! | `request.files…` | file |
//!
//! An alias assigned from a source (`data = request.get_json()`, `form =
//! request.form`, `payload = request.get_json(silent=True) or {}`) is
//! followed through the rest of the body (`data['x']`, `data.get('x')`).

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::{Code, Param, ParamKind};
use std::ops::Range;

use super::strexpr::StrExpr;

/// The parameter kind an attribute of `request` reads, if any.
pub fn source_kind(attr: &str) -> Option<ParamKind> {
    Some(match attr {
        "args" | "values" => ParamKind::Query,
        "form" => ParamKind::Form,
        "files" => ParamKind::File,
        "headers" => ParamKind::Header,
        "cookies" => ParamKind::Cookie,
        "json" | "get_json" => ParamKind::Json,
        _ => return None,
    })
}

/// Parameters read in `body` through any of `request_names` (usually just
/// `request`). `key` turns the subscript / `.get()` argument into a name
/// (literals, and constants the caller can resolve). In source order,
/// deduplicated by (name, kind).
pub fn request_params(
    code: &Code<'_>,
    body: Range<usize>,
    request_names: &[String],
    key: &dyn Fn(&StrExpr) -> Option<String>,
) -> Vec<Param> {
    request_params_with(code, body, request_names, key, &source_kind, false)
}

/// [`request_params`] for another framework's request object: `sources`
/// maps an attribute of the request (`GET`, `data`, `query_params`) to the
/// kind of parameter it reads; with `self_attr`, `self.request.X` is read
/// too (class-based views).
pub fn request_params_with(
    code: &Code<'_>,
    body: Range<usize>,
    request_names: &[String],
    key: &dyn Fn(&StrExpr) -> Option<String>,
    sources: &dyn Fn(&str) -> Option<ParamKind>,
    self_attr: bool,
) -> Vec<Param> {
    request_reads_with(code, body, request_names, key, sources, self_attr)
        .into_iter()
        .map(|(_, p)| p)
        .collect()
}

/// [`request_params_with`] with the offset of each (first) read, so a
/// caller can merge reads found by other means in source order.
pub fn request_reads_with(
    code: &Code<'_>,
    body: Range<usize>,
    request_names: &[String],
    key: &dyn Fn(&StrExpr) -> Option<String>,
    sources: &dyn Fn(&str) -> Option<ParamKind>,
    self_attr: bool,
) -> Vec<(usize, Param)> {
    let bytes = code.text().as_bytes();
    let mut found: Vec<(usize, Param)> = Vec::new();
    let mut aliases: Vec<(String, ParamKind, usize)> = Vec::new();
    for name in request_names {
        for occ in find_word_in(code, name, body.clone()) {
            let mut p = occ + name.len();
            if bytes.get(p) != Some(&b'.') {
                continue;
            }
            if occ > 0
                && bytes[occ - 1] == b'.'
                && !["flask.", "cherrypy.", "bottle."].iter().any(|q| {
                    code.slice(occ.saturating_sub(q.len())..occ) == *q
                        && (occ == q.len() || !is_ident_byte(bytes[occ - q.len() - 1]))
                })
                && !(self_attr
                    && code.slice(occ.saturating_sub(5)..occ) == "self."
                    && (occ == 5 || !is_ident_byte(bytes[occ - 6])))
            {
                continue;
            }
            let Some(attr) = ident_at(bytes, p + 1) else {
                continue;
            };
            p += 1 + attr.len();
            if attr == "authorization" {
                found.push((occ, Param::header("Authorization")));
                continue;
            }
            let Some(kind) = sources(attr) else {
                continue;
            };
            if attr == "get_json" {
                if bytes.get(p) != Some(&b'(') {
                    continue;
                }
                let Some(close) = code.matching(p) else {
                    continue;
                };
                p = close + 1;
            }
            // `(await request.form)['x']`.
            if bytes.get(p) == Some(&b')')
                && code
                    .slice(occ.saturating_sub(8)..occ)
                    .trim_end()
                    .ends_with("(await")
            {
                p += 1;
            }
            if let Some(k) = accessor(code, p, key) {
                found.push((occ, Param::new(kind, k)));
            } else if let Some(alias) = alias_target(code, occ) {
                aliases.push((alias, kind, p));
            }
        }
    }
    for (alias, kind, from) in aliases {
        for occ in find_word_in(code, &alias, from.max(body.start)..body.end) {
            if occ > 0 && bytes[occ - 1] == b'.' {
                continue;
            }
            if let Some(k) = accessor(code, occ + alias.len(), key) {
                found.push((occ, Param::new(kind, k)));
            }
        }
    }
    found.sort_by_key(|(offset, _)| *offset);
    let mut out: Vec<(usize, Param)> = Vec::new();
    for (at, p) in found {
        if !out
            .iter()
            .any(|(_, q)| q.name == p.name && q.kind == p.kind)
        {
            out.push((at, p));
        }
    }
    out
}

/// Offsets of the whole-word identifier `word` in code within `range`.
pub fn find_word_in(code: &Code<'_>, word: &str, range: Range<usize>) -> Vec<usize> {
    let bytes = code.text().as_bytes();
    let Some(hay) = code.text().get(range.clone()) else {
        return Vec::new();
    };
    hay.match_indices(word)
        .map(|(i, _)| range.start + i)
        .filter(|&i| {
            let after = i + word.len();
            code.is_code(i)
                && (i == 0 || !is_ident_byte(bytes[i - 1]))
                && (after >= bytes.len() || !is_ident_byte(bytes[after]))
        })
        .collect()
}

fn ident_at(bytes: &[u8], start: usize) -> Option<&str> {
    let mut end = start;
    while end < bytes.len() && is_ident_byte(bytes[end]) {
        end += 1;
    }
    if end == start {
        return None;
    }
    std::str::from_utf8(bytes.get(start..end)?).ok()
}

/// The key read at `p`: `['x']`, `.get('x', …)`, `.getlist('x')`, `.pop('x')`.
fn accessor(code: &Code<'_>, p: usize, key: &dyn Fn(&StrExpr) -> Option<String>) -> Option<String> {
    let bytes = code.text().as_bytes();
    let open = match *bytes.get(p)? {
        b'[' => p,
        b'.' => {
            let method = ident_at(bytes, p + 1)?;
            if !matches!(
                method,
                "get"
                    | "getlist"
                    | "pop"
                    | "get_all"
                    | "setdefault"
                    | "getall"
                    | "getone"
                    | "getunicode"
            ) {
                return None;
            }
            let open = p + 1 + method.len();
            (bytes.get(open) == Some(&b'(')).then_some(open)?
        }
        _ => return None,
    };
    if !code.is_code(open) {
        return None;
    }
    let first = code.args(open).into_iter().next()?;
    let expr = StrExpr::parse(code, first)?;
    key(&expr).filter(|k| !k.is_empty())
}

/// For `NAME = <source>` (also `NAME: T = …`, `NAME = dict(<source>)`) at
/// the start of the physical line containing `occ`, the name.
fn alias_target(code: &Code<'_>, occ: usize) -> Option<String> {
    let text = code.text();
    let line_start = text.get(..occ)?.rfind('\n').map_or(0, |p| p + 1);
    let mut prefix = text.get(line_start..occ)?.trim_end();
    // `data = self.request.json` (class-based views; only reached when the
    // caller reads `self.request`).
    if let Some(p) = prefix.strip_suffix("self.") {
        prefix = p.trim_end();
    }
    // `data = cherrypy.request.json`.
    for q in ["flask.", "cherrypy.", "bottle."] {
        if let Some(p) = prefix.strip_suffix(q) {
            prefix = p.trim_end();
        }
    }
    // `data = await request.get_json()` (Quart, Sanic).
    if let Some(p) = prefix.strip_suffix("await") {
        prefix = p.trim_end();
    }
    if let Some(p) = prefix.strip_suffix("dict(") {
        prefix = p.trim_end();
    }
    // `data = json.loads(request.body)` (Django, Tornado),
    // `tornado.escape.json_decode(self.request.body)`, `orjson.loads(...)`.
    if let Some(p) = prefix.strip_suffix('(') {
        let callee_start = p
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .map_or(0, |i| i + 1);
        let callee = p.get(callee_start..).unwrap_or("");
        if matches!(callee.rsplit('.').next(), Some("loads" | "json_decode")) {
            prefix = p.get(..callee_start).unwrap_or("").trim_end();
        }
    }
    let lhs = prefix.strip_suffix('=')?;
    if lhs.ends_with(['=', '!', '<', '>', '+', '-', '*', '/', '%', '|', '&', ':']) {
        return None;
    }
    let name = lhs.split(':').next()?.trim();
    let valid =
        !name.is_empty() && !name.as_bytes()[0].is_ascii_digit() && name.bytes().all(is_ident_byte);
    valid.then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    fn params(src: &str) -> Vec<(String, ParamKind)> {
        let code = Code::new(src, Syntax::PYTHON);
        let consts = |e: &StrExpr| e.resolve(&mut |n| (n == "PAGE").then(|| "page".to_string()));
        request_params(&code, 0..src.len(), &["request".to_string()], &consts)
            .into_iter()
            .map(|p| (p.name, p.kind))
            .collect()
    }

    fn p(name: &str, kind: ParamKind) -> (String, ParamKind) {
        (name.to_string(), kind)
    }

    #[test]
    fn direct_reads() {
        let src = "q = request.args.get('q', '')\nt = request.args.getlist(\"tag\")\nn = request.args[PAGE]\n\
                   v = request.values.get('sort')\nu = request.form['user']\nf = request.files.get('avatar')\n\
                   h = request.headers.get('X-Token')\nc = request.cookies['session']\nj = request.json['name']\n\
                   k = request.get_json(force=True).get('price')\nm = request.get_json()['qty']\na = request.authorization\n\
                   again = request.args.get('q')\nx = request.method\ny = request.args.to_dict()\n";
        assert_eq!(
            params(src),
            vec![
                p("q", ParamKind::Query),
                p("tag", ParamKind::Query),
                p("page", ParamKind::Query),
                p("sort", ParamKind::Query),
                p("user", ParamKind::Form),
                p("avatar", ParamKind::File),
                p("X-Token", ParamKind::Header),
                p("session", ParamKind::Cookie),
                p("name", ParamKind::Json),
                p("price", ParamKind::Json),
                p("qty", ParamKind::Json),
                p("Authorization", ParamKind::Header),
            ]
        );
    }

    #[test]
    fn aliases() {
        let src = "data = request.get_json()\npayload: dict = request.get_json(silent=True) or {}\nform = dict(request.form)\n\
                   args = request.args\nif data['a'] and data.get('b'):\n    x = payload.get('c')\n    y = form['d']\n\
                   z = args.getlist('e')\nok = request.json == data\nother.data['no']\n";
        assert_eq!(
            params(src),
            vec![
                p("a", ParamKind::Json),
                p("b", ParamKind::Json),
                p("c", ParamKind::Json),
                p("d", ParamKind::Form),
                p("e", ParamKind::Query)
            ]
        );
    }

    #[test]
    fn awaited_reads() {
        let src = "data = await request.get_json()\nx = data['a']\nf = (await request.form)['b']\nfiles = await request.files\ny = files.get('c')\n";
        assert_eq!(
            params(src),
            vec![
                p("a", ParamKind::Json),
                p("b", ParamKind::Form),
                p("c", ParamKind::File)
            ]
        );
    }

    #[test]
    fn other_request_objects() {
        let src = "q = self.request.GET.get('q')\nd = request.data['name']\nx = myself.request.GET['no']\nrequest.args.get('flask')\n";
        let code = Code::new(src, Syntax::PYTHON);
        let sources = |a: &str| match a {
            "GET" => Some(ParamKind::Query),
            "data" => Some(ParamKind::Json),
            _ => None,
        };
        let got: Vec<_> = request_params_with(
            &code,
            0..src.len(),
            &["request".to_string()],
            &|e| e.literal(),
            &sources,
            true,
        )
        .into_iter()
        .map(|p| (p.name, p.kind))
        .collect();
        assert_eq!(
            got,
            vec![
                ("q".to_string(), ParamKind::Query),
                ("name".to_string(), ParamKind::Json)
            ]
        );
    }

    #[test]
    fn ignores_comments_strings_and_lookalikes() {
        let src = "# request.args.get('a')\ns = \"request.args.get('b')\"\nmy_request.args.get('c')\nself.request.args.get('d')\nflask.request.args.get('e')\nrequest.args.get(name)\n";
        assert_eq!(params(src), vec![p("e", ParamKind::Query)]);
    }
}
