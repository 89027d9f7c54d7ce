//! Symfony (`php_symfony`).
//!
//! Routes come from controller attributes `#[Route('/x', name: …, methods:
//! ['GET'])]` and docblock annotations `@Route("/x", methods={"GET"})`
//! (also FOSRest's `Get`/`Post`/`Put`/`Patch`/`Delete`/`Head`/`Options`
//! and the legacy `@Method({"GET"})`), with the class-level `Route` as
//! prefix (its `methods` are the default of the class's routes; an
//! `__invoke` method without its own route takes the class route), and from
//! YAML route files (`config/routes.yaml`, `config/routes/*.yaml`,
//! `app/config/routing.yml`, bundles' `Resources/config/routing*`):
//! `path` (also localized maps), `controller`/`defaults._controller`,
//! `methods` (`GET|HEAD` or a list), and `resource:` imports with `prefix:`
//! of YAML files (prefixes compose), controller directories/files
//! (`../src/Controller/`, `@AppBundle/Controller/`, globs) and namespaces
//! (`App\Controller\`), and `resource: routing.controllers` (Symfony 7.1+
//! recipes: every controller, least specific). A controller takes the prefix of the most specific
//! import covering it (every import of that same resource when several);
//! controllers no import covers are reported without prefix. `when@env`
//! blocks and `config/routes/dev/` are development-only and skipped.
//! Requirements and defaults inside placeholders are dropped
//! (`{id<\d+>}`, `{page<\d+>?1}`, `{page?1}` → `{id}`, `{page}`), so is the
//! entity of mapped parameters (`{id:post}`, `{slug:post.slug}` → `{id}`,
//! `{slug}`).
//!
//! Import prefixes may use container parameters and environment variables
//! (`prefix: '%api_prefix%'`, `'%env(API_PREFIX)%'`): they are resolved from
//! the `parameters:` of `config/services.yaml` and the committed `.env`
//! defaults; a value only known at run time becomes a placeholder segment
//! named after it (`/{API_PREFIX}/users`) so the route is still reported.
//!
//! API Platform (see [`apip`]): resources declared in YAML resource files
//! (`resources:` maps, e.g. `config/api_platform/*.yaml`) or with
//! `#[ApiResource(operations: [...])]` / `#[Get]`… attributes, under the
//! prefix of the `type: api_platform` route import. Bodies of `Post`, `Put`
//! and `Patch` are the properties of the `input:` DTO (else of the resource
//! class) as JSON; paginated `GetCollection`s take `page` (and
//! `itemsPerPage`/`partial` when clients may set them).
//!
//! A route without `methods` answers every method: reported as GET, POST,
//! PUT, PATCH and DELETE.
//!
//! Parameters: `$request->query->get('x')` (query), `->request->get('x')`
//! (form), `->headers->get('X')`, `->cookies->get('c')`, `->files->get('f')`,
//! `$request->get('x')` (query on GET, form otherwise), JSON bodies read
//! through `$request->toArray()`, `getPayload()` or
//! `json_decode($request->getContent())`, and the argument resolvers
//! `#[MapQueryParameter]` (query; `name:` honoured), `#[MapQueryString] Dto`
//! (its properties as query), `#[MapRequestPayload] Dto` (its properties
//! as JSON), `#[MapUploadedFile]` (file); followed through `$this->helper()`
//! calls and parent classes.

pub mod apip;
pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

pub struct Symfony;

impl Analyzer for Symfony {
    fn tech(&self) -> Tech {
        Tech::new("php_symfony", "PHP", "Symfony")
            .aliases(["symfony", "php-symfony"])
            .files(["*.php", "*.yaml", "*.yml", ".env"])
            .detect(Detect::files(["composer.json"]).contains(["symfony/framework-bundle"]))
            .detect(Detect::files(["*.php"]).contains([
                "Symfony\\Component\\Routing\\Annotation\\Route",
                "Symfony\\Component\\Routing\\Attribute\\Route",
                "FOS\\RestBundle\\Controller\\Annotations",
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
