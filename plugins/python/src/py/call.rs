//! Dotted names and call expressions: `app.route('/x', methods=['GET'])`.

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::Code;
use std::ops::Range;

/// One argument of a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// Keyword name for `name=value`.
    pub name: Option<String>,
    /// The value's range (for keywords, after the `=`).
    pub value: Range<usize>,
    /// `*args` or `**kwargs`.
    pub star: bool,
}

/// A call `callee(args…)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// Dotted callee as written, without spaces (`app.route`, `Blueprint`).
    pub callee: String,
    /// Offset of the callee's first byte.
    pub start: usize,
    /// Offset of `(`.
    pub open: usize,
    /// Offset of the matching `)`.
    pub close: usize,
    pub args: Vec<Arg>,
}

impl Call {
    /// The `index`-th positional argument (before any `*args`).
    pub fn positional(&self, index: usize) -> Option<Range<usize>> {
        let mut seen = 0;
        for arg in &self.args {
            if arg.star {
                return None;
            }
            if arg.name.is_none() {
                if seen == index {
                    return Some(arg.value.clone());
                }
                seen += 1;
            }
        }
        None
    }

    /// The keyword argument `name`.
    pub fn keyword(&self, name: &str) -> Option<Range<usize>> {
        self.args
            .iter()
            .find(|a| a.name.as_deref() == Some(name))
            .map(|a| a.value.clone())
    }

    /// A parameter passed by keyword or at positional `index`.
    pub fn arg(&self, index: usize, name: &str) -> Option<Range<usize>> {
        self.keyword(name).or_else(|| self.positional(index))
    }

    /// The receiver of a method call: `app` for `app.route`, `a.b` for
    /// `a.b.c`, `None` for a plain function call.
    pub fn receiver(&self) -> Option<&str> {
        self.callee.rsplit_once('.').map(|(r, _)| r)
    }

    /// The last segment of the callee (`route` for `app.route`).
    pub fn method(&self) -> &str {
        self.callee.rsplit('.').next().unwrap_or(&self.callee)
    }
}

pub use portolan_plugin_sdk::python::strexpr::dotted_at;

/// The dotted name ending just before `offset` (`app.api` before the
/// `.route` at `offset`), with its start offset.
pub fn dotted_before(code: &Code<'_>, offset: usize) -> Option<(String, usize)> {
    let bytes = code.text().as_bytes();
    let mut start = offset.min(bytes.len());
    loop {
        let seg_end = start;
        while start > 0 && is_ident_byte(bytes[start - 1]) {
            start -= 1;
        }
        if start == seg_end || !code.is_code(start) {
            return None;
        }
        if start > 1 && bytes[start - 1] == b'.' && is_ident_byte(bytes[start - 2]) {
            start -= 1;
            continue;
        }
        break;
    }
    if bytes[start].is_ascii_digit() {
        return None;
    }
    Some((code.slice(start..offset).to_string(), start))
}

/// Parse the call whose dotted callee starts at `offset` (after
/// whitespace): `name(…)` or `a.b(…)`. `None` when no `(` follows.
pub fn call_at(code: &Code<'_>, offset: usize) -> Option<Call> {
    let (callee, range) = dotted_at(code, offset)?;
    let open = code.skip_inline_ws(range.end);
    if code.text().as_bytes().get(open) != Some(&b'(') || !code.is_code(open) {
        return None;
    }
    let close = code.matching(open)?;
    Some(Call {
        callee,
        start: range.start,
        open,
        close,
        args: split_args(code, open),
    })
}

/// Split the arguments of the call, list, tuple or set opened at `open`.
pub fn split_args(code: &Code<'_>, open: usize) -> Vec<Arg> {
    code.args(open)
        .into_iter()
        .map(|range| {
            let text = code.slice(range.clone());
            if text.starts_with('*') {
                return Arg {
                    name: None,
                    value: range,
                    star: true,
                };
            }
            match keyword(code, range.clone()) {
                Some((name, value)) => Arg {
                    name: Some(name),
                    value,
                    star: false,
                },
                None => Arg {
                    name: None,
                    value: range,
                    star: false,
                },
            }
        })
        .collect()
}

/// `name=value` (not `==`) → the name and the value's range.
fn keyword(code: &Code<'_>, range: Range<usize>) -> Option<(String, Range<usize>)> {
    let (name, value) = code.keyword_arg(range.clone())?;
    let name = name.to_string();
    // `keyword_arg` also accepts `name: value` (object properties); Python
    // keyword arguments use `=` only.
    let text = code.slice(range.clone());
    let after = text.get(name.len()..)?.trim_start();
    after.starts_with('=').then_some((name, value))
}

/// The string elements of a list/tuple/set literal (`['GET', "POST"]`), or
/// `None` when the value is not such a literal of plain strings.
pub fn string_list(code: &Code<'_>, value: Range<usize>) -> Option<Vec<String>> {
    let open = code.skip_ws(value.start);
    let first = *code.text().as_bytes().get(open)?;
    if !matches!(first, b'[' | b'(' | b'{') || !code.is_code(open) {
        // A single string is accepted too (`methods='GET'` is a mistake
        // Flask tolerates by iterating characters; we take the intent),
        // and a tuple without parentheses (`fields = 'a', 'b'`).
        let lit = code.string_at(open)?;
        if !lit.interpolated && code.skip_ws(lit.end) >= value.end {
            return Some(vec![lit.value]);
        }
        let mut out = Vec::new();
        for part in code.split_top_level(open, value.end, b',') {
            let start = code.skip_ws(part.start);
            if start >= part.end {
                continue;
            }
            let lit = code.string_at(start)?;
            if lit.interpolated || code.skip_ws(lit.end) < part.end {
                return None;
            }
            out.push(lit.value);
        }
        return (out.len() > 1).then_some(out);
    }
    let close = code.matching(open)?;
    if code.skip_ws(close + 1) < value.end {
        return None;
    }
    let mut out = Vec::new();
    for range in code.args(open) {
        let lit = code.string_at(range.start)?;
        if lit.interpolated || lit.end != range.end {
            return None;
        }
        out.push(lit.value);
    }
    Some(out)
}

/// The call `receiver.method(...)` whose `.method(` is at `dot`.
pub fn method_call(code: &Code<'_>, dot: usize) -> Option<Call> {
    let (_, start) = dotted_before(code, dot)?;
    call_at(code, start)
}

/// The value at `range` when it is exactly a dotted name.
pub fn whole_dotted(code: &Code<'_>, range: Range<usize>) -> Option<String> {
    let (name, r) = dotted_at(code, range.start)?;
    (r.end == range.end).then_some(name)
}

/// A `methods=[...]` value: upper-cased and deduplicated; `None` when not
/// a literal list (or string) or empty.
pub fn methods_list(code: &Code<'_>, value: Option<Range<usize>>) -> Option<Vec<String>> {
    let list = string_list(code, value?)?;
    let mut out: Vec<String> = Vec::new();
    for m in list {
        let m = m.trim().to_ascii_uppercase();
        if !m.is_empty() && !out.contains(&m) {
            out.push(m);
        }
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    #[test]
    fn parses_calls_with_keywords_and_positionals() {
        let code = Code::new(
            "x = api.bp.route('/a', 'ep', methods=('GET', 'post'), **kw)",
            Syntax::PYTHON,
        );
        let call = call_at(&code, 4).unwrap();
        assert_eq!(call.callee, "api.bp.route");
        assert_eq!(call.receiver(), Some("api.bp"));
        assert_eq!(call.method(), "route");
        assert_eq!(code.slice(call.positional(0).unwrap()), "'/a'");
        assert_eq!(code.slice(call.arg(1, "endpoint").unwrap()), "'ep'");
        let methods = string_list(&code, call.keyword("methods").unwrap()).unwrap();
        assert_eq!(methods, vec!["GET", "post"]);
        assert!(call.args[3].star);
        assert_eq!(call.positional(2), None);
    }

    #[test]
    fn comparison_is_not_a_keyword() {
        let code = Code::new("f(a == 1, b = 2)", Syntax::PYTHON);
        let call = call_at(&code, 0).unwrap();
        assert_eq!(call.args[0].name, None);
        assert_eq!(call.args[1].name.as_deref(), Some("b"));
    }

    #[test]
    fn dotted_names() {
        let code = Code::new("  users.bp.route(", Syntax::PYTHON);
        assert_eq!(dotted_at(&code, 0).unwrap().0, "users.bp.route");
        assert_eq!(dotted_before(&code, 10), Some(("users.bp".to_string(), 2)));
        let code = Code::new("super().add(", Syntax::PYTHON);
        assert_eq!(dotted_before(&code, 7), None);
        assert_eq!(dotted_at(&code, 0).unwrap().0, "super");
        assert!(call_at(&Code::new("f", Syntax::PYTHON), 0).is_none());
        assert!(call_at(&Code::new("f(", Syntax::PYTHON), 0).is_none());
    }

    #[test]
    fn string_lists() {
        let code = Code::new("{'GET'} 'POST' [x] ['a', f'{b}']", Syntax::PYTHON);
        assert_eq!(string_list(&code, 0..7), Some(vec!["GET".to_string()]));
        assert_eq!(string_list(&code, 8..14), Some(vec!["POST".to_string()]));
        assert_eq!(string_list(&code, 15..18), None);
        assert_eq!(string_list(&code, 19..32), None);
    }
}

/// One operand of a sequence-of-strings expression (`BASE + ('a', 'b')`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ListPart {
    /// A literal list or tuple of strings.
    #[serde(rename = "l")]
    Lit(Vec<String>),
    /// A (possibly dotted, possibly imported) name of another such sequence.
    #[serde(rename = "r")]
    Ref(String),
}

/// A sequence of strings built from literals and names joined by `+`
/// (`SCHEMA_FIELDS = BASE_FIELDS + ('x', 'y')`); `None` when any operand
/// is something else, or when there is no name at all and no literal.
pub fn list_expr(code: &Code<'_>, value: Range<usize>) -> Option<Vec<ListPart>> {
    let mut out = Vec::new();
    let parts = code.split_top_level(value.start, value.end, b'+');
    for part in &parts {
        let start = code.skip_ws(part.start);
        let end = trim_end(code, part.clone());
        if start >= end {
            return None;
        }
        if let Some(name) = whole_dotted(code, start..end) {
            out.push(ListPart::Ref(name));
            continue;
        }
        let first = *code.text().as_bytes().get(start)?;
        if parts.len() > 1 && !matches!(first, b'[' | b'(') {
            return None;
        }
        out.push(ListPart::Lit(string_list(code, start..end)?));
    }
    (!out.is_empty()).then_some(out)
}

fn trim_end(code: &Code<'_>, range: Range<usize>) -> usize {
    let bytes = code.text().as_bytes();
    let mut end = range.end.min(bytes.len());
    while end > range.start && bytes.get(end - 1).is_some_and(|b| b.is_ascii_whitespace()) {
        end -= 1;
    }
    end
}

/// A `receiver.method(path, target)` call: a route prefix (or path) and the
/// dotted name of what it mounts or registers.
pub struct PathTarget {
    pub receiver: String,
    /// Offset of the call.
    pub start: usize,
    pub path: super::strexpr::StrExpr,
    pub target: String,
}

/// Every `receiver<needle>path, target)` call (`needle` is `.mount(` and
/// the like), the path the first argument or keyword `path_kw`, the target
/// the second or keyword `target_kw`; calls without all three are skipped.
pub fn path_target_calls(
    code: &Code<'_>,
    needle: &str,
    path_kw: &str,
    target_kw: &str,
) -> Vec<PathTarget> {
    let mut out = Vec::new();
    for at in code.find_all(needle) {
        let Some(call) = method_call(code, at) else {
            continue;
        };
        let (Some(receiver), Some(path), Some(target)) = (
            call.receiver(),
            call.arg(0, path_kw)
                .and_then(|r| super::strexpr::StrExpr::parse(code, r)),
            call.arg(1, target_kw).and_then(|r| whole_dotted(code, r)),
        ) else {
            continue;
        };
        out.push(PathTarget {
            receiver: receiver.to_string(),
            start: call.start,
            path,
            target,
        });
    }
    out
}
