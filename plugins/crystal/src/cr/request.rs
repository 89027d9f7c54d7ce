//! What a Crystal handler body reads from the request.
//!
//! A read is an accessor on a receiver chain: `X["k"]`, `X["k"]?`,
//! `X[:k]`, `X.get(:k)`, `X.get?("k")`, `X.fetch("k", d)`,
//! `X.has_key?("k")`. The chain's last name decides the kind:
//!
//! * `query`, `query_params`, `fetch_query_params` → query
//!   (`env.params.query["x"]`, `request.query_params["x"]`);
//! * `json`, `json_params`, `fetch_json_params`, `from_json` → json
//!   (`env.params.json["x"]`, Lucky's `params.from_json["x"]`);
//! * `body`, `body_params`, `fetch_body_params`, `data`, `form_params`
//!   → form (`env.params.body["x"]`, Marten's `request.data["x"]`);
//! * `params` → the framework's generic parameters (query on GET,
//!   body otherwise; see `dsl::endpoint_with`);
//! * `headers` (on a chain naming `request`, or `context`/`env`
//!   handlers' request) → header, as written;
//! * `cookies` → cookie (not on a `response` chain);
//! * `url`, `path_params`, `url_params`, `fetch_path_params` → path
//!   (left to the URL placeholders).
//!
//! Assignments (`X["k"] = v`) are writes and skipped, and so is anything
//! on a `response` chain. Amber's `params.validation { required(:x);
//! optional(:y) }` names are generic parameters. Bare identifiers are kept
//! in [`Reads::calls`] so handlers can follow their helper methods.

use serde::{Deserialize, Serialize};

use super::tokens::{Kind, Token};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reads {
    /// Generic `params` reads: query on GET, body otherwise.
    pub params: Vec<String>,
    pub query: Vec<String>,
    pub form: Vec<String>,
    pub json: Vec<String>,
    pub headers: Vec<String>,
    pub cookies: Vec<String>,
    /// Bare method names called (to follow helper methods).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<String>,
}

impl Reads {
    pub fn merge(&mut self, other: &Reads) {
        for (a, b) in [
            (&mut self.params, &other.params),
            (&mut self.query, &other.query),
            (&mut self.form, &other.form),
            (&mut self.json, &other.json),
            (&mut self.headers, &other.headers),
            (&mut self.cookies, &other.cookies),
        ] {
            for x in b {
                push(a, x);
            }
        }
    }
}

fn push(list: &mut Vec<String>, name: &str) {
    if !name.is_empty() && !list.iter().any(|x| x == name) {
        list.push(name.to_string());
    }
}

fn key(t: Option<&Token>) -> Option<&str> {
    let t = t?;
    match t.kind {
        Kind::Sym | Kind::Str if !t.interpolated => Some(&t.text),
        _ => None,
    }
}

/// The receiver chain ending just before `i` (`env.request.headers`):
/// names, outermost first.
fn chain_before(toks: &[Token], i: usize) -> Vec<&str> {
    let mut names = Vec::new();
    let mut k = i;
    while k > 0 {
        let t = &toks[k - 1];
        if matches!(t.kind, Kind::Ident | Kind::Const) {
            names.push(t.text.as_str());
            if k >= 2 && (toks[k - 2].is(".") || toks[k - 2].is("&.")) {
                k -= 2;
                continue;
            }
        }
        break;
    }
    names.reverse();
    names
}

enum Target {
    Params,
    Query,
    Form,
    Json,
    Header,
    Cookie,
    Skip,
}

fn target(chain: &[&str]) -> Option<Target> {
    let last = *chain.last()?;
    if chain.contains(&"response") {
        return Some(Target::Skip);
    }
    Some(match last {
        "query" | "query_params" | "fetch_query_params" => Target::Query,
        "json" | "json_params" | "fetch_json_params" | "from_json" => Target::Json,
        "body" | "body_params" | "fetch_body_params" | "data" | "form_params" => Target::Form,
        "params" => Target::Params,
        "headers" if chain.contains(&"request") || chain.len() == 1 => Target::Header,
        "cookies" => Target::Cookie,
        "url" | "path_params" | "url_params" | "fetch_path_params" => Target::Skip,
        _ => return None,
    })
}

/// Scan tokens (a handler body) for request reads.
pub fn reads(toks: &[Token]) -> Reads {
    let mut r = Reads::default();
    for i in 0..toks.len() {
        let t = &toks[i];
        let after_dot = i > 0 && (toks[i - 1].is(".") || toks[i - 1].is("&."));
        if t.kind == Kind::Ident && !after_dot {
            if matches!(t.text.as_str(), "required" | "optional") {
                let at = if toks.get(i + 1).is_some_and(|p| p.is("(")) {
                    i + 2
                } else {
                    i + 1
                };
                if let Some(n) = toks.get(at).filter(|n| n.kind == Kind::Sym) {
                    push(&mut r.params, &n.text);
                    continue;
                }
            }
            push(&mut r.calls, &t.text);
        }
        let name = if t.is("[") && !t.space_before {
            // `X["k"]` / `X["k"]?`, not assigned.
            if !toks.get(i + 2).is_some_and(|c| c.is("]")) {
                continue;
            }
            if toks
                .get(i + 3)
                .is_some_and(|n| n.is("=") || n.is("||=") || n.is("<<"))
            {
                continue;
            }
            key(toks.get(i + 1))
        } else if t.is(".")
            && toks.get(i + 1).is_some_and(|m| {
                matches!(
                    m.text.as_str(),
                    "get" | "get?" | "fetch" | "has_key?" | "fetch_raw" | "get_raw"
                )
            })
        {
            let open = i + 2;
            if toks.get(open).is_some_and(|p| p.is("(")) {
                key(toks.get(open + 1))
            } else {
                key(toks.get(open))
            }
        } else {
            continue;
        };
        let Some(name) = name else { continue };
        let chain = chain_before(toks, i);
        let list = match target(&chain) {
            Some(Target::Params) => &mut r.params,
            Some(Target::Query) => &mut r.query,
            Some(Target::Form) => &mut r.form,
            Some(Target::Json) => &mut r.json,
            Some(Target::Header) => &mut r.headers,
            Some(Target::Cookie) => &mut r.cookies,
            Some(Target::Skip) | None => continue,
        };
        push(list, name);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(src: &str) -> Reads {
        reads(&crate::cr::tokens_of(src))
    }

    #[test]
    fn kemal_reads() {
        let r = of("id = env.params.url[\"id\"]\nq = env.params.query[\"q\"]?\nn = env.params.json[\"name\"].as(String)\nf = env.params.body[\"f\"]\nh = env.request.headers[\"X-Token\"]\nc = env.request.cookies[\"sid\"]?\nenv.response.headers[\"X-Out\"] = \"1\"\nenv.response.cookies[\"w\"]\n");
        assert_eq!(r.query, ["q"]);
        assert_eq!(r.json, ["name"]);
        assert_eq!(r.form, ["f"]);
        assert_eq!(r.headers, ["X-Token"]);
        assert_eq!(r.cookies, ["sid"]);
        assert!(r.params.is_empty());
    }

    #[test]
    fn params_accessors() {
        let r = of("params.get(:email)\nparams.get? \"page\"\nparams[:x]\nparams.from_json[\"k\"]\nrequest.query_params.fetch(\"s\", \"\")\nrequest.data[\"d\"]\ncookies.get(:c)\nparams[:w] = 1\n");
        assert_eq!(r.params, ["email", "page", "x"]);
        assert_eq!(r.json, ["k"]);
        assert_eq!(r.query, ["s"]);
        assert_eq!(r.form, ["d"]);
        assert_eq!(r.cookies, ["c"]);
    }

    #[test]
    fn validation_names_and_calls() {
        let r = of("params.validation do\n  required(:title) { |f| !f.nil? }\n  optional :body\nend\npost_params.validate!\n");
        assert_eq!(r.params, ["title", "body"]);
        assert!(r.calls.iter().any(|c| c == "post_params"));
    }
}
