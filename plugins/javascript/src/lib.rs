//! JavaScript and TypeScript web frameworks: Express, Fastify, Koa, Hono,
//! Restify, Hapi, Next.js (file-system routes), NestJS (`ts_nestjs` /
//! `js_nestjs`), and the file-system routers of SvelteKit, Nuxt/Nitro,
//! Remix, Astro and Fresh, Elysia, Socket.IO, and the GraphQL endpoints
//! of Apollo Server and GraphQL Yoga, tRPC procedures, AdonisJS, LoopBack 4, Oak, Sails.js, plain Node.js `http` servers, Feathers services, TanStack Router/Start routes.
//!
//! Adding a framework: a module next to [`express`] (reusing [`js`]) and
//! one entry in the `plugin!` registration below.

pub mod adonisjs;
pub mod apollo;
pub mod astro;
pub mod cli;
pub mod elysia;
pub mod express;
pub mod fastify;
pub mod feathers;
pub mod fresh;
pub mod hapi;
pub mod hono;
pub mod js;
pub mod koa;
pub mod loopback;
pub mod nestjs;
pub mod nextjs;
pub mod nitro;
pub mod nodehttp;
pub mod oak;
pub mod remix;
pub mod restify;
pub mod sails;
pub mod socketio;
pub mod sveltekit;
pub mod tanstack;
pub mod trpc;
pub mod yoga;

portolan_plugin_sdk::plugin!(name: "javascript", analyzers: [express::Express, fastify::Fastify, koa::Koa, nextjs::NextJs, hono::Hono, restify::Restify, hapi::Hapi, nestjs::TS, nestjs::JS, sveltekit::SvelteKit, nitro::Nuxt, nitro::Nitro, remix::Remix, astro::Astro, fresh::Fresh, elysia::Elysia, socketio::SocketIo, apollo::Apollo, yoga::Yoga, trpc::Trpc, adonisjs::AdonisJs, loopback::LoopBack, oak::Oak, sails::Sails, nodehttp::NodeHttp, feathers::Feathers, tanstack::TanStackRouter, cli::JsCli]);
