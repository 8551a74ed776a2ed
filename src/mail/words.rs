//! How mails word things for their reader: a variant's name, a moment in the reader's time
//! zone, the time left until a deadline.

use chrono::NaiveDateTime;
use slowfuse_rules::GameKind;

use crate::models::User;
use crate::usecases::email_settings::time_zone;

/// A stored variant by its display name (the stored name when it is unknown).
pub(super) fn variant_name(stored: &str) -> String {
    stored.parse::<GameKind>().map_or_else(
        |_| stored.to_string(),
        |kind| kind.display_name().to_string(),
    )
}

/// A moment (stored in UTC) as the recipient reads it: in their time zone, with its
/// abbreviation, e.g. `Tuesday 1 December 2026, 14:05 CET`.
pub(super) fn local_words(t: NaiveDateTime, user: &User) -> String {
    t.and_utc()
        .with_timezone(&time_zone(&user.time_zone))
        .format("%A %-d %B %Y, %H:%M %Z")
        .to_string()
}

/// What is left until `deadline`, in rough words.
pub(super) fn time_left_words(now: NaiveDateTime, deadline: NaiveDateTime) -> String {
    let minutes = (deadline - now).num_minutes().max(0);
    match minutes {
        0..=1 => "less than a minute".to_string(),
        2..=119 => format!("{minutes} minutes"),
        120..=2879 => format!("about {} hours", (minutes + 30) / 60),
        _ => format!("about {} days", (minutes + 720) / 1440),
    }
}
