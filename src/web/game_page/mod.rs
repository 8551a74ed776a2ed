//! The game page for one viewer: the viewer's own rows read once, a pure builder per panel,
//! and [`draw`], used for a plain view, a refused form and after the tag and talk forms. A
//! minesweeper game is drawn from the same panels around a board of its own (`mines.rs`).

mod actions;
mod board;
mod engine;
mod info;
mod mines;
mod move_lines;
mod moves;
mod players;
mod settings;
mod share;
pub mod standing;
mod status;
mod tags;
mod talk;
mod viewer;

use actix_session::Session;
use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template;
use std::sync::Arc;

use chrono::NaiveDateTime;
use slowfuse_rules::minesweeper::MinesweeperGame;
use slowfuse_rules::{Game, GameKind, PlayedMove};

use crate::game::{
    GameRecord, LeaveTaken, RecordCache, leave_taken, load_game_cached, read_game_cached,
};
use crate::usecases::engine_analysis::{EngineReview, read_review_of};
use crate::usecases::messages::readable_conversation;
use crate::usecases::minesweeper::secret_game;
use crate::web::errors::WebError;
use crate::web::{AppState, Layout, session};
use actions::ActionBar;
use board::BoardPanel;
use engine::EnginePanel;
use info::VariantPanel;
pub use mines::{MineKnowledge, MineSight, sight_names};
use moves::MoveList;
use players::Players;
pub use settings::{SettingsForm, settings_form};
use status::StatusPanel;
use tags::TagBox;
use talk::{TalkInput, TalkView};
pub use viewer::{Rights, Viewer, ViewerExtras, remember_preference};

/// What a refused form held, kept in its box when the page is drawn again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    /// The action bar (or a finished game's comment box): action, move, message.
    Action {
        action: String,
        mv: String,
        message: String,
    },
    Kibitz(String),
    Note(String),
    /// The tag box: the tag as typed (empty after a refused removal).
    Tag(String),
}

/// A form the server refused: the status to answer with, why, and what was typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: StatusCode,
    pub message: String,
    pub typed: Typed,
}

impl Refusal {
    pub fn new(status: StatusCode, message: impl Into<String>, typed: Typed) -> Refusal {
        Refusal {
            status,
            message: message.into(),
            typed,
        }
    }
}

/// A move shown on the board and not sent until the player confirms it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preview {
    /// The move as the rules read it: UCI (sent back on confirming) and SAN (shown).
    pub uci: String,
    pub san: String,
    /// The message to the opponent typed with it, kept in its box.
    pub message: String,
    /// A draw offer goes with the move ("Move and offer draw").
    pub offer_draw: bool,
    /// The game after the move.
    pub after: Game,
}

impl Preview {
    /// The preview of the last move of `after` (the move just judged), with `message`.
    pub fn of(after: Game, message: String) -> Preview {
        let last = after.moves().last().cloned().unwrap_or_else(|| PlayedMove {
            uci: String::new(),
            san: String::new(),
        });
        Preview {
            uci: last.uci,
            san: last.san,
            message,
            offer_draw: false,
            after,
        }
    }
}

/// Why the page is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Occasion {
    /// To look at the game after a number of plies (`None`: the current position), from the
    /// viewer's side or `flipped`.
    View { ply: Option<u32>, flipped: bool },
    /// To answer a refused form, at the current position.
    Refused(Refusal),
    /// To show a move that waits for `Confirm move` or `Cancel move`.
    Confirm(Box<Preview>),
    /// To ask whether the player really resigns (always asked), keeping their message.
    ConfirmResign { message: String },
    /// Back from that question with "Keep playing": the current position, the message typed
    /// with Resign back in its box.
    KeepPlaying { message: String },
}

/// The game page as drawn: one field per panel, each built by a pure function of the record,
/// the rules' game, the viewer, their [`ViewerExtras`] and the [`Occasion`]. A new tab is one
/// builder, one field here and one block in `templates/game.html` (and a field of
/// `ViewerExtras` when it shows the viewer's own rows).
#[derive(Template)]
#[template(path = "game.html")]
pub struct GamePage {
    layout: Layout,
    id: i64,
    /// The ply the page's forms are sent with (a stale page is refused).
    form_ply: i32,
    me: Rights,
    actions: ActionBar,
    board: BoardPanel,
    moves: MoveList,
    players: Players,
    status: StatusPanel,
    /// The material balance at the ply shown.
    material: String,
    variant: VariantPanel,
    talk: TalkView,
    my_tags: TagBox,
    /// The viewer's own conditional lines (only ever theirs).
    my_conditional: Option<String>,
    /// The game's address on this server (the Share tab).
    share_url: String,
    /// Whether the Analysis Board plays this variant (the tree itself is fetched by its
    /// owner's script, never drawn into the page).
    analysis_offered: bool,
    /// The Engine Analysis tab.
    engine: EnginePanel,
    /// What a shared link shows (the page's head).
    og: share::OpenGraph,
    /// The toolbar's Settings panel.
    settings: SettingsForm,
    /// An imported game's origin as its PGN tells it ("Imported from PGN: Event, Site, Date").
    imported: Option<String>,
    /// A move waiting for the player's confirmation (the action bar asks instead).
    confirm: Option<Preview>,
    /// Asking whether the player resigns: the message typed with it.
    resign_question: Option<String>,
}

/// Everything the page is built from, gathered before any panel is.
pub struct PageInputs<'a> {
    pub record: &'a GameRecord,
    /// The rules' two-player game of the record (shared with the replay cache).
    pub game: &'a Arc<Game>,
    pub viewer: Viewer,
    pub extras: ViewerExtras,
    /// The leave the players took during the game, for the move list.
    pub leave: &'a [LeaveTaken],
    pub occasion: &'a Occasion,
    pub now: NaiveDateTime,
    pub max_chars: usize,
    /// The server's public address, e.g. `https://chess.example.org`.
    pub public_url: &'a str,
    /// The game's engine analysis, when someone asked for one.
    pub engine_review: Option<&'a EngineReview>,
}

impl GamePage {
    /// Builds every panel from the inputs; no I/O.
    pub fn build(layout: Layout, input: PageInputs<'_>) -> GamePage {
        let PageInputs {
            record,
            game,
            viewer,
            extras,
            ..
        } = input;
        let (asked_ply, flipped, refusal, preview) = match input.occasion {
            Occasion::View { ply, flipped } => (*ply, *flipped, None, None),
            Occasion::Refused(refusal) => (None, false, Some(refusal), None),
            Occasion::Confirm(preview) => (None, false, None, Some(preview.as_ref())),
            Occasion::ConfirmResign { .. } | Occasion::KeepPlaying { .. } => {
                (None, false, None, None)
            }
        };
        let resign_question = match input.occasion {
            Occasion::ConfirmResign { message } => Some(message.clone()),
            _ => None,
        };
        // A move waiting for confirmation is shown on the board, after the last ply.
        let shown = preview.map_or(&**game, |p| &p.after);
        let view_ply = asked_ply.unwrap_or(shown.ply()).min(shown.ply());
        let standing = standing::Standing::of(record, input.now);
        let me = Rights::of(&viewer, &standing);
        let conversation = if viewer.hides_comments {
            Vec::new()
        } else {
            let mut entries = readable_conversation(record, viewer.id);
            entries.extend(
                input
                    .leave
                    .iter()
                    .map(|l| moves::leave_entry(l, viewer.id, input.now, extras.time_zone)),
            );
            entries.sort_by_key(|e| (e.ply, e.written_at));
            entries
        };
        let talk = TalkInput {
            asked_ply,
            typed: refusal.map(|r| &r.typed),
            note: extras.note.as_deref(),
            max_chars: input.max_chars,
        };
        let mut actions = actions::action_bar(
            record.kind,
            &standing,
            &viewer,
            refusal,
            input.now,
            game.can_claim_draw().is_some(),
        );
        if let Occasion::KeepPlaying { message } = input.occasion {
            actions.message_value.clone_from(message);
        }
        GamePage {
            layout,
            id: record.game.id,
            form_ply: record.game.ply,
            actions,
            board: board::board_panel(
                shown,
                view_ply,
                flipped,
                &standing,
                &viewer,
                &me,
                &extras.preferences,
            )
            .waiting(preview.is_some()),
            moves: moves::move_list(record.game.id, game, &conversation, view_ply),
            players: players::players(&standing, &viewer, extras.time_zone),
            status: status::status_panel(&standing, &me, input.now),
            material: info::material_text(game, view_ply),
            variant: info::variant_panel(record.kind),
            talk: talk::talk_view(record, &viewer, talk),
            my_tags: tags::tag_box(&viewer, &extras.tags, refusal),
            my_conditional: extras.conditional,
            settings: settings_form(
                &extras.preferences,
                viewer.id.is_some(),
                format!("/games/{}", record.game.id),
            ),
            imported: record.imported.as_ref().map(imported_line),
            confirm: preview.cloned(),
            resign_question,
            analysis_offered: crate::usecases::analysis::offered_for(record.kind).is_some(),
            engine: engine::engine_panel(
                record,
                move_lines::Numbering::of(game),
                input.engine_review,
                viewer.id.is_some(),
                view_ply,
            ),
            og: share::open_graph(
                record,
                &info::variant_panel(record.kind).name,
                input.public_url,
            ),
            share_url: format!(
                "{}/games/{}",
                input.public_url.trim_end_matches('/'),
                record.game.id
            ),
            me,
        }
    }
}

/// The record and the viewer's own rows, read on one connection as of one moment.
struct Loaded {
    record: GameRecord,
    extras: ViewerExtras,
    leave: Vec<LeaveTaken>,
    review: Option<EngineReview>,
    /// A minesweeper game with its secret rows, read in the same snapshot as the record.
    mines: Option<MinesweeperGame>,
}

/// Reads what the page of game `id` needs for `me`; `None` for no such game.
fn load(
    conn: &mut crate::db::DbConnection,
    records: &RecordCache,
    id: i64,
    me: Option<i64>,
    now: NaiveDateTime,
) -> Result<Option<Loaded>, WebError> {
    if me.is_none() {
        // A visitor has no rows of their own: the record (one query of its revision when it is
        // kept), then only what it calls for, each of which a later write cannot change (the
        // moves before a leave began, the finished game's review). No snapshot needed, but for
        // a minesweeper game, whose secret rows must be read as of the record.
        let Some(record) = read_game_cached(conn, records, id)? else {
            return Ok(None);
        };
        if record.kind != GameKind::Minesweeper {
            let (leave, review) = leave_and_review(conn, &record, now)?;
            return Ok(Some(Loaded {
                record,
                extras: ViewerExtras::default(),
                leave,
                review,
                mines: None,
            }));
        }
    }
    crate::db::read_snapshot(conn, |conn| {
        let Some(record) = load_game_cached(conn, records, id)? else {
            return Ok(None);
        };
        let extras = ViewerExtras::load(conn, &record, &Viewer::of(&record, me, false))?;
        let (leave, review) = leave_and_review(conn, &record, now)?;
        let mines = match record.kind {
            GameKind::Minesweeper => Some(secret_game(conn, &record).map_err(WebError::internal)?),
            GameKind::Chess(_) | GameKind::Bughouse => None,
        };
        Ok(Some(Loaded {
            record,
            extras,
            leave,
            review,
            mines,
        }))
    })
}

/// What the record calls for, the same for every viewer: the players' leave during the game,
/// and a finished game's engine review.
fn leave_and_review(
    conn: &mut crate::db::DbConnection,
    record: &GameRecord,
    now: NaiveDateTime,
) -> Result<(Vec<LeaveTaken>, Option<EngineReview>), WebError> {
    let leave = leave_taken(conn, record, now)?;
    let review = if record.status.is_running() {
        None
    } else {
        read_review_of(conn, record)?
    };
    Ok((leave, review))
}

/// Draws game `id` for the session's viewer: 200 for a view, the refusal's status otherwise.
pub async fn draw(
    state: &AppState,
    session: &Session,
    id: i64,
    occasion: Occasion,
) -> Result<HttpResponse, WebError> {
    let me = session::current_user_id(session);
    let records = state.records.clone();
    let now = state.now();
    let Loaded {
        record,
        extras,
        leave,
        review,
        mines,
    } = state
        .db(move |c| load(c, &records, id, me, now))
        .await??
        .ok_or(WebError::NotFound)?;
    let viewer = Viewer::of(&record, me, viewer::comments_hidden(session));
    let status = match &occasion {
        Occasion::View { .. }
        | Occasion::Confirm(_)
        | Occasion::ConfirmResign { .. }
        | Occasion::KeepPlaying { .. } => StatusCode::OK,
        Occasion::Refused(refusal) => refusal.status,
    };
    if let GameKind::Bughouse = record.kind {
        // Two boards and four players: the match has a page of its own.
        let occasion = crate::web::match_page::MatchOccasion::View;
        return crate::web::match_page::draw(state, session, id, occasion).await;
    }
    if let Some(game) = &mines {
        // Hidden bombs: the game page's panels around a board drawn for this one reader.
        let inputs = mines::MinesInputs {
            record: &record,
            game,
            viewer,
            extras,
            occasion: &occasion,
            now,
            public_url: &state.settings.server.public_url,
        };
        let page = mines::build(Layout::from_session(session), inputs);
        return crate::web::respond::render(status, &page);
    }
    let game = record.chess_game().map_err(WebError::internal)?;
    let inputs = PageInputs {
        record: &record,
        game: &game,
        viewer,
        extras,
        leave: &leave,
        occasion: &occasion,
        now,
        max_chars: state.settings.game.max_message_chars,
        public_url: &state.settings.server.public_url,
        engine_review: review.as_ref(),
    };
    let page = GamePage::build(Layout::from_session(session), inputs);
    // Room for the whole page at once: a long game's move list would otherwise grow the
    // answer's buffer (and copy it) several times.
    let mut body = String::with_capacity(PAGE_BYTES + page.moves.items.len());
    page.render_into(&mut body).map_err(WebError::internal)?;
    Ok(HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(body))
}

/// About the size of a game page without its moves.
const PAGE_BYTES: usize = 32 * 1024;

/// "Imported from PGN: Event, Site, Date": the tags that say where the game was played (those
/// the PGN gives).
fn imported_line(imported: &crate::game::ImportedPlayers) -> String {
    let said: Vec<&str> = ["Event", "Site", "Date"]
        .into_iter()
        .filter_map(|t| imported.tag(t))
        .filter(|v| !v.trim().is_empty() && !v.starts_with('?'))
        .collect();
    if said.is_empty() {
        "Imported from PGN.".to_string()
    } else {
        format!("Imported from PGN: {}.", said.join(", "))
    }
}
