use axum::extract::{Path, State};
use axum::middleware;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;

use crate::http::extractor::require_auth;
use crate::http::{ApiContext, Result};

mod comments;
mod listing;

pub(crate) fn router(state: ApiContext) -> Router<ApiContext> {
    let protected = Router::new()
        .route("/", post(create_article))
        .route("/feed", get(listing::feed_articles))
        .route("/:slug", delete(delete_article).put(update_article))
        .route(
            "/:slug/favorite",
            post(favorite_article).delete(unfavorite_article),
        )
        .route_layer(middleware::from_fn(require_auth));

    Router::new()
        .route("/", get(listing::list_articles))
        .route("/:slug", get(get_article))
        .merge(protected)
        .nest("/:slug/comments", comments::router())
        .with_state(state)
}

#[derive(Deserialize)]
struct ArticleBody<T> {
    article: T,
}

#[derive(Deserialize)]
struct CreateArticle {
    title: String,
    description: String,
    body: String,
    #[serde(rename = "tagList")]
    tag_list: Vec<String>,
}

#[derive(Deserialize)]
struct UpdateArticle {
    title: Option<String>,
    description: Option<String>,
    body: Option<String>,
}

async fn create_article(
    State(_ctx): State<ApiContext>,
    Json(req): Json<ArticleBody<CreateArticle>>,
) -> Result<Json<serde_json::Value>> {
    todo!("{}", req.article.title)
}

async fn update_article(
    State(_ctx): State<ApiContext>,
    Path(slug): Path<String>,
    Json(req): Json<ArticleBody<UpdateArticle>>,
) -> Result<Json<serde_json::Value>> {
    todo!("{slug} {:?}", req.article.title)
}

async fn delete_article(State(_ctx): State<ApiContext>, Path(slug): Path<String>) -> Result<()> {
    todo!("{slug}")
}

async fn get_article(
    State(_ctx): State<ApiContext>,
    Path(slug): Path<String>,
) -> Result<Json<serde_json::Value>> {
    todo!("{slug}")
}

async fn favorite_article(
    State(_ctx): State<ApiContext>,
    Path(slug): Path<String>,
) -> Result<Json<serde_json::Value>> {
    todo!("{slug}")
}

async fn unfavorite_article(
    State(_ctx): State<ApiContext>,
    Path(slug): Path<String>,
) -> Result<Json<serde_json::Value>> {
    todo!("{slug}")
}
