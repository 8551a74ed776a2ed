//! Email: composing notification mails from templates, signing their links, and the worker's
//! job that delivers the outbox through the configured transport.

pub mod compose;
pub mod deliver;
pub mod diagram;
pub mod digest;
pub mod messages;
pub mod tokens;
pub mod transport;

pub use deliver::{MailReport, deliver_due, send_test_email};
pub use tokens::Signer;
pub use transport::Mailer;
