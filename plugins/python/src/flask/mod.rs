//! Flask (`python_flask`).
//!
//! Routes: `@app.route(rule, methods=[...])` and `@x.get/post/put/patch/delete`
//! decorators on any Flask or Blueprint object, `x.add_url_rule(rule,
//! endpoint, view_func, methods=[...])` including `View.as_view()` /
//! `MethodView.as_view()` classes (one endpoint per method the class
//! serves, with the parameters its method functions read), blueprints with
//! `url_prefix` registered (and nested) anywhere in the tree, and rules
//! built from constants (also imported ones), concatenation and f-strings.
//!
//! The map step ([`scan`]) records one [`facts::FlaskModule`] per module;
//! every endpoint is built in the link step ([`link`]), where receivers,
//! imports, prefixes and view classes can be resolved across files.
//!
//! Parameters are those the handler body reads from `request` (see
//! [`crate::py::request`]). A handler that branches on `request.method`
//! gets all its parameters on every method it serves: telling which branch
//! reads what would need control flow analysis, and over-reporting a
//! parameter is cheaper for a reviewer than missing one.

pub mod classful;
pub mod facts;
pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

crate::py::tech::module_analyzer!(
    Flask,
    facts::FlaskModule,
    Tech::new("python_flask", "Python", "Flask")
        .aliases(["flask", "python-flask"])
        .files(["*.py"])
        .detect(
            Detect::files(["*.py"]).regex([
                r"^\s*(from\s+(flask|apiflask)\b.*\bimport\b|import\s+(flask|apiflask)\b)",
            ])
        )
);

/// An analyzer that is Flask's analysis under another [`scan::Flavor`]
/// (Quart, Sanic, Robyn): the technology detected by an import of the
/// flavor's package, the map step [`scan::scan_with`], the link step
/// [`link::link_with`].
macro_rules! flask_flavor {
    ($name:ident, $flavor:expr, $package:literal, $framework:literal) => {
        pub struct $name;

        impl Analyzer for $name {
            fn tech(&self) -> Tech {
                $crate::py::tech::package_tech($package, $framework)
            }

            fn analyze(&self, file: &SourceFile, out: &mut Output) {
                $crate::py::tech::record(
                    file,
                    out,
                    |f| $crate::flask::scan::scan_with(f, &$flavor),
                    |m| !m.is_empty(),
                );
            }

            fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
                let modules: Vec<$crate::flask::facts::FlaskModule> = facts.all();
                Ok($crate::flask::link::link_with(&modules, &$flavor))
            }
        }
    };
}
pub(crate) use flask_flavor;

#[cfg(test)]
mod tests;
