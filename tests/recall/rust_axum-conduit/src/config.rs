#[derive(Clone, Debug)]
pub struct Config {
    pub database_url: String,
    pub hmac_key: String,
}

impl Config {
    pub fn from_env() -> anyhow::Result<Self> {
        Ok(Config {
            database_url: std::env::var("DATABASE_URL")?,
            hmac_key: std::env::var("HMAC_KEY")?,
        })
    }
}

pub fn verify(_config: &Config, _token: &str) -> anyhow::Result<i64> {
    Ok(1)
}
