use axum::routing::get;
use axum::Router;

#[tokio::test]
async fn mounts_test_router() {
    let _app: Router = Router::new().route("/api/test-only", get(|| async { "nope" }));
}
