//! `open_api_spex` declarations: a controller's `operation(:action,
//! parameters: [...], request_body: {...})` specs and the top-level
//! `properties` of schema modules (`OpenApiSpex.schema(%{properties: %{...}})`).

use super::reads::{Read, Source};
use super::tokens::{Kind, Token};

/// An `operation(:action, …)` spec.
pub struct Operation {
    pub action: String,
    /// Declared parameters (`id: [in: :path, …]`,
    /// `Operation.parameter(:id, :path, …)`).
    pub params: Vec<Read>,
    /// `request_body: {"desc", "application/json", Schemas.X}`: the schema
    /// alias as written and the body's source (JSON or form).
    pub body: Option<(String, Source)>,
}

/// Index of the bracket closing the one opening at `open`.
fn close(t: &[Token], open: usize, end: usize) -> usize {
    let mut depth = 0i32;
    let mut k = open;
    while k < end {
        let x = &t[k];
        if x.kind == Kind::Punct {
            match x.text.as_str() {
                "[" | "(" | "{" => depth += 1,
                "]" | ")" | "}" => {
                    depth -= 1;
                    if depth <= 0 {
                        return k;
                    }
                }
                _ => {}
            }
        }
        k += 1;
    }
    end
}

fn location(atom: &str) -> Option<Source> {
    Some(match atom {
        "query" => Source::Query,
        "path" => Source::Path,
        "header" => Source::Header,
        "cookie" => Source::Cookie,
        _ => return None,
    })
}

/// The operation spec in `t[args]` (the arguments of an `operation` call).
pub fn operation(t: &[Token], args: std::ops::Range<usize>) -> Option<Operation> {
    let end = args.end.min(t.len());
    let start = args.start.min(end);
    let action = t[start..end]
        .iter()
        .find(|x| x.kind == Kind::Atom)?
        .text
        .clone();
    let mut op = Operation {
        action,
        params: Vec::new(),
        body: None,
    };
    let mut k = start;
    while k < end {
        let x = &t[k];
        if x.kind == Kind::Key && x.text == "parameters" && t.get(k + 1).is_some_and(|n| n.is("["))
        {
            let c = close(t, k + 1, end);
            let mut j = k + 2;
            while j < c {
                // `name: [in: :query, …]`
                if t[j].kind == Kind::Key && t.get(j + 1).is_some_and(|n| n.is("[")) {
                    let c2 = close(t, j + 1, c);
                    let src = (j + 2..c2).find_map(|i| {
                        (t[i].kind == Kind::Key && t[i].text == "in")
                            .then(|| t.get(i + 1))
                            .flatten()
                            .filter(|a| a.kind == Kind::Atom)
                            .and_then(|a| location(&a.text))
                    });
                    if let Some(s) = src {
                        op.params.push(Read {
                            source: s,
                            name: t[j].text.clone(),
                        });
                    }
                    j = c2 + 1;
                    continue;
                }
                // `Operation.parameter(:name, :query, :string, "…")`
                if (t[j].is_ident("parameter") || t[j].text.ends_with(".parameter"))
                    && t.get(j + 1).is_some_and(|n| n.is("("))
                {
                    let name = t.get(j + 2).filter(|a| a.kind == Kind::Atom);
                    let loc = t
                        .get(j + 4)
                        .filter(|a| a.kind == Kind::Atom)
                        .and_then(|a| location(&a.text));
                    if let (Some(n), Some(s)) = (name, loc) {
                        op.params.push(Read {
                            source: s,
                            name: n.text.clone(),
                        });
                    }
                }
                j += 1;
            }
            k = c + 1;
            continue;
        }
        if x.kind == Kind::Key
            && x.text == "request_body"
            && t.get(k + 1).is_some_and(|n| n.is("{"))
        {
            let c = close(t, k + 1, end);
            let ctype = t[k + 2..c]
                .iter()
                .position(|s| s.kind == Kind::Str && s.text.contains('/'));
            if let Some(p) = ctype {
                let ct = &t[k + 2 + p].text;
                let source = if ct.contains("json") {
                    Source::Json
                } else {
                    Source::Form
                };
                if let Some(schema) = t[k + 3 + p..c].iter().find(|s| s.kind == Kind::Alias) {
                    op.body = Some((schema.text.clone(), source));
                }
            }
            k = c + 1;
            continue;
        }
        k += 1;
    }
    Some(op)
}

/// The top-level property names of the schema in `t[r]`: the first
/// `properties: %{…}` map's keys (`name:` or `"name" =>`).
pub fn schema_properties(t: &[Token], r: std::ops::Range<usize>) -> Option<Vec<String>> {
    let end = r.end.min(t.len());
    let k = (r.start.min(end)..end).find(|&k| {
        t[k].kind == Kind::Key
            && t[k].text == "properties"
            && t.get(k + 1).is_some_and(|x| x.is("%"))
            && t.get(k + 2).is_some_and(|x| x.is("{"))
    })?;
    let c = close(t, k + 2, end);
    let mut out = Vec::new();
    let mut depth = 0i32;
    for j in k + 3..c {
        let x = &t[j];
        if x.kind == Kind::Punct {
            match x.text.as_str() {
                "[" | "(" | "{" => depth += 1,
                "]" | ")" | "}" => depth -= 1,
                _ => {}
            }
            continue;
        }
        let at_key = depth == 0 && (j == k + 3 || t[j - 1].is(","));
        if !at_key {
            continue;
        }
        let arrow_key = x.kind == Kind::Str && t.get(j + 1).is_some_and(|n| n.is("=>"));
        if x.kind == Kind::Key || arrow_key {
            out.push(x.text.clone());
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ex::tokens::tokenize;

    #[test]
    fn operation_and_schema() {
        let src = "operation(:index, parameters: [level: [in: :query, type: :string], id: [in: :path, type: :integer]], request_body: {\"Body\", \"application/json\", Schemas.Req, required: true}, responses: [ok: {\"x\", \"application/json\", Schemas.Resp}])";
        let t = tokenize(src);
        let op = operation(&t, 0..t.len()).unwrap();
        assert_eq!(op.action, "index");
        let names: Vec<_> = op
            .params
            .iter()
            .map(|r| (r.source, r.name.as_str()))
            .collect();
        assert_eq!(names, [(Source::Query, "level"), (Source::Path, "id")]);
        assert_eq!(op.body, Some(("Schemas.Req".to_string(), Source::Json)));
        let s = "OpenApiSpex.schema(%{type: :object, properties: %{name: %Schema{type: :string}, tags: %Schema{type: :array, items: %Schema{type: :string}}, \"is_default\" => %Schema{type: :boolean}}, required: [:name]})";
        let t = tokenize(s);
        assert_eq!(
            schema_properties(&t, 0..t.len()).unwrap(),
            ["name", "tags", "is_default"]
        );
    }
}
