//! Two `slowfuse serve` processes on one PostgreSQL database behind nginx (Debian's, started by
//! the test with a configuration of its own), each with its worker running every second,
//! mail going to a real SMTP server. Every request goes through nginx, which deals them out
//! round-robin, so a player's move lands on either instance, the next on the other. Under
//! that: every move is stored once with the plies in sequence, conditional replies and the
//! computer's answers come once, overdue games (which both workers are made to reach at the
//! same moment) end once with one result mail per player, the daily digest is written once,
//! and every mail reaches the SMTP server once. Each instance's own `/metrics` shows that both
//! served a share of the moves.

use crate::common;

use std::collections::{BTreeMap, HashMap};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::server::ServerProcess;
use common::smtp::{PUBLIC_URL, SmtpSink, free_port, mail_settings};
use common::{Api, fresh_postgres_database, postgres_url, random_line, under_ci};
use serde_json::{Value, json};
use slowfuse_rules::{Game, Variant};

const NGINX: &str = "/usr/sbin/nginx";
/// Plies of each game of the load (a conditional line holds at most 40 moves).
const PLIES: usize = 40;
/// The player's moves in each game against the computer.
const COMPUTER_TURNS: usize = 5;
/// Games that run out of time at once.
const OVERDUE_GAMES: usize = 24;

/// nginx in front of the instances, run from a directory of its own by this test.
struct Nginx {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

/// The configuration the test runs nginx with (docs/operations.md shows it, trimmed): one
/// process in the foreground, every file it writes in its own directory.
const NGINX_CONF: &str = r#"
daemon off;
master_process off;
worker_processes 1;
pid DIR/nginx.pid;
error_log DIR/error.log warn;
events { worker_connections 256; }
http {
    access_log DIR/access.log;
    client_body_temp_path DIR/client_body;
    proxy_temp_path DIR/proxy;
    fastcgi_temp_path DIR/fastcgi;
    uwsgi_temp_path DIR/uwsgi;
    scgi_temp_path DIR/scgi;
    upstream slowfuse {
UPSTREAMS    }
    server {
        listen 127.0.0.1:PORT;
        client_max_body_size 7m;
        location = /metrics { return 404; }
        location / {
            proxy_pass http://slowfuse;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Request-Id $request_id;
        }
    }
}
"#;

fn nginx_conf(dir: &std::path::Path, port: u16, upstreams: &[u16]) -> String {
    let servers: String = upstreams
        .iter()
        .map(|p| format!("        server 127.0.0.1:{p};\n"))
        .collect();
    NGINX_CONF
        .replace("PORT", &port.to_string())
        .replace("UPSTREAMS", &servers)
        .replace("DIR", &dir.display().to_string())
}

impl Nginx {
    /// nginx on a free port passing requests round-robin to `upstreams`; `None` (the test
    /// skips) when Debian's nginx is not installed, except under CI, where the test fails.
    fn start(upstreams: &[u16]) -> Option<Nginx> {
        if !std::path::Path::new(NGINX).exists() {
            assert!(
                !under_ci(),
                "the scale-out test needs nginx (apt-get install nginx)"
            );
            eprintln!("SKIPPED: install nginx to run the scale-out test");
            return None;
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let port = free_port();
        let conf = dir.path().join("nginx.conf");
        std::fs::write(&conf, nginx_conf(dir.path(), port, upstreams)).expect("nginx.conf");
        let child = Command::new(NGINX)
            .arg("-p")
            .arg(dir.path())
            .arg("-c")
            .arg(&conf)
            .arg("-e")
            .arg(dir.path().join("error.log"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start nginx");
        let mut nginx = Nginx {
            child,
            port,
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = nginx.child.try_wait().expect("nginx's status") {
                let log = std::fs::read_to_string(nginx._dir.path().join("error.log"));
                panic!(
                    "nginx exited at start ({status}): {}",
                    log.unwrap_or_default()
                );
            }
            if reqwest::blocking::get(format!("{}/health", nginx.base()))
                .is_ok_and(|r| r.status() == 200)
            {
                return Some(nginx);
            }
            assert!(Instant::now() < deadline, "nginx did not answer in 20 s");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The database, the SMTP server, the two instances and nginx before them.
struct Cluster {
    database_url: String,
    sink: SmtpSink,
    servers: [ServerProcess; 2],
    nginx: Nginx,
    _dir: tempfile::TempDir,
}

fn cluster() -> Option<Cluster> {
    let server = postgres_url()?;
    let mut sink = SmtpSink::reserve()?;
    let sink_port = sink.port_for_app();
    sink.start();
    let database_url = fresh_postgres_database(&server);
    let dir = tempfile::tempdir().expect("temp dir");
    let mut settings = vec![
        ("SLOWFUSE__SERVER__PUBLIC_URL", PUBLIC_URL.to_string()),
        ("SLOWFUSE__SERVER__WORKERS", "2".to_string()),
        (
            "SLOWFUSE__SERVER__SECRET_KEY",
            "scale-out-secret-key-shared-by-every-instance".to_string(),
        ),
        ("SLOWFUSE__SERVER__TRUST_PROXY_HEADERS", "true".to_string()),
        ("SLOWFUSE__DATABASE__POOL_SIZE", "6".to_string()),
        ("SLOWFUSE__WORKER__ENABLED", "true".to_string()),
        ("SLOWFUSE__WORKER__INTERVAL_SECONDS", "1".to_string()),
        ("SLOWFUSE__MAIL__COALESCE_SECONDS", "1".to_string()),
    ];
    settings.extend(mail_settings(sink_port));
    // Each instance keeps its own data directory: they share only the database.
    let start = |name: &str| {
        let data = dir.path().join(name);
        std::fs::create_dir(&data).expect("data dir");
        ServerProcess::start(&database_url, &data, None, &settings)
    };
    let servers = [start("one"), start("two")];
    let nginx = Nginx::start(&[servers[0].port, servers[1].port])?;
    Some(Cluster {
        database_url,
        sink,
        servers,
        nginx,
        _dir: dir,
    })
}

/// One outbox row as the checks read it.
#[derive(Clone, Debug, diesel::Queryable)]
struct OutboxRow {
    id: i64,
    kind: String,
    user_id: i64,
    game_id: Option<i64>,
    status: String,
    message_id: Option<String>,
}

impl Cluster {
    /// The load balancer's client: every request of the test goes through nginx.
    fn api(&self) -> Api {
        Api::new(self.nginx.base())
    }

    fn db(&self) -> slowfuse::db::PooledDb {
        let pool = slowfuse::db::connect(&slowfuse::config::DatabaseSettings {
            url: self.database_url.clone(),
            pool_size: 1,
            sqlite_busy_timeout_ms: 5000,
        })
        .expect("the test's own connection");
        pool.get().expect("a connection")
    }

    fn outbox(&self) -> Vec<OutboxRow> {
        use diesel::prelude::*;
        use slowfuse::schema::outbox;
        outbox::table
            .select((
                outbox::id,
                outbox::kind,
                outbox::user_id,
                outbox::game_id,
                outbox::status,
                outbox::message_id,
            ))
            .order(outbox::id.asc())
            .load(&mut **self.db())
            .expect("read the outbox")
    }

    /// Waits until no mail waits to be sent (both workers pass every second).
    fn settle_mail(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self
            .outbox()
            .iter()
            .any(|r| r.status == "pending" || r.status == "sending")
        {
            assert!(Instant::now() < deadline, "mail still waiting");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The plies stored for a game, in order.
    fn stored_plies(&self, game: i64) -> Vec<i32> {
        use diesel::prelude::*;
        use slowfuse::schema::moves;
        moves::table
            .filter(moves::game_id.eq(game))
            .order(moves::ply.asc())
            .select(moves::ply)
            .load(&mut **self.db())
            .expect("read the moves")
    }

    fn user_id(&self, name: &str) -> i64 {
        use diesel::prelude::*;
        use slowfuse::schema::users;
        users::table
            .filter(users::username.eq(name))
            .select(users::id)
            .get_result(&mut **self.db())
            .expect("the user's id")
    }

    /// What ending a game wrote: its rating changes and its opening-book rows.
    fn ending_rows(&self, game: i64) -> (i64, i64) {
        use diesel::prelude::*;
        use slowfuse::schema::{book_moves, rating_history};
        let mut db = self.db();
        let ratings = rating_history::table
            .filter(rating_history::game_id.eq(game))
            .count()
            .get_result(&mut **db)
            .expect("rating history");
        let book = book_moves::table
            .filter(book_moves::game_id.eq(game))
            .count()
            .get_result(&mut **db)
            .expect("book moves");
        (ratings, book)
    }

    /// Makes both instances' workers race for the same overdue games: the games' deadlines
    /// are set a second ahead (as time would move them: the real processes' clocks cannot be
    /// moved, and the shortest time control is a day) while another session holds their rows
    /// locked, as a slow transaction would, until a worker of each instance waits for one of
    /// them; then the lock goes and both end what they listed.
    fn race_workers_to_the_deadline(&self, games: &[i64]) {
        use diesel::connection::SimpleConnection;
        use diesel::prelude::*;
        use slowfuse::schema::{game_boards, games};
        let soon = chrono::Utc::now().naive_utc() + chrono::Duration::seconds(1);
        let mut db = self.db();
        diesel::update(games::table.filter(games::id.eq_any(games)))
            .set(games::deadline_at.eq(soon))
            .execute(&mut **db)
            .expect("games' deadlines");
        diesel::update(game_boards::table.filter(game_boards::game_id.eq_any(games)))
            .set(game_boards::deadline_at.eq(soon))
            .execute(&mut **db)
            .expect("boards' deadlines");
        let ids: Vec<String> = games.iter().map(i64::to_string).collect();
        let mut holder = PgConnection::establish(&self.database_url).expect("connect");
        holder
            .batch_execute(&format!(
                "BEGIN; SELECT id FROM games WHERE id IN ({}) FOR UPDATE",
                ids.join(",")
            ))
            .expect("hold the games' rows");
        let mut watcher = PgConnection::establish(&self.database_url).expect("connect");
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let waiting: i64 = diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>(
                "(SELECT count(*) FROM pg_stat_activity \
                 WHERE datname = current_database() AND wait_event_type = 'Lock')",
            ))
            .get_result(&mut watcher)
            .expect("pg_stat_activity");
            if waiting >= 2 {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "both instances' workers wait for the overdue games ({waiting} waiting)"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        holder.batch_execute("ROLLBACK").expect("let go");
    }

    /// GET /metrics from this host straight to one instance (not through nginx).
    fn metrics(&self, server: usize) -> String {
        let url = format!("{}/metrics", self.servers[server].base());
        let res = reqwest::blocking::get(url).expect("metrics");
        assert_eq!(res.status(), 200, "metrics of instance {server}");
        res.text().unwrap()
    }
}

fn sample(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0.0)
}

/// Signs up the players through nginx and confirms their addresses with the links of the
/// confirmation mails (opened through nginx too).
fn players(cluster: &Cluster, api: &Api, names: &[&str]) -> HashMap<String, String> {
    let tokens: HashMap<String, String> =
        names.iter().map(|n| (n.to_string(), api.user(n))).collect();
    cluster.settle_mail();
    let mails = cluster.sink.mails();
    for name in names {
        let mail = mails
            .iter()
            .find(|m| m.is_to(name) && m.subject().contains("Confirm"))
            .unwrap_or_else(|| panic!("{name}'s confirmation mail"));
        let url = mail
            .link("/verify-email?token=")
            .replacen(PUBLIC_URL, &api.base, 1);
        let status = api.client.get(url).send().expect("confirm").status();
        assert_eq!(status, 200, "confirming {name}");
    }
    tokens
}

/// A game of the load: its players' tokens, its line, and whether Black answers by
/// conditional lines (then only White sends moves).
struct Played {
    id: i64,
    white: String,
    black: String,
    line: Vec<String>,
    conditional: bool,
}

/// Plays every game's line through nginx, one thread per game; every answer must be 200
/// with the move (and, in a conditional game, its reply) in it. Returns the moves sent.
fn play_lines(base: &str, games: &[Played]) -> usize {
    std::thread::scope(|s| {
        let threads: Vec<_> = games
            .iter()
            .map(|game| {
                s.spawn(move || {
                    let api = Api::new(base.to_string());
                    let mut ply = 0;
                    let mut sent = 0;
                    while ply < game.line.len() {
                        let token = if ply % 2 == 0 {
                            &game.white
                        } else {
                            &game.black
                        };
                        let r = api.play(game.id, token, &game.line[ply], ply as i64);
                        assert_eq!(r.status, 200, "game {} ply {ply}: {}", game.id, r.body);
                        sent += 1;
                        let moves = r.body["moves"].as_array().expect("moves").len();
                        let expected = if game.conditional { ply + 2 } else { ply + 1 };
                        assert_eq!(moves, expected, "the answer to ply {ply} of {}", game.id);
                        ply = moves;
                    }
                    sent
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).sum()
    })
}

/// Plays `COMPUTER_TURNS` moves as White against the computer, each time waiting for its
/// answer; returns the moves sent.
fn play_the_computer(base: &str, game: i64, token: &str) -> usize {
    let api = Api::new(base.to_string());
    for turn in 0..COMPUTER_TURNS {
        let ply = 2 * turn;
        let j = wait_for(&api, game, token, |j| j["ply"] == ply as i64);
        let mut position = Game::new(Variant::Standard);
        for m in j["moves"].as_array().unwrap() {
            position = position.play(m.as_str().unwrap()).expect("a stored move");
        }
        let mv = position
            .legal_moves()
            .iter()
            .find(|m| position.play(&m.uci).is_ok_and(|g| !g.is_over()))
            .expect("a move that does not end the game")
            .uci
            .clone();
        let r = api.play(game, token, &mv, ply as i64);
        assert_eq!(r.status, 200, "{mv} at ply {ply} of {game}: {}", r.body);
    }
    wait_for(&api, game, token, |j| {
        j["ply"] == (2 * COMPUTER_TURNS) as i64
    });
    COMPUTER_TURNS
}

/// Reads a game through nginx until `done` holds (at most 20 s).
fn wait_for(api: &Api, game: i64, token: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let r = api.get(&format!("/api/v1/games/{game}"), Some(token));
        assert_eq!(r.status, 200, "{}", r.body);
        if done(&r.body) {
            return r.body;
        }
        assert!(Instant::now() < deadline, "game {game} stuck at {}", r.body);
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn two_instances_behind_nginx_do_each_move_reply_timeout_digest_and_mail_once() {
    let Some(cluster) = cluster() else { return };
    let api = cluster.api();
    let started = Instant::now();
    let names = [
        "player0", "player1", "player2", "player3", "player4", "player5", "player6", "player7",
        "digest0", "digest1", "human0", "human1",
    ];
    let t = players(&cluster, &api, &names);
    let tok = |n: &str| t[n].clone();

    // A session made on one instance is read by the other: the login form's page and its
    // POST go to different instances, and so do the two pages after it.
    let browser = api.logged_in("player0");
    for _ in 0..2 {
        assert_eq!(browser.get("/account").status, 200, "logged in on both");
    }
    // /metrics is not passed on to the world through the proxy; nginx's request id is the
    // server's.
    assert_eq!(api.get_text("/metrics").0, 404);
    let res = api
        .client
        .get(format!("{}/health", api.base))
        .send()
        .unwrap();
    let id = res.headers()["x-request-id"].to_str().unwrap().to_string();
    assert!(
        id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()),
        "nginx's $request_id passed through: {id}"
    );

    // The digest players read their mail once a day. While their games are set up, the
    // digest hour is 23, not yet come, so that a worker cannot write the digest between
    // their opponent's move and the draw offer; then it is moved to midnight, due at once.
    // In the last two hours of a UTC day, the day is taken two hours east, so that the
    // hour has not come and no new day begins while the test runs (it would bring a second
    // digest).
    use chrono::Timelike;
    let zone = if chrono::Utc::now().hour() >= 22 {
        "Etc/GMT-2"
    } else {
        "UTC"
    };
    let set_digest_hour = |hour: u32| {
        for name in ["digest0", "digest1"] {
            let r = api.post_method(
                "PUT",
                "/api/v1/me/notifications",
                Some(&tok(name)),
                json!({"kinds": {"your_turn": "digest", "draw_offered": "digest"},
                       "digest_hour": hour, "time_zone": zone}),
            );
            assert_eq!(r.status, 200, "{}", r.body);
        }
    };
    set_digest_hour(23);

    // (a, b) Four games played through nginx at once; Black answers by conditional lines in
    // two of them.
    let games: Vec<Played> = (0..4)
        .map(|g| {
            let (white, black) = (
                tok(&format!("player{}", 2 * g)),
                tok(&format!("player{}", 2 * g + 1)),
            );
            let id = api.game("standard", &white, &black);
            let line = random_line(g as u64 + 1, PLIES);
            let conditional = g % 2 == 1;
            if conditional {
                let r = api.post_method(
                    "PUT",
                    &format!("/api/v1/games/{id}/conditional"),
                    Some(&black),
                    json!({"lines": line.join(" "), "ply": 0, "comment": null}),
                );
                assert_eq!(r.status, 200, "conditional lines: {}", r.body);
            }
            Played {
                id,
                white,
                black,
                line,
                conditional,
            }
        })
        .collect();
    // (d) Rated games with a day per move, to run out of time after four plies (below).
    let overdue: Vec<(i64, &str, &str)> = [
        ("player0", "player1"),
        ("player2", "player3"),
        ("player4", "player5"),
    ]
    .repeat(OVERDUE_GAMES / 3)
    .into_iter()
    .map(|(w, b)| {
        let g = api.game_from(
            &tok(w),
            &tok(b),
            json!({"variant": "standard", "color": "white", "days_per_move": 1, "opponent": null, "rated": true}),
        );
        api.play_all(g, &tok(w), &tok(b), &["e4", "e5", "Nf3", "Nc6"]);
        (g, w, b)
    })
    .collect();
    // (e) Games awaiting the digest players' move, with a draw offer held for their digest.
    let digest_games: Vec<i64> = [("player6", "digest0"), ("player7", "digest1")]
        .into_iter()
        .map(|(w, b)| {
            let g = api.game("standard", &tok(w), &tok(b));
            api.play_all(g, &tok(w), &tok(b), &["d4"]);
            let r = api.post(
                &format!("/api/v1/games/{g}/actions"),
                Some(&tok(w)),
                json!({"action": "offer_draw", "ply": 1, "message": null}),
            );
            assert_eq!(r.status, 200, "draw offer: {}", r.body);
            g
        })
        .collect();
    set_digest_hour(0);
    // (c) Two games against the computer.
    let computer_games: Vec<(i64, String)> = ["human0", "human1"]
        .into_iter()
        .map(|n| {
            let r = api.post(
                "/api/v1/computer-games",
                Some(&tok(n)),
                json!({"variant": "standard", "color": "white", "level": "easy"}),
            );
            assert_eq!(r.status, 201, "{}", r.body);
            (r.body["game_id"].as_i64().unwrap(), tok(n))
        })
        .collect();

    // The load: the lines and the computer games at once, while the overdue games' time runs
    // out and both workers race to end them.
    let base = cluster.nginx.base();
    let sent = std::thread::scope(|s| {
        let computer: Vec<_> = computer_games
            .iter()
            .map(|(g, token)| s.spawn(|| play_the_computer(&base, *g, token)))
            .collect();
        let lines = s.spawn(|| play_lines(&base, &games));
        cluster.race_workers_to_the_deadline(&overdue.iter().map(|o| o.0).collect::<Vec<_>>());
        lines.join().unwrap()
            + computer
                .into_iter()
                .map(|h| h.join().unwrap())
                .sum::<usize>()
    });
    let sent = sent + 4 * overdue.len() + digest_games.len();

    for &(g, w, _) in &overdue {
        let j = wait_for(&api, g, &tok(w), |j| j["status"] == "finished");
        assert_eq!(j["result"], "0-1", "White, to move, lost on time: {j}");
        assert_eq!(j["termination"], "time", "{j}");
        assert_eq!(j["ply"], 4, "{j}");
        assert_eq!(
            cluster.ending_rows(g),
            (2, 4),
            "game {g} ended once: a rating change per player, a book row per ply"
        );
    }
    // Both instances keep passing: the computer plays no second answer.
    std::thread::sleep(Duration::from_millis(2500));
    for (g, token) in &computer_games {
        let j = wait_for(&api, *g, token, |_| true);
        assert_eq!(
            j["ply"],
            (2 * COMPUTER_TURNS) as i64,
            "one answer a move: {j}"
        );
        assert_eq!(j["turn"], "white", "{j}");
    }
    // Every move stored once, plies in sequence.
    let expected_plies = games
        .iter()
        .map(|g| (g.id, PLIES))
        .chain(computer_games.iter().map(|(g, _)| (*g, 2 * COMPUTER_TURNS)))
        .chain(overdue.iter().map(|o| (o.0, 4)))
        .chain(digest_games.iter().map(|&g| (g, 1)));
    for (g, plies) in expected_plies {
        let stored = cluster.stored_plies(g);
        assert_eq!(
            stored,
            (0..plies as i32).collect::<Vec<_>>(),
            "game {g}'s plies"
        );
    }

    // Mail: the digests are written, then nothing waits.
    let deadline = Instant::now() + Duration::from_secs(20);
    while cluster
        .outbox()
        .iter()
        .filter(|r| r.kind == "daily_digest")
        .count()
        < 2
    {
        assert!(Instant::now() < deadline, "the digests were written");
        std::thread::sleep(Duration::from_millis(200));
    }
    cluster.settle_mail();
    check_mail(&cluster, &overdue, &digest_games);

    // Both instances served a share of the moves and ran their worker.
    let texts = [cluster.metrics(0), cluster.metrics(1)];
    let moves_series = "slowfuse_http_requests_total{method=\"POST\",route=\"/api/v1/games/{id}/moves\",status=\"200\"}";
    let served: Vec<f64> = texts.iter().map(|t| sample(t, moves_series)).collect();
    eprintln!(
        "moves sent through nginx: {sent}, answered by each instance: {served:?}; \
         worker passes: {:?}; in {:?}",
        texts
            .iter()
            .map(|t| sample(t, "slowfuse_worker_passes_total"))
            .collect::<Vec<_>>(),
        started.elapsed()
    );
    // No worker pass met a second attempt at work already done (a unique key refusing it
    // would be logged as an error).
    for server in &cluster.servers {
        let log = server.log_text();
        let errors: Vec<&str> = log.lines().filter(|l| l.contains(" ERROR ")).collect();
        assert!(
            errors.is_empty(),
            "errors in an instance's log:\n{}",
            errors.join("\n")
        );
    }
    assert_eq!(
        served.iter().sum::<f64>(),
        sent as f64,
        "every move counted once"
    );
    for (i, n) in served.iter().enumerate() {
        assert!(
            *n >= 0.25 * sent as f64,
            "instance {i} answered {n} of {sent} moves"
        );
        assert!(sample(&texts[i], "slowfuse_worker_passes_total") > 0.0);
    }
}

/// Every mail sent once: each sent row's Message-ID reached the SMTP server once, nothing
/// else arrived, one result mail per player of each overdue game, one digest per digest
/// player with the draw offer held for it.
fn check_mail(cluster: &Cluster, overdue: &[(i64, &str, &str)], digest_games: &[i64]) {
    let rows = cluster.outbox();
    let mut received: HashMap<String, usize> = HashMap::new();
    for mail in cluster.sink.mails() {
        *received.entry(mail.header("message-id")).or_default() += 1;
    }
    let mut by_status: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &rows {
        *by_status.entry(&r.status).or_default() += 1;
    }
    eprintln!(
        "outbox rows by status: {by_status:?}; mails received: {}",
        received.len()
    );
    let sent: Vec<&OutboxRow> = rows.iter().filter(|r| r.status == "sent").collect();
    for row in &sent {
        let id = row
            .message_id
            .as_deref()
            .expect("a sent row keeps its Message-ID");
        assert_eq!(
            received.get(id),
            Some(&1),
            "row {} ({}) arrived once",
            row.id,
            row.kind
        );
    }
    assert_eq!(
        received.len(),
        sent.len(),
        "nothing arrived that no row sent"
    );
    assert!(
        received.values().all(|&n| n == 1),
        "no mail twice: {received:?}"
    );
    for &(g, w, b) in overdue {
        for name in [w, b] {
            let user = cluster.user_id(name);
            let results: Vec<_> = sent
                .iter()
                .filter(|r| r.kind == "game_over" && r.game_id == Some(g) && r.user_id == user)
                .collect();
            assert_eq!(results.len(), 1, "one result mail to {name} for game {g}");
        }
        let all = rows
            .iter()
            .filter(|r| r.kind == "game_over" && r.game_id == Some(g));
        assert_eq!(all.count(), 2, "game {g}: a result row per player, no more");
    }
    for (name, g) in ["digest0", "digest1"].into_iter().zip(digest_games) {
        let user = cluster.user_id(name);
        let mine: Vec<_> = rows.iter().filter(|r| r.user_id == user).collect();
        let digests: Vec<_> = mine.iter().filter(|r| r.kind == "daily_digest").collect();
        assert_eq!(digests.len(), 1, "one digest for {name}: {mine:?}");
        assert_eq!(digests[0].status, "sent", "{mine:?}");
        let offer = mine
            .iter()
            .find(|r| r.kind == "draw_offered" && r.game_id == Some(*g))
            .expect("the draw offer held for the digest");
        assert_eq!(offer.status, "digested", "{mine:?}");
    }
    let digests: Vec<_> = cluster
        .sink
        .mails()
        .into_iter()
        .filter(|m| m.subject().starts_with("Slowfuse digest"))
        .collect();
    assert_eq!(digests.len(), 2, "two digests arrived");
    for m in &digests {
        assert!(
            m.subject().contains("1 game awaits your move, 1 update"),
            "{}",
            m.subject()
        );
    }
}
