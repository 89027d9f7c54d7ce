//! Values only known at run time: configuration and environment lookups
//! (`app.config['API_PREFIX']`, `os.environ.get('PREFIX', '/api')`,
//! `os.getenv('PREFIX')`), and the assignments that give configuration
//! keys a value in the source (`app.config['API_PREFIX'] = '/api'`).
//!
//! When such a value cannot be found, analyzers keep the route with a
//! placeholder segment named after the key (see [`placeholder`]) rather
//! than dropping the prefix or the route.

use portolan_plugin_sdk::Code;
use std::ops::Range;

use super::call::{call_at, dotted_at};
use super::strexpr::StrExpr;

/// A lookup of a configuration or environment key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lookup {
    pub key: String,
    /// The default given to `.get(key, default)` / `getenv(key, default)`.
    pub default: Option<StrExpr>,
}

/// Receivers whose subscript or `.get` reads configuration: `x.config`,
/// `os.environ`, `environ`, `settings` objects are not included (their
/// attributes are class attributes, resolved elsewhere).
fn is_config_receiver(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or(name);
    matches!(last, "config" | "environ")
}

/// `x.config['KEY']`, `x.config.get('KEY'[, default])`, `os.environ['KEY']`,
/// `os.environ.get('KEY'[, default])`, `os.getenv('KEY'[, default])` as the
/// whole of `range`.
pub fn lookup(code: &Code<'_>, range: Range<usize>) -> Option<Lookup> {
    let start = code.skip_ws(range.start);
    let end = range.end.min(code.text().len());
    let bytes = code.text().as_bytes();
    let (name, r) = dotted_at(code, start)?;
    // Subscript: `x.config['KEY']`.
    if bytes.get(r.end) == Some(&b'[') && is_config_receiver(&name) {
        let close = code.matching(r.end)?;
        if code.skip_ws(close + 1) < end {
            return None;
        }
        let lit = code.string_at(code.skip_ws(r.end + 1))?;
        if lit.interpolated || code.skip_ws(lit.end) != close {
            return None;
        }
        return Some(Lookup {
            key: lit.value,
            default: None,
        });
    }
    let call = call_at(code, start)?;
    if code.skip_ws(call.close + 1) < end {
        return None;
    }
    let getter = match call.method() {
        "get" => call.receiver().is_some_and(is_config_receiver),
        "getenv" => true,
        _ => false,
    };
    if !getter {
        return None;
    }
    let key = code.string_at(code.skip_ws(call.positional(0)?.start))?;
    if key.interpolated {
        return None;
    }
    let default = call
        .positional(1)
        .or_else(|| call.keyword("default"))
        .and_then(|d| value_expr(code, d));
    Some(Lookup {
        key: key.value,
        default,
    })
}

/// A string value as configuration code writes it: a string expression,
/// or the first branch of a conditional (`'/api' if not testing else ''`,
/// the value outside tests).
pub fn value_expr(code: &Code<'_>, range: Range<usize>) -> Option<StrExpr> {
    if let Some(e) = StrExpr::parse(code, range.clone()) {
        return Some(e);
    }
    let start = code.skip_ws(range.start);
    let lit = code.string_at(start).filter(|l| l.start == start)?;
    let after = code.skip_ws(lit.end);
    let rest = code.slice(after..range.end.min(code.text().len()));
    (rest.starts_with("if ") && !lit.interpolated).then(|| StrExpr::lit(lit.value))
}

/// `x.config['KEY'] = value` on one line (`line` is the statement's range):
/// the key and the value's range.
pub fn config_assignment(code: &Code<'_>, line: Range<usize>) -> Option<(String, Range<usize>)> {
    let start = code.skip_ws(line.start);
    let (name, r) = dotted_at(code, start)?;
    if !name.ends_with(".config") || code.text().as_bytes().get(r.end) != Some(&b'[') {
        return None;
    }
    let close = code.matching(r.end)?;
    let lit = code.string_at(code.skip_ws(r.end + 1))?;
    if lit.interpolated || code.skip_ws(lit.end) != close {
        return None;
    }
    let eq = code.skip_ws(close + 1);
    let bytes = code.text().as_bytes();
    if bytes.get(eq) != Some(&b'=') || bytes.get(eq + 1) == Some(&b'=') {
        return None;
    }
    Some((lit.value, eq + 1..line.end))
}

/// The placeholder segment standing for a value known only at run time.
pub fn placeholder(key: &str) -> String {
    let name: String = key
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{{{name}}}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::Syntax;

    fn look(src: &str) -> Option<Lookup> {
        let code = Code::new(src, Syntax::PYTHON);
        lookup(&code, 0..src.len())
    }

    #[test]
    fn lookups() {
        assert_eq!(look("app.config['API']").unwrap().key, "API");
        assert_eq!(look("current_app.config.get(\"API\")").unwrap().key, "API");
        let l = look("os.environ.get('P', '/api')").unwrap();
        assert_eq!(
            (l.key.as_str(), l.default),
            ("P", Some(StrExpr::lit("/api")))
        );
        assert_eq!(look("os.getenv('P')").unwrap().key, "P");
        assert_eq!(look("settings['P']"), None);
        assert_eq!(look("app.config['P'] + '/x'"), None);
        assert_eq!(look("d.get('P')"), None);
    }

    #[test]
    fn assignments_and_conditionals() {
        let src = "app.config['PREFIX'] = '/_api' if not testing else ''";
        let code = Code::new(src, Syntax::PYTHON);
        let (key, value) = config_assignment(&code, 0..src.len()).unwrap();
        assert_eq!(key, "PREFIX");
        assert_eq!(value_expr(&code, value), Some(StrExpr::lit("/_api")));
        let src = "app.config['X'] == 1";
        let code = Code::new(src, Syntax::PYTHON);
        assert_eq!(config_assignment(&code, 0..src.len()), None);
        assert_eq!(placeholder("api-base"), "{api_base}");
    }
}
