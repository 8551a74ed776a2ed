//! The action bar: the actions dropdown as the viewer may use it, the move box and message
//! (what was typed kept after a refusal), the refusal itself and the draw-offer line.

use chrono::NaiveDateTime;
use slowfuse_rules::Color;

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

/// The action bar for `viewer`; a refused form's text and message are kept.
pub fn action_bar(
    standing: &Standing,
    viewer: &Viewer,
    refusal: Option<&Refusal>,
    now: NaiveDateTime,
    claim_holds: bool,
) -> ActionBar {
    let me = viewer.color();
    let (action, mv, message) = match refusal.map(|r| &r.typed) {
        Some(Typed::Action {
            action,
            mv,
            message,
        }) => (action.as_str(), mv.clone(), message.clone()),
        _ => ("", String::new(), String::new()),
    };
    ActionBar {
        selected: match action {
            "" if standing.is_started() && me == Some(standing.turn) => "move",
            "" => "conditional_move",
            typed => typed,
        }
        .to_string(),
        choices: action_choices(standing, me, now, claim_holds),
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
        let bar = action_bar(&running(), &Viewer::default(), Some(&refusal), now, false);
        assert_eq!(
            (bar.selected.as_str(), bar.move_value.as_str()),
            ("offer_draw", "Nf3")
        );
        assert_eq!(bar.error.as_deref(), Some("stale"));
        let tag = Refusal::new(refusal.status, "bad tag", Typed::Tag("x y".into()));
        let bar = action_bar(&running(), &Viewer::default(), Some(&tag), now, false);
        assert_eq!(
            (bar.selected.as_str(), bar.error),
            ("conditional_move", None)
        );
    }
}
