//! Building blocks shared by the infrastructure analyzers: YAML streams with
//! CloudFormation tags and per-document line maps, the "any method" lists,
//! request-parameter keys of API Gateway, reading route regexes, and
//! splitting configuration lines into words. Key
//! lines and YAML conversion come from `portolan_plugin_sdk::doc`.

pub mod aws;
pub mod k8s;
pub mod regex_path;
pub mod toml;
pub mod words;
pub mod yaml;

/// What a route that accepts every method is reported as when the product
/// documents no list of its own (nginx locations without `limit_except`,
/// Kubernetes routes without a method match).
pub const ANY_METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// A request variable's header part as a header name, the way nginx and
/// APISIX spell them (`$http_x_api_key` → `X-Api-Key`).
pub fn header_name(var: &str) -> String {
    var.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + &c.as_str().to_ascii_lowercase(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join("-")
}

/// `GET|HEAD`, `^(GET|POST)$`: the methods, when the pattern is only that.
pub fn literal_methods(re: &str) -> Option<Vec<String>> {
    let r = re.trim().trim_start_matches('^').trim_end_matches('$');
    let r = r
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(r);
    let r = r.strip_prefix("?:").unwrap_or(r);
    let alts: Vec<String> = r
        .split('|')
        .map(|a| a.trim().to_ascii_uppercase())
        .collect();
    alts.iter()
        .all(|a| !a.is_empty() && a.bytes().all(|b| b.is_ascii_alphabetic()))
        .then_some(alts)
}
