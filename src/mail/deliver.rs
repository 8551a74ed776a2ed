//! The worker's mail job: claim due outbox rows, compose each, send it, and record the
//! outcome (sent, retry later, failed, cancelled); and the one-off test mail of the CLI.

use chrono::NaiveDateTime;
use lettre::message::Mailbox;

use super::compose::{Composed, compose};
use super::context::{ComposeFailure, Context};
use super::messages::*;
use super::tokens::Signer;
use super::transport::{Mailer, SendError, from_mailbox};
use crate::config::Settings;
use crate::db::DbConnection;
use crate::models::OutboxRow;
use crate::usecases::outbox;

/// Rows looked at in one pass.
const BATCH: i64 = 100;

/// What one pass did, by outbox row id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MailReport {
    pub sent: Vec<i64>,
    /// Failed for now; tried again after the back-off.
    pub retrying: Vec<i64>,
    pub failed: Vec<i64>,
    pub cancelled: Vec<i64>,
}

impl MailReport {
    /// Whether the pass did nothing.
    pub fn is_empty(&self) -> bool {
        self.sent.is_empty()
            && self.retrying.is_empty()
            && self.failed.is_empty()
            && self.cancelled.is_empty()
    }
}

/// Sends what is due. Each row is claimed on its own (another worker may take the others);
/// when the transport fails for a reason that may pass, the pass stops and the rest wait.
/// `stop` is asked before each row is claimed: a stopping instance finishes the row it holds
/// and claims no other.
pub fn deliver_due(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    settings: &Settings,
    signer: &Signer,
    stop: &dyn Fn() -> bool,
) -> anyhow::Result<MailReport> {
    let mut report = MailReport::default();
    let ids = outbox::due_ids(conn, now, settings.mail.coalesce_seconds, BATCH)?;
    if ids.is_empty() {
        return Ok(report);
    }
    let host = url_host(&settings.server.public_url);
    let mailer = Mailer::from_settings(&settings.mail, &settings.server.data_dir, &host)?;
    let ctx = Context {
        settings,
        signer,
        from: from_mailbox(&settings.mail)?,
        host,
    };
    for id in ids {
        if stop() {
            break;
        }
        let Some(row) = outbox::claim(conn, now, id)? else {
            continue;
        };
        let sent = match compose(conn, now, &ctx, &row) {
            Ok(Composed::Skip(reason)) => {
                outbox::mark_cancelled(conn, row.id, &reason)?;
                report.cancelled.push(row.id);
                continue;
            }
            Ok(Composed::Mail(message, message_id)) => mailer
                .send(&message, &format!("{}-{}", row.kind, row.id))
                .map(|()| message_id),
            Err(ComposeFailure::Db(e)) => return Err(e.into()),
            Err(ComposeFailure::Other(e)) => {
                let gave_up = outbox::mark_retry(conn, now, &row, &e, settings.mail.max_attempts)?;
                push(&mut report, row.id, gave_up);
                continue;
            }
        };
        if !record(conn, now, settings, &row, sent, &mut report)? {
            // The transport is failing: leave the rest for a later pass.
            break;
        }
    }
    Ok(report)
}

/// Records how a try went; returns false when the transport failed for a reason that may pass.
fn record(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    settings: &Settings,
    row: &OutboxRow,
    sent: Result<String, SendError>,
    report: &mut MailReport,
) -> anyhow::Result<bool> {
    match sent {
        Ok(message_id) => {
            outbox::mark_sent(conn, now, row.id, &message_id)?;
            report.sent.push(row.id);
        }
        Err(e) if e.permanent => {
            outbox::mark_failed(conn, row.id, &e.message)?;
            report.failed.push(row.id);
        }
        Err(e) => {
            let max = settings.mail.max_attempts;
            let gave_up = outbox::mark_retry(conn, now, row, &e.message, max)?;
            push(report, row.id, gave_up);
            log::warn!("mail {} not sent, will retry: {}", row.id, e.message);
            return Ok(false);
        }
    }
    Ok(true)
}

fn push(report: &mut MailReport, id: i64, gave_up: bool) {
    if gave_up {
        report.failed.push(id);
    } else {
        report.retrying.push(id);
    }
}

/// Sends one test mail at once through the configured transport (`slowfuse send-test-email`).
pub fn send_test_email(
    settings: &Settings,
    to: &str,
    now: NaiveDateTime,
) -> anyhow::Result<String> {
    let host = url_host(&settings.server.public_url);
    let mailer = Mailer::from_settings(&settings.mail, &settings.server.data_dir, &host)?;
    let from = from_mailbox(&settings.mail)?;
    let to: Mailbox = to
        .trim()
        .parse()
        .map_err(|e| anyhow::anyhow!("\"{to}\" is not a mail address: {e}"))?;
    let transport = mailer.describe(&settings.mail);
    let stamp = now.and_utc().timestamp();
    let body = TestEmail {
        site_url: settings.server.public_url.clone(),
        transport: transport.clone(),
        footer: Footer {
            reason: "You get this mail because the operator of this Slowfuse server asked for a test mail.".to_string(),
            unsubscribe_url: None,
            settings_url: format!("{}/account#notifications", settings.server.public_url),
        },
    };
    let envelope = Envelope {
        to,
        message_id: format!("<test-{stamp}-{}@{host}>", rand::random::<u32>()),
        thread: None,
        unsubscribe_url: None,
        date: now,
    };
    let message = build_message(&from, &envelope, &body)?;
    mailer
        .send(&message, &format!("test-{stamp}"))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(transport)
}
