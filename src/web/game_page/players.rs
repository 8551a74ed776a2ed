//! The players panel: both players with their clocks, the player to move marked, the viewer
//! as "(you)", and who is on leave now.

use chrono_tz::Tz;
use slowfuse_rules::Color;

use super::standing::{PlayerClock, Standing};
use super::viewer::Viewer;
use crate::web::time_words::{duration_text, moment_text};

/// One player as the panel shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerPanel {
    pub name: String,
    /// The name as shown: "Computer (Easy)" for a computer account, else `name`.
    pub label: String,
    /// The name is an account's, linked to its profile (an imported game's players are
    /// plain names).
    pub account: bool,
    /// The viewer plays this colour.
    pub you: bool,
    /// Time left in words; empty without a clock or once the game is over.
    pub clock: String,
    /// The game runs and this player is to move.
    pub to_move: bool,
}

/// The players panel as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Players {
    pub white: PlayerPanel,
    pub black: PlayerPanel,
    /// "bob is on leave until … UTC: their clock stands still." for each player on leave now,
    /// the moment in the reader's time zone.
    pub leave_text: Vec<String>,
}

fn player_panel(standing: &Standing, viewer: &Viewer, color: Color) -> PlayerPanel {
    let player = standing.player(color);
    let started = standing.is_started();
    PlayerPanel {
        name: player.name.clone(),
        label: player.label.clone(),
        account: player.account,
        you: viewer.color() == Some(color),
        clock: match player.seconds_left {
            Some(seconds) if started => duration_text(seconds),
            _ => String::new(),
        },
        to_move: started && standing.turn == color,
    }
}

/// The leave line of one player, spoken to them as "you" when they are the viewer; its moment
/// in the reader's `zone`.
fn leave_line(player: &PlayerClock, is_viewer: bool, zone: Option<Tz>) -> Option<String> {
    let until = moment_text(player.on_leave_until?, zone);
    Some(if is_viewer {
        format!("You are on leave until {until}: your clock stands still.")
    } else {
        format!(
            "{} is on leave until {until}: their clock stands still.",
            player.name
        )
    })
}

/// Both players as `viewer` sees them, moments in their time `zone`.
pub fn players(standing: &Standing, viewer: &Viewer, zone: Option<Tz>) -> Players {
    Players {
        white: player_panel(standing, viewer, Color::White),
        black: player_panel(standing, viewer, Color::Black),
        leave_text: [
            (&standing.white, Color::White),
            (&standing.black, Color::Black),
        ]
        .into_iter()
        .filter_map(|(player, color)| leave_line(player, viewer.color() == Some(color), zone))
        .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameStatus, Seat};
    use crate::web::game_page::standing::tests::running;

    #[test]
    fn clocks_show_while_the_game_runs_and_leave_is_told() {
        let mut s = running();
        let until = chrono::NaiveDate::from_ymd_opt(2026, 12, 24)
            .and_then(|d| d.and_hms_opt(9, 30, 0))
            .unwrap();
        s.black.on_leave_until = Some(until);
        let me = Viewer {
            id: Some(2),
            seat: Some(Seat::first_board(Color::Black)),
            hides_comments: false,
        };
        let p = players(&s, &me, None);
        assert_eq!(p.white.clock, "3 days 0 h");
        assert!(p.white.to_move && !p.white.you && p.black.you);
        assert_eq!(
            p.leave_text,
            ["You are on leave until 2026-12-24 09:30 UTC: your clock stands still."]
        );
        let spectator = players(&s, &Viewer::default(), Some(chrono_tz::Europe::Berlin));
        assert_eq!(
            spectator.leave_text,
            ["bob is on leave until 2026-12-24 10:30 CET: their clock stands still."]
        );
        s.status = GameStatus::Finished;
        let p = players(&s, &me, None);
        assert!(p.white.clock.is_empty() && !p.white.to_move);
    }
}
