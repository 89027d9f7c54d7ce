//! ASP.NET Core SignalR (`cs_signalr`): hubs mapped with
//! `MapHub<THub>("/hubs/chat")` (on the app, in `UseEndpoints`, the legacy
//! `UseSignalR(routes => routes.MapHub<…>(…))`, or on a `MapGroup`
//! builder, prefixes included) are WebSocket endpoints.

use portolan_plugin_sdk::prelude::*;

use crate::cs::flow::Verb;
use crate::cs::index::Index;
use crate::cs::mounts::Mounts;
use crate::scan;

pub struct SignalR;

impl Analyzer for SignalR {
    fn tech(&self) -> Tech {
        Tech::new("cs_signalr", "C#", "ASP.NET Core SignalR")
            .aliases(["signalr", "aspnet-signalr"])
            .files(["*.cs"])
            .detect(Detect::files(["*.cs"]).contains(["MapHub<"]))
            .supports(Supports::ALL)
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        scan::analyze(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let f = scan::split(facts);
        let idx = Index::new(&f.files);
        let mounts = Mounts::new(&idx, &f.calls).with_groups(&f.groups);
        let mut out = Vec::new();
        for r in &f.routes {
            if !matches!(r.verb, Verb::Hub(_)) {
                continue;
            }
            for url in mounts.route_urls(r) {
                out.push(Endpoint::websocket(url).at_path(r.path.clone(), r.line));
            }
        }
        Ok(out)
    }
}
