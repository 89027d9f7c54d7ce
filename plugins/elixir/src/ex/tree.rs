//! Statements and `do … end` blocks: an Elixir file as a tree of calls
//! (`scope "/api", Web do … end` is a node named `scope` whose children are
//! the statements of its block). Tolerant: unbalanced input ends blocks.

use super::tokens::{Kind, Token};

#[derive(Clone, Debug)]
pub struct Node {
    /// The call name (`get`, `scope`, `defmodule`), empty when the
    /// statement does not start with an identifier.
    pub name: String,
    /// Token index of the first token.
    pub head: usize,
    /// Token range of the arguments (up to `do` or the statement end).
    pub args: std::ops::Range<usize>,
    /// Token range of the `do` block, if any.
    pub body: Option<std::ops::Range<usize>>,
    pub children: Vec<Node>,
}

fn continues(prev: &Token, cur: &Token) -> bool {
    (prev.kind == Kind::Punct
        && matches!(
            prev.text.as_str(),
            "," | "|>" | "=" | "->" | "\\\\" | "<>" | "++" | "." | "=>" | "|"
        ))
        || prev.kind == Kind::Key
        || cur.is("|>")
        || cur.is(".")
}

pub fn parse(t: &[Token]) -> Vec<Node> {
    block(t, 0).0
}

/// Statements from `i` up to an `end` at this level (its index returned).
fn block(t: &[Token], mut i: usize) -> (Vec<Node>, usize) {
    let mut nodes = Vec::new();
    while i < t.len() {
        if t[i].is_ident("end") {
            return (nodes, i);
        }
        let start = i;
        let mut depth = 0i32;
        let mut k = i;
        let mut body = None;
        let mut children = Vec::new();
        let mut args_end = None;
        while k < t.len() {
            let tok = &t[k];
            if k > start && tok.nl && depth <= 0 && !continues(&t[k - 1], tok) {
                break;
            }
            if tok.kind == Kind::Punct {
                match tok.text.as_str() {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => depth -= 1,
                    _ => {}
                }
            } else if tok.is_ident("fn") {
                depth += 1;
            } else if tok.is_ident("end") {
                if depth <= 0 {
                    break;
                }
                depth -= 1;
            } else if tok.is_ident("do") && depth <= 0 {
                args_end = Some(k);
                let (c, end) = block(t, k + 1);
                children = c;
                body = Some(k + 1..end);
                k = (end + 1).min(t.len());
                break;
            }
            k += 1;
        }
        let name = if t[start].kind == Kind::Ident {
            t[start].text.clone()
        } else {
            String::new()
        };
        let args_to = args_end.unwrap_or(k).max(start + 1);
        nodes.push(Node {
            name,
            head: start,
            args: (start + 1).min(args_to)..args_to,
            body,
            children,
        });
        i = k.max(start + 1);
    }
    (nodes, i)
}

/// Top-level comma-separated pieces of `t[r]` (token index ranges).
pub fn split_args(t: &[Token], r: std::ops::Range<usize>) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let end = r.end.min(t.len());
    // Parenthesised call: `get("/x", C, :a)`.
    let (s, e) = if r.start < end && t[r.start].is("(") && t[end - 1].is(")") {
        (r.start + 1, end - 1)
    } else {
        (r.start, end)
    };
    let mut piece = s;
    for (k, tok) in t.iter().enumerate().take(e).skip(s) {
        if tok.kind == Kind::Punct {
            match tok.text.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                "," if depth == 0 => {
                    if piece < k {
                        out.push(piece..k);
                    }
                    piece = k + 1;
                }
                _ => {}
            }
        } else if tok.is_ident("fn") {
            depth += 1;
        } else if tok.is_ident("end") {
            depth -= 1;
        }
    }
    if piece < e {
        out.push(piece..e);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ex::tokens::tokenize;

    #[test]
    fn blocks_and_statements() {
        let src = "defmodule A do\n  scope \"/api\", Web do\n    pipe_through [:api,\n      :auth]\n    get \"/u\", U, :index\n    x = fn a -> a end\n  end\n  def f(conn, %{\"id\" => id}), do: id\nend\n";
        let t = tokenize(src);
        let tree = parse(&t);
        assert_eq!(tree.len(), 1);
        let m = &tree[0];
        assert_eq!(m.name, "defmodule");
        let names: Vec<_> = m.children.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["scope", "def"]);
        let inner: Vec<_> = m.children[0]
            .children
            .iter()
            .map(|n| n.name.as_str())
            .collect();
        assert_eq!(inner, ["pipe_through", "get", "x"]);
        let get = &m.children[0].children[1];
        assert_eq!(split_args(&t, get.args.clone()).len(), 3);
    }
}
