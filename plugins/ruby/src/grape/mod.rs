//! Grape (`ruby_grape`).
//!
//! APIs are classes descending from `Grape::API` (or
//! `Grape::API::Instance`), reopened classes merged. The URL of a route is
//! `<rack mount> / <prefix> / <version> / <namespaces> / <path>`:
//! `prefix :api`; `version 'v1'` (`using: :path`, the default; `:header`,
//! `:accept_version_header` and `:param` versioning add no segment; several
//! versions give one route each); `namespace`/`resource(s)`/`group`/
//! `segment :users do` and `route_param :id do` (→ `/:id`) nest;
//! `get`/`post`/`put`/`patch`/`delete`/`head`/`options [path] do` declare
//! routes, and `route :any | [methods], path do` too (`:any` = GET POST
//! PUT PATCH DELETE).
//!
//! Composition: `mount Users::API` inside an API (also inside a namespace,
//! and `mount API => '/base'`) serves the mounted API under the mounting
//! one's path; the mounted API inherits the `prefix` and `version` of the
//! mounting one unless it declares its own. Rack mounts (`config.ru` `map`
//! / `run`, Rails `mount API => '/api'`) give the outermost prefix. An API
//! mounted nowhere is served at `/` (the one that would be run directly).
//!
//! Parameters: a `params do requires :name; optional :page end` block
//! applies to the next route, or to every route of the next namespace /
//! `route_param`; `use :pagination` expands named params declared with
//! `params :pagination do … end` (in `helpers`). Declared and read
//! (`params[:x]`) names are query parameters on GET/HEAD/DELETE/OPTIONS and
//! JSON fields on POST/PUT/PATCH (Grape parses JSON bodies into `params`,
//! and JSON is what Grape APIs take); nested `requires :user, type: Hash do
//! … end` reports `user`. Headers: `headers['X-Token']`,
//! `env['HTTP_X_TOKEN']`, and the ones documented with `desc …, headers:
//! {…}` (or `headers` inside the `desc` block); `cookies[:x]` cookies. The
//! route block, the `before` blocks of the API and of the APIs mounting
//! it, and the helper methods called are read.

pub mod link;

use portolan_plugin_sdk::prelude::*;

use crate::rb::dsl::{file_nodes, FileNodes};
use crate::rb::request::Options;

pub struct Grape;

pub use portolan_plugin_sdk::rubyish::dsl::VERBS;

pub const OPTIONS: Options = Options {
    bare_headers: true,
    bare_env: true,
    index_headers: false,
    receivers: &[],
};

impl Analyzer for Grape {
    fn tech(&self) -> Tech {
        Tech::new("ruby_grape", "Ruby", "Grape")
            .aliases(["grape", "ruby-grape"])
            .files(["*.rb", "*.ru"])
            .detect(
                Detect::files(["Gemfile", "gems.rb"]).regex([r#"^\s*gem\s*\(?\s*["']grape["']"#]),
            )
            .detect(Detect::files(["*.rb"]).regex([r"<\s*Grape::API\b"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let path = file.slash_path();
        let c = &file.content;
        if !(crate::rb::rack::is_mount_file(&path, c)
            || c.contains("Grape")
            || c.contains("params ")
            || c.contains("namespace")
            || c.contains("resource"))
        {
            return;
        }
        let nodes = file_nodes(file, OPTIONS, &|call| {
            call.recv.is_empty()
                && (VERBS.iter().any(|(v, _)| *v == call.name)
                    || matches!(call.name.as_str(), "route" | "before"))
        });
        out.fact(&FileNodes {
            path: file.path.clone(),
            nodes,
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let files: Vec<FileNodes> = facts.all();
        Ok(link::link(&files))
    }
}
