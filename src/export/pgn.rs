//! A game's PGN as anyone may read it, alone or many games in one file.

use diesel::QueryResult;
use slowfuse_rules::bughouse::{BpgnHeaders, Seat as BughouseSeat, write_bpgn};
use slowfuse_rules::minesweeper::MinesweeperGame;
use slowfuse_rules::{BughouseGame, Color, EndReason, Game, PgnHeaders, write_pgn};

use crate::db::DbConnection;
use crate::game::{GameRecord, RulesError, RulesGame, from_bughouse, load_game, rules_game};
use crate::openings::classify;
use crate::usecases::messages::readable_conversation;

/// The PGN of a game as anyone may read it: the moves, and of the conversation only what an
/// anonymous reader may see (`messages::may_read`): comments of public games, kibitz once the
/// game is over, never a note, nothing written in a private game. `game` is the record's game
/// as the rules see it: a bughouse match is written as BPGN, a minesweeper game without a
/// bomb or count until it ends.
pub fn pgn_of(record: &GameRecord, game: &RulesGame, public_url: &str) -> String {
    match game {
        RulesGame::Chess(game) => write_pgn(
            &headers(record, public_url, game),
            game,
            &public_comments(record),
        ),
        RulesGame::Bughouse(game) => bpgn_of(record, game, public_url),
        RulesGame::Minesweeper(game) => minesweeper_pgn(record, game, public_url),
    }
}

/// The PGN of the games `ids` in one file, in that order, each followed by a blank line. A game
/// that is gone is skipped; one that does not replay is left out (and logged), so one damaged
/// game does not spoil the file.
pub fn pgn_of_games(conn: &mut DbConnection, ids: &[i64], public_url: &str) -> QueryResult<String> {
    let mut out = String::new();
    for &id in ids {
        let Some(record) = load_game(conn, id)? else {
            continue;
        };
        match rules_game(conn, &record) {
            Ok(game) => {
                out.push_str(pgn_of(&record, &game, public_url).trim_end());
                out.push_str("\n\n");
            }
            Err(RulesError::Db(e)) => return Err(e),
            Err(RulesError::Corrupt(e)) => {
                log::error!("game {id} left out of a PGN download: {e}");
            }
        }
    }
    Ok(out)
}

/// The comment after each move: what an anonymous reader may read of the conversation, each
/// entry after the last move made before it was written, several joined by ` | `.
fn public_comments(record: &GameRecord) -> Vec<Option<String>> {
    let mut comments: Vec<Option<String>> = vec![None; record.moves.len()];
    for entry in readable_conversation(record, None) {
        let index = (entry.ply.max(1) - 1) as usize;
        if let Some(slot) = comments.get_mut(index) {
            let text = entry.line();
            *slot = Some(match slot.take() {
                Some(prev) => format!("{prev} | {text}"),
                None => text,
            });
        }
    }
    comments
}

/// A bughouse match as BPGN: the four players by seat, both boards' moves in the order played
/// with their board letters, the result from team A's side; the public comments as in a PGN.
/// Team chat is never in it.
fn bpgn_of(record: &GameRecord, game: &BughouseGame, public_url: &str) -> String {
    let name = |seat: BughouseSeat| record.name_of(from_bughouse(seat)).to_string();
    let termination = if record.status == crate::game::GameStatus::Finished {
        game.outcome().map(|o| o.describe())
    } else {
        None
    };
    let headers = BpgnHeaders {
        event: format!("Slowfuse correspondence bughouse {}", record.game.id),
        site: format!(
            "{}/games/{}",
            public_url.trim_end_matches('/'),
            record.game.id
        ),
        date: record.game.created_at.format("%Y.%m.%d").to_string(),
        white_a: name(BughouseSeat::A1),
        black_a: name(BughouseSeat::B1),
        white_b: name(BughouseSeat::B2),
        black_b: name(BughouseSeat::A2),
        termination,
        extra: Vec::new(),
    };
    write_bpgn(&headers, game, &public_comments(record))
}

/// A minesweeper game's PGN: during the game as anyone may see it (the blasts, no bomb and no
/// count), after the end with every bomb and count revealed.
fn minesweeper_pgn(record: &GameRecord, game: &MinesweeperGame, public_url: &str) -> String {
    let mut tags = headers_without_opening(record, public_url);
    tags.termination = game
        .outcome()
        .map(|o| o.reason.describe_in(&record.game.variant).to_string());
    let comments = public_comments(record);
    match game.full_record() {
        Ok(full) if !record.status.is_running() => full.pgn(&tags, &comments),
        _ => game.public_view().pgn(&tags, &comments),
    }
}

/// The tag pairs: event and site name the game on this server, the date is the day it began;
/// an imported game keeps the tags it came with.
fn headers(record: &GameRecord, public_url: &str, game: &Game) -> PgnHeaders {
    if let Some(imported) = &record.imported {
        return imported_headers(record, imported, game);
    }
    PgnHeaders {
        // Standard chess: the opening by the CC0 names, as other programs tag it.
        extra: classify(game)
            .map(|o| {
                vec![
                    ("ECO".to_string(), o.eco.to_string()),
                    ("Opening".to_string(), o.name.to_string()),
                ]
            })
            .unwrap_or_default(),
        ..headers_without_opening(record, public_url)
    }
}

/// The tag pairs but the opening's.
fn headers_without_opening(record: &GameRecord, public_url: &str) -> PgnHeaders {
    let termination = record
        .game
        .termination
        .as_deref()
        .and_then(|t| t.parse::<EndReason>().ok())
        .map(|r| r.describe_in(&record.game.variant).to_string());
    PgnHeaders {
        event: format!("Slowfuse correspondence game {}", record.game.id),
        site: format!(
            "{}/games/{}",
            public_url.trim_end_matches('/'),
            record.game.id
        ),
        date: record.game.created_at.format("%Y.%m.%d").to_string(),
        white: record
            .name_of(crate::game::Seat::first_board(Color::White))
            .to_string(),
        black: record
            .name_of(crate::game::Seat::first_board(Color::Black))
            .to_string(),
        termination,
        extra: Vec::new(),
    }
}

/// Tags the writer makes itself (the roster, the variant and start, the ending): an imported
/// game's own values of these are not written again.
const WRITTEN_TAGS: [&str; 11] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "Variant",
    "SetUp",
    "FEN",
    "Termination",
];

/// An imported game's tags as its PGN gave them: Event, Site, Date, the players' names and
/// Termination kept, every other tag after them (`ECO` and `Opening` ours when we name the
/// opening). `Round` is written as `-`, the result and the start from the rules' game.
fn imported_headers(
    record: &GameRecord,
    imported: &crate::game::ImportedPlayers,
    game: &Game,
) -> PgnHeaders {
    let tag = |name: &str| imported.tag(name).unwrap_or("?").to_string();
    let mut extra: Vec<(String, String)> = classify(game)
        .map(|o| {
            vec![
                ("ECO".to_string(), o.eco.to_string()),
                ("Opening".to_string(), o.name.to_string()),
            ]
        })
        .unwrap_or_default();
    let ours: Vec<String> = extra.iter().map(|(n, _)| n.clone()).collect();
    extra.extend(
        imported
            .tags
            .iter()
            .filter(|(n, _)| !WRITTEN_TAGS.contains(&n.as_str()) && !ours.contains(n))
            .cloned(),
    );
    let termination = imported.tag("Termination").map(str::to_string).or_else(|| {
        record
            .game
            .termination
            .as_deref()
            .and_then(|t| t.parse::<EndReason>().ok())
            .map(|r| r.describe_in(&record.game.variant).to_string())
    });
    PgnHeaders {
        event: tag("Event"),
        site: tag("Site"),
        date: imported.tag("Date").unwrap_or("????.??.??").to_string(),
        white: imported.white.clone(),
        black: imported.black.clone(),
        termination,
        extra,
    }
}
