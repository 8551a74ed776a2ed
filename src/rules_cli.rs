//! The rules commands of the `slowfuse` binary (`perft`, `moves`, `replay`): pure, no settings or database.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;
use slowfuse_rules::bughouse::{BughouseEndReason, BughouseGame, Team, looks_like_bpgn, read_bpgn};
use slowfuse_rules::{
    Color, EndReason, Game, PerftOptions, PgnGames, PgnReadOptions, Variant, legal_moves_from_fen,
    perft_divide_from_fen, perft_from_fen_with_progress,
};

/// Exit code for bad input (unknown variant, malformed FEN, unreadable file),
/// as clap uses for bad arguments.
pub const EXIT_BAD_INPUT: i32 = 2;

/// `slowfuse perft`: count the leaf nodes of the legal-move tree.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Variant, as in PGN Variant tags (case-insensitive): standard, chess960,
    /// atomic, antichess, crazyhouse, kingofthehill, threecheck, horde, racingkings.
    #[arg(long, default_value = "standard", value_parser = parse_variant)]
    pub variant: Variant,
    /// The position (FEN or its first four fields); the variant's start position when omitted.
    #[arg(long)]
    pub fen: Option<String>,
    /// How many plies deep to count.
    #[arg(long)]
    pub depth: u32,
    /// Also print each legal move with the count below it, before the total.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads for deep counts (depth 5 and more); one per core when omitted.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Size in MiB of the table of subtree counts for deep counts; 0 for none.
    #[arg(long, default_value_t = 256)]
    pub hash: usize,
}

/// `slowfuse moves`: the legal moves of a position.
#[derive(Args, Debug)]
pub struct MovesArgs {
    /// Variant, as for `perft`.
    #[arg(long, default_value = "standard", value_parser = parse_variant)]
    pub variant: Variant,
    /// The position (FEN); the variant's start position when omitted.
    #[arg(long)]
    pub fen: Option<String>,
}

/// `slowfuse replay`: replay the games of a PGN or BPGN (bughouse) file.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The PGN file, or a BPGN file of bughouse matches (recognised by a
    /// Variant "Bughouse" tag, WhiteA/BlackA/WhiteB/BlackB tags or move
    /// numbers with a board letter such as 1A. and 1a.).
    pub file: PathBuf,
    /// Variant of games without a Variant tag (otherwise read from a word of
    /// their Event tag, e.g. FICS "rated crazyhouse match", or standard).
    #[arg(long, alias = "variant", value_parser = parse_variant)]
    pub default_variant: Option<Variant>,
}

fn parse_variant(name: &str) -> Result<Variant, String> {
    name.parse().map_err(|e: slowfuse_rules::UnknownVariant| {
        let known: Vec<&str> = Variant::ALL.iter().map(|v| v.as_str()).collect();
        format!("{e}; known variants: {}", known.join(", "))
    })
}

/// A rules command failed on its input; the message is for stderr.
#[derive(Debug, thiserror::Error)]
pub enum RulesCliError {
    /// The FEN was refused.
    #[error("bad FEN: {0}")]
    Fen(#[from] slowfuse_rules::SetupError),
    /// The PGN file could not be read.
    #[error("cannot read {path}: {error}")]
    Read {
        /// The file as given.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// Writing the output failed (e.g. a closed pipe).
    #[error("cannot write the output: {0}")]
    Write(#[from] io::Error),
}

/// Runs `command`; when it fails, prints the error to stderr and exits the
/// process with [`EXIT_BAD_INPUT`] (so it returns only on success).
pub fn run_or_exit(command: impl FnOnce() -> Result<(), RulesCliError>) -> anyhow::Result<()> {
    if let Err(error) = command() {
        eprintln!("error: {error}");
        std::process::exit(EXIT_BAD_INPUT);
    }
    Ok(())
}

fn fen_or_start(variant: Variant, fen: Option<&str>) -> String {
    fen.map_or_else(|| Game::new(variant).fen(), str::to_owned)
}

/// Prints the perft count alone on the last line (after the divided counts
/// with `--divide`).
///
/// # Errors
///
/// A refused FEN or a failed write.
pub fn perft(args: &PerftArgs) -> Result<(), RulesCliError> {
    let fen = fen_or_start(args.variant, args.fen.as_deref());
    let mut out = BufWriter::new(io::stdout().lock());
    let total = if args.divide {
        let divided = perft_divide_from_fen(args.variant, &fen, args.depth)?;
        for (uci, count) in &divided {
            writeln!(out, "{uci}: {count}")?;
        }
        if args.depth == 0 {
            1
        } else {
            divided.iter().map(|(_, count)| count).sum()
        }
    } else {
        let defaults = PerftOptions::default();
        let options = PerftOptions {
            threads: args.threads.unwrap_or(defaults.threads),
            hash_bytes: args.hash.saturating_mul(1 << 20),
        };
        // A long count shows how far it is on a terminal; stdout keeps the count alone.
        let show = std::io::stderr().is_terminal();
        let progress = |done: usize, total: usize| {
            if show {
                eprint!("\r{done}/{total} first moves counted");
                if done == total {
                    eprint!("\r{}\r", " ".repeat(40));
                }
            }
        };
        perft_from_fen_with_progress(args.variant, &fen, args.depth, options, &progress)?
    };
    writeln!(out, "{total}")?;
    out.flush()?;
    Ok(())
}

/// Prints the legal moves in UCI, one per line, sorted.
///
/// # Errors
///
/// A refused FEN or a failed write.
pub fn moves(args: &MovesArgs) -> Result<(), RulesCliError> {
    let fen = fen_or_start(args.variant, args.fen.as_deref());
    let moves = legal_moves_from_fen(args.variant, &fen)?;
    let mut out = BufWriter::new(io::stdout().lock());
    for uci in moves {
        writeln!(out, "{uci}")?;
    }
    out.flush()?;
    Ok(())
}

/// One line of `slowfuse replay` output.
#[derive(Serialize)]
struct ReplayLine {
    game: usize,
    plies: u32,
    end: &'static str,
    winner: &'static str,
    fen: String,
    error: Option<String>,
}

/// What a replay reached: plies, `(end, winner)` and the final FEN.
type Reached = (u32, (&'static str, &'static str), String);

impl ReplayLine {
    /// The line of game `game`: the position `reached` (none when not even the start could be
    /// set up) and the error that stopped the replay, if any.
    fn new(game: usize, reached: Option<Reached>, error: Option<String>) -> ReplayLine {
        let (plies, (end, winner), fen) =
            reached.unwrap_or_else(|| (0, ("ongoing", "none"), String::new()));
        ReplayLine {
            game,
            plies,
            end,
            winner,
            fen,
            error,
        }
    }
}

/// What the final position of a replayed game says, as `replay` reports it.
///
/// An ending the position forced comes first (explosion, checkmate,
/// stalemate, variant win or draw, and fivefold repetition or the 75-move
/// rule as `repetition` / `fifty_moves`); then a draw the player to move
/// could claim: `insufficient` for a dead position, then `repetition`,
/// then `fifty_moves`; otherwise `ongoing`.
fn ending(game: &Game) -> (&'static str, &'static str) {
    let winner = |outcome: Option<slowfuse_rules::Outcome>| match outcome.and_then(|o| o.winner) {
        Some(Color::White) => "white",
        Some(Color::Black) => "black",
        None => "none",
    };
    if let Some(outcome) = game.outcome() {
        let end = match outcome.reason {
            EndReason::Explosion => "explosion",
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::VariantWin => "variant_win",
            EndReason::VariantDraw => "variant_draw",
            EndReason::FivefoldRepetition | EndReason::Repetition => "repetition",
            EndReason::SeventyFiveMoves | EndReason::FiftyMoves => "fifty_moves",
            EndReason::DeadPosition => "insufficient",
            EndReason::Agreement | EndReason::Resignation | EndReason::Time => "ongoing",
        };
        return (end, winner(Some(outcome)));
    }
    let end = if game.is_dead_position() {
        "insufficient"
    } else {
        match game.can_claim_draw() {
            Some(EndReason::Repetition) => "repetition",
            Some(EndReason::FiftyMoves) => "fifty_moves",
            _ => "ongoing",
        }
    };
    (end, "none")
}

/// Prints one JSON object per game and line; a broken record gets its
/// error and the position reached before the bad move, and reading goes
/// on. Games are numbered from 1, in file order.
///
/// # Errors
///
/// An unreadable file or a failed write; broken games are not errors here.
pub fn replay(args: &ReplayArgs) -> Result<(), RulesCliError> {
    let bytes = std::fs::read(&args.file).map_err(|error| RulesCliError::Read {
        path: args.file.clone(),
        error,
    })?;
    if looks_like_bpgn(&bytes) {
        return replay_bpgn(&bytes);
    }
    let options = PgnReadOptions {
        default_variant: args.default_variant,
    };
    let summary = |game: &Game| (game.ply(), ending(game), game.fen());
    write_lines(PgnGames::new(&bytes, options).map(|read| match read {
        Ok(read) => ReplayLine::new(read.index, Some(summary(&read.game)), None),
        Err(error) => ReplayLine::new(
            error.game,
            error.played.as_deref().map(summary),
            Some(error.detail()),
        ),
    }))
}

/// Writes the lines of `replay`, one JSON object each.
fn write_lines(lines: impl Iterator<Item = ReplayLine>) -> Result<(), RulesCliError> {
    let mut out = BufWriter::new(io::stdout().lock());
    for line in lines {
        serde_json::to_writer(&mut out, &line).map_err(io::Error::other)?;
        writeln!(out)?;
    }
    out.flush()?;
    Ok(())
}

/// What the final positions of a replayed bughouse match say, as `replay`
/// reports it: `checkmate`, `stalemate` (also when the players to move on
/// both boards wait on each other, a draw) or `ongoing`; the winner is
/// `white` for team A (A1, White on board A, and A2) and `black` for team B,
/// as BPGN results count.
fn bughouse_ending(game: &BughouseGame) -> (&'static str, &'static str) {
    let Some(outcome) = game.outcome() else {
        return ("ongoing", "none");
    };
    let end = match outcome.reason {
        BughouseEndReason::Checkmate => "checkmate",
        BughouseEndReason::Stalemate | BughouseEndReason::Deadlock => "stalemate",
        BughouseEndReason::Resignation | BughouseEndReason::Time | BughouseEndReason::Agreement => {
            "ongoing"
        }
    };
    let winner = match outcome.winner {
        Some(Team::A) => "white",
        Some(Team::B) => "black",
        None => "none",
    };
    (end, winner)
}

/// `replay` for BPGN: one JSON line per match; `plies` counts the moves of
/// both boards, `fen` is board A's FEN, `" | "`, board B's.
fn replay_bpgn(bytes: &[u8]) -> Result<(), RulesCliError> {
    let summary = |game: &BughouseGame| (game.ply(), bughouse_ending(game), game.fens());
    write_lines(read_bpgn(bytes).into_iter().map(|read| match read {
        Ok(read) => ReplayLine::new(read.index, Some(summary(&read.game)), None),
        Err(error) => ReplayLine::new(
            error.game,
            error.played.as_deref().map(summary),
            Some(error.detail()),
        ),
    }))
}
