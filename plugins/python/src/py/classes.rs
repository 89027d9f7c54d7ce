//! Classes as data: bases, annotated fields (pydantic models, dataclasses,
//! settings), string class attributes and the `__init__` signature.
//! Serialisable, so models declared in one module can be used by handlers
//! in another at link time.

use portolan_plugin_sdk::Code;
use serde::{Deserialize, Serialize};

use super::call::{call_at, dotted_at, split_args};
use super::lines::LogicalLine;
use super::module::{assignment_target, Const};
use super::outline::{Def, DefKind};
use super::signature::{annotation_parts, signature, SigParam};
use super::strexpr::StrExpr;

/// An annotated class attribute (`name: str = Field(alias='userName')`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    pub name: String,
    /// `Field(alias=…)`, also inside `Annotated[…]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
}

impl Field {
    /// The name a client sends.
    pub fn wire_name(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }
}

/// A class of the module (top-level or nested).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassInfo {
    pub name: String,
    /// Dotted base class names as written (keyword arguments excluded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bases: Vec<String>,
    /// Decorated with `@dataclass` / `@dataclasses.dataclass` / `@attr.s`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dataclass: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
    /// Class attributes that are string expressions (`PREFIX = '/api'`,
    /// `API_V1_STR: str = "/api/v1"`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attrs: Vec<Const>,
    /// The `__init__` parameters after `self`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<Vec<SigParam>>,
    /// The `__call__` parameters after `self`: an instance of the class is
    /// a callable (a FastAPI dependency `Depends(checker)` with
    /// `checker = Checker(...)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<Vec<SigParam>>,
}

/// Class attributes that are configuration, not data fields.
const NOT_FIELDS: [&str; 3] = ["model_config", "Config", "Meta"];

/// Read the class `defs[index]`.
pub fn class_info(
    code: &Code<'_>,
    lines: &[LogicalLine],
    defs: &[Def],
    index: usize,
) -> Option<ClassInfo> {
    let class = defs.get(index).filter(|d| d.kind == DefKind::Class)?;
    let bases = class
        .open_paren
        .map(|open| {
            split_args(code, open)
                .into_iter()
                .filter(|a| a.name.is_none() && !a.star)
                .filter_map(|a| {
                    let (name, r) = dotted_at(code, a.value.start)?;
                    // `Generic[T]` and friends: the name before `[`.
                    (r.end == a.value.end || code.text().as_bytes().get(r.end) == Some(&b'['))
                        .then_some(name)
                })
                .filter(|b| b != "object")
                .collect()
        })
        .unwrap_or_default();
    let dataclass = class.decorators.iter().any(|d| {
        let last = d.name.rsplit('.').next().unwrap_or(&d.name);
        matches!(last, "dataclass" | "s" | "define" | "attrs" | "frozen")
    });
    let first = lines.partition_point(|l| l.start < class.body.start);
    let body_lines: Vec<&LogicalLine> = lines[first..]
        .iter()
        .take_while(|l| l.end <= class.body.end)
        .filter(|l| l.indent > class.indent)
        .collect();
    let body_indent = body_lines.iter().map(|l| l.indent).min();
    let mut fields = Vec::new();
    let mut attrs = Vec::new();
    for line in body_lines.iter().filter(|l| Some(l.indent) == body_indent) {
        let text = line.text(code);
        if let Some(field) = annotated_field(code, line) {
            if !NOT_FIELDS.contains(&field.name.as_str()) && !text.contains("ClassVar") {
                if let Some((name, value)) = assignment_target(code, line) {
                    if let Some(v) = attr_value(code, value..line.end) {
                        attrs.push(Const { name, value: v });
                    }
                }
                if !fields.iter().any(|f: &Field| f.name == field.name) {
                    fields.push(field);
                }
            }
            continue;
        }
        if let Some((name, value)) = assignment_target(code, line) {
            if let Some(v) = StrExpr::parse(code, value..line.end) {
                attrs.push(Const { name, value: v });
            }
        }
    }
    let method = |name: &str| {
        defs.iter()
            .find(|d| d.is_child_of(index) && d.kind == DefKind::Function && d.name == name)
            .map(|d| {
                signature(code, d)
                    .into_iter()
                    .skip(1)
                    .filter(|p| !p.star)
                    .collect()
            })
    };
    let init = method("__init__");
    let call = method("__call__");
    Some(ClassInfo {
        name: class.name.clone(),
        bases,
        dataclass,
        fields,
        attrs,
        init,
        call,
    })
}

/// A string attribute value: a string expression, or the default of a
/// settings field (`Field("/api", env="PREFIX")`, `Field(default="/api")`).
fn attr_value(code: &Code<'_>, value: std::ops::Range<usize>) -> Option<StrExpr> {
    if let Some(v) = StrExpr::parse(code, value.clone()) {
        return Some(v);
    }
    let call = call_at(code, code.skip_ws(value.start))?;
    if call.method() != "Field" || code.skip_ws(call.close + 1) < value.end {
        return None;
    }
    StrExpr::parse(code, call.arg(0, "default")?)
}

/// `name: T` or `name: T = value` as a class-body statement.
fn annotated_field(code: &Code<'_>, line: &LogicalLine) -> Option<Field> {
    let name = code.ident_at(line.start)?.to_string();
    let colon = code.skip_inline_ws(line.start + name.len());
    if code.text().as_bytes().get(colon) != Some(&b':') || name.starts_with("__") {
        return None;
    }
    let parts = code.split_top_level(colon + 1, line.end, b'=');
    let ann = parts.first()?.clone();
    let (types, _) = annotation_parts(code, ann.clone());
    // `Field(alias=…)` as the value or inside `Annotated[…]`.
    let mut alias = None;
    let mut search = vec![ann];
    if let Some(v) = parts.get(1) {
        search.push(v.start..line.end);
    }
    for r in search {
        for at in code
            .find_all("Field(")
            .filter(|&a| a >= r.start && a < r.end)
        {
            if let Some(call) = call_at(code, at) {
                let lit = |k: &str| {
                    call.keyword(k)
                        .and_then(|v| code.string_at(v.start))
                        .map(|l| l.value)
                };
                if let Some(a) = lit("alias").or_else(|| lit("validation_alias")) {
                    alias = Some(a);
                }
            }
        }
    }
    Some(Field { name, alias, types })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::py::lines::logical_lines;
    use crate::py::outline::outline;
    use portolan_plugin_sdk::Syntax;

    #[test]
    fn pydantic_model_fields_aliases_and_attrs() {
        let src = "class Item(Base, Generic[T], extra='forbid'):\n    \"\"\"Doc: not a field.\"\"\"\n    model_config = ConfigDict(x=1)\n    PREFIX = '/items'\n    name: str\n    price: float = Field(..., gt=0)\n    user_name: Annotated[str, Field(alias='userName')]\n    tags: List[Tag] = []\n    kind: ClassVar[str] = 'x'\n    API_V1_STR: str = '/api/v1'\n    PREFIX_B: str = Field('/b', env='B')\n\n    class Config:\n        orm_mode = True\n\n    def total(self) -> float:\n        inner: int = 1\n        return 2\n";
        let code = Code::new(src, Syntax::PYTHON);
        let lines = logical_lines(&code);
        let defs = outline(&code, &lines);
        let info = class_info(&code, &lines, &defs, 0).unwrap();
        assert_eq!(info.bases, vec!["Base", "Generic"]);
        let names: Vec<_> = info.fields.iter().map(|f| f.wire_name()).collect();
        assert_eq!(
            names,
            vec![
                "name",
                "price",
                "userName",
                "tags",
                "API_V1_STR",
                "PREFIX_B"
            ]
        );
        assert_eq!(info.fields[3].types, vec!["Tag"]);
        let attrs: Vec<_> = info.attrs.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(attrs, vec!["PREFIX", "API_V1_STR", "PREFIX_B"]);
        assert!(info.init.is_none());
        assert!(class_info(&code, &lines, &defs, 2).is_none());
    }

    #[test]
    fn dataclass_and_init() {
        let src = "@dataclass\nclass Pager:\n    skip: int = 0\n\nclass Common:\n    def __init__(self, q: str = None, *args, limit: int = 10):\n        self.q = q\n";
        let code = Code::new(src, Syntax::PYTHON);
        let lines = logical_lines(&code);
        let defs = outline(&code, &lines);
        let pager = class_info(&code, &lines, &defs, 0).unwrap();
        assert!(pager.dataclass);
        assert_eq!(pager.fields[0].name, "skip");
        let common = class_info(&code, &lines, &defs, 1).unwrap();
        let init: Vec<_> = common.init.unwrap().into_iter().map(|p| p.name).collect();
        assert_eq!(init, vec!["q", "limit"]);
    }
}
