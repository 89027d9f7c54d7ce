//! Slim (`php_slim`, Slim 3 and 4).
//!
//! Routes: `$app->get/post/put/patch/delete/options('/x', handler)`,
//! `map(['GET', 'POST'], '/x', h)`, `any('/x', h)` (GET POST PUT PATCH
//! DELETE) and `redirect('/from', '/to')` (GET), on the application or a
//! route collector: the receiver is `$app`/`$router`/`$group`/… or any
//! variable typed `App`, `RouteCollectorProxy`(`Interface`) or `Group` in the
//! file; `$this` inside a Slim 3 group closure. Groups `$app->group('/api',
//! function (RouteCollectorProxy $group) { … })` nest to any depth (chained
//! `->add(...)` middleware is ignored), and a file `require`d inside a group
//! closure gets the group's prefix (files nobody requires are entry points).
//! FastRoute placeholders lose their pattern (`{id:[0-9]+}` → `{id}`) and
//! optional segments are reported in full (`/archive[/{year}]` →
//! `/archive/{year}`).
//!
//! Parameters come from the handler: a closure, `[C::class, 'm']`,
//! `'C:m'`, `C::class . ':m'`, or an invokable `C::class` (Slim skeleton
//! actions: `__invoke` → `$this->action()` through the parent class):
//! `getQueryParams()['x']` / `getQueryParam('x')` (query),
//! `getParsedBody()['x']` / `getParsedBodyParam('x')` and
//! `$data = $request->getParsedBody(); $data['x']` (JSON: Slim apps parse
//! JSON bodies with `BodyParsingMiddleware`), `getParam('x')` (query on GET,
//! JSON otherwise), `getHeaderLine('X')` / `getHeader('X')` (header),
//! `getCookieParams()['c']` (cookie), `getUploadedFiles()['f']` (file).

pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

pub struct Slim;

impl Analyzer for Slim {
    fn tech(&self) -> Tech {
        Tech::new("php_slim", "PHP", "Slim")
            .aliases(["slim", "php-slim"])
            .files(["*.php"])
            .detect(Detect::files(["composer.json"]).contains(["\"slim/slim\""]))
            .detect(Detect::files(["*.php"]).contains([
                "Slim\\Factory\\AppFactory",
                "Slim\\Routing\\RouteCollectorProxy",
                "new \\Slim\\App",
                "new Slim\\App",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        for f in scan::scan(file) {
            out.fact(&f);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let facts: Vec<scan::Fact> = facts.all();
        Ok(link::link(&facts))
    }
}
