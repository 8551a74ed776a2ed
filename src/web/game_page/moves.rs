//! The move list: numbered moves with the comments the viewer may read after each, the ply
//! shown marked, and the comments written before the first move.

use chrono::NaiveDateTime;
use slowfuse_rules::Game;

use crate::game::LeaveTaken;
use crate::usecases::messages::{Entry, Kind};

/// One move in the move list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLine {
    /// "12." before White's move, "12..." before a Black move that follows a comment.
    pub number: String,
    pub san: String,
    pub ply_after: u32,
    pub comments: Vec<String>,
    pub current: bool,
}

/// The move list as drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveList {
    /// Comments written before the first move.
    pub opening_comments: Vec<String>,
    pub lines: Vec<MoveLine>,
}

/// Where the move numbers start: whether Black moves first, and the first move number.
fn numbering(game: &Game) -> (bool, u32) {
    let fen = game.initial_fen();
    let mut fields = fen.split(' ');
    let black_starts = fields.nth(1) == Some("b");
    let first = fields.nth(3).and_then(|n| n.parse().ok()).unwrap_or(1);
    (black_starts, first)
}

/// The conversation's lines by the ply they were written at (later ones on the last ply).
fn comments_by_ply(conversation: &[Entry], last_ply: u32) -> Vec<Vec<String>> {
    let mut by_ply = vec![Vec::new(); last_ply as usize + 1];
    for entry in conversation {
        let slot = (entry.ply.max(0) as usize).min(last_ply as usize);
        by_ply[slot].push(entry.line());
    }
    by_ply
}

/// A player's leave as a line of the move list, at the ply it began: "bob was on leave from
/// 2026-12-03 09:00 to 2026-12-05 09:00 UTC", or "is on leave until …" while it runs; to the
/// player themselves "You were / are on leave …".
pub fn leave_entry(leave: &LeaveTaken, viewer: Option<i64>, now: NaiveDateTime) -> Entry {
    let moment = |t: NaiveDateTime| t.format("%Y-%m-%d %H:%M").to_string();
    let yours = viewer == Some(leave.user_id);
    let text = match (leave.end > now, yours) {
        (true, false) => format!("is on leave until {} UTC", moment(leave.end)),
        (true, true) => format!("are on leave until {} UTC", moment(leave.end)),
        (false, false) => format!(
            "was on leave from {} to {} UTC",
            moment(leave.start),
            moment(leave.end)
        ),
        (false, true) => format!(
            "were on leave from {} to {} UTC",
            moment(leave.start),
            moment(leave.end)
        ),
    };
    Entry {
        ply: leave.ply,
        kind: Kind::Event,
        author: if yours {
            "You".to_string()
        } else {
            leave.username.clone()
        },
        text,
        written_at: leave.start,
    }
}

/// The moves of `game` with `conversation` (what the viewer may read, or nothing when they
/// hide comments) placed after the move each was written at; `view_ply` is marked.
pub fn move_list(game: &Game, conversation: &[Entry], view_ply: u32) -> MoveList {
    let mut by_ply = comments_by_ply(conversation, game.ply());
    let (black_starts, first) = numbering(game);
    let mut lines = Vec::with_capacity(game.moves().len());
    let mut previous_had_comment = true;
    for (i, m) in game.moves().iter().enumerate() {
        let ply_index = i as u32 + u32::from(black_starts);
        let number = first + ply_index / 2;
        let ply_after = i as u32 + 1;
        let comments = std::mem::take(&mut by_ply[ply_after as usize]);
        let number = if ply_index.is_multiple_of(2) {
            format!("{number}.")
        } else if previous_had_comment || !comments.is_empty() {
            format!("{number}...")
        } else {
            String::new()
        };
        previous_had_comment = !comments.is_empty();
        lines.push(MoveLine {
            number,
            san: m.san.clone(),
            ply_after,
            comments,
            current: ply_after == view_ply,
        });
    }
    MoveList {
        opening_comments: std::mem::take(&mut by_ply[0]),
        lines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usecases::messages::Kind;
    use slowfuse_rules::Variant;

    fn entry(ply: i32, text: &str) -> Entry {
        Entry {
            ply,
            kind: Kind::Comment,
            author: "alice".into(),
            text: text.into(),
            written_at: chrono::NaiveDateTime::MIN,
        }
    }

    #[test]
    fn a_comment_renumbers_the_black_move_after_it() {
        let mut game = Game::new(Variant::Standard);
        for san in ["e4", "e5", "Nf3", "Nc6"] {
            game = game.play(san).unwrap();
        }
        let talk = [entry(0, "good luck"), entry(3, "sharp"), entry(9, "later")];
        let list = move_list(&game, &talk, 2);
        let numbers: Vec<&str> = list.lines.iter().map(|l| l.number.as_str()).collect();
        assert_eq!(numbers, ["1.", "", "2.", "2..."]);
        assert_eq!(list.opening_comments, ["alice: good luck"]);
        assert_eq!(list.lines[2].comments, ["alice: sharp"]);
        assert_eq!(list.lines[3].comments, ["alice: later"]);
        let current: Vec<bool> = list.lines.iter().map(|l| l.current).collect();
        assert_eq!(current, [false, true, false, false]);
    }

    #[test]
    fn a_game_from_a_position_with_black_to_move_starts_at_its_move_number() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7";
        let game = Game::from_fen(Variant::Standard, fen)
            .unwrap()
            .play("Kd7")
            .unwrap();
        let list = move_list(&game, &[], 1);
        assert_eq!(list.lines[0].number, "7...");
    }
}
