//! The move list: numbered moves with the comments the viewer may read after each, the ply
//! shown marked, and the comments written before the first move.

use std::sync::Arc;

use chrono::NaiveDateTime;
use chrono_tz::Tz;
use slowfuse_rules::Game;

use super::move_lines::{plain_lines, write_line};
use crate::game::LeaveTaken;
use crate::usecases::messages::{Entry, Kind};
use crate::web::time_words::moment_text;

/// The move list as drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveList {
    /// Comments written before the first move.
    pub opening_comments: Vec<String>,
    /// The list's items as HTML, escaped (the template writes it as it is); empty before the
    /// first move.
    pub items: String,
}

/// The conversation's lines, each with the ply it is shown after (later ones after the last
/// move), in ply order.
fn lines_by_ply(conversation: &[Entry], last_ply: u32) -> Vec<(usize, String)> {
    let mut lines: Vec<(usize, String)> = conversation
        .iter()
        .map(|e| ((e.ply.max(0) as usize).min(last_ply as usize), e.line()))
        .collect();
    lines.sort_by_key(|(ply, _)| *ply);
    lines
}

/// A player's leave as a line of the move list, at the ply it began: "bob was on leave from
/// 2026-12-03 18:02 UTC to 2026-12-05 00:00 UTC", or "is on leave until …" while it runs; to the
/// player themselves "You were / are on leave …". The moments are in the reader's `zone`.
pub fn leave_entry(
    leave: &LeaveTaken,
    viewer: Option<i64>,
    now: NaiveDateTime,
    zone: Option<Tz>,
) -> Entry {
    let moment = |t: NaiveDateTime| moment_text(t, zone);
    let yours = viewer == Some(leave.user_id);
    let text = match (leave.end > now, yours) {
        (true, false) => format!("is on leave until {}", moment(leave.end)),
        (true, true) => format!("are on leave until {}", moment(leave.end)),
        (false, false) => format!(
            "was on leave from {} to {}",
            moment(leave.start),
            moment(leave.end)
        ),
        (false, true) => format!(
            "were on leave from {} to {}",
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

/// The moves of game `id` with `conversation` (what the viewer may read, or nothing when they
/// hide comments) placed after the move each was written at; `view_ply` is marked. The lines
/// that are the same for every viewer come from the cache of [`plain_lines`]; the marked line,
/// those with comments and the Black move after a comment ("12...") are written for this one.
pub fn move_list(id: i64, game: &Arc<Game>, conversation: &[Entry], view_ply: u32) -> MoveList {
    let lines = lines_by_ply(conversation, game.ply());
    // The lines of the ply `at`, from `next` on (those of earlier plies are written).
    let lines_at = |next: usize, at: usize| next + lines[next..].partition_point(|l| l.0 == at);
    let mut next = lines_at(0, 0);
    let opening_comments = lines[..next].iter().map(|l| l.1.clone()).collect();
    let plain = plain_lines(id, game);
    let mut items = String::with_capacity(plain.lines(0, game.moves().len()).len() + 512);
    let mut copied = 0;
    let mut previous_had_comment = true;
    for (i, m) in game.moves().iter().enumerate() {
        let (number, black) = plain.numbering.of_move(i);
        let ply = i + 1;
        let end = lines_at(next, ply);
        let comments = &lines[next..end];
        next = end;
        let current = ply == view_ply as usize;
        let renumbered = black && i > 0 && previous_had_comment;
        previous_had_comment = !comments.is_empty();
        if !(current || renumbered || !comments.is_empty()) {
            continue;
        }
        items.push_str(plain.lines(copied, i));
        let numbered = !black || renumbered || i == 0 || !comments.is_empty();
        let number = numbered.then_some((number, black));
        let comments = comments.iter().map(|l| l.1.as_str());
        write_line(&mut items, number, ply, &m.san, current, comments);
        copied = ply;
    }
    items.push_str(plain.lines(copied, game.moves().len()));
    MoveList {
        opening_comments,
        items,
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

    fn played(sans: &[&str]) -> Arc<Game> {
        let mut game = Game::new(Variant::Standard);
        for san in sans {
            game = game.play(san).unwrap();
        }
        Arc::new(game)
    }

    #[test]
    fn a_comment_renumbers_the_black_move_after_it() {
        let game = played(&["e4", "e5", "Nf3", "Nc6"]);
        let talk = [entry(0, "good luck"), entry(3, "sharp"), entry(9, "later")];
        let list = move_list(-1, &game, &talk, 2);
        assert_eq!(list.opening_comments, ["alice: good luck"]);
        assert_eq!(
            list.items,
            concat!(
                r#"<li>1. <a href=?ply=1>e4</a>"#,
                r#"<li><a class="current" href=?ply=2 aria-current="step">e5</a>"#,
                r#"<li>2. <a href=?ply=3>Nf3</a><span class="comment">alice: sharp</span>"#,
                r#"<li>2... <a href=?ply=4>Nc6</a><span class="comment">alice: later</span>"#,
            )
        );
    }

    #[test]
    fn a_game_from_a_position_with_black_to_move_starts_at_its_move_number() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7";
        let game = Game::from_fen(Variant::Standard, fen)
            .unwrap()
            .play("Kd7")
            .unwrap()
            .play("e4")
            .unwrap();
        let list = move_list(-2, &Arc::new(game), &[], 0);
        assert_eq!(
            list.items,
            r#"<li>7... <a href=?ply=1>Kd7</a><li>8. <a href=?ply=2>e4</a>"#
        );
    }

    #[test]
    fn comments_are_escaped() {
        let game = played(&["d4"]);
        let list = move_list(-3, &game, &[entry(1, "<b>&'\"")], 0);
        assert!(
            list.items
                .ends_with(r#"<span class="comment">alice: &#60;b&#62;&#38;&#39;&#34;</span>"#),
            "{}",
            list.items
        );
    }

    #[test]
    fn what_one_viewer_reads_never_reaches_the_next_through_the_kept_lines() {
        let game = played(&["e4", "e5", "Nf3"]);
        let first = move_list(-4, &game, &[entry(1, "only for the first")], 1);
        assert!(first.items.contains("only for the first"));
        assert!(first.items.contains(r#"class="current" href=?ply=1 "#));
        // The next viewer of the same game: their own mark, none of the first's comments.
        let next = move_list(-4, &game, &[], 3);
        assert_eq!(
            next.items,
            concat!(
                r#"<li>1. <a href=?ply=1>e4</a>"#,
                "<li><a href=?ply=2>e5</a>",
                r#"<li>2. <a class="current" href=?ply=3 aria-current="step">Nf3</a>"#,
            )
        );
        // Another game under the same id (another database's): its own moves.
        let other = move_list(-4, &played(&["d4", "d5", "c4"]), &[], 0);
        assert!(other.items.contains(">c4</a>") && !other.items.contains("Nf3"));
    }
}
