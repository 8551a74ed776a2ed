//! The positions of a game ply by ply, for the game page's navigation without reloading:
//! `GET /games/{id}/plies.json`. The page fetches it once, when the player first moves through
//! the game, so a long game's page stays as small as a short one's. A minesweeper game's plies
//! are its reader's: the public positions and blasts, and only that reader's own bombs and
//! counts (`game_page::MineKnowledge`, as the page draws them).

use crate::web::route_table::{Access, Routes};
use actix_session::Session;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};
use slowfuse_rules::minesweeper::MinesweeperGame;
use slowfuse_rules::{Color, Game, GameKind};

use crate::game::{load_game_cached, read_game_cached};
use crate::usecases::minesweeper::secret_game;
use crate::web::board::pocket_letters;
use crate::web::errors::WebError;
use crate::web::game_page::{MineKnowledge, sight_names};
use crate::web::material::material_line;
use crate::web::{AppState, session};

/// Registers the route (before the game page, whose pattern is wider).
pub fn routes(r: &mut Routes) {
    r.get("/games/{id}/plies.json", Access::Public, game_plies);
}

/// `a1` for square index 0, `h8` for 63.
fn square_name(index: u8) -> String {
    format!("{}{}", char::from(b'a' + index % 8), index / 8 + 1)
}

/// The pieces of a full FEN (its first field, without pockets `[…]` or promotion marks `~`)
/// and the side to move.
fn placement(fen: &str) -> (String, &'static str) {
    let mut fields = fen.split(' ');
    let board = fields.next().unwrap_or_default();
    let board = board.split('[').next().unwrap_or_default();
    let turn = if fields.next() == Some("b") {
        "black"
    } else {
        "white"
    };
    (board.chars().filter(|&c| c != '~').collect(), turn)
}

/// Every position of `game` from the start to the last ply, each with what the board marks.
pub fn plies_json(game: &Game) -> Value {
    let plies: Vec<Value> = (0..=game.ply())
        .map(|ply| {
            let marks = game.marks_at(ply).unwrap_or_default();
            let san = ply
                .checked_sub(1)
                .and_then(|i| game.moves().get(i as usize))
                .map(|m| m.san.as_str());
            let fen = game.fen_at(ply).unwrap_or_default();
            let (board, turn) = placement(&fen);
            json!({
                "ply": ply,
                "fen": fen,
                "board": board,
                "turn": turn,
                "san": san,
                "last": marks.from_to.map(|(from, to)| [square_name(from), square_name(to)]),
                "check": marks.check.map(square_name),
                "exploded": marks.exploded.iter().map(|&s| square_name(s)).collect::<Vec<_>>(),
                "material": game.board_at(ply).map(|board| {
                    material_line(&board, game.pockets_at(ply).as_ref())
                }),
                "pockets": game.pockets_at(ply).map(|p| json!({
                    "white": pocket_letters(&p.white),
                    "black": pocket_letters(&p.black),
                })),
            })
        })
        .collect();
    json!({ "last_ply": game.ply(), "plies": plies })
}

/// Every position of a minesweeper game as `reader` (their colour; `None` for anyone else) may
/// know it: the public board and blasts of each ply, and under `mines` the reader's own bombs,
/// the spent ones and the counts told to the reader by then. Everything once the game is `over`.
pub fn mines_plies_json(game: &MinesweeperGame, reader: Option<Color>, over: bool) -> Value {
    let public = game.public_view();
    let known = MineKnowledge::of(game, reader, over);
    let last = u32::try_from(public.moves.len()).unwrap_or(0);
    let plies: Vec<Value> = (0..=last)
        .map(|ply| {
            let sight = known.at(ply);
            let (bombs, spent, counts) = sight_names(&sight);
            let fen = public.fens.get(ply as usize).cloned().unwrap_or_default();
            let (board, turn) = placement(&fen);
            let san = ply
                .checked_sub(1)
                .and_then(|i| public.moves.get(i as usize))
                .map(|m| m.san.as_str());
            json!({
                "ply": ply,
                "fen": fen,
                "board": board,
                "turn": turn,
                "san": san,
                "last": sight.last.map(|(from, to)| [square_name(from), square_name(to)]),
                "check": Value::Null,
                "exploded": sight.cleared.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "material": public.board_at(ply).map(|board| material_line(&board, None)),
                "pockets": Value::Null,
                "mines": {
                    "bombs": bombs,
                    "spent": spent,
                    "counts": counts.into_iter().map(|(s, n)| json!([s, n])).collect::<Vec<_>>(),
                },
            })
        })
        .collect();
    json!({ "last_ply": last, "plies": plies })
}

/// `GET /games/{id}/plies.json`: answered from the record cache; `304` while the game is
/// unchanged since the copy the browser holds (a minesweeper game's, for the same reader).
async fn game_plies(
    state: web::Data<AppState>,
    request: HttpRequest,
    session: Session,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let id: i64 = path.parse().map_err(|_| WebError::NotFound)?;
    let records = state.records.clone();
    let record = state
        .db(move |c| read_game_cached(c, &records, id))
        .await??
        .ok_or(WebError::NotFound)?;
    let reader = session::current_user_id(&session)
        .and_then(|me| record.seat_of(me))
        .map(|seat| seat.color);
    let whose = match (record.kind, reader) {
        // A match has two boards: its page draws from its own JSON, not from plies.
        (GameKind::Bughouse, _) => return Err(WebError::NotFound),
        (GameKind::Chess(_), _) => "",
        (GameKind::Minesweeper, Some(Color::White)) => "-white",
        (GameKind::Minesweeper, Some(Color::Black)) => "-black",
        (GameKind::Minesweeper, None) => "-public",
    };
    let etag = format!(
        "\"plies-{}-{}{whose}\"",
        record.game.id, record.game.revision
    );
    let unchanged = request
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    if unchanged {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, etag))
            .finish());
    }
    let body = if record.kind == GameKind::Minesweeper {
        // The positions come from the rules' game with its secret rows, read as of one moment
        // with the record; what leaves is only what this reader may know.
        let records = state.records.clone();
        let read = state
            .db(move |c| {
                crate::db::read_snapshot(c, |c| -> Result<_, WebError> {
                    let Some(record) = load_game_cached(c, &records, id)? else {
                        return Ok(None);
                    };
                    let game = secret_game(c, &record).map_err(WebError::internal)?;
                    Ok(Some((record, game)))
                })
            })
            .await??;
        let (record, game) = read.ok_or(WebError::NotFound)?;
        mines_plies_json(&game, reader, !record.status.is_running())
    } else {
        let game = record.chess_game()?;
        plies_json(&game)
    };
    let cache = if whose.is_empty() {
        "no-cache"
    } else {
        "private, no-cache"
    };
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag))
        .insert_header((header::CACHE_CONTROL, cache))
        .json(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_drops_pockets_and_promotion_marks() {
        assert_eq!(
            placement("rnbqkb1r/ppp2ppp/5n2/3Q~4/8/8/PPPP1PPP/RNB1KBNR[Pp] b KQkq - 0 4"),
            (
                "rnbqkb1r/ppp2ppp/5n2/3Q4/8/8/PPPP1PPP/RNB1KBNR".to_string(),
                "black"
            )
        );
        assert_eq!(square_name(0), "a1");
        assert_eq!(square_name(63), "h8");
    }

    #[test]
    fn every_ply_carries_its_marks() {
        let game = ["Nf3", "Nf6", "Ne5", "e6", "Nxf7"]
            .iter()
            .try_fold(Game::new(slowfuse_rules::Variant::Atomic), |g, m| g.play(m))
            .unwrap();
        let json = plies_json(&game);
        assert_eq!(json["last_ply"], 5);
        assert_eq!(json["plies"][0]["last"], Value::Null);
        assert_eq!(json["plies"][0]["turn"], "white");
        assert_eq!(json["plies"][1]["turn"], "black");
        assert_eq!(json["plies"][1]["san"], "Nf3");
        assert_eq!(json["plies"][5]["last"], json!(["e5", "f7"]));
        assert_eq!(
            json["plies"][5]["exploded"],
            json!(["f6", "f7", "e8", "f8"])
        );
        assert_eq!(
            json["plies"][5]["board"],
            "rnbq3r/pppp2pp/4p3/8/8/8/PPPPPPPP/RNBQKB1R"
        );
    }
}
