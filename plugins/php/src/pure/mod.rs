//! Plain PHP pages (`php_pure`): the file path below the document root is
//! the route.
//!
//! **Document root.** The last directory named `public`, `public_html`,
//! `www`, `htdocs` or `html` on a page's path (`app/public/api/users.php` →
//! `/api/users.php`). Without one, the tree root, estimated as the deepest
//! directory holding every PHP file of the tree (a plugin only sees display
//! paths, not the base path): right whenever some PHP file sits at the top,
//! as `index.php` usually does. `index.php` is reported under its file name.
//! When a tree has a document root, PHP files of its parent directory that
//! are outside every document root (`app/includes/` next to `app/public/`)
//! are not served and not reported.
//!
//! **Which files are pages.** A `.php` file whose code reads the request
//! directly (`$_GET`, `$_POST`, `$_REQUEST`, `$_COOKIE`, `$_FILES`,
//! `$_SERVER['HTTP_*']`, `$_SERVER['REQUEST_METHOD']`, `filter_input`,
//! `getallheaders()`, `php://input`) and has top-level statements (a file of
//! only class/function declarations is a library, not a page), outside
//! `vendor/` and test code, and not in a namespace (PSR code belongs to an
//! application's classes). Templates that read nothing are not pages. Files
//! below the root of a framework application are left to that framework:
//! a directory whose `composer.json` requires Laravel, Lumen, Symfony, Slim,
//! CakePHP, CodeIgniter, Yii, Laminas/Zend, ThinkPHP, Phalcon, Hyperf,
//! Drupal, Magento or WordPress, or that holds `artisan`, `spark`, `think`,
//! `yii`, `bin/console` or `wp-config.php`/`wp-load.php`; and anything below
//! `wp-content/`, `wp-admin/` or `wp-includes/`.
//!
//! **Methods.** From comparisons of `$_SERVER['REQUEST_METHOD']` (or a
//! variable assigned from it) with string literals (`===`, `==`, `in_array`,
//! `switch` cases): a negative guard (`!== 'POST'` → 405) or a `switch`
//! gives exactly the methods named; positive `if` checks give those methods
//! plus GET (the page still renders). Without checks: GET, plus POST when
//! the page reads `$_POST`, `$_FILES` or a JSON body.
//!
//! **Parameters.** Reads inside an `if`/`case` branch of a method check (and
//! inside functions of the file called there) belong to that method; other
//! reads belong to every method, body reads (form, JSON, files) only to
//! methods other than GET/HEAD, and `$_REQUEST` reads are query parameters on
//! GET and form fields otherwise. `$_SERVER['HTTP_X_TOKEN']` is header
//! `X-Token`; `getallheaders()['X']` header `X`; `$d =
//! json_decode(file_get_contents('php://input'), true); $d['x']` JSON `x`.

use std::collections::BTreeMap;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::php::handler::http_method;
use crate::php::request::{reads, Reads, Where};
use crate::php::tokens::{matching, tokenize, Kind, Token};
use crate::symfony::scan::is_vendor;

pub struct Pure;

/// Document-root directory names.
const DOC_ROOTS: &[&str] = &["public", "public_html", "www", "htdocs", "html"];

/// `composer.json` packages of frameworks that own their tree.
const FRAMEWORK_PACKAGES: &[&str] = &[
    "laravel/framework",
    "laravel/lumen-framework",
    "symfony/framework-bundle",
    "symfony/http-kernel",
    "slim/slim",
    "cakephp/cakephp",
    "codeigniter4/framework",
    "codeigniter/framework",
    "yiisoft/yii2",
    "laminas/laminas-mvc",
    "zendframework/zend-mvc",
    "mezzio/mezzio",
    "topthink/framework",
    "phalcon/",
    "hyperf/framework",
    "hyperf/http-server",
    "drupal/core",
    "magento/",
    "johnpbloch/wordpress",
    "roots/wordpress",
];

/// Files whose directory is a framework application's root.
const MARKER_FILES: &[&str] = &[
    "artisan",
    "spark",
    "think",
    "yii",
    "wp-config.php",
    "wp-load.php",
];

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    /// A framework application's root directory (with trailing `/`).
    Framework(String),
    /// A PHP file (for the tree-root estimate), with its page if it is one.
    Php { path: String, page: Option<Page> },
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Page {
    /// Reads for every method.
    pub common: Reads,
    /// Methods named by checks: (method, line, reads of its branch).
    pub checked: Vec<(String, u32, Reads)>,
    /// A guard or `switch`: only the checked methods are served.
    pub exclusive: bool,
}

impl Analyzer for Pure {
    fn tech(&self) -> Tech {
        Tech::new("php_pure", "PHP", "Pure")
            .aliases(["php", "pure", "php-pure"])
            .files([
                "*.php",
                "composer.json",
                "artisan",
                "spark",
                "think",
                "yii",
                "**/bin/console",
            ])
            .detect(Detect::files(["*.php"]).contains([
                "$_GET[",
                "$_POST[",
                "$_REQUEST[",
                "$_COOKIE[",
                "$_SERVER['HTTP_",
                "$_SERVER[\"HTTP_",
                "REQUEST_METHOD",
                "php://input",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if is_vendor(&path) || is_test_path(&path) {
            return;
        }
        let name = path.rsplit('/').next().unwrap_or(&path);
        let dir = &path[..path.len() - name.len()];
        if path.ends_with("/bin/console") || path == "bin/console" {
            let root = dir.trim_end_matches('/');
            let root = &root[..root.len() - "bin".len()];
            out.fact(&Fact::Framework(root.to_string()));
            return;
        }
        if MARKER_FILES.contains(&name) {
            out.fact(&Fact::Framework(dir.to_string()));
            return;
        }
        if name == "composer.json" {
            if FRAMEWORK_PACKAGES
                .iter()
                .any(|p| file.content.contains(&format!("\"{p}")))
            {
                out.fact(&Fact::Framework(dir.to_string()));
            }
            return;
        }
        if !name.ends_with(".php") {
            return;
        }
        let page = page(file);
        out.fact(&Fact::Php {
            path: file.path.clone(),
            page,
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link(&facts.all()))
    }
}

fn in_wordpress(path: &str) -> bool {
    path.split('/')
        .any(|s| matches!(s, "wp-content" | "wp-admin" | "wp-includes"))
}

fn link(facts: &[Fact]) -> Vec<Endpoint> {
    let frameworks: Vec<&str> = facts
        .iter()
        .filter_map(|f| match f {
            Fact::Framework(d) => Some(d.as_str()),
            _ => None,
        })
        .collect();
    let php: Vec<(&str, &Option<Page>)> = facts
        .iter()
        .filter_map(|f| match f {
            Fact::Php { path, page } => Some((path.as_str(), page)),
            _ => None,
        })
        .collect();
    // Deepest directory holding every PHP file (with trailing `/`, or "").
    let mut common: Option<String> = None;
    for (path, _) in &php {
        let dir = match path.rfind('/') {
            Some(i) => &path[..i + 1],
            None => "",
        };
        common = Some(match common {
            None => dir.to_string(),
            Some(c) => {
                let mut end = 0;
                for (i, (a, b)) in c.bytes().zip(dir.bytes()).enumerate() {
                    if a != b {
                        break;
                    }
                    if a == b'/' {
                        end = i + 1;
                    }
                }
                c[..end].to_string()
            }
        });
    }
    let common = common.unwrap_or_default();
    // Parents of document roots: their other directories are not served.
    let mut served_from: Vec<String> = Vec::new();
    for (path, _) in &php {
        if let Some(root) = doc_root(path) {
            let parent = root[..root.len() - 1]
                .rfind('/')
                .map(|i| root[..i + 1].to_string())
                .unwrap_or_default();
            if !served_from.contains(&parent) {
                served_from.push(parent);
            }
        }
    }
    let mut out = Vec::new();
    for (path, page) in php {
        let Some(page) = page else { continue };
        if in_wordpress(path) || frameworks.iter().any(|d| path.starts_with(d)) {
            continue;
        }
        if doc_root(path).is_none() && served_from.iter().any(|p| path.starts_with(p.as_str())) {
            continue;
        }
        let url = url_of(path, &common);
        out.extend(endpoints(path, &url, page));
    }
    out
}

/// The document root directory of a file (with trailing `/`), if any.
fn doc_root(path: &str) -> Option<String> {
    let segs: Vec<&str> = path.split('/').collect();
    let i = segs[..segs.len().saturating_sub(1)]
        .iter()
        .rposition(|s| DOC_ROOTS.contains(s))?;
    Some(format!("{}/", segs[..=i].join("/")))
}

/// The route of a page: the path below the last document-root directory,
/// else below the tree root.
fn url_of(path: &str, common: &str) -> String {
    let segs: Vec<&str> = path.split('/').collect();
    if let Some(i) = segs[..segs.len().saturating_sub(1)]
        .iter()
        .rposition(|s| DOC_ROOTS.contains(s))
    {
        return format!("/{}", segs[i + 1..].join("/"));
    }
    format!("/{}", path.strip_prefix(common).unwrap_or(path))
}

fn endpoints(path: &str, url: &str, page: &Page) -> Vec<Endpoint> {
    // method → (line, branch reads)
    let mut methods: BTreeMap<&str, (u32, Reads)> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (m, line, r) in &page.checked {
        let Some(m) = http_method(m) else { continue };
        let e = methods.entry(m).or_insert_with(|| {
            order.push(m);
            (*line, Reads::default())
        });
        e.1.merge(r);
    }
    let body_read = page
        .common
        .items
        .iter()
        .any(|(w, _)| matches!(w, Where::Form | Where::Json | Where::File | Where::Body));
    if !page.exclusive || methods.is_empty() {
        if !methods.contains_key("GET") {
            methods.insert("GET", (1, Reads::default()));
            order.insert(0, "GET");
        }
        if page.checked.is_empty() && body_read {
            methods.insert("POST", (1, Reads::default()));
            order.push("POST");
        }
    }
    let mut out = Vec::new();
    for m in order {
        let Some((line, branch)) = methods.get(m) else {
            continue;
        };
        let mut e = Endpoint::new(m, url).at_path(path, *line);
        let query_like = matches!(m, "GET" | "HEAD");
        for (w, name) in page.common.items.iter().chain(branch.items.iter()) {
            let p = match w {
                Where::Input if query_like => Param::query(name),
                Where::Input | Where::Form | Where::Body => Param::form(name),
                Where::Query => Param::query(name),
                Where::Json => Param::json(name),
                Where::File => Param::file(name),
                Where::Header => Param::header(name),
                Where::Cookie => Param::cookie(name),
            };
            let body = matches!(p.kind, ParamKind::Form | ParamKind::Json | ParamKind::File);
            let from_branch = branch.items.iter().any(|(bw, bn)| bw == w && bn == name);
            if body && query_like && !from_branch {
                continue;
            }
            e.push_param(p);
        }
        out.push(e);
    }
    out
}

fn is_method_source(toks: &[Token], i: usize, aliases: &[String]) -> bool {
    let t = &toks[i];
    (t.kind == Kind::Str && t.text == "REQUEST_METHOD")
        || (t.kind == Kind::Var && aliases.contains(&t.text))
        || (t.kind == Kind::Ident && t.text.ends_with("getMethod"))
}

/// The page a file is, if it reads the request at top level or in its
/// functions.
pub fn page(file: &SourceFile) -> Option<Page> {
    let toks = tokenize(&file.content);
    if toks.iter().enumerate().any(|(i, t)| {
        t.is_ident("namespace") && toks.get(i + 1).is_some_and(|n| n.kind == Kind::Ident)
    }) {
        return None;
    }
    let signals = toks.iter().any(|t| {
        (t.kind == Kind::Var
            && matches!(
                t.text.as_str(),
                "_GET" | "_POST" | "_REQUEST" | "_COOKIE" | "_FILES"
            ))
            || (t.kind == Kind::Str && (t.text == "php://input" || t.text == "REQUEST_METHOD"))
            || t.is_ident("filter_input")
            || t.is_ident("getallheaders")
            || (t.kind == Kind::Str && t.text.starts_with("HTTP_"))
    });
    if !signals {
        return None;
    }
    // Declarations (functions, classes) and top-level statements.
    let mut functions: Vec<(String, usize, usize)> = Vec::new();
    let mut excluded = vec![false; toks.len()];
    let mut top_level_code = false;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let decl = (t.is_ident("function")
            && toks.get(i + 1).is_some_and(|n| n.kind == Kind::Ident)
            && !(i > 0 && (toks[i - 1].is("->") || toks[i - 1].is("::"))))
            || ((t.is_ident("class")
                || t.is_ident("interface")
                || t.is_ident("trait")
                || t.is_ident("enum"))
                && toks.get(i + 1).is_some_and(|n| n.kind == Kind::Ident)
                && !(i > 0 && toks[i - 1].is("::")));
        if decl {
            let open = (i..toks.len()).find(|&k| toks[k].is("{") || toks[k].is(";"));
            let Some(open) = open.filter(|&k| toks[k].is("{")) else {
                i += 1;
                continue;
            };
            let close = matching(&toks, open).unwrap_or(toks.len() - 1);
            if t.is_ident("function") {
                functions.push((toks[i + 1].text.to_ascii_lowercase(), open + 1, close));
            }
            for x in excluded.iter_mut().take(close + 1).skip(i) {
                *x = true;
            }
            i = close + 1;
            continue;
        }
        let skip_stmt = [
            "use",
            "require",
            "require_once",
            "include",
            "include_once",
            "declare",
        ]
        .iter()
        .any(|w| t.is_ident(w))
            || t.is_ident("define")
            || t.is(";")
            || t.is_ident("abstract")
            || t.is_ident("final");
        if skip_stmt {
            let end = (i..toks.len()).find(|&k| toks[k].is(";")).unwrap_or(i);
            i = end + 1;
            continue;
        }
        top_level_code = true;
        i += 1;
    }
    if !top_level_code {
        return None;
    }
    let line_of = |o: usize| file.line_of(o);
    // Variables holding the request method.
    let mut aliases: Vec<String> = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        if t.kind == Kind::Var && toks.get(k + 1).is_some_and(|e| e.is("=")) {
            let end = (k + 2..toks.len())
                .find(|&j| toks[j].is(";"))
                .unwrap_or(toks.len());
            if (k + 2..end).any(|j| toks[j].kind == Kind::Str && toks[j].text == "REQUEST_METHOD")
                && !aliases.contains(&t.text)
            {
                aliases.push(t.text.clone());
            }
        }
    }
    // Method checks and their branches.
    let mut checks: Vec<Check> = Vec::new();
    let mut exclusive = false;
    for (k, t) in toks.iter().enumerate() {
        let neg = t.is("!==") || t.is("!=");
        if t.is("===") || t.is("==") || neg {
            let (lit, other) = if toks.get(k + 1).is_some_and(|s| s.kind == Kind::Str) {
                (k + 1, (k.saturating_sub(8)..k).rev().collect::<Vec<_>>())
            } else if k > 0 && toks[k - 1].kind == Kind::Str {
                (k - 1, (k + 1..(k + 9).min(toks.len())).collect())
            } else {
                continue;
            };
            let mut hit = false;
            for j in other {
                let x = &toks[j];
                if x.is("&&") || x.is("||") || x.is(";") || x.is("{") || x.is("}") {
                    break;
                }
                if is_method_source(&toks, j, &aliases) {
                    hit = true;
                    break;
                }
            }
            if !hit || http_method(&toks[lit].text).is_none() {
                continue;
            }
            let line = line_of(toks[lit].start);
            if neg {
                exclusive = true;
                checks.push((toks[lit].text.to_ascii_uppercase(), line, None));
            } else {
                checks.push((
                    toks[lit].text.to_ascii_uppercase(),
                    line,
                    if_branch(&toks, k),
                ));
            }
        } else if t.is_ident("switch") && toks.get(k + 1).is_some_and(|p| p.is("(")) {
            let Some(pc) = matching(&toks, k + 1) else {
                continue;
            };
            if !(k + 2..pc).any(|j| is_method_source(&toks, j, &aliases)) {
                continue;
            }
            let Some(open) = Some(pc + 1).filter(|&o| toks.get(o).is_some_and(|b| b.is("{")))
            else {
                continue;
            };
            let close = matching(&toks, open).unwrap_or(toks.len() - 1);
            exclusive = true;
            // `case 'GET': … ` up to the next case/default at this depth.
            let mut cases: Vec<usize> = Vec::new();
            let mut depth = 0i32;
            for (j, x) in toks.iter().enumerate().take(close).skip(open + 1) {
                if x.is("(") || x.is("[") || x.is("{") {
                    depth += 1;
                } else if x.is(")") || x.is("]") || x.is("}") {
                    depth -= 1;
                } else if depth == 0 && (x.is_ident("case") || x.is_ident("default")) {
                    cases.push(j);
                }
            }
            for n in 0..cases.len() {
                let at = cases[n];
                if !toks[at].is_ident("case") {
                    continue;
                }
                let Some(lit) = toks.get(at + 1).filter(|s| s.kind == Kind::Str) else {
                    continue;
                };
                if http_method(&lit.text).is_none() {
                    continue;
                }
                // Fall-through `case 'PUT': case 'PATCH': …` share the body
                // of the first case that has one.
                let body_end = (n + 1..cases.len())
                    .find(|&m| cases[m] != cases[m - 1] + 3)
                    .map(|m| cases[m])
                    .unwrap_or(close);
                checks.push((
                    lit.text.to_ascii_uppercase(),
                    line_of(lit.start),
                    Some((at + 3, body_end)),
                ));
            }
        } else if t.is_ident("in_array") && toks.get(k + 1).is_some_and(|p| p.is("(")) {
            let Some(pc) = matching(&toks, k + 1) else {
                continue;
            };
            if !(k + 2..pc).any(|j| is_method_source(&toks, j, &aliases)) {
                continue;
            }
            let negated = k > 0 && toks[k - 1].is("!");
            let branch = if negated { None } else { if_branch(&toks, k) };
            for x in toks.iter().take(pc).skip(k + 2) {
                if x.kind == Kind::Str && http_method(&x.text).is_some() {
                    checks.push((x.text.to_ascii_uppercase(), line_of(x.start), branch));
                }
            }
            if negated {
                exclusive = true;
            }
        }
    }
    // Reads: top level (branches and functions excluded), then branches.
    let mut in_branch = excluded.clone();
    for (_, _, b) in &checks {
        if let Some((a, z)) = b {
            for x in in_branch.iter_mut().take(*z).skip(*a) {
                *x = true;
            }
        }
    }
    let top: Vec<Token> = toks
        .iter()
        .zip(&in_branch)
        .filter(|(_, ex)| !**ex)
        .map(|(t, _)| t.clone())
        .collect();
    let base = reads(&top);
    let extra = |range: &[Token]| -> Reads {
        let mut all = top.clone();
        all.extend(range.iter().cloned());
        let r = reads(&all);
        let mut out = Reads::default();
        for (w, n) in &r.items {
            if !base.items.iter().any(|(bw, bn)| bw == w && bn == n) {
                out.push(*w, n);
            }
        }
        out
    };
    let called = |a: usize, z: usize| -> Vec<usize> {
        (0..functions.len())
            .filter(|&f| {
                (a..z).any(|j| {
                    toks[j].kind == Kind::Ident
                        && toks[j].text.eq_ignore_ascii_case(&functions[f].0)
                        && toks.get(j + 1).is_some_and(|p| p.is("("))
                })
            })
            .collect()
    };
    let mut used_in_branch = vec![false; functions.len()];
    let mut checked = Vec::new();
    for (m, line, b) in &checks {
        let mut r = Reads::default();
        if let Some((a, z)) = b {
            r.merge(&extra(toks.get(*a..*z).unwrap_or(&[])));
            for f in called(*a, *z) {
                used_in_branch[f] = true;
                let (_, fa, fz) = &functions[f];
                r.merge(&extra(toks.get(*fa..*fz).unwrap_or(&[])));
            }
        }
        checked.push((m.clone(), *line, r));
    }
    let mut common = base.clone();
    for (f, (_, fa, fz)) in functions.iter().enumerate() {
        if !used_in_branch[f] {
            common.merge(&extra(toks.get(*fa..*fz).unwrap_or(&[])));
        }
    }
    headers(&toks, &mut common);
    Some(Page {
        common,
        checked,
        exclusive,
    })
}

/// A method check: the method, its line, and the token range of its branch.
type Check = (String, u32, Option<(usize, usize)>);

/// The block of the `if` whose condition contains token `k`.
fn if_branch(toks: &[Token], k: usize) -> Option<(usize, usize)> {
    // The innermost `(` opened before k that belongs to an `if`/`elseif`.
    let mut depth = 0i32;
    let mut j = k;
    while j > 0 {
        j -= 1;
        let t = &toks[j];
        if t.is(")") {
            depth += 1;
        } else if t.is("(") {
            if depth == 0 {
                let kw = j.checked_sub(1).map(|p| &toks[p]);
                if kw.is_some_and(|w| w.is_ident("if") || w.is_ident("elseif")) {
                    let pc = matching(toks, j)?;
                    let open = pc + 1;
                    if toks.get(open).is_some_and(|b| b.is("{")) {
                        let close = matching(toks, open)?;
                        return Some((open + 1, close));
                    }
                    let end = (open..toks.len()).find(|&e| toks[e].is(";"))?;
                    return Some((open, end + 1));
                }
            } else {
                depth -= 1;
            }
        } else if t.is(";") || t.is("{") || t.is("}") {
            return None;
        }
    }
    None
}

/// `getallheaders()['X']`, `$h = getallheaders(); $h['X']`.
fn headers(toks: &[Token], r: &mut Reads) {
    let mut vars: Vec<String> = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        if !(t.is_ident("getallheaders") || t.is_ident("apache_request_headers")) {
            continue;
        }
        if let (Some(b), Some(s)) = (toks.get(k + 3), toks.get(k + 4)) {
            if b.is("[") && s.kind == Kind::Str {
                r.push(Where::Header, &s.text);
            }
        }
        if k >= 2 && toks[k - 1].is("=") && toks[k - 2].kind == Kind::Var {
            vars.push(toks[k - 2].text.clone());
        }
    }
    for (k, t) in toks.iter().enumerate() {
        if t.kind == Kind::Var
            && vars.contains(&t.text)
            && toks.get(k + 1).is_some_and(|b| b.is("["))
        {
            if let Some(s) = toks.get(k + 2).filter(|s| s.kind == Kind::Str) {
                r.push(Where::Header, &s.text);
            }
        }
    }
}
