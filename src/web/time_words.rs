//! Time as the pages show it: time left in words ("2 days 3 h", "overdue"), and a moment in the
//! reader's time zone ("2026-12-24 10:30 CET").

use chrono::NaiveDateTime;
use chrono_tz::Tz;

/// A moment (stored in UTC) as the reader reads it: in their time zone, with its abbreviation,
/// e.g. `2026-12-24 10:30 CET`; a visitor, or a reader who chose no zone, reads UTC.
pub fn moment_text(t: NaiveDateTime, zone: Option<Tz>) -> String {
    t.and_utc()
        .with_timezone(&zone.unwrap_or(Tz::UTC))
        .format("%Y-%m-%d %H:%M %Z")
        .to_string()
}

/// Says how long until a deadline in words ("2 days 3 h", "overdue").
pub fn time_left_text(deadline: Option<NaiveDateTime>, now: NaiveDateTime) -> String {
    let Some(deadline) = deadline else {
        return String::new();
    };
    duration_text((deadline - now).num_seconds())
}

/// Seconds in words ("2 days 3 h", "5 h 10 min", "overdue" when none are left).
pub fn duration_text(seconds: i64) -> String {
    let left = chrono::Duration::seconds(seconds);
    if left <= chrono::Duration::zero() {
        return "overdue".into();
    }
    let days = left.num_days();
    let hours = left.num_hours() % 24;
    let minutes = left.num_minutes() % 60;
    match (days, hours) {
        (0, 0) => format!("{minutes} min"),
        (0, h) => format!("{h} h {minutes} min"),
        (1, h) => format!("1 day {h} h"),
        (d, h) => format!("{d} days {h} h"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_days_hours_and_minutes() {
        assert_eq!(duration_text(0), "overdue");
        assert_eq!(duration_text(-5), "overdue");
        assert_eq!(duration_text(9 * 60), "9 min");
        assert_eq!(duration_text(5 * 3600 + 10 * 60), "5 h 10 min");
        assert_eq!(duration_text(86_400 + 3 * 3600), "1 day 3 h");
        assert_eq!(duration_text(2 * 86_400 + 3 * 3600 + 59), "2 days 3 h");
        assert_eq!(time_left_text(None, NaiveDateTime::MIN), "");
    }

    #[test]
    fn moments_read_in_the_readers_time_zone() {
        let t = chrono::NaiveDate::from_ymd_opt(2026, 3, 1)
            .and_then(|d| d.and_hms_opt(18, 2, 0))
            .unwrap();
        assert_eq!(moment_text(t, None), "2026-03-01 18:02 UTC");
        assert_eq!(
            moment_text(t, Some(chrono_tz::Europe::Berlin)),
            "2026-03-01 19:02 CET"
        );
    }
}
