//! `slowfuse export`: the PGN of every game a search finds, written to standard output as it is
//! read from the database (constant memory), with a progress bar on a terminal.

use std::io::{self, BufWriter, IsTerminal, Write};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::config::Settings;
use crate::db;
use crate::export::bulk::{count_search, stream_search_pgn};
use crate::usecases::search::SearchParams;

/// `slowfuse export`: the search's filters, each as on the search page (empty: any).
#[derive(Args, Debug, Default)]
pub struct ExportArgs {
    /// A player's username: their games.
    #[arg(long, default_value = "")]
    pub player: String,
    /// A second player, on the other side of the board.
    #[arg(long, default_value = "")]
    pub opponent: String,
    /// The colour `--player` had: white or black.
    #[arg(long, default_value = "")]
    pub color: String,
    /// The variant (standard, atomic, crazyhouse, bughouse, minesweeper, …).
    #[arg(long, default_value = "")]
    pub variant: String,
    /// 1-0, 0-1, draw or * (no result).
    #[arg(long, default_value = "")]
    pub result: String,
    /// started, finished or aborted.
    #[arg(long, default_value = "")]
    pub status: String,
    /// yes, no or any.
    #[arg(long, default_value = "")]
    pub rated: String,
    /// A position (FEN): the finished games that passed through it in their opening.
    #[arg(long, default_value = "")]
    pub position: String,
    /// Games begun on or after this day (YYYY-MM-DD, UTC).
    #[arg(long, default_value = "")]
    pub started_from: String,
    /// Games begun on or before this day.
    #[arg(long, default_value = "")]
    pub started_to: String,
    /// Games finished on or after this day.
    #[arg(long, default_value = "")]
    pub finished_from: String,
    /// Games finished on or before this day.
    #[arg(long, default_value = "")]
    pub finished_to: String,
}

impl ExportArgs {
    fn params(&self) -> SearchParams {
        SearchParams {
            player: self.player.clone(),
            opponent: self.opponent.clone(),
            color: self.color.clone(),
            variant: self.variant.clone(),
            result: self.result.clone(),
            status: self.status.clone(),
            rated: self.rated.clone(),
            position: self.position.clone(),
            started_from: self.started_from.clone(),
            started_to: self.started_to.clone(),
            finished_from: self.finished_from.clone(),
            finished_to: self.finished_to.clone(),
            ..SearchParams::default()
        }
    }
}

/// Writes the PGN of the games the filters find (as a visitor finds them), newest first, to
/// standard output; the progress bar goes to standard error when that is a terminal.
pub fn export(settings: &Settings, args: &ExportArgs) -> anyhow::Result<()> {
    let search = args
        .params()
        .check(false)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let pool = db::connect(&settings.database)?;
    let total = count_search(&pool, None, &search)?;
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if io::stderr().is_terminal() {
        bar.set_style(ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games ({per_sec}, {eta} left)",
        )?);
    } else {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let mut out = BufWriter::new(io::stdout().lock());
    let mut failed = None;
    let written = stream_search_pgn(
        &pool,
        None,
        &search,
        &settings.server.public_url,
        |text, games| match out.write_all(text.as_bytes()) {
            Ok(()) => {
                bar.inc(games);
                true
            }
            Err(e) => {
                failed = Some(e);
                false
            }
        },
    )?;
    if let Some(e) = failed {
        return Err(anyhow::anyhow!("writing the PGN failed: {e}"));
    }
    out.flush()?;
    bar.finish_and_clear();
    eprintln!("{written} games exported");
    Ok(())
}
