//! The Beego map step: router registrations (`web.Router`, `web.Include`,
//! `web.Get`…), namespace trees (`web.NewNamespace` with `NSRouter`,
//! `NSInclude`, `NSGet`…, `NSNamespace`), namespace items built by
//! functions (`func userNS() web.LinkNamespace { return web.NSNamespace(…) }`)
//! and `@router` / `@Param` annotations on controller methods.

use std::ops::Range;

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile};
use serde::{Deserialize, Serialize};

use crate::golang::facts::{FuncRef, GoFile, Handler, TypeRef};
use crate::golang::framework::{Framework, ANY};
use crate::golang::scan::{handler_in, type_name};
use crate::golang::strexpr::StrExpr;
use crate::golang::syntax::{bytes, ident_here, signature_at, skip_ws, trim};

/// The Beego fact of one Go file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BeegoFact {
    Beego(Box<BeegoFile>),
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BeegoFile {
    pub path: String,
    pub dir: String,
    /// Registrations on the application (routers, includes, namespaces).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roots: Vec<Item>,
    /// Namespace items built in a function: (function name, items).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub funcs: Vec<(String, Vec<Item>)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<Annotation>,
}

/// A controller type as written (`&controllers.UserController{}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ctrl {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qual: Option<String>,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Item {
    /// `Router(path, &C{}, "get:M;post:N")`.
    Router {
        line: u32,
        path: StrExpr,
        ctrl: Ctrl,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mapping: Option<String>,
    },
    /// `Include(&C{})`: the controller's `@router` annotations.
    Include {
        ctrl: Ctrl,
    },
    /// `Get(path, func(ctx *context.Context) {…})`.
    Func {
        line: u32,
        methods: Vec<String>,
        path: StrExpr,
        handler: Handler,
    },
    Namespace {
        prefix: StrExpr,
        items: Vec<Item>,
    },
    /// A call returning namespace items (`routes.UserNS()`).
    Ref(FuncRef),
}

/// `// @router /users/:id [get,post]` above `func (c *C) Method()`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Annotation {
    pub recv: String,
    pub method: String,
    pub line: u32,
    pub path: String,
    pub methods: Vec<String>,
    /// `@Param name in type …` (path, query, formData, header).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
    /// `@Param body body models.User …`: the JSON body type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bodies: Vec<TypeRef>,
}

/// Registration functions on the application.
const APP_FUNCS: &[(&str, &[&str])] = &[
    ("Get", &["GET"]),
    ("Post", &["POST"]),
    ("Put", &["PUT"]),
    ("Patch", &["PATCH"]),
    ("Delete", &["DELETE"]),
    ("Head", &["HEAD"]),
    ("Options", &["OPTIONS"]),
    ("Any", ANY),
];

/// Their namespace counterparts.
const NS_FUNCS: &[(&str, &[&str])] = &[
    ("NSGet", &["GET"]),
    ("NSPost", &["POST"]),
    ("NSPut", &["PUT"]),
    ("NSPatch", &["PATCH"]),
    ("NSDelete", &["DELETE"]),
    ("NSHead", &["HEAD"]),
    ("NSOptions", &["OPTIONS"]),
    ("NSAny", ANY),
];

/// Is this import a Beego package whose functions register routes?
fn is_beego_import(path: &str) -> bool {
    path == "github.com/astaxie/beego"
        || path == "github.com/beego/beego"
        || (path.starts_with("github.com/beego/beego/v")
            && (path.ends_with("/server/web") || path.ends_with("/adapter")))
}

pub fn scan(file: &SourceFile, code: &Code<'_>, go: &GoFile, fw: &Framework) -> BeegoFile {
    let quals: Vec<String> = go
        .imports
        .iter()
        .filter(|i| is_beego_import(&i.path))
        .map(|i| i.alias.clone().unwrap_or_else(|| i.default_name()))
        .collect();
    let s = Scan {
        code,
        file,
        fw,
        quals,
    };
    let mut out = BeegoFile {
        path: file.path.clone(),
        dir: go.dir.clone(),
        ..BeegoFile::default()
    };
    if !s.quals.is_empty() {
        let funcs = s.func_ranges();
        for call in s.calls() {
            // Only outermost calls: nested ones belong to a namespace.
            if s.nested_in_namespace(call.name_at) {
                continue;
            }
            let is_root = call.name == "NewNamespace"
                || call.name == "Router"
                || call.name == "Include"
                || APP_FUNCS.iter().any(|(n, _)| *n == call.name);
            if is_root {
                if call.name == "NewNamespace" {
                    if let Some(item) = s.namespace(&call) {
                        out.roots.push(item);
                    }
                } else {
                    out.roots.extend(s.app_item(&call));
                }
                continue;
            }
            let items = s.ns_item(&call);
            if items.is_empty() {
                continue;
            }
            if let Some((name, _)) = funcs
                .iter()
                .find(|(_, r)| r.start < call.name_at && call.name_at < r.end)
            {
                match out.funcs.iter_mut().find(|(n, _)| n == name) {
                    Some((_, v)) => v.extend(items),
                    None => out.funcs.push((name.clone(), items)),
                }
            }
        }
    }
    out.annotations = annotations(file);
    out
}

struct Scan<'a, 'c> {
    code: &'a Code<'c>,
    file: &'a SourceFile,
    fw: &'a Framework,
    quals: Vec<String>,
}

/// A call `qual.Name(args)`.
struct BCall {
    name: String,
    name_at: usize,
    open: usize,
    close: usize,
    args: Vec<Range<usize>>,
}

impl Scan<'_, '_> {
    /// Every `qual.Name(…)` call on a Beego package, in source order.
    fn calls(&self) -> Vec<BCall> {
        let b = bytes(self.code);
        let mut out = Vec::new();
        for q in &self.quals {
            for at in self.code.find_word(q) {
                if at > 0 && b[at - 1] == b'.' {
                    continue;
                }
                let dot = skip_ws(self.code, at + q.len());
                if b.get(dot) != Some(&b'.') {
                    continue;
                }
                let name_at = skip_ws(self.code, dot + 1);
                let Some((name, e)) = ident_here(self.code, name_at) else {
                    continue;
                };
                let open = skip_ws(self.code, e);
                if b.get(open) != Some(&b'(') {
                    continue;
                }
                let Some(close) = self.code.matching(open) else {
                    continue;
                };
                out.push(BCall {
                    name: name.to_string(),
                    name_at,
                    open,
                    close,
                    args: self.code.args(open),
                });
            }
        }
        out.sort_by_key(|c| c.name_at);
        out
    }

    fn call_at(&self, r: Range<usize>) -> Option<BCall> {
        let r = trim(self.code, r);
        let b = bytes(self.code);
        let (q, e) = ident_here(self.code, r.start)?;
        if !self.quals.iter().any(|x| x == q) {
            return None;
        }
        let dot = skip_ws(self.code, e);
        if b.get(dot) != Some(&b'.') {
            return None;
        }
        let name_at = skip_ws(self.code, dot + 1);
        let (name, e) = ident_here(self.code, name_at)?;
        let open = skip_ws(self.code, e);
        if b.get(open) != Some(&b'(') {
            return None;
        }
        let close = self.code.matching(open)?;
        (close + 1 == r.end).then(|| BCall {
            name: name.to_string(),
            name_at,
            open,
            close,
            args: self.code.args(open),
        })
    }

    /// Is `at` inside the arguments of a `NewNamespace` / `NSNamespace`?
    fn nested_in_namespace(&self, at: usize) -> bool {
        self.calls().iter().any(|c| {
            (c.name == "NewNamespace" || c.name == "NSNamespace") && c.open < at && at < c.close
        })
    }

    /// Top-level functions: (name, body range).
    fn func_ranges(&self) -> Vec<(String, Range<usize>)> {
        let b = bytes(self.code);
        let mut out = Vec::new();
        for at in self.code.find_word("func") {
            if at > 0 && b[at - 1] != b'\n' {
                continue;
            }
            let mut i = skip_ws(self.code, at + 4);
            if b.get(i) == Some(&b'(') {
                let Some(c) = self.code.matching(i) else {
                    continue;
                };
                i = skip_ws(self.code, c + 1);
            }
            let Some((name, e)) = ident_here(self.code, i) else {
                continue;
            };
            if let Some(sig) = signature_at(self.code, skip_ws(self.code, e)) {
                out.push((name.to_string(), sig.body_open..sig.body_close + 1));
            }
        }
        out
    }

    fn str_arg(&self, r: Option<&Range<usize>>) -> Option<StrExpr> {
        crate::golang::strexpr::parse(self.code, r?.clone())
    }

    /// `Router`, `Include`, `Get`… on the application.
    fn app_item(&self, c: &BCall) -> Vec<Item> {
        let line = self.file.line_of(c.name_at);
        match c.name.as_str() {
            "Router" => self.router(c, line).into_iter().collect(),
            "Include" => self.includes(c),
            _ => self.func_item(c, APP_FUNCS, line).into_iter().collect(),
        }
    }

    /// Items of a namespace call (`NSRouter`, `NSInclude`, `NSGet`…,
    /// `NSNamespace`); nothing for options such as `NSBefore`/`NSCond`.
    fn ns_item(&self, c: &BCall) -> Vec<Item> {
        let line = self.file.line_of(c.name_at);
        match c.name.as_str() {
            "NSRouter" => self.router(c, line).into_iter().collect(),
            "NSInclude" => self.includes(c),
            "NSNamespace" => self.namespace(c).into_iter().collect(),
            _ => self.func_item(c, NS_FUNCS, line).into_iter().collect(),
        }
    }

    fn router(&self, c: &BCall, line: u32) -> Option<Item> {
        let path = self.str_arg(c.args.first())?;
        let ctrl = self.ctrl(c.args.get(1)?.clone())?;
        let mapping = self
            .str_arg(c.args.get(2))
            .and_then(|e| e.literal())
            .filter(|m| !m.trim().is_empty());
        Some(Item::Router {
            line,
            path,
            ctrl,
            mapping,
        })
    }

    fn includes(&self, c: &BCall) -> Vec<Item> {
        c.args
            .iter()
            .filter_map(|a| self.ctrl(a.clone()))
            .map(|ctrl| Item::Include { ctrl })
            .collect()
    }

    fn func_item(&self, c: &BCall, table: &[(&str, &[&str])], line: u32) -> Option<Item> {
        let (_, methods) = table.iter().find(|(n, _)| *n == c.name)?;
        if c.args.len() < 2 {
            return None;
        }
        let path = self.str_arg(c.args.first())?;
        if let Some(lit) = path.literal() {
            if !lit.is_empty() && !lit.starts_with('/') {
                return None;
            }
        }
        let h = c.args.last()?.clone();
        let handler = handler_in(self.code, self.file, self.fw, h)?;
        Some(Item::Func {
            line,
            methods: methods.iter().map(|m| m.to_string()).collect(),
            path,
            handler,
        })
    }

    /// `NewNamespace(prefix, items…)` / `NSNamespace(prefix, items…)`.
    fn namespace(&self, c: &BCall) -> Option<Item> {
        let prefix = self.str_arg(c.args.first())?;
        let mut items = Vec::new();
        for a in c.args.iter().skip(1) {
            if let Some(inner) = self.call_at(a.clone()) {
                items.extend(self.ns_item(&inner));
            } else if let Some(r) = self.func_call_ref(a.clone()) {
                items.push(Item::Ref(r));
            }
        }
        Some(Item::Namespace { prefix, items })
    }

    /// `userNS()` / `routes.AdminNS()`: a call to a function in the tree.
    fn func_call_ref(&self, r: Range<usize>) -> Option<FuncRef> {
        let r = trim(self.code, r);
        let text = self.code.slice(r.clone());
        let open = text.find('(')?;
        let head = text[..open].trim();
        if head.is_empty()
            || !head.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            || !head
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            || !text.ends_with(')')
        {
            return None;
        }
        Some(match head.rsplit_once('.') {
            Some((q, n)) => FuncRef {
                qual: Some(q.to_string()),
                name: n.to_string(),
                hint: None,
            },
            None => FuncRef {
                qual: None,
                name: head.to_string(),
                hint: None,
            },
        })
    }

    /// `&controllers.UserController{}`, `&UserController{}`,
    /// `new(controllers.UserController)`, `controllers.UserController{}`.
    fn ctrl(&self, r: Range<usize>) -> Option<Ctrl> {
        let text = self.code.slice(trim(self.code, r));
        let t = text.trim_start_matches('&').trim();
        let head = if let Some(inner) = t.strip_prefix("new(") {
            inner.strip_suffix(')')?.trim()
        } else {
            t[..t.find('{')?].trim()
        };
        if head.is_empty()
            || !head
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        {
            return None;
        }
        let (qual, name) = type_name(head);
        Some(Ctrl { qual, name })
    }
}

/// `@router` / `@Param` comment annotations on methods.
pub fn annotations(file: &SourceFile) -> Vec<Annotation> {
    let lines: Vec<&str> = file.content.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((recv, method)) = method_decl(line) else {
            continue;
        };
        let mut routers = Vec::new();
        let mut params = Vec::new();
        let mut bodies = Vec::new();
        let mut j = i;
        while j > 0 {
            j -= 1;
            let Some(c) = lines[j].trim().strip_prefix("//") else {
                break;
            };
            let c = c.trim();
            if let Some(rest) = c.strip_prefix("@router") {
                if let Some(r) = router_annotation(rest) {
                    routers.push((j as u32 + 1, r));
                }
            } else if let Some(rest) = c.strip_prefix("@Param") {
                let f: Vec<&str> = rest.split_whitespace().collect();
                if let (Some(name), Some(place)) = (f.first(), f.get(1)) {
                    let kind = match *place {
                        "path" => Some(ParamKind::Path),
                        "query" => Some(ParamKind::Query),
                        "formData" | "form" => Some(ParamKind::Form),
                        "header" => Some(ParamKind::Header),
                        _ => None,
                    };
                    if let Some(kind) = kind {
                        params.insert(0, Param::new(kind, name.trim_start_matches(':')));
                    } else if *place == "body" {
                        if let Some(ty) = f.get(2) {
                            let (qual, name) = type_name(ty);
                            if !name.is_empty() && name.starts_with(|c: char| c.is_uppercase()) {
                                bodies.insert(0, TypeRef::Named { qual, name });
                            }
                        }
                    }
                }
            }
        }
        routers.reverse();
        for (line, (path, methods)) in routers {
            out.push(Annotation {
                recv: recv.clone(),
                method: method.clone(),
                line,
                path,
                methods,
                params: params.clone(),
                bodies: bodies.clone(),
            });
        }
    }
    out
}

/// `func (c *UserController) Get(` → ("UserController", "Get").
fn method_decl(line: &str) -> Option<(String, String)> {
    let rest = line.strip_prefix("func")?.trim_start().strip_prefix('(')?;
    let (recv, rest) = rest.split_once(')')?;
    let ty = recv.split_whitespace().last()?;
    let (_, ty) = type_name(ty);
    let name: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!ty.is_empty() && !name.is_empty()).then_some((ty, name))
}

/// ` /users/:id [get,post]` → ("/users/:id", ["GET", "POST"]).
fn router_annotation(rest: &str) -> Option<(String, Vec<String>)> {
    let rest = rest.trim();
    let path = rest.split_whitespace().next()?;
    if !path.starts_with('/') {
        return None;
    }
    let methods: Vec<String> = match (rest.find('['), rest.find(']')) {
        (Some(o), Some(c)) if o < c => rest[o + 1..c]
            .split(',')
            .map(|m| m.trim().to_ascii_uppercase())
            .filter(|m| !m.is_empty())
            .flat_map(|m| {
                if m == "*" {
                    ANY.iter().map(|s| s.to_string()).collect()
                } else {
                    vec![m]
                }
            })
            .collect(),
        _ => Vec::new(),
    };
    let methods = if methods.is_empty() {
        vec!["GET".to_string()]
    } else {
        methods
    };
    Some((path.to_string(), methods))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn router_annotations_parse() {
        assert_eq!(
            router_annotation(" /:id [get,post]"),
            Some(("/:id".into(), vec!["GET".into(), "POST".into()]))
        );
        assert_eq!(
            router_annotation(" / [delete]"),
            Some(("/".into(), vec!["DELETE".into()]))
        );
        assert_eq!(router_annotation(" nothing"), None);
        assert_eq!(
            method_decl("func (u *UserController) GetAll() {"),
            Some(("UserController".into(), "GetAll".into()))
        );
        assert_eq!(method_decl("func main() {"), None);
    }

    #[test]
    fn beego_imports() {
        assert!(is_beego_import("github.com/beego/beego/v2/server/web"));
        assert!(is_beego_import("github.com/astaxie/beego"));
        assert!(!is_beego_import(
            "github.com/beego/beego/v2/server/web/context"
        ));
        assert!(!is_beego_import("github.com/beego/beego/v2/client/orm"));
    }
}
