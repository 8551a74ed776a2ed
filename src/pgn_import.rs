//! A PGN game read into what an import stores (`ImportRecord`), checked whole by the rules
//! before anything is written, or the reason it is skipped. Pure: no database, no clock.

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use sha2::{Digest, Sha256};
use slowfuse_rules::{Color, EndReason, Game, Outcome, PgnError, PgnGame, PgnGames};

/// The longest player name kept; longer names are cut.
pub const MAX_NAME_CHARS: usize = 100;

/// A finished game of a PGN file, replayed by the rules from its start to its last move.
#[derive(Clone, Debug)]
pub struct ImportRecord {
    /// 1-based number of the game in the file.
    pub index: usize,
    /// The game as the rules see it, with its ending (the rules' own, or the one the result
    /// tells: see [`ending`]).
    pub game: Game,
    /// How it ended (also the game's outcome).
    pub outcome: Outcome,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// The players' names as the PGN gives them (`?` when it gives none).
    pub white: String,
    pub black: String,
    /// Every tag pair as read, in order.
    pub tags: Vec<(String, String)>,
    /// When the game was played, from `UTCDate`/`UTCTime` or `Date` (when complete).
    pub played_at: Option<NaiveDateTime>,
    /// A key unique to this game: see [`import_key`].
    pub key: String,
}

/// Why a game of the file is not imported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SkipReason {
    /// The game cannot be read as PGN (broken tags or movetext, a bad FEN tag).
    #[error("malformed PGN: {0}")]
    Malformed(String),
    /// The `Variant` tag names a variant the rules do not play as one board.
    #[error("unknown variant \"{0}\"")]
    UnknownVariant(String),
    /// A move the rules refuse.
    #[error("illegal move at ply {ply} ({san}): {problem}")]
    IllegalMove {
        ply: u32,
        san: String,
        problem: String,
    },
    /// No result (`*`, or none at all).
    #[error("unfinished (no result)")]
    Unfinished,
    /// The result disagrees with the final position (a mate given by White in a game "won" by
    /// Black).
    #[error("the result {given} contradicts the final position ({found})")]
    WrongResult { given: String, found: String },
    /// The same game was imported before (or earlier in the same file).
    #[error("already imported")]
    Duplicate,
}

/// One game left out, by its number in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub index: usize,
    pub reason: SkipReason,
}

/// Reads the games of a PGN file one by one: each is an [`ImportRecord`] or a [`Skipped`].
pub fn read_games(bytes: &[u8]) -> impl Iterator<Item = Result<ImportRecord, Skipped>> + '_ {
    PgnGames::new(bytes, Default::default()).map(|read| match read {
        Ok(read) => {
            let index = read.index;
            import_record(read).map_err(|reason| Skipped { index, reason })
        }
        Err(error) => Err(Skipped {
            index: error.game,
            reason: skip_reason(&error),
        }),
    })
}

/// About how many games a PGN file holds (tag sections that begin after movetext), for a
/// progress bar; never less than 1 for a file with any text.
pub fn estimate_games(bytes: &[u8]) -> usize {
    let mut games = 0;
    let mut in_tags = false;
    for line in bytes.split(|&b| b == b'\n') {
        let line = line.trim_ascii();
        if line.is_empty() {
            continue;
        }
        let tag = line.starts_with(b"[");
        if tag && !in_tags {
            games += 1;
        }
        in_tags = tag;
    }
    games.max(usize::from(!bytes.trim_ascii().is_empty()))
}

/// Why the rules' reader refused a game.
fn skip_reason(error: &PgnError) -> SkipReason {
    if let (Some(ply), Some(san)) = (error.ply, &error.text) {
        return SkipReason::IllegalMove {
            ply,
            san: san.clone(),
            problem: error.problem.clone(),
        };
    }
    if error.problem.ends_with("in the Variant tag") {
        let name = error
            .tags
            .iter()
            .find(|(n, _)| n == "Variant")
            .map_or_else(String::new, |(_, v)| v.clone());
        return SkipReason::UnknownVariant(name);
    }
    SkipReason::Malformed(error.problem.clone())
}

/// Checks one replayed game: finished, its result agreeing with the final position.
pub fn import_record(read: PgnGame) -> Result<ImportRecord, SkipReason> {
    let result = [read.result_tag.as_deref(), read.movetext_result.as_deref()]
        .into_iter()
        .flatten()
        .find_map(decided)
        .ok_or(SkipReason::Unfinished)?;
    let termination = read.tag("Termination").unwrap_or("");
    let outcome = ending(&read.game, result, termination)?;
    let name = |tag: &str| {
        let name: String = read
            .tag(tag)
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .unwrap_or("?")
            .chars()
            .filter(|c| !c.is_control())
            .take(MAX_NAME_CHARS)
            .collect();
        name
    };
    let played_at = played_at(&read);
    let (white, black) = (name("White"), name("Black"));
    let game = read.game.with_outcome(outcome);
    Ok(ImportRecord {
        index: read.index,
        key: import_key(&game, &read.tags),
        white,
        black,
        result,
        outcome,
        game,
        tags: read.tags,
        played_at,
    })
}

/// A decided result as written in PGN.
fn decided(result: &str) -> Option<&'static str> {
    match result.trim() {
        "1-0" => Some("1-0"),
        "0-1" => Some("0-1"),
        "1/2-1/2" => Some("1/2-1/2"),
        _ => None,
    }
}

/// How the game ended: the rules' ending when the final position decides it (it must agree
/// with `result`); otherwise an ending off the board: time when the `Termination` tag speaks of
/// time, else resignation for a win and agreement for a draw.
pub fn ending(game: &Game, result: &str, termination: &str) -> Result<Outcome, SkipReason> {
    if let Some(outcome) = game.outcome() {
        return if outcome.result() == result {
            Ok(outcome)
        } else {
            Err(SkipReason::WrongResult {
                given: result.to_string(),
                found: format!("{}, {}", outcome.reason.describe(), outcome.result()),
            })
        };
    }
    let winner = match result {
        "1-0" => Some(Color::White),
        "0-1" => Some(Color::Black),
        _ => None,
    };
    let reason = if termination.to_ascii_lowercase().contains("time") {
        EndReason::Time
    } else if winner.is_some() {
        EndReason::Resignation
    } else {
        EndReason::Agreement
    };
    Ok(Outcome { winner, reason })
}

/// When the game was played: `UTCDate` (with `UTCTime`) or `Date`, when the date is complete.
fn played_at(read: &PgnGame) -> Option<NaiveDateTime> {
    let date = ["UTCDate", "Date"]
        .into_iter()
        .filter_map(|t| read.tag(t))
        .find_map(|d| NaiveDate::parse_from_str(d.trim(), "%Y.%m.%d").ok())?;
    let time = read
        .tag("UTCTime")
        .and_then(|t| NaiveTime::parse_from_str(t.trim(), "%H:%M:%S").ok())
        .unwrap_or(NaiveTime::MIN);
    Some(date.and_time(time))
}

/// The tags that, with the variant, start and moves, tell one game from another: the roster,
/// and the time of day and ratings (two bullet games of one evening may repeat every move).
const KEY_TAGS: [&str; 11] = [
    "Event", "Site", "Date", "Round", "White", "Black", "Result", "Time", "UTCTime", "WhiteElo",
    "BlackElo",
];

/// A key unique to a game: the SHA-256 (hex) of its variant, start FEN, moves (UCI) and the
/// tags of [`KEY_TAGS`] as written. The same game imported twice has the same key; two games
/// with the same moves between other players, on another day or at another time, do not.
pub fn import_key(game: &Game, tags: &[(String, String)]) -> String {
    let mut hash = Sha256::new();
    hash.update(game.variant().as_str());
    hash.update("\n");
    hash.update(game.initial_fen());
    hash.update("\n");
    for played in game.moves() {
        hash.update(&played.uci);
        hash.update(" ");
    }
    for name in KEY_TAGS {
        let value = tags
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str());
        hash.update(format!("\n{name}={value}"));
    }
    hex::encode(hash.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(pgn: &str) -> Vec<Result<ImportRecord, Skipped>> {
        read_games(pgn.as_bytes()).collect()
    }

    #[test]
    fn finished_games_are_read_and_the_others_say_why() {
        let games = read(
            "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n[Date \"2024.02.03\"]\n\n\
             1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
             [Result \"0-1\"]\n\n1. e4 e5 2. Ke3 0-1\n\n\
             [Result \"*\"]\n\n1. d4 *\n\n\
             [Variant \"Starwars\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n\
             [Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n\
             [Result \"1/2-1/2\"]\n[Termination \"Time forfeit\"]\n\n1. e4 1/2-1/2\n",
        );
        assert_eq!(games.len(), 6);
        let first = games[0].as_ref().unwrap();
        assert_eq!((first.white.as_str(), first.black.as_str()), ("Ann", "Bob"));
        assert_eq!(first.game.outcome().unwrap().reason, EndReason::Checkmate);
        assert_eq!(first.played_at.unwrap().to_string(), "2024-02-03 00:00:00");
        let reason = |i: usize| games[i].as_ref().unwrap_err().reason.to_string();
        assert_eq!(
            reason(1),
            "illegal move at ply 3 (Ke3): Ke3 is not a legal move here"
        );
        assert_eq!(reason(2), "unfinished (no result)");
        assert_eq!(reason(3), "unknown variant \"Starwars\"");
        assert!(
            reason(4).starts_with("the result 1-0 contradicts"),
            "{}",
            reason(4)
        );
        let timed = games[5].as_ref().unwrap();
        assert_eq!(timed.game.outcome().unwrap().reason, EndReason::Time);
        assert_eq!(timed.white, "?");
    }

    #[test]
    fn the_key_tells_games_apart_and_the_same_game_again_not() {
        let pgn = "[White \"Ann\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n";
        let again = read(&format!("{pgn}{pgn}"));
        let key = |i: usize| again[i].as_ref().unwrap().key.clone();
        assert_eq!(key(0), key(1));
        let other = read("[White \"Cid\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n");
        assert_ne!(other[0].as_ref().unwrap().key, key(0));
        let later = read("[White \"Ann\"]\n[Time \"13:51:??\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n");
        assert_ne!(later[0].as_ref().unwrap().key, key(0));
    }

    #[test]
    fn games_are_counted_for_the_progress_bar() {
        assert_eq!(
            estimate_games(b"[A \"1\"]\n[B \"2\"]\n\n1. e4 *\n\n[A \"3\"]\n\n*\n"),
            2
        );
        assert_eq!(estimate_games(b"1. e4 *\n"), 1);
        assert_eq!(estimate_games(b"  \n"), 0);
    }
}
