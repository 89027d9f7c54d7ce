use super::*;

fn run(files: &[(&str, &str)]) -> Vec<String> {
    let mut eps: Vec<String> = crate::js::test_support::linked(&Hapi, files)
        .into_iter()
        .map(|e| {
            let ps: Vec<String> = e
                .params
                .iter()
                .map(|p| format!("{}:{:?}", p.name, p.kind).to_lowercase())
                .collect();
            format!(
                "{} {} {} {}",
                e.method,
                e.url,
                e.code_paths[0].line.unwrap_or(0),
                ps.join(",")
            )
        })
        .collect();
    eps.sort();
    eps
}

#[test]
fn routes_plugins_and_validation() {
    let got = run(&[
        (
            "app/server.js",
            "const Hapi = require('@hapi/hapi');\nconst init = async () => {\n  const server = Hapi.server({ port: 3000 });\n  await server.register({ plugin: require('./plugins/users'), routes: { prefix: '/api/users' } });\n  server.route({\n    method: 'GET',\n    path: '/health',\n    handler: (request, h) => ({ v: request.query.verbose }),\n  });\n  // server.route({ method: 'GET', path: '/old', handler });\n};\n",
        ),
        (
            "app/plugins/users.js",
            "const Joi = require('joi');\nconst extra = require('./extra-routes');\nexports.plugin = {\n  name: 'users',\n  register: async (server) => {\n    server.route([\n      {\n        method: ['PUT', 'PATCH'],\n        path: '/{id}',\n        options: {\n          validate: {\n            params: Joi.object({ id: Joi.string() }),\n            payload: Joi.object({ name: Joi.string(), email: Joi.string() }),\n          },\n          handler: (request) => request.payload.nickname,\n        },\n      },\n    ]);\n    server.route(extra);\n  },\n};\n",
        ),
        (
            "app/plugins/extra-routes.js",
            "module.exports = [\n  { method: '*', path: '/files/{path*}', handler: (req) => req.state.session },\n];\n",
        ),
        ("app/test/users.test.js", "server.route({ method: 'GET', path: '/test-only', handler });\n"),
    ]);
    assert_eq!(
        got,
        vec![
            "DELETE /api/users/files/{path} 2 session:cookie",
            "GET /api/users/files/{path} 2 session:cookie",
            "GET /health 5 verbose:query",
            "PATCH /api/users/files/{path} 2 session:cookie",
            "PATCH /api/users/{id} 7 id:path,name:json,email:json,nickname:json",
            "POST /api/users/files/{path} 2 session:cookie",
            "PUT /api/users/files/{path} 2 session:cookie",
            "PUT /api/users/{id} 7 id:path,name:json,email:json,nickname:json",
        ]
    );
}
