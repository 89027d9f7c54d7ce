use actix_web::{web, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct AddComment {
    comment: CommentBody,
}

#[derive(Deserialize)]
pub struct CommentBody {
    body: String,
}

pub fn config(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/{slug}/comments")
            .route("", web::get().to(list))
            .route("", web::post().to(add))
            .route("/{comment_id}", web::delete().to(delete)),
    );
}

async fn list(slug: web::Path<String>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "slug": slug.into_inner() }))
}

async fn add(slug: web::Path<String>, form: web::Json<AddComment>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "slug": slug.into_inner(), "body": form.comment.body }))
}

async fn delete(path: web::Path<(String, i32)>) -> HttpResponse {
    let (slug, id) = path.into_inner();
    HttpResponse::Ok().json(serde_json::json!({ "slug": slug, "id": id }))
}
