//! The action bar of every kind of game: the actions dropdown as the viewer may use it (only
//! what the kind offers), the move box and message (what was typed kept after a refusal), the
//! refusal itself and the draw-offer line.

use chrono::NaiveDateTime;
use slowfuse_rules::{Color, GameKind};

use super::standing::Standing;
use super::viewer::Viewer;
use super::{Refusal, Typed};

/// One option of the action dropdown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionChoice {
    pub value: &'static str,
    pub label: &'static str,
}

/// The action bar as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionBar {
    pub choices: Vec<ActionChoice>,
    /// The action selected: `move` unless a refused form chose another.
    pub selected: String,
    pub move_value: String,
    pub message_value: String,
    /// Why the last form (other than the tag box's) was refused.
    pub error: Option<String>,
    /// "You have offered a draw." or "bob offers a draw.".
    pub draw_offer_text: Option<String>,
    /// The move box shows: the viewer may move or write conditional moves now.
    pub move_box: bool,
    /// A message may go with the action (the kind stores one).
    pub message_box: bool,
    /// A move may be shown before it is sent (the "confirm moves" preference).
    pub previews: bool,
}

/// Whether games of `kind` offer the action `value` (the dropdown's values, and `give_time`).
/// A minesweeper game has no conditional moves, comments, messages with an action, previews,
/// taken-back moves or given time: the action pipeline refuses them, so the page never offers
/// them.
pub fn offers(kind: GameKind, value: &str) -> bool {
    match kind {
        GameKind::Minesweeper => !matches!(
            value,
            "move_offer_draw"
                | "conditional_move"
                | "comment"
                | "takeback"
                | "give_time"
                | "message"
                | "preview"
        ),
        GameKind::Chess(_) | GameKind::Bughouse => true,
    }
}

const fn choice(value: &'static str, label: &'static str) -> ActionChoice {
    ActionChoice { value, label }
}

/// The actions `me` (their colour, if they play) may pick in a game standing as `standing`:
/// only those that can succeed (`claim_holds`: the rules allow the player to move a draw claim).
pub fn action_choices(
    standing: &Standing,
    me: Option<Color>,
    now: NaiveDateTime,
    claim_holds: bool,
) -> Vec<ActionChoice> {
    let my_turn = standing.is_started() && me == Some(standing.turn);
    let mut choices = Vec::new();
    if my_turn {
        choices.push(choice("move", "Move"));
        if standing.draw_offer.is_none() {
            choices.push(choice("move_offer_draw", "Move and offer draw"));
        }
    }
    choices.push(choice("conditional_move", "Conditional moves"));
    match me {
        Some(c) if standing.draw_offer == Some(!c) => {
            choices.push(choice("accept_draw", "Accept draw"));
            choices.push(choice("decline_draw", "Decline draw"));
        }
        Some(c) if standing.draw_offer == Some(c) => {
            choices.push(choice("withdraw_draw", "Withdraw draw offer"));
        }
        _ => choices.push(choice("offer_draw", "Offer draw")),
    }
    choices.push(choice("comment", "Comment only"));
    if my_turn && claim_holds {
        choices.push(choice("claim_draw", "Claim draw"));
    }
    let opponent_overdue = standing.is_started()
        && me.is_some_and(|c| c != standing.turn)
        && standing.deadline_at.is_some_and(|d| d <= now);
    if opponent_overdue {
        choices.push(choice("claim_timeout", "Claim win on time"));
    }
    if me.is_some() && standing.takeback == me {
        choices.push(choice("takeback", "Take back my last move"));
    }
    choices.push(choice("resign", "Resign"));
    choices
}

/// The standing draw offer in words, as `me` reads it.
pub fn draw_offer_text(standing: &Standing, me: Option<Color>) -> Option<String> {
    standing.draw_offer.map(|color| {
        if me == Some(color) {
            "You have offered a draw.".to_string()
        } else {
            format!("{} offers a draw.", standing.player(color).name)
        }
    })
}

/// The action bar for `viewer` in a game of `kind`; a refused form's text and message are
/// kept.
pub fn action_bar(
    kind: GameKind,
    standing: &Standing,
    viewer: &Viewer,
    refusal: Option<&Refusal>,
    now: NaiveDateTime,
    claim_holds: bool,
) -> ActionBar {
    let me = viewer.color();
    let my_turn = standing.is_started() && me == Some(standing.turn);
    let choices: Vec<ActionChoice> = action_choices(standing, me, now, claim_holds)
        .into_iter()
        .filter(|c| offers(kind, c.value))
        .collect();
    let (action, mv, message) = match refusal.map(|r| &r.typed) {
        Some(Typed::Action {
            action,
            mv,
            message,
        }) => (action.as_str(), mv.clone(), message.clone()),
        _ => ("", String::new(), String::new()),
    };
    let conditional = offers(kind, "conditional_move");
    let selected = match action {
        "" if my_turn => "move",
        // Without conditional moves, nothing is chosen for a player who waits: the browser
        // shows the first action, sent only when they press Continue.
        "" if conditional => "conditional_move",
        typed => typed,
    }
    .to_string();
    ActionBar {
        selected,
        choices,
        move_box: my_turn || conditional || !mv.is_empty(),
        message_box: offers(kind, "message"),
        previews: offers(kind, "preview"),
        move_value: mv,
        message_value: message,
        error: refusal
            .filter(|r| !matches!(r.typed, Typed::Tag(_)))
            .map(|r| r.message.clone()),
        draw_offer_text: draw_offer_text(standing, me),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::game_page::standing::tests::running;

    const CHESS: GameKind = GameKind::Chess(slowfuse_rules::Variant::Standard);

    fn values(choices: &[ActionChoice]) -> Vec<&str> {
        choices.iter().map(|c| c.value).collect()
    }

    #[test]
    fn the_dropdown_follows_the_draw_offer_and_the_opponents_deadline() {
        let now = chrono::DateTime::from_timestamp(1_000_000, 0)
            .unwrap()
            .naive_utc();
        let mut s = running();
        let plain = values(&action_choices(&s, Some(Color::White), now, false)).join(" ");
        assert_eq!(
            plain,
            "move move_offer_draw conditional_move offer_draw comment resign"
        );
        // Not their turn: no move, no claim; a claim only when the rules allow one.
        let waiting = values(&action_choices(&s, Some(Color::Black), now, true)).join(" ");
        assert_eq!(waiting, "conditional_move offer_draw comment resign");
        let claim = values(&action_choices(&s, Some(Color::White), now, true)).join(" ");
        assert!(claim.contains("claim_draw"), "{claim}");
        s.draw_offer = Some(Color::Black);
        let offered = action_choices(&s, Some(Color::White), now, false);
        assert!(values(&offered).contains(&"accept_draw"));
        assert!(!values(&offered).contains(&"move_offer_draw"));
        assert!(
            values(&action_choices(&s, Some(Color::Black), now, false)).contains(&"withdraw_draw")
        );
        assert_eq!(
            draw_offer_text(&s, Some(Color::White)).unwrap(),
            "bob offers a draw."
        );
        assert_eq!(
            draw_offer_text(&s, Some(Color::Black)).unwrap(),
            "You have offered a draw."
        );
        s.deadline_at = Some(now);
        let has_timeout = |c: Option<Color>| {
            values(&action_choices(&s, c, now, false)).contains(&"claim_timeout")
        };
        assert!(has_timeout(Some(Color::Black)));
        assert!(!has_timeout(Some(Color::White)));
        assert!(!has_timeout(None));
    }

    #[test]
    fn a_refused_move_is_kept_and_a_refused_tag_is_not_shown_here() {
        let now = chrono::NaiveDateTime::MIN;
        let typed = Typed::Action {
            action: "offer_draw".into(),
            mv: "Nf3".into(),
            message: "hi".into(),
        };
        let refusal = Refusal::new(actix_web::http::StatusCode::CONFLICT, "stale", typed);
        let bar = action_bar(
            CHESS,
            &running(),
            &Viewer::default(),
            Some(&refusal),
            now,
            false,
        );
        assert_eq!(
            (bar.selected.as_str(), bar.move_value.as_str()),
            ("offer_draw", "Nf3")
        );
        assert_eq!(bar.error.as_deref(), Some("stale"));
        let tag = Refusal::new(refusal.status, "bad tag", Typed::Tag("x y".into()));
        let bar = action_bar(
            CHESS,
            &running(),
            &Viewer::default(),
            Some(&tag),
            now,
            false,
        );
        assert_eq!(
            (bar.selected.as_str(), bar.error),
            ("conditional_move", None)
        );
    }

    #[test]
    fn a_minesweeper_player_is_offered_only_what_the_kind_does() {
        let now = chrono::NaiveDateTime::MIN;
        let white = Viewer {
            id: Some(1),
            seat: Some(crate::game::Seat::first_board(Color::White)),
            hides_comments: false,
        };
        let black = Viewer {
            seat: Some(crate::game::Seat::first_board(Color::Black)),
            ..white
        };
        let mines = GameKind::Minesweeper;
        let bar = action_bar(mines, &running(), &white, None, now, false);
        assert_eq!(values(&bar.choices).join(" "), "move offer_draw resign");
        assert!(bar.move_box && !bar.message_box && !bar.previews);
        let waiting = action_bar(mines, &running(), &black, None, now, false);
        assert_eq!((waiting.selected.as_str(), waiting.move_box), ("", false));
        let chess = action_bar(CHESS, &running(), &black, None, now, false);
        assert_eq!(chess.selected, "conditional_move");
        assert!(chess.move_box && chess.message_box && chess.previews);
    }
}
