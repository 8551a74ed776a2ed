//! The game database and private tags, as users see them: every search filter narrows the
//! list, both orders, paging, the PGN download, refusals of bad input, and tags that nobody
//! but their author can ever read.

use crate::common;

use chrono::Duration;
use common::{Browser, TestApp, hidden_value};
use serde_json::{Value, json};
use slowfuse::clock::FixedClock;

macro_rules! search_tests {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[test] fn $name() { if let Some((app, clock)) = crate::common::app_at_t0(crate::common::Backend::Sqlite) { super::$name(&super::Fixture::build(&app, &clock)) } })*
        }
        mod postgres {
            $(#[test] fn $name() { if let Some((app, clock)) = crate::common::app_at_t0(crate::common::Backend::Postgres) { super::$name(&super::Fixture::build(&app, &clock)) } })*
        }
    };
}

search_tests!(
    each_filter_narrows_the_list,
    both_orders_and_paging,
    pgn_download_holds_exactly_the_matching_games,
    a_damaged_game_is_left_out_of_the_download,
    bad_searches_are_refused_with_a_message,
    tags_are_added_and_removed_on_the_game_page,
    tags_are_added_and_removed_through_the_api,
    my_tags_are_invisible_to_everyone_else,
    tag_validation_errors,
    a_profile_lists_the_same_recent_games_however_they_are_read,
    my_games_list_every_running_game_and_the_latest_finished,
);

/// Six games over a week of the fixed clock (creation and end dates UTC):
///
/// | game | white | black | variant | rated | days | started | ends |
/// |---|---|---|---|---|---|---|---|
/// | g1 | alice | bob | atomic | no | 3 | 03-01 | 1-0 explosion, 03-02 14:00 |
/// | g5 | carol | bob | standard | no | 1 | 03-01 | aborted, 03-02 13:00 |
/// | g2 | bob | alice | standard | yes | 7 | 03-03 | running, deadline 03-10 |
/// | g3 | carol | alice | standard | no | 3 | 03-04 | 0-1 resignation, 03-05 |
/// | g4 | bob | carol | atomic | yes | 1 | 03-06 | draw by agreement, 03-06 |
/// | g6 | alice | carol | standard | no | 2 | 03-06 | running, deadline 03-08 |
struct Fixture<'a> {
    app: &'a TestApp,
    alice: String,
    bob: String,
    dave: String,
    g1: i64,
    g2: i64,
    g3: i64,
    g4: i64,
    g5: i64,
    g6: i64,
}

fn game(app: &TestApp, white: &str, black: &str, variant: &str, days: i32, rated: bool) -> i64 {
    app.game_from(
        white,
        black,
        json!({"variant": variant, "color": "white", "days_per_move": days, "rated": rated}),
    )
}

fn action(app: &TestApp, game: i64, token: &str, action: &str, ply: i64) {
    let r = app.post(
        &format!("/api/v1/games/{game}/actions"),
        Some(token),
        json!({"action": action, "ply": ply}),
    );
    assert_eq!(r.status, 200, "{action}: {}", r.body);
}

impl<'a> Fixture<'a> {
    fn build(app: &'a TestApp, clock: &FixedClock) -> Fixture<'a> {
        let alice = app.user("alice");
        let bob = app.user("bob");
        let carol = app.user("carol");
        let dave = app.user("dave");
        let g1 = game(app, &alice, &bob, "atomic", 3, false);
        let g5 = game(app, &carol, &bob, "standard", 1, false);
        for (ply, (who, mv)) in [
            (&alice, "Nf3"),
            (&bob, "Nf6"),
            (&alice, "Ne5"),
            (&bob, "e6"),
        ]
        .into_iter()
        .enumerate()
        {
            assert_eq!(app.play(g1, who, mv, ply as i64).status, 200, "{mv}");
        }
        clock.advance(Duration::hours(25));
        let mut conn = app.state.pool.get().unwrap();
        let ended =
            slowfuse::usecases::clocks::expire_overdue_games(&mut conn, app.state.now()).unwrap();
        assert_eq!(ended.len(), 1, "only g5 is overdue");
        clock.advance(Duration::hours(1));
        let r = app.play(g1, &alice, "Nxf7", 4);
        assert_eq!(r.body["result"], "1-0", "{}", r.body);
        clock.advance(Duration::hours(22)); // 03-03 12:00
        let g2 = game(app, &bob, &alice, "standard", 7, true);
        clock.advance(Duration::days(1)); // 03-04
        let g3 = game(app, &carol, &alice, "standard", 3, false);
        clock.advance(Duration::days(1)); // 03-05
        action(app, g3, &carol, "resign", 0);
        clock.advance(Duration::days(1)); // 03-06
        let g4 = game(app, &bob, &carol, "atomic", 1, true);
        action(app, g4, &bob, "offer_draw", 0);
        action(app, g4, &carol, "accept_draw", 0);
        let g6 = game(app, &alice, &carol, "standard", 2, false);
        Fixture {
            app,
            alice,
            bob,
            dave,
            g1,
            g2,
            g3,
            g4,
            g5,
            g6,
        }
    }

    /// The ids an API search returns, in order.
    fn ids(&self, query: &str, token: Option<&str>) -> Vec<i64> {
        let r = self.search(query, token);
        assert_eq!(
            r["total"].as_u64().unwrap() as usize,
            ids_of(&r).len(),
            "{query}: {r}"
        );
        ids_of(&r)
    }

    fn search(&self, query: &str, token: Option<&str>) -> Value {
        let r = self.app.get(&format!("/api/v1/search?{query}"), token);
        assert_eq!(r.status, 200, "{query}: {}", r.body);
        r.body
    }
}

fn ids_of(r: &Value) -> Vec<i64> {
    r["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect()
}

/// Sends a request with any method and a bearer token.
fn send(app: &TestApp, method: &str, path: &str, token: Option<&str>) -> (u16, Value) {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut req = app.client.request(method, format!("{}{}", app.base, path));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().expect("request");
    (res.status().as_u16(), res.json().unwrap_or(Value::Null))
}

/// A browser logged in as `name` (signed up through the API by the fixture).
fn logged_in(app: &TestApp, name: &str) -> Browser {
    let b = app.browser();
    let csrf = b.csrf("/login");
    let r = b.post(
        "/login",
        &[
            ("csrf_token", &csrf),
            ("username", name),
            ("password", "correct horse battery"),
        ],
    );
    assert_eq!(r.status, 303, "log in {name}: {}", r.body);
    b
}

/// An attribute value as the browser reads it (the templates escape `&`).
fn unescape(attr: &str) -> String {
    attr.replace("&#38;", "&").replace("&amp;", "&")
}

/// The game ids in the results table of a search page, in order.
fn page_ids(html: &str) -> Vec<i64> {
    let Some(start) = html.find(r#"id="results""#) else {
        return Vec::new();
    };
    let re = regex::Regex::new(r#"<td><a href="/games/(\d+)">"#).unwrap();
    re.captures_iter(&html[start..])
        .map(|c| c[1].parse().unwrap())
        .collect()
}

fn each_filter_narrows_the_list(f: &Fixture) {
    let (g1, g2, g3, g4, g5, g6) = (f.g1, f.g2, f.g3, f.g4, f.g5, f.g6);
    assert_eq!(f.ids("", None), vec![g4, g3, g1, g5, g6, g2], "everything");
    for (query, want) in [
        ("player=alice", vec![g3, g1, g6, g2]),
        ("player=ALICE&color=white", vec![g1, g6]),
        ("player=Alice&color=black", vec![g3, g2]),
        ("player=alice&opponent=bob", vec![g1, g2]),
        ("player=alice&opponent=bob&color=black", vec![g2]),
        ("player=bob&opponent=carol", vec![g4, g5]),
        ("opponent=alice&color=black", vec![g1, g6]),
        ("variant=atomic", vec![g4, g1]),
        ("variant=standard", vec![g3, g5, g6, g2]),
        ("result=1-0", vec![g1]),
        ("result=0-1", vec![g3]),
        ("result=draw", vec![g4]),
        ("result=*", vec![g5, g6, g2]),
        ("status=started", vec![g6, g2]),
        ("status=finished", vec![g4, g3, g1]),
        ("status=aborted", vec![g5]),
        ("rated=yes", vec![g4, g2]),
        ("rated=no", vec![g3, g1, g5, g6]),
        ("started_from=2026-03-04", vec![g4, g3, g6]),
        ("started_to=2026-03-01", vec![g1, g5]),
        (
            "started_from=2026-03-03&started_to=2026-03-04",
            vec![g3, g2],
        ),
        ("finished_from=2026-03-05&finished_to=2026-03-05", vec![g3]),
        ("finished_to=2026-03-02", vec![g1, g5]),
        ("player=alice&status=finished&variant=standard", vec![g3]),
        ("player=dave", vec![]),
    ] {
        assert_eq!(f.ids(query, None), want, "{query}");
    }
    let none = f.search("player=nobody", None);
    assert_eq!(none["total"], 0);
    assert_eq!(none["unknown_players"], json!(["nobody"]));

    // The page finds the same games, with the form keeping what was asked.
    let b = f.app.browser();
    let page = b.get("/search?player=alice&color=white");
    assert_eq!(page.status, 200);
    assert_eq!(page_ids(&page.body), vec![g1, g6]);
    assert!(page.body.contains("2 games found"), "{}", page.body);
    assert!(page.body.contains(r#"name="player" value="alice""#));
    assert!(page.body.contains(r#"<option value="white" selected>"#));
    let page = b.get("/search?player=nobody");
    assert!(page.body.contains("No player is called “nobody”."));
    assert!(page.body.contains("No games found."));
    // The search is in the navigation bar, for visitors too.
    assert!(b.get("/").body.contains(r#"<a href="/search">Games</a>"#));
}

fn both_orders_and_paging(f: &Fixture) {
    let (g1, g2, g3, g4, g5, g6) = (f.g1, f.g2, f.g3, f.g4, f.g5, f.g6);
    // Running games by time left: g6 (2 days per move) before g2 (7); then the rest, newest first.
    assert_eq!(f.ids("sort=time_left", None), vec![g6, g2, g4, g3, g5, g1]);
    assert_eq!(f.ids("sort=time_left&status=started", None), vec![g6, g2]);

    // Pages of two: three pages, links both ways, the filters kept.
    let one = f.search("per_page=2", None);
    assert_eq!(ids_of(&one), vec![g4, g3]);
    assert_eq!(
        (one["total"].as_i64(), one["pages"].as_i64()),
        (Some(6), Some(3))
    );
    assert_eq!(one["previous"], Value::Null);
    let next = one["next"].as_str().unwrap().to_string();
    let two = f.app.get(&next, None).body;
    assert_eq!(ids_of(&two), vec![g1, g5]);
    let three = f.app.get(two["next"].as_str().unwrap(), None).body;
    assert_eq!(ids_of(&three), vec![g6, g2]);
    assert_eq!(three["next"], Value::Null);
    assert_eq!(
        f.app.get(three["previous"].as_str().unwrap(), None).body,
        two
    );
    let beyond = f.search("per_page=2&page=4", None);
    assert_eq!(
        (ids_of(&beyond).len(), beyond["total"].as_i64()),
        (0, Some(6))
    );

    // The page: numbered, with next / previous links that keep the search.
    let b = f.app.browser();
    let first = b.get("/search?player=alice&per_page=1");
    assert_eq!(page_ids(&first.body), vec![g3]);
    assert!(
        first.body.contains("4 games found, showing 1–1."),
        "{}",
        first.body
    );
    assert!(first.body.contains("page 1 of 4"));
    assert!(!first.body.contains(r#"rel="prev""#));
    let re = regex::Regex::new(r#"rel="next" href="([^"]+)""#).unwrap();
    let href = unescape(&re.captures(&first.body).expect("a next link")[1]);
    assert_eq!(href, "/search?player=alice&page=2&per_page=1");
    let second = b.get(&href);
    assert_eq!(page_ids(&second.body), vec![g1]);
    let prev = regex::Regex::new(r#"rel="prev" href="([^"]+)""#).unwrap();
    let href = unescape(&prev.captures(&second.body).expect("a previous link")[1]);
    assert_eq!(href, "/search?player=alice&page=1&per_page=1");
    let last = b.get("/search?player=alice&per_page=1&page=4");
    assert_eq!(page_ids(&last.body), vec![g2]);
    assert!(!last.body.contains(r#"rel="next""#));
    // Each page is the same slice of the whole list, however it is read: a player's early
    // pages walked in order, the late ones gathered and sorted.
    let all = f.ids("player=alice", None);
    let paged: Vec<i64> = (1..=all.len())
        .flat_map(|p| ids_of(&f.search(&format!("player=alice&per_page=1&page={p}"), None)))
        .collect();
    assert_eq!(paged, all);
    let urgent = b.get("/search?sort=time_left&status=started");
    assert_eq!(page_ids(&urgent.body), vec![g6, g2]);
    assert!(
        urgent.body.contains("2 days 0 h"),
        "g6's time left: {}",
        urgent.body
    );
}

fn pgn_games(pgn: &str) -> Vec<i64> {
    let re = regex::Regex::new(r#"\[Site "[^"]*/games/(\d+)"\]"#).unwrap();
    re.captures_iter(pgn)
        .map(|c| c[1].parse().unwrap())
        .collect()
}

fn pgn_download_holds_exactly_the_matching_games(f: &Fixture) {
    let res = f
        .app
        .client
        .get(format!("{}/search.pgn?player=alice", f.app.base))
        .send()
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/x-chess-pgn")
    );
    assert!(
        res.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("attachment")
    );
    let pgn = res.text().unwrap();
    assert_eq!(pgn_games(&pgn), vec![f.g3, f.g1, f.g6, f.g2], "{pgn}");
    assert_eq!(pgn.matches("[Event ").count(), 4);
    assert!(pgn.contains("Nxf7"), "g1's moves are in it: {pgn}");

    // Another search, another set; paging does not cut the download.
    let (_, pgn) = f
        .app
        .get_text("/search.pgn?variant=atomic&status=finished&per_page=1&page=2");
    assert_eq!(pgn_games(&pgn), vec![f.g4, f.g1], "{pgn}");
    let (_, pgn) = f.app.get_text("/search.pgn?player=dave");
    assert_eq!(pgn.trim(), "", "no games, an empty file");

    // The page links to the download of the same search.
    let page = f.app.browser().get("/search?variant=atomic&per_page=1");
    let link = regex::Regex::new(r#"id="pgn-link" href="([^"]+)""#).unwrap();
    let href = unescape(&link.captures(&page.body).expect("a PGN link")[1]);
    assert_eq!(href, "/search.pgn?variant=atomic&per_page=1");
}

fn a_damaged_game_is_left_out_of_the_download(f: &Fixture) {
    use diesel::prelude::*;
    use slowfuse::schema::moves;
    let mut conn = f.app.state.pool.get().unwrap();
    diesel::update(moves::table.filter(moves::game_id.eq(f.g1)))
        .set(moves::uci.eq("a1a1"))
        .execute(&mut **conn)
        .unwrap();
    let (status, pgn) = f.app.get_text("/search.pgn?player=alice");
    assert_eq!(status, 200);
    assert_eq!(pgn_games(&pgn), vec![f.g3, f.g6, f.g2], "{pgn}");
    // Alone, the damaged game is the server's fault, not the reader's.
    assert_eq!(f.app.get_text(&format!("/games/{}.pgn", f.g1)).0, 500);
}

fn bad_searches_are_refused_with_a_message(f: &Fixture) {
    let b = f.app.browser();
    let long = format!("/search?player={}", "x".repeat(10_000));
    for (query, message) in [
        (
            "/search?started_from=yesterday",
            "started from must be a date like 2026-03-01",
        ),
        (
            "/search?finished_to=2026-13-01",
            "finished to must be a date",
        ),
        ("/search?variant=tiddlywinks", "unknown variant"),
        (
            "/search?page=0",
            "page must be a whole number from 1 to 10000",
        ),
        ("/search?page=123456789012", "page must be a whole number"),
        ("/search?per_page=-3", "per_page must be"),
        ("/search?result=2-0", "result must be"),
        ("/search?sort=sideways", "sort must be"),
        ("/search?player=%3Cscript%3E", "is not a username"),
        (
            "/search?started_from=2026-03-05&started_to=2026-03-01",
            "is after",
        ),
        ("/search?tags=mine", "log in to search by your tags"),
        ("/search?page=1&page=2", "could not be read"),
        (long.as_str(), "the search is too long"),
        (
            "/search.pgn?finished_from=soon",
            "finished from must be a date",
        ),
    ] {
        let page = b.get(query);
        assert_eq!(page.status, 422, "{query}");
        assert!(page.body.contains(message), "{query}: {}", page.body);
        assert!(page.body.contains(r#"id="search-error""#), "{query}");
        assert!(
            page.body.contains(r#"<form class="search-form""#),
            "the form is still there"
        );
    }
    assert!(
        !b.get(&long).body.contains(&"x".repeat(100)),
        "a huge query is not echoed back"
    );
    let typed = b.get("/search?player=alice&started_from=yesterday");
    assert!(
        typed.body.contains(r#"name="player" value="alice""#),
        "kept"
    );
    let r = f.app.get("/api/v1/search?page=0", None);
    assert_eq!(r.status, 422);
    assert!(r.body["error"].as_str().unwrap().contains("page must be"));
    let r = f.app.get("/api/v1/search?tags=mine", None);
    assert_eq!(r.status, 422, "tags need a token");
    let r = f.app.get("/api/v1/search", Some("not-a-token"));
    assert_eq!(r.status, 401, "a bad token is not silently ignored");
}

fn tags_are_added_and_removed_on_the_game_page(f: &Fixture) {
    let alice = logged_in(f.app, "alice");
    let game = format!("/games/{}", f.g1);
    let page = alice.get(&game);
    assert!(page.body.contains(r#"id="my-tags""#));
    assert!(page.body.contains("My tags (only you see them)"));
    let csrf = hidden_value(&page.body, "csrf_token").unwrap();
    let add = |tag: &str| {
        alice.post(
            &format!("{game}/tags"),
            &[("csrf_token", &csrf), ("tag", tag)],
        )
    };
    let r = add("Brilliancy");
    assert_eq!(r.status, 303, "{}", r.body);
    let after = alice.follow(r);
    assert!(
        after.body.contains("Tagged this game “brilliancy”."),
        "{}",
        after.body
    );
    assert!(
        after
            .body
            .contains(r#"<a class="tag" href="/search?tags=brilliancy">brilliancy</a>"#)
    );
    let again = alice.follow(add("brilliancy"));
    assert!(
        again
            .body
            .contains("This game already has your tag “brilliancy”.")
    );
    assert_eq!(again.body.matches(r#"<a class="tag""#).count(), 1);
    alice.follow(add("sacrifice"));
    // My tags show in the search results, and a click searches them.
    let found = alice.get("/search?tags=brilliancy");
    assert_eq!(page_ids(&found.body), vec![f.g1]);
    assert!(found.body.contains(r#"name="tags" value="brilliancy""#));
    let r = alice.post(
        &format!("{game}/tags/remove"),
        &[("csrf_token", &csrf), ("tag", "brilliancy")],
    );
    assert_eq!(r.status, 303);
    let after = alice.follow(r);
    assert!(after.body.contains("Removed your tag “brilliancy”."));
    assert!(!after.body.contains(">brilliancy</a>"));
    assert!(after.body.contains(">sacrifice</a>"));
    assert_eq!(
        page_ids(&alice.get("/search?tags=brilliancy").body),
        Vec::<i64>::new()
    );
    // Not logged in: no box, and the form is refused.
    let visitor = f.app.browser();
    assert!(!visitor.get(&game).body.contains(r#"id="my-tags""#));
    let r = visitor.post(
        &format!("{game}/tags"),
        &[("csrf_token", "x"), ("tag", "mine")],
    );
    assert_eq!(r.status, 303);
    assert!(r.location.unwrap().starts_with("/login"));
    // A form from elsewhere is refused.
    let r = alice.post(
        &format!("{game}/tags"),
        &[("csrf_token", "forged"), ("tag", "x")],
    );
    assert_eq!(r.status, 403);
}

fn tags_are_added_and_removed_through_the_api(f: &Fixture) {
    let path = format!("/api/v1/games/{}/tags", f.g2);
    let (status, body) = send(f.app, "PUT", &format!("{path}/Opening"), Some(&f.alice));
    assert_eq!(status, 201, "{body}");
    assert_eq!(body, json!({"game_id": f.g2, "tags": ["opening"]}));
    let (status, _) = send(f.app, "PUT", &format!("{path}/opening"), Some(&f.alice));
    assert_eq!(status, 200, "the same tag again changes nothing");
    let (_, body) = send(
        f.app,
        "PUT",
        &format!("{path}/K%C3%B6nigsgambit"),
        Some(&f.alice),
    );
    assert_eq!(body["tags"], json!(["königsgambit", "opening"]));
    let r = f.app.get(&path, Some(&f.alice));
    assert_eq!(r.body["tags"], json!(["königsgambit", "opening"]));
    let (status, body) = send(f.app, "DELETE", &format!("{path}/opening"), Some(&f.alice));
    assert_eq!((status, &body["tags"]), (200, &json!(["königsgambit"])));
    let (status, body) = send(f.app, "DELETE", &format!("{path}/opening"), Some(&f.alice));
    assert_eq!(status, 404, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("no tag \"opening\"")
    );
    // Search by tag, with the tags listed.
    let r = f.search("tags=k%C3%B6nigsgambit", Some(&f.alice));
    assert_eq!(ids_of(&r), vec![f.g2]);
    assert_eq!(r["games"][0]["tags"], json!(["königsgambit"]));
    // Two tags: games carrying both.
    send(
        f.app,
        "PUT",
        &format!("/api/v1/games/{}/tags/opening", f.g1),
        Some(&f.alice),
    );
    send(
        f.app,
        "PUT",
        &format!("/api/v1/games/{}/tags/opening", f.g2),
        Some(&f.alice),
    );
    assert_eq!(f.ids("tags=opening", Some(&f.alice)), vec![f.g1, f.g2]);
    assert_eq!(
        f.ids("tags=opening,k%C3%B6nigsgambit", Some(&f.alice)),
        vec![f.g2]
    );
    assert_eq!(
        f.ids("tags=opening&player=bob&color=black", Some(&f.alice)),
        vec![f.g1]
    );
    // No token, no tags.
    assert_eq!(f.app.get(&path, None).status, 401);
    assert_eq!(send(f.app, "PUT", &format!("{path}/x"), None).0, 401);
}

fn my_tags_are_invisible_to_everyone_else(f: &Fixture) {
    let secret = "mysecrettag";
    let (status, _) = send(
        f.app,
        "PUT",
        &format!("/api/v1/games/{}/tags/{secret}", f.g1),
        Some(&f.alice),
    );
    assert_eq!(status, 201);
    let game = format!("/games/{}", f.g1);
    // The opponent, a spectator and a visitor: on the game page…
    let bob = logged_in(f.app, "bob");
    let dave = logged_in(f.app, "dave");
    for (who, browser) in [
        ("bob", &bob),
        ("dave", &dave),
        ("visitor", &f.app.browser()),
    ] {
        let page = browser.get(&game);
        assert_eq!(page.status, 200);
        assert!(
            !page.body.contains(secret),
            "{who} sees alice's tag on the game page"
        );
        // …in the search page, asking for it by name…
        let found = browser.get(&format!("/search?tags={secret}"));
        assert!(
            !found.body.contains(&format!(r#"href="/games/{}""#, f.g1)),
            "{who}"
        );
        assert!(
            !browser.get("/search").body.contains(secret),
            "{who}: results list"
        );
        // …and in the PGN, of the game and of a search.
        assert!(
            !browser.get(&format!("{game}.pgn")).body.contains(secret),
            "{who}"
        );
        assert!(!browser.get("/search.pgn").body.contains(secret), "{who}");
    }
    // Through the API: their own (empty) tags, a search that finds nothing, the game JSON.
    for token in [&f.bob, &f.dave] {
        let r = f
            .app
            .get(&format!("/api/v1/games/{}/tags", f.g1), Some(token));
        assert_eq!(r.body["tags"], json!([]));
        let r = f.search(&format!("tags={secret}"), Some(token));
        assert_eq!(r["total"], 0);
        let all = f.search("", Some(token));
        assert!(!all.to_string().contains(secret));
        // Removing it is not possible either: it is not theirs.
        let (status, _) = send(
            f.app,
            "DELETE",
            &format!("/api/v1/games/{}/tags/{secret}", f.g1),
            Some(token),
        );
        assert_eq!(status, 404);
    }
    let public = f.app.get(&format!("/api/v1/games/{}", f.g1), None);
    assert!(!public.body.to_string().contains(secret));
    let anonymous = f.search("", None);
    assert!(anonymous["games"][0].get("tags").is_none());
    // Bob's own tag of the same name is his alone: each sees only their own game.
    send(
        f.app,
        "PUT",
        &format!("/api/v1/games/{}/tags/{secret}", f.g4),
        Some(&f.bob),
    );
    assert_eq!(f.ids(&format!("tags={secret}"), Some(&f.alice)), vec![f.g1]);
    assert_eq!(f.ids(&format!("tags={secret}"), Some(&f.bob)), vec![f.g4]);
    // And alice still has hers.
    let alice = logged_in(f.app, "alice");
    assert!(alice.get(&game).body.contains(secret));
}

fn tag_validation_errors(f: &Fixture) {
    let path = format!("/api/v1/games/{}/tags", f.g3);
    for bad in ["two%20words", "a%2Fb", "%3Cb%3E", &"x".repeat(31)] {
        let (status, body) = send(f.app, "PUT", &format!("{path}/{bad}"), Some(&f.alice));
        assert_eq!(status, 422, "{bad}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains("1 to 30 letters"),
            "{body}"
        );
    }
    assert_eq!(
        send(
            f.app,
            "PUT",
            &format!("{path}/{}", "x".repeat(30)),
            Some(&f.alice)
        )
        .0,
        201
    );
    for i in 1..20 {
        let (status, body) = send(f.app, "PUT", &format!("{path}/t{i}"), Some(&f.alice));
        assert_eq!(status, 201, "tag {i}: {body}");
    }
    let (status, body) = send(
        f.app,
        "PUT",
        &format!("{path}/one-too-many"),
        Some(&f.alice),
    );
    assert_eq!(status, 422);
    assert!(
        body["error"].as_str().unwrap().contains("at most 20"),
        "{body}"
    );
    assert_eq!(
        f.app.get(&path, Some(&f.alice)).body["tags"]
            .as_array()
            .unwrap()
            .len(),
        20
    );
    // The limit is per user: bob may still tag the same game.
    assert_eq!(
        send(f.app, "PUT", &format!("{path}/fine"), Some(&f.bob)).0,
        201
    );
    assert_eq!(
        send(f.app, "PUT", "/api/v1/games/999999/tags/x", Some(&f.bob)).0,
        404
    );
    assert_eq!(
        f.app.get("/api/v1/games/999999/tags", Some(&f.bob)).status,
        404
    );

    // On the page: the game page again, 422, the message in the tag box, the text kept.
    let alice = logged_in(f.app, "alice");
    let game = format!("/games/{}", f.g1);
    let csrf = hidden_value(&alice.get(&game).body, "csrf_token").unwrap();
    let r = alice.post(
        &format!("{game}/tags"),
        &[("csrf_token", &csrf), ("tag", "bad tag!")],
    );
    assert_eq!(r.status, 422);
    assert!(r.body.contains(r#"id="tag-error""#), "{}", r.body);
    assert!(r.body.contains("is not one"), "{}", r.body);
    assert!(
        r.body.contains(r#"name="tag" value="bad tag!""#),
        "{}",
        r.body
    );
    assert!(
        r.body.contains(r#"id="game-status""#),
        "it is the game page"
    );
    let full = format!("/games/{}", f.g3);
    let r = alice.post(
        &format!("{full}/tags"),
        &[("csrf_token", &csrf), ("tag", "more")],
    );
    assert_eq!(r.status, 422);
    assert!(r.body.contains("at most 20"));
    let r = alice.post(
        &format!("{game}/tags/remove"),
        &[("csrf_token", &csrf), ("tag", "never")],
    );
    assert_eq!(r.status, 404);
    assert!(r.body.contains("you have no tag"), "{}", r.body);
    let r = alice.post("/games/999999/tags", &[("csrf_token", &csrf), ("tag", "x")]);
    assert_eq!(r.status, 404);
}

/// A profile's recent games are the player's most recently active, newest first, whether
/// they are walked from the most recent game on (a player seated in a large share of the
/// games, a short list) or gathered from the player's seats and sorted: each shorter list is
/// the start of the longer.
fn a_profile_lists_the_same_recent_games_however_they_are_read(f: &Fixture) {
    let (status, profile) = send(f.app, "GET", "/api/v1/users/alice", None);
    assert_eq!(status, 200, "{profile}");
    let shown: Vec<i64> = profile["recent_games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    let mut sorted = shown.clone();
    sorted.sort();
    assert_eq!(sorted, vec![f.g1, f.g2, f.g3, f.g6], "alice's games");
    // Alice sits in 4 of the 6 games: lists of up to 3 are walked, 4 and more gathered.
    let mut conn = f.app.state.pool.get().unwrap();
    for limit in 1..=6 {
        let p = slowfuse::usecases::profiles::load_profile(&mut conn, "alice", 0, limit)
            .unwrap()
            .expect("alice's profile");
        let ids: Vec<i64> = p.recent_games.iter().map(|g| g.id).collect();
        let want = &shown[..shown.len().min(limit as usize)];
        assert_eq!(ids, want, "the {limit} most recent");
    }
}

/// A player's list of games holds every running game, however long ago it last changed, and
/// the most recently ended ones up to the number asked, whether those are walked from the most
/// recent game on or gathered from the player's seats; awaiting the player's move first, then
/// the other running games, then finished ones, newest first.
fn my_games_list_every_running_game_and_the_latest_finished(f: &Fixture) {
    // Alice's: g6 running, her move; g2 running, bob's move, last changed before g3 ended;
    // g3 ended 03-05, g1 ended 03-02.
    let r = f.app.get("/api/v1/me/games", Some(&f.alice));
    assert_eq!(r.status, 200, "{}", r.body);
    let listed: Vec<i64> = r
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert_eq!(listed, vec![f.g6, f.g2, f.g3, f.g1]);
    let alice =
        slowfuse::usecases::accounts::user_by_name(&mut f.app.state.pool.get().unwrap(), "alice")
            .unwrap()
            .unwrap()
            .id;
    // Alice sits in 4 of the 6 games: up to 2 finished games are walked, 3 and more gathered.
    let mut conn = f.app.state.pool.get().unwrap();
    for finished in 0..=3 {
        let ids: Vec<i64> = slowfuse::usecases::games::my_games(&mut conn, alice, finished)
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect();
        let mut want = vec![f.g6, f.g2];
        want.extend([f.g3, f.g1].into_iter().take(finished as usize));
        assert_eq!(
            ids, want,
            "every running game and the {finished} latest finished"
        );
    }
}
