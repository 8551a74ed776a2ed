//! The `slowfuse` command line: `serve` (the default), `migrate`, `backup`, `send-test-email`,
//! `export`, `import`, and the rules commands `perft`, `moves`, `replay`.

use std::path::PathBuf;
use std::sync::Arc;

use clap::{Parser, Subcommand};

use crate::clock::SystemClock;
use crate::config::Settings;
use crate::db;
use crate::export_cli;
use crate::rules_cli;
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
    /// Copy the SQLite database to FILE while the server runs (a new file, never over an
    /// existing one); on PostgreSQL, print the pg_dump recipe instead.
    Backup(crate::backup_cli::BackupArgs),
    /// Count the leaf nodes of the legal-move tree of a position (perft);
    /// the count is alone on the last line.
    Perft(rules_cli::PerftArgs),
    /// Print the legal moves of a position in UCI, one per line, sorted.
    Moves(rules_cli::MovesArgs),
    /// Replay the games of a PGN file; print one JSON object per game and line.
    Replay(rules_cli::ReplayArgs),
    /// Import the finished games of a PGN file into the game database (public, unrated);
    /// print how many were imported and why each other game was skipped.
    Import(crate::import_cli::ImportArgs),
    /// Send one test mail now through the configured transport ([mail] settings) and report
    /// success or the error.
    SendTestEmail {
        /// Where to send it.
        address: String,
    },
    /// Write the PGN of every game a search finds (the search page's filters; all games
    /// without any) to standard output, newest first, with a progress bar on a terminal.
    Export(Box<export_cli::ExportArgs>),
}

/// Runs the command line; returns the process exit code.
pub fn run() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let command = cli.command.unwrap_or(Command::Serve);
    // The rules commands are pure: they need no settings and no database,
    // and exit with code 2 on bad input.
    match &command {
        Command::Perft(args) => return rules_cli::run_or_exit(|| rules_cli::perft(args)),
        Command::Moves(args) => return rules_cli::run_or_exit(|| rules_cli::moves(args)),
        Command::Replay(args) => return rules_cli::run_or_exit(|| rules_cli::replay(args)),
        Command::Serve
        | Command::Migrate
        | Command::Backup(_)
        | Command::SendTestEmail { .. }
        | Command::Export(_)
        | Command::Import(_) => {}
    }
    let settings = Settings::load(&cli.config_dir)?;
    crate::logging::set_format(settings.log.format);
    match command {
        Command::Perft(_) | Command::Moves(_) | Command::Replay(_) => Ok(()),
        Command::Serve => serve(settings),
        Command::Migrate => {
            let pool = db::connect(&settings.database)?;
            let applied = db::migrate(&mut *pool.get()?)?;
            println!("{applied} migrations applied");
            Ok(())
        }
        Command::Backup(args) => crate::backup_cli::run(&settings, &args),
        Command::SendTestEmail { address } => send_test_email(&settings, &address),
        Command::Export(args) => export_cli::export(&settings, &args),
        Command::Import(args) => crate::import_cli::run(&settings, &args),
    }
}

fn send_test_email(settings: &Settings, address: &str) -> anyhow::Result<()> {
    let now = crate::clock::Clock::now(&SystemClock);
    match crate::mail::send_test_email(settings, address, now) {
        Ok(via) => {
            println!("Test mail to {address} sent through {via}.");
            Ok(())
        }
        Err(e) => Err(anyhow::anyhow!(
            "the test mail to {address} was not sent: {e:#}"
        )),
    }
}

fn serve(settings: Settings) -> anyhow::Result<()> {
    actix_web::rt::System::new().block_on(async move {
        let host = settings
            .server
            .bind
            .rsplit_once(':')
            .map_or("", |(h, _)| h)
            .to_string();
        let app = Application::build(
            settings,
            Arc::new(SystemClock),
            Arc::new(crate::random::SystemRandom),
        )?;
        // The port actually bound (the configured one, or the system's choice for port 0).
        println!("Slowfuse is serving on http://{host}:{}", app.port());
        app.run_until_stopped().await?;
        Ok(())
    })
}
