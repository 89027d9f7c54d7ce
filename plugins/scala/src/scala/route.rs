//! The route model shared by the code DSL analyzers (Akka HTTP, http4s,
//! Tapir, ZIO HTTP): each file's named definitions become [`Def`] facts
//! holding a [`Node`] tree (path pieces, methods, parameters, references to
//! other definitions); [`World::endpoints`] resolves references across
//! files and objects and walks the trees from their roots.

use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use super::tick;

/// One piece of a URL path.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub enum Piece {
    /// A literal (may hold several segments: `api/v1`).
    Lit(String),
    /// A constant, by (qualified) name.
    Const(Vec<String>),
    /// A path parameter.
    Param(String),
    /// Ignored.
    #[default]
    Nothing,
}

/// A parameter a route reads.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum Par {
    Named(ParamKind, String),
    /// Every field of the named case class.
    Body(ParamKind, String),
    /// Query for GET/HEAD/DELETE/OPTIONS, form otherwise.
    Auto(String),
    /// A named value recorded by a [`Fact::Named`] (an http4s matcher).
    Lookup(String),
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Node {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub line: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<Piece>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub methods: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Par>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<Vec<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Node>,
    /// Custom directives defined elsewhere (`def prefix = pathPrefix(…)`)
    /// wrapping this node (`prefix { … }`): their path pieces come first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wrap: Vec<Vec<String>>,
    /// Names for the path values those directives extract (the block's
    /// lambda parameters: `itemPrefix { id => … }`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// An endpoint ends here.
    #[serde(default, skip_serializing_if = "is_false")]
    pub leaf: bool,
    /// An endpoint ends here unless the references below add some: a
    /// directive whose block calls a helper (`(itemOps & extractMethod) {
    /// dispatch(m, id) }`) that may or may not build routes itself.
    #[serde(default, skip_serializing_if = "is_false")]
    pub fallback: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}
fn is_false(b: &bool) -> bool {
    !*b
}

impl Node {
    pub fn at(line: u32) -> Self {
        Node {
            line,
            ..Node::default()
        }
    }

    /// Does the tree hold anything that can produce an endpoint?
    pub fn routes(&self) -> bool {
        self.leaf || !self.refs.is_empty() || self.children.iter().any(Node::routes)
    }

    /// Does the tree end an endpoint itself (not only through references)?
    pub fn has_leaf(&self) -> bool {
        self.leaf || self.fallback || self.children.iter().any(Node::has_leaf)
    }
}

/// A named definition (`val routes = …`), or an anonymous root.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Def {
    pub file: String,
    #[serde(default)]
    pub owner: Option<String>,
    pub name: String,
    #[serde(default)]
    pub line: u32,
    #[serde(default)]
    pub node: Option<Node>,
    /// `val x = new T(…)` / `T(…)`: x stands for a T.
    #[serde(default)]
    pub alias: Option<String>,
    /// The arguments of that construction (literals and names), read for
    /// `x.field` when `field` is a constructor parameter of T.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alias_args: Vec<Option<Piece>>,
    /// `val X = "lit" + Y`: a string constant.
    #[serde(default)]
    pub konst: Option<Vec<Piece>>,
    /// Reported even when referenced (anonymous routes).
    #[serde(default)]
    pub root: bool,
    /// Never a root by itself (a tapir base endpoint, a matcher…).
    #[serde(default)]
    pub never_root: bool,
    /// `def prefix = pathPrefix(…)`: a directive without routes, used as
    /// `prefix { … }`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directive: Option<Node>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t")]
pub enum Fact {
    Def(Box<Def>),
    Class {
        name: String,
        fields: Vec<String>,
    },
    /// A named value standing for a parameter (http4s query matchers).
    Named {
        name: String,
        par: Par,
    },
    /// A servlet/router mounted at a path (Scalatra).
    Mount {
        class: String,
        path: Vec<Piece>,
    },
    /// A class or trait declaring routes directly in its body (Scalatra).
    Servlet(Servlet),
    /// The supertypes of a class, object or trait.
    Parents {
        name: String,
        parents: Vec<String>,
    },
    /// The constructor parameter names of a class.
    Ctor {
        class: String,
        params: Vec<String>,
    },
    /// `new C(…)` inside `owner`: each argument as a string literal or a
    /// plain name (a constructor parameter of `owner`).
    New {
        class: String,
        owner: Option<String>,
        args: Vec<Option<Piece>>,
    },
}

/// A class or trait with its parents and the routes of its body.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Servlet {
    pub file: String,
    pub name: String,
    #[serde(default)]
    pub parents: Vec<String>,
    #[serde(default)]
    pub routes: Vec<Route>,
}

/// One route of a [`Servlet`].
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Route {
    pub methods: Vec<String>,
    pub pieces: Vec<Piece>,
    pub line: u32,
    #[serde(default)]
    pub params: Vec<Par>,
}

pub struct World {
    pub defs: Vec<Def>,
    pub classes: HashMap<String, Vec<String>>,
    pub named: HashMap<String, Par>,
    pub mounts: Vec<(String, Vec<Piece>)>,
    pub servlets: Vec<Servlet>,
    /// Supertypes named by each class, object or trait (`extends A with B`).
    pub parents: HashMap<String, Vec<String>>,
    /// Definition indexes by name (names never change after [`World::new`]).
    by_name: HashMap<String, Vec<usize>>,
    /// Constructor parameter names by class.
    ctors: HashMap<String, Vec<String>>,
    /// Instantiations by class: the owner of the site and the arguments.
    news: HashMap<String, Vec<Site>>,
}

/// Where a class is instantiated (the owner of the site) and its arguments.
type Site = (Option<String>, Vec<Option<Piece>>);

/// One endpoint of a definition relative to where it is used: what the
/// definition itself adds below the context of the reference.
#[derive(Clone)]
struct Rel {
    file: String,
    pieces: Vec<String>,
    methods: Option<Vec<String>>,
    params: Vec<Par>,
    /// Line of the innermost node that added a path piece or a method (0:
    /// none did, the context's line applies).
    line: u32,
    /// Line of the node holding the endpoint.
    leaf_line: u32,
}

#[derive(Clone)]
struct Ctx {
    file: String,
    /// The class whose members unqualified names mean (virtual dispatch:
    /// a trait's route tree walked for a subclass sees its overrides).
    this: Option<String>,
    pieces: Vec<String>,
    methods: Vec<String>,
    params: Vec<Par>,
    /// Line of the innermost node that added a path piece or a method.
    line: u32,
}

/// Definitions already walked, and the ones being walked.
#[derive(Default)]
struct Memo {
    done: HashMap<(usize, Option<String>), std::rc::Rc<Vec<Rel>>>,
    stack: Vec<usize>,
    /// Relative endpoints made so far (bounded by [`MAX_RELS`]).
    made: usize,
}

/// A bound on the relative endpoints one link materialises.
const MAX_RELS: usize = 200_000;

/// More same-named definitions than this, none in the referrer's scope:
/// the reference is too ambiguous to follow.
const MAX_UNRELATED: usize = 3;

/// A bound on what one link may produce (pathological reference graphs).
const MAX_ENDPOINTS: usize = 50_000;

pub const ANY_METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE"];

/// What a reference must name.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// A route tree.
    Node,
    /// A string constant.
    Konst,
    /// An instance of a class (`val users = new UsersApi(…)`).
    Alias,
}

/// `this.x` / `super.x` name a member like `x` does.
fn unqualified(quals: &[String]) -> &[String] {
    match quals {
        [q] if q == "this" || q == "super" => &[],
        _ => quals,
    }
}

impl World {
    pub fn new(facts: &Facts) -> Self {
        let mut w = World {
            defs: Vec::new(),
            classes: HashMap::new(),
            named: HashMap::new(),
            mounts: Vec::new(),
            servlets: Vec::new(),
            parents: HashMap::new(),
            by_name: HashMap::new(),
            ctors: HashMap::new(),
            news: HashMap::new(),
        };
        for fact in facts.iter::<Fact>() {
            match fact {
                Fact::Def(d) => w.defs.push(*d),
                Fact::Class { name, fields } => {
                    w.classes.entry(name).or_insert(fields);
                }
                Fact::Named { name, par } => {
                    w.named.entry(name).or_insert(par);
                }
                Fact::Mount { class, path } => w.mounts.push((class, path)),
                Fact::Servlet(s) => w.servlets.push(s),
                Fact::Parents { name, parents } => {
                    w.parents.entry(name).or_default().extend(parents);
                }
                Fact::Ctor { class, params } => {
                    w.ctors.entry(class).or_insert(params);
                }
                Fact::New { class, owner, args } => {
                    let sites = w.news.entry(class).or_default();
                    if sites.len() < 64 {
                        sites.push((owner, args));
                    }
                }
            }
        }
        for (i, d) in w.defs.iter().enumerate() {
            w.by_name.entry(d.name.clone()).or_default().push(i);
        }
        w
    }

    /// Definitions named `name`.
    fn named_defs(&self, name: &str) -> &[usize] {
        self.by_name.get(name).map_or(&[], Vec::as_slice)
    }

    /// `owner` and its supertypes, nearest first (bounded, cycle-safe).
    fn lineage(&self, owner: &str) -> Vec<String> {
        let mut out = vec![owner.to_string()];
        let mut k = 0;
        while k < out.len() && out.len() < 32 {
            let next: Vec<String> = self
                .parents
                .get(&out[k])
                .into_iter()
                .flatten()
                .filter(|p| !out.contains(p))
                .cloned()
                .collect();
            out.extend(next);
            k += 1;
        }
        out
    }

    /// Definitions a reference from `from` may mean, best first.
    pub fn resolve(&self, from: usize, path: &[String], want_node: bool) -> Vec<usize> {
        let want = if want_node { Want::Node } else { Want::Konst };
        self.resolve_in(from, path, want, None)
    }

    /// Definitions a reference from `from` may mean, best first, when the
    /// code runs as a member of class `this` (its overrides win).
    pub fn resolve_in(
        &self,
        from: usize,
        path: &[String],
        want: Want,
        this: Option<&str>,
    ) -> Vec<usize> {
        let Some((name, quals)) = path.split_last() else {
            return Vec::new();
        };
        let is_super = quals.len() == 1 && quals[0] == "super";
        let quals = unqualified(quals);
        let here = self.defs.get(from);
        let fits = |d: &Def| match want {
            Want::Node => d.node.is_some(),
            Want::Konst => d.konst.is_some(),
            Want::Alias => d.alias.is_some(),
        };
        // One candidate per (file, owner): overloads and re-definitions in
        // one scope count once.
        let mut scopes = HashSet::new();
        let cands: Vec<usize> = self
            .named_defs(name)
            .iter()
            .copied()
            .filter(|&i| i != from && fits(&self.defs[i]))
            .filter(|&i| {
                let d = &self.defs[i];
                // Overloads beside the referrer (`def routes(u: User) =
                // routes(Some(u))`) all count; elsewhere one per scope.
                here.is_some_and(|h| h.file == d.file && h.owner == d.owner)
                    || scopes.insert((&d.file, &d.owner))
            })
            .collect();
        if cands.len() <= 1 {
            return cands;
        }
        // Candidates declared in `owner` or, failing that, in its nearest
        // supertype declaring one.
        let by_owner = |owner: &str| -> Vec<usize> {
            for o in self.lineage(owner) {
                let hit: Vec<usize> = cands
                    .iter()
                    .copied()
                    .filter(|&i| self.defs[i].owner.as_deref() == Some(o.as_str()))
                    .collect();
                if !hit.is_empty() {
                    return hit;
                }
            }
            Vec::new()
        };
        // `super.routes`: the nearest supertype of the enclosing class
        // declaring one.
        if is_super {
            if let Some(owner) = here.and_then(|h| h.owner.as_deref()) {
                for o in self.lineage(owner).iter().skip(1) {
                    let hit: Vec<usize> = cands
                        .iter()
                        .copied()
                        .filter(|&i| self.defs[i].owner.as_deref() == Some(o.as_str()))
                        .collect();
                    if !hit.is_empty() {
                        return hit;
                    }
                }
            }
            return Vec::new();
        }
        if quals.is_empty() {
            if let Some(this) = this {
                let hit = by_owner(this);
                if !hit.is_empty() {
                    return hit;
                }
            }
        }
        if let Some(q) = quals.last() {
            let hit = by_owner(q);
            if !hit.is_empty() {
                return hit;
            }
            // `val users = new UserRoutes(…)` … `users.routes`.
            if let Some(alias) = self.instance_class(from, quals, this) {
                let hit = by_owner(&alias);
                if !hit.is_empty() {
                    return hit;
                }
            }
        }
        if let Some(here) = here {
            if let Some(owner) = &here.owner {
                let hit: Vec<usize> = by_owner(owner)
                    .into_iter()
                    .filter(|&i| self.defs[i].file == here.file || quals.is_empty())
                    .collect();
                if !hit.is_empty() {
                    return hit;
                }
            }
            let hit: Vec<usize> = cands
                .iter()
                .copied()
                .filter(|&i| self.defs[i].file == here.file)
                .collect();
            if !hit.is_empty() {
                return hit;
            }
        }
        // Same-named definitions in unrelated places: an ambiguous name
        // (`start`, `apply`) links nothing rather than everything.
        if cands.len() > MAX_UNRELATED {
            return Vec::new();
        }
        cands
    }

    /// The class of the instance `quals` names (`val users = new
    /// UsersApi(…)` for `users`).
    fn instance_class(&self, from: usize, quals: &[String], this: Option<&str>) -> Option<String> {
        if let Some(&a) = self.resolve_in(from, quals, Want::Alias, this).first() {
            return self.defs[a].alias.clone();
        }
        let q = quals.last()?;
        self.named_defs(q)
            .iter()
            .find_map(|&i| self.defs[i].alias.clone())
    }

    /// The class whose members a walk of definition `target`, reached by
    /// `path` from a walk as `this`, dispatches to.
    fn this_for(
        &self,
        from: usize,
        path: &[String],
        this: Option<&str>,
        target: usize,
    ) -> Option<String> {
        let owner = self.defs.get(target)?.owner.clone();
        let quals = unqualified(path.split_last().map_or(&[][..], |(_, q)| q));
        let candidate = if quals.is_empty() {
            this.map(str::to_string)
        } else {
            self.instance_class(from, quals, this)
        };
        match (candidate, &owner) {
            (Some(c), Some(o)) if self.lineage(&c).contains(o) => Some(c),
            _ => owner,
        }
    }

    /// The value of a string constant.
    pub fn konst(&self, from: usize, path: &[String], depth: usize) -> Option<String> {
        self.konst_in(from, path, depth, None)
    }

    /// The value of a string constant read as a member of class `this`.
    pub fn konst_in(
        &self,
        from: usize,
        path: &[String],
        depth: usize,
        this: Option<&str>,
    ) -> Option<String> {
        if depth > 8 {
            return None;
        }
        // `collection.path` where `val collection = Collection("books")`
        // and `path` is the constructor parameter of `Collection`.
        if let Some((field, quals)) = path.split_last() {
            let quals = unqualified(quals);
            if !quals.is_empty() {
                if let Some(v) = self.field_of(from, quals, field, depth, this) {
                    return Some(v);
                }
            }
        }
        let Some(&i) = self.resolve_in(from, path, Want::Konst, this).first() else {
            // A constructor parameter of the enclosing class, bound by the
            // literal arguments where the class is instantiated.
            let owner = self.defs.get(from)?.owner.as_deref()?;
            return match path {
                [name] => self.ctor_arg(owner, name, depth),
                _ => None,
            };
        };
        let pieces = self.defs.get(i)?.konst.clone()?;
        let mut out = String::new();
        for p in pieces {
            match p {
                Piece::Lit(s) => out.push_str(&s),
                Piece::Const(q) if depth < 8 => out.push_str(&self.konst(i, &q, depth + 1)?),
                _ => return None,
            }
        }
        Some(out)
    }

    /// `x.field` where `x` is an instance built with arguments and `field`
    /// a constructor parameter of its class: the argument's value.
    fn field_of(
        &self,
        from: usize,
        quals: &[String],
        field: &str,
        depth: usize,
        this: Option<&str>,
    ) -> Option<String> {
        let a = *self.resolve_in(from, quals, Want::Alias, this).first()?;
        let d = self.defs.get(a)?;
        let class = d.alias.as_deref()?;
        let at = self.ctors.get(class)?.iter().position(|p| p == field)?;
        match d.alias_args.get(at)?.as_ref()? {
            Piece::Lit(s) => Some(s.clone()),
            Piece::Const(q) => self.konst_in(a, q, depth + 1, this),
            _ => None,
        }
    }

    /// The value parameter `name` of class `class` gets: the one literal
    /// every instantiation passes (directly or through a parameter of the
    /// instantiating class).
    fn ctor_arg(&self, class: &str, name: &str, depth: usize) -> Option<String> {
        if depth > 8 {
            return None;
        }
        let at = self.ctors.get(class)?.iter().position(|p| p == name)?;
        let mut value: Option<String> = None;
        for (owner, args) in self.news.get(class)? {
            let v = match args.get(at)?.as_ref()? {
                Piece::Lit(s) => s.clone(),
                Piece::Const(q) => match (q.as_slice(), owner) {
                    ([n], Some(o)) => self.ctor_arg(o, n, depth + 1)?,
                    _ => return None,
                },
                _ => return None,
            };
            if value.as_ref().is_some_and(|x| *x != v) {
                return None;
            }
            value = Some(v);
        }
        value
    }

    /// A directive definition (`def prefix = pathPrefix(…)`) a wrapper
    /// reference from `from` means.
    fn resolve_directive(&self, from: usize, path: &[String], this: Option<&str>) -> Option<usize> {
        let name = path.last()?;
        let cands: Vec<usize> = self
            .named_defs(name)
            .iter()
            .copied()
            .filter(|&i| self.defs[i].directive.is_some())
            .collect();
        let here = self.defs.get(from)?;
        for owner in this.into_iter().chain(here.owner.as_deref()) {
            for o in self.lineage(owner) {
                if let Some(&i) = cands
                    .iter()
                    .find(|&&i| self.defs[i].owner.as_deref() == Some(o.as_str()))
                {
                    return Some(i);
                }
            }
        }
        if let Some(&i) = cands.iter().find(|&&i| self.defs[i].file == here.file) {
            return Some(i);
        }
        (cands.len() == 1).then(|| cands[0])
    }

    /// The path and methods of the directive definition `i`, resolved
    /// where it is defined (as a member of `this`).
    fn directive_parts(&self, i: usize, this: Option<&str>) -> (Vec<String>, Vec<String>) {
        let mut pieces = Vec::new();
        let mut methods = Vec::new();
        let mut node = self.defs.get(i).and_then(|d| d.directive.as_ref());
        let mut depth = 0;
        while let Some(n) = node {
            depth += 1;
            if depth > 16 {
                break;
            }
            pieces.extend(n.pieces.iter().filter_map(|p| self.segment(i, p, this)));
            if !n.methods.is_empty() {
                methods = n.methods.clone();
            }
            node = match n.children.as_slice() {
                [c] => Some(c),
                _ => None,
            };
        }
        (pieces, methods)
    }

    pub fn piece(&self, from: usize, piece: &Piece) -> Option<String> {
        self.piece_in(from, piece, None)
    }

    /// A path segment of a route: a constant known only at run time
    /// (`pathPrefix(config.segments.map(…))`) keeps its place as a
    /// `{name}` placeholder.
    fn segment(&self, from: usize, piece: &Piece, this: Option<&str>) -> Option<String> {
        match piece {
            Piece::Const(q) => self
                .konst_in(from, q, 0, this)
                .or_else(|| q.first().map(|n| format!("{{{n}}}"))),
            _ => self.piece_in(from, piece, this),
        }
    }

    fn piece_in(&self, from: usize, piece: &Piece, this: Option<&str>) -> Option<String> {
        match piece {
            Piece::Lit(s) => Some(s.clone()),
            Piece::Const(q) => self.konst_in(from, q, 0, this),
            Piece::Param(p) => Some(format!("{{{p}}}")),
            Piece::Nothing => None,
        }
    }

    /// Definitions referenced by some other definition, and the members
    /// overriding a referenced one (reached by virtual dispatch).
    ///
    /// Also returns, per class, the subclasses whose members its code
    /// calls by name (`trait Service { def route = routes }` with `class
    /// Api extends Service { def routes = … }`): a root of that class is
    /// walked as each of them.
    fn referenced(&self) -> (HashSet<usize>, HashMap<String, Vec<String>>) {
        let mut out = HashSet::new();
        // Members named from inside a class: (name, that class).
        let mut called: HashSet<(&str, &str)> = HashSet::new();
        for (i, d) in self.defs.iter().enumerate() {
            if let Some(node) = &d.node {
                let mut refs = Vec::new();
                collect_refs(node, &mut refs);
                for r in refs {
                    out.extend(self.resolve(i, r, true));
                    if let (Some((name, quals)), Some(owner)) = (r.split_last(), &d.owner) {
                        if unqualified(quals).is_empty() {
                            called.insert((name.as_str(), owner.as_str()));
                        }
                    }
                }
            }
        }
        let members: HashSet<(&str, &str)> = out
            .iter()
            .filter_map(|&i| {
                let d = &self.defs[i];
                Some((d.name.as_str(), d.owner.as_deref()?))
            })
            .collect();
        let mut dispatched: HashMap<String, Vec<String>> = HashMap::new();
        for (i, d) in self.defs.iter().enumerate() {
            let Some(owner) = &d.owner else { continue };
            if d.node.is_none() {
                continue;
            }
            let lineage = self.lineage(owner);
            for o in lineage.iter().skip(1) {
                let key = (d.name.as_str(), o.as_str());
                if called.contains(&key) {
                    out.insert(i);
                    let subs = dispatched.entry(o.clone()).or_default();
                    if !subs.contains(owner) && subs.len() < 64 {
                        subs.push(owner.clone());
                    }
                } else if members.contains(&key) {
                    out.insert(i);
                }
            }
        }
        (out, dispatched)
    }

    /// Every endpoint reachable from a root definition.
    pub fn endpoints(&self) -> Vec<Endpoint> {
        let (referenced, dispatched) = self.referenced();
        let mut memo = Memo::default();
        let mut out = Vec::new();
        for (i, d) in self.defs.iter().enumerate() {
            if d.node.is_none() || !d.root && (d.never_root || referenced.contains(&i)) {
                continue;
            }
            let subs = d.owner.as_ref().and_then(|o| dispatched.get(o));
            match subs {
                Some(subs) => {
                    for sub in subs {
                        let rels = self.rels(i, Some(sub.clone()), &mut memo);
                        self.emit_rels(&rels, &[], out.len(), &mut out);
                    }
                }
                None => {
                    let rels = self.rels(i, d.owner.clone(), &mut memo);
                    self.emit_rels(&rels, &[], out.len(), &mut out);
                }
            }
        }
        out
    }

    /// Endpoints of one definition with a starting prefix (mounts).
    pub fn endpoints_of(&self, i: usize, prefix: Vec<String>) -> Vec<Endpoint> {
        let mut out = Vec::new();
        let mut memo = Memo::default();
        let this = self.defs.get(i).and_then(|d| d.owner.clone());
        let rels = self.rels(i, this, &mut memo);
        self.emit_rels(&rels, &prefix, 0, &mut out);
        out
    }

    fn emit_rels(&self, rels: &[Rel], prefix: &[String], before: usize, out: &mut Vec<Endpoint>) {
        for r in rels {
            if out.len() - before > MAX_ENDPOINTS {
                return;
            }
            let line = if r.line > 0 { r.line } else { r.leaf_line };
            let mut pieces = prefix.to_vec();
            pieces.extend(r.pieces.iter().cloned());
            let methods = r.methods.clone().unwrap_or_default();
            self.emit_at(&r.file, line, &pieces, &methods, &r.params, out);
        }
    }

    /// The endpoints of definition `i` relative to a reference to it,
    /// computed once: a definition used from many places (or many times
    /// over a diamond of references) is walked once, so linking stays
    /// linear in the size of the definitions plus the output.
    fn rels(&self, i: usize, this: Option<String>, memo: &mut Memo) -> std::rc::Rc<Vec<Rel>> {
        let key = (i, this);
        if let Some(r) = memo.done.get(&key) {
            return r.clone();
        }
        let this = key.1.clone();
        let mut out = Vec::new();
        if let Some(node) = self.defs.get(i).and_then(|d| d.node.as_ref()) {
            if memo.stack.len() <= 32 && !memo.stack.contains(&i) {
                memo.stack.push(i);
                let ctx = Ctx {
                    file: self.defs[i].file.clone(),
                    this,
                    pieces: Vec::new(),
                    methods: Vec::new(),
                    params: Vec::new(),
                    line: 0,
                };
                self.walk(i, node, ctx, false, memo, &mut out);
                memo.stack.pop();
            } else {
                // A cycle: what is reachable is reported where it starts.
                return std::rc::Rc::new(Vec::new());
            }
        }
        let rc = std::rc::Rc::new(out);
        memo.done.insert(key, rc.clone());
        rc
    }

    fn walk(
        &self,
        def: usize,
        node: &Node,
        mut ctx: Ctx,
        mut has_methods: bool,
        memo: &mut Memo,
        out: &mut Vec<Rel>,
    ) {
        tick(1);
        if out.len() > MAX_ENDPOINTS {
            return;
        }
        let this = ctx.this.clone();
        for w in &node.wrap {
            if let Some(d) = self.resolve_directive(def, w, this.as_deref()) {
                let (pieces, methods) = self.directive_parts(d, this.as_deref());
                let mut names = node.names.iter();
                for p in pieces {
                    if p == "{}" {
                        let n = ctx.pieces.iter().filter(|p| p.starts_with('{')).count();
                        let name = names.next().cloned().unwrap_or(format!("param{}", n + 1));
                        ctx.pieces.push(format!("{{{name}}}"));
                    } else {
                        ctx.pieces.push(p);
                    }
                }
                if !methods.is_empty() {
                    ctx.methods = methods;
                    has_methods = true;
                    if node.line > 0 {
                        ctx.line = node.line;
                    }
                }
            }
        }
        for p in &node.pieces {
            if let Some(s) = self.segment(def, p, this.as_deref()) {
                ctx.pieces.push(s);
            }
        }
        if !node.methods.is_empty() {
            ctx.methods = node.methods.clone();
            has_methods = true;
        }
        if node.line > 0 && (!node.methods.is_empty() || !node.pieces.is_empty()) {
            ctx.line = node.line;
        }
        ctx.params.extend(node.params.iter().cloned());
        if node.leaf && memo.made < MAX_RELS {
            memo.made += 1;
            out.push(Rel {
                file: ctx.file.clone(),
                pieces: ctx.pieces.clone(),
                methods: has_methods.then(|| ctx.methods.clone()),
                params: ctx.params.clone(),
                line: ctx.line,
                leaf_line: node.line,
            });
        }
        let before = out.len();
        for child in &node.children {
            self.walk(def, child, ctx.clone(), has_methods, memo, out);
        }
        for r in &node.refs {
            for target in self.resolve_in(def, r, Want::Node, this.as_deref()) {
                let sub_this = self.this_for(def, r, this.as_deref(), target);
                let sub = self.rels(target, sub_this, memo);
                for s in sub.iter() {
                    if out.len() > MAX_ENDPOINTS || memo.made >= MAX_RELS {
                        return;
                    }
                    memo.made += 1;
                    tick(1);
                    let mut pieces = ctx.pieces.clone();
                    pieces.extend(s.pieces.iter().cloned());
                    let mut params = ctx.params.clone();
                    params.extend(s.params.iter().cloned());
                    // Located where the path or method was last shaped:
                    // inside the definition, else at the reference.
                    let file = if s.line > 0 || ctx.line == 0 {
                        s.file.clone()
                    } else {
                        ctx.file.clone()
                    };
                    out.push(Rel {
                        file,
                        pieces,
                        methods: s
                            .methods
                            .clone()
                            .or_else(|| has_methods.then(|| ctx.methods.clone())),
                        params,
                        line: if s.line > 0 { s.line } else { ctx.line },
                        leaf_line: s.leaf_line,
                    });
                }
            }
        }
        if node.fallback && out.len() == before && memo.made < MAX_RELS {
            memo.made += 1;
            out.push(Rel {
                file: ctx.file.clone(),
                pieces: ctx.pieces.clone(),
                methods: has_methods.then(|| ctx.methods.clone()),
                params: ctx.params.clone(),
                line: ctx.line,
                leaf_line: node.line,
            });
        }
    }

    /// One endpoint per method (GET when none) at `pieces` joined, with the
    /// parameters resolved (case class fields, named matchers).
    pub fn emit_at(
        &self,
        file: &str,
        line: u32,
        pieces: &[String],
        methods: &[String],
        params: &[Par],
        out: &mut Vec<Endpoint>,
    ) {
        let url = join_path(pieces);
        let methods: Vec<String> = if methods.is_empty() {
            vec!["GET".to_string()]
        } else {
            methods.to_vec()
        };
        for m in methods {
            let mut ep = Endpoint::new(&m, url.clone()).at_path(file.to_string(), line);
            let mut seen: HashSet<(ParamKind, String)> = HashSet::new();
            let mut push = |ep: &mut Endpoint, kind: ParamKind, name: &str| {
                if !name.is_empty() && seen.insert((kind, name.to_string())) {
                    ep.push_param(Param::new(kind, name));
                }
            };
            for p in params {
                match p {
                    Par::Named(kind, name) => push(&mut ep, *kind, name),
                    Par::Auto(name) => {
                        let kind = if matches!(m.as_str(), "GET" | "HEAD" | "DELETE" | "OPTIONS") {
                            ParamKind::Query
                        } else {
                            ParamKind::Form
                        };
                        push(&mut ep, kind, name);
                    }
                    Par::Lookup(name) => match self.named.get(name) {
                        Some(Par::Named(kind, n)) => push(&mut ep, *kind, n),
                        Some(Par::Auto(n)) => push(&mut ep, ParamKind::Query, n),
                        _ => {}
                    },
                    Par::Body(kind, ty) => {
                        for f in self.classes.get(ty).into_iter().flatten() {
                            push(&mut ep, *kind, f);
                        }
                    }
                }
            }
            out.push(ep);
        }
    }
}

fn collect_refs<'a>(node: &'a Node, out: &mut Vec<&'a Vec<String>>) {
    out.extend(node.refs.iter());
    for c in &node.children {
        collect_refs(c, out);
    }
}
