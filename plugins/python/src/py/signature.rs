//! Function signatures as dependency-injection frameworks read them
//! (FastAPI, Django Ninja, Litestar, …): each parameter's name, the type
//! names in its annotation, and the parameter marker given as default or
//! inside `Annotated[…]` (`Query(alias='q')`, `Header()`, `Depends(dep)`).
//!
//! Everything is kept symbolic (serialisable) so types and dependencies can
//! be resolved across modules at link time.

use portolan_plugin_sdk::Code;
use serde::{Deserialize, Serialize};
use std::ops::Range;

use super::call::{call_at, dotted_at, Call};
use super::outline::Def;
use super::strexpr::StrExpr;

/// What a parameter marker says about where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MarkerKind {
    Query,
    Header,
    Cookie,
    Body,
    Form,
    File,
    Path,
    /// `Depends(dep)` / `Security(dep)`: the dependency's own parameters.
    Depends,
}

impl MarkerKind {
    /// The marker a callee's last segment names (`fastapi.Query` → Query).
    pub fn from_callee(name: &str) -> Option<MarkerKind> {
        Some(match name.rsplit('.').next().unwrap_or(name) {
            "Query" => MarkerKind::Query,
            "Header" => MarkerKind::Header,
            "Cookie" => MarkerKind::Cookie,
            "Body" => MarkerKind::Body,
            "Form" => MarkerKind::Form,
            "File" => MarkerKind::File,
            "Path" => MarkerKind::Path,
            "Depends" | "Security" => MarkerKind::Depends,
            _ => return None,
        })
    }
}

/// A parameter marker call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    pub kind: MarkerKind,
    /// `alias='x'` (also `validation_alias`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias: Option<String>,
    /// `alias=NAME` (also `validation_alias`) naming a constant, possibly
    /// of another module (`Cookie(alias=SESSION_COOKIE_NAME)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias_ref: Option<StrExpr>,
    /// `convert_underscores=False` on `Header()`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keep_underscores: bool,
    /// `embed=True` on `Body()`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub embed: bool,
    /// The dependency of `Depends(dep)` as a dotted name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dep: Option<String>,
}

impl Marker {
    /// Read a marker from a call, if the callee is one.
    pub fn from_call(code: &Code<'_>, call: &Call) -> Option<Marker> {
        let kind = MarkerKind::from_callee(&call.callee)?;
        let literal = |name: &str| {
            call.keyword(name)
                .and_then(|r| code.string_at(r.start))
                .filter(|l| !l.interpolated)
                .map(|l| l.value)
        };
        let flag = |name: &str| call.keyword(name).map(|r| code.slice(r).trim().to_string());
        let dep = if kind == MarkerKind::Depends {
            call.arg(0, "dependency").and_then(|r| {
                let (name, range) = dotted_at(code, r.start)?;
                (range.end == r.end).then_some(name)
            })
        } else {
            None
        };
        Some(Marker {
            kind,
            alias: literal("alias").or_else(|| literal("validation_alias")),
            alias_ref: ["alias", "validation_alias"]
                .iter()
                .find_map(|k| call.keyword(k))
                .filter(|r| code.string_at(r.start).is_none())
                .and_then(|r| StrExpr::parse(code, r))
                .filter(|e| e.literal().is_none()),
            keep_underscores: flag("convert_underscores").as_deref() == Some("False"),
            embed: flag("embed").as_deref() == Some("True"),
            dep,
        })
    }
}

/// One parameter of a function.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SigParam {
    pub name: String,
    /// Dotted type names in the annotation, typing wrappers removed
    /// (`Optional[List[Item]]` → `["Item"]`, `str | None` → `["str"]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marker: Option<Marker>,
    /// `*args` / `**kwargs`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub star: bool,
    /// A default that calls something other than a marker (`limit: int =
    /// deps.LimitBody()`): the callee, which may be a factory returning
    /// `Depends(…)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub factory: Option<String>,
}

/// Typing constructs that wrap the type that matters.
const WRAPPERS: [&str; 22] = [
    "Optional",
    "Union",
    "List",
    "list",
    "Set",
    "set",
    "FrozenSet",
    "frozenset",
    "Tuple",
    "tuple",
    "Sequence",
    "Iterable",
    "Dict",
    "dict",
    "Mapping",
    "None",
    "Annotated",
    "Literal",
    "Type",
    "type",
    "ClassVar",
    "Final",
];

/// The parameters of `def` in order (`self`/`cls` included; the bare `*`
/// and `/` markers skipped).
pub fn signature(code: &Code<'_>, def: &Def) -> Vec<SigParam> {
    let Some(open) = def.open_paren else {
        return Vec::new();
    };
    code.args(open)
        .into_iter()
        .filter_map(|r| sig_param(code, r))
        .collect()
}

fn sig_param(code: &Code<'_>, range: Range<usize>) -> Option<SigParam> {
    let text = code.slice(range.clone());
    let star = text.starts_with('*');
    let name_start = range.start + text.len() - text.trim_start_matches('*').len();
    let name = code.ident_at(name_start)?.to_string();
    let after_name = name_start + name.len();
    let (annotation, default) = split_param(code, after_name..range.end);
    let mut marker = None;
    let mut types = Vec::new();
    if let Some(ann) = annotation {
        let (t, m) = annotation_parts(code, ann);
        types = t;
        marker = m;
    }
    let mut factory = None;
    if let Some(d) = default {
        if let Some(call) = call_at(code, code.skip_ws(d.start)) {
            match Marker::from_call(code, &call) {
                Some(m) => marker = Some(m),
                None => factory = Some(call.callee.clone()),
            }
        }
    }
    Some(SigParam {
        name,
        types,
        marker,
        star,
        factory,
    })
}

/// After the parameter name: the annotation and default ranges.
fn split_param(
    code: &Code<'_>,
    rest: Range<usize>,
) -> (Option<Range<usize>>, Option<Range<usize>>) {
    let bytes = code.text().as_bytes();
    let start = code.skip_ws(rest.start);
    if start >= rest.end {
        return (None, None);
    }
    match bytes.get(start) {
        Some(b':') => {
            let parts = code.split_top_level(start + 1, rest.end, b'=');
            let ann = parts.first().cloned();
            let default = parts.get(1).map(|d| d.start..rest.end);
            (ann, default)
        }
        Some(b'=') => (None, Some(code.skip_ws(start + 1)..rest.end)),
        _ => (None, None),
    }
}

/// The type names and the `Annotated[T, Marker(...)]` marker of an annotation.
pub fn annotation_parts(code: &Code<'_>, ann: Range<usize>) -> (Vec<String>, Option<Marker>) {
    let bytes = code.text().as_bytes();
    if let Some((name, r)) = dotted_at(code, ann.start) {
        if name.rsplit('.').next() == Some("Annotated") && bytes.get(r.end) == Some(&b'[') {
            let args = code.args(r.end);
            let types = args
                .first()
                .map(|t| type_names(code, t.clone()))
                .unwrap_or_default();
            let marker = args
                .iter()
                .skip(1)
                .filter_map(|a| call_at(code, a.start))
                .find_map(|c| Marker::from_call(code, &c));
            return (types, marker);
        }
    }
    (type_names(code, ann), None)
}

/// Dotted names in a type expression, typing wrappers removed, in order.
/// String annotations (`"Item"`) are read as names.
pub fn type_names(code: &Code<'_>, range: Range<usize>) -> Vec<String> {
    let bytes = code.text().as_bytes();
    let mut out: Vec<String> = Vec::new();
    let mut i = range.start;
    while i < range.end.min(bytes.len()) {
        if let Some(lit) = code.string_at(i).filter(|l| l.start == i) {
            let v = lit.value.trim();
            if !v.is_empty()
                && v.split('.').all(|s| {
                    s.chars()
                        .next()
                        .is_some_and(|c| c.is_alphabetic() || c == '_')
                        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
                })
                && !out.iter().any(|o| o == v)
            {
                out.push(v.to_string());
            }
            i = lit.end.max(i + 1);
            continue;
        }
        let b = bytes[i];
        if (b.is_ascii_alphabetic() || b == b'_')
            && code.is_code(i)
            && (i == 0 || !portolan_plugin_sdk::lex::is_ident_byte(bytes[i - 1]))
        {
            if let Some((name, r)) = dotted_at(code, i) {
                let last = name.rsplit('.').next().unwrap_or(&name);
                if !WRAPPERS.contains(&last) && !out.contains(&name) {
                    out.push(name.clone());
                }
                i = r.end.max(i + 1);
                continue;
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::py::lines::logical_lines;
    use crate::py::outline::outline;
    use portolan_plugin_sdk::Syntax;

    fn sig(src: &str) -> Vec<SigParam> {
        let code = Code::new(src, Syntax::PYTHON);
        let lines = logical_lines(&code);
        let defs = outline(&code, &lines);
        signature(&code, &defs[0])
    }

    #[test]
    fn plain_annotated_and_marked_parameters() {
        let got = sig("async def f(\n    item_id: int,\n    q: Optional[str] = None,\n    item: 'Item' = Body(..., embed=True),\n    x_token: Annotated[str | None, Header(convert_underscores=False)] = None,\n    s: List[int] = Query([], alias='size'),\n    db: Session = Depends(get_db),\n    *args, **kwargs,\n): pass\n");
        let names: Vec<_> = got.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            vec!["item_id", "q", "item", "x_token", "s", "db", "args", "kwargs"]
        );
        assert_eq!(got[0].types, vec!["int"]);
        assert_eq!(got[0].marker, None);
        assert_eq!(got[1].types, vec!["str"]);
        assert_eq!(got[2].types, vec!["Item"]);
        let body = got[2].marker.as_ref().unwrap();
        assert_eq!((body.kind, body.embed), (MarkerKind::Body, true));
        assert_eq!(got[3].types, vec!["str"]);
        let header = got[3].marker.as_ref().unwrap();
        assert_eq!(header.kind, MarkerKind::Header);
        assert!(header.keep_underscores);
        assert_eq!(
            got[4].marker.as_ref().unwrap().alias.as_deref(),
            Some("size")
        );
        let dep = got[5].marker.as_ref().unwrap();
        assert_eq!(dep.kind, MarkerKind::Depends);
        assert_eq!(dep.dep.as_deref(), Some("get_db"));
        assert!(got[6].star && got[7].star);
    }

    #[test]
    fn annotated_depends_and_bare_markers() {
        let got = sig("def f(self, p: Annotated[Pager, Depends()], *, t: fastapi.Query = fastapi.Query(None)): pass");
        assert_eq!(got.len(), 3);
        assert_eq!(got[1].types, vec!["Pager"]);
        let m = got[1].marker.as_ref().unwrap();
        assert_eq!((m.kind, m.dep.as_deref()), (MarkerKind::Depends, None));
        assert_eq!(got[2].marker.as_ref().unwrap().kind, MarkerKind::Query);
        assert!(sig("def f: pass").is_empty());
        assert!(sig("def f(: pass").is_empty());
    }
}
