//! Spring-style configuration: `application*.properties` and
//! `application*.yml`/`.yaml` flattened to dotted keys, grouped by module
//! (the directory above `src/main/resources/`), with `${key:default}`
//! placeholders.
//!
//! Profiles: a value set in the default profile (`application.properties`,
//! `application.yml`, or a YAML document without
//! `spring.config.activate.on-profile` / `spring.profiles`) wins. A key set
//! only in profile-specific files (`application-prod.yml`, profile
//! documents) is used when every profile that sets it agrees; when they
//! disagree nothing is assumed. `.properties` wins over `.yml` as in Spring
//! Boot. Keys are matched with relaxed binding (`context-path`,
//! `contextPath`, `context_path` are the same key).

use serde::{Deserialize, Serialize};

/// One configuration document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigDoc {
    pub path: String,
    /// Module root the document applies to (`svc-a/` or ``).
    pub root: String,
    /// Profile name, `None` for the default profile.
    pub profile: Option<String>,
    /// `.properties` (takes precedence over YAML).
    pub properties: bool,
    /// Relaxed (normalised) key → value.
    pub entries: Vec<(String, String)>,
}

/// Is this a Spring Boot configuration file name we read?
pub fn is_config_path(path: &str) -> bool {
    file_profile(path).is_some()
}

/// `Some(None)` for `application.yml`, `Some(Some("dev"))` for
/// `application-dev.properties`, `None` for other files.
fn file_profile(path: &str) -> Option<Option<String>> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let stem = name
        .strip_suffix(".properties")
        .or_else(|| name.strip_suffix(".yml"))
        .or_else(|| name.strip_suffix(".yaml"))?;
    let rest = stem.strip_prefix("application")?;
    if rest.is_empty() {
        return Some(None);
    }
    rest.strip_prefix('-')
        .filter(|p| !p.is_empty())
        .map(|p| Some(p.to_string()))
}

/// Relaxed-binding form of a key: lower case without `-` and `_`.
pub fn relaxed(key: &str) -> String {
    key.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The module a file belongs to: the path up to `src/main/` (or the
/// directory of a config file outside such a layout, without a trailing
/// `config/` or `resources/`).
pub fn module_root(path: &str) -> String {
    let path = path.replace('\\', "/");
    if let Some(i) = path.find("src/main/") {
        if i == 0 || path.as_bytes()[i - 1] == b'/' {
            return path[..i].to_string();
        }
    }
    let dir = path.rfind('/').map_or("", |i| &path[..=i]);
    for suffix in ["config/", "resources/"] {
        if let Some(d) = dir.strip_suffix(suffix) {
            return d.to_string();
        }
    }
    dir.to_string()
}

/// Parse a config file into documents (one per YAML document).
pub fn parse(path: &str, content: &str) -> Vec<ConfigDoc> {
    let Some(profile) = file_profile(path) else {
        return Vec::new();
    };
    let root = module_root(path);
    if path.ends_with(".properties") {
        return profiled(vec![ConfigDoc {
            path: path.to_string(),
            root,
            profile,
            properties: true,
            entries: properties(content),
        }]);
    }
    let mut docs = Vec::new();
    for doc in serde_yaml::Deserializer::from_str(content) {
        let Ok(value) = serde_yaml::Value::deserialize(doc) else {
            break;
        };
        let mut entries = Vec::new();
        flatten(&value, String::new(), &mut entries);
        let on = entries
            .iter()
            .find(|(k, _)| k == "spring.config.activate.onprofile" || k == "spring.profiles")
            .map(|(_, v)| v.clone());
        docs.push(ConfigDoc {
            path: path.to_string(),
            root: root.clone(),
            profile: on.or_else(|| profile.clone()),
            properties: false,
            entries,
        });
    }
    profiled(docs)
}

/// Quarkus profile-scoped keys (`%prod.quarkus.http.root-path=/x` in
/// properties, a `"%prod":` section in YAML) of a default-profile document
/// move to a document of that profile. `%test` keys (the test profile
/// never serves the deployed application) are dropped.
fn profiled(docs: Vec<ConfigDoc>) -> Vec<ConfigDoc> {
    let mut out = Vec::new();
    for mut doc in docs {
        if doc.profile.is_some() || !doc.entries.iter().any(|(k, _)| k.starts_with('%')) {
            out.push(doc);
            continue;
        }
        let mut extra: Vec<ConfigDoc> = Vec::new();
        for (k, v) in std::mem::take(&mut doc.entries) {
            let Some(rest) = k.strip_prefix('%') else {
                doc.entries.push((k, v));
                continue;
            };
            let Some((name, key)) = rest.split_once('.') else {
                continue;
            };
            if name == "test" || name.is_empty() {
                continue;
            }
            match extra
                .iter_mut()
                .find(|d| d.profile.as_deref() == Some(name))
            {
                Some(d) => d.entries.push((key.to_string(), v)),
                None => extra.push(ConfigDoc {
                    path: doc.path.clone(),
                    root: doc.root.clone(),
                    profile: Some(name.to_string()),
                    properties: doc.properties,
                    entries: vec![(key.to_string(), v)],
                }),
            }
        }
        out.push(doc);
        out.extend(extra);
    }
    out
}

/// Parse a YAML file that is not a Spring Boot configuration file (a
/// Dropwizard `config.yml`) as default-profile documents of its module.
pub fn parse_yaml_any(path: &str, content: &str) -> Vec<ConfigDoc> {
    let root = module_root(path);
    let mut docs = Vec::new();
    for doc in serde_yaml::Deserializer::from_str(content) {
        let Ok(value) = serde_yaml::Value::deserialize(doc) else {
            break;
        };
        let mut entries = Vec::new();
        flatten(&value, String::new(), &mut entries);
        docs.push(ConfigDoc {
            path: path.to_string(),
            root: root.clone(),
            profile: None,
            properties: false,
            entries,
        });
    }
    docs
}

fn flatten(value: &serde_yaml::Value, key: String, out: &mut Vec<(String, String)>) {
    use serde_yaml::Value;
    match value {
        Value::Mapping(map) => {
            for (k, v) in map {
                let k = match k {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => n.to_string(),
                    Value::Bool(b) => b.to_string(),
                    _ => continue,
                };
                let k = relaxed(&k);
                let full = if key.is_empty() {
                    k
                } else {
                    format!("{key}.{k}")
                };
                flatten(v, full, out);
            }
        }
        Value::Sequence(seq) => {
            for (i, v) in seq.iter().enumerate() {
                flatten(v, format!("{key}[{i}]"), out);
            }
        }
        Value::String(s) => out.push((key, s.clone())),
        Value::Number(n) => out.push((key, n.to_string())),
        Value::Bool(b) => out.push((key, b.to_string())),
        Value::Null => out.push((key, String::new())),
        Value::Tagged(t) => flatten(&t.value, key, out),
    }
}

/// `.properties` lines (`key=value`, `key: value`, `key value`, `\`
/// continuations, `#`/`!` comments).
fn properties(content: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut logical = String::new();
    for line in content.lines() {
        let trimmed = line.trim_start();
        if logical.is_empty() && (trimmed.starts_with('#') || trimmed.starts_with('!')) {
            continue;
        }
        if let Some(cont) = trimmed.strip_suffix('\\') {
            logical.push_str(cont);
            continue;
        }
        logical.push_str(trimmed);
        let entry = std::mem::take(&mut logical);
        let sep = entry.find(['=', ':', ' ', '\t']);
        let (k, v) = match sep {
            Some(i) => (
                &entry[..i],
                entry[i + 1..].trim_start_matches([' ', '\t', '=', ':']),
            ),
            None => (entry.as_str(), ""),
        };
        if !k.trim().is_empty() {
            out.push((relaxed(k.trim()), v.trim().to_string()));
        }
    }
    out
}

/// Every configuration document of the tree.
#[derive(Default)]
pub struct Configs {
    docs: Vec<ConfigDoc>,
}

impl Configs {
    pub fn new(docs: Vec<ConfigDoc>) -> Self {
        Configs { docs }
    }

    /// The module root (of those having config) that contains `path`.
    /// A module without configuration of its own (a library module of
    /// generated API interfaces or shared controllers) takes the
    /// configuration of the application when the tree has only one module
    /// with configuration.
    fn root_for(&self, path: &str) -> Option<&str> {
        let path = path.replace('\\', "/");
        let own = self
            .docs
            .iter()
            .map(|d| d.root.as_str())
            .filter(|r| path.starts_with(r))
            .max_by_key(|r| r.len());
        own.or_else(|| {
            let first = self.docs.first()?.root.as_str();
            self.docs.iter().all(|d| d.root == first).then_some(first)
        })
    }

    /// The value of `key` (relaxed) for the module of source file `path`,
    /// placeholders resolved.
    pub fn get(&self, path: &str, key: &str) -> Option<String> {
        let root = self.root_for(path)?.to_string();
        self.get_in(&root, key, 0)
    }

    fn get_in(&self, root: &str, key: &str, depth: usize) -> Option<String> {
        let key = relaxed(key);
        let find = |default_profile: bool, properties: bool| {
            self.docs
                .iter()
                .filter(|d| {
                    d.root == root
                        && d.profile.is_none() == default_profile
                        && d.properties == properties
                })
                .flat_map(|d| d.entries.iter())
                .filter(|(k, _)| *k == key)
                .map(|(_, v)| v.clone())
                .next_back()
        };
        let raw = find(true, true).or_else(|| find(true, false)).or_else(|| {
            let mut values: Vec<String> = self
                .docs
                .iter()
                .filter(|d| d.root == root && d.profile.is_some())
                .flat_map(|d| d.entries.iter())
                .filter(|(k, _)| *k == key)
                .map(|(_, v)| v.clone())
                .collect();
            values.sort();
            values.dedup();
            (values.len() == 1).then(|| values.remove(0))
        })?;
        if depth >= 4 {
            return Some(raw);
        }
        Some(resolve_placeholders(&raw, &mut |k| {
            self.get_in(root, k, depth + 1)
        }))
    }
}

/// Replace `${key}` / `${key:default}` using `lookup`; unknown keys
/// without a default become empty.
pub fn resolve_placeholders(s: &str, lookup: &mut dyn FnMut(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find("${") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        // Matching `}` (defaults may nest placeholders).
        let mut depth = 1;
        let mut close = None;
        let bytes = after.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'{' {
                depth += 1;
            } else if bytes[i] == b'}' {
                depth -= 1;
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            i += 1;
        }
        let Some(close) = close else {
            out.push_str(&rest[open..]);
            return out;
        };
        let inner = &after[..close];
        let (key, default) = match inner.find(':') {
            Some(i) => (&inner[..i], Some(&inner[i + 1..])),
            None => (inner, None),
        };
        match lookup(key.trim()) {
            Some(v) => out.push_str(&v),
            None => {
                if let Some(d) = default {
                    out.push_str(&resolve_placeholders(d, lookup));
                }
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_and_yaml_with_profiles() {
        let mut docs = parse(
            "app/users/src/main/resources/application.properties",
            "# c\nserver.servlet.context-path=/users\nspring.mvc.servlet.path = /mvc\napi.base: ${API_BASE:/v1}\n",
        );
        docs.extend(parse(
            "app/users/src/main/resources/application.yml",
            "server:\n  servlet:\n    contextPath: /ignored\n",
        ));
        docs.extend(parse(
            "app/orders/src/main/resources/application.yml",
            "spring:\n  application:\n    name: x\n---\nspring:\n  config:\n    activate:\n      on-profile: prod\nserver:\n  servlet:\n    context-path: /orders\n",
        ));
        docs.extend(parse(
            "app/orders/src/main/resources/application-dev.yml",
            "server.servlet.context-path: /orders\n",
        ));
        docs.extend(parse(
            "app/billing/config/application-a.yaml",
            "server: {servlet: {context-path: /a}}\n",
        ));
        docs.extend(parse(
            "app/billing/config/application-b.yaml",
            "server: {servlet: {context-path: /b}}\n",
        ));
        assert!(parse("app/pom.xml", "x").is_empty());
        let c = Configs::new(docs);
        let users = "app/users/src/main/java/com/acme/UserController.java";
        assert_eq!(
            c.get(users, "server.servlet.context-path").as_deref(),
            Some("/users")
        );
        assert_eq!(
            c.get(users, "spring.mvc.servlet.path").as_deref(),
            Some("/mvc")
        );
        assert_eq!(c.get(users, "api.base").as_deref(), Some("/v1"));
        let orders = "app/orders/src/main/kotlin/A.kt";
        assert_eq!(
            c.get(orders, "server.servlet.context-path").as_deref(),
            Some("/orders")
        );
        assert_eq!(
            c.get(
                "app/billing/src/main/java/B.java",
                "server.servlet.context-path"
            ),
            None
        );
        assert_eq!(c.get("other/X.java", "server.servlet.context-path"), None);
    }

    #[test]
    fn placeholders() {
        let mut lookup = |k: &str| (k == "a").then(|| "/A".to_string());
        assert_eq!(
            resolve_placeholders("${a}/x/${b:/B}/${c}", &mut lookup),
            "/A/x//B/"
        );
        assert_eq!(resolve_placeholders("${x:${a}}", &mut lookup), "/A");
    }

    #[test]
    fn module_roots() {
        assert_eq!(
            module_root("svc/src/main/resources/application.yml"),
            "svc/"
        );
        assert_eq!(module_root("src/main/resources/application.yml"), "");
        assert_eq!(module_root("svc/config/application.yml"), "svc/");
        assert_eq!(module_root("application.yml"), "");
    }
}
