//! Tornado (`python_tornado`).
//!
//! Routes are `(pattern, Handler[, kwargs])` tuples and `url(pattern,
//! Handler)` calls in route lists (`Application([...])`, `handlers =
//! [...]`, `app.add_handlers(host, [...])`), anywhere in the tree; a tuple
//! counts when its handler is a `RequestHandler` subclass of the tree (or,
//! unresolved, a name ending in `Handler`). Patterns are regexes: anchors
//! are dropped and named groups become `{name}` (see
//! [`crate::django::link::clean_route`]). Unnamed groups are passed to the
//! handler method positionally, so they are named after its parameters
//! (`(r"/users/([^/]+)", H)` with `def get(self, user_name)` →
//! `/users/{user_name}`; the first method of the nearest class that takes
//! any wins); without such a method they stay as written. Optional
//! non-capturing pieces (`(?:/([^/]+))?`) are kept as plain segments.
//!
//! Methods are the `get`/`post`/… the handler class and its in-tree bases
//! define (GET when none). Parameters: `self.get_query_argument(s)` →
//! query, `self.get_body_argument(s)` → form, `self.get_argument(s)` →
//! query for GET/HEAD/DELETE/OPTIONS and form otherwise,
//! `self.get_cookie` / `get_secure_cookie` / `get_signed_cookie` →
//! cookie, `self.request.headers` → header, `self.request.files` → file.

pub mod scan;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::py::project::{Binding, Project};

pub struct Tornado;

/// One module's route tuples and handler classes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TornadoModule {
    pub info: crate::py::module::ModuleInfo,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<scan::RouteTuple>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<scan::HandlerClass>,
}

impl Analyzer for Tornado {
    fn tech(&self) -> Tech {
        crate::py::tech::package_tech("tornado", "Tornado")
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        // Modules with only constants matter too (prefixes imported by the
        // module that declares the routes).
        crate::py::tech::record(file, out, scan::scan, |m| {
            !m.routes.is_empty() || !m.classes.is_empty() || !m.info.consts.is_empty()
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let modules: Vec<TornadoModule> = facts.all();
        Ok(link(&modules))
    }
}

fn link(modules: &[TornadoModule]) -> Vec<Endpoint> {
    let project = Project::new(modules.iter().map(|m| &m.info).collect());
    let is_local = |m: usize, n: &str| {
        modules
            .get(m)
            .is_some_and(|md| md.classes.iter().any(|c| c.name == n))
    };
    let class = |m: usize, name: &str| -> Option<(usize, &scan::HandlerClass)> {
        match project.resolve(m, name, &is_local)? {
            Binding::Local { module, name } => modules
                .get(module)?
                .classes
                .iter()
                .find(|c| c.name == name)
                .map(|c| (module, c)),
            _ => None,
        }
    };
    let mut out = Vec::new();
    for (m, module) in modules.iter().enumerate() {
        for r in &module.routes {
            let Some(pattern) = project.eval(m, &r.pattern, &is_local) else {
                continue;
            };
            // The handler and its in-tree ancestors, nearest first.
            let mut chain: Vec<&scan::HandlerClass> = Vec::new();
            let mut is_handler = false;
            let mut stack: Vec<(usize, &scan::HandlerClass)> =
                class(m, &r.handler).into_iter().collect();
            while let Some((cm, c)) = stack.pop() {
                if chain.iter().any(|x| std::ptr::eq(*x, c)) || chain.len() > 32 {
                    continue;
                }
                chain.push(c);
                for base in &c.bases {
                    match class(cm, base) {
                        Some(p) => stack.push(p),
                        None => is_handler |= base.ends_with("Handler"),
                    }
                }
            }
            if chain.is_empty() {
                if !r.handler.ends_with("Handler") {
                    continue;
                }
            } else if !is_handler {
                continue;
            }
            let mut methods: Vec<(String, Vec<Param>)> = Vec::new();
            for c in &chain {
                for f in &c.methods {
                    let upper = f.name.to_ascii_uppercase();
                    if !methods.iter().any(|(mt, _)| *mt == upper) {
                        methods.push((upper, f.params.clone()));
                    }
                }
            }
            if methods.is_empty() {
                methods.push(("GET".to_string(), Vec::new()));
            }
            let args = chain
                .iter()
                .flat_map(|c| &c.methods)
                .map(|f| f.args.as_slice())
                .find(|a| !a.is_empty())
                .unwrap_or_default();
            let url = crate::django::link::clean_route(&name_groups(&pattern, args), true);
            let url = format!("/{}", url.trim_start_matches('/'));
            for (method, params) in methods {
                out.push(
                    Endpoint::new(&method, url.clone())
                        .at_path(module.info.path.clone(), r.line)
                        .params(params),
                );
            }
        }
    }
    out
}

/// Gives a regex's unnamed capturing groups the names `names` (in order;
/// only when it has no named group, as Tornado then passes them
/// positionally) and unwraps non-capturing groups without alternatives
/// (`(?:/x)?` → `/x`), so [`crate::django::link::clean_route`] turns the
/// pattern into a path. One pass over the pattern plus one to pair the
/// parentheses.
fn name_groups(pattern: &str, names: &[String]) -> String {
    let chars: Vec<char> = pattern.chars().collect();
    // For each `(`: its `)` and whether an `|` sits directly inside.
    let mut close: Vec<Option<usize>> = vec![None; chars.len()];
    let mut alt = vec![false; chars.len()];
    let mut stack: Vec<usize> = Vec::new();
    let mut class = false;
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        match c {
            '\\' => i += 1,
            '[' if !class => class = true,
            ']' if class => class = false,
            _ if class => {}
            '(' => stack.push(i),
            ')' => {
                if let Some(open) = stack.pop() {
                    if let Some(slot) = close.get_mut(open) {
                        *slot = Some(i);
                    }
                }
            }
            '|' => {
                if let Some(flag) = stack.last().and_then(|o| alt.get_mut(*o)) {
                    *flag = true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let named = pattern.contains("(?P<");
    let mut names = names.iter().filter(|_| !named);
    let mut skip = vec![false; chars.len()];
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut class = false;
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if skip.get(i).copied().unwrap_or(false) {
            i += 1;
            continue;
        }
        match c {
            '\\' => {
                out.push(c);
                if let Some(n) = chars.get(i + 1) {
                    out.push(*n);
                }
                i += 2;
                continue;
            }
            '[' if !class => class = true,
            ']' if class => class = false,
            '(' if !class => {
                let next = chars.get(i + 1).copied();
                let end = close.get(i).copied().flatten();
                // No alternatives inside, no repetition after.
                let plain = !alt.get(i).copied().unwrap_or(true)
                    && !end.is_some_and(|e| matches!(chars.get(e + 1), Some('*' | '+' | '{')));
                match (next, end) {
                    (Some('?'), Some(end)) if chars.get(i + 2) == Some(&':') && plain => {
                        for j in [end, end + 1] {
                            let optional = j == end || chars.get(j) == Some(&'?');
                            if let (true, Some(s)) = (optional, skip.get_mut(j)) {
                                *s = true;
                            }
                        }
                        i += 3;
                        continue;
                    }
                    (Some('?'), _) | (_, None) => {}
                    _ => {
                        if let Some(name) = names.next() {
                            out.push_str("(?P<");
                            out.push_str(name);
                            out.push('>');
                            i += 1;
                            continue;
                        }
                    }
                }
            }
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::test_support::runner!(Tornado, crate::test_support::LINES);

    #[test]
    fn handlers_across_modules() {
        let app = "import tornado.web\nfrom tornado.web import url\nfrom handlers import MainHandler, ItemHandler, Base\nfrom settings import API\n\ndef make_app():\n    return tornado.web.Application([\n        (r'/', MainHandler),\n        url(API + r'/items/(?P<item_id>\\d+)$', ItemHandler, name='item'),\n        (r'/static/(.*)', tornado.web.StaticFileHandler, {'path': 'static'}),\n        ('/not-a-handler', dict),\n        # (r'/old', MainHandler),\n    ])\n";
        let handlers = "import tornado.web\n\nclass Base(tornado.web.RequestHandler):\n    def prepare(self):\n        self.token = self.request.headers.get('X-Token')\n\nclass MainHandler(Base):\n    def get(self):\n        q = self.get_argument('q', None)\n\nclass ItemHandler(Base):\n    async def get(self, item_id):\n        pass\n    async def put(self, item_id):\n        name = self.get_argument('name')\n        c = self.get_secure_cookie('session')\n        f = self.request.files['image']\n";
        assert_eq!(
            run(&[
                ("app.py", app),
                ("handlers.py", handlers),
                ("settings.py", "API = r'/api/v1'\n")
            ]),
            vec![
                "GET / @8 [query:q]",
                "GET /api/v1/items/{item_id} @9 []",
                "GET /static/(.*) @10 []",
                "PUT /api/v1/items/{item_id} @9 [form:name, cookie:session, file:image]",
            ]
        );
    }

    #[test]
    fn unnamed_groups_take_the_handler_argument_names() {
        let names = ["user".to_string(), "server".to_string()];
        let cases = [
            (
                r"/users/([^/]+)/servers/([^/]*)",
                "/users/{user}/servers/{server}",
            ),
            (r"/users/([^/]+)(?:/([^/]+))?$", "/users/{user}/{server}"),
            (r"/u/(?P<id>\d+)/(x|y)", "/u/{id}/(x|y)"),
            (r"/a(?:b|c)/([()]+)", "/a(?:b|c)/{user}"),
            (r"/r(?:/x)*/([^/]+)", "/r(?:/x)*/{user}"),
            (r"/é/(\d+)/(\d+)/(\d+)", "/é/{user}/{server}/(\\d+)"),
            (r"/broken(", "/broken("),
            (r"/trail\", "/trail\\"),
        ];
        for (pattern, want) in cases {
            let got = crate::django::link::clean_route(&name_groups(pattern, &names), true);
            assert_eq!(got, want, "{pattern}");
        }
    }
}
