//! Bandit (`elixir_bandit`).
//!
//! - Plug routers Bandit serves: `{Bandit, plug: MyApp.Router, port: 4000}`
//!   child specs (also `plug: {MyApp.Router, opts}` and
//!   `Bandit.start_link(plug: MyApp.Router)`), read like `elixir_plug`
//!   does ([`crate::routes`]: `get "/x" do`, `match … via:`, `forward "/api",
//!   to: Api.Router` with the forwarded router's routes under the prefix).
//!   `elixir_plug` leaves these routers out, so a Plug.Router served by
//!   Bandit is reported once, as `elixir_bandit`; routers served otherwise
//!   (Plug.Cowboy) stay `elixir_plug`'s.
//! - Bare `Plug` modules (`@behaviour Plug` / `import Plug.Conn`, no
//!   `Plug.Router`) dispatching in `call/2` clause heads:
//!   `def call(%{method: "GET", request_path: "/health"} = conn, _opts)` or
//!   `%Plug.Conn{method: "POST", path_info: ["users", id]}` (a variable
//!   segment becomes `:id`). A clause without `method:` serves every
//!   method: reported as GET, POST, PUT, PATCH and DELETE. Parameters are
//!   the clause body's reads (`conn.query_params["q"]`, `get_req_header`, …).
//! - WebSocket upgrades: a clause or route block calling
//!   `WebSockAdapter.upgrade(conn, Handler, …)` is a WebSocket endpoint
//!   (GET, protocol ws).
//!
//! Test paths (`test/`) are not scanned.

use portolan_plugin_sdk::prelude::*;

use crate::ex::reads;
use crate::ex::tokens::{Kind, Token};
use crate::ex::tree::Node;
use crate::ex::uses;
use crate::routes::{self, upgrades, Route, Router, ANY_METHODS};

pub struct Bandit;

/// Bandit's hooks into the shared map step ([`crate::SERVERS`]).
pub const SERVER: routes::Server = routes::Server {
    served,
    bare: bare_plug,
};

impl Analyzer for Bandit {
    fn tech(&self) -> Tech {
        Tech::new("elixir_bandit", "Elixir", "Bandit")
            .aliases(["bandit", "elixir-bandit"])
            .files(["*.ex", "*.exs"])
            .detect(Detect::files(["mix.exs"]).contains(["{:bandit,"]))
            .detect(Detect::files(["*.ex", "*.exs"]).regex([r"\{Bandit,|Bandit\.start_link"]))
            .supports(Supports::ALL)
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        routes::analyze(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        // The Plug routers Bandit serves (and what they forward to), then
        // the bare Plug modules' dispatch clauses.
        let mut out = routes::link_roots(facts, &|r, served| r.plug && served);
        routes::link_bare(facts, &mut out);
        Ok(out)
    }
}

/// Modules given to Bandit as its `plug:`.
pub fn served(t: &[Token]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, tok) in t.iter().enumerate() {
        if !(tok.kind == Kind::Alias && tok.text == "Bandit") {
            continue;
        }
        let window = &t[i + 1..(i + 16).min(t.len())];
        let Some(k) = window
            .iter()
            .position(|x| x.kind == Kind::Key && x.text == "plug")
        else {
            continue;
        };
        let mut j = k + 1;
        if window.get(j).is_some_and(|x| x.is("{")) {
            j += 1;
        }
        if let Some(m) = window.get(j).filter(|x| x.kind == Kind::Alias) {
            if !out.contains(&m.text) {
                out.push(m.text.clone());
            }
        }
    }
    out
}

/// A bare Plug module's dispatch clauses as a router.
pub fn bare_plug(file: &SourceFile, t: &[Token], name: &str, node: &Node) -> Option<Router> {
    let used = uses(t, node);
    if used
        .iter()
        .any(|u| u == "Plug.Router" || u == "Phoenix.Router" || u == "router")
    {
        return None;
    }
    let mut r = Router {
        module: name.to_string(),
        path: file.path.clone(),
        plug: true,
        routes: Vec::new(),
        forwards: Vec::new(),
        json: false,
    };
    for n in &node.children {
        if n.name != "def" || !t.get(n.args.start).is_some_and(|x| x.is_ident("call")) {
            continue;
        }
        // The head ends at a `do:` of a one-line clause.
        let head_end = (n.args.start..n.args.end.min(t.len()))
            .find(|&k| t[k].kind == Kind::Key && t[k].text == "do")
            .unwrap_or(n.args.end.min(t.len()));
        let Some((method, url)) = dispatch(t, n.args.start..head_end) else {
            continue;
        };
        let body = n.body.clone().unwrap_or(head_end..n.args.end.min(t.len()));
        let ws = upgrades(t, body.clone());
        let rs = reads::scan(t, body, false);
        let methods: Vec<String> = match method {
            _ if ws => vec!["GET".to_string()],
            Some(m) => vec![m],
            None => ANY_METHODS.iter().map(|m| m.to_string()).collect(),
        };
        let line = file.line_of(t.get(n.head).map_or(0, |x| x.start));
        for m in methods {
            r.routes.push(Route {
                method: m,
                url: url.clone(),
                line,
                action: None,
                json: false,
                reads: rs.clone(),
                ws,
                guard: None,
            });
        }
    }
    (!r.routes.is_empty()).then_some(r)
}

/// `method: "GET"` and `request_path: "/x"` / `path_info: ["a", id]` in a
/// clause head.
fn dispatch(t: &[Token], r: std::ops::Range<usize>) -> Option<(Option<String>, String)> {
    let mut method = None;
    let mut url = None;
    let mut k = r.start;
    while k < r.end {
        let tok = &t[k];
        if tok.kind == Kind::Key {
            let next = t.get(k + 1);
            match tok.text.as_str() {
                "method" => {
                    if let Some(v) = next.filter(|x| x.kind == Kind::Str) {
                        method = Some(v.text.to_ascii_uppercase());
                    }
                }
                "request_path" => {
                    if let Some(v) = next.filter(|x| x.kind == Kind::Str) {
                        url = Some(v.text.clone());
                    }
                }
                "path_info" if next.is_some_and(|x| x.is("[")) => {
                    let mut segs = Vec::new();
                    let mut j = k + 2;
                    while j < r.end && !t[j].is("]") {
                        match t[j].kind {
                            Kind::Str => segs.push(t[j].text.clone()),
                            Kind::Ident if t[j].text != "_" => {
                                segs.push(format!(":{}", t[j].text.trim_start_matches('_')))
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    url = Some(format!("/{}", segs.join("/")));
                    k = j;
                }
                _ => {}
            }
        }
        k += 1;
    }
    url.map(|u| (method, u))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ex::tokens::tokenize;

    #[test]
    fn child_specs_name_the_served_plug() {
        let t = tokenize("children = [\n  {Bandit, plug: MyApp.Router, port: 4000},\n  {Bandit, scheme: :http, plug: {Admin.Router, []}}\n]\nBandit.start_link(plug: Other)\n");
        assert_eq!(served(&t), ["MyApp.Router", "Admin.Router", "Other"]);
    }

    #[test]
    fn clause_heads() {
        let t = tokenize("def call(%Plug.Conn{method: \"POST\", path_info: [\"users\", id, \"tags\"]} = conn, _)");
        assert_eq!(
            dispatch(&t, 0..t.len()),
            Some((Some("POST".into()), "/users/:id/tags".into()))
        );
        let t = tokenize("def call(conn, _opts)");
        assert_eq!(dispatch(&t, 0..t.len()), None);
    }
}
