//! Tests of the minesweeper rules, with the positions written out.

use super::bombs::SplitMix64;
use super::*;
use crate::GameRules;
use crate::error::{ClaimError, MoveError};
use crate::outcome::{EndReason, Outcome};
use crate::pgn::PgnHeaders;
use shakmaty::Color;

const WHITE: Option<Color> = Some(Color::White);
const BLACK: Option<Color> = Some(Color::Black);

fn opts(placement: Placement, modest: bool) -> MinesweeperOptions {
    MinesweeperOptions { placement, modest }
}

fn chosen() -> MinesweeperOptions {
    MinesweeperOptions::default()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// Plays `input` for whoever is to move.
fn play(game: &MinesweeperGame, input: &str) -> (MinesweeperGame, MoveEvents) {
    game.play(game.turn(), input)
        .unwrap_or_else(|e| panic!("{input}: {e}"))
}

fn play_all(game: &MinesweeperGame, moves: &[&str]) -> MinesweeperGame {
    moves.iter().fold(game.clone(), |g, m| play(&g, m).0)
}

fn removed(events: &MoveEvents) -> Vec<String> {
    events
        .blast
        .as_ref()
        .map(|b| {
            b.removed
                .iter()
                .map(|(sq, color, role)| format!("{}{sq}", role.of(*color).char()))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_king_that_steps_on_an_enemy_bomb_loses() {
    for modest in [false, true] {
        let game = MinesweeperGame::from_position(
            opts(Placement::Chosen, modest),
            "4k3/8/8/8/4K3/8/8/8 w - - 0 1",
            &[("e5", BLACK)],
        );
        let (game, events) = play(&game, "Ke5");
        assert_eq!(removed(&events), ["Ke5"]);
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(Color::Black, EndReason::Explosion))
        );
        assert_eq!(game.public_view().moves[0].san, "Ke5");
        assert_eq!(game.fen(), "4k3/8/8/8/8/8/8/8 b - - 0 1");
        assert_eq!(
            game.play(Color::Black, "Kd7").unwrap_err(),
            PlayError::Move(MoveError::GameOver)
        );
    }
}

#[test]
fn own_bombs_never_harm_own_pieces() {
    // Black's king walks onto Black's bomb, White's king onto White's.
    let game = MinesweeperGame::from_position(
        chosen(),
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1",
        &[("e7", BLACK), ("d2", WHITE)],
    );
    let (game, events) = play(&game, "Ke7");
    assert_eq!(events.blast, None);
    let (game, events) = play(&game, "Kd2");
    assert_eq!(events.blast, None);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.fen(), "8/4k3/8/8/8/8/3K4/8 b - - 2 2");
}

#[test]
fn a_capture_onto_a_bomb_under_the_defender_blows_up_the_capturer() {
    let game = MinesweeperGame::from_position(
        chosen(),
        "4k3/8/5n2/8/8/8/8/4KR2 w - - 0 1",
        &[("f6", BLACK)],
    );
    let (game, events) = play(&game, "Rxf6");
    // The knight was captured; the rook that took it went up with the bomb.
    assert_eq!(removed(&events), ["Rf6"]);
    assert_eq!(game.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(game.outcome(), None);
}

#[test]
fn a_blast_removes_both_colours_and_pawns_around_the_bomb() {
    let fen = "4k3/8/2p1p3/8/2b1P3/2N5/8/4K3 w - - 0 1";
    let game = MinesweeperGame::from_position(chosen(), fen, &[("d5", BLACK)]);
    let (game, events) = play(&game, "Nd5");
    let blast = events.blast.clone().unwrap();
    assert_eq!(blast.square, sq("d5"));
    assert_eq!(blast.owner, BLACK);
    assert_eq!(removed(&events), ["bc4", "Pe4", "Nd5", "pc6", "pe6"]);
    assert_eq!(game.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    // The blasted piece arrived in the enemy half but is gone: no count.
    assert_eq!(events.count, None);
    assert_eq!(game.public_view().spent_bombs(), [(sq("d5"), BLACK, 1)]);
}

#[test]
fn a_modest_blast_removes_only_the_piece_on_the_bomb() {
    let fen = "4k3/8/2p1p3/8/2b1P3/2N5/8/4K3 w - - 0 1";
    let game = MinesweeperGame::from_position(opts(Placement::Chosen, true), fen, &[("d5", BLACK)]);
    let (game, events) = play(&game, "Nd5");
    assert_eq!(removed(&events), ["Nd5"]);
    assert_eq!(game.fen(), "4k3/8/2p1p3/8/2b1P3/8/8/4K3 b - - 0 1");
}

#[test]
fn a_piece_entering_the_enemy_half_is_told_the_bombs_around_it_spent_ones_included() {
    let game = MinesweeperGame::from_position(
        chosen(),
        "4k3/8/8/8/8/8/8/2R1K2Q w - - 0 1",
        &[
            ("c6", BLACK),
            ("e6", BLACK),
            ("h8", BLACK),
            ("d4", WHITE), // White's own bomb next to d5: never counted for White
            ("e4", WHITE),
        ],
    );
    let (game, events) = play(&game, "Rc6"); // sets off c6
    assert_eq!(removed(&events), ["Rc6"]);
    let (game, events) = play(&game, "Kf8");
    assert_eq!(events.count, None, "own half: nothing told");
    let (game, events) = play(&game, "Qe4"); // own half: no count
    assert_eq!(events.count, None);
    let (game, _) = play(&game, "Kf7");
    let (game, events) = play(&game, "Qd5+");
    let told = Count {
        ply: 5,
        square: sq("d5"),
        bombs: 2, // c6 (spent) and e6
    };
    assert_eq!(events.count, Some(told));
    // Black's king arrives in White's half later: told about White's bombs.
    let game = play_all(&game, &["Kg6", "Qa2", "Kg5", "Kd1", "Kf4"]);
    assert_eq!(game.player_view(Color::White).counts, [told]);
    assert_eq!(
        game.player_view(Color::Black).counts,
        [Count {
            ply: 10,
            square: sq("f4"),
            bombs: 1, // e4; d4 is not next to f4
        }]
    );
    let (quiet, events) = play(&game, "Qa7");
    assert_eq!(
        events.count,
        Some(Count {
            ply: 11,
            square: sq("a7"),
            bombs: 0
        })
    );
    assert_eq!(quiet.player_view(Color::White).counts.len(), 2);
}

#[test]
fn both_kings_in_one_blast_is_a_draw() {
    let game = MinesweeperGame::from_position(
        chosen(),
        "8/8/5k2/8/3K4/8/8/4R3 w - - 0 1",
        &[("e5", BLACK)],
    );
    let (game, events) = play(&game, "Re5");
    assert_eq!(removed(&events), ["Kd4", "Re5", "kf6"]);
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::VariantDraw)));
    assert_eq!(events.outcome, game.outcome());
    assert_eq!(game.public_view().outcome.unwrap().result(), "1/2-1/2");
}

#[test]
fn blowing_up_the_enemy_king_wins() {
    // Black's king stands on a black bomb (harmless to it); a white piece
    // that lands next to it on another black bomb takes it away.
    let game = MinesweeperGame::from_position(
        chosen(),
        "4k3/8/3N4/8/8/8/8/4K3 w - - 0 1",
        &[("e8", BLACK), ("f7", BLACK)],
    );
    let (game, events) = play(&game, "Nf7");
    assert_eq!(removed(&events), ["Nf7", "ke8"]);
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::Explosion))
    );
    assert_eq!(game.public_view().moves[0].san, "Nf7#");
}

#[test]
fn a_blast_that_leaves_the_movers_king_attacked_lets_the_opponent_capture_it() {
    // White's bishop on e6 shields White's king from the rook on e8; the
    // knight's blast on d5 takes the bishop with it. White's own bomb lies
    // under White's king.
    let game = MinesweeperGame::from_position(
        chosen(),
        "4r1k1/8/4B3/8/8/2N5/8/4K3 w - - 0 1",
        &[("d5", BLACK), ("e1", WHITE)],
    );
    let (game, events) = play(&game, "Nd5");
    assert_eq!(removed(&events), ["Nd5", "Be6"]);
    assert_eq!(game.fen(), "4r1k1/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(game.outcome(), None);
    let legal: Vec<String> = game.legal_moves().into_iter().map(|m| m.uci).collect();
    assert!(legal.contains(&"e8e1".to_owned()), "{legal:?}");
    assert!(legal.contains(&"g8h8".to_owned()));

    // Capturing the king wins, although the rook lands on White's bomb.
    let (won, events) = play(&game, "Rxe1");
    assert_eq!(removed(&events), ["re1"]);
    assert_eq!(
        won.outcome(),
        Some(Outcome::win(Color::Black, EndReason::VariantWin))
    );
    assert_eq!(won.public_view().moves[1].san, "Rxe1#");

    // Black may also decline; White is then in check and must answer it.
    let (declined, _) = play(&game, "Kh8");
    assert_eq!(declined.outcome(), None);
    assert_eq!(
        declined.play(Color::White, "Ke2").unwrap_err(),
        PlayError::Move(MoveError::Illegal("Ke2".to_owned()))
    );
    let (answered, _) = play(&declined, "Kd2");
    assert_eq!(answered.fen(), "4r2k/8/8/8/8/8/3K4/8 b - - 2 2");
}

#[test]
fn a_blast_that_uncovers_the_enemy_king_gives_check() {
    let game = MinesweeperGame::from_position(
        chosen(),
        "4k3/8/4n3/8/8/3N4/8/K3R3 w - - 0 1",
        &[("e5", BLACK)],
    );
    let (game, events) = play(&game, "Ne5");
    assert_eq!(removed(&events), ["Ne5", "ne6"]);
    assert_eq!(game.public_view().moves[0].san, "Ne5+");
    let legal: Vec<String> = game.legal_moves().into_iter().map(|m| m.san).collect();
    assert!(legal.iter().all(|m| m.starts_with('K')), "{legal:?}");
}

#[test]
fn two_bombs_may_share_a_square_and_only_the_enemy_one_goes_off() {
    let game = MinesweeperGame::from_position(
        opts(Placement::Anywhere, false),
        "3rk3/8/8/8/8/8/8/3QK3 w - - 0 1",
        &[("d5", WHITE), ("d5", BLACK)],
    );
    let (game, events) = play(&game, "Qd5");
    assert_eq!(events.blast.as_ref().unwrap().owner, BLACK);
    assert_eq!(removed(&events), ["Qd5"]);
    // White's bomb on d5 is still live: the black rook sets it off.
    let (game, events) = play(&game, "Rd5");
    assert_eq!(events.blast.as_ref().unwrap().owner, WHITE);
    assert_eq!(removed(&events), ["rd5"]);
    // Both are spent now; a third arrival sets nothing off.
    let game = play_all(&game, &["Kd2", "Kf7", "Kd3", "Kf6", "Kc4", "Kf5"]);
    let (_, events) = play(&game, "Kd5");
    assert_eq!(events.blast, None);
}

#[test]
fn en_passant_onto_a_bomb_blasts_around_the_landing_square() {
    let game = MinesweeperGame::from_position(
        chosen(),
        "4k3/2np4/8/4P3/8/8/8/4K3 b - - 0 1",
        &[("d6", BLACK)],
    );
    let (game, events) = play(&game, "d5"); // over Black's own bomb on d6
    assert_eq!(events.blast, None);
    assert_eq!(game.fen(), "4k3/2n5/8/3pP3/8/8/8/4K3 w - d6 0 2");
    let (game, events) = play(&game, "exd6");
    assert_eq!(removed(&events), ["Pd6", "nc7"]);
    assert_eq!(game.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 2");
}

#[test]
fn promotion_onto_a_bomb_loses_the_new_piece() {
    let game = MinesweeperGame::from_position(
        chosen(),
        "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        &[("a8", BLACK)],
    );
    let (game, events) = play(&game, "a8=Q");
    assert_eq!(removed(&events), ["Qa8"]);
    assert_eq!(game.public_view().moves[0].san, "a8=Q");
    assert_eq!(game.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn neutral_bombs_harm_both_sides_and_a_blasted_double_step_leaves_no_en_passant() {
    let game = MinesweeperGame::from_position(
        opts(Placement::Neutral, true),
        "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1",
        &[("e4", None), ("d3", None)],
    );
    let (game, events) = play(&game, "e4");
    assert_eq!(events.blast.as_ref().unwrap().owner, None);
    assert_eq!(removed(&events), ["Pe4"]);
    assert_eq!(game.fen(), "4k3/8/8/8/3p4/8/8/4K3 b - - 0 1");
    assert!(game.play(Color::Black, "dxe3").is_err());
    let (_, events) = play(&game, "d3");
    assert_eq!(removed(&events), ["pd3"]);
}

#[test]
fn no_hostile_bomb_can_lie_on_a_back_rank_so_castling_never_sets_one_off() {
    for &placement in Placement::ALL {
        let options = opts(placement, false);
        for color in [Color::White, Color::Black] {
            let hostile = [Some(!color), None];
            for owner in hostile {
                for square in options.allowed_squares(owner) {
                    assert_ne!(square.rank(), color.backrank(), "{placement:?} {owner:?}");
                }
            }
        }
    }
}

#[test]
fn random_placement_is_deterministic_and_follows_the_options() {
    for &placement in Placement::ALL {
        let options = opts(placement, false);
        for seed in 0..40 {
            let game = MinesweeperGame::new(options).finish_setup(seed).unwrap();
            assert!(!game.in_setup());
            assert_eq!(
                game,
                MinesweeperGame::new(options).finish_setup(seed).unwrap()
            );
            let bombs = &game.bombs;
            assert_eq!(bombs.len(), 16);
            for owner in [WHITE, BLACK, None] {
                let mine: Vec<Square> = bombs
                    .iter()
                    .filter(|b| b.owner == owner)
                    .map(|b| b.square)
                    .collect();
                assert_eq!(mine.len(), options.bombs_of(owner), "{placement:?}");
                let mut distinct = mine.clone();
                distinct.dedup();
                assert_eq!(distinct.len(), mine.len(), "sorted, so dedup finds twins");
                for square in mine {
                    let rank = square.rank() as u32 + 1;
                    let allowed = match (placement, owner) {
                        (Placement::Neutral, None) => (3..=6).contains(&rank),
                        (Placement::Anywhere, WHITE) => rank <= 5,
                        (Placement::Anywhere, BLACK) => rank >= 4,
                        (_, WHITE) => rank <= 4,
                        (_, BLACK) => rank >= 5,
                        _ => false,
                    };
                    assert!(allowed, "{placement:?} {owner:?} {square}");
                }
            }
        }
        let one = MinesweeperGame::new(options).finish_setup(1).unwrap();
        let two = MinesweeperGame::new(options).finish_setup(2).unwrap();
        assert_ne!(one.bombs, two.bombs, "{placement:?}");
    }
}

#[test]
fn the_deadline_keeps_chosen_bombs_and_fills_in_the_rest() {
    let chosen_squares = [sq("a1"), sq("e4"), sq("h2")];
    let game = MinesweeperGame::new(chosen())
        .place_bombs(Color::White, &chosen_squares)
        .unwrap();
    assert!(game.in_setup());
    assert_eq!(game.bombs_placed(Color::White), 3);
    assert_eq!(
        game.play(Color::White, "e4").unwrap_err(),
        PlayError::InSetup
    );
    let game = game.finish_setup(99).unwrap();
    let white: Vec<Square> = game
        .player_view(Color::White)
        .own_bombs
        .unwrap()
        .iter()
        .map(|b| b.square)
        .collect();
    assert_eq!(white.len(), 8);
    assert!(chosen_squares.iter().all(|s| white.contains(s)));
    assert_eq!(game.bombs_placed(Color::Black), 8);
    assert_eq!(game.finish_setup(99).unwrap_err(), BombError::SetupOver);
    assert!(play(&game, "e4").1.blast.is_none());
}

#[test]
fn bomb_placement_is_checked() {
    let game = MinesweeperGame::new(chosen());
    let place =
        |color: Color, squares: &str| game.place_bombs(color, &parse_squares(squares).unwrap());
    assert_eq!(
        place(Color::White, "a1 a5").unwrap_err(),
        BombError::OutsideRegion {
            square: sq("a5"),
            region: "ranks 1–4".to_owned()
        }
    );
    assert_eq!(
        place(Color::White, "a5").unwrap_err().to_string(),
        "a bomb cannot lie on a5: yours must be on ranks 1–4"
    );
    assert_eq!(
        place(Color::Black, "e4").unwrap_err().to_string(),
        "a bomb cannot lie on e4: yours must be on ranks 5–8"
    );
    assert_eq!(
        place(Color::White, "a1 b1, a1").unwrap_err(),
        BombError::Duplicate(sq("a1"))
    );
    assert_eq!(
        place(Color::White, "a1 b1 c1 d1 e1 f1 g1 h1 a2").unwrap_err(),
        BombError::TooMany { given: 9, max: 8 }
    );
    assert_eq!(
        parse_squares("a1 zz b2").unwrap_err(),
        BombError::Unreadable {
            position: 4,
            text: "zz".to_owned()
        }
    );
    // A later placement replaces the earlier one; play starts when both
    // sides have all 8.
    let game = place(Color::White, "a1 b1").unwrap();
    let game = game
        .place_bombs(
            Color::White,
            &parse_squares("A1 b2 c3 d4 e1 f2 g3 h4").unwrap(),
        )
        .unwrap();
    assert_eq!(game.bombs_placed(Color::White), 8);
    assert!(game.in_setup());
    let game = game
        .place_bombs(
            Color::Black,
            &parse_squares("a8 b7 c6 d5 e8 f7 g6 h5").unwrap(),
        )
        .unwrap();
    assert!(!game.in_setup());
    assert_eq!(
        game.place_bombs(Color::Black, &[sq("a8")]).unwrap_err(),
        BombError::SetupOver
    );
    // Option 3 widens the region; random options take no choice.
    let anywhere = MinesweeperGame::new(opts(Placement::Anywhere, false));
    assert!(anywhere.place_bombs(Color::White, &[sq("h5")]).is_ok());
    assert!(anywhere.place_bombs(Color::White, &[sq("h6")]).is_err());
    assert!(anywhere.place_bombs(Color::Black, &[sq("a4")]).is_ok());
    for placement in [
        Placement::Random,
        Placement::RandomHidden,
        Placement::Neutral,
    ] {
        assert_eq!(
            MinesweeperGame::new(opts(placement, false))
                .place_bombs(Color::White, &[sq("a1")])
                .unwrap_err(),
            BombError::NotChosen
        );
    }
}

#[test]
fn moves_are_refused_out_of_turn_and_when_unreadable() {
    let game = MinesweeperGame::new(chosen()).finish_setup(5).unwrap();
    assert_eq!(
        game.play(Color::Black, "e5").unwrap_err(),
        PlayError::NotYourTurn
    );
    assert_eq!(
        game.play(Color::White, "Nf5").unwrap_err().to_string(),
        "Nf5 is not a legal move here"
    );
    assert!(matches!(
        game.play(Color::White, "hello"),
        Err(PlayError::Move(MoveError::Unparsable(_)))
    ));
    // Lenient input as for other variants.
    let (game, _) = game.play(Color::White, "nf3").unwrap();
    let (game, _) = game.play(Color::Black, "g8f6").unwrap();
    assert_eq!(game.public_view().moves[1].san, "Nf6");
    let resigned = game.resign(Color::White).unwrap();
    assert_eq!(
        resigned.outcome(),
        Some(Outcome::win(Color::Black, EndReason::Resignation))
    );
    assert!(resigned.resign(Color::Black).is_err());
}

/// Two games with the same moves and blasts whose other bombs differ, and
/// so do White's counts.
fn twin_games() -> (MinesweeperGame, MinesweeperGame) {
    let white = parse_squares("a3 b3 c3 d3 f3 g3 h3 h4").unwrap();
    let black_a = parse_squares("d6 e6 f6 a8 b8 c8 h7 g7").unwrap();
    let black_b = parse_squares("e6 a5 b5 c5 h5 g8 h8 a7").unwrap();
    let moves = ["e4", "a6", "e5", "a5", "e6"];
    let make = |black: &[Square]| {
        let game = MinesweeperGame::new(chosen())
            .place_bombs(Color::White, &white)
            .unwrap()
            .place_bombs(Color::Black, black)
            .unwrap();
        play_all(&game, &moves)
    };
    (make(&black_a), make(&black_b))
}

#[test]
fn the_public_view_does_not_depend_on_any_secret() {
    let (a, b) = twin_games();
    assert_ne!(
        a.player_view(Color::White).counts,
        b.player_view(Color::White).counts
    );
    assert_eq!(a.player_view(Color::White).counts[0].bombs, 3); // d6 e6 f6
    assert_eq!(b.player_view(Color::White).counts[0].bombs, 1); // e6
    // The blast on e6 is public: the pawn that set it off and its neighbours.
    let blast = a.public_view().moves[4].blast.clone().unwrap();
    assert_eq!(blast.square, sq("e6"));
    assert_eq!(blast.removed.len(), 4, "{blast:?}"); // Pe6 pd7 pe7 pf7

    let (pa, pb) = (a.public_view(), b.public_view());
    assert_eq!(pa, pb);
    assert_eq!(format!("{pa:?}"), format!("{pb:?}"));
    let headers = PgnHeaders::default();
    assert_eq!(pa.pgn(&headers, &[]), pb.pgn(&headers, &[]));
    assert_eq!(a.fen(), b.fen());
    let debug = format!("{pa:?}").to_lowercase();
    assert!(!debug.contains("count"), "{debug}");
    assert!(!debug.contains("bomb {"), "{debug}");
    // The full state's Debug keeps the squares out as well.
    let game_debug = format!("{a:?}");
    assert!(game_debug.contains("16 (secret)"), "{game_debug}");
    assert_ne!(game_debug, format!("{:?}", a.bombs));
    assert_eq!(game_debug, format!("{b:?}"));
}

#[test]
fn a_player_sees_their_own_bombs_and_counts_but_not_the_opponents() {
    let (a, _) = twin_games();
    let view = a.player_view(Color::White);
    let own = view.own_bombs.clone().unwrap();
    assert_eq!(own.len(), 8);
    assert!(own.iter().all(|b| b.owner == WHITE && !b.is_spent()));
    assert_eq!(view.counts.len(), 1);
    let black = a.player_view(Color::Black);
    let own = black.own_bombs.unwrap();
    assert!(own.iter().all(|b| b.owner == BLACK));
    assert_eq!(own.iter().filter(|b| b.is_spent()).count(), 1);
    assert!(black.counts.is_empty());
    assert!(!view.may_place_bombs && view.allowed_squares.is_empty());
    // During the setup a player is shown where bombs may go.
    let setup = MinesweeperGame::new(chosen()).player_view(Color::Black);
    assert!(setup.may_place_bombs);
    assert_eq!(setup.allowed_squares.len(), 32);
    assert_eq!(setup.allowed_squares[0], sq("a5"));
}

#[test]
fn option_2_hides_the_bombs_from_their_owner_but_still_tells_counts() {
    let game = MinesweeperGame::new(opts(Placement::RandomHidden, false))
        .finish_setup(3)
        .unwrap();
    let mut told = Vec::new();
    let mut game = game;
    for m in ["Nc3", "Nc6", "Nb5", "Nb4", "Nxa7", "Nxa2"] {
        let (next, events) = play(&game, m);
        told.extend(events.count.map(|c| (game.turn(), c)));
        game = next;
    }
    for color in [Color::White, Color::Black] {
        let view = game.player_view(color);
        assert_eq!(view.own_bombs, None);
        let mine: Vec<Count> = told
            .iter()
            .filter(|(c, _)| *c == color)
            .map(|(_, c)| *c)
            .collect();
        assert!(!mine.is_empty());
        assert_eq!(view.counts, mine);
    }
}

#[test]
fn secret_state_rows_hold_only_their_players_part_and_restore_the_game() {
    let (a, _) = twin_games();
    assert_eq!(
        a.secret_state(Color::White),
        "bombs=a3,b3,c3,d3,f3,g3,h3,h4;counts=3:3"
    );
    assert_eq!(
        a.secret_state(Color::Black),
        "bombs=d6,e6,f6,g7,h7,a8,b8,c8;counts="
    );
    let moves: Vec<String> = a
        .public_view()
        .moves
        .iter()
        .map(|m| m.uci.clone())
        .collect();
    let restored = MinesweeperGame::restore(
        chosen(),
        &a.secret_state(Color::White),
        &a.secret_state(Color::Black),
        &moves,
    )
    .unwrap();
    assert_eq!(restored, a);

    let white = a.secret_state(Color::White);
    let black = a.secret_state(Color::Black);
    assert_eq!(
        MinesweeperGame::restore(chosen(), &white.replace("3:3", "3:2"), &black, &moves),
        Err(RestoreError::Counts {
            color: Color::White
        })
    );
    assert_eq!(
        MinesweeperGame::restore(chosen(), "bombs=a3,x9;counts=", &black, &[])
            .unwrap_err()
            .to_string(),
        "white's secret state, position 10: not a square like e4"
    );
    assert_eq!(
        MinesweeperGame::restore(chosen(), "bombs=a3", &black, &[])
            .unwrap_err()
            .to_string(),
        "white's secret state, position 9: expected \";counts=\" after the bombs"
    );
    assert_eq!(
        MinesweeperGame::restore(chosen(), &white, "bombs=a3;counts=", &[]),
        Err(RestoreError::Bombs {
            color: Color::Black,
            error: BombError::OutsideRegion {
                square: sq("a3"),
                region: "ranks 5–8".to_owned()
            }
        })
    );
    assert_eq!(
        MinesweeperGame::restore(chosen(), "bombs=a3;counts=", &black, &moves),
        Err(RestoreError::Incomplete)
    );
    // A game still in its setup comes back in its setup.
    let partial = MinesweeperGame::new(chosen())
        .place_bombs(Color::Black, &[sq("e5")])
        .unwrap();
    assert_eq!(partial.secret_state(Color::White), "bombs=;counts=");
    let back = MinesweeperGame::restore(
        chosen(),
        &partial.secret_state(Color::White),
        &partial.secret_state(Color::Black),
        &[],
    )
    .unwrap();
    assert_eq!(back, partial);
    assert!(back.in_setup());
}

#[test]
fn neutral_bombs_are_split_between_the_rows() {
    let options = opts(Placement::Neutral, false);
    let game = MinesweeperGame::new(options).finish_setup(11).unwrap();
    let white = game.secret_state(Color::White);
    let black = game.secret_state(Color::Black);
    assert_eq!(white.matches(',').count(), 7, "{white}");
    assert_eq!(black.matches(',').count(), 7, "{black}");
    let restored = MinesweeperGame::restore(options, &white, &black, &[]).unwrap();
    assert_eq!(restored, game);
}

#[test]
fn the_full_record_reveals_everything_only_after_the_end() {
    let (a, _) = twin_games();
    assert_eq!(a.full_record(), Err(NotOver));
    let headers = PgnHeaders {
        white: "Ann".to_owned(),
        black: "Bob".to_owned(),
        ..PgnHeaders::default()
    };
    let public = a
        .public_view()
        .pgn(&headers, &[None, Some("hm".to_owned())]);
    assert!(public.contains("[Variant \"Minesweeper\"]\n[MinesweeperOptions \"chosen\"]\n"));
    assert!(
        public.ends_with("1. e4 a6 { hm } 2. e5 a5 3. e6 { [%blast e6] } *\n\n"),
        "{public}"
    );
    assert!(!public.contains("Bombs"));
    assert!(!public.contains("%count"));

    let over = a.resign(Color::Black).unwrap();
    let record = over.full_record().unwrap();
    assert_eq!(record.bombs.len(), 16);
    assert_eq!(
        record.counts,
        [(Color::White, a.player_view(Color::White).counts[0])]
    );
    let full = record.pgn(&headers, &[]);
    assert!(full.contains("[Result \"1-0\"]"), "{full}");
    assert!(
        full.contains("[WhiteBombs \"a3 b3 c3 d3 f3 g3 h3 h4\"]\n"),
        "{full}"
    );
    assert!(
        full.contains("[BlackBombs \"d6 e6 f6 g7 h7 a8 b8 c8\"]\n"),
        "{full}"
    );
    assert!(
        full.ends_with("1. e4 a6 2. e5 { [%count e5 3] } 2... a5 3. e6 { [%blast e6] } 1-0\n\n"),
        "{full}"
    );
}

#[test]
fn time_and_dead_positions_reckon_with_the_bombs_still_live() {
    // Bare kings: whoever still has a live bomb could win by it.
    let game =
        MinesweeperGame::from_position(chosen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1", &[("e5", BLACK)]);
    assert_eq!(
        game.flag(Color::White).unwrap().outcome(),
        Some(Outcome::win(Color::Black, EndReason::Time))
    );
    assert_eq!(
        game.flag(Color::Black).unwrap().outcome(),
        Some(Outcome::draw(EndReason::Time))
    );
    assert_eq!(game.claim_draw().unwrap_err(), ClaimError::NotDrawn);
    let spent = MinesweeperGame::from_position(
        chosen(),
        "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1",
        &[("e6", BLACK)],
    );
    let (spent, _) = play(&spent, "Ne6");
    assert_eq!(
        spent.claim_draw().unwrap().outcome(),
        Some(Outcome::draw(EndReason::DeadPosition))
    );
}

#[test]
fn options_read_and_write_their_names() {
    for &placement in Placement::ALL {
        for modest in [false, true] {
            let options = opts(placement, modest);
            assert_eq!(options.as_str().parse(), Ok(options));
        }
    }
    assert_eq!("".parse(), Ok(chosen()));
    assert_eq!("Modest".parse(), Ok(opts(Placement::Chosen, true)));
    assert_eq!("2".parse(), Ok(opts(Placement::RandomHidden, false)));
    assert_eq!("neutral, 5".parse(), Ok(opts(Placement::Neutral, true)));
    assert!("random+neutral".parse::<MinesweeperOptions>().is_err());
    assert!("boom".parse::<MinesweeperOptions>().is_err());
}

/// Random games under every option: nothing panics, every stored game
/// restores to itself, and blasts are where the public view says. Some of
/// these games reach a king left attacked by a blast.
#[test]
fn random_games_replay_from_their_rows() {
    let mut attacked_kings = 0;
    for &placement in Placement::ALL {
        for modest in [false, true] {
            let options = opts(placement, modest);
            for seed in 0..30u64 {
                let mut rng = SplitMix64::new(seed * 31 + 7);
                let mut game = MinesweeperGame::new(options).finish_setup(seed).unwrap();
                let mut blasts = 0;
                while !game.is_over() && game.ply() < 160 {
                    let legal = game.legal_moves();
                    assert!(!legal.is_empty(), "{game:?}");
                    // A king left attacked by a blast: beyond shakmaty.
                    if super::chess::engine(game.positions.last().unwrap()).is_none() {
                        attacked_kings += 1;
                    }
                    let pick = usize::try_from(rng.below(legal.len() as u64)).unwrap();
                    let (next, events) = game.play(game.turn(), &legal[pick].san).unwrap();
                    blasts += usize::from(events.blast.is_some());
                    game = next;
                }
                // The public spent bombs are exactly the spent ones.
                let public = game.public_view();
                let mut spent: Vec<(Square, Option<Color>, u32)> = game
                    .bombs
                    .iter()
                    .filter_map(|b| b.exploded_at.map(|ply| (b.square, b.owner, ply)))
                    .collect();
                spent.sort_by_key(|s| s.2);
                assert_eq!(public.spent_bombs(), spent);
                assert_eq!(spent.len(), blasts);
                let moves: Vec<String> = public.moves.iter().map(|m| m.uci.clone()).collect();
                let restored = MinesweeperGame::restore(
                    options,
                    &game.secret_state(Color::White),
                    &game.secret_state(Color::Black),
                    &moves,
                )
                .unwrap();
                assert_eq!(restored, game, "{options} seed {seed}");
            }
        }
    }
    assert!(attacked_kings > 0);
}

#[test]
fn malformed_input_gives_errors_not_panics() {
    let rows = [
        "",
        "bombs",
        "bombs=;",
        "bombs=;counts",
        "bombs=;counts=1",
        "bombs=;counts=0:1",
        "bombs=;counts=1:9",
        "bombs=;counts=x:1",
        "bombs=,;counts=",
        "bombs=a1,,b1;counts=",
        "bombs=é4;counts=",
        "bombs=a1;counts=1:1;",
        "bombs=a1;counts=99999999999:1",
    ];
    for row in rows {
        assert!(
            MinesweeperGame::restore(chosen(), row, "bombs=;counts=", &[]).is_err(),
            "{row:?}"
        );
    }
    let mut rng = SplitMix64::new(1);
    let alphabet: Vec<char> = "bombs=counts;:,a1h8e4 é+#x".chars().collect();
    let game = MinesweeperGame::from_position(
        chosen(),
        "4r1k1/8/8/8/8/8/8/4K3 b - - 0 1", // White's king left attacked
        &[("e1", WHITE)],
    );
    for _ in 0..2000 {
        let len = usize::try_from(rng.below(24)).unwrap();
        let text: String = (0..len)
            .map(|_| alphabet[usize::try_from(rng.below(alphabet.len() as u64)).unwrap()])
            .collect();
        let _ = MinesweeperGame::restore(chosen(), &text, &text, std::slice::from_ref(&text));
        let _ = parse_squares(&text);
        let _ = game.play(Color::Black, &text);
        let _ = game.play_uci(&text);
        let _ = text.parse::<MinesweeperOptions>();
    }
}
