//! Settings: built-in defaults, `config/default.toml`, `config/local.toml`, then environment.

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The defaults shipped inside the binary, identical to `config/default.toml`.
const BUILT_IN_DEFAULTS: &str = include_str!("../config/default.toml");

/// Every setting of the server.
#[derive(Clone, Debug, Deserialize)]
pub struct Settings {
    pub server: ServerSettings,
    pub database: DatabaseSettings,
    pub auth: AuthSettings,
    pub worker: WorkerSettings,
    pub game: GameSettings,
    pub mail: MailSettings,
    pub analysis: AnalysisSettings,
    pub log: LogSettings,
    pub metrics: MetricsSettings,
}

/// `[log]`: how the server writes its log (standard error).
#[derive(Clone, Debug, Deserialize)]
pub struct LogSettings {
    pub format: LogFormat,
}

/// `log.format`: lines for people, or one JSON object per line for a log collector.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Text,
    Json,
}

/// `[metrics]`: who may read `/metrics`.
#[derive(Clone, Debug, Deserialize)]
pub struct MetricsSettings {
    /// A bearer token that opens `/metrics` from anywhere; empty: loopback peers only.
    pub token: String,
}

/// `[analysis]`: engine analysis of finished games.
#[derive(Clone, Debug, Deserialize)]
pub struct AnalysisSettings {
    /// Analyse every rated game as it ends; otherwise only games someone asks for.
    pub automatic_for_rated: bool,
    /// The built-in engine's node budget for each position.
    pub nodes: u64,
    /// The longest one position may take, in seconds, whatever the budget.
    pub seconds_per_position: u64,
    /// An external UCI engine (its program); empty: the built-in engine for every variant.
    pub uci_path: String,
    /// Arguments to start it with.
    pub uci_args: Vec<String>,
    /// UCI options set at its start, e.g. `Hash = "64"`.
    pub uci_options: std::collections::BTreeMap<String, String>,
    /// The variants (our names) it analyses; the built-in engine does the others.
    pub uci_variants: Vec<String>,
    /// Its node budget for each position.
    pub uci_nodes: u64,
}

/// `[worker]`: the background jobs of this instance.
#[derive(Clone, Debug, Deserialize)]
pub struct WorkerSettings {
    pub enabled: bool,
    pub interval_seconds: u64,
}

/// `[server]`: where to listen and how to name ourselves.
#[derive(Clone, Debug, Deserialize)]
pub struct ServerSettings {
    pub bind: String,
    pub public_url: String,
    pub secret_key: String,
    pub data_dir: PathBuf,
    pub trust_proxy_headers: bool,
    pub workers: usize,
}

/// `[database]`: which database and how many connections.
#[derive(Clone, Debug, Deserialize)]
pub struct DatabaseSettings {
    pub url: String,
    pub pool_size: u32,
    pub sqlite_busy_timeout_ms: u32,
}

/// `[auth]`: login throttling and session lifetime.
#[derive(Clone, Debug, Deserialize)]
pub struct AuthSettings {
    pub max_failed_logins_per_user: i64,
    pub max_failed_logins_per_address: i64,
    pub login_window_minutes: i64,
    pub session_days: i64,
    /// Password hashes made or checked at once (each takes about 19 MB); 0: one per core.
    pub password_hashes_at_once: usize,
    /// Sign-ups and logins that may wait for a hash; beyond them, 503 at once.
    pub password_queue: usize,
    /// The longest one waits before it is refused with 503.
    pub password_wait_seconds: u64,
}

/// `[game]`: limits on what players send.
#[derive(Clone, Debug, Deserialize)]
pub struct GameSettings {
    pub leave_days_per_year: i64,
    pub max_message_chars: usize,
}

/// `[mail]`: how notifications leave the server.
#[derive(Clone, Debug, Deserialize)]
pub struct MailSettings {
    pub transport: MailTransport,
    pub smtp_host: String,
    pub smtp_port: u16,
    pub smtp_tls: SmtpTls,
    pub smtp_username: String,
    pub smtp_password: String,
    pub from: String,
    pub coalesce_seconds: i64,
    pub timeout_seconds: u64,
    pub max_attempts: i32,
    /// "Time running low": share of the time for a move that is gone (0 switches it off).
    pub low_time_fraction: f64,
    /// "Time running low": hours left on the clock (0 switches it off).
    pub low_time_hours: i64,
    /// Days the outbox keeps finished rows (0: for ever).
    pub keep_days: i64,
}

/// `mail.transport`: where mail goes.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum MailTransport {
    /// `.eml` files under `<data_dir>/mail/` (development).
    File,
    /// An SMTP server.
    Smtp,
}

/// `mail.smtp_tls`: how the SMTP connection is protected.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SmtpTls {
    /// Plain text (a relay on the same host only).
    None,
    /// Plain connection upgraded with STARTTLS, required (usually port 587).
    Starttls,
    /// TLS from the first byte (usually port 465).
    Tls,
}

impl Settings {
    /// Loads the settings, layering the files found under `config_dir` and the environment
    /// over the built-in defaults.
    pub fn load(config_dir: &Path) -> Result<Settings, config::ConfigError> {
        Self::load_from(config_dir, std::env::vars())
    }

    /// As [`Settings::load`], with the environment given explicitly (used by tests).
    pub fn load_from(
        config_dir: &Path,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Settings, config::ConfigError> {
        let env: std::collections::HashMap<String, String> = env.into_iter().collect();
        let mut builder = config::Config::builder()
            .add_source(config::File::from_str(
                BUILT_IN_DEFAULTS,
                config::FileFormat::Toml,
            ))
            .add_source(config::File::from(config_dir.join("default.toml")).required(false))
            .add_source(config::File::from(config_dir.join("local.toml")).required(false))
            .add_source(
                config::Environment::with_prefix("SLOWFUSE")
                    .prefix_separator("__")
                    .separator("__")
                    .try_parsing(true)
                    .source(Some(env.clone())),
            );
        if let Some(url) = env.get("DATABASE_URL").filter(|u| !u.is_empty()) {
            builder = builder.set_override("database.url", url.as_str())?;
        }
        let mut settings: Settings = builder.build()?.try_deserialize()?;
        if settings.server.public_url.trim().is_empty() {
            settings.server.public_url = format!("http://{}", settings.server.bind);
        }
        settings.server.public_url = settings.server.public_url.trim_end_matches('/').to_string();
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn defaults_serve_sqlite_on_port_8080() {
        let s = Settings::load_from(Path::new("/nonexistent"), env(&[])).unwrap();
        assert_eq!(s.server.bind, "127.0.0.1:8080");
        assert_eq!(s.database.url, "sqlite://data/slowfuse.db");
    }

    #[test]
    fn environment_overrides_files_and_database_url_overrides_all() {
        let s = Settings::load_from(
            Path::new("/nonexistent"),
            env(&[
                ("SLOWFUSE__SERVER__BIND", "127.0.0.1:9000"),
                ("SLOWFUSE__DATABASE__POOL_SIZE", "3"),
                ("DATABASE_URL", "postgres://localhost/x"),
            ]),
        )
        .unwrap();
        assert_eq!(s.server.bind, "127.0.0.1:9000");
        assert_eq!(s.database.pool_size, 3);
        assert_eq!(s.database.url, "postgres://localhost/x");
    }

    #[test]
    fn mail_defaults_to_files_and_the_environment_picks_smtp() {
        let s = Settings::load_from(Path::new("/nonexistent"), env(&[])).unwrap();
        assert_eq!(s.mail.transport, MailTransport::File);
        assert_eq!(s.mail.coalesce_seconds, 120);
        let s = Settings::load_from(
            Path::new("/nonexistent"),
            env(&[
                ("SLOWFUSE__MAIL__TRANSPORT", "smtp"),
                ("SLOWFUSE__MAIL__SMTP_PORT", "2525"),
                ("SLOWFUSE__MAIL__SMTP_TLS", "none"),
                ("SLOWFUSE__MAIL__SMTP_PASSWORD", "12345"),
            ]),
        )
        .unwrap();
        assert_eq!(s.mail.transport, MailTransport::Smtp);
        assert_eq!(s.mail.smtp_port, 2525);
        assert_eq!(s.mail.smtp_tls, SmtpTls::None);
        assert_eq!(s.mail.smtp_password, "12345");
        let bad = Settings::load_from(
            Path::new("/nonexistent"),
            env(&[("SLOWFUSE__MAIL__SMTP_TLS", "maybe")]),
        );
        assert!(bad.is_err(), "an unknown TLS mode is refused at start");
    }
}
