//! Classes and methods of a PHP file: namespace, `use` imports, parent
//! class, method parameter types, what each method body reads, and the
//! keys a `rules()` method returns (Laravel form requests).

use serde::{Deserialize, Serialize};

use super::request::{array_keys, reads, Reads};
use super::tokens::{matching, Kind, Token};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Method {
    pub name: String,
    pub line: u32,
    /// `(type short name, variable)` of each parameter.
    pub params: Vec<(String, String)>,
    pub reads: Reads,
    /// For `rules()`: the keys of the returned array.
    pub rule_keys: Vec<String>,
    /// Attributes/annotations just before the method (`#[Route(...)]`,
    /// docblock `@Route(...)`), as token offsets are not kept: raw text.
    pub start: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Class {
    pub namespace: String,
    /// Short name.
    pub name: String,
    /// Parent short name.
    pub parent: String,
    pub line: u32,
    pub start: usize,
    pub methods: Vec<Method>,
}

impl Class {
    pub fn fqcn(&self) -> String {
        if self.namespace.is_empty() {
            self.name.clone()
        } else {
            format!("{}\\{}", self.namespace, self.name)
        }
    }
}

pub fn short(name: &str) -> &str {
    name.trim_start_matches('\\')
        .rsplit('\\')
        .next()
        .unwrap_or(name)
}

/// Every class in the file.
pub fn classes(toks: &[Token], line_of: &dyn Fn(usize) -> u32) -> Vec<Class> {
    let mut out = Vec::new();
    let mut namespace = String::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if t.is_ident("namespace") && toks.get(i + 1).is_some_and(|n| n.kind == Kind::Ident) {
            namespace = toks[i + 1].text.trim_start_matches('\\').to_string();
            i += 2;
            continue;
        }
        let is_class = (t.is_ident("class") || t.is_ident("trait") || t.is_ident("interface"))
            && !(i > 0 && (toks[i - 1].is("::") || toks[i - 1].is("->")))
            && toks.get(i + 1).is_some_and(|n| n.kind == Kind::Ident);
        if !is_class {
            i += 1;
            continue;
        }
        let name = toks[i + 1].text.clone();
        let mut k = i + 2;
        let mut parent = String::new();
        while k < toks.len() && !toks[k].is("{") {
            if toks[k].is_ident("extends") {
                if let Some(p) = toks.get(k + 1) {
                    parent = short(&p.text).to_string();
                }
            }
            k += 1;
        }
        let Some(close) = matching(toks, k) else {
            break;
        };
        let mut class = Class {
            namespace: namespace.clone(),
            name,
            parent,
            line: line_of(t.start),
            start: t.start,
            methods: Vec::new(),
        };
        let mut j = k + 1;
        while j < close {
            if toks[j].is_ident("function")
                && toks.get(j + 1).is_some_and(|n| n.kind == Kind::Ident)
                && toks.get(j + 2).is_some_and(|p| p.is("("))
            {
                let mname = toks[j + 1].text.clone();
                let pclose = matching(toks, j + 2).unwrap_or(j + 2);
                let mut params = Vec::new();
                let mut ty = String::new();
                for p in &toks[j + 3..pclose] {
                    match p.kind {
                        Kind::Ident => ty = short(&p.text).to_string(),
                        Kind::Var => {
                            params.push((std::mem::take(&mut ty), p.text.clone()));
                        }
                        _ if p.is(",") => ty.clear(),
                        _ => {}
                    }
                }
                // Body (abstract/interface methods have none).
                let mut b = pclose + 1;
                while b < close && !toks[b].is("{") && !toks[b].is(";") {
                    b += 1;
                }
                let (body_reads, rule_keys, next) = if b < close && toks[b].is("{") {
                    let bclose = matching(toks, b).unwrap_or(close);
                    let body = &toks[b + 1..bclose];
                    let mut keys = Vec::new();
                    if mname == "rules" {
                        if let Some(ret) = body.iter().position(|t| t.is_ident("return")) {
                            let open = b + 1 + ret + 1;
                            let open = if toks.get(open).is_some_and(|t| t.is_ident("array")) {
                                open + 1
                            } else {
                                open
                            };
                            keys = array_keys(toks, open);
                        }
                    }
                    (reads(body), keys, bclose + 1)
                } else {
                    (Reads::default(), Vec::new(), b + 1)
                };
                class.methods.push(Method {
                    name: mname,
                    line: line_of(toks[j].start),
                    params,
                    reads: body_reads,
                    rule_keys,
                    start: toks[j].start,
                });
                j = next;
                continue;
            }
            j += 1;
        }
        out.push(class);
        i = close + 1;
    }
    out
}
