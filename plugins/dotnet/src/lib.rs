//! .NET web frameworks (C#).
//!
//! Adding a framework: a module next to [`mvc`] (reusing [`cs`]) and one
//! entry in the `plugin!` registration below.

pub mod aspnet_mvc;
pub mod carter;
pub mod cli;
pub mod cs;
pub mod fastendpoints;
pub mod httplistener;
pub mod migrations;
pub mod minimal;
pub mod mvc;
pub mod razor;
pub mod scan;
pub mod servicestack;
pub mod signalr;

portolan_plugin_sdk::plugin!(
    name: "dotnet",
    analyzers: [
        mvc::AspNetCoreMvc,
        minimal::MinimalApi,
        signalr::SignalR,
        carter::Carter,
        aspnet_mvc::AspNetMvc,
        fastendpoints::FastEndpoints,
        servicestack::ServiceStack,
        httplistener::HttpListener,
        cli::CsCli,
    ],
);
