//! Plug routers (`elixir_plug`): modules that `use Plug.Router` and are
//! not forwarded to from another router (those are reported under the
//! forwarding router's prefix); see [`crate::routes`]. Parameters are the
//! values the route's block reads (`conn.params["id"]`,
//! `conn.body_params`, `conn.query_params`, headers, cookies).

use portolan_plugin_sdk::prelude::*;

use crate::routes;

pub struct Plug;

impl Analyzer for Plug {
    fn tech(&self) -> Tech {
        Tech::new("elixir_plug", "Elixir", "Plug")
            .aliases(["plug", "elixir-plug"])
            .files(["*.ex", "*.exs"])
            .detect(Detect::files(["*.ex", "*.exs"]).contains(["use Plug.Router"]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        routes::analyze(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(routes::link(facts, true))
    }
}
