//! The status panel: the game's status line, the time left for the player to move, the time
//! control, and whether the viewer may give the opponent more time.

use chrono::NaiveDateTime;

use super::standing::Standing;
use super::viewer::Rights;
use crate::web::time_words::time_left_text;

/// The status panel as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusPanel {
    /// "alice to move", "1-0 alice wins — checkmate", …
    pub text: String,
    pub finished: bool,
    /// The name of the player to move.
    pub to_move: String,
    /// Their time left in words; empty once the game is over or without a deadline.
    pub time_left: String,
    /// "3 days per move", "30+1≤45 days", "no time limit".
    pub time_control: String,
    /// The give-time form: the viewer plays a running game that has a clock.
    pub give_time: bool,
}

/// The status panel of a game standing as `standing`, for a viewer with `rights`.
pub fn status_panel(standing: &Standing, rights: &Rights, now: NaiveDateTime) -> StatusPanel {
    let started = standing.is_started();
    StatusPanel {
        text: standing.text(),
        finished: !started,
        to_move: standing.to_move().to_string(),
        time_left: if started {
            time_left_text(standing.deadline_at, now)
        } else {
            String::new()
        },
        time_control: standing.time_control.describe(),
        give_time: rights.can_act && standing.time_control.is_timed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::game_page::standing::tests::running;
    use slowfuse_rules::TimeControl;

    #[test]
    fn time_can_be_given_only_by_a_player_in_a_game_with_a_clock() {
        let now = chrono::DateTime::from_timestamp(1_000_000, 0)
            .unwrap()
            .naive_utc();
        let mut s = running();
        s.deadline_at = Some(now + chrono::Duration::hours(5));
        let player = Rights {
            my_turn: true,
            can_act: true,
        };
        let panel = status_panel(&s, &player, now);
        assert_eq!(
            (panel.time_left.as_str(), panel.give_time),
            ("5 h 0 min", true)
        );
        assert_eq!(panel.time_control, "3 days per move");
        s.time_control = TimeControl::Unlimited;
        assert!(!status_panel(&s, &player, now).give_time);
    }
}
