//! The challenges page: create a seek, a direct challenge or a share link; accept; cancel.

use actix_session::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use slowfuse_rules::GameKind;

use crate::models::Challenge;
use crate::usecases::challenges::{
    self, ChallengeError, ChallengeListing, ChallengeRequest, OFFERED_VARIANTS, challenge_by_token,
};
use crate::usecases::clocks::{DAYS_PER_MOVE, TimeControlRequest};
use crate::usecases::seats::{SeatChoice, SeatedChallengeRequest};
use crate::web::errors::{UseCaseError, WebError, refusal};
use crate::web::forms::{check_csrf, require_login};
use crate::web::respond::{render, see_other};
use crate::web::{AppState, Layout, session};

/// A variant as offered in the form.
pub struct VariantChoice {
    pub value: &'static str,
    pub label: &'static str,
}

fn variant_choices() -> Vec<VariantChoice> {
    let mut choices: Vec<VariantChoice> = OFFERED_VARIANTS
        .iter()
        .map(|v| VariantChoice {
            value: v.as_str(),
            label: v.display_name(),
        })
        .collect();
    choices.push(VariantChoice {
        value: GameKind::Minesweeper.as_str(),
        label: GameKind::Minesweeper.display_name(),
    });
    choices.push(VariantChoice {
        value: GameKind::Bughouse.as_str(),
        label: "Bughouse (four players)",
    });
    choices
}

#[derive(Template)]
#[template(path = "challenges.html")]
struct ChallengesPage {
    layout: Layout,
    me: Option<i64>,
    challenges: Vec<ChallengeListing>,
    variants: Vec<VariantChoice>,
    days_choices: &'static [i32],
    presets: Vec<&'static str>,
    error: Option<String>,
    created_link: Option<String>,
    opponent: String,
}

async fn list_page(
    state: &AppState,
    session: &Session,
    status: StatusCode,
    error: Option<String>,
    created_link: Option<String>,
    opponent: String,
) -> Result<HttpResponse, WebError> {
    let me = session::current_user_id(session);
    let list = state
        .db(move |c| challenges::visible_challenges(c, me))
        .await??;
    let page = ChallengesPage {
        layout: Layout::from_session(session),
        me,
        challenges: list,
        variants: variant_choices(),
        days_choices: DAYS_PER_MOVE,
        presets: slowfuse_rules::FISCHER_PRESETS
            .iter()
            .map(|p| p.0)
            .collect(),
        error,
        created_link,
        opponent,
    };
    render(status, &page)
}

/// The list again with why a form was refused (the server's failure goes to the error page).
async fn refused_list(
    state: &AppState,
    session: &Session,
    e: impl UseCaseError,
    opponent: String,
) -> Result<HttpResponse, WebError> {
    let refused = refusal(e)?;
    list_page(
        state,
        session,
        refused.status,
        Some(refused.message),
        None,
        opponent,
    )
    .await
}

pub async fn list(state: web::Data<AppState>, session: Session) -> Result<HttpResponse, WebError> {
    list_page(&state, &session, StatusCode::OK, None, None, String::new()).await
}

#[derive(Deserialize)]
pub struct CreateForm {
    csrf_token: String,
    variant: String,
    color: String,
    time_control: Option<String>,
    days_per_move: Option<String>,
    preset: Option<String>,
    on_time: Option<String>,
    opponent: Option<String>,
    kind: Option<String>,
    /// `rated` or `casual` (the default).
    rated: Option<String>,
    /// The "private game" checkbox.
    private: Option<String>,
    /// Minesweeper: the options (`chosen`, `random+modest`, …).
    minesweeper: Option<String>,
    /// Minesweeper: hours to place the bombs.
    setup_hours: Option<String>,
    /// Minesweeper: the "modest blasts" checkbox.
    modest: Option<String>,
    /// Bughouse: the creator's seat.
    seat: Option<String>,
    /// Bughouse: players invited to seats by name.
    invite_a1: Option<String>,
    invite_b1: Option<String>,
    invite_b2: Option<String>,
    invite_a2: Option<String>,
    /// Bughouse: the computer's level for the seats nobody is kept for (empty: wait for
    /// players).
    fill_with_computer: Option<String>,
}

pub async fn create(
    state: web::Data<AppState>,
    session: Session,
    form: web::Form<CreateForm>,
) -> Result<HttpResponse, WebError> {
    let me = match require_login(&session, "/challenges") {
        Ok(id) => id,
        Err(redirect) => return Ok(*redirect),
    };
    check_csrf(&session, &form.csrf_token)?;
    let form = form.into_inner();
    let opponent = form.opponent.clone().unwrap_or_default();
    if let Ok(GameKind::Bughouse) = form.variant.parse::<GameKind>() {
        return create_seated(&state, &session, me, form).await;
    }
    let time = form_time(&form);
    let req = ChallengeRequest {
        variant: form.variant,
        time,
        color: form.color,
        opponent: form.opponent,
        link_only: form.kind.as_deref() == Some("link"),
        rated: form.rated.as_deref() == Some("rated"),
        auto_flag: form.on_time.as_deref() != Some("claim"),
        private: form.private.is_some(),
        minesweeper: form.minesweeper.as_deref().map(|placement| {
            if form.modest.is_some() {
                format!("{placement}+modest")
            } else {
                placement.to_string()
            }
        }),
        setup_hours: form
            .setup_hours
            .as_deref()
            .and_then(|h| h.trim().parse().ok()),
    };
    let now = state.now();
    let random = state.random.clone();
    match state
        .db(move |c| {
            crate::usecases::computer::create_challenge_answered(c, now, &*random, me, &req)
        })
        .await?
    {
        Ok((_, Some(game_id))) => {
            state.wake_computer();
            session::flash(&session, "info", "The computer took your challenge.");
            Ok(see_other(&format!("/games/{game_id}")))
        }
        Ok((c, None)) if c.kind == "link" => {
            let link = share_link(&state, &c);
            list_page(
                &state,
                &session,
                StatusCode::CREATED,
                None,
                Some(link),
                String::new(),
            )
            .await
        }
        Ok((_, None)) => {
            session::flash(&session, "info", "Challenge created.");
            Ok(see_other("/challenges"))
        }
        Err(e) => refused_list(&state, &session, e, opponent).await,
    }
}

/// The time control of the form.
fn form_time(form: &CreateForm) -> TimeControlRequest {
    TimeControlRequest {
        kind: form.time_control.clone(),
        days_per_move: Some(
            form.days_per_move
                .as_deref()
                .and_then(|d| d.trim().parse().ok())
                .unwrap_or(0),
        ),
        preset: form.preset.clone(),
        ..TimeControlRequest::default()
    }
}

/// A bughouse challenge from the form: the creator's seat and the players invited by name.
async fn create_seated(
    state: &AppState,
    session: &Session,
    me: i64,
    form: CreateForm,
) -> Result<HttpResponse, WebError> {
    let invite = [
        ("A1", &form.invite_a1),
        ("B1", &form.invite_b1),
        ("B2", &form.invite_b2),
        ("A2", &form.invite_a2),
    ]
    .into_iter()
    .filter_map(|(seat, name)| {
        let name = name.as_deref()?.trim();
        (!name.is_empty()).then(|| (seat.to_string(), name.to_string()))
    })
    .collect();
    let req = SeatedChallengeRequest {
        seat: form.seat.clone().unwrap_or_else(|| "any".to_string()),
        time: form_time(&form),
        invite,
        link_only: form.kind.as_deref() == Some("link"),
        rated: form.rated.as_deref() == Some("rated"),
        auto_flag: form.on_time.as_deref() != Some("claim"),
        private: form.private.is_some(),
    };
    let now = state.now();
    let random = state.random.clone();
    let fill = form
        .fill_with_computer
        .as_deref()
        .map(str::trim)
        .filter(|level| !level.is_empty())
        .map(str::to_string);
    if let Some(level) = fill {
        let made = state
            .db(move |c| {
                crate::usecases::computer::create_seated_with_computer(
                    c, now, &*random, me, &req, &level,
                )
            })
            .await?;
        return match made {
            Ok((_, Some(game_id))) => {
                state.wake_computer();
                session::flash(session, "info", "The computer took the empty seats.");
                Ok(see_other(&format!("/games/{game_id}")))
            }
            Ok((_, None)) => {
                session::flash(
                    session,
                    "info",
                    "The computer took the seats nobody is kept for: the match starts when the players you named sit down.",
                );
                Ok(see_other("/challenges"))
            }
            Err(e) => refused_list(state, session, e, String::new()).await,
        };
    }
    match state
        .db(move |c| crate::usecases::seats::create_seated_challenge(c, now, me, &req))
        .await?
    {
        Ok(seated) if seated.challenge.kind == "link" => {
            let link = share_link(state, &seated.challenge);
            list_page(
                state,
                session,
                StatusCode::CREATED,
                None,
                Some(link),
                String::new(),
            )
            .await
        }
        Ok(_) => {
            session::flash(
                session,
                "info",
                "Challenge created: the match starts when all four seats are taken.",
            );
            Ok(see_other("/challenges"))
        }
        Err(e) => refused_list(state, session, e, String::new()).await,
    }
}

fn share_link(state: &AppState, c: &Challenge) -> String {
    format!(
        "{}/challenges/link/{}",
        state.settings.server.public_url.trim_end_matches('/'),
        c.share_token
    )
}

#[derive(Template)]
#[template(path = "challenge_link.html")]
struct ChallengeLinkPage {
    layout: Layout,
    challenge: Challenge,
    /// The variant as people write it ("King of the Hill").
    variant: String,
    /// The time control in words ("1 day per move").
    time: String,
    creator: String,
    mine: bool,
    /// A bughouse challenge's seats in words (empty for two players).
    seats_text: String,
    /// The bughouse seats the viewer may take with this link.
    open_seats: Vec<String>,
    /// The viewer already has a seat in it.
    seated: bool,
}

pub async fn show_link(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let token = path.into_inner();
    let found = state
        .db(move |c| -> Result<_, WebError> {
            let Some(ch) = challenge_by_token(c, &token)? else {
                return Ok(None);
            };
            let creator = crate::usecases::accounts::user_by_id(c, ch.creator_id)?
                .map(|u| u.username)
                .unwrap_or_default();
            let seats = challenges::seat_views(c, ch.id)?;
            Ok(Some((ch, creator, seats)))
        })
        .await??;
    let (challenge, creator, seats) = found.ok_or(WebError::NotFound)?;
    let me = session::current_user_id(&session);
    let mine = me == Some(challenge.creator_id);
    let seated = seats
        .iter()
        .any(|s| s.taken_by.as_ref().is_some_and(|(id, _)| Some(*id) == me));
    // Whoever holds the link may take a free seat not kept for someone else.
    let open_seats = if seated {
        Vec::new()
    } else {
        seats
            .iter()
            .filter(|s| s.taken_by.is_none())
            .filter(|s| s.invited.as_ref().is_none_or(|(id, _)| Some(*id) == me))
            .map(|s| s.seat.to_string())
            .collect()
    };
    let listing = ChallengeListing {
        challenge: challenge.clone(),
        creator: creator.clone(),
        opponent: None,
        mine,
        seats,
    };
    let seats_text = listing.seats_text();
    let variant = crate::web::mini_board::variant_words(&challenge.variant);
    let time = crate::game::clock::challenge_time_control(&challenge).describe();
    let page = ChallengeLinkPage {
        layout: Layout::from_session(&session),
        challenge,
        variant,
        time,
        creator,
        mine,
        seats_text,
        open_seats,
        seated,
    };
    render(StatusCode::OK, &page)
}

#[derive(Deserialize)]
pub struct AcceptForm {
    csrf_token: String,
    token: Option<String>,
    /// Bughouse: the seat to take (`any` when not given).
    seat: Option<String>,
}

pub async fn accept(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<i64>,
    form: web::Form<AcceptForm>,
) -> Result<HttpResponse, WebError> {
    let me = match require_login(&session, "/challenges") {
        Ok(id) => id,
        Err(redirect) => return Ok(*redirect),
    };
    check_csrf(&session, &form.csrf_token)?;
    let id = path.into_inner();
    let form = form.into_inner();
    let token = form.token;
    let now = state.now();
    let random = state.random.clone();
    let seat = form.seat;
    match state
        .db(
            move |c| -> Result<Result<Option<i64>, ChallengeError>, WebError> {
                let Some(challenge) = challenges::challenge_by_id(c, id)? else {
                    return Ok(Err(ChallengeError::NotFound));
                };
                if challenge.variant.parse::<GameKind>() != Ok(GameKind::Bughouse) {
                    return Ok(challenges::accept_challenge(
                        c,
                        now,
                        &*random,
                        id,
                        me,
                        token.as_deref(),
                    )
                    .map(Some));
                }
                let choice = match SeatChoice::parse(seat.as_deref().unwrap_or("any")) {
                    Ok(choice) => choice,
                    Err(e) => return Ok(Err(e)),
                };
                Ok(crate::usecases::seats::take_seat(
                    c,
                    now,
                    &*random,
                    id,
                    me,
                    choice,
                    token.as_deref(),
                )
                .map(|(_, game)| game))
            },
        )
        .await??
    {
        Ok(Some(game_id)) => Ok(see_other(&format!("/games/{game_id}"))),
        Ok(None) => {
            session::flash(
                &session,
                "info",
                "You have a seat: the match starts when all four seats are taken.",
            );
            Ok(see_other("/challenges"))
        }
        Err(e) => refused_list(&state, &session, e, String::new()).await,
    }
}

pub async fn cancel(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<i64>,
    form: web::Form<crate::web::forms::CsrfForm>,
) -> Result<HttpResponse, WebError> {
    let me = match require_login(&session, "/challenges") {
        Ok(id) => id,
        Err(redirect) => return Ok(*redirect),
    };
    check_csrf(&session, form.csrf_token())?;
    let id = path.into_inner();
    let now = state.now();
    match state
        .db(move |c| challenges::cancel_challenge(c, now, id, me))
        .await?
    {
        Ok(()) => {
            session::flash(&session, "info", "Challenge cancelled.");
            Ok(see_other("/challenges"))
        }
        Err(e) => refused_list(&state, &session, e, String::new()).await,
    }
}
