//! Map step: controllers, DTO classes and bootstrap settings of one module.

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile, Syntax};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::OnceLock;

use crate::express::scan::paths_of;
use crate::js::module::{self, ModuleInfo};
use crate::js::outline::{methods, object_entries, Outline, ScopeKind};
use crate::js::request::request_params;
use crate::js::strexpr::StrExpr;
use crate::js::syntax::{ident_at, is_js_ident, matching_back};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NestModule {
    pub info: ModuleInfo,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<Controller>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dtos: Vec<Dto>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<Settings>,
    /// `@Module({ controllers: [...] })` classes: (module, controllers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modules: Vec<(String, Vec<String>)>,
    /// `RouterModule.register([{ path, module, children }])`, flattened:
    /// (module, path pieces from the root).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub router: Vec<(String, Vec<StrExpr>)>,
}

/// A version of `@Version`, `@Controller({ version })` or `defaultVersion`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ver {
    /// `VERSION_NEUTRAL`: no version segment.
    Neutral,
    Expr(StrExpr),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Controller {
    pub name: String,
    pub prefixes: Vec<StrExpr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versions: Option<Vec<Ver>>,
    pub routes: Vec<Route>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub line: u32,
    pub methods: Vec<String>,
    pub paths: Vec<StrExpr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versions: Option<Vec<Ver>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<ParamSpec>,
    /// `@UseGuards(…)` of the method and of its controller.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guards: Vec<Guard>,
}

/// A guard protecting a route: kind (`auth_guard`, `authz_guard`,
/// `rate_limit_guard`), the guard as written, its line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guard {
    pub kind: String,
    pub name: String,
    pub line: u32,
}

/// The guard kind a NestJS guard class (or `AuthGuard('jwt')`) stands for.
pub fn guard_kind(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    if lower.contains("throttl") || lower.contains("ratelimit") {
        return Some("rate_limit_guard");
    }
    if [
        "role",
        "permission",
        "polic",
        "abilit",
        "admin",
        "scope",
        "acl",
        "casl",
    ]
    .iter()
    .any(|w| lower.contains(w))
    {
        return Some("authz_guard");
    }
    if [
        "auth",
        "jwt",
        "login",
        "loggedin",
        "signedin",
        "apikey",
        "api_key",
        "token",
        "bearer",
        "passport",
        "sessionguard",
    ]
    .iter()
    .any(|w| lower.contains(w))
    {
        return Some("auth_guard");
    }
    None
}

/// The guards `@UseGuards(A, B)` decorators among `decos` name.
fn guards_of(file: &SourceFile, code: &Code<'_>, decos: &[Deco]) -> Vec<Guard> {
    let mut out: Vec<Guard> = Vec::new();
    for d in decos.iter().filter(|d| d.name == "UseGuards") {
        for a in &d.args {
            let name = code.slice(a.clone()).trim().to_string();
            let Some(kind) = guard_kind(&name) else {
                continue;
            };
            if !out.iter().any(|g| g.name == name) {
                out.push(Guard {
                    kind: kind.to_string(),
                    name,
                    line: file.line_of(d.at),
                });
            }
        }
    }
    out
}

/// A parameter, or the fields of a DTO type (resolved in `link`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ParamSpec {
    Direct(Param),
    Dto { kind: ParamKind, ty: String },
}

/// A class or interface whose fields describe a query, body or path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dto {
    pub name: String,
    pub fields: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bases: Vec<Base>,
}

/// `extends Base`, `extends PartialType(Base)`, `PickType(Base, ['a'])`,
/// `OmitType(Base, ['b'])`, `IntersectionType(A, B)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Base {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pick: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub omit: Vec<String>,
}

/// `app.setGlobalPrefix(…)` / `app.enableVersioning(…)` of a bootstrap file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<StrExpr>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<Exclude>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versioning: Option<Versioning>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exclude {
    pub path: String,
    /// Empty: every method.
    pub methods: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Versioning {
    /// URI versioning (the default type); other types leave paths alone.
    pub uri: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Vec<Ver>>,
    pub prefix: String,
}

/// A decorator `@Name(args)` (`args` empty without parentheses).
#[derive(Clone, Debug)]
pub struct Deco {
    pub name: String,
    /// Offset of the `@` (or of the name when written without it).
    pub at: usize,
    pub args: Vec<Range<usize>>,
}

pub const HTTP: &[(&str, &[&str])] = &[
    ("Get", &["GET"]),
    ("Post", &["POST"]),
    ("Put", &["PUT"]),
    ("Patch", &["PATCH"]),
    ("Delete", &["DELETE"]),
    ("Options", &["OPTIONS"]),
    ("Head", &["HEAD"]),
    ("All", &["GET", "POST", "PUT", "PATCH", "DELETE"]),
];

use crate::js::pattern::re;

/// The decorators written right before `start`, in source order.
pub fn decorators_before(code: &Code<'_>, start: usize) -> Vec<Deco> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    let mut i = start;
    loop {
        // Previous code byte.
        let mut p = i;
        let mut found = None;
        while p > 0 {
            p -= 1;
            if bytes[p].is_ascii_whitespace() || code.is_comment(p) {
                continue;
            }
            found = Some(p);
            break;
        }
        let Some(p) = found else { break };
        let (name_end, open) = if bytes[p] == b')' {
            let Some(open) = matching_back(code, p) else {
                break;
            };
            (open, Some(open))
        } else if is_js_ident(bytes[p]) {
            (p + 1, None)
        } else {
            break;
        };
        let mut s = name_end;
        while s > 0 && (is_js_ident(bytes[s - 1]) || bytes[s - 1] == b'.') {
            s -= 1;
        }
        if s == 0 || bytes[s - 1] != b'@' || s == name_end {
            break;
        }
        out.push(Deco {
            name: code.slice(s..name_end).to_string(),
            at: s - 1,
            args: open.map(|o| code.args(o)).unwrap_or_default(),
        });
        i = s - 1;
    }
    out.reverse();
    out
}

/// A decorator call `Name(args)` or `@Name(args)` at `r` (for `@Bind(…)`).
pub fn call_at(code: &Code<'_>, r: Range<usize>) -> Option<(Deco, usize)> {
    let bytes = code.text().as_bytes();
    let at = code.skip_ws(r.start);
    let mut s = at;
    if bytes.get(s) == Some(&b'@') {
        s += 1;
    }
    let mut e = s;
    while e < r.end && (is_js_ident(bytes[e]) || bytes[e] == b'.') {
        e += 1;
    }
    if e == s {
        return None;
    }
    let name = code.slice(s..e).to_string();
    let o = code.skip_ws(e);
    if bytes.get(o) == Some(&b'(') && o < r.end {
        let close = code.matching(o)?;
        Some((
            Deco {
                name,
                at,
                args: code.args(o),
            },
            close + 1,
        ))
    } else {
        Some((
            Deco {
                name,
                at,
                args: Vec::new(),
            },
            e,
        ))
    }
}

/// One parameter of a method: decorators, name, type.
pub struct MethodParam {
    pub decos: Vec<Deco>,
    pub name: String,
    pub ty: String,
    /// The type annotation as written (empty when none).
    pub raw: String,
}

pub fn method_params(code: &Code<'_>, r: Range<usize>) -> Vec<MethodParam> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    // Commas inside type arguments (`Omit<Product, 'id'>`) do not split.
    let mut pieces: Vec<Range<usize>> = Vec::new();
    for a in code.split_top_level(r.start, r.end, b',') {
        match pieces.last_mut() {
            Some(last) if unbalanced_angles(code.slice(last.clone())) => last.end = a.end,
            _ => pieces.push(a),
        }
    }
    for a in pieces {
        let mut s = code.skip_ws(a.start);
        let mut decos = Vec::new();
        while bytes.get(s) == Some(&b'@') && s < a.end {
            let Some((d, end)) = call_at(code, s..a.end) else {
                break;
            };
            decos.push(d);
            s = code.skip_ws(end);
        }
        while let Some(w) = ident_at(code, s) {
            let word = code.slice(w.clone());
            let after = code.skip_ws(w.end);
            if matches!(word, "private" | "public" | "protected" | "readonly")
                && bytes.get(after).is_some_and(|b| is_js_ident(*b))
            {
                s = after;
            } else {
                break;
            }
        }
        let Some(n) = ident_at(code, s) else {
            out.push(MethodParam {
                decos,
                name: String::new(),
                ty: String::new(),
                raw: String::new(),
            });
            continue;
        };
        let name = code.slice(n.clone()).to_string();
        let mut t = code.skip_ws(n.end);
        if bytes.get(t) == Some(&b'?') {
            t = code.skip_ws(t + 1);
        }
        let raw = if bytes.get(t) == Some(&b':') && t < a.end {
            let end = code
                .split_top_level(t + 1, a.end, b'=')
                .first()
                .map_or(a.end, |x| x.end);
            code.slice(t + 1..end).trim().to_string()
        } else {
            String::new()
        };
        let ty = type_name(&raw);
        out.push(MethodParam {
            decos,
            name,
            ty,
            raw,
        });
    }
    out
}

/// More `<` than `>` (arrows `=>` aside).
fn unbalanced_angles(s: &str) -> bool {
    let opens = s.matches('<').count();
    let closes = s.matches('>').count() - s.matches("=>").count();
    opens > closes
}

/// `CreateDto[]` / `Array<CreateDto>` / `dto.CreateDto` → the class name.
pub fn type_name(t: &str) -> String {
    let t = t.trim();
    let t = t
        .strip_prefix("Array<")
        .and_then(|x| x.strip_suffix('>'))
        .unwrap_or(t)
        .trim();
    let name: String = t
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$' || *c == '.')
        .collect();
    let rest = t[name.len()..].trim();
    if !(rest.is_empty() || rest == "[]") {
        return String::new();
    }
    match name.as_str() {
        "" | "string" | "number" | "boolean" | "any" | "unknown" | "object" | "Object"
        | "Record" | "String" | "Number" | "Boolean" | "Date" => String::new(),
        _ => name,
    }
}

fn string_arg(code: &Code<'_>, r: &Range<usize>) -> Option<String> {
    let lit = code.string_at(r.start)?;
    (code.skip_ws(lit.end) >= r.end).then_some(lit.value)
}

/// Versions: a string, a constant, an array of them, `VERSION_NEUTRAL`.
fn versions_of(code: &Code<'_>, outline: &Outline, r: Range<usize>) -> Vec<Ver> {
    let bytes = code.text().as_bytes();
    let s = code.skip_ws(r.start);
    let items = if bytes.get(s) == Some(&b'[') {
        code.args(s)
    } else {
        vec![r]
    };
    items
        .into_iter()
        .filter_map(|x| {
            let t = code.slice(x.clone()).trim();
            if t == "VERSION_NEUTRAL" || t.ends_with(".VERSION_NEUTRAL") {
                return Some(Ver::Neutral);
            }
            StrExpr::parse(code, x.clone())
                .map(|e| Ver::Expr(e.map_refs(&mut |n| outline.scoped(n, x.start))))
        })
        .collect()
}

pub fn scan(file: &SourceFile) -> NestModule {
    let code = file.code(Syntax::JAVASCRIPT);
    let outline = module::outline(file, &code);
    let info = module::scanned(file, &code, &outline);
    let mut out = NestModule::default();
    let bytes = code.text().as_bytes();
    for scope in outline.scopes.iter().filter(|s| s.kind == ScopeKind::Class) {
        let decos = decorators_before(&code, scope.start);
        if let Some(m) = decos.iter().find(|d| d.name == "Module") {
            if let Some(o) = m.args.first().map(|a| code.skip_ws(a.start)) {
                if bytes.get(o) == Some(&b'{') {
                    if let Some(e) = object_entries(&code, o)
                        .into_iter()
                        .find(|e| e.key == "controllers")
                    {
                        let s = code.skip_ws(e.value.start);
                        if bytes.get(s) == Some(&b'[') {
                            let names: Vec<String> = code
                                .args(s)
                                .into_iter()
                                .filter_map(|a| match module::parse_value(&code, &outline, a) {
                                    Some(module::Value::Name(n)) => Some(n),
                                    _ => None,
                                })
                                .collect();
                            out.modules.push((scope.name.clone(), names));
                        }
                    }
                }
            }
        }
        if let Some(ctrl) = decos.iter().find(|d| d.name == "Controller") {
            out.controllers
                .push(controller(file, &code, &outline, scope, ctrl, &decos));
        }
    }
    out.dtos = dtos(&code, &outline);
    // `RouterModule.register([...])` / `RouterModule.forRoutes([...])`.
    static ROUTER: OnceLock<Regex> = OnceLock::new();
    let router = re(
        &ROUTER,
        r"\bRouterModule\s*\.\s*(?:register|forRoutes)\s*\(",
    );
    for m in router.find_iter(code.text()) {
        if !code.is_code(m.start()) {
            continue;
        }
        if let Some(a) = code.args(m.end() - 1).first() {
            router_tree(&code, &outline, a.clone(), &[], &mut out.router, 0);
        }
    }
    // Bootstrap settings.
    static SET: OnceLock<Regex> = OnceLock::new();
    let set = re(&SET, r"\.\s*(setGlobalPrefix|enableVersioning)\s*\(");
    let mut settings = Settings::default();
    let mut any = false;
    for c in set.captures_iter(code.text()) {
        let (Some(all), Some(m)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if !code.is_code(all.start()) {
            continue;
        }
        any = true;
        let args = code.args(all.end() - 1);
        if m.as_str() == "setGlobalPrefix" {
            let Some(first) = args.first() else { continue };
            settings.prefix = StrExpr::parse(&code, first.clone())
                .map(|e| e.map_refs(&mut |n| outline.scoped(n, first.start)));
            if let Some(opts) = args.get(1) {
                settings.exclude = excludes(&code, opts.clone());
            }
        } else {
            let mut v = Versioning {
                uri: true,
                default: None,
                prefix: "v".into(),
            };
            if let Some(opts) = args.first() {
                let o = code.skip_ws(opts.start);
                if bytes.get(o) == Some(&b'{') {
                    for e in object_entries(&code, o) {
                        let value = code.slice(e.value.clone()).trim();
                        match e.key.as_str() {
                            "type" => v.uri = value.ends_with("URI"),
                            "defaultVersion" => {
                                v.default = Some(versions_of(&code, &outline, e.value.clone()))
                            }
                            "prefix" => {
                                v.prefix = string_arg(&code, &e.value).unwrap_or_default();
                            }
                            _ => {}
                        }
                    }
                }
            }
            settings.versioning = Some(v);
        }
    }
    if any {
        out.settings.push(settings);
    }
    out.info = (*info).clone();
    out
}

/// Classes, interfaces and object type aliases with their fields and
/// bases: what DTO type names denote.
pub fn dtos(code: &Code<'_>, outline: &Outline) -> Vec<Dto> {
    let mut out: Vec<Dto> = Vec::new();
    for scope in outline.scopes.iter().filter(|s| s.kind == ScopeKind::Class) {
        let header = code.slice(scope.start..scope.body.start.saturating_sub(1));
        out.push(Dto {
            name: scope.name.clone(),
            fields: fields(code, outline, scope.body.clone()),
            bases: bases(code, header, scope.start),
        });
    }
    // Interfaces and object type aliases also describe DTOs.
    static IFACE: OnceLock<Regex> = OnceLock::new();
    let iface = re(
        &IFACE,
        r"\b(?:interface\s+([A-Za-z_$][\w$]*)[^{;=]*|type\s+([A-Za-z_$][\w$]*)\s*=\s*)\{",
    );
    for c in iface.captures_iter(code.text()) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1).or(c.get(2))) else {
            continue;
        };
        if !code.is_code(all.start()) || !outline.is_top(all.start()) {
            continue;
        }
        let open = all.end() - 1;
        let Some(close) = code.matching(open) else {
            continue;
        };
        let header = code.slice(all.start()..open);
        out.push(Dto {
            name: name.as_str().to_string(),
            fields: fields(code, outline, open + 1..close),
            bases: bases(code, header, all.start()),
        });
    }
    out.retain(|d| !d.fields.is_empty() || !d.bases.is_empty());
    out
}

/// `{ exclude: ['health', { path: 'x', method: RequestMethod.GET }] }`.
fn excludes(code: &Code<'_>, r: Range<usize>) -> Vec<Exclude> {
    let bytes = code.text().as_bytes();
    let o = code.skip_ws(r.start);
    if bytes.get(o) != Some(&b'{') {
        return Vec::new();
    }
    let mut out = Vec::new();
    for e in object_entries(code, o) {
        if e.key != "exclude" {
            continue;
        }
        let s = code.skip_ws(e.value.start);
        if bytes.get(s) != Some(&b'[') {
            continue;
        }
        for item in code.args(s) {
            let i = code.skip_ws(item.start);
            if let Some(p) = string_arg(code, &item) {
                out.push(Exclude {
                    path: p,
                    methods: Vec::new(),
                });
            } else if bytes.get(i) == Some(&b'{') {
                let mut path = None;
                let mut methods = Vec::new();
                for x in object_entries(code, i) {
                    match x.key.as_str() {
                        "path" => path = string_arg(code, &x.value),
                        "method" => {
                            let m = code.slice(x.value.clone()).trim();
                            let m = m.rsplit('.').next().unwrap_or(m).to_ascii_uppercase();
                            if m != "ALL" {
                                methods.push(m);
                            }
                        }
                        _ => {}
                    }
                }
                if let Some(path) = path {
                    out.push(Exclude { path, methods });
                }
            }
        }
    }
    out
}

fn controller(
    file: &SourceFile,
    code: &Code<'_>,
    outline: &Outline,
    scope: &crate::js::outline::Scope,
    ctrl: &Deco,
    decos: &[Deco],
) -> Controller {
    let bytes = code.text().as_bytes();
    let mut prefixes = Vec::new();
    let mut versions = None;
    if let Some(first) = ctrl.args.first() {
        let s = code.skip_ws(first.start);
        if bytes.get(s) == Some(&b'{') {
            for e in object_entries(code, s) {
                match e.key.as_str() {
                    "path" => prefixes = paths_of(code, outline, e.value.clone()),
                    "version" => versions = Some(versions_of(code, outline, e.value.clone())),
                    _ => {}
                }
            }
        } else {
            prefixes = paths_of(code, outline, first.clone());
        }
    }
    if prefixes.is_empty() {
        prefixes.push(StrExpr::lit(""));
    }
    if let Some(v) = decos.iter().find(|d| d.name == "Version") {
        if let Some(a) = v.args.first() {
            versions = Some(versions_of(code, outline, a.clone()));
        }
    }
    let mut routes = Vec::new();
    let class_guards = guards_of(file, code, decos);
    for m in methods(code, outline, scope.body.clone()) {
        let decos = decorators_before(code, m.start);
        let mut verbs: Vec<(&Deco, &[&str])> = Vec::new();
        for d in &decos {
            if let Some((_, ms)) = HTTP.iter().find(|(n, _)| *n == d.name) {
                verbs.push((d, ms));
            }
        }
        if verbs.is_empty() {
            continue;
        }
        let versions = decos
            .iter()
            .find(|d| d.name == "Version")
            .and_then(|d| d.args.first())
            .map(|a| versions_of(code, outline, a.clone()));
        let params = route_params(code, &decos, m.params.clone(), m.body.clone());
        let mut guards = class_guards.clone();
        for g in guards_of(file, code, &decos) {
            if !guards.iter().any(|o| o.name == g.name) {
                guards.push(g);
            }
        }
        for (d, ms) in verbs {
            let paths = match d.args.first() {
                Some(a) => paths_of(code, outline, a.clone()),
                None => vec![StrExpr::lit("")],
            };
            if paths.is_empty() {
                continue;
            }
            routes.push(Route {
                line: file.line_of(d.at),
                methods: ms.iter().map(|s| s.to_string()).collect(),
                paths,
                versions: versions.clone(),
                params: params.clone(),
                guards: guards.clone(),
            });
        }
    }
    Controller {
        name: scope.name.clone(),
        prefixes,
        versions,
        routes,
    }
}

/// Field names of file-upload interceptors among method decorators.
fn upload_fields(code: &Code<'_>, decos: &[Deco]) -> Vec<String> {
    let mut out = Vec::new();
    for d in decos.iter().filter(|d| d.name == "UseInterceptors") {
        for a in &d.args {
            let Some((inner, _)) = call_at(code, a.clone()) else {
                continue;
            };
            match inner.name.as_str() {
                "FileInterceptor" | "FilesInterceptor" => {
                    if let Some(n) = inner.args.first().and_then(|x| string_arg(code, x)) {
                        out.push(n);
                    }
                }
                "FileFieldsInterceptor" => {
                    let Some(arr) = inner.args.first() else {
                        continue;
                    };
                    let s = code.skip_ws(arr.start);
                    if code.text().as_bytes().get(s) != Some(&b'[') {
                        continue;
                    }
                    for item in code.args(s) {
                        let i = code.skip_ws(item.start);
                        for e in object_entries(code, i) {
                            if e.key == "name" {
                                out.extend(string_arg(code, &e.value));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

fn route_params(
    code: &Code<'_>,
    decos: &[Deco],
    params: Range<usize>,
    body: Range<usize>,
) -> Vec<ParamSpec> {
    let mut ps = method_params(code, params);
    // JavaScript: `@Bind(Req(), Param('id'))` decorates parameters by position.
    if let Some(bind) = decos.iter().find(|d| d.name == "Bind") {
        for (i, a) in bind.args.iter().enumerate() {
            if let (Some((d, _)), Some(p)) = (call_at(code, a.clone()), ps.get_mut(i)) {
                p.decos.push(d);
            }
        }
    }
    let uploads = upload_fields(code, decos);
    let mut out: Vec<ParamSpec> = Vec::new();
    let mut push = |s: ParamSpec| {
        if !out.contains(&s) {
            out.push(s);
        }
    };
    for p in &ps {
        for d in &p.decos {
            let named = d.args.first().and_then(|a| string_arg(code, a));
            let kind = match d.name.as_str() {
                "Query" => ParamKind::Query,
                "Body" => ParamKind::Json,
                "Param" => ParamKind::Path,
                "Headers" => ParamKind::Header,
                "Cookies" | "Cookie" => ParamKind::Cookie,
                "UploadedFile" | "UploadedFiles" => {
                    if uploads.is_empty() {
                        push(ParamSpec::Direct(Param::file(p.name.clone())));
                    }
                    for u in &uploads {
                        push(ParamSpec::Direct(Param::file(u.clone())));
                    }
                    continue;
                }
                "Req" | "Request" => {
                    for x in request_params(code, body.clone(), &p.name) {
                        push(ParamSpec::Direct(x));
                    }
                    continue;
                }
                _ => continue,
            };
            match named {
                Some(n) => push(ParamSpec::Direct(Param::new(kind, n))),
                None if !p.ty.is_empty() && kind != ParamKind::Header => push(ParamSpec::Dto {
                    kind,
                    ty: p.ty.clone(),
                }),
                None => {}
            }
        }
    }
    out
}

/// Field names of a class or interface body (methods, constructors and
/// static members excluded).
pub fn fields(code: &Code<'_>, outline: &Outline, body: Range<usize>) -> Vec<String> {
    let bytes = code.text().as_bytes();
    let Some(&base) = outline.depth.get(body.start) else {
        return Vec::new();
    };
    let at_base = |i: usize| outline.depth.get(i) == Some(&base);
    let mut out: Vec<String> = Vec::new();
    let mut i = code.skip_ws(body.start);
    while i < body.end {
        if bytes[i] == b'@' {
            match call_at(code, i..body.end) {
                Some((_, end)) => {
                    i = code.skip_ws(end);
                    continue;
                }
                None => {
                    i += 1;
                    continue;
                }
            }
        }
        if bytes[i] == b';' || bytes[i] == b',' || !code.is_code(i) {
            i = code.skip_ws(i + 1);
            continue;
        }
        let Some(w) = ident_at(code, i) else {
            // Skip an unknown token (index signature, …) to the member end.
            i = member_end(code, &at_base, i, body.end);
            continue;
        };
        let word = code.slice(w.clone()).to_string();
        let after = code.skip_ws(w.end);
        let next = bytes.get(after).copied().unwrap_or(b';');
        if matches!(
            word.as_str(),
            "public"
                | "private"
                | "protected"
                | "readonly"
                | "declare"
                | "abstract"
                | "override"
                | "async"
                | "get"
                | "set"
                | "accessor"
        ) && (is_js_ident(next) || next == b'[' || next == b'#')
        {
            i = after;
            continue;
        }
        if word == "static" && is_js_ident(next) {
            // Skip the whole static member.
            i = member_end(code, &at_base, after, body.end);
            continue;
        }
        let mut k = after;
        if matches!(bytes.get(k), Some(b'?') | Some(b'!')) {
            k = code.skip_ws(k + 1);
        }
        match bytes.get(k) {
            Some(b':') | Some(b'=') | Some(b';') | Some(b',') | Some(b'}') | None
                if word != "constructor" =>
            {
                if !out.contains(&word) {
                    out.push(word);
                }
                i = member_end(code, &at_base, k, body.end);
            }
            _ if k >= body.end => {
                if !out.contains(&word) && word != "constructor" {
                    out.push(word);
                }
                break;
            }
            _ => {
                i = member_end(code, &at_base, k, body.end);
            }
        }
    }
    out
}

/// The end of a class member starting near `i`: after its body braces for
/// a method, at the `;` or newline ending a field.
fn member_end(code: &Code<'_>, at_base: &dyn Fn(usize) -> bool, i: usize, end: usize) -> usize {
    let bytes = code.text().as_bytes();
    let mut j = i;
    while j < end {
        let b = bytes[j];
        if code.is_code(j) && at_base(j) {
            match b {
                b';' | b',' => return code.skip_ws(j + 1),
                b'\n' => {
                    // A field ends at a newline unless the expression goes on.
                    let n = code.skip_ws(j);
                    let prev = code.text()[i..j].trim_end();
                    let cont = prev.ends_with([':', '=', '|', '&', ',', '>', '<'])
                        || matches!(
                            bytes.get(n),
                            Some(b'|') | Some(b'&') | Some(b'=') | Some(b'{') | Some(b'.')
                        );
                    if !cont {
                        return n;
                    }
                }
                b'{' => {
                    // Method body or object type: skip it; a method ends here.
                    let Some(c) = code.matching(j) else {
                        return end;
                    };
                    let before = code.text()[i..j].trim_end();
                    if before.ends_with(')') || before.ends_with('>') && before.contains(')') {
                        return code.skip_ws(c + 1);
                    }
                    j = c + 1;
                    continue;
                }
                _ => {}
            }
        }
        j += 1;
    }
    end
}

/// Base classes from a class header (`class A extends PartialType(B)`) or
/// interface header (`interface A extends B, C`).
pub fn bases(code: &Code<'_>, header: &str, start: usize) -> Vec<Base> {
    let Some(k) = header
        .match_indices("extends")
        .map(|(i, _)| i)
        .find(|&i| i > 0 && header.as_bytes()[i - 1].is_ascii_whitespace())
    else {
        return Vec::new();
    };
    let s = start + k + "extends".len();
    let mut e = start + header.len();
    if let Some(imp) = header[k..].find(" implements ") {
        e = start + k + imp;
    }
    let mut out = Vec::new();
    for r in code.split_top_level(s, e, b',') {
        base_of(code, r, &mut out);
    }
    out
}

fn base_of(code: &Code<'_>, r: Range<usize>, out: &mut Vec<Base>) {
    let Some((d, _)) = call_at(code, r.clone()) else {
        return;
    };
    let list = |a: Option<&Range<usize>>| -> Vec<String> {
        let Some(a) = a else { return Vec::new() };
        let s = code.skip_ws(a.start);
        if code.text().as_bytes().get(s) != Some(&b'[') {
            return Vec::new();
        }
        code.args(s)
            .iter()
            .filter_map(|x| code.string_at(x.start).map(|l| l.value))
            .collect()
    };
    let generic = code.slice(r.clone()).trim_start().starts_with(&d.name)
        && !code.slice(r.clone()).contains('(');
    if generic {
        // `extends Base<T>` / `extends Base`.
        out.push(Base {
            name: d.name,
            pick: None,
            omit: Vec::new(),
        });
        return;
    }
    let inner = |out: &mut Vec<Base>, a: Option<&Range<usize>>| -> Vec<usize> {
        let n = out.len();
        if let Some(a) = a {
            base_of(code, a.clone(), out);
        }
        (n..out.len()).collect()
    };
    match d.name.as_str() {
        "PartialType" => {
            inner(out, d.args.first());
        }
        "PickType" => {
            let keep = list(d.args.get(1));
            for i in inner(out, d.args.first()) {
                out[i].pick = Some(keep.clone());
            }
        }
        "OmitType" => {
            let drop = list(d.args.get(1));
            for i in inner(out, d.args.first()) {
                out[i].omit.extend(drop.iter().cloned());
            }
        }
        "IntersectionType" => {
            for a in &d.args {
                inner(out, Some(a));
            }
        }
        _ => {}
    }
}

/// Flatten a `RouterModule` routes array at `r` under `base`.
fn router_tree(
    code: &Code<'_>,
    outline: &Outline,
    r: Range<usize>,
    base: &[StrExpr],
    out: &mut Vec<(String, Vec<StrExpr>)>,
    depth: usize,
) {
    let bytes = code.text().as_bytes();
    let s = code.skip_ws(r.start);
    if depth > 8 || bytes.get(s) != Some(&b'[') {
        return;
    }
    for item in code.args(s) {
        let i = code.skip_ws(item.start);
        if bytes.get(i) != Some(&b'{') {
            // `children: [CatsModule]`: the module at its parent's path.
            if let Some(module::Value::Name(n)) = module::parse_value(code, outline, item) {
                out.push((n, base.to_vec()));
            }
            continue;
        }
        let es = object_entries(code, i);
        let mut path = base.to_vec();
        if let Some(p) = es.iter().find(|e| e.key == "path") {
            if let Some(x) = StrExpr::parse(code, p.value.clone()) {
                path.push(x.map_refs(&mut |n| outline.scoped(n, i)));
            }
        }
        if let Some(m) = es.iter().find(|e| e.key == "module") {
            if let Some(module::Value::Name(n)) =
                module::parse_value(code, outline, m.value.clone())
            {
                out.push((n, path.clone()));
            }
        }
        if let Some(c) = es.iter().find(|e| e.key == "children") {
            router_tree(code, outline, c.value.clone(), &path, out, depth + 1);
        }
    }
}
