//! Stage 4: normalise, order, merge, prefix and complete the endpoint list.
//!
//! 1. Normalise each endpoint: method upper-cased (unknown verbs become
//!    `GET`, as in Noir), params with empty names or names containing spaces
//!    dropped, URLs without a leading `/` get one (absolute URLs are kept),
//!    `//` collapsed in the path; endpoints with an empty URL dropped.
//! 2. Order code-derived endpoints before document-derived ones (OpenAPI,
//!    …), each by (first code path, its line, url, method, technology), so
//!    the report reads in source order and is stable across runs.
//! 3. Merge endpoints with the same method and the same URL once placeholder
//!    syntaxes are unified (`<int:id>` = `:id` = `{id}`): the first keeps its
//!    spelling; params are unioned by (name, type), code paths and tags
//!    appended without duplicates. The merged endpoint remembers whether
//!    code, a document, or both described it ([`Origin`]): that is what the
//!    `shadow` tagger reads. When several technologies reported it,
//!    `details.technologies` lists them all (`technology` stays the
//!    first's).
//! 4. `-u`: prefix every relative URL with the base URL (exactly one `/`).
//! 5. Append a `path` param for each placeholder in the URL (`{id}`,
//!    `{id:\d+}`, `:id`, `<id>`, `<int:id>`, `*rest`) unless the endpoint
//!    already has a path param of that name. Placeholder syntaxes are not
//!    unified here (they are in OpenAPI output).

use std::collections::{HashMap, HashSet};

use crate::model::{Endpoint, Origin, Param, ParamType};

// The URL-shape rules (query split, placeholders in every syntax, their
// unification) are shared with plugins and the SDK's fixture runner.
pub use portolan_plugin_sdk::urls::{
    is_absolute, normalize_url, path_placeholders, split_query, unify_placeholders,
};

pub struct Options<'a> {
    pub base_url: Option<&'a str>,
    /// Technologies that read API documents (OpenAPI, Postman, …) rather
    /// than code. Their endpoints sort after code-derived ones, so when both
    /// describe the same route the merged endpoint is the code's (its
    /// technology, URL spelling and first location) with the document's
    /// location added.
    pub spec_techs: &'a [String],
}

pub fn optimize(endpoints: Vec<Endpoint>, opts: &Options) -> Vec<Endpoint> {
    let mut list: Vec<Endpoint> = endpoints
        .into_iter()
        .filter_map(|e| normalize(e, opts.spec_techs))
        .collect();
    list.sort_by_key(sort_key);
    let mut merged = merge(list);
    for e in &mut merged {
        if let Some(base) = opts.base_url {
            e.url = join_base(base, &e.url);
        }
        add_path_params(e);
    }
    merged
}

fn normalize(mut e: Endpoint, spec_techs: &[String]) -> Option<Endpoint> {
    let from_spec = e
        .details
        .technology
        .as_ref()
        .is_some_and(|t| spec_techs.contains(t));
    e.origin = Origin {
        code: !from_spec,
        spec: from_spec,
    };
    e.method = portolan_plugin_sdk::model::normalize_method(&e.method, &e.protocol);
    e.params
        .retain(|p| !p.name.trim().is_empty() && !p.name.contains(' '));
    let url = e.url.trim();
    if url.is_empty() {
        return None;
    }
    e.url = normalize_url(url);
    Some(e)
}

type SortKey = (bool, bool, String, u32, String, String, String);

fn sort_key(e: &Endpoint) -> SortKey {
    let first = e.details.code_paths.first();
    (
        e.origin.spec,
        first.is_none(),
        first.map(|c| c.path.clone()).unwrap_or_default(),
        first.and_then(|c| c.line).unwrap_or(0),
        e.url.clone(),
        e.method.clone(),
        e.details.technology.clone().unwrap_or_default(),
    )
}

/// Linear in the number of endpoints, params and code paths: each merged
/// endpoint keeps hash sets of what it holds (a file of 100k GraphQL fields
/// on one URL must not cost 100k² comparisons).
fn merge(list: Vec<Endpoint>) -> Vec<Endpoint> {
    #[derive(Default)]
    struct Held {
        params: HashSet<(String, ParamType)>,
        code_paths: HashSet<(String, Option<u32>)>,
        tags: HashSet<(String, String)>,
        /// The technologies that reported it, in order of appearance.
        techs: Vec<String>,
    }
    let mut out: Vec<Endpoint> = Vec::with_capacity(list.len());
    let mut held: Vec<Held> = Vec::with_capacity(list.len());
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    for e in list {
        let key = (e.method.clone(), unify_placeholders(&e.url));
        match index.get(&key) {
            Some(&i) => {
                let target = &mut out[i];
                let h = &mut held[i];
                for p in e.params {
                    if h.params.insert((p.name.clone(), p.param_type)) {
                        target.params.push(p);
                    }
                }
                for c in e.details.code_paths {
                    if h.code_paths.insert((c.path.clone(), c.line)) {
                        target.details.code_paths.push(c);
                    }
                }
                for t in e.tags {
                    if h.tags.insert((t.name.clone(), t.tagger.clone())) {
                        target.tags.push(t);
                    }
                }
                match (&mut target.ai_context, e.ai_context) {
                    (Some(mine), Some(theirs)) => mine.absorb(theirs),
                    (mine @ None, theirs) => *mine = theirs,
                    _ => {}
                }
                if let Some(t) = e.details.technology {
                    if !h.techs.contains(&t) {
                        h.techs.push(t);
                    }
                }
                target.internal &= e.internal;
                target.origin.code |= e.origin.code;
                target.origin.spec |= e.origin.spec;
            }
            None => {
                let mut e = e;
                dedup_params(&mut e.params);
                let mut h = Held::default();
                h.params
                    .extend(e.params.iter().map(|p| (p.name.clone(), p.param_type)));
                for c in &e.details.code_paths {
                    h.code_paths.insert((c.path.clone(), c.line));
                }
                for t in &e.tags {
                    h.tags.insert((t.name.clone(), t.tagger.clone()));
                }
                h.techs.extend(e.details.technology.clone());
                index.insert(key, out.len());
                out.push(e);
                held.push(h);
            }
        }
    }
    for (e, h) in out.iter_mut().zip(held) {
        if h.techs.len() > 1 {
            e.details.technologies = h.techs;
        }
    }
    out
}

fn dedup_params(params: &mut Vec<Param>) {
    let mut seen: HashSet<(String, ParamType)> = HashSet::new();
    params.retain(|p| seen.insert((p.name.clone(), p.param_type)));
}

/// `http://h/` + `/a` → `http://h/a`; absolute URLs are left alone.
pub fn join_base(base: &str, url: &str) -> String {
    if is_absolute(url) {
        return url.to_string();
    }
    format!(
        "{}/{}",
        base.trim_end_matches('/'),
        url.trim_start_matches('/')
    )
}

fn add_path_params(e: &mut Endpoint) {
    for name in path_placeholders(&e.url) {
        if !e
            .params
            .iter()
            .any(|p| p.param_type == ParamType::Path && p.name == name)
        {
            e.params.push(Param::new(name, ParamType::Path));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CodePath;

    fn ep(method: &str, url: &str, path: &str, line: u32) -> Endpoint {
        let mut e = Endpoint::new(method, url);
        e.details.code_paths.push(CodePath {
            path: path.into(),
            line: Some(line),
        });
        e.details.technology = Some("t".into());
        e
    }

    #[test]
    fn methods_and_params_are_cleaned() {
        let mut e = ep("patch", "x", "a.py", 1);
        e.params.push(Param::new("ok", ParamType::Query));
        e.params.push(Param::new("has space", ParamType::Query));
        e.params.push(Param::new(" ", ParamType::Query));
        let mut odd = ep("FROB", "/y", "a.py", 2);
        odd.params.clear();
        let out = optimize(
            vec![
                e,
                odd,
                ep("GET", "  ", "a.py", 3),
                ep("query", "/q", "a.py", 4),
            ],
            &Options {
                base_url: None,
                spec_techs: &[],
            },
        );
        assert_eq!(out.len(), 3);
        assert_eq!(
            (out[0].method.as_str(), out[0].url.as_str()),
            ("PATCH", "/x")
        );
        assert_eq!(out[0].params.len(), 1);
        assert_eq!(out[1].method, "GET");
        // QUERY is a method like the others, not an unknown word.
        assert_eq!(
            (out[2].method.as_str(), out[2].url.as_str()),
            ("QUERY", "/q")
        );
    }

    #[test]
    fn merges_in_source_order() {
        let mut a = ep("GET", "/u", "b.py", 9);
        a.params.push(Param::new("q", ParamType::Query));
        let mut b = ep("GET", "/u", "a.py", 5);
        b.params.push(Param::new("q", ParamType::Query));
        b.params.push(Param::new("q", ParamType::Header));
        let c = ep("POST", "/u", "a.py", 1);
        let out = optimize(
            vec![a, b, c],
            &Options {
                base_url: None,
                spec_techs: &[],
            },
        );
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].method, "POST");
        assert_eq!(out[1].details.code_paths.len(), 2);
        assert_eq!(out[1].details.code_paths[0].path, "a.py");
        let kinds: Vec<_> = out[1].params.iter().map(|p| p.param_type).collect();
        assert_eq!(kinds, vec![ParamType::Query, ParamType::Header]);
    }

    #[test]
    fn code_and_document_spellings_of_a_route_merge_code_first() {
        let mut spec = ep("GET", "/o/{order_id}", "api/openapi.yaml", 3);
        spec.details.technology = Some("oas3".into());
        spec.params.push(Param::new("order_id", ParamType::Path));
        spec.params.push(Param::new("expand", ParamType::Query));
        let code = ep("GET", "/o/<int:order_id>", "app/views.py", 40);
        let only_spec = {
            let mut e = ep("GET", "/health", "api/openapi.yaml", 1);
            e.details.technology = Some("oas3".into());
            e
        };
        let specs = vec!["oas3".to_string()];
        let out = optimize(
            vec![spec, only_spec, code],
            &Options {
                base_url: None,
                spec_techs: &specs,
            },
        );
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].url, "/o/<int:order_id>");
        assert_eq!(out[0].details.technology.as_deref(), Some("t"));
        assert_eq!(out[0].details.technologies, ["t", "oas3"]);
        assert!(out[1].details.technologies.is_empty());
        let places: Vec<_> = out[0]
            .details
            .code_paths
            .iter()
            .map(|c| c.path.as_str())
            .collect();
        assert_eq!(places, vec!["app/views.py", "api/openapi.yaml"]);
        let params: Vec<_> = out[0].params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(params, vec!["order_id", "expand"]);
        assert_eq!(out[1].url, "/health");
    }

    #[test]
    fn base_url_join() {
        assert_eq!(join_base("http://h/", "/a"), "http://h/a");
        assert_eq!(join_base("http://h", "a"), "http://h/a");
        assert_eq!(join_base("http://h", "https://x/y"), "https://x/y");
        let out = optimize(
            vec![ep("GET", "/a/{id}", "a", 1)],
            &Options {
                base_url: Some("http://h:8080/"),
                spec_techs: &[],
            },
        );
        assert_eq!(out[0].url, "http://h:8080/a/{id}");
        assert_eq!(out[0].params[0].name, "id");
    }

    #[test]
    fn declared_path_params_are_not_duplicated() {
        let mut e = ep("GET", "/u/{id}", "a", 1);
        e.params.push(Param {
            value: "7".into(),
            ..Param::new("id", ParamType::Path)
        });
        let out = optimize(
            vec![e],
            &Options {
                base_url: None,
                spec_techs: &[],
            },
        );
        assert_eq!(out[0].params.len(), 1);
    }
}
