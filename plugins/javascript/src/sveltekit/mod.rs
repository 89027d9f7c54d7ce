//! SvelteKit (`js_sveltekit`): `+server.{js,ts}` endpoints below a
//! `routes` directory (`src/routes` by default).
//!
//! Each exported `GET/POST/PUT/PATCH/DELETE/HEAD/OPTIONS` function
//! (declaration, `export const GET: RequestHandler = …`, or `export {
//! h as GET }`) is one endpoint at its line. `fallback` (any other method)
//! is not reported. Segments: `[id]` and `[id=matcher]` → `{id}`,
//! `[...rest]` and `[[optional]]` → `{rest}` / `{optional}`, `(group)`
//! dropped. Parameters come from the Fetch API (see
//! [`crate::js::reads::web_params`]): `url.searchParams.get('q')`,
//! `await request.json()`, `await request.formData()`,
//! `request.headers.get('x')`, `cookies.get('c')`.
//!
//! Page form actions (`export const actions = {…}` in `+page.server.ts`)
//! are one POST endpoint on the page's URL with the form fields the
//! actions read; pages themselves (and their `load`) are not endpoints
//! here. Test files are skipped.

use portolan_plugin_sdk::prelude::*;
use regex::Regex;
use std::sync::OnceLock;

use crate::express::{is_generated, JS_FILES};
use crate::js::fsroute::{below, exported_functions, url_of};
use crate::js::reads::web_params;

pub struct SvelteKit;

const METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// The URL of a `+server` module, or `None` for other files.
pub fn route_of(path: &str) -> Option<String> {
    route_with(path, "+server")
}

/// The URL of the page a `+page.server` module serves.
pub fn page_of(path: &str) -> Option<String> {
    route_with(path, "+page.server")
}

fn route_with(path: &str, module: &str) -> Option<String> {
    let (dirs, stem, ext) = below(path, "routes")?;
    if stem != module || !matches!(ext, "js" | "ts") {
        return None;
    }
    let mut segs = Vec::new();
    for d in dirs {
        if d.starts_with('(') && d.ends_with(')') {
            continue;
        }
        segs.push(segment(d));
    }
    Some(url_of(&segs))
}

fn segment(d: &str) -> String {
    // A segment may mix text and parameters: `v[version]`, `[a]-[b]`.
    let mut out = String::new();
    let mut rest = d;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        let inner_end = if after.starts_with("[[") {
            after.find("]]").map(|k| (2, k, k + 2))
        } else {
            after.find(']').map(|k| (1, k, k + 1))
        };
        let Some((skip, close, next)) = inner_end else {
            out.push_str(after);
            return out;
        };
        let inner = &after[skip..close];
        let name = inner.trim_start_matches("...");
        let name = name.split('=').next().unwrap_or(name);
        out.push('{');
        out.push_str(name);
        out.push('}');
        rest = &after[next..];
    }
    out.push_str(rest);
    out
}

/// Form actions of a page (`export const actions = { default: …, login:
/// … }`): the page's URL answers POST (a named action is `?/login` on the
/// same URL), with the form fields every action reads.
fn actions(file: &SourceFile, url: &str, out: &mut Output) {
    let code = file.code(Syntax::JAVASCRIPT);
    static ACTIONS: OnceLock<Regex> = OnceLock::new();
    let re = ACTIONS.get_or_init(|| {
        crate::js::pattern::regex(r"\bexport\s+const\s+actions\s*(?::\s*[\w$.]+\s*)?=\s*\{")
            .unwrap_or_else(crate::js::pattern::never)
    });
    let Some(m) = re.find_iter(code.text()).find(|m| code.is_code(m.start())) else {
        return;
    };
    let open = m.end() - 1;
    let Some(close) = code.matching(open) else {
        return;
    };
    let params = web_params(&code, open..close + 1);
    out.endpoint(
        Endpoint::new("POST", url)
            .params(params)
            .at(file, file.line_of(m.start())),
    );
}

impl Analyzer for SvelteKit {
    fn tech(&self) -> Tech {
        Tech::new("js_sveltekit", "JavaScript", "SvelteKit")
            .aliases(["sveltekit", "svelte-kit", "js-sveltekit", "svelte"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([r#"\bfrom\s+['"]@sveltejs/kit['"]"#]))
            .detect(Detect::files(["package.json"]).regex([r#""@sveltejs/kit"\s*:"#]))
            .detect(Detect::files(["svelte.config.js", "svelte.config.ts"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let Some(url) = route_of(&file.path) else {
            if let Some(url) = page_of(&file.path) {
                actions(file, &url, out);
            }
            return;
        };
        let code = file.code(Syntax::JAVASCRIPT);
        let outline = crate::js::module::outline(file, &code);
        for e in exported_functions(&code, &outline) {
            if !METHODS.contains(&e.name.as_str()) {
                continue;
            }
            let params = e.body.map(|b| web_params(&code, b)).unwrap_or_default();
            out.endpoint(
                Endpoint::new(&e.name, &url)
                    .params(params)
                    .at(file, file.line_of(e.at)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes() {
        assert_eq!(route_of("src/routes/+server.ts").as_deref(), Some("/"));
        assert_eq!(
            route_of("src/routes/(api)/api/users/[id=integer]/+server.ts").as_deref(),
            Some("/api/users/{id}")
        );
        assert_eq!(
            route_of("src/routes/files/[...path]/+server.js").as_deref(),
            Some("/files/{path}")
        );
        assert_eq!(
            route_of("src/routes/[[lang]]/v[version]/+server.ts").as_deref(),
            Some("/{lang}/v{version}")
        );
        assert_eq!(route_of("src/routes/about/+page.server.ts"), None);
        assert_eq!(
            page_of("src/routes/(auth)/login/+page.server.ts").as_deref(),
            Some("/login")
        );
        assert_eq!(route_of("src/lib/server.ts"), None);
    }
}
