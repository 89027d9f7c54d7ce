//! JavaServer Pages (`java_jsp`).
//!
//! - Every `.jsp` / `.jspx` page is an endpoint at its path below the web
//!   root: the directory holding `WEB-INF/web.xml`, else a conventional root
//!   (`META-INF/resources` of a web-fragment jar, `src/main/webapp`,
//!   `WebContent`, `WebRoot`, `webapp`, `web`), else the page's directory.
//!   Pages under `WEB-INF/` or `META-INF/` (other than
//!   `META-INF/resources`) are not reachable directly and are skipped, as
//!   are test directories.
//! - Methods: a page answers GET and POST alike (the servlet container calls
//!   `_jspService` for both); reported as both, at line 1.
//! - Parameters: `request.getParameter("x")` / `getParameterValues("x")`
//!   and EL `${param.x}` / `${param['x']}` / `${paramValues.x}` are query
//!   parameters on GET and form parameters on POST; `request.getHeader("X")`
//!   and EL `${header.X}` / `${header['X']}` are headers; EL `${cookie.c}`
//!   is a cookie. `<%-- … --%>` comments and `//` / `/* */` comments inside
//!   scriptlets are skipped.
//!
//! - Servlets: see [`servlet`].
//!
//! Known gaps: servlet mappings of JSPs in `web.xml` (`<jsp-file>`) and
//! parameters read by included fragments are not followed.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

pub mod servlet;

pub struct JavaJsp;

const ROOTS: [&str; 6] = [
    "META-INF/resources",
    "src/main/webapp",
    "WebContent",
    "WebRoot",
    "webapp",
    "web",
];

#[derive(Clone, Debug, Serialize, Deserialize)]
enum Fact {
    Page {
        path: String,
        params: Vec<(ParamKind, String)>,
    },
    WebXml(String),
    Servlet(servlet::Servlet),
    ServletMappings(Vec<(String, Vec<String>)>),
}

impl Analyzer for JavaJsp {
    fn tech(&self) -> Tech {
        Tech::new("java_jsp", "Java", "JSP")
            .aliases(["jsp"])
            .files(["*.jsp", "*.jspx", "web.xml", "*.java"])
            .detect(Detect::files(["*.jsp", "*.jspx"]))
            .detect(Detect::files(["*.java"]).contains(["@WebServlet"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if is_test_path(&path) {
            return;
        }
        if path.ends_with("/WEB-INF/web.xml") || path == "WEB-INF/web.xml" {
            let root = path.trim_end_matches("web.xml").trim_end_matches('/');
            let root = root.trim_end_matches("WEB-INF").trim_end_matches('/');
            out.fact(&Fact::WebXml(root.to_string()));
            let maps = servlet::web_xml_mappings(&file.content);
            if !maps.is_empty() {
                out.fact(&Fact::ServletMappings(maps));
            }
            return;
        }
        if path.ends_with(".java") {
            if let Some(s) = servlet::servlet(file) {
                out.fact(&Fact::Servlet(s));
            }
            return;
        }
        if !(path.ends_with(".jsp") || path.ends_with(".jspx")) {
            return;
        }
        let segs: Vec<&str> = path.split('/').collect();
        let hidden = segs.iter().enumerate().any(|(i, s)| {
            *s == "WEB-INF" || (*s == "META-INF" && segs.get(i + 1) != Some(&"resources"))
        });
        if hidden {
            return;
        }
        out.fact(&Fact::Page {
            path: file.path.clone(),
            params: params(&file.content),
        });
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut roots: Vec<String> = Vec::new();
        let mut pages = Vec::new();
        let mut servlets = Vec::new();
        let mut maps = Vec::new();
        for f in facts.all::<Fact>() {
            match f {
                Fact::WebXml(r) => roots.push(r),
                Fact::Page { path, params } => pages.push((path, params)),
                Fact::Servlet(s) => servlets.push(s),
                Fact::ServletMappings(m) => maps.extend(m),
            }
        }
        let mut out = Vec::new();
        servlet::link(&servlets, &maps, &mut out);
        for (path, params) in pages {
            let slash = path.replace('\\', "/");
            let url = url_of(&slash, &roots);
            let mut get = Endpoint::new("GET", url.clone()).at_path(path.clone(), 1);
            let mut post = Endpoint::new("POST", url).at_path(path.clone(), 1);
            for (kind, name) in &params {
                let (g, p) = match kind {
                    ParamKind::Query => (Param::query(name), Param::form(name)),
                    k => (Param::new(*k, name), Param::new(*k, name)),
                };
                get.push_param(g);
                post.push_param(p);
            }
            out.push(get);
            out.push(post);
        }
        Ok(out)
    }
}

/// The URL of a page: its path below the deepest web root containing it.
fn url_of(path: &str, roots: &[String]) -> String {
    let under = |root: &str| -> Option<String> {
        if root.is_empty() {
            return Some(path.to_string());
        }
        path.strip_prefix(root)
            .and_then(|r| r.strip_prefix('/'))
            .map(str::to_string)
    };
    let from_xml = roots
        .iter()
        .filter_map(|r| under(r).map(|rest| (r.len(), rest)))
        .max_by_key(|(l, _)| *l)
        .map(|(_, rest)| rest);
    let rest = from_xml.or_else(|| {
        ROOTS.iter().find_map(|root| {
            let needle = format!("/{root}/");
            let p = format!("/{path}");
            p.rfind(&needle).map(|i| p[i + needle.len()..].to_string())
        })
    });
    let rest = rest.unwrap_or_else(|| path.rsplit('/').next().unwrap_or(path).to_string());
    format!("/{rest}")
}

/// Parameters a page reads, in order of appearance.
fn params(src: &str) -> Vec<(ParamKind, String)> {
    let text = strip_comments(src);
    let mut out: Vec<(ParamKind, String)> = Vec::new();
    let mut push = |k: ParamKind, n: &str| {
        let n = n.trim();
        if !n.is_empty() && !out.iter().any(|(k2, n2)| *k2 == k && n2 == n) {
            out.push((k, n.to_string()));
        }
    };
    let calls: [(&str, ParamKind); 3] = [
        ("getParameter(", ParamKind::Query),
        ("getParameterValues(", ParamKind::Query),
        ("getHeader(", ParamKind::Header),
    ];
    let els: [(&str, ParamKind); 4] = [
        ("param", ParamKind::Query),
        ("paramValues", ParamKind::Query),
        ("header", ParamKind::Header),
        ("cookie", ParamKind::Cookie),
    ];
    // One pass in text order over calls and EL references.
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let mut advanced = false;
        for (call, kind) in &calls {
            if rest.starts_with(call) && (i == 0 || bytes[i - 1] == b'.') {
                let arg = rest[call.len()..].trim_start();
                if let Some(q) = arg.strip_prefix('"') {
                    if let Some(end) = q.find('"') {
                        push(*kind, &q[..end]);
                    }
                }
                i += call.len();
                advanced = true;
                break;
            }
        }
        if advanced {
            continue;
        }
        if rest.starts_with("${") || rest.starts_with("#{") {
            let end = rest.find('}').unwrap_or(rest.len());
            let expr = &rest[2..end];
            for (obj, kind) in &els {
                let mut s = 0;
                while let Some(p) = expr[s..].find(obj) {
                    let at = s + p;
                    s = at + obj.len();
                    let before_ok = at == 0
                        || !expr[..at]
                            .chars()
                            .last()
                            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.');
                    let after = &expr[s..];
                    if !before_ok {
                        continue;
                    }
                    if let Some(name) = after.strip_prefix('.') {
                        let n: String = name
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        push(*kind, &n);
                    } else if let Some(name) = after.strip_prefix('[') {
                        let name = name.trim_start();
                        if let Some(q) = name.chars().next().filter(|c| *c == '\'' || *c == '"') {
                            let body = &name[1..];
                            if let Some(e) = body.find(q) {
                                push(*kind, &body[..e]);
                            }
                        }
                    }
                }
            }
            i += end.max(1);
            continue;
        }
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
    out
}

/// Remove `<%-- … --%>` comments, and Java comments inside `<% … %>`.
fn strip_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut rest = src;
    loop {
        let jsp_comment = rest.find("<%--");
        let scriptlet = rest.find("<%");
        match (jsp_comment, scriptlet) {
            (Some(c), _) if scriptlet.is_none_or(|s| c <= s) => {
                out.push_str(&rest[..c]);
                let after = &rest[c..];
                let end = after.find("--%>").map_or(after.len(), |e| e + 4);
                rest = &after[end..];
            }
            (_, Some(s)) => {
                out.push_str(&rest[..s]);
                let after = &rest[s..];
                let end = after[2..].find("%>").map_or(after.len(), |e| e + 4);
                let block = &after[..end];
                let code = Code::new(block, Syntax::C_LIKE);
                for (k, ch) in block.char_indices() {
                    if !code.is_comment(k) {
                        out.push(ch);
                    }
                }
                rest = &after[end..];
            }
            _ => {
                out.push_str(rest);
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_scriptlets_and_el_but_not_comments() {
        let src = "<%-- request.getParameter(\"a\") --%><% // request.getParameter(\"b\")\n String c = request.getParameter(\"c\"); %>${param.d} ${param['e']} ${header[\"X-F\"]} ${cookie.g} ${myparam.h}";
        let got = params(src);
        let names: Vec<&str> = got.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(names, ["c", "d", "e", "X-F", "g"]);
        assert_eq!(got[3].0, ParamKind::Header);
        assert_eq!(got[4].0, ParamKind::Cookie);
    }

    #[test]
    fn urls_below_web_roots() {
        let roots = vec!["app/portal".to_string()];
        assert_eq!(url_of("app/portal/a/b.jsp", &roots), "/a/b.jsp");
        assert_eq!(url_of("app/src/main/webapp/x.jsp", &roots), "/x.jsp");
        assert_eq!(url_of("app/misc/y.jsp", &roots), "/y.jsp");
        assert_eq!(
            url_of("app/src/main/resources/META-INF/resources/z/w.jsp", &roots),
            "/z/w.jsp"
        );
    }
}
