//! Database access: one connection type over SQLite and PostgreSQL, the pool, migrations.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use diesel::connection::{Instrumentation, InstrumentationEvent, SimpleConnection};
use diesel::prelude::*;
use diesel::r2d2::{
    ConnectionManager, CustomizeConnection, ManageConnection, Pool, PooledConnection,
};
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

use crate::config::DatabaseSettings;

/// Migrations for the embedded SQLite backend.
pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
/// Migrations for the PostgreSQL backend (same folder names as SQLite's).
pub const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

/// A connection to whichever database the server was configured with.
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Sqlite(diesel::SqliteConnection),
    Pg(diesel::PgConnection),
}

/// The pool of connections shared by request handlers and workers.
pub type DbPool = Pool<Manager>;
/// One connection taken from the pool.
pub type PooledDb = PooledConnection<Manager>;

/// How long a connection may sit in the pool before it is checked (`SELECT 1`) when taken: a
/// database restarted meanwhile has closed it. A connection in steady use is not checked (the
/// check was one round trip in every request); one that loses its server while in use is
/// dropped when it comes back ([`LostServer`]).
const CHECK_AFTER_IDLE: Duration = Duration::from_secs(5);

/// The pool's manager: diesel's, with the check on checkout only after [`CHECK_AFTER_IDLE`].
pub struct Manager(ConnectionManager<DbConnection>);

/// A connection in the pool, with what the pool knows of its health. It dereferences to the
/// [`DbConnection`].
pub struct HeldConnection {
    conn: DbConnection,
    /// When it last came back to the pool (or was opened).
    returned: Instant,
    /// Set when a query found the server gone.
    lost: Arc<AtomicBool>,
}

impl std::ops::Deref for HeldConnection {
    type Target = DbConnection;
    fn deref(&self) -> &DbConnection {
        &self.conn
    }
}

impl std::ops::DerefMut for HeldConnection {
    fn deref_mut(&mut self) -> &mut DbConnection {
        &mut self.conn
    }
}

/// Watches a PostgreSQL connection's queries for a closed connection: the pool then drops it
/// rather than handing it out again.
struct LostServer(Arc<AtomicBool>);

impl Instrumentation for LostServer {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        if let InstrumentationEvent::FinishQuery {
            error:
                Some(DieselError::DatabaseError(
                    DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
                    _,
                )),
            ..
        } = event
        {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

impl ManageConnection for Manager {
    type Connection = HeldConnection;
    type Error = diesel::r2d2::Error;

    fn connect(&self) -> Result<HeldConnection, Self::Error> {
        let mut conn = self.0.connect()?;
        let lost = Arc::new(AtomicBool::new(false));
        if let DbConnection::Pg(pg) = &mut conn {
            pg.set_instrumentation(LostServer(lost.clone()));
        }
        Ok(HeldConnection {
            conn,
            returned: Instant::now(),
            lost,
        })
    }

    fn is_valid(&self, held: &mut HeldConnection) -> Result<(), Self::Error> {
        if held.returned.elapsed() < CHECK_AFTER_IDLE {
            return Ok(());
        }
        self.0.is_valid(&mut held.conn)
    }

    fn has_broken(&self, held: &mut HeldConnection) -> bool {
        held.returned = Instant::now();
        held.lost.load(Ordering::Relaxed) || self.0.has_broken(&mut held.conn)
    }
}

/// Sets the per-connection SQLite options every time a connection is opened.
#[derive(Debug)]
struct SqlitePragmas {
    busy_timeout_ms: u32,
}

impl CustomizeConnection<HeldConnection, diesel::r2d2::Error> for SqlitePragmas {
    fn on_acquire(&self, held: &mut HeldConnection) -> Result<(), diesel::r2d2::Error> {
        if let DbConnection::Sqlite(c) = &mut held.conn {
            c.batch_execute(&format!(
                "PRAGMA busy_timeout = {}; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
                self.busy_timeout_ms
            ))
            .map_err(diesel::r2d2::Error::QueryError)?;
        }
        Ok(())
    }
}

/// Turns `sqlite://path` into the path diesel expects; other URLs pass unchanged.
fn diesel_url(url: &str) -> String {
    match url.strip_prefix("sqlite://") {
        Some(path) => path.to_string(),
        None => url.to_string(),
    }
}

/// Whether a URL names a PostgreSQL database.
pub fn is_postgres_url(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// Opens the pool, creating the SQLite file's directory when needed.
pub fn connect(settings: &DatabaseSettings) -> anyhow::Result<DbPool> {
    let url = diesel_url(&settings.url);
    if !is_postgres_url(&url)
        && let Some(dir) = std::path::Path::new(&url)
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir)?;
    }
    if !is_postgres_url(&url) {
        // WAL is a property of the file: switch once, before the pool opens its connections.
        let mut c = <diesel::SqliteConnection as Connection>::establish(&url)?;
        c.batch_execute(&format!(
            "PRAGMA busy_timeout = {}; PRAGMA journal_mode = WAL;",
            settings.sqlite_busy_timeout_ms
        ))?;
    }
    let manager = Manager(ConnectionManager::<DbConnection>::new(url));
    let pool = Pool::builder()
        .max_size(settings.pool_size.max(1))
        .connection_customizer(Box::new(SqlitePragmas {
            busy_timeout_ms: settings.sqlite_busy_timeout_ms,
        }))
        .build(manager)?;
    Ok(pool)
}

/// Applies the pending migrations of the connection's backend; returns how many ran.
pub fn migrate(conn: &mut DbConnection) -> anyhow::Result<usize> {
    let applied = match conn {
        DbConnection::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS),
        DbConnection::Pg(c) => c.run_pending_migrations(POSTGRES_MIGRATIONS),
    }
    .map_err(|e| anyhow::anyhow!("migration failed: {e}"))?;
    Ok(applied.len())
}

/// Asks the database for `SELECT 1`, waiting at most `wait` for a connection.
pub fn ping(pool: &DbPool, wait: std::time::Duration) -> anyhow::Result<()> {
    let mut conn = pool.get_timeout(wait)?;
    diesel::sql_query("SELECT 1").execute(&mut **conn)?;
    Ok(())
}

/// Runs the same diesel expression on whichever backend `conn` is, for the few queries the
/// multi-backend connection cannot express (such as `RETURNING`).
#[macro_export]
macro_rules! on_backend {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::db::DbConnection::Sqlite($c) => $body,
            $crate::db::DbConnection::Pg($c) => $body,
        }
    };
}

/// Marks `$statement`, a statement written out by hand whose SQL never varies, as one the
/// connection keeps prepared: its `QueryId` is the static key `$key`, a type of its own (two
/// statements under one key would share one prepared statement), and it runs through
/// `RunQueryDsl`. Diesel never keeps an `UPDATE` it builds (its `SET` list may vary); the
/// writes of every move are written out so (`game::statements`, `usecases::notify`).
#[macro_export]
macro_rules! kept_prepared {
    ($statement:ty, $vis:vis $key:ident) => {
        /// The key of a statement in the connection's cache of prepared statements.
        $vis struct $key;

        impl diesel::query_builder::QueryId for $statement {
            type QueryId = $key;
            const HAS_STATIC_QUERY_ID: bool = true;
        }

        impl<Conn> diesel::RunQueryDsl<Conn> for $statement {}
    };
}

/// Runs `f` in a transaction that writes. On SQLite the writers of this process first queue on
/// one mutex, so that they wait for each other by being woken, not in the busy handler, whose
/// sleeps grow to 100 ms and made the tail of concurrent moves (see docs/benchmarks.md); the
/// outermost transaction then begins as a writer (`BEGIN IMMEDIATE`): a deferred one that read
/// first would meet `database is locked` at its first write whenever another connection had
/// committed since its read began (its snapshot is stale, and the busy handler is not asked).
/// A transaction within one (a savepoint) does not queue again. PostgreSQL, with row locks and
/// several instances, needs none of this.
pub fn write_transaction<T, E>(
    conn: &mut DbConnection,
    f: impl FnOnce(&mut DbConnection) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    let _turn = match conn {
        DbConnection::Sqlite(_) => Some(SqliteWriterTurn::take()),
        DbConnection::Pg(_) => None,
    };
    let counting = MoveCounting::enter();
    let result = match conn {
        DbConnection::Sqlite(_) => immediate_transaction(conn, f),
        DbConnection::Pg(_) => conn.transaction(f),
    };
    counting.leave(result.is_ok());
    result
}

/// `f` in a SQLite transaction begun with `BEGIN IMMEDIATE` (the write lock taken at once,
/// waiting in the busy handler for a writer of another connection), committed when it returns
/// `Ok` and rolled back otherwise, as diesel's own `transaction` does; within a transaction
/// already open, a savepoint.
fn immediate_transaction<T, E>(
    conn: &mut DbConnection,
    f: impl FnOnce(&mut DbConnection) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    use diesel::connection::{AnsiTransactionManager, TransactionManager};
    if let DbConnection::Sqlite(c) = conn {
        match AnsiTransactionManager::begin_transaction_sql(c, "BEGIN IMMEDIATE") {
            Ok(()) => {}
            Err(DieselError::AlreadyInTransaction) => return conn.transaction(f),
            Err(e) => return Err(e.into()),
        }
    }
    match f(conn) {
        Ok(value) => {
            <DbConnection as Connection>::TransactionManager::commit_transaction(conn)?;
            Ok(value)
        }
        Err(refused) => {
            match <DbConnection as Connection>::TransactionManager::rollback_transaction(conn) {
                Ok(()) | Err(DieselError::BrokenTransactionManager) => Err(refused),
                Err(rollback) => Err(rollback.into()),
            }
        }
    }
}

/// One level of write transaction in the count of moves: the outermost level, when it leaves,
/// turns the moves written in it into committed ones, or forgets them on a rollback (also when
/// it unwinds).
struct MoveCounting {
    outermost: bool,
    committed: bool,
}

impl MoveCounting {
    fn enter() -> MoveCounting {
        let depth = MOVES.with(|m| m.depth.replace(m.depth.get() + 1));
        MoveCounting {
            outermost: depth == 0,
            committed: false,
        }
    }

    fn leave(mut self, committed: bool) {
        self.committed = committed;
    }
}

impl Drop for MoveCounting {
    fn drop(&mut self) {
        MOVES.with(|m| {
            m.depth.set(m.depth.get().saturating_sub(1));
            if self.outermost {
                let stored = m.pending.take();
                if self.committed {
                    m.committed.set(m.committed.get() + stored);
                }
            }
        });
    }
}

/// Moves stored on this thread: in the write transaction under way, and committed since the
/// last [`take_committed_moves`]. The application's metrics count only what was committed.
struct MoveCount {
    depth: std::cell::Cell<usize>,
    pending: std::cell::Cell<u64>,
    committed: std::cell::Cell<u64>,
}

thread_local! {
    static MOVES: MoveCount = const {
        MoveCount {
            depth: std::cell::Cell::new(0),
            pending: std::cell::Cell::new(0),
            committed: std::cell::Cell::new(0),
        }
    };
}

/// Notes one move row written in the write transaction under way on this thread.
pub fn note_move_stored() {
    MOVES.with(|m| m.pending.set(m.pending.get() + 1));
}

/// Notes one move row written and committed by a statement that is its own transaction,
/// outside any [`write_transaction`].
pub fn note_move_committed() {
    MOVES.with(|m| m.committed.set(m.committed.get() + 1));
}

/// Whether this thread is inside a [`write_transaction`]: what it reads there is not committed
/// yet and may still roll back.
pub fn in_write_transaction() -> bool {
    MOVES.with(|m| m.depth.get() > 0)
}

/// The moves committed on this thread since the last call (and forgets them).
pub fn take_committed_moves() -> u64 {
    MOVES.with(|m| m.committed.take())
}

/// Runs `f` with a connection from `pool` on the calling (blocking) thread and returns the
/// moves it committed beside its value: the one body of `web::AppState::db` and
/// `worker::WorkerState::db`.
pub fn with_pooled_connection<T>(
    pool: &DbPool,
    f: impl FnOnce(&mut DbConnection) -> T,
) -> Result<(T, u64), diesel::r2d2::PoolError> {
    let mut conn = pool.get()?;
    take_committed_moves();
    let value = f(&mut conn);
    Ok((value, take_committed_moves()))
}

/// Runs `f`, which only reads, on one consistent view of the database: every query sees the
/// same committed state, however many writers commit meanwhile (a game's row, boards and moves
/// read in separate queries agree). PostgreSQL: a read-only transaction at repeatable read;
/// SQLite: a deferred transaction, whose first read fixes the snapshot (WAL). Call it outside
/// any transaction.
pub fn read_snapshot<T, E>(
    conn: &mut DbConnection,
    f: impl FnOnce(&mut DbConnection) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    use diesel::connection::{AnsiTransactionManager, TransactionManager};
    let DbConnection::Pg(pg) = conn else {
        return conn.transaction(f);
    };
    // One statement opens it (diesel's own transaction would send a second to set the level).
    AnsiTransactionManager::begin_transaction_sql(
        pg,
        "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY",
    )?;
    let result = f(conn);
    let DbConnection::Pg(pg) = conn else {
        unreachable!("the connection is the one the snapshot began on");
    };
    match result {
        Ok(value) => {
            AnsiTransactionManager::commit_transaction(pg)?;
            Ok(value)
        }
        Err(e) => {
            AnsiTransactionManager::rollback_transaction(pg)?;
            Err(e)
        }
    }
}

/// Runs `f`, which only reads, as [`read_snapshot`] does, with PostgreSQL planning each of its
/// statements for the values bound to it (`plan_cache_mode = force_custom_plan`, for this
/// transaction alone). For the queries whose best plan depends on those values: a search by a
/// position most games passed through or by one that few did, a player with thousands of
/// games or with eighty, the digest scan's readers. A prepared statement run again is
/// otherwise planned, from its sixth run on, for any values, and for these that plan read
/// several times as much (docs/benchmarks.md, "Data at scale"). The hot paths (a page view,
/// a move) keep their generic plans: their statements find rows by key, and planning each
/// run would only cost time.
pub fn read_planned_for_values<T, E>(
    conn: &mut DbConnection,
    f: impl FnOnce(&mut DbConnection) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    read_snapshot(conn, |conn| {
        if let DbConnection::Pg(pg) = conn {
            diesel::sql_query("SET LOCAL plan_cache_mode = force_custom_plan").execute(pg)?;
        }
        f(conn)
    })
}

/// The SQLite writers' queue of this process (one for every database file: writers of two
/// files, as in the tests, merely wait for each other a little).
static SQLITE_WRITERS: std::sync::Mutex<()> = std::sync::Mutex::new(());

thread_local! {
    /// How deep this thread is in write transactions (the mutex is taken at depth 0 only).
    static WRITE_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// This thread's turn to write on SQLite, for as long as it is held.
struct SqliteWriterTurn {
    _guard: Option<std::sync::MutexGuard<'static, ()>>,
}

impl SqliteWriterTurn {
    fn take() -> SqliteWriterTurn {
        let depth = WRITE_DEPTH.with(|d| {
            let depth = d.get();
            d.set(depth + 1);
            depth
        });
        // A writer that panicked leaves nothing half-written behind (its transaction rolled
        // back), so a poisoned queue is still a queue.
        let guard = (depth == 0).then(|| SQLITE_WRITERS.lock().unwrap_or_else(|e| e.into_inner()));
        SqliteWriterTurn { _guard: guard }
    }
}

impl Drop for SqliteWriterTurn {
    fn drop(&mut self) {
        WRITE_DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// Takes the write lock on one game for the rest of the transaction: on PostgreSQL a row
/// lock, on SQLite the database write lock. Returns false when the game does not exist.
/// Every use case that changes a game calls this (or, for a move judged before the lock,
/// `game::store::claim_game_for_move`) first, so changes to one game are serial; both count
/// the change in the game's `revision`.
pub fn lock_game(conn: &mut DbConnection, game_id: i64) -> QueryResult<bool> {
    use crate::schema::games::dsl::*;
    let touched = diesel::update(games.filter(id.eq(game_id)))
        .set(revision.eq(revision + 1))
        .execute(conn)?;
    Ok(touched == 1)
}
