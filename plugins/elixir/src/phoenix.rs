//! Phoenix routers (`elixir_phoenix`); see [`crate::routes`] for what is
//! understood. Controller actions' parameters: map patterns in the head
//! (`def show(conn, %{"id" => id})`) and reads in the body
//! (`params["q"]`, `conn.query_params`, `get_req_header`, cookies): a
//! name that is a `:placeholder` of the URL is a path param; otherwise
//! query for GET/HEAD/DELETE, else JSON behind an `:accepts ["json"]`
//! pipeline and form elsewhere. Maps built in a body (`json(conn, %{q:
//! params["q"]})`) are searched for reads too; `*glob` segments are path
//! params.
//!
//! `open_api_spex` specs add what the code may read through helpers: an
//! action's `operation(:action, parameters: [name: [in: :query, …]],
//! request_body: {"…", "application/json", Schemas.X})` (also
//! `Operation.parameter(:id, :path, …)`) gives its declared parameters and
//! the top-level `properties` of the schema module `X`
//! (`OpenApiSpex.schema(%{properties: %{…}})`, found by its name's last
//! segments), as JSON or form fields by the declared content type.

use portolan_plugin_sdk::prelude::*;

use crate::routes;

pub struct Phoenix;

impl Analyzer for Phoenix {
    fn tech(&self) -> Tech {
        Tech::new("elixir_phoenix", "Elixir", "Phoenix")
            .aliases(["phoenix", "elixir-phoenix"])
            .files(["*.ex", "*.exs"])
            .detect(Detect::files(["mix.exs"]).contains(["{:phoenix,"]))
            .detect(
                Detect::files(["*.ex", "*.exs"])
                    .contains(["Phoenix.Router"])
                    .regex([r"^\s*use\s+[A-Z][\w.]*,\s*:router\b"]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        routes::analyze(file, out);
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(routes::link(facts, false))
    }
}
