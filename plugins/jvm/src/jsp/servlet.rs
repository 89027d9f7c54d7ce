//! Plain servlets (reported with `java_jsp`, the Jakarta web tier JSPs
//! compile into): classes extending `HttpServlet` mapped by
//! `@WebServlet("/x")` (`value`/`urlPatterns`) or by a `<servlet>` +
//! `<servlet-mapping>` pair of `WEB-INF/web.xml` naming the class. One
//! endpoint per `doGet`/`doPost`/`doPut`/`doDelete`/`doHead`/`doOptions`
//! the class declares (an overridden `service` answers any method, tagged
//! `any_method`). A trailing `/*` of a mapping is dropped (`/api/*` →
//! `/api`); extension mappings (`*.do`) are kept as written.
//! Parameters the method reads: `getParameter("x")` /
//! `getParameterValues("x")` (query on GET, HEAD, DELETE; form
//! otherwise), `getHeader("X")`, `getPart("f")` (file).

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::jvm::tokens::{close_of, Kind, Token};

/// A value read from the request: its kind (`None`: a request parameter,
/// query or form by method) and name.
pub type Read = (Option<ParamKind>, String);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Servlet {
    pub path: String,
    pub class: String,
    pub line: u32,
    /// `@WebServlet` URL patterns.
    pub patterns: Vec<String>,
    /// (HTTP method, line, reads as (kind is header/file, name)).
    pub methods: Vec<(String, u32, Vec<Read>)>,
}

const DO: [(&str, &str); 7] = [
    ("doGet", "GET"),
    ("doPost", "POST"),
    ("doPut", "PUT"),
    ("doDelete", "DELETE"),
    ("doHead", "HEAD"),
    ("doOptions", "OPTIONS"),
    ("service", "*"),
];

/// The servlet class of a Java file, if it declares one.
pub fn servlet(file: &SourceFile) -> Option<Servlet> {
    if !file.content.contains("HttpServlet") {
        return None;
    }
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[Token] = &toks.0;
    let at =
        (1..t.len()).find(|&i| t[i].is_ident("HttpServlet") && t[i - 1].is_ident("extends"))?;
    let class_at = (0..at).rev().find(|&i| t[i].is_ident("class"))?;
    let class = t
        .get(class_at + 1)
        .filter(|x| x.kind == Kind::Ident)?
        .text
        .clone();
    let mut patterns = Vec::new();
    // `@WebServlet(...)` before the class.
    if let Some(a) = (0..class_at).rev().find(|&i| t[i].is_ident("WebServlet")) {
        if t.get(a + 1).is_some_and(|x| x.is('(')) {
            let close = close_of(t, a + 1).unwrap_or(a + 1);
            let mut k = a + 2;
            while k < close {
                // Skip `name = "…"` and other non-URL attributes.
                if t[k].kind == Kind::Ident
                    && t.get(k + 1).is_some_and(|x| x.is('='))
                    && !matches!(t[k].text.as_str(), "value" | "urlPatterns")
                {
                    k += 2;
                    if t.get(k).is_some_and(|x| x.kind == Kind::Str) {
                        k += 1;
                    }
                    continue;
                }
                if t[k].kind == Kind::Str {
                    patterns.push(t[k].text.clone());
                }
                k += 1;
            }
        }
    }
    let mut methods = Vec::new();
    for i in class_at..t.len() {
        let Some((_, verb)) = DO.iter().find(|(n, _)| t[i].is_ident(n)) else {
            continue;
        };
        if !t.get(i + 1).is_some_and(|x| x.is('(')) || (i > 0 && t[i - 1].is('.')) {
            continue;
        }
        let Some(pclose) = close_of(t, i + 1) else {
            continue;
        };
        // The body: the next `{` before any `;`.
        let mut b = pclose + 1;
        while b < t.len() && !t[b].is('{') && !t[b].is(';') {
            b += 1;
        }
        if !t.get(b).is_some_and(|x| x.is('{')) {
            continue;
        }
        let end = close_of(t, b).unwrap_or(t.len());
        methods.push((
            verb.to_string(),
            file.line_of(t[i].start),
            reads(&t[b..end]),
        ));
    }
    if methods.is_empty() {
        return None;
    }
    Some(Servlet {
        path: file.path.clone(),
        class,
        line: file.line_of(t[class_at].start),
        patterns,
        methods,
    })
}

fn reads(t: &[Token]) -> Vec<Read> {
    let mut out = Vec::new();
    for k in 0..t.len().saturating_sub(3) {
        let kind = match t[k].text.as_str() {
            "getParameter" | "getParameterValues" => None,
            "getHeader" | "getHeaders" => Some(ParamKind::Header),
            "getPart" => Some(ParamKind::File),
            _ => continue,
        };
        if t[k].kind == Kind::Ident && t[k + 1].is('(') && t[k + 2].kind == Kind::Str {
            let r = (kind, t[k + 2].text.clone());
            if !out.contains(&r) {
                out.push(r);
            }
        }
    }
    out
}

/// `web.xml` servlet mappings: (servlet class simple name, URL patterns).
pub fn web_xml_mappings(content: &str) -> Vec<(String, Vec<String>)> {
    let tag = |s: &str, name: &str| -> Vec<String> {
        let (open, close) = (format!("<{name}>"), format!("</{name}>"));
        let mut out = Vec::new();
        let mut rest = s;
        while let Some(a) = rest.find(&open) {
            let body = &rest[a + open.len()..];
            let Some(b) = body.find(&close) else { break };
            out.push(body[..b].trim().to_string());
            rest = &body[b + close.len()..];
        }
        out
    };
    let mut classes: Vec<(String, String)> = Vec::new();
    for s in tag(content, "servlet") {
        if let (Some(n), Some(c)) = (
            tag(&s, "servlet-name").into_iter().next(),
            tag(&s, "servlet-class").into_iter().next(),
        ) {
            let simple = c.rsplit('.').next().unwrap_or(&c).to_string();
            classes.push((n, simple));
        }
    }
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for m in tag(content, "servlet-mapping") {
        let Some(n) = tag(&m, "servlet-name").into_iter().next() else {
            continue;
        };
        let Some((_, class)) = classes.iter().find(|(x, _)| *x == n) else {
            continue;
        };
        let pats = tag(&m, "url-pattern");
        match out.iter_mut().find(|(c, _)| c == class) {
            Some((_, v)) => v.extend(pats),
            None => out.push((class.clone(), pats)),
        }
    }
    out
}

/// The endpoints of the servlets, with the `web.xml` mappings.
pub fn link(servlets: &[Servlet], xml: &[(String, Vec<String>)], out: &mut Vec<Endpoint>) {
    for s in servlets {
        let mut pats = s.patterns.clone();
        for (c, p) in xml {
            if *c == s.class {
                pats.extend(p.iter().cloned());
            }
        }
        for p in pats {
            let url = if p == "/" || p == "/*" {
                "/".to_string()
            } else if let Some(x) = p.strip_suffix("/*") {
                x.to_string()
            } else if p.starts_with("*.") {
                format!("/{p}")
            } else {
                p.clone()
            };
            for (verb, line, rs) in &s.methods {
                let verbs: Vec<&str> = if verb == "*" {
                    ["GET", "POST", "PUT", "PATCH", "DELETE"].to_vec()
                } else {
                    vec![verb.as_str()]
                };
                for v in verbs {
                    let mut e = Endpoint::new(v, url.clone()).at_path(s.path.clone(), *line);
                    if verb == "*" {
                        e = e.tag(Tag::any_method());
                    }
                    let body = !matches!(v, "GET" | "HEAD" | "DELETE" | "OPTIONS");
                    for (kind, name) in rs {
                        let k = kind.unwrap_or(if body {
                            ParamKind::Form
                        } else {
                            ParamKind::Query
                        });
                        e.push_param(Param::new(k, name.clone()));
                    }
                    out.push(e);
                }
            }
        }
    }
}
