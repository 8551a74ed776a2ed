//! The help pages: `/help/game`, the game page explained element by element (the same text as
//! the game page's Help tab).

use actix_session::Session;
use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template;

use super::render;
use crate::web::Layout;
use crate::web::errors::WebError;

#[derive(Template)]
#[template(path = "help_game.html")]
struct GameHelpPage {
    layout: Layout,
}

/// `GET /help/game`.
pub async fn game_help(session: Session) -> Result<HttpResponse, WebError> {
    render(
        StatusCode::OK,
        &GameHelpPage {
            layout: Layout::from_session(&session),
        },
    )
}
