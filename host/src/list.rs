//! `--list-techs`: every technology the loaded plugins provide.

use crate::cli::ScanArgs;
use crate::output::Format;
use crate::pipeline::{self, Failure};
use crate::walk;

pub fn techs(args: &ScanArgs, format: Format) -> Result<String, Failure> {
    let max = walk::max_file_size_from_env().map_err(Failure::Usage)?;
    let plugins = pipeline::load_plugins(args, &[], max)?;
    for e in &plugins.errors {
        crate::log::error(&e.message);
    }
    let catalog = &plugins.catalog;
    let mut techs: Vec<_> = catalog.techs.iter().collect();
    techs.sort_by(|a, b| a.desc.id.cmp(&b.desc.id));
    if format == Format::Json {
        let list: Vec<serde_json::Value> = techs
            .iter()
            .map(|t| {
                let plugin = &catalog.plugins[t.plugin];
                serde_json::json!({
                    "id": t.desc.id,
                    "language": t.desc.language,
                    "framework": t.desc.framework,
                    "aliases": t.desc.aliases,
                    "plugin": plugin.descriptor.name,
                    "plugin_version": plugin.descriptor.version,
                    "supports": t.desc.supports,
                })
            })
            .collect();
        let mut s = serde_json::json!({ "techs": list }).to_string();
        s.push('\n');
        return Ok(s);
    }
    let mut out = String::from("Available technologies:\n");
    for t in techs {
        let plugin = &catalog.plugins[t.plugin];
        let s = &t.desc.supports;
        out.push_str(&format!(" {}\n", t.desc.id));
        out.push_str(&format!("   framework: {}\n", t.desc.framework));
        out.push_str(&format!("   language: {}\n", t.desc.language));
        out.push_str(&format!("   similar: {:?}\n", t.desc.aliases));
        out.push_str(&format!(
            "   plugin: {} {} ({})\n",
            plugin.descriptor.name,
            plugin.descriptor.version,
            plugin.source.origin_label()
        ));
        out.push_str("   supported:\n");
        out.push_str(&format!("     method: {}\n", s.method));
        out.push_str(&format!(
            "     params: query={} path={} body={} header={} cookie={}\n",
            s.query, s.path, s.body, s.header, s.cookie
        ));
        out.push_str(&format!("     websocket: {}\n", s.websocket));
    }
    Ok(out)
}
