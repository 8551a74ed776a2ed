//! Building the application: pool, migrations and the catch-up work after them (the opening
//! book, username skeletons), session key, HTTP server. Used by `main` and tests.

use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;

use actix_session::SessionMiddleware;
use actix_session::config::{CookieContentSecurity, PersistentSession};
use actix_session::storage::CookieSessionStore;
use actix_web::body::MessageBody;
use actix_web::cookie::{Key, SameSite};
use actix_web::dev::{Server, ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::from_fn;
use actix_web::{App, HttpServer, web};

use crate::clock::Clock;
use crate::config::Settings;
use crate::db;
use crate::random::Random;
use crate::web::{AppState, routes};

/// A configured server, bound to its port, ready to run.
pub struct Application {
    port: u16,
    server: Server,
    pub state: AppState,
    /// The background loops (worker, computer, analysis), awaited when the server stops.
    loops: Vec<actix_web::rt::task::JoinHandle<()>>,
}

/// The longest a stopping instance waits for its background loops to finish what they hold.
const LOOPS_GRACE: std::time::Duration = std::time::Duration::from_secs(60);

impl Application {
    /// Connects to the database, applies migrations, binds the listener. The clock and the
    /// source of chance are injected: the system's in production, controlled ones in tests.
    pub fn build(
        settings: Settings,
        clock: Arc<dyn Clock>,
        random: Arc<dyn Random>,
    ) -> anyhow::Result<Application> {
        let bind = settings.server.bind.clone();
        let (state, key) = prepare(settings, clock, random)?;
        let listener = TcpListener::bind(&bind)?;
        let port = listener.local_addr()?.port();
        let server = run(listener, state.clone(), key)?;
        let mut loops = Vec::new();
        if state.settings.worker.enabled {
            loops.push(actix_web::rt::spawn(crate::worker::run_worker(
                state.worker(),
            )));
            loops.push(actix_web::rt::spawn(crate::worker::run_computer(
                state.worker(),
            )));
            loops.push(actix_web::rt::spawn(crate::analysis_worker::run_analysis(
                state.worker(),
            )));
        }
        Ok(Application {
            port,
            server,
            state,
            loops,
        })
    }

    /// The port actually bound (useful with port 0).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A handle that stops the server from outside (the tests stop each app they started).
    pub fn server_handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
    }

    /// Serves until stopped. On SIGTERM the server stops taking connections and finishes the
    /// requests it has (actix-web's graceful stop); then the background loops are told to stop,
    /// and each finishes what it holds before this returns.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let served = self.server.await;
        self.state.shutdown.begin();
        let loops = futures_util::future::join_all(self.loops);
        if actix_web::rt::time::timeout(LOOPS_GRACE, loops)
            .await
            .is_err()
        {
            log::warn!("the background work did not stop within {LOOPS_GRACE:?}");
        }
        served
    }
}

/// The application's state and its cookie key, without a listener or background work: connects
/// to the database, applies migrations, checks the mail settings. [`Application::build`] serves
/// it; the fuzz targets (`fuzz/`) call [`app`] on it in process.
pub fn prepare(
    settings: Settings,
    clock: Arc<dyn Clock>,
    random: Arc<dyn Random>,
) -> anyhow::Result<(AppState, Key)> {
    let pool = db::connect(&settings.database)?;
    let applied = db::migrate(&mut *pool.get()?)?;
    if applied > 0 {
        log::info!("applied {applied} database migrations");
    }
    // Games finished before the opening book existed join it now (nothing to do later on).
    let indexed = crate::usecases::book::index_missing_games(&mut *pool.get()?)?;
    if indexed > 0 {
        log::info!("added {indexed} finished games to the opening book");
    }
    // Accounts made before username skeletons get theirs (SQL cannot compute them).
    let skeletons = crate::usecases::accounts::fill_username_skeletons(&mut *pool.get()?)?;
    if skeletons.filled > 0 {
        log::info!(
            "computed the username skeleton of {} accounts",
            skeletons.filled
        );
    }
    if skeletons.look_alikes > 0 {
        log::info!(
            "{} accounts made before usernames were compared by skeleton read like an older one; \
             they keep their names",
            skeletons.look_alikes
        );
    }
    let key = session_key(&settings)?;
    // Mail settings that cannot work stop the start, rather than every mail later.
    crate::mail::Mailer::from_settings(
        &settings.mail,
        &settings.server.data_dir,
        &crate::mail::messages::url_host(&settings.server.public_url),
    )?;
    let auth = &settings.auth;
    let passwords = crate::passwords::PasswordGate::new(
        auth.password_hashes_at_once,
        auth.password_queue,
        std::time::Duration::from_secs(auth.password_wait_seconds),
    );
    let db_turns = tokio::sync::Semaphore::new(settings.database.pool_size.max(1) as usize);
    let state = AppState {
        shared: crate::worker::WorkerState {
            pool,
            db_turns: Arc::new(db_turns),
            settings: Arc::new(settings),
            clock,
            random,
            signer: crate::mail::Signer::from_secret(key.master()),
            records: Arc::default(),
            computer_wakeup: Arc::default(),
            analysis_wakeup: Arc::default(),
            shutdown: Arc::default(),
            metrics: Arc::default(),
        },
        passwords,
    };
    crate::metrics::process_start_seconds();
    state.metrics.worker.start(state.now());
    Ok((state, key))
}

/// The cookie key: from the configured secret, else one made once and kept in the data dir.
fn session_key(settings: &Settings) -> anyhow::Result<Key> {
    let secret = settings.server.secret_key.trim();
    if !secret.is_empty() {
        anyhow::ensure!(
            secret.len() >= 32,
            "server.secret_key must be at least 32 characters long"
        );
        use sha2::{Digest, Sha512};
        return Ok(Key::from(&Sha512::digest(secret.as_bytes())));
    }
    let path = settings.server.data_dir.join("session.key");
    read_or_create_key(&path)
}

fn read_or_create_key(path: &Path) -> anyhow::Result<Key> {
    if let Ok(bytes) = std::fs::read(path)
        && bytes.len() >= 64
    {
        return Ok(Key::from(&bytes[..64]));
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let key = Key::generate();
    std::fs::write(path, key.master())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(key)
}

/// The application one worker thread serves: the middleware (outermost last) around every
/// route, over `data`.
pub fn app(
    data: web::Data<AppState>,
    key: Key,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let secure = data.settings.server.public_url.starts_with("https://");
    let days = data.settings.auth.session_days;
    App::new()
        // Inside the session middleware (the last `wrap` is the outermost).
        .wrap(from_fn(crate::web::session_guard::end_stale_sessions))
        .wrap(
            SessionMiddleware::builder(CookieSessionStore::default(), key)
                .cookie_name("slowfuse".into())
                .cookie_secure(secure)
                .cookie_http_only(true)
                .cookie_same_site(SameSite::Lax)
                .cookie_content_security(CookieContentSecurity::Private)
                .session_lifecycle(
                    PersistentSession::default()
                        .session_ttl(actix_web::cookie::time::Duration::days(days)),
                )
                .build(),
        )
        .wrap(from_fn(crate::web::limits::refuse_oversized))
        .wrap(crate::web::headers::security_headers())
        .wrap(from_fn(crate::web::observe::observe))
        .app_data(data)
        .configure(routes)
}

fn run(listener: TcpListener, state: AppState, key: Key) -> anyhow::Result<Server> {
    let workers = state.settings.server.workers;
    let data = web::Data::new(state);
    let mut server = HttpServer::new(move || app(data.clone(), key.clone())).listen(listener)?;
    if workers > 0 {
        server = server.workers(workers);
    }
    Ok(server.run())
}
