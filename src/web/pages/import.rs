//! The import page `GET`/`POST /import`: a logged-in user pastes or picks a PGN file, its
//! finished games are imported for them (`usecases::import`, as `--as-user` does) and the
//! page shows the summary with links to the games.

use actix_session::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::usecases::import::{ImportSummary, Importer, import_pgn};
use crate::web::errors::{UseCaseError, WebError};
use crate::web::forms::{check_csrf, require_login};
use crate::web::respond::render;
use crate::web::{AppState, Layout, limits, session};

/// The largest PGN the page imports at once.
pub const MAX_IMPORT_BYTES: usize = limits::IMPORT_PGN_LIMIT;

/// Imported games linked from the summary; the rest are found by the search link.
const LINKED_GAMES: usize = 200;

/// The refusal of a PGN above the limit.
fn too_large() -> String {
    limits::import_too_large()
}

/// The form's body limit (`limits::IMPORT_FORM_LIMIT`): the PGN URL-encoded and the token.
pub fn form_config() -> web::FormConfig {
    web::FormConfig::default()
        .limit(limits::IMPORT_FORM_LIMIT)
        .error_handler(|err, _| {
            let status = if limits::form_overflowed(&err) {
                StatusCode::PAYLOAD_TOO_LARGE
            } else {
                StatusCode::BAD_REQUEST
            };
            // Fixed words only: nothing of the request is echoed.
            let text = if status == StatusCode::PAYLOAD_TOO_LARGE {
                too_large()
            } else {
                "The form was not understood: nothing was imported.".to_string()
            };
            let response = HttpResponse::build(status)
                .content_type("text/html; charset=utf-8")
                .body(format!(
                    "<!DOCTYPE html><title>Import refused</title><p id=\"import-error\">{text}</p>"
                ));
            if status == StatusCode::PAYLOAD_TOO_LARGE {
                limits::refuse_and_close(err, response)
            } else {
                actix_web::error::InternalError::from_response(err, response).into()
            }
        })
}

#[derive(Deserialize)]
pub struct ImportForm {
    csrf_token: String,
    #[serde(default)]
    pgn: String,
}

/// One imported game as the summary links it.
pub struct GameLink {
    pub id: i64,
    pub number: usize,
    pub white: String,
    pub black: String,
    pub result: String,
}

/// One skipped game: its number in the file and why.
pub struct SkipLine {
    pub number: usize,
    pub reason: String,
}

/// What an import did, as the page shows it.
pub struct SummaryView {
    pub imported: usize,
    pub skipped: Vec<SkipLine>,
    pub games: Vec<GameLink>,
    /// More games were imported than are linked.
    pub more: usize,
    /// The search for the importer's own imported games.
    pub search: String,
}

#[derive(Template)]
#[template(path = "import.html")]
struct ImportPage {
    layout: Layout,
    max_mb: usize,
    error: Option<String>,
    pgn: String,
    summary: Option<SummaryView>,
}

fn page(
    session: &Session,
    error: Option<String>,
    pgn: String,
    summary: Option<SummaryView>,
) -> ImportPage {
    ImportPage {
        layout: Layout::from_session(session),
        max_mb: MAX_IMPORT_BYTES / (1024 * 1024),
        error,
        pgn,
        summary,
    }
}

/// `GET /import`: the form (log in first).
pub async fn import_form(session: Session) -> Result<HttpResponse, WebError> {
    if let Err(redirect) = require_login(&session, "/import") {
        return Ok(*redirect);
    }
    render(StatusCode::OK, &page(&session, None, String::new(), None))
}

/// `POST /import`: imports the PGN for the logged-in user and shows the summary.
pub async fn import(
    state: web::Data<AppState>,
    session: Session,
    form: web::Form<ImportForm>,
) -> Result<HttpResponse, WebError> {
    let me = match require_login(&session, "/import") {
        Ok(me) => me,
        Err(redirect) => return Ok(*redirect),
    };
    check_csrf(&session, &form.csrf_token)?;
    let pgn = form.into_inner().pgn;
    if pgn.len() > MAX_IMPORT_BYTES {
        let refused = page(&session, Some(too_large()), String::new(), None);
        return render(StatusCode::PAYLOAD_TOO_LARGE, &refused);
    }
    if pgn.trim().is_empty() {
        let refused = page(
            &session,
            Some("Paste the games or choose a PGN file first.".into()),
            pgn,
            None,
        );
        return render(StatusCode::UNPROCESSABLE_ENTITY, &refused);
    }
    let username = session::current_username(&session).unwrap_or_default();
    let importer = Importer {
        user_id: me,
        username: username.clone(),
    };
    let now = state.now();
    let done = state
        .db(move |c| import_pgn(c, now, pgn.as_bytes(), Some(&importer), &mut |_| {}))
        .await?;
    match done {
        Ok(summary) => render(
            StatusCode::OK,
            &page(
                &session,
                None,
                String::new(),
                Some(view(&summary, &username)),
            ),
        ),
        Err(e) if e.status().is_server_error() => Err(WebError::internal(e)),
        Err(e) => render(
            e.status(),
            &page(&session, Some(e.message()), String::new(), None),
        ),
    }
}

fn view(summary: &ImportSummary, username: &str) -> SummaryView {
    let games: Vec<GameLink> = summary
        .imported
        .iter()
        .take(LINKED_GAMES)
        .map(|g| GameLink {
            id: g.game_id,
            number: g.index,
            white: g.white.clone(),
            black: g.black.clone(),
            result: g.result.clone(),
        })
        .collect();
    SummaryView {
        imported: summary.imported.len(),
        more: summary.imported.len().saturating_sub(games.len()),
        games,
        skipped: summary
            .skipped
            .iter()
            .map(|s| SkipLine {
                number: s.index,
                reason: s.reason.to_string(),
            })
            .collect(),
        search: serde_urlencoded::to_string([("player", username)]).unwrap_or_default(),
    }
}
