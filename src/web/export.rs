//! The export routes: `/games/{id}.pgn` (a bughouse match's is BPGN, also at
//! `/games/{id}.bpgn`), `/games/{id}.fen` and the pictures `/games/{id}.svg`, `.png` and the
//! animated `.gif`, served from `crate::export`.

use crate::web::route_table::{Access::Public, Routes};
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use slowfuse_rules::GameKind;

use crate::export::raster::{game_gif as draw_gif, position_png};
use crate::export::svg::{Picture, Style, boards_svg, is_piece_set, theme_colours};
use crate::export::{BoardAt, NoSuchPly, boards_at, captions, pgn_of, position_fen};
use crate::game::{GameRecord, RulesGame, read_game, rules_game};
use crate::web::AppState;
use crate::web::errors::WebError;

/// Registers the export routes (before the game page, whose pattern is wider).
pub fn routes(r: &mut Routes) {
    r.get("/games/{id}.pgn", Public, game_pgn)
        .get("/games/{id}.bpgn", Public, game_bpgn)
        .get("/games/{id}.svg", Public, game_svg)
        .get("/games/{id}.png", Public, game_png)
        .get("/games/{id}.gif", Public, game_gif)
        .get("/games/{id}.fen", Public, game_fen);
}

/// The game named in the path with its game as the rules see it, or 404. A minesweeper game's
/// secret rows are read here: the exports draw only what its public view holds.
async fn game_in_path(state: &AppState, raw: &str) -> Result<(GameRecord, RulesGame), WebError> {
    let id: i64 = raw.parse().map_err(|_| WebError::NotFound)?;
    state
        .db(move |c| -> Result<_, WebError> {
            let Some(record) = read_game(c, id)? else {
                return Ok(None);
            };
            let game = rules_game(c, &record).map_err(WebError::internal)?;
            Ok(Some((record, game)))
        })
        .await??
        .ok_or(WebError::NotFound)
}

async fn game_pgn(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let (record, game) = game_in_path(&state, &path).await?;
    let pgn = pgn_of(&record, &game, &state.settings.server.public_url);
    let extension = match game {
        RulesGame::Bughouse(_) => "bpgn",
        _ => "pgn",
    };
    Ok(HttpResponse::Ok()
        .content_type("application/x-chess-pgn; charset=utf-8")
        .insert_header((
            "Content-Disposition",
            format!(
                "inline; filename=\"slowfuse-{}.{extension}\"",
                record.game.id
            ),
        ))
        .body(pgn))
}

/// `/games/{id}.bpgn`: a bughouse match's BPGN (the same as its `.pgn`); 404 for a game of
/// one board.
async fn game_bpgn(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    match kind_of_game(&state, &path).await? {
        GameKind::Bughouse => game_pgn(state, path).await,
        GameKind::Chess(_) | GameKind::Minesweeper => Err(WebError::NotFound),
    }
}

/// The kind of the game named in the path, or 404.
async fn kind_of_game(state: &AppState, raw: &str) -> Result<GameKind, WebError> {
    let id: i64 = raw.parse().map_err(|_| WebError::NotFound)?;
    let record = state
        .db(move |c| read_game(c, id))
        .await??
        .ok_or(WebError::NotFound)?;
    Ok(record.kind)
}

/// A `ply` of the query: a number from 0, or `None` for now.
fn ply_of(raw: Option<&str>, record: &GameRecord) -> Result<Option<u32>, NoSuchPly> {
    match raw {
        None | Some("") => Ok(None),
        Some(raw) => raw.parse().map(Some).map_err(|_| NoSuchPly {
            last: record.game.ply,
        }),
    }
}

#[derive(Deserialize)]
struct FenQuery {
    ply: Option<String>,
}

async fn game_fen(
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<FenQuery>,
) -> Result<HttpResponse, WebError> {
    let (record, game) = game_in_path(&state, &path).await?;
    let ply = ply_of(query.ply.as_deref(), &record)?.map(|p| i32::try_from(p).unwrap_or(i32::MAX));
    let fen = position_fen(&record, &game, ply)?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body(format!("{fen}\n")))
}

#[derive(Deserialize)]
struct PictureQuery {
    ply: Option<String>,
    /// `1`: from the other side (in bughouse: each board from its other side).
    flip: Option<String>,
    /// `0`: no letters and digits along the edges.
    coords: Option<String>,
    /// `0`: the last move not highlighted.
    highlight: Option<String>,
    theme: Option<String>,
    pieces: Option<String>,
    /// The GIF's first and last ply and milliseconds a frame.
    from: Option<String>,
    to: Option<String>,
    delay: Option<String>,
}

/// How a picture is asked to look, checked.
struct Look {
    theme: &'static str,
    piece_set: &'static str,
    coords: bool,
    flipped: bool,
    highlight: bool,
}

impl Look {
    /// The query's look, or 400 for a theme or set that is none of ours.
    fn of(query: &PictureQuery) -> Result<Look, WebError> {
        use crate::usecases::preferences::{BOARD_THEMES, PIECE_SETS};
        let theme = query.theme.as_deref().unwrap_or("green");
        let theme = BOARD_THEMES
            .iter()
            .find(|t| **t == theme && theme_colours(t).is_some())
            .copied()
            .ok_or_else(|| {
                WebError::BadRequest(format!("unknown theme: use {}", BOARD_THEMES.join(", ")))
            })?;
        let set = query.pieces.as_deref().unwrap_or("classic");
        let piece_set = PIECE_SETS
            .iter()
            .find(|s| **s == set && is_piece_set(s))
            .copied()
            .ok_or_else(|| {
                WebError::BadRequest(format!("unknown piece set: use {}", PIECE_SETS.join(", ")))
            })?;
        Ok(Look {
            theme,
            piece_set,
            coords: query.coords.as_deref() != Some("0"),
            flipped: query.flip.as_deref() == Some("1"),
            highlight: query.highlight.as_deref() != Some("0"),
        })
    }

    fn style(&self) -> Style<'static> {
        Style {
            theme: self.theme,
            piece_set: self.piece_set,
            coords: self.coords,
        }
    }

    /// A board as this look shows it: flipped, the last move (and its explosion) marked or not.
    fn board(&self, mut board: BoardAt) -> BoardAt {
        if self.flipped {
            board.side = !board.side;
        }
        if !self.highlight {
            board.last_move = None;
            board.exploded.clear();
        }
        board
    }
}

/// What the still pictures draw: the options checked, the game in the path, and its boards
/// at `ply` (now when absent) as those options show them.
async fn pictured(
    state: &AppState,
    path: &str,
    query: &PictureQuery,
) -> Result<(Look, GameRecord, RulesGame, Vec<BoardAt>), WebError> {
    let look = Look::of(query)?;
    let (record, game) = game_in_path(state, path).await?;
    let ply = ply_of(query.ply.as_deref(), &record)?;
    let boards = boards_at(&record, &game, ply)?
        .into_iter()
        .map(|b| look.board(b))
        .collect();
    Ok((look, record, game, boards))
}

/// `GET /games/{id}.svg?ply=N`: the position as a picture (a bughouse match's two boards side
/// by side; a minesweeper game's visible board, never a bomb), in the page's themes and our
/// piece sets.
async fn game_svg(
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<PictureQuery>,
) -> Result<HttpResponse, WebError> {
    let (look, _, _, boards) = pictured(&state, &path, &query).await?;
    let boards: Vec<Picture> = boards
        .into_iter()
        .map(|b| Picture {
            pieces: b.pieces,
            last_move: b.last_move,
            exploded: b.exploded,
            side: b.side,
        })
        .collect();
    Ok(HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header(("Cache-Control", "no-cache"))
        .body(boards_svg(&boards, &look.style())))
}

/// `GET /games/{id}.png?ply=N`: the position as a PNG between the players and the result
/// (pockets in the bands), with the options of the SVG.
async fn game_png(
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<PictureQuery>,
) -> Result<HttpResponse, WebError> {
    let (look, record, game, boards) = pictured(&state, &path, &query).await?;
    let captions = captions(&record, &game);
    let png = web::block(move || position_png(&boards, &look.style(), &captions))
        .await
        .map_err(WebError::internal)?
        .map_err(WebError::internal)?;
    Ok(HttpResponse::Ok()
        .content_type("image/png")
        .insert_header(("Cache-Control", "no-cache"))
        .body(png))
}

/// Milliseconds a GIF frame is shown, unless asked otherwise; the range allowed.
const DELAY_MS: u32 = 1000;
const DELAYS_MS: std::ops::RangeInclusive<u32> = 100..=10_000;

/// `GET /games/{id}.gif?from=A&to=B&delay=MS`: the game as an animated GIF, one frame for the
/// start and one after each ply (or plies `from` to `to`), with the options of the SVG.
async fn game_gif(
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<PictureQuery>,
) -> Result<HttpResponse, WebError> {
    let look = Look::of(&query)?;
    let delay = match query.delay.as_deref() {
        None | Some("") => DELAY_MS,
        Some(raw) => raw
            .parse()
            .ok()
            .filter(|d| DELAYS_MS.contains(d))
            .ok_or_else(|| {
                WebError::BadRequest(format!(
                    "delay must be a number of milliseconds from {} to {}",
                    DELAYS_MS.start(),
                    DELAYS_MS.end()
                ))
            })?,
    };
    let (record, game) = game_in_path(&state, &path).await?;
    let last = u32::try_from(record.game.ply).unwrap_or(0);
    let from = ply_of(query.from.as_deref(), &record)?.unwrap_or(0);
    let to = ply_of(query.to.as_deref(), &record)?.unwrap_or(last);
    if to > last || from > to {
        return Err(WebError::BadRequest(format!(
            "from and to must be plies from 0 to {last}, from not after to"
        )));
    }
    let captions = captions(&record, &game);
    let gif = web::block(move || {
        let mut frames = Vec::with_capacity((to - from + 1) as usize);
        for ply in from..=to {
            let boards = boards_at(&record, &game, Some(ply)).map_err(WebError::from)?;
            frames.push(boards.into_iter().map(|b| look.board(b)).collect());
        }
        draw_gif(&frames, &look.style(), &captions, delay).map_err(WebError::internal)
    })
    .await
    .map_err(WebError::internal)??;
    Ok(HttpResponse::Ok()
        .content_type("image/gif")
        .insert_header(("Cache-Control", "no-cache"))
        .body(gif))
}
