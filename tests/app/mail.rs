//! Email notifications against a real SMTP server (Debian's python3-aiosmtpd, started here by
//! `tests/smtp_sink.py`): content and headers of each kind, threading, one-click unsubscribe,
//! address confirmation, coalescing, SMTP outage and recovery, two workers, `send-test-email`.

use crate::common;

use std::process::Command;
use std::sync::Arc;

use chrono::{Duration, NaiveDate};
use common::smtp::{Mail, PUBLIC_URL, SmtpSink, mail_app_settings, mail_settings};
use common::{Backend, Options, TestApp, spawn_app_with_env};
use serde_json::{Value, json};
use slowfuse::clock::FixedClock;
use slowfuse::mail::MailReport;

const HOST: &str = "chess.example.org";
/// A little more than `mail.coalesce_seconds`.
const HOLD: i64 = 121;

/// A test's world: the app (no background worker) on a fixed clock, and its SMTP server.
struct Env {
    app: TestApp,
    sink: SmtpSink,
    clock: Arc<FixedClock>,
}

fn setup(backend: Backend, sink_running: bool) -> Option<Env> {
    let mut sink = SmtpSink::reserve()?;
    if sink_running {
        sink.start();
    }
    let start = NaiveDate::from_ymd_opt(2026, 12, 1)
        .unwrap()
        .and_hms_opt(9, 0, 0)
        .unwrap();
    let clock = Arc::new(FixedClock::new(start));
    let mut settings = mail_app_settings(sink.port_for_app());
    settings.push((
        "SLOWFUSE__MAIL__FROM".to_string(),
        "Slowfuse <chess@example.org>".to_string(),
    ));
    let app = spawn_app_with_env(
        backend,
        Options {
            clock: Some(clock.clone()),
            ..Options::default()
        },
        settings,
    )?;
    Some(Env { app, sink, clock })
}

impl Env {
    /// One pass of the worker's mail job.
    fn pass(&self) -> MailReport {
        actix_web::rt::System::new()
            .block_on(slowfuse::worker::send_mail_once(&self.app.state.worker()))
            .expect("mail pass")
    }

    fn advance(&self, seconds: i64) {
        self.clock.advance(Duration::seconds(seconds));
    }

    /// Lets held mails become due and sends everything; returns how many mails the sink has.
    fn settle(&self) -> usize {
        self.advance(HOLD);
        self.pass();
        self.sink.mails().len()
    }

    /// The mails received after the first `since`.
    fn mails_since(&self, since: usize) -> Vec<Mail> {
        self.sink.mails().into_iter().skip(since).collect()
    }

    /// GETs or POSTs a link from a mail on the test server, as someone not logged in.
    fn open(&self, method: &str, link: &str, body: Option<&str>) -> (u16, String) {
        let path = link
            .strip_prefix(PUBLIC_URL)
            .expect("a link on the public URL");
        let client = reqwest::blocking::Client::new();
        let url = format!("{}{path}", self.app.base);
        let req = match method {
            "POST" => client
                .post(url)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body.unwrap_or("").to_string()),
            _ => client.get(url),
        };
        let res = req.send().expect("request");
        (res.status().as_u16(), res.text().unwrap_or_default())
    }

    /// Signs a user up and confirms the address by the link of the confirmation mail;
    /// returns their API token.
    fn verified_user(&self, name: &str) -> String {
        let token = self.app.user(name);
        self.pass();
        let mails = self.sink.mails();
        let mail = mails
            .iter()
            .rev()
            .find(|m| m.is_to(name) && m.subject().contains("Confirm"))
            .expect("a confirmation mail");
        let (status, page) = self.open("GET", &mail.link("/verify-email?token="), None);
        assert_eq!(status, 200, "{page}");
        assert!(page.contains("is confirmed"), "{page}");
        token
    }

    fn play(&self, game: i64, token: &str, mv: &str, ply: i64) {
        let r = self.app.play(game, token, mv, ply);
        assert_eq!(r.status, 200, "{mv} at ply {ply}: {}", r.body);
    }

    fn action(&self, game: i64, token: &str, action: &str, ply: i64, message: Option<&str>) {
        let r = self.app.post(
            &format!("/api/v1/games/{game}/actions"),
            Some(token),
            json!({"action": action, "ply": ply, "message": message}),
        );
        assert_eq!(r.status, 200, "{action}: {}", r.body);
    }

    /// A move on one board of a bughouse match.
    fn play_on(&self, game: i64, token: &str, board: &str, mv: &str, ply: i64) {
        let r = self.app.post(
            &format!("/api/v1/games/{game}/moves"),
            Some(token),
            json!({"board": board, "move": mv, "ply": ply}),
        );
        assert_eq!(r.status, 200, "{mv} on board {board}: {}", r.body);
    }

    fn settings_of(&self, token: &str) -> Value {
        let r = self.app.get("/api/v1/me/notifications", Some(token));
        assert_eq!(r.status, 200, "{}", r.body);
        r.body
    }
}

fn game_root(game: i64) -> String {
    format!("<game-{game}@{HOST}>")
}

macro_rules! mail_tests {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[test] fn $name() { if let Some(mut env) = super::setup(super::Backend::Sqlite, true) { super::$name(&mut env) } })*
        }
        mod postgres {
            $(#[test] fn $name() { if let Some(mut env) = super::setup(super::Backend::Postgres, true) { super::$name(&mut env) } })*
        }
    };
}

mail_tests!(
    a_move_puts_one_correct_multipart_mail_into_the_smtp_servers_hands,
    challenge_draw_and_result_mails_thread_by_game,
    one_click_unsubscribe_without_login_stops_that_kind_only,
    an_unconfirmed_address_gets_only_the_confirmation_mail,
    a_burst_of_moves_becomes_one_mail_also_with_a_conditional_reply,
    smtp_outage_then_recovery_loses_nothing_and_doubles_nothing,
    a_refused_address_fails_at_once_and_is_not_retried,
    two_workers_send_each_mail_once,
    notification_settings_on_the_account_page_and_in_the_api,
    time_running_low_is_mailed_once_per_turn_and_threshold,
    time_running_low_comes_on_time_when_leave_ends_early,
    back_from_leave_with_the_whole_day_no_time_running_low_mail_comes_early,
    a_turn_past_its_deadline_gets_no_time_running_low_mail,
    booked_leave_mails_each_opponent_once_with_the_games_they_share,
    the_daily_digest_lists_games_awaiting_the_move_most_urgent_first,
    events_held_for_the_digest_go_at_once_when_the_kind_is_set_back,
    old_finished_mail_is_deleted_and_waiting_mail_kept,
    each_seat_of_a_bughouse_match_reads_its_mails_and_results_from_its_own_side,
    draw_offers_in_minesweeper_and_bughouse_are_kept_and_mailed_as_in_chess,
);

fn a_move_puts_one_correct_multipart_mail_into_the_smtp_servers_hands(env: &mut Env) {
    let a = env.verified_user("alice");
    let b = env.verified_user("bob");
    let g = env.app.game("atomic", &a, &b);
    let before = env.settle();
    env.play(g, &a, "e4", 0);
    assert!(
        env.pass().is_empty(),
        "a move's mail waits a little for a quick reply"
    );
    env.advance(HOLD);
    assert_eq!(env.pass().sent.len(), 1);
    let mails = env.mails_since(before);
    assert_eq!(mails.len(), 1, "exactly one mail");
    let m = &mails[0];
    assert_eq!(m.rcpt_tos(), vec!["bob@example.com"]);
    assert_eq!(m.header("from"), "Slowfuse <chess@example.org>");
    assert_eq!(m.header("to"), "bob <bob@example.com>");
    assert_eq!(m.subject(), format!("Game {g} v alice: your move"));
    let first_id = m.header("message-id");
    let id_shape = regex::Regex::new(r"^<mail-\d+@chess\.example\.org>$").unwrap();
    assert!(id_shape.is_match(&first_id), "{first_id}");
    assert_eq!(m.header("in-reply-to"), game_root(g));
    assert_eq!(m.header("references"), game_root(g));
    let unsubscribe = m.unsubscribe_url();
    assert!(
        unsubscribe.starts_with(&format!("{PUBLIC_URL}/unsubscribe?token=")),
        "{unsubscribe}"
    );
    assert_eq!(
        m.header("list-unsubscribe-post"),
        "List-Unsubscribe=One-Click"
    );
    assert_eq!(m.header("auto-submitted"), "auto-generated");
    assert!(
        m.header("date").contains("1 Dec 2026"),
        "{}",
        m.header("date")
    );
    assert_eq!(
        m.0["parts"],
        json!(["multipart/alternative", "text/plain", "text/html"])
    );
    assert_eq!(m.0["defects"], json!([]));
    let text = m.text();
    if std::env::var_os("SHOW_MAIL").is_some() {
        eprintln!(
            "{}\n{text}\n{}",
            serde_json::to_string_pretty(&m.0["headers"]).unwrap(),
            m.html()
        );
    }
    assert!(text.contains("alice played 1. e4"), "{text}");
    assert!(text.contains("It is your move"), "{text}");
    // Bob plays black: his diagram has rank 1 at the top and the h-file on the left.
    assert!(text.contains("1  R N B K Q B N R"), "{text}");
    assert!(text.contains("4  . . . P . . . ."), "{text}");
    assert!(text.contains("   h g f e d c b a"), "{text}");
    assert!(text.contains(&format!("{PUBLIC_URL}/games/{g}")), "{text}");
    assert!(text.contains("You get this mail because it is your move"));
    assert!(
        text.contains(&unsubscribe),
        "the footer has the unsubscribe link"
    );
    let html = m.html();
    assert!(
        html.contains(&format!("href=\"{PUBLIC_URL}/games/{g}\"")),
        "{html}"
    );
    assert!(html.contains("<strong>1. e4</strong>"), "{html}");
    assert!(
        html.contains('♙') && html.contains('♚'),
        "the board has pieces"
    );
    // Under it the same position as a picture, from Bob's side, at the ply the mail is about.
    assert!(
        html.contains(&format!(
            "href=\"{PUBLIC_URL}/games/{g}.png?ply=1&#38;flip=1\""
        )),
        "{html}"
    );
    assert!(html.contains("Unsubscribe from these mails"));

    // Once: later passes send nothing more.
    env.advance(3600);
    assert!(env.pass().is_empty());
    assert_eq!(env.sink.mails().len(), before + 1);

    // Bob's reply mails alice, in the same thread, under another Message-ID.
    env.play(g, &b, "e5", 1);
    env.advance(HOLD);
    env.pass();
    let mails = env.mails_since(before + 1);
    assert_eq!(mails.len(), 1);
    let m = &mails[0];
    assert!(m.is_to("alice"));
    assert!(m.text().contains("bob played 1... e5"), "{}", m.text());
    assert!(m.text().contains("5  . . . . p . . ."), "white's side");
    assert_eq!(m.header("in-reply-to"), game_root(g));
    assert_eq!(m.header("references"), game_root(g));
    assert_ne!(m.header("message-id"), first_id);
}

fn challenge_draw_and_result_mails_thread_by_game(env: &mut Env) {
    let a = env.verified_user("alice");
    let b = env.verified_user("bob");
    let before = env.sink.mails().len();
    let r = env.app.post(
        "/api/v1/challenges",
        Some(&a),
        json!({"variant": "atomic", "color": "white", "days_per_move": 3, "opponent": "bob"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let challenge = r.body["id"].as_i64().unwrap();
    env.pass();
    let mails = env.mails_since(before);
    assert_eq!(mails.len(), 1, "the challenge reaches bob at once");
    let m = &mails[0];
    assert!(m.is_to("bob"));
    assert_eq!(m.subject(), "alice challenges you to a game of Atomic");
    assert!(
        m.text().contains("casual game of Atomic (3 days per move)"),
        "{}",
        m.text()
    );
    assert!(m.text().contains("you would play black"), "{}", m.text());
    assert_eq!(m.link("/challenges"), format!("{PUBLIC_URL}/challenges"));
    assert!(m.has_header("list-unsubscribe"));
    assert!(!m.has_header("in-reply-to"), "no game yet");

    let r = env.app.post(
        &format!("/api/v1/challenges/{challenge}/accept"),
        Some(&b),
        json!({}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let g = r.body["game_id"].as_i64().unwrap();
    env.pass();
    let mails = env.mails_since(before + 1);
    assert_eq!(mails.len(), 1);
    let m = &mails[0];
    assert!(m.is_to("alice"));
    assert_eq!(
        m.subject(),
        format!("Game {g} v bob: challenge accepted, your move")
    );
    assert!(m.text().contains("you play white"), "{}", m.text());
    assert_eq!(m.header("references"), game_root(g));

    env.action(g, &a, "offer_draw", 0, Some("Shall we? <b>no</b>"));
    env.pass();
    let mails = env.mails_since(before + 2);
    assert_eq!(mails.len(), 1);
    let m = &mails[0];
    assert!(m.is_to("bob"));
    assert_eq!(m.subject(), format!("Game {g} v alice: draw offered"));
    assert!(
        m.text().contains("alice wrote: Shall we? <b>no</b>"),
        "{}",
        m.text()
    );
    assert!(
        m.html().contains("Shall we? &#60;b&#62;no&#60;/b&#62;")
            || m.html().contains("Shall we? &lt;b&gt;no&lt;/b&gt;"),
        "the message is text in the HTML part: {}",
        m.html()
    );
    assert_eq!(m.header("in-reply-to"), game_root(g));

    env.action(g, &b, "decline_draw", 0, Some("Not yet: play on!"));
    env.pass();
    let mails = env.mails_since(before + 3);
    assert_eq!(mails.len(), 1, "the refusal reaches the player who offered");
    let m = &mails[0];
    assert!(m.is_to("alice"));
    assert_eq!(m.subject(), format!("Game {g} v bob: draw offer declined"));
    assert!(
        m.text().contains("bob wrote: Not yet: play on!"),
        "{}",
        m.text()
    );
    assert!(m.text().contains("It is your move"), "{}", m.text());
    assert_eq!(m.header("in-reply-to"), game_root(g));
    assert!(m.has_header("list-unsubscribe"));

    env.action(g, &a, "resign", 0, None);
    env.pass();
    let mails = env.mails_since(before + 4);
    assert_eq!(mails.len(), 2, "a result mail to each player");
    for m in &mails {
        assert_eq!(m.header("references"), game_root(g));
        assert!(m.text().contains("0-1 (Resignation)"), "{}", m.text());
        assert!(m.text().contains(&format!("{PUBLIC_URL}/games/{g}.pgn")));
    }
    let to_alice = mails.iter().find(|m| m.is_to("alice")).unwrap();
    let to_bob = mails.iter().find(|m| m.is_to("bob")).unwrap();
    assert_eq!(
        to_alice.subject(),
        format!("Game {g} v bob: you lost (resignation)")
    );
    assert_eq!(
        to_bob.subject(),
        format!("Game {g} v alice: you won (resignation)")
    );
    let ids: std::collections::HashSet<String> = env
        .mails_since(before)
        .iter()
        .map(|m| m.header("message-id"))
        .collect();
    assert_eq!(ids.len(), 6, "every mail has its own Message-ID");
}

fn one_click_unsubscribe_without_login_stops_that_kind_only(env: &mut Env) {
    let a = env.verified_user("alice");
    let b = env.verified_user("bob");
    let g = env.app.game("atomic", &a, &b);
    env.settle();
    env.play(g, &a, "e4", 0);
    let before = env.settle();
    let mail = env.sink.mails().pop().unwrap();
    assert!(mail.is_to("bob"));
    let link = mail.unsubscribe_url();

    // Opening the link (a person, or a scanner) only asks.
    let (status, page) = env.open("GET", &link, None);
    assert_eq!(status, 200);
    assert!(
        page.contains("Stop the mails sent to <strong>bob</strong>"),
        "{page}"
    );
    assert!(page.contains(">Unsubscribe</button>"), "{page}");
    assert_eq!(env.settings_of(&b)["kinds"]["your_turn"], true);

    // A forged or damaged token is refused clearly and changes nothing.
    let token = link.split("token=").nth(1).unwrap();
    let (bob_id, rest) = token.split_once('.').unwrap();
    // Alice signed up just before bob: the same link for her account.
    let forged = format!("{}.{rest}", bob_id.parse::<i64>().unwrap() - 1);
    let bad_links = [
        format!("{PUBLIC_URL}/unsubscribe?token={forged}"),
        format!("{PUBLIC_URL}/unsubscribe?token=garbage"),
        format!("{PUBLIC_URL}/unsubscribe"),
    ];
    for bad in bad_links {
        for method in ["GET", "POST"] {
            let (status, page) = env.open(method, &bad, Some("List-Unsubscribe=One-Click"));
            assert_eq!(status, 400, "{method} {bad}");
            assert!(
                page.contains("This unsubscribe link is not valid"),
                "{page}"
            );
        }
    }
    assert_eq!(env.settings_of(&a)["kinds"]["your_turn"], true);

    // The one-click POST of RFC 8058, without any login.
    let (status, page) = env.open("POST", &link, Some("List-Unsubscribe=One-Click"));
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains("gets no more mails for “It is my move”"),
        "{page}"
    );
    let settings = env.settings_of(&b);
    assert_eq!(settings["kinds"]["your_turn"], false);
    assert_eq!(settings["kinds"]["game_over"], true);
    assert_eq!(
        env.settings_of(&a)["kinds"]["your_turn"],
        true,
        "alice unchanged"
    );

    env.play(g, &b, "e5", 1);
    env.settle();
    let bobs_rows = your_turn_rows(env, "bob");
    env.play(g, &a, "Nf3", 2);
    env.settle();
    assert_eq!(
        your_turn_rows(env, "bob"),
        bobs_rows,
        "nothing queued for bob either"
    );
    let mails = env.mails_since(before);
    assert_eq!(mails.len(), 1, "alice still gets hers, bob none");
    assert!(mails[0].is_to("alice"));

    // Other kinds still reach bob.
    env.action(g, &a, "resign", 3, None);
    env.pass();
    let mails = env.mails_since(before + 1);
    assert_eq!(mails.len(), 2);
    assert!(
        mails
            .iter()
            .any(|m| m.is_to("bob") && m.subject().contains("you won"))
    );
}

fn an_unconfirmed_address_gets_only_the_confirmation_mail(env: &mut Env) {
    let a = env.verified_user("alice");
    let before = env.sink.mails().len();
    let c = env.app.user("carol");
    let r = env.app.post(
        "/api/v1/challenges",
        Some(&a),
        json!({"variant": "atomic", "color": "white", "days_per_move": 3, "opponent": "carol"}),
    );
    assert_eq!(r.status, 201);
    let id = r.body["id"].as_i64().unwrap();
    let r = env.app.post(
        &format!("/api/v1/challenges/{id}/accept"),
        Some(&c),
        json!({}),
    );
    let g = r.body["game_id"].as_i64().unwrap();
    env.play(g, &a, "e4", 0);
    env.settle();
    let to_carol: Vec<Mail> = env
        .mails_since(before)
        .into_iter()
        .filter(|m| m.is_to("carol"))
        .collect();
    assert_eq!(
        to_carol.len(),
        1,
        "no challenge and no move mail before confirmation"
    );
    assert_eq!(your_turn_rows(env, "carol"), 0, "nor any queued");
    let m = &to_carol[0];
    assert_eq!(m.subject(), "Confirm your email address for Slowfuse");
    assert!(
        !m.has_header("list-unsubscribe"),
        "this mail cannot be refused"
    );
    assert_eq!(
        m.0["parts"],
        json!(["multipart/alternative", "text/plain", "text/html"])
    );
    assert!(m.text().contains("no other mail is sent to you"));
    let link = m.link("/verify-email?token=");
    assert!(m.html().contains(&format!("href=\"{link}\"")));
    assert_eq!(env.settings_of(&c)["verified"], false);

    let (status, page) = env.open("GET", &format!("{link}x"), None);
    assert_eq!(status, 400, "a damaged link");
    assert!(page.contains("not valid or has expired"), "{page}");
    assert_eq!(env.settings_of(&c)["verified"], false);

    let (status, page) = env.open("GET", &link, None);
    assert_eq!(status, 200);
    assert!(
        page.contains("<strong>carol@example.com</strong> is confirmed"),
        "{page}"
    );
    assert_eq!(env.settings_of(&c)["verified"], true);
    let (status, page) = env.open("GET", &link, None);
    assert_eq!(status, 200);
    assert!(page.contains("was already confirmed"), "{page}");

    // From now on carol's mails come.
    let seen = env.sink.mails().len();
    env.play(g, &c, "e5", 1);
    env.play(g, &a, "Nf3", 2);
    env.settle();
    let mails = env.mails_since(seen);
    assert_eq!(mails.len(), 1);
    assert!(mails[0].is_to("carol"));
    assert!(mails[0].text().contains("alice played 2. Nf3"));
}

fn a_burst_of_moves_becomes_one_mail_also_with_a_conditional_reply(env: &mut Env) {
    let a = env.verified_user("alice");
    let b = env.verified_user("bob");
    let g = env.app.game("atomic", &a, &b);
    let before = env.settle();
    for (ply, (token, mv)) in [(&a, "e4"), (&b, "e5"), (&a, "Nf3"), (&b, "Nc6")]
        .into_iter()
        .enumerate()
    {
        env.play(g, token, mv, ply as i64);
        env.advance(30);
        assert!(
            env.pass().sent.is_empty(),
            "nothing while the players reply quickly"
        );
    }
    // Bob, waiting, answers Bb5 with a6 in advance; the server plays it for him.
    let r = env.app.post_method(
        "PUT",
        &format!("/api/v1/games/{g}/conditional"),
        Some(&b),
        json!({"lines": "Bb5 a6", "ply": 4, "comment": null}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    env.play(g, &a, "Bb5", 4);
    env.advance(60);
    assert!(env.pass().sent.is_empty());
    env.advance(HOLD);
    env.pass();
    env.advance(3600);
    env.pass();
    let mails = env.mails_since(before);
    assert_eq!(mails.len(), 1, "six moves, one mail");
    let m = &mails[0];
    assert!(
        m.is_to("alice"),
        "after the conditional reply it is alice's move"
    );
    assert!(m.text().contains("bob played 3... a6"), "{}", m.text());
}

fn smtp_outage_then_recovery_loses_nothing_and_doubles_nothing(env: &mut Env) {
    // Phase 1: the SMTP server is down from the start; sign-ups still work.
    env.sink.stop();
    env.app.user("alice");
    env.app.user("bob");
    let report = env.pass();
    assert!(report.sent.is_empty());
    assert_eq!(
        report.retrying.len(),
        1,
        "the pass stops at the first failure"
    );
    for _ in 0..3 {
        env.advance(60);
        assert!(env.pass().sent.is_empty());
    }
    env.sink.start();
    env.advance(3600);
    assert_eq!(env.pass().sent.len(), 2);
    let mails = env.sink.mails();
    assert_eq!(mails.len(), 2, "each confirmation once");
    let mut tokens = Vec::new();
    for name in ["alice", "bob"] {
        let m = mails.iter().find(|m| m.is_to(name)).expect("one for each");
        assert_eq!(
            env.open("GET", &m.link("/verify-email?token="), None).0,
            200
        );
        let r = env.app.post(
            "/api/v1/tokens",
            None,
            json!({"username": name, "password": "correct horse battery"}),
        );
        tokens.push(r.body["token"].as_str().unwrap().to_string());
    }
    let (a, b) = (&tokens[0], &tokens[1]);
    let g1 = env.app.game("atomic", a, b);
    let before = env.settle();

    // Phase 2: SMTP goes down during play; moves and challenges still succeed.
    env.sink.stop();
    env.play(g1, a, "e4", 0);
    let g2 = env.app.game("atomic", a, b);
    env.play(g2, a, "d4", 0);
    for _ in 0..6 {
        env.advance(HOLD);
        assert!(env.pass().sent.is_empty());
    }
    env.sink.start();
    env.advance(3600);
    assert_eq!(env.pass().sent.len(), 3);
    env.advance(7200);
    assert!(env.pass().is_empty(), "nothing left, nothing sent twice");
    let mails = env.mails_since(before);
    let mut got: Vec<(String, String)> = mails
        .iter()
        .map(|m| (m.rcpt_tos()[0].clone(), m.subject()))
        .collect();
    got.sort();
    let mut expected = vec![
        (
            "bob@example.com".to_string(),
            format!("Game {g1} v alice: your move"),
        ),
        (
            "bob@example.com".to_string(),
            format!("Game {g2} v alice: your move"),
        ),
        (
            "alice@example.com".to_string(),
            // Written from the game as it is when sent: alice has moved meanwhile.
            format!("Game {g2} v bob: challenge accepted"),
        ),
    ];
    expected.sort();
    assert_eq!(got, expected);
    assert!(mails[0].text().contains("played 1."));
}

fn a_refused_address_fails_at_once_and_is_not_retried(env: &mut Env) {
    env.app.user("bouncer");
    let report = env.pass();
    assert_eq!(report.failed.len(), 1, "550 is permanent: {report:?}");
    assert!(report.retrying.is_empty());
    env.advance(86_400);
    assert!(env.pass().is_empty(), "a failed mail is not tried again");
    assert!(env.sink.mails().is_empty());
    // Other mail still flows.
    env.app.user("alice");
    assert_eq!(env.pass().sent.len(), 1);
}

fn two_workers_send_each_mail_once(env: &mut Env) {
    let a = env.verified_user("alice");
    let b = env.verified_user("bob");
    let games: Vec<i64> = (0..10).map(|_| env.app.game("atomic", &a, &b)).collect();
    let before = env.settle();
    for g in &games {
        env.play(*g, &a, "e4", 0);
    }
    env.advance(HOLD);
    let run_two = || {
        let (one, two) = std::thread::scope(|s| {
            let h1 = s.spawn(|| env.pass());
            let h2 = s.spawn(|| env.pass());
            (h1.join().unwrap(), h2.join().unwrap())
        });
        let mut sent = one.sent;
        sent.extend(two.sent);
        sent
    };
    let mut sent = run_two();
    sent.sort();
    let mut distinct = sent.clone();
    distinct.dedup();
    assert_eq!(sent.len(), 10, "{sent:?}");
    assert_eq!(distinct, sent, "no row sent by both workers");
    let mails = env.mails_since(before);
    assert_eq!(mails.len(), 10, "the SMTP server got each mail once");
    let mut subjects: Vec<String> = mails.iter().map(|m| m.subject()).collect();
    subjects.sort();
    let mut expected: Vec<String> = games
        .iter()
        .map(|g| format!("Game {g} v alice: your move"))
        .collect();
    expected.sort();
    assert_eq!(subjects, expected);
    env.advance(3600);
    assert!(run_two().is_empty(), "nothing left");
    assert_eq!(env.sink.mails().len(), before + 10);
}

fn notification_settings_on_the_account_page_and_in_the_api(env: &mut Env) {
    let browser = env.app.browser();
    assert_eq!(browser.sign_up("erin").status, 303);
    let page = browser.get("/account").body;
    assert!(page.contains("id=\"notifications\""), "{page}");
    assert!(page.contains("not confirmed yet"), "{page}");
    assert_eq!(
        page.matches("<option value=\"immediate\" selected>")
            .count(),
        8,
        "every kind at once at first"
    );
    let select = |page: &str, name: &str| -> String {
        let start = page
            .find(&format!("name=\"{name}\">"))
            .expect("the kind's select");
        let end = start + page[start..].find("</select>").unwrap();
        page[start..end].to_string()
    };
    assert!(select(&page, "game_over").contains("value=\"digest\""));
    assert!(
        !select(&page, "low_time").contains("value=\"digest\""),
        "time running low cannot wait for the digest"
    );
    assert!(
        page.contains("<option selected>UTC</option>"),
        "UTC at first"
    );
    assert!(
        page.contains("<option value=\"7\" selected>07:00</option>"),
        "{page}"
    );
    let csrf = common::hidden_value(&page, "csrf_token").unwrap();
    // Only game_over named: the others are off, as from an old form of ticked boxes.
    let r = browser.post(
        "/account/notifications",
        &[("csrf_token", &csrf), ("game_over", "on")],
    );
    assert_eq!(r.status, 303);
    let page = browser.follow(r).body;
    assert!(page.contains("Notification settings saved."), "{page}");
    assert_eq!(page.matches("<option value=\"off\" selected>").count(), 7);
    assert_eq!(
        page.matches("<option value=\"immediate\" selected>")
            .count(),
        1
    );
    let r = browser.post(
        "/account/notifications",
        &[
            ("csrf_token", &csrf),
            ("game_over", "on"),
            ("your_turn", "digest"),
            ("digest_hour", "18"),
            ("time_zone", "Europe/Berlin"),
        ],
    );
    assert_eq!(r.status, 303);
    let page = browser.follow(r).body;
    assert!(
        page.contains("<option selected>Europe/Berlin</option>"),
        "{page}"
    );
    assert!(
        page.contains("<option value=\"18\" selected>18:00</option>"),
        "{page}"
    );
    assert!(
        page.contains("<option value=\"digest\" selected>"),
        "{page}"
    );
    for bad in [
        [
            ("low_time", "digest"),
            ("digest_hour", "7"),
            ("time_zone", "UTC"),
        ],
        [
            ("game_over", "on"),
            ("digest_hour", "24"),
            ("time_zone", "UTC"),
        ],
        [
            ("game_over", "on"),
            ("digest_hour", "7"),
            ("time_zone", "Mars/Olympus"),
        ],
        [
            ("game_over", "sometimes"),
            ("digest_hour", "7"),
            ("time_zone", "UTC"),
        ],
    ] {
        let mut form = vec![("csrf_token", csrf.as_str())];
        form.extend(bad);
        let r = browser.post("/account/notifications", &form);
        assert_eq!(r.status, 400, "{bad:?} is refused");
    }
    let page = browser.get("/account").body;
    assert!(
        page.contains("<option selected>Europe/Berlin</option>"),
        "unchanged"
    );
    let r = browser.post(
        "/account/notifications",
        &[
            ("csrf_token", &csrf),
            ("game_over", "on"),
            ("time_zone", "UTC"),
            ("digest_hour", "7"),
        ],
    );
    assert_eq!(r.status, 303);
    let r = browser.post("/account/notifications", &[("csrf_token", "forged")]);
    assert_eq!(r.status, 403, "a form from elsewhere is refused");

    let r = env.app.post(
        "/api/v1/tokens",
        None,
        json!({"username": "erin", "password": "correct horse battery"}),
    );
    let token = r.body["token"].as_str().unwrap().to_string();
    let s = env.settings_of(&token);
    assert_eq!(s["email"], "erin@example.com");
    assert_eq!(s["verified"], false);
    assert_eq!(
        s["kinds"],
        json!({"your_turn": false, "draw_offered": false, "draw_declined": false,
               "game_over": true, "challenge_received": false, "challenge_accepted": false,
               "low_time": false, "opponent_on_leave": false})
    );
    let r = env.app.post_method(
        "PUT",
        "/api/v1/me/notifications",
        Some(&token),
        json!({"kinds": {"your_turn": true}}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["kinds"]["your_turn"], true);
    assert_eq!(r.body["kinds"]["game_over"], true);
    assert_eq!(r.body["kinds"]["draw_offered"], false);
    let r = env.app.post_method(
        "PUT",
        "/api/v1/me/notifications",
        Some(&token),
        json!({"kinds": {"verify_email": false}}),
    );
    assert_eq!(r.status, 422);
    assert!(r.body["error"].as_str().unwrap().contains("unknown kind"));
    let r = env.app.post_method(
        "PUT",
        "/api/v1/me/notifications",
        Some(&token),
        json!({"kinds": {"draw_offered": "digest"}, "digest_hour": 20, "time_zone": "America/New_York"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["modes"]["draw_offered"], "digest");
    assert_eq!(r.body["kinds"]["draw_offered"], true);
    assert_eq!(r.body["modes"]["game_over"], "immediate");
    assert_eq!(r.body["digest_hour"], 20);
    assert_eq!(r.body["time_zone"], "America/New_York");
    for bad in [
        json!({"kinds": {"low_time": "digest"}}),
        json!({"kinds": {"game_over": "weekly"}}),
        json!({"digest_hour": -1}),
        json!({"time_zone": "<script>"}),
    ] {
        let r = env
            .app
            .post_method("PUT", "/api/v1/me/notifications", Some(&token), bad.clone());
        assert_eq!(r.status, 422, "{bad}: {}", r.body);
    }
    assert_eq!(
        env.settings_of(&token)["time_zone"],
        "America/New_York",
        "unchanged"
    );

    // Signing up in a browser that says its time zone starts the account in it; a zone we do
    // not know leaves UTC and still creates the account.
    for (name, zone, kept) in [
        ("fay", "Asia/Tokyo", "Asia/Tokyo"),
        ("gus", "Bogus/Zone", "UTC"),
    ] {
        let browser = env.app.browser();
        let csrf = browser.csrf("/signup");
        assert!(browser.get("/signup").body.contains("/static/timezone.js"));
        let email = format!("{name}@example.com");
        let r = browser.post(
            "/signup",
            &[
                ("csrf_token", csrf.as_str()),
                ("username", name),
                ("email", email.as_str()),
                ("password", "correct horse battery"),
                ("time_zone", zone),
            ],
        );
        assert_eq!(r.status, 303, "{name}");
        let page = browser.get("/account").body;
        assert!(
            page.contains(&format!("<option selected>{kept}</option>")),
            "{name}: {kept}"
        );
    }
    assert_eq!(env.app.get("/api/v1/me/notifications", None).status, 401);

    // Another confirmation mail on request, at most one per ten minutes.
    let csrf = browser.csrf("/account");
    let r = browser.post("/account/verify-email", &[("csrf_token", &csrf)]);
    let page = browser.follow(r).body;
    assert!(
        page.contains("A new confirmation mail is on its way."),
        "{page}"
    );
    let r = browser.post("/account/verify-email", &[("csrf_token", &csrf)]);
    let page = browser.follow(r).body;
    assert!(page.contains("wait ten minutes"), "{page}");
    env.pass();
    let to_erin = env
        .sink
        .mails()
        .into_iter()
        .filter(|m| m.is_to("erin"))
        .count();
    assert_eq!(to_erin, 2, "the sign-up mail and the one asked for");
}

/// `slowfuse send-test-email` through SMTP, to a server that is down, and into files.
#[test]
fn send_test_email_reports_success_and_failure() {
    let Some(mut sink) = SmtpSink::reserve() else {
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let port = sink.port_for_app();
    let run = |transport: &str| {
        Command::new(env!("CARGO_BIN_EXE_slowfuse"))
            .args(["--config-dir", data.path().to_str().unwrap()])
            .args(["send-test-email", "ops@example.com"])
            .env("SLOWFUSE__SERVER__DATA_DIR", data.path())
            .env("SLOWFUSE__SERVER__PUBLIC_URL", PUBLIC_URL)
            .envs(mail_settings(port))
            .env("SLOWFUSE__MAIL__TRANSPORT", transport)
            .env("RUST_LOG", "off")
            .output()
            .expect("run slowfuse")
    };
    let down = run("smtp");
    assert!(!down.status.success());
    let err = String::from_utf8_lossy(&down.stderr);
    assert!(
        err.contains("the test mail to ops@example.com was not sent"),
        "{err}"
    );
    assert!(err.to_lowercase().contains("refused"), "{err}");

    sink.start();
    let up = run("smtp");
    let out = String::from_utf8_lossy(&up.stdout);
    assert!(
        up.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&up.stderr)
    );
    assert!(
        out.contains("Test mail to ops@example.com sent through SMTP 127.0.0.1"),
        "{out}"
    );
    let mails = sink.mails();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].subject(), "Slowfuse test mail");
    assert!(mails[0].text().contains(PUBLIC_URL));

    let file = run("file");
    assert!(file.status.success());
    let written: Vec<_> = std::fs::read_dir(data.path().join("mail"))
        .expect("the mail directory")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .collect();
    assert_eq!(written.len(), 1);
    let eml = std::fs::read_to_string(written[0].path()).unwrap();
    assert!(eml.contains("Subject: Slowfuse test mail"), "{eml}");
    assert!(eml.contains("To: ops@example.com"), "{eml}");
}

/// Alice and Bob's atomic game after 1. e4 e5 (3 days a move): Alice is to move. Returns
/// their tokens and the game.
fn alice_to_move(env: &Env) -> (String, String, i64) {
    let a = env.verified_user("alice");
    let b = env.verified_user("bob");
    let g = env.app.game("atomic", &a, &b);
    env.play(g, &a, "e4", 0);
    env.play(g, &b, "e5", 1);
    (a, b, g)
}

/// The subjects of the "time running low" mails among `mails`.
fn low_time_subjects(mails: &[Mail]) -> Vec<String> {
    mails
        .iter()
        .map(|m| m.subject())
        .filter(|s| s.contains("left for your move"))
        .collect()
}

fn time_running_low_is_mailed_once_per_turn_and_threshold(env: &mut Env) {
    let (a, _, g) = alice_to_move(env);
    // Alice is to move with 3 days for it: 24 hours left after 48 hours, 80% gone after
    // 57.6 hours.
    let before = env.settle();
    env.advance(47 * 3600);
    env.pass();
    assert_eq!(
        low_time_subjects(&env.mails_since(before)).len(),
        0,
        "too early"
    );

    env.advance(3600 + 60);
    env.pass();
    let mails = env.mails_since(before);
    assert_eq!(mails.len(), 1, "one mail when 24 hours are left");
    let m = &mails[0];
    assert!(m.is_to("alice"));
    assert!(
        m.subject().contains(&format!("Game {g} v bob")),
        "{}",
        m.subject()
    );
    assert!(m.subject().contains("about 24 hours"), "{}", m.subject());
    assert_eq!(m.header("in-reply-to"), game_root(g));
    assert_eq!(m.header("references"), game_root(g));
    assert_eq!(
        m.header("list-unsubscribe-post"),
        "List-Unsubscribe=One-Click"
    );
    assert_eq!(
        m.0["parts"],
        json!(["multipart/alternative", "text/plain", "text/html"])
    );
    let text = m.text();
    assert!(text.contains("Your time is running low"), "{text}");
    assert!(
        text.contains("Your time runs out on Friday 4 December 2026"),
        "{text}"
    );
    assert!(text.contains("The last move was 1... e5"), "{text}");
    assert!(text.contains(&format!("{PUBLIC_URL}/games/{g}")), "{text}");
    assert!(
        text.contains("your time for a move in a game you play"),
        "{text}"
    );
    assert!(
        m.html().contains("<strong>about 24 hours</strong>"),
        "{}",
        m.html()
    );

    // More passes send nothing new; crossing 80% sends one more.
    env.pass();
    env.advance(3600);
    env.pass();
    assert_eq!(env.mails_since(before).len(), 1, "sent once");
    env.advance(9 * 3600);
    env.pass();
    let mails = env.mails_since(before);
    assert_eq!(mails.len(), 2, "one mail when 80% is gone");
    assert!(mails[1].is_to("alice"));
    assert!(
        mails[1].subject().contains("about 14 hours"),
        "{}",
        mails[1].subject()
    );
    env.advance(3600);
    env.pass();
    assert!(env.pass().is_empty());
    assert_eq!(env.mails_since(before).len(), 2, "each threshold once");

    // Alice moves: Bob's turn starts afresh; when the worker sees both thresholds crossed
    // at once he gets one mail, not two.
    env.play(g, &a, "Nf3", 2);
    let before = env.settle();
    env.advance(58 * 3600);
    env.pass();
    env.pass();
    let mails = env.mails_since(before);
    assert_eq!(mails.len(), 1, "one mail for both thresholds at once");
    assert!(mails[0].is_to("bob"));
    assert!(mails[0].subject().contains("left for your move"));
    env.advance(3600);
    env.pass();
    assert_eq!(env.mails_since(before).len(), 1);
}

/// The scan looks at a board when its next threshold comes; a deadline brought forward
/// (leave ended early) brings that look forward too, so the mail is not late.
fn time_running_low_comes_on_time_when_leave_ends_early(env: &mut Env) {
    let (a, _, g) = alice_to_move(env);
    let before = env.settle();
    // Alice is to move with 3 days for it, and goes on leave for the next five: her deadline
    // moves five days on, and the scan's next look with it.
    let r = env.app.post(
        "/api/v1/me/leave",
        Some(&a),
        json!({"start": "2026-12-02", "days": 5}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["bookings"][0]["id"].as_i64().expect("the booking");
    env.pass();
    // Past the moment 24 hours would be left without the leave: nothing, and the next look
    // is when they are left before the later deadline.
    env.advance(49 * 3600);
    env.pass();
    assert!(
        low_time_subjects(&env.mails_since(before)).is_empty(),
        "on leave"
    );

    // Back a day into it: the deadline comes forward (the leave taken still counts), and so
    // does the scan's look, so she hears 24 hours before it, not 24 hours before the deadline
    // the whole leave had given.
    let on_leave = deadline_in_queue(env, &a, g);
    let r = env.app.post_method(
        "DELETE",
        &format!("/api/v1/me/leave/{id}"),
        Some(&a),
        json!({}),
    );
    assert!(r.status < 300, "{} {}", r.status, r.body);
    let back = deadline_in_queue(env, &a, g);
    assert!(back < on_leave, "{back} {on_leave}");
    env.pass();
    let now = slowfuse::clock::Clock::now(env.clock.as_ref());
    env.advance((back - Duration::hours(24) - now).num_seconds() - 60);
    env.pass();
    assert!(
        low_time_subjects(&env.mails_since(before)).is_empty(),
        "too early"
    );
    env.advance(120);
    env.pass();
    let subjects = low_time_subjects(&env.mails_since(before));
    assert_eq!(subjects.len(), 1, "on time: {subjects:?}");
    assert!(subjects[0].contains("about 24 hours"), "{subjects:?}");
    env.advance(3600);
    env.pass();
    assert_eq!(low_time_subjects(&env.mails_since(before)).len(), 1, "once");
}

/// A turn that began during leave, and leave ended early: the player has the whole day for
/// the move, so no "24 hours left" comes; the thresholds count the time the clock ran, not the
/// days of leave between the opponent's move and the deadline.
fn back_from_leave_with_the_whole_day_no_time_running_low_mail_comes_early(env: &mut Env) {
    let a = env.verified_user("alice");
    let b = env.verified_user("bob");
    let g = env.app.game_from(
        &a,
        &b,
        json!({"variant": "standard", "color": "white", "days_per_move": 1, "opponent": null}),
    );
    env.play(g, &a, "e4", 0);
    env.play(g, &b, "e5", 1);
    env.play(g, &a, "Nf3", 2);
    env.settle();
    // Alice books five days of leave from tomorrow; Bob answers once it has begun.
    let r = env.app.post(
        "/api/v1/me/leave",
        Some(&a),
        json!({"start": "2026-12-02", "days": 5}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["bookings"][0]["id"].as_i64().expect("the booking");
    env.advance(16 * 3600);
    env.play(g, &b, "Nc6", 3);
    let before = env.settle();
    let alices = |env: &Env| {
        let mails: Vec<Mail> = env
            .mails_since(before)
            .into_iter()
            .filter(|m| m.is_to("alice"))
            .collect();
        low_time_subjects(&mails)
    };
    env.advance(35 * 3600);
    env.pass();
    assert!(alices(env).is_empty(), "on leave: {:?}", alices(env));

    // Back early: her day for the move starts now.
    let r = env.app.post_method(
        "DELETE",
        &format!("/api/v1/me/leave/{id}"),
        Some(&a),
        json!({}),
    );
    assert!(r.status < 300, "{} {}", r.status, r.body);
    let now = slowfuse::clock::Clock::now(env.clock.as_ref());
    let deadline = deadline_in_queue(env, &a, g);
    assert_eq!(deadline - now, Duration::hours(24), "the whole day");
    env.pass();
    env.advance(60);
    env.pass();
    assert!(
        alices(env).is_empty(),
        "the whole day left: {:?}",
        alices(env)
    );

    // 80% of her day gone (19.2 hours): the one mail of this turn, about 5 hours before.
    let at_80 = deadline - Duration::minutes(24 * 60 / 5);
    let now = slowfuse::clock::Clock::now(env.clock.as_ref());
    env.advance((at_80 - now).num_seconds() - 60);
    env.pass();
    assert!(alices(env).is_empty(), "too early: {:?}", alices(env));
    env.advance(120);
    env.pass();
    let subjects = alices(env);
    assert_eq!(subjects.len(), 1, "{subjects:?}");
    assert!(subjects[0].contains("about 5 hours"), "{subjects:?}");
    env.advance(3600);
    env.pass();
    assert_eq!(alices(env).len(), 1, "once");
}

/// A game left for the opponent to claim (no automatic loss on time) runs on past the
/// deadline: too late to warn of it, so no "time running low" mail, however late the worker
/// first looks, and the scan leaves the board until a new deadline is written.
fn a_turn_past_its_deadline_gets_no_time_running_low_mail(env: &mut Env) {
    let a = env.verified_user("alice");
    let b = env.verified_user("bob");
    let g = env.app.game_from(
        &a,
        &b,
        json!({"variant": "standard", "color": "white", "days_per_move": 1, "auto_flag": false, "opponent": null}),
    );
    env.play(g, &a, "e4", 0);
    env.play(g, &b, "e5", 1);
    let before = env.settle();
    env.advance(25 * 3600);
    env.pass();
    env.advance(3600);
    env.pass();
    let late = low_time_subjects(&env.mails_since(before));
    assert!(late.is_empty(), "{late:?}");
    let r = env.app.get(&format!("/api/v1/games/{g}"), Some(&a));
    assert_eq!(r.body["status"], "started", "left to claim: {}", r.body);
    // And the scan does not come back to it at every pass: its look is cleared.
    use diesel::prelude::*;
    use slowfuse::schema::game_boards;
    let mut conn = env.app.state.pool.get().unwrap();
    let look: Option<chrono::NaiveDateTime> = game_boards::table
        .filter(game_boards::game_id.eq(g))
        .select(game_boards::low_time_at)
        .get_result(&mut **conn)
        .unwrap();
    assert_eq!(look, None);
}

/// The deadline of game `g` in `user`'s queue.
fn deadline_in_queue(env: &Env, user: &str, g: i64) -> chrono::NaiveDateTime {
    let r = env.app.get("/api/v1/me/queue", Some(user));
    assert_eq!(r.status, 200, "{}", r.body);
    let line = r.body.as_array().unwrap().iter().find(|l| l["id"] == g);
    let at = line
        .and_then(|l| l["deadline_at"].as_str())
        .unwrap_or_else(|| panic!("{}", r.body));
    chrono::DateTime::parse_from_rfc3339(at)
        .unwrap()
        .naive_utc()
}

fn booked_leave_mails_each_opponent_once_with_the_games_they_share(env: &mut Env) {
    let a = env.verified_user("alice");
    let b = env.verified_user("bob");
    let c = env.verified_user("carol");
    let d = env.verified_user("dave");
    let g1 = env.app.game("atomic", &a, &b);
    let g2 = env.app.game("standard", &b, &a);
    let g3 = env.app.game("atomic", &c, &a);
    let g4 = env.app.game("atomic", &b, &d);
    let before = env.settle();
    let r = env.app.post(
        "/api/v1/me/leave",
        Some(&a),
        json!({"start": "2026-12-02", "days": 5}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    env.pass();
    env.pass();
    let mails = env.mails_since(before);
    assert_eq!(
        mails.len(),
        2,
        "one mail per opponent, none to alice or dave"
    );
    let to_bob = mails.iter().find(|m| m.is_to("bob")).expect("bob's mail");
    let to_carol = mails
        .iter()
        .find(|m| m.is_to("carol"))
        .expect("carol's mail");
    assert_eq!(
        to_bob.subject(),
        "alice is on leave from Wednesday 2 December 2026 for 5 days"
    );
    let text = to_bob.text();
    assert!(text.contains("until Monday 7 December 2026"), "{text}");
    for g in [g1, g2] {
        assert!(text.contains(&format!("{PUBLIC_URL}/games/{g}")), "{text}");
    }
    assert!(!text.contains(&format!("/games/{g4}")), "{text}");
    assert!(
        text.contains("(your move)"),
        "bob is white in game {g2}: {text}"
    );
    assert!(text.contains("booked leave"), "{text}");
    assert!(
        to_bob
            .html()
            .contains(&format!("href=\"{PUBLIC_URL}/games/{g1}\""))
    );
    assert_eq!(
        to_bob.header("list-unsubscribe-post"),
        "List-Unsubscribe=One-Click"
    );
    assert_eq!(
        to_bob.0["parts"],
        json!(["multipart/alternative", "text/plain", "text/html"])
    );
    let text = to_carol.text();
    assert!(text.contains(&format!("/games/{g3}")), "{text}");
    assert!(
        !text.contains(&format!("/games/{g1}")),
        "carol sees only her games: {text}"
    );

    // Leave booked and cancelled before the worker came: nothing goes out.
    let r = env.app.post(
        "/api/v1/me/leave",
        Some(&a),
        json!({"start": "2026-12-20", "days": 2}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["bookings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["days"] == 2)
        .map(|l| l["id"].as_i64().unwrap())
        .unwrap_or_else(|| panic!("{}", r.body));
    let r = env.app.post_method(
        "DELETE",
        &format!("/api/v1/me/leave/{id}"),
        Some(&a),
        json!({}),
    );
    assert!(r.status < 300, "{} {}", r.status, r.body);
    env.advance(3600);
    env.pass();
    assert_eq!(env.mails_since(before).len(), 2, "nothing new");
}

/// A challenge of `white` accepted by `black` with this many days per move.
fn game_with_days(env: &Env, white: &str, black: &str, days: i64) -> i64 {
    env.app.game_from(
        white,
        black,
        json!({"variant": "standard", "color": "white", "days_per_move": days, "opponent": null}),
    )
}

fn the_daily_digest_lists_games_awaiting_the_move_most_urgent_first(env: &mut Env) {
    let a = env.verified_user("alice");
    let b = env.verified_user("bob");
    // Alice reads her mail once a day, at noon in Berlin (11:00 UTC in December).
    let r = env.app.post_method(
        "PUT",
        "/api/v1/me/notifications",
        Some(&a),
        json!({"kinds": {"your_turn": "digest", "game_over": "digest", "draw_declined": "digest",
                         "challenge_accepted": "off"},
               "digest_hour": 12, "time_zone": "Europe/Berlin"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let before = env.settle();

    // Three games await Alice's move with different deadlines; the one with one day per move,
    // started last, is the most urgent. In a fourth it is Bob's move; a fifth Bob resigns.
    let (g1, g2, g3, g4, g5) = (
        game_with_days(env, &a, &b, 3),
        game_with_days(env, &a, &b, 5),
        game_with_days(env, &a, &b, 1),
        game_with_days(env, &a, &b, 3),
        game_with_days(env, &a, &b, 3),
    );
    for g in [g2, g1, g3] {
        env.play(g, &a, "e4", 0);
        env.play(g, &b, "e5", 1);
        env.advance(600);
    }
    env.play(g4, &a, "d4", 0);
    env.action(g5, &b, "resign", 0, None);
    assert_eq!(env.settle(), before + 2, "Bob's mails go at once: {:?}", {
        env.mails_since(before)
            .iter()
            .map(Mail::subject)
            .collect::<Vec<_>>()
    });
    assert!(
        env.mails_since(before).iter().all(|m| m.is_to("bob")),
        "nothing for Alice before her digest"
    );
    assert_eq!(
        your_turn_rows(env, "alice"),
        0,
        "her moves wait for the digest, which lists them anyway: none is held"
    );

    // 10:36 UTC: not yet noon in Berlin.
    env.advance(3600);
    env.pass();
    assert_eq!(env.sink.mails().len(), before + 2);
    // 12:06 UTC: noon in Berlin has come.
    env.advance(5400);
    env.pass();
    let mails = env.mails_since(before + 2);
    assert_eq!(mails.len(), 1, "one digest");
    let m = &mails[0];
    assert!(m.is_to("alice"));
    assert_eq!(
        m.subject(),
        "Slowfuse digest, Tuesday 1 December 2026: 3 games await your move, 1 update"
    );
    let text = m.text();
    let position = |g: i64| {
        text.find(&format!("{PUBLIC_URL}/games/{g}\r\n"))
            .or_else(|| text.find(&format!("{PUBLIC_URL}/games/{g}\n")))
            .unwrap_or_else(|| panic!("game {g} in:\n{text}"))
    };
    assert!(
        position(g3) < position(g1) && position(g1) < position(g2),
        "most urgent first:\n{text}"
    );
    assert!(
        !text.contains(&format!("Game {g4} ")),
        "not a game awaiting her move"
    );
    assert!(
        text.contains(&format!("Game {g5} v bob: you won (resignation)")),
        "{text}"
    );
    // Times in Alice's time zone: game 3's deadline is Wednesday 10:xx in Berlin.
    assert!(text.contains("Wednesday 2 December 2026, 10:"), "{text}");
    assert!(text.contains(" CET"), "{text}");
    assert!(m.html().contains(&format!("{PUBLIC_URL}/games/{g3}")));
    assert!(m.has_header("list-unsubscribe"));
    assert!(
        !m.has_header("in-reply-to"),
        "a digest is not in a game's thread"
    );

    // Once a day, however many passes.
    env.advance(3600);
    env.pass();
    env.pass();
    assert_eq!(env.sink.mails().len(), before + 3);

    // The next day: the games that still wait, and no old news.
    env.play(g3, &a, "Nf3", 2);
    env.advance(23 * 3600);
    env.pass();
    let mails = env.mails_since(before + 3);
    let digests: Vec<&Mail> = mails.iter().filter(|m| m.is_to("alice")).collect();
    assert_eq!(digests.len(), 1, "{:?}", {
        mails.iter().map(Mail::subject).collect::<Vec<_>>()
    });
    assert_eq!(
        digests[0].subject(),
        "Slowfuse digest, Wednesday 2 December 2026: 2 games await your move"
    );

    // One click stops the digest: every kind that waited for it is off.
    let (status, _) = env.open(
        "POST",
        &digests[0].unsubscribe_url(),
        Some("List-Unsubscribe=One-Click"),
    );
    assert_eq!(status, 200);
    let s = env.settings_of(&a);
    assert_eq!(s["modes"]["your_turn"], "off");
    assert_eq!(s["modes"]["game_over"], "off");
    assert_eq!(
        s["modes"]["draw_offered"], "immediate",
        "other kinds unchanged"
    );
    env.advance(24 * 3600);
    env.pass();
    let digests = env
        .mails_since(before + 3)
        .iter()
        .filter(|m| m.is_to("alice") && m.subject().starts_with("Slowfuse digest"))
        .count();
    assert_eq!(digests, 1, "no digest any more");
}

fn events_held_for_the_digest_go_at_once_when_the_kind_is_set_back(env: &mut Env) {
    let a = env.verified_user("alice");
    let b = env.verified_user("bob");
    let set = |kinds: Value| {
        let r = env.app.post_method(
            "PUT",
            "/api/v1/me/notifications",
            Some(&a),
            json!({ "kinds": kinds }),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    };
    set(json!({"game_over": "digest"}));
    let g = env.app.game("atomic", &a, &b);
    let before = env.settle();
    env.action(g, &b, "resign", 0, None);
    assert_eq!(env.settle(), before + 1, "only Bob's result mail");
    set(json!({"game_over": "immediate"}));
    env.pass();
    let mails = env.mails_since(before + 1);
    assert_eq!(mails.len(), 1, "the held result goes at once");
    assert!(mails[0].is_to("alice"));
    assert_eq!(
        mails[0].subject(),
        format!("Game {g} v bob: you won (resignation)")
    );
    // A day later there is no digest: nothing is held and no game awaits her move.
    set(json!({"your_turn": "digest"}));
    env.advance(24 * 3600);
    env.pass();
    assert_eq!(env.sink.mails().len(), before + 2);

    // A digest written while SMTP is down, then switched off before it could go: it never goes.
    let g2 = env.app.game("atomic", &a, &b);
    env.play(g2, &a, "e4", 0);
    env.play(g2, &b, "e5", 1);
    env.sink.stop();
    env.advance(24 * 3600);
    assert_eq!(env.pass().retrying.len(), 1, "SMTP is down: nothing goes");
    set(json!({"your_turn": "immediate"}));
    env.sink.start();
    env.advance(3600);
    let report = env.pass();
    assert_eq!(report.cancelled.len(), 1, "{report:?}");
    assert!(
        !env.mails_since(before + 2)
            .iter()
            .any(|m| m.subject().starts_with("Slowfuse digest")),
        "no digest after it was switched off"
    );
}

/// How many "your move" rows the outbox holds for the player named `username`, in any
/// status: one is written only for a confirmed address whose owner wants that mail at once.
fn your_turn_rows(env: &Env, username: &str) -> i64 {
    use diesel::prelude::*;
    use slowfuse::schema::{outbox, users};
    let mut conn = env.app.state.pool.get().unwrap();
    outbox::table
        .inner_join(users::table)
        .filter(users::username.eq(username))
        .filter(outbox::kind.eq("your_turn"))
        .count()
        .get_result(&mut **conn)
        .unwrap()
}

/// The outbox rows of each status.
fn outbox_statuses(env: &Env) -> std::collections::BTreeMap<String, i64> {
    use diesel::prelude::*;
    use slowfuse::schema::outbox;
    let mut conn = env.app.state.pool.get().unwrap();
    let rows: Vec<String> = outbox::table
        .select(outbox::status)
        .load(&mut **conn)
        .unwrap();
    let mut counts = std::collections::BTreeMap::new();
    for status in rows {
        *counts.entry(status).or_insert(0) += 1;
    }
    counts
}

fn old_finished_mail_is_deleted_and_waiting_mail_kept(env: &mut Env) {
    let a = env.verified_user("alice");
    let b = env.verified_user("bob");
    env.settle();
    let sent_before = outbox_statuses(env)["sent"];
    assert_eq!(sent_before, 2, "{:?}", outbox_statuses(env));
    // 89 days on, a mail is waiting (a move), another is held for the digest.
    env.advance(89 * 86_400);
    let g = env.app.game("atomic", &a, &b);
    let r = env.app.post_method(
        "PUT",
        "/api/v1/me/notifications",
        Some(&b),
        json!({"kinds": {"game_over": "digest"}, "digest_hour": 23}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    env.play(g, &a, "e4", 0);
    let g2 = env.app.game("atomic", &b, &a);
    env.action(g2, &a, "resign", 0, None);
    env.pass();
    let counts = outbox_statuses(env);
    assert_eq!(counts["sent"], sent_before + 3, "{counts:?}");
    assert_eq!(counts.get("held"), Some(&1), "{counts:?}");
    assert_eq!(
        counts.get("pending"),
        Some(&1),
        "the move's mail waits: {counts:?}"
    );
    // Past `mail.keep_days` (90) for the first mails only; the waiting one goes now.
    env.advance(86_400 + 60);
    env.pass();
    let counts = outbox_statuses(env);
    assert_eq!(
        counts.get("sent"),
        Some(&4),
        "only the recent sent rows stay: {counts:?}"
    );
    assert_eq!(counts.get("held"), Some(&1), "{counts:?}");
    assert_eq!(counts.get("pending"), None, "{counts:?}");
}

/// The mails and the home page of each of the four seats, from the match's start to its end:
/// nobody is told of a first move nobody played, the creator learns who took the seats, and
/// the board-b players read the result from their team's side.
fn each_seat_of_a_bughouse_match_reads_its_mails_and_results_from_its_own_side(env: &mut Env) {
    let [alice, bob, carol, dave] = ["alice", "bob", "carol", "dave"].map(|n| env.verified_user(n));
    let start = env.sink.mails().len();
    // alice A1 and dave A2 against bob B1 and carol B2.
    let g = env.app.bughouse_match([&alice, &bob, &carol, &dave]);
    env.settle();
    let mails = env.mails_since(start);
    let accepted: Vec<&Mail> = mails
        .iter()
        .filter(|m| m.subject().contains("challenge accepted"))
        .collect();
    assert_eq!(accepted.len(), 1, "the creator alone: {mails:#?}");
    assert!(accepted[0].is_to("alice"));
    let text = accepted[0].text();
    assert!(
        text.contains("Every seat of your bughouse challenge is taken")
            && text.contains("You play white on board a, with dave against bob & carol.")
            && text.contains("It is your move."),
        "{text}"
    );
    // The two players to move on their boards (alice on a, carol on b) are told the first
    // move is theirs; nobody reads that someone played one.
    for name in ["alice", "carol"] {
        let yours: Vec<&Mail> = mails
            .iter()
            .filter(|m| m.is_to(name) && m.subject().ends_with(": your move"))
            .collect();
        assert_eq!(yours.len(), 1, "{name}: {mails:#?}");
        let text = yours[0].text();
        assert!(
            text.contains("the first move on your board is yours"),
            "{text}"
        );
        assert!(!text.contains("played"), "{text}");
        assert!(!yours[0].html().contains("played"), "{}", yours[0].html());
    }
    for name in ["bob", "dave"] {
        assert!(
            !mails
                .iter()
                .any(|m| m.is_to(name) && m.subject().ends_with(": your move")),
            "{name} is not to move"
        );
    }
    env.play_on(g, &alice, "a", "e4", 0);
    env.play_on(g, &carol, "b", "d4", 0);
    let before_end = env.sink.mails().len();
    // carol (B2) resigns on board b: team A wins.
    let r = env.app.post(
        &format!("/api/v1/games/{g}/actions"),
        Some(&carol),
        json!({"action": "resign", "board": "b", "ply": 1}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    env.settle();
    let over: Vec<Mail> = env
        .mails_since(before_end)
        .into_iter()
        .filter(|m| m.subject().contains("resignation"))
        .collect();
    for (name, verdict, other_side) in [
        ("alice", "you won", "bob & carol"),
        ("dave", "you won", "bob & carol"),
        ("bob", "you lost", "alice & dave"),
        ("carol", "you lost", "alice & dave"),
    ] {
        let mail = over
            .iter()
            .find(|m| m.is_to(name))
            .unwrap_or_else(|| panic!("{name} gets the result: {over:#?}"));
        assert_eq!(
            mail.subject(),
            format!("Game {g} v {other_side}: {verdict} (resignation)"),
            "{name}"
        );
    }
    // The board-b players' mails show their own board's last move, not board a's.
    let carols = over.iter().find(|m| m.is_to("carol")).unwrap();
    assert!(carols.text().contains("1. d4"), "{}", carols.text());
    assert!(!carols.text().contains("1. e4"), "{}", carols.text());
    // Each home page lists the result from the player's own team.
    for (name, outcome, other_side) in [
        ("alice", "won", "bob &amp; carol"),
        ("dave", "won", "bob &amp; carol"),
        ("bob", "lost", "alice &amp; dave"),
        ("carol", "lost", "alice &amp; dave"),
    ] {
        let home = env
            .app
            .logged_in(name)
            .get("/")
            .body
            .replace("&#38;", "&amp;");
        let line = home
            .lines()
            .find(|l| l.contains(&format!("href=\"/games/{g}\"")) && l.contains("outcome-"))
            .unwrap_or_else(|| panic!("{name}'s recent results list the match: {home}"));
        assert!(
            line.contains(&format!("outcome-{outcome}")),
            "{name}: {line}"
        );
        assert!(line.contains(&format!("vs {other_side}")), "{name}: {line}");
    }
}

/// Draw offers take the one path in every kind of game: kept as events, an offer and a refusal
/// mailed to the opponent on the same board (nobody else), and an offer made while the
/// opponent's stands agrees to the draw.
fn draw_offers_in_minesweeper_and_bughouse_are_kept_and_mailed_as_in_chess(env: &mut Env) {
    let [alice, bob, carol, dave] = ["alice", "bob", "carol", "dave"].map(|n| env.verified_user(n));
    let mines = env.app.game_from(
        &alice,
        &bob,
        json!({"variant": "minesweeper", "minesweeper": "random", "color": "white", "days_per_move": 3, "opponent": null}),
    );
    env.settle();
    let start = env.sink.mails().len();
    env.action(mines, &alice, "offer_draw", 0, None);
    env.settle();
    let mails = env.mails_since(start);
    let offered: Vec<&Mail> = mails
        .iter()
        .filter(|m| m.subject() == format!("Game {mines} v alice: draw offered"))
        .collect();
    assert_eq!(offered.len(), 1, "{mails:#?}");
    assert!(offered[0].is_to("bob"));
    env.action(mines, &bob, "decline_draw", 0, None);
    env.settle();
    let declined = env.mails_since(start + mails.len());
    assert!(
        declined.iter().any(|m| m.is_to("alice")
            && m.subject() == format!("Game {mines} v bob: draw offer declined")),
        "{declined:#?}"
    );
    let game = env.app.get(&format!("/api/v1/games/{mines}"), None).body;
    let events: Vec<&str> = game["comments"]
        .as_array()
        .expect("comments")
        .iter()
        .filter(|c| c["kind"] == "event")
        .filter_map(|c| c["text"].as_str())
        .collect();
    assert_eq!(
        events,
        ["offered a draw", "declined the draw offer"],
        "{game}"
    );
    // An offer while the opponent's stands is an agreement.
    env.action(mines, &alice, "offer_draw", 0, None);
    env.action(mines, &bob, "offer_draw", 0, None);
    let game = env.app.get(&format!("/api/v1/games/{mines}"), None).body;
    assert_eq!(game["status"], "finished", "{game}");
    assert_eq!(game["result"], "1/2-1/2", "{game}");

    // A match: carol (B2) offers dave (A2), her opponent on board b; the others get nothing.
    let g = env.app.bughouse_match([&alice, &bob, &carol, &dave]);
    env.settle();
    let before = env.sink.mails().len();
    let board_action = |token: &str, action: &str| {
        let r = env.app.post(
            &format!("/api/v1/games/{g}/actions"),
            Some(token),
            json!({"action": action, "board": "b", "ply": 0}),
        );
        assert_eq!(r.status, 200, "{action}: {}", r.body);
        r.body
    };
    board_action(&carol, "offer_draw");
    env.settle();
    let offers: Vec<Mail> = env
        .mails_since(before)
        .into_iter()
        .filter(|m| m.subject().ends_with("draw offered"))
        .collect();
    assert_eq!(offers.len(), 1, "{offers:#?}");
    assert!(offers[0].is_to("dave"), "{offers:#?}");
    assert_eq!(
        offers[0].subject(),
        format!("Game {g} v carol: draw offered")
    );
    let answer = board_action(&dave, "accept_draw");
    assert_eq!(answer["status"], "finished", "{answer}");
    assert_eq!(answer["result"], "1/2-1/2", "{answer}");
}
