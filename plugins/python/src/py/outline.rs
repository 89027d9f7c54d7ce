//! The structure of a Python file: functions and classes with their
//! decorators, argument lists and bodies (by indentation).

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::Code;
use std::ops::Range;

use super::call::{call_at, dotted_at, Call};
use super::lines::{block_body, LogicalLine};

/// A decorator line: `@app.route('/x')`, `@login_required`.
#[derive(Clone, Debug)]
pub struct Decorator {
    /// Offset of the `@`.
    pub at: usize,
    /// The dotted name after `@` (`app.route`, `login_required`).
    pub name: String,
    /// The call when the decorator is called (`@app.route(...)`).
    pub call: Option<Call>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefKind {
    Function,
    Class,
}

/// A `def`, `async def` or `class` statement.
#[derive(Clone, Debug)]
pub struct Def {
    pub kind: DefKind,
    pub name: String,
    /// Offset of the statement (`def`, `async` or `class`).
    pub start: usize,
    pub indent: usize,
    /// Index of the header in the logical lines.
    pub line: usize,
    /// Offset of the `(` of the parameters / bases, if any.
    pub open_paren: Option<usize>,
    /// The body, after the header's `:`.
    pub body: Range<usize>,
    /// Decorators, top to bottom.
    pub decorators: Vec<Decorator>,
    /// Index (in the outline) of the innermost enclosing def or class.
    pub parent: Option<usize>,
}

impl Def {
    /// Is this directly in the body of `parent` (a method of a class)?
    pub fn is_child_of(&self, parent: usize) -> bool {
        self.parent == Some(parent)
    }
}

/// Every def and class of a file, in source order.
pub fn outline(code: &Code<'_>, lines: &[LogicalLine]) -> Vec<Def> {
    let mut defs: Vec<Def> = Vec::new();
    let mut pending: Vec<(usize, Decorator)> = Vec::new();
    // Open scopes: (index into defs, body end).
    let mut scopes: Vec<(usize, usize)> = Vec::new();
    for (idx, line) in lines.iter().enumerate() {
        let text = line.text(code);
        while scopes.last().is_some_and(|(_, end)| line.start >= *end) {
            scopes.pop();
        }
        if text.starts_with('@') {
            if let Some((name, range)) =
                dotted_at(code, line.start + 1).filter(|(_, r)| r.end <= line.end)
            {
                let call = call_at(code, range.start);
                pending.push((
                    line.indent,
                    Decorator {
                        at: line.start,
                        name,
                        call,
                    },
                ));
            }
            continue;
        }
        let (kind, after_kw) = if let Some(r) = strip_keyword(text, "def") {
            (DefKind::Function, r)
        } else if let Some(r) =
            strip_keyword(text, "async").and_then(|r| strip_keyword(r.trim_start(), "def"))
        {
            (DefKind::Function, r)
        } else if let Some(r) = strip_keyword(text, "class") {
            (DefKind::Class, r)
        } else {
            pending.clear();
            continue;
        };
        let name_offset = line.start + (text.len() - after_kw.len());
        let Some((name, range)) = dotted_at(code, name_offset).filter(|(n, _)| !n.contains('.'))
        else {
            pending.clear();
            continue;
        };
        let paren = code.skip_inline_ws(range.end);
        let open_paren = (code.text().as_bytes().get(paren) == Some(&b'(')).then_some(paren);
        let decorators = pending
            .drain(..)
            .filter(|(indent, _)| *indent == line.indent)
            .map(|(_, d)| d)
            .collect();
        let body = block_body(code, lines, idx);
        let parent = scopes.last().map(|(i, _)| *i);
        scopes.push((defs.len(), body.end.max(line.end)));
        defs.push(Def {
            kind,
            name,
            start: line.start,
            indent: line.indent,
            line: idx,
            open_paren,
            body,
            decorators,
            parent,
        });
    }
    defs
}

/// `text` without the leading keyword `kw` and the whitespace after it.
fn strip_keyword<'t>(text: &'t str, kw: &str) -> Option<&'t str> {
    let rest = text.strip_prefix(kw)?;
    let first = *rest.as_bytes().first()?;
    if is_ident_byte(first) || !(first == b' ' || first == b'\t') {
        return None;
    }
    Some(rest.trim_start_matches([' ', '\t']))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::py::lines::logical_lines;
    use portolan_plugin_sdk::Syntax;

    #[test]
    fn decorators_defs_and_classes() {
        let src = "@login_required\n@app.route(\n    '/a',\n    methods=['POST'],\n)\n@limiter.limit('1/s')\nasync def a(x):\n    return 1\n\nclass V(MethodView):\n    methods = ['GET']\n\n    @cached\n    def get(self):\n        def inner():\n            pass\n        return 2\n\n# @app.route('/gone')\nx = 1\n@app.get('/b')\ndef b(): return 3\ndefault = 1\n";
        let code = Code::new(src, Syntax::PYTHON);
        let lines = logical_lines(&code);
        let defs = outline(&code, &lines);
        let names: Vec<_> = defs
            .iter()
            .map(|d| (d.name.as_str(), d.kind, d.parent))
            .collect();
        assert_eq!(
            names,
            vec![
                ("a", DefKind::Function, None),
                ("V", DefKind::Class, None),
                ("get", DefKind::Function, Some(1)),
                ("inner", DefKind::Function, Some(2)),
                ("b", DefKind::Function, None),
            ]
        );
        let a = &defs[0];
        let decos: Vec<_> = a.decorators.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(decos, vec!["login_required", "app.route", "limiter.limit"]);
        let route = a.decorators[1].call.as_ref().unwrap();
        assert_eq!(code.slice(route.positional(0).unwrap()), "'/a'");
        assert_eq!(code.slice(a.body.clone()).trim(), "return 1");
        assert_eq!(defs[2].decorators[0].name, "cached");
        assert!(code.slice(defs[1].body.clone()).contains("return 2"));
        assert_eq!(code.slice(defs[4].body.clone()).trim(), "return 3");
        assert_eq!(defs[4].decorators.len(), 1);
    }

    #[test]
    fn stray_decorators_are_dropped() {
        let src = "@app.route('/x')\nx = 1\ndef f(): pass\n@\ndef g(): pass\n";
        let code = Code::new(src, Syntax::PYTHON);
        let lines = logical_lines(&code);
        let defs = outline(&code, &lines);
        assert!(defs.iter().all(|d| d.decorators.is_empty()));
    }
}
