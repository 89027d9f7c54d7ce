//! ASP.NET Core MVC / Web API controllers (`cs_aspnet_core_mvc`).
//!
//! - Controllers: non-abstract classes marked `[ApiController]` or
//!   `[Controller]` (also on a base class), or named `…Controller` whose
//!   chain of base classes in the tree ends in a framework class
//!   (`Controller`, `ControllerBase`, a library's `…Controller`; not an
//!   interface such as a Blazor component's `IController`);
//!   `[NonController]` excluded. A controller whose file names
//!   `System.Web.Mvc`/`System.Web.Http` (and not ASP.NET Core) is classic
//!   ASP.NET's ([`crate::aspnet_mvc`]), so a Core tree that merely
//!   mentions `System.Web` is linked once, by Core rules. Parts of a
//!   `partial` class share their class attributes and base types. Actions
//!   are the public instance methods of the class and its base classes in
//!   any file (`[NonAction]` excluded, overrides counted once; an
//!   `override` without routing attributes inherits the overridden
//!   method's, as MVC reads them with inheritance). Generic base
//!   controllers (`Crud<TItem, TInput>`) bind their type parameters to the
//!   derived class's type arguments.
//! - Attribute routes: `[Route]` on the controller or its nearest base
//!   class (several give several prefixes), `[Route]` and
//!   `[HttpGet/Post/Put/Delete/Patch/Head/Options("…")]` on actions,
//!   `[AcceptVerbs("GET", "POST", Route = "…")]`, and custom attributes
//!   deriving from `RouteAttribute`, `HttpMethodAttribute` or an
//!   `Http…Attribute` (their constructor's `: base(…)` arguments are
//!   evaluated with the attribute's positional or named arguments, else
//!   the constructor's default values: `ApiRoute(int version = 1, string
//!   resource = "[controller]") : base($"api/v{version}/{resource}")`),
//!   and attributes implementing `IRouteTemplateProvider` /
//!   `IActionHttpMethodProvider` themselves (`Template => "{id:int}"`,
//!   `HttpMethods => new[] { "GET" }`, or `Template =
//!   $"api/v{version}/{resource}"` set in a constructor that derived
//!   attributes reach through `: base(3, resource)`).
//!   Templates starting with `/` or `~/` ignore the controller prefix (a
//!   class template starting so ignores the global prefix). `[controller]`,
//!   `[action]` (the method name without `Async`, or `[ActionName]`) and
//!   `[area]` tokens are replaced, and so are route parameters of those
//!   names (`{action}`, `{action:slug=Index}`: ASP.NET Core fills them
//!   with the action's values); constraints (`{id:int}`) are kept.
//!   Templates ending in optional parameters (`{id?}`, `{page=1}`) are
//!   also reported without them.
//!   `app.MapGroup("/api").MapControllers()` puts every controller route
//!   below the group's prefix (once per `MapControllers` call).
//!   With `Conventions.Add(new RouteTokenTransformerConvention(new X()))`
//!   the token values go through `X`: a separator from its
//!   `"$1-$2"`-style replacement and lower case from `ToLower…()`, read
//!   from the class's source (the documented slugify, `-` and lower case,
//!   when `X` is not in the tree); `AddRouting(o => o.LowercaseUrls =
//!   true)` lowers token values too (the app's URLs are written in lower
//!   case; matching is case-insensitive either way). A global prefix registered as an
//!   application-model convention (`Conventions.Insert(0, new
//!   RoutePrefixConvention(new RouteAttribute("api")))`, or an extension
//!   such as `options.UseGeneralRoutePrefix("api")`) is prepended to the
//!   attribute routes that are not absolute.
//!   An action routed without an HTTP method attribute serves any method
//!   and is reported as GET, POST, PUT, PATCH and DELETE, each tagged
//!   `any_method` (see `docs/tags.md`).
//! - Conventional routes (`MapControllerRoute`, `MapAreaControllerRoute`,
//!   `MapDefaultControllerRoute`, `UseMvc(r => r.MapRoute(…))`) for
//!   controllers without attribute routes: `{controller}`, `{action}` and
//!   `{area}` substituted, optional segments (`{id?}`, `{id=5}`) kept
//!   only when the action has such a parameter.
//! - Razor Pages: see [`crate::razor`].
//! - Parameters: see [`crate::cs::params`]; `[ApiController]` infers
//!   `[FromBody]` for complex types. Request values read in the body
//!   (`Request.Query["q"]`, `Request.Headers["X"]`, `Request.Cookies["c"]`,
//!   `Request.Form["f"]`) are added.

use portolan_plugin_sdk::prelude::*;

use crate::cs::action_name;
use crate::cs::flow::{FnRef, Root, Verb};
use crate::cs::index::{Index, TypeId};
use crate::cs::mounts::Mounts;
use crate::cs::outline::{attr, Attr, CsFile, Ctor, Method, Param as CsParam, TypeKind};
use crate::cs::params::{bind, placeholders, reads, Binding};
use crate::minimal::ANY_METHODS;
use crate::scan;

pub struct AspNetCoreMvc;

impl Analyzer for AspNetCoreMvc {
    fn tech(&self) -> Tech {
        Tech::new("cs_aspnet_core_mvc", "C#", "ASP.NET Core MVC")
            .aliases([
                "aspnet-core-mvc",
                "aspnetcore",
                "aspnet-core",
                "asp.net-core",
            ])
            .files(["*.cs", "*.cshtml"])
            .detect(Detect::files(["*.cs"]).contains([
                "Microsoft.AspNetCore.Mvc",
                "[ApiController]",
                ": ControllerBase",
                "AddRazorPages",
                "MapRazorPages",
            ]))
            .detect(Detect::files(["*.cshtml"]).contains(["@page"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if file.path.ends_with(".cshtml") {
            if !crate::cs::is_test_code(&file.path, "") {
                if let Some(p) = crate::razor::page(file) {
                    out.fact(&scan::Fact::RazorPage(p));
                }
            }
            return;
        }
        scan::analyze(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link(facts, Flavor::Core))
    }
}

/// ASP.NET Core MVC, or classic ASP.NET MVC 5 / Web API 2 (see
/// [`crate::aspnet_mvc`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    Core,
    Classic,
}

fn verb_of(name: &str) -> Option<&'static str> {
    Some(match name {
        "HttpGet" => "GET",
        "HttpPost" => "POST",
        "HttpPut" => "PUT",
        "HttpDelete" => "DELETE",
        "HttpPatch" => "PATCH",
        "HttpHead" => "HEAD",
        "HttpOptions" => "OPTIONS",
        _ => return None,
    })
}

/// An `[Authorize]` attribute: `authz_guard` when it names roles or a
/// policy, `auth_guard` otherwise.
struct Guard {
    kind: &'static str,
    name: String,
    line: u32,
}

impl Guard {
    fn of(a: &Attr) -> Guard {
        let lit = |x: Option<&crate::cs::outline::AttrArg>| {
            x.and_then(|x| x.expr.as_ref()).and_then(|e| e.literal())
        };
        let mut args: Vec<String> = Vec::new();
        if let Some(p) = lit(a.positional(0)).or_else(|| lit(a.named("Policy"))) {
            args.push(format!("Policy = \"{p}\""));
        }
        if let Some(r) = lit(a.named("Roles")) {
            args.push(format!("Roles = \"{r}\""));
        }
        let kind = if args.is_empty() {
            "auth_guard"
        } else {
            "authz_guard"
        };
        let name = if args.is_empty() {
            "[Authorize]".to_string()
        } else {
            format!("[Authorize({})]", args.join(", "))
        };
        Guard {
            kind,
            name,
            line: a.line,
        }
    }
}

/// A route declared by one attribute.
#[derive(Clone, Debug)]
struct Spec {
    /// HTTP methods; empty for `[Route]`.
    methods: Vec<String>,
    template: Option<String>,
    line: u32,
}

struct Conventional {
    pattern: String,
    defaults: Vec<(String, String)>,
    /// `MapHttpRoute`: serves Web API controllers only.
    http: bool,
}

struct Linker<'a> {
    idx: Index<'a>,
    flavor: Flavor,
    /// `RouteTokenTransformerConvention` applied to attribute-route tokens.
    transformer: Option<scan::Transformer>,
    /// A convention's global prefix of attribute routes (Core).
    global_prefix: Option<String>,
    /// Prefixes of the route groups `MapControllers()` is called on (`""`
    /// for the application itself).
    groups: Vec<String>,
    /// Names of the tree's types that other types derive from.
    based: std::collections::HashSet<String>,
}

pub fn link(facts: &Facts, flavor: Flavor) -> Vec<Endpoint> {
    let mut f = scan::split(facts);
    merge_partials(&mut f.files);
    let l = Linker {
        idx: Index::new(&f.files),
        flavor,
        transformer: f.token_transformer.clone(),
        global_prefix: f.global_prefix.clone().filter(|_| flavor == Flavor::Core),
        groups: Vec::new(),
        based: f
            .files
            .iter()
            .flat_map(|x| x.types.iter())
            .flat_map(|t| t.bases.iter().cloned())
            .collect(),
    };
    let mounts = Mounts::new(&l.idx, &f.calls).with_groups(&f.groups);
    // `MapControllers()` on a route group: every attribute route gets the
    // group's prefix (once per call when mapped more than once).
    let mut groups: Vec<String> = Vec::new();
    for r in f.routes.iter().filter(|r| r.verb == Verb::Controllers) {
        for u in mounts.route_urls(r) {
            let u = if u == "/" { String::new() } else { u };
            if !groups.contains(&u) {
                groups.push(u);
            }
        }
    }
    if groups.is_empty() {
        groups.push(String::new());
    }
    let conventional: Vec<Conventional> = f
        .routes
        .iter()
        .flat_map(|r| {
            // A conventional route mapped on a group: below its prefix.
            let grouped = !r.at.groups.is_empty() || r.at.root != Root::Top;
            let patterns = if grouped {
                mounts.route_urls(r)
            } else {
                l.idx.eval(None, &r.pattern).into_iter().collect()
            };
            patterns.into_iter().map(move |p| (r, p))
        })
        .filter_map(|(r, pattern)| match &r.verb {
            Verb::Conventional { defaults, http } => {
                let mut defaults = defaults.clone();
                // Classic: a route registered by an `AreaRegistration`
                // serves that area's controllers only.
                if flavor == Flavor::Classic && !defaults.iter().any(|(k, _)| k == "area") {
                    if let Some(area) = l.registration_area(r.func.as_ref()) {
                        defaults.push(("area".to_string(), area));
                    }
                }
                Some(Conventional {
                    pattern,
                    defaults,
                    http: *http,
                })
            }
            _ => None,
        })
        .collect();
    let l = Linker { groups, ..l };
    let mut out = Vec::new();
    let ids: Vec<TypeId> = l.idx.all().collect();
    for id in ids {
        if l.is_controller(id) {
            l.controller(id, &conventional, &mut out);
        }
    }
    if flavor == Flavor::Core {
        crate::razor::link(&l.idx, &f.pages, &mut out);
    }
    out
}

/// The parts of a `partial` class (same namespace and name, in several
/// files: `HomeController.cs`, `HomeController.Admin.cs`) share their
/// attributes and base types: each part gets the union, so every part is
/// a controller with the class prefix. Methods stay with their part (and
/// file); inherited actions are listed with the first part only (see
/// [`Linker::actions`]).
fn merge_partials(files: &mut [CsFile]) {
    use std::collections::HashMap;
    type Shared = (Vec<Attr>, Vec<String>, Vec<Vec<String>>);
    let mut groups: HashMap<(String, String), Shared> = HashMap::new();
    for f in files.iter() {
        for t in f
            .types
            .iter()
            .filter(|t| t.modifiers.iter().any(|m| m == "partial"))
        {
            let g = groups
                .entry((t.namespace.clone(), t.name.clone()))
                .or_default();
            for a in &t.attrs {
                if !g.0.contains(a) {
                    g.0.push(a.clone());
                }
            }
            for (i, b) in t.bases.iter().enumerate() {
                if !g.1.contains(b) {
                    g.1.push(b.clone());
                    g.2.push(t.base_args.get(i).cloned().unwrap_or_default());
                }
            }
        }
    }
    for f in files.iter_mut() {
        for t in f.types.iter_mut() {
            if let Some((attrs, bases, args)) = groups.get(&(t.namespace.clone(), t.name.clone())) {
                if t.modifiers.iter().any(|m| m == "partial") {
                    t.attrs = attrs.clone();
                    t.bases = bases.clone();
                    t.base_args = args.clone();
                }
            }
        }
    }
}

fn literal(a: &Attr, n: usize) -> Option<String> {
    a.positional(n)
        .and_then(|x| x.expr.as_ref())
        .and_then(|e| e.literal())
}

impl Linker<'_> {
    fn lineage_attr(&self, id: TypeId, name: &str) -> Option<&Attr> {
        self.idx
            .lineage(id)
            .into_iter()
            .find_map(|t| self.idx.ty(t).attr(name))
    }

    /// Is the class a classic ASP.NET controller: its file names
    /// `System.Web.Mvc`/`System.Web.Http` and not ASP.NET Core, or (its
    /// file naming neither) a base class's file does and none of the
    /// lineage names ASP.NET Core? A tree holding both (a Core app with a
    /// leftover `System.Web` reference) links each controller once, with
    /// its own framework's rules.
    fn is_classic(&self, id: TypeId) -> bool {
        let lineage = self.idx.lineage(id);
        let files = || lineage.iter().map(|t| &self.idx.files[t.0]);
        let own = &self.idx.files[id.0];
        if own.core || own.classic {
            return own.classic && !own.core;
        }
        files().any(|f| f.classic) && !files().any(|f| f.core)
    }

    fn is_controller(&self, id: TypeId) -> bool {
        let t = self.idx.ty(id);
        if t.kind != TypeKind::Class || t.is_abstract() || t.attr("NonController").is_some() {
            return false;
        }
        if self.is_classic(id) != (self.flavor == Flavor::Classic) {
            return false;
        }
        if ["ApiController", "Controller"]
            .iter()
            .any(|n| self.lineage_attr(id, n).is_some())
        {
            return true;
        }
        let lineage = self.idx.lineage(id);
        let Some(root) = lineage.last() else {
            return false;
        };
        // ASP.NET Core: `ControllerBase` carries `[Controller]`, so any
        // class deriving from it (directly, or through a library's endpoint
        // base such as Ardalis' `EndpointBaseAsync.WithRequest<T>…`) is a
        // controller whatever its name.
        // (A base of other controllers of the tree is left to the name rule.)
        if self.flavor != Flavor::Classic
            && !self.based.contains(&t.name)
            && self.idx.ty(*root).bases.iter().any(|b| {
                let head = b.split(['.', '<']).next().unwrap_or(b);
                self.idx.find(head, Some(root.0)).is_none()
                    && matches!(
                        head,
                        "ControllerBase"
                            | "Controller"
                            | "EndpointBaseAsync"
                            | "EndpointBaseSync"
                            | "EndpointBase"
                            | "BaseAsyncEndpoint"
                            | "BaseEndpoint"
                            // `EndpointBaseAsync.WithRequest<T>.WithActionResult<R>`
                            // is read as its last name before `<`.
                            | "WithRequest"
                            | "WithoutRequest"
                            | "WithActionResult"
                            | "WithResult"
                            | "WithoutResult"
                    )
            })
        {
            return true;
        }
        // The lineage must end in a framework controller class (not in the
        // tree): `Controller`, `ControllerBase` or a library's
        // `…Controller`. An interface named `…Controller` (a Blazor
        // component's `IController`) does not make an MVC controller.
        if !t.name.ends_with("Controller") {
            return false;
        }
        // A POCO controller (ASP.NET Core): a public, non-generic class
        // named `…Controller` deriving from no class at all (interfaces
        // only), routed by its attributes.
        let interface = |b: &str| {
            let mut c = b.chars();
            c.next() == Some('I') && c.next().is_some_and(|x| x.is_ascii_uppercase())
        };
        if self.flavor != Flavor::Classic
            && lineage.len() == 1
            && t.generics.is_empty()
            && t.modifiers.iter().any(|m| m == "public")
            && t.bases.iter().all(|b| interface(b))
            && (t.attr("Route").is_some()
                || t.methods.iter().any(|m| {
                    m.attrs
                        .iter()
                        .any(|a| a.name == "Route" || a.name.starts_with("Http"))
                }))
        {
            return true;
        }
        self.idx.ty(*root).bases.iter().any(|b| {
            let external = self.idx.find(b, Some(root.0)).is_none();
            let mut c = b.chars();
            let interface =
                c.next() == Some('I') && c.next().is_some_and(|x| x.is_ascii_uppercase());
            external && !interface && (b.ends_with("Controller") || b.ends_with("ControllerBase"))
        })
    }

    /// The custom attribute type an attribute name refers to.
    fn custom(&self, name: &str, near: usize) -> Option<TypeId> {
        self.idx
            .find(&format!("{name}Attribute"), Some(near))
            .or_else(|| self.idx.find(name, Some(near)))
            .filter(|c| self.idx.ty(*c).kind == TypeKind::Class)
    }

    /// Evaluate argument `n` of a custom attribute's `: base(…)` call,
    /// with the attribute's own arguments bound to constructor parameters.
    /// When the attribute derives from another custom attribute of the
    /// tree (`V2Route : VersionedRoute : RouteAttribute`), its `: base(…)`
    /// arguments bind that one's constructor, up to the framework class.
    fn custom_arg(&self, cid: TypeId, a: &Attr, ctx: TypeId, n: usize) -> Option<String> {
        let (given, mut bind) = self.attr_args(a, ctx);
        self.ctor_arg(cid, given, &mut bind, n, 0)
    }

    /// The arguments a usage of a custom attribute gives (evaluated in
    /// type `ctx`): how many are positional, and a binder of constructor
    /// parameters by name, else by position.
    fn attr_args<'s>(
        &'s self,
        a: &'s Attr,
        ctx: TypeId,
    ) -> (usize, impl FnMut(&str, usize) -> Option<String> + 's) {
        let given = a.args.iter().filter(|x| x.name.is_none()).count();
        let bind = move |name: &str, k: usize| -> Option<String> {
            let arg = a
                .named(name)
                .or_else(|| a.positional(k))
                .and_then(|x| x.expr.as_ref())?;
            self.idx.eval(Some(ctx), arg)
        };
        (given, bind)
    }

    /// The value of `name` inside constructor `ctor` of custom attribute
    /// `cid`: the argument `bind` gives for that parameter, else the
    /// parameter's default; a constant for any other name.
    fn ctor_value(
        &self,
        cid: TypeId,
        ctor: &Ctor,
        bind: &mut dyn FnMut(&str, usize) -> Option<String>,
        name: &str,
    ) -> Option<String> {
        if let Some(k) = ctor.params.iter().position(|p| p == name) {
            if let Some(v) = bind(name, k) {
                return Some(v);
            }
            let (_, d) = ctor.defaults.iter().find(|(n, _)| n == name)?;
            return self.idx.eval(Some(cid), d);
        }
        self.idx.constant(Some(cid), name, 0)
    }

    /// Argument `n` of the framework attribute's constructor reached from
    /// custom attribute `cid`, whose constructor parameters `bind` fills
    /// (by name and position; unbound ones take their default values).
    fn ctor_arg(
        &self,
        cid: TypeId,
        given: usize,
        bind: &mut dyn FnMut(&str, usize) -> Option<String>,
        n: usize,
        depth: usize,
    ) -> Option<String> {
        let decl = self.idx.ty(cid);
        let ctor = decl
            .ctors
            .iter()
            .filter(|c| !c.base_args.is_empty())
            .min_by_key(|c| c.params.len().abs_diff(given))?;
        let mut value = |name: &str| self.ctor_value(cid, ctor, bind, name);
        // A base attribute of the tree with constructors of its own.
        let parent = decl
            .bases
            .first()
            .and_then(|b| self.custom(b.strip_suffix("Attribute").unwrap_or(b), cid.0))
            .filter(|&p| p != cid && self.idx.ty(p).ctors.iter().any(|c| !c.base_args.is_empty()));
        match parent {
            Some(p) if depth < 4 => {
                // Evaluate this constructor's `: base(…)` arguments first:
                // they are the parent constructor's positional arguments.
                let args = base_values(ctor, &mut value);
                let count = args.len();
                let mut up = |_: &str, k: usize| args.get(k).cloned().flatten();
                self.ctor_arg(p, count, &mut up, n, depth + 1)
            }
            _ => ctor.base_args.get(n)?.as_ref()?.resolve(&mut value),
        }
    }

    /// The value of property `prop` of custom attribute `cid` built with
    /// constructor arguments `bind`: its initializer, or its assignment in
    /// the constructor (a derived attribute's `: base(…)` arguments
    /// binding the parent's constructor).
    fn ctor_prop(
        &self,
        cid: TypeId,
        given: usize,
        bind: &mut dyn FnMut(&str, usize) -> Option<String>,
        prop: &str,
        depth: usize,
    ) -> Option<String> {
        let decl = self.idx.ty(cid);
        if let Some(v) = decl
            .props
            .iter()
            .find(|p| p.name == prop)
            .and_then(|p| p.value.as_ref())
            .and_then(|v| self.idx.eval(Some(cid), v))
        {
            return Some(v);
        }
        let ctor = decl
            .ctors
            .iter()
            .min_by_key(|c| c.params.len().abs_diff(given))?;
        let mut value = |name: &str| self.ctor_value(cid, ctor, bind, name);
        if let Some((_, e)) = ctor.assigns.iter().find(|(n, _)| n == prop) {
            return e.resolve(&mut value);
        }
        let parent = decl
            .bases
            .first()
            .and_then(|b| self.custom(b.strip_suffix("Attribute").unwrap_or(b), cid.0))
            .filter(|&p| p != cid)?;
        if depth >= 4 {
            return None;
        }
        let args = base_values(ctor, &mut value);
        let count = args.len();
        let mut up = |_: &str, k: usize| args.get(k).cloned().flatten();
        self.ctor_prop(parent, count, &mut up, prop, depth + 1)
    }

    /// Route specs of attributes written on a type or method of `ctx`.
    fn specs(&self, attrs: &[Attr], ctx: TypeId, method_line: u32) -> Vec<Spec> {
        let mut out = Vec::new();
        let template = |a: &Attr, names: &[&str]| -> Option<String> {
            let arg = names
                .iter()
                .find_map(|n| a.named(n))
                .or_else(|| a.positional(0).filter(|_| !names.contains(&"Route")))?;
            self.idx.eval(Some(ctx), arg.expr.as_ref()?)
        };
        let _ = method_line;
        for a in attrs {
            if let Some(m) = verb_of(&a.name) {
                out.push(Spec {
                    methods: vec![m.to_string()],
                    template: template(a, &["template"]),
                    line: a.line,
                });
                continue;
            }
            match a.name.as_str() {
                "Route" => {
                    if let Some(t) = template(a, &["template"]) {
                        out.push(Spec {
                            methods: Vec::new(),
                            template: Some(t),
                            line: a.line,
                        });
                    }
                    continue;
                }
                "AcceptVerbs" => {
                    let methods = a
                        .args
                        .iter()
                        .filter(|x| x.name.is_none())
                        .flat_map(|x| x.strings.iter())
                        .map(|s| s.to_ascii_uppercase())
                        .collect();
                    out.push(Spec {
                        methods,
                        template: template(a, &["Route"]),
                        line: a.line,
                    });
                    continue;
                }
                _ => {}
            }
            // Custom attributes.
            let Some(cid) = self.custom(&a.name, ctx.0) else {
                continue;
            };
            let lineage = self.idx.lineage(cid);
            let base_names: Vec<&str> = lineage
                .iter()
                .flat_map(|t| self.idx.ty(*t).bases.iter().map(String::as_str))
                .collect();
            let own_template = || {
                a.named("template")
                    .or_else(|| a.positional(0))
                    .and_then(|x| x.expr.as_ref())
                    .and_then(|e| self.idx.eval(Some(ctx), e))
            };
            if base_names
                .iter()
                .any(|b| *b == "RouteAttribute" || *b == "Route")
            {
                let t = self.custom_arg(cid, a, ctx, 0).or_else(own_template);
                if let Some(t) = t {
                    out.push(Spec {
                        methods: Vec::new(),
                        template: Some(t),
                        line: a.line,
                    });
                }
            } else if let Some(m) = base_names
                .iter()
                .find_map(|b| verb_of(b.strip_suffix("Attribute").unwrap_or(b)))
            {
                out.push(Spec {
                    methods: vec![m.to_string()],
                    template: self.custom_arg(cid, a, ctx, 0).or_else(own_template),
                    line: a.line,
                });
            } else if base_names
                .iter()
                .any(|b| *b == "IRouteTemplateProvider" || *b == "IActionHttpMethodProvider")
            {
                // An attribute implementing the routing interfaces itself:
                // `Template => "{id:int}"`, `HttpMethods => new[] { "GET" }`,
                // or `Template = $"api/v{version}/{resource}"` set by its
                // constructor (through derived attributes' `: base(…)`).
                let (given, mut bind) = self.attr_args(a, ctx);
                let template = self.ctor_prop(cid, given, &mut bind, "Template", 0);
                let methods: Vec<String> = lineage
                    .iter()
                    .flat_map(|t| self.idx.ty(*t).props.iter())
                    .filter(|p| p.name == "HttpMethods")
                    .flat_map(|p| p.strings.iter())
                    .map(|s| s.to_ascii_uppercase())
                    .collect();
                if template.is_some() || !methods.is_empty() {
                    out.push(Spec {
                        methods,
                        template,
                        line: a.line,
                    });
                }
            } else if base_names.contains(&"HttpMethodAttribute") {
                let methods: Vec<String> = self
                    .idx
                    .ty(cid)
                    .ctors
                    .iter()
                    .flat_map(|c| c.base_strings.iter())
                    .map(|s| s.to_ascii_uppercase())
                    .filter(|s| !s.contains('/') && !s.contains('{'))
                    .collect();
                out.push(Spec {
                    methods,
                    template: self.custom_arg(cid, a, ctx, 1).or_else(own_template),
                    line: a.line,
                });
            }
        }
        out
    }

    /// Class-level templates: the nearest type of the lineage with any.
    fn class_routes(&self, id: TypeId) -> Vec<String> {
        for t in self.idx.lineage(id) {
            let specs = self.specs(&self.idx.ty(t).attrs, t, 0);
            let templates: Vec<String> = specs
                .into_iter()
                .filter(|s| s.methods.is_empty())
                .filter_map(|s| s.template)
                .collect();
            if !templates.is_empty() {
                return templates;
            }
        }
        Vec::new()
    }

    /// The attributes an action declares, or, for an `override` declaring
    /// none, those of the overridden method of a base class (MVC reads
    /// routing attributes with inheritance): (their type, the method).
    fn attr_source<'m>(
        &'m self,
        lineage: &[TypeId],
        owner: TypeId,
        m: &'m Method,
    ) -> (TypeId, &'m Method) {
        if !m.has("override") || !m.attrs.is_empty() {
            return (owner, m);
        }
        let below = lineage.iter().skip_while(|t| **t != owner).skip(1);
        for t in below {
            if let Some(b) = self.idx.ty(*t).methods.iter().find(|b| {
                b.name == m.name && b.params.len() == m.params.len() && !b.attrs.is_empty()
            }) {
                return (*t, b);
            }
        }
        (owner, m)
    }

    /// The type arguments a controller gives its generic base classes
    /// (`ProductsController : Crud<Product, ProductInput>` → `TItem` =
    /// `Product`, `TInput` = `ProductInput`), through every level.
    fn generic_args(&self, lineage: &[TypeId]) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for w in lineage.windows(2) {
            let (child, parent) = (self.idx.ty(w[0]), self.idx.ty(w[1]));
            let Some(j) = child
                .bases
                .iter()
                .position(|b| self.idx.find(b, Some(w[0].0)) == Some(w[1]))
            else {
                continue;
            };
            let args = child.base_args.get(j).cloned().unwrap_or_default();
            for (g, a) in parent.generics.iter().zip(args) {
                let a = out
                    .iter()
                    .find(|(n, _)| *n == a)
                    .map_or(a, |(_, v)| v.clone());
                out.push((g.clone(), a));
            }
        }
        out
    }

    /// Is the type not a `partial` class, or its first part?
    fn first_part(&self, id: TypeId) -> bool {
        let t = self.idx.ty(id);
        if !t.modifiers.iter().any(|m| m == "partial") {
            return true;
        }
        let first = self.idx.named(&t.name).iter().copied().find(|o| {
            let x = self.idx.ty(*o);
            x.name == t.name
                && x.namespace == t.namespace
                && x.modifiers.iter().any(|m| m == "partial")
        });
        first == Some(id)
    }

    /// Public instance methods of the lineage, nearest first.
    fn actions(&self, id: TypeId) -> Vec<(TypeId, &Method)> {
        let mut out: Vec<(TypeId, &Method)> = Vec::new();
        let mut seen: Vec<(&str, usize)> = Vec::new();
        let mut lineage = self.idx.lineage(id);
        if !self.first_part(id) {
            // Another part of a partial class lists its own methods only.
            lineage.truncate(1);
        }
        for t in lineage {
            // Overrides are matched by name and arity against the derived
            // types only: overloads of one class (`Grab(int id)` and
            // `Grab([FromBody] Bulk b)`) are distinct actions.
            let derived = seen.len();
            for m in &self.idx.ty(t).methods {
                let key = (m.name.as_str(), m.params.len());
                if seen[..derived].contains(&key) {
                    continue;
                }
                seen.push(key);
                if !m.has("public") || m.has("static") || m.has("abstract") {
                    continue;
                }
                if attr(&m.attrs, "NonAction").is_some()
                    || matches!(
                        m.name.as_str(),
                        "Dispose"
                            | "OnActionExecuting"
                            | "OnActionExecuted"
                            | "OnActionExecutionAsync"
                    )
                {
                    continue;
                }
                out.push((t, m));
            }
        }
        out
    }

    /// Does the class derive from Web API 2's `ApiController`?
    fn is_web_api(&self, id: TypeId) -> bool {
        self.idx
            .lineage(id)
            .iter()
            .any(|x| self.idx.ty(*x).bases.iter().any(|b| b == "ApiController"))
    }

    /// Classic: `[RouteArea]` prefix and `[RoutePrefix]` of the nearest
    /// type of the lineage (`Admin/users`).
    fn route_prefix(&self, id: TypeId) -> Option<String> {
        let area = self.lineage_attr(id, "RouteArea").and_then(|a| {
            let e = a
                .named("AreaPrefix")
                .or_else(|| a.positional(0))?
                .expr
                .as_ref()?;
            self.idx.eval(Some(id), e)
        });
        let prefix = self.idx.lineage(id).into_iter().find_map(|t| {
            let a = self.idx.ty(t).attr("RoutePrefix")?;
            let e = a
                .positional(0)
                .or_else(|| a.named("prefix"))?
                .expr
                .as_ref()?;
            self.idx.eval(Some(t), e)
        });
        match (area, prefix) {
            (None, None) => None,
            (a, p) => Some(join_path(&[a.unwrap_or_default(), p.unwrap_or_default()])),
        }
    }

    /// Classic: the area of a controller, from `[RouteArea("Admin")]` or
    /// its namespace (`Shop.Areas.Admin.Controllers`).
    fn classic_area(&self, id: TypeId) -> Option<String> {
        if let Some(a) = self.lineage_attr(id, "RouteArea") {
            if let Some(name) = literal(a, 0) {
                return Some(name);
            }
        }
        area_of_namespace(&self.idx.ty(id).namespace)
    }

    /// The area an `AreaRegistration` subclass registers routes for: its
    /// namespace's area, else its name without `AreaRegistration`.
    fn registration_area(&self, func: Option<&FnRef>) -> Option<String> {
        let id = self.idx.find(&func?.ty, None)?;
        if !self.idx.derives(id, &|b| b == "AreaRegistration") {
            return None;
        }
        let t = self.idx.ty(id);
        area_of_namespace(&t.namespace).or_else(|| {
            t.name
                .strip_suffix("AreaRegistration")
                .filter(|n| !n.is_empty())
                .map(str::to_string)
        })
    }

    /// Classic: `[Route]` templates written on the class itself (the
    /// default route of its actions without one).
    fn class_defaults(&self, id: TypeId) -> Vec<String> {
        self.specs(&self.idx.ty(id).attrs, id, 0)
            .into_iter()
            .filter(|s| s.methods.is_empty())
            .filter_map(|s| s.template)
            .collect()
    }

    fn controller(&self, id: TypeId, conventional: &[Conventional], out: &mut Vec<Endpoint>) {
        let classic = self.flavor == Flavor::Classic;
        let t = self.idx.ty(id);
        let ctrl = t
            .name
            .strip_suffix("Controller")
            .unwrap_or(&t.name)
            .to_string();
        let area = if classic {
            self.classic_area(id)
        } else {
            self.lineage_attr(id, "Area").and_then(|a| {
                literal(a, 0)
                    .or_else(|| a.named("AreaName").and_then(|x| x.expr.as_ref()?.literal()))
            })
        };
        let web_api = classic && self.is_web_api(id);
        let api = web_api || (!classic && self.lineage_attr(id, "ApiController").is_some());
        // Core: class `[Route]`s prefix every action. Classic: `[RoutePrefix]`
        // prefixes attribute routes, class `[Route]`s are defaults.
        let (class_routes, class_defaults) = if classic {
            (
                self.route_prefix(id).into_iter().collect::<Vec<_>>(),
                self.class_defaults(id),
            )
        } else {
            (self.class_routes(id), Vec::new())
        };
        let lineage = self.idx.lineage(id);
        let subst = self.generic_args(&lineage);
        // The guard of the previous action and where its endpoints start
        // (applied at the next action, so every `continue` below is safe).
        let mut pending: Option<(usize, Option<(Guard, TypeId)>)> = None;
        for (owner, m) in self.actions(id) {
            if let Some((start, g)) = pending.take() {
                self.apply_guard(g, &mut out[start..]);
            }
            let (attr_owner, attr_m) = self.attr_source(&lineage, owner, m);
            pending = Some((out.len(), self.guard(id, attr_owner, attr_m)));
            let action = attr(&attr_m.attrs, "ActionName")
                .and_then(|a| literal(a, 0))
                .unwrap_or_else(|| action_name(&m.name).to_string());
            let mut specs = self.specs(&attr_m.attrs, attr_owner, m.line);
            if attr_owner != owner {
                // Inherited routes are reported at the override.
                for s in &mut specs {
                    s.line = m.line;
                }
            }
            let untemplated: Vec<String> = specs
                .iter()
                .filter(|s| s.template.is_none())
                .flat_map(|s| s.methods.iter().cloned())
                .collect();
            let any = || {
                if web_api {
                    return vec![web_api_verb(&m.name).to_string()];
                }
                ANY_METHODS
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
            };
            // (template, methods, line)
            let mut routes: Vec<(Option<String>, Vec<String>, u32)> = Vec::new();
            for s in &specs {
                match &s.template {
                    Some(tpl) if !s.methods.is_empty() => {
                        routes.push((Some(tpl.clone()), s.methods.clone(), s.line))
                    }
                    Some(tpl) => {
                        let methods = if untemplated.is_empty() {
                            any()
                        } else {
                            untemplated.clone()
                        };
                        routes.push((Some(tpl.clone()), methods, s.line));
                    }
                    None => {}
                }
            }
            let has_route_attr = specs
                .iter()
                .any(|s| s.methods.is_empty() && s.template.is_some());
            if classic && !routes.iter().any(|r| r.0.is_some()) && !class_defaults.is_empty() {
                let methods = if untemplated.is_empty() {
                    any()
                } else {
                    untemplated.clone()
                };
                let line = specs.first().map_or(m.line, |s| s.line);
                for tpl in &class_defaults {
                    routes.push((Some(tpl.clone()), methods.clone(), line));
                }
            } else if !has_route_attr && !untemplated.is_empty() {
                let line = specs
                    .iter()
                    .find(|s| s.template.is_none())
                    .map_or(m.line, |s| s.line);
                routes.push((None, untemplated.clone(), line));
            }
            let attributed = if classic {
                routes.iter().any(|r| r.0.is_some())
            } else {
                !class_routes.is_empty() || routes.iter().any(|r| r.0.is_some())
            };
            if !attributed {
                let methods = if untemplated.is_empty() {
                    any()
                } else {
                    untemplated.clone()
                };
                let line = specs.first().map_or(m.line, |s| s.line);
                for c in conventional {
                    if classic && c.http != web_api {
                        continue;
                    }
                    let urls = conventional_urls(
                        c,
                        &ctrl,
                        &action,
                        area.as_deref(),
                        m,
                        self.flavor,
                        web_api,
                    );
                    for url in urls {
                        self.emit(owner, m, &url, &methods, line, (api, &subst), out);
                    }
                }
                continue;
            }
            if routes.is_empty() {
                routes.push((None, any(), m.line));
            }
            let prefixes = if class_routes.is_empty() {
                vec![String::new()]
            } else {
                class_routes.clone()
            };
            for (tpl, methods, line) in &routes {
                if classic && tpl.is_none() {
                    continue;
                }
                let absolute = tpl
                    .as_deref()
                    .is_some_and(|x| x.starts_with('/') || x.starts_with("~/"));
                let prefixes = if absolute {
                    &prefixes[..1]
                } else {
                    &prefixes[..]
                };
                for prefix in prefixes {
                    // An absolute class template (`~/x`, `/x`) skips the
                    // global prefix; an absolute action template also
                    // skips the class's.
                    let (global, prefix) = match rooted(prefix) {
                        Some(p) => ("", p),
                        None => (self.global_prefix.as_deref().unwrap_or(""), prefix.as_str()),
                    };
                    let url = match tpl.as_deref() {
                        Some(x) => match rooted(x) {
                            Some(x) => join_path(&[x]),
                            None => join_path(&[global, prefix, x]),
                        },
                        None => join_path(&[global, prefix]),
                    };
                    for group in &self.groups {
                        let url = join_path(&[group.as_str(), url.as_str()]);
                        let url = if classic {
                            classic_tokens(&url, &ctrl, &action)
                        } else if let Some(t) = &self.transformer {
                            let area = area.as_deref().map(|a| t.apply(a));
                            tokens(&url, &t.apply(&ctrl), &t.apply(&action), area.as_deref())
                        } else {
                            tokens(&url, &ctrl, &action, area.as_deref())
                        };
                        for url in self.versioned(id, attr_m, &url) {
                            for url in optional_tails(&url) {
                                self.emit(owner, m, &url, methods, *line, (api, &subst), out);
                            }
                        }
                    }
                }
            }
        }
        if let Some((start, g)) = pending.take() {
            self.apply_guard(g, &mut out[start..]);
        }
    }

    /// API versioning (`Asp.Versioning`): a `{version:apiVersion}` route
    /// parameter is filled with each version the action serves —
    /// `[MapToApiVersion]` on it, else its own `[ApiVersion]`s, else the
    /// controller's (or a base class's) — formatted as the URL segment
    /// (`"1.0"` → `1`, `"2.1"` → `2.1`), the way Swagger documents them.
    /// Without declared versions the parameter stays.
    fn versioned(&self, id: TypeId, m: &Method, url: &str) -> Vec<String> {
        let Some(open) = url.find(":apiVersion}").and_then(|e| url[..e].rfind('{')) else {
            return vec![url.to_string()];
        };
        let Some(close) = url[open..].find('}').map(|c| open + c) else {
            return vec![url.to_string()];
        };
        let of = |attrs: &[Attr], name: &str| -> Vec<String> {
            attrs
                .iter()
                .filter(|a| a.name == name)
                .filter_map(|a| {
                    let e = a.positional(0)?.expr.as_ref()?;
                    e.literal().or_else(|| {
                        e.parts.iter().find_map(|p| match p {
                            crate::cs::expr::Piece::Ref(n)
                                if n.starts_with(|c: char| c.is_ascii_digit()) =>
                            {
                                Some(n.clone())
                            }
                            _ => None,
                        })
                    })
                })
                .collect()
        };
        let mut versions = of(&m.attrs, "MapToApiVersion");
        if versions.is_empty() {
            versions = of(&m.attrs, "ApiVersion");
        }
        if versions.is_empty() {
            versions = self
                .idx
                .lineage(id)
                .into_iter()
                .map(|t| of(&self.idx.ty(t).attrs, "ApiVersion"))
                .find(|v| !v.is_empty())
                .unwrap_or_default();
        }
        let mut out: Vec<String> = Vec::new();
        for v in versions {
            let v = v.strip_suffix(".0").unwrap_or(&v).to_string();
            let u = format!("{}{}{}", &url[..open], v, &url[close + 1..]);
            if !out.contains(&u) {
                out.push(u);
            }
        }
        if out.is_empty() {
            out.push(url.to_string());
        }
        out
    }

    /// The authorization attribute guarding an action: `[Authorize]` on
    /// the action, else on the controller or a base class, unless
    /// `[AllowAnonymous]` on the action (or, above the action's own
    /// `[Authorize]`, on the controller) lets everyone in.
    fn guard(&self, id: TypeId, owner: TypeId, m: &Method) -> Option<(Guard, TypeId)> {
        if attr(&m.attrs, "AllowAnonymous").is_some() {
            return None;
        }
        if let Some(a) = attr(&m.attrs, "Authorize") {
            return Some((Guard::of(a), owner));
        }
        for t in self.idx.lineage(id) {
            let decl = self.idx.ty(t);
            if decl.attr("AllowAnonymous").is_some() {
                return None;
            }
            if let Some(a) = decl.attr("Authorize") {
                return Some((Guard::of(a), t));
            }
        }
        None
    }

    fn apply_guard(&self, g: Option<(Guard, TypeId)>, eps: &mut [Endpoint]) {
        let Some((g, at)) = g else { return };
        for e in eps {
            e.push_guard(g.kind, &g.name, "attribute", self.idx.path(at), g.line);
        }
    }

    /// Classic Web API's `[FromUri]` binds like Core's `[FromQuery]`.
    fn classic_param(&self, p: &CsParam) -> CsParam {
        let mut p = p.clone();
        if self.flavor == Flavor::Classic {
            for a in &mut p.attrs {
                if a.name == "FromUri" {
                    a.name = "FromQuery".to_string();
                }
            }
        }
        p
    }

    #[allow(clippy::too_many_arguments)]
    fn emit(
        &self,
        owner: TypeId,
        m: &Method,
        url: &str,
        methods: &[String],
        line: u32,
        (api, subst): (bool, &[(String, String)]),
        out: &mut Vec<Endpoint>,
    ) {
        let route = placeholders(url);
        let any = methods.iter().map(String::as_str).eq(ANY_METHODS);
        for method in methods {
            let b = Binding {
                route: &route,
                method,
                infer_body: api,
                near: Some(owner.0),
            };
            let mut e = Endpoint::new(method, url).at_path(self.idx.path(owner), line);
            if any {
                e = e.tag(Tag::any_method());
            }
            for p in &m.params {
                let mut p = self.classic_param(p);
                let bare = p.ty.trim_end_matches('?');
                if let Some((_, to)) = subst.iter().find(|(g, _)| g == bare) {
                    p.ty = to.clone();
                }
                let p = &p;
                for x in bind(&self.idx, p, &b) {
                    e.push_param(x);
                }
            }
            for x in reads(&self.idx, &m.reads, Some(owner.0)) {
                e.push_param(x);
            }
            for name in &route {
                if url.contains(&format!("{{*{name}}}")) || url.contains(&format!("{{**{name}}}")) {
                    e.push_param(Param::path(name.clone()));
                }
            }
            out.push(e);
        }
    }
}

/// An attribute route and the shorter URLs its trailing optional
/// parameters allow: `/hooks/{id?}` is also `/hooks`; `{page=1}` too.
fn optional_tails(url: &str) -> Vec<String> {
    let mut out = vec![url.to_string()];
    let mut cur = url.trim_end_matches('/');
    while let Some((head, last)) = cur.rsplit_once('/') {
        let optional = last.starts_with('{')
            && last.ends_with('}')
            && !last.contains('*')
            && (last.ends_with("?}") || last.contains('='));
        if !optional {
            break;
        }
        out.push(if head.is_empty() {
            "/".to_string()
        } else {
            head.to_string()
        });
        cur = head;
    }
    out
}

/// `~/x` and `/x` are absolute templates: `Some("/x")`.
fn rooted(tpl: &str) -> Option<&str> {
    let t = tpl.strip_prefix('~').unwrap_or(tpl);
    t.starts_with('/').then_some(t)
}

/// Replace `[controller]`, `[action]` and `[area]` (any case), and the
/// route parameters of those names (`{action}`, `{action:slug=Index}`):
/// ASP.NET Core fills an attribute route's parameters named after its
/// required values with the action's own values.
fn tokens(url: &str, ctrl: &str, action: &str, area: Option<&str>) -> String {
    let url = required_values(url, ctrl, action, area);
    let filled = replace_spans(&url, '[', ']', |token| {
        match token.to_ascii_lowercase().as_str() {
            "controller" => Some(ctrl),
            "action" => Some(action),
            "area" => Some(area.unwrap_or("")),
            _ => None,
        }
    });
    match filled {
        Ok(out) => join_path(&[out.as_str()]),
        Err(unclosed) => unclosed,
    }
}

/// `text` with every `open`…`close` span replaced by what `fill` returns
/// for the text inside it (the span is kept when it returns `None`). An
/// unclosed span ends the replacement: `Err` holds the text replaced so
/// far followed by the rest as is.
fn replace_spans<'a>(
    text: &str,
    open: char,
    close: char,
    fill: impl Fn(&str) -> Option<&'a str>,
) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(open) {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let Some(end) = after.find(close) else {
            out.push_str(after);
            return Err(out);
        };
        match fill(&after[open.len_utf8()..end]) {
            Some(value) => out.push_str(value),
            None => out.push_str(&after[..end + close.len_utf8()]),
        }
        rest = &after[end + close.len_utf8()..];
    }
    out.push_str(rest);
    Ok(out)
}

/// `{controller}`, `{action}` and `{area}` parameters (with constraints
/// or defaults) replaced by the action's values.
fn required_values(url: &str, ctrl: &str, action: &str, area: Option<&str>) -> String {
    replace_spans(url, '{', '}', |inner| {
        let name = inner
            .split([':', '=', '?'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match (name.as_str(), area) {
            ("controller", _) => Some(ctrl),
            ("action", _) => Some(action),
            ("area", Some(a)) => Some(a),
            _ => None,
        }
    })
    .unwrap_or_else(|unclosed| unclosed)
}

/// `Shop.Areas.Admin.Controllers` → `Admin`.
/// A constructor's `: base(…)` arguments, evaluated with `value`.
fn base_values(ctor: &Ctor, value: &mut dyn FnMut(&str) -> Option<String>) -> Vec<Option<String>> {
    ctor.base_args
        .iter()
        .map(|e| e.as_ref().and_then(|e| e.resolve(value)))
        .collect()
}

fn area_of_namespace(ns: &str) -> Option<String> {
    let mut parts = ns.split('.');
    parts.find(|p| *p == "Areas")?;
    parts.next().map(str::to_string)
}

/// Web API 2's verb for an action without a verb attribute: the method
/// name's prefix (`GetAllProducts` → GET), else POST.
fn web_api_verb(name: &str) -> &'static str {
    [
        ("Get", "GET"),
        ("Post", "POST"),
        ("Put", "PUT"),
        ("Delete", "DELETE"),
        ("Patch", "PATCH"),
        ("Head", "HEAD"),
        ("Options", "OPTIONS"),
    ]
    .iter()
    .find(|(p, _)| name.starts_with(p))
    .map_or("POST", |(_, v)| v)
}

/// Classic attribute routes: `{controller}` and `{action}` (also with a
/// default or constraint: `{action=Index}`) are replaced by the names.
fn classic_tokens(url: &str, ctrl: &str, action: &str) -> String {
    let segs: Vec<String> = url
        .split('/')
        .map(|seg| {
            let inner = seg.strip_prefix('{').and_then(|x| x.strip_suffix('}'));
            let name = inner.map(|i| i.split([':', '=', '?']).next().unwrap_or(""));
            match name {
                Some("controller") => ctrl.to_string(),
                Some("action") => action.to_string(),
                _ => seg.to_string(),
            }
        })
        .collect();
    join_path(&segs)
}

/// The URLs of an action under a conventional route. Core: the full form
/// only. Classic: also the short form of the default controller's default
/// action (`/` for `{controller}/{action}/{id}` with `Home`/`Index`
/// defaults), and Web API routes without `{action}` select actions by verb.
fn conventional_urls(
    c: &Conventional,
    ctrl: &str,
    action: &str,
    area: Option<&str>,
    m: &Method,
    flavor: Flavor,
    web_api: bool,
) -> Vec<String> {
    let Some(url) = conventional_url(c, ctrl, action, area, m, web_api) else {
        return Vec::new();
    };
    let mut out = vec![url];
    if flavor == Flavor::Classic {
        let default = |k: &str| {
            c.defaults
                .iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v.as_str())
        };
        let is_default = default("controller").is_some_and(|d| d.eq_ignore_ascii_case(ctrl))
            && default("action").is_some_and(|d| d.eq_ignore_ascii_case(action));
        if is_default {
            // Drop the trailing segments that all have defaults.
            let mut segs: Vec<&str> = c.pattern.split('/').collect();
            while let Some(last) = segs.last() {
                let name = last
                    .strip_prefix('{')
                    .and_then(|x| x.strip_suffix('}'))
                    .map(|i| i.split([':', '=', '?']).next().unwrap_or(""));
                match name {
                    Some(n) if default(n).is_some() || last.contains(['?', '=']) => {
                        segs.pop();
                    }
                    _ => break,
                }
            }
            let short = join_path(&segs);
            if !out.contains(&short) {
                out.push(short);
            }
        }
    }
    out
}

/// The URL of an action under a conventional route, if the route can
/// reach it.
fn conventional_url(
    c: &Conventional,
    ctrl: &str,
    action: &str,
    area: Option<&str>,
    m: &Method,
    web_api: bool,
) -> Option<String> {
    let default = |k: &str| {
        c.defaults
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    };
    let pattern_area = c.pattern.contains("{area");
    match (area, default("area")) {
        (Some(a), Some(d)) if !a.eq_ignore_ascii_case(d) => return None,
        (None, Some(_)) => return None,
        (Some(_), None) if !pattern_area => return None,
        (None, None) if pattern_area => return None,
        _ => {}
    }
    let has_ctrl = c.pattern.contains("{controller");
    let has_action = c.pattern.contains("{action");
    if !has_ctrl && default("controller").is_none_or(|d| !d.eq_ignore_ascii_case(ctrl)) {
        return None;
    }
    // Web API routes without `{action}` select the action by verb.
    let by_verb = web_api && c.http;
    if !(has_action || by_verb) && default("action").is_none_or(|d| !d.eq_ignore_ascii_case(action))
    {
        return None;
    }
    let mut segs = Vec::new();
    for seg in c.pattern.split('/') {
        if let Some(inner) = seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            let name = inner
                .split([':', '=', '?'])
                .next()
                .unwrap_or("")
                .trim_start_matches('*');
            let optional = inner.ends_with('?') || inner.contains('=') || default(name).is_some();
            match name {
                "controller" => segs.push(ctrl.to_string()),
                "action" => segs.push(action.to_string()),
                "area" => segs.push(area.unwrap_or("").to_string()),
                _ if optional => {
                    if m.params.iter().any(|p| p.name.eq_ignore_ascii_case(name)) {
                        segs.push(format!("{{{name}}}"));
                    }
                }
                _ => segs.push(seg.to_string()),
            }
        } else {
            segs.push(seg.to_string());
        }
    }
    Some(join_path(&segs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_replacement() {
        assert_eq!(
            tokens("api/[Controller]/[action]/{id:int}", "Orders", "Get", None),
            "/api/Orders/Get/{id:int}"
        );
        assert_eq!(
            tokens("[area]/[controller]", "Home", "Index", Some("Admin")),
            "/Admin/Home"
        );
    }
}
