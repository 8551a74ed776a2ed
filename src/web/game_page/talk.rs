//! The talk panel: the comments toggle, and the comment, kibitz and notes boxes as the viewer
//! may use them (what a refused form held kept in its box).

use super::Typed;
use super::viewer::Viewer;
use crate::game::GameRecord;

/// The talk part of the game page, as this viewer may see and use it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TalkView {
    /// The viewer asked not to see comments and kibitz.
    pub hidden: bool,
    /// The link that flips the preference (`?comments=show|hide`, keeping the viewed ply).
    pub toggle_href: String,
    pub is_public: bool,
    /// The viewer plays: a notes box with their note.
    pub note_box: bool,
    pub note_value: String,
    /// A logged-in spectator of a public game: a kibitz box.
    pub kibitz_box: bool,
    pub kibitz_value: String,
    /// A player of a running public game: spectators' kibitz waits for the end.
    pub kibitz_waits: bool,
    /// A visitor who is not logged in, in a running public game.
    pub login_to_kibitz: bool,
    /// A player of a finished game: comments go in their own box (no action bar then).
    pub comment_box: bool,
    pub comment_value: String,
    pub max_chars: usize,
}

/// What the talk builder reads besides the record and the viewer.
pub struct TalkInput<'a> {
    /// The ply asked for in the address (kept by the toggle link), if any.
    pub asked_ply: Option<u32>,
    /// What a refused form held.
    pub typed: Option<&'a Typed>,
    /// The viewer's stored note.
    pub note: Option<&'a str>,
    pub max_chars: usize,
}

/// The talk as `viewer` sees it.
pub fn talk_view(record: &GameRecord, viewer: &Viewer, input: TalkInput<'_>) -> TalkView {
    let plays = viewer.plays();
    let public = record.game.is_public;
    let running = record.is_started();
    let hidden = viewer.hides_comments;
    let ply = input
        .asked_ply
        .map_or(String::new(), |p| format!("&ply={p}"));
    let (note, kibitz, message) = match input.typed {
        Some(Typed::Note(text)) => (Some(text.as_str()), "", ""),
        Some(Typed::Kibitz(text)) => (None, text.as_str(), ""),
        Some(Typed::Action { message, .. }) => (None, "", message.as_str()),
        _ => (None, "", ""),
    };
    TalkView {
        hidden,
        toggle_href: format!(
            "/games/{}?comments={}{ply}",
            record.game.id,
            if hidden { "show" } else { "hide" }
        ),
        is_public: public,
        note_box: plays,
        note_value: if plays {
            note.or(input.note).unwrap_or_default().to_string()
        } else {
            String::new()
        },
        kibitz_box: public && viewer.id.is_some() && !plays,
        kibitz_value: kibitz.to_string(),
        kibitz_waits: public && running && plays,
        login_to_kibitz: public && running && viewer.id.is_none(),
        comment_box: plays && !running,
        comment_value: if running {
            String::new()
        } else {
            message.to_string()
        },
        max_chars: input.max_chars,
    }
}
