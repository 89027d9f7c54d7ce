use actix_cors::Cors;
use actix_web::{middleware::Logger, web, App, HttpServer};

mod app;
mod middleware;

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let pool = app::db::pool();
    HttpServer::new(move || {
        App::new()
            .app_data(web::Data::new(pool.clone()))
            .wrap(Logger::default())
            .wrap(Cors::permissive())
            .configure(app::routes)
    })
    .bind(("0.0.0.0", 8080))?
    .run()
    .await
}
