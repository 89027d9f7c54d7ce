//! The shared router scanner (map step, [`scan`]) and linker (reduce step,
//! [`link`]) behind every builder-style Rust framework. A [`scan::Flavor`]
//! selects the builder vocabulary (Axum `route`/`nest`/`merge`, Actix
//! `service`/`configure`/`web::scope`, Rocket `mount`/`routes!`, Poem
//! `at`/`nest`); attribute-routed handlers (Actix, Rocket) become
//! one-route routers that `.service(h)`/`routes![h]` merge.

pub mod link;
pub mod scan;
