use super::*;

use crate::js::test_support::{rows, Row};

fn run(files: &[(&str, &str)]) -> Vec<Row> {
    rows(&Express, files)
}

fn urls(files: &[(&str, &str)]) -> Vec<String> {
    run(files)
        .into_iter()
        .map(|(m, u, _, _)| format!("{m} {u}"))
        .collect()
}

#[test]
fn mounts_across_modules() {
    let got = urls(&[
        (
            "app/app.js",
            "const express = require('express');\nconst app = express();\nconst api = require('./routes');\nconst { API } = require('./config');\napp.use(express.json());\napp.use(API, api);\napp.get('/health', (req, res) => res.send('ok'));\nconsole.log(app.get('env'));\n",
        ),
        ("app/config.js", "exports.API = '/api/' + 'v1';\n"),
        (
            "app/routes/index.js",
            "const router = require('express').Router();\nconst users = require('./users');\nrouter.use('/users', auth, users);\nrequire('./items')(router);\nmodule.exports = router;\n",
        ),
        (
            "app/routes/users.js",
            "import { Router } from 'express';\nconst r = Router();\nr.route('/:id').get(ctrl.show).put((req, res) => req.body.name);\nr.all('/any', h);\nexport default r;\n",
        ),
        (
            "app/routes/items.js",
            "module.exports = function (router) {\n  router.post('/items', async (req, res) => { const { sku, qty } = req.body; });\n};\n",
        ),
        (
            "app/client.js",
            "const axios = require('axios');\naxios.get('/ext', {});\nfetchMock.get('/mock', 200);\nnock('http://x').get('/nock').reply(200);\nrequest(app).get('/st').expect(200);\n",
        ),
        ("app/__tests__/a.test.js", "const express = require('express');\nconst app = express();\napp.get('/test-only', h);\n"),
    ]);
    assert_eq!(
        got,
        vec![
            "DELETE /api/v1/users/any",
            "GET /api/v1/users/:id",
            "GET /api/v1/users/any",
            "GET /health",
            "PATCH /api/v1/users/any",
            "POST /api/v1/items",
            "POST /api/v1/users/any",
            "PUT /api/v1/users/:id",
            "PUT /api/v1/users/any",
        ]
    );
}

#[test]
fn params_and_named_handlers() {
    let got = run(&[
        (
            "src/server.ts",
            "import express from 'express';\nimport * as ctrl from './controllers/users';\nconst app = express();\napp.get('/users', ctrl.list);\napp.post('/users', asyncHandler(ctrl.create));\n",
        ),
        (
            "src/controllers/users.ts",
            "export async function list(req: Request, res: Response) {\n  const { page, limit } = req.query;\n  const t = req.get('X-Tenant');\n}\nexport const create = async (req, res) => {\n  res.json(req.body.email, req.cookies.sid);\n};\n",
        ),
    ]);
    assert_eq!(
        got,
        vec![
            (
                "GET".to_string(),
                "/users".to_string(),
                4,
                vec![
                    ("page".to_string(), "query".to_string()),
                    ("limit".into(), "query".into()),
                    ("X-Tenant".into(), "header".into())
                ]
            ),
            (
                "POST".into(),
                "/users".into(),
                5,
                vec![
                    ("email".into(), "json".into()),
                    ("sid".into(), "cookie".into())
                ]
            ),
        ]
    );
}

#[test]
fn class_routers_and_factories() {
    let got = urls(&[
        (
            "src/app.ts",
            "import express from 'express';\nimport UsersRoute from './routes/users.route';\nimport { makeOrders } from './routes/orders';\nclass App {\n  public app = express();\n  constructor(routes) {\n    this.app.use('/api', new UsersRoute().router);\n    this.app.use('/api/orders', makeOrders());\n  }\n}\n",
        ),
        (
            "src/routes/users.route.ts",
            "import { Router } from 'express';\nclass UsersRoute {\n  public path = '/users';\n  public router = Router();\n  constructor() { this.initializeRoutes(); }\n  private initializeRoutes() {\n    this.router.get(`${this.path}`, this.list);\n    this.router.delete(`${this.path}/:id`, this.remove);\n  }\n}\nexport default UsersRoute;\n",
        ),
        (
            "src/routes/orders.ts",
            "import express from 'express';\nexport function makeOrders() {\n  const router = express.Router();\n  router.get('/', list);\n  return router;\n}\n",
        ),
    ]);
    assert_eq!(
        got,
        vec!["DELETE /api/users/:id", "GET /api/orders", "GET /api/users"]
    );
}

#[test]
fn constants_from_exported_object_literals() {
    let got = urls(&[
        (
            "a/server.js",
            "const express = require('express');\nconst { API_PREFIX } = require('./paths');\nconst app = express();\napp.use(API_PREFIX, require('./r'));\n",
        ),
        (
            "a/paths.js",
            "const ROOT = '/api';\nmodule.exports = { API_PREFIX: `${ROOT}/v1`, ROUTES: { USERS: '/users' } };\n",
        ),
        (
            "a/r.js",
            "const { ROUTES } = require('./paths');\nconst router = require('express').Router();\nrouter.get(ROUTES.USERS + '/:id', h);\nmodule.exports = router;\n",
        ),
    ]);
    assert_eq!(got, vec!["GET /api/v1/users/:id"]);
}

#[test]
fn minified_bundles_are_skipped() {
    let line = "a.get('/x',function(q,s){});".repeat(1000);
    assert!(urls(&[(
        "public/vendor.js",
        &format!("var express=require('express');var a=express();{line}")
    )])
    .is_empty());
    assert!(urls(&[(
        "public/app.min.js",
        "var a=require('express')();a.get('/x',h);"
    )])
    .is_empty());
}

#[test]
fn bundles_are_recognised_cheaply() {
    // A webpack development bundle: many short lines, a runtime marker.
    let body = "app.get('/x', function (req, res) { res.send(req.query.q); });\n".repeat(55_000);
    let bundle = format!("/******/ (() => {{ // webpackBootstrap\n/******/ \tvar __webpack_modules__ = ({{\nvar express = require('express'); var app = express();\n{body}");
    assert!(bundle.len() > 3_000_000);
    let t = std::time::Instant::now();
    assert!(urls(&[("public/api.js", &bundle)]).is_empty());
    assert!(t.elapsed().as_secs_f64() < 1.0, "{:?}", t.elapsed());
    let src = "var express = require('express'); var app = express();\napp.get('/x', h);\n";
    assert!(urls(&[("dist/app.standalone.js", src)]).is_empty());
    assert!(urls(&[("dist/app.umd.js", src)]).is_empty());
    // Compiled output with a source-map trailer.
    let compiled = format!(
        "{}{}\n//# sourceMappingURL=app.js.map\n",
        src,
        "// x\n".repeat(30_000)
    );
    assert!(urls(&[("dist/app.js", &compiled)]).is_empty());
    // An ordinary module is analyzed.
    assert_eq!(urls(&[("src/app.js", src)]), vec!["GET /x"]);
}

#[test]
fn handlers_and_services_on_module_exports_aliases() {
    let got = run(&[
        ("src/app.js", "const express = require('express');\nconst app = express();\napp.use('/api/v3', require('./routes'));\n"),
        ("src/routes/index.js", "const router = require('express').Router();\nconst controllers = require('../controllers');\nrouter.post('/groups', controllers.write.groups.create);\nrouter.get('/groups', controllers.write.groups.list);\nmodule.exports = router;\n"),
        ("src/controllers/index.js", "const Controllers = module.exports;\nController.nope = 1;\nControllers.write = require('./write');\n"),
        ("src/controllers/write/index.js", "const Write = module.exports;\nWrite.groups = require('./groups');\n"),
        ("src/controllers/write/groups.js", "const api = require('../../api');\nconst Groups = module.exports;\nGroups.list = async (req, res) => {\n  res.json(await api.groups.list(req, { ...req.query }));\n};\nGroups.create = async (req, res) => {\n  res.json(await api.groups.create(req, req.body));\n};\n"),
        ("src/api/index.js", "module.exports = {\n  groups: require('./groups'),\n};\n"),
        ("src/api/groups.js", "const groupsAPI = module.exports;\ngroupsAPI.list = async function (caller, data) {\n  return [data.sort, data.after];\n};\ngroupsAPI.create = async function (caller, data) {\n  if (typeof data.name !== 'string') throw new Error('x');\n  return { name: data.name, hidden: data.hidden, s: data.toString() };\n};\n"),
    ]);
    let s = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        got,
        vec![
            (
                "GET".into(),
                "/api/v3/groups".into(),
                4,
                s(&[("sort", "query"), ("after", "query")])
            ),
            (
                "POST".into(),
                "/api/v3/groups".into(),
                3,
                s(&[("name", "json"), ("hidden", "json")])
            ),
        ]
    );
}

#[test]
fn auth_middleware_becomes_guards() {
    let src = "const express = require('express');\nconst passport = require('passport');\nconst { requireAuth, isAdmin } = require('./auth');\nconst router = express.Router();\nrouter.get('/public', (req, res) => res.send('ok'));\nrouter.get('/me', passport.authenticate('jwt', { session: false }), (req, res) => res.json(req.user));\nrouter.use(requireAuth);\nrouter.delete('/users/:id', isAdmin, (req, res) => res.sendStatus(204));\nrouter.post('/notes', validate(noteSchema), (req, res) => res.sendStatus(201));\nmodule.exports = router;\n";
    let mut facts = Facts::new(Vec::new());
    let mut out = Output::new();
    Express.analyze(&SourceFile::new("src/routes.js", src), &mut out);
    facts.extend(out.into_parts().1);
    let mut got: Vec<(String, String, Vec<(String, String)>)> = Express
        .link(&facts)
        .unwrap_or_default()
        .into_iter()
        .map(|e| {
            let gs = e
                .ai_context
                .map(|c| c.guards.into_iter().map(|g| (g.kind, g.name)).collect())
                .unwrap_or_default();
            (e.method, e.url, gs)
        })
        .collect();
    got.sort();
    let g = |k: &str, n: &str| (k.to_string(), n.to_string());
    assert_eq!(
        got,
        vec![
            (
                "DELETE".into(),
                "/users/:id".into(),
                vec![g("authz_guard", "isAdmin"), g("auth_guard", "requireAuth")]
            ),
            (
                "GET".into(),
                "/me".into(),
                vec![g(
                    "auth_guard",
                    "passport.authenticate('jwt', { session: false })"
                )]
            ),
            ("GET".into(), "/public".into(), vec![]),
            (
                "POST".into(),
                "/notes".into(),
                vec![g("auth_guard", "requireAuth")]
            ),
        ]
    );
}
