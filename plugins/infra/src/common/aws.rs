//! API Gateway conventions shared by SAM/CloudFormation, the Serverless
//! Framework and Terraform.

use portolan_plugin_sdk::{Endpoint, Param};

/// API Gateway's `ANY` method, as AWS documents it: DELETE, GET, HEAD,
/// OPTIONS, PATCH, POST and PUT.
pub const ANY_METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// The methods a declared API Gateway method stands for: `ANY` and `*`
/// expand to [`ANY_METHODS`]; anything else is upper-cased.
pub fn methods(method: &str) -> Vec<String> {
    let m = method.trim();
    if m.eq_ignore_ascii_case("any") || m == "*" {
        ANY_METHODS.iter().map(|m| m.to_string()).collect()
    } else {
        vec![m.to_ascii_uppercase()]
    }
}

/// A request-parameter key of API Gateway (`method.request.querystring.q`,
/// `method.request.header.X-Key`, `method.request.path.id`, and the HTTP
/// API's `route.request.…`) as a parameter.
pub fn request_parameter(key: &str) -> Option<Param> {
    let rest = key
        .strip_prefix("method.request.")
        .or_else(|| key.strip_prefix("route.request."))?;
    let (kind, name) = rest.split_once('.')?;
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    match kind {
        "querystring" | "multivaluequerystring" => Some(Param::query(name)),
        "header" | "multivalueheader" => Some(Param::header(name)),
        "path" => Some(Param::path(name)),
        _ => None,
    }
}

/// API Gateway greedy path variables (`{proxy+}`) are path parameters too;
/// the host only recognises plain `{name}` placeholders, so add them here.
pub fn greedy_path_params(endpoint: &mut Endpoint) {
    let url = endpoint.url.clone();
    for seg in url.split('/') {
        if let Some(name) = seg
            .strip_prefix('{')
            .and_then(|s| s.strip_suffix("+}"))
            .filter(|n| !n.is_empty())
        {
            endpoint.push_param(Param::path(name));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::ParamKind;

    #[test]
    fn any_expands() {
        assert_eq!(methods("any").len(), 7);
        assert_eq!(methods("*").len(), 7);
        assert_eq!(methods("get"), vec!["GET"]);
    }

    #[test]
    fn request_parameters() {
        let p = request_parameter("method.request.querystring.limit").unwrap();
        assert_eq!((p.kind, p.name.as_str()), (ParamKind::Query, "limit"));
        let p = request_parameter("route.request.header.X-Api-Key").unwrap();
        assert_eq!((p.kind, p.name.as_str()), (ParamKind::Header, "X-Api-Key"));
        let p = request_parameter("method.request.path.id").unwrap();
        assert_eq!(p.kind, ParamKind::Path);
        assert!(request_parameter("integration.request.header.x").is_none());
        assert!(request_parameter("method.request.body").is_none());
        assert!(request_parameter("method.request.header.").is_none());
    }

    #[test]
    fn greedy() {
        let mut e = Endpoint::new("GET", "/files/{proxy+}");
        greedy_path_params(&mut e);
        assert_eq!(e.params[0].name, "proxy");
    }
}
