//! Declarations of a Scala file: objects/classes/traits with their bodies,
//! `val`/`var`/`def` definitions with the tokens of their right-hand side,
//! and case classes with their fields. Statement ends follow Scala's
//! newline rules closely enough for route code: a line break ends a
//! statement unless the line before ends with an operator or the next
//! line starts with one (`.in(…)`, `~ other`, `=> …`).

use std::ops::Range;

use super::tokens::{Kind, Toks};

pub struct Owner {
    pub name: String,
    /// `{` and `}` of the body.
    pub body: Range<usize>,
    /// Names after `extends` / `with`.
    pub parents: Vec<String>,
}

pub struct Def {
    pub name: String,
    /// Index of the name token.
    pub at: usize,
    /// Right-hand side tokens.
    pub rhs: Range<usize>,
    pub owner: Option<String>,
}

pub struct CaseClass {
    pub name: String,
    pub fields: Vec<String>,
}

pub struct Outline {
    pub owners: Vec<Owner>,
    pub defs: Vec<Def>,
    pub classes: Vec<CaseClass>,
    /// Constructor parameter names of each class (first parameter list).
    pub ctors: Vec<(String, Vec<String>)>,
}

const OPS: &[&str] = &[
    "=", ".", "~", "&", "|", "+", "-", "*", "/", ",", ">", "<", ":", "!", "?", "@", "%", "^", "#",
];

fn continues(t: &Toks, k: usize) -> bool {
    let (Some(prev), Some(cur)) = (t.get(k.wrapping_sub(1)), t.get(k)) else {
        return false;
    };
    (prev.kind == Kind::Punct && OPS.contains(&prev.text.as_str()))
        || (cur.kind == Kind::Punct
            && (OPS.contains(&cur.text.as_str()) || cur.text == "{")
            && cur.text != "@")
        || (cur.kind == Kind::Ident
            && matches!(cur.text.as_str(), "and" | "with" | "extends" | "match"))
}

/// End (exclusive) of the statement starting at `from`.
pub fn stmt_end(t: &Toks, from: usize, limit: usize) -> usize {
    let limit = limit.min(t.len());
    let mut k = from;
    while k < limit {
        let Some(tok) = t.get(k) else { break };
        if k > from && tok.nl && !continues(t, k) {
            return k;
        }
        if tok.is(';') || tok.is(')') || tok.is(']') || tok.is('}') {
            return k;
        }
        if t.is_open(k) {
            k = t.skip_group(k);
            continue;
        }
        k += 1;
    }
    limit
}

impl Outline {
    pub fn new(t: &Toks) -> Self {
        let mut owners = Vec::new();
        let mut defs = Vec::new();
        let mut classes = Vec::new();
        let mut ctors = Vec::new();
        let n = t.len();
        let mut i = 0;
        while i < n {
            let Some(tok) = t.get(i) else { break };
            if tok.kind != Kind::Ident {
                i += 1;
                continue;
            }
            match tok.text.as_str() {
                "object" | "class" | "trait" => {
                    let Some(name) = t.ident(i + 1) else {
                        i += 1;
                        continue;
                    };
                    let name = name.to_string();
                    let end = stmt_end(t, i + 2, n);
                    let mut parents = Vec::new();
                    let mut k = i + 2;
                    let mut body = None;
                    let is_case = i > 0 && t.is_ident(i - 1, "case") && tok.text == "class";
                    let mut params: Vec<String> = Vec::new();
                    if tok.text == "class" {
                        let mut p = k;
                        while t.is(p, "[") {
                            p = t.skip_group(p);
                        }
                        // `case class C protected[pkg] (…)`: an access
                        // modifier on the primary constructor.
                        while matches!(t.ident(p), Some("private" | "protected")) {
                            p += 1;
                            while t.is(p, "[") {
                                p = t.skip_group(p);
                            }
                        }
                        if t.is(p, "(") {
                            let close = t.close(p).unwrap_or(n);
                            params = fields(t, p + 1, close);
                        }
                    }
                    if !params.is_empty() {
                        ctors.push((name.clone(), params));
                    }
                    if is_case {
                        while t.is(k, "[") {
                            k = t.skip_group(k);
                        }
                        if t.is(k, "(") {
                            let close = t.close(k).unwrap_or(n);
                            classes.push(CaseClass {
                                name: name.clone(),
                                fields: fields(t, k + 1, close),
                            });
                        }
                    }
                    while k < end {
                        if t.is(k, "{") {
                            body = Some(k..t.close(k).unwrap_or(n));
                            break;
                        }
                        if t.is_ident(k, "extends") || t.is_ident(k, "with") {
                            if let Some(p) = t.ident(k + 1) {
                                parents.push(p.to_string());
                            }
                        }
                        k = if t.is_open(k) { t.skip_group(k) } else { k + 1 };
                    }
                    // A class without a body still names its supertypes
                    // (`class UsersApi(db: Db) extends UsersRoutes`): an
                    // empty body at the end of the declaration.
                    let body = body.or_else(|| (!parents.is_empty()).then_some(end..end));
                    if let Some(body) = body {
                        owners.push(Owner {
                            name,
                            body,
                            parents,
                        });
                    }
                    i += 2;
                }
                "val" | "var" | "def" => {
                    let Some(name) = t.ident(i + 1) else {
                        i += 1;
                        continue;
                    };
                    let is_def = tok.text == "def";
                    let mut k = i + 2;
                    let mut eq = None;
                    while k < n {
                        let Some(tk) = t.get(k) else { break };
                        if tk.nl && !continues(t, k) || tk.is('}') || tk.is(';') || tk.is(')') {
                            break;
                        }
                        if tk.is('=') {
                            let glued = t.get(k + 1).is_some_and(|nx| {
                                nx.start == tk.start + 1 && nx.kind == Kind::Punct
                            });
                            if !glued {
                                eq = Some(k);
                                break;
                            }
                        }
                        if tk.is('{') && is_def {
                            break;
                        }
                        k = if t.is_open(k) { t.skip_group(k) } else { k + 1 };
                    }
                    if let Some(eq) = eq {
                        let end = stmt_end(t, eq + 1, n);
                        defs.push(Def {
                            name: name.to_string(),
                            at: i + 1,
                            rhs: eq + 1..end,
                            owner: None,
                        });
                    }
                    i += 2;
                }
                _ => i += 1,
            }
        }
        let mut outline = Outline {
            owners,
            defs,
            classes,
            ctors,
        };
        // Owners and definitions both come in source order: one sweep with
        // the stack of open bodies names each definition's innermost owner.
        let mut open: Vec<usize> = Vec::new();
        let mut next = 0;
        for d in 0..outline.defs.len() {
            let at = outline.defs[d].at;
            while next < outline.owners.len() && outline.owners[next].body.start < at {
                while open
                    .last()
                    .is_some_and(|&o| outline.owners[o].body.end <= outline.owners[next].body.start)
                {
                    open.pop();
                }
                open.push(next);
                next += 1;
            }
            while open
                .last()
                .is_some_and(|&o| outline.owners[o].body.end <= at)
            {
                open.pop();
            }
            outline.defs[d].owner = open.last().map(|&o| outline.owners[o].name.clone());
        }
        outline
    }

    /// The innermost object/class/trait whose body contains token `i`.
    pub fn owner_of(&self, i: usize) -> Option<&Owner> {
        self.owners
            .iter()
            .filter(|o| o.body.start < i && i < o.body.end)
            .min_by_key(|o| o.body.end - o.body.start)
    }

    /// The definition whose right-hand side starts exactly at `i`
    /// (definitions are in source order).
    pub fn def_at_rhs(&self, i: usize) -> Option<&Def> {
        let k = self.defs.partition_point(|d| d.rhs.start < i);
        self.defs.get(k).filter(|d| d.rhs.start == i)
    }

    /// The definition whose name is token `i`.
    pub fn def_named_at(&self, i: usize) -> Option<&Def> {
        let k = self.defs.partition_point(|d| d.at < i);
        self.defs.get(k).filter(|d| d.at == i)
    }
}

/// Field names of a parameter list `toks[start..end]`.
pub fn fields(t: &Toks, start: usize, end: usize) -> Vec<String> {
    let mut out = Vec::new();
    for r in t.split(start, end, ",") {
        let mut k = r.start;
        while k < r.end {
            if t.is(k, "@") {
                k += 2;
                if t.is(k, "(") {
                    k = t.skip_group(k);
                }
                continue;
            }
            if matches!(
                t.ident(k),
                Some(
                    "val"
                        | "var"
                        | "private"
                        | "protected"
                        | "override"
                        | "implicit"
                        | "using"
                        | "final"
                )
            ) {
                k += 1;
                continue;
            }
            break;
        }
        if let Some(name) = t.ident(k) {
            if t.is(k + 1, ":") {
                out.push(name.to_string());
            }
        }
    }
    out
}
