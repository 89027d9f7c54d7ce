//! Interface-definition documents: GraphQL SDL, Protocol Buffers services,
//! AsyncAPI, WSDL and RAML. Every technology here reads a document, not code,
//! so each is marked `.specification()`. Document helpers (loading, key
//! lines, `$ref`s, JSON Schema, test documents) come from
//! `portolan_plugin_sdk::doc`.

pub mod asyncapi;
pub mod graphql_sdl;
pub mod grpc;
pub mod odata;
pub mod raml;
pub mod smithy;
mod tokens;
pub mod typespec;
pub mod wsdl;

portolan_plugin_sdk::plugin!(
    name: "idl",
    analyzers: [
        graphql_sdl::GraphqlSdl,
        grpc::Grpc,
        asyncapi::AsyncApi,
        wsdl::Wsdl,
        raml::Raml,
        odata::OData,
        smithy::Smithy,
        typespec::TypeSpec,
    ]
);
