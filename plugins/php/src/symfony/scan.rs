//! Map step: controller/DTO classes of PHP files and the routes and
//! imports of YAML route files.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};
use serde_yaml::Value;

use crate::php::outline::{classes, Class};
use crate::php::tokens::tokenize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct YRoute {
    pub line: u32,
    pub paths: Vec<String>,
    pub controller: Option<String>,
    pub methods: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct YImport {
    pub line: u32,
    pub resource: String,
    pub prefix: String,
    /// `type:` (`api_platform`, `attribute`, …).
    pub kind: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    Class {
        path: String,
        class: Class,
    },
    Yaml {
        path: String,
        routes: Vec<YRoute>,
        imports: Vec<YImport>,
    },
    /// API Platform resources of a YAML resource file.
    ApiYaml {
        path: String,
        resources: Vec<super::apip::Resource>,
    },
    /// Container parameters (`parameters:` of `config/services.yaml`) and
    /// `.env` defaults, to resolve `%name%` and `%env(NAME)%` in prefixes.
    Params {
        values: Vec<(String, String)>,
    },
}

/// A path skipped as third-party or generated code.
/// Only directories below the scanned base count.
pub fn is_vendor(path: &str) -> bool {
    portolan_plugin_sdk::paths::in_dir_named(path, &["vendor", "node_modules", "cache"])
}

fn is_route_yaml(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let name = lower.rsplit('/').next().unwrap_or("");
    let in_config = lower.contains("config/");
    in_config
        && (lower.contains("/routes/")
            || lower.starts_with("config/routes/")
            || lower.contains("/routing/")
            || name.starts_with("routes.")
            || name.starts_with("routing"))
        && !lower.contains("/routes/dev/")
        && !name.contains("_dev.")
}

pub fn scan(file: &SourceFile) -> Vec<Fact> {
    let path = file.slash_path();
    if is_vendor(&path) {
        return Vec::new();
    }
    let name = path.rsplit('/').next().unwrap_or(&path);
    if name == ".env" {
        return env_file(&file.content).into_iter().collect();
    }
    if path.ends_with(".yaml") || path.ends_with(".yml") {
        if !is_route_yaml(&path) {
            let mut out = Vec::new();
            if let Some(resources) = super::apip::yaml(&file.content) {
                if !resources.is_empty() {
                    out.push(Fact::ApiYaml {
                        path: file.path.clone(),
                        resources,
                    });
                }
            }
            if name.starts_with("services.") && file.content.contains("parameters:") {
                out.extend(parameters(&file.content));
            }
            return out;
        }
        return yaml(file).into_iter().collect();
    }
    if !path.ends_with(".php") {
        return Vec::new();
    }
    let text = &file.content;
    if !text.contains("class ") {
        return Vec::new();
    }
    let toks = tokenize(text);
    classes(text, &toks, &|o| file.line_of(o))
        .into_iter()
        .map(|class| Fact::Class {
            path: file.path.clone(),
            class,
        })
        .collect()
}

/// Line of each top-level key (`name:` at column 0).
fn top_keys(text: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with([' ', '\t', '#', '-']) || line.trim().is_empty() {
            continue;
        }
        if let Some((k, _)) = line.split_once(':') {
            let k = k.trim().trim_matches(|c| c == '"' || c == '\'');
            out.push((k.to_string(), n as u32 + 1));
        }
    }
    out
}

fn strings(v: &Value) -> Vec<String> {
    match v {
        Value::String(s) => vec![s.clone()],
        Value::Sequence(items) => items.iter().flat_map(strings).collect(),
        // Localized paths: `{ en: /about, nl: /over-ons }`.
        Value::Mapping(m) => m.values().flat_map(strings).collect(),
        _ => Vec::new(),
    }
}

fn yaml(file: &SourceFile) -> Option<Fact> {
    let doc: Value = match serde_yaml::from_str(&file.content) {
        Ok(v) => v,
        Err(e) => {
            host::debug(&format!("{}: not YAML: {e}", file.path));
            return None;
        }
    };
    let Value::Mapping(map) = doc else {
        return None;
    };
    let lines = top_keys(&file.content);
    let mut routes = Vec::new();
    let mut imports = Vec::new();
    for (k, v) in &map {
        let Some(key) = k.as_str() else { continue };
        if key.starts_with("when@") {
            continue;
        }
        let Value::Mapping(def) = v else { continue };
        let line = lines
            .iter()
            .find(|(n, _)| n == key)
            .map(|(_, l)| *l)
            .unwrap_or(1);
        let get = |name: &str| def.get(Value::String(name.into()));
        if let Some(res) = get("resource") {
            let resource = match res {
                Value::String(s) => s.clone(),
                Value::Mapping(m) => m
                    .get(Value::String("path".into()))
                    .or_else(|| m.get(Value::String("namespace".into())))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                _ => continue,
            };
            let prefix = get("prefix")
                .map(strings)
                .and_then(|p| p.into_iter().next())
                .unwrap_or_default();
            let kind = get("type")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            imports.push(YImport {
                line,
                resource,
                prefix,
                kind,
            });
            continue;
        }
        let Some(path) = get("path").or_else(|| get("pattern")) else {
            continue;
        };
        let controller = get("controller")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| {
                get("defaults")
                    .and_then(|d| d.get(Value::String("_controller".into())))
                    .and_then(Value::as_str)
                    .map(str::to_string)
            });
        let methods = get("methods")
            .map(strings)
            .unwrap_or_default()
            .iter()
            .flat_map(|m| m.split('|').map(|x| x.trim().to_ascii_uppercase()))
            .filter(|m| !m.is_empty())
            .collect();
        routes.push(YRoute {
            line,
            paths: strings(path),
            controller,
            methods,
        });
    }
    if routes.is_empty() && imports.is_empty() {
        return None;
    }
    Some(Fact::Yaml {
        path: file.path.clone(),
        routes,
        imports,
    })
}

/// `KEY=value` lines of a `.env` file (Symfony's committed defaults).
fn env_file(text: &str) -> Option<Fact> {
    let mut values = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        let line = line.strip_prefix("export ").unwrap_or(line);
        if let Some((k, v)) = line.split_once('=') {
            let k = k.trim();
            if k.is_empty() || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let v = v.trim().trim_matches(|c| c == '"' || c == '\'');
            values.push((format!("env({k})"), v.to_string()));
        }
    }
    (!values.is_empty()).then_some(Fact::Params { values })
}

/// The scalar `parameters:` of a services file.
fn parameters(text: &str) -> Option<Fact> {
    let doc: Value = serde_yaml::from_str(text).ok()?;
    let params = doc.get("parameters")?.as_mapping()?;
    let values: Vec<(String, String)> = params
        .iter()
        .filter_map(|(k, v)| Some((k.as_str()?.to_string(), v.as_str()?.to_string())))
        .collect();
    (!values.is_empty()).then_some(Fact::Params { values })
}
