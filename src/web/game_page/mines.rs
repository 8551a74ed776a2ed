//! The game page of a minesweeper game: the same action bar, players and clocks, navigation
//! toolbar, tabs and board markup as every game, around a board panel of its own. During the
//! setup a player places their bombs on a board of checkboxes; during play, at the ply shown,
//! each player sees their own bombs (unless the options hide them from their owner) and the
//! counts they were told, everyone the blasts; after the end every bomb. [`MineKnowledge`] is the
//! one place that says what a reader may know, for this page and for the navigation's plies:
//! the opponent's bombs and counts are never in either.

use chrono::NaiveDateTime;
use slowfuse_rules::minesweeper::{MinesweeperGame, PublicMove, Square};
use slowfuse_rules::{BoardArray, Color, PlyMarks};

use super::actions::{self, ActionBar, offers};
use super::board::{BoardPanel, Drawn, Navigation, panel, side_shown};
use super::info::{self, VariantPanel};
use super::move_lines::write_line;
use super::players::{self, Players};
use super::settings::{SettingsForm, settings_form};
use super::standing::Standing;
use super::status::{self, StatusPanel};
use super::tags::{self, TagBox};
use super::viewer::{Rights, Viewer, ViewerExtras};
use super::{Occasion, Preview};
use crate::game::{GameRecord, GameStatus};
use crate::web::Layout;
use crate::web::board::{MineMarks, SQUARE_NAMES, SquareView, draw_squares};
use crate::web::material::material_line;
use crate::web::time_words::time_left_text;

/// What one reader may know of a minesweeper board after a number of plies.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MineSight {
    /// The reader's own bombs (every bomb once the game is over), spent ones too.
    pub bombs: Vec<Square>,
    /// The bombs that went off by then: public, everyone saw the pieces vanish.
    pub spent: Vec<Square>,
    /// The squares the last move's blast cleared (drawn as an explosion).
    pub cleared: Vec<Square>,
    /// The counts the reader was told by then, in move order: ply, square, bombs around.
    pub counts: Vec<(u32, Square, u8)>,
    /// The last move's squares (from, to), as square indices.
    pub last: Option<(u8, u8)>,
}

impl MineSight {
    /// The marks of square `name`: the latest count told there.
    pub fn marks(&self, name: &str) -> MineMarks {
        let here = |s: &Square| s.to_string() == name;
        MineMarks {
            bomb: self.bombs.iter().any(here),
            spent: self.spent.iter().any(here),
            count: self
                .counts
                .iter()
                .rev()
                .find(|(_, s, _)| here(s))
                .map(|c| c.2),
        }
    }
}

/// Everything one reader may know of a minesweeper game, read once from the rules' views;
/// [`MineKnowledge::at`] says what of it shows after a number of plies.
pub struct MineKnowledge {
    /// The reader's own bombs, or every bomb once the game is over.
    bombs: Vec<Square>,
    /// The counts told to the reader (every count once the game is over): ply, square, bombs.
    counts: Vec<(u32, Square, u8)>,
    /// The public moves, with their blasts.
    moves: Vec<PublicMove>,
}

impl MineKnowledge {
    /// What `reader` (the colour they play; `None` for a spectator or a visitor) may know of
    /// `game`: their own bombs and counts, and the public blasts; everything once the game is
    /// `over` (the record says so, and the rules agree).
    pub fn of(game: &MinesweeperGame, reader: Option<Color>, over: bool) -> MineKnowledge {
        let full = game.full_record().ok().filter(|_| over);
        let (bombs, counts, public) = match (full, reader) {
            (Some(full), _) => (
                full.bombs.iter().map(|b| b.square).collect(),
                full.counts
                    .iter()
                    .map(|(_, c)| (c.ply, c.square, c.bombs))
                    .collect(),
                full.public,
            ),
            (None, Some(color)) => {
                let view = game.player_view(color);
                (
                    view.own_bombs.iter().flatten().map(|b| b.square).collect(),
                    view.counts
                        .iter()
                        .map(|c| (c.ply, c.square, c.bombs))
                        .collect(),
                    view.public,
                )
            }
            (None, None) => (Vec::new(), Vec::new(), game.public_view()),
        };
        MineKnowledge {
            bombs,
            counts,
            moves: public.moves,
        }
    }

    /// What shows after `ply` moves: the bombs known, the blasts and counts by then, the
    /// squares the last move's blast cleared.
    pub fn at(&self, ply: u32) -> MineSight {
        let shown = ply.checked_sub(1).and_then(|i| self.moves.get(i as usize));
        MineSight {
            bombs: self.bombs.clone(),
            spent: self
                .moves
                .iter()
                .take(ply as usize)
                .filter_map(|m| m.blast.as_ref().map(|b| b.square))
                .collect(),
            cleared: shown
                .and_then(|m| m.blast.as_ref())
                .map(|b| b.removed.iter().map(|(s, _, _)| *s).collect())
                .unwrap_or_default(),
            counts: self
                .counts
                .iter()
                .copied()
                .filter(|(at, _, _)| *at <= ply)
                .collect(),
            last: shown.and_then(|m| {
                let from = slowfuse_rules::square_index(m.uci.get(0..2)?)?;
                let to = slowfuse_rules::square_index(m.uci.get(2..4)?)?;
                Some((from, to))
            }),
        }
    }
}

/// A square of the setup board: may the reader put a bomb there, and is one of theirs there.
pub struct SetupSquare {
    pub sq: SquareView,
    pub allowed: bool,
    pub bomb: bool,
}

/// The setup board of a player placing their bombs.
pub struct Setup {
    pub placed: usize,
    pub to_place: usize,
    pub squares: Vec<SetupSquare>,
}

/// The page: the fields the shared parts of `templates/game.html` read (`_action_bar.html`,
/// `_players.html`, `_board.html`, `_nav_toolbar.html`, `_share.html`), and the minesweeper
/// board panel's own.
#[derive(askama::Template)]
#[template(path = "minesweeper.html")]
pub struct MinesweeperPage {
    layout: Layout,
    id: i64,
    form_ply: i32,
    me: Rights,
    actions: ActionBar,
    board: BoardPanel,
    players: Players,
    status: StatusPanel,
    settings: SettingsForm,
    /// Never set: a minesweeper move is not shown before it is sent.
    confirm: Option<Preview>,
    resign_question: Option<String>,
    /// The options in words ("each player places 8 bombs on their own half").
    options: String,
    /// Blasts are modest: only the piece on the bomb goes.
    modest: bool,
    /// The reader places their bombs now.
    setup: Option<Setup>,
    /// The move list's lines, each move linked to its ply, with its blast and the reader's count.
    moves: String,
    material: String,
    variant: VariantPanel,
    my_tags: TagBox,
    share_url: String,
}

/// Everything the page is built from.
pub struct MinesInputs<'a> {
    pub record: &'a GameRecord,
    /// The rules' game with its secret rows: read here only through [`MineKnowledge`] and the
    /// reader's own view.
    pub game: &'a MinesweeperGame,
    pub viewer: Viewer,
    pub extras: ViewerExtras,
    pub occasion: &'a Occasion,
    pub now: NaiveDateTime,
    pub public_url: &'a str,
}

/// Builds the page for its one reader; no I/O.
pub fn build(layout: Layout, input: MinesInputs<'_>) -> MinesweeperPage {
    let MinesInputs {
        record,
        game,
        viewer,
        extras,
        occasion,
        now,
        ..
    } = input;
    let (asked_ply, flipped, refusal) = match occasion {
        Occasion::View { ply, flipped } => (*ply, *flipped, None),
        Occasion::Refused(refusal) => (None, false, Some(refusal)),
        _ => (None, false, None),
    };
    let standing = Standing::of(record, now);
    let me = Rights::of(&viewer, &standing);
    let public = game.public_view();
    let last_ply = u32::try_from(public.moves.len()).unwrap_or(0);
    let view_ply = asked_ply.unwrap_or(last_ply).min(last_ply);
    let over = !record.status.is_running();
    let reader = viewer.color();
    let known = MineKnowledge::of(game, reader, over);
    let sight = known.at(view_ply);
    let pieces: BoardArray = public.board_at(view_ply).unwrap_or([None; 64]);
    let prefs = &extras.preferences;
    let drawn = Drawn {
        view: mine_view(&pieces, &sight, side_shown(&viewer, prefs, flipped)),
        fen: public
            .fens
            .get(view_ply as usize)
            .cloned()
            .unwrap_or_default(),
        pockets: None,
    };
    let at = Navigation {
        view_ply,
        last_ply,
        flipped,
    };
    let mut board = panel(drawn, at, &standing, (&viewer, &me, prefs), || {
        let ucis: Vec<&str> = public.legal_moves.iter().map(|m| m.uci.as_str()).collect();
        ucis.join(" ")
    });
    board.mines = true;
    let claim_holds = game.can_claim_draw().is_some();
    let actions = actions::action_bar(record.kind, &standing, &viewer, refusal, now, claim_holds);
    let mut status = status::status_panel(&standing, &me, now);
    status.text = status_text(record, game, &standing, reader, now);
    status.give_time &= offers(record.kind, "give_time");
    let last = known.at(last_ply);
    MinesweeperPage {
        layout,
        id: record.game.id,
        form_ply: record.game.ply,
        actions,
        players: players::players(&standing, &viewer, extras.time_zone),
        status,
        settings: settings_form(
            prefs,
            viewer.id.is_some(),
            format!("/games/{}", record.game.id),
        ),
        confirm: None,
        resign_question: match occasion {
            Occasion::ConfirmResign { message } if me.can_act => Some(message.clone()),
            _ => None,
        },
        options: game.options().describe(),
        modest: game.options().modest,
        setup: setup_board(game, reader, &pieces),
        moves: move_lines(&public.moves, &last, view_ply),
        material: material_line(&pieces, None),
        variant: info::variant_panel(record.kind),
        my_tags: tags::tag_box(&viewer, &extras.tags, refusal),
        share_url: format!(
            "{}/games/{}",
            input.public_url.trim_end_matches('/'),
            record.game.id
        ),
        board,
        me,
    }
}

/// The squares of `pieces` seen from `side`, each with what the reader may know of it.
fn mine_view(pieces: &BoardArray, sight: &MineSight, side: Color) -> crate::web::board::BoardView {
    let marks = PlyMarks {
        from_to: sight.last,
        check: None,
        exploded: sight.cleared.iter().map(|&s| u8::from(s)).collect(),
    };
    let mut view = draw_squares(pieces, &marks, side);
    for sq in &mut view.squares {
        sq.mine = sight.marks(sq.name);
    }
    view
}

/// The setup board when `reader` may place bombs now: the squares of their half to tick, their
/// bombs ticked.
fn setup_board(
    game: &MinesweeperGame,
    reader: Option<Color>,
    pieces: &BoardArray,
) -> Option<Setup> {
    let color = reader?;
    let view = game.player_view(color);
    if !view.may_place_bombs {
        return None;
    }
    let bombs: Vec<String> = view
        .own_bombs
        .iter()
        .flatten()
        .map(|b| b.square.to_string())
        .collect();
    let allowed: Vec<String> = view.allowed_squares.iter().map(Square::to_string).collect();
    let squares = draw_squares(pieces, &PlyMarks::default(), color)
        .squares
        .into_iter()
        .map(|sq| SetupSquare {
            allowed: allowed.iter().any(|s| s == sq.name),
            bomb: bombs.iter().any(|s| s == sq.name),
            sq,
        })
        .collect();
    Some(Setup {
        placed: game.bombs_placed(color),
        to_place: game.options().bombs_of(Some(color)),
        squares,
    })
}

/// The move list: each move linked to its ply (the one shown marked), with the blast it set off
/// and the count the reader was told; Black's reply after such a note carries its number
/// again ("2... Qxd5"), as in PGN after a comment.
fn move_lines(moves: &[PublicMove], sight: &MineSight, view_ply: u32) -> String {
    let mut out = String::new();
    let mut noted = false;
    for (i, m) in moves.iter().enumerate() {
        let ply = i + 1;
        let mut notes = Vec::new();
        if let Some(blast) = &m.blast {
            notes.push(format!("blast on {}", blast.square));
        }
        if let Some((_, square, n)) = sight.counts.iter().find(|(p, _, _)| *p as usize == ply) {
            let s = if *n == 1 { "" } else { "s" };
            notes.push(format!("{n} bomb{s} next to {square}"));
        }
        let black = i % 2 == 1;
        let number = u32::try_from(i / 2 + 1).unwrap_or(0);
        let numbered = (!black || noted).then_some((number, black));
        let current = ply as u32 == view_ply;
        write_line(
            &mut out,
            numbered,
            ply,
            &m.san,
            current,
            notes.iter().map(String::as_str),
        );
        noted = !notes.is_empty();
    }
    out
}

/// The status line: the setup as the reader stands in it, else the game's, and after the end
/// that every bomb is shown.
fn status_text(
    record: &GameRecord,
    game: &MinesweeperGame,
    standing: &Standing,
    reader: Option<Color>,
    now: NaiveDateTime,
) -> String {
    match record.status {
        GameStatus::Setup => {
            let left = time_left_text(record.game.deadline_at, now);
            match reader {
                Some(c) if game.bombs_placed(c) >= game.options().bombs_of(Some(c)) => format!(
                    "Your bombs are placed. Waiting for your opponent; the setup ends in {left}."
                ),
                Some(_) => format!("Place your bombs: the setup ends in {left}."),
                None => format!("The players are placing their bombs (the setup ends in {left})."),
            }
        }
        GameStatus::Started => standing.text(),
        GameStatus::Finished => format!("{}. Every bomb is shown.", standing.text()),
        GameStatus::Aborted => "The game was called off.".to_string(),
    }
}

/// The square names a sight marks, for the navigation's plies: `(bombs, spent, counts)`.
pub fn sight_names(sight: &MineSight) -> (Vec<String>, Vec<String>, Vec<(String, u8)>) {
    let names = |v: &[Square]| v.iter().map(Square::to_string).collect::<Vec<_>>();
    let mut counts: Vec<(String, u8)> = Vec::new();
    for (_, square, n) in &sight.counts {
        let name = square.to_string();
        counts.retain(|(s, _)| *s != name);
        counts.push((name, *n));
    }
    counts.sort_by_key(|(s, _)| SQUARE_NAMES.iter().position(|n| n == s));
    (names(&sight.bombs), names(&sight.spent), counts)
}
