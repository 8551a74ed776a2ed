//! Server-rendered pages: one template struct per page, forms posted back with a CSRF token.
//! This module registers their routes; the answers they share are `web::respond`'s and the
//! checks of a posted form `web::forms`'.

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

use actix_web::http::Method;

use crate::web::route_table::Access::{Account, Player, Public};
use crate::web::route_table::Routes;

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
