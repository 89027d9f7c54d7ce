//! Stage 5: tag endpoints.
//!
//! Each tagger is a small module with one [`Tagger`] value, registered once
//! in [`ALL`]. Taggers marked `always` run on every scan (`websocket`, and
//! `shadow` which compares code with API documents); the others run when
//! asked for with `-T`/`--use-all-taggers` or `--use-taggers a,b`.
//! A tag is added at most once per (name, tagger), on the endpoint or, for
//! `hunt`, on the parameter it is about.

mod account_recovery;
mod admin;
mod api_docs;
pub mod auth;
mod cors;
mod crypto;
mod debug;
mod file_upload;
mod graphql;
mod hunt;
mod jwt;
mod mcp;
mod oauth;
mod payment;
mod pii;
mod shadow;
mod soap;
mod webhook;
mod websocket;
mod wordset;

use crate::model::{Endpoint, Param, Tag};

/// What a tagger may know about the scan as a whole.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scope {
    /// Some endpoint was found in code.
    pub code: bool,
    /// Some endpoint was found in an API document.
    pub spec: bool,
}

impl Scope {
    pub fn of(endpoints: &[Endpoint]) -> Scope {
        Scope {
            code: endpoints.iter().any(|e| e.origin.code),
            spec: endpoints.iter().any(|e| e.origin.spec),
        }
    }
}

pub struct Tagger {
    /// The id users pass to `--use-taggers`.
    pub id: &'static str,
    /// The `tagger` field of the tags it emits.
    pub label: &'static str,
    /// One sentence for `--list-taggers`.
    pub summary: &'static str,
    /// Runs without being asked for.
    pub always: bool,
    pub apply: fn(&mut Endpoint, Scope),
}

/// Every tagger, in the order they run (and are listed).
pub const ALL: &[Tagger] = &[
    websocket::TAGGER,
    shadow::TAGGER,
    hunt::TAGGER,
    oauth::TAGGER,
    cors::TAGGER,
    soap::TAGGER,
    graphql::TAGGER,
    jwt::TAGGER,
    file_upload::TAGGER,
    auth::TAGGER,
    admin::TAGGER,
    pii::TAGGER,
    payment::TAGGER,
    crypto::TAGGER,
    webhook::TAGGER,
    debug::TAGGER,
    api_docs::TAGGER,
    account_recovery::TAGGER,
    mcp::TAGGER,
];

/// Which optional taggers run.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    pub all: bool,
    pub named: Vec<&'static str>,
}

impl Selection {
    /// From `-T` and `--use-taggers`; unknown ids are a usage error.
    pub fn new(all: bool, names: &[String]) -> Result<Selection, String> {
        let mut named = Vec::new();
        for n in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
            let wanted = n.to_ascii_lowercase().replace('-', "_");
            match ALL.iter().find(|t| t.id == wanted) {
                Some(t) => named.push(t.id),
                None => {
                    return Err(format!(
                    "--use-taggers: unknown tagger `{n}`; the taggers are {} (see --list-taggers)",
                    ALL.iter().map(|t| t.id).collect::<Vec<_>>().join(", ")
                ))
                }
            }
        }
        Ok(Selection { all, named })
    }

    fn runs(&self, t: &Tagger) -> bool {
        t.always || self.all || self.named.contains(&t.id)
    }
}

/// Run the selected taggers over the final endpoint list.
pub fn run(endpoints: &mut [Endpoint], selection: &Selection) {
    let scope = Scope::of(endpoints);
    let taggers: Vec<&Tagger> = ALL.iter().filter(|t| selection.runs(t)).collect();
    for e in endpoints.iter_mut() {
        for t in &taggers {
            (t.apply)(e, scope);
        }
    }
}

/// How many endpoints carry a tag of this name.
pub fn count(endpoints: &[Endpoint], name: &str) -> usize {
    endpoints
        .iter()
        .filter(|e| e.tags.iter().any(|t| t.name == name))
        .count()
}

fn add(tags: &mut Vec<Tag>, name: &str, description: &str, tagger: &str) {
    if !tags.iter().any(|t| t.name == name && t.tagger == tagger) {
        tags.push(Tag {
            name: name.into(),
            description: description.into(),
            tagger: tagger.into(),
        });
    }
}

/// Tag the endpoint itself.
fn tag(e: &mut Endpoint, t: &Tagger, name: &str, description: &str) {
    add(&mut e.tags, name, description, t.label);
}

/// Tag one parameter.
fn tag_param(p: &mut Param, t: &Tagger, name: &str, description: &str) {
    add(&mut p.tags, name, description, t.label);
}

/// Parameter names, lower-cased (taggers match names case-insensitively).
fn names(e: &Endpoint) -> Vec<String> {
    e.params
        .iter()
        .map(|p| p.name.to_ascii_lowercase())
        .collect()
}

/// How many of `words` are among the endpoint's parameter names.
fn count_names(e: &Endpoint, words: &[&str]) -> usize {
    let names = names(e);
    words
        .iter()
        .filter(|w| names.iter().any(|n| n == *w))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Origin, ParamType};

    fn ep(method: &str, url: &str, params: &[(&str, ParamType)]) -> Endpoint {
        let mut e = Endpoint::new(method, url);
        for (n, t) in params {
            e.params.push(Param::new(*n, *t));
        }
        e.origin = Origin {
            code: true,
            spec: false,
        };
        e
    }

    fn tags_of(e: &Endpoint) -> Vec<&str> {
        e.tags.iter().map(|t| t.name.as_str()).collect()
    }

    fn run_all(list: &mut [Endpoint]) {
        run(
            list,
            &Selection {
                all: true,
                named: vec![],
            },
        );
    }

    #[test]
    fn ids_are_unique_and_described() {
        for (i, t) in ALL.iter().enumerate() {
            assert!(
                !t.summary.is_empty() && t.summary.ends_with('.'),
                "{}",
                t.id
            );
            assert!(ALL[i + 1..].iter().all(|u| u.id != t.id), "{}", t.id);
        }
    }

    #[test]
    fn unknown_tagger_is_refused_with_the_list() {
        let err = Selection::new(false, &["hunt".into(), "nope".into()]).unwrap_err();
        assert!(
            err.contains("`nope`") && err.contains("file_upload"),
            "{err}"
        );
        let ok = Selection::new(false, &["File-Upload".into()]).unwrap();
        assert_eq!(ok.named, vec!["file_upload"]);
    }

    #[test]
    fn optional_taggers_run_only_when_selected() {
        let mut list = vec![ep("POST", "/upload", &[("file", ParamType::File)])];
        run(&mut list, &Selection::default());
        assert!(list[0].tags.is_empty());
        run(
            &mut list,
            &Selection {
                all: false,
                named: vec!["file_upload"],
            },
        );
        assert_eq!(tags_of(&list[0]), vec!["file_upload"]);
        // Running twice adds nothing.
        run_all(&mut list);
        assert_eq!(tags_of(&list[0]), vec!["file_upload"]);
    }

    #[test]
    fn websocket_is_always_on() {
        let mut ws = ep("GET", "/chat", &[]);
        ws.protocol = "ws".into();
        let by_headers = ep(
            "GET",
            "/live",
            &[
                ("Sec-WebSocket-Key", ParamType::Header),
                ("Sec-WebSocket-Version", ParamType::Header),
            ],
        );
        let one_header = ep("GET", "/x", &[("Sec-WebSocket-Key", ParamType::Header)]);
        let mut list = vec![ws, by_headers, one_header];
        run(&mut list, &Selection::default());
        assert_eq!(tags_of(&list[0]), vec!["websocket"]);
        assert_eq!(tags_of(&list[1]), vec!["websocket"]);
        assert!(list[2].tags.is_empty());
        assert_eq!(list[0].tags[0].tagger, "WebSocket");
    }

    #[test]
    fn shadow_needs_a_document_and_marks_both_directions() {
        let mut only_code = vec![ep("GET", "/a", &[])];
        run(&mut only_code, &Selection::default());
        assert!(only_code[0].tags.is_empty(), "no document, no shadow");

        let mut documented = ep("GET", "/a", &[]);
        documented.origin.spec = true;
        let undocumented = ep("POST", "/a", &[]);
        let mut stale = ep("GET", "/old", &[]);
        stale.origin = Origin {
            code: false,
            spec: true,
        };
        let mut command = ep("CLI", "cli://tool/sync", &[]);
        command.protocol = "cli".into();
        let mut list = vec![documented, undocumented, stale, command];
        run(&mut list, &Selection::default());
        assert!(list[0].tags.is_empty());
        assert_eq!(tags_of(&list[1]), vec!["shadow"]);
        assert_eq!(tags_of(&list[2]), vec!["spec_only"]);
        assert!(list[3].tags.is_empty(), "a command line is never shadow");

        // Documents alone: nothing to compare with, nothing is stale.
        let mut docs_only = vec![list[2].clone()];
        docs_only[0].tags.clear();
        run(&mut docs_only, &Selection::default());
        assert!(docs_only[0].tags.is_empty());
    }

    #[test]
    fn hunt_tags_parameters_by_vulnerability_class() {
        let mut list = vec![ep(
            "GET",
            "/search",
            &[
                ("q", ParamType::Query),
                ("Sort", ParamType::Query),
                ("redirect", ParamType::Query),
                ("template", ParamType::Query),
            ],
        )];
        run_all(&mut list);
        let tags = |i: usize| -> Vec<&str> {
            list[0].params[i]
                .tags
                .iter()
                .map(|t| t.name.as_str())
                .collect()
        };
        assert!(tags(0).is_empty());
        assert_eq!(tags(1), vec!["sqli"]);
        assert_eq!(tags(2), vec!["ssti", "ssrf"]);
        assert_eq!(tags(3), vec!["ssti", "file-inclusion"]);
        assert!(list[0].tags.is_empty(), "hunt tags parameters only");
    }

    #[test]
    fn thresholds_of_the_name_based_taggers() {
        let q = ParamType::Query;
        let mut list = vec![
            ep(
                "POST",
                "/oauth/token",
                &[("grant_type", q), ("code", q), ("client_id", q)],
            ),
            ep("POST", "/x", &[("grant_type", q), ("code", q)]),
            ep("OPTIONS", "/y", &[("Origin", ParamType::Header)]),
            ep("POST", "/ws", &[("SOAPAction", ParamType::Header)]),
            ep("POST", "/api/graphql", &[]),
            ep(
                "POST",
                "/q",
                &[("query", ParamType::Json), ("variables", ParamType::Json)],
            ),
            ep(
                "POST",
                "/q2",
                &[
                    ("query", ParamType::Json),
                    ("operationName", ParamType::Json),
                ],
            ),
            ep("GET", "/me", &[("token", q)]),
            ep("GET", "/auth/check", &[("token", q)]),
            ep("PUT", "/files/import", &[]),
            ep("GET", "/files/import", &[]),
        ];
        run_all(&mut list);
        let t: Vec<Vec<&str>> = list.iter().map(tags_of).collect();
        assert_eq!(t[0], vec!["oauth"]);
        assert!(t[1].is_empty());
        assert_eq!(t[2], vec!["cors"]);
        assert_eq!(t[3], vec!["soap"]);
        assert_eq!(t[4], vec!["graphql"]);
        assert!(t[5].is_empty(), "one GraphQL word is not enough");
        assert_eq!(t[6], vec!["graphql"]);
        assert!(t[7].is_empty(), "one token word outside an auth URL");
        assert_eq!(t[8], vec!["jwt"]);
        assert_eq!(t[9], vec!["file_upload"]);
        assert!(t[10].is_empty(), "GET never uploads");
    }

    /// Each word-set tagger on what it must tag and what it must not:
    /// (method, url, params, the tags expected from the word-set taggers).
    #[test]
    fn word_set_taggers_true_and_false_positives() {
        use ParamType::{Header, Json, Path, Query};
        type Case<'a> = (&'a str, &'a str, &'a [(&'a str, ParamType)], &'a [&'a str]);
        let cases: &[Case] = &[
            ("GET", "/admin/users", &[], &["admin"]),
            ("GET", "/api/backoffice/orders", &[], &["admin"]),
            (
                "POST",
                "/internal/users/{id}",
                &[("role", Json)],
                &["admin"],
            ),
            ("PATCH", "/users/{id}", &[("is_admin", Json)], &["admin"]),
            ("GET", "/users/{adminId}", &[("adminId", Path)], &[]),
            ("PUT", "/users/{id}/roles", &[("role", Json)], &[]),
            (
                "POST",
                "/register",
                &[("email", Json), ("phone", Json)],
                &["pii"],
            ),
            ("POST", "/kyc/documents", &[], &["pii"]),
            ("PUT", "/me", &[("dateOfBirth", Json)], &["pii"]),
            (
                "POST",
                "/login",
                &[("email", Json), ("password", Json)],
                &[],
            ),
            ("POST", "/checkout", &[], &["payment"]),
            ("POST", "/cards", &[("card", Json)], &["payment"]),
            ("POST", "/orders/{id}/pay", &[], &["payment"]),
            (
                "POST",
                "/donate",
                &[("card_number", Json), ("cvv", Json)],
                &["payment"],
            ),
            ("GET", "/products", &[("price", Query)], &[]),
            ("GET", "/payday-loans-info", &[], &[]),
            ("POST", "/webhooks/github", &[], &["webhook"]),
            (
                "POST",
                "/integrations/stripe/events",
                &[("Stripe-Signature", Header)],
                &["payment", "webhook"],
            ),
            (
                "POST",
                "/api/callback",
                &[("signature", Json)],
                &["webhook"],
            ),
            ("GET", "/api/callback", &[], &[]),
            ("GET", "/debug/pprof/heap", &[], &["debug"]),
            ("GET", "/actuator/env", &[], &["debug"]),
            ("GET", "/search", &[("debug", Query)], &["debug"]),
            ("GET", "/health", &[], &[]),
            ("GET", "/api-docs", &[], &["api_docs"]),
            ("GET", "/swagger-ui/index.html", &[], &["api_docs"]),
            ("GET", "/v3/api-docs/{group}", &[], &["api_docs"]),
            ("GET", "/docs", &[], &[]),
            (
                "POST",
                "/auth/forgot-password",
                &[("email", Json)],
                &["account_recovery"],
            ),
            (
                "POST",
                "/password/reset",
                &[("token", Json), ("password", Json)],
                &["account_recovery"],
            ),
            (
                "POST",
                "/users/unlock",
                &[("token", Json)],
                &["account_recovery"],
            ),
            (
                "PUT",
                "/users/{id}/password",
                &[("new_password", Json)],
                &[],
            ),
            ("POST", "/promo", &[("code", Json), ("email", Json)], &[]),
            ("POST", "/mcp", &[], &["mcp"]),
            ("POST", "/messages", &[("jsonrpc", Json)], &["mcp"]),
            ("GET", "/sse", &[("Mcp-Session-Id", Header)], &["mcp"]),
            ("POST", "/chat/messages", &[("text", Json)], &[]),
            ("POST", "/rpc", &[("method", Json), ("params", Json)], &[]),
            ("POST", "/api/encrypt", &[("data", Json)], &["crypto"]),
            ("GET", "/.well-known/jwks.json", &[], &["crypto"]),
            ("POST", "/keys/{id}/sign", &[("payload", Json)], &["crypto"]),
            (
                "POST",
                "/certificates",
                &[("private_key", Json), ("cert", Json)],
                &["crypto"],
            ),
            ("GET", "/api/keys", &[], &[]),
            ("POST", "/email/verify", &[("token", Json)], &[]),
            ("GET", "/files/{hash}", &[("hash", Path)], &[]),
            ("GET", "/monkeys", &[("key", Query)], &[]),
        ];
        let word_taggers = [
            "admin",
            "pii",
            "payment",
            "crypto",
            "webhook",
            "debug",
            "api_docs",
            "account_recovery",
            "mcp",
        ];
        for (method, url, params, want) in cases {
            let mut list = vec![ep(method, url, params)];
            run_all(&mut list);
            let mut got: Vec<&str> = tags_of(&list[0])
                .into_iter()
                .filter(|t| word_taggers.contains(t))
                .collect();
            got.sort_unstable();
            assert_eq!(&got, want, "{method} {url} {params:?}");
        }
    }

    #[test]
    fn auth_comes_from_the_analyzers_guards_only() {
        use crate::model::{AiContext, ContextEntry};
        let guard = |kind: &str, name: &str| ContextEntry {
            kind: kind.into(),
            name: name.into(),
            source: Some("decorator".into()),
            description: None,
            path: None,
            line: None,
            confidence: None,
            snippet: None,
        };
        let mut guarded = ep("DELETE", "/admin/users/{id}", &[]);
        guarded.ai_context = Some(AiContext {
            guards: vec![
                guard("auth_guard", "login_required"),
                guard("authz_guard", "roles_required('admin')"),
                guard("rate_limit_guard", "limiter.limit('5/minute')"),
            ],
            ..AiContext::default()
        });
        let mut limited = ep("POST", "/login", &[]);
        limited.ai_context = Some(AiContext {
            guards: vec![guard("rate_limit_guard", "limiter.limit('5/minute')")],
            ..AiContext::default()
        });
        // A guard-like word in the URL or a token parameter is no guard.
        let unguarded = ep(
            "GET",
            "/auth/required",
            &[("Authorization", ParamType::Header)],
        );
        let mut list = vec![guarded, limited, unguarded];
        run_all(&mut list);
        let auth: Vec<Option<&str>> = list
            .iter()
            .map(|e| {
                e.tags
                    .iter()
                    .find(|t| t.name == "auth")
                    .map(|t| t.description.as_str())
            })
            .collect();
        assert_eq!(
            auth,
            vec![
                Some("Protected by login_required, roles_required('admin')"),
                None,
                None
            ]
        );
    }
}
