//! The shared router scanner (map step, [`scan`]) and linker (reduce step,
//! [`link`]) behind every builder-style Rust framework. A framework plugs
//! in with one [`framework::Framework`] value in its own module: its
//! builder vocabulary (Axum `route`/`nest`/`merge`, Actix
//! `service`/`configure`/`web::scope`, Rocket `mount`/`routes!`, Poem
//! `at`/`nest`) and hooks for what only it does (attribute routes, scoped
//! modules, whole-chain readers); attribute-routed handlers become
//! one-route routers that `.service(h)`/`routes![h]` merge.

pub mod framework;
pub mod link;
pub mod scan;
