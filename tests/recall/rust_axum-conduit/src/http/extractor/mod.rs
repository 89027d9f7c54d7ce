use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::Response;

use crate::http::{ApiContext, Error};

#[derive(Clone, Debug)]
pub struct AuthUser {
    pub user_id: i64,
}

/// Reads `Authorization: Token <jwt>` and stores the user in the extensions.
pub async fn attach_user(State(ctx): State<ApiContext>, mut req: Request, next: Next) -> Response {
    if let Some(token) = req
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Token "))
    {
        if let Ok(user_id) = crate::config::verify(&ctx.config, token) {
            req.extensions_mut().insert(AuthUser { user_id });
        }
    }
    next.run(req).await
}

/// Rejects requests without a user.
pub async fn require_auth(req: Request, next: Next) -> Result<Response, Error> {
    if req.extensions().get::<AuthUser>().is_none() {
        return Err(Error::Unauthorized);
    }
    Ok(next.run(req).await)
}
