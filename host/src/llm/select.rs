//! Which files are worth a question.
//!
//! A file is a candidate when all of these hold:
//! - no analyzer claimed it (decided in `mod.rs`: an analyzer that ran
//!   wants the file and either reported an endpoint in it or the file
//!   matches one of that technology's detection rules);
//! - it is source code: its extension is in [`SOURCE_EXTENSIONS`] (never
//!   configuration, documents or `.env` files: they may hold secrets and
//!   serve no routes), it is not test code
//!   ([`portolan_plugin_sdk::paths::is_test_path`]), not minified, and at
//!   most [`MAX_FILE_BYTES`];
//! - it looks like server code: it contains a route-like string literal
//!   (`"/users/:id"`), or imports a web framework and has a route DSL
//!   (below), and scores at least 2
//!   from these cheap signals: a call named like an HTTP verb or a router
//!   method (`.get(`, `post!(`, `HandleFunc(`), an upper-case HTTP method
//!   word, a listen/serve call, a route-like decorator or annotation
//!   (`@Get`, `#[route`, `['/path'; get]`), web vocabulary (`router`,
//!   `handler`, `request`, `ctx`…), an import of a web framework or HTTP
//!   server module (`import jester`, `use Cro::HTTP::Router`, `open Dream`),
//!   each worth 1; and a route DSL without parentheses, worth 2: a method
//!   word right before a route literal (`get "/hello":`,
//!   `get '/x' => sub {`, `Dream.get "/x"`, `post "/x" do`) or before a
//!   `->` route signature (`get -> 'greet', $name {`). The score decides
//!   which files `--ai-max-files` keeps.

use std::sync::OnceLock;

use regex::Regex;

pub use crate::paths::has_source_extension;

/// Larger files are never sent (generated code, bundles).
pub const MAX_FILE_BYTES: usize = 256 * 1024;

/// Whether the path names source code that may be sent.
pub fn is_source_path(relative: &str) -> bool {
    let name = relative.rsplit('/').next().unwrap_or(relative);
    let lower = name.to_ascii_lowercase();
    if lower.contains(".min.") || portolan_plugin_sdk::paths::is_test_path(relative) {
        return false;
    }
    has_source_extension(&lower)
}

struct Signals {
    route_literal: Regex,
    framework_import: Regex,
    route_dsl: Regex,
    others: Vec<Regex>,
}

/// Web frameworks (and server modules) whose import marks a file as server
/// code even when its routes have no slash-prefixed literal (Cro's
/// `get -> 'greet'`), in languages no analyzer covers as well as in those
/// it does (a file an analyzer claimed is never a candidate anyway).
const FRAMEWORK_NAMES: &str = "jester|prologue|happyx|mummy|dancer2?|mojolicious|kelp|catalyst|\
    cro|bailador|dream|opium|cohttp|vweb|veb|vibe|kemal|lapis|pegasus|scotty|servant|yesod|\
    spock|twain|genie|httpz|jetzig|wisp|mist|elli|cowboy|drogon|oatpp|pistache|sinatra|cuba|\
    roda|hanami|compojure|reitit|pedestal|ktor|fastapi|flask|express|koa|hono|gin|fiber|actix|\
    axum|rocket|warp|vapor|laravel|symfony|router|httpserver|asynchttpserver|\
    (http|web)(\\.|::|/|_)?(server|router|routing|framework)";

fn signals() -> Option<&'static Signals> {
    static S: OnceLock<Option<Signals>> = OnceLock::new();
    S.get_or_init(|| {
        let route_literal = Regex::new(r#"["'`]/[A-Za-z0-9_\-.:{}<>*$/]*["'`]"#).ok()?;
        let framework_import = Regex::new(&format!(
            r"(?im)^[ \t]*(import|from|use|using|require|open|include|load|need)\b[^\n]{{0,80}}?\b({})\b",
            FRAMEWORK_NAMES
        ))
        .ok()?;
        // A method word right before a route literal or a `->` signature,
        // with no parenthesis: `get "/x":`, `get '/x' => sub`, `.get "/x"`,
        // `post "/x" do`, `get -> 'a', $b {`; or a `['/x'; get]` attribute.
        let route_dsl = Regex::new(
            r#"(?im)(\b(get|post|put|delete|del|patch|options|head|any|route|match)[ \t]*[,:]?[ \t]+["'`]/)|(^[ \t]*(get|post|put|delete|patch|options|head)[ \t]+->)|(^[ \t]*@?\[[ \t]*["'`]/[^\]\n]*;[ \t]*(get|post|put|delete|patch|options|head)\b)"#,
        )
        .ok()?;
        let others = [
            // verb- or router-named calls and macros
            r"(?i)\b(get|post|put|delete|del|patch|options|head|any|all|route|routes|handle|handlefunc|handler|map(get|post|put|delete|patch)?|mount|group|resource|resources|scope)\s*[(!]",
            // upper-case HTTP method words
            r"\b(GET|POST|PUT|DELETE|PATCH|OPTIONS|HEAD)\b",
            // starting a server
            r"(?i)\b(listen|listenandserve|serve|serve_forever|run_server|start_server|createserver|httpserver|bind|run)\s*\(",
            // route-like decorators and annotations
            r"(?im)^\s*(@|#\[|\[)\w*(route|get|post|put|delete|patch|mapping|path|endpoint|http)",
            // web vocabulary
            r"(?i)\b(router|routes|endpoint|handler|middleware|request|response|req|res|ctx|http)\b",
        ]
        .iter()
        .map(|p| Regex::new(p).ok())
        .collect::<Option<Vec<_>>>()?;
        Some(Signals {
            route_literal,
            framework_import,
            route_dsl,
            others,
        })
    })
    .as_ref()
}

/// How much the content looks like server code: 0 = not at all, else the
/// score of the signals found (2..=9).
pub fn server_score(content: &str) -> u32 {
    let Some(s) = signals() else {
        return 0;
    };
    if content.len() > MAX_FILE_BYTES {
        return 0;
    }
    let imports_framework = s.framework_import.is_match(content);
    let dsl = s.route_dsl.is_match(content);
    // Routes with no slash literal (`get -> 'greet'`) need a framework
    // import and a route DSL to be considered at all.
    let considered = s.route_literal.is_match(content) || (imports_framework && dsl);
    if !considered {
        return 0;
    }
    let mut n = s.others.iter().filter(|r| r.is_match(content)).count() as u32;
    n += u32::from(imports_framework);
    if dsl {
        n += 2;
    }
    if n >= 2 {
        n
    } else {
        0
    }
}

/// Whether a file no analyzer wanted should be kept by the walk for AI
/// analysis.
pub fn worth_keeping(relative: &str, content: &str) -> bool {
    is_source_path(relative) && server_score(content) > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_source_code_is_sent() {
        assert!(is_source_path("app/server.lua"));
        assert!(is_source_path("src/Main.JAVA"));
        for p in [
            ".env",
            "config/settings.yaml",
            "README.md",
            "static/app.min.js",
            "tests/test_api.py",
            "src/user.spec.ts",
            "Makefile",
            "data.json",
        ] {
            assert!(!is_source_path(p), "{p}");
        }
    }

    #[test]
    fn server_code_is_told_from_other_code() {
        let lua = r#"
local router = require("lapis.router")
app:match("/users/:id", function(self) return { json = self.params } end)
app:get("/health", function() return "ok" end)
server.listen(8080)
"#;
        assert!(server_score(lua) >= 3);
        let util = "def add(a, b):\n    return a + b\n\nPATH = '/usr/lib'\n";
        assert_eq!(server_score(util), 0);
        let no_literal = "router.get(handler)\nserver.listen(port)\n";
        assert_eq!(server_score(no_literal), 0);
        let annotated = "@Get(\"/items\")\npublic Response list(Request request) {}\n";
        assert!(server_score(annotated) >= 2);
    }

    #[test]
    fn route_dsls_without_parentheses_are_server_code() {
        // Nim Jester: one weak signal (`request`) before route DSLs counted.
        let nim = "import jester\n\nroutes:\n  get \"/hello\":\n    resp \"hi\"\n  post \"/items\":\n    resp request.body\n";
        assert!(server_score(nim) >= 4, "{}", server_score(nim));
        // Perl Dancer2: `get '/x' => sub {`.
        let perl = "package Shop;\nuse Dancer2;\n\nget '/cart' => sub {\n    return to_json(session('cart'));\n};\n\ndance;\n";
        assert!(server_score(perl) >= 3);
        // Crystal/Ruby style `get "/x" do … end` with nothing else.
        let blocks = "get \"/users/:id\" do |env|\n  env.params.url[\"id\"]\nend\n";
        assert_eq!(server_score(blocks), 2);
        // OCaml Dream: `Dream.get \"/\" handler`, no import line.
        let ocaml = "let () = Dream.run @@ Dream.router [\n  Dream.get \"/\" (fun _ -> Dream.html \"ok\");\n]\n";
        assert!(server_score(ocaml) >= 3);
        // Raku Cro: no slash literal at all; the import opens the gate.
        let raku = "use Cro::HTTP::Router;\nmy $app = route {\n    get -> 'greet', $name {\n        content 'text/plain', \"Hello $name\";\n    }\n}\n";
        assert!(server_score(raku) >= 3);
        // V vweb attributes.
        let v = "import vweb\n\n['/products/:id'; get]\npub fn (mut app App) product(id int) vweb.Result {\n\treturn app.text('x')\n}\n";
        assert!(server_score(v) >= 3);
    }

    #[test]
    fn client_code_and_plain_paths_stay_out() {
        let client = "import std/httpclient\nproc status*(base: string): string =\n  let client = newHttpClient()\n  result = client.getContent(base & \"/status\")\n";
        assert_eq!(server_score(client), 0);
        let paths = "let log_dir = \"/var/log\"\nlet config = \"/etc/app.conf\"\n";
        assert_eq!(server_score(paths), 0);
        // An import alone is one signal.
        let import_only = "use HTTP::Server;\nsub helper { 1 }\n";
        assert_eq!(server_score(import_only), 0);
    }
}
