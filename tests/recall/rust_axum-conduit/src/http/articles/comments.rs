use axum::extract::{Path, State};
use axum::middleware;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;

use crate::http::extractor::require_auth;
use crate::http::{ApiContext, Result};

pub(super) fn router() -> Router<ApiContext> {
    Router::new()
        .route("/", post(add_comment).route_layer(middleware::from_fn(require_auth)))
        .route("/", get(get_article_comments))
        .route(
            "/:comment_id",
            delete(delete_comment).route_layer(middleware::from_fn(require_auth)),
        )
}

#[derive(Deserialize)]
struct CommentBody {
    comment: AddComment,
}

#[derive(Deserialize)]
struct AddComment {
    body: String,
}

async fn get_article_comments(
    State(_ctx): State<ApiContext>,
    Path(slug): Path<String>,
) -> Result<Json<serde_json::Value>> {
    todo!("{slug}")
}

async fn add_comment(
    State(_ctx): State<ApiContext>,
    Path(slug): Path<String>,
    Json(req): Json<CommentBody>,
) -> Result<Json<serde_json::Value>> {
    todo!("{slug} {}", req.comment.body)
}

async fn delete_comment(
    State(_ctx): State<ApiContext>,
    Path((slug, comment_id)): Path<(String, i64)>,
) -> Result<()> {
    todo!("{slug} {comment_id}")
}
