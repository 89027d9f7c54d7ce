//! Classic ASP (`asp_classic`) and ASP.NET WebForms (`aspnet_webforms`):
//! every page is an endpoint at its path below the scanned base.
//!
//! - Classic ASP: each `.asp` file, GET, and POST too when it reads
//!   `Request.Form`. Reads (VBScript is case-insensitive; the usual
//!   spellings are recognised): `Request.QueryString("q")` query,
//!   `Request.Form("x")` form, `Request("x")` query on GET and form on
//!   POST, `Request.Cookies("c")` cookie, `Request.ServerVariables("HTTP_X_Y")`
//!   header `X-Y`.
//! - WebForms: each `.aspx` page (GET; POST when it posts back: a
//!   `runat="server"` form with a button, or a code-behind checking
//!   `IsPostBack`/reading `Request.Form`), its code-behind
//!   (`Page.aspx.cs`/`.vb`, reported at the page's URL and merged with it),
//!   `.ashx` handlers, and `.asmx` services (`[WebMethod]` methods are `POST
//!   /Service.asmx/Method` with their arguments as form parameters).
//!   Reads: `Request.QueryString["q"]` query, `Request.Form["x"]` form,
//!   `Request["x"]`, `Request.Cookies["c"]` cookie, `Request.Headers["X"]`
//!   header; `<asp:TextBox ID="x">` controls are form fields of the
//!   postback.

use portolan_plugin_sdk::prelude::*;

use crate::common::{self, link_pages, reads, Kind, Page, Read, VBSCRIPT};

const fn q(n: &'static str) -> Read {
    (n, Kind::Fixed(ParamKind::Query))
}
const fn f(n: &'static str) -> Read {
    (n, Kind::Fixed(ParamKind::Form))
}
const fn c(n: &'static str) -> Read {
    (n, Kind::Fixed(ParamKind::Cookie))
}
const fn h(n: &'static str) -> Read {
    (n, Kind::Fixed(ParamKind::Header))
}

const REQUEST_READS: &[Read] = &[
    q("Request.QueryString"),
    q("Request.Querystring"),
    q("request.querystring"),
    q("Request.queryString"),
    q("REQUEST.QUERYSTRING"),
    f("Request.Form"),
    f("request.form"),
    f("Request.form"),
    f("REQUEST.FORM"),
    c("Request.Cookies"),
    c("request.cookies"),
    c("Request.cookies"),
    h("Request.Headers"),
    h("request.headers"),
    ("Request.Params", Kind::QueryOrForm),
    ("Request", Kind::QueryOrForm),
    ("request", Kind::QueryOrForm),
];

/// `Request.ServerVariables("HTTP_X_API_KEY")` → header `X-Api-Key`.
fn server_variables(code: &Code, range: std::ops::Range<usize>, e: &mut Endpoint) {
    for needle in [
        "Request.ServerVariables",
        "request.servervariables",
        "Request.serverVariables",
    ] {
        for at in code.find_all_in(needle, range.clone()) {
            let Some((name, _)) = common::name_after(code, at + needle.len()) else {
                continue;
            };
            let Some(h) = name
                .strip_prefix("HTTP_")
                .or_else(|| name.strip_prefix("http_"))
            else {
                continue;
            };
            let header = h
                .split('_')
                .map(|w| {
                    let w = w.to_ascii_lowercase();
                    let mut c = w.chars();
                    c.next()
                        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                        .unwrap_or_default()
                })
                .collect::<Vec<_>>()
                .join("-");
            let p = Param::header(header);
            if !e.params.contains(&p) {
                e.push_param(p);
            }
        }
    }
}

/// Body fields are not parameters of the GET of a page that also posts.
fn for_method(params: Vec<Param>, m: &str) -> Vec<Param> {
    params
        .into_iter()
        .filter(|p| {
            m != "GET" || !matches!(p.kind, ParamKind::Form | ParamKind::Json | ParamKind::File)
        })
        .collect()
}

fn uses_form(src: &str) -> bool {
    let lower = src.to_ascii_lowercase();
    lower.contains("request.form")
        || lower.contains("ispostback")
        || lower.contains("request_method")
}

pub struct AspClassic;

impl Analyzer for AspClassic {
    fn tech(&self) -> Tech {
        Tech::new("asp_classic", "ASP", "Classic ASP (VBScript)")
            .aliases(["asp", "classic-asp", "asp-classic"])
            .files(["*.asp"])
            .detect(Detect::files(["*.asp"]))
            .supports(Supports::HTTP)
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let code = file.code(VBSCRIPT);
        let all = 0..file.content.len();
        let mut methods = vec!["GET"];
        if uses_form(&file.content) {
            methods.push("POST");
        }
        let mut page = Page {
            path: file.path.clone(),
            endpoints: Vec::new(),
        };
        for m in methods {
            let mut e = common::endpoint(
                m,
                "",
                file,
                1,
                for_method(reads(&code, all.clone(), REQUEST_READS, m), m),
            );
            server_variables(&code, all.clone(), &mut e);
            page.endpoints.push(e);
        }
        out.fact(&page);
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link_pages(facts.all()))
    }
}

pub struct WebForms;

impl Analyzer for WebForms {
    fn tech(&self) -> Tech {
        Tech::new("aspnet_webforms", "ASP.NET", "ASP.NET WebForms")
            .aliases(["webforms", "aspnet-webforms"])
            .files([
                "*.aspx",
                "*.aspx.cs",
                "*.aspx.vb",
                "*.ashx",
                "*.ashx.cs",
                "*.asmx",
                "*.asmx.cs",
            ])
            .detect(Detect::files(["*.aspx", "*.ashx", "*.asmx"]).contains(["<%@"]))
            .supports(Supports::HTTP)
    }
    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let path = &file.path;
        let lower = path.to_ascii_lowercase();
        let page = lower
            .strip_suffix(".cs")
            .or_else(|| lower.strip_suffix(".vb"))
            .map_or(path.as_str(), |p| &path[..p.len()]);
        let mut fact = Page {
            path: page.to_string(),
            endpoints: Vec::new(),
        };
        let is_vb = lower.ends_with(".vb");
        let syntax = if is_vb { VBSCRIPT } else { Syntax::CSHARP };
        let code = file.code(syntax);
        let all = 0..file.content.len();
        if page.to_ascii_lowercase().ends_with(".asmx") {
            // [WebMethod] public string Hello(string name)
            let text = code.text();
            for at in code.find_all("WebMethod") {
                let Some(open) = text[at..].find('(').map(|i| at + i) else {
                    continue;
                };
                // The method's argument list: the first `(` after the attribute's `]`.
                let Some(close_attr) = text[at..].find(']').map(|i| at + i) else {
                    continue;
                };
                let Some(open) = text[close_attr..]
                    .find('(')
                    .map(|i| close_attr + i)
                    .or(Some(open))
                else {
                    continue;
                };
                let Some(name) = code.ident_before(open) else {
                    continue;
                };
                let mut e = Endpoint::new("POST", format!("/{name}")).at(file, file.line_of(at));
                for a in code.args(open) {
                    let s = code.slice(a);
                    if let Some(n) = s
                        .split('=')
                        .next()
                        .and_then(|s| s.split_whitespace().last())
                    {
                        e.push_param(Param::form(n));
                    }
                }
                fact.endpoints.push(e);
            }
            out.fact(&fact);
            return;
        }
        let is_markup = lower.ends_with(".aspx");
        let posts = if is_markup {
            let l = file.content.to_ascii_lowercase();
            l.contains("runat=\"server\"")
                && (l.contains("<asp:button")
                    || l.contains("<asp:linkbutton")
                    || l.contains("onclick=\"") && l.contains("<asp:"))
        } else {
            uses_form(&file.content) || file.content.contains("_Click(")
        };
        let mut methods = vec!["GET"];
        if posts {
            methods.push("POST");
        }
        for m in methods {
            let mut e = common::endpoint(
                m,
                "",
                file,
                1,
                if is_markup {
                    Vec::new()
                } else {
                    for_method(reads(&code, all.clone(), REQUEST_READS, m), m)
                },
            );
            if is_markup && m == "POST" {
                for (at, _) in file.content.match_indices("<asp:TextBox") {
                    let tag_end = file.content[at..]
                        .find('>')
                        .map_or(file.content.len(), |i| at + i);
                    let tag = &file.content[at..tag_end];
                    if let Some(i) = tag.find("ID=\"") {
                        let rest = &tag[i + 4..];
                        if let Some(j) = rest.find('"') {
                            e.push_param(Param::form(&rest[..j]));
                        }
                    }
                }
            }
            if !is_markup {
                server_variables(&code, all.clone(), &mut e);
            }
            fact.endpoints.push(e);
        }
        out.fact(&fact);
    }
    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link_pages(facts.all()))
    }
}
