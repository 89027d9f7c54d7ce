//! File outline: type declarations (with conformances and stored
//! properties), functions (with parameters and body), computed properties,
//! and string constants (`let users = "users"`, `static let v1:
//! PathComponent = "v1"`).

use serde::{Deserialize, Serialize};

use super::tokens::{Kind, Toks};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeDecl {
    pub name: String,
    pub conforms: Vec<String>,
    /// Stored properties (not `static`, not computed), in order.
    pub fields: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FnParam {
    pub label: String,
    pub name: String,
    pub ty: String,
}

/// A function or a computed property (no parameters) with a body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuncDecl {
    pub name: String,
    pub owner: Option<String>,
    pub params: Vec<FnParam>,
    /// Token indexes of the body's `{` and `}`.
    pub body: (usize, usize),
    pub is_property: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    pub types: Vec<TypeDecl>,
    pub funcs: Vec<FuncDecl>,
    pub consts: Vec<(String, String)>,
}

pub const TYPE_KEYWORDS: [&str; 6] = ["struct", "class", "enum", "extension", "actor", "protocol"];

pub fn parse(t: &Toks) -> Outline {
    let mut out = Outline::default();
    walk(t, 0, t.len(), None, &mut out);
    out
}

/// Index of the first `{` at or after `k` before `limit`, skipping brackets
/// other than braces; `None` when a `}` or `;` ends the declaration first.
pub fn body_open(t: &Toks, mut k: usize, limit: usize) -> Option<usize> {
    while k < limit {
        if t.punct(k, "{") {
            return Some(k);
        }
        if t.punct(k, "}") || t.punct(k, ";") {
            return None;
        }
        if t.punct(k, "(") || t.punct(k, "[") {
            k = t.close(k)? + 1;
            continue;
        }
        if k > 0 && (t.word(k, "func") || t.word(k, "var") || t.word(k, "let")) {
            return None;
        }
        k += 1;
    }
    None
}

fn walk(t: &Toks, start: usize, end: usize, owner: Option<(usize, bool)>, out: &mut Outline) {
    let mut k = start;
    while k < end {
        let Some(tok) = t.get(k) else { break };
        if tok.kind != Kind::Ident {
            if let Some(c) = t.close(k) {
                k = c + 1;
            } else {
                k += 1;
            }
            continue;
        }
        let word = tok.text.as_str();
        let is_type_kw = TYPE_KEYWORDS.contains(&word)
            && t.ident(k + 1)
                .is_some_and(|n| !["func", "var", "let"].contains(&n));
        if is_type_kw {
            let mut n = k + 1;
            let mut name = t.ident(n).unwrap_or("").to_string();
            while t.punct(n + 1, ".") && t.ident(n + 2).is_some() {
                n += 2;
                name = t.ident(n).unwrap_or("").to_string();
            }
            let Some(open) = body_open(t, n + 1, end) else {
                k = n + 1;
                continue;
            };
            let close = t.close(open).unwrap_or(end).min(end);
            let mut conforms = Vec::new();
            let mut j = n + 1;
            let mut after_colon = false;
            while j < open {
                if t.punct(j, ":") || t.punct(j, ",") {
                    after_colon = true;
                } else if t.word(j, "where") {
                    break;
                } else if t.punct(j, "<") {
                    // Generic parameters: skip to the matching `>`.
                    let mut depth = 0;
                    while j < open {
                        if t.punct(j, "<") {
                            depth += 1;
                        } else if t.punct(j, ">") {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        j += 1;
                    }
                } else if after_colon {
                    if let Some(c) = t.ident(j) {
                        conforms.push(c.to_string());
                    }
                    after_colon = false;
                }
                j += 1;
            }
            let stored = matches!(word, "struct" | "class" | "actor");
            let idx = match out.types.iter().position(|d| d.name == name) {
                Some(i) => {
                    out.types[i].conforms.extend(conforms);
                    i
                }
                None => {
                    out.types.push(TypeDecl {
                        name,
                        conforms,
                        fields: Vec::new(),
                    });
                    out.types.len() - 1
                }
            };
            walk(t, open + 1, close, Some((idx, stored)), out);
            k = close + 1;
            continue;
        }
        let is_init =
            word == "init" && (t.punct(k + 1, "(") || (t.punct(k + 1, "?") && t.punct(k + 2, "(")));
        if word == "func" || is_init {
            k = func(t, k, end, owner, out);
            continue;
        }
        if word == "let" || word == "var" {
            k = property(t, k, end, owner, out);
            continue;
        }
        k += 1;
    }
}

fn func(t: &Toks, k: usize, end: usize, owner: Option<(usize, bool)>, out: &mut Outline) -> usize {
    let (name, mut p) = if t.word(k, "init") {
        ("init", k + 1)
    } else {
        match t.ident(k + 1) {
            Some(n) => (n, k + 2),
            None => return k + 1,
        }
    };
    while p < end && !t.punct(p, "(") && !t.punct(p, "{") {
        p += 1;
    }
    if !t.punct(p, "(") {
        return p.max(k + 1);
    }
    let params = t
        .args(p)
        .into_iter()
        .filter_map(|r| {
            let mut a = r.start;
            while t.punct(a, "@") {
                a += 2;
            }
            let first = t.ident(a)?;
            let (label, name, colon) = if t.punct(a + 1, ":") {
                (first, first, a + 1)
            } else {
                (first, t.ident(a + 1)?, a + 2)
            };
            if !t.punct(colon, ":") {
                return None;
            }
            let mut ty = String::new();
            let mut j = colon + 1;
            while j < r.end && !t.punct(j, "=") {
                if let Some(tok) = t.get(j) {
                    if !ty.is_empty()
                        && tok.kind == Kind::Ident
                        && ty.ends_with(char::is_alphanumeric)
                    {
                        ty.push(' ');
                    }
                    ty.push_str(&tok.text);
                }
                j += 1;
            }
            Some(FnParam {
                label: label.to_string(),
                name: name.to_string(),
                ty,
            })
        })
        .collect();
    let after = t.close(p).map_or(p + 1, |c| c + 1);
    let Some(open) = body_open(t, after, end) else {
        return after;
    };
    let close = t.close(open).unwrap_or(end).min(end);
    out.funcs.push(FuncDecl {
        name: name.to_string(),
        owner: owner
            .and_then(|(i, _)| out.types.get(i))
            .map(|d| d.name.clone()),
        params,
        body: (open, close),
        is_property: false,
    });
    close + 1
}

fn property(
    t: &Toks,
    k: usize,
    end: usize,
    owner: Option<(usize, bool)>,
    out: &mut Outline,
) -> usize {
    let Some(name) = t.ident(k + 1) else {
        return k + 1;
    };
    let is_static = k > 0 && (t.word(k - 1, "static") || t.word(k - 1, "class"));
    let mut j = k + 2;
    if t.punct(j, ":") {
        // Type annotation: identifiers, dots, generics, optionals.
        j += 1;
        while j < end {
            if let Some(c) = t.close(j).filter(|_| t.punct(j, "[") || t.punct(j, "(")) {
                j = c + 1;
                continue;
            }
            let ok = t.ident(j).is_some()
                || [".", "<", ">", "?", "!", ","].iter().any(|p| t.punct(j, p));
            if !ok || t.word(j, "let") || t.word(j, "var") || t.word(j, "func") {
                break;
            }
            // A new line starting with an identifier ends the annotation.
            if j > k + 3 && t.ident(j).is_some() && t.line(j) != t.line(j - 1) {
                break;
            }
            j += 1;
        }
    }
    if t.punct(j, "=") {
        if let Some(s) = t.string(j + 1) {
            let ends = !t.punct(j + 2, "+") && !t.punct(j + 2, ".");
            if ends && !s.interp {
                out.consts.push((name.to_string(), s.text.clone()));
            }
        }
        if let Some((i, true)) = owner {
            if !is_static {
                if let Some(d) = out.types.get_mut(i) {
                    d.fields.push(name.to_string());
                }
            }
        }
        return j + 1;
    }
    if t.punct(j, "{") {
        // Computed property (or observers): a body without parameters.
        let close = t.close(j).unwrap_or(end).min(end);
        let observers = t.word(j + 1, "didSet") || t.word(j + 1, "willSet");
        if observers {
            if let Some((i, true)) = owner {
                if let Some(d) = out.types.get_mut(i) {
                    d.fields.push(name.to_string());
                }
            }
        } else if owner.is_some() {
            out.funcs.push(FuncDecl {
                name: name.to_string(),
                owner: owner
                    .and_then(|(i, _)| out.types.get(i))
                    .map(|d| d.name.clone()),
                params: Vec::new(),
                body: (j, close),
                is_property: true,
            });
        }
        return close + 1;
    }
    if let Some((i, true)) = owner {
        if !is_static && t.punct(k + 2, ":") {
            if let Some(d) = out.types.get_mut(i) {
                d.fields.push(name.to_string());
            }
        }
    }
    j.max(k + 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_fields_funcs_and_consts() {
        let src = r#"
import Vapor
let apiVersion: PathComponent = "v1"
struct CreateUser: Content, Validatable {
    static let schema = "users"
    let name: String
    var email: String?
    var tags: [String] = []
    var display: String { name.uppercased() }
    @OptionalField(key: "age") var age: Int?
}
struct UserController: RouteCollection {
    func boot(routes r: RoutesBuilder) throws {
        r.get(use: index)
    }
    func index(_ req: Request) async throws -> [User] { [] }
}
protocol P { func x() }
"#;
        let t = Toks::from_source(src);
        let o = parse(&t);
        assert_eq!(o.types[0].name, "CreateUser");
        assert_eq!(o.types[0].conforms, ["Content", "Validatable"]);
        assert_eq!(o.types[0].fields, ["name", "email", "tags", "age"]);
        assert_eq!(o.types[1].conforms, ["RouteCollection"]);
        assert_eq!(
            o.consts,
            [
                ("apiVersion".to_string(), "v1".to_string()),
                ("schema".to_string(), "users".to_string())
            ]
        );
        let names: Vec<_> = o
            .funcs
            .iter()
            .map(|f| (f.name.as_str(), f.owner.as_deref()))
            .collect();
        assert_eq!(
            names,
            [
                ("display", Some("CreateUser")),
                ("boot", Some("UserController")),
                ("index", Some("UserController"))
            ]
        );
        let boot = &o.funcs[1];
        assert_eq!(boot.params[0].label, "routes");
        assert_eq!(boot.params[0].name, "r");
        assert_eq!(boot.params[0].ty, "RoutesBuilder");
        assert_eq!(o.funcs[2].params[0].name, "req");
    }
}
