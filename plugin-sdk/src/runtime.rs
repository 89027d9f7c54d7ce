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

/// The SDK's `analyze-many`: each file converted once and handed to every
/// technology that wants it before the next file (so [`SourceFile::memo`]
/// shares a parse between them), each technology's output holding its
/// files in file order: exactly what separate `analyze` calls would return.
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
    let analyzers: Vec<&dyn Analyzer> = techs
        .iter()
        .map(|t| find(analyzers, t))
        .collect::<Result<_, _>>()?;
    for (tech, wanted) in techs.iter().zip(wanted) {
        if let Some(&i) = wanted.iter().find(|&&i| i as usize >= files.len()) {
            return Err(format!("analyze-many: no file {i} for `{tech}`"));
        }
    }
    let mut outs: Vec<Output> = techs.iter().map(|_| Output::new()).collect();
    if wanted.iter().all(|w| w.windows(2).all(|p| p[0] < p[1])) {
        // File by file: technology k's next file is wanted[k][next[k]].
        let mut next = vec![0usize; techs.len()];
        for (i, file) in files.iter().enumerate() {
            for (k, analyzer) in analyzers.iter().enumerate() {
                if wanted[k].get(next[k]).is_some_and(|&w| w as usize == i) {
                    next[k] += 1;
                    analyzer.analyze(file, &mut outs[k]);
                }
            }
            file.forget_memos();
        }
    } else {
        // Lists out of file order (the host never sends them): technology
        // by technology, each list as given.
        for (k, analyzer) in analyzers.iter().enumerate() {
            for &i in &wanted[k] {
                analyzer.analyze(&files[i as usize], &mut outs[k]);
            }
        }
    }
    Ok(outs
        .into_iter()
        .map(|out| wit::BatchOutput {
            endpoints: out.endpoints.into_iter().map(endpoint).collect(),
            facts: out.facts,
        })
        .collect())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Endpoint, Tech};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts how often the shared parse ran.
    static PARSES: AtomicUsize = AtomicUsize::new(0);

    struct Words(Vec<String>);

    /// Reports `/<tech>/<word>` for every word of a file, through a parse
    /// shared with the other technology.
    struct ByWord(&'static str);

    impl Analyzer for ByWord {
        fn tech(&self) -> Tech {
            Tech::new(self.0, "Test", self.0).files(["*.txt"])
        }
        fn analyze(&self, file: &SourceFile, out: &mut Output) {
            let words = file.memo(|f| {
                PARSES.fetch_add(1, Ordering::SeqCst);
                Words(f.content.split_whitespace().map(str::to_string).collect())
            });
            for w in &words.0 {
                out.endpoint(Endpoint::new("GET", format!("/{}/{w}", self.0)));
            }
            out.fact(&words.0.len());
        }
    }

    fn file(path: &str, content: &str) -> wit::SourceFile {
        wit::SourceFile {
            path: path.into(),
            content: content.into(),
        }
    }

    fn urls(out: &wit::BatchOutput) -> Vec<String> {
        out.endpoints.iter().map(|e| e.url.clone()).collect()
    }

    #[test]
    fn analyze_many_shares_a_parse_and_keeps_each_technologys_file_order() {
        let a = ByWord("a");
        let b = ByWord("b");
        let analyzers: [&dyn Analyzer; 2] = [&a, &b];
        let files = || vec![file("1.txt", "x y"), file("2.txt", "z"), file("3.txt", "w")];
        let techs = ["a".to_string(), "b".to_string()];
        PARSES.store(0, Ordering::SeqCst);
        let many = analyze_many(&analyzers, &techs, files(), &[vec![0, 2], vec![0, 1, 2]]);
        let many = many.expect("analyze-many");
        // Files 0 and 2 are parsed once for both technologies.
        assert_eq!(PARSES.load(Ordering::SeqCst), 3);
        assert_eq!(urls(&many[0]), ["/a/x", "/a/y", "/a/w"]);
        assert_eq!(urls(&many[1]), ["/b/x", "/b/y", "/b/z", "/b/w"]);
        assert_eq!(many[0].facts, b"2\n1\n");
        assert_eq!(many[1].facts, b"2\n1\n1\n");
        // Lists out of file order still give what the list asks for.
        let odd = analyze_many(&analyzers, &techs, files(), &[vec![2, 0], vec![1]]);
        let odd = odd.expect("analyze-many");
        assert_eq!(urls(&odd[0]), ["/a/w", "/a/x", "/a/y"]);
        assert_eq!(urls(&odd[1]), ["/b/z"]);
        // A bad index is an error naming the technology.
        let bad = analyze_many(&analyzers, &techs, files(), &[vec![0], vec![7]]);
        assert!(bad.is_err_and(|e| e.contains("no file 7 for `b`")));
    }
}
