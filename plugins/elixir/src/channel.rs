//! Phoenix sockets (`elixir_phoenix_channel`): `socket "/socket",
//! MyAppWeb.UserSocket, websocket: true` in an endpoint module is a
//! WebSocket endpoint at `/socket/websocket`, the URL Phoenix serves the
//! transport on (also for `Phoenix.LiveView.Socket`); `websocket: false`
//! sockets are skipped.

use portolan_plugin_sdk::prelude::*;

use crate::ex::tokens::{tokenize, Kind};
use crate::ex::tree::{self, split_args};
use crate::ex::{modules, uses};

pub struct Channel;

impl Analyzer for Channel {
    fn tech(&self) -> Tech {
        Tech::new("elixir_phoenix_channel", "Elixir", "Phoenix Channels")
            .aliases(["phoenix-channel", "phoenix_channel"])
            .files(["*.ex", "*.exs"])
            .detect(
                Detect::files(["*.ex", "*.exs"])
                    .contains(["use Phoenix.Socket", "use Phoenix.Endpoint"]),
            )
            .supports(Supports::ALL)
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        if is_test_path(&file.path) || !file.content.contains("socket") {
            return;
        }
        let t = tokenize(&file.content);
        let tree = tree::parse(&t);
        let mut mods = Vec::new();
        modules(&t, &tree, "", &mut mods);
        for (_, m) in mods {
            if !uses(&t, m).iter().any(|u| u == "Phoenix.Endpoint") {
                continue;
            }
            for n in m.children.iter().filter(|n| n.name == "socket") {
                let pieces = split_args(&t, n.args.clone());
                let Some(path) = pieces
                    .first()
                    .and_then(|r| t.get(r.start))
                    .filter(|x| x.kind == Kind::Str)
                else {
                    continue;
                };
                let disabled = pieces.iter().any(|r| {
                    t[r.clone()].windows(2).any(|w| {
                        w[0].kind == Kind::Key && w[0].text == "websocket" && w[1].is_ident("false")
                    })
                });
                if disabled {
                    continue;
                }
                let url = join_path(&[path.text.as_str(), "websocket"]);
                out.endpoint(Endpoint::websocket(url).at(file, file.line_of(t[n.head].start)));
            }
        }
    }
}
