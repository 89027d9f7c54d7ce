//! `portolan plugin list`.

use std::collections::BTreeMap;
use std::process::ExitCode;

use serde_json::{json, Value};

use super::*;
use crate::error::Failure;
use crate::log;
use crate::plugin::Origin;
use crate::settings::PluginSettings;

pub(super) fn list(settings: &PluginSettings, format: &str) -> Result<ExitCode, Failure> {
    let json_out = match format {
        "plain" | "text" => false,
        "json" => true,
        other => {
            return Err(Failure::Usage(format!(
                "plugin list prints text (the default) or json, not {other}"
            )))
        }
    };
    let plugins = load(settings, !settings.locked)?;
    for e in &plugins.errors {
        log::error(&e.message);
    }
    let catalog = &plugins.catalog;
    // Which plugin serves each technology after overrides.
    let served: BTreeMap<&str, usize> = catalog
        .techs
        .iter()
        .map(|t| (t.desc.id.as_str(), t.plugin))
        .collect();
    let rows: Vec<Value> = catalog
        .plugins
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let d = &p.descriptor;
            let mut techs = Vec::new();
            let mut replaced = Vec::new();
            for t in &d.techs {
                match served.get(t.id.as_str()) {
                    Some(&by) if by != i => replaced.push(json!({
                        "id": t.id,
                        "by": catalog.plugins[by].descriptor.name,
                    })),
                    _ => techs.push(json!(t.id)),
                }
            }
            json!({
                "name": d.name,
                "version": d.version,
                "interface_version": d.interface_version,
                "builtin": p.source.origin == Origin::Builtin,
                "source": p.source.origin_label(),
                "sha256": p.source.sha256,
                "techs": techs,
                "replaced_techs": replaced,
                "settings": d.settings,
            })
        })
        .collect();
    if json_out {
        print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&json!({ "plugins": rows })).unwrap_or_default()
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = String::new();
    for r in &rows {
        out.push_str(&format!(
            "{} {} ({}) interface {} sha256 {}\n",
            r["name"].as_str().unwrap_or(""),
            r["version"].as_str().unwrap_or(""),
            r["source"].as_str().unwrap_or(""),
            r["interface_version"].as_str().unwrap_or(""),
            r["sha256"].as_str().unwrap_or("").get(..16).unwrap_or("")
        ));
        let techs: Vec<&str> = r["techs"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        out.push_str(&format!("  techs: {}\n", techs.join(", ")));
        for s in r["settings"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "  setting `{}` ({}): {}\n",
                crate::escape::visible(s["key"].as_str().unwrap_or("")),
                s["kind"].as_str().unwrap_or(""),
                crate::escape::visible(s["description"].as_str().unwrap_or(""))
            ));
        }
        for rep in r["replaced_techs"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "  {} replaced by plugin `{}`\n",
                rep["id"].as_str().unwrap_or(""),
                rep["by"].as_str().unwrap_or("")
            ));
        }
    }
    out.push_str(&format!(
        "{} plugins, {} technologies\n",
        catalog.plugins.len(),
        catalog.techs.len()
    ));
    print(&out);
    Ok(ExitCode::SUCCESS)
}
