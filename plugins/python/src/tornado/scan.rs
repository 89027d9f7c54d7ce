//! Map step: route tuples and handler classes.

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile};
use serde::{Deserialize, Serialize};
use std::ops::Range;

use super::TornadoModule;
use crate::py::call::{call_at, whole_dotted};
use crate::py::classes::class_info;
use crate::py::lines::logical_lines;
use crate::py::module::ModuleInfo;
use crate::py::outline::{outline, DefKind};
use crate::py::request::{find_word_in, request_params_with};
use crate::py::signature::signature;
use crate::py::strexpr::StrExpr;

use crate::starlette::facts::METHOD_FUNCS;

/// `(pattern, Handler, …)` or `url(pattern, Handler, …)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteTuple {
    pub line: u32,
    pub pattern: StrExpr,
    pub handler: String,
}

/// A class with bases and its HTTP method functions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandlerClass {
    pub name: String,
    pub bases: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub methods: Vec<Method>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Method {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
    /// Positional parameters after `self` (up to a `*args`): what the
    /// pattern's unnamed groups are passed as.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
}

fn source(attr: &str) -> Option<ParamKind> {
    Some(match attr {
        "headers" => ParamKind::Header,
        "files" => ParamKind::File,
        // Only through an alias: `data = json.loads(self.request.body)`.
        "body" => ParamKind::Json,
        _ => return None,
    })
}

/// Parameters a handler method reads.
fn method_params(
    code: &Code<'_>,
    body: Range<usize>,
    method: &str,
    info: &ModuleInfo,
) -> Vec<Param> {
    let text = code.text();
    let mut found: Vec<(usize, Param)> = Vec::new();
    let argument_kind = if matches!(method, "get" | "head" | "delete" | "options") {
        ParamKind::Query
    } else {
        ParamKind::Form
    };
    for occ in find_word_in(code, "self", body.clone()) {
        let Some(rest) = text.get(occ + 4..body.end) else {
            continue;
        };
        let Some(rest) = rest.strip_prefix('.') else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let kind = match name.as_str() {
            "get_argument" | "get_arguments" => argument_kind,
            "get_query_argument" | "get_query_arguments" => ParamKind::Query,
            "get_body_argument" | "get_body_arguments" => ParamKind::Form,
            "get_cookie" | "get_secure_cookie" | "get_signed_cookie" => ParamKind::Cookie,
            _ => continue,
        };
        let open = occ + 5 + name.len();
        if text.as_bytes().get(open) != Some(&b'(') {
            continue;
        }
        let Some(first) = code.args(open).into_iter().next() else {
            continue;
        };
        let Some(key) = StrExpr::parse(code, first)
            .and_then(|e| e.resolve(&mut |n| info.constant(n)?.value.literal()))
        else {
            continue;
        };
        found.push((occ, Param::new(kind, key)));
    }
    let names = ["request".to_string()];
    let key = |e: &StrExpr| e.resolve(&mut |n| info.constant(n)?.value.literal());
    let mut out: Vec<Param> = Vec::new();
    found.sort_by_key(|(o, _)| *o);
    for (_, p) in found {
        if !out.iter().any(|q| q.name == p.name && q.kind == p.kind) {
            out.push(p);
        }
    }
    for p in request_params_with(code, body, &names, &key, &source, true) {
        if !out.iter().any(|q| q.name == p.name && q.kind == p.kind) {
            out.push(p);
        }
    }
    out
}

pub fn scan(file: &SourceFile) -> TornadoModule {
    let code = file.python();
    let lines = logical_lines(&code);
    let info = ModuleInfo::parse(&file.path, &code, &lines);
    let defs = outline(&code, &lines);
    let mut module = TornadoModule::default();

    // Route tuples: `(pattern, Name…)` items of list literals, `url(…)` calls.
    for line in &lines {
        let bytes = code.text().as_bytes();
        for i in line.start..line.end {
            if bytes.get(i) != Some(&b'[') || !code.is_code(i) {
                continue;
            }
            for item in code.args(i) {
                let start = code.skip_ws(item.start);
                let args = match bytes.get(start) {
                    Some(b'(') => code.args(start),
                    _ => match call_at(&code, start) {
                        Some(c) if c.method() == "url" || c.method() == "URLSpec" => {
                            code.args(c.open)
                        }
                        _ => continue,
                    },
                };
                let (Some(p), Some(h)) = (args.first(), args.get(1)) else {
                    continue;
                };
                let (Some(pattern), Some(handler)) = (
                    StrExpr::parse(&code, p.clone()),
                    whole_dotted(&code, h.clone()),
                ) else {
                    continue;
                };
                let route = RouteTuple {
                    line: file.line_of(start),
                    pattern,
                    handler,
                };
                if !module.routes.contains(&route) {
                    module.routes.push(route);
                }
            }
        }
    }
    for (i, def) in defs.iter().enumerate() {
        if def.kind != DefKind::Class || def.open_paren.is_none() {
            continue;
        }
        let Some(info_c) = class_info(&code, &lines, &defs, i) else {
            continue;
        };
        if info_c.bases.is_empty() {
            continue;
        }
        let methods = defs
            .iter()
            .filter(|d| d.is_child_of(i) && d.kind == DefKind::Function)
            .filter(|d| METHOD_FUNCS.contains(&d.name.as_str()))
            .map(|d| Method {
                name: d.name.clone(),
                params: method_params(&code, d.body.clone(), &d.name, &info),
                args: signature(&code, d)
                    .into_iter()
                    .skip(1)
                    .take_while(|p| !p.star)
                    .map(|p| p.name)
                    .collect(),
            })
            .collect();
        module.classes.push(HandlerClass {
            name: def.name.clone(),
            bases: info_c.bases,
            methods,
        });
    }
    module.info = info;
    module
}
