//! Where a JAX-RS servlet is mapped when no `@ApplicationPath` says so:
//!
//! - in code, on an embedded server: Jetty's
//!   `handler.addServlet(new ServletHolder(new ServletContainer(config)), "/api/*")`
//!   (also through a variable holding the holder, `addServletWithMapping`,
//!   Undertow/Tomcat `addMapping("/api/*")` on a registration of the
//!   servlet, Spring's `new ServletRegistrationBean<>(new ServletContainer(…), "/api/*")`,
//!   Dropwizard's `environment.jersey().setUrlPattern("/api/*")`);
//! - in `WEB-INF/web.xml`: the `<url-pattern>` of the `<servlet-mapping>`
//!   of a servlet whose class is a JAX-RS servlet (Jersey's
//!   `ServletContainer`, RESTEasy's `HttpServletDispatcher`, CXF's
//!   `CXFNonSpringJaxrsServlet`) or which names a JAX-RS `Application`
//!   (`javax.ws.rs.Application` init-param or servlet name).
//!
//! The mapping becomes the configuration key [`KEY`] of the module (a
//! [`ConfigDoc`] of its own), which wins over `@ApplicationPath` as it does
//! in the servlet container.

use portolan_plugin_sdk::prelude::*;

use crate::jvm::config::{module_root, relaxed, ConfigDoc};
use crate::jvm::tokens::{close_of, split_commas, Kind, Token};

/// The configuration key holding a module's JAX-RS servlet mapping.
pub const KEY: &str = "portolan.jaxrs.servlet-path";

/// Servlet classes that serve JAX-RS resources.
const SERVLETS: [&str; 5] = [
    "ServletContainer",
    "HttpServletDispatcher",
    "HttpServlet30Dispatcher",
    "CXFNonSpringJaxrsServlet",
    "CXFServlet",
];

/// Calls that map a servlet (or its registration) to URL patterns.
const MAPPERS: [&str; 5] = [
    "addServlet",
    "addServletWithMapping",
    "addMapping",
    "ServletRegistrationBean",
    "addServletMappingDecoded",
];

/// The mapping document of a source or `web.xml` file, if it maps a
/// JAX-RS servlet.
pub fn mapping(file: &SourceFile) -> Option<ConfigDoc> {
    let path = if file.path.ends_with("web.xml") {
        web_xml(&file.content)?
    } else {
        if !SERVLETS.iter().any(|s| file.content.contains(s))
            && !file.content.contains("setUrlPattern")
        {
            return None;
        }
        in_code(file)?
    };
    let path = path.trim_end_matches('*').trim_end_matches('/').to_string();
    Some(ConfigDoc {
        path: file.path.clone(),
        root: module_root(&file.path),
        profile: None,
        properties: false,
        entries: vec![(relaxed(KEY), path)],
    })
}

fn mentions_servlet(t: &[Token], r: std::ops::Range<usize>) -> bool {
    t.get(r).is_some_and(|s| {
        s.iter()
            .any(|x| x.kind == Kind::Ident && SERVLETS.contains(&x.text.as_str()))
    })
}

fn in_code(file: &SourceFile) -> Option<String> {
    let toks = crate::jvm::tokens::of_file(file);
    let t: &[Token] = &toks.0;
    // Variables whose initialiser builds a JAX-RS servlet or its holder:
    // `ServletHolder jersey = new ServletHolder(new ServletContainer(rc));`
    // (one pass: each statement is read once).
    let mut holders: Vec<&str> = Vec::new();
    let mut k = 0;
    while k < t.len() {
        if t[k].is('=') && k > 0 && t[k - 1].kind == Kind::Ident {
            let mut end = k + 1;
            while end < t.len() && !t[end].is(';') && !(t[end].nl && t[end - 1].is(')')) {
                end += 1;
            }
            if mentions_servlet(t, k + 1..end) {
                holders.push(&t[k - 1].text);
            }
            k = end;
            continue;
        }
        k += 1;
    }
    for i in 0..t.len() {
        // Dropwizard: `environment.jersey().setUrlPattern("/api/*")`.
        if t[i].is_ident("setUrlPattern")
            && i >= 4
            && t[i - 1].is('.')
            && t[i - 2].is(')')
            && t[i - 3].is('(')
            && t[i - 4].is_ident("jersey")
        {
            if let Some(p) = t
                .get(i + 2)
                .filter(|x| x.kind == Kind::Str && x.text.starts_with('/'))
            {
                return Some(p.text.clone());
            }
        }
        if t[i].kind != Kind::Ident || !MAPPERS.contains(&t[i].text.as_str()) {
            continue;
        }
        if !t.get(i + 1).is_some_and(|x| x.is('(')) {
            continue;
        }
        let close = close_of(t, i + 1).unwrap_or(t.len());
        let args = split_commas(t, i + 2, close);
        // The servlet: among the arguments, or the receiver of
        // `registration.addMapping(…)` / `addServlet(…).addMapping(…)`.
        let receiver = (i >= 2 && t[i - 1].is('.')).then(|| &t[i - 2]);
        let servlet = args.iter().any(|a| {
            mentions_servlet(t, a.clone())
                || (a.len() == 1 && holders.contains(&t[a.start].text.as_str()))
        }) || receiver.is_some_and(|r| {
            holders.contains(&r.text.as_str()) || r.is(')') && call_mentions_servlet(t, i - 2)
        });
        if !servlet {
            continue;
        }
        if let Some(p) = args
            .iter()
            .filter(|a| a.len() == 1 && t[a.start].kind == Kind::Str)
            .map(|a| t[a.start].text.clone())
            .find(|s| s.starts_with('/'))
        {
            return Some(p);
        }
    }
    None
}

/// The call whose argument list closes at `close` mentions a servlet class.
fn call_mentions_servlet(t: &[Token], close: usize) -> bool {
    let mut depth = 0usize;
    for k in (0..=close).rev() {
        if t[k].is(')') {
            depth += 1;
        } else if t[k].is('(') {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return mentions_servlet(t, k..close);
            }
        }
    }
    false
}

/// The text between `<tag>` and `</tag>` in `s`, trimmed.
fn tag<'a>(s: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let start = s.find(&open)? + open.len();
    let end = s[start..].find(&format!("</{name}>"))? + start;
    Some(s[start..end].trim())
}

/// Blocks `<name>…</name>` of `s`.
fn blocks<'a>(s: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(a) = rest.find(&open) {
        let body = &rest[a + open.len()..];
        let Some(b) = body.find(&close) else { break };
        out.push(&body[..b]);
        rest = &body[b + close.len()..];
    }
    out
}

fn web_xml(content: &str) -> Option<String> {
    let names: Vec<&str> = blocks(content, "servlet")
        .into_iter()
        .filter(|b| {
            let class = tag(b, "servlet-class").unwrap_or("");
            SERVLETS.iter().any(|s| class.ends_with(s))
                || b.contains("javax.ws.rs.Application")
                || b.contains("jakarta.ws.rs.Application")
                || tag(b, "servlet-name").is_some_and(|n| n.ends_with("rs.core.Application"))
        })
        .filter_map(|b| tag(b, "servlet-name"))
        .collect();
    blocks(content, "servlet-mapping")
        .into_iter()
        .filter(|m| tag(m, "servlet-name").is_some_and(|n| names.contains(&n)))
        .find_map(|m| tag(m, "url-pattern"))
        .map(str::to_string)
}
