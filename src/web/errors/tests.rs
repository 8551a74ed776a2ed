//! The error convention's promises: a 500 logs its causes and shows none; a refusal keeps its
//! status and message.

use std::sync::Mutex;

use actix_web::body::MessageBody;

use super::*;
use crate::usecases::play::PlayError;
use crate::usecases::tags::TagError;

/// Keeps every logged line, so a test can read what an error logged.
struct Capture(Mutex<Vec<String>>);

impl log::Log for Capture {
    fn enabled(&self, _: &log::Metadata) -> bool {
        true
    }
    fn log(&self, record: &log::Record) {
        self.0.lock().unwrap().push(record.args().to_string());
    }
    fn flush(&self) {}
}

static CAPTURE: Capture = Capture(Mutex::new(Vec::new()));

/// The lines logged so far (by any test) that contain `needle`.
fn logged_with(needle: &str) -> Vec<String> {
    let lines = CAPTURE.0.lock().unwrap();
    lines
        .iter()
        .filter(|l| l.contains(needle))
        .cloned()
        .collect()
}

fn capture_logs() {
    let _ = log::set_logger(&CAPTURE);
    log::set_max_level(log::LevelFilter::Error);
}

/// A database failure under a stored game, two causes deep.
#[derive(Debug, thiserror::Error)]
#[error("disk {0} is full")]
struct DiskFull(&'static str);

#[derive(Debug, thiserror::Error)]
#[error("could not write the move")]
struct WriteFailed(#[source] DiskFull);

fn body_text(response: HttpResponse) -> String {
    let bytes = response.into_body().try_into_bytes().ok().unwrap();
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn a_page_500_logs_the_cause_chain_and_shows_a_plain_message() {
    capture_logs();
    let e = WebError::internal(WriteFailed(DiskFull("page-7")));
    let response = e.error_response();
    assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let body = body_text(response);
    assert!(body.contains("internal error"), "{body}");
    assert!(
        !body.contains("could not write") && !body.contains("page-7"),
        "{body}"
    );
    assert_eq!(
        logged_with("page-7"),
        ["internal error: could not write the move: disk page-7 is full"]
    );
}

#[test]
fn an_api_500_from_a_use_case_logs_the_cause_chain_and_shows_a_plain_message() {
    capture_logs();
    let corrupt = CorruptGame {
        game_id: 7,
        reason: "move 12 (api-7) is illegal".into(),
    };
    let e = ApiError::from(PlayError::Corrupt(corrupt));
    let response = e.error_response();
    assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(body_text(response), r#"{"error":"internal error"}"#);
    assert_eq!(
        logged_with("api-7"),
        ["internal error: game 7 does not replay: move 12 (api-7) is illegal"]
    );
}

#[test]
fn a_refusal_keeps_its_status_and_message_and_logs_nothing() {
    capture_logs();
    let e = ApiError::from(TagError::Invalid("no spaces-9".into()));
    let response = e.error_response();
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(response).contains("no spaces-9"));
    assert!(logged_with("no spaces-9").is_empty());
    let refused = refusal(PlayError::Stale {
        board: None,
        sent: 4,
        current: 5,
    })
    .unwrap();
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(refused.message.contains("ply 4"), "{}", refused.message);
    assert!(refusal(PlayError::Db(diesel::result::Error::NotFound)).is_err());
}
