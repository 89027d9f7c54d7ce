use actix_web::{web, HttpResponse};
use actix_web_httpauth::middleware::HttpAuthentication;

pub mod articles;
pub mod db;
pub mod profiles;
pub mod tags;
pub mod users;

use crate::middleware::auth::validator;

async fn index() -> HttpResponse {
    HttpResponse::Ok().body("conduit")
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/").to(index)).service(
        web::scope("/api")
            .service(web::resource("users").route(web::post().to(users::register)))
            .service(web::resource("users/login").route(web::post().to(users::login)))
            .service(
                web::resource("user")
                    .wrap(HttpAuthentication::with_fn(validator))
                    .route(web::get().to(users::get_current))
                    .route(web::put().to(users::update)),
            )
            .configure(profiles::config)
            .service(
                web::scope("/articles")
                    .configure(articles::config)
                    .configure(articles::comments::config),
            )
            .service(tags::list_tags),
    );
}
