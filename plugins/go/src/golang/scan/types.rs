//! Go types and declarations as the scanner reads them: type names,
//! struct fields and their tags, declared and inferred types of local
//! variables (`var req T`, `req := &pkg.T{}`, `h, err := pkg.NewH()`), and
//! the type hints used to resolve methods called on them.

use super::*;

/// The struct type of a handler parameter: `*GetUserInput`,
/// `*dto.Input`, `*struct{ ID string `path:"id"` }`.
pub fn param_type_ref(ty: &str) -> Option<TypeRef> {
    let t = ty.trim().trim_start_matches('*').trim();
    if t.starts_with("struct") {
        let code = Code::new(t, portolan_plugin_sdk::Syntax::GO);
        let open = t.find('{')?;
        let close = code.matching(open)?;
        return Some(TypeRef::Inline(struct_fields(&code, open, close)));
    }
    let (qual, name) = type_name(t);
    (!name.is_empty() && name.starts_with(|c: char| c.is_ascii_uppercase()))
        .then_some(TypeRef::Named { qual, name })
}

pub(super) fn is_string_type(ty: &str) -> bool {
    matches!(ty.trim(), "string" | "...string")
}

/// (qualifier, name) of a type: `*dto.User` → (Some("dto"), "User"),
/// `[]Item` → (None, "Item"), `Handler[T]` → (None, "Handler").
pub fn type_name(ty: &str) -> (Option<String>, String) {
    let t = ty.trim().trim_start_matches(['*', '&', '[', ']', '.']);
    let t = t.split('[').next().unwrap_or(t);
    let t = t
        .split(|c: char| c == '{' || c == '(' || c.is_whitespace())
        .next()
        .unwrap_or(t);
    match t.rsplit_once('.') {
        Some((q, n)) => (Some(q.to_string()), n.to_string()),
        None => (None, t.to_string()),
    }
}

/// Struct fields between the braces at `open`..`close`.
pub fn struct_fields(code: &Code<'_>, open: usize, close: usize) -> Vec<Field> {
    let mut out = Vec::new();
    for line in code.split_top_level(open + 1, close, b'\n') {
        for decl in code.split_top_level(line.start, line.end, b';') {
            if let Some(f) = field_decl(code, decl) {
                out.extend(f);
            }
        }
    }
    out
}

pub(super) fn field_decl(code: &Code<'_>, r: Range<usize>) -> Option<Vec<Field>> {
    let text = code.slice(r.clone());
    // The tag: a trailing string literal.
    let mut tags = Vec::new();
    let mut decl_end = r.end;
    if text.ends_with(['`', '"']) {
        // Where the literal starts: the trailing run of non-code bytes
        // (an inline struct type before it has tags of its own).
        let mut s = r.end;
        while s > r.start && !code.is_code(s - 1) && !code.is_comment(s - 1) {
            s -= 1;
        }
        let start = (s < r.end).then_some(s);
        if let Some(lit) = start.and_then(|s| code.string_at(s)) {
            if lit.end == r.end {
                tags = parse_tag(&lit.value);
                decl_end = lit.start;
            }
        }
    }
    let decl = code.slice(r.start..decl_end).trim();
    if decl.is_empty() {
        return None;
    }
    let (names, ty) = match decl.find(|c: char| c.is_whitespace()) {
        Some(sp) if decl[..sp].bytes().all(|c| is_ident_byte(c) || c == b',') => {
            let names_part = &decl[..sp];
            let rest = decl[sp..].trim();
            if names_part.ends_with(',') || rest.starts_with(',') {
                // `A, B string`
                let (n, t) = split_names_type(decl);
                (n, t)
            } else {
                (vec![names_part.to_string()], rest.to_string())
            }
        }
        _ => {
            // Embedded field: `Base`, `*dto.Page`.
            let (_, name) = type_name(decl);
            return Some(vec![Field {
                name,
                ty: decl.to_string(),
                tags,
                embedded: true,
            }]);
        }
    };
    Some(
        names
            .into_iter()
            .filter(|n| !n.is_empty())
            .map(|name| Field {
                name,
                ty: ty.clone(),
                tags: tags.clone(),
                embedded: false,
            })
            .collect(),
    )
}

pub(super) fn split_names_type(decl: &str) -> (Vec<String>, String) {
    let mut names = Vec::new();
    let mut rest = decl;
    loop {
        let r = rest.trim_start();
        let end = r
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(r.len());
        names.push(r[..end].to_string());
        let after = r[end..].trim_start();
        if let Some(more) = after.strip_prefix(',') {
            rest = more;
        } else {
            return (names, after.to_string());
        }
    }
}

/// `json:"name,omitempty" form:"name"` → pairs.
pub fn parse_tag(tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = tag.trim();
    while !rest.is_empty() {
        let Some(colon) = rest.find(':') else { break };
        let key = rest[..colon].trim().to_string();
        let after = &rest[colon + 1..];
        let Some(stripped) = after.strip_prefix('"') else {
            break;
        };
        let mut value = String::new();
        let mut end = None;
        let mut chars = stripped.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, n)) = chars.next() {
                        value.push(n);
                    }
                }
                '"' => {
                    end = Some(i);
                    break;
                }
                _ => value.push(c),
            }
        }
        let Some(end) = end else { break };
        out.push((key, value));
        rest = stripped[end + 1..].trim_start();
    }
    out
}

/// Declared types of local variables: `var req T`, `req := T{…}`,
/// `req := &pkg.T{}`, `req := new(T)`, `var req struct{…}`, parameters.
pub(super) fn var_types(code: &Code<'_>, body: Range<usize>) -> Vec<(String, TypeRef)> {
    let mut out = Vec::new();
    let text = code.text();
    let b = bytes(code);
    for at in code.find_word_in("var", body.clone()) {
        if at < body.start || at >= body.end {
            continue;
        }
        let Some((name, e)) = ident_here(code, skip_ws(code, at + 3)) else {
            continue;
        };
        let t = skip_ws(code, e);
        if let Some((kw, ke)) = ident_here(code, t) {
            if kw == "struct" {
                let open = skip_ws(code, ke);
                if b.get(open) == Some(&b'{') {
                    if let Some(close) = code.matching(open) {
                        out.push((
                            name.to_string(),
                            TypeRef::Inline(struct_fields(code, open, close)),
                        ));
                    }
                }
                continue;
            }
        }
        let end = statement_end(code, t, body.end);
        let ty_text = text[t..end].split('=').next().unwrap_or("").trim();
        if !ty_text.is_empty() {
            let (qual, n) = type_name(ty_text);
            if !n.is_empty() {
                out.push((name.to_string(), TypeRef::Named { qual, name: n }));
            }
        } else if let Some(eq) = text[t..end].find('=') {
            if let Some(tr) = composite_type(code, t + eq + 1..end) {
                out.push((name.to_string(), tr));
            }
        }
    }
    for at in code.find_all_in(":=", body.clone()) {
        if at < body.start || at >= body.end {
            continue;
        }
        let Some(name) = code.ident_before(at) else {
            continue;
        };
        let end = statement_end(code, at + 2, body.end);
        if let Some(tr) = composite_type(code, at + 2..end) {
            out.push((name.to_string(), tr));
        }
    }
    // Parameters of the function and its literals.
    for (_, sig) in func_literals(code, body.clone()) {
        for (n, t) in &sig.params {
            let (qual, name) = type_name(t);
            if !n.is_empty() && !name.is_empty() {
                out.push((n.clone(), TypeRef::Named { qual, name }));
            }
        }
    }
    out
}

/// `T{…}`, `&pkg.T{…}`, `new(T)`, `&struct{…}{…}`.
pub(super) fn composite_type(code: &Code<'_>, r: Range<usize>) -> Option<TypeRef> {
    let r = trim(code, r);
    let text = code.slice(r.clone());
    let t = text.trim_start_matches('&').trim_start();
    let offset = r.start + (text.len() - t.len());
    if let Some(inner) = t.strip_prefix("new(") {
        let ty = inner.split(')').next()?;
        let (qual, name) = type_name(ty);
        return Some(TypeRef::Named { qual, name });
    }
    if t.starts_with("struct") {
        let open = offset + t.find('{')?;
        let close = code.matching(open)?;
        return Some(TypeRef::Inline(struct_fields(code, open, close)));
    }
    let brace = t.find('{')?;
    let head = t[..brace].trim();
    if head.is_empty() || !head.bytes().all(|c| is_ident_byte(c) || c == b'.') {
        return None;
    }
    let (qual, name) = type_name(head);
    Some(TypeRef::Named { qual, name })
}

/// Type names of local variables for method resolution: declared types,
/// composite literals and constructor calls (`NewUserHandler(…)` →
/// `UserHandler`).
pub(super) fn var_hints(code: &Code<'_>, body: Range<usize>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = var_types(code, body.clone())
        .into_iter()
        .filter_map(|(n, t)| match t {
            TypeRef::Named {
                qual: Some(q),
                name,
                ..
            } => Some((n, format!("{q}:{name}"))),
            TypeRef::Named { name, .. } => Some((n, name)),
            TypeRef::Inline(_) | TypeRef::Param(_) => None,
        })
        .collect();
    for at in code.find_all_in(":=", body.clone()) {
        if at < body.start || at >= body.end {
            continue;
        }
        // `api, err := admin.NewAPI(db)`: the first name is the value.
        let Some(name) = first_assigned(code, at) else {
            continue;
        };
        let end = statement_end(code, at + 2, body.end);
        let rhs = code.slice(at + 2..end).trim();
        let callee = rhs.split('(').next().unwrap_or("").trim();
        let callee = callee.trim_start_matches('&');
        let (qual, last) = match callee.rsplit_once('.') {
            Some((q, l)) => (Some(q), l),
            None => (None, callee),
        };
        if let Some(ty) = last.strip_prefix("New") {
            if !ty.is_empty() && ty.starts_with(|c: char| c.is_ascii_uppercase()) {
                // `pkg.NewUserHandler(…)`: the type is looked for in that
                // package first (two packages may both declare one).
                let ty = match qual {
                    Some(q) if !q.is_empty() && q.bytes().all(is_ident_byte) => format!("{q}:{ty}"),
                    _ => ty.to_string(),
                };
                out.push((name.to_string(), ty));
            }
        }
    }
    out
}

/// The first name of the assignment list ending before `at` (`a` in
/// `a, err :=`), over at most a few names.
pub(super) fn first_assigned<'a>(code: &'a Code<'_>, at: usize) -> Option<&'a str> {
    let b = bytes(code);
    let back_ws = |mut i: usize| {
        while i > 0 && b.get(i - 1).is_some_and(|c| *c == b' ' || *c == b'\t') {
            i -= 1;
        }
        i
    };
    let mut end = back_ws(at);
    let mut name = code.ident_before(end)?;
    for _ in 0..8 {
        let start = end - name.len();
        let comma = back_ws(start);
        if comma == 0 || b.get(comma - 1) != Some(&b',') {
            break;
        }
        end = back_ws(comma - 1);
        match code.ident_before(end) {
            Some(n) if end >= n.len() => name = n,
            _ => break,
        }
    }
    Some(name)
}

/// The `[` opening the short type-argument list that ends at `close`
/// (looked for within 64 bytes, so the scan stays linear).
pub(super) fn type_args_open(b: &[u8], close: usize) -> Option<usize> {
    let mut depth = 0usize;
    for i in (close.saturating_sub(64)..=close).rev() {
        match b.get(i)? {
            b']' => depth += 1,
            b'[' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            b'\n' | b';' | b'{' | b'}' | b'"' => return None,
            _ => {}
        }
    }
    None
}

/// `any` / `interface{}`: a parameter a helper binds into for its caller.
pub(super) fn is_any_type(ty: &str) -> bool {
    let ty: String = ty.chars().filter(|c| !c.is_whitespace()).collect();
    ty == "any" || ty == "interface{}"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_parse() {
        assert_eq!(
            parse_tag(r#"json:"name,omitempty" form:"n" binding:"required""#),
            vec![
                ("json".to_string(), "name,omitempty".to_string()),
                ("form".to_string(), "n".to_string()),
                ("binding".to_string(), "required".to_string()),
            ]
        );
    }

    #[test]
    fn hints_of_multi_value_constructors() {
        let src = "{\n\tadminAPI, err := admin.NewAPI(db)\n\tapp := NewShop()\n}";
        let code = Code::new(src, Syntax::GO);
        let hints = var_hints(&code, 0..src.len());
        assert!(
            hints.contains(&("adminAPI".into(), "admin:API".into())),
            "{hints:?}"
        );
        assert!(hints.contains(&("app".into(), "Shop".into())), "{hints:?}");
    }

    #[test]
    fn type_names() {
        assert_eq!(type_name("*dto.User"), (Some("dto".into()), "User".into()));
        assert_eq!(type_name("[]Item"), (None, "Item".into()));
        assert_eq!(type_name("Page[T]"), (None, "Page".into()));
    }

    #[test]
    fn struct_fields_with_tags_and_embedding() {
        let src = "type X struct {\n\tBase\n\t*dto.Page\n\tName, Email string `json:\"name\"`\n\tAge int `json:\"age\" form:\"age\"`\n\tAddr struct {\n\t\tCity string\n\t} `json:\"addr\"`\n}";
        let code = Code::new(src, Syntax::GO);
        let open = src.find('{').unwrap();
        let close = code.matching(open).unwrap();
        let f = struct_fields(&code, open, close);
        let names: Vec<_> = f.iter().map(|f| (f.name.as_str(), f.embedded)).collect();
        assert_eq!(
            names,
            vec![
                ("Base", true),
                ("Page", true),
                ("Name", false),
                ("Email", false),
                ("Age", false),
                ("Addr", false)
            ]
        );
        assert_eq!(f[4].tag("form"), Some("age"));
        assert_eq!(f[5].tag("json"), Some("addr"));
    }
}
