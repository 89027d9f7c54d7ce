//! Runs each analyzer natively on every `tests/fixtures/<tech>/<case>/app`
//! tree of its technology and compares the report with the hand-written
//! `expected.json` (see `portolan_plugin_sdk::testing`).

use std::path::{Path, PathBuf};

use portolan_plugin_polyglot::{
    asp, cfml, clojure, cpp, dart, erlang, fsharp, gleam, groovy, haskell, lua, perl, r, zig,
};
use portolan_plugin_sdk::testing::Fixtures;

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

#[test]
fn perl_dancer2_fixtures() {
    Fixtures::new(&[&perl::Dancer2], fixtures_root())
        .cases("perl_dancer2", &["shop"])
        .check();
}

#[test]
fn perl_mojolicious_fixtures() {
    Fixtures::new(&[&perl::Mojolicious], fixtures_root())
        .cases("perl_mojolicious", &["app", "lite"])
        .check();
}

#[test]
fn clojure_compojure_fixtures() {
    Fixtures::new(&[&clojure::Compojure], fixtures_root())
        .cases("clojure_compojure", &["todo"])
        .check();
}

#[test]
fn clojure_reitit_fixtures() {
    Fixtures::new(&[&clojure::Reitit], fixtures_root())
        .cases("clojure_reitit", &["api"])
        .check();
}

#[test]
fn clojure_pedestal_fixtures() {
    Fixtures::new(&[&clojure::Pedestal], fixtures_root())
        .cases("clojure_pedestal", &["hello"])
        .check();
}

#[test]
fn clojure_ring_fixtures() {
    Fixtures::new(&[&clojure::Ring], fixtures_root())
        .cases("clojure_ring", &["plain"])
        .check();
}

#[test]
fn cpp_crow_fixtures() {
    Fixtures::new(&[&cpp::Crow], fixtures_root())
        .cases("cpp_crow", &["shop"])
        .check();
}

#[test]
fn cpp_httplib_fixtures() {
    Fixtures::new(&[&cpp::Httplib], fixtures_root())
        .cases("cpp_httplib", &["notes", "prefixed"])
        .check();
}

#[test]
fn cpp_drogon_fixtures() {
    Fixtures::new(&[&cpp::Drogon], fixtures_root())
        .cases("cpp_drogon", &["blog"])
        .check();
}

#[test]
fn cpp_oatpp_fixtures() {
    Fixtures::new(&[&cpp::Oatpp], fixtures_root())
        .cases("cpp_oatpp", &["users"])
        .check();
}

#[test]
fn dart_shelf_fixtures() {
    Fixtures::new(&[&dart::Shelf], fixtures_root())
        .cases("dart_shelf", &["api", "interpolated"])
        .check();
}

#[test]
fn dart_frog_fixtures() {
    Fixtures::new(&[&dart::DartFrog], fixtures_root())
        .cases("dart_frog", &["todos"])
        .check();
}

#[test]
fn dart_alfred_fixtures() {
    Fixtures::new(&[&dart::Alfred], fixtures_root())
        .cases("dart_alfred", &["basic"])
        .check();
}

#[test]
fn dart_angel3_fixtures() {
    Fixtures::new(&[&dart::Angel3], fixtures_root())
        .cases("dart_angel3", &["basic"])
        .check();
}

#[test]
fn dart_get_server_fixtures() {
    Fixtures::new(&[&dart::GetServer], fixtures_root())
        .cases("dart_get_server", &["basic"])
        .check();
}

#[test]
fn dart_http_fixtures() {
    Fixtures::new(&[&dart::DartHttp], fixtures_root())
        .cases("dart_http", &["basic"])
        .check();
}

#[test]
fn dart_serverpod_fixtures() {
    Fixtures::new(&[&dart::Serverpod], fixtures_root())
        .cases("dart_serverpod", &["basic"])
        .check();
}

#[test]
fn lua_lapis_fixtures() {
    Fixtures::new(&[&lua::Lapis], fixtures_root())
        .cases("lua_lapis", &["blog"])
        .check();
}

#[test]
fn lua_lor_fixtures() {
    Fixtures::new(&[&lua::Lor], fixtures_root())
        .cases("lua_lor", &["api", "multiassign"])
        .check();
}

#[test]
fn haskell_scotty_fixtures() {
    Fixtures::new(&[&haskell::Scotty], fixtures_root())
        .cases("haskell_scotty", &["app"])
        .check();
}

#[test]
fn haskell_servant_fixtures() {
    Fixtures::new(&[&haskell::Servant], fixtures_root())
        .cases("haskell_servant", &["api"])
        .check();
}

#[test]
fn haskell_yesod_fixtures() {
    Fixtures::new(&[&haskell::Yesod], fixtures_root())
        .cases("haskell_yesod", &["blog"])
        .check();
}

#[test]
fn r_plumber_fixtures() {
    Fixtures::new(&[&r::Plumber], fixtures_root())
        .cases("r_plumber", &["api"])
        .check();
}

#[test]
fn asp_classic_fixtures() {
    Fixtures::new(&[&asp::AspClassic], fixtures_root())
        .cases("asp_classic", &["site"])
        .check();
}

#[test]
fn aspnet_webforms_fixtures() {
    Fixtures::new(&[&asp::WebForms], fixtures_root())
        .cases("aspnet_webforms", &["shop"])
        .check();
}

#[test]
fn erlang_cowboy_fixtures() {
    Fixtures::new(&[&erlang::Cowboy], fixtures_root())
        .cases("erlang_cowboy", &["api"])
        .check();
}

#[test]
fn erlang_elli_fixtures() {
    Fixtures::new(&[&erlang::Elli], fixtures_root())
        .cases("erlang_elli", &["hello"])
        .check();
}

#[test]
fn zig_httpz_fixtures() {
    Fixtures::new(&[&zig::Httpz], fixtures_root())
        .cases("zig_httpz", &["api"])
        .check();
}

#[test]
fn zig_zap_fixtures() {
    Fixtures::new(&[&zig::Zap], fixtures_root())
        .cases("zig_zap", &["api"])
        .check();
}

#[test]
fn zig_jetzig_fixtures() {
    Fixtures::new(&[&zig::Jetzig], fixtures_root())
        .cases("zig_jetzig", &["blog", "orders"])
        .check();
}

#[test]
fn zig_tokamak_fixtures() {
    Fixtures::new(&[&zig::Tokamak], fixtures_root())
        .cases("zig_tokamak", &["api"])
        .check();
}

#[test]
fn zig_http_fixtures() {
    Fixtures::new(&[&zig::ZigHttp], fixtures_root())
        .cases("zig_http", &["basic"])
        .check();
}

#[test]
fn gleam_wisp_fixtures() {
    Fixtures::new(&[&gleam::Wisp], fixtures_root())
        .cases("gleam_wisp", &["app", "form"])
        .check();
}

#[test]
fn fs_giraffe_fixtures() {
    Fixtures::new(&[&fsharp::Giraffe], fixtures_root())
        .cases("fs_giraffe", &["app", "urlconsts"])
        .check();
}

#[test]
fn cfml_pure_fixtures() {
    Fixtures::new(&[&cfml::Pure], fixtures_root())
        .cases("cfml_pure", &["site"])
        .check();
}

#[test]
fn cfml_taffy_fixtures() {
    Fixtures::new(&[&cfml::Taffy], fixtures_root())
        .cases("cfml_taffy", &["api"])
        .check();
}

#[test]
fn cfml_coldbox_fixtures() {
    Fixtures::new(&[&cfml::ColdBox], fixtures_root())
        .cases("cfml_coldbox", &["app"])
        .check();
}

#[test]
fn cfml_fw1_fixtures() {
    Fixtures::new(&[&cfml::Fw1], fixtures_root())
        .cases("cfml_fw1", &["app"])
        .check();
}

#[test]
fn cfml_wheels_fixtures() {
    Fixtures::new(&[&cfml::Wheels], fixtures_root())
        .cases("cfml_wheels", &["app"])
        .check();
}

#[test]
fn groovy_grails_fixtures() {
    Fixtures::new(&[&groovy::Grails], fixtures_root())
        .cases("groovy_grails", &["library"])
        .check();
}

#[test]
fn perl_catalyst_fixtures() {
    Fixtures::new(&[&perl::Catalyst], fixtures_root())
        .cases("perl_catalyst", &["shop"])
        .check();
}
