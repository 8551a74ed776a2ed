//! The game database page `/search` (a GET form, shareable URLs, paged) and its PGN download.

use actix_session::Session;
use actix_web::http::StatusCode;
use actix_web::http::header::{
    Charset, ContentDisposition, DispositionParam, DispositionType, ExtendedValue,
};
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use std::collections::HashMap;

use slowfuse_rules::{Color, GameKind};

use crate::usecases::boards::{BoardSnapshot, board_snapshots};
use crate::usecases::preferences::{Preferences, preferences_of};
use crate::usecases::search::{
    FoundGame, Search, SearchError, SearchParams, SearchResults, Sort, search_games,
};
use crate::web::errors::{WebError, refusal};
use crate::web::mini_board::{BoardLook, MiniBoard, mini_board, variant_words};
use crate::web::respond::render;
use crate::web::time_words::time_left_text;
use crate::web::{AppState, Layout, session};

/// One option of the variant list.
pub struct VariantChoice {
    pub value: &'static str,
    pub label: &'static str,
}

/// One game in the results table.
pub struct FoundLine {
    pub id: i64,
    pub white: String,
    pub black: String,
    pub variant: String,
    pub rated: bool,
    /// "running", "aborted" or the result with how the game ended.
    pub state: String,
    pub started: String,
    pub finished: String,
    pub time_left: String,
    pub tags: Vec<String>,
    /// The position now (the final one of a finished game), from White's side.
    pub board: Option<MiniBoard>,
}

/// The results part of the page.
pub struct ResultsView {
    pub total: i64,
    pub page: u32,
    pub pages: u32,
    pub first: i64,
    pub last: i64,
    pub lines: Vec<FoundLine>,
    pub previous_url: Option<String>,
    pub next_url: Option<String>,
    pub pgn_url: String,
    pub unknown_players: Vec<String>,
    pub time_left_sort: bool,
}

#[derive(Template)]
#[template(path = "search.html")]
struct SearchPage {
    layout: Layout,
    params: SearchParams,
    logged_in: bool,
    error: Option<String>,
    variants: Vec<VariantChoice>,
    results: Option<ResultsView>,
}

/// Reads and checks the query string; a query that cannot be read keeps no fields.
fn parse(req: &HttpRequest, logged_in: bool) -> (SearchParams, Result<Search, SearchError>) {
    match SearchParams::from_query(req.query_string()) {
        Ok(params) => {
            let checked = params.check(logged_in);
            (params, checked)
        }
        Err(e) => (SearchParams::default(), Err(e)),
    }
}

fn line(
    found: FoundGame,
    now: chrono::NaiveDateTime,
    boards: &HashMap<i64, BoardSnapshot>,
    look: &BoardLook,
) -> FoundLine {
    let g = found.game;
    let day = |t: Option<chrono::NaiveDateTime>| {
        t.map(|t| t.format("%Y-%m-%d").to_string())
            .unwrap_or_default()
    };
    let state = match g.status.as_str() {
        "started" => "running".to_string(),
        "aborted" => "aborted".to_string(),
        _ => match g.termination.as_deref() {
            Some(t) => match t.parse::<slowfuse_rules::EndReason>() {
                Ok(reason) => format!(
                    "{} ({})",
                    g.result,
                    reason.describe_in(&g.variant).to_lowercase()
                ),
                Err(_) => format!("{} ({})", g.result, t.replace('_', " ")),
            },
            None => g.result.clone(),
        },
    };
    let variant = variant_words(&g.variant);
    let board = boards.get(&g.id).map(|snapshot| {
        let label = format!(
            "{} vs {}, {variant}, {}",
            found.white_name,
            found.black_name,
            if g.status == "started" {
                "the position now".to_string()
            } else {
                format!("{state}, the final position")
            }
        );
        mini_board(g.id, snapshot, Color::White, label, look)
    });
    FoundLine {
        id: g.id,
        white: found.white_name,
        black: found.black_name,
        variant,
        board,
        rated: g.rated,
        time_left: if g.status == "started" {
            time_left_text(g.deadline_at, now)
        } else {
            String::new()
        },
        started: day(Some(g.created_at)),
        finished: day(g.finished_at),
        state,
        tags: found.tags,
    }
}

fn results_view(
    params: &SearchParams,
    found: SearchResults,
    sort: Sort,
    now: chrono::NaiveDateTime,
    boards: &HashMap<i64, BoardSnapshot>,
    look: &BoardLook,
) -> ResultsView {
    let pages = found.pages();
    let first = i64::from(found.page - 1) * i64::from(found.per_page) + 1;
    let shown = found.games.len() as i64;
    ResultsView {
        total: found.total,
        page: found.page,
        pages,
        first,
        last: first + shown - 1,
        previous_url: (found.page > 1)
            .then(|| format!("/search?{}", params.to_query(Some(found.page - 1)))),
        next_url: found
            .has_next()
            .then(|| format!("/search?{}", params.to_query(Some(found.page + 1)))),
        pgn_url: format!("/search.pgn?{}", params.to_query(None)),
        unknown_players: found.unknown_players,
        time_left_sort: sort == Sort::TimeLeft,
        lines: found
            .games
            .into_iter()
            .map(|g| line(g, now, boards, look))
            .collect(),
    }
}

fn page(
    session: &Session,
    params: SearchParams,
    error: Option<String>,
    results: Option<ResultsView>,
) -> SearchPage {
    SearchPage {
        layout: Layout::from_session(session),
        logged_in: session::current_user_id(session).is_some(),
        params,
        error,
        variants: GameKind::all()
            .map(|kind| VariantChoice {
                value: kind.as_str(),
                label: kind.display_name(),
            })
            .collect(),
        results,
    }
}

/// The page again with the reason a search was refused.
fn refused(
    session: &Session,
    params: SearchParams,
    e: SearchError,
) -> Result<HttpResponse, WebError> {
    let refused = refusal(e)?;
    render(
        refused.status,
        &page(session, params, Some(refused.message), None),
    )
}

/// `GET /search`: the form and one page of the games it finds.
pub async fn search_page(
    state: web::Data<AppState>,
    session: Session,
    req: HttpRequest,
) -> Result<HttpResponse, WebError> {
    let viewer = session::current_user_id(&session);
    let (params, checked) = parse(&req, viewer.is_some());
    let search = match checked {
        Ok(s) => s,
        Err(e) => return refused(&session, params, e),
    };
    let sort = search.sort;
    let (found, boards, prefs) = state
        .db(move |c| -> Result<_, WebError> {
            let found = search_games(c, viewer, &search)?;
            let ids: Vec<i64> = found.games.iter().map(|g| g.game.id).collect();
            let prefs = match viewer {
                Some(me) => preferences_of(c, me)?,
                None => Preferences::default(),
            };
            Ok((found, board_snapshots(c, &ids)?, prefs))
        })
        .await??;
    let look = BoardLook::of(&prefs);
    let view = results_view(&params, found, sort, state.now(), &boards, &look);
    render(StatusCode::OK, &page(&session, params, None, Some(view)))
}

/// `GET /search.pgn`: every game the same search finds, streamed (see `export::bulk`).
pub async fn search_pgn(
    state: web::Data<AppState>,
    session: Session,
    req: HttpRequest,
) -> Result<HttpResponse, WebError> {
    let viewer = session::current_user_id(&session);
    let (params, checked) = parse(&req, viewer.is_some());
    match checked {
        Ok(search) => Ok(pgn_download(&state, viewer, search, "slowfuse-search.pgn")),
        Err(e) => refused(&session, params, e),
    }
}

/// `GET /users/{name}/games.pgn`: every game of one player, narrowed by the search's other
/// fields (`player` is the name in the path), streamed. 404 for a name that is no player's.
pub async fn user_games_pgn(
    state: web::Data<AppState>,
    session: Session,
    req: HttpRequest,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let viewer = session::current_user_id(&session);
    let name = path.into_inner();
    let (mut params, checked) = parse(&req, viewer.is_some());
    checked.map_err(|e| WebError::BadRequest(e.to_string()))?;
    params.player = name.clone();
    params.opponent = params.opponent.trim().to_string();
    let search = params
        .check(viewer.is_some())
        .map_err(|_| WebError::NotFound)?;
    let key = search.player.clone().unwrap_or_default();
    let known = state
        .db(move |c| crate::usecases::search::is_player(c, &key))
        .await??;
    if !known {
        return Err(WebError::NotFound);
    }
    let file = format!(
        "slowfuse-{}.pgn",
        search.player.as_deref().unwrap_or("games")
    );
    Ok(pgn_download(&state, viewer, search, &file))
}

/// A streamed PGN download of what `search` finds: headers at once, then the games batch by
/// batch as they are written; a reader who goes away stops the work.
fn pgn_download(state: &AppState, viewer: Option<i64>, search: Search, file: &str) -> HttpResponse {
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<web::Bytes, std::io::Error>>(4);
    let pool = state.pool.clone();
    let public_url = state.settings.server.public_url.clone();
    let request = crate::logging::current_request();
    actix_web::rt::task::spawn_blocking(move || {
        crate::logging::with_request(request, || {
            let sent = crate::export::bulk::stream_search_pgn(
                &pool,
                viewer,
                &search,
                &public_url,
                |text, _games| tx.blocking_send(Ok(web::Bytes::from(text))).is_ok(),
            );
            if let Err(e) = sent {
                log::error!("a PGN download broke off: {e}");
                // The answer has begun: breaking the connection tells the reader it is
                // incomplete.
                let _ = tx.blocking_send(Err(std::io::Error::other(e.to_string())));
            }
        })
    });
    let body = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|chunk| (chunk, rx))
    });
    HttpResponse::Ok()
        .content_type("application/x-chess-pgn; charset=utf-8")
        .insert_header(attachment(file))
        .streaming(body)
}

/// `Content-Disposition: attachment` for a file named `file`: a name in any script (a
/// player's) goes in `filename*` (UTF-8, percent-encoded), with an ASCII one beside it for
/// older readers.
fn attachment(file: &str) -> ContentDisposition {
    let mut parameters = vec![DispositionParam::Filename(
        file.chars()
            .map(|c| if c.is_ascii_graphic() { c } else { '_' })
            .collect(),
    )];
    if !file.is_ascii() {
        parameters.push(DispositionParam::FilenameExt(ExtendedValue {
            charset: Charset::Ext("UTF-8".into()),
            language_tag: None,
            value: file.as_bytes().to_vec(),
        }));
    }
    ContentDisposition {
        disposition: DispositionType::Attachment,
        parameters,
    }
}
