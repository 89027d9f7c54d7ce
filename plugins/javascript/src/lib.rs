//! JavaScript and TypeScript web frameworks: Express, Fastify, Koa, Hono,
//! Restify, Hapi, Next.js (file-system routes) and NestJS (`ts_nestjs` /
//! `js_nestjs`).
//!
//! Adding a framework: a module next to [`express`] (reusing [`js`]) and
//! one entry in the `plugin!` registration below.

pub mod express;
pub mod fastify;
pub mod hapi;
pub mod hono;
pub mod js;
pub mod koa;
pub mod nestjs;
pub mod nextjs;
pub mod restify;

portolan_plugin_sdk::plugin!(name: "javascript", analyzers: [express::Express, fastify::Fastify, koa::Koa, nextjs::NextJs, hono::Hono, restify::Restify, hapi::Hapi, nestjs::TS, nestjs::JS]);
