//! Apache Wicket (`java_wicket`).
//!
//! - Mounts: `mountPage("/path", UserPage.class)` (in `WebApplication#init`
//!   or any helper), `mount(new MountedMapper("/path", UserPage.class))`,
//!   `mountResource("/path", reference)` (GET), and `@MountPath("/path")`
//!   (also `value = …`, `alt = {…}`) on a page class (wicketstuff
//!   annotations). Constants and `+` in paths are resolved; placeholders
//!   `${id}` (required) and `#{id}` (optional) are reported as `{id}`.
//! - Methods: a page is reported as GET, and also POST when the page (or a
//!   superclass in the tree) builds a form (`new Form`, `StatelessForm`).
//! - Parameters: what the page class and its superclasses read from
//!   `PageParameters` (a constructor parameter / variable of that type, or
//!   `getPageParameters()`): `.get("id")` / `getValues` / `getString` /
//!   `getInt` / `getLong` (Wicket 1.4) are path parameters when the mount has
//!   that placeholder, query parameters otherwise.
//!
//! Known gaps: `mountPackage`, form fields (component ids) and Wicket's
//! indexed parameters are not reported; pages reached only through
//! bookmarkable links without a mount are not reported.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::jvm::body::{self, class_literal, member_call, str_expr, str_lit};
use crate::jvm::expr::StrExpr;
use crate::jvm::facts::{analyze_with_outline, split_facts};
use crate::jvm::index::Index;
use crate::jvm::outline::Lang;
use crate::jvm::tokens::{close_of, split_commas, Kind};

pub struct JavaWicket;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct WFile {
    path: String,
    mounts: Vec<Mount>,
    /// `(class, parameter names read, builds a form)`.
    pages: Vec<(String, Vec<String>, bool)>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Mount {
    path: StrExpr,
    line: u32,
    /// The page class; `None` for a resource.
    page: Option<String>,
}

impl Analyzer for JavaWicket {
    fn tech(&self) -> Tech {
        Tech::new("java_wicket", "Java", "Apache Wicket")
            .aliases(["wicket", "apache-wicket"])
            .files(["*.java"])
            .detect(Detect::files(["*.java"]).contains(["org.apache.wicket"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        analyze_with_outline(file, Lang::Java, out, |file| {
            let w = scan(file);
            (!w.mounts.is_empty() || !w.pages.is_empty()).then_some(w)
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let (files, scans) = split_facts::<WFile>(facts.all());
        let idx = Index::new(&files);
        let mut mounts: Vec<(String, Mount)> = Vec::new();
        for s in &scans {
            for m in &s.mounts {
                mounts.push((s.path.clone(), m.clone()));
            }
        }
        // `@MountPath` on page classes.
        for f in &files {
            for ty in &f.types {
                let Some(a) = ty.annotation("MountPath") else {
                    continue;
                };
                let mut paths = a.items(&["value", "path"]);
                paths.extend(a.items(&["alt"]));
                for p in paths {
                    mounts.push((
                        f.path.clone(),
                        Mount {
                            path: p,
                            line: a.line,
                            page: Some(ty.name.clone()),
                        },
                    ));
                }
            }
        }
        let mut out = Vec::new();
        for (path, m) in &mounts {
            let Some(raw) = body::eval(&idx, path, m.line, &m.path) else {
                continue;
            };
            let (url, placeholders) = convert(&raw);
            let Some(page) = &m.page else {
                out.push(Endpoint::new("GET", url).at_path(path.clone(), m.line));
                continue;
            };
            // The page and its superclasses.
            let fi = idx.files.iter().position(|x| x.path == *path);
            let mut lineage = vec![page.clone()];
            if let Some(id) = fi.and_then(|f| idx.resolve_type(f, page)) {
                for sup in idx.lineage(id).into_iter().skip(1) {
                    lineage.push(idx.ty(sup).name.clone());
                }
            }
            let mut names: Vec<String> = Vec::new();
            let mut form = false;
            for class in &lineage {
                for (c, read, f) in scans.iter().flat_map(|s| &s.pages) {
                    if c == class {
                        form |= *f;
                        for n in read {
                            if !names.contains(n) {
                                names.push(n.clone());
                            }
                        }
                    }
                }
            }
            let params: Vec<Param> = names
                .iter()
                .map(|n| {
                    if placeholders.contains(n) {
                        Param::path(n.clone())
                    } else {
                        Param::query(n.clone())
                    }
                })
                .collect();
            let mut methods = vec!["GET"];
            if form {
                methods.push("POST");
            }
            for method in methods {
                out.push(
                    Endpoint::new(method, url.clone())
                        .at_path(path.clone(), m.line)
                        .params(params.clone()),
                );
            }
        }
        Ok(out)
    }
}

/// `/user/${id}/#{tab}` → `/user/{id}/{tab}` and the placeholder names.
fn convert(raw: &str) -> (String, Vec<String>) {
    let mut names = Vec::new();
    let segs: Vec<String> = raw
        .split('/')
        .map(|seg| {
            let inner = seg
                .strip_prefix("${")
                .or_else(|| seg.strip_prefix("#{"))
                .and_then(|s| s.strip_suffix('}'));
            match inner {
                Some(n) if !n.is_empty() => {
                    names.push(n.to_string());
                    format!("{{{n}}}")
                }
                _ => seg.to_string(),
            }
        })
        .collect();
    (join_path(&segs), names)
}

fn scan(file: &SourceFile) -> WFile {
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[crate::jvm::tokens::Token] = &toks.0;
    let src = file.content.as_str();
    let classes = body::classes(t);
    let mut out = WFile {
        path: file.path.clone(),
        ..WFile::default()
    };
    for i in 0..t.len() {
        let name = t[i].text.as_str();
        let call = t[i].kind == Kind::Ident
            && matches!(name, "mountPage" | "MountedMapper" | "mountResource")
            && t.get(i + 1).is_some_and(|x| x.is('('))
            && !(i > 0 && (t[i - 1].kind == Kind::Ident && !t[i - 1].is_ident("new")));
        if !call {
            continue;
        }
        let close = close_of(t, i + 1).unwrap_or(t.len());
        let args = split_commas(t, i + 2, close);
        if args.len() < 2 {
            continue;
        }
        let Some(path) = str_expr(t, args[0].clone(), src, false) else {
            continue;
        };
        let page = if name == "mountResource" {
            None
        } else {
            match class_literal(t, args[1].clone()) {
                Some(c) => Some(c),
                None => continue,
            }
        };
        out.mounts.push(Mount {
            path,
            line: file.line_of(t[i].start),
            page,
        });
    }
    for c in &classes {
        let r = c.open + 1..c.close.min(t.len());
        let decls = body::declared_types(t, r.clone());
        let vars: Vec<&String> = decls
            .iter()
            .filter(|(_, ty)| ty == "PageParameters")
            .map(|(n, _)| n)
            .collect();
        let mut names: Vec<String> = Vec::new();
        let mut form = false;
        for i in r {
            if (t[i].is_ident("Form") || t[i].is_ident("StatelessForm"))
                && i > 0
                && (t[i - 1].is_ident("new") || t[i - 1].is_ident("extends"))
            {
                form = true;
            }
            if i < 2
                || !member_call(
                    t,
                    i,
                    &["get", "getValues", "getString", "getInt", "getLong"],
                )
            {
                continue;
            }
            let recv = &t[i - 2];
            let from_params = (recv.kind == Kind::Ident && vars.contains(&&recv.text))
                || (recv.is(')') && i >= 4 && t[i - 4].is_ident("getPageParameters"));
            if !from_params {
                continue;
            }
            let (args, _) = body::call_args(t, i + 1);
            if let Some(n) = args.first().and_then(|a| str_lit(t, a)) {
                if !names.contains(&n) {
                    names.push(n);
                }
            }
        }
        if !names.is_empty() || form {
            out.pages.push((c.name.clone(), names, form));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders() {
        let (url, names) = convert("wiki/${slug}/#{rev}/x");
        assert_eq!(url, "/wiki/{slug}/{rev}/x");
        assert_eq!(names, ["slug", "rev"]);
    }
}
