//! Android app manifests (`AndroidManifest.xml`): the web URLs an app
//! claims as App Links / deep links.
//!
//! An `<intent-filter>` with the `VIEW` action and the `BROWSABLE` category
//! makes the URLs its `<data>` elements describe open the app. The web ones
//! (scheme `http`/`https`) are reported as `GET` web URLs, protocol `http`:
//!
//! - `android:path` as written, `android:pathPrefix` as a prefix,
//!   `android:pathPattern` / `android:pathAdvancedPattern` with `.*` read as
//!   "any rest" (`/product/.*` → `/product/`) and other wildcards as a
//!   placeholder segment; a filter without a path attribute claims the
//!   whole host: `/`.
//! - Custom schemes (`myapp://…`), content providers and non-browsable
//!   intents are not web URLs and are not reported (they need a non-HTTP
//!   endpoint shape the outputs do not support yet).
//!
//! Location: the `<intent-filter>` line. A manifest that does not parse
//! gets a warning naming it.

use portolan_plugin_sdk::doc::is_test_document;
use portolan_plugin_sdk::prelude::*;

pub struct Android;

const ANDROID_NS: &str = "http://schemas.android.com/apk/res/android";

impl Analyzer for Android {
    fn tech(&self) -> Tech {
        Tech::new("android", "Specification", "Android manifest (app links)")
            .specification()
            .aliases(["android_manifest", "app_links"])
            .files(["AndroidManifest.xml"])
            .detect(Detect::files(["AndroidManifest.xml"]).contains(["android.intent.action.VIEW"]))
            .supports(Supports {
                query: false,
                body: false,
                header: false,
                cookie: false,
                ..Supports::HTTP
            })
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_document(&file.path) || !file.content.contains("android.intent.action.VIEW") {
            return;
        }
        let doc = match roxmltree::Document::parse(&file.content) {
            Ok(d) => d,
            Err(e) => return host::warn(&format!("{}: invalid XML: {e}", file.path)),
        };
        let attr = |n: &roxmltree::Node<'_, '_>, name: &str| {
            n.attribute((ANDROID_NS, name)).map(str::to_string)
        };
        for filter in doc
            .descendants()
            .filter(|n| n.has_tag_name("intent-filter"))
        {
            let children: Vec<roxmltree::Node<'_, '_>> =
                filter.children().filter(|n| n.is_element()).collect();
            let named = |tag: &str, value: &str| {
                children
                    .iter()
                    .any(|c| c.has_tag_name(tag) && attr(c, "name").as_deref() == Some(value))
            };
            if !named("action", "android.intent.action.VIEW")
                || !named("category", "android.intent.category.BROWSABLE")
            {
                continue;
            }
            let data: Vec<&roxmltree::Node<'_, '_>> =
                children.iter().filter(|c| c.has_tag_name("data")).collect();
            let web = data.iter().any(|d| {
                attr(d, "scheme").is_some_and(|s| {
                    s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https")
                })
            });
            if !web {
                continue;
            }
            let mut urls: Vec<String> = Vec::new();
            for d in &data {
                let url = if let Some(p) = attr(d, "path") {
                    Some(p)
                } else if let Some(p) = attr(d, "pathPrefix") {
                    Some(p)
                } else if let Some(p) =
                    attr(d, "pathPattern").or_else(|| attr(d, "pathAdvancedPattern"))
                {
                    pattern_url(&p)
                } else {
                    None
                };
                if let Some(u) = url.filter(|u| u.starts_with('/')) {
                    if !urls.contains(&u) {
                        urls.push(u);
                    }
                }
            }
            if urls.is_empty() {
                urls.push("/".into());
            }
            let line = file.line_of(filter.range().start);
            for url in urls {
                out.endpoint(Endpoint::new("GET", url).at(file, line));
            }
        }
    }
}

/// `/product/.*` → `/product/`; `/u/.*/posts` → `/u/{param1}/posts`.
fn pattern_url(p: &str) -> Option<String> {
    let segs: Vec<&str> = p.split('/').skip(1).collect();
    let last = segs.len().saturating_sub(1);
    let mut out = Vec::new();
    let mut n = 0;
    for (i, s) in segs.iter().enumerate() {
        let wild = s.contains(['*', '[', '+']);
        if i == last && s.ends_with(".*") && !s[..s.len() - 2].contains(['*', '[', '+']) {
            out.push(s[..s.len() - 2].to_string());
            break;
        }
        if wild {
            n += 1;
            out.push(format!("{{param{n}}}"));
        } else {
            out.push(s.to_string());
        }
    }
    let url = format!("/{}", out.join("/"));
    (url != "/").then_some(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        assert_eq!(pattern_url("/product/.*").as_deref(), Some("/product/"));
        assert_eq!(
            pattern_url("/u/.*/posts").as_deref(),
            Some("/u/{param1}/posts")
        );
        assert_eq!(pattern_url("/.*"), None);
    }
}
