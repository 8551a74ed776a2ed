//! What the fuzz targets share: the application's state on a temporary SQLite database, made
//! once per process, and that database put back as it was prepared after any input that
//! changed it, so that each input meets the same accounts and games whatever came before it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use actix_web::cookie::Key;
use chrono::NaiveDateTime;
use diesel::connection::SimpleConnection;
use diesel::{Connection, RunQueryDsl, SqliteConnection};
use slowfuse::clock::FixedClock;
use slowfuse::config::Settings;
use slowfuse::random::FixedRandom;
use slowfuse::web::AppState;

/// The start of the name of each process's directory under the system's temporary one.
const DIR_PREFIX: &str = "slowfuse-fuzz-";

/// The database's file in that directory.
const DATABASE: &str = "fuzz.db";

/// The moment every input happens at: 1 March 2026, 12:00 UTC.
pub fn now() -> NaiveDateTime {
    chrono::NaiveDate::from_ymd_opt(2026, 3, 1)
        .and_then(|d| d.and_hms_opt(12, 0, 0))
        .expect("a valid moment")
}

/// The application's state on a database of this process's own: the clock stands at [`now`],
/// chance always draws the same, no background work runs.
pub struct Bench {
    dir: PathBuf,
    /// The cookie key of [`slowfuse::startup::app`].
    pub key: Key,
    /// The state every input is served with.
    pub state: AppState,
    keeper: Option<Keeper>,
}

/// A connection of its own to the database, beside the application's pool, that sees when
/// the application wrote and puts the database back.
struct Keeper {
    conn: SqliteConnection,
    /// The statements that copy every table back from the kept copy.
    restore: String,
    /// SQLite's `data_version` when the database was last as kept: it changes when another
    /// connection commits a change.
    version: i64,
}

impl Keeper {
    fn data_version(&mut self) -> i64 {
        #[derive(diesel::QueryableByName)]
        struct Version {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            data_version: i64,
        }
        let rows: Vec<Version> = diesel::sql_query("PRAGMA data_version")
            .load(&mut self.conn)
            .expect("the database's data version");
        rows.first().map_or(0, |v| v.data_version)
    }
}

impl Bench {
    /// The application on an empty, migrated database in a new directory of this process's
    /// own (those that ended processes left are removed first). `RUST_LOG` set turns on the
    /// server's log, to read the cause of a failure.
    pub fn new() -> Bench {
        if std::env::var_os("RUST_LOG").is_some() {
            slowfuse::logging::init();
        }
        let dir = process_dir();
        let setting = |key: &str, value: String| (key.to_string(), value);
        let env = [
            setting(
                "DATABASE_URL",
                format!("sqlite://{}", dir.join(DATABASE).display()),
            ),
            setting("SLOWFUSE__SERVER__DATA_DIR", dir.display().to_string()),
            setting("SLOWFUSE__SERVER__BIND", "127.0.0.1:0".into()),
            setting("SLOWFUSE__WORKER__ENABLED", "false".into()),
            setting("SLOWFUSE__DATABASE__POOL_SIZE", "2".into()),
            setting("SLOWFUSE__AUTH__PASSWORD_HASHES_AT_ONCE", "1".into()),
        ];
        // The directory holds no settings file: the built-in defaults and the lines above.
        let settings = Settings::load_from(&dir, env).expect("the fuzz settings");
        let clock = Arc::new(FixedClock::new(now()));
        let random = Arc::new(FixedRandom::new(false, 7));
        let (state, key) =
            slowfuse::startup::prepare(settings, clock, random).expect("the application's state");
        Bench {
            dir,
            key,
            state,
            keeper: None,
        }
    }

    /// Keeps the database as it stands now as the one every input starts from: a copy of it,
    /// attached to a connection of its own, and the statements that copy every table back.
    pub fn keep_as_start(&mut self) {
        let start = self.dir.join("start.db");
        let _ = std::fs::remove_file(&start);
        let quoted = start.display().to_string().replace('\'', "''");
        let mut pooled = self.state.pool.get().expect("a connection");
        pooled
            .batch_execute(&format!("VACUUM INTO '{quoted}'"))
            .expect("a copy of the prepared database");
        drop(pooled);
        let path = self.dir.join(DATABASE).display().to_string();
        let mut conn = SqliteConnection::establish(&path).expect("a connection of the keeper");
        // Without foreign keys (diesel turns them on), as the tables are copied one by one.
        conn.batch_execute(&format!(
            "PRAGMA foreign_keys = OFF; PRAGMA busy_timeout = 5000; ATTACH '{quoted}' AS start;"
        ))
        .expect("the copy attached");
        #[derive(diesel::QueryableByName)]
        struct Table {
            #[diesel(sql_type = diesel::sql_types::Text)]
            name: String,
        }
        let tables: Vec<Table> = diesel::sql_query(
            "SELECT name FROM start.sqlite_master WHERE type = 'table' \
             AND (name NOT LIKE 'sqlite\\_%' ESCAPE '\\' OR name = 'sqlite_sequence') \
             ORDER BY name = 'sqlite_sequence', name",
        )
        .load(&mut conn)
        .expect("the tables");
        let mut restore = "BEGIN IMMEDIATE;".to_string();
        for Table { name } in tables {
            let name = name.replace('"', "\"\"");
            restore.push_str(&format!(
                " DELETE FROM main.\"{name}\"; \
                 INSERT INTO main.\"{name}\" SELECT * FROM start.\"{name}\";"
            ));
        }
        restore.push_str(" COMMIT;");
        let mut keeper = Keeper {
            conn,
            restore,
            version: 0,
        };
        keeper.version = keeper.data_version();
        self.keeper = Some(keeper);
    }

    /// Puts the database back as it was kept if the application wrote to it since, and
    /// empties the application's record cache.
    pub fn restore(&mut self) {
        let keeper = self.keeper.as_mut().expect("a database kept as the start");
        if keeper.data_version() != keeper.version {
            keeper
                .conn
                .batch_execute(&keeper.restore)
                .expect("the prepared database put back");
            keeper.version = keeper.data_version();
        }
        self.state.records.clear();
    }
}

impl Default for Bench {
    fn default() -> Bench {
        Bench::new()
    }
}

/// A new directory for this process (its id in the name); the directories of processes that
/// have ended are removed.
fn process_dir() -> PathBuf {
    let temp = std::env::temp_dir();
    if let Ok(entries) = std::fs::read_dir(&temp) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let pid = name
                .to_str()
                .and_then(|n| n.strip_prefix(DIR_PREFIX))
                .and_then(|p| p.parse::<u32>().ok());
            if pid.is_some_and(|p| !Path::new(&format!("/proc/{p}")).exists()) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    let dir = temp.join(format!("{DIR_PREFIX}{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a directory for the fuzz databases");
    dir
}
