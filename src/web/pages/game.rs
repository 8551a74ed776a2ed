//! The game page: action bar, board with navigation, players, status, moves and comments.

use actix_session::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use slowfuse_rules::{Color, EndReason, Variant};

use super::conversation::{TalkView, fill_note, remember_preference, talk_view};
use super::home::{duration_text, time_left_text};
use super::{game_form_sender, render, see_other};
use crate::game::clock::time_control_of;
use crate::game::{GameRecord, color_name, load_game};
use crate::usecases::clocks::seconds_left;
use crate::usecases::messages::{MessageError, readable_conversation};
use crate::usecases::play::{self, Action, ActionRequest, PlayError};
use crate::web::board::{BoardView, board_view};
use crate::web::errors::{Refusal, WebError, refusal};
use crate::web::{AppState, Layout, session};

/// One move in the move list.
pub struct MoveLine {
    /// "12." before White's move, "12..." before a Black move that follows a comment.
    pub number: String,
    pub san: String,
    pub ply_after: u32,
    pub comments: Vec<String>,
    pub current: bool,
}

/// One option of the action dropdown.
pub struct ActionChoice {
    pub value: &'static str,
    pub label: &'static str,
}

#[derive(Template)]
#[template(path = "game.html")]
struct GamePage {
    layout: Layout,
    id: i64,
    variant: String,
    /// The variant's rules as HTML, from `docs/variants.md` (our own text, not escaped).
    variant_info: &'static str,
    /// The material balance at the ply shown.
    material: String,
    white: String,
    black: String,
    board: BoardView,
    moves: Vec<MoveLine>,
    opening_comments: Vec<String>,
    view_ply: u32,
    last_ply: u32,
    status_text: String,
    finished: bool,
    turn: &'static str,
    to_move: String,
    my_color: Option<&'static str>,
    my_turn: bool,
    can_act: bool,
    form_ply: i32,
    actions: Vec<ActionChoice>,
    selected_action: String,
    move_value: String,
    message_value: String,
    error: Option<String>,
    draw_offer_text: Option<String>,
    time_left: String,
    time_control: String,
    white_clock: String,
    black_clock: String,
    /// "bob is on leave until …" for each player on leave now.
    leave_text: Vec<String>,
    /// Pieces in hand (crazyhouse): White's and Black's.
    pockets: Option<(String, String)>,
    /// The viewer's own conditional lines, filled in by the handler.
    my_conditional: Option<String>,
    /// Comments, kibitz and notes as this viewer may see and write them.
    talk: TalkView,
    /// The viewer's own tags on this game, filled in by the handler.
    my_tags: super::tags::TagBox,
}

#[derive(Deserialize)]
pub struct ViewQuery {
    ply: Option<String>,
    /// `hide` or `show`: the "Hide comments" preference.
    comments: Option<String>,
}

/// What the player typed, kept when the page is shown again with an error.
#[derive(Default)]
pub(super) struct Typed {
    pub action: String,
    pub mv: String,
    pub message: String,
    pub kibitz: String,
    /// The notes box's text, when the notes form was refused.
    pub note: Option<String>,
}

fn clock_text(record: &GameRecord, color: Color, now: chrono::NaiveDateTime) -> String {
    if !record.is_started() {
        return String::new();
    }
    seconds_left(record, crate::game::Seat::first_board(color), now)
        .map_or(String::new(), duration_text)
}

fn status_text(record: &GameRecord) -> String {
    match record.game.status.as_str() {
        "started" => format!(
            "{} to move",
            record.name_of(crate::game::Seat::first_board(record.turn()))
        ),
        "aborted" => "Aborted: the first moves were not made in time".to_string(),
        _ => {
            let why = record
                .game
                .termination
                .as_deref()
                .and_then(|t| t.parse::<EndReason>().ok())
                .map(|r| r.describe().to_string())
                .unwrap_or_default();
            let who = match record.game.result.as_str() {
                "1-0" => format!(
                    "{} wins",
                    record.name_of(crate::game::Seat::first_board(Color::White))
                ),
                "0-1" => format!(
                    "{} wins",
                    record.name_of(crate::game::Seat::first_board(Color::Black))
                ),
                _ => "Draw".to_string(),
            };
            format!("{} {} — {}", record.game.result, who, why)
        }
    }
}

/// The logged-in player's own conditional lines in this game (never anyone else's).
async fn own_conditional_lines(
    state: &AppState,
    session: &Session,
    record: &GameRecord,
) -> Result<Option<String>, WebError> {
    let Some(me) = session::current_user_id(session).filter(|id| record.seat_of(*id).is_some())
    else {
        return Ok(None);
    };
    let record = record.clone();
    state
        .db(move |c| crate::usecases::conditional::my_lines(c, &record, me))
        .await?
        .map_err(WebError::internal)
}

/// Pieces in hand as text, e.g. `P P N`; empty when none.
fn pocket_text(p: &slowfuse_rules::Pocket) -> String {
    let mut out = Vec::new();
    for (n, letter) in [
        (p.queens, "Q"),
        (p.rooks, "R"),
        (p.bishops, "B"),
        (p.knights, "N"),
        (p.pawns, "P"),
    ] {
        for _ in 0..n {
            out.push(letter);
        }
    }
    out.join(" ")
}

fn build_page(
    state: &AppState,
    session: &Session,
    record: &GameRecord,
    view: Option<u32>,
    error: Option<String>,
    typed: Typed,
) -> Result<GamePage, WebError> {
    let game = record.chess_game()?;
    let last_ply = game.ply();
    let view_ply = view.unwrap_or(last_ply).min(last_ply);
    let me = session::current_user_id(session)
        .and_then(|id| record.seat_of(id))
        .map(|s| s.color);
    let started = record.is_started();
    let mut moves: Vec<MoveLine> = Vec::new();
    let mut comments_by_ply: Vec<Vec<String>> = vec![Vec::new(); last_ply as usize + 1];
    let talk = talk_view(state, session, record, view, &typed);
    if !talk.hidden {
        let viewer = session::current_user_id(session);
        for entry in readable_conversation(record, viewer) {
            let slot = (entry.ply.max(0) as usize).min(last_ply as usize);
            comments_by_ply[slot].push(entry.line());
        }
    }
    let initial_fen = game.initial_fen();
    let start_black = initial_fen.split(' ').nth(1) == Some("b");
    let start_number: u32 = initial_fen
        .split(' ')
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let mut previous_had_comment = true;
    for (i, m) in game.moves().iter().enumerate() {
        let ply_index = i as u32 + u32::from(start_black);
        let number = start_number + ply_index / 2;
        let white_move = ply_index.is_multiple_of(2);
        let ply_after = i as u32 + 1;
        let comments = comments_by_ply[ply_after as usize].clone();
        moves.push(MoveLine {
            number: if white_move {
                format!("{number}.")
            } else if previous_had_comment || !comments.is_empty() {
                format!("{number}...")
            } else {
                String::new()
            },
            san: m.san.clone(),
            ply_after,
            current: ply_after == view_ply,
            comments: comments.clone(),
        });
        previous_had_comment = !comments.is_empty();
    }
    let incoming_offer = me.is_some_and(|c| record.first_board().draw_offer == Some(!c));
    let mut actions = vec![
        ActionChoice {
            value: "move",
            label: "Move",
        },
        ActionChoice {
            value: "conditional_move",
            label: "Conditional moves",
        },
    ];
    if incoming_offer {
        actions.push(ActionChoice {
            value: "accept_draw",
            label: "Accept draw",
        });
        actions.push(ActionChoice {
            value: "decline_draw",
            label: "Decline draw",
        });
    } else if me.is_some_and(|c| record.first_board().draw_offer == Some(c)) {
        actions.push(ActionChoice {
            value: "withdraw_draw",
            label: "Withdraw draw offer",
        });
    } else {
        actions.push(ActionChoice {
            value: "offer_draw",
            label: "Offer draw",
        });
    }
    actions.push(ActionChoice {
        value: "comment",
        label: "Comment only",
    });
    actions.push(ActionChoice {
        value: "claim_draw",
        label: "Claim draw",
    });
    let opponent_overdue = started
        && me.is_some_and(|c| c != record.turn())
        && record
            .first_board()
            .deadline_at
            .is_some_and(|d| d <= state.now());
    if opponent_overdue {
        actions.push(ActionChoice {
            value: "claim_timeout",
            label: "Claim win on time",
        });
    }
    actions.push(ActionChoice {
        value: "resign",
        label: "Resign",
    });
    let draw_offer_text = record.first_board().draw_offer.map(|color| {
        if me == Some(color) {
            "You have offered a draw.".to_string()
        } else {
            format!(
                "{} offers a draw.",
                record.name_of(crate::game::Seat::first_board(color))
            )
        }
    });
    let parsed = record.game.variant.parse::<Variant>().ok();
    let variant = parsed.map_or_else(
        || record.game.variant.clone(),
        |v| v.display_name().to_string(),
    );
    Ok(GamePage {
        layout: Layout::from_session(session),
        id: record.game.id,
        variant,
        variant_info: parsed.map_or("", crate::web::variant_info::variant_info_html),
        white: record
            .name_of(crate::game::Seat::first_board(Color::White))
            .to_string(),
        black: record
            .name_of(crate::game::Seat::first_board(Color::Black))
            .to_string(),
        board: board_view(&game, view_ply, me.unwrap_or(Color::White)),
        moves,
        opening_comments: comments_by_ply[0].clone(),
        view_ply,
        last_ply,
        status_text: status_text(record),
        finished: !started,
        turn: color_name(record.turn()),
        to_move: record
            .name_of(crate::game::Seat::first_board(record.turn()))
            .to_string(),
        my_color: me.map(color_name),
        my_turn: started && me == Some(record.turn()),
        can_act: started && me.is_some(),
        form_ply: record.game.ply,
        actions,
        selected_action: if typed.action.is_empty() {
            "move".into()
        } else {
            typed.action
        },
        move_value: typed.mv,
        message_value: typed.message,
        error,
        draw_offer_text,
        time_left: if started {
            time_left_text(record.first_board().deadline_at, state.now())
        } else {
            String::new()
        },
        time_control: time_control_of(&record.game).describe(),
        pockets: game
            .pockets_at(view_ply)
            .map(|p| (pocket_text(&p.white), pocket_text(&p.black))),
        material: game.board_at(view_ply).map_or_else(String::new, |board| {
            crate::web::material::material_line(&board, game.pockets_at(view_ply).as_ref())
        }),
        my_conditional: None,
        leave_text: record
            .players
            .iter()
            .filter_map(|p| {
                let until = crate::usecases::leave::on_leave_until(&p.leave, state.now())?;
                Some(format!(
                    "{} is on leave until {} UTC: their clock stands still.",
                    p.username,
                    until.format("%Y-%m-%d %H:%M")
                ))
            })
            .collect(),
        talk,
        my_tags: super::tags::TagBox::default(),
        white_clock: clock_text(record, Color::White, state.now()),
        black_clock: clock_text(record, Color::Black, state.now()),
    })
}

pub async fn show(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
    query: web::Query<ViewQuery>,
) -> Result<HttpResponse, WebError> {
    let id: i64 = path.parse().map_err(|_| WebError::NotFound)?;
    let record = state
        .db(move |c| load_game(c, id))
        .await??
        .ok_or(WebError::NotFound)?;
    // A ply that is not a number shows the current position.
    let view = query.ply.as_deref().and_then(|p| p.parse().ok());
    remember_preference(&session, query.comments.as_deref());
    let mut page = build_page(&state, &session, &record, view, None, Typed::default())?;
    page.my_conditional = own_conditional_lines(&state, &session, &record).await?;
    fill_note(&state, &session, &record, &mut page.talk, false).await?;
    page.my_tags = super::tags::tag_box(&state, &session, id).await?;
    render(StatusCode::OK, &page)
}

#[derive(Deserialize)]
pub struct ActionForm {
    csrf_token: String,
    ply: i32,
    action: String,
    #[serde(rename = "move")]
    mv: Option<String>,
    message: Option<String>,
}

fn done_text(action: &Action, record: &GameRecord) -> String {
    match action {
        Action::Move(_) => match record.moves.last() {
            Some(m) => format!("You played {}.", m.san),
            None => "Move played.".into(),
        },
        Action::Resign => "You resigned.".into(),
        Action::OfferDraw if record.is_started() => "You offered a draw.".into(),
        Action::OfferDraw | Action::AcceptDraw => "The game is drawn by agreement.".into(),
        Action::DeclineDraw => "You declined the draw offer.".into(),
        Action::ClaimDraw => "Your draw claim holds: the game is drawn.".into(),
        Action::ClaimTimeout => "Your opponent ran out of time: the game is over.".into(),
        Action::ConditionalMove(_) => {
            "Your conditional moves are saved; only you can see them.".into()
        }
        Action::WithdrawDraw => "You withdrew your draw offer.".into(),
        Action::Comment => "Your comment is posted.".into(),
        Action::GiveTime(days) => format!("You gave your opponent {} more days.", days.trim()),
    }
}

pub async fn act(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
    form: web::Form<ActionForm>,
) -> Result<HttpResponse, WebError> {
    let (id, me) = match game_form_sender(&session, &path, &form.csrf_token)? {
        Ok(sender) => sender,
        Err(redirect) => return Ok(*redirect),
    };
    let form = form.into_inner();
    let typed = Typed {
        action: form.action.clone(),
        mv: form.mv.clone().unwrap_or_default(),
        message: form.message.clone().unwrap_or_default(),
        ..Typed::default()
    };
    let Some(action) = Action::parse(&form.action, form.mv.as_deref()) else {
        return Err(WebError::BadRequest("unknown action".into()));
    };
    let req = ActionRequest {
        game_id: id,
        user_id: me,
        ply: form.ply,
        action: action.clone(),
        message: form.message,
    };
    let now = state.now();
    let max = state.settings.game.max_message_chars;
    match state.db(move |c| play::act(c, now, max, &req)).await? {
        Ok(record) => {
            session::flash(&session, "info", done_text(&action, &record));
            Ok(see_other(&format!("/games/{id}")))
        }
        Err(PlayError::Db(e) | PlayError::Message(MessageError::Db(e))) => Err(e.into()),
        Err(PlayError::NotFound | PlayError::Message(MessageError::NotFound)) => {
            Err(WebError::NotFound)
        }
        Err(err) => {
            let Refusal { status, message } = refusal(err)?;
            let record = state
                .db(move |c| load_game(c, id))
                .await??
                .ok_or(WebError::NotFound)?;
            let mut page = build_page(&state, &session, &record, None, Some(message), typed)?;
            page.my_conditional = own_conditional_lines(&state, &session, &record).await?;
            fill_note(&state, &session, &record, &mut page.talk, false).await?;
            page.my_tags = super::tags::tag_box(&state, &session, id).await?;
            render(status, &page)
        }
    }
}

/// Draws the game page again with a refusal (`status`, `message`) and what was typed.
pub(super) async fn refuse(
    state: &AppState,
    session: &Session,
    id: i64,
    status: StatusCode,
    message: String,
    typed: Typed,
) -> Result<HttpResponse, WebError> {
    let record = state
        .db(move |c| load_game(c, id))
        .await??
        .ok_or(WebError::NotFound)?;
    let note_typed = typed.note.is_some();
    let mut page = build_page(state, session, &record, None, Some(message), typed)?;
    page.my_conditional = own_conditional_lines(state, session, &record).await?;
    fill_note(state, session, &record, &mut page.talk, note_typed).await?;
    page.my_tags = super::tags::tag_box(state, session, id).await?;
    render(status, &page)
}

/// Draws the game page again with a refused tag edit shown in the tag box.
pub(super) async fn show_with_tags(
    state: &AppState,
    session: &Session,
    id: i64,
    tags: super::tags::TagBox,
    status: StatusCode,
) -> Result<HttpResponse, WebError> {
    let record = state
        .db(move |c| load_game(c, id))
        .await??
        .ok_or(WebError::NotFound)?;
    let mut page = build_page(state, session, &record, None, None, Typed::default())?;
    page.my_conditional = own_conditional_lines(state, session, &record).await?;
    fill_note(state, session, &record, &mut page.talk, false).await?;
    page.my_tags = tags;
    render(status, &page)
}

/// Deletes the logged-in player's conditional lines in this game.
pub async fn clear_conditional(
    state: web::Data<AppState>,
    session: Session,
    path: web::Path<String>,
    form: web::Form<super::account::CsrfForm>,
) -> Result<HttpResponse, WebError> {
    let (id, me) = match game_form_sender(&session, &path, form.csrf_token())? {
        Ok(sender) => sender,
        Err(redirect) => return Ok(*redirect),
    };
    state
        .db(move |c| crate::usecases::conditional::clear_lines(c, id, me))
        .await??;
    session::flash(&session, "info", "Your conditional moves are cleared.");
    Ok(see_other(&format!("/games/{id}")))
}
