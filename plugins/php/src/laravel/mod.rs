//! Laravel (`php_laravel`).
//!
//! Routes: every `Route::…` chain (and `$router->…`) in `routes/*.php`:
//! `get/post/put/patch/delete/options`, `any` (GET POST PUT PATCH DELETE),
//! `match([...])`, `view`/`redirect`/`permanentRedirect` (GET),
//! `resource`/`apiResource`/`resources`/`apiResources` (the standard
//! actions; `only`/`except` as chained calls or options, `parameters`,
//! nested `photos.comments`, `shallow`), `singleton`/`apiSingleton`;
//! groups: `Route::prefix('x')->…->group(fn)`, `Route::group(['prefix' =>
//! …, 'namespace' => …, 'controller' => …], fn)`, `Route::controller(X::class)
//! ->group(fn)` (actions given as method names), nested to any depth; route
//! files included with `group(base_path('routes/x.php'))`, `group(__DIR__ .
//! '/x.php')` or `require __DIR__ . '/auth.php'` get the including group's
//! prefix. Entry points are the files nobody includes: `bootstrap/app.php`
//! (`withRouting(web:, api:, apiPrefix:, then:)`), `RouteServiceProvider`
//! (also outside `app/`, e.g. `src/Providers/`: `base_path()` is then the
//! root of the route files), and route files referenced by neither, where
//! `routes/api.php` gets the framework's implicit `api` prefix (only then: a
//! provider that maps `routes/api.php` without `prefix('api')` adds none).
//! Optional parameters `{id?}` are reported as `{id}`, and the route is also
//! reported without its optional tail (`/posts/{slug?}` → `/posts/{slug}`
//! and `/posts`).
//!
//! Middleware: the headers and cookies read by the `handle()` of the
//! middleware guarding a route are parameters of that route. Middleware
//! comes from `Route::middleware(…)`, `['middleware' => …]` groups and
//! `->middleware(…)` on a route, nested to any depth; aliases and groups
//! are resolved through the HTTP kernel (`$middlewareAliases`,
//! `$routeMiddleware`, `$middlewareGroups`) or Laravel 11's
//! `$middleware->alias([...])`/`appendToGroup()` (a provider's
//! `Route::middleware('api')` brings the `api` group's members).
//!
//! Controllers are resolved through the route file's `use` imports (two
//! controllers may share a short name in different namespaces).
//! Parameters come from the controller method (`[C::class, 'm']`,
//! `'C@m'`, invokable `C::class`, resource actions) or the closure, through
//! `$this->helper()` calls and the parent class, plus the `rules()` keys of
//! form-request parameters (`StorePostRequest $request`) and of
//! `$request->validate(Post::rules())` / `Validator::make(…, Post::rules())`
//! (the keys the model's static `rules()` returns), the model's `$fillable`
//! attributes when every request field is mass-assigned
//! (`Post::create($request->all())`, `new Post($request->input())`,
//! `$post->fill(…)`/`->update(…)` with `$post = new Post` or a `Post $post`
//! action parameter, also through `$data = $request->json()->all()`;
//! `$guarded`-only models list nothing), and the header, query
//! and cookie parameters the action's swagger-php docblock declares
//! (`@OA\Parameter(name=…, in=…)`, also nested in its `@OA\Get(…)`, or
//! `ref="#/components/parameters/key"` to a shared `@OA\Parameter` whose
//! key is its `parameter`, else its `name`); see
//! [`crate::php::request`]. `input`-style reads are query parameters on
//! GET/HEAD routes; on other methods they are JSON for routes of the api
//! group (`routes/api.php` or `middleware('api')`) and form fields
//! otherwise. Validation keys with wildcards (`tags.*`) are skipped.
//!
//! Applications whose `bootstrap/app.php` creates a
//! `Laravel\Lumen\Application` are left to [`Lumen`] (Lumen supersedes
//! Laravel, and both are detected on Lumen apps).

use portolan_plugin_sdk::prelude::*;

/// Lumen (`php_lumen`): the Laravel interpreter on Lumen applications.
///
/// Routes: `$router->get/post/put/patch/delete/options('/x', 'C@m')` (also
/// `['as' => …, 'uses' => 'C@m']` and closures) in `routes/*.php`, groups
/// `$router->group(['prefix' => 'api/v1', 'namespace' => …, 'middleware' =>
/// …], function () use ($router) { … })` nested to any depth, and the
/// `$app->router->group(['namespace' => 'App\Http\Controllers'], …)` in
/// `bootstrap/app.php` that requires the route files (its prefix and
/// namespace apply to them). FastRoute placeholders lose their pattern
/// (`{id:[0-9]+}` → `{id}`); optional segments are reported in full.
/// Parameters as for Laravel (`$request->input/query/header/cookie`,
/// `$this->validate($request, [...])` keys); body fields are JSON (Lumen
/// is an API framework; no implicit `api` prefix).
pub struct Lumen;

impl Analyzer for Lumen {
    fn tech(&self) -> Tech {
        Tech::new("php_lumen", "PHP", "Lumen")
            .aliases(["lumen", "php-lumen"])
            .files(["*.php"])
            .detect(Detect::files(["composer.json"]).contains(["laravel/lumen-framework"]))
            .detect(Detect::files(["*.php"]).contains(["Laravel\\Lumen\\Application"]))
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
        Ok(link::link(&facts, true))
    }
}

pub mod link;
pub mod scan;

pub struct Laravel;

impl Analyzer for Laravel {
    fn tech(&self) -> Tech {
        Tech::new("php_laravel", "PHP", "Laravel")
            .aliases(["laravel", "php-laravel"])
            .files(["*.php"])
            .detect(Detect::files(["composer.json"]).contains(["laravel/framework"]))
            .detect(Detect::files(["*.php"]).contains(["Illuminate\\"]))
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
        Ok(link::link(&facts, false))
    }
}
