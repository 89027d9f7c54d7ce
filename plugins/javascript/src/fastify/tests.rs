use super::*;

use crate::js::test_support::{ps, rows, Row};

fn run(files: &[(&str, &str)]) -> Vec<Row> {
    rows(&Fastify, files)
}

#[test]
fn plugins_prefixes_and_schemas() {
    let rows = run(&[
        (
            "app/src/server.js",
            "const Fastify = require('fastify');\nconst app = Fastify({ logger: true });\nconst { API } = require('./config');\napp.register(require('./routes/users'), { prefix: API + '/users' });\napp.register(async (v2) => {\n  v2.register(require('./routes/items'), { prefix: '/items' });\n  v2.get('/ping', async () => 'pong');\n}, { prefix: '/v2' });\napp.get('/health', (request, reply) => reply.send({ q: request.query.verbose }));\n// app.get('/old', h);\n",
        ),
        ("app/src/config.js", "module.exports = { API: '/api' };\n"),
        (
            "app/src/schemas.js",
            "export const listQuery = {\n  type: 'object',\n  properties: { page: { type: 'integer' }, limit: { type: 'integer' } },\n};\nexport const createSchema = {\n  body: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, email: { type: 'string' } } },\n  headers: { type: 'object', properties: { 'x-api-key': { type: 'string' } } },\n};\n",
        ),
        (
            "app/src/routes/users.js",
            "const { listQuery, createSchema } = require('../schemas');\nasync function users(fastify, opts) {\n  fastify.get('/', { schema: { querystring: listQuery } }, list);\n  fastify.post('/', { schema: createSchema }, async (request, reply) => {\n    const { role } = request.body;\n  });\n  fastify.route({\n    method: ['PUT', 'PATCH'],\n    url: '/:id',\n    schema: { params: { type: 'object', properties: { id: { type: 'string' } } } },\n    handler: async (req) => req.headers['x-trace'],\n  });\n}\nasync function list(request) { return request.query.sort; }\nmodule.exports = users;\n",
        ),
        (
            "app/src/routes/items.ts",
            "import fp from 'fastify-plugin';\nimport { Type } from '@sinclair/typebox';\nconst Body = Type.Object({ sku: Type.String(), qty: Type.Number() });\nexport default fp(async (instance) => {\n  instance.post('/', { schema: { body: Body } }, async (req) => ({}));\n  instance.delete('/:sku', async (req) => req.params.sku);\n});\n",
        ),
        (
            "app/src/client.js",
            "const axios = require('axios');\naxios.get('/ext', {});\n",
        ),
        (
            "app/test/users.test.js",
            "const build = require('../src/server');\napp.get('/test-only', h);\n",
        ),
    ]);
    let urls: Vec<String> = rows.iter().map(|r| format!("{} {}", r.0, r.1)).collect();
    assert_eq!(
        urls,
        vec![
            "DELETE /v2/items/:sku",
            "GET /api/users",
            "GET /health",
            "GET /v2/ping",
            "PATCH /api/users/:id",
            "POST /api/users",
            "POST /v2/items",
            "PUT /api/users/:id",
        ]
    );
    let find = |m: &str, u: &str| rows.iter().find(|r| r.0 == m && r.1 == u).cloned();
    assert_eq!(
        find("GET", "/api/users"),
        Some((
            "GET".into(),
            "/api/users".into(),
            3,
            ps(&[("page", "query"), ("limit", "query"), ("sort", "query")])
        ))
    );
    assert_eq!(
        find("POST", "/api/users").map(|r| r.3),
        Some(ps(&[
            ("name", "json"),
            ("email", "json"),
            ("x-api-key", "header"),
            ("role", "json")
        ]))
    );
    assert_eq!(
        find("PUT", "/api/users/:id").map(|r| (r.2, r.3)),
        Some((7, ps(&[("id", "path"), ("x-trace", "header")])))
    );
    assert_eq!(
        find("POST", "/v2/items").map(|r| r.3),
        Some(ps(&[("sku", "json"), ("qty", "json")]))
    );
    assert_eq!(
        find("GET", "/health").map(|r| r.3),
        Some(ps(&[("verbose", "query")]))
    );
}
