//! Sign up, log in, log out, and the account page with personal API tokens.

use actix_session::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use chrono::NaiveDateTime;
use serde::Deserialize;

use crate::db::DbConnection;
use crate::usecases::accounts;
use crate::usecases::leave::{self, LeaveSummary};
use crate::usecases::{email_settings, preferences};
use crate::web::api::client_address;
use crate::web::errors::{WebError, refusal};
use crate::web::forms::{CsrfForm, check_csrf, require_login};
use crate::web::game_page::{SettingsForm, settings_form};
use crate::web::respond::{local_path, render, see_other};
use crate::web::time_words::moment_text;
use crate::web::{AppState, Layout, session};

#[derive(Template)]
#[template(path = "signup.html")]
struct SignUpPage {
    layout: Layout,
    error: Option<String>,
    username: String,
    email: String,
    /// Where to go once signed up (a path on this site): an invite kept across the sign-up.
    next: String,
}

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    layout: Layout,
    error: Option<String>,
    username: String,
    next: String,
}

#[derive(Template)]
#[template(path = "account.html")]
struct AccountPage {
    layout: Layout,
    new_token: Option<String>,
    leave: LeaveSummary,
    leave_error: Option<String>,
    today: String,
    /// The default first day of new leave: tomorrow, so that booking never spends today.
    tomorrow: String,
    now: NaiveDateTime,
    mail: email_settings::MailSettingsView,
    time_zones: Vec<&'static str>,
    /// The board settings form (`_settings_form.html`).
    settings: SettingsForm,
}

impl AccountPage {
    /// A moment of the reader's leave in their time zone: a booking starts when it was booked,
    /// or at midnight UTC of its first day.
    fn moment(&self, t: &NaiveDateTime) -> String {
        moment_text(*t, Some(email_settings::time_zone(&self.mail.time_zone)))
    }
}

pub async fn signup_form(
    session: Session,
    query: web::Query<NextQuery>,
) -> Result<HttpResponse, WebError> {
    session::csrf_token(&session); // the form needs a session
    let page = SignUpPage {
        layout: Layout::from_session(&session),
        error: None,
        username: String::new(),
        email: String::new(),
        next: local_path(query.next.as_deref(), "/"),
    };
    render(StatusCode::OK, &page)
}

#[derive(Deserialize)]
pub struct SignUpForm {
    csrf_token: String,
    username: String,
    email: String,
    password: String,
    /// The browser's time zone, filled in by `timezone.js`; empty without script.
    #[serde(default)]
    time_zone: String,
    /// Where to go once signed up.
    #[serde(default)]
    next: Option<String>,
}

pub async fn signup(
    state: web::Data<AppState>,
    session: Session,
    form: web::Form<SignUpForm>,
) -> Result<HttpResponse, WebError> {
    check_csrf(&session, &form.csrf_token)?;
    let form = form.into_inner();
    let now = state.now();
    match crate::web::sign_in::sign_up(&state, &form.username, &form.email, form.password).await? {
        Ok(user) => {
            // A zone the browser named but we do not know is left at UTC, not refused.
            let id = user.id;
            let time = email_settings::DigestTime {
                hour: None,
                time_zone: Some(form.time_zone.trim().to_string()),
            };
            match state
                .db(move |c| email_settings::set_kinds(c, now, id, &[], &time))
                .await?
            {
                Ok(()) | Err(email_settings::SettingsError::TimeZone(_)) => {}
                Err(e) => return Err(e.into()),
            }
            session::log_in(&session, &user);
            session::flash(&session, "info", format!("Welcome, {}!", user.username));
            Ok(see_other(&local_path(form.next.as_deref(), "/")))
        }
        Err(err) => {
            let refused = refusal(err)?;
            let page = SignUpPage {
                layout: Layout::from_session(&session),
                error: Some(refused.message),
                next: local_path(form.next.as_deref(), "/"),
                username: form.username,
                email: form.email,
            };
            render(refused.status, &page)
        }
    }
}

#[derive(Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

pub async fn login_form(
    session: Session,
    query: web::Query<NextQuery>,
) -> Result<HttpResponse, WebError> {
    session::csrf_token(&session); // the form needs a session
    let page = LoginPage {
        layout: Layout::from_session(&session),
        error: None,
        username: String::new(),
        next: local_path(query.next.as_deref(), "/"),
    };
    render(StatusCode::OK, &page)
}

#[derive(Deserialize)]
pub struct LoginForm {
    csrf_token: String,
    username: String,
    password: String,
    next: Option<String>,
}

pub async fn login(
    req: HttpRequest,
    state: web::Data<AppState>,
    session: Session,
    form: web::Form<LoginForm>,
) -> Result<HttpResponse, WebError> {
    check_csrf(&session, &form.csrf_token)?;
    let form = form.into_inner();
    let address = client_address(&req, &state);
    match crate::web::sign_in::log_in(&state, form.username.clone(), form.password, address).await?
    {
        Ok(user) => {
            session::log_in(&session, &user);
            Ok(see_other(&local_path(form.next.as_deref(), "/")))
        }
        Err(err) => {
            let refused = refusal(err)?;
            let page = LoginPage {
                layout: Layout::from_session(&session),
                error: Some(refused.message),
                username: form.username,
                next: local_path(form.next.as_deref(), "/"),
            };
            render(refused.status, &page)
        }
    }
}

pub async fn logout(
    state: web::Data<AppState>,
    session: Session,
    form: web::Form<CsrfForm>,
) -> Result<HttpResponse, WebError> {
    check_csrf(&session, form.csrf_token())?;
    if let Some(user_id) = session::current_user_id(&session) {
        state
            .db(move |c| accounts::end_sessions(c, user_id))
            .await??;
    }
    session::log_out(&session);
    Ok(see_other("/"))
}

/// Draws the account page for the logged-in user, with an optional new token or leave error.
async fn account_page_for(
    state: &AppState,
    session: &Session,
    user_id: i64,
    status: StatusCode,
    new_token: Option<String>,
    leave_error: Option<String>,
) -> Result<HttpResponse, WebError> {
    let now = state.now();
    let allowance = state.settings.game.leave_days_per_year;
    let leave = state
        .db(move |c| leave::leave_summary(c, now, allowance, user_id))
        .await??;
    let mail = state
        .db(move |c| email_settings::settings_of(c, user_id))
        .await??;
    let prefs = state
        .db(move |c| preferences::preferences_of(c, user_id))
        .await??;
    let page = AccountPage {
        layout: Layout::from_session(session),
        new_token,
        leave,
        leave_error,
        today: now.date().format("%Y-%m-%d").to_string(),
        tomorrow: (now.date() + chrono::Duration::days(1))
            .format("%Y-%m-%d")
            .to_string(),
        now,
        mail,
        time_zones: email_settings::time_zone_names().collect(),
        settings: settings_form(&prefs, true, "/account#board".to_string()),
    };
    render(status, &page)
}

pub async fn account_page(
    state: web::Data<AppState>,
    session: Session,
) -> Result<HttpResponse, WebError> {
    let user_id = match require_login(&session, "/account") {
        Ok(id) => id,
        Err(redirect) => return Ok(*redirect),
    };
    account_page_for(&state, &session, user_id, StatusCode::OK, None, None).await
}

#[derive(Deserialize)]
pub struct TokenForm {
    csrf_token: String,
    label: Option<String>,
}

pub async fn create_token(
    state: web::Data<AppState>,
    session: Session,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, WebError> {
    let user_id = match require_login(&session, "/account") {
        Ok(id) => id,
        Err(redirect) => return Ok(*redirect),
    };
    check_csrf(&session, &form.csrf_token)?;
    let now = state.now();
    let label: String = form
        .label
        .clone()
        .unwrap_or_default()
        .chars()
        .take(100)
        .collect();
    let token = state
        .db(move |c| accounts::create_api_token(c, now, user_id, &label))
        .await??;
    // Shown once, in this response only; never stored in clear.
    account_page_for(&state, &session, user_id, StatusCode::OK, Some(token), None).await
}

#[derive(Deserialize)]
pub struct LeaveForm {
    csrf_token: String,
    start: String,
    days: String,
}

pub async fn book_leave(
    state: web::Data<AppState>,
    session: Session,
    form: web::Form<LeaveForm>,
) -> Result<HttpResponse, WebError> {
    let user_id = match require_login(&session, "/account") {
        Ok(id) => id,
        Err(redirect) => return Ok(*redirect),
    };
    check_csrf(&session, &form.csrf_token)?;
    let unprocessable = StatusCode::UNPROCESSABLE_ENTITY;
    let Ok(start) = chrono::NaiveDate::parse_from_str(form.start.trim(), "%Y-%m-%d") else {
        let msg = "give the first day of leave as a date like 2026-12-24".to_string();
        return account_page_for(&state, &session, user_id, unprocessable, None, Some(msg)).await;
    };
    let Ok(days) = form.days.trim().parse::<i64>() else {
        let msg = "give the number of days as a number".to_string();
        return account_page_for(&state, &session, user_id, unprocessable, None, Some(msg)).await;
    };
    let now = state.now();
    let allowance = state.settings.game.leave_days_per_year;
    match state
        .db(move |c| leave::book_leave(c, now, allowance, user_id, start, days))
        .await?
    {
        Ok(l) => {
            let days = l.days();
            let plural = if days == 1 { "" } else { "s" };
            let text = format!(
                "Leave booked: {days} day{plural} from {start}. Your clocks stand still then."
            );
            session::flash(&session, "info", text);
            Ok(see_other("/account"))
        }
        Err(e) => {
            let refused = refusal(e)?;
            let (status, message) = (refused.status, Some(refused.message));
            account_page_for(&state, &session, user_id, status, None, message).await
        }
    }
}

/// A change to one of the logged-in player's leave bookings (`POST /account/leave/{id}/…`):
/// `change` runs with the booking's id; a flash message on success, the account page with the
/// refusal otherwise.
async fn change_leave<T: Send + 'static>(
    state: &AppState,
    session: &Session,
    id: i64,
    csrf_token: &str,
    change: fn(&mut DbConnection, NaiveDateTime, i64, i64) -> Result<T, leave::LeaveError>,
    done: fn(T) -> String,
) -> Result<HttpResponse, WebError> {
    let user_id = match require_login(session, "/account") {
        Ok(id) => id,
        Err(redirect) => return Ok(*redirect),
    };
    check_csrf(session, csrf_token)?;
    let now = state.now();
    match state.db(move |c| change(c, now, user_id, id)).await? {
        Ok(changed) => {
            session::flash(session, "info", done(changed));
            Ok(see_other("/account"))
        }
        Err(e) => {
            let refused = refusal(e)?;
            let (status, message) = (refused.status, Some(refused.message));
            account_page_for(state, session, user_id, status, None, message).await
        }
    }
}

/// Ends the logged-in player's leave under way now (`POST /account/leave/{id}/end`).
pub async fn end_leave(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<i64>,
    form: web::Form<CsrfForm>,
) -> Result<HttpResponse, WebError> {
    let done = |taken: leave::Leave| {
        let days = taken.days();
        let plural = if days == 1 { "" } else { "s" };
        format!(
            "Your leave has ended: your clocks run again. It took {days} day{plural}; the rest are yours again."
        )
    };
    let id = path.into_inner();
    change_leave(
        &state,
        &session,
        id,
        form.csrf_token(),
        leave::end_leave_now,
        done,
    )
    .await
}

/// Cancels the logged-in player's leave that has not begun (`POST /account/leave/{id}/cancel`).
pub async fn cancel_leave(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<i64>,
    form: web::Form<CsrfForm>,
) -> Result<HttpResponse, WebError> {
    let done = |()| "Leave cancelled.".to_string();
    let id = path.into_inner();
    change_leave(
        &state,
        &session,
        id,
        form.csrf_token(),
        leave::cancel_leave,
        done,
    )
    .await
}
