//! The API's bughouse parts (`docs/api.md`): four-seat challenges and taking a seat, the
//! match's JSON with both boards, moves and actions on one's own board, and the team chat,
//! shown to the two partners only.

use std::collections::BTreeMap;

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use chrono::NaiveDateTime;
use serde::Serialize;
use serde_json::{Value, json};
use slowfuse_rules::bughouse::{Board, Seat as BughouseSeat};
use slowfuse_rules::{BughouseGame, GameKind};

use crate::game::{GameRecord, Seat, color_name, from_bughouse, load_game_cached};
use crate::usecases::bughouse::{
    TeamChatLine, board_letter, board_number, match_game, parse_board, team_chat_for_player,
};
use crate::usecases::clocks::seconds_left;
use crate::usecases::seats::{SeatChoice, SeatedChallenge, SeatedChallengeRequest};
use crate::web::AppState;
use crate::web::board::pocket_letters;
use crate::web::errors::ApiError;

/// The seats as the API shows them: `{"A1":"alice","B1":null,…}` and the invited ones,
/// `{"B1":"bob"}` (a seat not yet taken is `null`, also when it is invited).
pub fn seats_json(seated: &SeatedChallenge) -> (Value, Value) {
    let mut seats = serde_json::Map::new();
    let mut invited = serde_json::Map::new();
    for view in &seated.seats {
        let name = view.seat.to_string();
        seats.insert(
            name.clone(),
            view.taken_by
                .as_ref()
                .map_or(Value::Null, |(_, n)| Value::from(n.as_str())),
        );
        if let Some((_, who)) = &view.invited {
            invited.insert(name, Value::from(who.as_str()));
        }
    }
    (Value::Object(seats), Value::Object(invited))
}

/// The answer to creating a four-seat challenge.
pub fn created_json(seated: &SeatedChallenge, url: &str) -> Value {
    let (seats, invited) = seats_json(seated);
    json!({
        "id": seated.challenge.id,
        "kind": seated.challenge.kind,
        "url": url,
        "seats": seats,
        "invited": invited,
    })
}

/// Reads the `invite` object of a bughouse challenge: seat name to player name.
pub fn invite_list(invite: Option<BTreeMap<String, String>>) -> Vec<(String, String)> {
    invite.unwrap_or_default().into_iter().collect()
}

/// What a bughouse challenge asks for, from the JSON body's fields.
pub fn seated_request(
    seat: Option<String>,
    time: crate::usecases::clocks::TimeControlRequest,
    invite: Option<BTreeMap<String, String>>,
    flags: (bool, bool, bool, bool),
) -> SeatedChallengeRequest {
    let (link_only, rated, auto_flag, private) = flags;
    SeatedChallengeRequest {
        seat: seat.unwrap_or_else(|| "any".to_string()),
        time,
        invite: invite_list(invite),
        link_only,
        rated,
        auto_flag,
        private,
    }
}

/// Takes a seat: 201 `{"seats","game_id"}` (`game_id` once the fourth seat is taken).
pub async fn take_seat(
    state: &AppState,
    user_id: i64,
    challenge_id: i64,
    seat: Option<String>,
    token: Option<String>,
) -> Result<HttpResponse, ApiError> {
    let now = state.now();
    let random = state.random.clone();
    let choice = SeatChoice::parse(seat.as_deref().unwrap_or("any"))?;
    let (seated, game_id) = state
        .db(move |c| {
            crate::usecases::seats::take_seat(
                c,
                now,
                &*random,
                challenge_id,
                user_id,
                choice,
                token.as_deref(),
            )
        })
        .await??;
    let (seats, _) = seats_json(&seated);
    Ok(HttpResponse::Created().json(json!({ "seats": seats, "game_id": game_id })))
}

/// One board of the match JSON.
#[derive(Serialize)]
struct BoardJson {
    fen: String,
    moves: Vec<String>,
    sans: Vec<String>,
    ply: i32,
    turn: &'static str,
    pockets: BTreeMap<&'static str, String>,
    deadline_at: Option<String>,
    clock: BTreeMap<&'static str, Option<i64>>,
    draw_offer: Option<&'static str>,
}

/// A move of the match, in the order played.
#[derive(Serialize)]
struct MatchMoveJson {
    board: &'static str,
    uci: String,
    san: String,
}

/// A line of the team chat.
#[derive(Serialize)]
struct TeamChatJson {
    author: String,
    text: String,
    written_at: String,
}

/// The match as the API shows it.
#[derive(Serialize)]
pub struct MatchJson {
    id: i64,
    variant: &'static str,
    status: &'static str,
    result: String,
    termination: Option<String>,
    seats: BTreeMap<String, Option<String>>,
    boards: BTreeMap<&'static str, BoardJson>,
    sitting: Vec<String>,
    moves: Vec<MatchMoveJson>,
    winning_team: Option<&'static str>,
    rated: bool,
    is_public: bool,
    time_control: Value,
    /// Only in the answers to the two partners of one team.
    #[serde(skip_serializing_if = "Option::is_none")]
    team_chat: Option<Vec<TeamChatJson>>,
}

fn rfc3339(t: NaiveDateTime) -> String {
    t.and_utc().to_rfc3339()
}

/// The match JSON for a reader: `team_chat` is their team's chat when they play in the match
/// (`None` for anyone else, and then the field is left out).
pub fn match_json(
    record: &GameRecord,
    game: &BughouseGame,
    now: NaiveDateTime,
    team_chat: Option<Vec<TeamChatLine>>,
) -> MatchJson {
    let g = &record.game;
    let mut seats = BTreeMap::new();
    for seat in BughouseSeat::ALL {
        seats.insert(
            seat.to_string(),
            record
                .player(from_bughouse(seat))
                .map(|p| p.username.clone()),
        );
    }
    let mut boards = BTreeMap::new();
    for board in Board::BOTH {
        let number = board_number(board);
        let stored = record.board(number);
        let on_board = || record.moves.iter().filter(move |m| m.board == number);
        let pockets = game.pockets(board);
        let clock_of = |color| {
            seconds_left(
                record,
                Seat {
                    board: number,
                    color,
                },
                now,
            )
        };
        boards.insert(
            board_letter(board),
            BoardJson {
                fen: game.fen(board),
                moves: on_board().map(|m| m.uci.clone()).collect(),
                sans: on_board().map(|m| m.san.clone()).collect(),
                ply: stored.map_or(0, |b| b.ply),
                turn: color_name(game.turn(board)),
                pockets: BTreeMap::from([
                    ("white", pocket_letters(&pockets.white)),
                    ("black", pocket_letters(&pockets.black)),
                ]),
                deadline_at: stored.and_then(|b| b.deadline_at).map(rfc3339),
                clock: BTreeMap::from([
                    ("white", clock_of(slowfuse_rules::Color::White)),
                    ("black", clock_of(slowfuse_rules::Color::Black)),
                ]),
                draw_offer: stored.and_then(|b| b.draw_offer).map(color_name),
            },
        );
    }
    let moves = game
        .moves()
        .iter()
        .map(|m| MatchMoveJson {
            board: board_letter(m.board),
            uci: m.uci.clone(),
            san: m.san.clone(),
        })
        .collect();
    let winning_team = match g.result.as_str() {
        "1-0" => Some("A"),
        "0-1" => Some("B"),
        _ => None,
    };
    MatchJson {
        id: g.id,
        variant: GameKind::Bughouse.as_str(),
        status: record.status.as_str(),
        result: g.result.clone(),
        termination: g.termination.clone(),
        seats,
        boards,
        sitting: if record.is_started() {
            game.sitting().iter().map(|s| s.to_string()).collect()
        } else {
            Vec::new()
        },
        moves,
        winning_team,
        rated: g.rated,
        is_public: g.is_public,
        time_control: super::time_control_json(g),
        team_chat: team_chat.map(|lines| {
            lines
                .into_iter()
                .map(|l| TeamChatJson {
                    author: l.author,
                    text: l.text,
                    written_at: rfc3339(l.written_at),
                })
                .collect()
        }),
    }
}

/// The match JSON of game `id` as `viewer` may see it: with their team's chat when they play.
pub async fn match_answer(
    state: &AppState,
    id: i64,
    viewer: Option<i64>,
) -> Result<HttpResponse, ApiError> {
    let records = state.records.clone();
    let (record, chat) = state
        .db(move |c| {
            crate::db::read_snapshot(c, |c| {
                let Some(record) = load_game_cached(c, &records, id)? else {
                    return Ok(None);
                };
                let chat = team_chat_for_player(c, &record, viewer)?;
                diesel::QueryResult::Ok(Some((record, chat)))
            })
        })
        .await??
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "game not found"))?;
    let game = match_game(&record).map_err(ApiError::internal)?;
    Ok(HttpResponse::Ok().json(match_json(&record, &game, state.now(), chat)))
}

/// Reads the `board` field of a request on a match: `a` or `b`.
pub fn board_field(board: Option<&str>) -> Result<Option<Board>, ApiError> {
    match board {
        None => Ok(None),
        Some(text) => parse_board(text).map(Some).ok_or_else(|| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "board must be \"a\" or \"b\"",
            )
        }),
    }
}
