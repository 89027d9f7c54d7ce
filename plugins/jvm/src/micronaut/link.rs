//! Link step: controllers with inherited routes, URI templates and the
//! context path.

use portolan_plugin_sdk::prelude::*;

use crate::jvm::config::{resolve_placeholders, ConfigDoc, Configs};
use crate::jvm::index::{element_type, Index, TypeId};
use crate::jvm::outline::{find, Annotation, JFile, Method, TypeKind};
use crate::jvm::ANNOTATION_VERBS as VERBS;
use crate::spring::link::strip_patterns;
use crate::spring::params::{simple, SIMPLE_TYPES};
use crate::spring::scan::Fact;

const FILE_TYPES: [&str; 4] = [
    "CompletedFileUpload",
    "StreamingFileUpload",
    "FileUpload",
    "CompletedPart",
];

/// Parameter types bound from the request context, not from the client.
const CONTEXT_TYPES: [&str; 8] = [
    "HttpRequest",
    "Principal",
    "Authentication",
    "HttpHeaders",
    "HttpParameters",
    "Cookies",
    "Session",
    "MutableHttpResponse",
];

fn verb(m: &Method) -> Option<(&Annotation, &'static str)> {
    m.annotations.iter().find_map(|a| {
        VERBS
            .iter()
            .find(|(n, _)| *n == a.name)
            .map(|(_, v)| (a, *v))
    })
}

pub fn link(facts: Vec<Fact>) -> Vec<Endpoint> {
    let mut files: Vec<JFile> = Vec::new();
    let mut docs: Vec<ConfigDoc> = Vec::new();
    let mut reads: Vec<crate::spring::scan::HandlerReads> = Vec::new();
    for f in facts {
        match f {
            Fact::File(j) => files.push(j),
            Fact::Config(c) => docs.push(c),
            Fact::Handler(h) => reads.push(h),
            Fact::Router(_)
            | Fact::Build(..)
            | Fact::Nest(_)
            | Fact::Provide(_)
            | Fact::DocHelper(_)
            | Fact::Builder(_) => {}
        }
    }
    let idx = Index::new(&files);
    let cfg = Configs::new(docs);
    let mut out = Vec::new();
    let ids: Vec<TypeId> = idx.all().collect();
    for id in ids {
        let t = idx.ty(id);
        if t.kind != TypeKind::Class || t.is_abstract() {
            continue;
        }
        let Some(ctrl) = t.annotation("Controller") else {
            continue;
        };
        let module = idx.file(id).path.clone();
        let context = cfg
            .get(&module, "micronaut.server.context-path")
            .unwrap_or_default();
        let Some(base) = eval_paths(&idx, &cfg, id, ctrl, &module).into_iter().next() else {
            continue;
        };
        let mut seen: Vec<(&str, usize)> = Vec::new();
        for owner in idx.lineage(id) {
            for m in &idx.ty(owner).methods {
                let Some((a, http)) = verb(m) else { continue };
                let key = (m.name.as_str(), m.params.len());
                if seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                let consumes_form = consumes_form(a)
                    || find(&m.annotations, "Consumes").is_some_and(|c| {
                        raw_form(&c.raw(&["value"]).unwrap_or("").to_ascii_lowercase())
                    });
                let mut paths = eval_paths(&idx, &cfg, owner, a, &module);
                if paths.is_empty() {
                    paths.push(Template::default());
                }
                for p in paths {
                    let url = join_path(&[context.as_str(), &base.path, &p.path]);
                    let mut params: Vec<Param> = base
                        .query
                        .iter()
                        .chain(p.query.iter())
                        .map(|q| Param::query(q.clone()))
                        .collect();
                    for q in method_params(&idx, owner, m, http, &url, consumes_form) {
                        if !params.iter().any(|x| x.name == q.name && x.kind == q.kind) {
                            params.push(q);
                        }
                    }
                    // What the method reads from the `HttpRequest` it takes
                    // (`request.getHeaders().get("X")`).
                    let (path, class) = (&idx.file(owner).path, &idx.ty(owner).name);
                    for h in reads
                        .iter()
                        .filter(|h| h.path == *path && h.class == *class && h.method == m.name)
                    {
                        for r in &h.reads {
                            if let crate::jvm::lambda::Read::Param(kind, name) = r {
                                params.push(Param::new(*kind, name));
                            }
                        }
                    }
                    let mut e = Endpoint::new(http, url)
                        .at_path(idx.file(owner).path.clone(), a.line)
                        .params(params);
                    let classes = idx
                        .lineage(id)
                        .into_iter()
                        .map(|t| (idx.ty(t).annotations.as_slice(), idx.file(t).path.as_str()));
                    let g = crate::jvm::guard::resolve(
                        (m.annotations.as_slice(), idx.file(owner).path.as_str()),
                        classes,
                    );
                    crate::jvm::guard::apply(&mut e, &g);
                    out.push(e);
                }
            }
        }
    }
    out
}

fn raw_form(raw: &str) -> bool {
    raw.contains("form") || raw.contains("multipart")
}

fn consumes_form(a: &Annotation) -> bool {
    a.raw(&["consumes"])
        .is_some_and(|r| raw_form(&r.to_ascii_lowercase()))
}

/// A route path with the query variables of its URI template.
#[derive(Default)]
struct Template {
    path: String,
    query: Vec<String>,
}

/// The paths of a `@Controller`/`@Get`… annotation (`value`, `uri`,
/// `uris`).
fn eval_paths(
    idx: &Index,
    cfg: &Configs,
    owner: TypeId,
    a: &Annotation,
    module: &str,
) -> Vec<Template> {
    let mut items = a.items(&["value", "uri"]);
    items.extend(a.items(&["uris"]));
    if items.is_empty() {
        return vec![Template {
            path: "/".to_string(),
            query: Vec::new(),
        }];
    }
    items
        .iter()
        .filter_map(|e| idx.eval(owner.0, Some(owner), e))
        .map(|v| template(&resolve_placeholders(&v, &mut |k| cfg.get(module, k))))
        .collect()
}

/// Split an RFC 6570 URI template into its path and query variables.
fn template(v: &str) -> Template {
    let mut path = String::new();
    let mut query = Vec::new();
    let mut rest = v;
    while let Some(open) = rest.find('{') {
        path.push_str(&rest[..open]);
        let Some(len) = rest[open..].find('}') else {
            path.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let inner = &rest[open + 1..open + len];
        rest = &rest[open + len + 1..];
        if let Some(vars) = inner.strip_prefix('?').or_else(|| inner.strip_prefix('&')) {
            for var in vars.split(',') {
                let name = var.trim().trim_end_matches('*');
                let name = name.split(':').next().unwrap_or(name);
                if !name.is_empty() {
                    query.push(name.to_string());
                }
            }
        } else if let Some(seg) = inner.strip_prefix('/') {
            path.push_str(&format!("/{{{seg}}}"));
        } else {
            path.push_str(&format!("{{{inner}}}"));
        }
    }
    path.push_str(rest);
    Template {
        path: strip_patterns(&path).replace("{+", "{").replace("{#", "{"),
        query,
    }
}

fn method_params(
    idx: &Index,
    owner: TypeId,
    m: &Method,
    http: &str,
    url: &str,
    form: bool,
) -> Vec<Param> {
    let f = owner.0;
    let eval = |a: &Annotation, names: &[&str]| {
        a.items(names)
            .first()
            .and_then(|e| idx.eval(f, Some(owner), e))
            .filter(|v| !v.is_empty())
    };
    let body_kind = if form {
        ParamKind::Form
    } else {
        ParamKind::Json
    };
    let reads_body = matches!(http, "POST" | "PUT" | "PATCH");
    let mut out: Vec<Param> = Vec::new();
    for p in &m.params {
        let anns = &p.annotations;
        let named = |a: &Annotation| eval(a, &["value", "name"]).unwrap_or_else(|| p.name.clone());
        let default = |a: &Annotation| eval(a, &["defaultValue"]).unwrap_or_default();
        let ty = simple(element_type(&p.ty));
        if let Some(a) = find(anns, "QueryValue") {
            out.push(Param::query(named(a)).value(default(a)));
        } else if let Some(a) = find(anns, "PathVariable") {
            out.push(Param::path(named(a)));
        } else if let Some(a) = find(anns, "Header") {
            let name = eval(a, &["value", "name"])
                .unwrap_or_else(|| portolan_plugin_sdk::text::camel_to_header(&p.name));
            out.push(Param::header(name).value(default(a)));
        } else if let Some(a) = find(anns, "CookieValue") {
            out.push(Param::cookie(named(a)).value(default(a)));
        } else if let Some(a) = find(anns, "Part") {
            let kind = if FILE_TYPES.contains(&ty) {
                ParamKind::File
            } else {
                ParamKind::Form
            };
            out.push(Param::new(kind, named(a)));
        } else if let Some(a) = find(anns, "Body") {
            match eval(a, &["value"]) {
                Some(name) => out.push(Param::new(body_kind, name)),
                None => {
                    for name in idx.dto_fields(f, &p.ty).unwrap_or_default() {
                        out.push(Param::new(body_kind, name));
                    }
                }
            }
        } else if find(anns, "RequestBean").is_some() {
            if let Some(t) = idx.resolve_type(f, element_type(&p.ty)) {
                for b in idx.lineage(t) {
                    let bean = idx.ty(b);
                    for fld in &bean.fields {
                        let anns = &fld.annotations;
                        let name = |a: &Annotation| {
                            a.items(&["value", "name"])
                                .first()
                                .and_then(|e| idx.eval(b.0, Some(b), e))
                                .filter(|v| !v.is_empty())
                                .unwrap_or_else(|| fld.name.clone())
                        };
                        if let Some(a) = find(anns, "QueryValue") {
                            out.push(Param::query(name(a)));
                        } else if let Some(a) = find(anns, "PathVariable") {
                            out.push(Param::path(name(a)));
                        } else if let Some(a) = find(anns, "Header") {
                            out.push(Param::header(name(a)));
                        } else if let Some(a) = find(anns, "CookieValue") {
                            out.push(Param::cookie(name(a)));
                        }
                    }
                }
            }
        } else if !anns.is_empty() && !anns.iter().all(|a| is_constraint(&a.name)) {
            // Other bindings (`@RequestAttribute`, `@Value`, …).
            continue;
        } else if CONTEXT_TYPES.contains(&ty) {
            continue;
        } else if url.contains(&format!("{{{}}}", p.name)) {
            out.push(Param::path(p.name.clone()));
        } else if FILE_TYPES.contains(&ty) {
            out.push(Param::file(p.name.clone()));
        } else if SIMPLE_TYPES.contains(&ty) || is_enum(idx, f, &p.ty) {
            if reads_body {
                out.push(Param::new(body_kind, p.name.clone()));
            } else {
                out.push(Param::query(p.name.clone()));
            }
        } else if reads_body {
            for name in idx.dto_fields(f, &p.ty).unwrap_or_default() {
                out.push(Param::new(body_kind, name));
            }
        }
    }
    out
}

/// Bean Validation annotations do not change the binding.
fn is_constraint(name: &str) -> bool {
    matches!(
        name,
        "Valid"
            | "NotNull"
            | "NotBlank"
            | "NotEmpty"
            | "Nullable"
            | "NonNull"
            | "Size"
            | "Min"
            | "Max"
            | "Positive"
            | "PositiveOrZero"
            | "Pattern"
            | "Email"
    )
}

fn is_enum(idx: &Index, f: usize, ty: &str) -> bool {
    idx.resolve_type(f, element_type(ty))
        .is_some_and(|t| idx.ty(t).kind == TypeKind::Enum)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uri_templates() {
        let t = template("/books{/isbn}{?max,offset}");
        assert_eq!(t.path, "/books/{isbn}");
        assert_eq!(t.query, ["max", "offset"]);
        let t = template("/{id:[0-9]+}/x{&q*}");
        assert_eq!(t.path, "/{id}/x");
        assert_eq!(t.query, ["q"]);
        assert_eq!(
            portolan_plugin_sdk::text::camel_to_header("contentType"),
            "Content-Type"
        );
    }
}
