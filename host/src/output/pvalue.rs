//! `--set-pvalue` and `--set-pvalue-{query,json,form,header,cookie,path}`:
//! values for the report's parameters, applied once to the report before it
//! is rendered, so every format shows them.
//!
//! Each flag value is a rule. `NAME=VALUE` or `NAME:VALUE` (split at the
//! first `=` or `:`) applies to params called NAME (`*` = any name); a value
//! with neither applies to every name. Whitespace around NAME and before
//! VALUE is trimmed (`--set-pvalue-header "Authorization: Bearer x"`).
//! For a param of type T, T's rules are tried first (in the order given),
//! then the global ones; the first whose name matches wins (header names
//! compare case-insensitively); a param no rule matches keeps its value.
//! File params are not touched.
//!
//! A path param that gets a value also replaces its placeholder in the URL
//! (`--set-pvalue-path id=7`: `/users/{id}` → `/users/7`, whatever the
//! placeholder syntax), so the URL and the param always agree; except in
//! OpenAPI and Postman output, which keep the template and carry the value
//! as an example / path variable. As in Noir,
//! `--set-pvalue http://x` is the rule name `http`, value `//x`.

use crate::model::{Endpoint, ParamType, Report};
use crate::optimize;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Rule {
    /// `None`: any name.
    name: Option<String>,
    value: String,
}

impl Rule {
    fn parse(raw: &str) -> Rule {
        match raw.find(['=', ':']) {
            Some(i) => {
                let name = raw[..i].trim();
                Rule {
                    name: (!name.is_empty() && name != "*").then(|| name.to_string()),
                    value: raw[i + 1..].trim_start().to_string(),
                }
            }
            None => Rule {
                name: None,
                value: raw.to_string(),
            },
        }
    }

    fn matches(&self, name: &str, t: ParamType) -> bool {
        match &self.name {
            None => true,
            Some(n) if t == ParamType::Header => n.eq_ignore_ascii_case(name),
            Some(n) => n == name,
        }
    }
}

/// The rules of one run.
#[derive(Clone, Debug, Default)]
pub struct Pvalues {
    global: Vec<Rule>,
    typed: Vec<(ParamType, Rule)>,
}

impl Pvalues {
    /// `global`: `--set-pvalue` values; `typed`: (type, value) pairs from the
    /// typed flags, in the order given.
    pub fn new(global: &[String], typed: &[(ParamType, &[String])]) -> Pvalues {
        Pvalues {
            global: global.iter().map(|r| Rule::parse(r)).collect(),
            typed: typed
                .iter()
                .flat_map(|(t, rules)| rules.iter().map(move |r| (*t, Rule::parse(r))))
                .collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.global.is_empty() && self.typed.is_empty()
    }

    fn value_for(&self, name: &str, t: ParamType) -> Option<&str> {
        if t == ParamType::File {
            return None;
        }
        self.typed
            .iter()
            .filter(|(rt, _)| *rt == t)
            .map(|(_, r)| r)
            .chain(self.global.iter())
            .find(|r| r.matches(name, t))
            .map(|r| r.value.as_str())
    }

    /// Fill the params; with `fill_urls`, path values also replace their
    /// URL placeholders (OpenAPI and Postman keep the template and show the
    /// value as an example / path variable instead).
    pub fn apply(&self, report: &mut Report, fill_urls: bool) {
        if self.is_empty() {
            return;
        }
        for e in &mut report.endpoints {
            self.apply_endpoint(e, fill_urls);
        }
    }

    fn apply_endpoint(&self, e: &mut Endpoint, fill_urls: bool) {
        let mut path_values: Vec<(String, String)> = Vec::new();
        for p in &mut e.params {
            if let Some(v) = self.value_for(&p.name, p.param_type) {
                p.value = v.to_string();
                if p.param_type == ParamType::Path && !v.is_empty() {
                    path_values.push((p.name.clone(), v.to_string()));
                }
            }
        }
        if fill_urls && !path_values.is_empty() {
            e.url = fill_placeholders(&e.url, &path_values);
        }
    }
}

/// Replace the named placeholders (any syntax) in the URL's path; other
/// placeholders, the origin and the query keep their spelling.
fn fill_placeholders(url: &str, values: &[(String, String)]) -> String {
    let (path, query) = optimize::split_query(url);
    let (origin, path) = match path.find("://") {
        Some(i) => {
            let end = path[i + 3..].find('/').map_or(path.len(), |j| i + 3 + j);
            path.split_at(end)
        }
        None => ("", path),
    };
    let segments: Vec<String> = path
        .split('/')
        .map(|seg| {
            let unified = optimize::unify_placeholders(seg);
            let mut filled = unified.clone();
            for (name, value) in values {
                filled = filled.replace(&format!("{{{name}}}"), value);
            }
            if filled == unified {
                seg.to_string()
            } else {
                filled
            }
        })
        .collect();
    format!("{origin}{}{query}", segments.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Param;
    use crate::output::testing::{example, report};

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn rules_parse_like_noir() {
        assert_eq!(
            Rule::parse("X-API-Key=abc"),
            Rule {
                name: Some("X-API-Key".into()),
                value: "abc".into()
            }
        );
        assert_eq!(
            Rule::parse("Authorization: Bearer x=y"),
            Rule {
                name: Some("Authorization".into()),
                value: "Bearer x=y".into()
            }
        );
        assert_eq!(
            Rule::parse("http://x"),
            Rule {
                name: Some("http".into()),
                value: "//x".into()
            }
        );
        assert_eq!(Rule::parse("*=1").name, None);
        assert_eq!(Rule::parse("FUZZ").name, None);
    }

    #[test]
    fn typed_rules_win_then_global_then_unchanged() {
        let header = s(&["x-api-key=abc"]);
        let path = s(&["id=7"]);
        let json = s(&["other=1"]);
        let p = Pvalues::new(
            &s(&["page=2", "session=s3"]),
            &[
                (ParamType::Header, &header),
                (ParamType::Path, &path),
                (ParamType::Json, &json),
            ],
        );
        let mut r = report(vec![example()]);
        p.apply(&mut r, true);
        let e = &r.endpoints[0];
        let values: Vec<&str> = e.params.iter().map(|p| p.value.as_str()).collect();
        assert_eq!(values, ["2", "", "abc", "s3", "7"]);
        assert_eq!(e.url, "/users/7");
    }

    #[test]
    fn global_value_fills_every_type_and_url_syntaxes() {
        let p = Pvalues::new(&s(&["FUZZ"]), &[]);
        let mut e = Endpoint::new("GET", "http://h:1/a/<int:id>/:b/{c}?q=<int:id>");
        for n in ["id", "b"] {
            e.params.push(Param::new(n, ParamType::Path));
        }
        e.params.push(Param::new("f", ParamType::File));
        let mut r = report(vec![e]);
        let mut template = r.clone();
        p.apply(&mut template, false);
        assert_eq!(template.endpoints[0].params[0].value, "FUZZ");
        assert_eq!(template.endpoints[0].url, r.endpoints[0].url);
        p.apply(&mut r, true);
        assert_eq!(r.endpoints[0].url, "http://h:1/a/FUZZ/FUZZ/{c}?q=<int:id>");
        assert_eq!(r.endpoints[0].params[2].value, "");
    }
}
