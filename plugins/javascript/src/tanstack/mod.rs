//! TanStack Router / TanStack Start (`ts_tanstack_router`).
//!
//! What counts as an HTTP endpoint:
//! - every page route, as `GET` (the document a browser requests: served
//!   by TanStack Start's SSR handler, or by the SPA shell): file routes
//!   `createFileRoute('/posts/$postId')(…)` (also `createLazyFileRoute`),
//!   at the line of the call, the path taken from the route id or, when
//!   the call has none, from the file's place below a `routes/` directory
//!   (`posts.$postId.tsx`, `posts/$postId.tsx`, `posts/index.tsx`,
//!   `posts/route.tsx`, `[.]` escapes; `-` prefixed files are not routes);
//!   and code routes `createRoute({ getParentRoute: () => parent, path })`
//!   with their parents' paths (across modules). Route ids become URLs:
//!   pathless layouts (`_layout`, `_auth`) and groups (`(app)`) vanish, a
//!   trailing `_` (un-nesting) is dropped, `$id` is `:id`, `{-$id}`
//!   (optional) is `:id`, the splat `$` is `{_splat}`, `index` and the
//!   trailing `/` of index ids vanish. The root route and pathless
//!   layouts alone are not endpoints;
//! - server routes, one endpoint per method key, at the key's line:
//!   `createAPIFileRoute('/api/users')({ GET, POST })`,
//!   `createServerFileRoute('/api/users').methods({ GET, POST })`, and
//!   `createFileRoute('/x')({ server: { handlers: { GET, POST } } })`;
//!   parameters from the handler bodies (Fetch API: `searchParams.get`,
//!   `await request.json()` reads, `request.headers.get`).
//!
//! Query parameters of a page: the keys of its `validateSearch` schema —
//! an object schema given inline (`z.object({…})`, `v.object`,
//! arktype `type({…})`), through a validator wrapper (`zodValidator(s)`),
//! a schema constant (also imported), or a function returning an object
//! literal (`(search) => ({ page: Number(search.page ?? 1) })`).
//!
//! Not reported: server functions (`createServerFn`: RPC endpoints under
//! a build-generated `/_serverFn/<id>` URL), the generated
//! `routeTree.gen.ts`, test files.

pub mod scan;

use portolan_plugin_sdk::paths::join;
use portolan_plugin_sdk::prelude::*;

use crate::express::{is_generated, JS_FILES};
use crate::js::project::{Project, Target};
use scan::{Search, TanModule};

pub struct TanStackRouter;

impl Analyzer for TanStackRouter {
    fn tech(&self) -> Tech {
        Tech::new("ts_tanstack_router", "TypeScript", "TanStack Router")
            .aliases(["tanstack", "tanstack-router", "tanstack-start"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([
                r#"from\s+['"]@tanstack/(?:react|solid|vue)-(?:router|start)(?:/[\w-]+)?['"]"#,
                r#"from\s+['"]@tanstack/start(?:/[\w-]+)?['"]"#,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let p = file.slash_path();
        let name = p.rsplit('/').next().unwrap_or(&p);
        if is_test_path(&p) || is_generated(file) || name.contains(".gen.") {
            return;
        }
        let module = scan::scan(file);
        if !module.pages.is_empty()
            || !module.apis.is_empty()
            || !module.code_routes.is_empty()
            || !module.schemas.is_empty()
        {
            out.fact(&module);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<TanModule> = facts.all();
        Ok(link(&modules))
    }
}

/// A route id or path (`/_layout/posts/$postId/`) as a URL.
pub fn url_of_id(id: &str) -> String {
    let mut segs: Vec<String> = Vec::new();
    for seg in id.split('/') {
        if seg.is_empty() || seg.starts_with('_') || (seg.starts_with('(') && seg.ends_with(')')) {
            continue;
        }
        let seg = seg.strip_suffix('_').unwrap_or(seg);
        let s = if seg == "$" {
            "{_splat}".to_string()
        } else if let Some(name) = seg.strip_prefix('$') {
            format!(":{name}")
        } else {
            // `{-$id}`, `{$id}`, `file{$ext}`.
            seg.replace("{-$", "{").replace("{$", "{")
        };
        segs.push(s);
    }
    join(&segs)
}

fn search_keys(project: &Project<'_>, modules: &[TanModule], m: usize, s: &Search) -> Vec<String> {
    match s {
        Search::None => Vec::new(),
        Search::Keys(k) => k.clone(),
        Search::Ref(name) => {
            let lookup = |mm: usize, n: &str| {
                modules
                    .get(mm)
                    .and_then(|x| x.schemas.iter().find(|(a, _)| a == n))
                    .map(|(_, k)| k.clone())
            };
            lookup(m, name)
                .or_else(|| match project.resolve_name(m, name, 0) {
                    Some(Target::Node(tm, n)) => lookup(tm, &n),
                    _ => None,
                })
                .unwrap_or_default()
        }
    }
}

fn link(modules: &[TanModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let mut out = Vec::new();
    let page = |m: usize, line: u32, url: &str, search: &Search| {
        let mut e =
            Endpoint::new("GET", url.to_string()).at_path(modules[m].info.path.clone(), line);
        for k in search_keys(&project, modules, m, search) {
            e.push_param(Param::query(k));
        }
        e
    };
    for (mi, m) in modules.iter().enumerate() {
        for p in &m.pages {
            if let Some(url) = &p.url {
                out.push(page(mi, p.line, url, &p.search));
            }
        }
        for a in &m.apis {
            out.push(
                Endpoint::new(&a.method, a.url.clone())
                    .params(a.params.clone())
                    .at_path(m.info.path.clone(), a.line),
            );
        }
        for r in &m.code_routes {
            let Some(path) = &r.path else { continue };
            let mut segs = vec![path.clone()];
            let mut cur = (mi, r.parent.clone());
            let mut depth = 0;
            while let (cm, Some(parent)) = cur.clone() {
                depth += 1;
                if depth > 32 {
                    break;
                }
                let (pm, pname) = match modules
                    .get(cm)
                    .and_then(|x| x.code_routes.iter().find(|c| c.name == parent))
                {
                    Some(_) => (cm, parent.clone()),
                    None => match project.resolve_name(cm, &parent, 0) {
                        Some(Target::Node(tm, n)) => (tm, n),
                        _ => break,
                    },
                };
                let Some(pr) = modules
                    .get(pm)
                    .and_then(|x| x.code_routes.iter().find(|c| c.name == pname))
                else {
                    break;
                };
                if let Some(pp) = &pr.path {
                    segs.push(pp.clone());
                }
                cur = (pm, pr.parent.clone());
            }
            segs.reverse();
            let url = url_of_id(&segs.join("/"));
            out.push(page(mi, r.line, &url, &r.search));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn route_ids() {
        assert_eq!(url_of_id("/posts/$postId"), "/posts/:postId");
        assert_eq!(url_of_id("/_layout/dashboard/"), "/dashboard");
        assert_eq!(
            url_of_id("/(app)/posts_/$postId/edit"),
            "/posts/:postId/edit"
        );
        assert_eq!(url_of_id("/files/$"), "/files/{_splat}");
        assert_eq!(url_of_id("/shop/{-$category}"), "/shop/{category}");
        assert_eq!(url_of_id("/"), "/");
        assert_eq!(url_of_id("/_auth"), "/");
    }
}
