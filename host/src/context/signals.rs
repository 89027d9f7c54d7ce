//! Signals from the endpoint itself (route, technology, method, params,
//! tags), the review heuristics and their combinations.

use super::names;
use super::snippet;
use super::{at, entry, Draft, Files};
use crate::model::{AiContext, Endpoint, Param, ParamType};

const SAFE: &[&str] = &["GET", "HEAD", "OPTIONS", "TRACE"];
const WRITE_VERBS: &[&str] = &[
    "create", "update", "delete", "save", "insert", "remove", "destroy", "add", "set", "write",
    "put", "patch", "post", "upsert", "modify", "drop",
];
const READ_PREFIXES: &[&str] = &[
    "find", "get", "list", "count", "search", "query", "retrieve",
];

fn anchor(e: &Endpoint) -> Option<(&str, Option<u32>)> {
    e.details
        .code_paths
        .first()
        .map(|c| (c.path.as_str(), c.line))
}

fn anchored(e: &Endpoint, x: crate::model::ContextEntry) -> crate::model::ContextEntry {
    match anchor(e) {
        Some((path, line)) => at(x, path, line),
        None => x,
    }
}

pub fn type_name(t: ParamType) -> &'static str {
    crate::output::type_name(t)
}

fn qualified(p: &Param) -> String {
    format!("{}.{}", type_name(p.param_type), p.name)
}

/// The last dotted segment of a callee, lower-case.
fn verb(callee: &str) -> String {
    callee
        .rsplit(['.', ':', '>'])
        .next()
        .unwrap_or(callee)
        .to_ascii_lowercase()
}

fn mutating(callee: &str) -> bool {
    let v = verb(callee);
    WRITE_VERBS.iter().any(|w| v.starts_with(w))
}

/// POST/PUT/PATCH/DELETE, except a POST without a body whose every callee
/// only reads.
fn state_changing(e: &Endpoint, callees: &[String]) -> bool {
    if !matches!(e.method.as_str(), "POST" | "PUT" | "PATCH" | "DELETE") {
        return false;
    }
    let body = e.params.iter().any(|p| {
        matches!(
            p.param_type,
            ParamType::Json | ParamType::Form | ParamType::File
        )
    });
    let read_only = e.method == "POST"
        && !body
        && !callees.is_empty()
        && callees.iter().all(|c| {
            let v = verb(c);
            READ_PREFIXES.iter().any(|p| v.starts_with(p))
                && !WRITE_VERBS.iter().any(|w| v.contains(w))
        });
    !read_only
}

/// Steps 1–4: route definition, technology, state change, internal.
pub fn route(e: &Endpoint, raw: &AiContext, files: &mut Files<'_>, d: &mut Draft) {
    let mut def = entry(
        "route_definition",
        format!("{} {}", e.method, e.url),
        "route",
        100,
    );
    if let Some((path, line)) = anchor(e) {
        def = at(def, path, line);
        if let Some(l) = line {
            def.snippet = snippet::window(files.lines(path), l, 2);
        }
    }
    d.signals.push(def);
    if let Some(tech) = &e.details.technology {
        d.signals
            .push(entry("technology", tech.clone(), "detector", 96));
    }
    let callees: Vec<String> = raw.callees.iter().map(|c| c.name.clone()).collect();
    d.state_change = state_changing(e, &callees);
    if d.state_change {
        d.signals
            .push(entry("state_change", e.method.clone(), "http_method", 88));
    }
    if e.internal {
        d.signals
            .push(entry("internal_endpoint", e.url.clone(), "endpoint", 78));
    }
}

/// Step 5: one source per param, `path_param`, name-pattern signals and
/// the params' tags.
pub fn params(e: &Endpoint, d: &mut Draft) {
    for p in &e.params {
        let name = qualified(p);
        let confidence = match p.param_type {
            ParamType::Path => 88,
            ParamType::Query | ParamType::Header => 84,
            ParamType::Json | ParamType::Form => 82,
            _ => 76,
        };
        d.sources.push(anchored(
            e,
            entry("request_input", name.clone(), "param", confidence),
        ));
        if p.param_type == ParamType::Path {
            d.signals
                .push(anchored(e, entry("path_param", name.clone(), "param", 84)));
        }
        let has_tag = |t: &str| p.tags.iter().any(|g| g.name == t);
        let lower = p.name.to_ascii_lowercase();
        for (kind, confidence) in names::kinds(&p.name) {
            let skip = match kind {
                "file_input" => p.param_type == ParamType::Header,
                "identifier_input" => {
                    (p.param_type == ParamType::Header && !lower.ends_with("id"))
                        || (matches!(p.param_type, ParamType::Json | ParamType::Form)
                            && lower == "id")
                        || (p.param_type == ParamType::Path && has_tag("idor"))
                }
                "query_builder_input" => has_tag("sqli"),
                _ => false,
            };
            if !skip {
                d.signals
                    .push(anchored(e, entry(kind, name.clone(), "param", confidence)));
            }
        }
        for t in &p.tags {
            let mut s = entry(
                &t.name,
                name.clone(),
                &format!("param_tagger:{}", t.tagger),
                58,
            );
            if s.description.is_none() && !t.description.is_empty() {
                s.description = Some(t.description.clone());
            }
            d.signals.push(anchored(e, s));
        }
    }
}

/// Step 7: endpoint tags. `auth` tags (or a tagger ending in `_auth`)
/// are guards; a `file_upload` tag is also a `file_io` sink.
pub fn tags(e: &Endpoint, d: &mut Draft) {
    for t in &e.tags {
        // The `auth` tagger restates the analyzer's guard facts, which
        // become guards below (plugin facts) with their own source.
        if t.tagger == crate::tag::auth::TAGGER.label {
            continue;
        }
        if t.name == "auth" || t.tagger.ends_with("_auth") {
            let name = t
                .description
                .strip_prefix("Protected by ")
                .unwrap_or(&t.description);
            let confidence = if t.name == "auth" { 86 } else { 74 };
            d.guards
                .push(anchored(e, entry("auth_guard", name, "tag", confidence)));
            continue;
        }
        let mut s = entry(&t.name, t.name.clone(), &t.tagger, 74);
        if s.description.is_none() && !t.description.is_empty() {
            s.description = Some(t.description.clone());
        }
        d.signals.push(s);
        if t.name == "file_upload" {
            d.sinks
                .push(anchored(e, entry("file_io", "file_upload", "tag", 80)));
        }
    }
}

fn is_path_id(p: &Param) -> bool {
    p.param_type == ParamType::Path && names::is(&p.name, "identifier_input")
}

fn auth_url(url: &str) -> bool {
    let w = names::words(url);
    [
        "login", "logout", "signin", "signout", "register", "signup", "reset",
    ]
    .iter()
    .any(|k| w.iter().any(|x| x == k))
        || (w.iter().any(|x| x == "password") && w.iter().any(|x| x == "reset" || x == "forgot"))
}

/// Step 12: missing guards on state-changing routes.
pub fn heuristics(e: &Endpoint, d: &mut Draft) {
    if !d.state_change {
        return;
    }
    let auth = d.guards.has("auth_guard");
    let authz = d.guards.has("authz_guard");
    let path_id = e.params.iter().find(|p| is_path_id(p));
    if auth && !authz {
        if let Some(p) = path_id {
            d.signals.push(anchored(
                e,
                entry("authz_absence", qualified(p), "heuristic", 44),
            ));
        }
    }
    let credential = d
        .signals
        .iter()
        .find(|s| s.kind == "credential_input")
        .map(|s| s.name.clone());
    if let Some(name) = credential {
        if !d.guards.has("rate_limit_guard") {
            d.signals.push(anchored(
                e,
                entry("rate_limit_absence", name, "heuristic", 32),
            ));
        }
    }
    if !auth && !authz {
        match path_id {
            Some(p) => d.signals.push(anchored(
                e,
                entry("idor_review", qualified(p), "heuristic", 36),
            )),
            None if !auth_url(&e.url) => d.signals.push(anchored(
                e,
                entry("guard_absence", e.method.clone(), "heuristic", 28),
            )),
            None => {}
        }
    }
}

const ROLLUP_SIGNALS: &[&str] = &[
    "guard_absence",
    "authz_absence",
    "rate_limit_absence",
    "idor_review",
    "csrf_exempt",
    "jwt_unsafe",
    "cors_open",
    "open_redirect",
    "ssrf",
    "path_traversal",
    "sensitive_response",
    "server_secret_source",
    "unsafe_method",
    "log_injection",
    "deep_link_input",
];
const HEAVY_SINKS: &[&str] = &[
    "sql",
    "data_store_query",
    "command_exec",
    "code_eval",
    "deserialization",
    "template_injection",
    "xss",
    "mass_assignment",
    "crypto_weak",
    "webview_load",
    "intent_redirect",
];

/// Step 13: sink + input combinations, then the `priority_review` roll-up.
pub fn combinations(e: &Endpoint, d: &mut Draft) {
    let first = |d: &Draft, kind: &str| {
        d.signals
            .iter()
            .find(|s| s.kind == kind)
            .map(|s| s.name.clone())
    };
    if let Some(input) = first(d, "redirect_input") {
        if d.sinks.has("redirect") {
            d.signals.push(anchored(
                e,
                entry("open_redirect", input.clone(), "combination", 72),
            ));
        }
        if d.sinks.has("outbound_http") {
            d.signals
                .push(anchored(e, entry("ssrf", input, "combination", 72)));
        }
    }
    if let Some(input) = first(d, "file_input") {
        if d.sinks
            .iter()
            .any(|s| s.kind == "file_io" && s.source.as_deref() != Some("tag"))
        {
            d.signals.push(anchored(
                e,
                entry("path_traversal", input, "combination", 68),
            ));
        }
    }
    if SAFE.contains(&e.method.as_str()) && !d.branches_on_method {
        let write = d
            .callees
            .iter()
            .find(|c| mutating(&c.name))
            .map(|c| c.name.clone());
        if let Some(callee) = write {
            d.signals.push(anchored(
                e,
                entry(
                    "unsafe_method",
                    format!("{} → {callee}", e.method),
                    "combination",
                    56,
                ),
            ));
        }
    }

    let mut score = ROLLUP_SIGNALS.iter().filter(|k| d.signals.has(k)).count();
    let bound = d.validators.has("query_parameter_binding");
    let heavy = HEAVY_SINKS
        .iter()
        .filter(|k| d.sinks.has(k) && !(**k == "data_store_query" && bound))
        .count();
    score += heavy;
    let sharp = (d.signals.has("csrf_exempt") && !SAFE.contains(&e.method.as_str()))
        || d.signals.has("open_redirect")
        || d.signals.has("jwt_unsafe")
        || d.signals.has("cors_open");
    if sharp {
        score += 1;
    }
    if score >= 2 {
        let high = score >= 3 || sharp || heavy >= 2;
        let (name, confidence) = if high { ("high", 90) } else { ("medium", 70) };
        d.signals.push(anchored(
            e,
            entry("priority_review", name, "rollup", confidence),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_only_posts_do_not_change_state() {
        let e = Endpoint::new("POST", "/search");
        assert!(!state_changing(&e, &["find_items".into(), "count".into()]));
        assert!(state_changing(&e, &["find_items".into(), "save".into()]));
        assert!(state_changing(&e, &[]));
        assert!(!state_changing(&Endpoint::new("GET", "/"), &[]));
    }

    #[test]
    fn login_urls_are_not_guard_absences() {
        assert!(auth_url("/api/login"));
        assert!(auth_url("/password/reset"));
        assert!(!auth_url("/api/items"));
    }
}
