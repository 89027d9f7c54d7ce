//! Ruby on Rails (`ruby_rails`).
//!
//! Routes come from `config/routes.rb` (any `X.routes.draw` block, so
//! engines' routes files too) and the partials it loads with `draw(:name)`
//! from `config/routes/`. The DSL is interpreted in the link step
//! ([`link`]) with the whole tree at hand: `get/post/put/patch/delete`,
//! `match … via:` (`via: :all` = GET POST PUT PATCH DELETE), `root`,
//! `resources`/`resource` (the seven/six standard actions, `only:`/
//! `except:`, `path:`, `controller:`, `module:`, `param:`, `path_names:`),
//! nested resources (`/posts/:post_id/comments`), `member`/`collection`
//! blocks and `on: :member|:collection|:new`, `namespace`, `scope` (path
//! and `path:`/`module:`/`controller:`), `controller`, `concern`/`concerns`
//! and `concerns:`, `shallow` blocks and `shallow: true`/`shallow_path:`,
//! `mount Engine => '/x'` (`at:` too) for engines in the same tree (their
//! `isolate_namespace` prefixes their controllers), constants and
//! `#{CONST}` interpolation in paths. `constraints`, `defaults`,
//! conditionals and other blocks are transparent. Mounted Rack apps that
//! are not engines (Sidekiq, Grape, Sinatra, Action Cable) are left to
//! their own analyzers.
//!
//! Paths: Rails' optional `(.:format)` suffix is omitted (it is implicit
//! on every route and a scanner does not need it); other optional groups
//! such as `(:locale)` are dropped the same way, so the canonical URL is
//! reported; globs `*path` become `:path`.
//!
//! Engines never mounted in the tree are reported at their own paths, and
//! `config/routes/*.rb` partials never drawn (e.g. drawn from a loop) at
//! the root of their app.
//!
//! Parameters: see [`params`].

pub mod facts;
pub mod link;
pub mod params;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

pub struct Rails;

impl Analyzer for Rails {
    fn tech(&self) -> Tech {
        Tech::new("ruby_rails", "Ruby", "Rails")
            .aliases(["rails", "ruby-rails", "ruby_on_rails"])
            .files(["*.rb"])
            .detect(
                Detect::files(["Gemfile", "gems.rb"])
                    .regex([r#"^\s*gem\s*\(?\s*["'](rails|railties)["']"#]),
            )
            .detect(
                Detect::files(["*.gemspec"])
                    .regex([r#"add_(runtime_)?dependency\s*\(?\s*["'](rails|railties)["']"#]),
            )
            // A tree without its Gemfile (a vendored app, a subdirectory
            // scanned alone): the routes file or a controller says Rails.
            .detect(
                Detect::files(["**/config/routes.rb", "**/config/routes/*.rb"])
                    .regex([r"\.routes\.draw\b"]),
            )
            .detect(
                Detect::files(["*.rb"])
                    .regex([r"<\s*(ActionController::(Base|API)|Rails::(Application|Engine))\b"]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        for fact in scan::scan(file) {
            out.fact(&fact);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let facts: Vec<facts::Fact> = facts.all();
        Ok(link::link(&facts))
    }
}
