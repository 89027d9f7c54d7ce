use std::sync::Arc;

use axum::{middleware, Router};
use sqlx::PgPool;
use tower_http::trace::TraceLayer;

use crate::config::Config;

mod articles;
mod error;
mod extractor;
mod profiles;
mod tags;
mod users;

pub use error::Error;

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Clone)]
pub struct ApiContext {
    pub config: Arc<Config>,
    pub db: PgPool,
}

const API_PREFIX: &str = "/api";

pub async fn serve(config: Config, db: PgPool) -> anyhow::Result<()> {
    let state = ApiContext {
        config: Arc::new(config),
        db,
    };
    let app = api_router(state);
    let listener = tokio::net::TcpListener::bind("0.0.0.0:8080").await?;
    axum::serve(listener, app).await?;
    Ok(())
}

fn api_router(state: ApiContext) -> Router {
    let api = Router::new()
        .merge(users::router())
        .nest("/profiles", profiles::router(state.clone()))
        .nest("/articles", articles::router(state.clone()))
        .merge(tags::router());

    Router::new()
        .nest(API_PREFIX, api)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            extractor::attach_user,
        ))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}
