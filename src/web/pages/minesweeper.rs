//! The minesweeper setup's form, `POST /games/{id}/bombs`: the squares ticked on the board
//! replace the player's bombs (`Place bombs`), or the rest are placed at random (`Random`), or
//! all are taken away (`Clear`). A refusal draws the page again with why.

use actix_session::Session;
use actix_web::{HttpResponse, web};

use crate::usecases::minesweeper::{self, MinesError};
use crate::web::errors::{self, WebError};
use crate::web::forms::game_form_sender;
use crate::web::game_page::{self, Occasion, Refusal, Typed};
use crate::web::respond::see_other;
use crate::web::{AppState, session};

/// `POST /games/{id}/bombs` with `csrf_token`, `square` (once per ticked square) and `fill`
/// (`place`, `random` or `clear`).
pub async fn place(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, WebError> {
    let fields = form.into_inner();
    let field = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let (id, me) = match game_form_sender(&session, &path, &field("csrf_token"))? {
        Ok(sender) => sender,
        Err(redirect) => return Ok(*redirect),
    };
    let squares: Vec<String> = fields
        .iter()
        .filter(|(k, _)| k == "square")
        .map(|(_, v)| v.clone())
        .take(65)
        .collect();
    let fill = field("fill");
    let now = state.now();
    let random = state.random.clone();
    let outcome = state
        .db(move |c| match fill.as_str() {
            "random" => minesweeper::place_rest_at_random(c, now, &*random, id, me),
            "clear" => minesweeper::place_bombs(c, now, id, me, &[]),
            _ => minesweeper::place_bombs(c, now, id, me, &squares),
        })
        .await?;
    match outcome {
        Ok(placed) => {
            state.wake_computer();
            let text = if placed.complete {
                "Your bombs are placed: only you see where they are."
            } else {
                "Your placement is saved; place the rest before the setup ends."
            };
            session::flash(&session, "info", text);
            Ok(see_other(&format!("/games/{id}")))
        }
        Err(MinesError::NotFound) => Err(WebError::NotFound),
        Err(err) => {
            let errors::Refusal { status, message } = errors::refusal(err)?;
            let typed = Typed::Action {
                action: String::new(),
                mv: String::new(),
                message: String::new(),
            };
            let refusal = Refusal::new(status, message, typed);
            game_page::draw(&state, &session, id, Occasion::Refused(refusal)).await
        }
    }
}
