//! Where an action's or handler's parameter comes from.
//!
//! - `[FromRoute]`, `[FromQuery]`, `[FromHeader]`, `[FromForm]`,
//!   `[FromBody]` (with `Name = "…"`); `[FromServices]`/`[FromKeyedServices]`
//!   are not request values. `[AsParameters]` expands the properties of
//!   its type, each bound by the same rules.
//! - `IFormFile` (and collections of it) → file; framework types
//!   (`CancellationToken`, `HttpContext`, …) and interfaces are skipped.
//! - Otherwise: a name that appears as a route placeholder → path; a
//!   simple type → query; a complex type declared in the tree → its
//!   properties, as JSON when the body is inferred (`[ApiController]`,
//!   Minimal APIs on methods with a body), else as query fields (GET,
//!   HEAD, DELETE) or form fields (MVC model binding). Complex types not
//!   declared in the tree are services.

use portolan_plugin_sdk::{Param, ParamKind};

use super::index::{is_file_type, is_simple_type, is_special_type, simple, Index};
use super::outline::{attr, Attr, Param as CsParam, Read};

pub struct Binding<'a> {
    /// Placeholder names of the route (`{id:int}` → `id`).
    pub route: &'a [String],
    pub method: &'a str,
    /// `[ApiController]` or Minimal API: complex types come from the body.
    pub infer_body: bool,
    /// Type declaring the method (file preference for lookups).
    pub near: Option<usize>,
}

fn attr_name(a: &Attr) -> Option<String> {
    a.named("Name")
        .or_else(|| a.positional(0))
        .and_then(|x| x.expr.as_ref())
        .and_then(|e| e.literal())
}

/// Placeholder names of a route template.
pub fn placeholders(url: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = url;
    while let Some(open) = rest.find('{') {
        let Some(len) = rest[open..].find('}') else {
            break;
        };
        let inner = &rest[open + 1..open + len];
        let name = inner
            .split([':', '='])
            .next()
            .unwrap_or("")
            .trim()
            .trim_start_matches('*')
            .trim_end_matches('?');
        if !name.is_empty() {
            out.push(name.to_string());
        }
        rest = &rest[open + len + 1..];
    }
    out
}

fn body_method(method: &str) -> bool {
    !matches!(method, "GET" | "HEAD" | "DELETE" | "OPTIONS")
}

pub fn bind(idx: &Index, p: &CsParam, b: &Binding) -> Vec<Param> {
    bind_depth(idx, &p.name, &p.ty, &p.attrs, b, 0)
}

fn bind_depth(
    idx: &Index,
    name: &str,
    ty: &str,
    attrs: &[Attr],
    b: &Binding,
    depth: usize,
) -> Vec<Param> {
    let named = |a: &Attr| attr_name(a).unwrap_or_else(|| name.to_string());
    let complex = |kind: ParamKind| -> Option<Vec<Param>> {
        if is_simple_type(ty) || is_file_type(ty) {
            return None;
        }
        let id = idx.find(ty, b.near)?;
        // An enum, or a collection of enums (`[FromQuery] Status[]? s`),
        // is one value: not a DTO.
        if idx.ty(id).kind == super::outline::TypeKind::Enum {
            return None;
        }
        let fields = idx.dto_fields(id, kind);
        (!fields.is_empty()).then_some(fields)
    };
    if attrs.iter().any(|a| {
        matches!(
            a.name.as_str(),
            "FromServices" | "FromKeyedServices" | "BindNever"
        )
    }) {
        return Vec::new();
    }
    if let Some(a) = attr(attrs, "FromRoute") {
        let n = attr_name(a).unwrap_or_else(|| {
            b.route
                .iter()
                .find(|r| r.eq_ignore_ascii_case(name))
                .cloned()
                .unwrap_or_else(|| name.to_string())
        });
        return vec![Param::path(n)];
    }
    if let Some(a) = attr(attrs, "FromHeader") {
        return vec![Param::header(named(a))];
    }
    if let Some(a) = attr(attrs, "FromQuery") {
        return complex(ParamKind::Query).unwrap_or_else(|| vec![Param::query(named(a))]);
    }
    if let Some(a) = attr(attrs, "FromForm") {
        if is_file_type(ty) {
            return vec![Param::file(named(a))];
        }
        return complex(ParamKind::Form).unwrap_or_else(|| vec![Param::form(named(a))]);
    }
    if attr(attrs, "FromBody").is_some() {
        return complex(ParamKind::Json).unwrap_or_else(|| vec![Param::json(name)]);
    }
    if attr(attrs, "AsParameters").is_some() && depth == 0 {
        let Some(id) = idx.find(ty, b.near) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for t in idx.lineage(id).into_iter().rev() {
            let decl = idx.ty(t);
            for prop in &decl.props {
                out.extend(bind_depth(
                    idx,
                    &prop.name,
                    &prop.ty,
                    &prop.attrs,
                    b,
                    depth + 1,
                ));
            }
        }
        return out;
    }
    if is_file_type(ty) {
        return vec![Param::file(name)];
    }
    if ty.is_empty() || is_special_type(ty) {
        return Vec::new();
    }
    if let Some(r) = b.route.iter().find(|r| r.eq_ignore_ascii_case(name)) {
        return vec![Param::path(r.clone())];
    }
    if is_simple_type(ty) {
        // MVC model binding reads posted forms first.
        if !b.infer_body && body_method(b.method) {
            return vec![Param::form(name)];
        }
        return vec![Param::query(name)];
    }
    let s = simple(ty);
    let interface =
        s.len() > 1 && s.starts_with('I') && s[1..].starts_with(|c: char| c.is_ascii_uppercase());
    if interface {
        return Vec::new();
    }
    let Some(id) = idx.find(ty, b.near) else {
        return Vec::new();
    };
    if idx.derives(id, &|n| {
        matches!(
            n,
            "DbContext" | "IdentityDbContext" | "ControllerBase" | "Controller"
        ) || n.ends_with("Service")
            || n.ends_with("Repository")
    }) || idx.ty(id).kind == super::outline::TypeKind::Enum
    {
        return if idx.ty(id).kind == super::outline::TypeKind::Enum {
            vec![Param::query(name)]
        } else {
            Vec::new()
        };
    }
    let kind = if b.infer_body {
        if body_method(b.method) {
            ParamKind::Json
        } else {
            ParamKind::Query
        }
    } else if body_method(b.method) {
        ParamKind::Form
    } else {
        ParamKind::Query
    };
    idx.dto_fields(id, kind)
}

/// Parameters from request values read in a body.
pub fn reads(idx: &Index, reads: &[Read], near: Option<usize>) -> Vec<Param> {
    let mut out = Vec::new();
    for r in reads {
        match &r.ty {
            Some(ty) => {
                if let Some(id) = idx.find(ty, near) {
                    out.extend(idx.dto_fields(id, ParamKind::Json));
                }
            }
            None => out.push(Param::new(r.kind, r.name.clone())),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholder_names() {
        assert_eq!(
            placeholders("api/{id:int}/{slug?}/{*rest}/{controller=Home}"),
            ["id", "slug", "rest", "controller"]
        );
    }
}
