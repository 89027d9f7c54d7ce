//! Handler method parameters of Spring MVC / WebFlux controllers.
//!
//! - `@RequestParam` → query (form when the mapping consumes a form or
//!   multipart body, or the method takes a file); name from `value`/`name`
//!   or the parameter name; `defaultValue` as the value; `MultipartFile`
//!   → file; `Map` parameters are skipped (no name).
//! - `@PathVariable` → path; `@RequestHeader` → header; `@CookieValue` →
//!   cookie (names and defaults as for `@RequestParam`).
//! - `@RequestBody Dto` → one json param per DTO field (fields of the DTO
//!   class and its superclasses in the tree; Java records and Kotlin data
//!   classes; `@JsonProperty` renames; `@JsonIgnore` and static fields
//!   skipped; `List<Dto>`/`Mono<Dto>` unwrapped); form when the mapping
//!   consumes `application/x-www-form-urlencoded`.
//! - `@RequestPart` → file for file types, else form.
//! - `@ModelAttribute Dto` and unannotated parameters of a class in the
//!   tree → the DTO fields as query (GET/HEAD/DELETE, or beside a JSON
//!   `@RequestBody`) or form (others); springdoc `@ParameterObject` → query;
//!   unannotated simple types (`String`, numbers, dates, enums) → query
//!   (Spring binds them as optional request parameters); `Pageable` →
//!   `page`, `size`, `sort`; unannotated `MultipartFile` → file.
//! - Parameters with `@AuthenticationPrincipal`, `@RequestAttribute`,
//!   `@SessionAttribute`, `@Value`, `@MatrixVariable` and types not in the
//!   tree (`HttpServletRequest`, `Model`, `Principal`, …) are skipped.

use portolan_plugin_sdk::{Param, ParamKind};

use crate::jvm::index::{bare_type, element_type, Index, TypeId};
use crate::jvm::outline::{find, Annotation, Method, TypeKind};

const FILE_TYPES: &[&str] = &["MultipartFile", "FilePart", "Part", "Resource"];

pub const SIMPLE_TYPES: &[&str] = &[
    "String",
    "CharSequence",
    "int",
    "long",
    "short",
    "byte",
    "boolean",
    "double",
    "float",
    "char",
    "Integer",
    "Long",
    "Short",
    "Byte",
    "Boolean",
    "Double",
    "Float",
    "Character",
    "Int",
    "Char",
    "BigDecimal",
    "BigInteger",
    "UUID",
    "LocalDate",
    "LocalDateTime",
    "LocalTime",
    "Instant",
    "Date",
    "ZonedDateTime",
    "OffsetDateTime",
    "Number",
];

const SKIP_ANNOTATIONS: &[&str] = &[
    "AuthenticationPrincipal",
    "RequestAttribute",
    "SessionAttribute",
    "Value",
    "MatrixVariable",
    "CurrentUser",
    "CurrentSecurityContext",
];

pub fn simple(ty: &str) -> &str {
    let b = bare_type(ty);
    b.rsplit('.').next().unwrap_or(b)
}

pub fn is_file_type(ty: &str) -> bool {
    FILE_TYPES.contains(&simple(element_type(ty)))
}

fn is_map(ty: &str) -> bool {
    matches!(
        simple(ty),
        "Map" | "MultiValueMap" | "HashMap" | "LinkedHashMap" | "HttpHeaders" | "MutableMap"
    )
}

/// What the mapping's `consumes` says about the body.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Consumes {
    pub form: bool,
    pub multipart: bool,
}

impl Consumes {
    pub fn of(ann: Option<&Annotation>) -> Consumes {
        let raw = ann
            .and_then(|a| a.raw(&["consumes"]))
            .unwrap_or("")
            .to_ascii_lowercase()
            .replace('_', "-");
        Consumes {
            form: raw.contains("form-urlencoded"),
            multipart: raw.contains("multipart"),
        }
    }
}

/// Parameters of handler `m` declared in type `owner`.
pub fn method_params(
    idx: &Index,
    owner: TypeId,
    m: &Method,
    http: &str,
    consumes: Consumes,
) -> Vec<Param> {
    let f = owner.0;
    let eval_first = |a: &Annotation, names: &[&str]| {
        a.items(names)
            .first()
            .and_then(|e| idx.eval(f, Some(owner), e))
            .filter(|v| !v.is_empty() && !v.contains('\u{E000}'))
    };
    let form_like = consumes.form
        || consumes.multipart
        || m.params
            .iter()
            .any(|p| is_file_type(&p.ty) && find(&p.annotations, "RequestBody").is_none());
    let query_or_form = if form_like {
        ParamKind::Form
    } else {
        ParamKind::Query
    };
    // With a JSON `@RequestBody`, model attributes can only come from the
    // query string.
    let json_body = m
        .params
        .iter()
        .any(|p| find(&p.annotations, "RequestBody").is_some());
    let model_kind = if (matches!(http, "GET" | "HEAD" | "DELETE") || json_body) && !form_like {
        ParamKind::Query
    } else {
        ParamKind::Form
    };
    let mut out: Vec<Param> = Vec::new();
    let mut push = |out: &mut Vec<Param>, p: Param| {
        if !out.iter().any(|q| q.name == p.name && q.kind == p.kind) {
            out.push(p);
        }
    };
    let dto = |out: &mut Vec<Param>,
               ty: &str,
               kind: ParamKind,
               push: &mut dyn FnMut(&mut Vec<Param>, Param)| {
        for name in idx.dto_fields(f, ty).unwrap_or_default() {
            push(out, Param::new(kind, name));
        }
    };
    for p in &m.params {
        let anns = &p.annotations;
        let named =
            |a: &Annotation| eval_first(a, &["value", "name"]).unwrap_or_else(|| p.name.clone());
        let default = |a: &Annotation| eval_first(a, &["defaultValue"]).unwrap_or_default();
        if let Some(a) = find(anns, "RequestParam") {
            if is_file_type(&p.ty) {
                push(&mut out, Param::file(named(a)));
            } else if !is_map(&p.ty) {
                push(
                    &mut out,
                    Param::new(query_or_form, named(a)).value(default(a)),
                );
            }
        } else if let Some(a) = find(anns, "PathVariable") {
            if !is_map(&p.ty) {
                push(&mut out, Param::path(named(a)));
            }
        } else if let Some(a) = find(anns, "RequestHeader") {
            if !is_map(&p.ty) {
                push(&mut out, Param::header(named(a)).value(default(a)));
            }
        } else if let Some(a) = find(anns, "CookieValue") {
            push(&mut out, Param::cookie(named(a)).value(default(a)));
        } else if find(anns, "RequestBody").is_some() {
            let kind = if consumes.form {
                ParamKind::Form
            } else {
                ParamKind::Json
            };
            dto(&mut out, &p.ty, kind, &mut push);
        } else if let Some(a) = find(anns, "RequestPart") {
            if is_file_type(&p.ty) {
                push(&mut out, Param::file(named(a)));
            } else {
                push(&mut out, Param::form(named(a)));
            }
        } else if let Some(fields) = find(anns, "ParameterObject")
            .and_then(|_| idx.dto_fields(f, &p.ty))
            .filter(|v| !v.is_empty())
        {
            // springdoc's `@ParameterObject` DTO: its fields are query
            // parameters (`Pageable` and simple types fall through).
            for name in fields {
                push(&mut out, Param::query(name));
            }
        } else if find(anns, "ModelAttribute").is_some() {
            dto(&mut out, &p.ty, model_kind, &mut push);
        } else if anns
            .iter()
            .any(|a| SKIP_ANNOTATIONS.contains(&a.name.as_str()))
        {
            continue;
        } else if is_file_type(&p.ty) {
            push(&mut out, Param::file(p.name.clone()));
        } else if SIMPLE_TYPES.contains(&simple(element_type(&p.ty))) {
            push(&mut out, Param::new(query_or_form, p.name.clone()));
        } else if simple(&p.ty) == "Pageable" {
            for n in ["page", "size", "sort"] {
                push(&mut out, Param::query(n));
            }
        } else if let Some(t) = idx.resolve_type(f, element_type(&p.ty)) {
            if idx.ty(t).kind == TypeKind::Enum {
                push(&mut out, Param::new(query_or_form, p.name.clone()));
            } else {
                dto(&mut out, &p.ty, model_kind, &mut push);
            }
        }
    }
    out
}
