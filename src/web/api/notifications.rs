//! The API's mail settings: `GET` and `PUT /api/v1/me/notifications`.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use super::ApiUser;
use crate::usecases::email_settings::{self, DigestTime, MailSettingsView};
use crate::usecases::notify::{Kind, Mode};
use crate::web::AppState;
use crate::web::errors::ApiError;

/// `kinds` says on or off (on: at once or in the digest), `modes` the mode of each kind.
fn settings_json(s: &MailSettingsView) -> Value {
    let kinds: serde_json::Map<String, Value> = s
        .kinds
        .iter()
        .map(|(k, mode)| (k.as_str().to_string(), Value::Bool(*mode != Mode::Off)))
        .collect();
    let modes: serde_json::Map<String, Value> = s
        .kinds
        .iter()
        .map(|(k, mode)| (k.as_str().to_string(), Value::from(mode.as_str())))
        .collect();
    json!({
        "email": s.email,
        "verified": s.verified,
        "kinds": kinds,
        "modes": modes,
        "digest_hour": s.digest_hour,
        "time_zone": s.time_zone,
    })
}

pub async fn get_notifications(
    state: web::Data<AppState>,
    user: ApiUser,
) -> Result<HttpResponse, ApiError> {
    let id = user.id;
    let settings = state
        .db(move |c| email_settings::settings_of(c, id))
        .await??;
    Ok(HttpResponse::Ok().json(settings_json(&settings)))
}

/// A kind's new setting: `true` (at once), `false` (off), or a mode's name.
#[derive(Deserialize)]
#[serde(untagged)]
enum Setting {
    On(bool),
    Mode(String),
}

#[derive(Deserialize)]
pub struct NotificationsBody {
    #[serde(default)]
    kinds: BTreeMap<String, Setting>,
    digest_hour: Option<i32>,
    time_zone: Option<String>,
}

fn unprocessable(message: String) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
}

pub async fn put_notifications(
    state: web::Data<AppState>,
    user: ApiUser,
    body: web::Json<NotificationsBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let mut changes = Vec::new();
    for (name, setting) in &body.kinds {
        let kind = Kind::parse(name)
            .filter(|k| Kind::OPTIONAL.contains(k))
            .ok_or_else(|| {
                let names: Vec<&str> = Kind::OPTIONAL.iter().map(|k| k.as_str()).collect();
                unprocessable(format!(
                    "unknown kind of mail \"{}\": use {}",
                    name.chars().take(40).collect::<String>(),
                    names.join(", ")
                ))
            })?;
        let mode = match setting {
            Setting::On(true) => Mode::Immediate,
            Setting::On(false) => Mode::Off,
            Setting::Mode(text) => Mode::parse(text).ok_or_else(|| {
                unprocessable(format!(
                    "unknown mode \"{}\" for {name}: use immediate, digest or off",
                    text.chars().take(40).collect::<String>()
                ))
            })?,
        };
        changes.push((kind, mode));
    }
    let digest_time = DigestTime {
        hour: body.digest_hour,
        time_zone: body.time_zone,
    };
    let (id, now) = (user.id, state.now());
    let settings = state
        .db(move |c| {
            email_settings::set_kinds(c, now, id, &changes, &digest_time)?;
            Ok::<_, email_settings::SettingsError>(email_settings::settings_of(c, id)?)
        })
        .await??;
    Ok(HttpResponse::Ok().json(settings_json(&settings)))
}
