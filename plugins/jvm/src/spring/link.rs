//! Link step: controllers with their inherited mappings, class prefixes,
//! context paths, Feign clients and functional routes.

use portolan_plugin_sdk::prelude::*;
use std::borrow::Cow;
use std::collections::HashMap;

use super::builder::{self, Builder};
use super::params::{method_params, Consumes};
use super::scan::{DocHelper, DynamicNest, Fact, HandlerReads, Provider, RouterRoute};
use crate::jvm::config::{resolve_placeholders, ConfigDoc, Configs};
use crate::jvm::index::{Index, TypeId};
use crate::jvm::lambda::Read;
use crate::jvm::outline::{find, AnnArg, Annotation, JFile, Lang, Method, TypeKind};

/// Methods of a `@RequestMapping` without `method`.
pub const ANY_METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// Context-path keys (relaxed), outermost first.
const PREFIX_KEYS: [&[&str]; 3] = [
    &["server.servlet.context-path", "server.context-path"],
    &["spring.mvc.servlet.path", "server.servlet-path"],
    &["spring.webflux.base-path"],
];

fn shortcut(name: &str) -> Option<&'static str> {
    Some(match name {
        "GetMapping" => "GET",
        "PostMapping" => "POST",
        "PutMapping" => "PUT",
        "PatchMapping" => "PATCH",
        "DeleteMapping" => "DELETE",
        _ => return None,
    })
}

/// A mapping annotation (`@RequestMapping` or a shortcut).
fn mapping(anns: &[Annotation]) -> Option<&Annotation> {
    anns.iter()
        .find(|a| a.name == "RequestMapping" || shortcut(&a.name).is_some())
}

struct Linker<'a> {
    idx: Index<'a>,
    cfg: Configs,
    /// Request reads of methods taking the request object, by (class,
    /// method): `request.getHeader("X")` in a controller method.
    reads: HashMap<(&'a str, &'a str), &'a HandlerReads>,
}

pub fn link(facts: Vec<Fact>, lang: Lang) -> Vec<Endpoint> {
    let mut files: Vec<JFile> = Vec::new();
    let mut docs: Vec<ConfigDoc> = Vec::new();
    let mut routers: Vec<RouterRoute> = Vec::new();
    let mut nests: Vec<DynamicNest> = Vec::new();
    let mut doc_helpers: HashMap<(String, String), DocHelper> = HashMap::new();
    let mut providers: Vec<Provider> = Vec::new();
    let mut builders: HashMap<(String, String), Builder> = HashMap::new();
    let mut handlers: Vec<HandlerReads> = Vec::new();
    for f in facts {
        match f {
            Fact::File(j) => files.push(j),
            Fact::Config(c) => docs.push(c),
            Fact::Router(r) => routers.push(r),
            Fact::Build(..) => {}
            Fact::Nest(n) => nests.push(n),
            Fact::Provide(p) => providers.push(p),
            Fact::Builder(b) => {
                builders
                    .entry((b.class.clone(), b.method.clone()))
                    .or_insert(b);
            }
            Fact::Handler(h) => handlers.push(h),
            Fact::DocHelper(d) => {
                doc_helpers
                    .entry((d.class.clone(), d.method.clone()))
                    .or_insert(d);
            }
        }
    }
    let l = Linker {
        idx: Index::new(&files),
        cfg: Configs::new(docs),
        reads: handlers
            .iter()
            .map(|h| ((h.class.as_str(), h.method.as_str()), h))
            .collect(),
    };
    let mut out = Vec::new();
    let ids: Vec<TypeId> = l.idx.all().collect();
    for id in ids {
        if l.idx.file(id).lang != lang {
            continue;
        }
        let t = l.idx.ty(id);
        if matches!(
            t.kind,
            TypeKind::Annotation | TypeKind::Enum | TypeKind::Record
        ) {
            continue;
        }
        if t.kind == TypeKind::Interface && t.annotation("FeignClient").is_some() {
            l.client(id, &mut out);
            continue;
        }
        if t.is_abstract() {
            let derived = l
                .idx
                .descendants(id)
                .into_iter()
                .any(|d| l.is_controller(d) || l.is_client(d));
            let own = t.methods.iter().any(|m| l.method_mapping(id, m).is_some());
            if derived || !own || (t.kind != TypeKind::Interface && !l.is_controller(id)) {
                continue;
            }
        } else if !l.is_controller(id) {
            continue;
        }
        l.controller(id, &mut out);
    }
    let file_of: HashMap<&str, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.as_str(), i))
        .collect();
    let mut by_method: HashMap<&str, Vec<&HandlerReads>> = HashMap::new();
    for h in &handlers {
        by_method.entry(h.method.as_str()).or_default().push(h);
    }
    for r in routers.iter().filter(|r| r.lang == lang) {
        let fi = file_of.get(r.path.as_str()).copied();
        let registry = fi.and_then(|f| l.registry_prefix(f, &nests, &providers, &builders));
        let handler = fi.and_then(|f| l.handler_of(r, f, &by_method));
        let handler = handler.map(|h| (file_of.get(h.path.as_str()).copied(), h));
        l.router(r, fi, registry, &doc_helpers, handler, &mut out);
    }
    out
}

impl Linker<'_> {
    /// Annotations of `id`, plus those of custom annotation types it
    /// carries (meta-annotations, one level).
    fn class_annotations(&self, id: TypeId) -> Vec<(TypeId, &Annotation)> {
        let mut out = Vec::new();
        for a in &self.idx.ty(id).annotations {
            out.push((id, a));
            if let Some(meta) = self.idx.resolve_type(id.0, &a.name) {
                let m = self.idx.ty(meta);
                if m.kind == TypeKind::Annotation {
                    out.extend(m.annotations.iter().map(|x| (meta, x)));
                }
            }
        }
        out
    }

    fn is_controller(&self, id: TypeId) -> bool {
        let t = self.idx.ty(id);
        if matches!(t.kind, TypeKind::Annotation | TypeKind::Enum) {
            return false;
        }
        self.class_annotations(id).iter().any(|(_, a)| {
            matches!(
                a.name.as_str(),
                "RestController" | "Controller" | "RequestMapping"
            )
        })
    }

    fn is_client(&self, id: TypeId) -> bool {
        self.idx.ty(id).annotation("FeignClient").is_some()
    }

    /// Evaluate path expressions written in `owner`, resolving `${…}` with
    /// the configuration of `module_path`'s module.
    fn paths(&self, owner: TypeId, a: &Annotation, module_path: &str) -> Vec<String> {
        let items = a.items(&["value", "path"]);
        if items.is_empty() {
            return vec![String::new()];
        }
        items
            .iter()
            .filter_map(|e| {
                let v = self.idx.eval(owner.0, Some(owner), e);
                if v.is_none() {
                    host::debug(&format!(
                        "{}: unresolved path expression {e:?}",
                        self.idx.file(owner).path
                    ));
                }
                v
            })
            .map(|v| self.placeholders(&v, module_path))
            .collect()
    }

    fn placeholders(&self, s: &str, module_path: &str) -> String {
        strip_patterns(&resolve_placeholders(s, &mut |k| {
            self.cfg.get(module_path, k)
        }))
    }

    /// Context path + servlet path of the module of `path`.
    fn context(&self, path: &str) -> String {
        let mut parts = Vec::new();
        for keys in PREFIX_KEYS {
            if let Some(v) = keys.iter().find_map(|k| self.cfg.get(path, k)) {
                parts.push(v);
            }
        }
        join_path(&parts)
    }

    /// The mapping of method `m` declared in `owner`: its own
    /// `@RequestMapping`/shortcut, or a custom annotation meta-annotated
    /// with one (`@GetJson("/x")` where `@GetJson` carries
    /// `@RequestMapping(method = GET)`): the meta-annotation's arguments
    /// (method, consumes) with the custom annotation's paths.
    fn method_mapping<'m>(&self, owner: TypeId, m: &'m Method) -> Option<Cow<'m, Annotation>> {
        if let Some(a) = mapping(&m.annotations) {
            return Some(Cow::Borrowed(a));
        }
        for a in &m.annotations {
            let Some(meta) = self.idx.resolve_type(owner.0, &a.name) else {
                continue;
            };
            let decl = self.idx.ty(meta);
            if decl.kind != TypeKind::Annotation {
                continue;
            }
            let Some(base) = mapping(&decl.annotations) else {
                continue;
            };
            let mut args: Vec<AnnArg> = base
                .args
                .iter()
                .filter(|x| !matches!(x.name.as_deref(), None | Some("value" | "path")))
                .cloned()
                .collect();
            args.extend(
                a.args
                    .iter()
                    .filter(|x| matches!(x.name.as_deref(), None | Some("value" | "path")))
                    .cloned(),
            );
            // Paths fixed on the meta-annotation itself, when the custom
            // one gives none.
            if !args
                .iter()
                .any(|x| matches!(x.name.as_deref(), None | Some("value" | "path")))
            {
                args.extend(
                    base.args
                        .iter()
                        .filter(|x| matches!(x.name.as_deref(), None | Some("value" | "path")))
                        .cloned(),
                );
            }
            return Some(Cow::Owned(Annotation {
                name: base.name.clone(),
                args,
                line: a.line,
            }));
        }
        None
    }

    /// Class-level mapping: from the class itself, its meta-annotations,
    /// or the nearest supertype that has one.
    fn class_mapping(&self, id: TypeId) -> Option<(TypeId, &Annotation)> {
        for t in self.idx.lineage(id) {
            if let Some(found) = self
                .class_annotations(t)
                .into_iter()
                .find(|(_, a)| a.name == "RequestMapping")
            {
                return Some(found);
            }
        }
        None
    }

    /// Mapped methods of `id` and its supertypes (an override hides the
    /// inherited mapping).
    fn mapped_methods(&self, id: TypeId) -> Vec<(TypeId, &Method)> {
        let mut out: Vec<(TypeId, &Method)> = Vec::new();
        let mut seen: Vec<(&str, usize)> = Vec::new();
        for t in self.idx.lineage(id) {
            for m in &self.idx.ty(t).methods {
                if self.method_mapping(t, m).is_none()
                    && find(&m.annotations, "RequestLine").is_none()
                {
                    continue;
                }
                let key = (m.name.as_str(), m.params.len());
                if seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                out.push((t, m));
            }
        }
        out
    }

    fn controller(&self, id: TypeId, out: &mut Vec<Endpoint>) {
        let path = self.idx.file(id).path.clone();
        let context = self.context(&path);
        let class = self.class_mapping(id);
        let class_paths = match class {
            Some((owner, a)) => self.paths(owner, a, &path),
            None => vec![String::new()],
        };
        let class_methods = class.map(|(_, a)| methods_of(a)).unwrap_or_default();
        for (owner, m) in self.mapped_methods(id) {
            let Some(a) = self.method_mapping(owner, m) else {
                continue;
            };
            let a = a.as_ref();
            let mut methods = methods_of(a);
            if methods.is_empty() {
                methods = class_methods.clone();
            }
            if methods.is_empty() {
                methods = ANY_METHODS.iter().map(|s| s.to_string()).collect();
            }
            let consumes = Consumes::of(Some(a)).or(Consumes::of(class.map(|c| c.1)));
            let file = &self.idx.file(owner).path;
            let guard = self.guard(id, owner, m);
            for cp in &class_paths {
                for mp in self.paths(owner, a, &path) {
                    let url = join_path(&[context.as_str(), cp, &mp]);
                    for method in &methods {
                        let mut params = method_params(&self.idx, owner, m, method, consumes);
                        self.request_reads(owner, m, &mut params);
                        let mut e = Endpoint::new(method, url.clone())
                            .at_path(file.clone(), a.line)
                            .params(params);
                        crate::jvm::guard::apply(&mut e, &guard);
                        out.push(e);
                    }
                }
            }
        }
    }

    /// The security annotation guarding a mapped method (see
    /// [`crate::jvm::guard`]): on the method, the controller, or a
    /// supertype of the controller.
    fn guard(
        &self,
        id: TypeId,
        owner: TypeId,
        m: &Method,
    ) -> Option<(&'static str, String, String, u32)> {
        let classes = self.idx.lineage(id).into_iter().map(|t| {
            (
                self.idx.ty(t).annotations.as_slice(),
                self.idx.file(t).path.as_str(),
            )
        });
        crate::jvm::guard::resolve(
            (m.annotations.as_slice(), self.idx.file(owner).path.as_str()),
            classes,
        )
    }

    /// What a mapped method reads from the request object it takes
    /// (`HttpServletRequest.getHeader("X")`, `getParameter("q")`,
    /// `ServerWebExchange.getRequest().getQueryParams().getFirst("q")`).
    fn request_reads(&self, owner: TypeId, m: &Method, params: &mut Vec<Param>) {
        let class = self.idx.ty(owner).name.as_str();
        let Some(h) = self.reads.get(&(class, m.name.as_str())) else {
            return;
        };
        if h.path != self.idx.file(owner).path {
            return;
        }
        for r in &h.reads {
            let p = match r {
                Read::Param(kind, name) => Param::new(*kind, name),
                Read::PathOrQuery(name) => Param::query(name),
                _ => continue,
            };
            if !params.iter().any(|q| q.name == p.name && q.kind == p.kind) {
                params.push(p);
            }
        }
    }

    /// A `@FeignClient` interface: outbound calls, `internal`.
    fn client(&self, id: TypeId, out: &mut Vec<Endpoint>) {
        let t = self.idx.ty(id);
        let path = self.idx.file(id).path.clone();
        let prefix = t
            .annotation("FeignClient")
            .and_then(|a| a.items(&["path"]).first().cloned())
            .and_then(|e| self.idx.eval(id.0, Some(id), &e))
            .map(|v| self.placeholders(&v, &path))
            .unwrap_or_default();
        let class_paths = match self.class_mapping(id) {
            Some((owner, a)) => self.paths(owner, a, &path),
            None => vec![String::new()],
        };
        for (owner, m) in self.mapped_methods(id) {
            let file = &self.idx.file(owner).path;
            if let Some(a) = self.method_mapping(owner, m) {
                let a = a.as_ref();
                let mut methods = methods_of(a);
                if methods.is_empty() {
                    methods.push("GET".into());
                }
                for cp in &class_paths {
                    for mp in self.paths(owner, a, &path) {
                        let url = join_path(&[prefix.as_str(), cp, &mp]);
                        for method in &methods {
                            let params =
                                method_params(&self.idx, owner, m, method, Consumes::of(Some(a)));
                            out.push(
                                Endpoint::new(method, url.clone())
                                    .at_path(file.clone(), a.line)
                                    .params(params)
                                    .internal(true),
                            );
                        }
                    }
                }
            } else if let Some(a) = find(&m.annotations, "RequestLine") {
                // `@RequestLine("GET /users/{id}?q={q}")`
                let Some(line) = a
                    .items(&["value"])
                    .first()
                    .and_then(|e| self.idx.eval(owner.0, Some(owner), e))
                else {
                    continue;
                };
                let mut it = line.split_whitespace();
                let (Some(method), Some(target)) = (it.next(), it.next()) else {
                    continue;
                };
                let (p, query) = target.split_once('?').unwrap_or((target, ""));
                let url = join_path(&[prefix.as_str(), p]);
                let mut e = Endpoint::new(method, url)
                    .at_path(file.clone(), a.line)
                    .internal(true);
                for q in query.split('&').filter(|q| !q.is_empty()) {
                    e.push_param(Param::query(q.split('=').next().unwrap_or(q)));
                }
                out.push(e);
            }
        }
    }

    /// The prefix a router registry ([`DynamicNest`]) gives the routers of
    /// file `f`: its known part plus the value the file's class (or its
    /// nearest supertype, e.g. an interface default method) provides;
    /// a `{param}` placeholder when that value is only known at run time
    /// (not built from strings and constants).
    fn registry_prefix(
        &self,
        f: usize,
        nests: &[DynamicNest],
        providers: &[Provider],
        builders: &HashMap<(String, String), Builder>,
    ) -> Option<String> {
        let file = self.idx.files.get(f)?;
        let top = file.types.iter().position(|t| !t.qual.contains('.'))?;
        for nest in nests {
            for id in self.idx.lineage((f, top)) {
                let decl = self.idx.ty(id);
                let Some(p) = providers.iter().find(|p| {
                    p.class == decl.name
                        && p.path == self.idx.file(id).path
                        && nest.types.contains(&p.ty)
                }) else {
                    continue;
                };
                let values: Option<Vec<String>> = match &p.via {
                    // `Helper.of(new X())`: the helper's value for X.
                    Some((class, method, arg)) => {
                        let b = builders.get(&(class.clone(), method.clone()));
                        let helper = self.idx.resolve_type(id.0, class);
                        let arg = self.idx.resolve_type(id.0, arg);
                        match (b, helper, arg) {
                            (Some(b), Some(h), Some(a)) => builder::eval(&self.idx, b, h, a),
                            _ => None,
                        }
                    }
                    None => p
                        .parts
                        .iter()
                        .map(|e| self.idx.eval(id.0, Some(id), e))
                        .collect(),
                };
                let value = values
                    .filter(|v| !v.is_empty())
                    .map_or_else(|| "{param}".to_string(), |v| v.join("/"));
                return Some(format!("{}{}", nest.literal, value));
            }
        }
        None
    }

    /// The handler method a functional route references, in any file:
    /// `this::x` in the declaring class, `Books::x`, or `books::x` through
    /// the declared type of `books` (a parameter or field of the route's
    /// file), else the one handler method of that name (the one of the
    /// class named like the receiver when several are).
    fn handler_of<'h>(
        &self,
        r: &RouterRoute,
        f: usize,
        by_method: &HashMap<&str, Vec<&'h HandlerReads>>,
    ) -> Option<&'h HandlerReads> {
        let (recv, method) = r.handler.as_ref()?;
        let cands = by_method.get(method.as_str())?;
        let class = if recv == "this" {
            Some(r.class.clone())
        } else if recv.starts_with(char::is_uppercase) {
            Some(recv.clone())
        } else {
            let file = &self.idx.files[f];
            let params = file
                .types
                .iter()
                .flat_map(|t| t.methods.iter())
                .chain(file.funs.iter())
                .flat_map(|m| m.params.iter())
                .find(|p| p.name == *recv)
                .map(|p| p.ty.clone());
            params.or_else(|| {
                file.types
                    .iter()
                    .flat_map(|t| t.fields.iter())
                    .find(|x| x.name == *recv)
                    .map(|x| x.ty.clone())
            })
        };
        if let Some(c) = class {
            let c = crate::jvm::index::bare_type(&c);
            let c = c.rsplit('.').next().unwrap_or(c);
            if let Some(h) = cands.iter().find(|h| h.class == c) {
                return Some(h);
            }
        }
        match cands.as_slice() {
            [one] => Some(one),
            many => many
                .iter()
                .find(|h| h.class.eq_ignore_ascii_case(recv))
                .copied(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn router(
        &self,
        r: &RouterRoute,
        fi: Option<usize>,
        registry: Option<String>,
        docs: &HashMap<(String, String), DocHelper>,
        handler: Option<(Option<usize>, &HandlerReads)>,
        out: &mut Vec<Endpoint>,
    ) {
        let ctx = fi
            .filter(|&f| !self.idx.files[f].types.is_empty())
            .map(|f| (f, 0));
        let mut parts = vec![self.context(&r.path)];
        parts.extend(registry);
        for p in &r.parts {
            let v = match fi {
                Some(f) => self.idx.eval(f, ctx, p),
                None => p.literal(),
            };
            let Some(v) = v else { return };
            parts.push(self.placeholders(&v, &r.path));
        }
        let mut ep = Endpoint::new(&r.method, join_path(&parts)).at_path(r.path.clone(), r.line);
        // Documentation helpers, through the helpers they call (bounded).
        let mut reads = r.reads.clone();
        let mut queue: Vec<(String, String)> = r.doc_calls.clone();
        let mut seen: Vec<(String, String)> = Vec::new();
        while let Some(c) = queue.pop() {
            if seen.contains(&c) || seen.len() >= 32 {
                continue;
            }
            // An unqualified call the declaring class does not have is a
            // statically imported helper (`parameter(sortParameter())`):
            // the one helper of that name, when only one class has it.
            let d = docs.get(&c).or_else(|| {
                let mut same = docs.iter().filter(|((_, m), _)| *m == c.1).map(|(_, d)| d);
                match (same.next(), same.next()) {
                    (Some(d), None) => Some(d),
                    _ => None,
                }
            });
            if let Some(d) = d {
                for x in &d.reads {
                    if !reads.contains(x) {
                        reads.push(x.clone());
                    }
                }
                queue.extend(d.calls.iter().cloned());
            }
            seen.push(c);
        }
        // Reads of the handler (resolved in its own file).
        let mut reads: Vec<(Option<usize>, Read)> = reads.into_iter().map(|x| (fi, x)).collect();
        if let Some((hf, h)) = handler {
            for x in &h.reads {
                if !reads.iter().any(|(_, y)| y == x) {
                    reads.push((hf, x.clone()));
                }
            }
        }
        for (fi, read) in &reads {
            let fi = *fi;
            match read {
                Read::Param(kind, name) => ep.push_param(Param::new(*kind, name)),
                Read::PathOrQuery(name) => ep.push_param(Param::new(ParamKind::Query, name)),
                Read::Body(ty) | Read::Form(ty) => {
                    let kind = match read {
                        Read::Form(_) => ParamKind::Form,
                        _ => ParamKind::Json,
                    };
                    let fields = match read {
                        Read::Form(_) => fi.and_then(|f| self.idx.form_fields(f, ty)),
                        _ => fi.and_then(|f| self.idx.dto_fields(f, ty)),
                    };
                    for name in fields.unwrap_or_default() {
                        ep.push_param(Param::new(kind, name));
                    }
                }
            }
        }
        out.push(ep);
    }
}

impl Consumes {
    fn or(self, other: Consumes) -> Consumes {
        if self == Consumes::default() {
            other
        } else {
            self
        }
    }
}

/// HTTP methods of a mapping annotation (empty = not restricted).
fn methods_of(a: &Annotation) -> Vec<String> {
    if let Some(m) = shortcut(&a.name) {
        return vec![m.to_string()];
    }
    a.items(&["method"])
        .iter()
        .filter_map(|e| e.as_name())
        .map(|n| n.rsplit('.').next().unwrap_or(n).to_ascii_uppercase())
        .collect()
}

/// `{id:\d+}` → `{id}`; Spring's regex constraints are not part of the
/// placeholder name.
pub fn strip_patterns(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        let mut depth = 0;
        let mut close = None;
        for (i, c) in after.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            out.push_str(after);
            return out;
        };
        let inner = &after[1..close];
        let name = inner.split(':').next().unwrap_or(inner).trim();
        out.push('{');
        out.push_str(name);
        out.push('}');
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}
