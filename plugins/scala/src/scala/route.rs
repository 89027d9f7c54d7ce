//! The route model shared by the code DSL analyzers (Akka HTTP, http4s,
//! Tapir, ZIO HTTP): each file's named definitions become [`Def`] facts
//! holding a [`Node`] tree (path pieces, methods, parameters, references to
//! other definitions); [`World::endpoints`] resolves references across
//! files and objects and walks the trees from their roots.

use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

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
    /// An endpoint ends here.
    #[serde(default, skip_serializing_if = "is_false")]
    pub leaf: bool,
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
    /// `val X = "lit" + Y`: a string constant.
    #[serde(default)]
    pub konst: Option<Vec<Piece>>,
    /// Reported even when referenced (anonymous routes).
    #[serde(default)]
    pub root: bool,
    /// Never a root by itself (a tapir base endpoint, a matcher…).
    #[serde(default)]
    pub never_root: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t")]
pub enum Fact {
    Def(Def),
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
}

#[derive(Clone)]
struct Ctx {
    file: String,
    pieces: Vec<String>,
    methods: Vec<String>,
    params: Vec<Par>,
    /// Line of the innermost node that added a path piece or a method.
    line: u32,
}

/// A bound on what one link may produce (pathological reference graphs).
const MAX_ENDPOINTS: usize = 50_000;

pub const ANY_METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE"];

impl World {
    pub fn new(facts: &Facts) -> Self {
        let mut w = World {
            defs: Vec::new(),
            classes: HashMap::new(),
            named: HashMap::new(),
            mounts: Vec::new(),
            servlets: Vec::new(),
        };
        for fact in facts.iter::<Fact>() {
            match fact {
                Fact::Def(d) => w.defs.push(d),
                Fact::Class { name, fields } => {
                    w.classes.entry(name).or_insert(fields);
                }
                Fact::Named { name, par } => {
                    w.named.entry(name).or_insert(par);
                }
                Fact::Mount { class, path } => w.mounts.push((class, path)),
                Fact::Servlet(s) => w.servlets.push(s),
            }
        }
        w
    }

    /// Definitions a reference from `from` may mean, best first.
    pub fn resolve(&self, from: usize, path: &[String], want_node: bool) -> Vec<usize> {
        let Some((name, quals)) = path.split_last() else {
            return Vec::new();
        };
        let here = self.defs.get(from);
        let fits = |d: &Def| {
            d.name == *name
                && if want_node {
                    d.node.is_some()
                } else {
                    d.konst.is_some()
                }
        };
        // One candidate per (file, owner): overloads and re-definitions in
        // one scope count once.
        let mut scopes = HashSet::new();
        let cands: Vec<usize> = (0..self.defs.len())
            .filter(|&i| i != from && fits(&self.defs[i]))
            .filter(|&i| scopes.insert((&self.defs[i].file, &self.defs[i].owner)))
            .collect();
        if cands.len() <= 1 {
            return cands;
        }
        let by_owner = |owner: &str| -> Vec<usize> {
            cands
                .iter()
                .copied()
                .filter(|&i| self.defs[i].owner.as_deref() == Some(owner))
                .collect()
        };
        if let Some(q) = quals.last() {
            let hit = by_owner(q);
            if !hit.is_empty() {
                return hit;
            }
            // `val users = new UserRoutes(…)` … `users.routes`.
            if let Some(alias) = self
                .defs
                .iter()
                .find(|d| d.name == *q && d.alias.is_some())
                .and_then(|d| d.alias.clone())
            {
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
                    .filter(|&i| self.defs[i].file == here.file)
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
        cands
    }

    /// The value of a string constant.
    pub fn konst(&self, from: usize, path: &[String], depth: usize) -> Option<String> {
        let &i = self.resolve(from, path, false).first()?;
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

    pub fn piece(&self, from: usize, piece: &Piece) -> Option<String> {
        match piece {
            Piece::Lit(s) => Some(s.clone()),
            Piece::Const(q) => self.konst(from, q, 0),
            Piece::Param(p) => Some(format!("{{{p}}}")),
            Piece::Nothing => None,
        }
    }

    /// Definitions referenced by some other definition.
    fn referenced(&self) -> HashSet<usize> {
        let mut out = HashSet::new();
        for (i, d) in self.defs.iter().enumerate() {
            if let Some(node) = &d.node {
                let mut refs = Vec::new();
                collect_refs(node, &mut refs);
                for r in refs {
                    out.extend(self.resolve(i, r, true));
                }
            }
        }
        out
    }

    /// Every endpoint reachable from a root definition.
    pub fn endpoints(&self) -> Vec<Endpoint> {
        let referenced = self.referenced();
        let mut out = Vec::new();
        for (i, d) in self.defs.iter().enumerate() {
            let Some(node) = &d.node else { continue };
            if !d.root && (d.never_root || referenced.contains(&i)) {
                continue;
            }
            let ctx = Ctx {
                file: d.file.clone(),
                pieces: Vec::new(),
                methods: Vec::new(),
                params: Vec::new(),
                line: 0,
            };
            self.walk(i, node, ctx, &mut vec![i], &mut out);
        }
        out
    }

    /// Endpoints of one definition with a starting prefix (mounts).
    pub fn endpoints_of(&self, i: usize, prefix: Vec<String>) -> Vec<Endpoint> {
        let mut out = Vec::new();
        if let Some(d) = self.defs.get(i) {
            if let Some(node) = &d.node {
                let ctx = Ctx {
                    file: d.file.clone(),
                    pieces: prefix,
                    methods: Vec::new(),
                    params: Vec::new(),
                    line: 0,
                };
                self.walk(i, node, ctx, &mut vec![i], &mut out);
            }
        }
        out
    }

    fn walk(
        &self,
        def: usize,
        node: &Node,
        mut ctx: Ctx,
        stack: &mut Vec<usize>,
        out: &mut Vec<Endpoint>,
    ) {
        if stack.len() > 32 || out.len() > MAX_ENDPOINTS {
            return;
        }
        for p in &node.pieces {
            if let Some(s) = self.piece(def, p) {
                ctx.pieces.push(s);
            }
        }
        if !node.methods.is_empty() {
            ctx.methods = node.methods.clone();
        }
        if node.line > 0 && (!node.methods.is_empty() || !node.pieces.is_empty()) {
            ctx.line = node.line;
        }
        ctx.params.extend(node.params.iter().cloned());
        if node.leaf {
            let line = if ctx.line > 0 { ctx.line } else { node.line };
            self.emit(&ctx, line, out);
        }
        for child in &node.children {
            self.walk(def, child, ctx.clone(), stack, out);
        }
        for r in &node.refs {
            for target in self.resolve(def, r, true) {
                if stack.contains(&target) {
                    continue;
                }
                let Some(d) = self.defs.get(target) else {
                    continue;
                };
                let Some(n) = &d.node else { continue };
                let mut sub = ctx.clone();
                sub.file = d.file.clone();
                stack.push(target);
                self.walk(target, n, sub, stack, out);
                stack.pop();
            }
        }
    }

    fn emit(&self, ctx: &Ctx, line: u32, out: &mut Vec<Endpoint>) {
        self.emit_at(&ctx.file, line, &ctx.pieces, &ctx.methods, &ctx.params, out);
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
