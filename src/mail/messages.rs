//! The mails: one struct per kind, each with a plain-text and an HTML template under
//! `templates/email/`, and the headers that identify, thread and unsubscribe them.

use askama::Template;
use chrono::NaiveDateTime;
use lettre::Message;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};

use super::diagram::Diagram;

/// A mail's subject and its two bodies.
pub trait EmailBody {
    /// The subject line.
    fn subject(&self) -> String;
    /// The `text/plain` part.
    fn text(&self) -> askama::Result<String>;
    /// The `text/html` part.
    fn html(&self) -> askama::Result<String>;
}

/// Gives an email struct its two templates: `$text` (not escaped) and `$html` (escaped),
/// both reading the struct as `m`, and its subject from `subject_line`.
macro_rules! email_templates {
    ($email:ident, $text:literal, $html:literal) => {
        const _: () = {
            #[derive(Template)]
            #[template(path = $text)]
            struct Text<'a> {
                m: &'a $email,
            }
            #[derive(Template)]
            #[template(path = $html)]
            struct Html<'a> {
                m: &'a $email,
            }
            impl EmailBody for $email {
                fn subject(&self) -> String {
                    self.subject_line()
                }
                fn text(&self) -> askama::Result<String> {
                    Text { m: self }.render()
                }
                fn html(&self) -> askama::Result<String> {
                    Html { m: self }.render()
                }
            }
        };
    };
}

/// Why a mail was sent and how to stop it: the foot of every mail.
#[derive(Clone, Debug)]
pub struct Footer {
    pub reason: String,
    /// The one-click link that stops this kind of mail (none for mails one cannot refuse).
    pub unsubscribe_url: Option<String>,
    pub settings_url: String,
}

/// "It is your move": the opponent moved (or their conditional reply was played).
pub struct YourTurnEmail {
    pub name: String,
    pub opponent: String,
    pub game_id: i64,
    pub game_url: String,
    pub variant: String,
    /// The opponent's last move with its number, e.g. `12... Nxf7`; `None` when nobody has
    /// moved on the reader's board yet (a match or a minesweeper game that just started).
    pub last_move: Option<String>,
    /// The comment that came with that move.
    pub comment: Option<String>,
    pub diagram: Diagram,
    /// When the recipient's time runs out, in UTC words.
    pub deadline: Option<String>,
    pub footer: Footer,
}
email_templates!(YourTurnEmail, "email/your_turn.txt", "email/your_turn.html");

/// "The game is over": result, how it ended, links to the game and its PGN.
pub struct GameOverEmail {
    pub name: String,
    pub opponent: String,
    pub game_id: i64,
    pub game_url: String,
    pub pgn_url: String,
    pub variant: String,
    /// `You won`, `You lost` or `Draw`.
    pub verdict: String,
    /// `1-0` and the like.
    pub result: String,
    /// How it ended, e.g. `King exploded`.
    pub termination: String,
    pub last_move: Option<String>,
    pub diagram: Diagram,
    pub footer: Footer,
}
email_templates!(GameOverEmail, "email/game_over.txt", "email/game_over.html");

/// "You have been challenged" (a direct challenge).
pub struct ChallengeReceivedEmail {
    pub name: String,
    pub challenger: String,
    pub variant: String,
    pub time_control: String,
    pub rated: bool,
    /// The challenger's colour choice from the recipient's side: `white`, `black`, `random`.
    pub your_color: String,
    pub challenges_url: String,
    pub footer: Footer,
}
email_templates!(
    ChallengeReceivedEmail,
    "email/challenge_received.txt",
    "email/challenge_received.html"
);

/// "Your challenge was accepted": the game has started.
pub struct ChallengeAcceptedEmail {
    pub name: String,
    /// The other side: the opponent, or in a bughouse match the other team.
    pub opponent: String,
    /// A bughouse match: the partner, who plays the other board.
    pub partner: Option<String>,
    pub game_id: i64,
    pub game_url: String,
    pub variant: String,
    /// The colour the reader plays, with the board in a match ("white on board a").
    pub your_color: String,
    pub your_move: bool,
    /// Who moves first on the reader's board when it is not the reader.
    pub first_mover: String,
    /// A minesweeper game in its setup: when the bombs must be placed by, in the reader's
    /// words.
    pub setup_until: Option<String>,
    pub footer: Footer,
}
email_templates!(
    ChallengeAcceptedEmail,
    "email/challenge_accepted.txt",
    "email/challenge_accepted.html"
);

/// "Your opponent offers a draw".
pub struct DrawOfferedEmail {
    pub name: String,
    pub opponent: String,
    pub game_id: i64,
    pub game_url: String,
    pub variant: String,
    pub message: Option<String>,
    pub diagram: Diagram,
    pub footer: Footer,
}
email_templates!(
    DrawOfferedEmail,
    "email/draw_offered.txt",
    "email/draw_offered.html"
);

/// "Your opponent declined your draw offer".
pub struct DrawDeclinedEmail {
    pub name: String,
    pub opponent: String,
    pub game_id: i64,
    pub game_url: String,
    pub variant: String,
    /// What the opponent wrote with the refusal.
    pub message: Option<String>,
    /// Whether it is the recipient's move now.
    pub your_move: bool,
    pub footer: Footer,
}
email_templates!(
    DrawDeclinedEmail,
    "email/draw_declined.txt",
    "email/draw_declined.html"
);

/// The daily digest: the games awaiting the recipient's move, most urgent first, and the
/// events held for it since the last one.
pub struct DigestEmail {
    pub name: String,
    /// The recipient's local date, in words.
    pub date: String,
    pub games: Vec<DigestGame>,
    pub events: Vec<DigestEvent>,
    pub footer: Footer,
}

/// A game awaiting the move in a [`DigestEmail`].
pub struct DigestGame {
    pub game_id: i64,
    pub game_url: String,
    pub opponent: String,
    pub variant: String,
    /// What is left, in words (none for a game without a clock).
    pub time_left: Option<String>,
    /// When the time runs out, in the recipient's time zone.
    pub deadline: Option<String>,
}

/// An event in a [`DigestEmail`]: what the mail of its own would have said in its subject.
pub struct DigestEvent {
    pub text: String,
    pub url: String,
}
email_templates!(DigestEmail, "email/digest.txt", "email/digest.html");

/// "Your time is running low": a threshold of the time for the move has passed.
pub struct TimeRunningLowEmail {
    pub name: String,
    pub opponent: String,
    pub game_id: i64,
    pub game_url: String,
    pub variant: String,
    /// What is left, in words, e.g. `about 5 hours`.
    pub time_left: String,
    /// When the recipient's time runs out, in UTC words.
    pub deadline: String,
    pub last_move: Option<String>,
    pub diagram: Diagram,
    pub footer: Footer,
}
email_templates!(
    TimeRunningLowEmail,
    "email/low_time.txt",
    "email/low_time.html"
);

/// "Your opponent is on leave": their clocks stand still for the days booked.
pub struct OpponentOnLeaveEmail {
    pub name: String,
    /// The player on leave.
    pub player: String,
    /// The first day of leave and the day play resumes, in words.
    pub starts: String,
    pub ends: String,
    pub days: i64,
    /// The running games the two play together.
    pub games: Vec<LeaveGame>,
    pub footer: Footer,
}

/// One game in an [`OpponentOnLeaveEmail`].
pub struct LeaveGame {
    pub game_id: i64,
    pub game_url: String,
    pub variant: String,
    /// Whether it is the recipient's move (their clock still runs).
    pub your_move: bool,
}
email_templates!(
    OpponentOnLeaveEmail,
    "email/opponent_on_leave.txt",
    "email/opponent_on_leave.html"
);

/// "Confirm your address": sent at sign-up; no other mail goes out before it is followed.
pub struct VerifyEmail {
    pub name: String,
    pub verify_url: String,
    /// When the link stops working, in UTC words.
    pub expires: String,
    pub footer: Footer,
}
email_templates!(
    VerifyEmail,
    "email/verify_email.txt",
    "email/verify_email.html"
);

/// The mail of `slowfuse send-test-email`.
pub struct TestEmail {
    pub site_url: String,
    pub transport: String,
    pub footer: Footer,
}
email_templates!(TestEmail, "email/test.txt", "email/test.html");

impl YourTurnEmail {
    fn subject_line(&self) -> String {
        format!("Game {} v {}: your move", self.game_id, self.opponent)
    }
}

impl GameOverEmail {
    fn subject_line(&self) -> String {
        format!(
            "Game {} v {}: {} ({})",
            self.game_id,
            self.opponent,
            self.verdict.to_lowercase(),
            self.termination.to_lowercase()
        )
    }
}

impl ChallengeReceivedEmail {
    fn subject_line(&self) -> String {
        format!(
            "{} challenges you to a game of {}",
            self.challenger, self.variant
        )
    }
}

impl ChallengeAcceptedEmail {
    fn subject_line(&self) -> String {
        format!(
            "Game {} v {}: challenge accepted{}",
            self.game_id,
            self.opponent,
            if self.your_move { ", your move" } else { "" }
        )
    }
}

impl DrawOfferedEmail {
    fn subject_line(&self) -> String {
        format!("Game {} v {}: draw offered", self.game_id, self.opponent)
    }
}

impl DrawDeclinedEmail {
    fn subject_line(&self) -> String {
        format!(
            "Game {} v {}: draw offer declined",
            self.game_id, self.opponent
        )
    }
}

impl DigestEmail {
    fn subject_line(&self) -> String {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let news = plural(self.events.len(), "update", "updates");
        match (self.games.len(), self.events.len()) {
            (0, _) => format!("Slowfuse digest, {}: {news}", self.date),
            (games, 0) => format!(
                "Slowfuse digest, {}: {} your move",
                self.date,
                plural(games, "game awaits", "games await")
            ),
            (games, _) => format!(
                "Slowfuse digest, {}: {} your move, {news}",
                self.date,
                plural(games, "game awaits", "games await")
            ),
        }
    }
}

impl TimeRunningLowEmail {
    fn subject_line(&self) -> String {
        format!(
            "Game {} v {}: {} left for your move",
            self.game_id, self.opponent, self.time_left
        )
    }
}

impl OpponentOnLeaveEmail {
    fn subject_line(&self) -> String {
        format!(
            "{} is on leave from {} for {} day{}",
            self.player,
            self.starts,
            self.days,
            if self.days == 1 { "" } else { "s" }
        )
    }
}

impl VerifyEmail {
    fn subject_line(&self) -> String {
        "Confirm your email address for Slowfuse".to_string()
    }
}

impl TestEmail {
    fn subject_line(&self) -> String {
        "Slowfuse test mail".to_string()
    }
}

/// Everything about a mail apart from its subject and bodies.
#[derive(Clone, Debug)]
pub struct Envelope {
    pub to: Mailbox,
    /// `<…@host>`, the same each time this mail is tried.
    pub message_id: String,
    /// The thread this mail belongs to (a game's root id), for `In-Reply-To`/`References`.
    pub thread: Option<String>,
    /// The one-click unsubscribe URL (RFC 8058).
    pub unsubscribe_url: Option<String>,
    pub date: NaiveDateTime,
}

/// Why a mail could not be put together.
#[derive(Debug, thiserror::Error)]
pub enum ComposeError {
    #[error("template: {0}")]
    Template(#[from] askama::Error),
    #[error("message: {0}")]
    Message(#[from] lettre::error::Error),
}

/// Builds the multipart/alternative message with its identifying and threading headers.
pub fn build_message(
    from: &Mailbox,
    envelope: &Envelope,
    body: &dyn EmailBody,
) -> Result<Message, ComposeError> {
    let date = std::time::SystemTime::UNIX_EPOCH
        + std::time::Duration::from_secs(envelope.date.and_utc().timestamp().max(0) as u64);
    let mut builder = Message::builder()
        .from(from.clone())
        .to(envelope.to.clone())
        .subject(body.subject())
        .date(date)
        .message_id(Some(envelope.message_id.clone()))
        .raw_header(header("Auto-Submitted", "auto-generated"));
    if let Some(root) = &envelope.thread {
        builder = builder.in_reply_to(root.clone()).references(root.clone());
    }
    if let Some(url) = &envelope.unsubscribe_url {
        builder = builder
            .raw_header(header("List-Unsubscribe", &format!("<{url}>")))
            .raw_header(header(
                "List-Unsubscribe-Post",
                "List-Unsubscribe=One-Click",
            ));
    }
    Ok(builder.multipart(MultiPart::alternative_plain_html(
        body.text()?,
        body.html()?,
    ))?)
}

fn header(name: &'static str, value: &str) -> HeaderValue {
    HeaderValue::new(HeaderName::new_from_ascii_str(name), value.to_string())
}

/// The host of the public URL, used on the right of every Message-ID.
pub fn url_host(public_url: &str) -> String {
    let rest = public_url
        .split_once("://")
        .map_or(public_url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let host = if authority.starts_with('[') {
        authority
            .split(']')
            .next()
            .map_or(authority.to_string(), |h| format!("{h}]"))
    } else {
        authority.split(':').next().unwrap_or(authority).to_string()
    };
    if host.is_empty() {
        "localhost".to_string()
    } else {
        host.to_lowercase()
    }
}

/// The Message-ID of one outbox row's mail.
pub fn message_id(outbox_id: i64, host: &str) -> String {
    format!("<mail-{outbox_id}@{host}>")
}

/// The root every mail about one game refers to, so a mail client threads them.
pub fn game_thread(game_id: i64, host: &str) -> String {
    format!("<game-{game_id}@{host}>")
}

/// A move with its number, e.g. `1. e4` (ply 0) or `12... Nxf7` (ply 23).
pub fn numbered_move(ply: i32, san: &str) -> String {
    let number = ply / 2 + 1;
    if ply % 2 == 0 {
        format!("{number}. {san}")
    } else {
        format!("{number}... {san}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_come_from_the_public_url() {
        assert_eq!(url_host("https://Chess.Example.org"), "chess.example.org");
        assert_eq!(url_host("http://127.0.0.1:8080"), "127.0.0.1");
        assert_eq!(url_host("https://example.org:8443/chess/"), "example.org");
        assert_eq!(url_host("http://[::1]:8080"), "[::1]");
        assert_eq!(url_host(""), "localhost");
    }

    #[test]
    fn moves_are_numbered() {
        assert_eq!(numbered_move(0, "e4"), "1. e4");
        assert_eq!(numbered_move(23, "Nxf7"), "12... Nxf7");
    }
}
