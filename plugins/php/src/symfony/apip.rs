//! API Platform resources: YAML resource files (`resources:` maps, e.g.
//! under `config/api_platform/`) and the `#[ApiResource]` / `#[Get]`,
//! `#[GetCollection]`, `#[Post]`, `#[Put]`, `#[Patch]`, `#[Delete]`
//! attributes of PHP classes, turned into HTTP operations.
//!
//! Conventions (API Platform 3/4): an operation without `uriTemplate` is
//! served at `/<segment>` (collections: `GetCollection`, `Post`) or
//! `/<segment>/{id}` (items: `Get`, `Put`, `Patch`, `Delete`), where
//! `<segment>` is the resource's `shortName` (default: the class's short
//! name) tableized and pluralized (`BookReview` → `book_reviews`); a
//! resource without `operations` gets the defaults `Get`, `GetCollection`,
//! `Post`, `Patch`, `Delete`; `routePrefix` is prepended; GraphQL
//! operations are not HTTP routes. The `type: api_platform` route import
//! gives all of them its `prefix`.

use serde::{Deserialize, Serialize};
use serde_yaml::Value;

use crate::php::expr::Val;
use crate::php::inflect::pluralize;
use crate::php::outline::{short, Attr, Class};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Op {
    /// Operation class short name (`Get`, `GetCollection`, `HttpOperation`).
    pub kind: String,
    pub method: Option<String>,
    pub uri_template: Option<String>,
    pub route_prefix: Option<String>,
    pub short_name: Option<String>,
    /// `input:` DTO class (its properties are the body).
    pub input: Option<String>,
    pub controller: Option<String>,
    /// `paginationEnabled`, `paginationClientItemsPerPage`,
    /// `paginationClientPartial` (GET collections).
    pub pagination: Option<bool>,
    pub items_per_page: bool,
    pub partial: bool,
    pub line: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resource {
    /// Resource class (FQCN as written).
    pub class: String,
    pub short_name: Option<String>,
    pub route_prefix: Option<String>,
    pub uri_template: Option<String>,
    /// `None`: the default operations.
    pub ops: Option<Vec<Op>>,
    pub items_per_page: bool,
    pub partial: bool,
    pub pagination: Option<bool>,
    pub line: u32,
}

/// `(method, collection)` of an operation class, `None` for non-HTTP
/// (GraphQL) or unknown ones.
pub fn verb(kind: &str, method: Option<&str>) -> Option<(String, bool)> {
    if kind.contains("GraphQl") || kind.contains("Query") || kind.contains("Mutation") {
        return None;
    }
    let k = short(kind);
    let (m, collection) = match k {
        "Get" => ("GET", false),
        "GetCollection" => ("GET", true),
        "Post" => ("POST", true),
        "Put" => ("PUT", false),
        "Patch" => ("PATCH", false),
        "Delete" => ("DELETE", false),
        "HttpOperation" | "Operation" => ("GET", false),
        // Legacy 2.x names (`collectionOperations: { get: … }`).
        _ => return None,
    };
    let m = method
        .map(|x| x.to_ascii_uppercase())
        .unwrap_or_else(|| m.to_string());
    Some((m, collection))
}

/// `BookReview` → `book_reviews` (Doctrine's `tableize` + `pluralize`).
pub fn segment(short_name: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = short_name.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev_lower =
                i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let prev_upper = i > 0 && chars[i - 1].is_uppercase();
            if prev_lower || (prev_upper && next_lower) {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(*c);
        }
    }
    pluralize(&out)
}

// ---------------------------------------------------------------- YAML

fn s(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(x) => Some(x.clone()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn get<'v>(m: &'v Value, k: &str) -> Option<&'v Value> {
    m.as_mapping()?.get(Value::String(k.into()))
}

fn flag(m: &Value, k: &str) -> Option<bool> {
    get(m, k).and_then(Value::as_bool)
}

/// Lines of the file, to place resources and operations: the first line at
/// or after `from` whose trimmed text starts with `needle`.
struct Lines<'t> {
    lines: Vec<&'t str>,
}

impl Lines<'_> {
    fn find(&self, from: u32, needle: &str) -> Option<u32> {
        let start = from.saturating_sub(1) as usize;
        self.lines
            .iter()
            .enumerate()
            .skip(start)
            .find(|(_, l)| {
                let t = l.trim_start().trim_start_matches("- ");
                let t = t.trim_start_matches(['\'', '"']);
                t.starts_with(needle)
            })
            .map(|(n, _)| n as u32 + 1)
    }
}

/// The resources of an API Platform YAML resource file (`None` if the
/// document has no top-level `resources:` map of classes).
pub fn yaml(text: &str) -> Option<Vec<Resource>> {
    if !text.contains("resources:") {
        return None;
    }
    let doc: Value = serde_yaml::from_str(text).ok()?;
    let res = get(&doc, "resources")?.as_mapping()?;
    let lines = Lines {
        lines: text.lines().collect(),
    };
    let mut out = Vec::new();
    let mut cursor = 1;
    for (k, v) in res {
        let Some(class) = k.as_str() else { continue };
        let line = lines.find(cursor, class).unwrap_or(cursor);
        cursor = line;
        // One resource, several (a list), or `~` (defaults).
        let defs: Vec<&Value> = match v {
            Value::Sequence(items) => items.iter().collect(),
            other => vec![other],
        };
        for def in defs {
            let mut r = Resource {
                class: class.to_string(),
                short_name: s(get(def, "shortName")),
                route_prefix: s(get(def, "routePrefix")),
                uri_template: s(get(def, "uriTemplate")),
                items_per_page: flag(def, "paginationClientItemsPerPage").unwrap_or(false),
                partial: flag(def, "paginationClientPartial").unwrap_or(false),
                pagination: flag(def, "paginationEnabled"),
                line,
                ops: None,
            };
            if let Some(ops) = get(def, "operations") {
                let mut list = Vec::new();
                let mut at = line;
                let entries: Vec<(Option<String>, &Value)> = match ops {
                    Value::Mapping(m) => m
                        .iter()
                        .map(|(k, v)| (k.as_str().map(str::to_string), v))
                        .collect(),
                    Value::Sequence(items) => items.iter().map(|v| (None, v)).collect(),
                    _ => Vec::new(),
                };
                for (key, def) in entries {
                    let kind = s(get(def, "class")).or_else(|| key.clone());
                    let Some(kind) = kind else { continue };
                    let needle = key.clone().unwrap_or_else(|| "class:".into());
                    let op_line = lines.find(at, &needle).unwrap_or(at);
                    at = op_line + 1;
                    list.push(Op {
                        kind,
                        method: s(get(def, "method")),
                        uri_template: s(get(def, "uriTemplate")),
                        route_prefix: s(get(def, "routePrefix")),
                        short_name: s(get(def, "shortName")),
                        input: s(get(def, "input")),
                        controller: s(get(def, "controller")),
                        pagination: flag(def, "paginationEnabled"),
                        items_per_page: flag(def, "paginationClientItemsPerPage").unwrap_or(false),
                        partial: flag(def, "paginationClientPartial").unwrap_or(false),
                        line: op_line,
                    });
                }
                r.ops = Some(list);
            }
            out.push(r);
        }
    }
    Some(out)
}

// ---------------------------------------------------------- attributes

fn text(v: Option<&Val>) -> Option<String> {
    match v? {
        Val::Str(x) => Some(x.clone()),
        _ => None,
    }
}

fn named<'v>(args: &'v [Val], name: &str) -> Option<&'v Val> {
    args.iter().find_map(|a| match a {
        Val::Array(items) if items.len() == 1 => match &items[0] {
            (Some(Val::Str(k)), v) if k == name => Some(v),
            _ => None,
        },
        _ => None,
    })
}

fn bool_of(v: Option<&Val>) -> Option<bool> {
    match v? {
        Val::Const(c) if c.eq_ignore_ascii_case("true") => Some(true),
        Val::Const(c) if c.eq_ignore_ascii_case("false") => Some(false),
        _ => None,
    }
}

fn class_name(v: Option<&Val>) -> Option<String> {
    match v? {
        Val::Class(c) => Some(c.clone()),
        Val::Str(c) => Some(c.clone()),
        _ => None,
    }
}

fn op_of(kind: &str, args: &[Val], line: u32) -> Op {
    Op {
        kind: kind.to_string(),
        method: text(named(args, "method")),
        uri_template: text(named(args, "uriTemplate")),
        route_prefix: text(named(args, "routePrefix")),
        short_name: text(named(args, "shortName")),
        input: class_name(named(args, "input")),
        controller: class_name(named(args, "controller")),
        pagination: bool_of(named(args, "paginationEnabled")),
        items_per_page: bool_of(named(args, "paginationClientItemsPerPage")).unwrap_or(false),
        partial: bool_of(named(args, "paginationClientPartial")).unwrap_or(false),
        line,
    }
}

fn is_op_attr(name: &str) -> bool {
    verb(name, None).is_some()
}

/// The resources a PHP class declares with attributes: each
/// `#[ApiResource(...)]` (its `operations:` or the operation attributes
/// that follow it), and operation attributes without an `ApiResource`.
pub fn from_class(class: &Class) -> Vec<Resource> {
    let attrs: &[Attr] = &class.attrs;
    if !attrs
        .iter()
        .any(|a| a.name == "ApiResource" || is_op_attr(&a.name))
    {
        return Vec::new();
    }
    let full = class.fqcn();
    let mut out: Vec<Resource> = Vec::new();
    let mut loose: Vec<Op> = Vec::new();
    for a in attrs {
        if a.name == "ApiResource" {
            let ops = match named(&a.args, "operations") {
                Some(Val::Array(items)) => Some(
                    items
                        .iter()
                        .filter_map(|(_, v)| match v {
                            Val::New(k, args) => Some(op_of(short(k), args, a.line)),
                            _ => None,
                        })
                        .collect(),
                ),
                _ => None,
            };
            out.push(Resource {
                class: full.clone(),
                short_name: text(named(&a.args, "shortName")),
                route_prefix: text(named(&a.args, "routePrefix")),
                uri_template: text(named(&a.args, "uriTemplate")),
                items_per_page: bool_of(named(&a.args, "paginationClientItemsPerPage"))
                    .unwrap_or(false),
                partial: bool_of(named(&a.args, "paginationClientPartial")).unwrap_or(false),
                pagination: bool_of(named(&a.args, "paginationEnabled")),
                ops,
                line: a.line,
            });
        } else if is_op_attr(&a.name) {
            let op = op_of(&a.name, &a.args, a.line);
            // Operation attributes after an `ApiResource` belong to it.
            match out.last_mut() {
                Some(r) => r.ops.get_or_insert_with(Vec::new).push(op),
                None => loose.push(op),
            }
        }
    }
    if !loose.is_empty() {
        out.push(Resource {
            class: full,
            line: loose[0].line,
            ops: Some(loose),
            ..Resource::default()
        });
    }
    out
}

/// One HTTP operation of a resource.
pub struct Route {
    pub method: String,
    pub path: String,
    pub line: u32,
    pub collection: bool,
    pub input: Option<String>,
    pub controller: Option<String>,
    /// Query parameters of a paginated collection.
    pub query: Vec<&'static str>,
}

fn with_slash(p: &str) -> String {
    let t = p.trim();
    if t.is_empty() || t.starts_with('/') {
        t.to_string()
    } else {
        format!("/{t}")
    }
}

/// The HTTP operations of a resource (paths without the import prefix).
pub fn routes(r: &Resource) -> Vec<Route> {
    let defaults: Vec<Op> = ["Get", "GetCollection", "Post", "Patch", "Delete"]
        .iter()
        .map(|k| Op {
            kind: k.to_string(),
            line: r.line,
            ..Op::default()
        })
        .collect();
    let ops = r.ops.as_ref().unwrap_or(&defaults);
    let mut out = Vec::new();
    for op in ops {
        let Some((method, collection)) = verb(&op.kind, op.method.as_deref()) else {
            continue;
        };
        let prefix = op
            .route_prefix
            .as_deref()
            .or(r.route_prefix.as_deref())
            .map(|p| with_slash(p.trim_end_matches('/')))
            .unwrap_or_default();
        let path = match op.uri_template.as_deref().or(r.uri_template.as_deref()) {
            Some(t) => with_slash(
                t.trim_end_matches("{._format}")
                    .trim_end_matches(".{_format}"),
            ),
            None => {
                let sn = op
                    .short_name
                    .as_deref()
                    .or(r.short_name.as_deref())
                    .unwrap_or_else(|| short(&r.class));
                let seg = format!("/{}", segment(sn));
                if collection {
                    seg
                } else {
                    format!("{seg}/{{id}}")
                }
            }
        };
        let mut query = Vec::new();
        if method == "GET" && collection && op.pagination.or(r.pagination).unwrap_or(true) {
            query.push("page");
            if op.items_per_page || r.items_per_page {
                query.push("itemsPerPage");
            }
            if op.partial || r.partial {
                query.push("partial");
            }
        }
        out.push(Route {
            method,
            path: format!("{prefix}{path}"),
            line: op.line,
            collection,
            input: op.input.clone(),
            controller: op.controller.clone(),
            query,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn segments() {
        assert_eq!(super::segment("User"), "users");
        assert_eq!(super::segment("BookReview"), "book_reviews");
        assert_eq!(super::segment("Category"), "categories");
    }
}
