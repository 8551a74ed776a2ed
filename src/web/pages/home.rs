//! The home page (a player's dashboard or the visitors' showcase), my games (awaiting my move
//! first, those as small boards), the Next Game button, and the "Play the computer" form's
//! `POST /computer-games`.

use actix_session::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use chrono::NaiveDateTime;
use serde::Deserialize;

use super::{dashboard, showcase};
use crate::game::color_name;
use crate::usecases::boards::board_snapshots;
use crate::usecases::computer::{ComputerGameRequest, start_computer_game};
use crate::usecases::games::{FINISHED_LISTED, GameSummary, my_games, next_game_in_queue};
use crate::usecases::preferences::preferences_of;
use crate::web::errors::WebError;
use crate::web::forms::{check_csrf, require_login};
use crate::web::mini_board::{BoardLook, MiniBoard, variant_words};
use crate::web::respond::{render, see_other};
use crate::web::time_words::time_left_text;
use crate::web::{AppState, Layout, session};

/// A game list line ready for the page.
pub struct GameLine {
    pub id: i64,
    pub variant: String,
    pub white: String,
    pub black: String,
    pub my_color: &'static str,
    pub my_turn: bool,
    pub state: String,
    pub time_left: String,
}

fn game_line(g: &GameSummary, now: NaiveDateTime) -> GameLine {
    let state = match g.status.as_str() {
        "started" if g.my_turn => "your move".to_string(),
        "started" => "their move".to_string(),
        _ => g.result.clone(),
    };
    GameLine {
        id: g.id,
        variant: variant_words(&g.variant),
        white: g.white_name.clone(),
        black: g.black_name.clone(),
        my_color: color_name(g.my_color),
        my_turn: g.my_turn,
        state,
        time_left: if g.status == "started" {
            time_left_text(g.deadline_at, now)
        } else {
            String::new()
        },
    }
}

/// `GET /`: the player's dashboard, or the visitors' showcase.
pub async fn index(state: web::Data<AppState>, session: Session) -> Result<HttpResponse, WebError> {
    match session::current_user_id(&session) {
        Some(me) => dashboard::show(&state, &session, me).await,
        None => showcase::show(&state, &session).await,
    }
}

#[derive(Template)]
#[template(path = "my_games.html")]
struct MyGamesPage {
    layout: Layout,
    /// The games awaiting my move as small boards, most urgent first.
    my_turn: Vec<MiniBoard>,
    games: Vec<GameLine>,
    /// How many finished games are listed at most.
    finished_listed: i64,
}

pub async fn my_games_page(
    state: web::Data<AppState>,
    session: Session,
) -> Result<HttpResponse, WebError> {
    let me = match require_login(&session, "/games") {
        Ok(id) => id,
        Err(redirect) => return Ok(*redirect),
    };
    let now = state.now();
    let (games, boards, prefs) = state
        .db(move |c| -> Result<_, WebError> {
            let games = my_games(c, me, FINISHED_LISTED)?;
            let waiting: Vec<i64> = games.iter().filter(|g| g.my_turn).map(|g| g.id).collect();
            Ok((games, board_snapshots(c, &waiting)?, preferences_of(c, me)?))
        })
        .await??;
    let look = BoardLook::of(&prefs);
    let page = MyGamesPage {
        layout: Layout::from_session(&session),
        my_turn: dashboard::running_boards(&games, &boards, true, now, &look, prefs.always_white),
        games: games.iter().map(|g| game_line(g, now)).collect(),
        finished_listed: FINISHED_LISTED,
    };
    render(StatusCode::OK, &page)
}

/// `?after=ID`: the game the player comes from. An id that is not a number (a link cut short
/// or edited) is no game to skip: Next Game still goes on.
#[derive(Deserialize)]
pub struct NextQuery {
    after: Option<String>,
}

/// Goes to the most urgent game awaiting my move (not the one I came from), or to my games.
pub async fn next_game(
    state: web::Data<AppState>,
    session: Session,
    query: web::Query<NextQuery>,
) -> Result<HttpResponse, WebError> {
    let me = match require_login(&session, "/games") {
        Ok(id) => id,
        Err(redirect) => return Ok(*redirect),
    };
    let after = query.after.as_deref().and_then(|id| id.parse::<i64>().ok());
    match state
        .db(move |c| next_game_in_queue(c, me, after))
        .await??
    {
        Some(id) => Ok(see_other(&format!("/games/{id}"))),
        None => {
            session::flash(&session, "info", "No other game is waiting for your move.");
            Ok(see_other("/games"))
        }
    }
}

#[derive(Deserialize)]
pub struct ComputerForm {
    csrf_token: String,
    variant: String,
    color: String,
    level: String,
}

/// `POST /computer-games`: the home page's "Play the computer" form; the new game's page opens
/// at once, and the computer answers on its own.
pub async fn play_computer(
    state: web::Data<AppState>,
    session: Session,
    form: web::Form<ComputerForm>,
) -> Result<HttpResponse, WebError> {
    let me = match require_login(&session, "/#play-computer") {
        Ok(id) => id,
        Err(redirect) => return Ok(*redirect),
    };
    check_csrf(&session, &form.csrf_token)?;
    let form = form.into_inner();
    let req = ComputerGameRequest {
        variant: form.variant,
        color: form.color,
        level: form.level,
    };
    let now = state.now();
    let random = state.random.clone();
    match state
        .db(move |c| start_computer_game(c, now, &*random, me, &req))
        .await?
    {
        Ok(id) => {
            state.wake_computer();
            Ok(see_other(&format!("/games/{id}")))
        }
        Err(err) => {
            let refused = crate::web::errors::refusal(err)?;
            session::flash(&session, "error", refused.message);
            Ok(see_other("/#play-computer"))
        }
    }
}
