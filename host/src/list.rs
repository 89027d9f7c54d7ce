//! `--list-techs`: every technology the loaded plugins provide (built-in,
//! `--plugin` and the user plugin directory), sorted by id.
//!
//! Text (the default, Noir's layout):
//!
//! ```text
//! Available technologies:
//!  python_flask
//!    framework: Flask
//!    language: Python
//!    similar: ["flask", "python-flask"]
//!    plugin: python 0.1.0 (built-in)
//!    supported:
//!      endpoint: true
//!      method: true
//!      params: {query: true, path: true, body: true, header: true, cookie: true}
//!      websocket: false
//! ```
//!
//! Specification technologies (OpenAPI, …) show `format:` instead of
//! framework and language. Colour (id green, keys blue, sub-keys cyan) only
//! when stdout is a terminal and colour is allowed. `-f json` prints
//! `{"techs":[…]}` and `-f yaml` the same as YAML; other formats are refused.

use serde_json::{json, Value};

use crate::error::Failure;
use crate::output::Format;
use crate::pipeline;
use crate::settings::PluginSettings;
use crate::walk;

pub fn techs(plugins: &PluginSettings, format: Format, to_stdout: bool) -> Result<String, Failure> {
    if !matches!(format, Format::Plain | Format::Json | Format::Yaml) {
        return Err(Failure::Usage(format!(
            "--list-techs prints text (the default), json or yaml, not {}",
            format.name()
        )));
    }
    let max = walk::max_file_size_from_env().map_err(Failure::Usage)?;
    let plugins = pipeline::plugins::load(plugins, &[], max)?;
    for e in &plugins.errors {
        crate::log::error(&e.message);
    }
    let catalog = &plugins.catalog;
    let mut techs: Vec<_> = catalog.techs.iter().collect();
    techs.sort_by(|a, b| a.desc.id.cmp(&b.desc.id));
    if format != Format::Plain {
        let list: Vec<Value> = techs
            .iter()
            .map(|t| {
                let plugin = &catalog.plugins[t.plugin];
                let s = &t.desc.supports;
                json!({
                    "id": t.desc.id,
                    "language": t.desc.language,
                    "framework": t.desc.framework,
                    "specification": t.desc.specification,
                    "aliases": t.desc.aliases,
                    "plugin": plugin.descriptor.name,
                    "plugin_version": plugin.descriptor.version,
                    "plugin_source": plugin.source.origin_label(),
                    "supports": {
                        "endpoint": true,
                        "method": s.method,
                        "params": {
                            "query": s.query,
                            "path": s.path,
                            "body": s.body,
                            "header": s.header,
                            "cookie": s.cookie,
                        },
                        "websocket": s.websocket,
                    },
                })
            })
            .collect();
        let doc = json!({ "techs": list });
        if format == Format::Yaml {
            return Ok(format!(
                "---\n{}",
                serde_yaml::to_string(&doc).unwrap_or_default()
            ));
        }
        return Ok(format!("{doc}\n"));
    }
    let color = crate::log::stdout_color() && to_stdout;
    let paint = |code: &str, s: &str| {
        if color {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    };
    let key = |k: &str| format!("   {}:", paint("34", k));
    let sub = |k: &str| format!("     {}:", paint("36", k));
    let mut out = String::from("Available technologies:\n");
    for t in techs {
        let plugin = &catalog.plugins[t.plugin];
        let s = &t.desc.supports;
        // Plugin-provided text is escaped like any report line.
        let v = crate::escape::visible;
        out.push_str(&format!(" {}\n", paint("32", &v(&t.desc.id))));
        if t.desc.specification {
            out.push_str(&format!("{} {}\n", key("format"), v(&t.desc.framework)));
        } else {
            out.push_str(&format!("{} {}\n", key("framework"), v(&t.desc.framework)));
            out.push_str(&format!("{} {}\n", key("language"), v(&t.desc.language)));
        }
        let similar: Vec<String> = t.desc.aliases.iter().map(|a| format!("{a:?}")).collect();
        out.push_str(&format!("{} [{}]\n", key("similar"), similar.join(", ")));
        out.push_str(&format!(
            "{} {} {} ({})\n",
            key("plugin"),
            v(&plugin.descriptor.name),
            v(&plugin.descriptor.version),
            v(&plugin.source.origin_label())
        ));
        out.push_str(&format!("{}\n", key("supported")));
        out.push_str(&format!("{} true\n", sub("endpoint")));
        out.push_str(&format!("{} {}\n", sub("method"), s.method));
        out.push_str(&format!(
            "{} {{query: {}, path: {}, body: {}, header: {}, cookie: {}}}\n",
            sub("params"),
            s.query,
            s.path,
            s.body,
            s.header,
            s.cookie
        ));
        out.push_str(&format!("{} {}\n", sub("websocket"), s.websocket));
    }
    Ok(out)
}

/// `--list-taggers`: text (Noir's layout: ` <id>` then `name:`, `desc:`,
/// plus `runs:` saying whether it needs a flag), or `-f json`/`-f yaml`.
pub fn taggers(format: Format) -> Result<String, Failure> {
    let runs = |t: &crate::tag::Tagger| {
        if t.always {
            "always"
        } else {
            "with -T or --use-taggers"
        }
    };
    match format {
        Format::Plain => {
            let mut out = String::from("Available taggers:\n");
            for t in crate::tag::ALL {
                out.push_str(&format!(
                    " {}\n   name: {}\n   desc: {}\n   runs: {}\n",
                    t.id,
                    t.label,
                    t.summary,
                    runs(t)
                ));
            }
            Ok(out)
        }
        Format::Json | Format::Yaml => {
            let list: Vec<Value> = crate::tag::ALL
                .iter()
                .map(|t| json!({"id": t.id, "name": t.label, "description": t.summary, "always": t.always}))
                .collect();
            let doc = json!({ "taggers": list });
            Ok(if format == Format::Yaml {
                format!("---\n{}", serde_yaml::to_string(&doc).unwrap_or_default())
            } else {
                format!("{doc}\n")
            })
        }
        other => Err(Failure::Usage(format!(
            "--list-taggers prints text (the default), json or yaml, not {}",
            other.name()
        ))),
    }
}
