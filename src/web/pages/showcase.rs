//! The home page of a visitor: public games in progress as small live boards, the variants
//! with a line each and a link to their rules, how to start, and the open challenges.

use actix_session::Session;
use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template;
use slowfuse_rules::{Color, GameKind};

use crate::usecases::boards::board_snapshots;
use crate::usecases::challenges::{ChallengeListing, visible_challenges};
use crate::usecases::games::{RunningGame, recent_running_games};
use crate::web::errors::WebError;
use crate::web::mini_board::{BoardLook, MiniBoard, mini_board, variant_words};
use crate::web::respond::render;
use crate::web::variant_info::variant_tagline;
use crate::web::{AppState, Layout};

/// Games shown on the visitors' page, at most.
const SHOWCASE_GAMES: i64 = 6;

/// One variant in the list: its name, one line, and where its rules are.
pub struct VariantLine {
    pub name: &'static str,
    pub line: &'static str,
    pub anchor: &'static str,
}

#[derive(Template)]
#[template(path = "index.html")]
struct ShowcasePage {
    layout: Layout,
    /// Nobody is logged in (the challenge table's buttons).
    me: Option<i64>,
    games: Vec<MiniBoard>,
    variants: Vec<VariantLine>,
    challenges: Vec<ChallengeListing>,
}

/// `GET /` for a visitor.
pub async fn show(state: &AppState, session: &Session) -> Result<HttpResponse, WebError> {
    let (games, boards, challenges) = state
        .db(move |c| -> Result<_, WebError> {
            let games = recent_running_games(c, SHOWCASE_GAMES)?;
            let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
            Ok((
                games,
                board_snapshots(c, &ids)?,
                visible_challenges(c, None)?,
            ))
        })
        .await??;
    let look = BoardLook::default();
    let page = ShowcasePage {
        layout: Layout::from_session(session),
        me: None,
        games: games
            .iter()
            .filter_map(|g| Some(showcase_board(g, boards.get(&g.id)?, &look)))
            .collect(),
        variants: GameKind::all()
            .map(|kind| VariantLine {
                name: kind.display_name(),
                line: variant_tagline(kind),
                anchor: kind.as_str(),
            })
            .collect(),
        challenges,
    };
    render(StatusCode::OK, &page)
}

/// A running game from White's side, captioned with its players and who is to move.
fn showcase_board(
    g: &RunningGame,
    snapshot: &crate::usecases::boards::BoardSnapshot,
    look: &BoardLook,
) -> MiniBoard {
    let variant = variant_words(&g.variant);
    let to_move = match snapshot.turn {
        Color::White => &g.white,
        Color::Black => &g.black,
    };
    let moves = (g.ply + 1) / 2;
    let progress = match moves {
        0 => "not started".to_string(),
        1 => "1 move".to_string(),
        n => format!("{n} moves"),
    };
    // The caption is the link's name as well.
    mini_board(g.id, snapshot, Color::White, String::new(), look).captioned(
        format!("{} – {}", g.white, g.black),
        vec![variant, format!("{progress} · {to_move} to move")],
    )
}
