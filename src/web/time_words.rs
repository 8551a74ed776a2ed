//! Time left in words, as the pages show it ("2 days 3 h", "overdue").

use chrono::NaiveDateTime;

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
}
