//! Importing PGN files: the use case, the `slowfuse import` command of the built binary and
//! the `/import` page, on both databases. Corpus games are read from `../shared/corpus/pgn`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::TestApp;
use diesel::prelude::*;
use slowfuse::schema::{book_moves, game_imports, game_players, games, moves, users};
use slowfuse::usecases::import::{ImportSummary, find_importer, import_pgn};
use slowfuse::usecases::search::{SearchParams, search_games};

/// Twenty queens: no game reaches it, the rules play it.
const TWENTY_QUEENS: &str = "5qqk/8/8/qqqqqqqq/QQQQQQQQ/8/8/KQQ5 w - - 0 1";

fn corpus_pgn(file: &str) -> Option<String> {
    let dir = match std::env::var_os("SLOWFUSE_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    let path = dir.join("pgn").join(file);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(_) => {
            assert!(
                !std::env::var("SLOWFUSE_REQUIRE_CORPUS").is_ok_and(|v| v == "1"),
                "SLOWFUSE_REQUIRE_CORPUS=1 but {} is missing",
                path.display()
            );
            println!("import corpus part skipped: no {}", path.display());
            None
        }
    }
}

/// Games written here: an illegal one (game 1), one without a result (2), one whose FEN
/// cannot be read (3), one from twenty queens (4) and one with HTML in its tags (5).
fn own_games() -> String {
    format!(
        "[Event \"Own\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n\
         1. e4 e5 2. Ke3 Nc6 1-0\n\n\
         [Event \"Own\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\n1. d4 d5 *\n\n\
         [Event \"Own\"]\n[SetUp \"1\"]\n[FEN \"this is no position\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n\
         [Event \"Composed\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[SetUp \"1\"]\n[FEN \"{TWENTY_QUEENS}\"]\n\
         [Result \"1-0\"]\n\n1. Qaxa5 Qxa5 1-0\n\n\
         [Event \"<b>Bold</b> event\"]\n[Site \"?\"]\n[Date \"2024.05.06\"]\n\
         [White \"<script>alert(1)</script>\"]\n[Black \"Eve & Mallory\"]\n[Result \"0-1\"]\n\n\
         1. f3 e5 2. g4 Qh4# 0-1\n\n"
    )
}

/// Corpus games of four variants: 16 standard, 6 atomic (one unfinished), 1 antichess,
/// 3 crazyhouse; then [`own_games`].
fn mixed_file() -> Option<String> {
    let parts = [
        corpus_pgn("standard/lichess-db-sample.pgn")?,
        corpus_pgn("atomic/atomic-games.pgn")?,
        corpus_pgn("antichess/antichess-games.pgn")?,
        corpus_pgn("crazyhouse/crazyhouse-lichess-and-fixtures.pgn")?,
        own_games(),
    ];
    Some(parts.join("\n\n"))
}

fn import(app: &TestApp, pgn: &str, as_user: Option<&str>) -> ImportSummary {
    let mut conn = app.state.pool.get().unwrap();
    let importer = as_user.map(|name| find_importer(&mut conn, name).unwrap());
    import_pgn(
        &mut conn,
        app.state.now(),
        pgn.as_bytes(),
        importer.as_ref(),
        &mut |_| {},
    )
    .unwrap()
}

/// (games, moves, import records) stored.
fn row_counts(app: &TestApp) -> (i64, i64, i64) {
    let mut conn = app.state.pool.get().unwrap();
    (
        games::table.count().get_result(&mut **conn).unwrap(),
        moves::table.count().get_result(&mut **conn).unwrap(),
        game_imports::table.count().get_result(&mut **conn).unwrap(),
    )
}

fn reasons(summary: &ImportSummary) -> Vec<String> {
    summary
        .skipped
        .iter()
        .map(|s| s.reason.to_string())
        .collect()
}

fn found(app: &TestApp, query: &str) -> Vec<(i64, String, String)> {
    let mut conn = app.state.pool.get().unwrap();
    let search = SearchParams::from_query(query)
        .unwrap()
        .check(false)
        .unwrap();
    search_games(&mut conn, None, &search)
        .unwrap()
        .games
        .into_iter()
        .map(|g| (g.game.id, g.white, g.black))
        .collect()
}

fn a_mixed_file_imports_the_good_games_and_says_why_not_the_others(app: &TestApp) {
    let Some(file) = mixed_file() else { return };
    let summary = import(app, &file, None);
    assert_eq!(
        summary.imported.len(),
        16 + 5 + 1 + 3 + 2,
        "{:?}",
        reasons(&summary)
    );
    let reasons = reasons(&summary);
    assert_eq!(reasons.len(), 4, "{reasons:?}");
    let numbers: Vec<usize> = summary.skipped.iter().map(|s| s.index).collect();
    // The atomic file's unfinished game, then the own games 1, 2 and 3 (games 27 to 29).
    assert!(numbers[1..] == [27, 28, 29], "{numbers:?} {reasons:?}");
    assert_eq!(reasons[0], "unfinished (no result)");
    assert_eq!(
        reasons[1],
        "illegal move at ply 3 (Ke3): Ke3 is not a legal move here"
    );
    assert_eq!(reasons[2], "unfinished (no result)");
    assert!(
        reasons[3].starts_with("malformed PGN: bad FEN tag"),
        "{}",
        reasons[3]
    );

    // Nothing of a skipped game: as many games, moves and records as the imported games hold.
    let (games_n, moves_n, records) = row_counts(app);
    assert_eq!((games_n, records), (27, 27));
    let mut conn = app.state.pool.get().unwrap();
    let plies: Vec<i32> = games::table.select(games::ply).load(&mut **conn).unwrap();
    assert_eq!(moves_n, plies.iter().map(|&p| i64::from(p)).sum::<i64>());
    let variants: Vec<String> = games::table
        .select(games::variant)
        .distinct()
        .order(games::variant)
        .load(&mut **conn)
        .unwrap();
    assert_eq!(variants, ["antichess", "atomic", "crazyhouse", "standard"]);
    // The composed game starts from its twenty queens.
    let composed: String = games::table
        .filter(games::initial_fen.eq(TWENTY_QUEENS))
        .select(games::result)
        .get_result(&mut **conn)
        .unwrap();
    assert_eq!(composed, "1-0");
    // Nobody is seated: the players are the PGN's names.
    let seats: i64 = game_players::table.count().get_result(&mut **conn).unwrap();
    assert_eq!(seats, 0);

    // Searchable by the PGN's names, in any case, with the colour.
    let hits = found(app, "player=MOHAMMADx1x&status=finished");
    assert_eq!(hits.len(), 1);
    assert_eq!(
        (hits[0].1.as_str(), hits[0].2.as_str()),
        ("mohammadX1X", "ams56")
    );
    assert!(found(app, "player=mohammadX1X&color=black").is_empty());
    assert_eq!(found(app, "player=ams56&opponent=mohammadX1X").len(), 1);
    assert_eq!(found(app, "variant=antichess&result=draw").len(), 1);
    assert_eq!(found(app, "variant=crazyhouse").len(), 3);

    // Counted in the opening book: the standard games from the start (the hostile one too).
    let start = slowfuse_rules::STANDARD_START_FEN;
    let book = slowfuse::usecases::book::book_position(&mut conn, "standard", start).unwrap();
    assert_eq!(book.games, 17);
    assert!(book.moves.iter().any(|m| m.san == "e4"));
    drop(conn);

    // The search page and the game page of an imported game: names as plain text.
    let (status, body) = app.get_text("/search?player=mohammadX1X");
    assert_eq!(status, 200);
    assert!(
        body.contains("mohammadX1X") && body.contains("ams56"),
        "{body}"
    );
    let id = hits[0].0;
    let (status, page) = app.get_text(&format!("/games/{id}"));
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("mohammadX1X"));
    assert!(
        !page.contains("/users/mohammadX1X"),
        "a PGN name is no profile link"
    );
    let origin = "Imported from PGN: Rated Blitz game, https://lichess.org/migo3Sgt, 2025.05.01.";
    assert!(page.contains(origin), "{page}");
    let (status, pgn) = app.get_text(&format!("/games/{id}.pgn"));
    assert_eq!(status, 200);
    for tag in [
        "[Event \"Rated Blitz game\"]",
        "[Site \"https://lichess.org/migo3Sgt\"]",
        "[Date \"2025.05.01\"]",
        "[White \"mohammadX1X\"]",
        "[Black \"ams56\"]",
        "[Result \"0-1\"]",
        "[WhiteElo \"1276\"]",
        "[Termination \"Time forfeit\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} in {pgn}");
    }
    assert!(pgn.trim_end().ends_with("0-1"), "{pgn}");
    // pgn-extract and python-chess read our PGN of the imported game without a complaint.
    common::readers::pgn_readers_accept(&pgn, 1);
    // Every view of an imported game of each variant answers (names, not accounts).
    let mut conn = app.state.pool.get().unwrap();
    let per_variant: Vec<i64> = ["standard", "atomic", "antichess", "crazyhouse"]
        .iter()
        .map(|v| {
            games::table
                .filter(games::variant.eq(*v))
                .select(games::id)
                .get_result(&mut **conn)
                .unwrap()
        })
        .collect();
    drop(conn);
    for id in per_variant {
        for path in [
            format!("/games/{id}"),
            format!("/games/{id}?ply=1"),
            format!("/games/{id}/plies.json"),
            format!("/games/{id}.pgn"),
            format!("/games/{id}.fen?ply=2"),
            format!("/api/v1/games/{id}"),
        ] {
            let (status, body) = app.get_text(&path);
            assert_eq!(status, 200, "{path}: {body}");
        }
    }
    let (_, json) = app.get_text(&format!("/api/v1/games/{id}"));
    assert!(json.contains("mohammadX1X"), "{json}");

    // The same file again adds nothing.
    let again = import(app, &file, None);
    assert!(again.imported.is_empty());
    let dups = again
        .skipped
        .iter()
        .filter(|s| s.reason.to_string() == "already imported")
        .count();
    assert_eq!((dups, again.skipped.len()), (27, 31));
    assert_eq!(row_counts(app), (games_n, moves_n, records));
}

fn as_user_links_the_side_that_bears_their_name(app: &TestApp) {
    app.user("Alice");
    let pgn = "[Event \"Club\"]\n[White \"ALICE\"]\n[Black \"Zed\"]\n[Result \"0-1\"]\n\n\
               1. f3 e5 2. g4 Qh4# 0-1\n\n\
               [Event \"Club\"]\n[White \"Zed\"]\n[Black \"alice\"]\n[Result \"1/2-1/2\"]\n\n\
               1. e4 e5 1/2-1/2\n\n\
               [Event \"Club\"]\n[White \"Yan\"]\n[Black \"Zed\"]\n[Result \"1-0\"]\n\n1. d4 1-0\n";
    let summary = import(app, pgn, Some("alice"));
    assert_eq!(summary.imported.len(), 3);
    let mut conn = app.state.pool.get().unwrap();
    let alice: i64 = users::table
        .filter(users::username_key.eq("alice"))
        .select(users::id)
        .get_result(&mut **conn)
        .unwrap();
    let seats: Vec<(i64, String)> = game_players::table
        .filter(game_players::user_id.eq(alice))
        .select((game_players::game_id, game_players::color))
        .order(game_players::game_id)
        .load(&mut **conn)
        .unwrap();
    let ids: Vec<i64> = summary.imported.iter().map(|g| g.game_id).collect();
    assert_eq!(
        seats,
        [(ids[0], "white".to_string()), (ids[1], "black".to_string())]
    );
    let by: Vec<Option<i64>> = game_imports::table
        .select(game_imports::imported_by)
        .load(&mut **conn)
        .unwrap();
    assert!(by.iter().all(|b| *b == Some(alice)));
    // Alice's moves are hers; Zed's belong to no account.
    let mine: i64 = moves::table
        .filter(moves::player_id.eq(alice))
        .count()
        .get_result(&mut **conn)
        .unwrap();
    assert_eq!(mine, 2 + 1);
    drop(conn);
    // On her profile and in the search by her name, as the account's name.
    let (_, profile) = app.get_text("/users/alice");
    assert!(profile.contains(&format!("/games/{}", ids[0])), "{profile}");
    assert!(
        !profile.contains("/users/Zed"),
        "a PGN name is no profile link"
    );
    assert_eq!(found(app, "player=alice").len(), 2);
    let (_, page) = app.get_text(&format!("/games/{}", ids[0]));
    assert!(
        page.contains("href=\"/users/Alice\""),
        "the account is linked"
    );
    assert!(page.contains("Zed") && !page.contains("/users/Zed"));

    // An account that does not exist is refused before anything is read.
    let mut conn = app.state.pool.get().unwrap();
    let err = find_importer(&mut conn, "nobody").unwrap_err().to_string();
    assert!(err.contains("no account named \"nobody\""), "{err}");
}

/// Runs the built binary's `import` against the app's database.
fn slowfuse_import(app: &TestApp, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_slowfuse"))
        .arg("import")
        .args(args)
        .env(
            "SLOWFUSE_CONFIG_DIR",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("config"),
        )
        .env("DATABASE_URL", &app.database_url)
        .output()
        .expect("the slowfuse binary runs")
}

fn the_command_imports_a_file_and_prints_the_summary(app: &TestApp) {
    app.user("carol");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.pgn");
    let text = format!(
        "[White \"Carol\"]\n[Black \"Dan\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n{}",
        own_games()
    );
    std::fs::write(&file, text).unwrap();
    let path = file.to_str().unwrap();
    let out = slowfuse_import(app, &[path, "--as-user", "carol"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout,
        "imported 3, skipped 3\n\
         game 2: illegal move at ply 3 (Ke3): Ke3 is not a legal move here\n\
         game 3: unfinished (no result)\n\
         game 4: malformed PGN: bad FEN tag: malformed FEN at position 1: unexpected character 't' in the board\n"
    );
    assert_eq!(found(app, "player=carol").len(), 1);
    // Again: every good game is a duplicate, and the exit code says the file was read.
    let again = slowfuse_import(app, &[path]);
    assert!(again.status.success());
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(
        stdout.starts_with("imported 0, skipped 6\ngame 1: already imported\n"),
        "{stdout}"
    );
    assert_eq!(row_counts(app).0, 3);

    // An unreadable file and an unknown account are errors.
    let missing = slowfuse_import(app, &[dir.path().join("none.pgn").to_str().unwrap()]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read"));
    let nobody = slowfuse_import(app, &[path, "--as-user", "nobody"]);
    assert!(!nobody.status.success());
    assert!(
        String::from_utf8_lossy(&nobody.stderr).contains("no account named \"nobody\""),
        "{}",
        String::from_utf8_lossy(&nobody.stderr)
    );
    assert_eq!(row_counts(app).0, 3);
}

fn the_import_page_imports_for_the_logged_in_user(app: &TestApp) {
    app.user("erin");
    let browser = app.logged_in("erin");
    let visitor = app.browser();
    let away = visitor.get("/import");
    assert_eq!(away.status, 303);
    assert!(away.location.unwrap().starts_with("/login"));

    let csrf = browser.csrf("/import");
    let pgn = format!(
        "[White \"Erin\"]\n[Black \"Finn\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n{}",
        own_games()
    );
    // Without the form's token: refused, nothing imported.
    let refused = browser.post("/import", &[("csrf_token", "forged"), ("pgn", &pgn)]);
    assert_eq!(refused.status, 403);
    assert_eq!(row_counts(app).0, 0);
    // Above the limit: refused with the reason, nothing imported.
    let huge = format!("{pgn}{}", " ".repeat(2 * 1024 * 1024));
    let refused = browser.post("/import", &[("csrf_token", &csrf), ("pgn", &huge)]);
    assert_eq!(refused.status, 413);
    assert!(
        refused
            .body
            .contains("larger than 2 MB: nothing was imported"),
        "{}",
        refused.body
    );
    // Far above it, the form is refused before it is read.
    let huger = "[".repeat(7 * 1024 * 1024);
    let refused = browser.post("/import", &[("csrf_token", &csrf), ("pgn", &huger)]);
    assert_eq!(refused.status, 413);
    assert!(
        refused
            .body
            .contains("larger than 2 MB: nothing was imported")
    );
    assert_eq!(row_counts(app).0, 0);

    assert!(
        browser.get("/search").body.contains("href=\"/import\""),
        "linked from the search"
    );
    let page = browser.post("/import", &[("csrf_token", &csrf), ("pgn", &pgn)]);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Imported 3, skipped 3"), "{}", page.body);
    assert!(
        page.body
            .contains("game 2</td><td>illegal move at ply 3 (Ke3)")
    );
    assert!(page.body.contains("/search?player=erin"));
    // HTML in the tags is shown as text, here and on the game's page.
    assert!(!page.body.contains("<script>alert(1)</script>"));
    assert!(entities(&page.body).contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let mut conn = app.state.pool.get().unwrap();
    let hostile: i64 = game_imports::table
        .filter(game_imports::black_name.eq("Eve & Mallory"))
        .select(game_imports::game_id)
        .get_result(&mut **conn)
        .unwrap();
    let erin: i64 = game_players::table
        .inner_join(users::table)
        .filter(users::username_key.eq("erin"))
        .count()
        .get_result(&mut **conn)
        .unwrap();
    assert_eq!(erin, 1, "Erin's own game is linked to her");
    let hers: i64 = game_players::table
        .inner_join(users::table)
        .filter(users::username_key.eq("erin"))
        .select(game_players::game_id)
        .get_result(&mut **conn)
        .unwrap();
    let book: i64 = book_moves::table
        .filter(book_moves::game_id.eq(hostile))
        .count()
        .get_result(&mut **conn)
        .unwrap();
    assert_eq!(book, 4);
    drop(conn);
    assert!(page.body.contains(&format!("/games/{hostile}")));
    // Her pages with the game among hers: her game page, my games, the dashboard, her profile.
    for path in [
        format!("/games/{hers}"),
        "/games".into(),
        "/".into(),
        "/users/erin".into(),
    ] {
        let seen = browser.get(&path);
        assert_eq!(seen.status, 200, "{path}: {}", seen.body);
    }
    assert!(
        browser
            .get("/games")
            .body
            .contains(&format!("/games/{hers}"))
    );
    let game = browser.get(&format!("/games/{hostile}"));
    assert_eq!(game.status, 200);
    assert!(!game.body.contains("<script>alert(1)</script>"));
    assert!(!game.body.contains("<b>Bold</b>"));
    assert!(entities(&game.body).contains("&lt;b&gt;Bold&lt;/b&gt; event"));
    assert!(entities(&game.body).contains("Eve &amp; Mallory"));
    assert!(entities(&game.body).contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
}

/// The page's numeric character references as named ones (the templates write `&#60;`).
fn entities(html: &str) -> String {
    html.replace("&#60;", "&lt;")
        .replace("&#62;", "&gt;")
        .replace("&#38;", "&amp;")
}

/// Two imports of one file at once: each game is stored once, the other import skips it (a
/// batch that meets a game stored meanwhile is written again game by game).
fn two_imports_at_once_store_each_game_once(app: &TestApp) {
    let Some(file) = corpus_pgn("crazyhouse/crazyhouse-fics-zh.pgn") else {
        return;
    };
    let summaries: Vec<ImportSummary> = std::thread::scope(|scope| {
        let runs: Vec<_> = (0..2)
            .map(|_| scope.spawn(|| import(app, &file, None)))
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let imported: usize = summaries.iter().map(|s| s.imported.len()).sum();
    let duplicates: usize = summaries
        .iter()
        .flat_map(|s| &s.skipped)
        .filter(|s| s.reason.to_string() == "already imported")
        .count();
    assert_eq!((imported, duplicates), (28, 28));
    let (games_n, moves_n, records) = row_counts(app);
    assert_eq!((games_n, records), (28, 28));
    let mut conn = app.state.pool.get().unwrap();
    let plies: Vec<i32> = games::table.select(games::ply).load(&mut **conn).unwrap();
    assert_eq!(moves_n, plies.iter().map(|&p| i64::from(p)).sum::<i64>());
}

on_both_databases!(
    two_imports_at_once_store_each_game_once,
    a_mixed_file_imports_the_good_games_and_says_why_not_the_others,
    as_user_links_the_side_that_bears_their_name,
    the_command_imports_a_file_and_prints_the_summary,
    the_import_page_imports_for_the_logged_in_user,
);
