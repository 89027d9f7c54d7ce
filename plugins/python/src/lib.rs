//! Python web frameworks.
//!
//! Adding a framework: a module next to [`flask`] (reusing [`py`]) and one
//! entry in the `plugin!` registration below.

pub mod aiohttp;
pub mod bottle;
pub mod cherrypy;
pub mod cli;
pub mod django;
pub mod falcon;
pub mod fastapi;
pub mod flask;
pub mod http_server;
pub mod litestar;
pub mod masonite;
pub mod ninja;
pub mod py;
pub mod pyramid;
pub mod quart;
pub mod robyn;
pub mod sanic;
pub mod starlette;
pub mod tornado;

#[cfg(test)]
mod test_support;

portolan_plugin_sdk::plugin!(name: "python", analyzers: [
    flask::Flask,
    fastapi::FastApi,
    django::Django,
    ninja::Ninja,
    quart::Quart,
    sanic::Sanic,
    starlette::Starlette,
    aiohttp::Aiohttp,
    tornado::Tornado,
    robyn::Robyn,
    falcon::Falcon,
    litestar::Litestar,
    bottle::Bottle,
    pyramid::Pyramid,
    http_server::HttpServer,
    cherrypy::CherryPy,
    masonite::Masonite,
    cli::PythonCli,
]);
