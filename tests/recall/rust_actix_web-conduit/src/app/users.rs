use actix_web::{web, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct In<T> {
    user: T,
}

#[derive(Deserialize)]
pub struct RegisterUser {
    username: String,
    email: String,
    password: String,
}

#[derive(Deserialize)]
pub struct LoginUser {
    email: String,
    password: String,
}

#[derive(Deserialize)]
pub struct UpdateUser {
    username: Option<String>,
    email: Option<String>,
    password: Option<String>,
    bio: Option<String>,
    image: Option<String>,
}

pub async fn register(form: web::Json<In<RegisterUser>>) -> HttpResponse {
    HttpResponse::Created().json(serde_json::json!({ "user": form.user.username }))
}

pub async fn login(form: web::Json<In<LoginUser>>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "user": form.user.email }))
}

pub async fn get_current() -> HttpResponse {
    HttpResponse::Ok().finish()
}

pub async fn update(form: web::Json<In<UpdateUser>>) -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "user": form.user.username }))
}
