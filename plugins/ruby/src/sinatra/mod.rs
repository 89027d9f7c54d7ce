//! Sinatra (`ruby_sinatra`).
//!
//! Routes: `get/post/put/patch/delete/options/head '/path' do … end`
//! (block or `{ }` required, string paths only: regexp routes are
//! skipped), sinatra-contrib's `route :get, :post, '/x' do`, in classic
//! apps (top level of any file) and modular apps (`class Api <
//! Sinatra::Base`/`Sinatra::Application`, or a subclass of one in the
//! tree, which also inherits its routes; a class reopened in several files
//! is one app). `namespace '/api' do` (sinatra-contrib) nests, extensions
//! registered with `register Mod` contribute the routes their
//! `self.registered(app)` declares (`app.get …`, `app.namespace …`).
//! Paths: constants, concatenation and `#{CONST}` interpolation resolve;
//! `*` splats become `:splat`; the optional-marker `?` is dropped.
//!
//! Mounts: `config.ru` (`map '/v1' do run Api end`, nested maps,
//! `Rack::URLMap`), Rails routes (`mount Api => '/api'`) and `use OtherApp`
//! inside an app (the used app serves under the same prefix); an app
//! mounted nowhere is served at `/`, except a base class whose subclasses
//! are apps (its routes are reported under the subclasses).
//!
//! Parameters: what the route block reads, plus the `before` filters that
//! apply to the route (no pattern, or a pattern prefixing the path) and the
//! helper methods called (`helpers do … end`, `helpers Mod`, instance
//! methods of the app), transitively. `params['x']` is a query parameter
//! on GET/HEAD/DELETE/OPTIONS and a form field on POST/PUT/PATCH (what
//! Sinatra parses into `params`; JSON bodies need an explicit parse);
//! `JSON.parse(request.body.read)['x']` is a json field;
//! `request.env['HTTP_X_TOKEN']`, `env['HTTP_X']`,
//! `request.get_header('HTTP_X')` are headers (`X-Token`);
//! `request.cookies['x']` / `cookies[:x]` cookies. URL placeholders,
//! `splat` and `captures` are path parameters.

pub mod link;

use portolan_plugin_sdk::prelude::*;

use crate::rb::dsl::{file_nodes, FileNodes};
use crate::rb::request::Options;

pub struct Sinatra;

pub use portolan_plugin_sdk::rubyish::dsl::VERBS;

pub const OPTIONS: Options = Options {
    bare_headers: false,
    bare_env: true,
    index_headers: false,
    receivers: &[],
};

impl Analyzer for Sinatra {
    fn tech(&self) -> Tech {
        Tech::new("ruby_sinatra", "Ruby", "Sinatra")
            .aliases(["sinatra", "ruby-sinatra"])
            .files(["*.rb", "*.ru"])
            .detect(
                Detect::files(["Gemfile", "gems.rb"]).regex([r#"^\s*gem\s*\(?\s*["']sinatra["']"#]),
            )
            .detect(Detect::files(["*.rb", "*.ru"]).regex([
                r#"^\s*require\s*\(?\s*["']sinatra(/base)?["']"#,
                r"<\s*Sinatra::(Base|Application)\b",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let path = file.slash_path();
        let c = &file.content;
        let interesting = crate::rb::rack::is_mount_file(&path, c)
            || c.contains("Sinatra")
            || c.contains("registered")
            || VERBS
                .iter()
                .any(|(v, _)| c.contains(&format!("{v} ")) || c.contains(&format!("{v}(")))
            || c.contains("route ");
        if !interesting {
            return;
        }
        let nodes = file_nodes(file, OPTIONS, &|call| {
            VERBS.iter().any(|(v, _)| *v == call.name)
                || matches!(call.name.as_str(), "route" | "before")
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
