use axum::extract::{Query, State};
use axum::Json;
use serde::Deserialize;

use crate::http::{ApiContext, Result};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ListArticlesQuery {
    tag: Option<String>,
    author: Option<String>,
    favorited: Option<String>,
    limit: Option<i64>,
    offset: Option<i64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct FeedArticlesQuery {
    limit: Option<i64>,
    offset: Option<i64>,
}

pub(super) async fn list_articles(
    State(_ctx): State<ApiContext>,
    Query(query): Query<ListArticlesQuery>,
) -> Result<Json<serde_json::Value>> {
    todo!("{:?} {:?}", query.tag, query.limit)
}

pub(super) async fn feed_articles(
    State(_ctx): State<ApiContext>,
    Query(query): Query<FeedArticlesQuery>,
) -> Result<Json<serde_json::Value>> {
    todo!("{:?}", query.limit)
}
