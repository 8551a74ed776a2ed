//! The help pages: `/help/game`, the game page explained element by element (the same text as
//! the game page's Help tab), and `/variants`, the rules of every variant (`docs/variants.md`).

use actix_session::Session;
use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template;

use crate::web::Layout;
use crate::web::errors::WebError;
use crate::web::respond::render;
use crate::web::variant_info::{VariantSection, variant_sections};

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

#[derive(Template)]
#[template(path = "variants.html")]
struct VariantsPage {
    layout: Layout,
    sections: &'static [VariantSection],
}

/// `GET /variants`: every variant's rules, each under an anchor (`/variants#atomic`).
pub async fn variants(session: Session) -> Result<HttpResponse, WebError> {
    render(
        StatusCode::OK,
        &VariantsPage {
            layout: Layout::from_session(&session),
            sections: variant_sections(),
        },
    )
}
