//! Request values read by a controller action or a `Plug.Router` block:
//! `params["q"]`, `conn.params["q"]`, `conn.query_params["q"]`,
//! `conn.body_params["q"]`, `conn.path_params["id"]`, `Map.get(params,
//! "q")`, map patterns `%{"id" => id}` (in a function head or matched
//! against params), `get_req_header(conn, "x")`, `conn.req_cookies["c"]`
//! / `conn.cookies["c"]`.

use serde::{Deserialize, Serialize};

use super::tokens::{Kind, Token};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    /// `params` / `conn.params`: path, query or body depending on route.
    Params,
    Query,
    Body,
    Path,
    Header,
    Cookie,
    /// `%{"avatar" => %Plug.Upload{}}`.
    File,
    /// A JSON body field declared by an OpenAPI request body.
    Json,
    /// A form body field declared by an OpenAPI request body.
    Form,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Read {
    pub source: Source,
    pub name: String,
}

fn source_of(ident: &str) -> Option<Source> {
    Some(match ident {
        "params" => Source::Params,
        "query_params" => Source::Query,
        "body_params" => Source::Body,
        "path_params" => Source::Path,
        "req_cookies" | "cookies" => Source::Cookie,
        _ => return None,
    })
}

/// Top-level string keys of the map pattern opening at `t[open]` (`%`),
/// with whether the value is a `%Plug.Upload{}`.
fn map_keys(t: &[Token], open: usize) -> (Vec<(String, bool)>, usize) {
    let mut keys = Vec::new();
    let mut depth = 0i32;
    let mut k = open + 1;
    while k < t.len() {
        let tok = &t[k];
        if tok.kind == Kind::Punct {
            match tok.text.as_str() {
                "{" | "[" | "(" => depth += 1,
                "}" | "]" | ")" => {
                    depth -= 1;
                    if depth == 0 {
                        return (keys, k);
                    }
                }
                _ => {}
            }
        } else if tok.kind == Kind::Str
            && depth == 1
            && t.get(k + 1).is_some_and(|x| x.is("=>"))
            && (t[k - 1].is("{") || t[k - 1].is(","))
        {
            let upload = t.get(k + 2).is_some_and(|x| x.is("%"))
                && t.get(k + 3).is_some_and(|x| x.text == "Plug.Upload");
            keys.push((tok.text.clone(), upload));
        }
        k += 1;
    }
    (keys, k)
}

/// Reads in `t[r]`. `head` marks a function head, whose map patterns
/// are params.
pub fn scan(t: &[Token], r: std::ops::Range<usize>, head: bool) -> Vec<Read> {
    let mut out: Vec<Read> = Vec::new();
    let mut push = |source: Source, name: &str| {
        let r = Read {
            source,
            name: name.to_string(),
        };
        if !out.contains(&r) {
            out.push(r);
        }
    };
    let end = r.end.min(t.len());
    let mut k = r.start;
    while k < end {
        let tok = &t[k];
        // %{"a" => a} in a head, or `%{…} = params` / `= conn.body_params`.
        if tok.is("%") && t.get(k + 1).is_some_and(|x| x.is("{")) {
            let (keys, close) = map_keys(t, k);
            let matched = if head {
                Some(Source::Params)
            } else if t.get(close + 1).is_some_and(|x| x.is("=")) {
                let mut j = close + 2;
                if t.get(j).is_some_and(|x| x.is_ident("conn"))
                    && t.get(j + 1).is_some_and(|x| x.is("."))
                {
                    j += 2;
                }
                t.get(j).and_then(|x| source_of(&x.text))
            } else {
                None
            };
            if let Some(s) = matched {
                for (key, upload) in keys {
                    push(if upload { Source::File } else { s }, &key);
                }
                k = close.max(k + 1);
                continue;
            }
            // A map built in the body (`json(conn, %{q: params["q"]})`):
            // its values may read params.
            k += 2;
            continue;
        }
        if tok.kind == Kind::Ident {
            if let Some(s) = source_of(&tok.text) {
                if t.get(k + 1).is_some_and(|x| x.is("[")) {
                    if let Some(key) = t.get(k + 2).filter(|x| x.kind == Kind::Str) {
                        if t.get(k + 3).is_some_and(|x| x.is("]")) {
                            push(s, &key.text);
                        }
                    }
                }
            }
            if tok.text == "get_req_header" || tok.text == "get_req_header!" {
                if let Some(h) = t
                    .get(k + 2..(k + 6).min(t.len()))
                    .and_then(|w| w.iter().find(|x| x.kind == Kind::Str))
                {
                    push(Source::Header, &h.text.clone());
                }
            }
            // Map.get(params, "x") / Map.fetch!(params, "x")
            if k >= 2
                && t[k - 1].is(".")
                && t[k - 2].text == "Map"
                && t.get(k + 1).is_some_and(|x| x.is("("))
            {
                if let Some(src) = t.get(k + 2).and_then(|x| source_of(&x.text)) {
                    if let Some(key) = t.get(k + 4).filter(|x| x.kind == Kind::Str) {
                        push(src, &key.text.clone());
                    }
                }
            }
        }
        k += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ex::tokens::tokenize;

    #[test]
    fn reads_of_an_action() {
        let src = "def show(conn, %{\"id\" => id, \"opts\" => %{\"deep\" => d}}) do\n  q = params[\"q\"]\n  %{\"name\" => n} = conn.body_params\n  [token] = get_req_header(conn, \"x-token\")\n  c = conn.req_cookies[\"sid\"]\n  Map.get(params, \"page\")\nend";
        let t = tokenize(src);
        let do_at = t.iter().position(|x| x.is_ident("do")).unwrap();
        let mut got = scan(&t, 0..do_at, true);
        got.extend(scan(&t, do_at..t.len(), false));
        let names: Vec<_> = got.iter().map(|r| (r.source, r.name.as_str())).collect();
        assert_eq!(
            names,
            [
                (Source::Params, "id"),
                (Source::Params, "opts"),
                (Source::Params, "q"),
                (Source::Body, "name"),
                (Source::Header, "x-token"),
                (Source::Cookie, "sid"),
                (Source::Params, "page"),
            ]
        );
    }
}
