use actix_web::{delete, get, post, web, HttpResponse};
use actix_web_httpauth::middleware::HttpAuthentication;

use crate::middleware::auth::validator;

pub fn config(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/profiles/{username}")
            .service(get_profile)
            .service(
                web::scope("/follow")
                    .wrap(HttpAuthentication::with_fn(validator))
                    .service(follow)
                    .service(unfollow),
            ),
    );
}

#[get("")]
async fn get_profile(path: web::Path<String>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "profile": path.into_inner() }))
}

#[post("")]
async fn follow(path: web::Path<String>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "profile": path.into_inner() }))
}

#[delete("")]
async fn unfollow(path: web::Path<String>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "profile": path.into_inner() }))
}
