//! The queries that grow with the database read it through their indexes: on an SQLite
//! database with the migrations applied, the search's first page is read in index order, the
//! opening book from its index alone, the worker's clean-up of old mail seeks its rows, its
//! time-running-low scan reads only the boards whose look is due, and a profile's recent games
//! of a player seated in most games are walked in order.
//! (How fast they are on 100,000 games is a benchmark: `cargo bench --bench scale`.)

#[allow(dead_code)]
#[path = "../../benches/scale/plans.rs"]
mod plans;

use chrono::{NaiveDate, NaiveDateTime};
use slowfuse::config::DatabaseSettings;
use slowfuse::db::DbConnection;
use slowfuse::usecases::book::book_position;
use slowfuse::usecases::notify::low_time;
use slowfuse::usecases::outbox::delete_finished;
use slowfuse::usecases::search::{SearchParams, search_games};

/// The plans of the statements `work` sends on a fresh, migrated SQLite database.
fn plans_of(work: impl Fn(&mut DbConnection)) -> Vec<(String, String)> {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("plans.db").display());
    let settings = DatabaseSettings {
        url: url.clone(),
        pool_size: 1,
        sqlite_busy_timeout_ms: 5000,
    };
    let pool = slowfuse::db::connect(&settings).expect("open");
    let mut conn = pool.get().expect("a connection");
    slowfuse::db::migrate(&mut conn).expect("migrate");
    let recorder = plans::Recorder::attach(&mut conn);
    work(&mut conn);
    let statements = recorder.take();
    assert!(!statements.is_empty(), "the work sent no statement");
    statements
        .iter()
        .map(|q| (plans::short_sql(q), plans::explain(&mut conn, q).join("\n")))
        .collect()
}

fn plan_containing(plans: &[(String, String)], sql_part: &str) -> String {
    plans
        .iter()
        .find(|(sql, _)| sql.contains(sql_part))
        .map(|(_, plan)| plan.clone())
        .unwrap_or_else(|| panic!("no statement with {sql_part}: {plans:#?}"))
}

#[test]
fn the_search_reads_its_first_page_in_index_order() {
    let search = SearchParams::default()
        .check(false)
        .expect("an empty search");
    let plans = plans_of(|c| {
        search_games(c, None, &search).expect("search");
    });
    let page = plan_containing(&plans, "`games`.`variant_options`");
    assert!(
        page.contains("games_finished_order") && !page.contains("TEMP B-TREE"),
        "the first page sorts every game instead of reading the index:\n{page}"
    );
}

#[test]
fn the_opening_book_counts_from_its_index_alone() {
    let plans = plans_of(|c| {
        let start = slowfuse_rules::Game::new(slowfuse_rules::Variant::Atomic).fen();
        book_position(c, "atomic", &start).expect("book");
    });
    let book = plan_containing(&plans, "book_moves");
    assert!(
        book.contains("USING COVERING INDEX book_moves_position"),
        "the book reads its table rows:\n{book}"
    );
}

/// The moment the worker's plans are asked for.
fn noon() -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 12, 1)
        .and_then(|d| d.and_hms_opt(12, 0, 0))
        .expect("a time")
}

#[test]
fn the_worker_finds_old_mail_without_reading_the_recent() {
    let now = noon();
    let plans = plans_of(|c| {
        delete_finished(c, now, 90).expect("clean-up");
    });
    let delete = plan_containing(&plans, "DELETE");
    assert!(
        delete.contains("outbox_finished"),
        "the clean-up does not seek by status and age:\n{delete}"
    );
}

#[test]
fn the_time_running_low_scan_reads_only_the_boards_due() {
    let now = noon();
    let plans = plans_of(|c| {
        low_time(c, now, 0.8, 24).expect("scan");
    });
    let scan = plan_containing(&plans, "`games`.`status`, `game_boards`.`turn`");
    assert!(
        scan.contains("USING INDEX game_boards_low_time"),
        "the scan reads every running board:\n{scan}"
    );
}
