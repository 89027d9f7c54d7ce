//! `jsonl`: one compact JSON endpoint per line (same keys as `json`), then
//! one line per passive result; no envelope. An empty report prints nothing.

use crate::model::Report;

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for e in &report.endpoints {
        out.push_str(&serde_json::to_string(e).unwrap_or_default());
        out.push('\n');
    }
    for p in &report.passive_results {
        out.push_str(&serde_json::to_string(p).unwrap_or_default());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::testing::{example, report};

    #[test]
    fn one_endpoint_per_line() {
        let r = report(vec![example(), example()]);
        let text = render(&r);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0]
            .starts_with(r#"{"url":"/users/{id}","method":"POST","params":[{"name":"page""#));
        assert_eq!(render(&report(vec![])), "");
    }
}
