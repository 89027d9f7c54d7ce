//! LoopBack 4 (`ts_loopback`).
//!
//! Routes: controller methods decorated `@get/@post/@put/@patch/@del(path,
//! spec?)` or `@operation('verb', path)`, with OpenAPI-style `{id}`
//! placeholders; the class decorator `@api({ basePath: '/v1' })` prefixes
//! its class; `app.basePath('/api')` / `this.basePath('/api')` of the
//! application prefixes the controllers of its application (the tree
//! above its `src/`, so several applications keep their own).
//!
//! Parameters: `@param.path.number('id')` (path), `@param.query.string('q')`
//! (query), `@param.header.string('x')` (header), any other
//! `@param.<in>.<type>(name)` shortcut, `@param({ name, in })`;
//! `@param.filter(Model)` is the query `filter`, `@param.where(Model)` the
//! query `where`. `@requestBody() p: Omit<Product, 'id'>` takes the fields
//! of the model class (its `@property` members, also inherited from a
//! base model, possibly in another file; `Omit`/`Pick`/`Partial`/arrays
//! understood) as JSON; a body of an unknown or primitive type adds
//! nothing. Test files (`src/__tests__/…`) are skipped.

pub mod scan;

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::{Param, ParamKind};

use crate::express::is_generated;
use scan::{LbModule, Spec};

pub struct LoopBack;

const FILES: [&str; 2] = ["*.ts", "*.js"];

impl Analyzer for LoopBack {
    fn tech(&self) -> Tech {
        Tech::new("ts_loopback", "TypeScript", "LoopBack")
            .aliases(["loopback", "loopback4", "ts-loopback"])
            .files(FILES)
            .detect(Detect::files(FILES).regex([r#"['"]@loopback/(?:rest|core|repository)['"]"#]))
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
        let modules: Vec<LbModule> = facts.all();
        Ok(link(&modules))
    }
}

/// Fields of model `name` (bases first), the one in `from`'s module or
/// the unique one of that name.
fn model_fields(modules: &[LbModule], from: usize, name: &str, depth: usize) -> Vec<String> {
    if depth > 8 {
        return Vec::new();
    }
    let local = modules
        .get(from)
        .and_then(|m| m.models.iter().find(|x| x.name == name).map(|x| (from, x)));
    let found = local.or_else(|| {
        let mut all = modules.iter().enumerate().flat_map(|(i, m)| {
            m.models
                .iter()
                .filter(move |x| x.name == name)
                .map(move |x| (i, x))
        });
        let first = all.next()?;
        all.next().is_none().then_some(first)
    });
    let Some((mi, model)) = found else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for b in &model.bases {
        for f in model_fields(modules, mi, b, depth + 1) {
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    for f in &model.fields {
        if !out.contains(f) {
            out.push(f.clone());
        }
    }
    out
}

/// `svc/src/controllers/a.ts` → `svc/`; without `src/`, the directory.
fn root_of(path: &str) -> String {
    match path.rfind("/src/") {
        Some(i) => path[..=i].to_string(),
        None if path.starts_with("src/") => String::new(),
        None => path
            .rsplit_once('/')
            .map_or(String::new(), |(d, _)| format!("{d}/")),
    }
}

pub fn link(modules: &[LbModule]) -> Vec<Endpoint> {
    // `basePath` calls by application root (the directory above `src/`).
    let bases: Vec<(String, &str)> = modules
        .iter()
        .filter_map(|m| m.base_path.as_deref().map(|b| (root_of(&m.path), b)))
        .collect();
    let mut out = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        let root = root_of(&m.path);
        let global = bases
            .iter()
            .find(|(r, _)| *r == root)
            .map_or("", |(_, b)| *b);
        for c in &m.controllers {
            for r in &c.routes {
                let url = join_path(&[global, c.base.as_str(), r.path.as_str()]);
                let mut params: Vec<Param> = Vec::new();
                for s in &r.params {
                    match s {
                        Spec::Direct(p) => params.push(p.clone()),
                        Spec::Body { model, omit, pick } => {
                            for f in model_fields(modules, mi, model, 0) {
                                let keep = !omit.contains(&f)
                                    && pick.as_ref().is_none_or(|p| p.contains(&f));
                                if keep {
                                    params.push(Param::new(ParamKind::Json, f));
                                }
                            }
                        }
                    }
                }
                out.push(
                    Endpoint::new(&r.method, url)
                        .params(params)
                        .at_path(m.path.clone(), r.line),
                );
            }
        }
    }
    out
}
