use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};

use crate::http::{ApiContext, Result};

pub(crate) fn router() -> Router<ApiContext> {
    Router::new().route("/tags", get(get_tags))
}

async fn get_tags(State(_ctx): State<ApiContext>) -> Result<Json<serde_json::Value>> {
    todo!()
}
