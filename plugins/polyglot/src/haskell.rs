//! Haskell: Scotty (`haskell_scotty`), Servant (`haskell_servant`) and
//! Yesod (`haskell_yesod`).
//!
//! - Scotty: `get "/users/:id" $ do …` (`post`, `put`, `delete`, `patch`,
//!   `options`, `addroute PUT "/x"`, `matchAny "/x"`, qualified `S.get`),
//!   the handler being the indented block. Reads: `queryParam "q"` query,
//!   `formParam "x"` form, `param "x"` query on GET, form otherwise,
//!   `header "X"` header, `getCookie "c"` cookie.
//! - Servant: API types `type API = "users" :> QueryParam "sort" Text :>
//!   Get '[JSON] [User] :<|> "users" :> Capture "id" Int :> ReqBody '[JSON]
//!   User :> Put '[JSON] User`, nested groups in parentheses and named API
//!   types used inside others (in any module); the roots are the API types
//!   no other type uses. `Capture`/`CaptureAll` are path parameters,
//!   `QueryParam`/`QueryParams`/`QueryFlag` query, `Header` header.
//! - Yesod: route definitions in `config/routes` (or `*.yesodroutes`) and
//!   `[parseRoutes| … |]` quasi-quotes: `/blog/#BlogId BlogR GET POST`,
//!   nested `/admin AdminR:` blocks; a resource without methods serves
//!   any. `#Type`/`*Type` pieces become `{type}` placeholders. The handler
//!   (`getBlogR`, `postBlogR`, in any module) gives the parameters:
//!   `lookupGetParam "q"` query, `lookupPostParam "x"` form, `lookupHeader
//!   "X"` header, `lookupCookie "c"` cookie, `lookupFile "f"` file,
//!   `ireq`/`iopt` fields query on GET, form otherwise.

use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::{
    self, indent_block, join_url, method_of, reads, verb_calls, Kind, Read, ANY, HASKELL,
};

fn hs_tech(id: &str, name: &str, aliases: &[&str], package: &str, import: &str) -> Tech {
    Tech::new(id, "Haskell", name)
        .aliases(aliases.iter().copied())
        .files(["*.hs"])
        .detect(Detect::files(["*.cabal", "package.yaml"]).regex([format!(r"(?m)\b{package}\b")]))
        .detect(Detect::files(["*.hs"]).regex([format!(r"(?m)^import\s+(qualified\s+)?{import}")]))
        .supports(Supports::HTTP)
}

const SCOTTY_READS: &[Read] = &[
    ("queryParamMaybe", Kind::Fixed(ParamKind::Query)),
    ("queryParam", Kind::Fixed(ParamKind::Query)),
    ("formParamMaybe", Kind::Fixed(ParamKind::Form)),
    ("formParam", Kind::Fixed(ParamKind::Form)),
    ("captureParam", Kind::Fixed(ParamKind::Path)),
    ("pathParam", Kind::Fixed(ParamKind::Path)),
    ("param", Kind::QueryOrForm),
    ("header", Kind::Fixed(ParamKind::Header)),
    ("getCookie", Kind::Fixed(ParamKind::Cookie)),
];

pub struct Scotty;

impl Analyzer for Scotty {
    fn tech(&self) -> Tech {
        hs_tech(
            "haskell_scotty",
            "Scotty",
            &["scotty", "haskell-scotty"],
            "scotty",
            "Web.Scotty",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || !file.content.contains("Scotty") {
            return;
        }
        let code = file.code(HASKELL);
        let text = code.text();
        let verbs = [
            "get", "post", "put", "delete", "patch", "options", "matchAny", "addroute",
        ];
        let mut calls = verb_calls(&code, &verbs, &["."], true);
        // addroute PUT "/x"
        for at in code.find_word("addroute") {
            let p = code.skip_ws(at + 8);
            let Some(m) = code.ident_at(p) else { continue };
            if let Some(lit) = code.string_at(p + m.len()) {
                calls.push(common::Call {
                    at,
                    verb: m.to_string(),
                    recv: String::new(),
                    path: lit.value,
                    after: lit.end,
                    paren: None,
                });
            }
        }
        // get (capture "/x") / get (literal "/x")
        for verb in ["get", "post", "put", "delete", "patch"] {
            for at in code.find_word(verb) {
                let p = code.skip_ws(at + verb.len());
                if text.as_bytes().get(p) != Some(&b'(') {
                    continue;
                }
                let q = code.skip_ws(p + 1);
                let Some(f) = code.ident_at(q) else { continue };
                if f != "capture" && f != "literal" {
                    continue;
                }
                if let Some(lit) = code.string_at(q + f.len()) {
                    calls.push(common::Call {
                        at,
                        verb: verb.to_string(),
                        recv: String::new(),
                        path: lit.value,
                        after: lit.end,
                        paren: None,
                    });
                }
            }
        }
        for c in calls {
            if !c.path.starts_with('/') {
                continue;
            }
            let body = indent_block(text, c.at);
            let methods: Vec<&str> = if c.verb == "matchAny" {
                ANY.to_vec()
            } else {
                vec![method_of(&c.verb).unwrap_or("GET")]
            };
            for m in methods {
                let mut e = common::endpoint(
                    m,
                    &c.path,
                    file,
                    file.line_of(c.at),
                    reads(&code, body.clone(), SCOTTY_READS, m),
                );
                if c.verb == "matchAny" {
                    e = e.tag(Tag::any_method());
                }
                out.endpoint(e);
            }
        }
    }
}

/// A token of a Servant type, with its line.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
enum Tok {
    Str(String),
    Ident(String),
    Op(String),
}

#[derive(Serialize, Deserialize)]
struct TypeDef {
    name: String,
    path: String,
    toks: Vec<(Tok, u32)>,
}

/// `type Name = …` definitions of a module, tokenized.
fn type_defs(file: &SourceFile) -> Vec<TypeDef> {
    let code = file.code(HASKELL);
    let text = code.text();
    let mut out = Vec::new();
    for at in code.find_word("type") {
        if portolan_plugin_sdk::text::line_start_of(text, at) != at {
            continue;
        }
        let Some(name) = code.ident_at(at + 4) else {
            continue;
        };
        let block = indent_block(text, at);
        let Some(eq) = text[at..block.end].find('=') else {
            continue;
        };
        let start = at + eq + 1;
        let toks = tokenize(&code, file, start..block.end);
        if toks
            .iter()
            .any(|(t, _)| matches!(t, Tok::Op(o) if o == ":>" || o == ":<|>"))
        {
            out.push(TypeDef {
                name: name.to_string(),
                path: file.path.clone(),
                toks,
            });
        }
    }
    out
}

fn tokenize(code: &Code, file: &SourceFile, r: std::ops::Range<usize>) -> Vec<(Tok, u32)> {
    let text = code.text();
    let b = text.as_bytes();
    let mut i = r.start;
    let mut out = Vec::new();
    while i < r.end {
        let c = b[i];
        if c.is_ascii_whitespace() || !code.is_code(i) && code.string_at(i).is_none() {
            i += 1;
            continue;
        }
        if c == b'"' {
            if let Some(lit) = code.string_at(i) {
                out.push((Tok::Str(lit.value), file.line_of(i)));
                i = lit.end.max(i + 1);
                continue;
            }
        }
        if b[i..].starts_with(b":<|>") {
            out.push((Tok::Op(":<|>".into()), file.line_of(i)));
            i += 4;
        } else if b[i..].starts_with(b":>") {
            out.push((Tok::Op(":>".into()), file.line_of(i)));
            i += 2;
        } else if c == b'(' || c == b')' {
            out.push((Tok::Op((c as char).to_string()), file.line_of(i)));
            i += 1;
        } else if c == b'\'' && b.get(i + 1) == Some(&b'[') {
            // '[JSON, PlainText]
            let close = code.matching(i + 1).unwrap_or(i + 1);
            i = close + 1;
        } else if c == b'[' {
            let close = code.matching(i).unwrap_or(i);
            i = close + 1;
        } else if c.is_ascii_alphabetic() || c == b'\'' || c == b'_' {
            let start = i;
            while i < r.end && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'\'' | b'.'))
            {
                i += 1;
            }
            out.push((
                Tok::Ident(text[start..i].trim_start_matches('\'').to_string()),
                file.line_of(start),
            ));
        } else {
            i += 1;
        }
    }
    out
}

struct ServantCtx<'a> {
    defs: HashMap<&'a str, &'a TypeDef>,
    out: Vec<Endpoint>,
    stack: Vec<&'a str>,
}

#[derive(Clone, Default)]
struct Acc {
    segs: Vec<String>,
    params: Vec<Param>,
}

fn verb_of(name: &str) -> Option<&'static str> {
    let name = name.rsplit('.').next().unwrap_or(name);
    for (p, m) in [
        ("Get", "GET"),
        ("Post", "POST"),
        ("Put", "PUT"),
        ("Delete", "DELETE"),
        ("Patch", "PATCH"),
        ("StreamGet", "GET"),
        ("StreamPost", "POST"),
    ] {
        if name == p
            || name.starts_with(p)
                && name[p.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_uppercase())
        {
            return Some(m);
        }
    }
    None
}

impl<'a> ServantCtx<'a> {
    /// alt := seq (':<|>' seq)* ; returns the index after it.
    fn alt(&mut self, def: &'a TypeDef, mut i: usize, acc: &Acc, depth: usize) -> usize {
        loop {
            i = self.seq(def, i, acc.clone(), depth);
            match def.toks.get(i) {
                Some((Tok::Op(o), _)) if o == ":<|>" => i += 1,
                _ => return i,
            }
        }
    }

    fn seq(&mut self, def: &'a TypeDef, mut i: usize, mut acc: Acc, depth: usize) -> usize {
        let toks = &def.toks;
        loop {
            // One term: tokens up to `:>`, `:<|>` or `)` at depth 0.
            match toks.get(i) {
                Some((Tok::Op(o), _)) if o == "(" => {
                    if depth > 32 {
                        return toks.len();
                    }
                    i = self.alt(def, i + 1, &acc, depth + 1);
                    if matches!(toks.get(i), Some((Tok::Op(o), _)) if o == ")") {
                        i += 1;
                    }
                    // A parenthesised group ends the chain.
                    return i;
                }
                None => return i,
                _ => {}
            }
            let start = i;
            while let Some((t, _)) = toks.get(i) {
                if matches!(t, Tok::Op(o) if o == ":>" || o == ":<|>" || o == ")" || o == "(") {
                    break;
                }
                i += 1;
            }
            let term = &toks[start..i];
            let mut ended = false;
            if let Some((first, line)) = term.first() {
                match first {
                    Tok::Str(s) => acc.segs.push(s.clone()),
                    Tok::Ident(id) => {
                        let id = id.rsplit('.').next().unwrap_or(id);
                        let name = term.iter().find_map(|(t, _)| match t {
                            Tok::Str(s) => Some(s.clone()),
                            _ => None,
                        });
                        match id {
                            "Capture" | "Capture'" | "CaptureAll" => {
                                if let Some(n) = name {
                                    acc.segs.push(format!("{{{n}}}"));
                                }
                            }
                            "QueryParam" | "QueryParam'" | "QueryParams" | "QueryFlag" => {
                                if let Some(n) = name {
                                    acc.params.push(Param::query(n));
                                }
                            }
                            "Header" | "Header'" => {
                                if let Some(n) = name {
                                    acc.params.push(Param::header(n));
                                }
                            }
                            "Verb" | "NoContentVerb" | "Stream" | "UVerb" => {
                                let m = term.get(1).and_then(|(t, _)| match t {
                                    Tok::Ident(m) => method_of(m),
                                    _ => None,
                                });
                                self.emit(def, &acc, m.unwrap_or("GET"), *line);
                                ended = true;
                            }
                            "Raw" | "RawM" => {
                                self.emit(def, &acc, "GET", *line);
                                ended = true;
                            }
                            other => {
                                if let Some(m) = verb_of(other) {
                                    self.emit(def, &acc, m, *line);
                                    ended = true;
                                } else if let Some(d) = self.defs.get(other).copied() {
                                    if !self.stack.contains(&d.name.as_str())
                                        && self.stack.len() < 16
                                    {
                                        self.stack.push(&d.name);
                                        self.alt(d, 0, &acc, depth + 1);
                                        self.stack.pop();
                                    }
                                    ended = true;
                                }
                            }
                        }
                    }
                    Tok::Op(_) => {}
                }
            }
            match toks.get(i) {
                Some((Tok::Op(o), _)) if o == ":>" && !ended => i += 1,
                Some((Tok::Op(o), _)) if o == ":>" => {
                    // Skip the rest of a chain that already ended.
                    i += 1;
                }
                _ => return i,
            }
        }
    }

    fn emit(&mut self, def: &TypeDef, acc: &Acc, method: &str, line: u32) {
        let url = join_url(&acc.segs.iter().map(String::as_str).collect::<Vec<_>>());
        self.out.push(
            Endpoint::new(method, url)
                .at_path(&def.path, line)
                .params(acc.params.clone()),
        );
    }
}

pub struct Servant;

impl Analyzer for Servant {
    fn tech(&self) -> Tech {
        hs_tech(
            "haskell_servant",
            "Servant",
            &["servant", "haskell-servant"],
            "servant-server",
            "Servant",
        )
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || !file.content.contains(":>") {
            return;
        }
        for d in type_defs(file) {
            out.fact(&d);
        }
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let defs: Vec<TypeDef> = facts.all();
        let mut used: HashSet<&str> = HashSet::new();
        for d in &defs {
            for (t, _) in &d.toks {
                if let Tok::Ident(i) = t {
                    let i = i.rsplit('.').next().unwrap_or(i);
                    if i != d.name {
                        used.insert(i);
                    }
                }
            }
        }
        let mut ctx = ServantCtx {
            defs: defs.iter().map(|d| (d.name.as_str(), d)).collect(),
            out: Vec::new(),
            stack: Vec::new(),
        };
        for d in &defs {
            if used.contains(d.name.as_str()) {
                continue;
            }
            ctx.stack.push(&d.name);
            ctx.alt(d, 0, &Acc::default(), 0);
            ctx.stack.pop();
        }
        Ok(ctx.out)
    }
}

const YESOD_READS: &[Read] = &[
    ("lookupGetParam", Kind::Fixed(ParamKind::Query)),
    ("lookupGetParams", Kind::Fixed(ParamKind::Query)),
    ("lookupPostParam", Kind::Fixed(ParamKind::Form)),
    ("lookupPostParams", Kind::Fixed(ParamKind::Form)),
    ("lookupHeader", Kind::Fixed(ParamKind::Header)),
    ("lookupCookie", Kind::Fixed(ParamKind::Cookie)),
    ("lookupFile", Kind::Fixed(ParamKind::File)),
    ("ireq textField", Kind::QueryOrForm),
    ("iopt textField", Kind::QueryOrForm),
    ("ireq intField", Kind::QueryOrForm),
    ("iopt intField", Kind::QueryOrForm),
    ("ireq boolField", Kind::QueryOrForm),
    ("iopt boolField", Kind::QueryOrForm),
];

#[derive(Serialize, Deserialize, Default)]
struct YesodFile {
    /// (url, resource, methods, path, line)
    routes: Vec<(String, String, Vec<String>, String, u32)>,
    /// handler name → (reads as on GET, as on POST)
    handlers: Vec<(String, Vec<Param>, Vec<Param>)>,
}

/// Route lines starting at `start` (a `parseRoutes` body or a routes file).
fn yesod_routes(
    text: &str,
    base: usize,
    file: &SourceFile,
    out: &mut Vec<(String, String, Vec<String>, String, u32)>,
) {
    // (indent, prefix) of the open nested blocks.
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut offset = base;
    for raw in text.split_inclusive('\n') {
        let line_at = offset;
        offset += raw.len();
        let line = raw.split("--").next().unwrap_or("").trim_end();
        let trimmed = line.trim_start();
        if !trimmed.starts_with('/') && !trimmed.starts_with("!/") {
            continue;
        }
        let indent = portolan_plugin_sdk::text::indent_width(line);
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        let mut words = trimmed.split_whitespace();
        let Some(piece) = words.next() else { continue };
        let Some(resource) = words.next() else {
            continue;
        };
        let mut seen: HashMap<String, usize> = HashMap::new();
        let segs: Vec<String> = piece
            .trim_start_matches('!')
            .split('/')
            .map(|s| {
                let s = s.trim_start_matches('!');
                match s
                    .strip_prefix('#')
                    .or_else(|| s.strip_prefix('*'))
                    .or_else(|| s.strip_prefix('+'))
                {
                    Some(ty) => {
                        let mut n = ty.to_string();
                        if let Some(f) = n.get(..1) {
                            n = f.to_ascii_lowercase() + &n[1..];
                        }
                        let k = seen.entry(n.clone()).or_insert(0);
                        *k += 1;
                        if *k > 1 {
                            n = format!("{n}{k}");
                        }
                        format!("{{{n}}}")
                    }
                    None => s.to_string(),
                }
            })
            .collect();
        let prefix = stack.last().map(|(_, p)| p.clone()).unwrap_or_default();
        let url = join_url(&[&prefix, &segs.join("/")]);
        if let Some(res) = resource.strip_suffix(':') {
            let _ = res;
            stack.push((indent, url));
            continue;
        }
        let rest: Vec<&str> = words.collect();
        if rest
            .first()
            .is_some_and(|w| !w.chars().all(|c| c.is_ascii_uppercase()))
        {
            // A subsite (`/static StaticR Static appStatic`).
            continue;
        }
        let methods = rest.iter().map(|s| s.to_string()).collect();
        out.push((
            url,
            resource.to_string(),
            methods,
            file.path.clone(),
            file.line_of(line_at + (raw.len() - raw.trim_start().len())),
        ));
    }
}

pub struct Yesod;

impl Analyzer for Yesod {
    fn tech(&self) -> Tech {
        hs_tech(
            "haskell_yesod",
            "Yesod",
            &["yesod", "haskell-yesod"],
            "yesod(-core)?",
            "Yesod",
        )
        .files(["*.hs", "routes", "*.yesodroutes"])
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let mut f = YesodFile::default();
        if !file.path.ends_with(".hs") {
            yesod_routes(&file.content, 0, file, &mut f.routes);
        } else {
            let code = file.code(HASKELL);
            let text = code.text();
            for q in ["[parseRoutes|", "[parseRoutesNoCheck|"] {
                for (at, _) in file.content.match_indices(q) {
                    let start = at + q.len();
                    let end = file.content[start..]
                        .find("|]")
                        .map_or(file.content.len(), |i| start + i);
                    yesod_routes(&file.content[start..end], start, file, &mut f.routes);
                }
            }
            // Handlers: `getFooR`, `postFooR`, … defined at column 0.
            let bytes = text.as_bytes();
            let mut pos = 0;
            while pos < text.len() {
                let end = portolan_plugin_sdk::text::line_end_of(text, pos);
                if let Some(name) = code
                    .ident_at(pos)
                    .filter(|_| bytes.get(pos).is_some_and(|b| b.is_ascii_lowercase()))
                {
                    let is_handler = [
                        "get", "post", "put", "delete", "patch", "handle", "options", "head",
                    ]
                    .iter()
                    .any(|m| {
                        name.strip_prefix(m).is_some_and(|r| {
                            r.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                                && r.ends_with('R')
                        })
                    });
                    let rest = text[pos + name.len()..end].trim_start();
                    if is_handler && !rest.starts_with("::") {
                        let body = indent_block(text, pos);
                        f.handlers.push((
                            name.to_string(),
                            reads(&code, body.clone(), YESOD_READS, "GET"),
                            reads(&code, body, YESOD_READS, "POST"),
                        ));
                    }
                }
                pos = end + 1;
            }
        }
        if !f.routes.is_empty() || !f.handlers.is_empty() {
            out.fact(&f);
        }
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<YesodFile> = facts.all();
        let mut handlers: HashMap<&str, (&Vec<Param>, &Vec<Param>)> = HashMap::new();
        for f in &files {
            for (n, g, p) in &f.handlers {
                handlers.entry(n.as_str()).or_insert((g, p));
            }
        }
        let mut out = Vec::new();
        for f in &files {
            for (url, res, methods, path, line) in &f.routes {
                let list: Vec<(String, String, bool)> = if methods.is_empty() {
                    ANY.iter()
                        .map(|m| (m.to_string(), format!("handle{res}"), true))
                        .collect()
                } else {
                    methods
                        .iter()
                        .map(|m| (m.clone(), format!("{}{res}", m.to_ascii_lowercase()), false))
                        .collect()
                };
                for (m, h, any) in list {
                    let mut e = Endpoint::new(&m, url).at_path(path, *line);
                    if let Some((g, p)) = handlers.get(h.as_str()) {
                        let ps = if matches!(m.as_str(), "GET" | "HEAD" | "DELETE") {
                            g
                        } else {
                            p
                        };
                        for p in ps.iter() {
                            e.push_param(p.clone());
                        }
                    }
                    if any {
                        e = e.tag(Tag::any_method());
                    }
                    out.push(e);
                }
            }
        }
        Ok(out)
    }
}
