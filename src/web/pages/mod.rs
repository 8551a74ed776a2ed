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
use actix_web::HttpResponse;
use actix_web::http::{Method, StatusCode};
use askama::Template;

use crate::web::errors::WebError;
use crate::web::route_table::Access::{Account, Player, Public};
use crate::web::route_table::Routes;
use crate::web::session;

/// Registers the page routes.
pub fn routes(r: &mut Routes) {
    r.get("/", Public, home::index)
        .get("/games", Account, home::my_games_page)
        .get("/search", Public, search::search_page)
        .get("/search.pgn", Public, search::search_pgn)
        .get("/next", Account, home::next_game)
        .post("/computer-games", Account, home::play_computer)
        .get("/help/game", Public, help::game_help)
        .get("/variants", Public, help::variants)
        .get("/signup", Public, account::signup_form)
        .post("/signup", Public, account::signup)
        .get("/login", Public, account::login_form)
        .post("/login", Public, account::login)
        .post("/logout", Account, account::logout)
        .get("/account", Account, account::account_page)
        .post("/account/tokens", Account, account::create_token)
        .post("/account/preferences", Account, preferences::save)
        .post(
            "/account/notifications",
            Account,
            notifications::save_settings,
        )
        .post(
            "/account/verify-email",
            Account,
            notifications::resend_verification,
        )
        .get("/unsubscribe", Public, notifications::unsubscribe_form)
        .post("/unsubscribe", Public, notifications::unsubscribe)
        .get("/verify-email", Public, notifications::verify_email)
        .post("/account/leave", Account, account::book_leave)
        .post("/account/leave/{id}/cancel", Account, account::cancel_leave)
        .post("/account/leave/{id}/end", Account, account::end_leave)
        .get("/challenges", Public, challenges::list)
        .post("/challenges", Account, challenges::create)
        .get("/challenges/link/{token}", Public, challenges::show_link)
        .post("/challenges/{id}/accept", Account, challenges::accept)
        .post("/challenges/{id}/cancel", Account, challenges::cancel)
        .resource(
            "/import",
            |res| res.app_data(import::form_config()),
            |res| {
                res.add(Method::GET, Account, import::import_form).add(
                    Method::POST,
                    Account,
                    import::import,
                );
            },
        )
        .get("/users/{name}", Public, profile::show)
        .get("/users/{name}/games.pgn", Public, search::user_games_pgn)
        .get("/games/{id}", Public, game::show)
        .post("/games/{id}", Player, game::act)
        .post("/games/{id}/match", Player, bughouse::act)
        .post("/games/{id}/bombs", Player, minesweeper::place)
        .post("/games/{id}/tags", Account, tags::add)
        .post("/games/{id}/tags/remove", Account, tags::remove)
        .post("/games/{id}/engine-analysis", Account, engine_analysis::ask)
        .post("/games/{id}/kibitz", Account, conversation::kibitz)
        .post("/games/{id}/notes", Player, conversation::save_notes)
        .post(
            "/games/{id}/conditional/clear",
            Player,
            game::clear_conditional,
        )
        .resource(
            "/games/{id}/analysis.json",
            |res| res.app_data(crate::web::api::analysis::json_config()),
            |res| {
                res.add(Method::GET, Account, analysis::show).add(
                    Method::PUT,
                    Account,
                    analysis::save,
                );
            },
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
