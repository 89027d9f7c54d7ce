//! Map step: controllers, models and the application base path of one
//! module.

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile, Syntax};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

use crate::js::outline::{methods, object_entries, ScopeKind};
use crate::nestjs::scan::{bases, decorators_before, fields, method_params, Deco};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LbModule {
    pub path: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<Controller>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models: Vec<Model>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_path: Option<String>,
}

impl LbModule {
    pub fn is_empty(&self) -> bool {
        self.controllers.is_empty() && self.models.is_empty() && self.base_path.is_none()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Controller {
    pub base: String,
    pub routes: Vec<Route>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub line: u32,
    pub method: String,
    pub path: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Spec>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Spec {
    Direct(Param),
    /// The fields of a model class, minus `omit`, limited to `pick`.
    Body {
        model: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        omit: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pick: Option<Vec<String>>,
    },
}

/// A class with properties (a `@model` entity or a plain class).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Model {
    pub name: String,
    pub fields: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bases: Vec<String>,
}

use crate::js::pattern::re;

fn literal(code: &Code<'_>, r: &std::ops::Range<usize>) -> Option<String> {
    let lit = code.string_at(code.skip_ws(r.start))?;
    (!lit.interpolated).then_some(lit.value)
}

const VERBS: &[(&str, &str)] = &[
    ("get", "GET"),
    ("post", "POST"),
    ("put", "PUT"),
    ("patch", "PATCH"),
    ("del", "DELETE"),
];

pub fn scan(file: &SourceFile) -> LbModule {
    let code = file.code(Syntax::JAVASCRIPT);
    let outline = crate::js::module::outline(file, &code);
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = LbModule {
        path: file.path.clone(),
        ..LbModule::default()
    };
    for scope in outline.scopes.iter().filter(|s| s.kind == ScopeKind::Class) {
        let header = code.slice(scope.start..scope.body.start.saturating_sub(1));
        let cdecos = decorators_before(&code, scope.start);
        let mut base = String::new();
        if let Some(api) = cdecos.iter().find(|d| d.name == "api") {
            if let Some(a) = api.args.first() {
                let s = code.skip_ws(a.start);
                if bytes.get(s) == Some(&b'{') {
                    if let Some(e) = object_entries(&code, s)
                        .into_iter()
                        .find(|e| e.key == "basePath")
                    {
                        base = literal(&code, &e.value).unwrap_or_default();
                    }
                }
            }
        }
        let mut routes = Vec::new();
        for m in methods(&code, &outline, scope.body.clone()) {
            let decos = decorators_before(&code, m.start);
            let Some((d, method, path)) = decos.iter().find_map(|d| verb(&code, d)) else {
                continue;
            };
            routes.push(Route {
                line: file.line_of(d.at),
                method,
                path,
                params: params(&code, m.params.clone()),
            });
        }
        if !routes.is_empty() {
            out.controllers.push(Controller { base, routes });
        }
        let fs = fields(&code, &outline, scope.body.clone());
        let bs: Vec<String> = bases(&code, header, scope.start)
            .into_iter()
            .map(|b| b.name)
            .filter(|n| !matches!(n.as_str(), "Entity" | "Model" | "ValueObject"))
            .collect();
        if !fs.is_empty() || !bs.is_empty() {
            out.models.push(Model {
                name: scope.name.clone(),
                fields: fs,
                bases: bs,
            });
        }
    }
    static BASE: OnceLock<Regex> = OnceLock::new();
    let base = re(&BASE, r"\.\s*basePath\s*\(");
    for m in base.find_iter(text) {
        if code.is_code(m.start()) {
            if let Some(p) = code
                .args(m.end() - 1)
                .first()
                .and_then(|a| literal(&code, a))
            {
                out.base_path = Some(p);
            }
        }
    }
    out
}

/// `@get('/x')` → (deco, GET, /x); `@operation('get', '/x')`.
fn verb<'d>(code: &Code<'_>, d: &'d Deco) -> Option<(&'d Deco, String, String)> {
    if d.name == "operation" {
        let v = literal(code, d.args.first()?)?;
        let p = literal(code, d.args.get(1)?)?;
        let v = if v.eq_ignore_ascii_case("del") {
            "DELETE".to_string()
        } else {
            v.to_ascii_uppercase()
        };
        return Some((d, v, p));
    }
    let (_, m) = VERBS.iter().find(|(n, _)| *n == d.name)?;
    let p = literal(code, d.args.first()?)?;
    Some((d, m.to_string(), p))
}

/// Strip `Omit<…>`, `Pick<…>`, `Partial<…>`, arrays: (model, omit, pick).
fn body_type(raw: &str) -> Option<(String, Vec<String>, Option<Vec<String>>)> {
    let mut t = raw.trim().trim_end_matches("[]").trim();
    let mut omit = Vec::new();
    let mut pick: Option<Vec<String>> = None;
    let keys = |s: &str| -> Vec<String> {
        s.split('|')
            .map(|k| k.trim().trim_matches(['\'', '"']).to_string())
            .filter(|k| !k.is_empty())
            .collect()
    };
    for _ in 0..6 {
        let Some((head, rest)) = t.split_once('<') else {
            break;
        };
        let inner = rest.strip_suffix('>')?.trim();
        match head.trim() {
            "Partial" | "Required" | "DataObject" | "Array" | "Readonly" => t = inner,
            "Omit" | "Pick" => {
                // The last top-level comma separates the key union.
                let comma = inner.rfind(',')?;
                let k = keys(&inner[comma + 1..]);
                if head.trim() == "Omit" {
                    omit.extend(k);
                } else {
                    pick = Some(k);
                }
                t = inner[..comma].trim();
            }
            _ => return None,
        }
    }
    let name = t.trim_end_matches("[]").trim();
    let ok = !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && name.as_bytes()[0].is_ascii_uppercase()
        && !matches!(name, "Object" | "String" | "Number" | "Boolean" | "Date");
    ok.then(|| (name.to_string(), omit, pick))
}

fn params(code: &Code<'_>, r: std::ops::Range<usize>) -> Vec<Spec> {
    let mut out: Vec<Spec> = Vec::new();
    for p in method_params(code, r) {
        for d in &p.decos {
            let spec = if d.name == "requestBody" {
                body_type(&p.raw).map(|(model, omit, pick)| Spec::Body { model, omit, pick })
            } else if d.name == "param.filter" {
                Some(Spec::Direct(Param::query("filter")))
            } else if d.name == "param.where" {
                Some(Spec::Direct(Param::query("where")))
            } else if d.name == "param" {
                // `@param({ name: 'x', in: 'query' })`.
                d.args.first().and_then(|a| {
                    let s = code.skip_ws(a.start);
                    let es = object_entries(code, s);
                    let get = |k: &str| {
                        es.iter()
                            .find(|e| e.key == k)
                            .and_then(|e| literal(code, &e.value))
                    };
                    let kind = kind_of(&get("in")?)?;
                    Some(Spec::Direct(Param::new(kind, get("name")?)))
                })
            } else if let Some(rest) = d.name.strip_prefix("param.") {
                // `param.query.string('q')`, `param.path.number('id')`.
                let loc = rest.split('.').next().unwrap_or("");
                kind_of(loc).and_then(|kind| {
                    let n = d.args.first().and_then(|a| literal(code, a))?;
                    Some(Spec::Direct(Param::new(kind, n)))
                })
            } else {
                None
            };
            if let Some(s) = spec {
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    }
    out
}

fn kind_of(loc: &str) -> Option<ParamKind> {
    Some(match loc {
        "query" => ParamKind::Query,
        "path" => ParamKind::Path,
        "header" => ParamKind::Header,
        "cookie" => ParamKind::Cookie,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::body_type;

    #[test]
    fn body_types() {
        assert_eq!(
            body_type("Omit<Product, 'id' | 'createdAt'>"),
            Some((
                "Product".into(),
                vec!["id".into(), "createdAt".into()],
                None
            ))
        );
        assert_eq!(
            body_type("Partial<Pick<Order, 'note'>>"),
            Some(("Order".into(), vec![], Some(vec!["note".into()])))
        );
        assert_eq!(body_type("Product[]").map(|x| x.0), Some("Product".into()));
        assert_eq!(body_type("string"), None);
        assert_eq!(body_type("object"), None);
    }
}
