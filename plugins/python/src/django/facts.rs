//! What the map step records about one module for the link step.

use std::collections::HashSet;

use portolan_plugin_sdk::Param;
use serde::{Deserialize, Serialize};

use crate::py::context::Fact;
use crate::py::module::ModuleInfo;
use crate::py::strexpr::StrExpr;

/// One scanned module.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DjangoModule {
    pub info: ModuleInfo,
    /// URL pattern entries of every list of the module (`urlpatterns`,
    /// `api_patterns`, …), in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<UrlEntry>,
    /// `name = DefaultRouter()` / `SimpleRouter(trailing_slash=False)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routers: Vec<RouterObj>,
    /// `router.register(prefix, ViewSet, basename=…)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub registers: Vec<Register>,
    /// Top-level functions (function views and helpers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<ViewFunc>,
    /// Classes with bases (views, viewsets, serializers, mixins).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<ViewClass>,
    /// Objects whose `.urls` another framework serves (`api = NinjaAPI()`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apps: Vec<String>,
    /// `REST_FRAMEWORK = {'DEFAULT_PERMISSION_CLASSES': [...]}`: the
    /// permissions of every DRF view that sets none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_permissions: Option<Vec<Fact>>,
}

impl DjangoModule {
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
            && self.routers.is_empty()
            && self.registers.is_empty()
            && self.functions.is_empty()
            && self.classes.is_empty()
            && self.apps.is_empty()
            && self.default_permissions.is_none()
            && self.info.consts.is_empty()
            && self.info.imports.is_empty()
    }

    /// The names the module defines (lists of patterns, routers,
    /// functions, classes, served apps): the link step asks once per
    /// name, so a set, not a pass over the module each time.
    pub fn defined(&self) -> HashSet<&str> {
        self.entries
            .iter()
            .map(|e| e.list.as_str())
            .chain(self.routers.iter().map(|r| r.name.as_str()))
            .chain(self.functions.iter().map(|f| f.name.as_str()))
            .chain(self.classes.iter().map(|c| c.name.as_str()))
            .chain(self.apps.iter().map(String::as_str))
            .collect()
    }
}

/// `path(route, view)`, `re_path(regex, view)` or a list spliced into a
/// list of patterns (`urlpatterns += router.urls`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UrlEntry {
    /// The list variable the entry belongs to (empty inside `include([...])`).
    pub list: String,
    pub line: u32,
    pub route: StrExpr,
    /// `re_path` / `url`: the route is a regular expression.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub regex: bool,
    pub target: Target,
}

/// What a URL entry points at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// A function view (dotted name).
    View(String),
    /// `Class.as_view()`; for viewsets `as_view({'get': 'list'})` the
    /// methods of the mapping.
    AsView {
        class: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        actions: Option<Vec<(String, String)>>,
    },
    /// `include('app.urls')`.
    IncludeModule(StrExpr),
    /// `include(module)`, `include(patterns)`, `include(router.urls)`,
    /// `api.urls`.
    IncludeName(String),
    /// `include([path(...), ...])`.
    IncludeInline(Vec<UrlEntry>),
    None,
}

/// A DRF router object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouterObj {
    pub name: String,
    pub trailing_slash: bool,
    /// drf-nested-routers: `NestedSimpleRouter(parent, r'projects',
    /// lookup='project')` serves under `projects/{project_pk}/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<NestedParent>,
}

/// The parent of a nested router.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NestedParent {
    pub router: String,
    pub prefix: StrExpr,
    pub lookup: String,
}

/// `router.register(prefix, viewset)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Register {
    pub router: String,
    pub line: u32,
    pub prefix: StrExpr,
    pub viewset: String,
}

/// A function that may be a view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewFunc {
    pub name: String,
    /// Methods declared by decorators (`@require_http_methods`,
    /// `@require_POST`, `@api_view([...])`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub methods: Option<Vec<String>>,
    /// Methods the body compares `request.method` with, plus POST when it
    /// reads `request.POST` / `request.FILES`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub body_methods: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
    /// The serializer the body validates the request with
    /// (`XSerializer(data=request.data)`, `self.XSerializer(…)`): its
    /// fields are the JSON body of the method.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serializer: Option<String>,
    /// Guards among the decorators (`@login_required`,
    /// `@permission_required(…)`, `@method_decorator(login_required)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guards: Vec<Fact>,
    /// DRF `@permission_classes([...])` (`AllowAny` left out: an empty
    /// list is an explicitly public view).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissions: Option<Vec<Fact>>,
    /// A DRF `@api_view`: the settings' default permissions apply.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub drf: bool,
}

/// A DRF `@action` on a viewset method.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Action {
    pub name: String,
    pub line: u32,
    pub detail: bool,
    pub methods: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url_path: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
    /// `@action(permission_classes=[...])`: replaces the viewset's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissions: Option<Vec<Fact>>,
    /// `XSerializer(data=request.data)` in the action's body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serializer: Option<String>,
}

/// A class: view, viewset, serializer, mixin or form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewClass {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bases: Vec<String>,
    /// Handler methods defined in the class (`get`, `post`, `list`,
    /// `create`, …) with the parameters their bodies read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub funcs: Vec<ViewFunc>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Action>,
    /// `http_method_names = [...]`, upper-cased.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_method_names: Option<Vec<String>>,
    /// `serializer_class = X` / `form_class = X`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serializer: Option<String>,
    /// `lookup_url_kwarg` or `lookup_field`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lookup: Option<String>,
    /// Writable fields of a serializer or form: declared fields, then
    /// `Meta.fields` (minus read-only ones).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
    /// `filterset_class = X` / `filter_class = X` (django-filter).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filterset: Option<String>,
    /// A django-filter `FilterSet`'s query parameters: declared filters
    /// (`name = CharFilter(...)`) and `Meta.fields` (a dict's lookups as
    /// `field__lookup`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<String>,
    /// `parser_classes` accept only forms (`MultiPartParser`,
    /// `FormParser`): the serializer's fields are form fields.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub form_body: bool,
    /// `filterset_fields` / `filter_fields`, plus `search` and `ordering`
    /// when `search_fields` / `ordering_fields` are set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub query: Vec<String>,
    /// Guards of the class: auth mixins among its bases
    /// (`LoginRequiredMixin`, `PermissionRequiredMixin`), class decorators
    /// and `dispatch` decorators (`@method_decorator(login_required)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guards: Vec<Fact>,
    /// `permission_classes = [...]` (`AllowAny` left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissions: Option<Vec<Fact>>,
}
