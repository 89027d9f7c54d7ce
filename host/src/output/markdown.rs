//! `markdown-table`: one row per endpoint, `| METHOD url | protocol | params |`.
//! The URL is the raw route (not baked). Each param is a code span
//! `` `name (type)` `` followed by a space; an endpoint without params has
//! an empty cell (Noir v0.28). Cell text is escaped (`\`, `|`, `<`, `>`,
//! line breaks); inside code spans only `|` needs it. With `-P`, a second
//! table lists the passive-scan findings (severity, rule, category,
//! file:line, extract).

use super::quote;
use crate::model::Report;

pub fn render(report: &Report) -> String {
    let mut out =
        String::from("| Endpoint | Protocol | Params |\n| -------- | -------- | ------ |\n");
    for e in &report.endpoints {
        let params: String = e
            .params
            .iter()
            .map(|p| {
                format!(
                    "`{} ({})` ",
                    quote::markdown_code(&p.name),
                    super::type_name(p.param_type)
                )
            })
            .collect();
        out.push_str(&format!(
            "| {} {} | {} | {} |\n",
            quote::markdown(&e.method),
            quote::markdown(&e.url),
            quote::markdown(&e.protocol),
            params
        ));
    }
    if !report.passive_results.is_empty() {
        out.push_str("\n| Severity | Rule | Category | File | Extract |\n| -------- | ---- | -------- | ---- | ------- |\n");
        for p in &report.passive_results {
            out.push_str(&format!(
                "| {} | {} | {} | {}:{} | `{}` |\n",
                p.info.severity.as_str(),
                quote::markdown(&p.id),
                quote::markdown(&p.category),
                quote::markdown(&p.file_path),
                p.line_number,
                quote::markdown_code(&p.extract)
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Endpoint;
    use crate::output::testing::{example, report};

    #[test]
    fn row_per_endpoint() {
        let r = report(vec![example(), Endpoint::new("GET", "/a|<b>")]);
        assert_eq!(
            render(&r),
            "| Endpoint | Protocol | Params |\n| -------- | -------- | ------ |\n\
             | POST /users/{id} | http | `page (query)` `name (json)` `X-API-Key (header)` `session (cookie)` `id (path)`  |\n\
             | GET /a\\|&lt;b&gt; | http |  |\n"
        );
    }
}
