use axum::extract::{Path, State};
use axum::middleware;
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::http::extractor::require_auth;
use crate::http::{ApiContext, Result};

pub(crate) fn router(state: ApiContext) -> Router<ApiContext> {
    let authed = Router::new()
        .route("/:username/follow", post(follow_user).delete(unfollow_user))
        .route_layer(middleware::from_fn(require_auth));

    Router::new()
        .route("/:username", get(get_user_profile))
        .merge(authed)
        .with_state(state)
}

async fn get_user_profile(
    State(_ctx): State<ApiContext>,
    Path(username): Path<String>,
) -> Result<Json<serde_json::Value>> {
    todo!("{username}")
}

async fn follow_user(
    State(_ctx): State<ApiContext>,
    Path(username): Path<String>,
) -> Result<Json<serde_json::Value>> {
    todo!("{username}")
}

async fn unfollow_user(
    State(_ctx): State<ApiContext>,
    Path(username): Path<String>,
) -> Result<Json<serde_json::Value>> {
    todo!("{username}")
}
