//! `AndroidManifest.xml`: deep links, App Links and exported components.
//!
//! - Deep links: an `<activity>` or `<activity-alias>` whose
//!   `<intent-filter>` has `<action android:name="android.intent.action.VIEW"/>`.
//!   As Android does, every `<data>` element of one filter contributes to
//!   one set of schemes, hosts (with `port`) and paths (`path`,
//!   `pathPrefix`, `pathPattern`, `pathAdvancedPattern`, `pathSuffix`), and
//!   the filter accepts every combination: one endpoint per
//!   scheme × host × path, `GET <scheme>://<host>[:<port>]<path>`, protocol
//!   the scheme (`myapp`, `https`). No host: `myapp://`; hosts or paths are
//!   ignored for a scheme-less filter (Android requires a scheme for them).
//!   Patterns are kept as written (`pathPrefix="/items"` → `/items`,
//!   `pathPattern="/u/.*"` → `/u/.*`; a path without a leading `/` gets
//!   one; `pathSuffix=".pdf"` → `/*.pdf`). `android:autoVerify="true"` (App
//!   Links) does not change the shape.
//! - Exported components: `<service>` and `<receiver>` with
//!   `android:exported="true"` → `GET intent://<package>/<class>` (protocol
//!   `intent`; `.Name` resolved against the manifest's `package`, else
//!   the `namespace` of the module's `build.gradle(.kts)`, else the
//!   placeholder `{package}`);
//!   `<provider android:exported="true">` → `GET content://<authority>`
//!   for each `;`-separated authority (protocol `content`). Only an
//!   explicit `exported="true"` counts (the implicit pre-Android-12 rule
//!   for filters is not guessed; exported activities are reported through
//!   their deep links only); `android:enabled="false"` components are
//!   skipped, as are comments.
//! - Manifests of test source sets (`src/androidTest/`, `src/test*/`) are
//!   skipped. Manifest placeholders are kept as written
//!   (`https://${deepLinkHost}/invite`).
//! - Location: the filter's `<data>` element carrying the path (else its
//!   host, else its scheme); the component element.

use portolan_plugin_sdk::prelude::*;
use roxmltree::{Document, Node};

use portolan_plugin_sdk::doc::is_test_document;

use super::scheme;

pub struct Android;

const NS: &str = "http://schemas.android.com/apk/res/android";
const VIEW: &str = "android.intent.action.VIEW";
const PATH_ATTRS: &[&str] = &[
    "path",
    "pathPrefix",
    "pathPattern",
    "pathAdvancedPattern",
    "pathSuffix",
];

impl Analyzer for Android {
    fn tech(&self) -> Tech {
        Tech::new("android", "Mobile", "Android manifest")
            .specification()
            .files(["AndroidManifest.xml"])
            .detect(Detect::files(["AndroidManifest.xml"]).contains(["<manifest"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let name = file.path.rsplit(['/', '\\']).next().unwrap_or("");
        if name != "AndroidManifest.xml"
            || !file.content.contains("<manifest")
            || is_test_document(&file.path)
            || test_source_set(&file.path)
        {
            return;
        }
        let doc = match Document::parse(&file.content) {
            Ok(doc) => doc,
            Err(e) => return host::warn(&format!("{}: invalid XML: {e}", file.path)),
        };
        let root = doc.root_element();
        if !root.has_tag_name("manifest") {
            return;
        }
        let namespace;
        let package = match root.attribute("package").map(str::trim) {
            Some(p) if !p.is_empty() => p,
            _ => {
                namespace = gradle_namespace(&file.path);
                namespace.as_deref().unwrap_or("{package}")
            }
        };
        for app in root.children().filter(|n| n.has_tag_name("application")) {
            if disabled(app) {
                continue;
            }
            for component in app.children().filter(Node::is_element) {
                if disabled(component) {
                    continue;
                }
                let tag = component.tag_name().name();
                if matches!(tag, "activity" | "activity-alias") {
                    for filter in component
                        .children()
                        .filter(|n| n.has_tag_name("intent-filter"))
                    {
                        deep_links(file, filter, out);
                    }
                }
                if component.attribute((NS, "exported")) != Some("true") {
                    continue;
                }
                let line = file.line_of(component.range().start);
                match tag {
                    "provider" => {
                        let authorities = component.attribute((NS, "authorities")).unwrap_or("");
                        for authority in authorities.split(';').map(str::trim) {
                            if authority.is_empty() {
                                continue;
                            }
                            let mut e = Endpoint::new("GET", format!("content://{authority}"));
                            e.protocol = "content".into();
                            out.endpoint(e.at(file, line));
                        }
                    }
                    "service" | "receiver" => {
                        let Some(class) = component.attribute((NS, "name")) else {
                            continue;
                        };
                        let class = full_class(package, class);
                        let mut e = Endpoint::new("GET", format!("intent://{package}/{class}"));
                        e.protocol = "intent".into();
                        out.endpoint(e.at(file, line));
                    }
                    _ => {}
                }
            }
        }
    }
}

/// A manifest of a Gradle test source set (`src/androidTest/`,
/// `src/testDebug/`): instrumentation apps, not the shipped one.
fn test_source_set(path: &str) -> bool {
    let path = path.replace('\\', "/");
    path.split("/src/")
        .skip(1)
        .chain(path.strip_prefix("src/"))
        .any(|rest| {
            let set = rest.split('/').next().unwrap_or("");
            set.starts_with("androidTest") || set.starts_with("test")
        })
}

fn disabled(node: Node<'_, '_>) -> bool {
    node.attribute((NS, "enabled")) == Some("false")
}

/// The `namespace` of the module's `build.gradle.kts` / `build.gradle`
/// (`<module>/src/<set>/AndroidManifest.xml` → `<module>/build.gradle*`):
/// where Android Gradle Plugin 7+ projects declare the package the
/// manifest no longer names.
fn gradle_namespace(manifest: &str) -> Option<String> {
    let dir = manifest.rsplit_once('/').map_or("", |(d, _)| d);
    let module = match dir.rsplit_once("/src/") {
        Some((module, _)) => module.to_string(),
        None if dir.starts_with("src/") => String::new(),
        None => return None,
    };
    ["build.gradle.kts", "build.gradle"]
        .iter()
        .find_map(|name| {
            let path = if module.is_empty() {
                (*name).to_string()
            } else {
                format!("{module}/{name}")
            };
            let text = host::read_file(&path).ok()?;
            text.lines().find_map(namespace_line)
        })
}

/// `namespace = "com.example"` (Kotlin DSL) or `namespace 'com.example'`
/// (Groovy) on one line.
fn namespace_line(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("namespace")?;
    let rest = rest.trim_start();
    let rest = rest.strip_prefix('=').unwrap_or(rest).trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = &rest[1..];
    let end = body.find(quote)?;
    let value = body[..end].trim();
    (!value.is_empty() && !value.contains('$')).then(|| value.to_string())
}

/// `.ui.Main` → `com.example.ui.Main`; `Main` → `com.example.Main`.
fn full_class(package: &str, class: &str) -> String {
    let class = class.trim();
    if let Some(rest) = class.strip_prefix('.') {
        format!("{package}.{rest}")
    } else if class.contains('.') {
        class.to_string()
    } else {
        format!("{package}.{class}")
    }
}

fn deep_links(file: &SourceFile, filter: Node<'_, '_>, out: &mut Output) {
    let is_view = filter.children().any(|n| {
        n.has_tag_name("action") && n.attribute((NS, "name")).map(str::trim) == Some(VIEW)
    });
    if !is_view {
        return;
    }
    let mut schemes: Vec<(&str, u32)> = Vec::new();
    let mut hosts: Vec<(String, u32)> = Vec::new();
    let mut paths: Vec<(String, u32)> = Vec::new();
    for data in filter.children().filter(|n| n.has_tag_name("data")) {
        let line = file.line_of(data.range().start);
        if let Some(s) = data.attribute((NS, "scheme")).and_then(scheme) {
            if !schemes.iter().any(|(known, _)| *known == s) {
                schemes.push((s, line));
            }
        }
        if let Some(h) = data.attribute((NS, "host")).map(str::trim) {
            if !h.is_empty() {
                let host = match data.attribute((NS, "port")).map(str::trim) {
                    Some(p) if !p.is_empty() => format!("{h}:{p}"),
                    _ => h.to_string(),
                };
                hosts.push((host, line));
            }
        }
        for attr in PATH_ATTRS {
            if let Some(p) = data.attribute((NS, *attr)).map(str::trim) {
                if p.is_empty() {
                    continue;
                }
                // `pathSuffix=".pdf"` matches any path ending so: `/*.pdf`.
                let path = if *attr == "pathSuffix" {
                    format!("/*{}", p.trim_start_matches('/'))
                } else if p.starts_with('/') {
                    p.to_string()
                } else {
                    format!("/{p}")
                };
                paths.push((path, line));
            }
        }
    }
    for (s, scheme_line) in &schemes {
        let scheme_only = [(String::new(), *scheme_line)];
        let host_list: &[(String, u32)] = if hosts.is_empty() {
            &scheme_only
        } else {
            &hosts
        };
        for (host, host_line) in host_list {
            // Android ignores paths when the filter names no host.
            let with_paths = !host.is_empty() && !paths.is_empty();
            if !with_paths {
                let mut e = Endpoint::new("GET", format!("{s}://{host}"));
                e.protocol = s.to_ascii_lowercase();
                out.endpoint(e.at(file, *host_line));
                continue;
            }
            for (path, line) in &paths {
                let mut e = Endpoint::new("GET", format!("{s}://{host}{path}"));
                e.protocol = s.to_ascii_lowercase();
                out.endpoint(e.at(file, *line));
            }
        }
    }
}
