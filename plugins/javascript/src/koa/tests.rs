use super::*;

use crate::js::test_support::{ps, rows, Row};

fn run(files: &[(&str, &str)]) -> Vec<Row> {
    rows(&Koa, files)
}

#[test]
fn routers_prefixes_and_ctx() {
    let rows = run(&[
        (
            "app/src/app.js",
            "const Koa = require('koa');\nconst Router = require('@koa/router');\nconst users = require('./routes/users');\nconst app = new Koa();\nconst api = new Router({ prefix: '/api' });\napi.use('/users', users.routes(), users.allowedMethods());\napp.use(api.routes());\napi.get('health', '/health', async (ctx) => { ctx.body = ctx.query.deep; });\n// api.get('/old', h);\n",
        ),
        (
            "app/src/routes/users.js",
            "import Router from '@koa/router';\nimport { show } from '../controllers/users';\nconst router = new Router();\nrouter.prefix('/v1');\nrouter.get('/:id', auth, show);\nrouter.post('/', async (ctx) => {\n  const { name, email } = ctx.request.body;\n  const token = ctx.get('X-Token');\n  const sid = ctx.cookies.get('sid');\n  ctx.cookies.set('flash', '');\n});\nrouter.all('/any', async (ctx) => {});\nexport default router;\n",
        ),
        (
            "app/src/controllers/users.js",
            "export async function show(ctx) {\n  return { id: ctx.params.id, full: ctx.query.full };\n}\n",
        ),
        ("app/test/users.test.js", "const router = new Router();\nrouter.get('/test-only', h);\n"),
    ]);
    let urls: Vec<String> = rows
        .iter()
        .map(|r| format!("{} {} {}", r.0, r.1, r.2))
        .collect();
    assert_eq!(
        urls,
        vec![
            "DELETE /api/users/v1/any 12",
            "GET /api/health 8",
            "GET /api/users/v1/:id 5",
            "GET /api/users/v1/any 12",
            "PATCH /api/users/v1/any 12",
            "POST /api/users/v1 6",
            "POST /api/users/v1/any 12",
            "PUT /api/users/v1/any 12",
        ]
    );
    let find = |m: &str, u: &str| {
        rows.iter()
            .find(|r| r.0 == m && r.1 == u)
            .map(|r| r.3.clone())
    };
    assert_eq!(find("GET", "/api/health"), Some(ps(&[("deep", "query")])));
    assert_eq!(
        find("GET", "/api/users/v1/:id"),
        Some(ps(&[("id", "path"), ("full", "query")]))
    );
    assert_eq!(
        find("POST", "/api/users/v1"),
        Some(ps(&[
            ("name", "json"),
            ("email", "json"),
            ("X-Token", "header"),
            ("sid", "cookie")
        ]))
    );
}
