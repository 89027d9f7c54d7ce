use diesel::pg::PgConnection;
use diesel::r2d2::{ConnectionManager, Pool};

pub type DbPool = Pool<ConnectionManager<PgConnection>>;

pub fn pool() -> DbPool {
    let url = std::env::var("DATABASE_URL").unwrap_or_default();
    Pool::builder()
        .build(ConnectionManager::new(url))
        .expect("pool")
}
