//! `plain`: the seed's one-line layout, one endpoint per line:
//!
//! `METHOD URL [BODY] [Header: value …] [Cookie: a=1; b=2] [TAG …]`
//!
//! URL carries the query params (`?q=`); BODY is a compact JSON object of
//! the json params, or `a=&b=` for form fields; each header is `Name:` plus
//! its value when set; tags are bare words (`websocket` for WebSocket
//! endpoints, then the endpoint's tags such as `shadow`). A command-line
//! program (protocol `cli`) shows its params as a synopsis after the URL:
//! `CLI cli://tool/remote/add --force --depth=1 <name> $TOOL_TOKEN`. Empty
//! parts are left out. `--include-path` appends `(path:line, …)`. Control characters
//! (from routes, params, tags or file names) are written as visible escapes
//! (`\x1b`, `\x0a`; [`crate::escape`]), so one endpoint is always one line.
//!
//! With `-P`, the passive-scan findings follow the endpoints after a blank
//! line ([`passive_lines`]).
//!
//! With `--ai-context`, each endpoint line is followed by one indented line
//! per non-empty bucket, `  <bucket> (<count>): …`: the kinds for
//! `signals`, the names for `callees` and `sources`, `kind: name` for
//! `guards`, `sinks` and `validators` (snippets are left to the structured
//! formats).

use super::bake::bake;
use super::RenderOptions;
use crate::escape::visible;
use crate::model::{AiContext, ContextEntry, Endpoint, Report};

pub fn render(report: &Report, opts: &RenderOptions) -> String {
    let mut out = String::new();
    for e in &report.endpoints {
        out.push_str(&line(e, opts));
        out.push('\n');
        if let Some(ctx) = &e.ai_context {
            out.push_str(&context_lines(ctx));
        }
    }
    out.push_str(&passive_lines(report));
    out
}

/// With `-P`: after a blank line, each finding as
/// `[severity][id][category] name`, `  ├── extract: …`, `  └── file: path:line`
/// (escaped like the endpoint lines).
pub fn passive_lines(report: &Report) -> String {
    let mut out = String::new();
    if report.passive_results.is_empty() {
        return out;
    }
    out.push_str("\nPassive results:\n");
    for p in &report.passive_results {
        out.push_str(&format!(
            "[{}][{}][{}] {}\n  ├── extract: {}\n  └── file: {}:{}\n",
            p.info.severity.as_str(),
            visible(&p.id),
            visible(&p.category),
            visible(&p.info.name),
            visible(&p.extract),
            visible(&p.file_path),
            p.line_number
        ));
    }
    out
}

/// A command-line program's params as a synopsis: flags as written
/// (`--output`, `--output=VALUE` when a default is known), arguments as
/// `<name>`, environment variables as `$NAME`. Empty for HTTP endpoints.
fn command_line(e: &Endpoint) -> Vec<String> {
    use crate::model::ParamType;
    e.params
        .iter()
        .filter_map(|p| match p.param_type {
            ParamType::Flag if p.value.is_empty() => Some(p.name.clone()),
            ParamType::Flag => Some(format!("{}={}", p.name, p.value)),
            ParamType::Argument => Some(format!("<{}>", p.name)),
            ParamType::Env => Some(format!("${}", p.name)),
            _ => None,
        })
        .collect()
}

/// What the plain summary shows of an entry.
#[derive(Clone, Copy)]
enum Shown {
    Kind,
    Name,
    KindName,
}

/// The compact `ai_context` rendering (one line per non-empty bucket).
pub fn context_lines(ctx: &AiContext) -> String {
    let mut out = String::new();
    let buckets: [(&str, &Vec<ContextEntry>, Shown); 6] = [
        ("guards", &ctx.guards, Shown::KindName),
        ("callees", &ctx.callees, Shown::Name),
        ("sources", &ctx.sources, Shown::Name),
        ("sinks", &ctx.sinks, Shown::KindName),
        ("validators", &ctx.validators, Shown::KindName),
        ("signals", &ctx.signals, Shown::Kind),
    ];
    for (label, entries, show) in buckets {
        if entries.is_empty() {
            continue;
        }
        let mut shown: Vec<String> = Vec::new();
        for e in entries.iter() {
            let s = match show {
                Shown::Kind => e.kind.clone(),
                Shown::Name => e.name.clone(),
                Shown::KindName => format!("{}: {}", e.kind, e.name),
            };
            if !shown.contains(&s) {
                shown.push(s);
            }
        }
        out.push_str(&format!(
            "  {label} ({}): {}\n",
            entries.len(),
            crate::escape::visible(&shown.join(", "))
        ));
    }
    out
}

pub fn line(e: &Endpoint, opts: &RenderOptions) -> String {
    let baked = bake(e);
    let mut parts = vec![e.method.clone(), baked.url];
    parts.extend(command_line(e));
    if let Some(body) = baked.body {
        parts.push(body);
    }
    for (name, value) in &baked.headers {
        parts.push(if value.is_empty() {
            format!("{name}:")
        } else {
            format!("{name}: {value}")
        });
    }
    if !baked.cookies.is_empty() {
        let jar: Vec<String> = baked
            .cookies
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        parts.push(format!("Cookie: {}", jar.join("; ")));
    }
    let mut tags: Vec<&str> = Vec::new();
    if e.is_websocket() {
        tags.push("websocket");
    }
    for t in &e.tags {
        if !tags.contains(&t.name.as_str()) {
            tags.push(&t.name);
        }
    }
    parts.extend(tags.into_iter().map(str::to_string));
    if opts.include_path && !e.details.code_paths.is_empty() {
        let places: Vec<String> = e
            .details
            .code_paths
            .iter()
            .map(|c| match c.line {
                Some(l) => format!("{}:{l}", c.path),
                None => c.path.clone(),
            })
            .collect();
        parts.push(format!("({})", places.join(", ")));
    }
    crate::escape::visible(&parts.join(" ")).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CodePath, Param, ParamType, Tag};

    fn example() -> Endpoint {
        let mut e = Endpoint::new("POST", "/users/{id}");
        for (n, t) in [
            ("page", ParamType::Query),
            ("name", ParamType::Json),
            ("X-API-Key", ParamType::Header),
            ("session", ParamType::Cookie),
            ("id", ParamType::Path),
        ] {
            e.params.push(Param::new(n, t));
        }
        e.details.code_paths.push(CodePath {
            path: "app/main.py".into(),
            line: Some(12),
        });
        e
    }

    #[test]
    fn seed_one_line_layout() {
        let opts = RenderOptions::default();
        assert_eq!(
            line(&example(), &opts),
            r#"POST /users/{id}?page= {"name":""} X-API-Key: Cookie: session="#
        );
        let mut ws = Endpoint::new("GET", "/ws");
        ws.protocol = "ws".into();
        ws.tags.push(Tag {
            name: "shadow".into(),
            description: "d".into(),
            tagger: "shadow".into(),
        });
        assert_eq!(line(&ws, &opts), "GET /ws websocket shadow");
    }

    #[test]
    fn command_line_programs_show_a_synopsis() {
        let mut e = Endpoint::new("CLI", "cli://tool/remote/add");
        e.protocol = "cli".into();
        e.params.push(Param::new("--force", ParamType::Flag));
        e.params.push(Param {
            value: "1".into(),
            ..Param::new("--depth", ParamType::Flag)
        });
        e.params.push(Param::new("name", ParamType::Argument));
        e.params.push(Param::new("TOOL_TOKEN", ParamType::Env));
        assert_eq!(
            line(&e, &RenderOptions::default()),
            "CLI cli://tool/remote/add --force --depth=1 <name> $TOOL_TOKEN"
        );
    }

    #[test]
    fn control_characters_cannot_reach_the_terminal_or_forge_a_line() {
        let mut e = Endpoint::new("GET", "/a\x1b]0;owned\x07\nGET /forged");
        e.params.push(Param::new("x\r\x08", ParamType::Header));
        e.details.code_paths.push(CodePath {
            path: "evil\x1b[2J.py".into(),
            line: Some(1),
        });
        let opts = RenderOptions {
            include_path: true,
            ..RenderOptions::default()
        };
        let l = line(&e, &opts);
        assert_eq!(
            l,
            "GET /a\\x1b]0;owned\\x07\\x0aGET /forged x\\x0d\\x08: (evil\\x1b[2J.py:1)"
        );
        assert!(!l.chars().any(char::is_control));
    }

    #[test]
    fn values_forms_and_paths() {
        let mut e = Endpoint::new("PUT", "/p?x=1");
        e.params.push(Param {
            value: "7".into(),
            ..Param::new("a", ParamType::Form)
        });
        e.params.push(Param::new("f", ParamType::File));
        e.params.push(Param {
            value: "t".into(),
            ..Param::new("X-T", ParamType::Header)
        });
        e.params.push(Param::new("q", ParamType::Query));
        e.details.code_paths.push(CodePath {
            path: "a.py".into(),
            line: Some(3),
        });
        e.details.code_paths.push(CodePath {
            path: "b.py".into(),
            line: None,
        });
        let opts = RenderOptions {
            include_path: true,
            ..RenderOptions::default()
        };
        assert_eq!(
            line(&e, &opts),
            "PUT /p?x=1&q= a=7&f= X-T: t (a.py:3, b.py)"
        );
    }
}
