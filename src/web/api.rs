//! JSON API v1 (documented in `docs/api.md`): accounts, tokens, challenges, games, queue.

use std::future::Future;
use std::pin::Pin;

use actix_web::http::{Method, StatusCode};
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::json;
use slowfuse_rules::GameKind;

use crate::db::DbConnection;
use crate::game::{GameRecord, color_name, load_game, read_game_cached};
use crate::usecases::accounts;
use crate::usecases::challenges::{self, ChallengeRequest};
use crate::usecases::clocks::TimeControlRequest;
use crate::usecases::conditional;
use crate::usecases::games::{FINISHED_LISTED, GameSummary, my_games, my_queue};
use crate::usecases::leave;
use crate::usecases::play::{self, Action, ActionRequest, PlayError};
use crate::web::AppState;
use crate::web::errors::ApiError;
use crate::web::game_page::standing::{PlayerClock, Standing};
use crate::web::route_table::Access::{Account, Player, Public};
use crate::web::route_table::Routes;

pub mod analysis;
mod bughouse;
mod computer;
mod engine_analysis;
mod messages;
mod minesweeper;
mod notifications;
mod openings;
mod positions;
mod preferences;
mod search;
mod users;

/// Registers the API routes.
pub fn routes(r: &mut Routes) {
    r.scope(
        "/api/v1",
        |scope| {
            scope
                .app_data(crate::web::limits::json_config())
                .app_data(web::QueryConfig::default().error_handler(|err, _| {
                    ApiError::new(StatusCode::BAD_REQUEST, format!("bad query string: {err}"))
                        .into()
                }))
                .app_data(
                    web::PathConfig::default().error_handler(|_, _| {
                        ApiError::new(StatusCode::NOT_FOUND, "not found").into()
                    }),
                )
                .default_service(web::to(|| async {
                    Err::<HttpResponse, ApiError>(ApiError::new(
                        StatusCode::NOT_FOUND,
                        "no such API route",
                    ))
                }))
        },
        |r| {
            r.post("/accounts", Public, create_account)
                .post("/tokens", Public, create_token)
                .get("/challenges", Account, list_challenges)
                .post("/challenges", Account, create_challenge)
                .post("/challenges/{id}/accept", Account, accept_challenge)
                .post("/challenges/{id}/cancel", Account, cancel_challenge)
                .post("/computer-games", Account, computer::create_computer_game)
                .get("/games/{id}", Public, get_game)
                .post("/games/{id}/moves", Player, post_move)
                .post("/games/{id}/actions", Player, post_action)
                .get("/games/{id}/tags", Account, search::get_tags)
                .put("/games/{id}/tags/{tag}", Account, search::put_tag)
                .delete("/games/{id}/tags/{tag}", Account, search::delete_tag)
                .get("/search", Public, search::search)
                .get("/games/{id}/bombs", Player, minesweeper::get_bombs)
                .put("/games/{id}/bombs", Player, minesweeper::put_bombs)
                .resource(
                    "/games/{id}/analysis",
                    |res| res.app_data(analysis::json_config()),
                    |res| {
                        res.add(Method::GET, Account, analysis::get_analysis).add(
                            Method::PUT,
                            Account,
                            analysis::put_analysis,
                        );
                    },
                )
                .post(
                    "/games/{id}/analysis/engine",
                    Account,
                    engine_analysis::post_engine_analysis,
                )
                .get(
                    "/games/{id}/analysis/engine",
                    Public,
                    engine_analysis::get_engine_analysis,
                )
                .get("/games/{id}/notes", Player, messages::get_notes)
                .put("/games/{id}/notes", Player, messages::put_notes)
                .get("/games/{id}/conditional", Player, get_conditional)
                .put("/games/{id}/conditional", Player, put_conditional)
                .delete("/games/{id}/conditional", Player, delete_conditional)
                .get("/users/{name}", Public, users::get_user)
                .get("/me/queue", Account, get_queue)
                .get("/me/leave", Account, get_leave)
                .post("/me/leave", Account, post_leave)
                .delete("/me/leave/{id}", Account, delete_leave)
                .get("/me/games", Account, get_my_games)
                .get(
                    "/me/notifications",
                    Account,
                    notifications::get_notifications,
                )
                .put(
                    "/me/notifications",
                    Account,
                    notifications::put_notifications,
                )
                .get("/openings", Public, openings::get_openings)
                .post("/positions/moves", Public, positions::position_moves)
                .get("/me/preferences", Account, preferences::get_preferences)
                .put("/me/preferences", Account, preferences::put_preferences);
        },
    );
}

/// The user named by the request's `Authorization: Bearer` token.
pub struct ApiUser {
    pub id: i64,
    pub username: String,
}

impl FromRequest for ApiUser {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<ApiUser, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let token = BearerToken::from_request(req, payload).into_inner();
        let state = req.app_data::<web::Data<AppState>>().cloned();
        Box::pin(async move {
            let token = token?;
            let state = state.ok_or_else(|| ApiError::internal("no application state"))?;
            state.db(move |c| token.user(c)).await?
        })
    }
}

/// The request's `Authorization: Bearer` token, not yet checked: for a route that checks it in
/// the same trip to the database as its work (a move), where [`ApiUser`] takes a trip of its
/// own. Refused at once (401) when there is none.
pub struct BearerToken(String);

impl BearerToken {
    /// The user the token names, or a 401.
    pub fn user(&self, conn: &mut DbConnection) -> Result<ApiUser, ApiError> {
        let user = accounts::user_by_token(conn, &self.0)?.ok_or_else(unauthorized)?;
        Ok(ApiUser {
            id: user.id,
            username: user.username,
        })
    }
}

impl FromRequest for BearerToken {
    type Error = ApiError;
    type Future = std::future::Ready<Result<BearerToken, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let token = req
            .headers()
            .get(actix_web::http::header::AUTHORIZATION)
            .and_then(|h| h.to_str().ok())
            .and_then(|h| h.strip_prefix("Bearer "))
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| BearerToken(t.to_string()))
            .ok_or_else(unauthorized);
        std::future::ready(token)
    }
}

fn unauthorized() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "send a valid token: Authorization: Bearer <token>",
    )
}

#[derive(Deserialize)]
struct AccountBody {
    username: String,
    email: String,
    password: String,
}

async fn create_account(
    state: web::Data<AppState>,
    body: web::Json<AccountBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let user =
        crate::web::sign_in::sign_up(&state, &body.username, &body.email, body.password).await??;
    Ok(HttpResponse::Created().json(json!({ "id": user.id, "username": user.username })))
}

#[derive(Deserialize)]
struct TokenBody {
    username: String,
    password: String,
    #[serde(default)]
    label: Option<String>,
}

/// The client's address for throttling: the peer, or the proxy's header when trusted.
pub fn client_address(req: &HttpRequest, state: &AppState) -> String {
    let info = req.connection_info();
    let addr = if state.settings.server.trust_proxy_headers {
        info.realip_remote_addr()
    } else {
        info.peer_addr()
    };
    addr.unwrap_or("unknown").to_string()
}

async fn create_token(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<TokenBody>,
) -> Result<HttpResponse, ApiError> {
    let now = state.now();
    let body = body.into_inner();
    let address = client_address(&req, &state);
    let user = crate::web::sign_in::log_in(&state, body.username, body.password, address).await??;
    let token = state
        .db(move |c| -> Result<String, ApiError> {
            let label = body.label.unwrap_or_default();
            Ok(accounts::create_api_token(
                c,
                now,
                user.id,
                &label.chars().take(100).collect::<String>(),
            )?)
        })
        .await??;
    Ok(HttpResponse::Created().json(json!({ "token": token })))
}

#[derive(Deserialize)]
struct ChallengeBody {
    variant: String,
    /// Two-player games: white, black or random.
    #[serde(default)]
    color: Option<String>,
    /// Minesweeper: the options, e.g. `chosen` or `random+modest`.
    #[serde(default)]
    minesweeper: Option<String>,
    /// Minesweeper: hours to place the bombs (default 48).
    #[serde(default)]
    setup_hours: Option<i32>,
    /// Bughouse: the creator's seat, `A1`, `B1`, `B2`, `A2` or `any`.
    #[serde(default)]
    seat: Option<String>,
    /// Bughouse: seats offered to players by name, `{"B1":"bob"}`.
    #[serde(default)]
    invite: Option<std::collections::BTreeMap<String, String>>,
    /// Bughouse: the computer's level (`easy`, `medium`, `hard`) for every seat nobody is
    /// invited to.
    #[serde(default)]
    fill_with_computer: Option<String>,
    #[serde(default)]
    time_control: Option<String>,
    #[serde(default)]
    days_per_move: Option<i32>,
    #[serde(default)]
    preset: Option<String>,
    #[serde(default)]
    initial_days: Option<i32>,
    #[serde(default)]
    increment_hours: Option<i32>,
    #[serde(default)]
    cap_days: Option<i32>,
    #[serde(default)]
    opponent: Option<String>,
    #[serde(default)]
    link_only: bool,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    auto_flag: Option<bool>,
    /// A private game: comments for the players only, no kibitz.
    #[serde(default)]
    private: bool,
}

async fn create_challenge(
    state: web::Data<AppState>,
    user: ApiUser,
    body: web::Json<ChallengeBody>,
) -> Result<HttpResponse, ApiError> {
    let now = state.now();
    let random = state.random.clone();
    let b = body.into_inner();
    let time = TimeControlRequest {
        kind: b.time_control,
        days_per_move: b.days_per_move,
        preset: b.preset,
        initial_days: b.initial_days,
        increment_hours: b.increment_hours,
        cap_days: b.cap_days,
    };
    let link = |token: &str| {
        format!(
            "{}/challenges/link/{token}",
            state.settings.server.public_url
        )
    };
    if let Ok(GameKind::Bughouse) = b.variant.trim().parse::<GameKind>() {
        let flags = (b.link_only, b.rated, b.auto_flag.unwrap_or(true), b.private);
        let req = bughouse::seated_request(b.seat, time, b.invite, flags);
        if let Some(level) = b.fill_with_computer {
            let (seated, game_id) = state
                .db(move |c| {
                    crate::usecases::computer::create_seated_with_computer(
                        c, now, &*random, user.id, &req, &level,
                    )
                })
                .await??;
            state.wake_computer();
            let mut answer = bughouse::created_json(&seated, &link(&seated.challenge.share_token));
            answer["game_id"] = json!(game_id);
            return Ok(HttpResponse::Created().json(answer));
        }
        let seated = state
            .db(move |c| crate::usecases::seats::create_seated_challenge(c, now, user.id, &req))
            .await??;
        let url = link(&seated.challenge.share_token);
        return Ok(HttpResponse::Created().json(bughouse::created_json(&seated, &url)));
    }
    let req = ChallengeRequest {
        variant: b.variant,
        color: b.color.unwrap_or_default(),
        time,
        opponent: b.opponent,
        link_only: b.link_only,
        rated: b.rated,
        auto_flag: b.auto_flag.unwrap_or(true),
        private: b.private,
        minesweeper: b.minesweeper,
        setup_hours: b.setup_hours,
    };
    let (c, game_id) = state
        .db(move |c| {
            crate::usecases::computer::create_challenge_answered(c, now, &*random, user.id, &req)
        })
        .await??;
    let url = link(&c.share_token);
    let mut answer = json!({ "id": c.id, "kind": c.kind, "url": url });
    if let Some(game_id) = game_id {
        // The computer took it: the game has begun, and may be the computer's to open.
        answer["game_id"] = json!(game_id);
        state.wake_computer();
    }
    Ok(HttpResponse::Created().json(answer))
}

async fn list_challenges(
    state: web::Data<AppState>,
    user: ApiUser,
) -> Result<HttpResponse, ApiError> {
    let list = state
        .db(move |c| challenges::visible_challenges(c, Some(user.id)))
        .await??;
    let items: Vec<_> = list
        .iter()
        .map(|l| {
            json!({
                "id": l.challenge.id,
                "kind": l.challenge.kind,
                "creator": l.creator,
                "opponent": l.opponent,
                "variant": l.challenge.variant,
                "color": l.challenge.color,
                "days_per_move": l.challenge.days_per_move,
                "rated": l.challenge.rated,
                "private": !l.challenge.is_public,
                "seats": (!l.seats.is_empty()).then(|| {
                    l.seats
                        .iter()
                        .map(|s| {
                            (
                                s.seat.to_string(),
                                s.taken_by.as_ref().map(|(_, n)| n.clone()),
                            )
                        })
                        .collect::<std::collections::BTreeMap<_, _>>()
                }),
            })
        })
        .collect();
    Ok(HttpResponse::Ok().json(items))
}

#[derive(Deserialize, Default)]
struct AcceptBody {
    #[serde(default)]
    token: Option<String>,
    /// Bughouse: the seat to take, `A1`, `B1`, `B2`, `A2` or `any`.
    #[serde(default)]
    seat: Option<String>,
}

async fn accept_challenge(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
    body: Option<web::Json<AcceptBody>>,
) -> Result<HttpResponse, ApiError> {
    let now = state.now();
    let random = state.random.clone();
    let id = path.into_inner();
    let body = body.map(|b| b.into_inner()).unwrap_or_default();
    let token = body.token;
    let challenge = state
        .db(move |c| challenges::challenge_by_id(c, id))
        .await??
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "challenge not found"))?;
    if let Ok(GameKind::Bughouse) = challenge.variant.parse::<GameKind>() {
        return bughouse::take_seat(&state, user.id, id, body.seat, token).await;
    }
    let game_id = state
        .db(move |c| challenges::accept_challenge(c, now, &*random, id, user.id, token.as_deref()))
        .await??;
    Ok(HttpResponse::Created().json(json!({ "game_id": game_id })))
}

async fn cancel_challenge(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let now = state.now();
    let id = path.into_inner();
    state
        .db(move |c| challenges::cancel_challenge(c, now, id, user.id))
        .await??;
    Ok(HttpResponse::Ok().json(json!({ "id": id, "status": "cancelled" })))
}

/// The game as the API shows it to anyone (the comments an anonymous reader may see).
pub fn game_json(record: &GameRecord, now: chrono::NaiveDateTime) -> serde_json::Value {
    serde_json::to_value(game_json_for(record, now, None)).unwrap_or_default()
}

/// A game's moves as one JSON list of their UCI or SAN, written straight from the record
/// (no JSON value per move: a long game's answer costs little more than a short one's).
struct MoveColumn<'a> {
    moves: &'a [crate::models::Move],
    san: bool,
}

impl serde::Serialize for MoveColumn<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.moves.iter().map(|m| {
            if self.san {
                m.san.as_str()
            } else {
                m.uci.as_str()
            }
        }))
    }
}

/// The game JSON (`docs/api.md`), serialised as it stands.
#[derive(serde::Serialize)]
pub struct GameJson<'a> {
    id: i64,
    variant: &'a str,
    white: String,
    black: String,
    /// The players as people read them ("Computer (Easy)" for a computer account).
    white_name: String,
    black_name: String,
    initial_fen: &'a str,
    fen: &'a str,
    moves: MoveColumn<'a>,
    sans: MoveColumn<'a>,
    ply: i32,
    turn: &'static str,
    status: &'static str,
    result: String,
    termination: Option<String>,
    draw_offer: Option<&'static str>,
    days_per_move: Option<i32>,
    rated: bool,
    time_control: serde_json::Value,
    clock: serde_json::Value,
    on_leave_until: serde_json::Value,
    deadline_at: Option<String>,
    is_public: bool,
    comments: Vec<serde_json::Value>,
    /// A minesweeper game's phase, blasts, and the counts and bombs the reader may see.
    #[serde(flatten)]
    minesweeper: Option<minesweeper::MinesweeperJson>,
}

/// A game's time control as the API shows it.
pub fn time_control_json(g: &crate::models::Game) -> serde_json::Value {
    json!({
        "kind": g.time_control,
        "days_per_move": g.days_per_move,
        "initial_seconds": g.initial_seconds,
        "increment_seconds": g.increment_seconds,
        "cap_seconds": g.cap_seconds,
        "auto_flag": g.auto_flag,
    })
}

/// The game as the API shows it to `viewer`: the comments and kibitz they may read. Status,
/// turn, draw offer, deadline, clocks and leave are the game page's [`Standing`].
pub fn game_json_for<'a>(
    record: &'a GameRecord,
    now: chrono::NaiveDateTime,
    viewer: Option<i64>,
) -> GameJson<'a> {
    let g = &record.game;
    let standing = Standing::of(record, now);
    let leave_end = |p: &PlayerClock| p.on_leave_until.map(|t| t.and_utc().to_rfc3339());
    GameJson {
        id: g.id,
        variant: &g.variant,
        initial_fen: &g.initial_fen,
        fen: &record.first_board().fen,
        moves: MoveColumn {
            moves: &record.moves,
            san: false,
        },
        sans: MoveColumn {
            moves: &record.moves,
            san: true,
        },
        ply: g.ply,
        turn: color_name(standing.turn),
        status: standing.status.as_str(),
        draw_offer: standing.draw_offer.map(color_name),
        days_per_move: g.days_per_move,
        rated: g.rated,
        time_control: time_control_json(g),
        clock: json!({
            "white": standing.white.seconds_left,
            "black": standing.black.seconds_left,
        }),
        on_leave_until: json!({
            "white": leave_end(&standing.white),
            "black": leave_end(&standing.black),
        }),
        deadline_at: standing.deadline_at.map(|d| d.and_utc().to_rfc3339()),
        is_public: g.is_public,
        comments: messages::conversation_json(record, viewer),
        minesweeper: None,
        white_name: standing.white.label,
        black_name: standing.black.label,
        white: standing.white.name,
        black: standing.black.name,
        result: standing.result,
        termination: standing.termination,
    }
}

async fn get_game(
    state: web::Data<AppState>,
    viewer: messages::Viewer,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let records = state.records.clone();
    let record = state
        .db(move |c| read_game_cached(c, &records, id))
        .await??
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "game not found"))?;
    if let GameKind::Bughouse = record.kind {
        return bughouse::match_answer(&state, id, viewer.0).await;
    }
    game_answer(&state, record, viewer.0).await
}

/// The game JSON of `record` for `viewer`; a minesweeper game's fields made from the rules'
/// views for that reader.
async fn game_answer(
    state: &AppState,
    record: GameRecord,
    viewer: Option<i64>,
) -> Result<HttpResponse, ApiError> {
    let mut json = game_json_for(&record, state.now(), viewer);
    if let GameKind::Minesweeper = record.kind {
        let copy = record.clone();
        let game = state
            .db(move |c| crate::usecases::minesweeper::secret_game(c, &copy))
            .await??;
        json.minesweeper = Some(minesweeper::minesweeper_json(&record, &game, viewer));
    }
    Ok(HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "private, no-cache"))
        .json(json))
}

#[derive(Deserialize)]
struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
    ply: i32,
    #[serde(default)]
    comment: Option<String>,
    /// Bughouse: the board moved on, `a` or `b` (`ply` is then that board's).
    #[serde(default)]
    board: Option<String>,
}

async fn post_move(
    state: web::Data<AppState>,
    token: BearerToken,
    path: web::Path<i64>,
    body: web::Json<MoveBody>,
) -> Result<HttpResponse, ApiError> {
    let b = body.into_inner();
    let game_id = path.into_inner();
    let board = bughouse::board_field(b.board.as_deref())?;
    // The token is checked in the move's own trip to the database.
    let now = state.now();
    let max = state.settings.game.max_message_chars;
    let records = state.records.clone();
    let (viewer, record) = state
        .db(move |c| {
            let user = token.user(c)?;
            let req = ActionRequest {
                game_id,
                user_id: user.id,
                board,
                ply: Some(b.ply),
                action: Action::Move(b.mv),
                message: b.comment,
            };
            let record = play::act(c, &records, now, max, &req)?;
            Ok::<_, ApiError>((user.id, record))
        })
        .await??;
    answer_action(&state, record, viewer).await
}

#[derive(Deserialize)]
struct ActionBody {
    action: String,
    /// Required except for `comment` and `kibitz`, which may come at any ply.
    #[serde(default)]
    ply: Option<i32>,
    #[serde(default)]
    message: Option<String>,
    /// For `give_time`: how many days.
    #[serde(default)]
    days: Option<i64>,
    /// Bughouse: the board the player plays on, `a` or `b` (`ply` is then that board's).
    #[serde(default)]
    board: Option<String>,
}

async fn post_action(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
    body: web::Json<ActionBody>,
) -> Result<HttpResponse, ApiError> {
    let b = body.into_inner();
    if b.action == "kibitz" {
        let text = b.message.unwrap_or_default();
        return messages::kibitz(state, user, path.into_inner(), text).await;
    }
    let board = bughouse::board_field(b.board.as_deref())?;
    let days = b.days.map(|d| d.to_string());
    let text = match b.action.as_str() {
        "team_chat" => b.message.clone(),
        _ => days,
    };
    let action = Action::parse(&b.action, text.as_deref())
        .filter(|a| {
            !matches!(
                a,
                Action::Move(_) | Action::MoveAndOfferDraw(_) | Action::ConditionalMove(_)
            )
        })
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "action must be one of resign, offer_draw, accept_draw, decline_draw, claim_draw, claim_timeout, give_time, withdraw_draw, takeback, comment, kibitz, team_chat (moves go to /moves, conditional moves to /conditional)",
            )
        })?;
    let message = match action {
        Action::TeamChat(_) => None,
        _ => b.message,
    };
    let req = ActionRequest {
        game_id: path.into_inner(),
        user_id: user.id,
        board,
        ply: b.ply,
        action,
        message,
    };
    run_action(state, req).await
}

async fn run_action(
    state: web::Data<AppState>,
    req: ActionRequest,
) -> Result<HttpResponse, ApiError> {
    let now = state.now();
    let max = state.settings.game.max_message_chars;
    let viewer = req.user_id;
    let records = state.records.clone();
    let record = state
        .db(move |c| play::act(c, &records, now, max, &req))
        .await??;
    answer_action(&state, record, viewer).await
}

/// The game JSON after `viewer` acted, the computer woken when it sits in the game.
async fn answer_action(
    state: &AppState,
    record: GameRecord,
    viewer: i64,
) -> Result<HttpResponse, ApiError> {
    if record.seats_a_computer() {
        state.wake_computer();
    }
    match record.kind {
        GameKind::Bughouse => bughouse::match_answer(state, record.game.id, Some(viewer)).await,
        GameKind::Chess(_) | GameKind::Minesweeper => {
            game_answer(state, record, Some(viewer)).await
        }
    }
}

fn summary_json(g: &GameSummary) -> serde_json::Value {
    json!({
        "id": g.id,
        "variant": g.variant,
        "white": g.white,
        "black": g.black,
        "white_name": g.white_name,
        "black_name": g.black_name,
        "status": g.status,
        "result": g.result,
        "ply": g.ply,
        "my_color": color_name(g.my_color),
        "my_turn": g.my_turn,
        "deadline_at": g.deadline_at.map(|d| d.and_utc().to_rfc3339()),
    })
}

async fn get_queue(state: web::Data<AppState>, user: ApiUser) -> Result<HttpResponse, ApiError> {
    let list = state.db(move |c| my_queue(c, user.id)).await??;
    Ok(HttpResponse::Ok().json(list.iter().map(summary_json).collect::<Vec<_>>()))
}

async fn get_my_games(state: web::Data<AppState>, user: ApiUser) -> Result<HttpResponse, ApiError> {
    let list = state
        .db(move |c| my_games(c, user.id, FINISHED_LISTED))
        .await??;
    Ok(HttpResponse::Ok().json(list.iter().map(summary_json).collect::<Vec<_>>()))
}

#[derive(Deserialize)]
struct ConditionalBody {
    lines: String,
    ply: i32,
    #[serde(default)]
    comment: Option<String>,
}

/// The caller's own conditional lines in a game they play; nobody else's are ever shown.
async fn get_conditional(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let (ply, lines) = state
        .db(move |c| -> Result<_, ApiError> {
            let record = load_game(c, id)?.ok_or(PlayError::NotFound)?;
            if record.seat_of(user.id).is_none() {
                return Err(PlayError::NotAPlayer(record.kind).into());
            }
            let lines = conditional::my_lines(c, &record, user.id).map_err(PlayError::from)?;
            Ok((record.game.ply, lines))
        })
        .await??;
    Ok(HttpResponse::Ok().json(json!({ "ply": ply, "lines": lines })))
}

/// Sets the caller's lines (playing the first move when it is their turn).
async fn put_conditional(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
    body: web::Json<ConditionalBody>,
) -> Result<HttpResponse, ApiError> {
    let b = body.into_inner();
    let req = ActionRequest {
        game_id: path.into_inner(),
        user_id: user.id,
        board: None,
        ply: Some(b.ply),
        action: Action::ConditionalMove(b.lines),
        message: b.comment,
    };
    let now = state.now();
    let max = state.settings.game.max_message_chars;
    let records = state.records.clone();
    let (record, lines) = state
        .db(move |c| -> Result<_, ApiError> {
            let record = play::act(c, &records, now, max, &req)?;
            let lines = conditional::my_lines(c, &record, user.id).map_err(PlayError::from)?;
            Ok((record, lines))
        })
        .await??;
    Ok(HttpResponse::Ok()
        .json(json!({ "game": game_json_for(&record, now, Some(user.id)), "lines": lines })))
}

/// Deletes the caller's lines in a game.
async fn delete_conditional(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    state
        .db(move |c| -> Result<_, ApiError> {
            let record = load_game(c, id)?.ok_or(PlayError::NotFound)?;
            if record.seat_of(user.id).is_none() {
                return Err(PlayError::NotAPlayer(record.kind).into());
            }
            Ok(conditional::clear_lines(c, id, user.id)?)
        })
        .await??;
    Ok(HttpResponse::Ok().json(json!({ "lines": null })))
}

#[derive(Deserialize)]
struct LeaveBody {
    /// First day of leave, `YYYY-MM-DD` (UTC).
    start: String,
    days: i64,
}

fn leave_json(s: &leave::LeaveSummary) -> serde_json::Value {
    json!({
        "year": s.year,
        "allowance_days": s.allowance,
        "used_days": s.used,
        "left_days": s.left,
        "bookings": s.bookings.iter().map(|l| json!({
            "id": l.id,
            "start": l.starts_at.and_utc().to_rfc3339(),
            "end": l.ends_at.and_utc().to_rfc3339(),
            "days": l.days(),
        })).collect::<Vec<_>>(),
    })
}

async fn get_leave(state: web::Data<AppState>, user: ApiUser) -> Result<HttpResponse, ApiError> {
    let now = state.now();
    let allowance = state.settings.game.leave_days_per_year;
    let summary = state
        .db(move |c| leave::leave_summary(c, now, allowance, user.id))
        .await??;
    Ok(HttpResponse::Ok().json(leave_json(&summary)))
}

async fn post_leave(
    state: web::Data<AppState>,
    user: ApiUser,
    body: web::Json<LeaveBody>,
) -> Result<HttpResponse, ApiError> {
    let now = state.now();
    let allowance = state.settings.game.leave_days_per_year;
    let b = body.into_inner();
    let start = chrono::NaiveDate::parse_from_str(b.start.trim(), "%Y-%m-%d").map_err(|_| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "start must be a date like 2026-12-24",
        )
    })?;
    let summary = state
        .db(move |c| -> Result<_, ApiError> {
            leave::book_leave(c, now, allowance, user.id, start, b.days)?;
            Ok(leave::leave_summary(c, now, allowance, user.id)?)
        })
        .await??;
    Ok(HttpResponse::Created().json(leave_json(&summary)))
}

async fn delete_leave(
    state: web::Data<AppState>,
    user: ApiUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let now = state.now();
    let allowance = state.settings.game.leave_days_per_year;
    let id = path.into_inner();
    let summary = state
        .db(move |c| -> Result<_, ApiError> {
            // Leave not begun is cancelled; leave under way ends now, its unused days returned.
            match leave::cancel_leave(c, now, user.id, id) {
                Err(leave::LeaveError::NotCancellable) => {
                    leave::end_leave_now(c, now, user.id, id)?;
                }
                other => other?,
            }
            Ok(leave::leave_summary(c, now, allowance, user.id)?)
        })
        .await??;
    Ok(HttpResponse::Ok().json(leave_json(&summary)))
}
