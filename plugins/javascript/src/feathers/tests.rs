use portolan_plugin_sdk::prelude::*;

use super::Feathers;

fn run(files: &[(&str, &str)]) -> Vec<String> {
    let mut facts = Facts::new(Vec::new());
    for (path, content) in files {
        let mut out = Output::new();
        Feathers.analyze(&SourceFile::new(*path, *content), &mut out);
        facts.extend(out.into_parts().1);
    }
    let mut v: Vec<String> = Feathers
        .link(&facts)
        .unwrap_or_default()
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
