//! The home page of a logged-in player: games awaiting their move as small boards (most urgent
//! first), challenges addressed to them, their other running games, their recent results.

use std::collections::HashMap;

use actix_session::Session;
use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template;
use chrono::NaiveDateTime;
use slowfuse_rules::{Color, EndReason};

use super::render;
use crate::game::GameStatus;
use crate::usecases::boards::{BoardSnapshot, board_snapshots};
use crate::usecases::challenges::{ChallengeListing, visible_challenges};
use crate::usecases::games::{GameSummary, my_games};
use crate::usecases::preferences::preferences_of;
use crate::web::errors::WebError;
use crate::web::mini_board::{BoardLook, MiniBoard, mini_board, variant_words};
use crate::web::time_words::time_left_text;
use crate::web::{AppState, Layout};

/// Small boards shown in each of the dashboard's two board sections, at most.
const MAX_BOARDS: usize = 24;
/// Finished games listed under "Recent results".
const RECENT_RESULTS: usize = 5;

/// One finished game of the player's, told from their side.
pub struct ResultLine {
    pub id: i64,
    pub opponent: String,
    pub variant: String,
    /// `won`, `lost`, `draw` or `aborted`.
    pub outcome: &'static str,
    /// The score and how it ended, e.g. `1-0, king exploded`.
    pub how: String,
}

#[derive(Template)]
#[template(path = "dashboard.html")]
struct DashboardPage {
    layout: Layout,
    /// The viewer (the challenge table's buttons).
    me: Option<i64>,
    my_turn: Vec<MiniBoard>,
    my_turn_more: usize,
    for_me: Vec<ChallengeListing>,
    their_turn: Vec<MiniBoard>,
    their_turn_more: usize,
    results: Vec<ResultLine>,
    /// Open challenges by others and the player's own (the same table as `/challenges`).
    challenges: Vec<ChallengeListing>,
}

/// `GET /` for a logged-in player.
pub async fn show(state: &AppState, session: &Session, me: i64) -> Result<HttpResponse, WebError> {
    let now = state.now();
    let (games, challenges, boards, prefs) = state
        .db(move |c| -> Result<_, WebError> {
            let games = my_games(c, me)?;
            let running: Vec<i64> = games
                .iter()
                .filter(|g| g.status == GameStatus::Started.as_str())
                .map(|g| g.id)
                .collect();
            let boards = board_snapshots(c, &running)?;
            Ok((
                games,
                visible_challenges(c, Some(me))?,
                boards,
                preferences_of(c, me)?,
            ))
        })
        .await??;
    let look = BoardLook::of(&prefs);
    let boards_of = |mine: bool| -> Vec<MiniBoard> {
        running_boards(&games, &boards, mine, now, &look, prefs.always_white)
    };
    let (mut my_turn, mut their_turn) = (boards_of(true), boards_of(false));
    let my_turn_more = my_turn.len().saturating_sub(MAX_BOARDS);
    let their_turn_more = their_turn.len().saturating_sub(MAX_BOARDS);
    my_turn.truncate(MAX_BOARDS);
    their_turn.truncate(MAX_BOARDS);
    let (for_me, challenges): (Vec<_>, Vec<_>) = challenges
        .into_iter()
        .partition(|l| !l.mine && l.challenge.opponent_id == Some(me));
    let page = DashboardPage {
        layout: Layout::from_session(session),
        me: Some(me),
        my_turn,
        my_turn_more,
        for_me,
        their_turn,
        their_turn_more,
        results: games
            .iter()
            .filter(|g| g.status != GameStatus::Started.as_str())
            .filter(|g| g.status != GameStatus::Setup.as_str())
            .take(RECENT_RESULTS)
            .map(result_line)
            .collect(),
        challenges,
    };
    render(StatusCode::OK, &page)
}

/// The running games awaiting the player's move (`mine`) or their opponent's, in `games`'
/// order (most urgent first), as captioned small boards from the player's side.
pub(super) fn running_boards(
    games: &[GameSummary],
    boards: &HashMap<i64, BoardSnapshot>,
    mine: bool,
    now: NaiveDateTime,
    look: &BoardLook,
    always_white: bool,
) -> Vec<MiniBoard> {
    games
        .iter()
        .filter(|g| g.status == GameStatus::Started.as_str() && g.my_turn == mine)
        .filter_map(|g| {
            let snapshot = boards.get(&g.id)?;
            let opponent = opponent_of(g);
            let variant = variant_words(&g.variant);
            let time = time_left_text(g.deadline_at, now);
            let whose = if mine { "your move" } else { "their move" };
            let time_words = if time.is_empty() {
                whose.to_string()
            } else if time == "overdue" {
                format!("{whose}, overdue")
            } else {
                format!("{whose}, {time} left")
            };
            let label = format!("{} vs {}, {variant}, {time_words}", g.white, g.black);
            let side = if always_white {
                Color::White
            } else {
                g.my_color
            };
            let board = mini_board(g.id, snapshot, side, label, look);
            Some(board.captioned(format!("vs {opponent}"), vec![variant, time_words]))
        })
        .collect()
}

fn opponent_of(g: &GameSummary) -> &str {
    match g.my_color {
        Color::White => &g.black,
        Color::Black => &g.white,
    }
}

/// A finished or aborted game from the player's side.
fn result_line(g: &GameSummary) -> ResultLine {
    let outcome = if g.status == GameStatus::Aborted.as_str() {
        "aborted"
    } else {
        match (g.result.as_str(), g.my_color) {
            ("1-0", Color::White) | ("0-1", Color::Black) => "won",
            ("1-0", Color::Black) | ("0-1", Color::White) => "lost",
            _ => "draw",
        }
    };
    let score = if g.result == "1/2-1/2" {
        "½-½".to_string()
    } else {
        g.result.clone()
    };
    let ending = g
        .termination
        .as_deref()
        .and_then(|t| t.parse::<EndReason>().ok());
    let how = match ending {
        _ if outcome == "aborted" => "no result".to_string(),
        Some(reason) => format!("{score}, {}", reason.describe().to_lowercase()),
        None => score,
    };
    ResultLine {
        id: g.id,
        opponent: opponent_of(g).to_string(),
        variant: variant_words(&g.variant),
        outcome,
        how,
    }
}
