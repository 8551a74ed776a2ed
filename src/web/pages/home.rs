//! The home page, my games (awaiting my move first) and the Next Game button.

use actix_session::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use chrono::NaiveDateTime;
use serde::Deserialize;

use super::{render, require_login, see_other};
use crate::game::color_name;
use crate::usecases::challenges::{ChallengeListing, visible_challenges};
use crate::usecases::games::{GameSummary, my_games, next_game_in_queue};
use crate::web::errors::WebError;
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
        variant: g.variant.clone(),
        white: g.white.clone(),
        black: g.black.clone(),
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

#[derive(Template)]
#[template(path = "index.html")]
struct IndexPage {
    layout: Layout,
    me: Option<i64>,
    games: Vec<GameLine>,
    challenges: Vec<ChallengeListing>,
}

pub async fn index(state: web::Data<AppState>, session: Session) -> Result<HttpResponse, WebError> {
    let me = session::current_user_id(&session);
    let now = state.now();
    let (games, challenges) = state
        .db(move |c| -> Result<_, WebError> {
            let games = match me {
                Some(id) => my_games(c, id)?
                    .into_iter()
                    .filter(|g| g.status == "started")
                    .take(20)
                    .collect(),
                None => Vec::new(),
            };
            Ok((games, visible_challenges(c, me)?))
        })
        .await??;
    let page = IndexPage {
        layout: Layout::from_session(&session),
        me,
        games: games.iter().map(|g| game_line(g, now)).collect(),
        challenges,
    };
    render(StatusCode::OK, &page)
}

#[derive(Template)]
#[template(path = "my_games.html")]
struct MyGamesPage {
    layout: Layout,
    games: Vec<GameLine>,
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
    let games = state.db(move |c| my_games(c, me)).await??;
    let page = MyGamesPage {
        layout: Layout::from_session(&session),
        games: games.iter().map(|g| game_line(g, now)).collect(),
    };
    render(StatusCode::OK, &page)
}

#[derive(Deserialize)]
pub struct NextQuery {
    after: Option<i64>,
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
    let after = query.after;
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
