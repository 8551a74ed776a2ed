//! Server-rendered pages: one template struct per page, forms posted back with a CSRF token.

mod account;
mod analysis;
mod bughouse;
mod challenges;
mod conversation;
mod dashboard;
mod engine_analysis;
mod game;
mod help;
mod home;
mod import;
mod minesweeper;
mod notifications;
mod preferences;
mod profile;
mod search;
mod showcase;
mod tags;

use actix_session::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;

use crate::web::errors::WebError;
use crate::web::session;

/// Registers the page routes.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(home::index))
        .route("/games", web::get().to(home::my_games_page))
        .route("/search", web::get().to(search::search_page))
        .route("/search.pgn", web::get().to(search::search_pgn))
        .route("/next", web::get().to(home::next_game))
        .route("/computer-games", web::post().to(home::play_computer))
        .route("/help/game", web::get().to(help::game_help))
        .route("/variants", web::get().to(help::variants))
        .route("/signup", web::get().to(account::signup_form))
        .route("/signup", web::post().to(account::signup))
        .route("/login", web::get().to(account::login_form))
        .route("/login", web::post().to(account::login))
        .route("/logout", web::post().to(account::logout))
        .route("/account", web::get().to(account::account_page))
        .route("/account/tokens", web::post().to(account::create_token))
        .route("/account/preferences", web::post().to(preferences::save))
        .route(
            "/account/notifications",
            web::post().to(notifications::save_settings),
        )
        .route(
            "/account/verify-email",
            web::post().to(notifications::resend_verification),
        )
        .route(
            "/unsubscribe",
            web::get().to(notifications::unsubscribe_form),
        )
        .route("/unsubscribe", web::post().to(notifications::unsubscribe))
        .route("/verify-email", web::get().to(notifications::verify_email))
        .route("/account/leave", web::post().to(account::book_leave))
        .route(
            "/account/leave/{id}/cancel",
            web::post().to(account::cancel_leave),
        )
        .route(
            "/account/leave/{id}/end",
            web::post().to(account::end_leave),
        )
        .route("/challenges", web::get().to(challenges::list))
        .route("/challenges", web::post().to(challenges::create))
        .route(
            "/challenges/link/{token}",
            web::get().to(challenges::show_link),
        )
        .route(
            "/challenges/{id}/accept",
            web::post().to(challenges::accept),
        )
        .route(
            "/challenges/{id}/cancel",
            web::post().to(challenges::cancel),
        )
        .service(
            web::resource("/import")
                .app_data(import::form_config())
                .route(web::get().to(import::import_form))
                .route(web::post().to(import::import)),
        )
        .route("/users/{name}", web::get().to(profile::show))
        .route(
            "/users/{name}/games.pgn",
            web::get().to(search::user_games_pgn),
        )
        .route("/games/{id}", web::get().to(game::show))
        .route("/games/{id}", web::post().to(game::act))
        .route("/games/{id}/match", web::post().to(bughouse::act))
        .route("/games/{id}/bombs", web::post().to(minesweeper::place))
        .route("/games/{id}/tags", web::post().to(tags::add))
        .route("/games/{id}/tags/remove", web::post().to(tags::remove))
        .route(
            "/games/{id}/engine-analysis",
            web::post().to(engine_analysis::ask),
        )
        .route("/games/{id}/kibitz", web::post().to(conversation::kibitz))
        .route(
            "/games/{id}/notes",
            web::post().to(conversation::save_notes),
        )
        .route(
            "/games/{id}/conditional/clear",
            web::post().to(game::clear_conditional),
        )
        .service(
            web::resource("/games/{id}/analysis.json")
                .app_data(crate::web::api::analysis::json_config())
                .route(web::get().to(analysis::show))
                .route(web::put().to(analysis::save)),
        );
}

/// Renders a template with a status code.
pub fn render(status: StatusCode, page: &impl Template) -> Result<HttpResponse, WebError> {
    let body = page.render().map_err(WebError::internal)?;
    Ok(crate::web::errors::with_retry_after(
        HttpResponse::build(status)
            .content_type("text/html; charset=utf-8")
            .body(body),
    ))
}

/// `next` if it is a path on this site (a redirect target from a form or the address), else
/// `fallback`: never another host. Browsers drop tabs and line breaks from an address and read
/// `\` as `/`, so `/\t/evil.example` would lead to `//evil.example`: a path with a control
/// character, white space or a backslash is not taken.
fn local_path(next: Option<&str>, fallback: &str) -> String {
    match next {
        Some(n)
            if n.starts_with('/')
                && !n.starts_with("//")
                && !n.contains(|c: char| c == '\\' || c.is_control() || c.is_whitespace()) =>
        {
            n.to_string()
        }
        _ => fallback.to_string(),
    }
}

/// A 303 redirect, the answer to every successful form post.
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((actix_web::http::header::LOCATION, location))
        .finish()
}

/// Refuses a form whose CSRF token is not this session's.
pub fn check_csrf(session: &Session, submitted: &str) -> Result<(), WebError> {
    if session::csrf_ok(session, submitted) {
        Ok(())
    } else {
        Err(WebError::Forbidden(
            "this form has expired or did not come from this site: reload the page and try again"
                .into(),
        ))
    }
}

/// The logged-in user's id, or a redirect to the login page that comes back to `back`.
pub fn require_login(session: &Session, back: &str) -> Result<i64, Box<HttpResponse>> {
    session::current_user_id(session).ok_or_else(|| {
        let next: String = serde_urlencoded::to_string([("next", back)]).unwrap_or_default();
        Box::new(see_other(&format!("/login?{next}")))
    })
}

/// Who sends a form about the game of a `/games/{id}…` path: the game id and the logged-in
/// user, once the CSRF token is checked. A malformed id is 404; a visitor gets `Err` with the
/// redirect to log in and come back to the game.
pub fn game_form_sender(
    session: &Session,
    path: &str,
    csrf: &str,
) -> Result<Result<(i64, i64), Box<HttpResponse>>, WebError> {
    let id: i64 = path.parse().map_err(|_| WebError::NotFound)?;
    let me = match require_login(session, &format!("/games/{id}")) {
        Ok(me) => me,
        Err(redirect) => return Ok(Err(redirect)),
    };
    check_csrf(session, csrf)?;
    Ok(Ok((id, me)))
}

#[cfg(test)]
mod tests {
    use super::local_path;

    #[test]
    fn a_redirect_target_stays_on_the_site() {
        for ok in ["/", "/games/7?ply=3", "/search?player=alice&page=2"] {
            assert_eq!(local_path(Some(ok), "/"), ok);
        }
        for other in [
            "//evil.example",
            "/\\evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/\r/evil.example",
            "/ /evil.example",
            "https://evil.example",
            "javascript:alert(1)",
            "",
        ] {
            assert_eq!(local_path(Some(other), "/"), "/", "{other:?}");
        }
        assert_eq!(local_path(None, "/games"), "/games");
    }
}
