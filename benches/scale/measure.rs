//! The queries measured, each as the server runs it (the use-case functions its handlers and
//! worker call, on a pooled connection), their p50 and p99, and the plans of their statements.

use std::time::{Duration, Instant};

use chrono::NaiveDateTime;
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use slowfuse::db::{DbConnection, DbPool};
use slowfuse::random::FixedRandom;
use slowfuse::usecases::boards::board_snapshots;
use slowfuse::usecases::book::book_position;
use slowfuse::usecases::games::{FINISHED_LISTED, RECENT_RESULTS, my_games, my_queue};
use slowfuse::usecases::leave::leave_summary;
use slowfuse::usecases::minesweeper::finish_overdue_setups;
use slowfuse::usecases::profiles::load_profile;
use slowfuse::usecases::search::{SearchParams, search_games};
use slowfuse::usecases::{clocks, computer, digest, notify, outbox};
use slowfuse_rules::{Game, Variant};

use crate::Built;
use crate::plans;

/// The aim: every query's p99 within this.
const AIM: Duration = Duration::from_millis(50);

/// One operation: a name and the work, on one connection.
struct Operation {
    name: String,
    work: Box<dyn Fn(&mut DbConnection)>,
}

fn op(name: impl Into<String>, work: impl Fn(&mut DbConnection) + 'static) -> Operation {
    Operation {
        name: name.into(),
        work: Box::new(work),
    }
}

/// The rows the database holds, in words.
pub fn counts(conn: &mut DbConnection) -> String {
    #[derive(QueryableByName)]
    struct N {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let mut count = |sql: &str| {
        diesel::sql_query(sql)
            .get_result::<N>(conn)
            .map_or(-1, |r| r.n)
    };
    format!(
        "{} finished and {} running games (of {}), {} players, {} moves, {} book rows, {} outbox rows",
        count("SELECT count(*) AS n FROM games WHERE status = 'finished'"),
        count("SELECT count(*) AS n FROM games WHERE status = 'started'"),
        count("SELECT count(*) AS n FROM games"),
        count("SELECT count(*) AS n FROM users"),
        count("SELECT count(*) AS n FROM moves"),
        count("SELECT count(*) AS n FROM book_moves"),
        count("SELECT count(*) AS n FROM outbox"),
    )
}

/// The search page's work: the search, then the small boards of the games found.
fn search(query: &str) -> impl Fn(&mut DbConnection) + 'static {
    let s = SearchParams::from_query(query)
        .and_then(|p| p.check(false))
        .unwrap_or_else(|e| panic!("{query}: {e}"));
    move |conn| {
        let found = search_games(conn, None, &s).expect("search");
        let ids: Vec<i64> = found.games.iter().map(|g| g.game.id).collect();
        board_snapshots(conn, &ids).expect("small boards");
    }
}

/// The profile page's work: the profile, the leave summary and the leave periods.
fn profile(name: String, now: NaiveDateTime) -> impl Fn(&mut DbConnection) + 'static {
    move |conn| {
        load_profile(conn, &name, 20, 20)
            .expect("profile")
            .expect("a player");
        let user = slowfuse::usecases::accounts::user_by_name(conn, &name)
            .expect("user")
            .expect("a player");
        leave_summary(conn, now, 28, user.id).expect("leave");
        slowfuse::game::clock::leave_periods(conn, user.id).expect("leave periods");
    }
}

/// The worker's pass, piece by piece (the mail sending itself left out: it talks SMTP).
fn worker_pieces(now: NaiveDateTime) -> Vec<Operation> {
    vec![
        op("worker: minesweeper setups overdue", move |c| {
            finish_overdue_setups(c, now, &FixedRandom::new(true, 1)).expect("setups");
        }),
        op("worker: expire overdue games", move |c| {
            clocks::expire_overdue_games(c, now).expect("expire");
        }),
        op("worker: time-running-low scan", move |c| {
            notify::low_time(c, now, 0.8, 24).expect("low time");
        }),
        op("worker: digest scan", move |c| {
            digest::queue_due_digests(c, now).expect("digests");
        }),
        op("worker: outbox clean-up", move |c| {
            outbox::delete_finished(c, now, 90).expect("clean-up");
        }),
        op("worker: due mail ids", move |c| {
            outbox::due_ids(c, now, 120, 50).expect("due ids");
        }),
        op("worker: computer turns", |c| {
            computer::computer_turns(c).expect("turns");
        }),
    ]
}

fn operations(pool: &DbPool, now: NaiveDateTime, built: &Built) -> Vec<Operation> {
    let mut conn = pool.get().expect("a connection");
    let busy = format!("p{:03}", 0);
    let typical = format!("p{:03}x{}", 7, (built.players.copies / 2).max(1));
    let typical = if built.players.copies > 1 {
        typical
    } else {
        "p007".to_string()
    };
    // A position many games pass through: after the atomic start's most played move.
    let start = Game::new(Variant::Atomic);
    let book = book_position(&mut conn, "atomic", &start.fen()).expect("book");
    let after = book
        .moves
        .first()
        .and_then(|m| start.play_uci(&m.uci).ok())
        .unwrap_or(start.clone());
    let after_fen = after.fen();
    let month_from = (now - chrono::Duration::days(200)).date();
    let month_to = month_from + chrono::Duration::days(30);
    let enc = |s: &str| serde_urlencoded::to_string([("position", s)]).expect("encode");
    let mut ops = vec![
        op("search: all games, first page", search("")),
        op(
            format!("search: player {typical}"),
            search(&format!("player={typical}")),
        ),
        op(
            format!("search: busy player {busy}"),
            search(&format!("player={busy}")),
        ),
        op(
            "search: atomic, White won",
            search("variant=atomic&result=1-0"),
        ),
        op(
            "search: finished within 30 days",
            search(&format!(
                "finished_from={month_from}&finished_to={month_to}"
            )),
        ),
        op(
            "search: running, by time left",
            search("status=started&sort=time_left"),
        ),
        op(
            "search: atomic start position",
            search(&format!("variant=atomic&{}", enc(&start.fen()))),
        ),
        op(
            "search: atomic position after one move",
            search(&format!("variant=atomic&{}", enc(&after_fen))),
        ),
    ];
    for (label, id) in [
        ("busy", built.players.busy),
        ("typical", user_id(&mut conn, &typical)),
    ] {
        ops.push(op(format!("queue: {label} player"), move |c| {
            my_queue(c, id).expect("queue");
        }));
        ops.push(op(format!("home: {label} player"), move |c| {
            my_games(c, id, RECENT_RESULTS).expect("home");
        }));
        ops.push(op(format!("my games: {label} player"), move |c| {
            my_games(c, id, FINISHED_LISTED).expect("my games");
        }));
    }
    ops.push(op(
        format!("profile: busy player {busy}"),
        profile(busy, now),
    ));
    ops.push(op(
        format!("profile: player {typical}"),
        profile(typical, now),
    ));
    for (label, variant, fen) in [
        ("atomic start", "atomic", start.fen()),
        (
            "standard start",
            "standard",
            Game::new(Variant::Standard).fen(),
        ),
        ("atomic after its most played move", "atomic", after_fen),
    ] {
        ops.push(op(format!("book: {label}"), move |c| {
            book_position(c, variant, &fen).expect("book");
        }));
    }
    let pieces = worker_pieces(now);
    ops.extend(worker_pieces(now));
    ops.push(op("worker: the whole pass", move |c| {
        for piece in &pieces {
            (piece.work)(c);
        }
    }));
    ops
}

fn user_id(conn: &mut DbConnection, name: &str) -> i64 {
    slowfuse::usecases::accounts::user_by_name(conn, name)
        .expect("user")
        .map_or(-1, |u| u.id)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((sorted.len() as f64) * p).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

/// Runs every operation `runs` times and prints the table, then the plans.
pub fn run(pool: &DbPool, url: &str, now: NaiveDateTime, built: &Built, runs: usize) {
    let ops = operations(pool, now, built);
    // The worker's first pass does what a running server did long ago (old mail deleted,
    // digests and low-time mails of today queued): timed on its own, before the rest.
    let first = Instant::now();
    let whole = ops.last().expect("the whole pass");
    (whole.work)(&mut pool.get().expect("a connection"));
    let first = first.elapsed();
    // It deleted most of the outbox: autovacuum would now clean the table up (PostgreSQL
    // otherwise walks the dead rows' index entries in every later clean-up).
    let mut own = crate::own_connection(url);
    if crate::copy::is_pg(&own) {
        own.batch_execute("VACUUM ANALYZE outbox")
            .expect("vacuum the outbox");
    }
    drop(own);
    println!("| query | p50 ms | p99 ms | max ms | within 50 ms |\n|---|---:|---:|---:|---|");
    let mut slow = Vec::new();
    for o in &ops {
        let mut times = Vec::with_capacity(runs);
        (o.work)(&mut pool.get().expect("a connection"));
        for _ in 0..runs {
            let t = Instant::now();
            let mut conn = pool.get().expect("a connection");
            (o.work)(&mut conn);
            drop(conn);
            times.push(t.elapsed());
        }
        times.sort_unstable();
        let (p50, p99) = (percentile(&times, 0.5), percentile(&times, 0.99));
        let ok = p99 <= AIM;
        if !ok {
            slow.push(o.name.clone());
        }
        println!(
            "| {} | {} | {} | {} | {} |",
            o.name,
            ms(p50),
            ms(p99),
            ms(*times.last().expect("a run")),
            if ok { "yes" } else { "**no**" }
        );
    }
    println!(
        "\nThe worker's first pass over the fresh database (old mail deleted, today's \
         digests and low-time mails queued): {} ms.\n",
        ms(first)
    );
    print_plans(url, &ops, &slow);
}

/// Records the statements of each operation on a connection of its own and prints the key
/// lines of their plans: all of them with `SLOWFUSE_SCALE_PLANS=all`, otherwise those of slow
/// operations and any that reads a whole big table.
fn print_plans(url: &str, ops: &[Operation], slow: &[String]) {
    let all = std::env::var("SLOWFUSE_SCALE_PLANS").is_ok_and(|v| v == "all");
    let mut conn = crate::own_connection(url);
    let pg = crate::copy::is_pg(&conn);
    let recorder = plans::Recorder::attach(&mut conn);
    let mut explain_conn = crate::own_connection(url);
    println!("Plans:\n");
    for o in ops.iter().filter(|o| o.name != "worker: the whole pass") {
        recorder.take();
        (o.work)(&mut conn);
        let statements = recorder.take();
        let mut printed_name = false;
        for q in &statements {
            let plan = plans::explain(&mut explain_conn, q);
            let scans = plans::scans_big_table(pg, &plan);
            if !(all || scans || slow.contains(&o.name)) {
                continue;
            }
            if !printed_name {
                println!("- {} ({} statements)", o.name, statements.len());
                printed_name = true;
            }
            let mark = if scans {
                " **reads a whole big table**"
            } else {
                ""
            };
            println!("  - `{}`{mark}", plans::short_sql(q));
            println!("    ```");
            for line in plans::key_lines(pg, &plan) {
                println!("    {line}");
            }
            println!("    ```");
        }
    }
    println!();
}
