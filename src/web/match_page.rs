//! The page of a bughouse match: both boards with their pockets, players, clocks, whose turn
//! it is and who sits waiting for a piece; the move form on the viewer's own board (drag a
//! piece or a piece in hand, or type it); the moves of both boards in the order played; and the
//! team chat, drawn only into the pages of the two partners.

use actix_session::Session;
use actix_web::http::StatusCode;
use askama::Template;
use chrono::NaiveDateTime;
use slowfuse_rules::bughouse::{Board, BughouseOutcome, Seat as BughouseSeat};
use slowfuse_rules::{BughouseGame, Color, PlyMarks, Role, square_index};

use crate::game::{GameRecord, Seat, from_bughouse, load_game_cached};
use crate::usecases::bughouse::{
    TeamChatLine, board_letter, board_number, match_game, team_chat_for_player,
};
use crate::usecases::clocks::seconds_left;
use crate::web::board::{BoardView, PocketView, draw_squares, pocket_view};
use crate::web::errors::WebError;
use crate::web::respond::render;
use crate::web::time_words::duration_text;
use crate::web::{AppState, Layout, session};

/// What a refused form of the match page held, kept in its box when the page is drawn again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchTyped {
    pub mv: String,
    pub chat: String,
}

/// A form the server refused: the status, why, and what was typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRefusal {
    pub status: StatusCode,
    pub message: String,
    pub typed: MatchTyped,
}

/// One player beside a board.
pub struct SeatLine {
    pub name: String,
    /// `A1 · team A`.
    pub seat: String,
    pub you: bool,
    pub to_move: bool,
    pub sitting: bool,
    /// Time left, e.g. `2 days 3 hours`; empty without a clock.
    pub clock: String,
}

/// One board as drawn.
pub struct MatchBoard {
    /// `a` or `b`.
    pub letter: &'static str,
    pub view: BoardView,
    pub top: SeatLine,
    pub bottom: SeatLine,
    pub top_pocket: PocketView,
    pub bottom_pocket: PocketView,
    /// The viewer plays on this board.
    pub mine: bool,
    /// The viewer may move here now.
    pub can_move: bool,
    pub ply: i32,
    /// `white` or `black`: whose move it is.
    pub turn: &'static str,
    pub fen: String,
}

/// A move in the list: its BPGN label (`12A.`, `3b.`) and SAN.
pub struct MatchMoveLine {
    pub label: String,
    pub san: String,
    pub board: &'static str,
}

/// The page.
#[derive(Template)]
#[template(path = "match.html")]
pub struct MatchPage {
    layout: Layout,
    id: i64,
    title: String,
    status: String,
    finished: bool,
    time_control: String,
    boards: Vec<MatchBoard>,
    moves: Vec<MatchMoveLine>,
    /// The viewer's seat, `A1` …, when they play.
    my_seat: Option<String>,
    /// The team chat, for the two partners only.
    team_chat: Option<Vec<TeamChatLine>>,
    error: Option<String>,
    typed: MatchTyped,
    /// Draw offers that concern the viewer, in words.
    draw_text: Option<String>,
    /// The viewer's own standing offer.
    my_offer: bool,
    /// An offer from the viewer's opponent stands.
    their_offer: bool,
    piece_base: &'static str,
    /// The viewer's board theme.
    theme: String,
    share_url: String,
    /// Asking whether the player resigns.
    resign_question: bool,
}

impl MatchPage {
    /// Builds the page from the record, the rules' match and the viewer's team chat; no I/O.
    pub fn build(layout: Layout, input: MatchInputs<'_>) -> MatchPage {
        let MatchInputs {
            record,
            game,
            viewer,
            now,
            ..
        } = input;
        let mine = viewer
            .and_then(|v| record.seat_of(v))
            .and_then(Seat::bughouse);
        let sitting = if record.is_started() {
            game.sitting()
        } else {
            Vec::new()
        };
        let line = |seat: BughouseSeat| {
            let stored = from_bughouse(seat);
            let player = record.player(stored);
            let board = record.board(stored.board);
            SeatLine {
                name: player.map_or("?".to_string(), |p| p.shown_name()),
                seat: format!("{seat} · {}", seat.team()),
                you: mine == Some(seat),
                to_move: record.is_started() && board.is_some_and(|b| b.turn == seat.color()),
                sitting: sitting.contains(&seat),
                clock: seconds_left(record, stored, now)
                    .map(duration_text)
                    .unwrap_or_default(),
            }
        };
        // The viewer's board first, from their side; their partner's from the partner's side
        // (the partners sit beside each other). Spectators: board a from White's side, board
        // b from Black's, as at a bughouse table.
        let order = match mine {
            Some(seat) => [
                (seat.board(), seat.color()),
                (seat.board().other(), !seat.color()),
            ],
            None => [(Board::A, Color::White), (Board::B, Color::Black)],
        };
        let boards = order
            .into_iter()
            .map(|(board, side)| {
                let bottom = BughouseSeat::at(board, side);
                let top = BughouseSeat::at(board, !side);
                let pockets = game.pockets(board);
                let pocket_of = |color: Color| match color {
                    Color::White => pocket_view(&pockets.white, Color::White),
                    Color::Black => pocket_view(&pockets.black, Color::Black),
                };
                let pieces = game.board_at(game.ply(), board).unwrap_or([None; 64]);
                let marks = marks_of(game, board, &pieces);
                let is_mine = mine.is_some_and(|s| s.board() == board);
                MatchBoard {
                    letter: board_letter(board),
                    view: draw_squares(&pieces, &marks, side),
                    top: line(top),
                    bottom: line(bottom),
                    top_pocket: pocket_of(!side),
                    bottom_pocket: pocket_of(side),
                    mine: is_mine,
                    can_move: is_mine
                        && record.is_started()
                        && mine.is_some_and(|s| game.to_move(board) == s),
                    ply: record.board(board_number(board)).map_or(0, |b| b.ply),
                    turn: crate::game::color_name(game.turn(board)),
                    fen: game.fen(board),
                }
            })
            .collect();
        let moves = game
            .moves()
            .iter()
            .map(|m| MatchMoveLine {
                label: m.label(),
                san: m.san.clone(),
                board: board_letter(m.board),
            })
            .collect();
        let names = |seats: [BughouseSeat; 2]| {
            seats
                .iter()
                .map(|s| record.shown_name_of(from_bughouse(*s)))
                .collect::<Vec<_>>()
                .join(" & ")
        };
        let title = format!(
            "{} v {}",
            names([BughouseSeat::A1, BughouseSeat::A2]),
            names([BughouseSeat::B1, BughouseSeat::B2])
        );
        let status = status_text(record, game, &sitting);
        let offer = mine.and_then(|seat| {
            let board = record.board(from_bughouse(seat).board)?;
            board.draw_offer.map(|c| (c == seat.color(), seat))
        });
        let draw_text = offer.map(|(own, seat)| {
            let opponent = record.shown_name_of(from_bughouse(seat.opponent()));
            if own {
                format!("You offered {opponent} a draw of the match.")
            } else {
                format!("{opponent} offers a draw of the match: accept or decline it.")
            }
        });
        let refusal = input.refusal;
        MatchPage {
            layout,
            id: record.game.id,
            title,
            status,
            finished: !record.is_started(),
            time_control: crate::game::clock::time_control_of(&record.game).describe(),
            boards,
            moves,
            my_seat: mine.map(|s| s.to_string()),
            team_chat: input.team_chat,
            error: refusal.map(|r| r.message.clone()),
            typed: refusal.map(|r| r.typed.clone()).unwrap_or_default(),
            draw_text,
            my_offer: offer.is_some_and(|(own, _)| own),
            their_offer: offer.is_some_and(|(own, _)| !own),
            piece_base: crate::web::board::piece_base(&input.piece_set),
            theme: input.theme,
            resign_question: input.resign_question,
            share_url: format!(
                "{}/games/{}",
                input.public_url.trim_end_matches('/'),
                record.game.id
            ),
        }
    }
}

/// The last move's squares on `board` and its king in check.
fn marks_of(game: &BughouseGame, board: Board, pieces: &slowfuse_rules::BoardArray) -> PlyMarks {
    let from_to = game
        .moves()
        .iter()
        .rev()
        .find(|m| m.board == board)
        .and_then(|m| {
            let to = square_index(m.uci.get(2..4)?)?;
            let from = match m.uci.as_bytes().get(1) {
                Some(b'@') => to,
                _ => square_index(m.uci.get(0..2)?)?,
            };
            Some((from, to))
        });
    let turn = game.turn(board);
    let check = game
        .is_check(board)
        .then(|| {
            pieces
                .iter()
                .position(|p| *p == Some((turn, Role::King)))
                .and_then(|i| u8::try_from(i).ok())
        })
        .flatten();
    PlyMarks {
        from_to,
        check,
        exploded: Vec::new(),
    }
}

/// The match's state in words: who is to move on each board, who sits, or how it ended.
fn status_text(record: &GameRecord, game: &BughouseGame, sitting: &[BughouseSeat]) -> String {
    if !record.is_started() {
        let ending = game.outcome().or_else(|| record.stored_match_outcome());
        return match ending {
            Some(outcome) => ending_text(record, &outcome),
            None => "The match was called off.".to_string(),
        };
    }
    let mut parts = Vec::new();
    for board in Board::BOTH {
        let seat = game.to_move(board);
        let name = record.shown_name_of(from_bughouse(seat));
        if sitting.contains(&seat) {
            parts.push(format!(
                "Board {}: {name} ({seat}) sits, waiting for a piece to block the check",
                board_letter(board)
            ));
        } else {
            parts.push(format!(
                "Board {}: {name} ({seat}) to move",
                board_letter(board)
            ));
        }
    }
    parts.join(". ") + "."
}

fn ending_text(record: &GameRecord, outcome: &BughouseOutcome) -> String {
    let winners = match outcome.winner {
        Some(team) => {
            let [first, second] = team.seats();
            format!(
                "{team} ({} & {}) wins",
                record.shown_name_of(from_bughouse(first)),
                record.shown_name_of(from_bughouse(second))
            )
        }
        None => "Drawn".to_string(),
    };
    format!(
        "{winners}: {} ({}).",
        outcome.reason.describe(),
        record.game.result
    )
}

/// Everything the page is built from.
pub struct MatchInputs<'a> {
    pub record: &'a GameRecord,
    pub game: &'a BughouseGame,
    pub viewer: Option<i64>,
    pub team_chat: Option<Vec<TeamChatLine>>,
    pub refusal: Option<&'a MatchRefusal>,
    pub now: NaiveDateTime,
    pub piece_set: String,
    pub theme: String,
    pub resign_question: bool,
    pub public_url: &'a str,
}

/// Why the match page is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchOccasion {
    View,
    /// To answer a refused form.
    Refused(MatchRefusal),
    /// To ask whether the player really resigns for the team.
    ConfirmResign,
}

/// Draws match `id` for the session's viewer: 200, or the refusal's status.
pub async fn draw(
    state: &AppState,
    session: &Session,
    id: i64,
    occasion: MatchOccasion,
) -> Result<actix_web::HttpResponse, WebError> {
    let resign_question = occasion == MatchOccasion::ConfirmResign;
    let refusal = match occasion {
        MatchOccasion::Refused(refusal) => Some(refusal),
        _ => None,
    };
    let me = session::current_user_id(session);
    let records = state.records.clone();
    let (record, chat, prefs) = state
        .db(move |c| {
            crate::db::read_snapshot(c, |c| {
                let Some(record) = load_game_cached(c, &records, id)? else {
                    return Ok(None);
                };
                let chat = team_chat_for_player(c, &record, me)?;
                let prefs = match me {
                    Some(user) => Some(crate::usecases::preferences::preferences_of(c, user)?),
                    None => None,
                };
                diesel::QueryResult::Ok(Some((record, chat, prefs)))
            })
        })
        .await??
        .ok_or(WebError::NotFound)?;
    let game = match_game(&record).map_err(WebError::internal)?;
    let status = refusal.as_ref().map_or(StatusCode::OK, |r| r.status);
    let inputs = MatchInputs {
        record: &record,
        game: &game,
        viewer: me,
        team_chat: chat,
        refusal: refusal.as_ref(),
        now: state.now(),
        piece_set: prefs
            .as_ref()
            .map(|p| p.piece_set.clone())
            .unwrap_or_default(),
        theme: prefs.map(|p| p.board_theme).unwrap_or_default(),
        resign_question,
        public_url: &state.settings.server.public_url,
    };
    render(
        status,
        &MatchPage::build(Layout::from_session(session), inputs),
    )
}
