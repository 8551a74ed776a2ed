//! Where a finished mail goes: `.eml` files (development) or an SMTP server, as configured.

use std::path::{Path, PathBuf};
use std::time::Duration;

use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::{Message, SmtpTransport, Transport};

use crate::config::{MailSettings, MailTransport, SmtpTls};

/// The configured way out for mail.
pub enum Mailer {
    /// Writes each mail to `<dir>/<name>.eml`.
    File(PathBuf),
    /// Hands each mail to an SMTP server.
    Smtp(Box<SmtpTransport>),
}

/// A mail setting that cannot work; reported at start and by `send-test-email`.
#[derive(Debug, thiserror::Error)]
pub enum MailConfigError {
    #[error("mail.from is not a mail address such as \"Slowfuse <chess@example.org>\": {0}")]
    BadFrom(String),
    #[error("mail.smtp_host is empty")]
    NoHost,
    #[error("TLS for {host} cannot be set up: {reason}")]
    Tls { host: String, reason: String },
}

/// Why a mail was not delivered.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct SendError {
    /// A refusal that will not change by trying again (SMTP 5xx).
    pub permanent: bool,
    pub message: String,
}

/// The configured sender address.
pub fn from_mailbox(settings: &MailSettings) -> Result<Mailbox, MailConfigError> {
    settings
        .from
        .trim()
        .parse()
        .map_err(|e: lettre::address::AddressError| MailConfigError::BadFrom(e.to_string()))
}

impl Mailer {
    /// Builds the transport the settings name. `hello` is the name we give in the SMTP
    /// greeting (the public URL's host).
    pub fn from_settings(
        settings: &MailSettings,
        data_dir: &Path,
        hello: &str,
    ) -> Result<Mailer, MailConfigError> {
        from_mailbox(settings)?;
        match settings.transport {
            MailTransport::File => Ok(Mailer::File(data_dir.join("mail"))),
            MailTransport::Smtp => {
                let host = settings.smtp_host.trim();
                if host.is_empty() {
                    return Err(MailConfigError::NoHost);
                }
                let tls = |host: &str| {
                    TlsParameters::new(host.to_string()).map_err(|e| MailConfigError::Tls {
                        host: host.to_string(),
                        reason: e.to_string(),
                    })
                };
                let mode = match settings.smtp_tls {
                    SmtpTls::None => Tls::None,
                    SmtpTls::Starttls => Tls::Required(tls(host)?),
                    SmtpTls::Tls => Tls::Wrapper(tls(host)?),
                };
                let mut builder = SmtpTransport::builder_dangerous(host)
                    .port(settings.smtp_port)
                    .tls(mode)
                    .hello_name(ClientId::Domain(hello.to_string()))
                    .timeout(Some(Duration::from_secs(settings.timeout_seconds.max(1))));
                if !settings.smtp_username.is_empty() {
                    builder = builder.credentials(Credentials::new(
                        settings.smtp_username.clone(),
                        settings.smtp_password.clone(),
                    ));
                }
                Ok(Mailer::Smtp(Box::new(builder.build())))
            }
        }
    }

    /// Delivers one mail; `name` names the file (the file transport overwrites a file of the
    /// same name, so a mail sent again is not doubled).
    pub fn send(&self, message: &Message, name: &str) -> Result<(), SendError> {
        match self {
            Mailer::File(dir) => {
                write_eml(dir, name, &message.formatted()).map_err(|e| SendError {
                    permanent: false,
                    message: format!("cannot write {}: {e}", dir.display()),
                })
            }
            Mailer::Smtp(smtp) => smtp.send(message).map(|_| ()).map_err(|e| SendError {
                permanent: e.is_permanent(),
                message: smtp_error_text(&e),
            }),
        }
    }

    /// Where this mailer delivers, for messages to the operator.
    pub fn describe(&self, settings: &MailSettings) -> String {
        match self {
            Mailer::File(dir) => format!("files under {}", dir.display()),
            Mailer::Smtp(_) => format!(
                "SMTP {}:{} ({:?})",
                settings.smtp_host, settings.smtp_port, settings.smtp_tls
            ),
        }
    }
}

/// The error with its causes, which name the real trouble (refused connection, bad login, …).
fn smtp_error_text(e: &lettre::transport::smtp::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

fn write_eml(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    // Write aside, then rename: a reader never sees half a mail.
    let tmp = dir.join(format!(".{safe}.tmp"));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, dir.join(format!("{safe}.eml")))
}
