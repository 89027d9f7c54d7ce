//! `.http` / `.rest` request files (JetBrains HTTP Client, VS Code REST
//! Client): one endpoint per request.
//!
//! - Requests are separated by `###` lines. In each, after blank lines,
//!   comments (`#`, `//`, including `# @name login` metadata) and
//!   `@name = value` variable lines, the request line is `METHOD URL
//!   [HTTP/x]` (`URL` alone is a GET); following lines starting with `?` or
//!   `&` continue its query. Headers follow until a blank line, then the
//!   body until the next `###` (response handlers `> {% … %}`/`> file` and
//!   response references `<> file` are not body).
//! - JetBrains' `GRAPHQL url` is a POST with `json` `query` and
//!   `variables`; `WEBSOCKET url` is a WebSocket endpoint (GET, protocol
//!   `ws`); `GRPC` requests are not HTTP endpoints and are skipped.
//! - Variables: `@name = value` lines of the file, over the environment
//!   files `http-client.env.json` and `http-client.private.env.json` of the
//!   file's directory or the nearest ancestor having them (`$shared`, then
//!   the first environment; the private file wins). URLs follow
//!   [`portolan_plugin_sdk::doc::vars`]: an unknown leading variable is the server and
//!   dropped, other unknown ones (request variables such as
//!   `{{login.response.body.id}}`, `{{$uuid}}`) become `{name}` path
//!   placeholders.
//! - Params: the URL's query → `query`; headers → `header` (`Cookie` split
//!   into cookies; `Host` and `Content-Length` dropped: they describe the
//!   connection); the body by `Content-Type` (JSON → `json`, urlencoded →
//!   `form`, multipart parts → `form`/`file`; without one, a JSON object
//!   or `a=1&b=2` text is recognised).
//! - Location: the request line.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use portolan_plugin_sdk::doc::load::{self, scalar_string};
use portolan_plugin_sdk::doc::request::{body_params, content_type, header_params, query_params};
use portolan_plugin_sdk::doc::url::query_of;
use portolan_plugin_sdk::doc::vars::{substitute, url_path_of};

pub struct HttpFile;

/// HTTP methods of request lines, and JetBrains' extra request kinds.
const METHODS: [&str; 12] = [
    "GET",
    "POST",
    "PUT",
    "DELETE",
    "PATCH",
    "OPTIONS",
    "HEAD",
    "TRACE",
    "CONNECT",
    "GRAPHQL",
    "WEBSOCKET",
    "GRPC",
];

/// A request line: a method and a target, or a bare `http(s)://` URL.
pub const DETECT_REGEX: &str = r"(?m)^(?:(?:GET|POST|PUT|DELETE|PATCH|OPTIONS|HEAD|TRACE|CONNECT|GRAPHQL|WEBSOCKET)[ \t]+\S|https?://)";

const ENV_FILES: [&str; 2] = ["http-client.env.json", "http-client.private.env.json"];

impl Analyzer for HttpFile {
    fn tech(&self) -> Tech {
        Tech::new("http_file", "Specification", "HTTP request file")
            .specification()
            .aliases(["http", "rest_client", "http_client"])
            .files(["*.http", "*.rest", ENV_FILES[0], ENV_FILES[1]])
            .detect(Detect::files(["*.http", "*.rest"]).regex([DETECT_REGEX]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        let name = path.rsplit('/').next().unwrap_or("");
        if let Some(rank) = ENV_FILES.iter().position(|f| *f == name) {
            match environment(file) {
                Ok(vars) => out.fact(&Fact::Env {
                    dir: parent(&path).to_string(),
                    private: rank == 1,
                    vars,
                }),
                Err(e) => host::warn(&format!("{}: {e}", file.path)),
            }
            return;
        }
        let parsed = parse(&file.content);
        for problem in &parsed.problems {
            host::warn(&format!("{}: {problem}", file.path));
        }
        for request in parsed.requests {
            out.fact(&Fact::Request {
                path: file.path.clone(),
                request,
                vars: parsed.vars.clone(),
            });
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let facts: Vec<Fact> = facts.all();
        let envs: Vec<(&str, bool, &Vars)> = facts
            .iter()
            .filter_map(|f| match f {
                Fact::Env { dir, private, vars } => Some((dir.as_str(), *private, vars)),
                Fact::Request { .. } => None,
            })
            .collect();
        let mut out = Vec::new();
        for fact in &facts {
            let Fact::Request {
                path,
                request,
                vars,
            } = fact
            else {
                continue;
            };
            let dir = parent(&path.replace('\\', "/")).to_string();
            // The nearest directory with environment files.
            let nearest = envs
                .iter()
                .filter(|(d, _, _)| within(&dir, d))
                .map(|(d, _, _)| d.len())
                .max();
            let mut all: Vec<(String, String)> = Vec::new();
            for private in [false, true] {
                for (d, p, v) in &envs {
                    if Some(d.len()) == nearest && within(&dir, d) && *p == private {
                        all.extend(v.iter().cloned());
                    }
                }
            }
            all.extend(vars.iter().cloned());
            if let Some(e) = endpoint(path, request, &all) {
                out.push(e);
            }
        }
        Ok(out)
    }
}

fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

fn within(dir: &str, ancestor: &str) -> bool {
    ancestor.is_empty() || dir == ancestor || dir.starts_with(&format!("{ancestor}/"))
}

/// `$shared`, then the first environment of a JetBrains environment file.
fn environment(file: &SourceFile) -> Result<Vec<(String, String)>, String> {
    let doc = load::parse(&file.path, &file.content)?;
    let Some(envs) = doc.as_object() else {
        return Err("not an object of environments".into());
    };
    let mut vars = Vec::new();
    let shared = envs.get("$shared");
    let first = envs.iter().find(|(k, _)| *k != "$shared").map(|(_, v)| v);
    for env in [shared, first].into_iter().flatten() {
        for (k, v) in env.as_object().into_iter().flatten() {
            if let Some(v) = scalar_string(v) {
                vars.push((k.clone(), v));
            }
        }
    }
    Ok(vars)
}

/// `(name, value)` variables, later ones winning.
type Vars = Vec<(String, String)>;

#[derive(Debug, Serialize, Deserialize)]
enum Fact {
    Env {
        dir: String,
        private: bool,
        vars: Vec<(String, String)>,
    },
    Request {
        path: String,
        request: Request,
        /// The file's `@name = value` variables.
        vars: Vec<(String, String)>,
    },
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Request {
    line: u32,
    method: String,
    url: String,
    headers: Vec<(String, String)>,
    body: String,
}

#[derive(Debug, Default)]
struct Parsed {
    vars: Vec<(String, String)>,
    requests: Vec<Request>,
    problems: Vec<String>,
}

fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('#') || t.starts_with("//")
}

/// `@name = value` (the `=` may be missing around spaces: `@name value`
/// is not a variable).
fn variable(line: &str) -> Option<(String, String)> {
    let rest = line.trim().strip_prefix('@')?;
    let (name, value) = rest.split_once('=')?;
    let name = name.trim();
    (!name.is_empty() && !name.contains(char::is_whitespace))
        .then(|| (name.to_string(), value.trim().to_string()))
}

#[derive(PartialEq)]
enum State {
    Start,
    Headers,
    Body,
}

fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    let mut current: Option<Request> = None;
    let mut state = State::Start;
    let mut in_handler = false;
    let finish = |current: &mut Option<Request>, parsed: &mut Parsed| {
        if let Some(mut r) = current.take() {
            r.body = r.body.trim().to_string();
            parsed.requests.push(r);
        }
    };
    for (i, raw) in text.lines().enumerate() {
        let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let line = raw.trim_end_matches('\r');
        if line.starts_with("###") {
            finish(&mut current, &mut parsed);
            state = State::Start;
            in_handler = false;
            continue;
        }
        match state {
            State::Start => {
                let t = line.trim();
                if t.is_empty() || is_comment(t) {
                    continue;
                }
                if let Some(var) = variable(t) {
                    parsed.vars.push(var);
                    continue;
                }
                match request_line(t) {
                    Some((method, url)) => {
                        current = Some(Request {
                            line: line_no,
                            method,
                            url,
                            ..Request::default()
                        });
                        state = State::Headers;
                    }
                    None => {
                        parsed
                            .problems
                            .push(format!("line {line_no}: not a request line: `{t}`"));
                        // Skip to the next `###`.
                        state = State::Body;
                    }
                }
            }
            State::Headers => {
                let Some(r) = current.as_mut() else {
                    continue;
                };
                let t = line.trim();
                if t.is_empty() {
                    state = State::Body;
                } else if t.starts_with('?') || t.starts_with('&') {
                    r.url.push_str(t);
                } else if is_comment(t) {
                } else if let Some((name, value)) = t.split_once(':') {
                    r.headers
                        .push((name.trim().to_string(), value.trim().to_string()));
                } else {
                    // A body right after the headers, without a blank line.
                    r.body.push_str(line);
                    r.body.push('\n');
                    state = State::Body;
                }
            }
            State::Body => {
                let Some(r) = current.as_mut() else {
                    continue;
                };
                let t = line.trim_start();
                if in_handler {
                    in_handler = !t.contains("%}");
                    continue;
                }
                if t.starts_with("> ") || t.starts_with(">>") || t.starts_with("<> ") {
                    // `> {%` … `%}` may span lines.
                    in_handler = t.contains("{%") && !t.contains("%}");
                    continue;
                }
                r.body.push_str(line);
                r.body.push('\n');
            }
        }
    }
    finish(&mut current, &mut parsed);
    parsed
}

/// `METHOD URL [HTTP/x]` or a bare URL.
fn request_line(line: &str) -> Option<(String, String)> {
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let upper = first.to_ascii_uppercase();
    let (method, url) = if METHODS.contains(&upper.as_str()) && first == upper {
        (upper, words.next()?.to_string())
    } else if first.contains("://") || first.starts_with('/') || first.starts_with("{{") {
        ("GET".to_string(), first.to_string())
    } else {
        return None;
    };
    Some((method, url))
}

fn endpoint(path: &str, r: &Request, vars: &[(String, String)]) -> Option<Endpoint> {
    if r.method == "GRPC" {
        return None;
    }
    let lookup = |name: &str| {
        vars.iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let sub = |s: &str| substitute(s, &lookup);
    let url_path = url_path_of(&r.url, &lookup);
    let url_path = if url_path.is_empty() {
        "/".to_string()
    } else {
        url_path
    };
    let mut e = match r.method.as_str() {
        "WEBSOCKET" => Endpoint::websocket(url_path),
        "GRAPHQL" => Endpoint::new("POST", url_path),
        m => Endpoint::new(m, url_path),
    }
    .at_path(path, r.line);
    for p in query_params(&sub(query_of(&r.url))) {
        e.push_param(p);
    }
    let headers: Vec<(String, String)> = r.headers.iter().map(|(n, v)| (sub(n), sub(v))).collect();
    for (name, value) in &headers {
        if name.eq_ignore_ascii_case("host") || name.eq_ignore_ascii_case("content-length") {
            continue;
        }
        for p in header_params(name, value) {
            e.push_param(p);
        }
    }
    if r.method == "GRAPHQL" {
        e.push_param(Param::json("query"));
        e.push_param(Param::json("variables"));
    } else if !r.body.is_empty() {
        let ct = content_type(headers.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        for p in body_params(ct, &sub(&r.body)) {
            e.push_param(p);
        }
    }
    Some(e)
}

#[cfg(test)]
mod tests;
