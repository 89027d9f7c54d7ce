//! AdonisJS (`js_adonisjs`), v6 (`router` from
//! `@adonisjs/core/services/router`) and v5 (`Route` from
//! `@ioc:Adonis/Core/Route`).
//!
//! Routes: `router.get/post/put/patch/delete(path, handler)`,
//! `router.route(path, ['GET', …], handler)`, `router.on(path)` (GET) and
//! `router.any(path, handler)`, which matches every verb: reported as GET,
//! POST, PUT, PATCH and DELETE (HEAD and OPTIONS left out, like `all` of
//! the other routers). Groups `router.group(() => {…}).prefix('/api')`
//! nest, whatever else the chain carries (`.use(middleware.auth())`,
//! `.as()`, v5 `.middleware()`). Resources `router.resource('posts',
//! PostsController)` give the seven resourceful actions: index `GET
//! /posts`, create `GET /posts/create`, store `POST /posts`, show `GET
//! /posts/:id`, edit `GET /posts/:id/edit`, update `PUT` and `PATCH
//! /posts/:id`, destroy `DELETE /posts/:id`; `.apiOnly()` drops create
//! and edit, `.only([…])` / `.except([…])` filter the actions; a nested
//! resource `'posts.comments'` lives under `/posts/:post_id` (naive
//! singular: `ies` → `y`, else a trailing `s` dropped). Optional
//! parameters `:id?` are reported as `:id`.
//!
//! Handlers: `[UsersController, 'show']` (lazy `() => import(…)` or
//! static imports; `[C]` is `handle`), v5 `'UsersController.show'` and
//! v6 magic strings `'#controllers/users_controller.show'`, or inline
//! functions. A controller is found by the import's file name, else by
//! its class name. Parameters read in the method: `request.input('x')`
//! and `request.only(['a', 'b'])` and the fields read from
//! `request.all()` travel in the query string for GET, HEAD, DELETE and
//! OPTIONS routes and in the JSON body otherwise (Adonis merges both);
//! `request.qs()` reads are query, `request.body()` reads JSON,
//! `request.header('x')` header, `request.cookie('c')` (also
//! `encryptedCookie`/`plainCookie`) cookie, `request.file('f')` file.
//! `request.validateUsing(v)` takes the keys of the VineJS schema
//! `vine.compile(vine.object({ … }))` (or `vine.create({ … })`) bound to
//! `v`, anywhere in the tree, and v5 `request.validate(V)` the keys of
//! `schema.create({ … })` in class `V`; they follow the `input` rule.
//!
//! Test files (`tests/functional/…`) are skipped.

pub mod link;
pub mod scan;

use portolan_plugin_sdk::prelude::*;

use crate::express::{is_generated, JS_FILES};

pub struct AdonisJs;

impl Analyzer for AdonisJs {
    fn tech(&self) -> Tech {
        Tech::new("js_adonisjs", "JavaScript", "AdonisJS")
            .aliases(["adonisjs", "adonis", "js-adonisjs"])
            .files(JS_FILES)
            .detect(
                Detect::files(JS_FILES)
                    .regex([r#"['"]@adonisjs/core"#, r#"['"]@ioc:Adonis/Core/"#]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let module = scan::scan(file);
        if !module.is_empty() {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<scan::AdonisModule> = facts.all();
        Ok(link::link(&modules))
    }
}

#[cfg(test)]
mod tests;
