//! Bughouse boards and minesweeper games as the engine sees them: one board as crazyhouse, and nothing of the bombs a player may not know.

use slowfuse_engine::{BadPosition, EnginePosition, Level, Limits, best_move};
use slowfuse_rules::bughouse::Board;
use slowfuse_rules::minesweeper::{MinesweeperGame, MinesweeperOptions, Placement, Square};
use slowfuse_rules::{BughouseGame, Color};

fn chosen(white: &[Square], black: &[Square]) -> MinesweeperGame {
    let options = MinesweeperOptions {
        placement: Placement::Chosen,
        modest: false,
    };
    MinesweeperGame::new(options)
        .place_bombs(Color::White, white)
        .unwrap()
        .place_bombs(Color::Black, black)
        .unwrap()
}

const WHITE_BOMBS: [Square; 8] = [
    Square::A3,
    Square::B3,
    Square::C3,
    Square::D3,
    Square::E3,
    Square::F3,
    Square::G3,
    Square::H3,
];

#[test]
fn the_engine_knows_nothing_of_the_enemy_bombs() {
    let rank_six = [
        Square::A6,
        Square::B6,
        Square::C6,
        Square::D6,
        Square::E6,
        Square::F6,
        Square::G6,
        Square::H6,
    ];
    let rank_five = [
        Square::A5,
        Square::B5,
        Square::C5,
        Square::D5,
        Square::E5,
        Square::F5,
        Square::G5,
        Square::H5,
    ];
    let rank_four = [
        Square::A4,
        Square::B4,
        Square::C4,
        Square::D4,
        Square::E4,
        Square::F4,
        Square::G4,
        Square::H4,
    ];
    // Games 0 and 1 differ in Black's bombs only, games 0 and 2 in White's.
    let mut games = [
        chosen(&WHITE_BOMBS, &rank_six),
        chosen(&WHITE_BOMBS, &rank_five),
        chosen(&rank_four, &rank_six),
    ];
    for uci in ["e2e4", "b8c6", "g1f3", "g8h6", "f1c4"] {
        let answers: Vec<_> = games
            .iter()
            .map(|game| {
                let view = game.player_view(game.turn());
                let position = EnginePosition::from_minesweeper(&view).unwrap();
                best_move(&position, Level::Hard, &Limits::nodes(3_000), 5).unwrap()
            })
            .collect();
        let other = if games[0].turn() == Color::White {
            1
        } else {
            2
        };
        assert_eq!(
            answers[0], answers[other],
            "the bombs of the side not to move leaked"
        );
        for game in &mut games {
            *game = game.play_uci(uci).unwrap().0;
        }
    }
}

#[test]
fn the_engine_plays_minesweeper_moves_the_rules_accept() {
    let options = MinesweeperOptions {
        placement: Placement::Random,
        modest: false,
    };
    let mut game = MinesweeperGame::new(options).finish_setup(11).unwrap();
    for ply in 0..16u64 {
        if game.is_over() {
            break;
        }
        let view = game.player_view(game.turn());
        let position = EnginePosition::from_minesweeper(&view).unwrap();
        let found = best_move(&position, Level::Medium, &Limits::nodes(800), ply).unwrap();
        game = game.play_uci(&found.uci).expect("a legal move").0;
    }
    let waiting = game.player_view(!game.turn());
    if !game.is_over() {
        assert_eq!(
            EnginePosition::from_minesweeper(&waiting).unwrap_err(),
            BadPosition::NotYourTurn
        );
    }
}

#[test]
fn the_engine_plays_a_bughouse_board_as_crazyhouse() {
    let mut game = BughouseGame::new();
    for ply in 0..6u64 {
        let board = if ply % 2 == 0 { Board::A } else { Board::B };
        let position = EnginePosition::from_bughouse(&game, board).unwrap();
        let found = best_move(&position, Level::Easy, &Limits::nodes(500), ply).unwrap();
        game = game.play(board, &found.uci).expect("a legal move");
    }
    // A knight in hand mates at once: Black's king is boxed in by its own pieces.
    let mate = "6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1";
    let game = BughouseGame::from_fens(mate, slowfuse_rules::STANDARD_START_FEN).unwrap();
    let position = EnginePosition::from_bughouse(&game, Board::A).unwrap();
    let found = best_move(&position, Level::Hard, &Limits::nodes(5_000), 1).unwrap();
    assert_eq!(found.uci, "N@f7");
    assert_eq!(found.mate, Some(1));
}
