//! AWS CDK apps (TypeScript/JavaScript and Python) that build API Gateway
//! APIs in code.
//!
//! - REST APIs (`RestApi`, `LambdaRestApi`, `SpecRestApi`): resources from
//!   `.root`, `addResource('x')` / `add_resource("x")` and
//!   `resourceForPath('a/b')` / `resource_for_path(…)`, followed through
//!   variables and fields (`const books = api.root.addResource('books')`,
//!   `this.v1 = …`, `self.items = …`) and chains in the same file;
//!   `addMethod('GET', …)` / `add_method(…)` gives a route (`ANY` is
//!   API Gateway's seven methods); `addProxy()` adds `{proxy+}` with any
//!   method. A `LambdaRestApi` without `proxy: false` sends every path to
//!   its handler: `/` and `/{proxy+}`.
//! - HTTP APIs (`HttpApi`): `addRoutes({ path, methods })` /
//!   `add_routes(path=…, methods=[…])`; without methods, any.
//! - Params: the method's `requestParameters` / `request_parameters` keys
//!   (`method.request.querystring.page`, `….header.X-Key`, `….path.id`).
//! - Location: the `addMethod` / `addRoutes` / `addProxy` call.
//!
//! Resources whose parent is not known in the file (passed in from another
//! construct) are not reported.

use std::collections::BTreeMap;

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::lex::{is_ident_byte, Code, Syntax};
use portolan_plugin_sdk::paths::is_test_path;
use portolan_plugin_sdk::prelude::*;

use crate::common::aws;

pub struct AwsCdk;

const FILES: [&str; 4] = ["*.ts", "*.js", "*.mjs", "*.py"];

impl Analyzer for AwsCdk {
    fn tech(&self) -> Tech {
        Tech::new("aws_cdk", "Specification", "AWS CDK")
            .specification()
            .aliases(["cdk"])
            .files(FILES)
            .requires_any(["aws-cdk-lib", "aws_cdk", "@aws-cdk/"])
            .detect(Detect::files(["cdk.json"]))
            .supports(Supports {
                body: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.path.replace('\\', "/");
        if is_test_document(&path) || is_test_path(&path) || path.ends_with(".d.ts") {
            return;
        }
        if path.contains("/cdk.out/") || path.contains("node_modules/") {
            return;
        }
        let python = path.ends_with(".py");
        let code = Code::new(
            &file.content,
            if python {
                Syntax::PYTHON
            } else {
                Syntax::JAVASCRIPT
            },
        );
        let mut calls: Vec<(usize, &str)> = Vec::new();
        for name in [
            "addResource",
            "add_resource",
            "resourceForPath",
            "resource_for_path",
            "addMethod",
            "add_method",
            "addProxy",
            "add_proxy",
            "addRoutes",
            "add_routes",
        ] {
            let needle = format!(".{name}(");
            for at in code.find_all(&needle) {
                calls.push((at, name));
            }
        }
        calls.sort();
        let mut cdk = Cdk {
            code: &code,
            vars: BTreeMap::new(),
        };
        for (dot, name) in calls {
            let open = dot + name.len() + 1;
            match name {
                "addResource" | "add_resource" | "resourceForPath" | "resource_for_path" => {
                    if let Some(p) = cdk.resolve_call(dot, open) {
                        if let Some(var) = cdk.assigned_to(dot) {
                            cdk.vars.insert(var, p);
                        }
                    }
                }
                "addProxy" | "add_proxy" => {
                    let Some(base) = cdk.receiver(dot) else {
                        continue;
                    };
                    let args = code.slice(open..code.matching(open).unwrap_or(open));
                    if args.contains("anyMethod: false") || args.contains("any_method=False") {
                        continue;
                    }
                    let url = format!("{base}/{{proxy+}}");
                    emit(file, out, &url, &aws::methods("ANY"), Vec::new(), dot);
                }
                "addMethod" | "add_method" => {
                    let Some(base) = cdk.receiver(dot) else {
                        continue;
                    };
                    let args = code.args(open);
                    let Some(method) = args.first().and_then(|r| code.string_at(r.start)) else {
                        continue;
                    };
                    let params = request_parameters(&code, open);
                    let url = if base.is_empty() { "/".into() } else { base };
                    emit(file, out, &url, &aws::methods(&method.value), params, dot);
                }
                _ => {
                    // addRoutes / add_routes
                    let (path, methods) = routes_args(&code, open);
                    let Some(path) = path else {
                        continue;
                    };
                    let methods = if methods.is_empty() {
                        aws::methods("ANY")
                    } else {
                        methods
                    };
                    emit(file, out, &path, &methods, Vec::new(), dot);
                }
            }
        }
        // LambdaRestApi proxies every path by default.
        for at in code.find_all("LambdaRestApi(") {
            let open = at + "LambdaRestApi".len();
            let args = code.slice(open..code.matching(open).unwrap_or(open));
            if args.contains("proxy: false") || args.contains("proxy=False") {
                continue;
            }
            for url in ["/", "/{proxy+}"] {
                emit(file, out, url, &aws::methods("ANY"), Vec::new(), at);
            }
        }
    }
}

fn emit(
    file: &SourceFile,
    out: &mut Output,
    url: &str,
    methods: &[String],
    params: Vec<Param>,
    at: usize,
) {
    for m in methods {
        let mut e = Endpoint::new(m, url).params(params.clone());
        aws::greedy_path_params(&mut e);
        out.endpoint(e.at(file, file.line_of(at)));
    }
}

/// One link of a receiver chain: an identifier or a call.
enum Link {
    Ident(String),
    Call(String, usize),
}

struct Cdk<'c, 'a> {
    code: &'c Code<'a>,
    /// Variable (or `this.x` / `self.x`) → resource path.
    vars: BTreeMap<String, String>,
}

impl Cdk<'_, '_> {
    /// The path of the resource an `addResource`-like call at `dot` makes.
    fn resolve_call(&self, dot: usize, open: usize) -> Option<String> {
        let base = self.receiver(dot)?;
        let arg = self.code.string_at(open + 1)?.value;
        let seg = arg.trim_matches('/');
        Some(format!("{base}/{seg}"))
    }

    /// The resource path of the receiver ending just before `dot`.
    fn receiver(&self, dot: usize) -> Option<String> {
        let chain = self.chain_before(dot)?;
        // The head: the identifiers before the first call — `….root`, or a
        // known variable / field (`books`, `this.books`, `self.books`).
        let head = chain
            .iter()
            .position(|l| matches!(l, Link::Call(..)))
            .unwrap_or(chain.len());
        let idents: Vec<&str> = chain[..head]
            .iter()
            .filter_map(|l| match l {
                Link::Ident(id) => Some(id.as_str()),
                Link::Call(..) => None,
            })
            .collect();
        let path = if idents.last() == Some(&"root") {
            Some(String::new())
        } else {
            self.vars.get(&idents.join(".")).cloned()
        };
        let i = head;
        let mut path = path?;
        for link in &chain[i..] {
            match link {
                Link::Call(name, open) => {
                    let arg = self.code.string_at(open + 1).map(|s| s.value);
                    match (name.as_str(), arg) {
                        (
                            "addResource" | "add_resource" | "resourceForPath"
                            | "resource_for_path",
                            Some(a),
                        ) => {
                            path = format!("{path}/{}", a.trim_matches('/'));
                        }
                        _ => return None,
                    }
                }
                Link::Ident(_) => return None,
            }
        }
        Some(path)
    }

    /// The receiver chain before `.name(` at `dot`, innermost first.
    fn chain_before(&self, dot: usize) -> Option<Vec<Link>> {
        let text = self.code.text().as_bytes();
        let mut links = Vec::new();
        let mut end = dot;
        loop {
            while end > 0 && text[end - 1].is_ascii_whitespace() {
                end -= 1;
            }
            if end == 0 {
                break;
            }
            if text[end - 1] == b')' && self.code.is_code(end - 1) {
                let open = self.opener(end - 1)?;
                let mut s = open;
                while s > 0 && is_ident_byte(text[s - 1]) {
                    s -= 1;
                }
                let name = self.code.text().get(s..open)?.to_string();
                if name.is_empty() {
                    return None;
                }
                links.push(Link::Call(name, open));
                end = s;
            } else if is_ident_byte(text[end - 1]) {
                let mut s = end;
                while s > 0 && is_ident_byte(text[s - 1]) {
                    s -= 1;
                }
                links.push(Link::Ident(self.code.text().get(s..end)?.to_string()));
                end = s;
            } else {
                break;
            }
            // Continue through a `.` (or `?.`, `!.`).
            let mut e = end;
            while e > 0 && text[e - 1].is_ascii_whitespace() {
                e -= 1;
            }
            if e > 0 && text[e - 1] == b'.' {
                end = e - 1;
                if end > 0 && matches!(text[end - 1], b'?' | b'!') {
                    end -= 1;
                }
            } else {
                break;
            }
        }
        links.reverse();
        Some(links)
    }

    /// The `(` matching the `)` at `close`, scanning back over code only.
    fn opener(&self, close: usize) -> Option<usize> {
        let text = self.code.text().as_bytes();
        let mut depth = 0usize;
        let mut i = close + 1;
        while i > 0 {
            i -= 1;
            if !self.code.is_code(i) {
                continue;
            }
            match text[i] {
                b')' | b']' | b'}' => depth += 1,
                b'(' | b'[' | b'{' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// `const x = …`, `x = …`, `this.x = …`, `self.x = …` right before the
    /// expression whose call is at `dot`.
    fn assigned_to(&self, dot: usize) -> Option<String> {
        let text = self.code.text();
        let chain_start = {
            let bytes = text.as_bytes();
            // Walk back over the chain the same way as `chain_before`.
            let mut end = dot;
            loop {
                while end > 0 && bytes[end - 1].is_ascii_whitespace() {
                    end -= 1;
                }
                if end > 0 && bytes[end - 1] == b')' {
                    end = self.opener(end - 1)?;
                }
                let mut s = end;
                while s > 0 && is_ident_byte(bytes[s - 1]) {
                    s -= 1;
                }
                end = s;
                let mut e = end;
                while e > 0 && bytes[e - 1].is_ascii_whitespace() {
                    e -= 1;
                }
                if e > 0 && bytes[e - 1] == b'.' {
                    end = e - 1;
                } else {
                    break end;
                }
            }
        };
        let before = text.get(..chain_start)?.trim_end();
        let lhs = before.strip_suffix('=')?;
        if lhs.ends_with(['=', '!', '<', '>']) {
            return None;
        }
        let line_start = lhs.rfind(['\n', ';', '{']).map_or(0, |i| i + 1);
        let lhs = lhs.get(line_start..)?.trim();
        let lhs = lhs.split(':').next()?.trim();
        let name = lhs.split_whitespace().last()?;
        name.bytes()
            .all(|b| is_ident_byte(b) || b == b'.')
            .then(|| name.to_string())
    }
}

/// `requestParameters: { 'method.request.querystring.page': true }` /
/// `request_parameters={"method.request.header.X-Key": True}` among the
/// call's arguments.
fn request_parameters(code: &Code<'_>, open: usize) -> Vec<Param> {
    let Some(close) = code.matching(open) else {
        return Vec::new();
    };
    let text = code.text();
    let mut out = Vec::new();
    for key in ["requestParameters", "request_parameters"] {
        for at in code.find_all_in(key, open..close) {
            let Some(brace) = text.get(at..close).and_then(|t| t.find('{')) else {
                continue;
            };
            let brace = at + brace;
            for item in code.args(brace) {
                if let Some(s) = code.string_at(item.start) {
                    if let Some(p) = aws::request_parameter(&s.value) {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

/// `path` and `methods` of an `addRoutes({…})` / `add_routes(…)` call.
fn routes_args(code: &Code<'_>, open: usize) -> (Option<String>, Vec<String>) {
    let mut args = code.args(open);
    if let Some(first) = args.first() {
        if code.slice(first.clone()).starts_with('{') {
            args = code.args(first.start);
        }
    }
    let mut path = None;
    let mut methods = Vec::new();
    for a in args {
        match code.keyword_arg(a) {
            Some(("path", v)) => path = code.string_at(v.start).map(|s| s.value),
            Some(("methods", v)) => {
                let t = code.slice(v);
                for m in t.split([',', '[', ']']) {
                    let m = m.trim().rsplit('.').next().unwrap_or("").trim();
                    if !m.is_empty() {
                        for x in aws::methods(m) {
                            if !methods.contains(&x) {
                                methods.push(x);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    (path, methods)
}
