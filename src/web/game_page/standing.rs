//! Where a game stands, read once from the record for every reader (the page and the game
//! JSON): status and result, turn, draw offer, deadline, time control, clocks and leave.

use chrono::NaiveDateTime;
use slowfuse_rules::{Color, EndReason, GameKind, TimeControl};

use crate::game::clock::time_control_of;
use crate::game::{GameRecord, GameStatus, Seat};
use crate::usecases::clocks::seconds_left;
use crate::usecases::leave::on_leave_until;

/// One player of the first board: name, clock, leave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerClock {
    /// The player's name, or "?" for an empty seat.
    pub name: String,
    /// The name as shown: "Computer (Easy)" for a computer account, else `name`.
    pub label: String,
    /// Whether the name is an account's (an imported game's players are names only).
    pub account: bool,
    /// Seconds left now (the player to move counts down); `None` without a clock.
    pub seconds_left: Option<i64>,
    /// When their current leave ends, if they are on leave now.
    pub on_leave_until: Option<NaiveDateTime>,
}

impl PlayerClock {
    fn of(record: &GameRecord, color: Color, now: NaiveDateTime) -> PlayerClock {
        let seat = Seat::first_board(color);
        PlayerClock {
            name: record.name_of(seat).to_string(),
            label: record.shown_name_of(seat),
            account: record.is_account(seat),
            seconds_left: seconds_left(record, seat, now),
            on_leave_until: record
                .player(seat)
                .and_then(|p| on_leave_until(&p.leave, now)),
        }
    }
}

/// Where the game stands now, on its first (in a two-player game its only) board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub status: GameStatus,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// How it ended (the stored name), once it has.
    pub termination: Option<String>,
    /// How it ended in words, in the game's variant ("King reached the centre"); empty before.
    pub ending: String,
    pub turn: Color,
    /// The colour whose draw offer stands.
    pub draw_offer: Option<Color>,
    /// When the player to move runs out of time.
    pub deadline_at: Option<NaiveDateTime>,
    pub time_control: TimeControl,
    pub white: PlayerClock,
    pub black: PlayerClock,
    /// The colour that may take its last move back now: a player's, in a casual game against
    /// the computer, once they have moved.
    pub takeback: Option<Color>,
}

impl Standing {
    /// Reads the standing from the record's accessors, with the clocks as of `now`.
    pub fn of(record: &GameRecord, now: NaiveDateTime) -> Standing {
        let board = record.first_board();
        Standing {
            status: record.status,
            result: record.game.result.clone(),
            termination: record.game.termination.clone(),
            ending: record
                .game
                .termination
                .as_deref()
                .and_then(|t| t.parse::<EndReason>().ok())
                .map(|r| r.describe_in(&record.game.variant).to_string())
                .unwrap_or_default(),
            turn: board.turn,
            draw_offer: board.draw_offer,
            deadline_at: board.deadline_at,
            time_control: time_control_of(&record.game),
            white: PlayerClock::of(record, Color::White, now),
            black: PlayerClock::of(record, Color::Black, now),
            takeback: takeback_for(record),
        }
    }

    /// The player of one colour.
    pub fn player(&self, color: Color) -> &PlayerClock {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The name of the player to move, as shown ("Computer (Easy)" for a computer).
    pub fn to_move(&self) -> &str {
        &self.player(self.turn).label
    }

    /// Whether the game is being played.
    pub fn is_started(&self) -> bool {
        self.status == GameStatus::Started
    }

    /// The status in one line: "alice to move", "1-0 alice wins — checkmate", "Aborted: …".
    pub fn text(&self) -> String {
        match self.status {
            GameStatus::Started => format!("{} to move", self.to_move()),
            GameStatus::Aborted => "Aborted: the first moves were not made in time".to_string(),
            _ => {
                let why = &self.ending;
                let who = match self.result.as_str() {
                    "1-0" => format!("{} wins", self.white.label),
                    "0-1" => format!("{} wins", self.black.label),
                    _ => "Draw".to_string(),
                };
                format!("{} {} — {}", self.result, who, why)
            }
        }
    }
}

/// Who may take a move back (see `usecases::takeback`): the person playing the computer in a
/// casual two-player game, once they have a move on the board.
fn takeback_for(record: &GameRecord) -> Option<Color> {
    let two_player = matches!(record.kind, GameKind::Chess(_));
    if record.game.rated || !two_player || record.status != GameStatus::Started {
        return None;
    }
    let board = record.first_board();
    [Color::White, Color::Black].into_iter().find(|&c| {
        let computer = |color| {
            record
                .player(Seat::first_board(color))
                .is_some_and(|p| p.computer_level.is_some())
        };
        let mine = if board.turn == c { 2 } else { 1 };
        computer(!c) && !computer(c) && board.ply >= mine
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A running game between alice (White) and bob (Black), White to move.
    pub(crate) fn running() -> Standing {
        let player = |name: &str| PlayerClock {
            name: name.to_string(),
            label: name.to_string(),
            account: true,
            seconds_left: Some(3 * 86_400),
            on_leave_until: None,
        };
        Standing {
            status: GameStatus::Started,
            result: "*".into(),
            termination: None,
            ending: String::new(),
            turn: Color::White,
            draw_offer: None,
            deadline_at: None,
            time_control: TimeControl::PerMove {
                seconds: 3 * 86_400,
            },
            takeback: None,
            white: player("alice"),
            black: player("bob"),
        }
    }

    #[test]
    fn the_status_line_names_the_player_to_move_or_the_winner() {
        let mut s = running();
        assert_eq!(s.text(), "alice to move");
        s.turn = Color::Black;
        assert_eq!(s.text(), "bob to move");
        s.status = GameStatus::Finished;
        s.result = "0-1".into();
        s.termination = Some("resignation".into());
        s.ending = "Resignation".into();
        assert_eq!(s.text(), "0-1 bob wins — Resignation");
        s.result = "1/2-1/2".into();
        assert!(s.text().starts_with("1/2-1/2 Draw — "));
        s.status = GameStatus::Aborted;
        assert_eq!(s.text(), "Aborted: the first moves were not made in time");
    }
}
