//! Reduce step: routes joined with their controllers and validators.

use portolan_plugin_sdk::{Endpoint, Param, ParamKind};

use super::scan::{AdonisModule, Controller, HandlerRef, Read};

/// File stem of a path or specifier (`#controllers/users_controller` →
/// `users_controller`).
fn stem(s: &str) -> &str {
    let last = s.rsplit('/').next().unwrap_or(s);
    match last.rsplit_once('.') {
        Some((a, "js" | "ts" | "mjs" | "cjs")) => a,
        _ => last,
    }
}

fn controller<'a>(
    modules: &'a [AdonisModule],
    from: &AdonisModule,
    h: &HandlerRef,
) -> Option<&'a Controller> {
    let spec = if h.spec.is_empty() {
        from.imports
            .iter()
            .find(|(l, _)| *l == h.class)
            .map(|(_, s)| s.as_str())
            .unwrap_or("")
    } else {
        h.spec.as_str()
    };
    if !spec.is_empty() {
        let want = stem(spec);
        let found = modules
            .iter()
            .filter(|m| stem(&m.path) == want)
            .flat_map(|m| m.controllers.iter())
            .collect::<Vec<_>>();
        // The class of that file (default export: any name), or the one
        // named like the handler when the file has several.
        let named = found.iter().find(|c| c.class == h.class);
        if let Some(c) = named.or(found.first()) {
            return Some(c);
        }
    }
    if h.class.is_empty() {
        return None;
    }
    // By class name; with several (two apps in one tree), the one whose
    // file shares the longest directory prefix with the routes file.
    let common = |p: &str| {
        p.split('/')
            .zip(from.path.split('/'))
            .take_while(|(a, b)| a == b)
            .count()
    };
    let mut all: Vec<(usize, &Controller)> = modules
        .iter()
        .flat_map(|m| m.controllers.iter().map(move |c| (common(&m.path), c)))
        .filter(|(_, c)| c.class == h.class)
        .collect();
    all.sort_by_key(|(n, _)| std::cmp::Reverse(*n));
    match all.as_slice() {
        [] => None,
        [(_, c)] => Some(c),
        [(a, c), (b, _), ..] => (a > b).then_some(c),
    }
}

fn validator<'a>(modules: &'a [AdonisModule], name: &str) -> Option<&'a [String]> {
    let mut all = modules
        .iter()
        .flat_map(|m| m.validators.iter())
        .filter(|(n, _)| n == name);
    let first = all.next()?;
    all.next().is_none().then_some(first.1.as_slice())
}

fn input_kind(method: &str) -> ParamKind {
    match method {
        "GET" | "HEAD" | "DELETE" | "OPTIONS" => ParamKind::Query,
        _ => ParamKind::Json,
    }
}

pub fn link(modules: &[AdonisModule]) -> Vec<Endpoint> {
    let mut out = Vec::new();
    for m in modules {
        for r in &m.routes {
            let mut reads: Vec<&Read> = r.reads.iter().collect();
            if let Some(h) = &r.handler {
                if let Some(c) = controller(modules, m, h) {
                    if let Some((_, rs)) = c.methods.iter().find(|(n, _)| *n == h.method) {
                        reads.extend(rs.iter());
                    }
                }
            }
            for method in &r.methods {
                let kind = input_kind(method);
                let mut params: Vec<Param> = Vec::new();
                for read in &reads {
                    match read {
                        Read::Input(n) => params.push(Param::new(kind, n.clone())),
                        Read::Direct(k, n) => params.push(Param::new(*k, n.clone())),
                        Read::Validator(v) => {
                            for f in validator(modules, v).unwrap_or_default() {
                                params.push(Param::new(kind, f.clone()));
                            }
                        }
                    }
                }
                out.push(
                    Endpoint::new(method, r.url.clone())
                        .params(params)
                        .at_path(m.path.clone(), r.line),
                );
            }
        }
    }
    out
}
