//! What PHP handler code reads from the request.
//!
//! Laravel: `$request->input('x')` (also `get`, `post`, `has`, `filled`,
//! `boolean`, `integer`, `string`, `date`, `enum`), `->only([...])`,
//! `->validate([...])` keys (also `Validator::make($request->all(),
//! [...])`), `->query('x')` (query), `->header('X')`, `->bearerToken()`
//! (header `Authorization`), `->cookie('c')`, `->file('f')` /
//! `->hasFile('f')` (file), the `request('x')` helper, `Request::input`.
//! Symfony: `$request->query->get('x')` (query), `->request->get('x')`
//! (form), `->headers->get('X')`, `->cookies->get('c')`, `->files->get('f')`.
//! Plain PHP: `$_GET`, `$_POST`, `$_REQUEST` (query on GET, body
//! otherwise), `$_COOKIE`, `$_FILES`,
//! `$_SERVER['HTTP_X_Y']` (header `X-Y`), `filter_input(INPUT_GET, 'x')`.

use serde::{Deserialize, Serialize};

use super::outline::short;
use super::tokens::{matching, split, Kind, Token};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Where {
    /// Query on GET/HEAD, body otherwise.
    Input,
    Query,
    Form,
    Header,
    Cookie,
    File,
    /// A JSON body field (`$request->toArray()['x']`, `getJSON()`).
    Json,
    /// A parsed body whose encoding the framework decides (`getParsedBody()`):
    /// JSON for API routes, form fields otherwise.
    Body,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reads {
    pub items: Vec<(Where, String)>,
    /// Methods called on `$this` (for callee resolution).
    pub calls: Vec<String>,
    /// `$body = $this->parsedBody($request); … $body['k']`: (method, key)
    /// pairs, request reads when that method returns a request bag.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub helper_keys: Vec<(String, String)>,
    /// The method returns a request bag (`return $request->getParsedBody();`,
    /// or a variable holding one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns_bag: Option<Where>,
    /// Symfony form types the body builds and submits
    /// (`$this->createForm(XType::class)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forms: Vec<FormUse>,
}

/// A Symfony form a handler builds from a form type and fills from the
/// request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormUse {
    /// The form type's short class name.
    pub class: String,
    /// The fields are top-level request keys: `$form->submit($data)`, or
    /// a form created with an empty name (`createNamedForm('', …)`).
    /// Otherwise (`handleRequest`) they are nested under the type's block
    /// prefix (`task[title]`).
    pub bare: bool,
    /// Submitted from the decoded JSON body (`submit($request->toArray())`,
    /// `json_decode($request->getContent(), true)`, `getPayload()`).
    pub json: bool,
}

impl Reads {
    pub fn push(&mut self, w: Where, name: &str) {
        if !name.is_empty() && !self.items.iter().any(|(x, n)| *x == w && n == name) {
            self.items.push((w, name.to_string()));
        }
    }
    pub fn merge(&mut self, other: &Reads) {
        for (w, n) in &other.items {
            self.push(*w, n);
        }
        for f in &other.forms {
            if !self.forms.contains(f) {
                self.forms.push(f.clone());
            }
        }
    }
}

/// The Symfony forms a method body creates from a form type and fills from
/// the request: `$this->createForm(XType::class, …)`,
/// `createNamedForm('', XType::class)`, `$this->formFactory->create(…)` /
/// `->createNamed(…)` on a receiver named like a form factory. Linear.
pub fn forms_used(body: &[Token]) -> Vec<FormUse> {
    let mut submit: Option<bool> = None;
    for (i, t) in body.iter().enumerate() {
        if t.is_ident("submit")
            && i > 0
            && body[i - 1].is("->")
            && body.get(i + 1).is_some_and(|p| p.is("("))
        {
            let close = matching(body, i + 1).unwrap_or(body.len());
            let json = body[i + 1..close].iter().any(|a| {
                ["getContent", "toArray", "getPayload", "json_decode"]
                    .iter()
                    .any(|n| a.is_ident(n))
            });
            submit = Some(json || submit == Some(true));
        }
    }
    let mut out: Vec<FormUse> = Vec::new();
    for (i, t) in body.iter().enumerate() {
        if t.kind != Kind::Ident || i == 0 || !body[i - 1].is("->") {
            continue;
        }
        let named = t.is_ident("createNamedForm") || t.is_ident("createNamed");
        let factory = (t.is_ident("create") || t.is_ident("createNamed"))
            && i >= 2
            && body[i - 2].text.to_ascii_lowercase().contains("form");
        if !(t.is_ident("createForm") || t.is_ident("createNamedForm") || factory) {
            continue;
        }
        if !body.get(i + 1).is_some_and(|p| p.is("(")) {
            continue;
        }
        let close = matching(body, i + 1).unwrap_or(body.len());
        let args = &body[i + 2..close.min(body.len())];
        let Some(k) = (0..args.len().saturating_sub(2)).find(|&k| {
            args[k].kind == Kind::Ident && args[k + 1].is("::") && args[k + 2].is_ident("class")
        }) else {
            continue;
        };
        let bare = submit.is_some() || (named && lit(args.first()) == Some(""));
        let f = FormUse {
            class: short(&args[k].text).to_string(),
            bare,
            json: submit == Some(true),
        };
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

pub fn lit(t: Option<&Token>) -> Option<&str> {
    t.filter(|t| t.kind == Kind::Str && !t.interpolated)
        .map(|t| t.text.as_str())
}

/// `HTTP_X_API_KEY` → `X-Api-Key`.
pub fn server_header(raw: &str) -> Option<String> {
    let rest = raw.strip_prefix("HTTP_")?;
    Some(
        rest.split('_')
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
    )
}

/// String keys of an array literal at `open` (`[` or `array(`): `'k' => …`
/// keys, or plain string items (`only(['a', 'b'])`).
pub fn array_keys(toks: &[Token], open: usize) -> Vec<String> {
    let Some(close) = matching(toks, open) else {
        return Vec::new();
    };
    let inner = &toks[open + 1..close];
    let mut out = Vec::new();
    for r in split(inner, ",") {
        let piece = &inner[r];
        if let Some(k) = lit(piece.first()) {
            if piece.len() == 1 || piece.get(1).is_some_and(|t| t.is("=>")) {
                // `'user.name' => 'required'` is a nested key: keep as written.
                out.push(k.to_string());
            }
        }
    }
    out
}

fn is_request_receiver(toks: &[Token], i: usize) -> bool {
    // `$request->`, `$req->`, `request()->`, `$this->request->`, `Request::`
    let Some(t) = toks.get(i) else { return false };
    match t.kind {
        Kind::Var => {
            matches!(t.text.as_str(), "request" | "req" | "httpRequest")
                || ((t.text == "this" || t.text == "app")
                    && toks.get(i + 1).is_some_and(|a| a.is("->"))
                    && toks.get(i + 2).is_some_and(|r| r.text == "request"))
        }
        _ => false,
    }
}

/// Properties of Symfony's / Laravel's `Request` itself, not inputs.
const REQUEST_PROPERTIES: [&str; 26] = [
    "attributes",
    "request",
    "query",
    "server",
    "files",
    "cookies",
    "headers",
    "json",
    "content",
    "languages",
    "charsets",
    "encodings",
    "acceptableContentTypes",
    "pathInfo",
    "requestUri",
    "baseUrl",
    "basePath",
    "method",
    "format",
    "session",
    "locale",
    "defaultLocale",
    "convertedFiles",
    "userResolver",
    "routeResolver",
    "uri",
];

/// Scan a body for reads.
pub fn reads(toks: &[Token]) -> Reads {
    let mut r = Reads::default();
    let mut bags: Vec<(String, Where)> = Vec::new();
    let mut whole: Vec<String> = Vec::new();
    // Variables holding what a `$this->method(…)` call returned.
    let mut helpers: Vec<(String, String)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if t.kind == Kind::Var && toks.get(i + 1).is_some_and(|e| e.is("=")) {
            helpers.retain(|(n, _)| *n != t.text);
            if let Some(m) = this_call_statement(toks, i + 2) {
                helpers.push((t.text.clone(), m));
            }
        }
        // `$body['k']`, `array_key_exists('k', $body)` on such a variable.
        if let Some(k) = keyed_var(toks, i) {
            if let Some((_, m)) = helpers.iter().find(|(n, _)| *n == toks[k.0].text) {
                let pair = (m.clone(), k.1.to_string());
                if !r.helper_keys.contains(&pair) {
                    r.helper_keys.push(pair);
                }
            } else if k.0 != i {
                // `array_key_exists('k', $data)` on a request bag.
                if let Some((_, w)) = bags.iter().find(|(n, _)| *n == toks[k.0].text) {
                    r.push(*w, k.1);
                }
            }
        }
        // `return $request->getParsedBody();` / `return $data;`.
        if t.is_ident("return") {
            let end = (i + 1..toks.len())
                .find(|&k| toks[k].is(";"))
                .unwrap_or(toks.len());
            let expr = &toks[i + 1..end];
            let w = match expr {
                [v] if v.kind == Kind::Var => {
                    bags.iter().find(|(n, _)| *n == v.text).map(|(_, w)| *w)
                }
                _ => bag_source(expr),
            };
            if w.is_some() {
                r.returns_bag = w;
            }
        }
        // `$data = $request->getParsedBody();` … `$data['x']`.
        if t.kind == Kind::Var && toks.get(i + 1).is_some_and(|e| e.is("=")) {
            let end = (i + 2..toks.len())
                .find(|&k| toks[k].is(";"))
                .unwrap_or(toks.len());
            if let Some(w) = bag_source(&toks[i + 2..end]) {
                bags.retain(|(n, _)| *n != t.text);
                bags.push((t.text.clone(), w));
            } else {
                bags.retain(|(n, _)| *n != t.text);
            }
        }
        if t.kind == Kind::Var {
            if let Some((_, w)) = bags.iter().find(|(n, _)| *n == t.text) {
                let prev_assign = toks.get(i + 1).is_some_and(|e| e.is("="));
                if toks.get(i + 1).is_some_and(|b| b.is("["))
                    && toks.get(i + 3).is_some_and(|b| b.is("]"))
                {
                    if let Some(k) = lit(toks.get(i + 2)) {
                        r.push(*w, k);
                    }
                } else if !prev_assign
                    && *w == Where::Json
                    && toks.get(i + 1).is_some_and(|a| a.is("->") || a.is("?->"))
                    && toks.get(i + 2).is_some_and(|n| n.kind == Kind::Ident)
                    && !toks.get(i + 3).is_some_and(|p| p.is("("))
                {
                    r.push(Where::Json, &toks[i + 2].text);
                }
            }
        }
        // `Post::create($request->all())`, `$post->fill($request->input())`:
        // mass assignment reads the model's `$fillable` attributes.
        // Also through a variable: `$fields = $request->all(); … fill($fields)`.
        if t.kind == Kind::Var && toks.get(i + 1).is_some_and(|e| e.is("=")) {
            whole.retain(|n| *n != t.text);
            if whole_request(toks, i + 2).is_some_and(|e| toks.get(e).is_some_and(|s| s.is(";"))) {
                whole.push(t.text.clone());
            }
        }
        let arg_end = if whole.contains(&t.text) {
            Some(i + 1)
        } else {
            whole_request(toks, i)
        };
        if let Some(end) = arg_end.filter(|_| t.kind == Kind::Var) {
            if let Some(model) = mass_assigned(toks, i, end) {
                let call = format!("{model}::$fillable");
                if !r.calls.contains(&call) {
                    r.calls.push(call);
                }
            } else if let Some(call) = delegated(toks, i, end) {
                if !r.calls.contains(&call) {
                    r.calls.push(call);
                }
            }
        } else if t.kind == Kind::Var
            && t.text != "this"
            && toks.get(i + 1).is_some_and(|c| c.is(")") || c.is(","))
        {
            // A repository/service method mass-assigning its own
            // parameter: `$product->fill($data)` → `$product::$fillable<-data`
            // (resolved by the caller's linker when `$data` receives the
            // whole request).
            if let Some(model) = mass_assigned(toks, i, i + 1) {
                let call = format!("{model}::$fillable<-{}", t.text);
                if !r.calls.contains(&call) {
                    r.calls.push(call);
                }
            }
        }
        // `$request['x']` (ArrayAccess requests: Laravel, WordPress).
        if t.kind == Kind::Var
            && matches!(t.text.as_str(), "request" | "req")
            && toks.get(i + 1).is_some_and(|b| b.is("["))
            && toks.get(i + 3).is_some_and(|b| b.is("]"))
        {
            if let Some(k) = lit(toks.get(i + 2)) {
                r.push(Where::Input, k);
            }
        }
        // `->getQueryParams()['x']`, `->getHeaderLine('X')`… on any
        // receiver but a response.
        if (t.is("->") || t.is("?->"))
            && toks.get(i + 2).is_some_and(|p| p.is("("))
            && !(i > 0
                && toks[i - 1].kind == Kind::Var
                && matches!(toks[i - 1].text.as_str(), "response" | "res" | "resp"))
        {
            if let Some(name) = toks.get(i + 1).filter(|n| n.kind == Kind::Ident) {
                if let Some(w) = keyed_method(&name.text) {
                    if let Some(k) = lit(toks.get(i + 3)) {
                        if name.text == "getServer" {
                            if let Some(h) = server_header(k) {
                                r.push(Where::Header, &h);
                            }
                        } else {
                            r.push(w, k);
                        }
                    }
                } else if let Some(w) = bag_method(&name.text).filter(|_| {
                    !matches!(name.text.as_str(), "toArray" | "getPayload")
                        || (i > 0 && matches!(toks[i - 1].text.as_str(), "request" | "req"))
                }) {
                    if let Some(close) = matching(toks, i + 2) {
                        if toks.get(close + 1).is_some_and(|b| b.is("["))
                            && toks.get(close + 3).is_some_and(|b| b.is("]"))
                        {
                            if let Some(k) = lit(toks.get(close + 2)) {
                                r.push(w, k);
                            }
                        }
                    }
                }
            }
        }
        // Superglobals.
        if t.kind == Kind::Var && t.text.starts_with('_') {
            let key = toks
                .get(i + 1)
                .filter(|b| b.is("["))
                .and_then(|_| lit(toks.get(i + 2)));
            if let Some(k) = key {
                match t.text.as_str() {
                    "_GET" => r.push(Where::Query, k),
                    // Query string or body: the method decides.
                    "_REQUEST" => r.push(Where::Input, k),
                    "_POST" => r.push(Where::Form, k),
                    "_COOKIE" => r.push(Where::Cookie, k),
                    "_FILES" => r.push(Where::File, k),
                    "_SERVER" => {
                        if let Some(h) = server_header(k) {
                            r.push(Where::Header, &h);
                        }
                    }
                    _ => {}
                }
            }
            i += 1;
            continue;
        }
        if t.is_ident("filter_input") && toks.get(i + 1).is_some_and(|p| p.is("(")) {
            let src = toks.get(i + 2).map(|x| x.text.as_str()).unwrap_or("");
            if let Some(k) = lit(toks.get(i + 4)) {
                match src {
                    "INPUT_GET" => r.push(Where::Query, k),
                    "INPUT_POST" => r.push(Where::Form, k),
                    "INPUT_COOKIE" => r.push(Where::Cookie, k),
                    "INPUT_SERVER" => {
                        if let Some(h) = server_header(k) {
                            r.push(Where::Header, &h);
                        }
                    }
                    _ => {}
                }
            }
        }
        // `request('x')` helper, `request()->input('x')`.
        if t.is_ident("request")
            && toks.get(i + 1).is_some_and(|p| p.is("("))
            && !(i > 0
                && (toks[i - 1].is("->")
                    || toks[i - 1].is("::")
                    || toks[i - 1].is_ident("function")))
        {
            if let Some(k) = lit(toks.get(i + 2)) {
                r.push(Where::Input, k);
            }
            if toks.get(i + 2).is_some_and(|p| p.is(")"))
                && toks.get(i + 3).is_some_and(|a| a.is("->"))
            {
                method_read(toks, i + 4, &mut r);
            }
        }
        // ThinkPHP `input('get.x')` / `input('x')` helper.
        if t.is_ident("input")
            && toks.get(i + 1).is_some_and(|p| p.is("("))
            && !(i > 0
                && (toks[i - 1].is("->")
                    || toks[i - 1].is("::")
                    || toks[i - 1].is_ident("function")))
        {
            if let Some(k) = lit(toks.get(i + 2)) {
                input_helper(k, &mut r);
            }
        }
        // `Request::input('x')` facade.
        if (t.is_ident("Request") || t.text.ends_with("\\Request"))
            && toks.get(i + 1).is_some_and(|p| p.is("::"))
        {
            method_read(toks, i + 2, &mut r);
        }
        if is_request_receiver(toks, i) {
            let mut j = i + 1;
            if t.text == "this" || t.text == "app" {
                j = i + 3;
            }
            if toks.get(j).is_some_and(|a| a.is("->") || a.is("?->")) {
                // Symfony bags: ->query->get('x')
                let bag = toks.get(j + 1).map(|b| b.text.as_str()).unwrap_or("");
                let bag_where = match bag {
                    "query" => Some(Where::Query),
                    "request" => Some(Where::Form),
                    "headers" => Some(Where::Header),
                    "cookies" => Some(Where::Cookie),
                    "files" => Some(Where::File),
                    "attributes" | "server" => None,
                    _ => None,
                };
                if let Some(w) = bag_where {
                    if toks.get(j + 2).is_some_and(|a| a.is("->")) {
                        let m = toks.get(j + 3).map(|x| x.text.as_str()).unwrap_or("");
                        if matches!(
                            m,
                            "get"
                                | "has"
                                | "getInt"
                                | "getString"
                                | "getAlnum"
                                | "getEnum"
                                | "getBoolean"
                                | "getAlpha"
                                | "getDigits"
                                | "all"
                                | "filter"
                        ) {
                            if let Some(k) = lit(toks.get(j + 5)) {
                                r.push(w, k);
                            }
                        }
                        i = j + 4;
                        continue;
                    }
                }
                method_read(toks, j + 1, &mut r);
                // Laravel's dynamic input properties: `$request->email`.
                if t.kind == Kind::Var && t.text != "this" && t.text != "app" {
                    if let Some(name) = toks.get(j + 1).filter(|n| n.kind == Kind::Ident) {
                        let next = toks.get(j + 2);
                        let accessor = next.is_some_and(|n| {
                            n.is("(") || n.is("->") || n.is("?->") || n.is("::") || n.is("=")
                        });
                        if !accessor && !REQUEST_PROPERTIES.contains(&name.text.as_str()) {
                            r.push(Where::Input, &name.text);
                        }
                    }
                }
            }
        }
        // Phalcon: `$this->cookies->get('c')`.
        if t.kind == Kind::Var
            && t.text == "this"
            && toks.get(i + 1).is_some_and(|a| a.is("->"))
            && toks.get(i + 2).is_some_and(|m| m.text == "cookies")
            && toks.get(i + 3).is_some_and(|a| a.is("->"))
            && toks
                .get(i + 4)
                .is_some_and(|m| m.text == "get" || m.text == "has")
            && toks.get(i + 5).is_some_and(|p| p.is("("))
        {
            if let Some(k) = lit(toks.get(i + 6)) {
                r.push(Where::Cookie, k);
            }
        }
        // Lumen/Laravel controllers: `$this->validate($request, [...])`.
        if t.kind == Kind::Var
            && t.text == "this"
            && toks.get(i + 1).is_some_and(|a| a.is("->"))
            && toks.get(i + 2).is_some_and(|m| m.text == "validate")
            && toks.get(i + 3).is_some_and(|p| p.is("("))
            && toks.get(i + 4).is_some_and(|v| v.kind == Kind::Var)
            && toks.get(i + 5).is_some_and(|c| c.is(","))
            && toks.get(i + 6).is_some_and(|b| b.is("["))
        {
            for k in array_keys(toks, i + 6) {
                r.push(Where::Input, &k);
            }
        }
        // CodeIgniter 4 controllers: `$this->validate(['email' => …])`.
        if t.kind == Kind::Var
            && t.text == "this"
            && toks.get(i + 1).is_some_and(|a| a.is("->"))
            && toks.get(i + 2).is_some_and(|m| m.text == "validate")
            && toks.get(i + 3).is_some_and(|p| p.is("("))
            && toks.get(i + 4).is_some_and(|b| b.is("["))
        {
            for k in array_keys(toks, i + 4) {
                r.push(Where::Input, &k);
            }
        }
        // CodeIgniter 4: `->getJSON()->field`.
        if t.is_ident("getJSON")
            && i > 0
            && toks[i - 1].is("->")
            && toks.get(i + 1).is_some_and(|p| p.is("("))
        {
            if let Some(close) = matching(toks, i + 1) {
                if toks.get(close + 1).is_some_and(|a| a.is("->"))
                    && toks.get(close + 2).is_some_and(|n| n.kind == Kind::Ident)
                    && !toks.get(close + 3).is_some_and(|p| p.is("("))
                {
                    r.push(Where::Json, &toks[close + 2].text);
                }
            }
        }
        // CodeIgniter 3: `$this->input->get('x')`, `->post`, `->get_post`,
        // `->cookie`, `->get_request_header('X')`, `->server('HTTP_X')`,
        // `->request_headers()['X']`.
        if t.kind == Kind::Var
            && t.text == "this"
            && toks.get(i + 1).is_some_and(|a| a.is("->"))
            && toks.get(i + 2).is_some_and(|m| m.text == "input")
            && toks.get(i + 3).is_some_and(|a| a.is("->"))
            && toks.get(i + 5).is_some_and(|p| p.is("("))
        {
            let m = toks.get(i + 4).map(|x| x.text.as_str()).unwrap_or("");
            if m == "request_headers" {
                if let Some(close) = matching(toks, i + 5) {
                    if toks.get(close + 1).is_some_and(|b| b.is("[")) {
                        if let Some(k) = lit(toks.get(close + 2)) {
                            r.push(Where::Header, k);
                        }
                    }
                }
            } else if let Some(k) = lit(toks.get(i + 6)) {
                match m {
                    "get" => r.push(Where::Query, k),
                    "post" => r.push(Where::Form, k),
                    "get_post" | "post_get" => r.push(Where::Input, k),
                    "cookie" => r.push(Where::Cookie, k),
                    "get_request_header" => r.push(Where::Header, k),
                    "server" => {
                        if let Some(h) = server_header(k) {
                            r.push(Where::Header, &h);
                        }
                    }
                    "input_stream" => r.push(Where::Form, k),
                    _ => {}
                }
            }
            i += 5;
            continue;
        }
        // `$this->helper(` calls for callee resolution.
        if t.kind == Kind::Var
            && t.text == "this"
            && toks.get(i + 1).is_some_and(|a| a.is("->"))
            && toks.get(i + 3).is_some_and(|p| p.is("("))
        {
            if let Some(m) = toks.get(i + 2).filter(|m| m.kind == Kind::Ident) {
                if !r.calls.contains(&m.text) {
                    r.calls.push(m.text.clone());
                }
            }
        }
        // Validator::make($request->all(), [ ... ])
        if t.is_ident("Validator")
            && toks.get(i + 2).is_some_and(|m| m.text == "make")
            && toks.get(i + 3).is_some_and(|p| p.is("("))
        {
            if let Some(close) = matching(toks, i + 3) {
                let inner = &toks[i + 4..close];
                let args = split(inner, ",");
                if let Some(second) = args.get(1) {
                    let at = i + 4 + second.start;
                    if toks[at].is("[") || toks[at].is_ident("array") {
                        let open = if toks[at].is("[") { at } else { at + 1 };
                        for k in array_keys(toks, open) {
                            r.push(Where::Input, &k);
                        }
                    } else {
                        rules_call(toks, at, &mut r);
                    }
                }
            }
        }
        i += 1;
    }
    r
}

/// ThinkPHP's `input('get.id/d')`: source prefix, `?` existence check and
/// `/d` type modifier.
fn input_helper(arg: &str, r: &mut Reads) {
    let arg = arg.trim_start_matches('?');
    let arg = arg.split('/').next().unwrap_or(arg);
    let (src, name) = arg.split_once('.').unwrap_or(("param", arg));
    let w = match src {
        "get" => Where::Query,
        "post" => Where::Form,
        "param" | "request" => Where::Input,
        "cookie" => Where::Cookie,
        "header" => Where::Header,
        "file" => Where::File,
        _ => return,
    };
    if !name.is_empty() {
        r.push(w, name);
    }
}

/// Request methods taking the parameter name, whatever the receiver:
/// Slim/PSR-7, CodeIgniter 4, Laminas, Yii.
fn keyed_method(name: &str) -> Option<Where> {
    Some(match name {
        "getQueryParam" | "getGet" | "fromQuery" | "getQueryParamValue" | "getQuery" => {
            Where::Query
        }
        // CakePHP `getData('x')`: the body parser decides the encoding.
        "getData" => Where::Body,
        "getUploadedFile" => Where::File,
        "getParsedBodyParam" | "getBodyParam" | "fromPost" | "getPost" | "getPut" | "getPatch" => {
            Where::Form
        }
        "getGetPost" | "getPostGet" | "getVar" | "getParam" => Where::Input,
        "getHeaderLine" | "fromHeader" | "getHeader" | "hasHeader" => Where::Header,
        "getCookieParam" | "getCookie" => Where::Cookie,
        "getJsonVar" => Where::Json,
        "fromFiles" | "getFile" => Where::File,
        "getServer" => Where::Header,
        // WordPress `WP_REST_Request`.
        "get_param" => Where::Input,
        "get_header" => Where::Header,
        _ => return None,
    })
}

/// Request methods returning a whole bag (`getQueryParams()['x']`).
fn bag_method(name: &str) -> Option<Where> {
    Some(match name {
        "getQueryParams" | "getQueryString" => Where::Query,
        "getParsedBody" | "getFormData" => Where::Body,
        "getCookieParams" => Where::Cookie,
        "getUploadedFiles" => Where::File,
        "getJSON" | "toArray" | "getPayload" | "getJsonRawBody" => Where::Json,
        "getRawInput" => Where::Form,
        "getPost" | "getBodyParams" | "get_body_params" => Where::Form,
        "get_query_params" => Where::Query,
        "get_json_params" => Where::Json,
        "get_file_params" => Where::File,
        "getGet" => Where::Query,
        _ => return None,
    })
}

/// `$this->name(…);` starting at `at` (the whole statement): the method.
fn this_call_statement(toks: &[Token], at: usize) -> Option<String> {
    let is_this = toks
        .get(at)
        .is_some_and(|t| t.kind == Kind::Var && t.text == "this");
    if !is_this || !toks.get(at + 1).is_some_and(|a| a.is("->")) {
        return None;
    }
    let name = toks.get(at + 2).filter(|n| n.kind == Kind::Ident)?;
    if !toks.get(at + 3).is_some_and(|p| p.is("(")) {
        return None;
    }
    let close = matching(toks, at + 3)?;
    toks.get(close + 1)
        .is_some_and(|s| s.is(";"))
        .then(|| name.text.clone())
}

/// A keyed read of a variable at `i`: `$v['k']` (the variable at `i`) or
/// `array_key_exists('k', $v)` (at the function name): (variable index, key).
fn keyed_var(toks: &[Token], i: usize) -> Option<(usize, &str)> {
    let t = toks.get(i)?;
    if t.kind == Kind::Var
        && toks.get(i + 1).is_some_and(|b| b.is("["))
        && toks.get(i + 3).is_some_and(|b| b.is("]"))
        && !toks.get(i + 4).is_some_and(|e| e.is("="))
    {
        return lit(toks.get(i + 2)).map(|k| (i, k));
    }
    if t.is_ident("array_key_exists")
        && toks.get(i + 1).is_some_and(|p| p.is("("))
        && toks.get(i + 3).is_some_and(|c| c.is(","))
        && toks.get(i + 4).is_some_and(|v| v.kind == Kind::Var)
        && toks.get(i + 5).is_some_and(|c| c.is(")"))
    {
        return lit(toks.get(i + 2)).map(|k| (i + 4, k));
    }
    None
}

/// Does an assigned expression hold a request bag (`$request->getParsedBody()`,
/// `json_decode($request->getContent(), true)`,
/// `json_decode(file_get_contents('php://input'))`, `$_POST`)?
fn bag_source(expr: &[Token]) -> Option<Where> {
    let mut json_decode = false;
    for (k, t) in expr.iter().enumerate() {
        if t.is_ident("json_decode") {
            json_decode = true;
        }
        if json_decode
            && ((t.kind == Kind::Str && t.text == "php://input")
                || (t.kind == Kind::Ident
                    && matches!(
                        t.text.as_str(),
                        "getContent" | "getBody" | "getRawBody" | "raw_input_stream"
                    )))
        {
            return Some(Where::Json);
        }
        if (t.is("->") || t.is("?->")) && expr.get(k + 2).is_some_and(|p| p.is("(")) {
            let name = expr.get(k + 1).map(|n| n.text.as_str()).unwrap_or("");
            let close = matching(expr, k + 2).unwrap_or(expr.len());
            // `->getPost()` without a key is the whole bag.
            let no_args = close == k + 3;
            let receiver_is_request = k > 0
                && ((expr[k - 1].kind == Kind::Var
                    && matches!(expr[k - 1].text.as_str(), "request" | "req"))
                    || expr[k - 1].text == "request");
            let w = match name {
                "toArray" | "getPayload" if !receiver_is_request => None,
                "getPost" | "getGet" if !no_args => None,
                _ => bag_method(name),
            };
            if w.is_some() && !expr.get(close + 1).is_some_and(|b| b.is("[")) {
                return w;
            }
        }
        if t.kind == Kind::Var && expr.len() <= 3 {
            match t.text.as_str() {
                "_GET" => return Some(Where::Query),
                "_POST" => return Some(Where::Form),
                _ => {}
            }
        }
    }
    None
}

/// After `->`/`::` at `m`: `input('x')`, `validate([...])`, `header('X')`…
fn method_read(toks: &[Token], m: usize, r: &mut Reads) {
    let Some(name) = toks.get(m).filter(|t| t.kind == Kind::Ident) else {
        return;
    };
    if !toks.get(m + 1).is_some_and(|p| p.is("(")) {
        return;
    }
    let arg = lit(toks.get(m + 2));
    match name.text.as_str() {
        "input" | "get" | "post" | "has" | "filled" | "boolean" | "integer" | "string" | "date"
        | "enum" | "float" | "str" | "missing" | "exists" | "json" | "param" => {
            if let Some(k) = arg {
                let w = if name.text == "post" {
                    Where::Form
                } else {
                    Where::Input
                };
                r.push(w, k);
            }
        }
        "query" => {
            if let Some(k) = arg {
                r.push(Where::Query, k);
            }
        }
        "header" | "hasHeader" => {
            if let Some(k) = arg {
                r.push(Where::Header, k);
            }
        }
        "bearerToken" => r.push(Where::Header, "Authorization"),
        "cookie" | "hasCookie" => {
            if let Some(k) = arg {
                r.push(Where::Cookie, k);
            }
        }
        "file" | "hasFile" => {
            if let Some(k) = arg {
                r.push(Where::File, k);
            }
        }
        "only" | "except" if name.text == "only" => {
            if toks.get(m + 2).is_some_and(|t| t.is("[")) {
                for k in array_keys(toks, m + 2) {
                    r.push(Where::Input, &k);
                }
            } else if let Some(close) = matching(toks, m + 1) {
                for t in &toks[m + 2..close] {
                    if t.kind == Kind::Str && !t.interpolated {
                        r.push(Where::Input, &t.text);
                    }
                }
            }
        }
        "validate" | "validateWithBag" => {
            let open = if name.text == "validate" {
                m + 2
            } else {
                m + 4
            };
            if toks.get(open).is_some_and(|t| t.is("[")) {
                for k in array_keys(toks, open) {
                    r.push(Where::Input, &k);
                }
            } else {
                rules_call(toks, open, r);
            }
        }
        _ => {}
    }
}

/// `$request->all()`, `$request->input()`, `$request->json()->all()` at
/// `toks[at]`: every request field. Returns the index after the expression.
fn whole_request(toks: &[Token], at: usize) -> Option<usize> {
    if !is_request_receiver(toks, at) || !toks.get(at + 1)?.is("->") {
        return None;
    }
    let mut m = at + 2;
    if toks.get(m)?.is_ident("json") && toks.get(m + 1)?.is("(") && toks.get(m + 2)?.is(")") {
        if !toks.get(m + 3)?.is("->") {
            return None;
        }
        m += 4;
    }
    (matches!(toks.get(m)?.text.as_str(), "all" | "input")
        && toks.get(m + 1)?.is("(")
        && toks.get(m + 2)?.is(")"))
    .then_some(m + 3)
}

/// The whole request as the first argument of a call on a service held in
/// a property: `$this->repo->save($request->all(), …)` → `->repo.save`.
fn delegated(toks: &[Token], at: usize, end: usize) -> Option<String> {
    if !toks.get(end).is_some_and(|c| c.is(")") || c.is(",")) {
        return None;
    }
    let open = at.checked_sub(1).filter(|&o| toks[o].is("("))?;
    let m = toks.get(open.checked_sub(1)?)?;
    let a1 = toks.get(open.checked_sub(2)?)?;
    let prop = toks.get(open.checked_sub(3)?)?;
    let a2 = toks.get(open.checked_sub(4)?)?;
    let this = toks.get(open.checked_sub(5)?)?;
    (m.kind == Kind::Ident
        && a1.is("->")
        && prop.kind == Kind::Ident
        && a2.is("->")
        && this.kind == Kind::Var
        && this.text == "this")
        .then(|| format!("->{}.{}", prop.text, m.text))
}

/// The model class receiving every request field as the sole/first argument
/// at `toks[at]`: `Post::create(…)`, `new Post(…)`, or `$post->fill(…)` /
/// `$post->update(…)` with `$post = new Post` earlier in the body (`Post`)
/// or only typed by the action's signature (`$post`).
fn mass_assigned(toks: &[Token], at: usize, end: usize) -> Option<String> {
    if !toks.get(end).is_some_and(|c| c.is(")") || c.is(",")) {
        return None;
    }
    let open = at.checked_sub(1).filter(|&o| toks[o].is("("))?;
    let callee = toks.get(open.checked_sub(1)?)?;
    let before = open.checked_sub(2).map(|b| &toks[b]);
    let class_ident =
        |t: &Token| t.kind == Kind::Ident && short(&t.text).starts_with(char::is_uppercase);
    match (callee.text.as_str(), before) {
        ("create" | "make" | "forceCreate", Some(sep)) if sep.is("::") => {
            let c = toks.get(open.checked_sub(3)?)?;
            class_ident(c).then(|| short(&c.text).to_string())
        }
        (_, Some(n)) if n.is_ident("new") && class_ident(callee) => {
            Some(short(&callee.text).to_string())
        }
        ("fill" | "update" | "forceFill", Some(arrow)) if arrow.is("->") => {
            let v = toks.get(open.checked_sub(3)?)?;
            if v.kind != Kind::Var || v.text == "this" {
                return None;
            }
            // The latest `$v = new Model` before the call.
            let made = (0..open.saturating_sub(3)).rev().find_map(|k| {
                let t = &toks[k];
                (t.kind == Kind::Var
                    && t.text == v.text
                    && toks.get(k + 1).is_some_and(|e| e.is("="))
                    && toks.get(k + 2).is_some_and(|n| n.is_ident("new")))
                .then(|| toks.get(k + 3))
                .flatten()
                .filter(|c| class_ident(c))
                .map(|c| short(&c.text).to_string())
            });
            Some(made.unwrap_or_else(|| format!("${}", v.text)))
        }
        _ => None,
    }
}

/// `Post::rules()` / `Post::rules($post)` as the rules argument: recorded
/// as the callee `Post::rules` (its returned keys are resolved across
/// classes by the framework's linker).
fn rules_call(toks: &[Token], at: usize, r: &mut Reads) {
    if let (Some(c), Some(sep), Some(m), Some(open)) = (
        toks.get(at),
        toks.get(at + 1),
        toks.get(at + 2),
        toks.get(at + 3),
    ) {
        if c.kind == Kind::Ident && sep.is("::") && m.kind == Kind::Ident && open.is("(") {
            let call = format!("{}::{}", c.text, m.text);
            if !r.calls.contains(&call) {
                r.calls.push(call);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::php::tokens::tokenize;

    #[test]
    fn laravel_symfony_and_superglobals() {
        let src = "<?php\n$q = $request->input('q');\n$request->validate(['title' => 'required', 'tags.*' => 'array']);\n\
                   $request->header('X-Tenant'); $request->cookie('sid'); $request->file('avatar');\n\
                   $p = request('page'); $request->query('sort');\n\
                   $request->query->get('a'); $request->request->get('b'); $request->headers->get('X-B');\n\
                   $_GET['g']; $_POST['p']; $_COOKIE['c']; $_SERVER['HTTP_X_API_KEY']; $_FILES['up'];\n\
                   $this->helper($x);\n";
        let r = reads(&tokenize(src));
        let got: Vec<String> = r.items.iter().map(|(w, n)| format!("{w:?}:{n}")).collect();
        assert_eq!(
            got,
            [
                "Input:q",
                "Input:title",
                "Input:tags.*",
                "Header:X-Tenant",
                "Cookie:sid",
                "File:avatar",
                "Input:page",
                "Query:sort",
                "Query:a",
                "Form:b",
                "Header:X-B",
                "Query:g",
                "Form:p",
                "Cookie:c",
                "Header:X-Api-Key",
                "File:up"
            ]
        );
        assert_eq!(r.calls, ["helper"]);
    }

    #[test]
    fn request_delegated_to_a_service_property() {
        let src = "<?php
$this->repo->save($request->all(), $p);
$this->repo->other($x, $request->all());
                   function save(array $data, P $p) { $p->fill($data); }";
        let r = reads(&tokenize(src));
        assert_eq!(r.calls, ["->repo.save", "$p::$fillable<-data"]);
    }

    #[test]
    fn mass_assignment_names_the_model() {
        let src = "<?php\nPost::create($request->all());\n$c = new \\App\\Models\\Comment($request->input());\n\
                   $tag = new Tag(); $tag->fill($request->all());\n$post->update($request->all());\n\
                   $f = $request->json()->all(); $f['x'] = 1; $user->fill($f);\n\
                   $g = $request->all(); $g = []; Item::create($g);\n$this->fill($request->all());\n\
                   Post::create($request->all() + ['user_id' => 1]);\n";
        let r = reads(&tokenize(src));
        assert_eq!(
            r.calls,
            [
                "Post::$fillable",
                "Comment::$fillable",
                "Tag::$fillable",
                "$post::$fillable",
                "$user::$fillable",
                // Mass assignment from a variable that is not the request:
                // resolved when a caller passes the request to it.
                "Item::$fillable<-g",
                "fill"
            ]
        );
    }
}
