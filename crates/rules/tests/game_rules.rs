//! The one trait every kind of game implements: the same calls end a two-player game, a
//! bughouse match and a minesweeper game the same way, and each kind's view keeps its secrets.

use slowfuse_rules::bughouse::{BughouseEndReason, Seat};
use slowfuse_rules::minesweeper::{MinesweeperGame, MinesweeperOptions};
use slowfuse_rules::{
    BughouseGame, ClaimError, Color, EndReason, Game, GameOver, GameRules, MinesweeperView,
    Outcome, Variant,
};

/// Resigning, agreeing a draw and a second ending, written once for any kind.
fn ends_once<G: GameRules>(game: &G, player: G::Player) -> (G::Outcome, G::Outcome)
where
    G::Outcome: std::fmt::Debug,
{
    let resigned = game.resign(player).expect("a running game can be resigned");
    assert!(resigned.is_over());
    assert!(matches!(resigned.resign(player), Err(GameOver)));
    assert!(matches!(resigned.agree_draw(), Err(GameOver)));
    assert!(matches!(resigned.flag(player), Err(GameOver)));
    assert!(!resigned.is_turn_of(player));
    assert!(resigned.legal_moves_for(player).is_empty());
    let drawn = game.agree_draw().expect("a running game can be drawn");
    (
        GameRules::outcome(&resigned).unwrap(),
        GameRules::outcome(&drawn).unwrap(),
    )
}

fn placed_minesweeper() -> MinesweeperGame {
    MinesweeperGame::new(MinesweeperOptions::default())
        .finish_setup(7)
        .expect("a new game is in its setup")
}

#[test]
fn every_kind_resigns_and_draws_through_the_same_calls() {
    let (resigned, drawn) = ends_once(&Game::new(Variant::Atomic), Color::White);
    assert_eq!(resigned, Outcome::win(Color::Black, EndReason::Resignation));
    assert_eq!(drawn, Outcome::draw(EndReason::Agreement));

    let (resigned, drawn) = ends_once(&BughouseGame::new(), Seat::B2);
    assert_eq!(resigned.reason, BughouseEndReason::Resignation);
    assert_eq!(
        resigned.result(),
        "1-0",
        "B2 resigns: team A (a's White) wins"
    );
    assert_eq!(drawn.reason, BughouseEndReason::Agreement);
    assert_eq!(drawn.result(), "1/2-1/2");

    let (resigned, drawn) = ends_once(&placed_minesweeper(), Color::Black);
    assert_eq!(resigned, Outcome::win(Color::White, EndReason::Resignation));
    assert_eq!(drawn, Outcome::draw(EndReason::Agreement));
}

#[test]
fn running_out_of_time_loses_unless_the_opponent_could_never_win() {
    let game = Game::new(Variant::Standard);
    let flagged = game.flag(Color::White).unwrap();
    assert_eq!(
        GameRules::outcome(&flagged),
        Some(Outcome::win(Color::Black, EndReason::Time))
    );
    // Black has a bare king: White's flag draws.
    let bare = Game::from_fen(Variant::Standard, "4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1").unwrap();
    assert_eq!(
        GameRules::outcome(&bare.flag(Color::White).unwrap()),
        Some(Outcome::draw(EndReason::Time))
    );
    let lost = BughouseGame::new().flag(Seat::A1).unwrap();
    assert_eq!(
        lost.outcome().map(|o| o.reason),
        Some(BughouseEndReason::Time)
    );
}

#[test]
fn turns_and_moves_are_asked_of_a_player_in_every_kind() {
    let chess = Game::new(Variant::Standard);
    assert!(chess.is_turn_of(Color::White) && !chess.is_turn_of(Color::Black));
    assert_eq!(chess.legal_moves_for(Color::White).len(), 20);
    assert!(chess.legal_moves_for(Color::Black).is_empty());
    assert!(chess.play_for(Color::Black, "e5").is_err());
    assert!(chess.play_for(Color::White, "e4").is_ok());

    let bughouse = BughouseGame::new();
    // White moves first on both boards: A1 on board a, B2 on board b.
    assert!(bughouse.is_turn_of(Seat::A1) && bughouse.is_turn_of(Seat::B2));
    assert!(!bughouse.is_turn_of(Seat::A2) && !bughouse.is_turn_of(Seat::B1));
    assert!(bughouse.play_for(Seat::A2, "e5").is_err());
    let after = bughouse.play_for(Seat::B2, "e4").unwrap();
    assert!(after.is_turn_of(Seat::A2) && after.is_turn_of(Seat::A1));

    let mines = MinesweeperGame::new(MinesweeperOptions::default());
    assert!(
        !mines.is_turn_of(Color::White),
        "no one moves during the setup"
    );
    let mines = placed_minesweeper();
    assert!(mines.is_turn_of(Color::White));
    assert_eq!(mines.legal_moves_for(Color::White).len(), 20);
}

#[test]
fn a_match_has_no_draw_by_claim() {
    assert_eq!(
        BughouseGame::new().claim_draw().unwrap_err(),
        ClaimError::NoClaims
    );
    assert_eq!(
        GameRules::claim_draw(&Game::new(Variant::Standard)).unwrap_err(),
        ClaimError::NotDrawn
    );
}

#[test]
fn a_minesweeper_view_shows_a_player_their_own_bombs_and_others_none() {
    let game = placed_minesweeper();
    let MinesweeperView::Player(white) = game.view_for(Some(Color::White)) else {
        panic!("a player gets a player's view");
    };
    let own = white
        .own_bombs
        .expect("the default options show the owner their bombs");
    assert!(!own.is_empty());
    let public = game.view_for(None);
    assert!(matches!(public, MinesweeperView::Public(_)));
    assert_eq!(
        public.public(),
        &white.public,
        "the rest is the same for everyone"
    );
}
