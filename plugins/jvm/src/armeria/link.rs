//! Map step (outline, service registrations, lambda services) and link
//! step (annotated routes under their registration prefixes).

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::jvm::expr::StrExpr;
use crate::jvm::index::{element_type, Index, TypeId};
use crate::jvm::outline::{self, find, Annotation, JFile, Lang, TypeKind};
use crate::jvm::tokens::{close_of, dotted, split_commas, Kind};
use crate::jvm::ANNOTATION_VERBS as VERBS;
use crate::spring::link::ANY_METHODS as ANY_METHOD;
use crate::spring::params::{simple, SIMPLE_TYPES};
use crate::vertx::scan::var_type;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    File(JFile),
    /// `annotatedService([prefix,] new X(…))` in file `path`.
    Service {
        path: String,
        prefix: Option<StrExpr>,
        class: String,
    },
    /// `service("/x", (ctx, req) -> …)`.
    Lambda {
        path: String,
        pattern: StrExpr,
        line: u32,
    },
}

/// Parameter types injected by Armeria, not sent by the client.
const CONTEXT_TYPES: [&str; 9] = [
    "ServiceRequestContext",
    "HttpRequest",
    "AggregatedHttpRequest",
    "RequestHeaders",
    "HttpHeaders",
    "QueryParams",
    "Cookies",
    "RequestContext",
    "HttpParameters",
];

pub fn analyze(file: &SourceFile, out: &mut Output) {
    if is_test_path(&file.path) || !file.path.ends_with(".java") {
        return;
    }
    let outline = outline::parse(file, Lang::Java);
    if !outline.types.is_empty() {
        out.fact(&Fact::File(outline));
    }
    if !file.content.contains("Service") {
        return;
    }
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[crate::jvm::tokens::Token] = &toks.0;
    let src = file.content.as_str();
    let expr = crate::jvm::expr::range_parser(t, src, false);
    for i in 1..t.len() {
        if !t[i - 1].is('.') || !t.get(i + 1).is_some_and(|x| x.is('(')) {
            continue;
        }
        let word = t[i].text.as_str();
        if word != "annotatedService" && word != "service" {
            continue;
        }
        let close = close_of(t, i + 1).unwrap_or(t.len());
        let args = split_commas(t, i + 2, close);
        if word == "service" {
            if let [p, h] = args.as_slice() {
                let lambda = (h.start..h.end)
                    .any(|k| t[k].is('-') && t.get(k + 1).is_some_and(|x| x.is('>')));
                if let (true, Some(pattern)) = (lambda, expr(p.clone())) {
                    out.fact(&Fact::Lambda {
                        path: file.path.clone(),
                        pattern,
                        line: file.line_of(t[i].start),
                    });
                }
            }
            continue;
        }
        // The service argument: the first one that is not a string.
        let (prefix, svc) = match args.as_slice() {
            [] => continue,
            [s, ..]
                if t[s.start].kind != Kind::Str
                    && expr(s.clone()).is_none_or(|e| e.as_name().is_some())
                    && !is_const(t, s.start) =>
            {
                (None, s.clone())
            }
            [p, s, ..] => (expr(p.clone()), s.clone()),
            _ => continue,
        };
        let class = if t[svc.start].is_ident("new") {
            dotted(t, svc.start + 1).map(|d| d.0.rsplit('.').next().unwrap_or_default().to_string())
        } else if t[svc.start].kind == Kind::Ident {
            Some(var_type(t, &t[svc.start].text))
        } else {
            None
        };
        if let Some(class) = class {
            out.fact(&Fact::Service {
                path: file.path.clone(),
                prefix,
                class,
            });
        }
    }
}

/// An upper-case constant (`API_PREFIX`, `Paths.V1`) used as a prefix.
fn is_const(t: &[crate::jvm::tokens::Token], i: usize) -> bool {
    dotted(t, i).is_some_and(|(n, _)| {
        let last = n.rsplit('.').next().unwrap_or_default();
        last.len() > 1
            && last
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
    })
}

fn verbs(anns: &[Annotation]) -> Vec<(&Annotation, &'static str)> {
    anns.iter()
        .filter_map(|a| {
            VERBS
                .iter()
                .find(|(n, _)| *n == a.name)
                .map(|(_, v)| (a, *v))
        })
        .collect()
}

/// `exact:/x` → `/x`; `None` for regex/glob patterns.
fn pattern(p: &str) -> Option<String> {
    if p.starts_with("regex:") || p.starts_with("glob:") {
        return None;
    }
    let p = p
        .strip_prefix("exact:")
        .or_else(|| p.strip_prefix("prefix:"))
        .unwrap_or(p);
    Some(p.to_string())
}

/// `xRequestId` → `x-request-id`.
fn hyphen(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_uppercase() {
            out.push('-');
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

pub fn link(facts: Vec<Fact>) -> Vec<Endpoint> {
    let mut files: Vec<JFile> = Vec::new();
    let mut services: Vec<(String, Option<StrExpr>, String)> = Vec::new();
    let mut lambdas: Vec<(String, StrExpr, u32)> = Vec::new();
    for f in facts {
        match f {
            Fact::File(j) => files.push(j),
            Fact::Service {
                path,
                prefix,
                class,
            } => services.push((path, prefix, class)),
            Fact::Lambda {
                path,
                pattern,
                line,
            } => lambdas.push((path, pattern, line)),
        }
    }
    let idx = Index::new(&files);
    let file_idx = |path: &str| files.iter().position(|f| f.path == path);
    let eval_in = |path: &str, e: &StrExpr| match e.literal() {
        Some(v) => Some(v),
        None => {
            let f = file_idx(path)?;
            let ctx = (!files[f].types.is_empty()).then_some((f, 0usize));
            idx.eval(f, ctx, e)
        }
    };
    let mut out = Vec::new();
    let ids: Vec<TypeId> = idx.all().collect();
    for id in ids {
        let t = idx.ty(id);
        if t.kind != TypeKind::Class || t.is_abstract() {
            continue;
        }
        let lineage = idx.lineage(id);
        if !lineage.iter().any(|o| {
            idx.ty(*o)
                .methods
                .iter()
                .any(|m| !verbs(&m.annotations).is_empty())
        }) {
            continue;
        }
        let mut prefixes: Vec<String> = services
            .iter()
            .filter(|(_, _, c)| *c == t.name)
            .filter_map(|(p, e, _)| match e {
                Some(e) => eval_in(p, e),
                None => Some(String::new()),
            })
            .collect();
        if prefixes.is_empty() {
            prefixes.push(String::new());
        }
        let class_prefix = lineage
            .iter()
            .find_map(|o| idx.ty(*o).annotation("PathPrefix").map(|a| (*o, a)))
            .and_then(|(o, a)| {
                a.items(&["value"])
                    .first()
                    .and_then(|e| idx.eval(o.0, Some(o), e))
            })
            .unwrap_or_default();
        let mut seen: Vec<(&str, usize)> = Vec::new();
        for owner in &lineage {
            for m in &idx.ty(*owner).methods {
                let vs = verbs(&m.annotations);
                if vs.is_empty() {
                    continue;
                }
                let key = (m.name.as_str(), m.params.len());
                if seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                let eval = |e: &StrExpr| idx.eval(owner.0, Some(*owner), e);
                let path_ann = find(&m.annotations, "Path")
                    .and_then(|a| a.items(&["value"]).first().and_then(eval));
                for (a, http) in vs {
                    let raw = match a.items(&["value"]).first() {
                        Some(e) => eval(e),
                        None => path_ann.clone().or_else(|| Some("/".to_string())),
                    };
                    let Some(p) = raw.as_deref().and_then(pattern) else {
                        continue;
                    };
                    for prefix in &prefixes {
                        let url = join_path(&[prefix.as_str(), &class_prefix, &p]);
                        let params = params(&idx, *owner, m, &url);
                        out.push(
                            Endpoint::new(http, url)
                                .at_path(idx.file(*owner).path.clone(), a.line)
                                .params(params),
                        );
                    }
                }
            }
        }
    }
    for (path, e, line) in &lambdas {
        let Some(p) = eval_in(path, e).as_deref().and_then(pattern) else {
            continue;
        };
        for m in ANY_METHOD {
            out.push(Endpoint::new(m, join_path(&[p.as_str()])).at_path(path.clone(), *line));
        }
    }
    out
}

fn params(idx: &Index, owner: TypeId, m: &crate::jvm::outline::Method, url: &str) -> Vec<Param> {
    let f = owner.0;
    let named = |a: &Annotation| {
        a.items(&["value", "name"])
            .first()
            .and_then(|e| idx.eval(f, Some(owner), e))
            .filter(|v| !v.is_empty())
    };
    let in_url = |n: &str| {
        url.contains(&format!("{{{n}}}")) || url.split('/').any(|s| s.strip_prefix(':') == Some(n))
    };
    let mut out: Vec<Param> = Vec::new();
    for p in &m.params {
        let anns = &p.annotations;
        let default = find(anns, "Default")
            .and_then(|a| {
                a.items(&["value"])
                    .first()
                    .and_then(|e| idx.eval(f, Some(owner), e))
            })
            .unwrap_or_default();
        let ty = simple(element_type(&p.ty));
        if let Some(a) = find(anns, "Param") {
            let name = named(a).unwrap_or_else(|| p.name.clone());
            if in_url(&name) {
                out.push(Param::path(name));
            } else {
                out.push(Param::query(name).value(default));
            }
        } else if let Some(a) = find(anns, "Header") {
            let name = named(a).unwrap_or_else(|| hyphen(&p.name));
            out.push(Param::header(name).value(default));
        } else if find(anns, "RequestObject").is_some()
            || (anns.is_empty() && !CONTEXT_TYPES.contains(&ty) && !SIMPLE_TYPES.contains(&ty))
        {
            for name in idx.dto_fields(f, &p.ty).unwrap_or_default() {
                out.push(Param::json(name));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_and_header_names() {
        assert_eq!(pattern("exact:/a").as_deref(), Some("/a"));
        assert_eq!(pattern("regex:^/a$"), None);
        assert_eq!(hyphen("xRequestId"), "x-request-id");
    }
}
