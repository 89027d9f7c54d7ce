//! Schema-generated APIs: products that serve routes for every collection
//! or table declared in their schema files. What each product serves is
//! documented in `docs/schema-apis.md`.

pub mod appwrite;
pub mod directus;
pub mod hasura;
pub mod payload_cms;
pub mod strapi;
pub mod supabase;
