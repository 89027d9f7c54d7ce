//! Interface-definition documents: GraphQL SDL, Protocol Buffers services,
//! AsyncAPI, WSDL and RAML. Every technology here reads a document, not code,
//! so each is marked `.specification()`.
pub mod doc;

pub mod graphql_sdl;
pub mod grpc;

portolan_plugin_sdk::plugin!(
    name: "idl",
    analyzers: [
        graphql_sdl::GraphqlSdl,
        grpc::Grpc,
    ]
);
