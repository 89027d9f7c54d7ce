//! Web frameworks of the languages without a plugin of their own: Perl,
//! Clojure, C++, Dart, Lua, Haskell, R, Zig, Erlang and classic ASP. One
//! crate for all of them (the CI compiles one more crate, not ten); each
//! language is a module, sharing the helpers in [`common`].

// Facts crossing `analyze` → `link` are plain tuples (serialised as JSON
// arrays); naming each shape would add types used once.
#![allow(clippy::type_complexity)]

pub mod asp;
pub mod cfml;
pub mod clojure;
pub mod common;
pub mod cpp;
pub mod dart;
pub mod erlang;
pub mod fsharp;
pub mod gleam;
pub mod groovy;
pub mod haskell;
pub mod lua;
pub mod perl;
pub mod r;
pub mod zig;

portolan_plugin_sdk::plugin!(name: "polyglot", analyzers: [perl::Dancer2, perl::Mojolicious, perl::Catalyst, clojure::Compojure, clojure::Reitit, clojure::Pedestal, clojure::Ring, cpp::Crow, cpp::Httplib, cpp::Drogon, cpp::Oatpp, dart::Shelf, dart::DartFrog, dart::Alfred, dart::Angel3, dart::GetServer, dart::DartHttp, dart::Serverpod, lua::Lapis, lua::Lor, haskell::Scotty, haskell::Servant, haskell::Yesod, r::Plumber, asp::AspClassic, asp::WebForms, erlang::Cowboy, erlang::Elli, zig::Httpz, zig::Zap, zig::Jetzig, zig::Tokamak, zig::ZigHttp, gleam::Wisp, fsharp::Giraffe, cfml::Pure, cfml::Taffy, cfml::ColdBox, cfml::Fw1, cfml::Wheels, groovy::Grails]);
