//! The Beego reduce step: namespace prefixes (also through functions of
//! other files and packages), controllers resolved by type to their
//! methods (method mappings, RESTful method names, `@router`
//! annotations), and what those methods read.

use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::{Endpoint, Facts, Param, ParamKind};

use super::scan::{Annotation, BeegoFact, BeegoFile, Ctrl, Item};
use crate::golang::facts::{Bind, BindKind, Fact};
use crate::golang::framework::ANY;
use crate::golang::link::Linker;

const MAX_DEPTH: usize = 8;

/// Controller methods named after an HTTP method handle it when a router
/// has no method mapping.
const RESTFUL: &[(&str, &str)] = &[
    ("Get", "GET"),
    ("Post", "POST"),
    ("Put", "PUT"),
    ("Patch", "PATCH"),
    ("Delete", "DELETE"),
    ("Head", "HEAD"),
    ("Options", "OPTIONS"),
];

pub fn endpoints(facts: &Facts) -> Vec<Endpoint> {
    let linker = Linker::new(facts.all::<Fact>());
    let files: Vec<BeegoFile> = facts
        .all::<BeegoFact>()
        .into_iter()
        .map(|BeegoFact::Beego(b)| *b)
        .collect();
    let l = Link {
        linker: &linker,
        files: &files,
    };
    let mut out = Vec::new();
    for (bi, bf) in files.iter().enumerate() {
        for item in &bf.roots {
            l.walk(bi, item, "", 0, &mut out);
        }
    }
    for e in &mut out {
        e.url = clean_url(&e.url);
        for p in &mut e.params {
            // `c.GetString(":id")` and `Input.Param(":id")` read the path.
            if let Some(n) = p.name.strip_prefix(':') {
                p.name = n.to_string();
                p.kind = ParamKind::Path;
            }
        }
        let mut seen: Vec<(String, ParamKind)> = Vec::new();
        e.params.retain(|p| {
            let k = (p.name.clone(), p.kind);
            if seen.contains(&k) {
                false
            } else {
                seen.push(k);
                true
            }
        });
    }
    out
}

struct Link<'a> {
    linker: &'a Linker,
    files: &'a [BeegoFile],
}

impl Link<'_> {
    fn walk(&self, bi: usize, item: &Item, prefix: &str, depth: usize, out: &mut Vec<Endpoint>) {
        if depth > MAX_DEPTH {
            return;
        }
        let bf = &self.files[bi];
        let Some(fi) = self.linker.file_index(&bf.path) else {
            return;
        };
        match item {
            Item::Router {
                line,
                path,
                ctrl,
                mapping,
            } => {
                let url = join(&[prefix, &self.linker.string_in(fi, path)]);
                let methods = self.ctrl_methods(fi, ctrl);
                let pairs: Vec<(String, String)> = match mapping {
                    Some(m) => parse_mapping(m),
                    None => {
                        let found: Vec<(String, String)> = RESTFUL
                            .iter()
                            .filter(|(name, _)| methods.iter().any(|(n, _)| n == name))
                            .map(|(name, m)| (m.to_string(), name.to_string()))
                            .collect();
                        if found.is_empty() {
                            vec![("GET".to_string(), "Get".to_string())]
                        } else {
                            found
                        }
                    }
                };
                for (m, func) in pairs {
                    let params = methods
                        .iter()
                        .find(|(n, _)| *n == func)
                        .map(|(_, p)| p.clone())
                        .unwrap_or_default();
                    out.push(
                        Endpoint::new(&m, url.clone())
                            .at_path(bf.path.clone(), *line)
                            .params(params),
                    );
                }
            }
            Item::Include { ctrl } => {
                let dirs = self.linker.package_dirs(fi, ctrl.qual.as_deref());
                let methods = self.linker.methods_of(&dirs, &ctrl.name);
                for (af, a) in self.annotations(&dirs, &ctrl.name) {
                    let url = join(&[prefix, &a.path]);
                    let mut params = a.params.clone();
                    if let Some(afi) = self.linker.file_index(&af.path) {
                        for ty in &a.bodies {
                            let b = Bind {
                                kind: BindKind::Json,
                                ty: ty.clone(),
                            };
                            params.extend(self.linker.bind_params_in(afi, &b));
                        }
                    }
                    if let Some((_, _, p)) = methods.iter().find(|(_, n, _)| *n == a.method) {
                        params.extend(p.iter().cloned());
                    }
                    for m in &a.methods {
                        out.push(
                            Endpoint::new(m, url.clone())
                                .at_path(af.path.clone(), a.line)
                                .params(params.iter().cloned()),
                        );
                    }
                }
            }
            Item::Func {
                line,
                methods,
                path,
                handler,
            } => {
                let url = join(&[prefix, &self.linker.string_in(fi, path)]);
                let params = self.linker.handler_params_in(fi, handler);
                for m in methods {
                    out.push(
                        Endpoint::new(m, url.clone())
                            .at_path(bf.path.clone(), *line)
                            .params(params.iter().cloned()),
                    );
                }
            }
            Item::Namespace { prefix: p, items } => {
                let full = join(&[prefix, &self.linker.string_in(fi, p)]);
                for it in items {
                    self.walk(bi, it, &full, depth + 1, out);
                }
            }
            Item::Ref(r) => {
                let dirs = self.linker.package_dirs(fi, r.qual.as_deref());
                for (bj, g) in self.files.iter().enumerate() {
                    if !dirs.contains(&g.dir) {
                        continue;
                    }
                    for (name, items) in &g.funcs {
                        if *name == r.name {
                            for it in items {
                                self.walk(bj, it, prefix, depth + 1, out);
                            }
                        }
                    }
                }
            }
        }
    }

    /// (method name, parameters) of a controller type.
    fn ctrl_methods(&self, fi: usize, ctrl: &Ctrl) -> Vec<(String, Vec<Param>)> {
        let dirs = self.linker.package_dirs(fi, ctrl.qual.as_deref());
        self.linker
            .methods_of(&dirs, &ctrl.name)
            .into_iter()
            .map(|(_, n, p)| (n, p))
            .collect()
    }

    fn annotations<'s>(
        &'s self,
        dirs: &'s [String],
        recv: &'s str,
    ) -> impl Iterator<Item = (&'s BeegoFile, &'s Annotation)> + 's {
        self.files
            .iter()
            .filter(move |f| dirs.contains(&f.dir))
            .flat_map(move |f| {
                f.annotations
                    .iter()
                    .filter(move |a| a.recv == recv)
                    .map(move |a| (f, a))
            })
    }
}

/// `"get,post:Edit;delete:Remove;*:Any"` → (METHOD, function) pairs.
fn parse_mapping(m: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for part in m.split(';') {
        let Some((methods, func)) = part.split_once(':') else {
            continue;
        };
        let func = func.trim();
        if func.is_empty() {
            continue;
        }
        for method in methods.split(',') {
            let method = method.trim().to_ascii_uppercase();
            if method == "*" {
                for a in ANY {
                    out.push((a.to_string(), func.to_string()));
                }
            } else if !method.is_empty() {
                out.push((method, func.to_string()));
            }
        }
    }
    out
}

/// `:id:int` → `:id`, `:id([0-9]+)` → `:id`, `:name:string` → `:name`.
fn clean_url(url: &str) -> String {
    url.split('/')
        .map(|seg| match seg.strip_prefix(':') {
            Some(rest) => {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if name.is_empty() {
                    seg.to_string()
                } else {
                    format!(":{name}")
                }
            }
            None => seg.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mappings() {
        assert_eq!(
            parse_mapping("get,post:Edit;delete:Remove"),
            vec![
                ("GET".to_string(), "Edit".to_string()),
                ("POST".to_string(), "Edit".to_string()),
                ("DELETE".to_string(), "Remove".to_string()),
            ]
        );
        assert_eq!(parse_mapping("*:All").len(), ANY.len());
        assert!(parse_mapping("broken").is_empty());
    }

    #[test]
    fn urls_cleaned() {
        assert_eq!(clean_url("/p/:id:int/x"), "/p/:id/x");
        assert_eq!(clean_url("/p/:id([0-9]+)"), "/p/:id");
        assert_eq!(clean_url("/static/*.*"), "/static/*.*");
    }
}
