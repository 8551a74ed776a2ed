//! `slowfuse backup FILE`: an online copy of the SQLite database (`VACUUM INTO`, consistent
//! while the server runs), never over an existing file. On PostgreSQL it points to `pg_dump`.

use std::path::{Path, PathBuf};

use anyhow::Context;
use diesel::prelude::*;
use diesel::sql_types::BigInt;

use crate::config::Settings;
use crate::db;

/// `slowfuse backup`'s arguments.
#[derive(clap::Args, Debug)]
pub struct BackupArgs {
    /// The file to write: a complete SQLite database. It must not exist yet.
    pub file: PathBuf,
}

/// How to back up a PostgreSQL database: its own tools.
pub const PG_DUMP_RECIPE: &str = "\
PostgreSQL databases are backed up with PostgreSQL's own tools, while the server runs:
  pg_dump --format=custom --file=slowfuse.dump \"$DATABASE_URL\"
and restored into an empty database (the server stopped, or a new one) with:
  createdb slowfuse_restored
  pg_restore --no-owner --dbname=postgres://…/slowfuse_restored slowfuse.dump
See \"Backups\" in the README.";

/// Writes the backup and prints what it holds.
pub fn run(settings: &Settings, args: &BackupArgs) -> anyhow::Result<()> {
    let url = &settings.database.url;
    if db::is_postgres_url(url) {
        anyhow::bail!("slowfuse backup copies SQLite databases only.\n{PG_DUMP_RECIPE}");
    }
    let source = url.strip_prefix("sqlite://").unwrap_or(url);
    anyhow::ensure!(
        Path::new(source).exists(),
        "there is no database at {source} to back up (database.url is {url})"
    );
    let target = &args.file;
    anyhow::ensure!(
        !target.exists(),
        "{} exists already: a backup never overwrites a file; name a new one",
        target.display()
    );
    let copied = copy(source, settings.database.sqlite_busy_timeout_ms, target)?;
    println!(
        "Backed up {source} to {} ({} bytes: {} users, {} games, {} moves).",
        target.display(),
        copied.bytes,
        copied.users,
        copied.games,
        copied.moves
    );
    Ok(())
}

/// What a backup holds.
struct Copied {
    bytes: u64,
    users: i64,
    games: i64,
    moves: i64,
}

/// `VACUUM INTO` a file beside the target, then links it to the target's name, which fails
/// rather than replace a file that appeared meanwhile.
fn copy(source: &str, busy_timeout_ms: u32, target: &Path) -> anyhow::Result<Copied> {
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    anyhow::ensure!(
        dir.is_dir(),
        "the directory {} does not exist",
        dir.display()
    );
    let name = target.file_name().context("the backup needs a file name")?;
    let partial = dir.join(format!(
        ".{}.partial-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let partial_text = partial
        .to_str()
        .context("the backup's path is not valid UTF-8")?;
    let mut conn = SqliteConnection::establish(source)
        .with_context(|| format!("opening the database {source}"))?;
    diesel::sql_query(format!("PRAGMA busy_timeout = {busy_timeout_ms}")).execute(&mut conn)?;
    let result = diesel::sql_query(format!(
        "VACUUM INTO '{}'",
        partial_text.replace('\'', "''")
    ))
    .execute(&mut conn)
    .with_context(|| format!("copying {source}"))
    .and_then(|_| name_backup(&partial, target));
    let _ = std::fs::remove_file(&partial);
    result?;
    let target_text = target
        .to_str()
        .context("the backup's path is not valid UTF-8")?;
    let mut backup = SqliteConnection::establish(target_text)
        .context("opening the backup to count what it holds")?;
    Ok(Copied {
        bytes: std::fs::metadata(target)?.len(),
        users: count(&mut backup, "users")?,
        games: count(&mut backup, "games")?,
        moves: count(&mut backup, "moves")?,
    })
}

/// Gives the finished copy its name: a hard link, which never replaces a file; where the file
/// system has none, a rename after one more look.
fn name_backup(partial: &Path, target: &Path) -> anyhow::Result<()> {
    match std::fs::hard_link(partial, target) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(anyhow::anyhow!(
            "{} was made meanwhile: a backup never overwrites a file",
            target.display()
        )),
        Err(_) if !target.exists() => std::fs::rename(partial, target)
            .with_context(|| format!("naming the backup {}", target.display())),
        Err(e) => Err(e).with_context(|| format!("naming the backup {}", target.display())),
    }
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

fn count(conn: &mut SqliteConnection, table: &str) -> anyhow::Result<i64> {
    let row: Count = diesel::sql_query(format!("SELECT count(*) AS n FROM {table}"))
        .get_result(conn)
        .with_context(|| format!("counting the backup's {table}"))?;
    Ok(row.n)
}
