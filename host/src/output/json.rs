//! `json`: one compact line, `{"endpoints":[…],"passive_results":[…]}` in
//! Noir v0.28 key order, plus `"errors":[…]` when a plugin failed.

use crate::model::Report;

pub fn render(report: &Report) -> String {
    // Serialising plain data structures cannot fail.
    let mut out =
        serde_json::to_string(report).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    out.push('\n');
    out
}
