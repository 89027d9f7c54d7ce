use axum::extract::State;
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::{Deserialize, Serialize};

use crate::http::extractor::AuthUser;
use crate::http::{ApiContext, Result};

pub(crate) fn router() -> Router<ApiContext> {
    Router::new()
        .route("/users", post(create_user))
        .route("/users/login", post(login_user))
        .route("/user", get(get_current_user).put(update_user))
}

#[derive(Serialize, Deserialize)]
struct UserBody<T> {
    user: T,
}

#[derive(Deserialize)]
struct NewUser {
    username: String,
    email: String,
    password: String,
}

#[derive(Deserialize)]
struct LoginUser {
    email: String,
    password: String,
}

#[derive(Deserialize, Default)]
struct UpdateUser {
    email: Option<String>,
    username: Option<String>,
    password: Option<String>,
    bio: Option<String>,
    image: Option<String>,
}

#[derive(Serialize)]
struct User {
    email: String,
    token: String,
    username: String,
}

async fn create_user(
    State(ctx): State<ApiContext>,
    Json(req): Json<UserBody<NewUser>>,
) -> Result<Json<UserBody<User>>> {
    todo!("insert {} {}", req.user.username, ctx.config.hmac_key)
}

async fn login_user(
    State(ctx): State<ApiContext>,
    Json(req): Json<UserBody<LoginUser>>,
) -> Result<Json<UserBody<User>>> {
    todo!("verify {} {}", req.user.email, ctx.config.hmac_key)
}

async fn get_current_user(
    Extension(auth_user): Extension<AuthUser>,
    State(ctx): State<ApiContext>,
) -> Result<Json<UserBody<User>>> {
    todo!("load {} {}", auth_user.user_id, ctx.config.hmac_key)
}

async fn update_user(
    Extension(auth_user): Extension<AuthUser>,
    State(ctx): State<ApiContext>,
    Json(req): Json<UserBody<UpdateUser>>,
) -> Result<Json<UserBody<User>>> {
    todo!("update {} {:?}", auth_user.user_id, req.user.email)
}
