//! What the map step records about one module.

use portolan_plugin_sdk::Param;
use serde::{Deserialize, Serialize};
use std::ops::Range;

use crate::py::module::ModuleInfo;
use crate::py::outline::{Def, DefKind};
use crate::py::strexpr::StrExpr;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StarletteModule {
    pub info: ModuleInfo,
    /// Route entries of every list (by list or application name).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<Entry>,
    /// Names bound to `Starlette(...)` applications.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apps: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<Handler>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<EndpointClass>,
}

impl StarletteModule {
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
            && self.apps.is_empty()
            && self.functions.is_empty()
            && self.classes.is_empty()
            && self.info.consts.is_empty()
            && self.info.imports.is_empty()
    }

    pub fn defines(&self, name: &str) -> bool {
        self.entries.iter().any(|e| e.list == name)
            || self.apps.iter().any(|a| a == name)
            || self.functions.iter().any(|f| f.name == name)
            || self.classes.iter().any(|c| c.name == name)
    }
}

/// One route of a list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The list or application the entry belongs to (empty when nested).
    pub list: String,
    pub line: u32,
    pub path: StrExpr,
    pub kind: EntryKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EntryKind {
    /// `Route(path, endpoint, methods=…)`; `None` methods = the endpoint's.
    Route {
        endpoint: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        methods: Option<Vec<String>>,
    },
    /// A decorated function (`@app.route`), with its methods and params.
    Inline {
        methods: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        params: Vec<Param>,
    },
    WebSocket {
        endpoint: String,
    },
    /// `Mount(path, routes=[…])`.
    MountInline(Vec<Entry>),
    /// `Mount(path, routes=name)` / `Mount(path, app=name)`.
    MountName(String),
}

/// A function endpoint and what it reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handler {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
}

/// An `HTTPEndpoint` subclass: its method handlers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndpointClass {
    pub name: String,
    pub methods: Vec<Handler>,
}

/// The functions of a class-based view that answer an HTTP method.
pub const METHOD_FUNCS: [&str; 7] = ["get", "post", "put", "patch", "delete", "head", "options"];

impl EndpointClass {
    /// The class `defs[i]` with its [`METHOD_FUNCS`], each with what
    /// `reads` finds in its body; `None` when it has none.
    pub fn of(
        defs: &[Def],
        i: usize,
        reads: impl Fn(Range<usize>) -> Vec<Param>,
    ) -> Option<EndpointClass> {
        let methods: Vec<Handler> = defs
            .iter()
            .filter(|d| d.is_child_of(i) && d.kind == DefKind::Function)
            .filter(|d| METHOD_FUNCS.contains(&d.name.as_str()))
            .map(|d| Handler {
                name: d.name.clone(),
                params: reads(d.body.clone()),
            })
            .collect();
        if methods.is_empty() {
            return None;
        }
        Some(EndpointClass {
            name: defs.get(i)?.name.clone(),
            methods,
        })
    }
}
