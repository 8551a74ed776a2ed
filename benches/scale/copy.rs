//! Multiplying the template rows with `INSERT … SELECT`: every column read from the database,
//! ids offset, players spread over the copied accounts, times shifted.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Text};
use slowfuse::db::DbConnection;

/// A column as the database describes it.
#[derive(Clone, Debug)]
pub struct Column {
    pub name: String,
    pub timestamp: bool,
}

#[derive(QueryableByName)]
struct SqliteColumn {
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    #[diesel(column_name = type_)]
    type_: String,
}

#[derive(QueryableByName)]
struct PgColumn {
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Text)]
    data_type: String,
}

#[derive(QueryableByName)]
struct Name {
    #[diesel(sql_type = Text)]
    name: String,
}

#[derive(QueryableByName)]
struct Number {
    #[diesel(sql_type = Nullable<BigInt>)]
    n: Option<i64>,
}

pub fn is_pg(conn: &DbConnection) -> bool {
    matches!(conn, DbConnection::Pg(_))
}

/// The application's tables (not diesel's bookkeeping).
pub fn tables(conn: &mut DbConnection) -> Vec<String> {
    let sql = if is_pg(conn) {
        "SELECT table_name::text AS name FROM information_schema.tables \
         WHERE table_schema = 'public' AND table_name NOT LIKE '\\_\\_%' ORDER BY 1"
    } else {
        "SELECT name FROM sqlite_master WHERE type = 'table' \
         AND name NOT LIKE 'sqlite%' AND name NOT LIKE '\\_\\_%' ESCAPE '\\' ORDER BY 1"
    };
    diesel::sql_query(sql)
        .load::<Name>(conn)
        .expect("list the tables")
        .into_iter()
        .map(|n| n.name)
        .collect()
}

/// Every column of `table`, in order.
pub fn columns(conn: &mut DbConnection, table: &str) -> Vec<Column> {
    if is_pg(conn) {
        let sql = format!(
            "SELECT column_name::text AS column_name, data_type::text AS data_type \
             FROM information_schema.columns WHERE table_schema = 'public' \
             AND table_name = '{table}' ORDER BY ordinal_position"
        );
        diesel::sql_query(sql)
            .load::<PgColumn>(conn)
            .expect("read the columns")
            .into_iter()
            .map(|c| Column {
                timestamp: c.data_type.starts_with("timestamp"),
                name: c.column_name,
            })
            .collect()
    } else {
        let sql = format!("SELECT name, type AS type_ FROM pragma_table_info('{table}')");
        diesel::sql_query(sql)
            .load::<SqliteColumn>(conn)
            .expect("read the columns")
            .into_iter()
            .map(|c| Column {
                timestamp: c.type_.eq_ignore_ascii_case("timestamp"),
                name: c.name,
            })
            .collect()
    }
}

/// `SELECT max(id)` of a table (0 when empty).
pub fn max_id(conn: &mut DbConnection, table: &str, column: &str) -> i64 {
    diesel::sql_query(format!("SELECT max({column}) AS n FROM {table}"))
        .get_result::<Number>(conn)
        .expect("read the highest id")
        .n
        .unwrap_or(0)
}

/// Columns that hold a user's id.
const USER_COLUMNS: [&str; 7] = [
    "user_id",
    "opponent_id",
    "player_id",
    "creator_id",
    "requested_by",
    "imported_by",
    "invited_id",
];

/// Text columns that are unique: a suffix keeps the copies apart.
const UNIQUE_TEXT: [&str; 6] = [
    "dedup_key",
    "share_token",
    "import_key",
    "username",
    "username_key",
    "email",
];

/// How the players of the template games map to accounts in one copy.
#[derive(Clone, Copy, Debug)]
pub struct Players {
    /// The template players' ids, `first..=last`; the busy one is never moved.
    pub first: i64,
    pub last: i64,
    pub busy: i64,
    /// How many copies of the template players there are (the templates included), and the
    /// id distance between one copy and the next.
    pub copies: i64,
    pub stride: i64,
}

/// One copy of some rows: its number, the id distance of each table, where the games go,
/// which accounts play, and how far back in time it is.
pub struct Copy<'a> {
    pub number: i64,
    pub strides: &'a dyn Fn(&str) -> i64,
    pub game_stride: i64,
    pub players: Players,
    /// Seconds subtracted from every timestamp (SQL, may read `days_per_move` of the game).
    pub shift_seconds: i64,
}

impl Copy<'_> {
    fn user(&self, col: &str) -> String {
        let p = self.players;
        format!(
            "CASE WHEN {col} BETWEEN {first} AND {last} AND {col} <> {busy} \
             THEN {col} + ((({n} * 7 + ({col} - {first}) * 3) % {copies}) * {stride}) \
             ELSE {col} END",
            first = p.first,
            last = p.last,
            busy = p.busy,
            n = self.number,
            copies = p.copies,
            stride = p.stride,
        )
    }

    fn shifted(&self, pg: bool, col: &str) -> String {
        let s = self.shift_seconds;
        if pg {
            format!("{col} - interval '{s} seconds'")
        } else {
            // As diesel writes a time of whole seconds (the templates' are), so that a time
            // read and written back compares equal to the stored text.
            format!("strftime('%Y-%m-%d %H:%M:%S', {col}, '-{s} seconds')")
        }
    }

    /// The expression that copies `col` of `table`.
    fn expression(&self, pg: bool, table: &str, col: &Column) -> String {
        let name = col.name.as_str();
        let id_column = if table == "games" { "id" } else { "game_id" };
        if name == id_column || (name == "game_id" && table != "games") {
            format!("{name} + {}", self.number * self.game_stride)
        } else if name == "id" {
            format!("id + {}", self.number * (self.strides)(table))
        } else if USER_COLUMNS.contains(&name) {
            self.user(name)
        } else if col.timestamp {
            self.shifted(pg, name)
        } else if UNIQUE_TEXT.contains(&name) {
            format!("{name} || '#{}'", self.number)
        } else {
            name.to_string()
        }
    }

    /// Copies the rows of `table` belonging to the games `games_where` picks (a condition on
    /// the `games` table); returns the rows written.
    pub fn game_rows(
        &self,
        conn: &mut DbConnection,
        table: &str,
        columns: &[Column],
        games_where: &str,
    ) -> usize {
        let pg = is_pg(conn);
        let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
        let values: Vec<String> = columns
            .iter()
            .map(|c| self.expression(pg, table, c))
            .collect();
        let filter = if table == "games" {
            games_where.to_string()
        } else {
            format!("game_id IN (SELECT id FROM games WHERE {games_where})")
        };
        let sql = format!(
            "INSERT INTO {table} ({}) SELECT {} FROM {table} WHERE {filter}",
            names.join(", "),
            values.join(", ")
        );
        diesel::sql_query(&sql)
            .execute(conn)
            .unwrap_or_else(|e| panic!("copy {table}: {e}\n{sql}"))
    }
}

/// Copies the template players' rows (`users` and every table keyed by `user_id` alone) as
/// copy `m`: ids and names apart, everything else the same.
pub fn user_rows(
    conn: &mut DbConnection,
    table: &str,
    columns: &[Column],
    (m, players, id_stride): (i64, Players, i64),
) -> usize {
    let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
    let key = if table == "users" { "id" } else { "user_id" };
    let values: Vec<String> = columns
        .iter()
        .map(|c| {
            let n = c.name.as_str();
            if n == key {
                format!("{n} + {}", m * players.stride)
            } else if n == "id" {
                format!("id + {}", m * id_stride)
            } else if UNIQUE_TEXT.contains(&n) {
                if n == "email" {
                    format!("'x{m}' || {n}")
                } else {
                    format!("{n} || 'x{m}'")
                }
            } else {
                n.to_string()
            }
        })
        .collect();
    let sql = format!(
        "INSERT INTO {table} ({}) SELECT {} FROM {table} WHERE {key} BETWEEN {} AND {}",
        names.join(", "),
        values.join(", "),
        players.first,
        players.last
    );
    diesel::sql_query(&sql)
        .execute(conn)
        .unwrap_or_else(|e| panic!("copy {table}: {e}\n{sql}"))
}

/// After rows were written with their own ids, PostgreSQL's sequences must start after them.
pub fn reset_sequences(conn: &mut DbConnection, tables: &[String]) {
    if !is_pg(conn) {
        return;
    }
    for table in tables {
        let has_id = columns(conn, table).iter().any(|c| c.name == "id");
        if has_id {
            let sql = format!(
                "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
                 (SELECT coalesce(max(id), 1) FROM {table}))"
            );
            // Tables whose id is not a serial have no sequence: nothing to do.
            let _ = diesel::sql_query(sql).execute(conn);
        }
    }
}

#[derive(QueryableByName)]
struct IndexDef {
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    sql: String,
}

/// The tables that grow most: their secondary indexes are dropped while rows are copied in
/// and made again after, as a bulk load does (the migrations' own definitions, read back).
const BULK_TABLES: &str = "'moves', 'book_moves', 'outbox', 'game_messages', 'game_players'";

/// Drops the non-unique secondary indexes of the big tables; returns their definitions.
pub fn drop_bulk_indexes(conn: &mut DbConnection) -> Vec<String> {
    let sql = if is_pg(conn) {
        format!(
            "SELECT indexname::text AS name, indexdef::text AS sql FROM pg_indexes \
             WHERE schemaname = 'public' AND tablename IN ({BULK_TABLES}) \
             AND indexdef NOT LIKE 'CREATE UNIQUE%'"
        )
    } else {
        format!(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL \
             AND tbl_name IN ({BULK_TABLES}) AND sql NOT LIKE 'CREATE UNIQUE%'"
        )
    };
    let defs = diesel::sql_query(sql)
        .load::<IndexDef>(conn)
        .expect("read the indexes");
    for d in &defs {
        diesel::sql_query(format!("DROP INDEX {}", d.name))
            .execute(conn)
            .expect("drop an index");
    }
    defs.into_iter().map(|d| d.sql).collect()
}

/// Makes the indexes dropped by [`drop_bulk_indexes`] again.
pub fn restore_indexes(conn: &mut DbConnection, defs: &[String]) {
    for sql in defs {
        diesel::sql_query(sql).execute(conn).expect("make an index");
    }
}
