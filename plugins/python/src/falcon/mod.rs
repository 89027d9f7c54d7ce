//! Falcon (`python_falcon`).
//!
//! Routes: `app.add_route(template, resource[, suffix='x'])` on any Falcon
//! app (`falcon.App()`, `falcon.asgi.App()`, `falcon.API()`), with the
//! resource an instance (`things = ThingsResource()`, also inline) of a
//! class of the tree; the methods are the resource's `on_get`, `on_post`, …
//! (`on_get_x` with a suffix), also inherited from in-tree bases. Templates
//! may be built from constants. `{id:int}` converters are dropped.
//!
//! Route tables: `ROUTES = [('/things', ThingsResource()), …]` (a
//! module constant, or the list a function returns: `def routes(app):
//! return [...]`) registered in a loop, `for uri, res in ROUTES:
//! app.add_route(PREFIX + uri, res)` (also `for uri, res in routes(app)`,
//! the table possibly imported from another module): each row is a route,
//! reported at the row's line.
//!
//! Parameters, read through the responder's request argument (`req`):
//! `get_param*('x')` and `params['x']` → query, `get_header('X')` and
//! `headers` → header, `get_cookie_values('x')` and `cookies` → cookie,
//! `media` / `await get_media()` → json.

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::Code;
use serde::{Deserialize, Serialize};
use std::ops::Range;

use crate::py::call::{call_at, method_call, whole_dotted};
use crate::py::classes::class_info;
use crate::py::lines::logical_lines;
use crate::py::module::{assignment_target, ModuleInfo};
use crate::py::outline::{outline, DefKind};
use crate::py::project::{Binding, Project};
use crate::py::request::{find_word_in, request_params_with};
use crate::py::strexpr::StrExpr;

pub struct Falcon;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FalconModule {
    pub info: ModuleInfo,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<RouteFact>,
    /// `name = Class(...)`: (name, dotted class).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<Resource>,
    /// Route tables: module constants and function return lists.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<RouteTable>,
    /// `add_route` calls in loops over a table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loops: Vec<LoopRoute>,
}

/// Rows of a route table: (line, template, resource or table name).
pub type Rows = Vec<(u32, StrExpr, String)>;

/// `NAME = [(template, resource), …]` or `def name(…): return [...]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteTable {
    pub name: String,
    /// (line, template, resource instance name or class callee).
    pub rows: Vec<(u32, StrExpr, String)>,
}

/// `for var, res in table: app.add_route(PREFIX + var, res)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopRoute {
    pub template: StrExpr,
    /// The loop variable holding the row's template.
    pub var: String,
    /// The iterated table: a (dotted) name or a function's callee.
    pub table: String,
    /// When the table is itself the loop variable of an outer `for prefix,
    /// table in catalog:` over a list built in the function: that
    /// variable's name and the catalog's (prefix, table) rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outer: Option<(String, Rows)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteFact {
    pub line: u32,
    pub template: StrExpr,
    /// An instance name, or the class of an inline `Class()`.
    pub resource: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resource {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bases: Vec<String>,
    /// `on_*` responders: (name without `on_`, params).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub responders: Vec<(String, Vec<Param>)>,
}

fn sources(attr: &str) -> Option<ParamKind> {
    Some(match attr {
        "params" => ParamKind::Query,
        "headers" => ParamKind::Header,
        "cookies" => ParamKind::Cookie,
        "media" | "get_media" => ParamKind::Json,
        _ => return None,
    })
}

/// Reads through the request argument `req` in `body`.
fn responder_params(
    code: &Code<'_>,
    body: Range<usize>,
    req: &str,
    info: &ModuleInfo,
) -> Vec<Param> {
    let text = code.text();
    let key = |e: &StrExpr| e.resolve(&mut |n| info.constant(n)?.value.literal());
    let mut found: Vec<(usize, Param)> = Vec::new();
    for occ in find_word_in(code, req, body.clone()) {
        let Some(rest) = text
            .get(occ + req.len()..body.end)
            .and_then(|r| r.strip_prefix('.'))
        else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let kind = match name.as_str() {
            n if n.starts_with("get_param") => ParamKind::Query,
            "get_header" => ParamKind::Header,
            "get_cookie_values" => ParamKind::Cookie,
            _ => continue,
        };
        let open = occ + req.len() + 1 + name.len();
        if text.as_bytes().get(open) != Some(&b'(') {
            continue;
        }
        if let Some(k) = code
            .args(open)
            .into_iter()
            .next()
            .and_then(|r| StrExpr::parse(code, r))
            .and_then(|e| key(&e))
        {
            found.push((occ, Param::new(kind, k)));
        }
    }
    found.sort_by_key(|(o, _)| *o);
    let mut out: Vec<Param> = Vec::new();
    let more = request_params_with(code, body, &[req.to_string()], &key, &sources, false);
    for p in found.into_iter().map(|(_, p)| p).chain(more) {
        if !out.iter().any(|q| q.name == p.name && q.kind == p.kind) {
            out.push(p);
        }
    }
    out
}

fn scan(file: &SourceFile) -> FalconModule {
    let code = file.python();
    let lines = logical_lines(&code);
    let info = ModuleInfo::parse(&file.path, &code, &lines);
    let defs = outline(&code, &lines);
    let mut module = FalconModule::default();
    for line in &lines {
        let Some((name, value)) = assignment_target(&code, line) else {
            continue;
        };
        if let Some(call) = call_at(&code, code.skip_ws(value)) {
            if call.method().starts_with(|c: char| c.is_ascii_uppercase()) {
                module.instances.push((name, call.callee.clone()));
            }
        }
    }
    for at in code.find_all(".add_route(") {
        let Some(call) = method_call(&code, at) else {
            continue;
        };
        let (Some(template), Some(res)) = (
            call.arg(0, "uri_template")
                .and_then(|r| StrExpr::parse(&code, r)),
            call.arg(1, "resource"),
        ) else {
            continue;
        };
        if let Some(l) = loop_route(&code, &lines, call.start, &template, res.clone()) {
            module.loops.push(l);
            continue;
        }
        let resource = match whole_dotted(&code, res.clone()) {
            Some(n) => n,
            None => match call_at(&code, res.start) {
                Some(c) => c.callee,
                None => continue,
            },
        };
        module.routes.push(RouteFact {
            line: file.line_of(call.start),
            template,
            resource,
            suffix: call
                .keyword("suffix")
                .and_then(|r| code.string_at(r.start))
                .map(|l| l.value),
        });
    }
    for (i, def) in defs.iter().enumerate() {
        if def.kind != DefKind::Class {
            continue;
        }
        let responders: Vec<(String, Vec<Param>)> = defs
            .iter()
            .filter(|d| d.is_child_of(i) && d.kind == DefKind::Function)
            .filter_map(|d| {
                let what = d.name.strip_prefix("on_")?;
                let req = d
                    .open_paren
                    .and_then(|o| code.args(o).get(1).cloned())
                    .and_then(|r| code.ident_at(r.start).map(str::to_string))
                    .unwrap_or_else(|| "req".to_string());
                Some((
                    what.to_string(),
                    responder_params(&code, d.body.clone(), &req, &info),
                ))
            })
            .collect();
        let bases = class_info(&code, &lines, &defs, i)
            .map(|c| c.bases)
            .unwrap_or_default();
        if !responders.is_empty() || !bases.is_empty() {
            module.classes.push(Resource {
                name: def.name.clone(),
                bases,
                responders,
            });
        }
    }
    module.tables = route_tables(file, &code, &lines, &defs);
    module.info = info;
    module
}

/// An `add_route(… var …, res)` inside `for var, res in table:`.
fn loop_route(
    code: &Code<'_>,
    lines: &[crate::py::lines::LogicalLine],
    at: usize,
    template: &StrExpr,
    res: Range<usize>,
) -> Option<LoopRoute> {
    let res = code.ident_at(code.skip_ws(res.start))?;
    template.0.iter().find_map(|p| match p {
        crate::py::strexpr::Piece::Ref(var) if !var.contains('.') => {
            let iter = crate::py::loops::pair_loop_iter(code, lines, at, var, res)?;
            let table = match whole_dotted(code, iter.clone()) {
                Some(n) => n,
                None => {
                    let c = call_at(code, iter.start)?;
                    (code.skip_ws(c.close + 1) >= iter.end).then_some(c.callee)?
                }
            };
            let outer = (!table.contains('.'))
                .then(|| outer_catalog(code, lines, at, &table))
                .flatten();
            Some(LoopRoute {
                template: template.clone(),
                var: var.clone(),
                table,
                outer,
            })
        }
        _ => None,
    })
}

/// `for prefix, table in catalog:` enclosing `at`, with `catalog` a list
/// of `(prefix, table_function(...))` pairs assigned (`catalog = [...]`)
/// or grown (`catalog.extend([...])`, `catalog.append((...))`) in the
/// lines before the loop.
fn outer_catalog(
    code: &Code<'_>,
    lines: &[crate::py::lines::LogicalLine],
    at: usize,
    table: &str,
) -> Option<(String, Rows)> {
    let (prefix, _, iter, header) =
        crate::py::loops::pair_loop(code, lines, at, &|_, b| b == table)?;
    let catalog = code.ident_at(iter.start)?;
    if code.skip_ws(iter.start + catalog.len()) < iter.end {
        return None;
    }
    let indent = lines.get(header)?.indent;
    let mut rows = Vec::new();
    for line in lines[..header].iter().rev() {
        let text = line.text(code);
        let value = if let Some(rest) = text
            .strip_prefix(catalog)
            .and_then(|r| r.trim_start().strip_prefix('='))
            .filter(|r| !r.starts_with('='))
        {
            Some((line.start + (text.len() - rest.len()), true))
        } else {
            [".extend(", ".append("].iter().find_map(|m| {
                let rest = text.strip_prefix(catalog)?.strip_prefix(m)?;
                Some((line.start + (text.len() - rest.len()) - 1, false))
            })
        };
        if let Some((value, assigned)) = value {
            let start = if assigned {
                value
            } else {
                // The argument list `(…)`: its single element.
                code.args(value).first()?.start
            };
            let found = if text.contains(".append(") {
                let end = code.matching(value)?;
                table_rows_of_elems(code, std::iter::once(start..end).collect())
            } else {
                table_rows_at(code, start)
            };
            rows.extend(found);
            if assigned {
                break;
            }
        }
        if line.indent < indent && text.starts_with("def ") {
            break;
        }
    }
    (!rows.is_empty()).then_some((prefix, rows))
}

fn table_rows_at(code: &Code<'_>, value: usize) -> Vec<(u32, StrExpr, String)> {
    let open = code.skip_ws(value);
    if !matches!(code.text().as_bytes().get(open), Some(b'[' | b'(')) {
        return Vec::new();
    }
    table_rows_of_elems(code, code.args(open))
}

fn table_rows_of_elems(code: &Code<'_>, elems: Vec<Range<usize>>) -> Vec<(u32, StrExpr, String)> {
    elems
        .into_iter()
        .filter_map(|elem| {
            let o = code.skip_ws(elem.start);
            if code.text().as_bytes().get(o) != Some(&b'(') {
                return None;
            }
            let parts = code.args(o);
            let [t, r] = parts.as_slice() else {
                return None;
            };
            let template = StrExpr::parse(code, t.clone())?;
            let target = match whole_dotted(code, r.clone()) {
                Some(n) => n,
                None => call_at(code, code.skip_ws(r.start))?.callee,
            };
            Some((0, template, target))
        })
        .collect()
}

/// The rows of a list/tuple literal of `(template, resource)` pairs.
fn table_rows(file: &SourceFile, code: &Code<'_>, value: usize) -> Vec<(u32, StrExpr, String)> {
    let open = code.skip_ws(value);
    if !matches!(code.text().as_bytes().get(open), Some(b'[' | b'(')) {
        return Vec::new();
    }
    code.args(open)
        .into_iter()
        .filter_map(|elem| {
            let o = code.skip_ws(elem.start);
            if code.text().as_bytes().get(o) != Some(&b'(') {
                return None;
            }
            let parts = code.args(o);
            let [t, r] = parts.as_slice() else {
                return None;
            };
            let template = StrExpr::parse(code, t.clone())?;
            let resource = match whole_dotted(code, r.clone()) {
                Some(n) => n,
                None => call_at(code, code.skip_ws(r.start))?.callee,
            };
            Some((file.line_of(o), template, resource))
        })
        .collect()
}

/// Module constants holding route rows, and functions returning them.
fn route_tables(
    file: &SourceFile,
    code: &Code<'_>,
    lines: &[crate::py::lines::LogicalLine],
    defs: &[crate::py::outline::Def],
) -> Vec<RouteTable> {
    let mut out = Vec::new();
    for line in lines.iter().filter(|l| l.indent == 0) {
        if let Some((name, value)) = assignment_target(code, line) {
            let rows = table_rows(file, code, value);
            if !rows.is_empty() {
                out.push(RouteTable { name, rows });
            }
        }
    }
    for def in defs.iter().filter(|d| d.kind == DefKind::Function) {
        let ret = lines
            .iter()
            .skip(def.line + 1)
            .take_while(|l| l.start < def.body.end)
            .find_map(|l| {
                let text = l.text(code);
                let rest = text.strip_prefix("return")?;
                rest.starts_with([' ', '[', '('])
                    .then(|| l.start + (text.len() - rest.len()))
            });
        if let Some(value) = ret {
            let rows = table_rows(file, code, value);
            if !rows.is_empty() {
                out.push(RouteTable {
                    name: def.name.clone(),
                    rows,
                });
            }
        }
    }
    out
}

const METHODS: [&str; 7] = ["get", "post", "put", "patch", "delete", "head", "options"];

fn link(modules: &[FalconModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let is_local = |m: usize, n: &str| {
        modules.get(m).is_some_and(|md| {
            md.classes.iter().any(|c| c.name == n)
                || md.instances.iter().any(|(i, _)| i == n)
                || md.tables.iter().any(|t| t.name == n)
        })
    };
    let local = |m: usize, n: &str| match project.resolve(m, n, &is_local) {
        Some(Binding::Local { module, name }) => Some((module, name)),
        _ => None,
    };
    // The class of a resource name (instance or class), with its module.
    let class = |m: usize, n: &str| -> Option<(usize, &Resource)> {
        let (t, name) = local(m, n)?;
        let md = modules.get(t)?;
        if let Some(c) = md.classes.iter().find(|c| c.name == name) {
            return Some((t, c));
        }
        let (_, cls) = md.instances.iter().rev().find(|(i, _)| *i == name)?;
        let (ct, cname) = local(t, cls)?;
        modules
            .get(ct)?
            .classes
            .iter()
            .find(|c| c.name == cname)
            .map(|c| (ct, c))
    };
    let mut out = Vec::new();
    let mut emit =
        |cm: usize, resource: &str, suffix: Option<&String>, url: &str, path: &str, line: u32| {
            let mut chain: Vec<&Resource> = Vec::new();
            let mut stack: Vec<(usize, &Resource)> = class(cm, resource).into_iter().collect();
            while let Some((cm, c)) = stack.pop() {
                if chain.iter().any(|x| std::ptr::eq(*x, c)) || chain.len() > 32 {
                    continue;
                }
                chain.push(c);
                for b in &c.bases {
                    if let Some(p) = class(cm, b) {
                        stack.push(p);
                    }
                }
            }
            for method in METHODS {
                let wanted = match suffix {
                    Some(s) => format!("{method}_{s}"),
                    None => method.to_string(),
                };
                let Some(params) = chain
                    .iter()
                    .find_map(|c| c.responders.iter().find(|(n, _)| *n == wanted))
                    .map(|(_, p)| p.clone())
                else {
                    continue;
                };
                out.push(
                    Endpoint::new(method, url.to_string())
                        .at_path(path.to_string(), line)
                        .params(params),
                );
            }
        };
    for (m, module) in modules.iter().enumerate() {
        for r in &module.routes {
            let Some(template) = project.eval(m, &r.template, &is_local) else {
                continue;
            };
            let url = crate::fastapi::link::normalize_placeholders(&template);
            emit(
                m,
                &r.resource,
                r.suffix.as_ref(),
                &url,
                &module.info.path,
                r.line,
            );
        }
        for l in &module.loops {
            // (template with the outer prefix substituted, table name).
            let tables: Vec<(StrExpr, String)> = match &l.outer {
                None => vec![(l.template.clone(), l.table.clone())],
                Some((var, rows)) => rows
                    .iter()
                    .filter_map(|(_, prefix, table)| {
                        let prefix = project.eval(m, prefix, &is_local)?;
                        Some((l.template.substitute(var, &prefix), table.clone()))
                    })
                    .collect(),
            };
            for (template, table) in tables {
                let l = LoopRoute {
                    template,
                    var: l.var.clone(),
                    table,
                    outer: None,
                };
                let Some((t, name)) = local(m, &l.table) else {
                    continue;
                };
                let Some(table) = modules
                    .get(t)
                    .and_then(|md| md.tables.iter().find(|x| x.name == name))
                else {
                    continue;
                };
                for (line, row, resource) in &table.rows {
                    let Some(row) = project.eval(t, row, &is_local) else {
                        continue;
                    };
                    let filled = l.template.substitute(&l.var, &row);
                    let Some(template) = project.eval(m, &filled, &is_local) else {
                        continue;
                    };
                    let url = crate::fastapi::link::normalize_placeholders(&template);
                    let path = modules.get(t).map(|md| md.info.path.as_str()).unwrap_or("");
                    emit(t, resource, None, &url, path, *line);
                }
            }
        }
    }
    out
}

impl Analyzer for Falcon {
    fn tech(&self) -> Tech {
        crate::py::tech::package_tech("falcon", "Falcon")
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        crate::py::tech::record(file, out, scan, |m| {
            !m.routes.is_empty()
                || !m.classes.is_empty()
                || !m.instances.is_empty()
                || !m.info.consts.is_empty()
                || !m.tables.is_empty()
                || !m.loops.is_empty()
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<FalconModule> = facts.all();
        Ok(link(&modules))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_suffixes_and_reads() {
        let app = "import falcon\nfrom things import ThingsResource, Base\nfrom config import PREFIX\n\napp = falcon.App()\nthings = ThingsResource()\napp.add_route(PREFIX + '/things', things)\napp.add_route(PREFIX + '/things/{thing_id:int}', things, suffix='detail')\napp.add_route('/inline', Base())\n";
        let res = "import falcon\n\nclass Base:\n    def on_get(self, req, resp):\n        resp.media = {}\n\nclass ThingsResource(Base):\n    def on_post(self, req, resp):\n        data = req.media\n        name = data['name']\n        token = req.get_header('X-Token')\n\n    async def on_get_detail(self, request, resp, thing_id):\n        fields = request.get_param_as_list('fields')\n        c = request.cookies['sid']\n";
        let got = crate::test_support::run_with(
            &Falcon,
            &[
                ("app.py", app),
                ("things.py", res),
                ("config.py", "PREFIX = '/v1'\n"),
            ],
            crate::test_support::SPACED,
        );
        assert_eq!(
            got,
            vec![
                "GET /inline []",
                "GET /v1/things []",
                "GET /v1/things/{thing_id} [query:fields, cookie:sid]",
                "POST /v1/things [header:X-Token, json:name]",
            ]
        );
    }
}
