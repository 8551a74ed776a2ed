//! The home page of a logged-in player: games awaiting their move as small boards (most urgent
//! first), challenges addressed to them, their other running games, their recent results.

use std::collections::HashMap;

use actix_session::Session;
use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template;
use chrono::NaiveDateTime;
use slowfuse_rules::{Color, EndReason};

use crate::game::GameStatus;
use crate::usecases::boards::{BoardSnapshot, board_snapshots};
use crate::usecases::challenges::{ChallengeListing, visible_challenges};
use crate::usecases::games::{GameSummary, RECENT_RESULTS, my_games};
use crate::usecases::preferences::preferences_of;
use crate::web::errors::WebError;
use crate::web::mini_board::{BoardLook, MiniBoard, mini_board, variant_words};
use crate::web::respond::render;
use crate::web::time_words::time_left_text;
use crate::web::{AppState, Layout};

/// Small boards shown in each of the dashboard's two board sections, at most.
const MAX_BOARDS: usize = 24;

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

/// A challenge addressed to the player, told from their side.
pub struct ChallengeCard {
    pub id: i64,
    pub from: String,
    pub variant: String,
    /// `White`, `Black` or `a random colour`: what the player would play.
    pub you_play: &'static str,
    /// e.g. `3 days per move`, `Fischer clock`, `no time limit`.
    pub time: String,
    pub rated: bool,
}

#[derive(Template)]
#[template(path = "dashboard.html")]
struct DashboardPage {
    layout: Layout,
    /// The viewer (the challenge table's buttons).
    me: Option<i64>,
    my_turn: Vec<MiniBoard>,
    my_turn_more: usize,
    for_me: Vec<ChallengeCard>,
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
            let games = my_games(c, me, RECENT_RESULTS)?;
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
        for_me: for_me.iter().map(challenge_card).collect(),
        their_turn,
        their_turn_more,
        results: games
            .iter()
            .filter(|g| g.status != GameStatus::Started.as_str())
            .filter(|g| g.status != GameStatus::Setup.as_str())
            .take(RECENT_RESULTS as usize)
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
            let side = if always_white {
                Color::White
            } else {
                g.my_color
            };
            // The caption is the link's name as well.
            let board = mini_board(g.id, snapshot, side, String::new(), look);
            // Under "Your move" the time is what matters; elsewhere whose move it is too.
            let shown = match (mine, time.as_str()) {
                (true, "") => "no time limit".to_string(),
                (true, "overdue") => "overdue".to_string(),
                (true, t) => format!("{t} left"),
                (false, _) => time_words,
            };
            Some(board.captioned(format!("vs {opponent}"), vec![variant, shown]))
        })
        .collect()
}

fn challenge_card(l: &ChallengeListing) -> ChallengeCard {
    let c = &l.challenge;
    ChallengeCard {
        id: c.id,
        from: l.creator.clone(),
        variant: variant_words(&c.variant),
        you_play: match c.color.as_str() {
            "white" => "Black",
            "black" => "White",
            _ => "a random colour",
        },
        time: match c.days_per_move {
            Some(1) => "1 day per move".to_string(),
            Some(d) => format!("{d} days per move"),
            None if c.time_control == "fischer" => "Fischer clock".to_string(),
            None => "no time limit".to_string(),
        },
        rated: c.rated,
    }
}

/// The other side's name: the opponent, or in a bughouse match the other team.
fn opponent_of(g: &GameSummary) -> &str {
    match g.my_side {
        Color::White => &g.black_name,
        Color::Black => &g.white_name,
    }
}

/// A finished or aborted game from the player's side.
fn result_line(g: &GameSummary) -> ResultLine {
    let outcome = if g.status == GameStatus::Aborted.as_str() {
        "aborted"
    } else {
        match (g.result.as_str(), g.my_side) {
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
        Some(reason) => format!("{score}, {}", reason.describe_in(&g.variant).to_lowercase()),
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
