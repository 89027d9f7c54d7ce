//! What the map step records about each Go file (and `go.mod`) for the
//! link step. Router values are symbolic: an [`Origin`] (where the router
//! object comes from) plus the path prefix added on the way
//! (`v1 := r.Group("/api/v1")` is `r`'s origin plus `/api/v1`).

use portolan_plugin_sdk::{Param, ParamKind};
use serde::{Deserialize, Serialize};

use super::strexpr::StrExpr;

/// One fact per file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Fact {
    /// A `go.mod`: its directory and module path.
    Mod {
        dir: String,
        module: String,
    },
    File(Box<GoFile>),
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GoFile {
    pub path: String,
    /// Directory of the file (its package), `/`-separated.
    pub dir: String,
    pub package: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<Import>,
    /// Package-level `const` / `var` strings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consts: Vec<(String, StrExpr)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub structs: Vec<Struct>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub funcs: Vec<Func>,
    /// Package-level router variables (`var router = gin.Default()`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub globals: Vec<Assign>,
    /// Slices of registration functions: `routers = append(routers,
    /// registerUsers)` or `var routers = []func(*gin.RouterGroup){a, b}`,
    /// by slice variable.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub func_slices: Vec<(String, Vec<FuncRef>)>,
    /// Package-level variables naming a value of a known type, for
    /// handlers called on them: `var userApi = api.Group.UserApi` (an
    /// embedded field is named after its type) or `var h = new(T)` → type
    /// name (`pkg:Type` when the package is written).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub var_hints: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    /// Explicit alias (`api "example.com/x/handlers"`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias: Option<String>,
    pub path: String,
}

impl Import {
    /// The name the package is referred to by when no alias is given and
    /// its package clause is unknown: the last path element, skipping a
    /// `/vN` major-version suffix and `go-` / `.go` decorations.
    pub fn default_name(&self) -> String {
        let mut parts = self.path.rsplit('/');
        let mut last = parts.next().unwrap_or("");
        if last.len() > 1 && last.starts_with('v') && last[1..].bytes().all(|b| b.is_ascii_digit())
        {
            last = parts.next().unwrap_or(last);
        }
        let last = last.strip_prefix("go-").unwrap_or(last);
        let last = last.strip_suffix(".go").unwrap_or(last);
        last.replace(['-', '.'], "_")
    }
}

/// A struct type with its fields (for request binding).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Struct {
    pub name: String,
    /// Line of the type declaration.
    #[serde(default)]
    pub line: u32,
    pub fields: Vec<Field>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    /// Go field name; for an embedded field, the type name.
    pub name: String,
    pub ty: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub embedded: bool,
}

impl Field {
    /// The whole value of a tag (`method:"get,post"` → `get,post`).
    pub fn tag_full(&self, key: &str) -> &str {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .unwrap_or("")
    }

    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.split(',').next().unwrap_or(""))
    }
}

/// A reference to a function or method as written at a call site.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FuncRef {
    /// `routes` in `routes.Register`, `h` in `h.List`; `None` for a plain
    /// `Register`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qual: Option<String>,
    pub name: String,
    /// For a method call on a variable: the variable's type name, when the
    /// scan could tell (`h := handlers.NewUserHandler()` → `UserHandler`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// Where a router value comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// The default router (`http.HandleFunc`), or anything rooted at `/`.
    Root,
    /// A router created here (`gin.New()`, `chi.NewRouter()`), by site id.
    New(String),
    /// The function's n-th parameter.
    Param(usize),
    /// What a call returns (`api := newAPI(r)`).
    Ret(FuncRef),
    /// A package-level variable (optionally `pkg.Var`).
    Global(Option<String>, String),
    /// A struct field (`s.router`), matched by name across the module.
    Field(String),
}

/// A router value: an origin plus a path prefix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RVal {
    pub origin: Origin,
    #[serde(default, skip_serializing_if = "super::strexpr::is_empty")]
    pub prefix: StrExpr,
    /// Middleware attached on the way (`r.Group("/x", auth.Required())`,
    /// `g.Use(tenant)`, chi `r.With(mw)`): what they read counts for every
    /// route registered on this router value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guards: Vec<FuncRef>,
}

impl RVal {
    /// A router value with no prefix and no middleware.
    pub fn at(origin: Origin) -> Self {
        RVal {
            origin,
            prefix: StrExpr::default(),
            guards: Vec::new(),
        }
    }
}

/// What handles a route.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Handler {
    /// A function literal, with what it reads.
    Inline(Reads),
    /// Named functions (a handler, its factory or wrappers around it).
    Refs(Vec<FuncRef>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Route {
    pub line: u32,
    pub recv: RVal,
    /// Upper-case methods; empty for a net/http pattern whose method (if
    /// any) is part of the path text.
    pub methods: Vec<String>,
    pub path: StrExpr,
    /// The path is a net/http `ServeMux` pattern (`"GET /items/{id}"`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pattern: bool,
    /// GoFrame `group.Bind(ctrl…)`: the handler references name controller
    /// values (`qual` = package, `name` = type or empty for "any type in
    /// that package"); the routes are their methods' request structs.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub controllers: bool,
    pub handler: Handler,
    /// Parameters the route's matchers require (gorilla/mux
    /// `.Queries("q", "{q}")`, `.Headers("X-Key", "")`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub matched: Vec<Param>,
}

/// `parent.Mount(prefix, child)`: the child's routes live below the prefix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mount {
    pub parent: RVal,
    pub prefix: StrExpr,
    pub child: RVal,
}

/// A call passing router values: `routes.Register(v1, db)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Call {
    pub callee: FuncRef,
    pub args: Vec<Option<RVal>>,
}

/// Assignment of a router value to a package variable or struct field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assign {
    pub target: Origin,
    pub val: RVal,
}

/// What a handler reads from the request.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Reads {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub binds: Vec<Bind>,
    /// Functions called with the request context (`parsePaging(c)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub helpers: Vec<FuncRef>,
    /// Typed values handed to such a helper, which may bind the request
    /// into them (`handler.BindAndCheck(ctx, req)` with
    /// `req := &schema.LoginReq{}`): (helper, argument index, type).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub helper_args: Vec<(FuncRef, usize, TypeRef)>,
    /// Names read with `FormValue`, which looks in the query string and
    /// the form body: query parameters of a GET, form fields otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub form_values: Vec<String>,
    /// Parameters named by a constant (`c.GetHeader(TenantHeader)`,
    /// `c.Get(middleware.DeviceIDHeader)`), resolved in the link step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub named: Vec<(ParamKind, StrExpr)>,
}

impl Reads {
    pub fn is_empty(&self) -> bool {
        self.named.is_empty()
            && self.params.is_empty()
            && self.binds.is_empty()
            && self.helpers.is_empty()
            && self.helper_args.is_empty()
            && self.form_values.is_empty()
    }
}

/// How a struct is bound from the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BindKind {
    /// JSON body, `json` tags.
    Json,
    /// Query string, named by `form` (gin) or `query` (echo, fiber) tags.
    Query,
    /// Form body, `form` tags.
    Form,
    /// Headers, `header` / `reqHeader` tags.
    Header,
    /// Path parameters, `uri` / `param` / `params` tags.
    Path,
    /// Content-negotiated body (`c.ShouldBind`, `c.Bind`): `json` tags as
    /// JSON, and fields tagged only for the query, path or headers there.
    Auto,
    /// Gin's `ShouldBind`/`Bind`: on GET (and HEAD) requests the form
    /// binding reads `form`-tagged (else exported, not `json:"-"`) fields
    /// from the query string; on other methods as [`BindKind::Auto`].
    ByMethod,
    /// Gin's form binding of the query string (`ByMethod` on a GET).
    FormQuery,
    /// Every field from the source its tag names, request-line tags first
    /// (Hertz `BindAndValidate`, Huma inputs): `path`/`uri`, `query`/`url`,
    /// `header`, `cookie`, then `json`, then `form`; untagged exported
    /// fields as JSON.
    Tagged,
    /// A Huma input struct: `path`, `query`, `header`, `cookie` (and
    /// `form`) tagged fields, and the `Body` field's type as JSON; other
    /// fields are not read from the request.
    Input,
    /// A GoFrame request struct (`g.Meta` with `path`/`method` tags):
    /// fields named by `json`/`p` tags, their source by `in` tags
    /// (query for GET-like methods, JSON otherwise).
    Meta,
    /// A protobuf message (or plain struct) decoded as JSON (Kratos
    /// `ctx.Bind`, Connect): fields named by the `json=` (else `name=`)
    /// part of their `protobuf` tag, else their `json` tag; oneof wrappers
    /// and unexported fields are skipped.
    ProtoJson,
    /// The same fields from the query string (Kratos `ctx.BindQuery`).
    ProtoQuery,
    /// The same fields from a form body (Kratos `ctx.BindForm`).
    ProtoForm,
}

/// A struct type as written (`CreateUserRequest`, `dto.Login`), or an
/// anonymous struct declared in place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TypeRef {
    Named {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        qual: Option<String>,
        name: String,
    },
    Inline(Vec<Field>),
    /// The enclosing function's n-th parameter, an `any` / `interface{}`
    /// value: a helper binding into whatever its caller passes.
    Param(usize),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bind {
    pub kind: BindKind,
    pub ty: TypeRef,
}

/// A function or method declaration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Func {
    pub name: String,
    /// Receiver type name for a method (`UserHandler` for `(h *UserHandler)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recv: Option<String>,
    #[serde(default, skip_serializing_if = "Reads::is_empty")]
    pub reads: Reads,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<Route>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mounts: Vec<Mount>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<Call>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub returns: Vec<RVal>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assigns: Vec<Assign>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn import_default_names() {
        let name = |p: &str| {
            Import {
                alias: None,
                path: p.into(),
            }
            .default_name()
        };
        assert_eq!(name("example.com/app/internal/routes"), "routes");
        assert_eq!(name("github.com/labstack/echo/v4"), "echo");
        assert_eq!(name("github.com/go-chi/chi/v5"), "chi");
        assert_eq!(name("github.com/gofiber/fiber/v2"), "fiber");
    }
}
