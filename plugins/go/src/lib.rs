//! Go web frameworks.
//!
//! Every framework is a module holding a [`golang::framework::Framework`]
//! description driving the shared scanner and linker in [`golang`], plus
//! one entry in the `plugin!` registration below.

pub mod beego;
pub mod chi;
pub mod cli;
pub mod cli_urfave;
pub mod connect;
pub mod echo;
pub mod fasthttp;
pub mod fiber;
pub mod gf;
pub mod gin;
pub mod golang;
pub mod goyave;
pub mod gozero;
pub mod hertz;
pub mod httprouter;
pub mod huma;
pub mod iris;
pub mod kratos;
pub mod mux;
pub mod nethttp;
pub mod pocketbase;
pub mod restful;

portolan_plugin_sdk::plugin!(
    name: "go",
    analyzers: [
        gin::Gin,
        echo::Echo,
        chi::Chi,
        nethttp::NetHttp,
        mux::Mux,
        fiber::Fiber,
        fasthttp::FastHttp,
        httprouter::HttpRouter,
        hertz::Hertz,
        iris::Iris,
        goyave::Goyave,
        beego::Beego,
        huma::Huma,
        gf::Gf,
        kratos::Kratos,
        pocketbase::PocketBase,
        restful::Restful,
        connect::ConnectRpc,
        gozero::GoZero,
        cli::GoCli,
    ]
);
