//! What the map step records about one module for the link step.

use serde::{Deserialize, Serialize};

use crate::py::classes::ClassInfo;
use crate::py::module::ModuleInfo;
use crate::py::signature::{Marker, SigParam};
use crate::py::strexpr::StrExpr;

/// One scanned module.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FastApiModule {
    pub info: ModuleInfo,
    /// The module imports from `fastapi`.
    #[serde(default)]
    pub fastapi: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<Obj>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<Route>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub includes: Vec<Include>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mounts: Vec<Mount>,
    /// Top-level functions with parameters (dependencies, handlers
    /// registered by `add_api_route`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<Func>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<ClassInfo>,
    /// Dependency factories: top-level functions returning `Depends(inner)`
    /// for a function `inner` they define, with `inner`'s parameters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub factories: Vec<Func>,
    /// Module-level sequences of dotted names (`ROUTERS = (a.router, …)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sequences: Vec<crate::py::loops::Sequence>,
    /// Names a dependency-injection container provides by parameter name
    /// (Litestar's `dependencies={"users_service": Provide(…)}`): a
    /// handler parameter of that name is not a client parameter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub injected: Vec<String>,
}

impl FastApiModule {
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
            && self.routes.is_empty()
            && self.includes.is_empty()
            && self.mounts.is_empty()
            && self.functions.is_empty()
            && self.classes.is_empty()
            && self.info.consts.is_empty()
            && self.info.imports.is_empty()
            && self.sequences.is_empty()
            && self.factories.is_empty()
            && self.injected.is_empty()
    }

    /// Does the module define `name` as an object, class or function?
    pub fn defines(&self, name: &str) -> bool {
        self.objects.iter().any(|o| o.name == name)
            || self.classes.iter().any(|c| c.name == name)
            || self.functions.iter().any(|f| f.name == name)
            || self.sequences.iter().any(|s| s.name == name)
            || self.factories.iter().any(|f| f.name == name)
    }
}

/// What `name = Callee(...)` makes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObjKind {
    /// `FastAPI(root_path=…)`.
    App { root_path: Option<StrExpr> },
    /// `APIRouter(prefix=…)`.
    Router { prefix: Option<StrExpr> },
    /// An instance of another class (`settings = Settings()`), by dotted
    /// class name: its string attributes can be prefixes. `name` is a
    /// literal `name=` argument (`APIKeyHeader(name='X-API-Key')`).
    Instance {
        class: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// `SessionDep = Annotated[Session, Depends(get_db)]`: a parameter
    /// type carrying its marker.
    Alias {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        types: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        marker: Option<Marker>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Obj {
    pub name: String,
    pub kind: ObjKind,
    /// `dependencies=[Depends(a), …]` targets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deps: Vec<String>,
}

/// The function handling a route.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Handler {
    /// A decorated function's signature.
    Sig(Vec<SigParam>),
    /// `add_api_route(path, endpoint)`: a function resolved in link.
    Ref(String),
    None,
}

/// A route decorator or `add_api_route` / `add_api_websocket_route` call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub line: u32,
    pub receiver: String,
    pub path: StrExpr,
    /// Upper-case methods; empty for a websocket.
    pub methods: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub websocket: bool,
    pub handler: Handler,
    /// `dependencies=[Depends(a)]` of the decorator.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deps: Vec<String>,
    /// Parameters the handler body reads from its `Request` directly
    /// (`request.query_params.get('q')`, `request.headers['X']`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<portolan_plugin_sdk::Param>,
    /// Guards (decorators, `Depends`/`Security` in the signature or the
    /// decorator's `dependencies`) and callees of the handler function,
    /// for the host's `ai_context`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<crate::py::context::Handler>,
}

/// `parent.include_router(router, prefix=…)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Include {
    pub receiver: String,
    pub router: String,
    /// `None` when absent; an unparsable prefix is `Some` of an empty
    /// expression list and resolves to nothing.
    pub prefix: Option<StrExpr>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deps: Vec<String>,
    /// `router` names a sequence whose elements are the routers (`for r in
    /// ROUTERS: app.include_router(r)`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub each: bool,
}

/// `parent.mount(path, app)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mount {
    pub receiver: String,
    pub path: StrExpr,
    pub app: String,
}

/// A function and its parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Func {
    pub name: String,
    pub params: Vec<SigParam>,
}
