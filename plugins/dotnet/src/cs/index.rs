//! Every file's types by simple name: base-class lineage, constants
//! (own, inherited, `Other.Name`), and the request fields of DTOs.

use std::collections::HashMap;

use portolan_plugin_sdk::{Param, ParamKind};

use super::camel;
use super::expr::Expr;
use super::outline::{attr, CsFile, Prop, TypeDecl, TypeKind};

/// (file index, type index within the file).
pub type TypeId = (usize, usize);

pub struct Index<'a> {
    pub files: &'a [CsFile],
    by_name: HashMap<&'a str, Vec<TypeId>>,
}

/// `List<Foo>` → `Foo`'s simple name is `List`; this gives the simple
/// name of the outer type (`Ns.Foo?` → `Foo`).
pub fn simple(ty: &str) -> &str {
    let ty = ty.split('<').next().unwrap_or(ty);
    let ty = ty.trim_end_matches(['?', '[', ']', ',']);
    ty.rsplit(['.', ':']).next().unwrap_or(ty)
}

/// The element type of a collection type (`List<Foo>`, `Foo[]`,
/// `IEnumerable<Foo>`), or the type itself.
pub fn element(ty: &str) -> &str {
    let t = ty.trim_end_matches('?');
    if let Some(inner) = t.strip_suffix("[]") {
        return inner;
    }
    let outer = simple(t);
    if matches!(
        outer,
        "List"
            | "IList"
            | "IEnumerable"
            | "ICollection"
            | "IReadOnlyList"
            | "IReadOnlyCollection"
            | "HashSet"
            | "ISet"
            | "Task"
            | "ValueTask"
            | "Nullable"
    ) {
        if let (Some(open), Some(close)) = (t.find('<'), t.rfind('>')) {
            if open < close {
                return &t[open + 1..close];
            }
        }
    }
    t
}

impl<'a> Index<'a> {
    pub fn new(files: &'a [CsFile]) -> Self {
        let mut by_name: HashMap<&str, Vec<TypeId>> = HashMap::new();
        for (fi, f) in files.iter().enumerate() {
            for (ti, t) in f.types.iter().enumerate() {
                by_name.entry(t.name.as_str()).or_default().push((fi, ti));
            }
        }
        Index { files, by_name }
    }

    pub fn ty(&self, id: TypeId) -> &'a TypeDecl {
        &self.files[id.0].types[id.1]
    }

    pub fn path(&self, id: TypeId) -> &'a str {
        &self.files[id.0].path
    }

    pub fn all(&self) -> impl Iterator<Item = TypeId> + '_ {
        self.files
            .iter()
            .enumerate()
            .flat_map(|(fi, f)| (0..f.types.len()).map(move |ti| (fi, ti)))
    }

    /// Every type of a simple name, in file order.
    pub fn named(&self, name: &str) -> &[TypeId] {
        self.by_name.get(name).map_or(&[], Vec::as_slice)
    }

    /// A type by (possibly qualified or generic) name; classes and records
    /// before interfaces, the same file first, then the same namespace as
    /// the file's types (`Create.Command` of `Features.Users` from a
    /// controller in `Features.Users`, not the `Create.Command` of
    /// `Features.Articles`).
    pub fn find(&self, name: &str, near: Option<usize>) -> Option<TypeId> {
        let ids = self.by_name.get(simple(name))?;
        // `Login.Command`: the `Command` nested in `Login` first.
        let base = name.split('<').next().unwrap_or(name);
        let outer = base
            .rsplit_once('.')
            .map(|(o, _)| o.rsplit('.').next().unwrap_or(o));
        let near_ns = near
            .and_then(|f| self.files.get(f))
            .and_then(|f| f.types.first())
            .map(|t| t.namespace.as_str());
        ids.iter().copied().min_by_key(|id| {
            let t = self.ty(*id);
            (
                outer.is_some() && t.outer.as_deref() != outer,
                t.kind == TypeKind::Interface,
                Some(id.0) != near,
                near_ns.is_some() && Some(t.namespace.as_str()) != near_ns,
            )
        })
    }

    /// The type and its base classes, nearest first (cycles cut).
    pub fn lineage(&self, id: TypeId) -> Vec<TypeId> {
        let mut out = vec![id];
        let mut cur = id;
        while out.len() < 16 {
            let next = self
                .ty(cur)
                .bases
                .iter()
                .filter_map(|b| self.find(b, Some(cur.0)))
                .find(|b| self.ty(*b).kind != TypeKind::Interface);
            match next {
                Some(n) if !out.contains(&n) => {
                    out.push(n);
                    cur = n;
                }
                _ => break,
            }
        }
        out
    }

    /// Does `id` or a base class name (resolved or not) satisfy `pred`?
    pub fn derives(&self, id: TypeId, pred: &dyn Fn(&str) -> bool) -> bool {
        self.lineage(id)
            .iter()
            .any(|t| pred(&self.ty(*t).name) || self.ty(*t).bases.iter().any(|b| pred(b)))
    }

    /// Value of a constant named `name` as seen from `ctx`.
    pub fn constant(&self, ctx: Option<TypeId>, name: &str, depth: usize) -> Option<String> {
        if depth > 8 {
            return None;
        }
        let (owner, field) = match name.rsplit_once('.') {
            Some((o, f)) => (Some(o), f),
            None => (None, name),
        };
        let candidates: Vec<TypeId> = match owner {
            Some(o) => self.find(o, ctx.map(|c| c.0)).into_iter().collect(),
            None => ctx.map(|c| self.lineage(c)).unwrap_or_default(),
        };
        for t in &candidates {
            if let Some(c) = self.ty(*t).consts.iter().find(|c| c.name == field) {
                return self.eval_in(Some(*t), &c.value, depth + 1);
            }
        }
        if owner.is_none() {
            // A constant of another class used via `using static`.
            for t in self.all() {
                if let Some(c) = self.ty(t).consts.iter().find(|c| c.name == field) {
                    return self.eval_in(Some(t), &c.value, depth + 1);
                }
            }
        }
        None
    }

    pub fn eval(&self, ctx: Option<TypeId>, e: &Expr) -> Option<String> {
        self.eval_in(ctx, e, 0)
    }

    fn eval_in(&self, ctx: Option<TypeId>, e: &Expr, depth: usize) -> Option<String> {
        e.resolve(&mut |n| self.constant(ctx, n, depth))
    }

    /// The request fields of a DTO type for `kind`: its properties and
    /// those of its base classes. JSON names are camelCase unless
    /// `[JsonPropertyName]`/`[JsonProperty]` renames them; query and form
    /// names are as written unless `[FromQuery(Name=…)]`/`[FromForm(Name=…)]`/
    /// `[BindProperty(Name=…)]`/`[ModelBinder(Name=…)]`; `IFormFile`
    /// properties of a form are files; `[JsonIgnore]`d ones are skipped.
    pub fn dto_fields(&self, id: TypeId, kind: ParamKind) -> Vec<Param> {
        let mut out: Vec<Param> = Vec::new();
        let mut props: Vec<&Prop> = Vec::new();
        for t in self.lineage(id).into_iter().rev() {
            props.extend(self.ty(t).props.iter());
        }
        for p in props {
            if attr(&p.attrs, "JsonIgnore").is_some() || attr(&p.attrs, "BindNever").is_some() {
                continue;
            }
            let renamed = |names: &[&str], arg: &str| {
                names.iter().find_map(|n| {
                    let a = attr(&p.attrs, n)?;
                    a.named(arg)
                        .or_else(|| a.positional(0))
                        .and_then(|x| x.expr.as_ref())
                        .and_then(|e| e.literal())
                })
            };
            let param = match kind {
                ParamKind::Json => {
                    let name = renamed(&["JsonPropertyName", "JsonProperty"], "PropertyName")
                        .unwrap_or_else(|| camel(&p.name));
                    Param::json(name)
                }
                ParamKind::Form | ParamKind::Query => {
                    let name = renamed(
                        &["FromForm", "FromQuery", "BindProperty", "ModelBinder"],
                        "Name",
                    )
                    .unwrap_or_else(|| p.name.clone());
                    if kind == ParamKind::Form && is_file_type(&p.ty) {
                        Param::file(name)
                    } else {
                        Param::new(kind, name)
                    }
                }
                other => Param::new(other, p.name.clone()),
            };
            if !out
                .iter()
                .any(|o| o.name == param.name && o.kind == param.kind)
            {
                out.push(param);
            }
        }
        out
    }
}

/// `IFormFile`, `IFormFileCollection` and collections of `IFormFile`.
pub fn is_file_type(ty: &str) -> bool {
    matches!(
        simple(element(ty)),
        "IFormFile" | "IFormFileCollection" | "HttpPostedFileBase" | "HttpPostedFile"
    )
}

/// Types bound from a single route/query value.
pub fn is_simple_type(ty: &str) -> bool {
    let t = element(ty).trim_end_matches('?');
    matches!(
        simple(t),
        "string"
            | "String"
            | "int"
            | "Int32"
            | "long"
            | "Int64"
            | "short"
            | "Int16"
            | "uint"
            | "ulong"
            | "ushort"
            | "byte"
            | "sbyte"
            | "bool"
            | "Boolean"
            | "decimal"
            | "Decimal"
            | "double"
            | "Double"
            | "float"
            | "Single"
            | "char"
            | "Guid"
            | "DateTime"
            | "DateTimeOffset"
            | "DateOnly"
            | "TimeOnly"
            | "TimeSpan"
            | "Uri"
            | "object"
            | "StringValues"
    )
}

/// Framework types injected rather than bound from the request.
pub fn is_special_type(ty: &str) -> bool {
    matches!(
        simple(ty),
        "CancellationToken"
            | "HttpContext"
            | "HttpRequest"
            | "HttpResponse"
            | "ClaimsPrincipal"
            | "Stream"
            | "PipeReader"
            | "IFormCollection"
            | "FormCollection"
            | "ILogger"
            | "ILoggerFactory"
            | "IServiceProvider"
            | "IConfiguration"
            | "LinkGenerator"
            | "IHubContext"
            | "IMediator"
            | "ISender"
            | "IMapper"
            | "IWebHostEnvironment"
            | "IHostEnvironment"
            | "IOptions"
            | "IOptionsSnapshot"
            | "IOptionsMonitor"
            | "IHttpClientFactory"
            | "HttpClient"
            | "IValidator"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cs::outline::parse;
    use portolan_plugin_sdk::SourceFile;

    #[test]
    fn constants_lineage_and_dto_fields() {
        let a = "namespace A;\npublic static class Routes { public const string Api = \"api/\" + Version; const string Version = \"v1\"; }\npublic class Base { public int Id { get; set; } }\npublic class Dto : Base { [JsonPropertyName(\"full_name\")] public string Name { get; set; } [JsonIgnore] public string Secret { get; set; } public IFormFile Avatar { get; set; } }\n";
        let files = vec![parse(&SourceFile::new("a.cs", a)).0];
        let idx = Index::new(&files);
        assert_eq!(
            idx.constant(None, "Routes.Api", 0).as_deref(),
            Some("api/v1")
        );
        let dto = idx.find("Dto", None).unwrap();
        assert_eq!(idx.lineage(dto).len(), 2);
        let json: Vec<_> = idx
            .dto_fields(dto, ParamKind::Json)
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(json, ["id", "full_name", "avatar"]);
        let form: Vec<_> = idx
            .dto_fields(dto, ParamKind::Form)
            .into_iter()
            .map(|p| (p.name, p.kind))
            .collect();
        assert_eq!(form[2], ("Avatar".to_string(), ParamKind::File));
        assert_eq!(simple("System.Collections.Generic.List<Foo>"), "List");
        assert_eq!(element("IEnumerable<Foo>"), "Foo");
        assert!(is_file_type("List<IFormFile>"));
        assert!(is_simple_type("int?"));
        assert!(is_simple_type("string[]"));
    }
}
