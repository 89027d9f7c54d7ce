use sqlx::postgres::PgPoolOptions;

mod config;
mod http;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = config::Config::from_env()?;
    let db = PgPoolOptions::new()
        .max_connections(50)
        .connect(&config.database_url)
        .await?;
    http::serve(config, db).await
}
