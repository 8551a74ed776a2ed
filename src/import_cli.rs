//! The `import` command: reads a PGN file, imports its finished games through
//! `usecases::import` with a progress bar on a terminal, and prints the summary.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};

use crate::clock::{Clock, SystemClock};
use crate::config::Settings;
use crate::db;
use crate::pgn_import::estimate_games;
use crate::usecases::import::{ImportSummary, find_importer, import_pgn};

/// `slowfuse import FILE.pgn [--as-user NAME]`.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The PGN file to read (games of any variant the rules play; unfinished games are skipped).
    pub file: PathBuf,
    /// The account that imports the games: recorded as their importer, and seated in the games
    /// whose PGN names them as White or Black (any case). Must exist.
    #[arg(long = "as-user", value_name = "NAME")]
    pub as_user: Option<String>,
}

/// Runs the import; an unreadable file or an unknown account is an error (non-zero exit),
/// skipped games are not.
pub fn run(settings: &Settings, args: &ImportArgs) -> anyhow::Result<()> {
    let bytes = std::fs::read(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let pool = db::connect(&settings.database)?;
    let mut conn = pool.get()?;
    db::migrate(&mut conn)?;
    let importer = match &args.as_user {
        Some(name) => Some(find_importer(&mut conn, name)?),
        None => None,
    };
    let bar = progress_bar(estimate_games(&bytes));
    let now = SystemClock.now();
    let summary = import_pgn(&mut conn, now, &bytes, importer.as_ref(), &mut |read| {
        if bar.length().is_some_and(|len| len < read as u64) {
            bar.set_length(read as u64);
        }
        bar.set_position(read as u64);
    })?;
    bar.finish_and_clear();
    print!("{}", summary_text(&summary));
    Ok(())
}

/// A bar counting games on a terminal; hidden when stderr is not one.
fn progress_bar(games: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} games ({per_sec}, {eta} left)")
    {
        bar.set_style(style);
    }
    bar
}

/// `imported N, skipped M` and one line per skipped game: its number in the file and why.
pub fn summary_text(summary: &ImportSummary) -> String {
    let mut out = format!(
        "imported {}, skipped {}\n",
        summary.imported.len(),
        summary.skipped.len()
    );
    for skipped in &summary.skipped {
        out.push_str(&format!("game {}: {}\n", skipped.index, skipped.reason));
    }
    out
}
