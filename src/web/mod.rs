//! The web layer: shared state, routes, and helpers every handler uses.

pub mod api;
pub mod assets;
pub mod board;
pub mod errors;
pub mod eval_graph;
pub mod export;
pub mod forms;
pub mod game_page;
pub mod headers;
pub mod limits;
pub mod match_page;
pub mod material;
pub mod mini_board;
pub mod observe;
pub mod ops;
pub mod pages;
pub mod plies;
pub mod respond;
pub mod route_table;
pub mod session;
pub mod session_guard;
pub mod sign_in;
pub mod time_words;
pub mod variant_info;

use std::sync::Arc;

use actix_session::Session;
use actix_web::web;

use crate::db::DbConnection;
use errors::WebError;
use session::Flash;

/// What every handler can reach: the parts it shares with the background loops (a
/// [`crate::worker::WorkerState`], whose fields read through `Deref`: `state.pool`,
/// `state.settings`, `state.records`, …) and the password gate, which only sign-ins use.
#[derive(Clone)]
pub struct AppState {
    pub shared: crate::worker::WorkerState,
    /// Makes and checks password hashes, a few at a time (see `passwords`).
    pub passwords: Arc<crate::passwords::PasswordGate>,
}

impl std::ops::Deref for AppState {
    type Target = crate::worker::WorkerState;

    fn deref(&self) -> &crate::worker::WorkerState {
        &self.shared
    }
}

impl AppState {
    /// Runs blocking database work on the thread pool with a pooled connection, in turn (see
    /// `db_turns`). The outer error is the infrastructure's (pool, thread); `f` returns its
    /// own result inside. Its log lines carry the request's id, and the moves it commits are
    /// counted.
    pub async fn db<T, F>(&self, f: F) -> Result<T, WebError>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConnection) -> T + Send + 'static,
    {
        let _turn = self.db_turns.acquire().await.map_err(WebError::internal)?;
        let pool = self.pool.clone();
        let metrics = self.metrics.clone();
        let request = crate::logging::current_request();
        web::block(move || {
            crate::logging::with_request(request, || {
                let (value, moves) =
                    crate::db::with_pooled_connection(&pool, f).map_err(WebError::internal)?;
                metrics.count_moves(moves);
                Ok(value)
            })
        })
        .await
        .map_err(WebError::internal)?
    }

    /// Asks this instance's computer opponent to look for its turns now, rather than at its
    /// next periodic pass.
    pub fn wake_computer(&self) {
        self.computer_wakeup.notify_one();
    }

    /// Asks this instance's analysis worker to look for waiting analyses now.
    pub fn wake_analysis(&self) {
        self.analysis_wakeup.notify_one();
    }

    /// The parts of this state the background loops use (see `worker`): the same pool, turns,
    /// cache, wake-ups and metrics.
    pub fn worker(&self) -> crate::worker::WorkerState {
        self.shared.clone()
    }
}

/// What the page layout shows around every page: who is logged in, the form token, messages.
#[derive(Clone, Debug)]
pub struct Layout {
    pub user: Option<String>,
    pub csrf: String,
    pub flashes: Vec<Flash>,
}

impl Layout {
    /// Reads the layout's needs from the session (and takes the flash messages).
    pub fn from_session(session: &Session) -> Layout {
        let user = session::current_username(session);
        // Visitors get no session (and no cookie) until a page with a form asks for one:
        // public pages stay cookie-free and cacheable.
        let csrf = if user.is_some() {
            session::csrf_token(session)
        } else {
            session::existing_csrf_token(session).unwrap_or_default()
        };
        Layout {
            user,
            csrf,
            flashes: session::take_flashes(session),
        }
    }
}

/// Registers every route. An address or form the pages cannot read gets the site's own error
/// page (the API's scope answers such requests in JSON instead); every body has its limit
/// (`limits`).
pub fn routes(cfg: &mut web::ServiceConfig) {
    register(cfg);
}

/// Every route the server answers, in the order they are matched: method, pattern and who may
/// use it (see `route_table`).
pub fn route_table() -> Vec<route_table::Route> {
    let mut listed = Vec::new();
    let _ = actix_web::App::new().configure(|cfg| listed = register(cfg));
    listed
}

fn register(cfg: &mut web::ServiceConfig) -> Vec<route_table::Route> {
    cfg.app_data(
        web::QueryConfig::default().error_handler(|err, _| {
            errors::WebError::BadRequest(errors::query_refusal(&err)).into()
        }),
    )
    .app_data(web::PathConfig::default().error_handler(|_, _| errors::WebError::NotFound.into()))
    .app_data(limits::form_config())
    .app_data(limits::json_config())
    .app_data(limits::payload_config())
    .default_service(web::to(|| async {
        Err::<actix_web::HttpResponse, _>(errors::WebError::NotFound)
    }));
    let mut listed = Vec::new();
    route_table::Routes::new(cfg, &mut listed)
        .configure(ops::routes)
        .configure(assets::routes)
        .configure(api::routes)
        .configure(export::routes)
        .configure(plies::routes)
        .configure(pages::routes);
    listed
}
