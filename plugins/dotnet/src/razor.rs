//! Razor Pages (part of `cs_aspnet_core_mvc`).
//!
//! - A page is a `.cshtml` file whose first Razor directive is `@page`
//!   (files starting with `_` are layouts and partials). Its route is its
//!   path below the nearest `Pages` directory without the extension, an
//!   `Index` page answering at its directory (`Pages/Index.cshtml` → `/`,
//!   `Pages/Products/Index.cshtml` → `/Products`); pages of an area
//!   (`Areas/<Area>/Pages/…`) are below `/<Area>`. A template after
//!   `@page` is appended (`@page "{id:int}"`) or, starting with `/` or
//!   `~/`, replaces the route.
//! - Handlers are the `On<Verb>[Name][Async]` methods of the page model:
//!   the class named by `@model` (preferring the code-behind
//!   `<page>.cshtml.cs`). Each verb is one endpoint; named handlers
//!   (`OnPostDelete`) add the `handler` query parameter that selects
//!   them. A page without a model or handlers answers GET.
//! - Parameters: the handler's parameters (bound as MVC actions are:
//!   route placeholders → path, simple types → query on GET and form
//!   otherwise, complex types → their properties), and the model's
//!   `[BindProperty]` properties (every public property under
//!   `[BindProperties]`) on non-GET handlers (also GET with `SupportsGet =
//!   true`): simple ones by name, complex ones as `Prop.Field` (the names
//!   the tag helpers give `asp-for="Input.Email"`).

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cs::index::{is_simple_type, Index, TypeId};
use crate::cs::outline::attr;
use crate::cs::params::{bind, placeholders, reads, Binding};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Page {
    pub path: String,
    pub line: u32,
    pub template: Option<String>,
    pub model: Option<String>,
}

/// The page declared by a `.cshtml` file, if it is one.
pub fn page(file: &SourceFile) -> Option<Page> {
    let name = file.path.rsplit('/').next().unwrap_or(&file.path);
    if name.starts_with('_') || !file.path.ends_with(".cshtml") {
        return None;
    }
    let mut found: Option<(u32, Option<String>)> = None;
    let mut model = None;
    for (n, line) in file.content.lines().enumerate().take(64) {
        let l = line.trim();
        if l.is_empty() || (l.starts_with("@*") && l.ends_with("*@")) {
            continue;
        }
        if let Some(rest) = l.strip_prefix("@model ") {
            model = rest
                .split(|c: char| c.is_whitespace() || c == ';')
                .next()
                .map(str::to_string);
            continue;
        }
        if found.is_none() {
            let Some(rest) = l.strip_prefix("@page") else {
                // `@page` must be the first directive.
                if l.starts_with('@') && !l.starts_with("@using") && !l.starts_with("@inject") {
                    return None;
                }
                if !l.starts_with('@') {
                    return None;
                }
                continue;
            };
            if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                return None;
            }
            let t = rest
                .trim()
                .strip_prefix('"')
                .and_then(|r| r.split('"').next())
                .map(str::to_string)
                .filter(|s| !s.is_empty());
            found = Some(((n + 1) as u32, t));
        }
    }
    let (line, template) = found?;
    Some(Page {
        path: file.path.clone(),
        line,
        template,
        model,
    })
}

/// The URL of a page.
fn url(page: &Page) -> Option<String> {
    let p = format!("/{}", page.path.trim_end_matches(".cshtml"));
    let at = p.rfind("/Pages/")?;
    let mut prefix = String::new();
    if let Some(a) = p[..at].rfind("/Areas/") {
        let area = &p[a + "/Areas/".len()..at];
        if !area.contains('/') {
            prefix = format!("/{area}");
        }
    }
    let mut segs: Vec<&str> = p[at + "/Pages/".len()..].split('/').collect();
    if segs.last() == Some(&"Index") {
        segs.pop();
    }
    let base = format!("{prefix}/{}", segs.join("/"));
    Some(match page.template.as_deref() {
        Some(t) if t.starts_with('/') || t.starts_with("~/") => {
            format!("/{}", t.trim_start_matches('~').trim_start_matches('/'))
        }
        Some(t) => join_path(&[&base, t]),
        None => base,
    })
}

const VERBS: [(&str, &str); 5] = [
    ("Get", "GET"),
    ("Post", "POST"),
    ("Put", "PUT"),
    ("Delete", "DELETE"),
    ("Patch", "PATCH"),
];

/// `OnPostDeleteAsync` → (`POST`, `Delete`).
fn handler(name: &str) -> Option<(&'static str, &str)> {
    let rest = name.strip_prefix("On")?;
    let (verb, rest) = VERBS
        .iter()
        .find_map(|(w, v)| rest.strip_prefix(w).map(|r| (*v, r)))?;
    let rest = rest.strip_suffix("Async").unwrap_or(rest);
    if rest.starts_with(|c: char| c.is_ascii_lowercase()) {
        return None;
    }
    Some((verb, rest))
}

/// The page model class of a page.
fn model(idx: &Index, page: &Page) -> Option<TypeId> {
    let behind = format!("{}.cs", page.path);
    if let Some(name) = &page.model {
        let ids = idx.named(name.rsplit('.').next().unwrap_or(name));
        return ids
            .iter()
            .copied()
            .find(|id| idx.path(*id) == behind)
            .or_else(|| ids.first().copied());
    }
    idx.all()
        .find(|id| idx.path(*id) == behind && idx.derives(*id, &|n| n == "PageModel"))
}

pub fn link(idx: &Index, pages: &[Page], out: &mut Vec<Endpoint>) {
    for page in pages {
        let Some(url) = url(page) else { continue };
        let route = placeholders(&url);
        let class = model(idx, page);
        // (verb, params) in declaration order.
        let mut eps: Vec<(&str, Vec<Param>)> = Vec::new();
        if let Some(id) = class {
            let decl = idx.ty(id);
            let bind_all = decl.attr("BindProperties").is_some();
            for m in &decl.methods {
                let Some((verb, name)) = handler(&m.name) else {
                    continue;
                };
                let b = Binding {
                    route: &route,
                    method: verb,
                    infer_body: false,
                    near: Some(id.0),
                };
                let mut params: Vec<Param> = Vec::new();
                if !name.is_empty() {
                    params.push(Param::query("handler").value(name));
                }
                for p in &m.params {
                    params.extend(bind(idx, p, &b));
                }
                params.extend(reads(idx, &m.reads, Some(id.0)));
                for prop in &decl.props {
                    let a = attr(&prop.attrs, "BindProperty");
                    if a.is_none() && !bind_all {
                        continue;
                    }
                    let supports_get = a
                        .and_then(|a| a.named("SupportsGet"))
                        .and_then(|x| x.expr.as_ref())
                        .is_some_and(|e| {
                            e.parts
                                .iter()
                                .any(|p| matches!(p, crate::cs::expr::Piece::Ref(n) if n == "true"))
                        });
                    if verb == "GET" && !supports_get {
                        continue;
                    }
                    let kind = if verb == "GET" {
                        ParamKind::Query
                    } else {
                        ParamKind::Form
                    };
                    if route.iter().any(|r| r.eq_ignore_ascii_case(&prop.name)) {
                        continue;
                    }
                    if is_simple_type(&prop.ty) {
                        params.push(Param::new(kind, prop.name.clone()));
                    } else if let Some(t) = idx.find(&prop.ty, Some(id.0)) {
                        for f in idx.dto_fields(t, kind) {
                            let name = format!("{}.{}", prop.name, f.name);
                            params.push(Param::new(f.kind, name));
                        }
                    } else {
                        params.extend(bind(idx, &as_param(prop), &b));
                    }
                }
                match eps.iter_mut().find(|(v, _)| *v == verb) {
                    Some((_, ps)) => {
                        for p in params {
                            if !ps.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                                ps.push(p);
                            }
                        }
                    }
                    None => eps.push((verb, params)),
                }
            }
        }
        if eps.is_empty() {
            eps.push(("GET", Vec::new()));
        }
        for (verb, params) in eps {
            let mut params = params;
            for r in &route {
                if !params
                    .iter()
                    .any(|p| p.kind == ParamKind::Path && &p.name == r)
                {
                    params.push(Param::path(r.clone()));
                }
            }
            out.push(
                Endpoint::new(verb, url.clone())
                    .at_path(page.path.clone(), page.line)
                    .params(params),
            );
        }
    }
}

fn as_param(p: &crate::cs::outline::Prop) -> crate::cs::outline::Param {
    crate::cs::outline::Param {
        name: p.name.clone(),
        ty: p.ty.clone(),
        attrs: Vec::new(),
        this: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page_of(path: &str, template: Option<&str>) -> Page {
        Page {
            path: path.to_string(),
            line: 1,
            template: template.map(str::to_string),
            model: None,
        }
    }

    #[test]
    fn urls_follow_the_pages_folder() {
        assert_eq!(url(&page_of("Pages/Index.cshtml", None)).unwrap(), "/");
        assert_eq!(
            url(&page_of(
                "src/Web/Pages/Products/Edit.cshtml",
                Some("{id:int}")
            ))
            .unwrap(),
            "/Products/Edit/{id:int}"
        );
        assert_eq!(
            url(&page_of("Areas/Identity/Pages/Account/Index.cshtml", None)).unwrap(),
            "/Identity/Account"
        );
        assert_eq!(
            url(&page_of("Pages/About.cshtml", Some("/company/about"))).unwrap(),
            "/company/about"
        );
        assert_eq!(handler("OnPostDeleteAsync"), Some(("POST", "Delete")));
        assert_eq!(handler("OnGet"), Some(("GET", "")));
        assert_eq!(handler("OnGetter"), None);
    }
}
