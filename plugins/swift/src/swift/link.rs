//! Link step: resolves unit mounts into URL prefixes (across files),
//! path constants, handler references and decoded types into endpoints.

use std::collections::{HashMap, HashSet};

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use super::flow::{FileFlow, Handler, Seg};
use super::outline::TypeDecl;
use super::reads::{Read, Src};

/// Everything one file contributes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileFact {
    pub flow: FileFlow,
    pub types: Vec<TypeDecl>,
    pub consts: Vec<(String, String)>,
}

const MAX_DEPTH: usize = 16;

pub struct Linker<'a> {
    files: &'a [FileFact],
    units: HashSet<&'a str>,
    consts: HashMap<&'a str, &'a str>,
    types: HashMap<&'a str, &'a TypeDecl>,
}

impl<'a> Linker<'a> {
    pub fn new(files: &'a [FileFact]) -> Self {
        let mut consts = HashMap::new();
        let mut types: HashMap<&str, &TypeDecl> = HashMap::new();
        let mut units = HashSet::new();
        for f in files {
            for (k, v) in &f.consts {
                consts.entry(k.as_str()).or_insert(v.as_str());
            }
            for t in &f.types {
                // Prefer the declaration that has stored properties (not an
                // extension).
                let e = types.entry(t.name.as_str()).or_insert(t);
                if e.fields.is_empty() {
                    *e = t;
                }
            }
            units.extend(f.flow.units.iter().map(String::as_str));
        }
        Linker {
            files,
            units,
            consts,
            types,
        }
    }

    fn target<'b>(&self, targets: &'b [String]) -> Option<&'b str> {
        targets
            .iter()
            .find(|t| self.units.contains(t.as_str()))
            .map(String::as_str)
    }

    /// Every prefix a unit is reachable under (`[[]]` when never mounted).
    fn prefixes(&self, unit: &str, depth: usize) -> Vec<Vec<Seg>> {
        let mut out = Vec::new();
        if depth < MAX_DEPTH {
            for f in self.files {
                for m in &f.flow.mounts {
                    if self.target(&m.targets) != Some(unit) || m.unit == unit {
                        continue;
                    }
                    for mut p in self.prefixes(&m.unit, depth + 1) {
                        p.extend(m.segs.iter().cloned());
                        if !out.contains(&p) {
                            out.push(p);
                        }
                    }
                }
            }
        }
        if out.is_empty() {
            out.push(Vec::new());
        }
        out
    }

    /// The text of a segment; `None` for an unknown constant (a
    /// middleware value rather than a path).
    fn seg(&self, s: &Seg) -> Option<String> {
        match s {
            Seg::Lit(v) => Some(v.clone()),
            Seg::Const(c) => self.consts.get(c.as_str()).map(|v| v.to_string()),
            Seg::Join(parts) => parts.iter().map(|p| self.seg(p)).collect(),
        }
    }

    pub fn url(&self, segs: &[Seg]) -> String {
        let mut parts = Vec::new();
        for s in segs {
            let Some(text) = self.seg(s) else { continue };
            let text = text.trim_matches('/');
            if !text.is_empty() {
                parts.push(text.to_string());
            }
        }
        format!("/{}", parts.join("/"))
    }

    fn reads(&self, h: &Handler) -> Vec<Read> {
        match h {
            Handler::None => Vec::new(),
            Handler::Inline(r) => r.clone(),
            Handler::Ref { owner, name } => {
                let funcs = || self.files.iter().flat_map(|f| f.flow.funcs.iter());
                funcs()
                    .find(|f| f.name == *name && f.owner == *owner)
                    .or_else(|| funcs().find(|f| f.name == *name))
                    .map(|f| f.reads.clone())
                    .unwrap_or_default()
            }
        }
    }

    fn params(&self, reads: &[Read]) -> Vec<Param> {
        let kind = |s: Src| match s {
            Src::Query => ParamKind::Query,
            Src::Json => ParamKind::Json,
            Src::Header => ParamKind::Header,
            Src::Cookie => ParamKind::Cookie,
        };
        let mut out = Vec::new();
        for r in reads {
            match r {
                Read::Param(s, n) => out.push(Param::new(kind(*s), n.clone())),
                Read::Decode(s, ty) => {
                    if let Some(d) = self.types.get(ty.as_str()) {
                        out.extend(d.fields.iter().map(|f| Param::new(kind(*s), f.clone())));
                    }
                }
            }
        }
        out
    }

    pub fn endpoints(&self) -> Vec<Endpoint> {
        let mut out = Vec::new();
        for f in self.files {
            for r in &f.flow.routes {
                let params = self.params(&self.reads(&r.handler));
                for mut prefix in self.prefixes(&r.unit, 0) {
                    prefix.extend(r.segs.iter().cloned());
                    let url = self.url(&prefix);
                    if r.websocket {
                        out.push(Endpoint::websocket(url).at_path(r.path.clone(), r.line));
                        continue;
                    }
                    for m in &r.methods {
                        let mut e = Endpoint::new(m, url.clone()).at_path(r.path.clone(), r.line);
                        for p in &params {
                            e.push_param(p.clone());
                        }
                        out.push(e);
                    }
                }
            }
        }
        out
    }
}
