//! Apache Struts 2 (`java_struts2`).
//!
//! - XML configuration: `struts.xml` and every XML file whose root is
//!   `<struts>` (included files are read on their own): `<package namespace="/admin"><action
//!   name="login" class="…LoginAction">` is `/admin/login.action`; a package
//!   without namespace is the root. The extension is `action` unless
//!   `<constant name="struts.action.extension" value="do"/>` (or
//!   `struts.action.extension=do` in `struts.properties`) says otherwise
//!   (its first value; an empty value means no extension). Wildcard action
//!   names (`user_*`) are reported as written. XML comments are skipped.
//! - Convention plugin annotations: `@Action("login")` / `@Action(value =
//!   "…")` and `@Actions({@Action("a"), @Action("b")})` on action methods or
//!   classes, under the class's `@Namespace("/x")` or, without one, the
//!   namespace derived from the package (`…actions.admin` → `/admin`; the
//!   locator packages are `action`, `actions`, `struts`, `struts2` unless
//!   `struts.convention.package.locators` says otherwise); an
//!   action name starting with `/` is absolute. Constants are resolved.
//! - REST plugin controllers (`OrdersController` importing
//!   `org.apache.struts2.rest…` or extending `RestActionSupport`): `/orders`
//!   under the namespace, with the conventional mapping of the methods the
//!   class defines: `index` GET `/orders`, `show` GET `/orders/{id}`,
//!   `edit` GET `/orders/{id}/edit`, `editNew` GET `/orders/new`, `create`
//!   POST `/orders`, `update` PUT `/orders/{id}`, `destroy` DELETE
//!   `/orders/{id}`; no extension. Setter properties other than `id` are
//!   form parameters of POST/PUT and query parameters otherwise.
//! - Methods: an action answers any method; reported as GET and POST.
//! - Parameters: the properties the action class (and its superclasses in
//!   the tree) exposes through setters (`setUsername` → `username`), as
//!   query parameters on GET and form parameters on POST.
//!
//! Known gaps: convention-plugin actions without `@Action` (mapped from
//! class names), `package-info.java` namespaces, `ModelDriven` models and
//! `struts.action.extension` from `web.xml` init params are not read.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::jvm::expr::StrExpr;
use crate::jvm::index::Index;
use crate::jvm::outline::{self, JFile, Lang};

pub struct JavaStruts2;

#[derive(Clone, Debug, Serialize, Deserialize)]
enum Fact {
    File(JFile),
    Xml {
        path: String,
        actions: Vec<XmlAction>,
        extension: Option<String>,
        #[serde(default)]
        locators: Option<String>,
    },
    Extension(String),
    Locators(String),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct XmlAction {
    namespace: String,
    name: String,
    class: String,
    line: u32,
}

impl Analyzer for JavaStruts2 {
    fn tech(&self) -> Tech {
        Tech::new("java_struts2", "Java", "Apache Struts 2")
            .aliases(["struts2", "struts", "apache-struts"])
            .files(["*.xml", "struts.properties", "*.java"])
            .detect(Detect::files(["struts.xml", "struts-*.xml"]).contains(["<struts"]))
            .detect(Detect::files(["*.java"]).contains(["org.apache.struts2"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) {
            return;
        }
        let name = file.path.rsplit('/').next().unwrap_or("");
        if name.ends_with(".xml") {
            // Struts configuration files, whatever their name (`<include>`d
            // files are often `example.xml`).
            if !(file.content.contains("<struts>") || file.content.contains("<struts ")) {
                return;
            }
            let (actions, extension, locators) = parse_xml(file);
            out.fact(&Fact::Xml {
                path: file.path.clone(),
                actions,
                extension,
                locators,
            });
        } else if name == "struts.properties" {
            for line in file.content.lines() {
                let line = line.trim();
                if let Some(v) = line
                    .strip_prefix("struts.action.extension")
                    .and_then(|r| r.trim_start().strip_prefix(['=', ':']))
                {
                    out.fact(&Fact::Extension(v.trim().to_string()));
                }
                if let Some(v) = line
                    .strip_prefix("struts.convention.package.locators")
                    .and_then(|r| r.trim_start().strip_prefix(['=', ':']))
                {
                    out.fact(&Fact::Locators(v.trim().to_string()));
                }
            }
        } else if name.ends_with(".java") {
            let outline = outline::parse(file, Lang::Java);
            if !outline.types.is_empty() {
                out.fact(&Fact::File(outline));
            }
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut files = Vec::new();
        let mut xml = Vec::new();
        let mut ext: Option<String> = None;
        let mut locators: Option<String> = None;
        for f in facts.all::<Fact>() {
            match f {
                Fact::File(j) => files.push(j),
                Fact::Xml {
                    path,
                    actions,
                    extension,
                    locators: l,
                } => {
                    if extension.is_some() {
                        ext = extension;
                    }
                    if l.is_some() {
                        locators = l;
                    }
                    xml.push((path, actions));
                }
                Fact::Extension(e) => {
                    if ext.is_none() {
                        ext = Some(e);
                    }
                }
                Fact::Locators(l) => {
                    if locators.is_none() {
                        locators = Some(l);
                    }
                }
            }
        }
        let ext = ext
            .map(|e| e.split(',').next().unwrap_or("").trim().to_string())
            .unwrap_or_else(|| "action".to_string());
        let locators: Vec<&str> = match &locators {
            Some(l) => l
                .split(',')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .collect(),
            None => vec!["action", "actions", "struts", "struts2"],
        };
        let idx = Index::new(&files);
        let url = |namespace: &str, name: &str| {
            let base = if name.starts_with('/') {
                join_path(&[name])
            } else {
                join_path(&[namespace, name])
            };
            if ext.is_empty() {
                base
            } else {
                format!("{base}.{ext}")
            }
        };
        let mut out = Vec::new();
        for (path, actions) in &xml {
            for a in actions {
                let simple = a.class.rsplit('.').next().unwrap_or("");
                let props = properties(&idx, None, simple);
                push(&mut out, url(&a.namespace, &a.name), path, a.line, &props);
            }
        }
        for (fi, f) in files.iter().enumerate() {
            for (ti, ty) in f.types.iter().enumerate() {
                let ns_ann = ty.annotation("Namespace");
                let namespace = match ns_ann.and_then(|a| a.items(&["value"]).into_iter().next()) {
                    Some(e) => match idx.eval(fi, Some((fi, ti)), &e) {
                        Some(v) => v,
                        None => continue,
                    },
                    None => package_namespace(&f.package, &locators),
                };
                let props = properties(&idx, Some(fi), &ty.name);
                let mut anns: Vec<&crate::jvm::outline::Annotation> =
                    ty.annotations.iter().collect();
                for m in &ty.methods {
                    anns.extend(m.annotations.iter());
                }
                for ann in anns {
                    for name in action_names(ann) {
                        let Some(name) = idx.eval(fi, Some((fi, ti)), &name) else {
                            continue;
                        };
                        push(&mut out, url(&namespace, &name), &f.path, ann.line, &props);
                    }
                }
                rest_controller(&mut out, f, ty, &namespace, &props);
            }
        }
        Ok(out)
    }
}

/// REST plugin controllers: `OrdersController` (importing
/// `org.apache.struts2.rest` or extending `RestActionSupport`) serves
/// `/orders` with the methods it defines.
fn rest_controller(
    out: &mut Vec<Endpoint>,
    f: &JFile,
    ty: &crate::jvm::outline::TypeDecl,
    namespace: &str,
    props: &[String],
) {
    let rest = f
        .imports
        .iter()
        .any(|i| i.name.starts_with("org.apache.struts2.rest"))
        || ty.supers.iter().any(|s| s.ends_with("RestActionSupport"));
    let Some(resource) = ty.name.strip_suffix("Controller") else {
        return;
    };
    if !rest || resource.is_empty() || ty.is_abstract() {
        return;
    }
    let base = join_path(&[namespace, dashed(resource).as_str()]);
    let item = format!("{base}/{{id}}");
    let fields: Vec<&String> = props.iter().filter(|p| *p != "id").collect();
    for m in &ty.methods {
        let (method, url, body) = match m.name.as_str() {
            "index" => ("GET", base.clone(), false),
            "show" => ("GET", item.clone(), false),
            "edit" => ("GET", format!("{item}/edit"), false),
            "editNew" => ("GET", format!("{base}/new"), false),
            "create" => ("POST", base.clone(), true),
            "update" => ("PUT", item.clone(), true),
            "destroy" => ("DELETE", item.clone(), false),
            _ => continue,
        };
        let params = fields.iter().map(|p| {
            if body {
                Param::form((*p).clone())
            } else {
                Param::query((*p).clone())
            }
        });
        out.push(
            Endpoint::new(method, url)
                .at_path(f.path.clone(), m.line)
                .params(params),
        );
    }
}

/// `OrderItems` → `order-items` (the convention plugin's action names).
fn dashed(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn push(out: &mut Vec<Endpoint>, url: String, path: &str, line: u32, props: &[String]) {
    out.push(
        Endpoint::new("GET", url.clone())
            .at_path(path, line)
            .params(props.iter().map(|p| Param::query(p.clone()))),
    );
    out.push(
        Endpoint::new("POST", url)
            .at_path(path, line)
            .params(props.iter().map(|p| Param::form(p.clone()))),
    );
}

/// Names of `@Action("x")` / `@Actions({@Action("a"), …})`.
fn action_names(ann: &crate::jvm::outline::Annotation) -> Vec<StrExpr> {
    match ann.name.as_str() {
        "Action" => ann.items(&["value"]).into_iter().take(1).collect(),
        "Actions" => {
            let raw = ann.raw(&["value"]).unwrap_or("");
            let mut out = Vec::new();
            for piece in raw.split("@Action").skip(1) {
                let piece = piece.trim_start().trim_start_matches('(').trim_start();
                let piece = piece
                    .strip_prefix("value")
                    .map(|r| r.trim_start().trim_start_matches('=').trim_start())
                    .unwrap_or(piece);
                if let Some(rest) = piece.strip_prefix('"') {
                    if let Some(end) = rest.find('"') {
                        out.push(StrExpr::lit(&rest[..end]));
                    }
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// The convention plugin's namespace of a package: what follows the
/// `actions` / `action` / `struts` / `struts2` package, as a path.
fn package_namespace(package: &str, locators: &[&str]) -> String {
    let parts: Vec<&str> = package.split('.').collect();
    match parts.iter().rposition(|p| locators.contains(p)) {
        Some(i) => format!("/{}", parts[i + 1..].join("/")),
        None => String::new(),
    }
}

/// Properties settable on the action class `name` (resolved from file `f`
/// or by name anywhere): `setX(…)` with one parameter, along the lineage.
fn properties(idx: &Index, f: Option<usize>, name: &str) -> Vec<String> {
    let id = match f {
        Some(f) => idx.resolve_type(f, name),
        None => idx.all().find(|id| idx.ty(*id).name == name),
    };
    let Some(id) = id else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for t in idx.lineage(id).iter().rev() {
        for m in &idx.ty(*t).methods {
            let Some(rest) = m.name.strip_prefix("set") else {
                continue;
            };
            if m.params.len() != 1 || !rest.starts_with(|c: char| c.is_ascii_uppercase()) {
                continue;
            }
            let mut chars = rest.chars();
            let prop: String = chars
                .next()
                .map(|c| c.to_ascii_lowercase())
                .into_iter()
                .chain(chars)
                .collect();
            // Struts' own plumbing, not request parameters.
            if matches!(
                prop.as_str(),
                "session" | "servletRequest" | "servletResponse" | "application" | "parameters"
            ) {
                continue;
            }
            if !out.contains(&prop) {
                out.push(prop);
            }
        }
    }
    out
}

/// `<package>` / `<action>` / `<constant>` tags of a Struts XML file.
fn parse_xml(file: &SourceFile) -> (Vec<XmlAction>, Option<String>, Option<String>) {
    let src = strip_comments(&file.content);
    let mut actions = Vec::new();
    let mut extension = None;
    let mut locators = None;
    let mut namespaces: Vec<String> = Vec::new();
    let mut i = 0;
    while let Some(p) = src[i..].find('<') {
        let start = i + p;
        let end = src[start..].find('>').map_or(src.len(), |e| start + e + 1);
        let tag = &src[start..end];
        i = end;
        let inner = tag.trim_start_matches('<').trim_end_matches('>');
        let self_closing = inner.ends_with('/');
        let inner = inner.trim_end_matches('/');
        let name = inner.split_whitespace().next().unwrap_or("");
        match name {
            "package" => {
                namespaces.push(attr(inner, "namespace").unwrap_or_default());
                if self_closing {
                    namespaces.pop();
                }
            }
            "/package" => {
                namespaces.pop();
            }
            "action" => {
                if let Some(n) = attr(inner, "name") {
                    actions.push(XmlAction {
                        namespace: namespaces.last().cloned().unwrap_or_default(),
                        name: n,
                        class: attr(inner, "class").unwrap_or_default(),
                        line: file.line_of(start),
                    });
                }
            }
            "constant" => match attr(inner, "name").as_deref() {
                Some("struts.action.extension") => extension = attr(inner, "value"),
                Some("struts.convention.package.locators") => locators = attr(inner, "value"),
                _ => {}
            },
            _ => {}
        }
    }
    (actions, extension, locators)
}

/// Blank out `<!-- … -->` (keeping line breaks) so offsets and lines hold.
fn strip_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find("<!--") {
        out.push_str(&rest[..p]);
        let after = &rest[p..];
        let end = after.find("-->").map_or(after.len(), |e| e + 3);
        out.extend(
            after[..end]
                .chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' }),
        );
        // Keep byte offsets: pad multi-byte characters.
        let blanked: usize =
            after[..end].chars().map(char::len_utf8).sum::<usize>() - after[..end].chars().count();
        out.extend(std::iter::repeat_n(' ', blanked));
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The value of attribute `name` in a tag's inner text.
fn attr(tag: &str, name: &str) -> Option<String> {
    let mut search = 0;
    while let Some(p) = tag[search..].find(name) {
        let at = search + p;
        search = at + name.len();
        let before_ok = at == 0 || tag[..at].ends_with(char::is_whitespace);
        let rest = tag[search..].trim_start();
        if !before_ok || !rest.starts_with('=') {
            continue;
        }
        let rest = rest[1..].trim_start();
        let q = rest.chars().next()?;
        if q != '"' && q != '\'' {
            return None;
        }
        let body = &rest[1..];
        return body.find(q).map(|e| body[..e].to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_blanked_keeping_offsets() {
        let src = "<a/>\n<!-- é\n<action name=\"x\"/> -->\n<b/>";
        let out = strip_comments(src);
        assert_eq!(out.len(), src.len());
        assert_eq!(out.matches('\n').count(), 3);
        assert!(!out.contains("action"));
    }

    #[test]
    fn attributes_and_namespaces() {
        let tag = "action name='login' class=\"a.B\" classname=\"no\"";
        assert_eq!(attr(tag, "name").as_deref(), Some("login"));
        assert_eq!(attr(tag, "class").as_deref(), Some("a.B"));
        assert_eq!(attr(tag, "method"), None);
        let default = ["action", "actions", "struts", "struts2"];
        assert_eq!(
            package_namespace("com.acme.actions.admin.users", &default),
            "/admin/users"
        );
        assert_eq!(package_namespace("com.acme.actions", &default), "/");
        assert_eq!(package_namespace("com.acme.web", &default), "");
        assert_eq!(
            package_namespace("org.apache.struts2.rest.example", &["example"]),
            "/"
        );
        assert_eq!(dashed("OrderItems"), "order-items");
    }
}
