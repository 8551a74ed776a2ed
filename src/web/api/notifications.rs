//! The API's mail settings: `GET` and `PUT /api/v1/me/notifications`.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use super::ApiUser;
use crate::usecases::email_settings::{self, MailSettingsView};
use crate::usecases::notify::Kind;
use crate::web::AppState;
use crate::web::errors::ApiError;

fn settings_json(s: &MailSettingsView) -> Value {
    let kinds: serde_json::Map<String, Value> = s
        .kinds
        .iter()
        .map(|(k, on)| (k.as_str().to_string(), Value::Bool(*on)))
        .collect();
    json!({ "email": s.email, "verified": s.verified, "kinds": kinds })
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

#[derive(Deserialize)]
pub struct NotificationsBody {
    kinds: BTreeMap<String, bool>,
}

pub async fn put_notifications(
    state: web::Data<AppState>,
    user: ApiUser,
    body: web::Json<NotificationsBody>,
) -> Result<HttpResponse, ApiError> {
    let mut changes = Vec::new();
    for (name, on) in &body.kinds {
        let kind = Kind::parse(name)
            .filter(|k| Kind::OPTIONAL.contains(k))
            .ok_or_else(|| {
                let names: Vec<&str> = Kind::OPTIONAL.iter().map(|k| k.as_str()).collect();
                ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    format!(
                        "unknown kind of mail \"{}\": use {}",
                        name.chars().take(40).collect::<String>(),
                        names.join(", ")
                    ),
                )
            })?;
        changes.push((kind, *on));
    }
    let (id, now) = (user.id, state.now());
    let settings = state
        .db(move |c| {
            email_settings::set_kinds(c, now, id, &changes)?;
            email_settings::settings_of(c, id)
        })
        .await??;
    Ok(HttpResponse::Ok().json(settings_json(&settings)))
}
