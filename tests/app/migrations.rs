//! Migrations keep what players have: a game stored before boards had rows of their own reads
//! back the same after the migration, on SQLite and on PostgreSQL, and can be played on.

use crate::common;

use common::migrations::migrate_before;
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel_migrations::MigrationHarness;
use slowfuse::db::{DbConnection, POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS};
use slowfuse::game::{GameStatus, Seat, load_game};
use slowfuse_rules::Color;

/// The first migration that stores boards apart from games.
const BOARDS: &str = "2026-12-02-000010";

/// A game as the earlier schema stored it: Black to move after 1. e4, a draw offer from White,
/// a deadline, and the last move's time.
const OLD_GAME: &str = "
INSERT INTO users (id, username, username_key, email, password_hash, created_at)
  VALUES (1, 'alice', 'alice', 'a@example.org', 'x', '2026-11-30 10:00:00'),
         (2, 'bob', 'bob', 'b@example.org', 'x', '2026-11-30 10:00:00');
INSERT INTO games (id, variant, initial_fen, fen, ply, turn, status, result, time_control,
                   days_per_move, deadline_at, draw_offer, created_at, updated_at, last_move_at)
  VALUES (7, 'atomic', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
          'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', 1, 'black', 'started',
          '*', 'days', 3, '2026-12-04 09:00:00', 'white', '2026-11-30 10:00:00',
          '2026-12-01 09:00:00', '2026-12-01 09:00:00');
INSERT INTO game_players (game_id, user_id, board, color, time_left_seconds)
  VALUES (7, 1, 0, 'white', 259200), (7, 2, 0, 'black', 259200);
INSERT INTO moves (game_id, board, ply, uci, san, fen_after, player_id, played_at)
  VALUES (7, 0, 0, 'e2e4', 'e4', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
          1, '2026-12-01 09:00:00');
";

fn the_old_game_reads_back(conn: &mut DbConnection) {
    let record = load_game(conn, 7)
        .expect("load")
        .expect("the game is there");
    assert_eq!(record.status, GameStatus::Started);
    assert_eq!(record.boards.len(), 1);
    let board = record.first_board();
    assert_eq!(
        board.fen,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!((board.ply, board.turn), (1, Color::Black));
    assert_eq!(board.draw_offer, Some(Color::White));
    let at = |s: &str| chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap();
    assert_eq!(board.deadline_at, Some(at("2026-12-04 09:00:00")));
    assert_eq!(record.game.deadline_at, Some(at("2026-12-04 09:00:00")));
    assert_eq!(board.last_move_at, Some(at("2026-12-01 09:00:00")));
    assert_eq!(record.name_of(Seat::first_board(Color::Black)), "bob");
    let game = record.chess_game().expect("replays");
    assert_eq!(game.fen(), board.fen);
    assert!(game.play("e5").is_ok(), "Black can play on");
}

#[test]
fn sqlite_games_keep_their_board_through_the_migration() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let mut conn = SqliteConnection::establish(path.to_str().unwrap()).unwrap();
    migrate_before(&mut conn, SQLITE_MIGRATIONS, BOARDS);
    conn.batch_execute(OLD_GAME).unwrap();
    conn.run_pending_migrations(SQLITE_MIGRATIONS).unwrap();
    the_old_game_reads_back(&mut DbConnection::Sqlite(conn));
}

#[test]
fn postgres_games_keep_their_board_through_the_migration() {
    let Some(server) = common::postgres_url() else {
        return;
    };
    let url = common::fresh_postgres_database(&server);
    let mut conn = PgConnection::establish(&url).unwrap();
    migrate_before(&mut conn, POSTGRES_MIGRATIONS, BOARDS);
    conn.batch_execute(OLD_GAME).unwrap();
    // Ids were given by hand: move the sequences past them, as a real database would be.
    conn.batch_execute("SELECT setval('users_id_seq', 2); SELECT setval('games_id_seq', 7);")
        .unwrap();
    conn.run_pending_migrations(POSTGRES_MIGRATIONS).unwrap();
    the_old_game_reads_back(&mut DbConnection::Pg(conn));
}
