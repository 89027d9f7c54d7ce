use super::*;

use crate::js::test_support::{rows, Row};

fn run(files: &[(&str, &str)]) -> Vec<Row> {
    rows(&Restify, files)
}

#[test]
fn servers_routers_and_object_paths() {
    let rows = run(&[
        (
            "app/server.js",
            "const restify = require('restify');\nconst users = require('./users');\nconst server = restify.createServer({ name: 'api' });\nserver.use(restify.plugins.queryParser());\nserver.get({ path: '/ping', version: '1.0.0' }, (req, res, next) => { res.send(req.query.echo); });\nserver.opts('/ping', (req, res) => res.send(204));\nserver.del('/cache', (req, res) => res.send(req.header('X-Key')));\nusers.applyRoutes(server, '/users');\n// server.get('/old', h);\n",
        ),
        (
            "app/users.js",
            "const Router = require('restify-router').Router;\nconst router = new Router();\nrouter.post('/', (req, res) => res.send(req.body.name));\nrouter.get('/:id', (req, res) => res.send(req.params.id));\nmodule.exports = router;\n",
        ),
        ("app/test/users.test.js", "const restify = require('restify');\nconst s = restify.createServer();\ns.get('/test-only', h);\n"),
    ]);
    let got: Vec<String> = rows
        .iter()
        .map(|(m, u, l, ps)| {
            let ps: Vec<String> = ps.iter().map(|(n, k)| format!("{n}:{k}")).collect();
            format!("{m} {u} {l} {}", ps.join(","))
        })
        .collect();
    assert_eq!(
        got,
        vec![
            "DELETE /cache 7 X-Key:header",
            "GET /ping 5 echo:query",
            "GET /users/:id 4 id:path",
            "OPTIONS /ping 6 ",
            "POST /users 3 name:json",
        ]
    );
}
