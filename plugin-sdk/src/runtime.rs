//! Glue between the WIT bindings and [`crate::Analyzer`]s. Used by
//! [`crate::plugin!`]; not meant to be called directly.

use crate::bindings::portolan::analyzer::types as wit;
use crate::model::{self, Facts, Output, SourceFile};
use crate::Analyzer;

/// The plugin's description (the same data `describe()` returns through
/// WIT; native builds print it for the host's build script).
pub fn description(
    name: &str,
    version: &str,
    analyzers: &[&dyn Analyzer],
    settings: Vec<model::Setting>,
) -> model::PluginDescription {
    model::PluginDescription {
        name: name.to_string(),
        version: version.to_string(),
        interface_version: crate::INTERFACE_VERSION.to_string(),
        techs: analyzers.iter().map(|a| a.tech()).collect(),
        settings,
    }
}

pub fn describe(
    name: &str,
    version: &str,
    analyzers: &[&dyn Analyzer],
    settings: Vec<model::Setting>,
) -> wit::PluginInfo {
    let d = description(name, version, analyzers, settings);
    wit::PluginInfo {
        name: d.name,
        version: d.version,
        interface_version: d.interface_version,
        techs: d.techs.into_iter().map(tech_info).collect(),
        settings: d
            .settings
            .into_iter()
            .map(|s| wit::Setting {
                key: s.key,
                kind: match s.kind {
                    model::SettingKind::String => wit::SettingKind::String,
                    model::SettingKind::Boolean => wit::SettingKind::Boolean,
                    model::SettingKind::Integer => wit::SettingKind::Integer,
                    model::SettingKind::Number => wit::SettingKind::Number,
                    model::SettingKind::StringList => wit::SettingKind::StringList,
                },
                description: s.description,
            })
            .collect(),
    }
}

fn tech_info(t: model::Tech) -> wit::TechInfo {
    wit::TechInfo {
        id: t.id,
        aliases: t.aliases,
        language: t.language,
        framework: t.framework,
        specification: t.specification,
        files: t.files,
        detect: t
            .detect
            .into_iter()
            .map(|d| wit::DetectRule {
                files: d.files,
                contains: d.contains,
                regex: d.regex,
            })
            .collect(),
        requires_any: t.requires_any,
        supports: wit::Supports {
            method: t.supports.method,
            query: t.supports.query,
            path: t.supports.path,
            body: t.supports.body,
            header: t.supports.header,
            cookie: t.supports.cookie,
            websocket: t.supports.websocket,
        },
    }
}

fn find<'a>(analyzers: &[&'a dyn Analyzer], tech: &str) -> Result<&'a dyn Analyzer, String> {
    analyzers
        .iter()
        .find(|a| a.tech().id == tech)
        .copied()
        .ok_or_else(|| format!("this plugin has no analyzer for technology `{tech}`"))
}

pub fn analyze(
    analyzers: &[&dyn Analyzer],
    tech: &str,
    files: Vec<wit::SourceFile>,
) -> Result<wit::BatchOutput, String> {
    let analyzer = find(analyzers, tech)?;
    let mut out = Output::new();
    for f in files {
        let file = SourceFile::new(f.path, f.content);
        analyzer.analyze(&file, &mut out);
    }
    Ok(wit::BatchOutput {
        endpoints: out.endpoints.into_iter().map(endpoint).collect(),
        facts: out.facts,
    })
}

/// The SDK's `analyze-many`: each file converted once, then every
/// technology run in turn over the files it wants (exactly what separate
/// `analyze` calls would return).
pub fn analyze_many(
    analyzers: &[&dyn Analyzer],
    techs: &[String],
    files: Vec<wit::SourceFile>,
    wanted: &[Vec<u32>],
) -> Result<Vec<wit::BatchOutput>, String> {
    if wanted.len() != techs.len() {
        return Err(format!(
            "analyze-many: {} technologies but {} file lists",
            techs.len(),
            wanted.len()
        ));
    }
    let files: Vec<SourceFile> = files
        .into_iter()
        .map(|f| SourceFile::new(f.path, f.content))
        .collect();
    let mut outputs = Vec::with_capacity(techs.len());
    for (tech, wanted) in techs.iter().zip(wanted) {
        let analyzer = find(analyzers, tech)?;
        let mut out = Output::new();
        for &i in wanted {
            let file = files
                .get(i as usize)
                .ok_or_else(|| format!("analyze-many: no file {i} for `{tech}`"))?;
            analyzer.analyze(file, &mut out);
        }
        outputs.push(wit::BatchOutput {
            endpoints: out.endpoints.into_iter().map(endpoint).collect(),
            facts: out.facts,
        });
    }
    Ok(outputs)
}

pub fn link(
    analyzers: &[&dyn Analyzer],
    tech: &str,
    facts: Vec<Vec<u8>>,
) -> Result<Vec<wit::Endpoint>, String> {
    let analyzer = find(analyzers, tech)?;
    let endpoints = analyzer.link(&Facts::new(facts))?;
    Ok(endpoints.into_iter().map(endpoint).collect())
}

fn endpoint(e: model::Endpoint) -> wit::Endpoint {
    wit::Endpoint {
        url: e.url,
        method: e.method,
        params: e
            .params
            .into_iter()
            .map(|p| wit::Param {
                name: p.name,
                value: p.value,
                kind: match p.kind {
                    model::ParamKind::Query => wit::ParamKind::Query,
                    model::ParamKind::Json => wit::ParamKind::Json,
                    model::ParamKind::Form => wit::ParamKind::Form,
                    model::ParamKind::Header => wit::ParamKind::Header,
                    model::ParamKind::Cookie => wit::ParamKind::Cookie,
                    model::ParamKind::Path => wit::ParamKind::Path,
                    model::ParamKind::File => wit::ParamKind::File,
                    model::ParamKind::Flag => wit::ParamKind::Flag,
                    model::ParamKind::Argument => wit::ParamKind::Argument,
                    model::ParamKind::Env => wit::ParamKind::Env,
                },
            })
            .collect(),
        protocol: e.protocol,
        tags: e
            .tags
            .into_iter()
            .map(|t| wit::Tag {
                name: t.name,
                description: t.description,
                tagger: t.tagger,
            })
            .collect(),
        code_paths: e
            .code_paths
            .into_iter()
            .map(|l| wit::CodeLocation {
                path: l.path,
                line: l.line,
            })
            .collect(),
        internal: e.internal,
        ai_context: e
            .ai_context
            .filter(|c| !c.is_empty())
            .map(|c| wit::AiContext {
                guards: entries(c.guards),
                callees: entries(c.callees),
                sources: entries(c.sources),
                sinks: entries(c.sinks),
                validators: entries(c.validators),
                signals: entries(c.signals),
            }),
    }
}

fn entries(v: Vec<model::ContextEntry>) -> Vec<wit::ContextEntry> {
    v.into_iter()
        .map(|e| wit::ContextEntry {
            kind: e.kind,
            name: e.name,
            source: e.source,
            description: e.description,
            path: e.path,
            line: e.line,
            confidence: e.confidence,
            snippet: e.snippet,
        })
        .collect()
}
