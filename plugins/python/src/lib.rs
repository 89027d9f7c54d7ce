//! Python web frameworks.
mod flask;

portolan_plugin_sdk::plugin!(name: "python", analyzers: [flask::Flask]);
