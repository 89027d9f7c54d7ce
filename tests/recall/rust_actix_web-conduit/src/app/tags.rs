use actix_web::{get, HttpResponse};

#[get("/tags")]
pub async fn list_tags() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "tags": [] }))
}
