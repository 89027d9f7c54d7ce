//! What a Ruby handler body reads from the request.
//!
//! `params[:x]` / `params['x']` / `params.fetch(:x)` / `params.dig(:x)` /
//! `params.key?(:x)` / `params.require(:user).permit(:name, tags: [])`
//! (the permitted names: `name`, `tags`; `require(:x)` alone reads `x`),
//! `params[:user][:name]` (the innermost key, like `permit`),
//! `request.query_parameters[:x]` / `request.GET['x']` (query),
//! `request.request_parameters[:x]` / `request.POST['x']` (body),
//! `request.headers['X-Y']` / `request.env['HTTP_X_Y']` (header `X-Y`),
//! `cookies[:c]`, `cookies.signed[:c]`, `cookies.encrypted[:c]`,
//! `request.cookies['c']` (cookie; assignments are writes and skipped),
//! `req.cookies.find { |c| c.name == 'c' }` (WEBrick's cookie list).
//! `request.get_header('HTTP_X_Y')` (header `X-Y`),
//! `typecast_params.int('x')` (Roda; like `params`),
//! `JSON.parse(request.body.read)['k']` and `body = JSON.parse(…)` then
//! `body['k']` / `body[:k]` / `body.fetch('k')` (json).
//! Frameworks whose `headers[...]` reads the request (Grape) enable
//! [`Options::bare_headers`]; Sinatra's bare `env['HTTP_X']` needs
//! [`Options::bare_env`]; other names for the request object (Roda's `r`,
//! WEBrick's `req`) go in [`Options::receivers`], and `req['X-Y']` header
//! reads (WEBrick, Rack) need [`Options::index_headers`].

use serde::{Deserialize, Serialize};

use super::tokens::{Kind, Token};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reads {
    /// `params` reads: query on GET, body otherwise.
    pub params: Vec<String>,
    pub query: Vec<String>,
    pub body: Vec<String>,
    pub headers: Vec<String>,
    pub cookies: Vec<String>,
    /// JSON body fields (`JSON.parse(request.body.read)['k']`).
    #[serde(default)]
    pub json: Vec<String>,
    /// Keys `require`d around permitted fields
    /// (`params.require(:user).permit(:name)` → `user`): the top-level
    /// field of a JSON body.
    #[serde(default)]
    pub wrappers: Vec<String>,
    /// Bare method calls in the body (for callee resolution).
    pub calls: Vec<String>,
}

impl Reads {
    pub fn merge(&mut self, other: &Reads) {
        for (a, b) in [
            (&mut self.params, &other.params),
            (&mut self.query, &other.query),
            (&mut self.body, &other.body),
            (&mut self.headers, &other.headers),
            (&mut self.cookies, &other.cookies),
            (&mut self.json, &other.json),
            (&mut self.wrappers, &other.wrappers),
        ] {
            for x in b {
                push(a, x);
            }
        }
    }
    pub fn is_empty(&self) -> bool {
        self.params.is_empty()
            && self.query.is_empty()
            && self.body.is_empty()
            && self.headers.is_empty()
            && self.cookies.is_empty()
            && self.json.is_empty()
    }
}

#[derive(Clone, Copy, Default)]
pub struct Options {
    /// `headers['X']` reads a request header (Grape, Sinatra's `env`).
    pub bare_headers: bool,
    /// `env['HTTP_X']` reads a request header (Sinatra, Roda, Rack).
    pub bare_env: bool,
    /// `X['Header-Name']` reads a header when `X` is a request receiver.
    pub index_headers: bool,
    /// Names besides `request` that hold the request (`r`, `req`).
    pub receivers: &'static [&'static str],
}

/// The constant path ending just before the `.` at `dot` (`A::B` in
/// `A::B.new`).
fn const_before(toks: &[Token], dot: usize) -> Option<String> {
    let mut k = dot;
    let mut parts: Vec<&str> = Vec::new();
    while k > 0 {
        let t = &toks[k - 1];
        if t.kind == Kind::Const || t.is("::") {
            parts.push(&t.text);
            k -= 1;
        } else {
            break;
        }
    }
    if parts.is_empty() || parts.last() == Some(&"::") && parts.len() == 1 {
        return None;
    }
    parts.reverse();
    let s: String = parts.concat();
    let s = s.trim_start_matches("::").to_string();
    (!s.is_empty() && !s.ends_with("::")).then_some(s)
}

/// Does the argument list opening at `open` pass `params` itself (a bare
/// `params` argument or `key: params`)? Bounded look-ahead.
fn passes_params(toks: &[Token], open: usize) -> bool {
    let mut depth = 0i32;
    for (k, t) in toks.iter().enumerate().skip(open).take(64) {
        if t.is("(") || t.is("[") || t.is("{") {
            depth += 1;
        } else if t.is(")") || t.is("]") || t.is("}") {
            depth -= 1;
            if depth <= 0 {
                return false;
            }
        } else if depth == 1
            && t.kind == Kind::Ident
            && t.text == "params"
            && toks
                .get(k - 1)
                .is_some_and(|p| p.is("(") || p.is(",") || p.kind == Kind::Label)
            && toks.get(k + 1).is_some_and(|n| n.is(")") || n.is(","))
        {
            return true;
        }
    }
    false
}

fn push(list: &mut Vec<String>, name: &str) {
    if !name.is_empty() && !list.iter().any(|x| x == name) {
        list.push(name.to_string());
    }
}

/// `HTTP_X_API_KEY` → `X-Api-Key`; other names unchanged.
pub fn header_name(raw: &str) -> String {
    match raw.strip_prefix("HTTP_") {
        Some(rest) => rest
            .split('_')
            .map(|w| {
                let lower = w.to_ascii_lowercase();
                let mut c = lower.chars();
                match c.next() {
                    Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                    None => String::new(),
                }
            })
            .collect::<Vec<_>>()
            .join("-"),
        None => raw.to_string(),
    }
}

/// A Roda `typecast_params` conversion method (`str`, `pos_int!`,
/// `int64?`, `array!` …).
fn typecast_method(name: &str) -> bool {
    let m = name.trim_end_matches(['!', '?']);
    matches!(
        m,
        "any"
            | "str"
            | "nonempty_str"
            | "bool"
            | "int"
            | "pos_int"
            | "Integer"
            | "float"
            | "Float"
            | "date"
            | "time"
            | "datetime"
            | "file"
            | "Hash"
            | "array"
    ) || ["int", "pos_int", "Integer"].iter().any(|p| {
        m.strip_prefix(p)
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    })
}

fn key(t: Option<&Token>) -> Option<&str> {
    let t = t?;
    match t.kind {
        Kind::Sym | Kind::Str if !t.interpolated => Some(&t.text),
        _ => None,
    }
}

/// Index-read `X[key]` at `i` (the `[`): the key, unless it is assigned.
fn index_key(toks: &[Token], i: usize) -> Option<&str> {
    if !toks.get(i)?.is("[") || !toks.get(i + 2)?.is("]") {
        return None;
    }
    let assigned = toks.get(i + 3).is_some_and(|t| t.is("=") || t.is("||="));
    if assigned {
        return None;
    }
    key(toks.get(i + 1))
}

/// Symbol/string/label names in the argument list starting at `open` (`(`).
fn arg_names(toks: &[Token], open: usize) -> (Vec<String>, usize) {
    let mut names = Vec::new();
    let mut depth = 0i32;
    let mut k = open;
    while k < toks.len() {
        let t = &toks[k];
        if t.kind == Kind::Punct {
            match t.text.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => {
                    depth -= 1;
                    if depth == 0 {
                        return (names, k);
                    }
                }
                // `permit(*FIELDS)`: the constant's words, resolved by the
                // framework linker (recorded as `*FIELDS`).
                "*" if depth == 1 => {
                    if let Some(c) = toks.get(k + 1).filter(|c| c.kind == Kind::Const) {
                        names.push(format!("*{}", c.text));
                    }
                }
                _ => {}
            }
        } else if depth == 1 {
            match t.kind {
                Kind::Sym | Kind::Label => names.push(t.text.clone()),
                Kind::Str if !t.interpolated && !toks.get(k + 1).is_some_and(|n| n.is("=>")) => {
                    names.push(t.text.clone())
                }
                Kind::Str if !t.interpolated => names.push(t.text.clone()),
                _ => {}
            }
        }
        k += 1;
    }
    (names, k)
}

/// Rails 8's `params.expect(article: [:title, :body])` (also
/// `expect(articles: [[:title]])` for a list): the key wraps the listed
/// fields, as `require(:article).permit(:title, :body)` does.
fn expect_nested(toks: &[Token], open: usize) -> Option<(String, Vec<String>)> {
    let label = toks.get(open + 1).filter(|t| t.kind == Kind::Label)?;
    let mut inner = open + 2;
    if !toks.get(inner)?.is("[") {
        return None;
    }
    if toks.get(inner + 1).is_some_and(|t| t.is("[")) {
        inner += 1;
    }
    let (names, _) = arg_names(toks, inner);
    Some((label.text.clone(), names))
}

/// The code of each `#{...}` interpolation of a string literal's text.
fn interpolations(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("#{") {
        let body = &rest[at + 2..];
        let mut depth = 1usize;
        let mut end = None;
        for (k, c) in body.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(k);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { break };
        out.push(&body[..end]);
        rest = &body[end + 1..];
    }
    out
}

/// Scan tokens (a handler body) for request reads.
pub fn reads(toks: &[Token], opts: Options) -> Reads {
    let mut r = Reads::default();
    let mut json_vars: Vec<String> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let after_dot = i > 0 && (toks[i - 1].is(".") || toks[i - 1].is("&."));
        // `"Hello #{params[:name]}"`: reads inside interpolations.
        if t.kind == Kind::Str && t.interpolated && t.text.contains("#{") {
            for inner in interpolations(&t.text) {
                r.merge(&reads(&super::tokens_of(inner), opts));
            }
        }
        if t.kind != Kind::Ident {
            i += 1;
            continue;
        }
        let is_request = |t: &Token| {
            t.kind == Kind::Ident
                && (t.text == "request" || opts.receivers.contains(&t.text.as_str()))
        };
        let prev_request = after_dot && i >= 2 && is_request(&toks[i - 2]);
        // `req['X-Token']`
        if opts.index_headers && !after_dot && is_request(t) {
            if let Some(k) = index_key(toks, i + 1) {
                push(&mut r.headers, &header_name(k));
                i += 1;
                continue;
            }
        }
        // `JSON.parse(request.body.read)…`
        if t.is_word("parse") && after_dot && i >= 2 && toks[i - 2].text == "JSON" {
            if let Some(close) = json_parse_of_body(toks, i + 1, &is_request) {
                if let Some(k) = index_key(toks, close + 1) {
                    push(&mut r.json, k);
                } else if i >= 4 && toks[i - 3].is("=") && toks[i - 4].kind == Kind::Ident {
                    json_vars.push(toks[i - 4].text.clone());
                }
                i = close + 1;
                continue;
            }
        }
        if !after_dot && json_vars.contains(&t.text) {
            if let Some(k) = index_key(toks, i + 1) {
                push(&mut r.json, k);
            } else if toks.get(i + 1).is_some_and(|d| d.is("."))
                && toks
                    .get(i + 2)
                    .is_some_and(|m| matches!(m.text.as_str(), "fetch" | "dig" | "key?"))
                && toks.get(i + 3).is_some_and(|p| p.is("("))
            {
                if let Some(k) = key(toks.get(i + 4)) {
                    push(&mut r.json, k);
                }
            }
        }
        // `Visits::Finder.new(user, params)`, `Query.new(params: params)`:
        // a service object handed the request parameters.
        if t.text == "new" && after_dot && toks.get(i + 1).is_some_and(|p| p.is("(")) {
            if let Some(class) = const_before(toks, i - 1) {
                if passes_params(toks, i + 1) {
                    push(&mut r.calls, &format!("new:{class}"));
                }
            }
        }
        match t.text.as_str() {
            "params" | "@params" if !after_dot || prev_request => {
                i = read_params(toks, i + 1, &mut r.params, &mut r.wrappers);
                continue;
            }
            "query_parameters" | "GET" if prev_request => {
                if let Some(k) = index_key(toks, i + 1) {
                    push(&mut r.query, k);
                }
            }
            "request_parameters" | "POST" if prev_request => {
                if let Some(k) = index_key(toks, i + 1) {
                    push(&mut r.body, k);
                }
            }
            "headers" if prev_request || (!after_dot && opts.bare_headers) => {
                if let Some(k) = index_key(toks, i + 1) {
                    push(&mut r.headers, &header_name(k));
                }
            }
            // Roda: `typecast_params.pos_int('page')`, `.str!('name')`, the
            // usual `alias tp typecast_params` (`tp.bool('close')`), word
            // lists (`tp.str(%w'a b')`) and `tp.array!(:pos_int, 'ids')`.
            "typecast_params" | "tp"
                if !after_dot
                    && toks.get(i + 1).is_some_and(|d| d.is("."))
                    && toks.get(i + 2).is_some_and(|m| {
                        t.text == "typecast_params" || typecast_method(&m.text)
                    }) =>
            {
                let method = toks[i + 2].text.trim_end_matches(['!', '?']);
                let mut j = i + 3;
                if toks.get(j).is_some_and(|p| p.is("(")) {
                    j += 1;
                } else if toks.get(j).is_some_and(|a| !a.space_before) {
                    j = usize::MAX;
                }
                if method == "array" && j != usize::MAX {
                    // The element type comes first.
                    j += 1;
                    if toks.get(j).is_some_and(|c| c.is(",")) {
                        j += 1;
                    }
                }
                match toks.get(j) {
                    Some(Token {
                        kind: Kind::Words(words),
                        ..
                    }) => {
                        for w in words {
                            push(&mut r.params, w);
                        }
                    }
                    other => {
                        if let Some(k) = key(other) {
                            push(&mut r.params, k);
                        }
                    }
                }
            }
            "get_header" | "fetch_header"
                if prev_request && toks.get(i + 1).is_some_and(|p| p.is("(")) =>
            {
                if let Some(k) = key(toks.get(i + 2)) {
                    if k.starts_with("HTTP_") {
                        push(&mut r.headers, &header_name(k));
                    }
                }
            }
            "query" | "GET" if prev_request && opts.index_headers => {
                // WEBrick / Rack: `req.query['x']` (query or form fields).
                if let Some(k) = index_key(toks, i + 1) {
                    push(&mut r.params, k);
                }
            }
            "env" if prev_request || (!after_dot && (opts.bare_headers || opts.bare_env)) => {
                if let Some(k) = index_key(toks, i + 1) {
                    if k.starts_with("HTTP_") {
                        push(&mut r.headers, &header_name(k));
                    }
                }
            }
            "cookies" if !after_dot || prev_request => {
                let mut j = i + 1;
                // cookies.signed[:x] / cookies.encrypted[:x] / .permanent
                while toks.get(j).is_some_and(|d| d.is("."))
                    && toks.get(j + 1).is_some_and(|m| {
                        matches!(m.text.as_str(), "signed" | "encrypted" | "permanent")
                    })
                {
                    j += 2;
                }
                if let Some(k) = index_key(toks, j) {
                    push(&mut r.cookies, k);
                } else if toks.get(j).is_some_and(|d| d.is("."))
                    && toks
                        .get(j + 1)
                        .is_some_and(|m| matches!(m.text.as_str(), "find" | "detect" | "select"))
                {
                    // WEBrick: `req.cookies.find { |c| c.name == 'sid' }`.
                    for w in toks[j..toks.len().min(j + 16)].windows(4) {
                        if w[0].is(".") && w[1].is_word("name") && w[2].is("==") {
                            if let Some(k) = key(Some(&w[3])) {
                                push(&mut r.cookies, k);
                            }
                        }
                    }
                } else if toks.get(j).is_some_and(|d| d.is("."))
                    && toks.get(j + 1).is_some_and(|m| m.text == "fetch")
                    && toks.get(j + 2).is_some_and(|p| p.is("("))
                {
                    if let Some(k) = key(toks.get(j + 3)) {
                        push(&mut r.cookies, k);
                    }
                }
            }
            name if !after_dot
                && toks.get(i + 1).is_none_or(|n| !n.is("="))
                && !is_keyword(name) =>
            {
                push(&mut r.calls, name);
            }
            _ => {}
        }
        i += 1;
    }
    // `permit(*FIELDS)` splats go to the linker as `*FIELDS` calls.
    for n in std::mem::take(&mut r.params) {
        if n.starts_with('*') {
            push(&mut r.calls, &n);
        } else {
            r.params.push(n);
        }
    }
    r
}

/// After `JSON.parse` at `open` (`(`): the closer, if the argument reads
/// the request body (`request.body.read`, `request.body.string`,
/// `request.raw_post`, `req.body`).
fn json_parse_of_body(
    toks: &[Token],
    open: usize,
    is_request: &dyn Fn(&Token) -> bool,
) -> Option<usize> {
    if !toks.get(open)?.is("(") {
        return None;
    }
    let close = super::call::matching(toks, open)?;
    let inner = &toks[open + 1..close];
    let body = inner.windows(3).any(|w| {
        is_request(&w[0])
            && w[1].is(".")
            && matches!(w[2].text.as_str(), "body" | "raw_post" | "body_string")
    });
    body.then_some(close)
}

fn is_keyword(w: &str) -> bool {
    matches!(
        w,
        "if" | "unless"
            | "else"
            | "elsif"
            | "end"
            | "do"
            | "return"
            | "and"
            | "or"
            | "not"
            | "then"
            | "case"
            | "when"
            | "while"
            | "until"
            | "begin"
            | "rescue"
            | "ensure"
            | "yield"
            | "self"
            | "nil"
            | "true"
            | "false"
            | "def"
            | "class"
            | "module"
            | "super"
            | "raise"
            | "render"
            | "redirect_to"
            | "head"
            | "respond_to"
    )
}

/// After `params` at `i`: `[k]`, `[k][k2]`, `.fetch(k)`, `.dig(k, …)`,
/// `.key?(k)`, `.require(k).permit(…)`, `.permit(…)`.
fn read_params(
    toks: &[Token],
    mut i: usize,
    out: &mut Vec<String>,
    wrappers: &mut Vec<String>,
) -> usize {
    if toks.get(i).is_some_and(|t| t.is("[")) {
        let mut last = None;
        while let Some(k) = toks
            .get(i)
            .filter(|t| t.is("["))
            .and_then(|_| key(toks.get(i + 1)))
            .filter(|_| toks.get(i + 2).is_some_and(|t| t.is("]")))
        {
            last = Some(k.to_string());
            i += 3;
        }
        if let Some(k) = last {
            if !toks.get(i).is_some_and(|t| t.is("=")) {
                push(out, &k);
            }
        }
        return i;
    }
    let mut required: Option<String> = None;
    while toks.get(i).is_some_and(|t| t.is(".") || t.is("&.")) {
        let Some(m) = toks.get(i + 1) else { break };
        let has_args = toks
            .get(i + 2)
            .is_some_and(|t| t.is("(") && !t.space_before);
        match m.text.as_str() {
            "require" | "fetch" | "dig" | "key?" | "has_key?" | "include?" | "permit"
            | "expect" | "slice" | "values_at" | "extract!"
                if has_args =>
            {
                let (names, close) = arg_names(toks, i + 2);
                match m.text.as_str() {
                    "require" => required = names.first().cloned(),
                    "slice" | "values_at" | "extract!" => {
                        for n in &names {
                            push(out, n);
                        }
                    }
                    "expect" if expect_nested(toks, i + 2).is_some() => {
                        if let Some((wrapper, fields)) = expect_nested(toks, i + 2) {
                            push(wrappers, &wrapper);
                            for n in &fields {
                                push(out, n);
                            }
                        }
                    }
                    "permit" | "expect" => {
                        if let Some(r) = required.take() {
                            push(wrappers, &r);
                        }
                        for n in &names {
                            push(out, n);
                        }
                    }
                    "dig" => {
                        if let Some(n) = names.last() {
                            push(out, n);
                        }
                    }
                    _ => {
                        if let Some(n) = names.first() {
                            push(out, n);
                        }
                    }
                }
                i = close + 1;
            }
            "require" | "fetch" | "permit" | "slice" | "values_at" | "extract!"
                if toks
                    .get(i + 2)
                    .is_some_and(|t| matches!(t.kind, Kind::Sym | Kind::Str)) =>
            {
                // `params.require :user` / `params.slice :q, :page` without
                // parentheses
                if let Some(k) = key(toks.get(i + 2)) {
                    if m.text == "require" {
                        required = Some(k.to_string());
                    } else {
                        push(out, k);
                    }
                }
                i += 3;
                if matches!(
                    m.text.as_str(),
                    "slice" | "values_at" | "extract!" | "permit"
                ) {
                    while toks.get(i).is_some_and(|t| t.is(","))
                        && toks
                            .get(i + 1)
                            .is_some_and(|t| matches!(t.kind, Kind::Sym | Kind::Str))
                    {
                        if let Some(k) = key(toks.get(i + 1)) {
                            push(out, k);
                        }
                        i += 2;
                    }
                }
            }
            _ => {
                i += 2;
                // `params.to_unsafe_h[:x]`
                if toks.get(i).is_some_and(|t| t.is("[")) {
                    return read_params(toks, i, out, wrappers);
                }
            }
        }
    }
    if let Some(r) = required {
        push(out, &r);
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rb::tokens::tokenize;
    use portolan_plugin_sdk::{lex::Code, Syntax};

    fn scan(src: &str) -> Reads {
        let code = Code::new(src, Syntax::RUBY);
        reads(&tokenize(&code), Options::default())
    }

    #[test]
    fn params_headers_cookies() {
        let r = scan(
            "q = params[:q]\npage = params.fetch(:page, 1)\nparams.require(:user).permit(:name, :email, tags: [])\n\
             params[:filter][:status]\nparams[:x] = 1\nt = request.headers['X-Api-Token']\n\
             ua = request.env['HTTP_USER_AGENT']\ncookies.signed[:session_id]\ncookies[:seen] = true\n\
             cookies[:theme]\nparams.require(:id)\nload_user\nparams.slice :page, :per_page\n",
        );
        assert_eq!(
            r.params,
            ["q", "page", "name", "email", "tags", "status", "id", "per_page"]
        );
        assert_eq!(r.wrappers, ["user"]);
        assert_eq!(r.headers, ["X-Api-Token", "User-Agent"]);
        assert_eq!(r.cookies, ["session_id", "theme"]);
        assert!(r.calls.contains(&"load_user".to_string()));
    }

    #[test]
    fn permit_splats_become_calls() {
        let r = scan("params.permit(*FIELDS, :extra, *Other::LIST, tags: [])\n");
        assert_eq!(r.params, ["extra", "tags"]);
        assert!(r.calls.contains(&"*FIELDS".to_string()));
    }

    #[test]
    fn bare_headers_only_when_enabled() {
        let code = Code::new("headers['X-Key']\n", Syntax::RUBY);
        let toks = tokenize(&code);
        assert!(reads(&toks, Options::default()).headers.is_empty());
        assert_eq!(
            reads(
                &toks,
                Options {
                    bare_headers: true,
                    ..Options::default()
                }
            )
            .headers,
            ["X-Key"]
        );
    }
}
