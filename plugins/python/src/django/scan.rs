//! Map step: read one module into a [`DjangoModule`].

use portolan_plugin_sdk::{Code, Param, ParamKind, SourceFile};
use std::ops::Range;

use super::facts::{
    Action, DjangoModule, NestedParent, Register, RouterObj, Target, UrlEntry, ViewClass, ViewFunc,
};
use crate::py::call::{call_at, methods_list, path_target_calls, string_list, whole_dotted, Call};
use crate::py::classes::class_info;
use crate::py::context::{guard_kind, Fact};
use crate::py::lines::{logical_lines, LogicalLine};
use crate::py::module::{assignment_target, ModuleInfo};
use crate::py::outline::{outline, Def, DefKind};
use crate::py::request::{find_word_in, request_params_with};
use crate::py::strexpr::{StrExpr, MAX_DEPTH};

/// Methods of class-based views and viewsets that handle requests.
pub const HANDLERS: [&str; 14] = [
    "get",
    "post",
    "put",
    "patch",
    "delete",
    "head",
    "options",
    "trace",
    "list",
    "create",
    "retrieve",
    "update",
    "partial_update",
    "destroy",
];

/// Methods of generic views whose request reads apply to GET (list and
/// retrieve): `self.request.query_params.get('status')` in `get_queryset`.
pub const QUERYSET_HOOKS: [&str; 3] = ["get_queryset", "filter_queryset", "get_object"];

const HTTP: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// What an attribute of Django's / DRF's `request` reads.
fn source(attr: &str) -> Option<ParamKind> {
    Some(match attr {
        "GET" | "query_params" => ParamKind::Query,
        "POST" => ParamKind::Form,
        "data" => ParamKind::Json,
        // Only through an alias: `data = json.loads(request.body)`.
        "body" => ParamKind::Json,
        "headers" => ParamKind::Header,
        "COOKIES" => ParamKind::Cookie,
        "FILES" => ParamKind::File,
        _ => return None,
    })
}

/// Read one module. Test files must be filtered out by the caller.
pub fn scan(file: &SourceFile) -> DjangoModule {
    let code = file.python();
    let lines = logical_lines(&code);
    let info = ModuleInfo::parse(&file.path, &code, &lines);
    let defs = outline(&code, &lines);
    let key = |e: &StrExpr| e.resolve(&mut |n| local_const(&info, n, 0));
    let names = ["request".to_string()];
    let params = |body: Range<usize>| -> Vec<Param> {
        let mut out = request_params_with(&code, body.clone(), &names, &key, &source, true);
        let meta = |a: &str| (a == "META").then_some(ParamKind::Header);
        for p in request_params_with(&code, body, &names, &key, &meta, true) {
            if let Some(h) = meta_header(&p.name) {
                if !out
                    .iter()
                    .any(|q| q.kind == ParamKind::Header && q.name == h)
                {
                    out.push(Param::header(h));
                }
            }
        }
        out
    };
    let mut module = DjangoModule::default();

    for line in &lines {
        url_list_line(&code, file, line, &mut module.entries);
        router_line(&code, line, &mut module.routers, &mut module.apps);
    }
    for c in path_target_calls(&code, ".register(", "prefix", "viewset") {
        module.registers.push(Register {
            router: c.receiver,
            line: file.line_of(c.start),
            prefix: c.path,
            viewset: c.target,
        });
    }

    // `viewset_t = type(name + 'ViewSet', (Mixin, ModelViewSet), attrs)`:
    // a viewset class made at run time (registered from a helper).
    for at in code.find_all("type(") {
        let Some(call) = call_at(&code, at).filter(|c| c.callee == "type") else {
            continue;
        };
        let idx = lines.partition_point(|l| l.start <= at);
        let Some(line) = idx
            .checked_sub(1)
            .and_then(|i| lines.get(i))
            .filter(|l| at < l.end)
        else {
            continue;
        };
        let Some((name, value)) = assignment_target(&code, line) else {
            continue;
        };
        if code.skip_ws(value) != call.start {
            continue;
        }
        let Some(bases_arg) = call.positional(1) else {
            continue;
        };
        let mut bases: Vec<String> = Vec::new();
        for part in code.split_top_level(bases_arg.start, bases_arg.end, b'+') {
            let open = code.skip_ws(part.start);
            if code.text().as_bytes().get(open) != Some(&b'(') {
                continue;
            }
            for item in code.args(open) {
                if let Some(b) = whole_dotted(&code, code.skip_ws(item.start)..item.end) {
                    push_unique(&mut bases, b);
                }
            }
        }
        if bases.is_empty() {
            continue;
        }
        match module.classes.iter_mut().find(|c| c.name == name) {
            Some(c) => bases.into_iter().for_each(|b| push_unique(&mut c.bases, b)),
            None => module.classes.push(ViewClass {
                name,
                bases,
                ..ViewClass::default()
            }),
        }
    }

    for (i, def) in defs.iter().enumerate() {
        match def.kind {
            DefKind::Function if def.parent.is_none() => {
                let f = view_func(&code, file, def, &params);
                let first = first_param(&code, def);
                if f.methods.is_some() || matches!(first.as_deref(), Some("request" | "req")) {
                    module.functions.push(f);
                }
            }
            DefKind::Class => {
                if let Some(c) = view_class(&code, file, &lines, &defs, i, &params) {
                    module.classes.push(c);
                }
            }
            _ => {}
        }
    }
    module.default_permissions = default_permissions(&code, file);
    module.info = info;
    module
}

/// `'DEFAULT_PERMISSION_CLASSES': [...]` (in `REST_FRAMEWORK` settings).
fn default_permissions(code: &Code<'_>, file: &SourceFile) -> Option<Vec<Fact>> {
    const KEY: &str = "DEFAULT_PERMISSION_CLASSES";
    let text = code.text();
    let at = text.find(KEY)?;
    let bytes = text.as_bytes();
    let mut i = at + KEY.len();
    if matches!(bytes.get(i), Some(b'\'' | b'"')) {
        i += 1;
    }
    let colon = code.skip_ws(i);
    if bytes.get(colon) != Some(&b':') {
        return None;
    }
    let open = code.skip_ws(colon + 1);
    if !matches!(bytes.get(open), Some(b'[' | b'(')) {
        return None;
    }
    let close = code.matching(open)?;
    Some(permission_list(code, file, open + 1..close))
}

/// `HTTP_X_API_KEY` → `X-Api-Key`; other `META` keys are not headers.
fn meta_header(key: &str) -> Option<String> {
    let rest = key.strip_prefix("HTTP_")?;
    let parts: Vec<String> = rest
        .split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let lower = p.to_ascii_lowercase();
            let mut c = lower.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("-"))
}

fn local_const(info: &ModuleInfo, name: &str, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    info.constant(name)?
        .value
        .resolve(&mut |n| local_const(info, n, depth + 1))
}

fn first_param(code: &Code<'_>, def: &Def) -> Option<String> {
    let open = def.open_paren?;
    let first = code.args(open).into_iter().next()?;
    code.ident_at(first.start).map(str::to_string)
}

/// The class a handler body instantiates with the request data:
/// `XSerializer(data=request.data)`, `self.XSerializer(obj, data=request.data,
/// partial=True)` → `XSerializer`.
fn validated_serializer(code: &Code<'_>, body: Range<usize>) -> Option<String> {
    let text = code.text().get(body.clone())?;
    // `payload = {**request.data, 'id': pk}` / `payload = request.data.copy()`
    // then `XSerializer(data=payload)`.
    // A Django form bound to the posted data: `XForm(request.POST)`,
    // `XForm(request.POST or None, request.FILES)`, `XForm(data=request.POST)`.
    let mut needles = vec!["data=request.data".to_string(), "request.POST".to_string()];
    let mut line_start = 0usize;
    for line in text.split_inclusive('\n') {
        let here = line_start;
        line_start += line.len();
        let t = line.trim_start();
        let Some((name, value)) = t.split_once('=') else {
            continue;
        };
        let name = name.trim_end();
        if name.is_empty()
            || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            || value.starts_with('=')
        {
            continue;
        }
        // The value, up to the bracket closing it when it opens one.
        let value_at = body.start + here + (line.len() - t.len()) + name.len();
        let open = code.skip_ws(code.skip_ws(value_at) + 1);
        let end = match code.text().as_bytes().get(open) {
            Some(b'{' | b'[' | b'(') => code.matching(open).unwrap_or(open),
            _ => body.start + line_start,
        };
        if code
            .text()
            .get(open..end.min(body.end))
            .is_some_and(|v| v.contains("request.data"))
        {
            let needle = format!("data={name}");
            if !needles.contains(&needle) {
                needles.push(needle);
            }
        }
    }
    let hits: Vec<(usize, usize)> = needles
        .iter()
        .flat_map(|n| {
            text.match_indices(n.as_str()).filter_map(move |(i, _)| {
                // The whole name: `data=payload` but not `data=payload_x`.
                let after = text.as_bytes().get(i + n.len());
                (!after.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_'))
                    .then_some((i, n.len()))
            })
        })
        .collect();
    for (i, _) in hits {
        let at = body.start + i;
        if !code.is_code(at) {
            continue;
        }
        // The innermost `(` still open before the keyword.
        let bytes = code.text().as_bytes();
        let mut depth = 0i32;
        let mut k = at;
        let open = loop {
            if k <= body.start || at - k > 400 {
                break None;
            }
            k -= 1;
            match bytes.get(k) {
                Some(b')' | b']' | b'}') => depth += 1,
                Some(b'(') if depth == 0 => break Some(k),
                Some(b'(' | b'[' | b'{') => depth -= 1,
                _ => {}
            }
        };
        let Some(open) = open else { continue };
        let mut start = open;
        while start > body.start
            && bytes
                .get(start - 1)
                .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
        {
            start -= 1;
        }
        let name = code.text().get(start..open)?;
        let name = name.strip_prefix("self.").unwrap_or(name);
        if name
            .rsplit('.')
            .next()
            .is_some_and(|l| l.ends_with("Serializer") || l.ends_with("Form"))
        {
            return Some(name.to_string());
        }
    }
    None
}

/// A function view: decorator methods, methods compared in the body, params.
fn view_func(
    code: &Code<'_>,
    file: &SourceFile,
    def: &Def,
    params: &dyn Fn(Range<usize>) -> Vec<Param>,
) -> ViewFunc {
    let mut methods: Option<Vec<String>> = None;
    let (guards, permissions) = decorator_guards(code, file, def);
    let drf = def
        .decorators
        .iter()
        .any(|d| d.name.rsplit('.').next() == Some("api_view"));
    for deco in &def.decorators {
        let last = deco.name.rsplit('.').next().unwrap_or(&deco.name);
        let found = match last {
            "require_GET" => Some(vec!["GET".to_string()]),
            "require_POST" => Some(vec!["POST".to_string()]),
            "require_safe" => Some(vec!["GET".to_string(), "HEAD".to_string()]),
            "require_http_methods" => deco
                .call
                .as_ref()
                .and_then(|c| methods_list(code, c.arg(0, "request_method_list"))),
            "api_view" => Some(
                deco.call
                    .as_ref()
                    .and_then(|c| methods_list(code, c.arg(0, "http_method_names")))
                    .unwrap_or_else(|| vec!["GET".to_string()]),
            ),
            _ => None,
        };
        if found.is_some() {
            methods = found;
        }
    }
    let params = params(def.body.clone());
    ViewFunc {
        name: def.name.clone(),
        methods,
        body_methods: body_methods(code, def.body.clone(), &params),
        params,
        serializer: validated_serializer(code, def.body.clone()),
        guards,
        permissions,
        drf,
    }
}

/// Fact line for `at`, the guard's name as written in `range`.
fn fact(code: &Code<'_>, file: &SourceFile, kind: &str, range: Range<usize>) -> Fact {
    Fact {
        kind: kind.to_string(),
        name: code.slice(range.clone()).trim().to_string(),
        line: file.line_of(range.start),
    }
}

/// DRF permission classes named in `range` (`[IsAuthenticated,
/// permissions.IsAdminUser]`, `('rest_framework.permissions.X',)`,
/// `IsAuthenticated & IsOwner`): one fact per class, `AllowAny` left out
/// (an empty result is an explicitly public view). `IsAuthenticated…`
/// is authentication, any other class authorization.
pub(crate) fn permission_list(
    code: &Code<'_>,
    file: &SourceFile,
    range: Range<usize>,
) -> Vec<Fact> {
    let text = code.slice(range.clone());
    let line = file.line_of(range.start);
    let mut out: Vec<Fact> = Vec::new();
    let words = text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'));
    for word in words {
        let name = word.rsplit('.').next().unwrap_or(word);
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) || name == "AllowAny" {
            continue;
        }
        let kind = if name.starts_with("IsAuthenticated") {
            "auth_guard"
        } else {
            "authz_guard"
        };
        if !out.iter().any(|f| f.name == name) {
            out.push(Fact {
                kind: kind.to_string(),
                name: name.to_string(),
                line,
            });
        }
    }
    out
}

/// Guards among a def's decorators, and DRF `@permission_classes([...])`.
fn decorator_guards(
    code: &Code<'_>,
    file: &SourceFile,
    def: &Def,
) -> (Vec<Fact>, Option<Vec<Fact>>) {
    let mut guards: Vec<Fact> = Vec::new();
    let mut permissions = None;
    for deco in &def.decorators {
        let last = deco.name.rsplit('.').next().unwrap_or(&deco.name);
        match (last, deco.call.as_ref()) {
            ("permission_classes", Some(c)) => {
                permissions = Some(permission_list(code, file, c.open + 1..c.close));
            }
            ("authentication_classes", _) => {}
            // `@method_decorator(login_required, name='dispatch')`,
            // `@method_decorator([login_required, never_cache])`.
            ("method_decorator", Some(c)) => {
                let Some(arg) = c.arg(0, "decorator") else {
                    continue;
                };
                let text = code.slice(arg.clone());
                let list = text.trim_start().starts_with(['[', '(']);
                if list {
                    for part in text.split([',', '[', ']', '(', ')']) {
                        if let Some(kind) = guard_kind(part.trim()) {
                            guards.push(Fact {
                                kind: kind.to_string(),
                                name: part.trim().to_string(),
                                line: file.line_of(deco.at),
                            });
                        }
                    }
                } else if let Some(kind) = guard_kind(text.trim()) {
                    guards.push(fact(code, file, kind, arg));
                }
            }
            _ => {
                if let Some(kind) = guard_kind(&deco.name) {
                    let end = deco
                        .call
                        .as_ref()
                        .map_or(deco.at + 1 + deco.name.len(), |c| c.close + 1);
                    guards.push(fact(
                        code,
                        file,
                        kind,
                        deco.at + 1..end.min(code.text().len()),
                    ));
                }
            }
        }
    }
    (guards, permissions)
}

/// Methods a body compares `request.method` with (`== 'POST'`, `in
/// ('PUT', 'PATCH')`), plus POST when it reads form data or files.
pub(crate) fn body_methods(code: &Code<'_>, body: Range<usize>, params: &[Param]) -> Vec<String> {
    let text = code.text();
    let mut out: Vec<String> = Vec::new();
    for occ in find_word_in(code, "request", body.clone()) {
        let after = occ + "request".len();
        if text.get(after..after + 7) != Some(".method") {
            continue;
        }
        let end = text
            .get(after..body.end)
            .and_then(|t| t.find(['\n', ':']))
            .map_or(body.end, |p| after + p);
        let Some(rest) = text.get(after..end) else {
            continue;
        };
        for m in HTTP {
            if (rest.contains(&format!("'{m}'")) || rest.contains(&format!("\"{m}\"")))
                && !out.iter().any(|o| o == m)
            {
                out.push(m.to_string());
            }
        }
    }
    if params
        .iter()
        .any(|p| matches!(p.kind, ParamKind::Form | ParamKind::File))
        && !out.iter().any(|o| o == "POST")
    {
        out.push("POST".to_string());
    }
    out
}

fn view_class(
    code: &Code<'_>,
    file: &SourceFile,
    lines: &[LogicalLine],
    defs: &[Def],
    index: usize,
    params: &dyn Fn(Range<usize>) -> Vec<Param>,
) -> Option<ViewClass> {
    let def = defs.get(index)?;
    let info = class_info(code, lines, defs, index)?;
    if info.bases.is_empty() {
        return None;
    }
    let mut class = ViewClass {
        name: def.name.clone(),
        bases: info.bases,
        ..ViewClass::default()
    };
    // Auth mixins among the bases, and class decorators.
    for base in &class.bases {
        let last = base.rsplit('.').next().unwrap_or(base);
        let kind = match last {
            "UserPassesTestMixin" => Some("authz_guard"),
            _ if last.ends_with("Mixin") => guard_kind(last),
            _ => None,
        };
        if let Some(kind) = kind.filter(|k| matches!(*k, "auth_guard" | "authz_guard")) {
            class.guards.push(Fact {
                kind: kind.to_string(),
                name: last.to_string(),
                line: file.line_of(def.start),
            });
        }
    }
    let (guards, _) = decorator_guards(code, file, def);
    class.guards.extend(guards);
    for child in defs.iter().filter(|d| d.is_child_of(index)) {
        if child.kind == DefKind::Class && child.name == "Meta" {
            meta_fields(code, lines, child, &mut class);
            continue;
        }
        if child.kind != DefKind::Function {
            continue;
        }
        if let Some(deco) = child.decorators.iter().find(|d| {
            d.name.rsplit('.').next() == Some("action") || d.name.ends_with("detail_route")
        }) {
            let call = deco.call.as_ref();
            let kw = |k: &str| call.and_then(|c| c.keyword(k));
            class.actions.push(Action {
                name: child.name.clone(),
                line: file.line_of(deco.at),
                detail: kw("detail").is_some_and(|r| code.slice(r).trim() == "True"),
                methods: methods_list(code, kw("methods")).unwrap_or_else(|| vec!["GET".into()]),
                url_path: kw("url_path")
                    .and_then(|r| code.string_at(r.start))
                    .map(|l| l.value),
                params: params(child.body.clone()),
                permissions: kw("permission_classes").map(|r| permission_list(code, file, r)),
                serializer: validated_serializer(code, child.body.clone()),
            });
            continue;
        }
        if HANDLERS.contains(&child.name.as_str()) || QUERYSET_HOOKS.contains(&child.name.as_str())
        {
            let p = params(child.body.clone());
            let (guards, _) = decorator_guards(code, file, child);
            class.funcs.push(ViewFunc {
                name: child.name.clone(),
                methods: None,
                body_methods: Vec::new(),
                params: p,
                serializer: validated_serializer(code, child.body.clone()),
                guards,
                permissions: None,
                drf: false,
            });
        } else if child.name == "dispatch" {
            // Decorators of `dispatch` guard every method.
            let (guards, _) = decorator_guards(code, file, child);
            class.guards.extend(guards);
        }
    }
    let mut read_only: Vec<String> = Vec::new();
    // Class attributes at the body's indentation.
    let first = lines.partition_point(|l| l.start < def.body.start);
    let body: Vec<&LogicalLine> = lines[first..]
        .iter()
        .take_while(|l| l.end <= def.body.end)
        .filter(|l| l.indent > def.indent)
        .collect();
    let indent = body.iter().map(|l| l.indent).min();
    for line in body.iter().filter(|l| Some(l.indent) == indent) {
        let Some((name, value)) = assignment_target(code, line) else {
            continue;
        };
        let value = value..line.end;
        let literal = || {
            code.string_at(code.skip_ws(value.start))
                .filter(|l| !l.interpolated)
                .map(|l| l.value)
        };
        match name.as_str() {
            "http_method_names" => class.http_method_names = methods_list(code, Some(value)),
            // `parser_classes = (MultiPartParser,)`: the body is a form.
            "parser_classes" => {
                let t = code.slice(value);
                class.form_body = (t.contains("MultiPartParser") || t.contains("FormParser"))
                    && !t.contains("JSONParser");
            }
            "filterset_class" | "filter_class" => {
                class.filterset = whole_dotted(code, code.skip_ws(value.start)..value.end)
            }
            "serializer_class" | "form_class" => {
                class.serializer = whole_dotted(code, code.skip_ws(value.start)..value.end)
            }
            "lookup_url_kwarg" => class.lookup = literal().or(class.lookup.take()),
            "lookup_field" => {
                if class.lookup.is_none() {
                    class.lookup = literal();
                }
            }
            "filterset_fields" | "filter_fields" => {
                for f in string_list(code, value).unwrap_or_default() {
                    push_unique(&mut class.query, f);
                }
            }
            "permission_classes" => class.permissions = Some(permission_list(code, file, value)),
            "search_fields" => push_unique(&mut class.query, "search".into()),
            "ordering_fields" => push_unique(&mut class.query, "ordering".into()),
            _ => {
                if let Some(call) = call_at(code, code.skip_ws(value.start)) {
                    if call.method().ends_with("Filter") && call.method() != "Filter" {
                        // django-filter: `status = filters.ChoiceFilter(...)`.
                        push_unique(&mut class.filters, name);
                    } else if is_writable_field(code, &call) {
                        push_unique(&mut class.fields, name);
                    } else if is_field(&call) {
                        // Declared read-only: not sent even if in `Meta.fields`.
                        read_only.push(name);
                    }
                }
            }
        }
    }
    class.fields.retain(|f| !read_only.contains(f));
    Some(class)
}

fn push_unique(out: &mut Vec<String>, s: String) {
    if !out.contains(&s) {
        out.push(s);
    }
}

/// A serializer or form field declaration (`serializers.CharField(...)`,
/// `forms.EmailField()`, a nested `UserSerializer()`).
fn is_field(call: &Call) -> bool {
    let last = call.method();
    last.ends_with("Field") || last.ends_with("Serializer")
}

/// A field the client may send (not read-only).
fn is_writable_field(code: &Code<'_>, call: &Call) -> bool {
    let last = call.method();
    let field = is_field(call)
        && !matches!(
            last,
            "SerializerMethodField" | "ReadOnlyField" | "HiddenField"
        );
    let read_only = call
        .keyword("read_only")
        .is_some_and(|r| code.slice(r).trim() == "True");
    field && !read_only
}

/// `class Meta: fields = [...]; read_only_fields = [...]`.
fn meta_fields(code: &Code<'_>, lines: &[LogicalLine], meta: &Def, class: &mut ViewClass) {
    let first = lines.partition_point(|l| l.start < meta.body.start);
    let mut fields = Vec::new();
    let mut read_only = vec!["id".to_string(), "pk".to_string(), "url".to_string()];
    for line in lines[first..]
        .iter()
        .take_while(|l| l.end <= meta.body.end)
        .filter(|l| l.indent > meta.indent)
    {
        let Some((name, value)) = assignment_target(code, line) else {
            continue;
        };
        let dict = code.text().as_bytes().get(code.skip_ws(value)) == Some(&b'{');
        if name == "fields" && (dict || class.bases.iter().any(|b| b.ends_with("FilterSet"))) {
            // A FilterSet's `Meta.fields`: a list, or a dict of lookups
            // (`{'price': ['lt', 'gt']}` → `price__lt`, `price__gt`).
            for f in filter_fields(code, value..line.end) {
                push_unique(&mut class.filters, f);
            }
            continue;
        }
        let list = string_list(code, value..line.end).unwrap_or_default();
        match name.as_str() {
            "fields" if list.iter().all(|f| f != "__all__") => fields = list,
            "read_only_fields" => read_only.extend(list),
            _ => {}
        }
    }
    for f in fields {
        if !read_only.contains(&f) {
            push_unique(&mut class.fields, f);
        }
    }
}

/// The query parameters of a FilterSet's `Meta.fields`.
fn filter_fields(code: &Code<'_>, value: Range<usize>) -> Vec<String> {
    if let Some(list) = string_list(code, value.clone()) {
        return list.into_iter().filter(|f| f != "__all__").collect();
    }
    let open = code.skip_ws(value.start);
    if code.text().as_bytes().get(open) != Some(&b'{') {
        return Vec::new();
    }
    let mut out = Vec::new();
    for item in code.args(open) {
        let parts = code.split_top_level(item.start, item.end, b':');
        let (Some(k), Some(v)) = (parts.first(), parts.get(1)) else {
            continue;
        };
        let Some(key) = code.string_at(code.skip_ws(k.start)).map(|l| l.value) else {
            continue;
        };
        for lookup in string_list(code, v.clone()).unwrap_or_default() {
            let name = if lookup == "exact" {
                key.clone()
            } else {
                format!("{key}__{lookup}")
            };
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// `name = DefaultRouter()` and friends.
fn router_line(
    code: &Code<'_>,
    line: &LogicalLine,
    out: &mut Vec<RouterObj>,
    apps: &mut Vec<String>,
) {
    let Some((name, value)) = assignment_target(code, line) else {
        return;
    };
    let Some(call) = call_at(code, code.skip_ws(value)) else {
        return;
    };
    if call.method() == "NinjaAPI" {
        apps.push(name.clone());
    }
    let method = call.method();
    // DRF's routers and project subclasses of them (`ApiRouter(
    // routers.DefaultRouter)`); not Ninja's `Router` nor FastAPI's
    // `APIRouter`.
    if method.ends_with("Router") && !matches!(method, "Router" | "APIRouter") {
        let trailing_slash = call
            .keyword("trailing_slash")
            .is_none_or(|r| code.slice(r).trim() != "False");
        let parent = if method.starts_with("Nested") {
            (|| {
                Some(NestedParent {
                    router: call
                        .arg(0, "parent_router")
                        .and_then(|r| whole_dotted(code, r))?,
                    prefix: StrExpr::parse(code, call.arg(1, "parent_prefix")?)?,
                    lookup: call
                        .keyword("lookup")
                        .and_then(|r| code.string_at(r.start))
                        .map(|l| l.value)?,
                })
            })()
        } else {
            None
        };
        out.push(RouterObj {
            name,
            trailing_slash,
            parent,
        });
    }
}

/// Statements that build lists of URL patterns: `NAME = [...]`, `NAME +=
/// [...]`, `NAME = a + [...]`, `NAME.append(path(...))`, `NAME.extend([...])`.
fn url_list_line(code: &Code<'_>, file: &SourceFile, line: &LogicalLine, out: &mut Vec<UrlEntry>) {
    let text = line.text(code);
    let Some(name) = code.ident_at(line.start).map(str::to_string) else {
        return;
    };
    let after = code.skip_inline_ws(line.start + name.len());
    let bytes = code.text().as_bytes();
    let value = if let Some((n, v)) = assignment_target(code, line) {
        if n != name {
            return;
        }
        v
    } else if bytes.get(after) == Some(&b'+') && bytes.get(after + 1) == Some(&b'=') {
        after + 2
    } else if text
        .get(name.len()..)
        .is_some_and(|t| t.starts_with(".append(") || t.starts_with(".extend("))
    {
        // `.append` and `.extend` have the same length.
        let open = line.start + name.len() + ".append".len();
        let Some(close) = code.matching(open) else {
            return;
        };
        expr_entries(code, file, &name, open + 1..close, out, 0);
        return;
    } else {
        return;
    };
    expr_entries(code, file, &name, code.skip_ws(value)..line.end, out, 0);
}

/// Entries of a pattern-list expression: list literals joined by `+`,
/// spliced names (`router.urls`), single calls.
fn expr_entries(
    code: &Code<'_>,
    file: &SourceFile,
    list: &str,
    range: Range<usize>,
    out: &mut Vec<UrlEntry>,
    depth: usize,
) {
    if depth > 8 {
        return;
    }
    let parts = code.split_top_level(range.start, range.end, b'+');
    let has_list = parts.iter().any(|p| {
        let s = code.skip_ws(p.start);
        code.is_code(s) && matches!(code.text().as_bytes().get(s), Some(b'['))
    });
    // A spliced name (`urlpatterns += router.urls`, `urlpatterns = a +
    // [...]`) only in something that is clearly a list of patterns.
    // Also `urls = urlpatterns + router_urls`: names only, one of which
    // reads like a pattern list.
    let names_only = parts
        .iter()
        .all(|p| whole_dotted(code, code.skip_ws(p.start)..p.end).is_some());
    let splice_ok = has_list
        || list.contains("pattern")
        || list.is_empty()
        || (names_only
            && parts.len() > 1
            && parts.iter().any(|p| {
                let t = code.slice(p.clone());
                t.contains("pattern") || t.ends_with("urls")
            }));
    for part in parts {
        let start = code.skip_ws(part.start);
        match code.text().as_bytes().get(start) {
            Some(b'[') | Some(b'(') if code.is_code(start) => {
                for item in code.args(start) {
                    if let Some(e) = entry(code, file, list, item, depth) {
                        out.push(e);
                    }
                }
            }
            _ => {
                if let Some(name) = whole_dotted(code, start..part.end)
                    .filter(|n| splice_ok || n.ends_with(".urls"))
                {
                    out.push(UrlEntry {
                        list: list.to_string(),
                        line: file.line_of(start),
                        route: StrExpr::lit(""),
                        regex: false,
                        target: Target::IncludeName(name),
                    });
                } else if let Some(e) = entry(code, file, list, start..part.end, depth) {
                    out.push(e);
                } else if let Some(call) = call_at(code, start)
                    .filter(|c| matches!(c.method(), "i18n_patterns" | "format_suffix_patterns"))
                {
                    // `i18n_patterns(path(...), ...)`: the wrapped patterns
                    // (without the language prefix, which is configuration);
                    // `format_suffix_patterns([...])` wraps a list.
                    for arg in call.args.iter().filter(|a| a.name.is_none()) {
                        expr_entries(code, file, list, arg.value.clone(), out, depth + 1);
                    }
                }
            }
        }
    }
}

/// One `path(...)` / `re_path(...)` / `url(...)` call.
fn entry(
    code: &Code<'_>,
    file: &SourceFile,
    list: &str,
    range: Range<usize>,
    depth: usize,
) -> Option<UrlEntry> {
    let call = call_at(code, code.skip_ws(range.start))?;
    let regex = match call.method() {
        "path" => false,
        "re_path" | "url" => true,
        _ => return None,
    };
    let route = StrExpr::parse(code, call.arg(0, "route")?)?;
    let target = call
        .arg(1, "view")
        .map_or(Target::None, |v| view_target(code, file, v, depth));
    Some(UrlEntry {
        list: list.to_string(),
        line: file.line_of(call.start),
        route,
        regex,
        target,
    })
}

fn view_target(code: &Code<'_>, file: &SourceFile, v: Range<usize>, depth: usize) -> Target {
    if depth > 8 {
        return Target::None;
    }
    if let Some(name) = whole_dotted(code, v.clone()) {
        if name.ends_with(".urls") {
            return Target::IncludeName(name);
        }
        return Target::View(name);
    }
    let Some(call) = call_at(code, v.start) else {
        // `(patterns, 'app', 'ns')` tuples passed directly.
        return Target::None;
    };
    match call.method() {
        "include" => {
            let Some(arg) = call.arg(0, "arg") else {
                return Target::None;
            };
            include_target(code, file, arg, depth)
        }
        "as_view" => {
            let Some(class) = call.receiver() else {
                return Target::None;
            };
            let actions = call
                .positional(0)
                .or_else(|| call.keyword("actions"))
                .and_then(|r| dict_pairs(code, r));
            Target::AsView {
                class: class.to_string(),
                actions,
            }
        }
        // Wrappers: `csrf_exempt(view)`, `login_required(View.as_view())`.
        _ => match call.positional(0) {
            Some(inner) => view_target(code, file, inner, depth + 1),
            None => Target::None,
        },
    }
}

fn include_target(code: &Code<'_>, file: &SourceFile, arg: Range<usize>, depth: usize) -> Target {
    let start = code.skip_ws(arg.start);
    let bytes = code.text().as_bytes();
    if let Some(lit) = code.string_at(start).filter(|l| l.start == start) {
        if !lit.interpolated {
            return Target::IncludeModule(StrExpr::lit(lit.value));
        }
    }
    match bytes.get(start) {
        Some(b'[') => {
            let mut inner = Vec::new();
            expr_entries(code, file, "", start..arg.end, &mut inner, depth + 1);
            Target::IncludeInline(inner)
        }
        Some(b'(') => match code.args(start).into_iter().next() {
            Some(first) => include_target(code, file, first, depth + 1),
            None => Target::None,
        },
        _ => match whole_dotted(code, start..arg.end) {
            Some(name) => Target::IncludeName(name),
            None => Target::None,
        },
    }
}

/// `{'get': 'list', 'post': 'create'}` → pairs (method upper-case, action).
fn dict_pairs(code: &Code<'_>, range: Range<usize>) -> Option<Vec<(String, String)>> {
    let open = code.skip_ws(range.start);
    if code.text().as_bytes().get(open) != Some(&b'{') {
        return None;
    }
    let mut out = Vec::new();
    for item in code.args(open) {
        let parts = code.split_top_level(item.start, item.end, b':');
        let (k, v) = (parts.first()?, parts.get(1)?);
        let key = code.string_at(k.start)?.value.to_ascii_uppercase();
        let value = code.string_at(v.start)?.value;
        out.push((key, value));
    }
    Some(out)
}
