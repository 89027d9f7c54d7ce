use super::Feathers;

fn run(files: &[(&str, &str)]) -> Vec<String> {
    let mut v: Vec<String> = crate::js::test_support::linked(&Feathers, files)
        .iter()
        .map(|e| {
            let ps: Vec<String> = e
                .params
                .iter()
                .map(|p| format!("{:?}:{}", p.kind, p.name))
                .collect();
            format!("{} {} {}", e.method, e.url, ps.join(","))
        })
        .collect();
    v.sort();
    v
}

#[test]
fn object_services_and_middleware() {
    let src = r#"
const feathers = require('@feathersjs/feathers');
const express = require('@feathersjs/express');
const app = express(feathers());
app.use(express.json());
app.use('/todos', {
  async find(params) { return params.query.done; },
  async create(data) { return { title: data.title }; },
});
app.use(logger, authenticate);
"#;
    assert_eq!(
        run(&[("app.js", src)]),
        vec!["GET /todos Query:done", "POST /todos Json:title"]
    );
    // Broken input does not panic.
    let _ = run(&[(
        "a.js",
        "const feathers = require('feathers'); app.use('x', {",
    )]);
}

#[test]
fn feathers4_generated_service() {
    let class = "const { Service } = require('feathers-sequelize');\n\nexports.Users = class Users extends Service {\n  setup(app) { this.app = app; }\n};\n";
    let svc = "const { Users } = require('./users.class');\nconst hooks = require('./users.hooks');\n\nmodule.exports = function (app) {\n  const options = { paginate: app.get('paginate') };\n  app.use('/users', new Users(options, app));\n  app.service('users').hooks(hooks);\n};\n";
    let app = "const feathers = require('@feathersjs/feathers');\nconst express = require('@feathersjs/express');\nconst services = require('./services');\nconst app = express(feathers());\napp.configure(services);\n";
    assert_eq!(
        run(&[
            ("src/app.js", app),
            ("src/services/users/users.class.js", class),
            ("src/services/users/users.service.js", svc)
        ]),
        vec![
            "DELETE /users/:id ",
            "GET /users ",
            "GET /users/:id ",
            "PATCH /users/:id ",
            "POST /users ",
            "PUT /users/:id "
        ]
    );
}

#[test]
fn unknown_classes_are_standard_services() {
    let src = "import { feathers } from '@feathersjs/feathers';\nconst app = feathers();\napp.use('/jobs', new JobQueue(), { methods: ['find', 'create'] });\n";
    assert_eq!(run(&[("app.ts", src)]), vec!["GET /jobs ", "POST /jobs "]);
}
