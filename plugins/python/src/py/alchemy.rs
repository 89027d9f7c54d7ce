//! advanced-alchemy's filter dependencies (the repository/service layer
//! Litestar and FastAPI projects share): a `FilterConfig` dict turns into
//! query parameters a handler receives through one `filters` dependency.
//!
//! ```python
//! dependencies = create_service_dependencies(
//!     UserService, key="users_service",
//!     filters={"id_filter": UUID, "search": "name,email",
//!              "pagination_type": "limit_offset", "created_at": True,
//!              "sort_field": "created_at", "in_fields": {"role"}},
//! )
//! ```
//!
//! makes `ids`, `createdBefore`, `createdAfter`, `currentPage`,
//! `pageSize`, `searchString`, `searchIgnoreCase`, `orderBy`, `sortOrder`,
//! `roleIn` (camelCase unless `"alias_generator": "snake_case"`), in
//! advanced-alchemy's own order.

use portolan_plugin_sdk::Code;
use std::ops::Range;

use super::call::call_at;
use super::lines::LogicalLine;
use super::module::assignment_target;

/// The dependency names the filter providers register (a handler asks for
/// them by parameter name; none is a client parameter).
pub const FILTER_KEYS: [&str; 7] = [
    "filters",
    "id_filter",
    "created_filter",
    "updated_filter",
    "limit_offset_filter",
    "order_by_filter",
    "search_filter",
];

/// Calls that take a `FilterConfig`, and where: (callee, position,
/// keyword). A position of `usize::MAX` means keyword only.
const TAKERS: [(&str, usize, &str); 3] = [
    ("create_filter_dependencies", 0, "config"),
    ("provide_filters", 0, "config"),
    ("create_service_dependencies", usize::MAX, "filters"),
];

/// The query parameters of the first filter configuration passed to a
/// filter provider inside `range` (`create_filter_dependencies({...})`,
/// `create_service_dependencies(..., filters={...})`,
/// `provide_filters({...})`). The dict may be wrapped in `cast(...)` or be
/// a module-level name of the file (`lines`).
pub fn filter_params(
    code: &Code<'_>,
    lines: &[LogicalLine],
    range: Range<usize>,
) -> Option<Vec<String>> {
    for (callee, index, keyword) in TAKERS {
        for at in code.find_word_in(callee, range.clone()) {
            let Some(call) = call_at(code, at) else {
                continue;
            };
            let arg = if index == usize::MAX {
                call.keyword(keyword)
            } else {
                call.arg(index, keyword)
            };
            if let Some(names) = arg.and_then(|a| config_params(code, lines, a, 0)) {
                return Some(names);
            }
        }
    }
    None
}

/// The query parameters of a `FilterConfig` dict literal at `value`.
fn config_params(
    code: &Code<'_>,
    lines: &[LogicalLine],
    value: Range<usize>,
    depth: usize,
) -> Option<Vec<String>> {
    let mut start = code.skip_ws(value.start);
    let bytes = code.text().as_bytes();
    if bytes
        .get(start)
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    {
        if let Some(call) = call_at(code, start) {
            if call.method() != "cast" {
                return None;
            }
            start = code.skip_ws(call.positional(1)?.start);
        } else if depth == 0 {
            // A module-level name: `filters=USER_FILTERS`.
            let name = code.ident_at(start)?;
            let line = lines.iter().find(|l| {
                l.indent == 0 && assignment_target(code, l).is_some_and(|(n, _)| n == name)
            })?;
            let (_, at) = assignment_target(code, line)?;
            return config_params(code, lines, at..line.end, depth + 1);
        }
    }
    if bytes.get(start) != Some(&b'{') {
        return None;
    }
    let mut found: Vec<(usize, String)> = Vec::new();
    let mut camel = true;
    for item in code.args(start) {
        let parts = code.split_top_level(item.start, item.end, b':');
        let [key, value] = parts.as_slice() else {
            continue;
        };
        let Some(key) = code.string_at(key.start) else {
            continue;
        };
        let text = code.slice(value.clone()).trim();
        if matches!(text, "False" | "None" | "0" | "[]" | "{}" | "()" | "set()") {
            continue;
        }
        let literal = code.string_at(value.start).map(|s| s.value);
        let mut add = |order: usize, names: &[&str]| {
            found.extend(names.iter().map(|n| (order, n.to_string())));
        };
        match key.value.as_str() {
            "id_filter" => add(0, &["ids"]),
            "created_at" => add(1, &["created_before", "created_after"]),
            "updated_at" => add(2, &["updated_before", "updated_after"]),
            "pagination_type" if literal.as_deref() == Some("limit_offset") => {
                add(3, &["current_page", "page_size"])
            }
            "search" => add(4, &["search_string", "search_ignore_case"]),
            "sort_field" => add(5, &["order_by", "sort_order"]),
            "not_in_fields" | "in_fields" | "boolean_fields" | "choice_fields" => {
                let (order, suffix) = match key.value.as_str() {
                    "not_in_fields" => (6, "_not_in"),
                    "in_fields" => (7, "_in"),
                    "boolean_fields" => (8, ""),
                    _ => (9, ""),
                };
                for field in field_names(code, value.clone()) {
                    found.push((order, format!("{field}{suffix}")));
                }
            }
            "alias_generator" => camel = literal.as_deref() != Some("snake_case"),
            _ => {}
        }
    }
    found.sort_by_key(|(order, _)| *order);
    Some(
        found
            .into_iter()
            .map(|(_, n)| if camel { camelize(&n) } else { n })
            .collect(),
    )
}

/// The field names of a set/list/tuple of `"name"` or
/// `FieldNameType(name="name", ...)`, or of one such item.
fn field_names(code: &Code<'_>, value: Range<usize>) -> Vec<String> {
    let start = code.skip_ws(value.start);
    let items = match code.text().as_bytes().get(start) {
        Some(b'{' | b'[' | b'(') => code.args(start),
        _ => vec![value],
    };
    items
        .into_iter()
        .filter_map(|item| match code.string_at(item.start) {
            Some(s) => Some(s.value),
            None => call_at(code, code.skip_ws(item.start))
                .and_then(|c| c.arg(0, "name"))
                .and_then(|r| code.string_at(r.start))
                .map(|s| s.value),
        })
        .filter(|n| !n.is_empty())
        .collect()
}

/// advanced-alchemy's `camelize`: `created_before` → `createdBefore`
/// (later words capitalised, the rest of each word lower-cased).
fn camelize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for (i, word) in name.split('_').enumerate() {
        if i == 0 {
            out.push_str(word);
            continue;
        }
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(&chars.as_str().to_lowercase());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::py::lines::logical_lines;
    use portolan_plugin_sdk::Syntax;

    fn params(src: &str) -> Option<Vec<String>> {
        let code = Code::new(src, Syntax::PYTHON);
        let lines = logical_lines(&code);
        filter_params(&code, &lines, 0..src.len())
    }

    #[test]
    fn filter_configs() {
        let src = "deps = create_service_dependencies(S, key='s', filters=cast('FilterConfig', {'in_fields': {'target_id', FieldNameType(name='actor_id', type_hint=UUID)}, 'id_filter': UUID, 'pagination_type': 'limit_offset', 'updated_at': False, 'sort_field': 'name', 'search': 'name'}))\n";
        assert_eq!(
            params(src).unwrap(),
            [
                "ids",
                "currentPage",
                "pageSize",
                "searchString",
                "searchIgnoreCase",
                "orderBy",
                "sortOrder",
                "targetIdIn",
                "actorIdIn"
            ]
        );
        let named = "F = {'created_at': True, 'alias_generator': 'snake_case', 'boolean_fields': ['is_active']}\nx = create_filter_dependencies(F)\n";
        assert_eq!(
            params(named).unwrap(),
            ["created_before", "created_after", "is_active"]
        );
        assert_eq!(
            params("x = create_service_dependencies(S, key='s')\n"),
            None
        );
    }
}
