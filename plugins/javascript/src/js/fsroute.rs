//! Helpers for file-system routers (SvelteKit, Astro, Remix, Fresh,
//! Nitro): the exported functions of a route module and URL building from
//! path segments.

use portolan_plugin_sdk::Code;
use regex::Regex;
use std::ops::Range;
use std::sync::OnceLock;

use super::outline::{Outline, ScopeKind};

/// An exported function: its exported name, where it is declared, and its
/// body when known.
#[derive(Clone, Debug)]
pub struct Exported {
    pub name: String,
    pub at: usize,
    pub body: Option<Range<usize>>,
}

/// Top-level functions declared with `export` (`export async function
/// GET`, `export const POST = async () => …`) and names exported by
/// `export { handler as GET }`.
pub fn exported_functions(code: &Code<'_>, outline: &Outline) -> Vec<Exported> {
    let text = code.text();
    let mut out: Vec<Exported> = outline
        .scopes
        .iter()
        .filter(|s| s.kind == ScopeKind::Function && text[s.start..].starts_with("export"))
        .map(|s| Exported {
            name: s.name.clone(),
            at: s.start,
            body: Some(s.body.clone()),
        })
        .collect();
    static LIST: OnceLock<Regex> = OnceLock::new();
    let list = LIST.get_or_init(|| {
        crate::js::pattern::regex(r"\bexport\s*\{([^}]*)\}\s*(from\b)?")
            .unwrap_or_else(crate::js::pattern::never)
    });
    for c in list.captures_iter(text) {
        let (Some(all), Some(inner)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) || c.get(2).is_some() {
            continue;
        }
        for part in inner.as_str().split(',') {
            let mut w = part.split_whitespace();
            let (Some(local), next) = (w.next(), w.next()) else {
                continue;
            };
            let exported = match next {
                Some("as") => w.next().unwrap_or(local),
                _ => local,
            };
            let body = outline
                .scopes
                .iter()
                .find(|s| s.kind == ScopeKind::Function && s.name == local)
                .map(|s| s.body.clone());
            out.push(Exported {
                name: exported.to_string(),
                at: all.start(),
                body,
            });
        }
    }
    out.sort_by_key(|e| e.at);
    out
}

/// Methods compared with the request's method in `range`:
/// `request.method === 'POST'`, `case 'PUT':`, `'DELETE' === req.method`,
/// `isMethod(event, 'PATCH')`, `assertMethod(event, ['POST'])`.
pub fn compared_methods(code: &Code<'_>, range: Range<usize>) -> Vec<String> {
    static CMP: OnceLock<Regex> = OnceLock::new();
    let cmp = CMP.get_or_init(|| {
        crate::js::pattern::regex(r#"(?:\.method\s*[!=]==?\s*|\bcase\s+|\b(?:isMethod|assertMethod)\(\s*[\w$]+\s*,\s*\[?\s*)['"`](GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)['"`]|['"`](GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)['"`]\s*[!=]==?\s*[\w$.]*\.method\b"#).unwrap_or_else(crate::js::pattern::never)
    });
    let Some(text) = code.text().get(range.clone()) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for c in cmp.captures_iter(text) {
        let (Some(all), Some(m)) = (c.get(0), c.get(1).or(c.get(2))) else {
            continue;
        };
        if !code.is_code(range.start + all.start()) {
            continue;
        }
        // `case 'POST':` only counts in a switch on a method.
        if all.as_str().starts_with("case") && !text.contains(".method") {
            continue;
        }
        let m = m.as_str().to_string();
        if !out.contains(&m) {
            out.push(m);
        }
    }
    out
}

/// Join URL segments: `["api", "{id}"]` → `/api/{id}`; none → `/`.
pub fn url_of(segs: &[String]) -> String {
    if segs.is_empty() {
        return "/".to_string();
    }
    let mut url = String::new();
    for s in segs {
        url.push('/');
        url.push_str(s);
    }
    url
}

/// The directories and file stem of `path` after the last directory named
/// `root` (`src/routes/api/+server.ts`, `routes` → `(["api"], "+server",
/// "ts")`).
pub fn below<'p>(path: &'p str, root: &str) -> Option<(Vec<&'p str>, &'p str, &'p str)> {
    let segs: Vec<&str> = path.split('/').collect();
    let (file, dirs) = segs.split_last()?;
    let i = dirs.iter().rposition(|d| *d == root)?;
    let (stem, ext) = file.rsplit_once('.')?;
    Some((dirs[i + 1..].to_vec(), stem, ext))
}

/// The script extensions routers load.
pub fn is_script(ext: &str) -> bool {
    matches!(ext, "js" | "ts" | "mjs" | "jsx" | "tsx" | "mts" | "cjs")
}

/// Every method for handlers that accept any.
pub const ANY: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
