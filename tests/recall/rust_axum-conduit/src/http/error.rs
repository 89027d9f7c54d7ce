use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug)]
pub enum Error {
    Unauthorized,
    NotFound,
    Sqlx(sqlx::Error),
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let status = match self {
            Error::Unauthorized => StatusCode::UNAUTHORIZED,
            Error::NotFound => StatusCode::NOT_FOUND,
            Error::Sqlx(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        status.into_response()
    }
}
