//! The challenges page: create a seek, a direct challenge or a share link; accept; cancel.

use actix_session::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use super::{check_csrf, render, require_login, see_other};
use crate::models::Challenge;
use crate::usecases::challenges::{
    self, ChallengeListing, ChallengeRequest, OFFERED_VARIANTS, challenge_by_token,
};
use crate::usecases::clocks::{DAYS_PER_MOVE, TimeControlRequest};
use crate::web::errors::{WebError, refusal};
use crate::web::{AppState, Layout, session};

/// A variant as offered in the form.
pub struct VariantChoice {
    pub value: &'static str,
    pub label: &'static str,
}

fn variant_choices() -> Vec<VariantChoice> {
    OFFERED_VARIANTS
        .iter()
        .map(|v| VariantChoice {
            value: v.as_str(),
            label: v.display_name(),
        })
        .collect()
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
    let req = ChallengeRequest {
        variant: form.variant,
        color: form.color,
        time: TimeControlRequest {
            kind: form.time_control,
            days_per_move: Some(
                form.days_per_move
                    .as_deref()
                    .and_then(|d| d.trim().parse().ok())
                    .unwrap_or(0),
            ),
            preset: form.preset,
            ..TimeControlRequest::default()
        },
        opponent: form.opponent,
        link_only: form.kind.as_deref() == Some("link"),
        rated: form.rated.as_deref() == Some("rated"),
        auto_flag: form.on_time.as_deref() != Some("claim"),
        private: form.private.is_some(),
    };
    let now = state.now();
    match state
        .db(move |c| challenges::create_challenge(c, now, me, &req))
        .await?
    {
        Ok(c) if c.kind == "link" => {
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
        Ok(_) => {
            session::flash(&session, "info", "Challenge created.");
            Ok(see_other("/challenges"))
        }
        Err(e) => {
            let refused = refusal(e)?;
            list_page(
                &state,
                &session,
                refused.status,
                Some(refused.message),
                None,
                opponent,
            )
            .await
        }
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
    creator: String,
    mine: bool,
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
            Ok(Some((ch, creator)))
        })
        .await??;
    let (challenge, creator) = found.ok_or(WebError::NotFound)?;
    let mine = session::current_user_id(&session) == Some(challenge.creator_id);
    let variant = challenge
        .variant
        .parse::<slowfuse_rules::Variant>()
        .map_or_else(
            |_| challenge.variant.clone(),
            |v| v.display_name().to_string(),
        );
    let page = ChallengeLinkPage {
        layout: Layout::from_session(&session),
        challenge,
        variant,
        creator,
        mine,
    };
    render(StatusCode::OK, &page)
}

#[derive(Deserialize)]
pub struct AcceptForm {
    csrf_token: String,
    token: Option<String>,
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
    let token = form.into_inner().token;
    let now = state.now();
    let random = state.random.clone();
    match state
        .db(move |c| challenges::accept_challenge(c, now, &*random, id, me, token.as_deref()))
        .await?
    {
        Ok(game_id) => Ok(see_other(&format!("/games/{game_id}"))),
        Err(e) => {
            let refused = refusal(e)?;
            list_page(
                &state,
                &session,
                refused.status,
                Some(refused.message),
                None,
                String::new(),
            )
            .await
        }
    }
}

pub async fn cancel(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<i64>,
    form: web::Form<super::account::CsrfForm>,
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
        Err(e) => {
            let refused = refusal(e)?;
            list_page(
                &state,
                &session,
                refused.status,
                Some(refused.message),
                None,
                String::new(),
            )
            .await
        }
    }
}
