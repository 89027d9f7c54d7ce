//! R: Plumber (`r_plumber`).
//!
//! Routes are annotation comments (`#*` or `#'`) before a function:
//! `#* @get /users/<id:int>` (`@post`, `@put`, `@delete`, `@patch`,
//! `@head`, `@options`, `@use` for every method), `#* @param name:type`
//! documenting parameters, and the programmatic API: `pr_get(pr, "/x",
//! handler)` (`pr_post`, …) and `pr$handle("GET", "/x", handler)`.
//! Routers mounted with `pr_mount("/api", plumb("api.R"))` /
//! `pr$mount("/api", plumb("api.R"))` prefix the routes of that file.
//!
//! Parameters: `@param` names and the handler's arguments (except `req`,
//! `res` and path placeholders) are query on GET, form otherwise;
//! `req$args$x`/`req$argsQuery$x` query, `req$argsBody$x`/`req$body$x`
//! json, `req$HTTP_X_TOKEN` header `X-Token`, `req$cookies$x` cookie.

use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::common::{self, join_url, method_of, reads, Kind, Read, ANY, R};

const READS: &[Read] = &[
    ("req$argsQuery$", Kind::Fixed(ParamKind::Query)),
    ("req$args$", Kind::QueryOrForm),
    ("req$argsBody$", Kind::Fixed(ParamKind::Json)),
    ("req$body$", Kind::Fixed(ParamKind::Json)),
    ("req$cookies$", Kind::Fixed(ParamKind::Cookie)),
];

#[derive(Serialize, Deserialize, Default)]
struct RFile {
    name: String,
    endpoints: Vec<Endpoint>,
    mounts: Vec<(String, String)>,
}

fn by_method(m: &str) -> ParamKind {
    if matches!(m, "GET" | "HEAD" | "DELETE") {
        ParamKind::Query
    } else {
        ParamKind::Form
    }
}

/// Arguments of the `function(…)` at or after `from`, and its body.
fn function_at(code: &Code, from: usize) -> Option<(Vec<String>, std::ops::Range<usize>)> {
    let text = code.text();
    let at = code.find_word_in("function", from..text.len()).next()?;
    let open = code.skip_ws(at + 8);
    let close = code.matching(open)?;
    let args = code
        .args(open)
        .into_iter()
        .filter_map(|a| {
            let s = code.slice(a);
            let n = s.split('=').next().unwrap_or("").trim();
            (!n.is_empty() && n != "..." && n != "req" && n != "res").then(|| n.to_string())
        })
        .collect();
    let body_start = code.skip_ws(close + 1);
    let end = if text.as_bytes().get(body_start) == Some(&b'{') {
        code.matching(body_start).unwrap_or(text.len())
    } else {
        portolan_plugin_sdk::text::line_end_of(text, body_start)
    };
    Some((args, body_start..end))
}

fn headers(code: &Code, body: std::ops::Range<usize>, e: &mut Endpoint) {
    let text = code.text();
    for at in code.find_all_in("req$HTTP_", body) {
        let start = at + 9;
        let end = text[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(text.len(), |i| start + i);
        let name = text[start..end]
            .split('_')
            .map(|w| {
                let w = w.to_ascii_lowercase();
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join("-");
        let p = Param::header(name);
        if !e.params.contains(&p) {
            e.push_param(p);
        }
    }
}

fn route(
    code: &Code,
    file: &SourceFile,
    methods: &[&str],
    path: &str,
    line: u32,
    declared: &[String],
    func: Option<(Vec<String>, std::ops::Range<usize>)>,
) -> Vec<Endpoint> {
    let mut out = Vec::new();
    for m in methods {
        let mut params: Vec<Param> = declared
            .iter()
            .map(|n| Param::new(by_method(m), n))
            .collect();
        if let Some((args, body)) = &func {
            for a in args {
                params.push(Param::new(by_method(m), a));
            }
            params.extend(reads(code, body.clone(), READS, m));
        }
        let mut uniq: Vec<Param> = Vec::new();
        for p in params {
            if !uniq.iter().any(|q| q.name == p.name) {
                uniq.push(p);
            }
        }
        let mut e = common::endpoint(m, path, file, line, uniq);
        if let Some((_, body)) = &func {
            headers(code, body.clone(), &mut e);
        }
        out.push(e);
    }
    out
}

pub struct Plumber;

impl Analyzer for Plumber {
    fn tech(&self) -> Tech {
        Tech::new("r_plumber", "R", "Plumber")
            .aliases(["plumber", "r-plumber"])
            .files(["*.R", "*.r"])
            .detect(Detect::files(["*.R", "*.r"]).regex([
                r"(?m)^#[*']\s*@(get|post|put|delete|patch)\s",
                r"library\(plumber\)",
                r"plumber::",
            ]))
            .detect(Detect::files(["DESCRIPTION"]).contains(["plumber"]))
            .supports(Supports::HTTP)
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let code = file.code(R);
        let src = &file.content;
        let mut f = RFile {
            name: file.path.rsplit('/').next().unwrap_or("").to_string(),
            ..RFile::default()
        };
        // Annotation blocks.
        let mut pending: Vec<(Vec<&str>, String, u32)> = Vec::new();
        let mut params: Vec<String> = Vec::new();
        let mut offset = 0;
        for raw in src.split_inclusive('\n') {
            let at = offset;
            offset += raw.len();
            let line = raw.trim();
            let Some(ann) = line.strip_prefix("#*").or_else(|| line.strip_prefix("#'")) else {
                if !line.is_empty() && !line.starts_with('#') && !pending.is_empty() {
                    // The annotated expression: a function (possibly on a later line).
                    let func = function_at(&code, at);
                    for (methods, path, l) in pending.drain(..) {
                        f.endpoints.extend(route(
                            &code,
                            file,
                            &methods,
                            &path,
                            l,
                            &params,
                            func.clone(),
                        ));
                    }
                    params.clear();
                } else if !line.starts_with('#') && pending.is_empty() {
                    params.clear();
                }
                continue;
            };
            let ann = ann.trim();
            let Some(tag) = ann.strip_prefix('@') else {
                continue;
            };
            let mut words = tag.split_whitespace();
            let Some(kw) = words.next() else { continue };
            let arg = words.next().unwrap_or("");
            match kw {
                "param" => {
                    let name = arg.split(':').next().unwrap_or("").trim_end_matches('*');
                    if !name.is_empty() {
                        params.push(name.to_string());
                    }
                }
                "use" if arg.starts_with('/') => {
                    pending.push((ANY.to_vec(), arg.to_string(), file.line_of(at)))
                }
                k => {
                    if let (Some(m), true) = (method_of(k), arg.starts_with('/')) {
                        pending.push((vec![m], arg.to_string(), file.line_of(at)));
                    }
                }
            }
        }
        // pr_get(pr, "/x", handler) and pr$handle("GET", "/x", handler).
        for verb in [
            "pr_get",
            "pr_post",
            "pr_put",
            "pr_delete",
            "pr_patch",
            "pr_head",
        ] {
            for at in code.find_word(verb) {
                let open = code.skip_ws(at + verb.len());
                let args = code.args(open);
                let Some(p) = args.iter().find_map(|a| {
                    code.string_at(a.start)
                        .filter(|s| s.start == a.start && s.value.starts_with('/'))
                }) else {
                    continue;
                };
                let m = method_of(&verb[3..]).unwrap_or("GET");
                let func = function_at(&code, p.end)
                    .filter(|(_, b)| args.last().is_some_and(|l| b.start <= l.end));
                f.endpoints.extend(route(
                    &code,
                    file,
                    &[m],
                    &p.value,
                    file.line_of(at),
                    &[],
                    func,
                ));
            }
        }
        for at in code.find_all("$handle(") {
            let open = at + 7;
            let args = code.args(open);
            let (Some(m), Some(p)) = (
                args.first().and_then(|a| code.string_at(a.start)),
                args.get(1).and_then(|a| code.string_at(a.start)),
            ) else {
                continue;
            };
            let Some(m) = method_of(&m.value) else {
                continue;
            };
            let func = function_at(&code, p.end)
                .filter(|(_, b)| args.last().is_some_and(|l| b.start <= l.end));
            f.endpoints.extend(route(
                &code,
                file,
                &[m],
                &p.value,
                file.line_of(at),
                &[],
                func,
            ));
        }
        // Mounts.
        for needle in ["pr_mount(", "$mount("] {
            for at in code.find_all(needle) {
                let open = at + needle.len() - 1;
                let args = code.args(open);
                let Some(p) = args.iter().find_map(|a| {
                    code.string_at(a.start)
                        .filter(|s| s.start == a.start && s.value.starts_with('/'))
                }) else {
                    continue;
                };
                let rest = code.slice(open..code.matching(open).unwrap_or(open));
                if let Some(i) = rest.find("plumb(") {
                    if let Some(target) = code.string_at(open + i + 6) {
                        let name = target.value.rsplit('/').next().unwrap_or("").to_string();
                        f.mounts.push((p.value, name));
                    }
                }
            }
        }
        if !f.endpoints.is_empty() || !f.mounts.is_empty() {
            out.fact(&f);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<RFile> = facts.all();
        let mut parents: HashMap<&str, Vec<(&str, &str)>> = HashMap::new();
        for f in &files {
            for (prefix, target) in &f.mounts {
                parents
                    .entry(target.as_str())
                    .or_default()
                    .push((f.name.as_str(), prefix.as_str()));
            }
        }
        fn prefixes(
            name: &str,
            parents: &HashMap<&str, Vec<(&str, &str)>>,
            seen: &mut HashSet<String>,
        ) -> Vec<String> {
            match parents.get(name) {
                Some(ps) if seen.insert(name.to_string()) => {
                    let mut out = Vec::new();
                    for (parent, prefix) in ps {
                        for pp in prefixes(parent, parents, seen) {
                            out.push(join_url(&[&pp, prefix]));
                        }
                    }
                    seen.remove(name);
                    out
                }
                _ => vec![String::new()],
            }
        }
        let mut out = Vec::new();
        for f in &files {
            let ps = prefixes(&f.name, &parents, &mut HashSet::new());
            for e in &f.endpoints {
                for p in &ps {
                    let mut e = e.clone();
                    if !p.is_empty() {
                        e.url = join_url(&[p, &e.url]);
                    }
                    out.push(e);
                }
            }
        }
        Ok(out)
    }
}
