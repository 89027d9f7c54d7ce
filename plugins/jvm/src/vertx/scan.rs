//! Map step: Vert.x Web routes and sub-router mounts of one file, with the
//! router object (class, method, variable) each is declared on.

use portolan_plugin_sdk::prelude::*;

use crate::jvm::facts::analyze_with_outline;
use crate::jvm::lambda::{self, Dialect, Mount, MountTarget, Route, RouterKey};
use crate::jvm::outline::Lang;
use crate::jvm::tokens::{close_of, dotted, split_commas, Kind, Token};
use crate::spring::link::ANY_METHODS as ANY_METHOD;

const VERBS: [&str; 9] = [
    "get", "post", "put", "patch", "delete", "head", "options", "trace", "connect",
];

const KEYWORDS: [&str; 9] = [
    "if",
    "for",
    "while",
    "switch",
    "catch",
    "return",
    "new",
    "else",
    "synchronized",
];

pub fn analyze(file: &SourceFile, out: &mut Output) {
    analyze_with_outline(file, Lang::Java, out, |file| {
        let mut dsl = lambda::scan(file, Dialect::Vertx);
        routes(file, &mut dsl);
        (!dsl.routes.is_empty() || !dsl.bodies.is_empty() || !dsl.mounts.is_empty()).then_some(dsl)
    });
}

/// Method bodies of a file: `(open, close, class, method)`.
fn methods(t: &[Token]) -> Vec<(usize, usize, String, String)> {
    let classes = lambda::class_bodies(t);
    let mut out = Vec::new();
    for i in 1..t.len() {
        if t[i].kind != Kind::Ident || KEYWORDS.contains(&t[i].text.as_str()) {
            continue;
        }
        let prev = &t[i - 1];
        let typed = (prev.kind == Kind::Ident && !KEYWORDS.contains(&prev.text.as_str()))
            || prev.is('>')
            || prev.is(']');
        if !typed || !t.get(i + 1).is_some_and(|x| x.is('(')) {
            continue;
        }
        let Some(close) = close_of(t, i + 1) else {
            continue;
        };
        let mut k = close + 1;
        if t.get(k).is_some_and(|x| x.is_ident("throws")) {
            while k < t.len() && !t[k].is('{') && !t[k].is(';') {
                k += 1;
            }
        }
        if !t.get(k).is_some_and(|x| x.is('{')) {
            continue;
        }
        let end = close_of(t, k).unwrap_or(t.len());
        let class = classes
            .iter()
            .filter(|(o, c, _)| *o < i && i < *c)
            .max_by_key(|(o, _, _)| *o)
            .map(|(_, _, n)| n.clone())
            .unwrap_or_default();
        out.push((k, end, class, t[i].text.clone()));
    }
    out
}

/// A framework handler used as middleware (`BodyHandler.create()`).
fn is_framework_handler(t: &[Token], r: &std::ops::Range<usize>) -> bool {
    let Some(first) = t.get(r.start) else {
        return false;
    };
    first.kind == Kind::Ident
        && first.text.ends_with("Handler")
        && first.text.starts_with(char::is_uppercase)
        && t.get(r.start + 1).is_some_and(|x| x.is('.'))
}

/// `HttpMethod.PUT` → `PUT`.
fn http_method(t: &[Token], r: &std::ops::Range<usize>) -> Option<String> {
    let (name, end) = dotted(t, r.start)?;
    (end == r.end && name.starts_with("HttpMethod."))
        .then(|| name.rsplit('.').next().unwrap_or_default().to_string())
}

/// The router a mount attaches, from its argument `t[r]`.
fn target(
    t: &[Token],
    r: std::ops::Range<usize>,
    method: Option<&(usize, usize, String, String)>,
    depth: usize,
) -> Option<MountTarget> {
    let first = t.get(r.start)?;
    if r.len() == 1 && first.kind == Kind::Ident {
        // A variable: follow `v = <call>` in the same method.
        if let Some((open, close, _, _)) = method {
            let assigned = (*open..*close).find(|&k| {
                t[k].is_ident(&first.text)
                    && t.get(k + 1).is_some_and(|x| x.is('='))
                    && !t.get(k + 2).is_some_and(|x| x.is('='))
            });
            if let (Some(k), true) = (assigned, depth < 3) {
                let end = (k + 2..*close)
                    .scan(0i32, |d, j| {
                        let x = &t[j];
                        if x.is('(') || x.is('{') || x.is('[') {
                            *d += 1;
                        } else if x.is(')') || x.is('}') || x.is(']') {
                            *d -= 1;
                        }
                        Some((j, *d))
                    })
                    .find(|(j, d)| *d < 0 || (*d == 0 && t[*j].is(';')))
                    .map_or(*close, |(j, _)| j);
                if let Some(MountTarget::Call(o, m)) = target(t, k + 2..end, method, depth + 1) {
                    if !(m == "router" && o.as_deref() == Some("Router")) {
                        return Some(MountTarget::Call(o, m));
                    }
                }
            }
        }
        return Some(MountTarget::Var(first.text.clone()));
    }
    // A call: the last `name(…)` of the chain.
    if !t.get(r.end.checked_sub(1)?)?.is(')') {
        return None;
    }
    let close = r.end - 1;
    let open = (r.start..close)
        .rev()
        .find(|&o| close_of(t, o) == Some(close))?;
    let name = t.get(open.checked_sub(1)?)?;
    if name.kind != Kind::Ident || open - 1 < r.start {
        return None;
    }
    let before = open - 1;
    if before == r.start {
        return Some(MountTarget::Call(None, name.text.clone()));
    }
    if !t[before - 1].is('.') || before < r.start + 2 {
        return None;
    }
    let recv = &t[before - 2];
    let owner = if recv.is(')') {
        // `new UserApi(vertx).router()`
        let o = (r.start..before - 2)
            .rev()
            .find(|&o| close_of(t, o) == Some(before - 2))?;
        (o >= r.start + 2 && t[o - 2].is_ident("new")).then(|| t[o - 1].text.clone())
    } else if recv.is_ident("this") {
        None
    } else {
        Some(recv.text.clone())
    };
    Some(MountTarget::Call(owner, name.text.clone()))
}

/// The declared type of variable `var` (`ProductApi products = …`), or
/// `var` itself.
pub(crate) fn var_type(t: &[Token], var: &str) -> String {
    if var.starts_with(char::is_uppercase) {
        return var.to_string();
    }
    (1..t.len())
        .find(|&k| {
            t[k].is_ident(var)
                && t[k - 1].kind == Kind::Ident
                && t[k - 1].text.starts_with(char::is_uppercase)
                && t.get(k + 1)
                    .is_some_and(|x| x.is('=') || x.is(';') || x.is(',') || x.is(')'))
        })
        .map_or_else(|| var.to_string(), |k| t[k - 1].text.clone())
}

/// Routes and mounts of a file.
fn routes(file: &SourceFile, dsl: &mut lambda::DslFile) {
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[Token] = &toks.0;
    let src = file.content.as_str();
    let expr = crate::jvm::expr::range_parser(t, src, false);
    let methods = methods(t);
    let enclosing = |i: usize| {
        methods
            .iter()
            .filter(|(o, c, _, _)| *o < i && i < *c)
            .max_by_key(|(o, _, _, _)| *o)
    };
    let key_at = |i: usize, var: &str| {
        let m = enclosing(i);
        RouterKey {
            class: m.map(|x| x.2.clone()).unwrap_or_default(),
            method: m.map(|x| x.3.clone()).unwrap_or_default(),
            var: var.to_string(),
        }
    };
    for (open, close, class, method) in &methods {
        for k in *open..*close {
            if t[k].is_ident("return")
                && t.get(k + 1).is_some_and(|x| x.kind == Kind::Ident)
                && t.get(k + 2).is_some_and(|x| x.is(';'))
                && enclosing(k).is_some_and(|m| m.0 == *open)
            {
                let r = (class.clone(), method.clone(), t[k + 1].text.clone());
                if !dsl.returns.contains(&r) {
                    dsl.returns.push(r);
                }
            }
        }
    }
    for i in 2..t.len() {
        let word = t[i].text.as_str();
        if t[i].kind != Kind::Ident
            || !t[i - 1].is('.')
            || t[i - 2].kind != Kind::Ident
            || !t.get(i + 1).is_some_and(|x| x.is('('))
        {
            continue;
        }
        let recv = t[i - 2].text.clone();
        let close = close_of(t, i + 1).unwrap_or(t.len());
        let args = split_commas(t, i + 2, close);
        if word == "mountSubRouter" && args.len() == 2 {
            let (Some(prefix), Some(tg)) = (
                expr(args[0].clone()),
                target(t, args[1].clone(), enclosing(i), 0),
            ) else {
                continue;
            };
            dsl.mounts.push(Mount {
                from: key_at(i, &recv),
                prefix,
                target: tg,
            });
            continue;
        }
        let verb = VERBS.contains(&word);
        if !verb && word != "route" {
            continue;
        }
        let mut methods_of: Vec<String> = Vec::new();
        let path = match (verb, args.as_slice()) {
            (true, [p]) => expr(p.clone()),
            (false, [p]) => expr(p.clone()),
            (false, [m, p]) => {
                let Some(m) = http_method(t, m) else {
                    continue;
                };
                methods_of.push(m);
                expr(p.clone())
            }
            _ => None,
        };
        let Some(path) = path else {
            continue;
        };
        if verb {
            methods_of.push(word.to_ascii_uppercase());
        }
        // The chain: `.method(…)`, `.handler(…)`, `.subRouter(…)`, …
        let mut handlers: Vec<std::ops::Range<usize>> = Vec::new();
        let mut sub: Option<MountTarget> = None;
        let mut k = close + 1;
        while k + 2 < t.len() && t[k].is('.') && t[k + 1].kind == Kind::Ident && t[k + 2].is('(') {
            let Some(cl) = close_of(t, k + 2) else {
                break;
            };
            let inner = k + 3..cl;
            match t[k + 1].text.as_str() {
                "method" => {
                    if let Some(m) = http_method(t, &inner) {
                        methods_of.push(m);
                    }
                }
                "handler" | "blockingHandler" | "respond" => handlers.push(inner),
                "subRouter" => sub = target(t, inner, enclosing(i), 0),
                _ => {}
            }
            k = cl + 1;
        }
        let line = file.line_of(t[i].start);
        if let Some(tg) = sub {
            dsl.mounts.push(Mount {
                from: key_at(i, &recv),
                prefix: path,
                target: tg,
            });
            continue;
        }
        if handlers.is_empty() {
            continue;
        }
        if methods_of.is_empty() {
            let wildcard = path.literal().is_some_and(|p| p.ends_with('*'));
            if wildcard || handlers.iter().all(|h| is_framework_handler(t, h)) {
                continue;
            }
            methods_of = ANY_METHOD.iter().map(|m| m.to_string()).collect();
        }
        let mut reads = Vec::new();
        let mut handler = None;
        for h in &handlers {
            let (inline, reference) = lambda::handler_of(t, h.clone());
            if inline {
                for r in lambda::reads(t, h.start, h.end) {
                    if !reads.contains(&r) {
                        reads.push(r);
                    }
                }
            }
            if reference.is_some() && !is_framework_handler(t, h) {
                handler = reference.map(|(owner, member)| (owner.map(|o| var_type(t, &o)), member));
            }
        }
        for m in methods_of {
            dsl.routes.push(Route {
                method: m,
                parts: vec![path.clone()],
                line,
                websocket: false,
                reads: reads.clone(),
                handler: handler.clone(),
                router: Some(key_at(i, &recv)),
            });
        }
    }
}
