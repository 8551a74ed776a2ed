//! The page of a minesweeper game. During the setup a player places their bombs on a board of
//! checkboxes (click to toggle, a counter, Random, Clear); during play each player sees their
//! own bombs (unless the options hide them from their owner) and the counts they were told,
//! everyone sees the blasts; after the end every bomb is shown. The page is made from the
//! rules' view for its one reader: the opponent's bombs and counts are never in it.

use actix_session::Session;
use actix_web::http::StatusCode;
use askama::Template;
use slowfuse_rules::minesweeper::{MinesweeperGame, Square};
use slowfuse_rules::{Color, PlyMarks};

use crate::game::{GameRecord, GameStatus, load_game_cached};
use crate::usecases::minesweeper::secret_game;
use crate::web::board::{SquareView, draw_squares, piece_base};
use crate::web::errors::WebError;
use crate::web::respond::render;
use crate::web::time_words::time_left_text;
use crate::web::{AppState, Layout, session};

/// One square as drawn, with what the reader may know of it.
pub struct MineSquare {
    pub sq: SquareView,
    /// One of the reader's own bombs (or, after the end, any bomb).
    pub bomb: bool,
    /// A bomb went off here.
    pub blast: bool,
    /// The last move's bomb went off here (drawn with the blast's animation).
    pub fresh_blast: bool,
    /// The last move's blast removed a piece from here.
    pub cleared: bool,
    /// The count the reader was told when their piece arrived here (the latest).
    pub count: Option<u8>,
    /// During the setup: a square where the reader may place a bomb.
    pub allowed: bool,
}

/// A move in the list, with its blast and the count the reader was told.
pub struct MineMove {
    pub number: String,
    pub san: String,
    pub note: String,
}

/// The page.
#[derive(Template)]
#[template(path = "minesweeper.html")]
pub struct MinesweeperPage {
    layout: Layout,
    id: i64,
    title: String,
    options: String,
    status: String,
    finished: bool,
    /// The reader places bombs now.
    placing: bool,
    placed: usize,
    to_place: usize,
    squares: Vec<MineSquare>,
    moves: Vec<MineMove>,
    /// The reader plays and the game runs: the move form.
    can_act: bool,
    /// The draw offer standing on the board: the reader's own, or their opponent's; the
    /// action list offers only what can be done with it.
    my_offer: bool,
    their_offer: bool,
    /// A draw the reader may claim now (repetition, the fifty-move rule).
    can_claim: bool,
    ply: i32,
    error: Option<String>,
    typed: String,
    piece_base: &'static str,
    orientation: &'static str,
    /// Asking whether the player resigns (always asked first).
    resign_question: bool,
}

/// Builds the page for `viewer` from the record and the rules' game; no I/O.
pub fn build(
    layout: Layout,
    record: &GameRecord,
    game: &MinesweeperGame,
    viewer: Option<i64>,
    refusal: Option<(StatusCode, String, String)>,
    now: chrono::NaiveDateTime,
) -> MinesweeperPage {
    let seat = viewer.and_then(|v| record.seat_of(v));
    let color = seat.map(|s| s.color);
    let side = color.unwrap_or(Color::White);
    let over = !record.status.is_running();
    let public = game.public_view();
    let full = game.full_record().ok().filter(|_| over);
    let view = color.map(|c| game.player_view(c));
    // What this reader may know: their own bombs and counts; after the end, everything.
    let bombs: Vec<Square> = match (&full, &view) {
        (Some(full), _) => full.bombs.iter().map(|b| b.square).collect(),
        (None, Some(v)) => v.own_bombs.iter().flatten().map(|b| b.square).collect(),
        (None, None) => Vec::new(),
    };
    let counts: Vec<(u32, Square, u8)> = match (&full, &view) {
        (Some(full), _) => full
            .counts
            .iter()
            .map(|(_, c)| (c.ply, c.square, c.bombs))
            .collect(),
        (None, Some(v)) => v
            .counts
            .iter()
            .map(|c| (c.ply, c.square, c.bombs))
            .collect(),
        (None, None) => Vec::new(),
    };
    let blasts = public.spent_bombs();
    let last_blast = public.moves.last().and_then(|m| m.blast.clone());
    let allowed: Vec<Square> = view
        .as_ref()
        .map(|v| v.allowed_squares.clone())
        .unwrap_or_default();
    let placing = view.as_ref().is_some_and(|v| v.may_place_bombs);
    let marks = PlyMarks {
        from_to: public.moves.last().and_then(|m| {
            let from = slowfuse_rules::square_index(m.uci.get(0..2)?)?;
            let to = slowfuse_rules::square_index(m.uci.get(2..4)?)?;
            Some((from, to))
        }),
        check: None,
        exploded: Vec::new(),
    };
    let drawn = draw_squares(&public.board, &marks, side);
    let squares = drawn
        .squares
        .into_iter()
        .map(|sq| {
            let here = |s: &Square| s.to_string() == sq.name;
            MineSquare {
                bomb: bombs.iter().any(here),
                blast: blasts.iter().any(|(s, _, _)| here(s)),
                fresh_blast: last_blast.as_ref().is_some_and(|b| here(&b.square)),
                cleared: last_blast
                    .as_ref()
                    .is_some_and(|b| b.removed.iter().any(|(s, _, _)| here(s))),
                count: counts.iter().rev().find(|(_, s, _)| here(s)).map(|c| c.2),
                allowed: placing && allowed.iter().any(here),
                sq,
            }
        })
        .collect();
    let mut moves: Vec<MineMove> = public
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let ply = i as u32 + 1;
            let mut notes = Vec::new();
            if let Some(blast) = &m.blast {
                notes.push(format!("blast on {}", blast.square));
            }
            if let Some((_, square, n)) = counts.iter().find(|(p, _, _)| *p == ply) {
                notes.push(format!(
                    "{n} bomb{} next to {square}",
                    if *n == 1 { "" } else { "s" }
                ));
            }
            MineMove {
                number: if i % 2 == 0 {
                    format!("{}.", i / 2 + 1)
                } else {
                    String::new()
                },
                san: m.san.clone(),
                note: notes.join("; "),
            }
        })
        .collect();
    // Black's reply after a note on White's move carries its number again ("2... Qxd5"), as
    // in PGN after a comment.
    for i in (1..moves.len()).step_by(2) {
        if !moves[i - 1].note.is_empty() {
            moves[i].number = format!("{}...", i / 2 + 1);
        }
    }
    let white = record.shown_name_of(crate::game::Seat::first_board(Color::White));
    let black = record.shown_name_of(crate::game::Seat::first_board(Color::Black));
    let status = match record.status {
        GameStatus::Setup => {
            let left = time_left_text(record.game.deadline_at, now);
            match color {
                Some(c) if game.bombs_placed(c) >= game.options().bombs_of(Some(c)) => format!(
                    "Your bombs are placed. Waiting for your opponent; the setup ends in {left}, then the missing bombs are placed at random."
                ),
                Some(_) => format!(
                    "Place your bombs: the setup ends in {left}, then the missing ones are placed at random."
                ),
                None => format!("The players are placing their bombs (the setup ends in {left})."),
            }
        }
        GameStatus::Started => {
            let to_move = if public.turn == Color::White {
                &white
            } else {
                &black
            };
            format!("{to_move} to move")
        }
        GameStatus::Finished => format!(
            "{} ({}): {}",
            record.game.result,
            record
                .game
                .termination
                .as_deref()
                .and_then(|t| t.parse::<slowfuse_rules::EndReason>().ok())
                .map_or("over", |r| r.describe_in(&record.game.variant))
                .to_lowercase(),
            "every bomb is shown"
        ),
        GameStatus::Aborted => "The game was called off.".to_string(),
    };
    let (error, typed) = match refusal {
        Some((_, message, typed)) => (Some(message), typed),
        None => (None, String::new()),
    };
    MinesweeperPage {
        layout,
        id: record.game.id,
        title: format!("{white} v {black}"),
        options: game.options().describe(),
        status,
        finished: over,
        placing,
        placed: color.map_or(0, |c| game.bombs_placed(c)),
        to_place: color.map_or(0, |c| game.options().bombs_of(Some(c))),
        squares,
        moves,
        can_act: seat.is_some() && record.status == GameStatus::Started,
        my_offer: color.is_some() && record.first_board().draw_offer == color,
        their_offer: color.is_some_and(|c| record.first_board().draw_offer == Some(!c)),
        can_claim: color.is_some() && game.can_claim_draw().is_some(),
        ply: record.game.ply,
        error,
        typed,
        piece_base: piece_base(""),
        orientation: if side == Color::White {
            "white"
        } else {
            "black"
        },
        resign_question: false,
    }
}

/// Draws game `id` for the session's viewer, with a refusal's status, message and typed move,
/// or asking whether the player resigns.
pub async fn draw(
    state: &AppState,
    session: &Session,
    id: i64,
    refusal: Option<(StatusCode, String, String)>,
    resign_question: bool,
) -> Result<actix_web::HttpResponse, WebError> {
    let me = session::current_user_id(session);
    let records = state.records.clone();
    let (record, game) = state
        .db(move |c| {
            // The record and the reader's secret rows as of one moment.
            crate::db::read_snapshot(c, |c| -> Result<_, WebError> {
                let Some(record) = load_game_cached(c, &records, id)? else {
                    return Ok(None);
                };
                let game = secret_game(c, &record).map_err(WebError::internal)?;
                Ok(Some((record, game)))
            })
        })
        .await??
        .ok_or(WebError::NotFound)?;
    let status = refusal.as_ref().map_or(StatusCode::OK, |r| r.0);
    let mut page = build(
        Layout::from_session(session),
        &record,
        &game,
        me,
        refusal,
        state.now(),
    );
    page.resign_question = resign_question && page.can_act;
    render(status, &page)
}
