//! The `slowfuse` command line: `serve` (the default) and `migrate`.

use std::path::PathBuf;
use std::sync::Arc;

use clap::{Parser, Subcommand};

use crate::clock::SystemClock;
use crate::config::Settings;
use crate::db;
use crate::startup::Application;

/// Slowfuse correspondence-chess server.
#[derive(Parser, Debug)]
#[command(name = "slowfuse", version, about)]
pub struct Cli {
    /// Directory holding default.toml and local.toml.
    #[arg(
        long,
        global = true,
        default_value = "config",
        env = "SLOWFUSE_CONFIG_DIR"
    )]
    pub config_dir: PathBuf,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What to do.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serve the web site (the default).
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
}

/// Runs the command line; returns the process exit code.
pub fn run() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let settings = Settings::load(&cli.config_dir)?;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(settings),
        Command::Migrate => {
            let pool = db::connect(&settings.database)?;
            let applied = db::migrate(&mut *pool.get()?)?;
            println!("{applied} migrations applied");
            Ok(())
        }
    }
}

fn serve(settings: Settings) -> anyhow::Result<()> {
    actix_web::rt::System::new().block_on(async move {
        let bind = settings.server.bind.clone();
        let app = Application::build(settings, Arc::new(SystemClock))?;
        println!("Slowfuse is serving on http://{bind}");
        app.run_until_stopped().await?;
        Ok(())
    })
}
