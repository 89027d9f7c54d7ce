//! Django and Django REST Framework (`python_django`).
//!
//! The map step ([`scan`]) records each module's URL pattern lists
//! (`path`, `re_path`, `url`, `include(...)` of modules, names, tuples and
//! inline lists, `router.urls`), DRF routers and `register` calls, function
//! views (decorator methods, `request.method` comparisons, parameters read
//! from `request`) and classes (handler methods, `@action`s,
//! `http_method_names`, `serializer_class` / `form_class`, lookup fields,
//! filter fields, serializer / form fields). The link step ([`link`])
//! follows the URLconf tree from its roots; see there for the rules.
//!
//! Parameters read from `request` (also `self.request` in class-based
//! views): `GET` / `query_params` → query, `POST` → form, `data` → json,
//! `headers` and `META['HTTP_X_Y']` (as `X-Y`) → header, `COOKIES` →
//! cookie, `FILES` → file.

pub mod facts;
pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

crate::py::tech::module_analyzer!(
    Django,
    facts::DjangoModule,
    Tech::new("python_django", "Python", "Django")
        .aliases(["django", "python-django", "drf", "django-rest-framework"])
        .files(["*.py"])
        .detect(
            Detect::files(["*.py"])
                .regex([r"^\s*(from\s+django[.\s]|import\s+django\b|from\s+rest_framework\b)"]),
        )
);

#[cfg(test)]
mod tests;
