use actix_web::{web, HttpResponse};
use serde::Deserialize;

pub mod comments;

#[derive(Deserialize)]
pub struct ArticlesParams {
    tag: Option<String>,
    author: Option<String>,
    favorited: Option<String>,
    limit: Option<usize>,
    offset: Option<usize>,
}

#[derive(Deserialize)]
pub struct FeedParams {
    limit: Option<usize>,
    offset: Option<usize>,
}

#[derive(Deserialize)]
pub struct In<T> {
    article: T,
}

#[derive(Deserialize)]
pub struct CreateArticle {
    title: String,
    description: String,
    body: String,
    #[serde(rename = "tagList")]
    tag_list: Vec<String>,
}

pub fn config(cfg: &mut web::ServiceConfig) {
    cfg.route("", web::get().to(list))
        .route("", web::post().to(create))
        .route("/feed", web::get().to(feed))
        .service(
            web::resource("/{slug}")
                .route(web::get().to(get))
                .route(web::put().to(update))
                .route(web::delete().to(delete)),
        )
        .service(
            web::resource("/{slug}/favorite")
                .route(web::post().to(favorite))
                .route(web::delete().to(unfavorite)),
        );
}

async fn list(params: web::Query<ArticlesParams>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "tag": params.tag }))
}

async fn feed(params: web::Query<FeedParams>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "limit": params.limit }))
}

async fn create(form: web::Json<In<CreateArticle>>) -> HttpResponse {
    HttpResponse::Created().json(serde_json::json!({ "article": form.article.title }))
}

async fn get(slug: web::Path<String>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "article": slug.into_inner() }))
}

async fn update(slug: web::Path<String>, form: web::Json<In<serde_json::Value>>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "slug": slug.into_inner(), "article": form.article }))
}

async fn delete(slug: web::Path<String>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "deleted": slug.into_inner() }))
}

async fn favorite(slug: web::Path<String>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "article": slug.into_inner() }))
}

async fn unfavorite(slug: web::Path<String>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "article": slug.into_inner() }))
}
