//! `html`: one self-contained page (inline CSS and JS, no external assets,
//! works offline and from `file://`).
//!
//! - Summary cards: endpoints, paths, parameters, WebSocket endpoints,
//!   source files, technologies; plugin errors when a plugin failed.
//! - Endpoints grouped by API path (placeholders unified, query removed;
//!   groups sorted by path, endpoints in report order inside a group). Each
//!   endpoint card shows a method badge, the baked URL, a `websocket` badge,
//!   tag badges, a `Parameter | Type | Value` table, the body as a client
//!   would send it, and `📁 path (line N)` for every code path.
//! - A search box (every word must match the method, URL, a parameter, a
//!   file or a technology; `/` focuses it) and one toggle per method; the
//!   page says how many endpoints are shown. Without JavaScript everything is
//!   simply listed.
//! - Light and dark colour schemes follow the system.
//!
//! Every piece of report text is HTML-escaped.

use std::collections::BTreeMap;

use super::bake::bake;
use super::quote::html as esc;
use super::spec::api_path;
use crate::model::{Endpoint, Report};

const STYLE: &str = r#"
:root{--bg:#f6f7f9;--card:#fff;--text:#1d2330;--muted:#5f6b7a;--line:#e2e6ec;--accent:#2f6fde;--code:#f0f2f5;
--get:#1f8a4c;--post:#2f6fde;--put:#b26a00;--patch:#7a4cc2;--delete:#c8363d;--other:#5f6b7a}
@media (prefers-color-scheme:dark){:root{--bg:#12151b;--card:#1b2029;--text:#e3e7ee;--muted:#98a3b3;--line:#2c3340;--accent:#6d9bff;--code:#242a35;
--get:#3fbf73;--post:#6d9bff;--put:#e0a03a;--patch:#a884f0;--delete:#f06b71;--other:#98a3b3}}
*{box-sizing:border-box}
[hidden]{display:none !important}
body{margin:0;background:var(--bg);color:var(--text);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em}
.wrap{max-width:1100px;margin:0 auto;padding:24px 20px 48px}
header h1{margin:0;font-size:1.6rem}
header p{margin:4px 0 0;color:var(--muted)}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;margin:20px 0}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px}
.card .n{font-size:1.7rem;font-weight:650}
.card .l{color:var(--muted);font-size:.85rem}
.card.wide{grid-column:span 2}
.errors{background:var(--card);border:1px solid var(--delete);border-radius:10px;padding:10px 14px;margin-bottom:16px}
.errors h2{margin:0 0 6px;font-size:1rem;color:var(--delete)}
.controls{position:sticky;top:0;z-index:2;display:flex;flex-wrap:wrap;gap:10px;align-items:center;padding:10px 0;background:var(--bg);border-bottom:1px solid var(--line);margin-bottom:16px}
.controls input{flex:1 1 260px;padding:8px 12px;border:1px solid var(--line);border-radius:8px;background:var(--card);color:var(--text);font:inherit}
.controls input:focus{outline:2px solid var(--accent);outline-offset:1px}
.toggles{display:flex;flex-wrap:wrap;gap:6px}
.toggles button{font:inherit;font-size:.8rem;font-weight:650;padding:5px 10px;border-radius:999px;border:1px solid var(--line);background:var(--card);color:var(--muted);cursor:pointer}
.toggles button[aria-pressed=true]{color:#fff;border-color:transparent}
.toggles button span{opacity:.8;font-weight:500;margin-left:4px}
#count{color:var(--muted);font-size:.85rem;margin-left:auto}
.group{margin:0 0 18px}
.group>h2{font-size:1rem;margin:0 0 8px;display:flex;gap:8px;align-items:center;word-break:break-all}
.group>h2 .n{color:var(--muted);font-weight:500;font-size:.8rem}
.ep{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px;margin:0 0 8px}
.ep .line{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.url{word-break:break-all}
.badge{display:inline-block;font-size:.75rem;font-weight:700;letter-spacing:.02em;padding:2px 8px;border-radius:6px;color:#fff;background:var(--other);min-width:58px;text-align:center}
.m-GET{background:var(--get)}.m-POST{background:var(--post)}.m-PUT{background:var(--put)}.m-PATCH{background:var(--patch)}.m-DELETE{background:var(--delete)}
.pill{font-size:.72rem;padding:1px 8px;border-radius:999px;border:1px solid var(--line);color:var(--muted)}
.pill.ws{border-color:var(--accent);color:var(--accent)}
table{border-collapse:collapse;width:100%;margin-top:10px;font-size:.9rem;table-layout:fixed}
th:nth-child(1){width:38%}th:nth-child(2){width:14%}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600;font-size:.78rem;text-transform:uppercase;letter-spacing:.04em}
td code{background:var(--code);padding:1px 5px;border-radius:4px;word-break:break-all}
.t{font-size:.75rem;padding:1px 7px;border-radius:4px;background:var(--code)}
.none{color:var(--muted);font-size:.85rem;margin:8px 0 0}
.body{margin:8px 0 0;font-size:.85rem;color:var(--muted)}
.body code{background:var(--code);padding:1px 5px;border-radius:4px;color:var(--text);word-break:break-all}
.where{list-style:none;margin:8px 0 0;padding:0;color:var(--muted);font-size:.85rem}
.where .tech{margin-left:6px}
#empty{color:var(--muted);text-align:center;padding:30px}
footer{color:var(--muted);font-size:.8rem;margin-top:30px}
"#;

const SCRIPT: &str = r#"
(function () {
  'use strict';
  var q = document.getElementById('q');
  var count = document.getElementById('count');
  var empty = document.getElementById('empty');
  var eps = Array.prototype.slice.call(document.querySelectorAll('article.ep'));
  var groups = Array.prototype.slice.call(document.querySelectorAll('section.group'));
  var buttons = Array.prototype.slice.call(document.querySelectorAll('.toggles button'));
  var off = {};
  function apply() {
    var terms = q.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    eps.forEach(function (ep) {
      var text = ep.getAttribute('data-search');
      var ok = !off[ep.getAttribute('data-method')] && terms.every(function (t) {
        return text.indexOf(t) !== -1;
      });
      ep.hidden = !ok;
      if (ok) { shown++; }
    });
    groups.forEach(function (g) {
      g.hidden = !g.querySelector('article.ep:not([hidden])');
    });
    count.textContent = 'Showing ' + shown + ' of ' + eps.length + ' endpoints';
    empty.hidden = shown !== 0;
  }
  q.addEventListener('input', apply);
  buttons.forEach(function (b) {
    b.addEventListener('click', function () {
      var m = b.getAttribute('data-method');
      off[m] = !off[m];
      b.setAttribute('aria-pressed', off[m] ? 'false' : 'true');
      b.style.background = off[m] ? '' : b.getAttribute('data-color');
      apply();
    });
    b.style.background = b.getAttribute('data-color');
  });
  document.addEventListener('keydown', function (ev) {
    if (ev.key === '/' && document.activeElement !== q) {
      ev.preventDefault();
      q.focus();
    }
  });
  apply();
})();
"#;

fn method_color(m: &str) -> &'static str {
    match m {
        "GET" => "var(--get)",
        "POST" => "var(--post)",
        "PUT" => "var(--put)",
        "PATCH" => "var(--patch)",
        "DELETE" => "var(--delete)",
        _ => "var(--other)",
    }
}

pub fn render(report: &Report) -> String {
    let eps = &report.endpoints;
    let mut groups: BTreeMap<String, Vec<&Endpoint>> = BTreeMap::new();
    for e in eps {
        groups.entry(api_path(&e.url, None)).or_default().push(e);
    }
    let params: usize = eps.iter().map(|e| e.params.len()).sum();
    let websockets = eps.iter().filter(|e| e.is_websocket()).count();
    let mut files: Vec<&str> = Vec::new();
    let mut techs: Vec<&str> = Vec::new();
    let mut methods: Vec<(&str, usize)> = Vec::new();
    for e in eps {
        for c in &e.details.code_paths {
            if !files.contains(&c.path.as_str()) {
                files.push(&c.path);
            }
        }
        if let Some(t) = &e.details.technology {
            if !techs.contains(&t.as_str()) {
                techs.push(t);
            }
        }
        match methods.iter_mut().find(|(m, _)| *m == e.method) {
            Some((_, n)) => *n += 1,
            None => methods.push((&e.method, 1)),
        }
    }
    const ORDER: &[&str] = portolan_plugin_sdk::model::METHODS;
    methods.sort_by_key(|(m, _)| ORDER.iter().position(|o| o == m).unwrap_or(ORDER.len()));

    let mut h = String::with_capacity(16 * 1024 + eps.len() * 1024);
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    h.push_str(&format!(
        "<meta name=\"generator\" content=\"portolan {}\">\n",
        env!("CARGO_PKG_VERSION")
    ));
    h.push_str("<title>Attack Surface Report · portolan</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>");
    h.push_str(STYLE);
    h.push_str("</style>\n</head>\n<body>\n<div class=\"wrap\">\n");
    h.push_str(&format!(
        "<header>\n<h1>Attack Surface Report</h1>\n<p>Generated by portolan {} · {} endpoint{} on {} path{}</p>\n</header>\n",
        env!("CARGO_PKG_VERSION"),
        eps.len(),
        plural(eps.len()),
        groups.len(),
        plural(groups.len())
    ));

    h.push_str("<section class=\"cards\" aria-label=\"Summary\">\n");
    for (n, label) in [
        (eps.len(), "Endpoints"),
        (groups.len(), "Paths"),
        (params, "Parameters"),
        (websockets, "WebSocket endpoints"),
        (files.len(), "Source files"),
    ]
    .into_iter()
    .chain(
        (!report.passive_results.is_empty())
            .then_some((report.passive_results.len(), "Passive findings")),
    ) {
        h.push_str(&format!(
            "<div class=\"card\"><div class=\"n\">{n}</div><div class=\"l\">{label}</div></div>\n"
        ));
    }
    let tech_list = if techs.is_empty() {
        "—".to_string()
    } else {
        techs.iter().map(|t| esc(t)).collect::<Vec<_>>().join(", ")
    };
    h.push_str(&format!(
        "<div class=\"card wide\"><div class=\"n mono\" style=\"font-size:1rem;padding:8px 0 5px\">{tech_list}</div><div class=\"l\">Technologies</div></div>\n"
    ));
    h.push_str("</section>\n");

    if !report.errors.is_empty() {
        h.push_str("<section class=\"errors\">\n<h2>Some analyzers failed; the report lists what the others found.</h2>\n<ul>\n");
        for e in &report.errors {
            h.push_str(&format!(
                "<li><code>{}</code>: {}</li>\n",
                esc(&e.plugin),
                esc(&e.message)
            ));
        }
        h.push_str("</ul>\n</section>\n");
    }

    h.push_str("<nav class=\"controls\">\n<input id=\"q\" type=\"search\" placeholder=\"Filter by path, parameter, file, technology… (press /)\" aria-label=\"Filter endpoints\" autocomplete=\"off\">\n<div class=\"toggles\" role=\"group\" aria-label=\"Methods\">\n");
    for (m, n) in &methods {
        h.push_str(&format!(
            "<button type=\"button\" data-method=\"{m}\" data-color=\"{}\" aria-pressed=\"true\">{m}<span>{n}</span></button>\n",
            method_color(m),
            m = esc(m)
        ));
    }
    h.push_str(&format!(
        "</div>\n<span id=\"count\">{} endpoint{}</span>\n</nav>\n<main>\n",
        eps.len(),
        plural(eps.len())
    ));

    for (path, list) in &groups {
        h.push_str(&format!(
            "<section class=\"group\">\n<h2><code>{}</code><span class=\"n\">{} endpoint{}</span></h2>\n",
            esc(path),
            list.len(),
            plural(list.len())
        ));
        for e in list {
            endpoint_card(e, &mut h);
        }
        h.push_str("</section>\n");
    }
    h.push_str(&format!(
        "<p id=\"empty\"{}>No endpoint matches the filter.</p>\n</main>\n",
        if eps.is_empty() { "" } else { " hidden" }
    ));
    if !report.passive_results.is_empty() {
        h.push_str("<section class=\"group passive\">\n<h2>Passive findings</h2>\n<table>\n<thead><tr><th>Severity</th><th>Rule</th><th>Category</th><th>File</th><th>Extract</th></tr></thead>\n<tbody>\n");
        for p in &report.passive_results {
            h.push_str(&format!(
                "<tr><td>{}</td><td title=\"{}\">{}</td><td>{}</td><td><code>{}:{}</code></td><td><code>{}</code></td></tr>\n",
                p.info.severity.as_str(),
                esc(&p.info.description),
                esc(&p.id),
                esc(&p.category),
                esc(&p.file_path),
                p.line_number,
                esc(&p.extract)
            ));
        }
        h.push_str("</tbody>\n</table>\n</section>\n");
    }
    h.push_str("<footer>portolan maps endpoints by static analysis of the source; values are empty unless set with --set-pvalue.</footer>\n</div>\n<script>");
    h.push_str(SCRIPT);
    h.push_str("</script>\n</body>\n</html>\n");
    h
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn endpoint_card(e: &Endpoint, h: &mut String) {
    let baked = bake(e);
    let mut search: Vec<&str> = vec![&e.method, &e.url, &e.protocol];
    for p in &e.params {
        search.push(&p.name);
        search.push(super::type_name(p.param_type));
    }
    for c in &e.details.code_paths {
        search.push(&c.path);
    }
    if let Some(t) = &e.details.technology {
        search.push(t);
    }
    for t in &e.tags {
        search.push(&t.name);
    }
    let search = search.join(" ").to_lowercase();
    let method_class = if matches!(
        e.method.as_str(),
        "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
    ) {
        format!(" m-{}", e.method)
    } else {
        String::new()
    };
    h.push_str(&format!(
        "<article class=\"ep\" data-method=\"{}\" data-search=\"{}\">\n<div class=\"line\"><span class=\"badge{method_class}\">{}</span><code class=\"url\">{}</code>",
        esc(&e.method),
        esc(&search),
        esc(&e.method),
        esc(&baked.url)
    ));
    // The `websocket` tag is shown as the WebSocket badge.
    let ws_tag = |t: &crate::model::Tag| t.name == "websocket";
    if e.is_websocket() || e.tags.iter().any(ws_tag) {
        h.push_str("<span class=\"pill ws\">websocket</span>");
    }
    for t in e.tags.iter().filter(|t| !ws_tag(t)) {
        h.push_str(&format!(
            "<span class=\"pill\" title=\"{}\">{}</span>",
            esc(&t.description),
            esc(&t.name)
        ));
    }
    h.push_str("</div>\n");
    if e.params.is_empty() {
        h.push_str("<p class=\"none\">No parameters.</p>\n");
    } else {
        h.push_str("<table>\n<thead><tr><th>Parameter</th><th>Type</th><th>Value</th></tr></thead>\n<tbody>\n");
        for p in &e.params {
            let value = if p.value.is_empty() {
                String::new()
            } else {
                format!("<code>{}</code>", esc(&p.value))
            };
            h.push_str(&format!(
                "<tr><td><code>{}</code></td><td><span class=\"t\">{}</span></td><td>{value}</td></tr>\n",
                esc(&p.name),
                super::type_name(p.param_type)
            ));
        }
        h.push_str("</tbody>\n</table>\n");
    }
    if let Some(body) = &baked.body {
        h.push_str(&format!(
            "<p class=\"body\">Body ({}): <code>{}</code></p>\n",
            baked.body_kind.map_or("", |k| k.content_type()),
            esc(body)
        ));
    }
    if !e.details.code_paths.is_empty() || e.details.technology.is_some() {
        h.push_str("<ul class=\"where\">\n");
        for (i, c) in e.details.code_paths.iter().enumerate() {
            let line = c.line.map(|l| format!(" (line {l})")).unwrap_or_default();
            let tech = match (&e.details.technology, i) {
                (Some(t), 0) => format!("<span class=\"pill tech\">{}</span>", esc(t)),
                _ => String::new(),
            };
            h.push_str(&format!(
                "<li>📁 <span class=\"mono\">{}</span>{line}{tech}</li>\n",
                esc(&c.path)
            ));
        }
        if e.details.code_paths.is_empty() {
            if let Some(t) = &e.details.technology {
                h.push_str(&format!(
                    "<li><span class=\"pill tech\">{}</span></li>\n",
                    esc(t)
                ));
            }
        }
        h.push_str("</ul>\n");
    }
    h.push_str("</article>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::testing::{example, report};

    #[test]
    fn self_contained_and_escaped() {
        let mut e = example();
        e.params[0].name = "<script>alert(1)</script>".into();
        let page = render(&report(vec![e]));
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(!page.contains("<script>alert"), "report text is escaped");
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        for external in ["http://", "https://", "src=", "@import"] {
            assert!(!page.contains(external), "no external asset: {external}");
        }
        assert!(page.contains("📁 <span class=\"mono\">app/main.py</span> (line 12)"));
        assert!(page.contains("<code>/users/{id}</code>"));
    }
}
