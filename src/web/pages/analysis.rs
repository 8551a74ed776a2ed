//! The game page's Analysis Board, as its script reads and saves it: `GET` and
//! `PUT /games/{id}/analysis.json` for the logged-in user's own tree (session and CSRF token,
//! JSON answers). The tree comes with every node's move and position, and the game's own moves
//! to follow from the start; the page itself never carries it.

use actix_session::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};
use slowfuse_rules::MoveTree;

use crate::game::read_game_cached;
use crate::usecases::analysis::{self, Analysis};
use crate::web::api::analysis::{AnalysisBody, private_json};
use crate::web::errors::ApiError;
use crate::web::{AppState, session};

/// The header that carries the page's CSRF token.
const CSRF_HEADER: &str = "x-csrf-token";

fn signed_in(session: &Session) -> Result<i64, ApiError> {
    session::current_user_id(session).ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "log in to keep your own analysis of this game",
        )
    })
}

fn nodes_json(tree: &MoveTree) -> Vec<Value> {
    tree.nodes()
        .iter()
        .map(|n| {
            json!({
                "parent": n.parent,
                "uci": n.uci,
                "san": n.san,
                "fen": n.fen,
                "comment": n.comment,
                "nags": n.nags,
                "children": n.children,
            })
        })
        .collect()
}

/// `GET /games/{id}/analysis.json`: `{"pgn","variant","nodes":[…],"game":[{"uci","san","fen"}]}`.
pub async fn show(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let me = signed_in(&session)?;
    let id = path.into_inner();
    let records = state.records.clone();
    let (analysis, record) = state
        .db(move |c| -> Result<_, ApiError> {
            let analysis = analysis::my_analysis(c, id, me)?;
            let record = read_game_cached(c, &records, id)?
                .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such game"))?;
            Ok((analysis, record))
        })
        .await??;
    let game = record
        .chess_game()
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let moves: Vec<Value> = game
        .moves()
        .iter()
        .zip(1u32..)
        .map(|(m, ply)| json!({ "uci": m.uci, "san": m.san, "fen": game.fen_at(ply) }))
        .collect();
    let Analysis { tree, pgn } = analysis;
    Ok(private_json(json!({
        "pgn": pgn,
        "variant": record.game.variant,
        "nodes": nodes_json(&tree),
        "game": moves,
    })))
}

/// `PUT /games/{id}/analysis.json` `{"pgn"}` with the page's token in `X-CSRF-Token`: saves the
/// tree as the API's `PUT` does; answers `{"pgn"}` as stored.
pub async fn save(
    state: web::Data<AppState>,
    session: Session,
    request: HttpRequest,
    path: web::Path<i64>,
    body: web::Json<AnalysisBody>,
) -> Result<HttpResponse, ApiError> {
    let me = signed_in(&session)?;
    let token = request
        .headers()
        .get(CSRF_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !session::csrf_ok(&session, token) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "this page has expired: reload it to go on saving your analysis",
        ));
    }
    let id = path.into_inner();
    let now = state.now();
    let pgn = body.into_inner().pgn;
    let analysis = state
        .db(move |c| analysis::save_analysis(c, now, id, me, &pgn))
        .await??;
    Ok(private_json(json!({ "pgn": analysis.pgn })))
}
