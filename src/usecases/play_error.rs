//! Why an action in a game was refused, in any kind of game: the one error of the action
//! pipeline (`usecases::play`), worded per kind where players read it differently (a game or a
//! match, board a or b).

use slowfuse_rules::bughouse::{Board, BughouseError};
use slowfuse_rules::{ClaimError, GameKind, MoveError};

use crate::game::{CorruptGame, RulesError};
use crate::usecases::conditional::ConditionalMoveError;
use crate::usecases::draw_offers::DrawError;
use crate::usecases::submit::SubmitError;
use crate::usecases::takeback::TakebackError;

/// The most days one gift of time may add.
pub const MAX_GIFT_DAYS: i64 = 30;

/// A board as players write it: `a` or `b`.
fn letter(board: Board) -> String {
    board.to_string().to_ascii_lowercase()
}

/// Why an action was refused, in any kind of game; the game is unchanged. A game is called a
/// match where it is one (bughouse).
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error("game not found")]
    NotFound,
    #[error("you are not playing in this {}", noun(*.0))]
    NotAPlayer(GameKind),
    #[error("you play on board {}, not board {}", letter(*.mine), letter(*.asked))]
    NotYourBoard { mine: Board, asked: Board },
    #[error(
        "this is a bughouse match: say which board you play on (\"board\": \"a\" or \"b\") and send that board's ply"
    )]
    NoBoard,
    #[error("this game is played on one board: leave \"board\" out")]
    OneBoard,
    #[error("send \"ply\": {} as you last saw it", ply_of_what(.0))]
    NoPly(Option<Board>),
    #[error("it is not your turn{}", on_board(.0))]
    NotYourTurn(Option<Board>),
    #[error("the {} is over", noun(*.0))]
    GameOver(GameKind),
    #[error("{}", stale_text(*.board, *.sent, *.current))]
    Stale {
        board: Option<Board>,
        sent: i32,
        current: i32,
    },
    #[error("the bombs are still being placed: play starts when the setup ends")]
    InSetup,
    #[error("{what} is not offered in {}", kind_words(*.kind))]
    NotOffered { what: &'static str, kind: GameKind },
    #[error("{0}")]
    Move(MoveError),
    #[error("{0}")]
    MatchMove(BughouseError),
    #[error("{0}")]
    Claim(ClaimError),
    #[error("{0}")]
    Conditional(slowfuse_rules::ConditionalError),
    #[error("your time ran out: the game is being ended")]
    TimeUp,
    #[error("your opponent still has time")]
    NotOverdue,
    #[error("give between 1 and {MAX_GIFT_DAYS} days, in a game with a clock")]
    BadGift,
    #[error(transparent)]
    Draw(#[from] DrawError),
    #[error("your opponent has offered a draw: accept or decline it rather than offer one")]
    TheirOfferStands,
    #[error(transparent)]
    Message(#[from] crate::usecases::messages::MessageError),
    #[error("the message is too long: at most {0} characters")]
    MessageTooLong(usize),
    #[error("write a message for your partner")]
    EmptyMessage,
    #[error("{}", empty_move_text(*.0))]
    EmptyMove(GameKind),
    #[error("{}", long_move_text(*.0))]
    MoveTooLong(GameKind),
    #[error(transparent)]
    Takeback(#[from] TakebackError),
    #[error(transparent)]
    Corrupt(#[from] CorruptGame),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

/// "match" for bughouse, else "game".
fn noun(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Bughouse => "match",
        GameKind::Chess(_) | GameKind::Minesweeper => "game",
    }
}

/// The kind as a sentence names it: "minesweeper", "a bughouse match", "this variant".
fn kind_words(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Minesweeper => "minesweeper",
        GameKind::Bughouse => "a bughouse match",
        GameKind::Chess(_) => "this game",
    }
}

fn ply_of_what(board: &Option<Board>) -> String {
    match board {
        Some(board) => format!("board {}'s ply", letter(*board)),
        None => "the game's ply".to_string(),
    }
}

fn on_board(board: &Option<Board>) -> String {
    match board {
        Some(board) => format!(" on board {}", letter(*board)),
        None => String::new(),
    }
}

fn stale_text(board: Option<Board>, sent: i32, current: i32) -> String {
    match board {
        Some(board) => format!(
            "board {} has moved on since you looked (you acted at its ply {sent}, it is now ply {current}): look at the new position and try again",
            letter(board)
        ),
        None => format!(
            "the game has moved on since your page was drawn (you acted at ply {sent}, it is now ply {current}): look at the new position and try again"
        ),
    }
}

fn empty_move_text(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Bughouse => "type a move, e.g. Nf3 or a drop such as P@e4",
        GameKind::Chess(_) | GameKind::Minesweeper => {
            "type a move in the move box (SAN such as Nf3 or UCI such as g1f3)"
        }
    }
}

fn long_move_text(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Bughouse => {
            "that is too long to be a move: write SAN such as Nf3, UCI such as g1f3 or a drop such as P@e4"
        }
        GameKind::Chess(_) | GameKind::Minesweeper => {
            "that is too long to be a move: write SAN such as Nf3 or UCI such as g1f3"
        }
    }
}

impl From<SubmitError> for PlayError {
    fn from(e: SubmitError) -> Self {
        match e {
            SubmitError::NotYourTurn => PlayError::NotYourTurn(None),
            SubmitError::Move(e) => PlayError::Move(e),
            SubmitError::Corrupt(e) => PlayError::Corrupt(e),
            SubmitError::Db(e) => PlayError::Db(e),
        }
    }
}

impl From<ConditionalMoveError> for PlayError {
    fn from(e: ConditionalMoveError) -> Self {
        match e {
            ConditionalMoveError::Lines(e) => PlayError::Conditional(e),
            ConditionalMoveError::NoOwnMove => {
                PlayError::EmptyMove(GameKind::Chess(slowfuse_rules::Variant::Standard))
            }
            ConditionalMoveError::Submit(e) => e.into(),
            ConditionalMoveError::Corrupt(e) => PlayError::Corrupt(e),
            ConditionalMoveError::Db(e) => PlayError::Db(e),
        }
    }
}

impl From<RulesError> for PlayError {
    fn from(e: RulesError) -> Self {
        match e {
            RulesError::Corrupt(c) => PlayError::Corrupt(c),
            RulesError::Db(d) => PlayError::Db(d),
        }
    }
}
