//! Items of a Rust file: test-only code, functions, constants, structs.

use std::ops::Range;

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::Code;
use serde::{Deserialize, Serialize};

/// Inline modules (`mod docs { … }`): the body's range and the name,
/// in source order (an enclosing module before the ones inside it).
pub fn inline_modules(code: &Code) -> Vec<(Range<usize>, String)> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    for m in code.find_word("mod") {
        let name_start = code.skip_ws(m + 3);
        let Some(name) = code.ident_at(name_start) else {
            continue;
        };
        let open = code.skip_ws(name_start + name.len());
        if bytes.get(open) != Some(&b'{') {
            continue;
        }
        if let Some(close) = code.matching(open) {
            out.push((open..close, name.to_string()));
        }
    }
    out
}

/// The inline modules enclosing offset `at`, outermost first (`a::b`).
pub fn inline_path(mods: &[(Range<usize>, String)], at: usize) -> String {
    let mut out = String::new();
    for (_, name) in mods.iter().filter(|(r, _)| r.start < at && at < r.end) {
        if !out.is_empty() {
            out.push_str("::");
        }
        out.push_str(name);
    }
    out
}

/// Byte ranges of items under `#[cfg(test)]` (usually `mod tests { … }`),
/// attribute included.
pub fn test_ranges(code: &Code) -> Vec<Range<usize>> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for at in code.find_all("#[") {
        let Some(close) = code.matching(at + 1) else {
            continue;
        };
        let inner: String = text[at + 2..close]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if inner != "cfg(test)" {
            continue;
        }
        // The item ends at its first top-level `;` or its `{ … }` block.
        let mut i = close + 1;
        let mut end = None;
        while i < bytes.len() {
            if code.is_code(i) {
                match bytes[i] {
                    b';' => {
                        end = Some(i + 1);
                        break;
                    }
                    b'{' => {
                        end = code.matching(i).map(|c| c + 1);
                        break;
                    }
                    b'#' if bytes.get(i + 1) == Some(&b'[') => {
                        i = code.matching(i + 1).unwrap_or(i);
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        out.push(at..end.unwrap_or(bytes.len()));
    }
    out
}

pub fn inside(ranges: &[Range<usize>], offset: usize) -> bool {
    ranges.iter().any(|r| r.contains(&offset))
}

/// A function declaration.
#[derive(Clone, Debug)]
pub struct FnDecl {
    pub name: String,
    /// Offset of the name.
    pub at: usize,
    /// Offset of the `fn` keyword.
    pub kw: usize,
    /// `name: Type` parameters (receivers `self` skipped).
    pub params: Vec<FnParam>,
    /// The body, braces included.
    pub body: Range<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnParam {
    pub pattern: String,
    pub ty: String,
    /// The parameter's attributes, compacted (`#[oai(name="X-Id")]`).
    pub attrs: String,
}

/// Every `fn` with a body, outside `skip`.
pub fn functions(code: &Code, skip: &[Range<usize>]) -> Vec<FnDecl> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for at in code.find_word("fn") {
        if inside(skip, at) {
            continue;
        }
        let name_at = code.skip_ws(at + 2);
        let Some(name) = code.ident_at(name_at) else {
            continue;
        };
        let mut i = code.skip_ws(name_at + name.len());
        if bytes.get(i) == Some(&b'<') {
            let Some(c) = angle_end(bytes, i) else {
                continue;
            };
            i = code.skip_ws(c + 1);
        }
        if bytes.get(i) != Some(&b'(') {
            continue;
        }
        let Some(close) = code.matching(i) else {
            continue;
        };
        let params = split_params(code, i + 1, close);
        let mut j = close + 1;
        let mut body = None;
        while j < bytes.len() {
            if code.is_code(j) {
                match bytes[j] {
                    b';' => break,
                    b'{' => {
                        body = code.matching(j).map(|c| j..c + 1);
                        break;
                    }
                    _ => {}
                }
            }
            j += 1;
        }
        let Some(body) = body else { continue };
        out.push(FnDecl {
            name: name.to_string(),
            at: name_at,
            kw: at,
            params,
            body,
        });
    }
    out
}

/// The `>` closing the `<` at `open` (`->` arrows ignored).
pub fn angle_end(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'<' => depth += 1,
            b'>' if i > 0 && bytes[i - 1] == b'-' => {}
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            b'{' | b';' => return None,
            _ => {}
        }
    }
    None
}

/// Split `start..end` at top-level commas, `<…>` generics counted as
/// brackets.
pub fn split_generic(code: &Code, start: usize, end: usize) -> Vec<Range<usize>> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut piece = start;
    let end = end.min(bytes.len());
    for i in start..end {
        if !code.is_code(i) {
            continue;
        }
        match bytes[i] {
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b'>' if i > 0 && bytes[i - 1] == b'-' => {}
            b')' | b']' | b'}' | b'>' => depth -= 1,
            b',' if depth == 0 => {
                push_trimmed(code, &mut out, piece, i);
                piece = i + 1;
            }
            _ => {}
        }
    }
    push_trimmed(code, &mut out, piece, end);
    out
}

fn push_trimmed(code: &Code, out: &mut Vec<Range<usize>>, start: usize, end: usize) {
    let s = code.slice(start..end);
    let lead = s.len() - s.trim_start().len();
    let trail = s.len() - s.trim_end().len();
    if start + lead < end - trail {
        out.push(start + lead..end - trail);
    }
}

fn split_params(code: &Code, start: usize, end: usize) -> Vec<FnParam> {
    let mut out = Vec::new();
    for r in split_generic(code, start, end) {
        let raw = code.slice(r);
        let text = strip_attrs(raw);
        let attrs = compact(&raw[..raw.len() - text.len()]);
        let bytes = text.as_bytes();
        // The first `:` that is not part of `::`.
        let mut colon = None;
        let mut depth = 0i32;
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'(' | b'[' | b'{' | b'<' => depth += 1,
                b')' | b']' | b'}' | b'>' => depth -= 1,
                b':' if depth == 0
                    && bytes.get(i + 1) != Some(&b':')
                    && (i == 0 || bytes[i - 1] != b':') =>
                {
                    colon = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let Some(colon) = colon else { continue };
        let pattern = text[..colon].trim();
        let pattern = pattern.strip_prefix("mut ").unwrap_or(pattern).trim();
        out.push(FnParam {
            pattern: pattern.to_string(),
            ty: compact(&text[colon + 1..]),
            attrs,
        });
    }
    out
}

fn strip_attrs(mut text: &str) -> &str {
    loop {
        let t = text.trim_start();
        if let Some(rest) = t.strip_prefix("#[") {
            let Some(end) = rest.find(']') else { return t };
            text = &rest[end + 1..];
        } else {
            return t;
        }
    }
}

/// Whitespace removed: `Query < Params >` → `Query<Params>`.
/// Renaming imports: `use crate::api::core::routes as core_routes;` and
/// the same inside braces (`pub use api::{core::routes as core_routes,
/// admin::routes as admin_routes};`) → (alias, original path).
pub fn use_aliases(code: &Code, skip: &[Range<usize>]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for at in code.find_word("use") {
        if inside(skip, at) || !code.is_code(at) {
            continue;
        }
        let Some(end) = code.text()[at..].find(';').map(|e| at + e) else {
            continue;
        };
        // Whitespace kept only between words (`a as b`).
        let words = code.slice(at + "use".len()..end).split_whitespace();
        let mut body = String::new();
        for w in words {
            let glue = |c: Option<char>| c.is_some_and(|c| ":{},".contains(c));
            if !body.is_empty() && !glue(body.chars().last()) && !glue(w.chars().next()) {
                body.push(' ');
            }
            body.push_str(w);
        }
        if body.contains(" as ") {
            expand_use("", &body, &mut out, 0);
        }
    }
    out
}

fn expand_use(prefix: &str, tree: &str, out: &mut Vec<(String, String)>, depth: usize) {
    if depth > 4 {
        return;
    }
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let Some(inner) = tree[open + 1..].strip_suffix('}') else {
            return;
        };
        let head = format!("{prefix}{}", &tree[..open]);
        let mut level = 0usize;
        let mut from = 0;
        for (i, b) in inner.bytes().enumerate() {
            match b {
                b'{' => level += 1,
                b'}' => level = level.saturating_sub(1),
                b',' if level == 0 => {
                    expand_use(&head, &inner[from..i], out, depth + 1);
                    from = i + 1;
                }
                _ => {}
            }
        }
        expand_use(&head, &inner[from..], out, depth + 1);
        return;
    }
    if let Some((path, alias)) = tree.split_once(" as ") {
        let (path, alias) = (path.trim(), alias.trim());
        if is_ident(alias) && alias != "_" {
            out.push((alias.to_string(), format!("{prefix}{path}")));
        }
    }
}

pub fn compact(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// `const NAME: &str = "…";` / `static NAME: &str = "…";` /
/// `const NAME: &str = concat!(…)` at any level.
pub fn str_consts(code: &Code, skip: &[Range<usize>]) -> Vec<(String, Vec<super::expr::Part>)> {
    let text = code.text();
    let mut out = Vec::new();
    for kw in ["const", "static"] {
        for at in code.find_word(kw) {
            if inside(skip, at) {
                continue;
            }
            let Some(name) = code.ident_at(at + kw.len()) else {
                continue;
            };
            if name == "fn" || name == "mut" || (at > 0 && text.as_bytes()[at - 1] == b'\'') {
                continue;
            }
            let Some(eq) = text[at..].find('=').map(|e| at + e) else {
                continue;
            };
            let Some(semi) = text[eq..].find(';').map(|s| eq + s) else {
                continue;
            };
            if !text[at..eq].contains("str") {
                continue;
            }
            if let Some(parts) = super::expr::parse_str(code, eq + 1..semi) {
                out.push((name.to_string(), parts));
            }
        }
    }
    out
}

/// Route tables written as enum variants with a method and a path
/// (`GetUser(GET, "/v1/users/{id}")`, typically the input of a macro that
/// generates the enum and its `path()` accessor): `Variant` → the path, so
/// `Endpoint::GetUser.path()` resolves. Also accessors that slice a
/// literal prefix off such a path (`&self.path()["/v1".len()..]`):
/// `method()` → the prefix.
pub fn route_table(code: &Code, skip: &[Range<usize>]) -> Vec<(String, Vec<super::expr::Part>)> {
    use super::expr::Part;
    const METHODS: &[&str] = &["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for m in METHODS {
        for at in code.find_word(m) {
            if inside(skip, at) {
                continue;
            }
            // `Variant(` before, `, "path")` after.
            let mut o = at;
            while o > 0 && bytes[o - 1].is_ascii_whitespace() {
                o -= 1;
            }
            if o == 0 || bytes[o - 1] != b'(' {
                continue;
            }
            let mut v = o - 1;
            while v > 0 && bytes[v - 1].is_ascii_whitespace() {
                v -= 1;
            }
            let end = v;
            while v > 0 && is_ident_byte(bytes[v - 1]) {
                v -= 1;
            }
            let variant = &text[v..end];
            if !variant.starts_with(|c: char| c.is_ascii_uppercase()) {
                continue;
            }
            let comma = code.skip_ws(at + m.len());
            if bytes.get(comma) != Some(&b',') {
                continue;
            }
            let Some(lit) = code.string_at(code.skip_ws(comma + 1)) else {
                continue;
            };
            if !lit.value.starts_with('/') || bytes.get(code.skip_ws(lit.end)) != Some(&b')') {
                continue;
            }
            out.push((variant.to_string(), vec![Part::Lit(lit.value)]));
        }
    }
    // `fn name(self) -> &'static str { &self.path()["/prefix".len()..] }`.
    for at in code.find_all(".len()..]") {
        if inside(skip, at) {
            continue;
        }
        // A short look-back (the accessor is a one-liner), on a char
        // boundary: linear overall.
        let mut from = at.saturating_sub(300);
        while !text.is_char_boundary(from) {
            from += 1;
        }
        let before = &text[from..at];
        let Some(q) = before.rfind('"') else { continue };
        let Some(lit) = before[..q]
            .rfind('"')
            .and_then(|o| code.string_at(from + o))
        else {
            continue;
        };
        let head = &before[..before[..q].rfind('"').unwrap_or(0)];
        let Some(f) = head.rfind("fn ") else { continue };
        let name: String = head[f + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if is_ident(&name) && !head[f..].contains(';') {
            out.push((format!("{name}()"), vec![Part::Lit(lit.value)]));
        }
    }
    out
}

/// A struct's deserialized field, as the client sends it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    pub name: String,
    /// `#[serde(flatten)]`: the fields of this type are inlined.
    pub flatten: Option<String>,
    /// Salvo `#[salvo(extract(source(from = "query")))]`: where an
    /// `Extractible` struct's field is read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// `from = "x"` inside a compacted `salvo(extract(source(…)))` or
/// `salvo(extract(default_source(…)))` attribute (`key` is `source(` or
/// `default_source(`).
fn salvo_source(attr: &str, key: &str) -> Option<String> {
    let inner = attr.strip_prefix("salvo(extract(")?;
    let at = inner.find(key)?;
    if key == "source(" && at > 0 && inner.as_bytes()[at - 1] == b'_' {
        return None;
    }
    let rest = &inner[at + key.len()..];
    let v = rest.split("from=\"").nth(1)?.split('"').next()?;
    Some(v.to_string())
}

/// A struct with named fields and its wire names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructDecl {
    pub name: String,
    pub fields: Vec<Field>,
    /// utoipa `#[into_params(parameter_in = Query)]`: where the fields are
    /// read (`query`, `path`, `header`, `cookie`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param_in: Option<String>,
}

/// Every `struct Name { … }`, field names after serde `rename`/`rename_all`,
/// `skip`/`skip_deserializing` fields dropped.
pub fn structs(code: &Code, skip: &[Range<usize>]) -> Vec<StructDecl> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for at in code.find_word("struct") {
        if inside(skip, at) {
            continue;
        }
        let Some(name) = code.ident_at(at + 6) else {
            continue;
        };
        let mut i = code.skip_ws(code.skip_ws(at + 6) + name.len());
        if bytes.get(i) == Some(&b'<') {
            let Some(c) = angle_end(bytes, i) else {
                continue;
            };
            i = code.skip_ws(c + 1);
        }
        if text[i..].starts_with("where") {
            match text[i..].find('{') {
                Some(o) => i += o,
                None => continue,
            }
        }
        if bytes.get(i) != Some(&b'{') {
            continue;
        }
        let Some(close) = code.matching(i) else {
            continue;
        };
        let attrs = attrs_before(code, at);
        let rename_all = attrs.iter().find_map(|a| serde_value(a, "rename_all"));
        let param_in = attrs
            .iter()
            .find_map(|a| {
                let rest = a.strip_prefix("into_params(")?;
                let v = rest.split("parameter_in=").nth(1)?;
                let v: String = v
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == ':')
                    .collect();
                Some(v.rsplit("::").next().unwrap_or("").to_ascii_lowercase())
            })
            .or_else(|| {
                attrs
                    .iter()
                    .find_map(|a| salvo_source(a, "default_source("))
            });
        let mut fields = Vec::new();
        for r in code.split_top_level(i + 1, close, b',') {
            let raw = code.slice(r);
            let mut attrs = Vec::new();
            let mut rest = raw.trim_start();
            while let Some(after) = rest.strip_prefix("#[") {
                let Some(end) = bracket_end(after) else { break };
                attrs.push(compact(&after[..end]));
                rest = after[end + 1..].trim_start();
            }
            let rest = strip_visibility(rest);
            let Some((field, ty)) = rest.split_once(':') else {
                continue;
            };
            let field = field.trim().trim_start_matches("r#");
            if attrs.iter().any(|a| {
                (a.starts_with("serde(") || a.starts_with("oai("))
                    && (a.contains("skip)")
                        || a.contains("skip,")
                        || a.contains("skip_deserializing"))
            }) {
                continue;
            }
            if attrs
                .iter()
                .any(|a| a.starts_with("serde(") && a.contains("flatten"))
            {
                fields.push(Field {
                    name: field.to_string(),
                    flatten: Some(type_name(ty)),
                    source: None,
                });
                continue;
            }
            let wire = attrs
                .iter()
                .find_map(|a| serde_value(a, "rename"))
                .unwrap_or_else(|| match &rename_all {
                    Some(rule) => rename(field, rule),
                    None => field.to_string(),
                });
            let source = attrs.iter().find_map(|a| salvo_source(a, "source("));
            fields.push(Field {
                name: wire,
                flatten: None,
                source,
            });
        }
        out.push(StructDecl {
            name: name.to_string(),
            fields,
            param_in,
        });
    }
    out
}

fn bracket_end(s: &str) -> Option<usize> {
    let mut depth = 1i32;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Compacted attributes (`serde(rename_all="camelCase")`) written on the
/// lines just above the item at `at`.
/// Attributes are returned nearest first.
pub fn attrs_before(code: &Code, at: usize) -> Vec<String> {
    let text = code.text();
    let mut end = at;
    let mut out = Vec::new();
    loop {
        let mut before = text[..end].trim_end();
        for kw in ["async", "unsafe", "const", "pub(crate)", "pub"] {
            if let Some(b) = before.strip_suffix(kw) {
                if !b.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                    before = b.trim_end();
                }
            }
        }
        if !before.ends_with(']') {
            return out;
        }
        // Find the `#[` opening this attribute.
        let mut depth = 0i32;
        let bytes = before.as_bytes();
        let mut open = None;
        for i in (0..bytes.len()).rev() {
            match bytes[i] {
                b']' => depth += 1,
                b'[' => {
                    depth -= 1;
                    if depth == 0 {
                        open = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(open) = open else { return out };
        if open == 0 || bytes[open - 1] != b'#' {
            return out;
        }
        out.push(compact(&before[open + 1..before.len() - 1]));
        end = open - 1;
    }
}

/// `value` of `key = "value"` in a compacted `serde(…)` attribute.
/// A field without its visibility (`pub`, `pub(crate)`, `pub(in x)`);
/// a field named `published` keeps its name.
fn strip_visibility(s: &str) -> &str {
    let Some(after) = s.strip_prefix("pub") else {
        return s;
    };
    if let Some(inner) = after.trim_start().strip_prefix('(') {
        return inner.find(')').map_or(s, |e| inner[e + 1..].trim_start());
    }
    if after.starts_with(char::is_whitespace) {
        after.trim_start()
    } else {
        s
    }
}

/// `key = "v"` of a `serde(…)` attribute (also poem-openapi's `oai(…)`,
/// whose `rename`/`rename_all` mean the same).
fn serde_value(attr: &str, key: &str) -> Option<String> {
    let inner = attr
        .strip_prefix("serde(")
        .or_else(|| attr.strip_prefix("oai("))?;
    let pat = format!("{key}=\"");
    let mut search = inner;
    while let Some(pos) = search.find(&pat) {
        let before_ok = pos == 0 || matches!(search.as_bytes()[pos - 1], b'(' | b',');
        let rest = &search[pos + pat.len()..];
        if before_ok {
            return rest.split('"').next().map(str::to_string);
        }
        search = rest;
    }
    None
}

/// serde's `rename_all` rules applied to a snake_case field name.
pub fn rename(field: &str, rule: &str) -> String {
    let words: Vec<&str> = field.split('_').filter(|w| !w.is_empty()).collect();
    let cap = |w: &str| {
        let mut c = w.chars();
        c.next()
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
            .unwrap_or_default()
    };
    match rule {
        "lowercase" => field.to_ascii_lowercase(),
        "UPPERCASE" => field.to_ascii_uppercase(),
        "PascalCase" => words.iter().map(|w| cap(w)).collect(),
        "camelCase" => words
            .iter()
            .enumerate()
            .map(|(i, w)| if i == 0 { w.to_string() } else { cap(w) })
            .collect(),
        "SCREAMING_SNAKE_CASE" => field.to_ascii_uppercase(),
        "kebab-case" => field.replace('_', "-"),
        "SCREAMING-KEBAB-CASE" => field.replace('_', "-").to_ascii_uppercase(),
        _ => field.to_string(),
    }
}

/// The type's name without path and generics: `crate::a::Params<T>` → `Params`.
pub fn type_name(ty: &str) -> String {
    let ty = compact(ty);
    let ty = ty.trim_start_matches('&');
    let base = ty.split('<').next().unwrap_or(ty);
    base.rsplit("::").next().unwrap_or(base).to_string()
}

/// Generic argument of `Outer<Inner>` when the outer type's last path
/// segment is `outer`: `axum::Json<Body>` → `Body`.
pub fn generic_of<'t>(ty: &'t str, outer: &str) -> Option<&'t str> {
    let open = ty.find('<')?;
    let head = &ty[..open];
    if head.rsplit("::").next()? != outer {
        return None;
    }
    ty[open + 1..].strip_suffix('>')
}

pub fn is_ident(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(is_ident_byte)
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    #[test]
    fn renaming_imports() {
        let src = "pub use crate::api::{\n    core::routes as core_routes,\n    admin::routes as admin_routes, web::Thing,\n};\nuse x::y as z;\nuse a::b;\n";
        let code = Code::new(src, portolan_plugin_sdk::Syntax::RUST);
        assert_eq!(
            use_aliases(&code, &[]),
            vec![
                (
                    "core_routes".to_string(),
                    "crate::api::core::routes".to_string()
                ),
                (
                    "admin_routes".to_string(),
                    "crate::api::admin::routes".to_string()
                ),
                ("z".to_string(), "x::y".to_string()),
            ]
        );
    }

    #[test]
    fn skips_cfg_test_items() {
        let src = "fn a() {}\n#[cfg(test)]\nmod tests {\n fn b() { let r = 1; }\n}\nfn c() {}\n";
        let code = Code::new(src, Syntax::RUST);
        let skip = test_ranges(&code);
        let names: Vec<_> = functions(&code, &skip)
            .into_iter()
            .map(|f| f.name)
            .collect();
        assert_eq!(names, ["a", "c"]);
    }

    #[test]
    fn function_params() {
        let src = "pub async fn h(State(s): State<App>, Path((a, b)): Path<(u32, String)>, Query(q): Query<HashMap<String, String>>, mut mp: Multipart) -> impl IntoResponse { x }";
        let code = Code::new(src, Syntax::RUST);
        let f = &functions(&code, &[])[0];
        assert_eq!(f.name, "h");
        let pats: Vec<_> = f
            .params
            .iter()
            .map(|p| (p.pattern.as_str(), p.ty.as_str()))
            .collect();
        assert_eq!(
            pats,
            [
                ("State(s)", "State<App>"),
                ("Path((a, b))", "Path<(u32,String)>"),
                ("Query(q)", "Query<HashMap<String,String>>"),
                ("mp", "Multipart"),
            ]
        );
    }

    #[test]
    fn serde_structs() {
        let src = r#"
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Params {
    page_size: u32,
    #[serde(rename = "q")]
    pub search_term: Option<String>,
    #[serde(skip)]
    cache: u8,
    #[serde(flatten)]
    paging: Paging,
}
"#;
        let code = Code::new(src, Syntax::RUST);
        let s = &structs(&code, &[])[0];
        assert_eq!(s.name, "Params");
        let names: Vec<_> = s.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["pageSize", "q", "paging"]);
        assert_eq!(s.fields[2].flatten.as_deref(), Some("Paging"));
    }

    #[test]
    fn constants() {
        let src = "pub const API: &str = \"/api\";\nconst N: u32 = 3;\nstatic V1: &'static str = concat!(\"/api\", \"/v1\");";
        let code = Code::new(src, Syntax::RUST);
        let c = str_consts(&code, &[]);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].0, "API");
        assert_eq!(c[1].0, "V1");
    }

    #[test]
    fn rename_rules() {
        assert_eq!(rename("user_id", "camelCase"), "userId");
        assert_eq!(rename("user_id", "PascalCase"), "UserId");
        assert_eq!(rename("user_id", "kebab-case"), "user-id");
        assert_eq!(rename("user_id", "SCREAMING_SNAKE_CASE"), "USER_ID");
        assert_eq!(generic_of("axum::Json<Body>", "Json"), Some("Body"));
        assert_eq!(type_name("crate::a::Params<T>"), "Params");
    }
}
