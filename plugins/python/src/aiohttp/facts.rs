//! What the map step records about one module.

use portolan_plugin_sdk::Param;
use serde::{Deserialize, Serialize};

use crate::py::module::ModuleInfo;
use crate::py::strexpr::StrExpr;
use crate::starlette::facts::{EndpointClass, Handler as Func};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AiohttpModule {
    pub info: ModuleInfo,
    /// Names bound to `web.Application()`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apps: Vec<String>,
    /// Names bound to `web.RouteTableDef()` or to lists of route definitions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<Route>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub includes: Vec<Include>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<Func>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<EndpointClass>,
    /// Application factories: (function, the app name it builds and returns).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub factories: Vec<(String, String)>,
    /// `name = factory(...)`: (name, dotted callee).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub built: Vec<(String, String)>,
}

impl AiohttpModule {
    pub fn is_empty(&self) -> bool {
        self.apps.is_empty()
            && self.tables.is_empty()
            && self.routes.is_empty()
            && self.includes.is_empty()
            && self.functions.is_empty()
            && self.classes.is_empty()
            && self.factories.is_empty()
            && self.built.is_empty()
            && self.info.consts.is_empty()
            && self.info.imports.is_empty()
    }

    pub fn defines(&self, name: &str) -> bool {
        self.apps.iter().any(|a| a == name)
            || self.tables.iter().any(|t| t == name)
            || self.functions.iter().any(|f| f.name == name)
            || self.classes.iter().any(|c| c.name == name)
    }
}

/// One route, owned by an application, a route table or a list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub owner: String,
    pub line: u32,
    /// Upper-case method, `*` for any, `VIEW` for a class-based view.
    pub method: String,
    pub path: StrExpr,
    pub handler: Handler,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Handler {
    /// A decorated function's reads.
    Inline(Vec<Param>),
    /// A function or `web.View` class by dotted name.
    Ref(String),
}

/// `owner.add_routes(table)` (empty prefix) or `owner.add_subapp(prefix, app)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Include {
    pub owner: String,
    pub target: String,
    pub prefix: StrExpr,
}
