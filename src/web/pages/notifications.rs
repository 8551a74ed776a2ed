//! Mail links and settings: one-click unsubscribe and address confirmation (no login needed,
//! a signed token instead), and the notification form of the account page.

use std::collections::HashMap;

use actix_session::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::mail::Signer;
use crate::usecases::accounts::user_by_id;
use crate::usecases::email_settings::{self, DigestTime, SettingsError};
use crate::usecases::notify::{Kind, Mode};
use crate::web::errors::{WebError, refusal};
use crate::web::forms::{check_csrf, require_login};
use crate::web::respond::{render, see_other};
use crate::web::{AppState, Layout, session};

#[derive(Template)]
#[template(path = "unsubscribe.html")]
struct UnsubscribePage {
    layout: Layout,
    token: String,
    username: String,
    label: &'static str,
    done: bool,
}

#[derive(Template)]
#[template(path = "email_confirmed.html")]
struct EmailConfirmedPage {
    layout: Layout,
    username: String,
    email: String,
    newly: bool,
}

#[derive(Deserialize)]
pub struct TokenQuery {
    token: Option<String>,
}

const BAD_UNSUBSCRIBE: &str = "This unsubscribe link is not valid (it may have been cut short when copied). Open it again from the mail, or choose your mails on your account page.";

/// Checks an unsubscribe token: the kind it stops and the name of its user.
async fn unsubscribe_target(
    state: &AppState,
    token: Option<&str>,
) -> Result<(Kind, i64, String), WebError> {
    let bad = || WebError::BadRequest(BAD_UNSUBSCRIBE.to_string());
    let claim = state
        .signer
        .check_unsubscribe(token.unwrap_or(""))
        .ok_or_else(bad)?;
    let kind = Kind::parse(&claim.kind)
        .filter(|k| *k != Kind::VerifyEmail)
        .ok_or_else(bad)?;
    let user_id = claim.user_id;
    let user = state
        .db(move |c| user_by_id(c, user_id))
        .await??
        .ok_or_else(bad)?;
    Ok((kind, user.id, user.username))
}

/// `GET /unsubscribe?token=…`: asks to confirm (a mail scanner following links changes nothing).
pub async fn unsubscribe_form(
    state: web::Data<AppState>,
    session: Session,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, WebError> {
    let token = query.token.clone().unwrap_or_default();
    let (kind, _, username) = unsubscribe_target(&state, Some(&token)).await?;
    let page = UnsubscribePage {
        layout: Layout::from_session(&session),
        token,
        username,
        label: kind.label(),
        done: false,
    };
    render(StatusCode::OK, &page)
}

/// `POST /unsubscribe?token=…`: the one-click unsubscribe of RFC 8058 (a mail client posts
/// `List-Unsubscribe=One-Click`) and the confirm button; the token may also come in the form.
pub async fn unsubscribe(
    state: web::Data<AppState>,
    session: Session,
    query: web::Query<TokenQuery>,
    form: Option<web::Form<HashMap<String, String>>>,
) -> Result<HttpResponse, WebError> {
    let token = query
        .token
        .clone()
        .or_else(|| form.and_then(|f| f.get("token").cloned()))
        .unwrap_or_default();
    let (kind, user_id, username) = unsubscribe_target(&state, Some(&token)).await?;
    let now = state.now();
    state
        .db(move |c| email_settings::unsubscribe(c, now, user_id, kind))
        .await??;
    let page = UnsubscribePage {
        layout: Layout::from_session(&session),
        token,
        username,
        label: kind.label(),
        done: true,
    };
    render(StatusCode::OK, &page)
}

/// `GET /verify-email?token=…`: the link of the confirmation mail.
pub async fn verify_email(
    state: web::Data<AppState>,
    session: Session,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, WebError> {
    let bad = || {
        WebError::BadRequest(
            "This confirmation link is not valid or has expired: ask for a new one on your account page.".to_string(),
        )
    };
    let token = query.token.clone().unwrap_or_default();
    let user_id = Signer::verify_token_user(&token).ok_or_else(bad)?;
    let user = state
        .db(move |c| user_by_id(c, user_id))
        .await??
        .ok_or_else(bad)?;
    let now = state.now();
    if !state.signer.check_verify(&token, &user.email, now) {
        return Err(bad());
    }
    let newly = state
        .db(move |c| email_settings::confirm_address(c, now, user_id))
        .await??;
    let page = EmailConfirmedPage {
        layout: Layout::from_session(&session),
        username: user.username,
        email: user.email,
        newly,
    };
    render(StatusCode::OK, &page)
}

/// `POST /account/notifications`: the form of the account page: each kind's mode (a missing
/// kind is off), the digest hour and the time zone.
pub async fn save_settings(
    state: web::Data<AppState>,
    session: Session,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    let user_id = match require_login(&session, "/account") {
        Ok(id) => id,
        Err(redirect) => return Ok(*redirect),
    };
    check_csrf(&session, form.get("csrf_token").map_or("", String::as_str))?;
    let mut changes = Vec::new();
    for kind in Kind::OPTIONAL {
        // A select names the mode; a ticked checkbox sends "on"; an unticked one nothing.
        let mode = match form.get(kind.as_str()).map(String::as_str) {
            None => Mode::Off,
            Some("on") => Mode::Immediate,
            Some(name) => Mode::parse(name).ok_or_else(|| {
                WebError::BadRequest(format!("unknown choice for “{}”", kind.label()))
            })?,
        };
        changes.push((kind, mode));
    }
    let hour = match form.get("digest_hour") {
        None => None,
        Some(h) => Some(
            h.trim()
                .parse::<i32>()
                .map_err(|_| WebError::from(SettingsError::Hour))?,
        ),
    };
    let digest_time = DigestTime {
        hour,
        time_zone: form.get("time_zone").map(|z| z.trim().to_string()),
    };
    let now = state.now();
    state
        .db(move |c| email_settings::set_kinds(c, now, user_id, &changes, &digest_time))
        .await??;
    session::flash(&session, "info", "Notification settings saved.");
    Ok(see_other("/account#notifications"))
}

/// `POST /account/verify-email`: another confirmation mail.
pub async fn resend_verification(
    state: web::Data<AppState>,
    session: Session,
    form: web::Form<crate::web::forms::CsrfForm>,
) -> Result<HttpResponse, WebError> {
    let user_id = match require_login(&session, "/account") {
        Ok(id) => id,
        Err(redirect) => return Ok(*redirect),
    };
    check_csrf(&session, form.csrf_token())?;
    let now = state.now();
    let text = match state
        .db(move |c| email_settings::resend_verification(c, now, user_id))
        .await?
    {
        Ok(()) => "A new confirmation mail is on its way.".to_string(),
        Err(e) => refusal(e)?.message,
    };
    session::flash(&session, "info", text);
    Ok(see_other("/account#notifications"))
}
