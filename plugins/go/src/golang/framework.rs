//! The description of a Go web framework that drives the shared scanner
//! ([`super::scan`]) and linker ([`super::link`]). A framework module is
//! mostly one `Framework` value.

use portolan_plugin_sdk::ParamKind;

use super::facts::BindKind;

/// The methods an "any method" route is reported with, when the framework
/// does not say otherwise.
pub const ANY: &[&str] = &[
    "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "CONNECT", "TRACE",
];

/// Per-method route methods (`r.GET(path, h)`): the seven common methods,
/// all nine, each spelled upper case or title case.
pub const UPPER_VERBS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
pub const UPPER_VERBS_ALL: &[&str] = ANY;
pub const TITLE_VERBS_ALL: &[&str] = &[
    "Get", "Post", "Put", "Patch", "Delete", "Head", "Options", "Connect", "Trace",
];

/// How a route registration call is shaped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `r.GET(path, handlers…)`: fixed methods, path first, handler last.
    Fixed(&'static [&'static str]),
    /// `r.Handle("GET", path, handlers…)`: method string first.
    MethodArg,
    /// `r.Match([]string{"GET", "POST"}, path, handlers…)`.
    MethodList,
    /// net/http `mux.HandleFunc("GET /items/{id}", h)`: the method, if
    /// any, is part of the pattern; none means every method (reported GET).
    Pattern,
    /// gorilla/mux `r.HandleFunc(path, h).Methods("GET", …)`; no
    /// `.Methods` means GET.
    Chained,
    /// gorilla/mux `r.Path("/x").Methods("POST").HandlerFunc(h)`: the path
    /// and methods come from the receiver chain.
    Builder,
    /// Huma `huma.Register(api, huma.Operation{Method: …, Path: …}, h)`:
    /// method and path are fields of the composite literal argument.
    Operation,
    /// GoFrame `group.Bind(ctrl1, ctrl2)`: every argument is a controller.
    Controllers,
}

#[derive(Clone, Copy, Debug)]
pub struct RouteMethod {
    pub name: &'static str,
    pub shape: Shape,
}

pub const fn route(name: &'static str, shape: Shape) -> RouteMethod {
    RouteMethod { name, shape }
}

/// What a request accessor yields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadKind {
    Param(ParamKind),
    Bind(BindKind),
}

/// Where the name (or bound struct) is in an accessor call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadArg {
    /// The n-th argument (a string literal, or `&v` for binds).
    Arg(usize),
    /// `mux.Vars(r)["id"]`: the index after the call.
    Index,
}

/// A request accessor: `{}.Query("q")` where `{}` is the handler's
/// request/context variable. `chain` is the receiver with whitespace
/// removed and every context variable written `{}` (`{}.Request.Header`,
/// `{}.URL.Query()`, `mux.Vars({})`, `chi` for `chi.URLParam(r, "id")`).
#[derive(Clone, Copy, Debug)]
pub struct Read {
    pub chain: &'static str,
    pub method: &'static str,
    pub kind: ReadKind,
    pub arg: ReadArg,
}

pub const fn read(chain: &'static str, method: &'static str, kind: ParamKind, arg: usize) -> Read {
    Read {
        chain,
        method,
        kind: ReadKind::Param(kind),
        arg: ReadArg::Arg(arg),
    }
}

/// A map read by index: `mux.Vars(r)["id"]`, `c.QueryParams()["tag"]`.
pub const fn index(chain: &'static str, kind: ParamKind) -> Read {
    Read {
        chain,
        method: "[]",
        kind: ReadKind::Param(kind),
        arg: ReadArg::Index,
    }
}

pub const fn bind(chain: &'static str, method: &'static str, kind: BindKind, arg: usize) -> Read {
    Read {
        chain,
        method,
        kind: ReadKind::Bind(kind),
        arg: ReadArg::Arg(arg),
    }
}

/// Everything the shared scanner needs to know about a framework.
#[derive(Clone, Copy, Debug)]
pub struct Framework {
    /// `pkg.Func` calls creating a router (`gin.New`, `chi.NewRouter`).
    pub constructors: &'static [&'static str],
    /// Methods named after the one HTTP method they register (`GET`,
    /// `Get`): see [`UPPER_VERBS`] and friends.
    pub verbs: &'static [&'static str],
    /// The other route methods.
    pub routes: &'static [RouteMethod],
    /// Methods returning a sub-router below a prefix given as the first
    /// string argument (`Group`, `PathPrefix`, `Route`); a function-literal
    /// argument gets the sub-router as its parameter (chi `Route`/`Group`).
    pub groups: &'static [&'static str],
    /// Methods returning a router with the receiver's prefix (`With`,
    /// `Subrouter`, `Methods` in a builder chain).
    pub passthrough: &'static [&'static str],
    /// `parent.Mount(prefix, child)` methods.
    pub mounts: &'static [&'static str],
    /// Package names whose functions register on a default router
    /// (`http.HandleFunc`).
    pub package_routers: &'static [&'static str],
    /// `http.StripPrefix(prefix, h)`-like wrappers: a route whose handler
    /// is such a call mounts the wrapped router below the prefix.
    pub strip_prefix: &'static [&'static str],
    /// Parameter types of request contexts (`*gin.Context`, `*http.Request`),
    /// compared without spaces.
    pub context_types: &'static [&'static str],
    pub reads: &'static [Read],
    /// The handler is the argument right after the path, middlewares
    /// follow (Echo); otherwise it is the last argument (Gin, Fiber, chi).
    pub handler_after_path: bool,
    /// Method receivers are request contexts (Beego controllers:
    /// `func (c *UserController) Get() { c.GetString("q") }`).
    pub receiver_context: bool,
    /// Packages whose functions take the router as first argument
    /// (`huma.Get(api, "/x", h)`, `huma.NewGroup(api, "/v1")`): their
    /// route and group functions are read as methods of that argument.
    pub router_arg_pkgs: &'static [&'static str],
    /// The handler's n-th parameter is a struct bound from the request
    /// (Huma inputs: `func(ctx context.Context, in *GetUserInput)`).
    pub param_bind: Option<(usize, BindKind)>,
    /// Route and group paths may be relative (`api.Group("user")`,
    /// `user.GET("list", h)`): the framework joins them to the prefix with
    /// a slash (Gin and Hertz `joinPaths`), so a literal without a leading
    /// `/` is still a route path.
    pub relative_paths: bool,
}

impl Framework {
    /// No routes, groups or reads: each framework names what it has and
    /// takes the rest from here (`..Framework::BASE`).
    pub const BASE: Framework = Framework {
        constructors: &[],
        verbs: &[],
        routes: &[],
        groups: &[],
        passthrough: &[],
        mounts: &[],
        package_routers: &[],
        strip_prefix: &[],
        context_types: &[],
        reads: &[],
        handler_after_path: false,
        receiver_context: false,
        router_arg_pkgs: &[],
        param_bind: None,
        relative_paths: false,
    };

    pub fn route_shape(&self, name: &str) -> Option<Shape> {
        if let Some(r) = self.routes.iter().find(|r| r.name == name) {
            return Some(r.shape);
        }
        if !self.verbs.contains(&name) {
            return None;
        }
        let i = ANY.iter().position(|v| v.eq_ignore_ascii_case(name))?;
        ANY.get(i..=i).map(Shape::Fixed)
    }

    pub fn is_context_type(&self, ty: &str) -> bool {
        let ty: String = ty.chars().filter(|c| !c.is_whitespace()).collect();
        self.context_types.iter().any(|t| *t == ty)
    }
}

/// The request accessors of `net/http` (`*http.Request` named `{}`), shared
/// by every framework whose handlers are `http.HandlerFunc`s.
pub const NET_HTTP_READS: &[Read] = &[
    read("{}.URL.Query()", "Get", ParamKind::Query, 0),
    read("{}.URL.Query()", "Has", ParamKind::Query, 0),
    read("{}.Form", "Get", ParamKind::Form, 0),
    read("{}.PostForm", "Get", ParamKind::Form, 0),
    read("{}", "FormValue", ParamKind::Form, 0),
    read("{}", "PostFormValue", ParamKind::Form, 0),
    read("{}", "FormFile", ParamKind::File, 0),
    read("{}.Header", "Get", ParamKind::Header, 0),
    read("{}.Header", "Values", ParamKind::Header, 0),
    read("{}", "Cookie", ParamKind::Cookie, 0),
    read("{}", "PathValue", ParamKind::Path, 0),
    bind("json.NewDecoder({}.Body)", "Decode", BindKind::Json, 0),
    bind("json", "Unmarshal", BindKind::Json, 1),
];

/// Two accessor tables as one (`const READS: &[Read] = &concat::<N>(A, B)`
/// with `N = A.len() + B.len()`).
pub const fn concat<const N: usize>(a: &[Read], b: &[Read]) -> [Read; N] {
    let filler = read("", "", ParamKind::Query, 0);
    let mut out = [filler; N];
    let mut i = 0;
    while i < a.len() && i < N {
        out[i] = a[i];
        i += 1;
    }
    let mut j = 0;
    while j < b.len() && i + j < N {
        out[i + j] = b[j];
        j += 1;
    }
    out
}
