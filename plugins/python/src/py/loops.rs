//! Registrations made in loops: `for router in ROUTERS:
//! app.include_router(router)`, `for view in (A, B): view.register(bp)`.
//! The loop variable stands for each element of the iterated sequence: a
//! literal list/tuple of dotted names, or a module-level constant holding
//! one (resolved at link time, possibly in another module).

use portolan_plugin_sdk::Code;
use serde::{Deserialize, Serialize};
use std::ops::Range;

use super::call::whole_dotted;
use super::lines::LogicalLine;
use super::module::assignment_target;

/// What a loop variable iterates over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LoopItems {
    /// A literal sequence of dotted names.
    Names(Vec<String>),
    /// A (dotted) name of a sequence constant.
    Ref(String),
}

/// A module-level `NAME = [a, b.c, …]` / `(…)` of dotted names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sequence {
    pub name: String,
    pub items: Vec<String>,
}

/// The dotted names of a list/tuple/set literal at `range`; `None` when an
/// element is anything else.
pub fn dotted_list(code: &Code<'_>, range: Range<usize>) -> Option<Vec<String>> {
    let open = code.skip_ws(range.start);
    if !matches!(code.text().as_bytes().get(open), Some(b'[' | b'(' | b'{')) {
        return None;
    }
    let close = code.matching(open)?;
    if code.skip_ws(close + 1) < range.end {
        return None;
    }
    let items: Option<Vec<String>> = code
        .args(open)
        .into_iter()
        .map(|r| whole_dotted(code, r))
        .collect();
    items.filter(|i| !i.is_empty())
}

/// Module-level sequences of dotted names.
pub fn sequences(code: &Code<'_>, lines: &[LogicalLine]) -> Vec<Sequence> {
    lines
        .iter()
        .filter(|l| l.indent == 0)
        .filter_map(|l| {
            let (name, value) = assignment_target(code, l)?;
            let items = dotted_list(code, value..l.end)?;
            Some(Sequence { name, items })
        })
        .collect()
}

/// When `var` (a plain name) is the target of a `for var in …:` loop
/// enclosing `offset`, what it iterates over.
pub fn loop_items(
    code: &Code<'_>,
    lines: &[LogicalLine],
    offset: usize,
    var: &str,
) -> Option<LoopItems> {
    if var.contains('.') {
        return None;
    }
    let at = lines
        .partition_point(|l| l.start <= offset)
        .checked_sub(1)?;
    let mut indent = lines.get(at)?.indent;
    // Walk back through the enclosing block headers (each less indented).
    for line in lines[..at].iter().rev() {
        if line.indent >= indent {
            continue;
        }
        indent = line.indent;
        let text = line.text(code);
        let rest = text
            .strip_prefix("for ")
            .or_else(|| text.strip_prefix("async for "));
        if let Some(rest) = rest {
            let rest = rest.trim_start();
            if let Some(after) = rest
                .strip_prefix(var)
                .filter(|a| a.starts_with(char::is_whitespace))
            {
                if let Some(iter) = after.trim_start().strip_prefix("in ") {
                    let iter_start = line.start + (text.len() - iter.len());
                    let colon = crate::py::lines::header_colon(code, line)?;
                    let range = iter_start..colon;
                    if let Some(names) = dotted_list(code, range.clone()) {
                        return Some(LoopItems::Names(names));
                    }
                    return whole_dotted(code, code.skip_ws(range.start)..trim_end(code, range))
                        .map(LoopItems::Ref);
                }
            }
        }
        if indent == 0 {
            break;
        }
    }
    None
}

/// When `a` and `b` are the targets of a `for a, b in …:` (or `for (a, b)
/// in …:`) loop enclosing `offset`, the range of what it iterates over.
pub fn pair_loop_iter(
    code: &Code<'_>,
    lines: &[LogicalLine],
    offset: usize,
    a: &str,
    b: &str,
) -> Option<Range<usize>> {
    pair_loop(code, lines, offset, &|x, y| x == a && y == b).map(|(_, _, r, _)| r)
}

/// The innermost `for a, b in …:` loop enclosing `offset` whose targets
/// satisfy `want`: (a, b, the iterated range, the header's line index).
pub fn pair_loop(
    code: &Code<'_>,
    lines: &[LogicalLine],
    offset: usize,
    want: &dyn Fn(&str, &str) -> bool,
) -> Option<(String, String, Range<usize>, usize)> {
    let at = lines
        .partition_point(|l| l.start <= offset)
        .checked_sub(1)?;
    let mut indent = lines.get(at)?.indent;
    for (k, line) in lines[..at].iter().enumerate().rev() {
        if line.indent >= indent {
            continue;
        }
        indent = line.indent;
        let text = line.text(code);
        if let Some(rest) = text.strip_prefix("for ") {
            if let Some((targets, iter)) = rest.split_once(" in ") {
                let targets: String = targets
                    .chars()
                    .filter(|c| !c.is_whitespace() && *c != '(' && *c != ')')
                    .collect();
                if let Some((x, y)) = targets.split_once(',') {
                    if want(x, y) {
                        let iter_start = line.start + (text.len() - iter.len());
                        let colon = crate::py::lines::header_colon(code, line)?;
                        let range = code.skip_ws(iter_start)..trim_end(code, iter_start..colon);
                        return Some((x.to_string(), y.to_string(), range, k));
                    }
                }
            }
        }
        if indent == 0 {
            break;
        }
    }
    None
}

fn trim_end(code: &Code<'_>, r: Range<usize>) -> usize {
    r.start + code.slice(r.clone()).trim_end().len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::py::lines::logical_lines;
    use portolan_plugin_sdk::Syntax;

    #[test]
    fn loops_over_literals_and_constants() {
        let src = "ROUTERS = (a.router, b.router)\n\ndef make(app):\n    for r in ROUTERS:\n        app.include_router(r)\n    for v in [A, B]:\n        if v:\n            v.register(app)\n    other(r)\n";
        let code = Code::new(src, Syntax::PYTHON);
        let lines = logical_lines(&code);
        let seqs = sequences(&code, &lines);
        assert_eq!(seqs[0].items, vec!["a.router", "b.router"]);
        let inc = src.find("app.include_router").unwrap();
        assert_eq!(
            loop_items(&code, &lines, inc, "r"),
            Some(LoopItems::Ref("ROUTERS".into()))
        );
        let reg = src.find("v.register").unwrap();
        assert_eq!(
            loop_items(&code, &lines, reg, "v"),
            Some(LoopItems::Names(vec!["A".into(), "B".into()]))
        );
        let other = src.find("other(r)").unwrap();
        assert_eq!(loop_items(&code, &lines, other, "r"), None);
    }
}
