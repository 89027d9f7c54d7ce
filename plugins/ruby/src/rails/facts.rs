//! What the Rails map step records for the link step.

use serde::{Deserialize, Serialize};

use crate::rb::call::{Call, Val};
use crate::rb::outline::Class;

/// One routing-DSL statement, with the statements of its block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    pub call: Call,
    pub line: u32,
    /// The `do … end` / `{ … }` block, if any. Conditionals (`if`,
    /// `unless`, `case`) are recorded as calls named after the keyword.
    pub body: Option<Vec<Node>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    /// A routes file: its `draw` blocks, and the top-level statements of a
    /// `config/routes/<name>.rb` partial.
    Routes {
        path: String,
        /// The app root: the path before `config/` (`""`, `engines/blorgh/`).
        root: String,
        /// `(router, nodes)`: router is `app` for `Rails.application.routes`
        /// / `X::Application.routes`, else the engine constant.
        draws: Vec<(String, Vec<Node>)>,
        /// For `config/routes/admin.rb`: `admin`; its top-level statements.
        partial: Option<(String, Vec<Node>)>,
    },
    /// A controller (or concern/module) class in `app/controllers/`.
    Controller {
        path: String,
        root: String,
        class: Class,
    },
    /// A class outside `app/controllers/` (a service, query or form
    /// object) that reads `params`: controllers hand it theirs with
    /// `Service.new(…, params)`.
    Service { root: String, class: Class },
    /// `class Engine < ::Rails::Engine` with its `isolate_namespace`.
    Engine {
        name: String,
        isolate: Option<String>,
    },
    /// `NAME = 'literal'` in a routes or config file.
    Const { name: String, value: Val },
    /// A model declaring Devise modules: `class User …; devise
    /// :database_authenticatable, :registerable, …`.
    Devise { model: String, modules: Vec<String> },
}
