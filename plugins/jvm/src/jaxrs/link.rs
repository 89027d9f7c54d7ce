//! Link step: resources with inherited annotations, sub-resource locators
//! and application paths.

use portolan_plugin_sdk::prelude::*;

use crate::jvm::config::{module_root, resolve_placeholders, ConfigDoc, Configs};
use crate::jvm::index::{element_type, Index, TypeId};
use crate::jvm::outline::{find, Annotation, JFile, Method, TypeKind};
use crate::spring::link::strip_patterns;
use crate::spring::params::is_file_type;
use crate::spring::scan::Fact;

const VERBS: [&str; 7] = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

/// Deepest chain of sub-resource locators followed.
const MAX_LOCATOR_DEPTH: usize = 4;

/// The JAX-RS runtime of a module; each has its own technology, and
/// `java_jaxrs` reports the modules of none of the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Flavor {
    Plain,
    HelidonMp,
    Dropwizard,
    Quarkus,
}

impl Flavor {
    /// The flavor named by an import.
    fn of_import(name: &str) -> Option<Flavor> {
        if name.starts_with("io.quarkus") || name.starts_with("org.jboss.resteasy.reactive") {
            Some(Flavor::Quarkus)
        } else if name.starts_with("io.dropwizard") {
            Some(Flavor::Dropwizard)
        } else if name.starts_with("io.helidon.microprofile") {
            Some(Flavor::HelidonMp)
        } else {
            None
        }
    }

    /// The flavor named by a build file (`Fact::Build`).
    pub fn of_build(content: &str) -> Option<Flavor> {
        if content.contains("io.quarkus") {
            Some(Flavor::Quarkus)
        } else if content.contains("io.dropwizard") {
            Some(Flavor::Dropwizard)
        } else if content.contains("helidon-microprofile")
            || content.contains("io.helidon.microprofile")
            || content.contains("helidon-mp")
        {
            Some(Flavor::HelidonMp)
        } else {
            None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Flavor::Plain => "plain",
            Flavor::HelidonMp => "helidon_mp",
            Flavor::Dropwizard => "dropwizard",
            Flavor::Quarkus => "quarkus",
        }
    }

    fn of_name(s: &str) -> Option<Flavor> {
        [Flavor::HelidonMp, Flavor::Dropwizard, Flavor::Quarkus]
            .into_iter()
            .find(|f| f.name() == s)
    }
}

/// Flavors named in each module (module root → flavor).
fn markers(
    files: &[JFile],
    docs: &[ConfigDoc],
    builds: &[(String, String)],
) -> Vec<(String, Flavor)> {
    let mut out: Vec<(String, Flavor)> = Vec::new();
    for f in files {
        for i in &f.imports {
            if let Some(fl) = Flavor::of_import(&i.name) {
                out.push((module_root(&f.path), fl));
            }
        }
    }
    for d in docs {
        if d.entries.iter().any(|(k, _)| k.starts_with("quarkus.")) {
            out.push((d.root.clone(), Flavor::Quarkus));
        }
    }
    for (root, name) in builds {
        if let Some(fl) = Flavor::of_name(name) {
            out.push((root.clone(), fl));
        }
    }
    out
}

/// The flavor of the module of `path`: the markers of the innermost
/// module root containing it (the strongest when several).
fn flavor_of(markers: &[(String, Flavor)], path: &str) -> Flavor {
    let best = markers
        .iter()
        .filter(|(root, _)| path.starts_with(root.as_str()))
        .map(|(root, _)| root.len())
        .max();
    match best {
        Some(len) => markers
            .iter()
            .filter(|(root, _)| root.len() == len && path.starts_with(root.as_str()))
            .map(|(_, f)| *f)
            .max()
            .unwrap_or(Flavor::Plain),
        None => Flavor::Plain,
    }
}

struct Linker<'a> {
    idx: Index<'a>,
    cfg: Configs,
    /// `@ApplicationPath` values by module root.
    apps: Vec<(String, String)>,
    flavor: Flavor,
    /// What resource methods read from `@Context` objects
    /// (`headers.getHeaderString("X")`), by (file, class, method).
    reads: Vec<crate::spring::scan::HandlerReads>,
}

pub fn link(facts: Vec<Fact>, flavor: Flavor) -> Vec<Endpoint> {
    let mut files: Vec<JFile> = Vec::new();
    let mut docs: Vec<ConfigDoc> = Vec::new();
    let mut builds: Vec<(String, String)> = Vec::new();
    let mut reads = Vec::new();
    for f in facts {
        match f {
            Fact::File(j) => files.push(j),
            Fact::Config(c) => docs.push(c),
            Fact::Router(_)
            | Fact::Nest(_)
            | Fact::Provide(_)
            | Fact::DocHelper(_)
            | Fact::Builder(_) => {}
            Fact::Handler(h) => reads.push(h),
            Fact::Build(root, name) => builds.push((root, name)),
        }
    }
    let marks = markers(&files, &docs, &builds);
    let idx = Index::new(&files);
    let mut apps = Vec::new();
    for id in idx.all() {
        if flavor_of(&marks, &idx.file(id).path) != flavor {
            continue;
        }
        if let Some(a) = idx.ty(id).annotation("ApplicationPath") {
            if let Some(v) = a
                .items(&["value"])
                .first()
                .and_then(|e| idx.eval(id.0, Some(id), e))
            {
                let v = v.trim_end_matches('*').to_string();
                apps.push((module_root(&idx.file(id).path), v));
            }
        }
    }
    let l = Linker {
        idx,
        cfg: Configs::new(docs),
        apps,
        flavor,
        reads,
    };
    let mut out = Vec::new();
    let ids: Vec<TypeId> = l.idx.all().collect();
    for id in ids {
        let t = l.idx.ty(id);
        if !matches!(t.kind, TypeKind::Class | TypeKind::Interface) {
            continue;
        }
        if l.class_path(id).is_none() {
            continue;
        }
        if t.is_abstract()
            && l.idx
                .descendants(id)
                .into_iter()
                .any(|d| !l.idx.ty(d).is_abstract())
        {
            continue;
        }
        let path = l.idx.file(id).path.clone();
        if flavor_of(&marks, &path) != flavor {
            continue;
        }
        // A MicroProfile REST client (`@RegisterRestClient` interface)
        // describes calls this application makes: reported `internal`,
        // without the server's context path (its base URL is configured).
        if t.kind == TypeKind::Interface && t.annotation("RegisterRestClient").is_some() {
            let start = out.len();
            l.resource(id, "", true, 0, &path, &mut out);
            for e in &mut out[start..] {
                e.internal = true;
            }
            continue;
        }
        let prefix = l.context(&path);
        l.resource(id, &prefix, true, 0, &path, &mut out);
    }
    if flavor == Flavor::Quarkus {
        for id in l.idx.all() {
            if flavor_of(&marks, &l.idx.file(id).path) == flavor {
                l.reactive_routes(id, &mut out);
            }
        }
    }
    out
}

impl Linker<'_> {
    /// Root path of the module of `path`: Quarkus root path, REST path and
    /// the `@ApplicationPath`.
    fn context(&self, path: &str) -> String {
        let mut parts = Vec::new();
        let mut rooted = false;
        match self.flavor {
            Flavor::Quarkus => {
                if let Some(v) = self.cfg.get(path, "quarkus.http.root-path") {
                    parts.push(v);
                }
                if let Some(v) = [
                    "quarkus.rest.path",
                    "quarkus.resteasy-reactive.path",
                    "quarkus.resteasy.path",
                ]
                .iter()
                .find_map(|k| self.cfg.get(path, k))
                {
                    parts.push(v);
                }
            }
            Flavor::Dropwizard => {
                let simple = self
                    .cfg
                    .get(path, "server.type")
                    .is_some_and(|t| t == "simple");
                match self.cfg.get(path, "server.applicationContextPath") {
                    Some(v) => parts.push(v),
                    None if simple => parts.push("/application".to_string()),
                    None => {}
                }
                // The YAML `rootPath`, when set, is applied to Jersey
                // after `run()` and so wins over a
                // `jersey().setUrlPattern(…)` in code (the servlet mapping
                // key, read below).
                if let Some(v) = self.cfg.get(path, "server.rootPath") {
                    parts.push(v.trim_end_matches('*').to_string());
                    rooted = true;
                }
            }
            Flavor::Plain | Flavor::HelidonMp => {}
        }
        let app = self
            .apps
            .iter()
            .filter(|(root, _)| path.starts_with(root.as_str()))
            .max_by_key(|(root, _)| root.len())
            .or(if self.apps.len() == 1 {
                self.apps.first()
            } else {
                None
            });
        if let Some(v) = self.cfg.get(path, super::servlet::KEY).filter(|_| !rooted) {
            parts.push(v);
        } else if let Some((_, v)) = app.filter(|_| !rooted) {
            parts.push(v.clone());
        }
        join_path(&parts)
    }

    /// Quarkus Reactive Routes (`quarkus-reactive-routes`): methods
    /// annotated `@Route(path = "/x/:id", methods = Route.HttpMethod.GET)`
    /// (repeatable) under the class's `@RouteBase(path = …)`. Without
    /// `path` the method name is the path; without `methods` every method
    /// is served (reported once per common method, tagged `any_method`).
    /// Only `quarkus.http.root-path` prefixes them (not the REST path).
    /// `@Param` is a path parameter when the path has it, else a query
    /// parameter; `@Header` a header, `@Body` the DTO's fields as json; a
    /// `RoutingContext`/`RoutingExchange` parameter adds what the body
    /// reads from it.
    fn reactive_routes(&self, id: TypeId, out: &mut Vec<Endpoint>) {
        let file = self.idx.file(id);
        if !file
            .imports
            .iter()
            .any(|i| i.name.starts_with("io.quarkus.vertx.web"))
        {
            return;
        }
        let t = self.idx.ty(id);
        let module = file.path.clone();
        let base = t
            .annotation("RouteBase")
            .and_then(|a| a.items(&["path"]).first().cloned())
            .and_then(|e| self.idx.eval(id.0, Some(id), &e))
            .unwrap_or_default();
        let root = self
            .cfg
            .get(&module, "quarkus.http.root-path")
            .unwrap_or_default();
        for m in &t.methods {
            for a in m.annotations.iter().filter(|a| a.name == "Route") {
                if a.raw(&["type"]).is_some_and(|r| r.contains("FAILURE")) {
                    continue;
                }
                let path = match a.items(&["path", "value"]).first() {
                    Some(e) => match self.idx.eval(id.0, Some(id), e) {
                        Some(p) => p,
                        None => continue,
                    },
                    None if a.arg(&["regex"]).is_some() => continue,
                    None => m.name.clone(),
                };
                let url = join_path(&[&root, &base, &path]);
                let verbs: Vec<String> = a
                    .raw(&["methods"])
                    .map(|r| {
                        r.split(|c: char| !c.is_ascii_alphabetic())
                            .filter(|w| VERBS.contains(w))
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default();
                let any = verbs.is_empty();
                let verbs = if any {
                    ["GET", "POST", "PUT", "PATCH", "DELETE"]
                        .map(str::to_string)
                        .to_vec()
                } else {
                    verbs
                };
                let params = self.route_params(id, m, &url);
                for v in verbs {
                    let mut e = Endpoint::new(&v, url.clone())
                        .at_path(module.clone(), a.line)
                        .params(params.clone());
                    if any {
                        e = e.tag(Tag::any_method());
                    }
                    out.push(e);
                }
            }
        }
    }

    /// Parameters of a reactive route method (see [`Self::reactive_routes`]).
    fn route_params(&self, id: TypeId, m: &Method, url: &str) -> Vec<Param> {
        let in_path = |n: &str| {
            url.split('/')
                .any(|s| s.strip_prefix(':') == Some(n) || s == format!("{{{n}}}"))
        };
        let mut out = Vec::new();
        for p in &m.params {
            let named = |a: &Annotation| {
                a.items(&["value"])
                    .first()
                    .and_then(|e| self.idx.eval(id.0, Some(id), e))
                    .filter(|v| !v.is_empty())
                    .unwrap_or_else(|| p.name.clone())
            };
            if let Some(a) = find(&p.annotations, "Param") {
                let n = named(a);
                let kind = if in_path(&n) {
                    ParamKind::Path
                } else {
                    ParamKind::Query
                };
                out.push(Param::new(kind, n));
            } else if let Some(a) = find(&p.annotations, "Header") {
                out.push(Param::new(ParamKind::Header, named(a)));
            } else if find(&p.annotations, "Body").is_some() {
                for n in self.idx.dto_fields(id.0, &p.ty).unwrap_or_default() {
                    out.push(Param::new(ParamKind::Json, n));
                }
            }
        }
        let path = &self.idx.file(id).path;
        let class = &self.idx.ty(id).name;
        for h in &self.reads {
            if h.path != *path || h.class != *class || h.method != m.name {
                continue;
            }
            for r in &h.reads {
                use crate::jvm::lambda::Read;
                match r {
                    Read::Param(kind, name) => out.push(Param::new(*kind, name)),
                    Read::PathOrQuery(n) if in_path(n) => out.push(Param::new(ParamKind::Path, n)),
                    Read::PathOrQuery(n) => out.push(Param::new(ParamKind::Query, n)),
                    Read::Body(ty) | Read::Form(ty) => {
                        let kind = if matches!(r, Read::Form(_)) {
                            ParamKind::Form
                        } else {
                            ParamKind::Json
                        };
                        for n in self.idx.dto_fields(id.0, ty).unwrap_or_default() {
                            out.push(Param::new(kind, n));
                        }
                    }
                }
            }
        }
        out
    }

    /// Type-level `@Path` of `id` or its nearest supertype.
    fn class_path(&self, id: TypeId) -> Option<(TypeId, &Annotation)> {
        self.idx
            .lineage(id)
            .into_iter()
            .find_map(|t| self.idx.ty(t).annotation("Path").map(|a| (t, a)))
    }

    fn eval_path(&self, owner: TypeId, a: &Annotation, module: &str) -> Option<String> {
        let v = match a.items(&["value"]).first() {
            Some(e) => self.idx.eval(owner.0, Some(owner), e)?,
            None => String::new(),
        };
        let v = resolve_placeholders(&v, &mut |k| self.cfg.get(module, k));
        Some(strip_patterns(&v))
    }

    /// The HTTP method of a resource method, if any.
    fn verb(&self, owner: TypeId, m: &Method) -> Option<String> {
        for a in &m.annotations {
            if VERBS.contains(&a.name.as_str()) {
                return Some(a.name.clone());
            }
            if let Some(t) = self.idx.resolve_type(owner.0, &a.name) {
                let decl = self.idx.ty(t);
                if decl.kind == TypeKind::Annotation {
                    if let Some(v) = decl
                        .annotation("HttpMethod")
                        .and_then(|h| h.items(&["value"]).first().cloned())
                        .and_then(|e| self.idx.eval(t.0, Some(t), &e))
                    {
                        return Some(v.to_ascii_uppercase());
                    }
                }
            }
        }
        None
    }

    /// Resource methods and locators of `id` and its supertypes.
    fn methods(&self, id: TypeId) -> Vec<(TypeId, &Method)> {
        let mut out: Vec<(TypeId, &Method)> = Vec::new();
        // An override hides the supertype's method of the same name and
        // arity; overloads within one type are all resources.
        let mut seen: Vec<(&str, usize, TypeId)> = Vec::new();
        for t in self.idx.lineage(id) {
            for m in &self.idx.ty(t).methods {
                if self.verb(t, m).is_none() && find(&m.annotations, "Path").is_none() {
                    continue;
                }
                let (name, arity) = (m.name.as_str(), m.params.len());
                if seen
                    .iter()
                    .any(|&(n, a, owner)| n == name && a == arity && owner != t)
                {
                    continue;
                }
                seen.push((name, arity, t));
                out.push((t, m));
            }
        }
        out
    }

    fn resource(
        &self,
        id: TypeId,
        prefix: &str,
        with_class_path: bool,
        depth: usize,
        module: &str,
        out: &mut Vec<Endpoint>,
    ) {
        let class = self.class_path(id);
        let class_path = match class {
            Some((owner, a)) if with_class_path => match self.eval_path(owner, a, module) {
                Some(p) => p,
                None => return,
            },
            _ => String::new(),
        };
        let class_form =
            class.is_some_and(|(owner, _)| consumes_form(&self.idx.ty(owner).annotations));
        for (owner, m) in self.methods(id) {
            let method_path = match find(&m.annotations, "Path") {
                Some(a) => match self.eval_path(owner, a, module) {
                    Some(p) => p,
                    None => continue,
                },
                None => String::new(),
            };
            let url = join_path(&[prefix, &class_path, &method_path]);
            match self.verb(owner, m) {
                Some(verb) => {
                    let form = class_form || consumes_form(&m.annotations);
                    let line = find(&m.annotations, &verb)
                        .or_else(|| m.annotations.first())
                        .map_or(m.line, |a| a.line);
                    let mut e = Endpoint::new(&verb, url)
                        .at_path(self.idx.file(owner).path.clone(), line)
                        .params(self.params(id, owner, m, form))
                        .params(self.context_reads(owner, m));
                    let classes = self.idx.lineage(id).into_iter().map(|t| {
                        (
                            self.idx.ty(t).annotations.as_slice(),
                            self.idx.file(t).path.as_str(),
                        )
                    });
                    let g = crate::jvm::guard::resolve(
                        (m.annotations.as_slice(), self.idx.file(owner).path.as_str()),
                        classes,
                    );
                    crate::jvm::guard::apply(&mut e, &g);
                    out.push(e);
                }
                None if depth < MAX_LOCATOR_DEPTH => {
                    if let Some(target) = self.idx.resolve_type(owner.0, element_type(&m.ret)) {
                        if target != id {
                            self.resource(target, &url, false, depth + 1, module, out);
                        }
                    }
                }
                None => {}
            }
        }
    }

    /// The type argument type parameter `param` of `owner` takes when the
    /// resource is `id` (`class Devices extends BaseResource<Device>`,
    /// through generic intermediates), with the file it is written in.
    fn bind(&self, id: TypeId, owner: TypeId, param: &str) -> Option<(usize, String)> {
        if !self.idx.ty(owner).type_params.iter().any(|p| p == param) {
            return None;
        }
        // (type, its type parameters bound to (file, written type)).
        let mut cur = id;
        let mut env: Vec<(String, (usize, String))> = Vec::new();
        for _ in 0..16 {
            if cur == owner {
                return env.into_iter().find(|(p, _)| p == param).map(|(_, v)| v);
            }
            let decl = self.idx.ty(cur);
            let next = decl.supers.iter().enumerate().find_map(|(j, s)| {
                let t = self.idx.resolve_type(cur.0, s)?;
                (self.idx.lineage(t).contains(&owner)).then_some((j, t))
            });
            let (j, t) = next?;
            let args = decl.super_args.get(j).cloned().unwrap_or_default();
            let params = &self.idx.ty(t).type_params;
            env = params
                .iter()
                .zip(args)
                .map(|(p, a)| {
                    let v = env
                        .iter()
                        .find(|(q, _)| *q == a)
                        .map_or((cur.0, a.clone()), |(_, v)| v.clone());
                    (p.clone(), v)
                })
                .collect();
            cur = t;
        }
        None
    }

    /// Parameters a resource method reads through its `@Context`
    /// objects (`HttpHeaders.getHeaderString("X")`,
    /// `UriInfo.getQueryParameters().getFirst("q")`).
    fn context_reads(&self, owner: TypeId, m: &Method) -> Vec<Param> {
        let path = &self.idx.file(owner).path;
        let class = &self.idx.ty(owner).name;
        let mut out = Vec::new();
        for h in &self.reads {
            if h.path != *path || h.class != *class || h.method != m.name {
                continue;
            }
            for r in &h.reads {
                if let crate::jvm::lambda::Read::Param(kind, name) = r {
                    out.push(Param::new(*kind, name));
                }
            }
        }
        out
    }

    fn params(&self, id: TypeId, owner: TypeId, m: &Method, form: bool) -> Vec<Param> {
        let mut out = Vec::new();
        for p in &m.params {
            if ["Context", "Suspended", "Auth"]
                .iter()
                .any(|a| find(&p.annotations, a).is_some())
            {
                continue;
            }
            if let Some(param) = self.annotated(owner, &p.annotations, &p.name, &p.ty) {
                out.push(param);
                continue;
            }
            if let Some(bean) = find(&p.annotations, "BeanParam") {
                let _ = bean;
                if let Some(t) = self.idx.resolve_type(owner.0, element_type(&p.ty)) {
                    for b in self.idx.lineage(t) {
                        for f in &self.idx.ty(b).fields {
                            if let Some(param) = self.annotated(b, &f.annotations, &f.name, &f.ty) {
                                out.push(param);
                            }
                        }
                    }
                }
                continue;
            }
            if p.annotations.iter().any(|a| a.name == "MatrixParam") {
                continue;
            }
            // The entity.
            let kind = if form {
                ParamKind::Form
            } else {
                ParamKind::Json
            };
            let (file, ty) = self
                .bind(id, owner, &p.ty)
                .unwrap_or((owner.0, p.ty.clone()));
            for name in self.idx.dto_fields(file, &ty).unwrap_or_default() {
                out.push(Param::new(kind, name));
            }
        }
        out
    }

    /// A parameter from `@QueryParam("x")`-style annotations.
    fn annotated(&self, owner: TypeId, anns: &[Annotation], name: &str, ty: &str) -> Option<Param> {
        let kinds: [(&[&str], ParamKind); 5] = [
            (&["QueryParam", "RestQuery"], ParamKind::Query),
            (&["PathParam", "RestPath"], ParamKind::Path),
            (&["HeaderParam", "RestHeader"], ParamKind::Header),
            (&["CookieParam", "RestCookie"], ParamKind::Cookie),
            (
                &["FormParam", "RestForm", "FormDataParam", "MultipartForm"],
                ParamKind::Form,
            ),
        ];
        let (a, mut kind) = kinds.iter().find_map(|(names, kind)| {
            anns.iter()
                .find(|a| names.contains(&a.name.as_str()))
                .map(|a| (a, *kind))
        })?;
        if kind == ParamKind::Form && is_upload(ty) {
            kind = ParamKind::File;
        }
        let eval = |a: &Annotation| {
            a.items(&["value"])
                .first()
                .and_then(|e| self.idx.eval(owner.0, Some(owner), e))
                .filter(|v| !v.is_empty())
        };
        let value = find(anns, "DefaultValue")
            .and_then(eval)
            .unwrap_or_default();
        Some(Param::new(kind, eval(a).unwrap_or_else(|| name.to_string())).value(value))
    }
}

fn is_upload(ty: &str) -> bool {
    is_file_type(ty)
        || matches!(
            element_type(ty).rsplit('.').next().unwrap_or(""),
            "InputStream" | "File" | "FileUpload" | "EntityPart" | "Path" | "Attachment"
        )
}

fn consumes_form(anns: &[Annotation]) -> bool {
    find(anns, "Consumes").is_some_and(|a| {
        let raw = a
            .args
            .iter()
            .map(|x| x.raw.to_ascii_lowercase())
            .collect::<String>();
        raw.contains("form")
    })
}
