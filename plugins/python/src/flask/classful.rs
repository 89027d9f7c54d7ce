//! Flask-Classful: class-based views whose routes come from the class.
//!
//! `SomeView.register(app_or_blueprint, route_base=…, route_prefix=…,
//! trailing_slash=…)` turns every public method of the class and of its
//! bases (mixins included; not `_private`, `before_*`, `after_*`,
//! `excluded_methods`, nor `FlaskView`'s own members) into a route, as
//! `flask_classful.FlaskView.register` does:
//! - `index`/`get`/`post`/`put`/`patch`/`delete` serve `GET`/`GET`/`POST`/…
//!   at the base, followed by the method's positional parameters without
//!   defaults (`def get(self, id: int)` → `<int:id>`), minus `base_args`
//!   and the names in `route_base`;
//! - other methods serve `/<method name>` (dashed when `method_dashified`)
//!   followed by their parameters, with `@method('POST')` methods or the
//!   class's `default_methods` (else `GET`);
//! - `@route(rule, methods=[…])` replaces both: the rule under the base,
//!   without parameters appended;
//! - the base is `route_prefix` + `route_base` (default: the class name
//!   without a `View` suffix, dashed: `UserProfileView` → `user-profile`),
//!   duplicate slashes collapsed; `trailing_slash` (default `True`) adds or
//!   strips the final `/` of generated rules.
//!
//! Attributes are inherited along the Python MRO (C3), and keywords of
//! `register` override them.

use portolan_plugin_sdk::{Code, Param, SourceFile};
use std::ops::Range;

use super::facts::{AttrValue, Classy, ClassyReg, Member, MemberArg, MemberRule};
use crate::py::call::{method_call, methods_list, string_list, whole_dotted};
use crate::py::lines::LogicalLine;
use crate::py::module::{assignment_target, ModuleInfo};
use crate::py::outline::{Def, DefKind};
use crate::py::strexpr::StrExpr;

/// Class attributes flask-classful reads.
const ATTRS: [&str; 10] = [
    "schema_class",
    "schema_class_dict",
    "route_base",
    "route_prefix",
    "trailing_slash",
    "base_args",
    "excluded_methods",
    "method_dashified",
    "default_methods",
    "inspect_args",
];

/// Members of `FlaskView` itself: never routes (`dir(FlaskView)`).
pub const FLASKVIEW_MEMBERS: [&str; 17] = [
    "register",
    "parse_options",
    "make_proxy_method",
    "build_rule",
    "get_route_base",
    "default_route_base",
    "build_route_name",
    "decorators",
    "representations",
    "route_base",
    "route_prefix",
    "trailing_slash",
    "base_args",
    "excluded_methods",
    "method_dashified",
    "special_methods",
    "type_hints",
];

/// Method names served at the base, and their method.
pub fn special_method(name: &str) -> Option<&'static str> {
    Some(match name {
        "get" | "index" => "GET",
        "put" => "PUT",
        "patch" => "PATCH",
        "post" => "POST",
        "delete" => "DELETE",
        _ => return None,
    })
}

/// Local names of flask-classful's `route` and `method` decorators.
pub struct Decorators {
    route: Vec<String>,
    method: Vec<String>,
}

impl Decorators {
    pub fn new(info: &ModuleInfo) -> Decorators {
        let mut route = info.names_for("flask_classful", "route");
        let mut method = info.names_for("flask_classful", "method");
        for i in &info.imports {
            if i.level == 0 && i.module == "flask_classful" && i.name.is_none() {
                route.push(format!("{}.route", i.local));
                method.push(format!("{}.method", i.local));
            }
        }
        Decorators { route, method }
    }

    pub fn is_empty(&self) -> bool {
        self.route.is_empty() && self.method.is_empty()
    }
}

/// What flask-classful reads from the class `defs[index]`.
pub fn classy(
    file: &SourceFile,
    code: &Code<'_>,
    lines: &[LogicalLine],
    defs: &[Def],
    index: usize,
    decorators: &Decorators,
    params: &dyn Fn(Range<usize>) -> Vec<Param>,
) -> Option<Classy> {
    let class = defs.get(index).filter(|d| d.kind == DefKind::Class)?;
    let first = lines.partition_point(|l| l.start < class.body.start);
    let body: Vec<&LogicalLine> = lines[first..]
        .iter()
        .take_while(|l| l.end <= class.body.end)
        .filter(|l| l.indent > class.indent)
        .collect();
    let indent = body.iter().map(|l| l.indent).min();
    let mut attrs: Vec<(String, AttrValue)> = Vec::new();
    for line in body.iter().filter(|l| Some(l.indent) == indent) {
        let Some((name, value)) = assignment_target(code, line) else {
            continue;
        };
        if ATTRS.contains(&name.as_str()) {
            attrs.retain(|(n, _)| *n != name);
            attrs.push((name, attr_value(code, value..line.end)));
        }
    }
    let mut members = Vec::new();
    for def in defs
        .iter()
        .filter(|d| d.is_child_of(index) && d.kind == DefKind::Function)
    {
        if def.name.starts_with('_')
            || def.name.starts_with("before_")
            || def.name.starts_with("after_")
        {
            continue;
        }
        let mut rules = Vec::new();
        let mut http_methods = Vec::new();
        let mut routable = true;
        for deco in &def.decorators {
            let last = deco.name.rsplit('.').next().unwrap_or(&deco.name);
            if matches!(last, "classmethod" | "property" | "cached_property")
                || matches!(last, "setter" | "getter" | "deleter")
            {
                routable = false;
            }
            let Some(call) = &deco.call else { continue };
            // A bare `route` in a class body is flask-classful's, also
            // when re-exported by a module of the project.
            if decorators.route.contains(&call.callee) || call.callee == "route" {
                let Some(rule) = call.arg(0, "rule").and_then(|r| StrExpr::parse(code, r)) else {
                    continue;
                };
                rules.push(MemberRule {
                    line: file.line_of(deco.at),
                    rule,
                    methods: methods_list(code, call.keyword("methods")),
                });
            } else if decorators.method.contains(&call.callee) || call.callee == "method" {
                if let Some(m) = methods_list(code, call.arg(0, "method")) {
                    http_methods.extend(m);
                }
            }
        }
        if !routable {
            continue;
        }
        members.push(Member {
            name: def.name.clone(),
            line: file.line_of(def.start),
            args: positional_args(code, def),
            rules,
            http_methods,
            params: params(def.body.clone()),
        });
    }
    if attrs.is_empty() && members.is_empty() {
        return None;
    }
    Some(Classy { attrs, members })
}

/// A class attribute or keyword value.
fn attr_value(code: &Code<'_>, range: Range<usize>) -> AttrValue {
    let text = code.slice(range.clone()).trim();
    match text {
        "None" => return AttrValue::None,
        "True" => return AttrValue::Bool(true),
        "False" => return AttrValue::Bool(false),
        _ => {}
    }
    if let Some(list) = string_list(code, range.clone()) {
        let open = code.skip_ws(range.start);
        if matches!(code.text().as_bytes().get(open), Some(b'[' | b'(' | b'{')) {
            return AttrValue::List(list);
        }
    }
    if let Some(names) = dict_value_names(code, range.clone()) {
        return AttrValue::Names(names);
    }
    match StrExpr::parse(code, range) {
        Some(e) => AttrValue::Str(e),
        None => AttrValue::Other,
    }
}

/// The values of a dict literal whose values are all dotted names
/// (`{'web': WebSchema, 'plain': PlainSchema}`).
fn dict_value_names(code: &Code<'_>, range: Range<usize>) -> Option<Vec<String>> {
    let open = code.skip_ws(range.start);
    if code.text().as_bytes().get(open) != Some(&b'{') || !code.is_code(open) {
        return None;
    }
    let mut out = Vec::new();
    for item in code.args(open) {
        let parts = code.split_top_level(item.start, item.end, b':');
        let [_, value] = parts.as_slice() else {
            return None;
        };
        let start = code.skip_ws(value.start);
        let mut end = value.end;
        while end > start
            && code
                .text()
                .as_bytes()
                .get(end - 1)
                .is_some_and(|b| b.is_ascii_whitespace())
        {
            end -= 1;
        }
        out.push(whole_dotted(code, start..end)?);
    }
    (!out.is_empty()).then_some(out)
}

/// Positional parameters as `inspect.getfullargspec(...).args` lists them:
/// up to the first `*`, `*args` or `**kwargs`.
fn positional_args(code: &Code<'_>, def: &Def) -> Vec<MemberArg> {
    let Some(open) = def.open_paren else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for range in code.args(open) {
        let text = code.slice(range.clone()).trim_start();
        if text.starts_with('*') {
            break;
        }
        if text.starts_with('/') {
            continue;
        }
        let Some(name) = code.ident_at(code.skip_ws(range.start)).map(str::to_string) else {
            continue;
        };
        let after = code.skip_ws(code.skip_ws(range.start) + name.len());
        let (ty, default) = match code.text().as_bytes().get(after) {
            Some(b':') => {
                let parts = code.split_top_level(after + 1, range.end, b'=');
                let ty = parts
                    .first()
                    .and_then(|r| whole_dotted(code, r.clone()))
                    .map(|t| t.rsplit('.').next().unwrap_or(&t).to_string());
                (ty, parts.len() > 1)
            }
            Some(b'=') => (None, true),
            _ => (None, false),
        };
        out.push(MemberArg { name, ty, default });
    }
    out
}

/// `View.register(app, route_base=…, …)` calls.
pub fn registrations(code: &Code<'_>) -> Vec<ClassyReg> {
    let mut out = Vec::new();
    for at in code.find_all(".register(") {
        let Some(call) = method_call(code, at) else {
            continue;
        };
        let Some(class) = call.receiver() else {
            continue;
        };
        let Some(receiver) = call.arg(0, "app").and_then(|r| whole_dotted(code, r)) else {
            continue;
        };
        let options = call
            .args
            .iter()
            .filter_map(|a| {
                let name = a.name.as_ref()?;
                ATTRS
                    .contains(&name.as_str())
                    .then(|| (name.clone(), attr_value(code, a.value.clone())))
            })
            .collect();
        out.push(ClassyReg {
            class: class.to_string(),
            receiver,
            options,
        });
    }
    out
}

/// `somethingWithUppercase` → `something-with-uppercase` (flask-classful's
/// `_dashify_uppercase`, regex for regex).
pub fn dashify_uppercase(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    // `(.)([A-Z][a-z]+)` → `\1-\2`, scanning without overlap.
    let mut s1: Vec<char> = Vec::with_capacity(chars.len() + 4);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let upper_next = chars.get(i + 1).is_some_and(|c| c.is_ascii_uppercase());
        let lower_after = chars.get(i + 2).is_some_and(|c| c.is_ascii_lowercase());
        if upper_next && lower_after {
            s1.push(c);
            s1.push('-');
            s1.push(chars[i + 1]);
            let mut j = i + 2;
            while j < chars.len() && chars[j].is_ascii_lowercase() {
                s1.push(chars[j]);
                j += 1;
            }
            i = j;
        } else {
            s1.push(c);
            i += 1;
        }
    }
    // `([a-z0-9])([A-Z])` → `\1-\2`.
    let mut out = String::with_capacity(s1.len() + 4);
    let mut i = 0;
    while i < s1.len() {
        let c = s1[i];
        let next_upper = s1.get(i + 1).is_some_and(|c| c.is_ascii_uppercase());
        if (c.is_ascii_lowercase() || c.is_ascii_digit()) && next_upper {
            out.push(c);
            out.push('-');
            out.push(s1[i + 1]);
            i += 2;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out.to_lowercase()
}

/// The default `route_base` of a class.
pub fn default_route_base(class: &str) -> String {
    dashify_uppercase(class.strip_suffix("View").unwrap_or(class))
}

/// Placeholder names in a Werkzeug rule (`/<int:id>/<name>` → id, name).
pub fn rule_arguments(rule: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = rule;
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>') else {
            break;
        };
        let inner = &rest[open + 1..open + close];
        let name = inner.rsplit(':').next().unwrap_or(inner).trim();
        if !name.is_empty() {
            out.push(name.to_string());
        }
        rest = &rest[open + close + 1..];
    }
    out
}

/// How flask-classful builds rules for one registered class.
pub struct RuleBuilder {
    /// `route_prefix` when truthy.
    pub prefix: Option<String>,
    /// `route_base` stripped of slashes.
    pub base: String,
    /// Arguments never appended (`self`, `base_args`, names in `route_base`).
    pub ignored: Vec<String>,
    pub trailing_slash: bool,
    pub method_dashified: bool,
    pub default_methods: Option<Vec<String>>,
    pub inspect_args: bool,
}

impl RuleBuilder {
    /// `FlaskView.build_rule(rule, method)`.
    pub fn build(&self, rule: &str, args: Option<&[MemberArg]>) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some(p) = &self.prefix {
            parts.push(p.clone());
        }
        if !self.base.is_empty() {
            parts.push(self.base.clone());
        }
        if !rule.is_empty() {
            parts.push(rule.to_string());
        }
        if let Some(args) = args.filter(|_| self.inspect_args) {
            for a in args {
                if self.ignored.contains(&a.name) || a.default {
                    continue;
                }
                let converter = match a.ty.as_deref() {
                    Some("str") => Some("string"),
                    Some("int") => Some("int"),
                    Some("float") => Some("float"),
                    Some("UUID") => Some("uuid"),
                    _ => None,
                };
                parts.push(match converter {
                    Some(c) => format!("<{c}:{}>", a.name),
                    None => format!("<{}>", a.name),
                });
            }
        }
        collapse_slashes(&format!("/{}", parts.join("/")))
    }

    /// Every (methods, rule, line) a member serves.
    pub fn member_routes(&self, member: &Member) -> Vec<(Vec<String>, String, u32)> {
        if !member.rules.is_empty() {
            return member
                .rules
                .iter()
                .filter_map(|r| {
                    let rule = r.rule.literal()?;
                    let methods = r.methods.clone().unwrap_or_else(|| vec!["GET".into()]);
                    Some((methods, self.build(&rule, None), r.line))
                })
                .collect();
        }
        if let Some(method) = special_method(&member.name) {
            let mut rule = self.build("/", Some(&member.args));
            if !self.trailing_slash && rule != "/" {
                rule = rule.trim_end_matches('/').to_string();
            } else if self.trailing_slash && !rule.ends_with('/') {
                rule.push('/');
            }
            return vec![(vec![method.to_string()], rule, member.line)];
        }
        let methods = if !member.http_methods.is_empty() {
            member.http_methods.clone()
        } else {
            self.default_methods
                .clone()
                .unwrap_or_else(|| vec!["GET".into()])
        };
        let name = if self.method_dashified {
            member.name.replace('_', "-")
        } else {
            member.name.clone()
        };
        let route = if self.trailing_slash {
            format!("/{name}/")
        } else {
            format!("/{name}")
        };
        let mut rule = self.build(&route, Some(&member.args));
        if self.trailing_slash && !rule.ends_with('/') {
            rule.push('/');
        }
        vec![(methods, rule, member.line)]
    }
}

/// `re.sub(r'(/)\1+', r'\1', s)`.
fn collapse_slashes(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '/' && out.ends_with('/') {
            continue;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dashify_like_flask_classful() {
        assert_eq!(default_route_base("HostWorkspacedView"), "host-workspaced");
        assert_eq!(default_route_base("UserProfile"), "user-profile");
        assert_eq!(default_route_base("APIKeyView"), "api-key");
        assert_eq!(default_route_base("Items2View"), "items2");
        assert_eq!(default_route_base("View"), "");
        assert_eq!(
            dashify_uppercase("getHTTPResponseCode"),
            "get-http-response-code"
        );
        assert_eq!(dashify_uppercase("Éclair"), "éclair");
    }

    #[test]
    fn rules() {
        let b = RuleBuilder {
            prefix: Some("/v3/ws/<workspace_name>/".into()),
            base: "hosts".into(),
            ignored: vec!["self".into(), "workspace_name".into()],
            trailing_slash: false,
            method_dashified: false,
            default_methods: None,
            inspect_args: true,
        };
        let arg = |n: &str, ty: Option<&str>, default: bool| MemberArg {
            name: n.into(),
            ty: ty.map(str::to_string),
            default,
        };
        let get = Member {
            name: "get".into(),
            line: 1,
            args: vec![
                arg("self", None, false),
                arg("object_id", Some("int"), false),
                arg("workspace_name", None, true),
            ],
            rules: vec![],
            http_methods: vec![],
            params: vec![],
        };
        assert_eq!(
            b.member_routes(&get),
            vec![(
                vec!["GET".to_string()],
                "/v3/ws/<workspace_name>/hosts/<int:object_id>".to_string(),
                1
            )]
        );
        let count = Member {
            name: "count".into(),
            args: vec![arg("self", None, false), arg("workspace_name", None, false)],
            ..get.clone()
        };
        assert_eq!(
            b.member_routes(&count)[0].1,
            "/v3/ws/<workspace_name>/hosts/count"
        );
        let bulk = Member {
            name: "bulk_delete".into(),
            rules: vec![MemberRule {
                line: 7,
                rule: StrExpr::lit(""),
                methods: Some(vec!["DELETE".into()]),
            }],
            ..get.clone()
        };
        assert_eq!(
            b.member_routes(&bulk),
            vec![(
                vec!["DELETE".to_string()],
                "/v3/ws/<workspace_name>/hosts".to_string(),
                7
            )]
        );
        let slash = RuleBuilder {
            prefix: None,
            base: "users".into(),
            ignored: vec!["self".into()],
            trailing_slash: true,
            method_dashified: true,
            default_methods: None,
            inspect_args: true,
        };
        let index = Member {
            name: "index".into(),
            args: vec![arg("self", None, false)],
            ..get.clone()
        };
        assert_eq!(slash.member_routes(&index)[0].1, "/users/");
        let recent = Member {
            name: "recent_items".into(),
            args: vec![arg("self", None, false), arg("n", None, false)],
            ..get.clone()
        };
        assert_eq!(
            slash.member_routes(&recent)[0].1,
            "/users/recent-items/<n>/"
        );
        assert_eq!(rule_arguments("/a/<int:id>/<name>"), vec!["id", "name"]);
    }
}
