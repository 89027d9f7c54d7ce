//! Link step: interpret route chains from the entry files, following
//! files required inside group closures, and resolve handlers.

use std::collections::{BTreeMap, BTreeSet};

use portolan_plugin_sdk::prelude::*;

use super::scan::Fact;
use crate::php::expr::{Chain, Val};
use crate::php::handler::{http_method, BodyKind, Handler, Index, ANY};
use crate::php::normalize_file;

#[derive(Clone, Default)]
struct Group {
    prefix: String,
    in_group: bool,
    file: String,
    depth: usize,
}

struct Linker<'a> {
    files: BTreeMap<String, (&'a str, &'a [Chain])>,
    index: Index<'a>,
    out: Vec<Endpoint>,
}

/// `__DIR__ . '/x.php'` / `'x.php'` relative to the current file.
pub fn file_ref(v: &Val, current: &str) -> Option<String> {
    let dir = current.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    let rel = match v {
        Val::Str(s) => s.clone(),
        Val::Concat(parts) => {
            let mut s = String::new();
            for p in parts {
                match p {
                    Val::Const(c) if c == "__DIR__" => {}
                    Val::Str(x) => s.push_str(x),
                    _ => return None,
                }
            }
            s
        }
        _ => return None,
    };
    rel.ends_with(".php")
        .then(|| normalize_file(&format!("{dir}/{}", rel.trim_start_matches('/'))))
}

/// A string path: literal or concatenated literals.
pub fn text(v: &Val) -> Option<String> {
    match v {
        Val::Str(s) | Val::Int(s) => Some(s.clone()),
        Val::Concat(parts) => parts.iter().map(text).collect(),
        _ => None,
    }
}

/// FastRoute pattern → plain placeholders: `{id:[0-9]+}` → `{id}`,
/// optional segments `[/{page}]` kept without brackets.
pub fn clean(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut chars = path.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '[' | ']' => {}
            '{' => {
                out.push('{');
                let mut depth = 0i32;
                let mut in_name = true;
                for d in chars.by_ref() {
                    match d {
                        '{' | '[' | '(' => depth += 1,
                        ']' | ')' => depth -= 1,
                        '}' if depth > 0 => depth -= 1,
                        '}' => break,
                        ':' if depth == 0 => in_name = false,
                        _ => {}
                    }
                    if in_name && !matches!(d, '{' | '[' | '(' | ']' | ')') {
                        out.push(d);
                    }
                }
                out.push('}');
            }
            _ => out.push(c),
        }
    }
    out
}

pub fn link(facts: &[Fact]) -> Vec<Endpoint> {
    let mut l = Linker {
        files: BTreeMap::new(),
        index: Index::default(),
        out: Vec::new(),
    };
    for f in facts {
        match f {
            Fact::Routes { path, chains, .. } => {
                l.files
                    .insert(normalize_file(path), (path.as_str(), chains.as_slice()));
            }
            Fact::Class { path, class } => l.index.push(path, class),
        }
    }
    let mut referenced = BTreeSet::new();
    for (path, chains) in l.files.values() {
        refs(chains, path, false, &mut referenced);
    }
    let entries: Vec<(&str, &[Chain])> = l
        .files
        .iter()
        .filter(|(k, _)| !referenced.contains(*k))
        .map(|(_, v)| *v)
        .collect();
    for (path, chains) in entries {
        let g = Group {
            file: path.to_string(),
            ..Group::default()
        };
        l.chains(chains, &g);
    }
    l.out
}

/// Files required inside group closures.
fn refs(chains: &[Chain], path: &str, in_group: bool, out: &mut BTreeSet<String>) {
    for c in chains {
        if c.base == "require" {
            if in_group {
                if let Some(f) = c.parts[0].args.first().and_then(|a| file_ref(a, path)) {
                    out.insert(f);
                }
            }
            continue;
        }
        for p in &c.parts {
            for a in &p.args {
                if let Val::Closure(cl) = a {
                    refs(&cl.chains, path, in_group || p.name == "group", out);
                }
            }
        }
    }
}

impl<'a> Linker<'a> {
    fn chains(&mut self, chains: &[Chain], g: &Group) {
        for c in chains {
            self.chain(c, g);
        }
    }

    fn chain(&mut self, c: &Chain, g: &Group) {
        if c.base == "require" {
            if !g.in_group || g.depth > 10 {
                return;
            }
            let Some(f) = c.parts[0].args.first().and_then(|a| file_ref(a, &g.file)) else {
                return;
            };
            if let Some((path, chains)) = self.files.get(&f).copied() {
                let inner = Group {
                    file: path.to_string(),
                    depth: g.depth + 1,
                    ..g.clone()
                };
                self.chains(chains, &inner);
            }
            return;
        }
        if c.base == "$this" && !g.in_group {
            return;
        }
        let Some(p) = c.parts.first() else { return };
        let name = p.name.to_ascii_lowercase();
        let args = &p.args;
        let (methods, path, handler): (Vec<&'static str>, Option<&Val>, Option<&Val>) =
            match name.as_str() {
                "group" => {
                    let Some(prefix) = args.first().and_then(text) else {
                        return;
                    };
                    if let Some(Val::Closure(cl)) = args.get(1) {
                        let inner = Group {
                            prefix: format!("{}{}", g.prefix, prefix),
                            in_group: true,
                            depth: g.depth + 1,
                            file: g.file.clone(),
                        };
                        self.chains(&cl.chains, &inner);
                    }
                    return;
                }
                "map" => (
                    args.first()
                        .map(Val::strings)
                        .unwrap_or_default()
                        .iter()
                        .filter_map(|m| http_method(m))
                        .collect(),
                    args.get(1),
                    args.get(2),
                ),
                "any" => (ANY.to_vec(), args.first(), args.get(1)),
                "redirect" => (vec!["GET"], args.first(), None),
                verb => match http_method(verb) {
                    Some(m) if args.len() >= 2 => (vec![m], args.first(), args.get(1)),
                    _ => return,
                },
            };
        let Some(path) = path.and_then(text) else {
            return;
        };
        let url = clean(&format!("{}{}", g.prefix, path));
        let url = if url.is_empty() { "/".into() } else { url };
        let h = handler.and_then(|v| self.handler(v));
        for m in methods {
            let mut e = Endpoint::new(m, &url).at_path(&g.file, c.line);
            if let Some(h) = &h {
                for p in self.index.params(h, m, &url, BodyKind::Json) {
                    e.push_param(p);
                }
            }
            self.out.push(e);
        }
    }

    fn handler(&self, v: &Val) -> Option<Handler> {
        match v {
            Val::Closure(cl) => Some(Handler::from_reads(&cl.reads)),
            Val::Class(c) => self.index.handler_of(c),
            Val::Str(s) => {
                let (c, m) = s.split_once(':').unwrap_or((s, "__invoke"));
                self.index.handler_of(&format!("{c}::{m}"))
            }
            Val::Array(items) if items.len() == 2 => {
                let class = match &items[0].1 {
                    Val::Class(c) | Val::Str(c) => c,
                    _ => return None,
                };
                let m = items[1].1.str()?;
                self.index.handler_of(&format!("{class}::{m}"))
            }
            Val::Concat(parts) => match parts.as_slice() {
                [Val::Class(c), Val::Str(m)] => self
                    .index
                    .handler_of(&format!("{c}::{}", m.trim_start_matches(':'))),
                _ => None,
            },
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn fastroute_patterns() {
        assert_eq!(super::clean("/users/{id:[0-9]+}"), "/users/{id}");
        assert_eq!(
            super::clean("/archive[/{year:\\d{4}}[/{month}]]"),
            "/archive/{year}/{month}"
        );
        assert_eq!(super::clean("/{routes:.+}"), "/{routes}");
    }
}
