//! Map step: Feathers apps, `app.use(path, service, options)` calls,
//! service classes with their methods, and string-array constants.

use std::ops::Range;
use std::sync::OnceLock;

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile, Syntax};
use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::express::scan::paths_of;
use crate::js::module::{self, ModuleInfo, Value};
use crate::js::outline::{methods, object_entries, param_names, ScopeKind};
use crate::js::reads::{ordered, reads};
use crate::js::request::request_params;
use crate::js::strexpr::StrExpr;
use crate::js::syntax::dotted_before;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FeathersModule {
    pub info: ModuleInfo,
    /// The module imports a Feathers package.
    #[serde(default)]
    pub feathers: bool,
    /// Names bound to `feathers()`, `express(feathers())`, `koa(feathers())`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apps: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uses: Vec<Use>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<Class>,
    /// `const userMethods = ['find', 'get'] as const`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arrays: Vec<(String, Vec<String>)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Use {
    pub line: u32,
    pub receiver: String,
    pub paths: Vec<StrExpr>,
    pub service: Service,
    /// The `methods` option: a literal list or a constant's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub methods: Option<MethodsOpt>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MethodsOpt {
    List(Vec<String>),
    Ref(String),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Service {
    /// An object literal: its methods with the parameters they read.
    Inline(Vec<(String, Vec<Param>)>),
    /// Anything else (`new C()`, a name, a factory call).
    Value(Value),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Class {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extends: Option<String>,
    pub methods: Vec<(String, Vec<Param>)>,
}

pub const SPECS: &[&str] = &[
    "@feathersjs/feathers",
    "@feathersjs/express",
    "@feathersjs/koa",
    "feathers",
];

use crate::js::pattern::re;

/// Index of the `data` and `params` arguments of a service method.
fn arg_slots(method: &str) -> (Option<usize>, usize) {
    match method {
        "find" => (None, 0),
        "get" | "remove" => (None, 1),
        "create" => (Some(0), 1),
        "update" | "patch" => (Some(1), 2),
        _ => (Some(0), 1),
    }
}

/// What a service method reads: `params.query.x` (query),
/// `params.headers[…]` (header), `data.x` (JSON).
fn method_params(
    code: &Code<'_>,
    method: &str,
    params: Range<usize>,
    body: Range<usize>,
) -> Vec<Param> {
    let names = param_names(code, params);
    let (data, prm) = arg_slots(method);
    let mut out: Vec<Param> = Vec::new();
    if let Some(p) = names.get(prm).filter(|p| !p.is_empty()) {
        for x in request_params(code, body.clone(), p) {
            if matches!(x.kind, ParamKind::Query | ParamKind::Header) && !out.contains(&x) {
                out.push(x);
            }
        }
    }
    if let Some(d) = data.and_then(|i| names.get(i)).filter(|d| !d.is_empty()) {
        if let Some(src) = crate::js::pattern::regex(&format!(r"\b{}\b", regex::escape(d))) {
            for x in ordered(reads(code, body, &src, ParamKind::Json)) {
                if !out.contains(&x) {
                    out.push(x);
                }
            }
        }
    }
    out
}

pub fn scan(file: &SourceFile) -> FeathersModule {
    let code = file.code(Syntax::JAVASCRIPT);
    let outline = module::outline(file, &code);
    let info = module::scanned(file, &code, &outline);
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = FeathersModule {
        feathers: info
            .imports
            .iter()
            .any(|i| SPECS.contains(&i.spec.as_str())),
        ..FeathersModule::default()
    };
    let locals: Vec<&str> = info
        .imports
        .iter()
        .filter(|i| SPECS.contains(&i.spec.as_str()))
        .map(|i| i.local.as_str())
        .collect();
    // Apps: `const app = feathers()`, `koa(feathers())`, `express(feathers())`.
    static APP: OnceLock<Regex> = OnceLock::new();
    let app = re(
        &APP,
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=\s*(?:[A-Za-z_$][\w$]*\(\s*)?([A-Za-z_$][\w$]*)\s*\(\s*\)",
    );
    for c in app.captures_iter(text) {
        let (Some(all), Some(name), Some(f)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        if code.is_code(all.start()) && (locals.contains(&f.as_str()) || f.as_str() == "feathers") {
            out.apps.push(outline.scoped(name.as_str(), name.start()));
        }
    }
    // Classes and their methods.
    for scope in outline.scopes.iter().filter(|s| s.kind == ScopeKind::Class) {
        let head = strip_generics(&text[scope.start..scope.body.start.min(text.len())]);
        let extends = head.split_once(" extends ").map(|(_, r)| {
            r.trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.'))
                .collect::<String>()
        });
        let ms = methods(&code, &outline, scope.body.clone())
            .into_iter()
            .filter(|m| m.name != "constructor" && !m.name.starts_with('_'))
            .map(|m| {
                let ps = method_params(&code, &m.name, m.params.clone(), m.body.clone());
                (m.name, ps)
            })
            .collect();
        out.classes.push(Class {
            name: scope.name.clone(),
            extends: extends.filter(|e| !e.is_empty()),
            methods: ms,
        });
    }
    // String arrays.
    static ARR: OnceLock<Regex> = OnceLock::new();
    let arr = re(
        &ARR,
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=\s*\[",
    );
    for c in arr.captures_iter(text) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        if let Some(list) = string_list(&code, all.end() - 1) {
            out.arrays
                .push((outline.scoped(name.as_str(), name.start()), list));
        }
    }
    // `x.use(path, service, options?)`.
    for at in code.find_all(".use") {
        let open = code.skip_ws(at + 4);
        if bytes.get(open) != Some(&b'(')
            || bytes
                .get(at + 4)
                .is_some_and(|b| crate::js::syntax::is_js_ident(*b))
        {
            continue;
        }
        let Some((receiver, _)) = dotted_before(&code, at) else {
            continue;
        };
        let args = code.args(open);
        let (Some(first), Some(second)) = (args.first(), args.get(1)) else {
            continue;
        };
        let paths = paths_of(&code, &outline, first.clone());
        if paths.is_empty() {
            continue;
        }
        let s = code.skip_ws(second.start);
        let service = if bytes.get(s) == Some(&b'{') {
            let entries = object_entries(&code, s);
            Service::Inline(
                entries
                    .into_iter()
                    .map(|e| {
                        let ps = e
                            .function
                            .map(|(p, b)| method_params(&code, &e.key, p, b))
                            .unwrap_or_default();
                        (e.key, ps)
                    })
                    .collect(),
            )
        } else {
            match module::parse_value(&code, &outline, second.clone()) {
                Some(v) => Service::Value(v),
                None => continue,
            }
        };
        let methods = args.get(2).and_then(|o| {
            let s = code.skip_ws(o.start);
            if bytes.get(s) != Some(&b'{') {
                return None;
            }
            let e = object_entries(&code, s)
                .into_iter()
                .find(|e| e.key == "methods")?;
            let v = code.skip_ws(e.value.start);
            if bytes.get(v) == Some(&b'[') {
                string_list(&code, v).map(MethodsOpt::List)
            } else {
                let name = code.slice(e.value.clone()).trim();
                let name = name.split_whitespace().next().unwrap_or(name);
                Some(MethodsOpt::Ref(outline.scoped(name, v)))
            }
        });
        out.uses.push(Use {
            line: file.line_of(at + 1),
            receiver: outline.scoped(&receiver, at),
            paths,
            service,
            methods,
        });
    }
    out.info = (*info).clone();
    out
}

/// `['a', "b"]` at `open` → its strings; `None` unless all are literals.
fn string_list(code: &Code<'_>, open: usize) -> Option<Vec<String>> {
    let items = code.args(open);
    let mut out = Vec::new();
    for r in items {
        let lit = code.string_at(r.start)?;
        if lit.end != r.end {
            return None;
        }
        out.push(lit.value);
    }
    Some(out)
}

/// `C<T extends P = D> extends B<X, Y>` → `C extends B`.
fn strip_generics(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}
