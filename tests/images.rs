//! Pictures of positions: `GET /games/{id}.svg` for a game, a bughouse match and a minesweeper
//! game, on SQLite and (when configured) PostgreSQL. Every picture must parse as XML (checked
//! by Python's own parser) and show the position asked for.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::TestApp;
use serde_json::json;

on_both_databases!(a_position_is_drawn_as_svg_in_the_themes_and_sides_asked_for);

/// Parses `svg` with Python's XML parser and gives back the root's tag and its children count.
fn parse(svg: &str) -> String {
    let mut child = Command::new("/usr/bin/python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as E; r = E.fromstring(sys.stdin.read()); print(r.tag, len(list(r.iter())))",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(svg.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the SVG does not parse:\n{svg}");
    String::from_utf8(out.stdout).unwrap()
}

fn svg(app: &TestApp, path: &str) -> (u16, String, String) {
    let res = app
        .client
        .get(format!("{}{path}", app.base))
        .send()
        .expect("request");
    let status = res.status().as_u16();
    let kind = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, kind, res.text().unwrap_or_default())
}

fn a_position_is_drawn_as_svg_in_the_themes_and_sides_asked_for(app: &TestApp) {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let g = app.game("atomic", &alice, &bob);
    app.play_all(g, &alice, &bob, &["e4", "d5", "exd5"]);

    let (status, kind, now) = svg(app, &format!("/games/{g}.svg"));
    assert_eq!(status, 200, "{now}");
    assert_eq!(kind, "image/svg+xml");
    assert!(parse(&now).starts_with("{http://www.w3.org/2000/svg}svg"));
    assert_eq!(now.matches("<rect ").count(), 64);
    // exd5 in atomic blew up the capturer and the captured: 30 pieces, not 31.
    assert_eq!(now.matches("<svg x=").count(), 30);
    let (_, _, start) = svg(app, &format!("/games/{g}.svg?ply=0"));
    assert_eq!(start.matches("<svg x=").count(), 32);
    assert_ne!(start, now);
    let (_, _, flipped) = svg(app, &format!("/games/{g}.svg?ply=0&flip=1"));
    assert_ne!(flipped, start, "Black's side at the bottom");
    let (_, _, brown) = svg(
        app,
        &format!("/games/{g}.svg?theme=brown&pieces=flat&coords=0"),
    );
    parse(&brown);
    assert!(brown.contains("#b58863"), "brown's dark squares");
    assert!(!brown.contains("<text "), "no coordinates");
    for bad in ["?theme=plaid", "?pieces=wooden", "?ply=99", "?ply=x"] {
        let (status, _, body) = svg(app, &format!("/games/{g}.svg{bad}"));
        assert_eq!(status, 400, "{bad}: {body}");
    }

    // A bughouse match: both boards side by side.
    let carol = app.user("carol");
    let dave = app.user("dave");
    let r = app.post(
        "/api/v1/challenges",
        Some(&alice),
        json!({"variant": "bughouse", "seat": "A1", "days_per_move": 3}),
    );
    let id = r.body["id"].as_i64().unwrap();
    let mut game = None;
    for (token, seat) in [(&bob, "B1"), (&carol, "B2"), (&dave, "A2")] {
        let r = app.post(
            &format!("/api/v1/challenges/{id}/accept"),
            Some(token),
            json!({ "seat": seat }),
        );
        game = r.body["game_id"].as_i64();
    }
    let m = game.unwrap();
    let (status, _, both) = svg(app, &format!("/games/{m}.svg"));
    assert_eq!(status, 200, "{both}");
    parse(&both);
    assert_eq!(both.matches("<rect ").count(), 128);
    assert!(both.contains(r#"viewBox="0 0 990 480""#));
}
