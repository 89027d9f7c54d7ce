//! Interface-definition documents: GraphQL SDL, Protocol Buffers services,
//! AsyncAPI, WSDL and RAML. Every technology here reads a document, not code,
//! so each is marked `.specification()`.
pub mod doc;

pub mod asyncapi;
pub mod graphql_sdl;
pub mod grpc;
pub mod raml;
pub mod wsdl;

portolan_plugin_sdk::plugin!(
    name: "idl",
    analyzers: [
        graphql_sdl::GraphqlSdl,
        grpc::Grpc,
        asyncapi::AsyncApi,
        wsdl::Wsdl,
        raml::Raml,
    ]
);
