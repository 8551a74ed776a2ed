//! Email: composing notification mails from templates, signing their links, and the worker's
//! job that delivers the outbox through the configured transport.

pub mod compose;
pub mod context;
pub mod deliver;
pub mod diagram;
pub mod digest;
mod events;
pub mod messages;
mod notices;
pub mod tokens;
pub mod transport;
mod words;

pub use deliver::{MailReport, deliver_due, send_test_email};
pub use tokens::Signer;
pub use transport::Mailer;
