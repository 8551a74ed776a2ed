//! The words of a picture's bands for a stored game: the players above each board, the result
//! and how the game ended below.

use slowfuse_rules::Color;
use slowfuse_rules::bughouse::Seat as BughouseSeat;

use crate::export::raster::Captions;
use crate::game::{GameRecord, GameStatus, RulesGame, Seat, from_bughouse};

/// The captions of `record`'s picture: `White v Black` per board (a bughouse match: each
/// board's two players) and the result with its reason (or that the game goes on).
pub fn captions(record: &GameRecord, game: &RulesGame) -> Captions {
    match game {
        RulesGame::Chess(_) => two_player_captions(record),
        RulesGame::Minesweeper(g) => one_board(
            record,
            g.outcome()
                .map(|o| o.reason.describe_in(&record.game.variant).to_string()),
        ),
        RulesGame::Bughouse(g) => {
            let result = result_line(record, g.outcome().map(|o| o.describe()));
            let name = |seat: BughouseSeat| record.name_of(from_bughouse(seat)).to_string();
            Captions {
                header: vec![
                    format!("{} v {}", name(BughouseSeat::A1), name(BughouseSeat::B1)),
                    format!("{} v {}", name(BughouseSeat::B2), name(BughouseSeat::A2)),
                ],
                footer: vec![result.clone(), result],
            }
        }
    }
}

/// The captions of a two-player game of chess or one of its variants (its ending as stored).
pub fn two_player_captions(record: &GameRecord) -> Captions {
    one_board(
        record,
        record
            .stored_outcome()
            .map(|o| o.reason.describe_in(&record.game.variant).to_string()),
    )
}

fn one_board(record: &GameRecord, reason: Option<String>) -> Captions {
    let name = |color: Color| record.name_of(Seat::first_board(color)).to_string();
    Captions {
        header: vec![format!("{} v {}", name(Color::White), name(Color::Black))],
        footer: vec![result_line(record, reason)],
    }
}

/// The result and why (`1-0 · Checkmate`), or where the game stands.
fn result_line(record: &GameRecord, reason: Option<String>) -> String {
    match record.status {
        GameStatus::Setup => "Bombs being placed".to_string(),
        GameStatus::Started => "Game in progress".to_string(),
        GameStatus::Aborted => "Aborted".to_string(),
        GameStatus::Finished => match reason {
            Some(reason) => format!("{} · {reason}", record.game.result),
            None => record.game.result.clone(),
        },
    }
}
