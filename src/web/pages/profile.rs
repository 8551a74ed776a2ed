//! The public profile `/users/{name}`: ratings per variant with their history, recent games.

use actix_session::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;

use crate::usecases::profiles::{HistoryEntry, Profile, RecentGame, VariantRating, load_profile};
use crate::usecases::ratings::is_provisional;
use crate::web::errors::WebError;
use crate::web::mini_board::variant_words;
use crate::web::respond::render;
use crate::web::time_words::moment_text;
use crate::web::{AppState, Layout};

/// Rating changes shown per variant on the page, newest first.
pub const PAGE_HISTORY: i64 = 20;
/// Games shown on the page, most recently active first.
pub const PAGE_GAMES: i64 = 20;

/// One line of a rating's history as drawn.
pub struct HistoryLine {
    pub game_id: i64,
    pub date: String,
    pub opponent: String,
    pub result: &'static str,
    pub before: i64,
    pub after: i64,
    pub change: String,
}

/// A rating as drawn: rounded, with its provisional mark and history.
pub struct RatingView {
    /// The stored variant name (`atomic`), for element ids.
    pub key: String,
    pub variant: String,
    pub rating: i64,
    pub deviation: i64,
    pub provisional: bool,
    pub games: i32,
    pub history: Vec<HistoryLine>,
}

/// A recent game as drawn.
pub struct GameLine {
    pub id: i64,
    pub variant: String,
    /// The usernames (for the links) and the names shown.
    pub white: String,
    pub black: String,
    pub white_name: String,
    pub black_name: String,
    /// Linked to a profile only when the name is an account's.
    pub white_account: bool,
    pub black_account: bool,
    pub state: String,
    pub rated: bool,
    pub date: String,
}

fn history_line(h: &HistoryEntry) -> HistoryLine {
    let c = &h.change;
    let (before, after) = (
        c.rating_before.round() as i64,
        c.rating_after.round() as i64,
    );
    let diff = after - before;
    HistoryLine {
        game_id: c.game_id,
        date: c.created_at.format("%Y-%m-%d").to_string(),
        opponent: h.opponent.clone(),
        result: if c.score > 0.75 {
            "won"
        } else if c.score < 0.25 {
            "lost"
        } else {
            "drew"
        },
        before,
        after,
        change: if diff > 0 {
            format!("+{diff}")
        } else if diff < 0 {
            format!("−{}", -diff)
        } else {
            "±0".to_string()
        },
    }
}

fn rating_view(r: &VariantRating) -> RatingView {
    RatingView {
        key: r.rating.variant.clone(),
        variant: variant_words(&r.rating.variant),
        rating: r.rating.rating.round() as i64,
        deviation: r.rating.deviation.round() as i64,
        provisional: is_provisional(r.rating.deviation),
        games: r.rating.games,
        history: r.history.iter().map(history_line).collect(),
    }
}

fn game_line(g: &RecentGame) -> GameLine {
    GameLine {
        id: g.id,
        variant: variant_words(&g.variant),
        white: g.white.clone(),
        black: g.black.clone(),
        white_name: g.white_name.clone(),
        black_name: g.black_name.clone(),
        white_account: g.white_account,
        black_account: g.black_account,
        state: match g.status.as_str() {
            "started" => "in progress".to_string(),
            "finished" => g.result.clone(),
            other => other.to_string(),
        },
        rated: g.rated,
        date: g.updated_at.format("%Y-%m-%d").to_string(),
    }
}

#[derive(Template)]
#[template(path = "profile.html")]
struct ProfilePage {
    layout: Layout,
    username: String,
    member_since: String,
    ratings: Vec<RatingView>,
    games: Vec<GameLine>,
    leave: Option<crate::usecases::leave::LeaveSummary>,
    on_leave_until: Option<String>,
}

impl ProfilePage {
    fn new(layout: Layout, p: &Profile) -> ProfilePage {
        ProfilePage {
            layout,
            username: p.username.clone(),
            member_since: p.member_since.format("%Y-%m-%d").to_string(),
            ratings: p.ratings.iter().map(rating_view).collect(),
            games: p.recent_games.iter().map(game_line).collect(),
            leave: None,
            on_leave_until: None,
        }
    }
}

/// `GET /users/{name}`: anyone may look; 404 for an unknown name.
pub async fn show(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let name = path.into_inner();
    let now = state.now();
    let allowance = state.settings.game.leave_days_per_year;
    let reader = crate::web::session::current_user_id(&session);
    let (profile, leave, on_leave_until) = state
        .db(move |c| -> Result<_, WebError> {
            let Some(profile) = load_profile(c, &name, PAGE_HISTORY, PAGE_GAMES)? else {
                return Ok((None, None, None));
            };
            let user =
                crate::usecases::accounts::user_by_name(c, &name)?.ok_or(WebError::NotFound)?;
            let leave = crate::usecases::leave::leave_summary(c, now, allowance, user.id)?;
            let periods = crate::game::clock::leave_periods(c, user.id)?;
            // The end of leave under way, in the reader's time zone.
            let until = match crate::usecases::leave::on_leave_until(&periods, now) {
                Some(t) => {
                    let zone = match reader {
                        Some(id) => Some(crate::usecases::email_settings::time_zone_of(c, id)?),
                        None => None,
                    };
                    Some(moment_text(t, zone))
                }
                None => None,
            };
            Ok((Some(profile), Some(leave), until))
        })
        .await??;
    let profile = profile.ok_or(WebError::NotFound)?;
    let mut page = ProfilePage::new(Layout::from_session(&session), &profile);
    page.leave = leave;
    page.on_leave_until = on_leave_until;
    render(StatusCode::OK, &page)
}
