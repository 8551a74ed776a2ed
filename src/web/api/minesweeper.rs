//! The API's minesweeper parts (`docs/api.md`): placing and reading one's own bombs, and the
//! fields the game JSON adds for a minesweeper game: made from the rules' views for the one
//! reader, so that no bomb and no count reaches anyone not entitled to it before the end.

use actix_web::http::StatusCode;
use actix_web::http::header::CACHE_CONTROL;
use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::json;
use slowfuse_rules::Color;
use slowfuse_rules::minesweeper::{Count, MinesweeperGame};

use super::ApiUser;
use crate::game::{GameRecord, GameStatus};
use crate::usecases::minesweeper;
use crate::web::AppState;
use crate::web::errors::ApiError;

/// The most squares a placement may list (more is refused by the rules as too many).
const MAX_SQUARES: usize = 64;

#[derive(Deserialize)]
pub struct BombsBody {
    squares: Vec<String>,
}

/// `PUT /api/v1/games/{id}/bombs` `{"squares":["a3",…]}` during the setup.
pub async fn put_bombs(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
    body: web::Json<BombsBody>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let squares = body.into_inner().squares;
    if squares.len() > MAX_SQUARES {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too many squares: you place at most 8 bombs",
        ));
    }
    let now = state.now();
    let placed = state
        .db(move |c| minesweeper::place_bombs(c, now, id, user.id, &squares))
        .await??;
    // Play may start now, the computer to move.
    state.wake_computer();
    Ok(HttpResponse::Ok()
        .insert_header((CACHE_CONTROL, "private, no-store"))
        .json(json!({ "squares": placed.squares, "complete": placed.complete })))
}

/// `GET /api/v1/games/{id}/bombs`: the caller's own bombs, when they may see them.
pub async fn get_bombs(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let squares = state
        .db(move |c| minesweeper::own_bombs(c, id, user.id))
        .await??;
    Ok(HttpResponse::Ok()
        .insert_header((CACHE_CONTROL, "private, no-store"))
        .json(json!({ "squares": squares })))
}

/// A count as the JSON shows it.
#[derive(Serialize)]
struct CountJson {
    ply: u32,
    square: String,
    count: u8,
}

impl From<&Count> for CountJson {
    fn from(c: &Count) -> Self {
        CountJson {
            ply: c.ply,
            square: c.square.to_string(),
            count: c.bombs,
        }
    }
}

/// A blast: the ply of the move that set it off and the square.
#[derive(Serialize)]
struct BlastJson {
    ply: u32,
    square: String,
}

/// Every bomb, after the end.
#[derive(Serialize)]
struct AllBombs {
    white: Vec<String>,
    black: Vec<String>,
    neutral: Vec<String>,
}

/// The fields a minesweeper game adds to the game JSON.
#[derive(Serialize)]
pub struct MinesweeperJson {
    phase: &'static str,
    setup_deadline_at: Option<String>,
    minesweeper: String,
    counts: Vec<CountJson>,
    blasts: Vec<BlastJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bombs: Option<AllBombs>,
}

/// The fields for `viewer`: during the game the counts they were told (none for anyone but a
/// player) and the public blasts; after the end every count and every bomb.
pub fn minesweeper_json(
    record: &GameRecord,
    game: &MinesweeperGame,
    viewer: Option<i64>,
) -> MinesweeperJson {
    let public = game.public_view();
    let blasts = public
        .spent_bombs()
        .into_iter()
        .map(|(square, _, ply)| BlastJson {
            ply,
            square: square.to_string(),
        })
        .collect();
    let phase = match record.status {
        GameStatus::Setup => "setup",
        GameStatus::Started => "play",
        GameStatus::Finished | GameStatus::Aborted => "over",
    };
    let over = !record.status.is_running();
    let full = game.full_record().ok().filter(|_| over);
    let counts = match (&full, viewer.and_then(|v| record.seat_of(v))) {
        (Some(full), _) => full.counts.iter().map(|(_, c)| c.into()).collect(),
        (None, Some(seat)) => game
            .player_view(seat.color)
            .counts
            .iter()
            .map(CountJson::from)
            .collect(),
        (None, None) => Vec::new(),
    };
    let bombs = full.map(|full| {
        let of = |owner: Option<Color>| {
            full.bombs
                .iter()
                .filter(|b| b.owner == owner)
                .map(|b| b.square.to_string())
                .collect()
        };
        AllBombs {
            white: of(Some(Color::White)),
            black: of(Some(Color::Black)),
            neutral: of(None),
        }
    });
    MinesweeperJson {
        phase,
        setup_deadline_at: (record.status == GameStatus::Setup)
            .then_some(record.game.deadline_at)
            .flatten()
            .map(|d| d.and_utc().to_rfc3339()),
        minesweeper: game.options().as_str(),
        counts,
        blasts,
        bombs,
    }
}
