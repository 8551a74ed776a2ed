//! What composing every mail shares: the context (settings, signer, host, sender) with its links
//! and footers, the boxed body a mail kind yields, and how composing fails.

use lettre::message::Mailbox;

use super::messages::{ComposeError, EmailBody, Footer};
use super::tokens::Signer;
use crate::config::Settings;
use crate::game::GameRecord;
use crate::usecases::notify::Kind;

/// What the composer needs besides the database.
pub struct Context<'a> {
    pub settings: &'a Settings,
    pub signer: &'a Signer,
    /// The public URL's host, the right side of every Message-ID.
    pub host: String,
    pub from: Mailbox,
}

impl Context<'_> {
    /// A path on this server as a full URL.
    pub(super) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.settings.server.public_url)
    }

    /// The one-click link that switches `kind` off for this user.
    pub(super) fn unsubscribe_url(&self, user_id: i64, kind: Kind) -> String {
        let token = self.signer.unsubscribe_token(user_id, kind.as_str());
        self.url(&format!("/unsubscribe?token={token}"))
    }

    /// The footer that says why this user gets the mail and how to stop it.
    pub(super) fn footer(&self, user_id: i64, kind: Kind, reason: &str) -> Footer {
        Footer {
            reason: reason.to_string(),
            unsubscribe_url: Some(self.unsubscribe_url(user_id, kind)),
            settings_url: self.url("/account#notifications"),
        }
    }
}

/// A row that could not be composed: the database failed, or something else (a template).
pub enum ComposeFailure {
    Db(diesel::result::Error),
    Other(String),
}

impl From<diesel::result::Error> for ComposeFailure {
    fn from(e: diesel::result::Error) -> Self {
        ComposeFailure::Db(e)
    }
}

impl From<ComposeError> for ComposeFailure {
    fn from(e: ComposeError) -> Self {
        ComposeFailure::Other(e.to_string())
    }
}

/// A composed mail of any kind: its subject and its two parts.
pub(super) type Body = Box<dyn EmailBody>;

/// The game page's full URL.
pub(super) fn game_url(ctx: &Context, record: &GameRecord) -> String {
    ctx.url(&format!("/games/{}", record.game.id))
}

/// The game's position now as a picture (its PNG at the current ply, so the mail keeps showing
/// the position it was written about), from `side`'s point of view; a bughouse match's two
/// boards as the match page draws them.
pub(super) fn picture_url(
    ctx: &Context,
    record: &GameRecord,
    side: slowfuse_rules::Color,
) -> String {
    let flip = if side == slowfuse_rules::Color::Black && record.boards.len() == 1 {
        "&flip=1"
    } else {
        ""
    };
    ctx.url(&format!(
        "/games/{}.png?ply={}{flip}",
        record.game.id, record.game.ply
    ))
}

/// A mail kind's body, or `why` it is not to be sent when there is none.
pub(super) fn boxed<T: EmailBody + 'static>(
    mail: Option<T>,
    why: &'static str,
) -> Result<Body, &'static str> {
    mail.map(|m| Box::new(m) as Body).ok_or(why)
}
