//! Huma (`go_huma`, v2 `github.com/danielgtaylor/huma/v2`).
//!
//! Routes: `huma.Register(api, huma.Operation{Method: http.MethodGet,
//! Path: "/users/{id}", …}, handler)` (the operation written in place) and
//! `huma.Get/Post/Put/Patch/Delete(api, path, handler, …)` on APIs made by
//! the router adapters (`humachi.New(r, config)`, `humagin.New`,
//! `humaecho.New`, `humafiber.New`, `humago.New`, `humamux.New`,
//! `humahttprouter.New`, `humaflow.New`, `humabunrouter.New`) and on groups
//! (`huma.NewGroup(api, "/v1")`, nested), also passed into functions of
//! other files and packages as `huma.API` values.
//!
//! Parameters: the handler's input struct (`func(ctx context.Context,
//! in *GetUserInput) (*GetUserOutput, error)`, named or declared in place):
//! fields tagged `path`, `query`, `header`, `cookie`, `form`, embedded
//! structs, and the `Body` field's type as JSON (`json` tags).
//!
//! Gaps: operations held in variables (`op := huma.Operation{…}`),
//! prefixes of the router under the adapter (`humagin.NewWithGroup`, a chi
//! sub-router, `config.Servers` base URLs).

use crate::golang;
use crate::golang::facts::BindKind;
use crate::golang::framework::{route, Framework, Shape};

pub const FRAMEWORK: Framework = Framework {
    constructors: &[
        "humachi.New",
        "humagin.New",
        "humagin.NewWithGroup",
        "humaecho.New",
        "humaecho.NewWithGroup",
        "humafiber.New",
        "humafiber.NewWithGroup",
        "humago.New",
        "humago.NewWithPrefix",
        "humamux.New",
        "humahttprouter.New",
        "humaflow.New",
        "humabunrouter.New",
        "humabunrouter.NewCompat",
        "humairis.New",
    ],
    verbs: &["Get", "Post", "Put", "Patch", "Delete"],
    routes: &[route("Register", Shape::Operation)],
    groups: &["NewGroup"],
    handler_after_path: true,
    router_arg_pkgs: &["huma"],
    param_bind: Some((1, BindKind::Input)),
    ..Framework::BASE
};

golang::go_analyzer!(
    Huma,
    "go_huma",
    "Huma",
    ["huma", "go-huma"],
    ["github.com/danielgtaylor/huma"],
    link
);
