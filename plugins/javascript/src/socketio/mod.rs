//! Socket.IO (`js_socketio`): the server's WebSocket endpoint.
//!
//! A server made in a module importing `socket.io` (`new Server(http,
//! opts)` with the imported name, `require('socket.io')(http, opts)`,
//! `socketIo(http, opts)` for a whole-module import, `new io.Server(…)`)
//! is one `ws` endpoint (GET) at its `path` option, `/socket.io/` by
//! default, at the line of the construction. Events
//! (`socket.on('event', …)`) and namespaces (`io.of('/admin')`) travel over
//! that one connection: they are not separate endpoints. Clients
//! (`socket.io-client`) and test files are not servers.

use portolan_plugin_sdk::prelude::*;
use portolan_plugin_sdk::Code;

use crate::express::{is_generated, JS_FILES};
use crate::js::module::{self, ImportKind};
use crate::js::outline::object_entries;
use crate::js::strexpr::StrExpr;

pub struct SocketIo;

pub const DEFAULT_PATH: &str = "/socket.io/";

/// The `path` option among the arguments of the call whose `(` is at `open`.
fn path_option(code: &Code<'_>, open: usize) -> Option<String> {
    let bytes = code.text().as_bytes();
    for a in code.args(open) {
        let o = code.skip_ws(a.start);
        if bytes.get(o) != Some(&b'{') {
            continue;
        }
        if let Some(e) = object_entries(code, o)
            .into_iter()
            .find(|e| e.key == "path")
        {
            return StrExpr::parse(code, e.value.clone()).and_then(|x| x.literal());
        }
    }
    None
}

impl Analyzer for SocketIo {
    fn tech(&self) -> Tech {
        Tech::new("js_socketio", "JavaScript", "Socket.IO")
            .aliases(["socketio", "socket.io", "js-socketio"])
            .files(JS_FILES)
            .detect(Detect::files(JS_FILES).regex([
                r#"\bfrom\s+['"]socket\.io['"]"#,
                r#"require\(\s*['"]socket\.io['"]\s*\)"#,
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || is_generated(file) {
            return;
        }
        let code = file.code(Syntax::JAVASCRIPT);
        let text = code.text();
        if !text.contains("socket.io") {
            return;
        }
        let outline = module::outline(file, &code);
        let info = module::scanned(file, &code, &outline);
        let mut ctors: Vec<String> = Vec::new();
        let mut calls: Vec<String> = vec![r#"require\(\s*['"]socket\.io['"]\s*\)\s*\("#.into()];
        for i in info.imports.iter().filter(|i| i.spec == "socket.io") {
            let l = regex::escape(&i.local);
            match &i.kind {
                ImportKind::Named(n) if n == "Server" => ctors.push(l),
                ImportKind::Named(_) => {}
                _ => {
                    calls.push(format!(r"\b{l}\s*\("));
                    ctors.push(format!(r"{l}\.Server"));
                }
            }
        }
        let mut patterns: Vec<String> = calls;
        patterns.extend(ctors.iter().map(|c| format!(r"\bnew\s+{c}\s*\(")));
        let Some(re) = crate::js::pattern::regex(&patterns.join("|")) else {
            return;
        };
        for m in re.find_iter(text) {
            if !code.is_code(m.start()) {
                continue;
            }
            // Not the import itself: `const io = require('socket.io')`.
            let open = m.end() - 1;
            let path = path_option(&code, open).unwrap_or_else(|| DEFAULT_PATH.to_string());
            out.endpoint(Endpoint::websocket(path).at(file, file.line_of(m.start())));
        }
    }
}
