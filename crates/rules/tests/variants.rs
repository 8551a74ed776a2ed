//! Each rule of the variants, with its position written out: atomic corners,
//! antichess, crazyhouse, king of the hill, three-check, racing kings,
//! horde and Chess960.

use slowfuse_rules::{
    Color, EndReason, Game, MoveError, Outcome, PgnHeaders, PgnReadOptions, Pocket, Role, Variant,
    read_pgn, square_index, write_pgn,
};

fn fen_game(variant: Variant, fen: &str) -> Game {
    Game::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play_all(mut game: Game, moves: &[&str]) -> Game {
    for m in moves {
        game = game
            .play(m)
            .unwrap_or_else(|e| panic!("{m} should be legal in {}: {e}", game.fen()));
    }
    game
}

fn piece(game: &Game, square: &str) -> Option<(Color, Role)> {
    game.board_at(game.ply()).unwrap()[usize::from(square_index(square).unwrap())]
}

fn legal_uci(game: &Game) -> Vec<String> {
    game.legal_moves().into_iter().map(|m| m.uci).collect()
}

// ---- Atomic ------------------------------------------------------------

#[test]
fn atomic_castling_next_to_the_enemy_king() {
    // The kings touch (e1, f2); f1 and g1 touch the black king too, so the
    // rook on g8 gives no check there and White may castle.
    let game = fen_game(Variant::Atomic, "6r1/8/8/8/8/8/5k2/4K2R w K - 0 1");
    assert!(!game.is_check());
    let castled = game.play("O-O").unwrap();
    assert_eq!(castled.fen(), "6r1/8/8/8/8/8/5k2/5RK1 b - - 1 1");
    assert_eq!(castled.moves()[0].uci, "e1g1");
    // Away from the black king, g1 is attacked by the rook: no castling.
    let apart = fen_game(Variant::Atomic, "k5r1/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(apart.play("O-O"), Err(MoveError::Illegal("O-O".to_owned())));
}

#[test]
fn atomic_en_passant_blast_is_centred_on_the_landing_square() {
    // exd6 e.p.: the blast is centred on d6, where the pawn lands, not on
    // d5 where the captured pawn stood.
    let game = fen_game(Variant::Atomic, "4k3/2r5/8/3pP3/2n5/8/8/K7 w - d6 0 1");
    let game = game.play("exd6").unwrap();
    assert_eq!(piece(&game, "d6"), None, "the capturing pawn goes");
    assert_eq!(piece(&game, "d5"), None, "the captured pawn goes");
    assert_eq!(piece(&game, "c7"), None, "c7 touches d6: exploded");
    assert_eq!(
        piece(&game, "c4"),
        Some((Color::Black, Role::Knight)),
        "c4 touches d5 but not d6: survives"
    );
}

#[test]
fn atomic_explosion_of_both_kings_is_illegal() {
    // Rxe2 would blow up d1 and d3: both kings.
    let game = fen_game(Variant::Atomic, "8/8/8/8/8/3k4/4n2R/3K4 w - - 0 1");
    assert_eq!(
        game.play("Rxe2"),
        Err(MoveError::Illegal("Rxe2".to_owned()))
    );
    assert!(!legal_uci(&game).contains(&"h2e2".to_owned()));
    // In standard chess the same capture is an ordinary move.
    let standard = fen_game(Variant::Standard, "8/8/8/8/8/3k4/4n2R/3K4 w - - 0 1");
    assert!(standard.play("Rxe2").is_ok());
}

#[test]
fn atomic_touching_kings_give_no_check() {
    // Kd7 puts the white king next to the black one: legal in atomic, and
    // no check either way.
    let game = fen_game(Variant::Atomic, "3k4/8/3K4/8/8/8/7r/8 w - - 0 1");
    let game = game.play("Kd7").unwrap();
    assert!(!game.is_check());
    assert_eq!(game.outcome(), None);
    // A king touching the enemy king is not in check from a rook either.
    let touching = fen_game(Variant::Atomic, "8/8/8/8/3k4/3K4/8/3r4 w - - 0 1");
    assert!(!touching.is_check());
    // Stepping away into the rook's file is illegal again.
    assert!(touching.play("Kc2").is_ok());
    assert!(touching.play("Ke2").is_ok());
    assert!(
        touching.play("Kd2").is_err(),
        "d2 is on the rook's file and away from d4"
    );
}

#[test]
fn atomic_exploding_the_enemy_king_beats_being_in_check() {
    // White is in check from the e8 rook; Qxb7 does not answer the check,
    // but blows up the black king on a8, so it is legal and wins.
    let game = fen_game(Variant::Atomic, "k3r3/1n6/8/8/8/8/8/1Q2K3 w - - 0 1");
    assert!(game.is_check());
    assert!(
        game.play("Qb2").is_err(),
        "an ordinary move must answer the check"
    );
    let game = game.play("Qxb7").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::Explosion))
    );
    assert_eq!(game.moves()[0].san, "Qxb7#");
}

// ---- Antichess -----------------------------------------------------------

#[test]
fn antichess_captures_are_forced_and_kings_are_ordinary() {
    let game = play_all(Game::new(Variant::Antichess), &["e3", "b5"]);
    assert_eq!(legal_uci(&game), ["f1b5"], "the only capture is forced");
    // The refusal names the capture that must be made instead.
    let refused = game.play("Nf3").unwrap_err();
    assert_eq!(
        refused,
        MoveError::MustCapture {
            input: "Nf3".to_owned(),
            captures: vec!["Bxb5".to_owned()],
        }
    );
    assert_eq!(
        refused.to_string(),
        "Nf3 is not allowed: you must capture (Bxb5)"
    );
    // Without a capture on the board, an impossible move is simply not legal.
    assert_eq!(
        Game::new(Variant::Antichess).play("e5"),
        Err(MoveError::Illegal("e5".to_owned()))
    );
    let game = game.play("Bxb5").unwrap();
    assert!(!game.is_check(), "no check in antichess");
    // The antichess start has no castling rights.
    assert!(Game::new(Variant::Antichess).fen().contains(" w - - "));
}

#[test]
fn antichess_losing_every_piece_wins() {
    // Black must take the last white piece; then White has nothing: White wins.
    let game = fen_game(Variant::Antichess, "8/8/8/8/8/8/p7/1R6 b - - 0 1");
    let game = game.play("axb1=Q").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::VariantWin))
    );
    assert_eq!(game.outcome().unwrap().result(), "1-0");
}

#[test]
fn antichess_being_stalemated_wins() {
    let game = fen_game(Variant::Antichess, "8/8/8/8/p7/P7/8/8 w - - 0 1");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::VariantWin))
    );
}

// ---- Crazyhouse ----------------------------------------------------------

#[test]
fn crazyhouse_drops_and_the_promoted_piece_demoted_on_capture() {
    let game = fen_game(Variant::Crazyhouse, "r3k3/1P6/8/8/8/8/8/4K3[] w - - 0 1");
    let game = game.play("b8=Q+").unwrap();
    assert_eq!(game.fen(), "rQ~2k3/8/8/8/8/8/8/4K3[] b - - 0 1");
    let game = game.play("Rxb8").unwrap();
    // The promoted queen goes to Black's pocket as a pawn.
    let pockets = game.pockets_at(game.ply()).unwrap();
    assert_eq!(
        pockets.black,
        Pocket {
            pawns: 1,
            ..Pocket::default()
        }
    );
    assert!(pockets.white.is_empty());
    assert_eq!(game.fen(), "1r2k3/8/8/8/8/8/8/4K3[p] w - - 0 2");

    let game = game.play("Kd1").unwrap();
    // A pawn may not be dropped on the first or last rank.
    assert!(game.play("P@a1").is_err());
    // `@d3` is a pawn drop, as are `P@d3` and `p@d3`.
    for input in ["@d3", "P@d3", "p@d3"] {
        let dropped = game.play(input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(dropped.moves()[3].uci, "P@d3");
        assert_eq!(dropped.moves()[3].san, "P@d3");
        assert_eq!(piece(&dropped, "d3"), Some((Color::Black, Role::Pawn)));
        let d3 = square_index("d3").unwrap();
        assert_eq!(dropped.last_move_squares(), Some((d3, d3)));
        assert!(dropped.pockets_at(dropped.ply()).unwrap().black.is_empty());
        assert_eq!(dropped.pockets_at(3), game.pockets_at(3));
    }
    // Nothing else is in hand.
    assert!(game.play("N@f3").is_err());
}

#[test]
fn crazyhouse_captured_pieces_change_colour_and_come_back() {
    let game = play_all(
        Game::new(Variant::Crazyhouse),
        &["e4", "d5", "exd5", "Nf6", "Nc3", "Nxd5", "Nxd5", "Qxd5"],
    );
    let pockets = game.pockets_at(game.ply()).unwrap();
    let one_each = Pocket {
        pawns: 1,
        knights: 1,
        ..Pocket::default()
    };
    assert_eq!((pockets.white, pockets.black), (one_each, one_each));
    assert!(game.fen().contains("[PNpn]"), "{}", game.fen());
    let game = play_all(game, &["Nf3", "N@e5"]);
    assert_eq!(game.moves().last().unwrap().uci, "N@e5");
    // Pockets are only in crazyhouse.
    assert_eq!(Game::new(Variant::Standard).pockets_at(0), None);
}

// ---- King of the hill, three-check, racing kings, horde ---------------

#[test]
fn king_of_the_hill_king_in_the_centre_wins() {
    let game = fen_game(Variant::KingOfTheHill, "4k3/8/8/8/8/3K4/8/8 w - - 0 1");
    let game = game.play("Kd4").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::VariantWin))
    );
}

#[test]
fn three_check_third_check_wins() {
    let game = fen_game(Variant::ThreeCheck, "4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1");
    let game = game.play("Ra8+").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::VariantWin))
    );
    // Game::new starts with three checks to give each.
    assert!(Game::new(Variant::ThreeCheck).fen().contains(" 3+3 "));
}

#[test]
fn racing_kings_first_to_the_eighth_rank_wins_or_black_equalises() {
    let game = Game::new(Variant::RacingKings);
    assert_eq!(game.fen(), "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1");
    assert!(game.is_standard_start());

    let game = fen_game(Variant::RacingKings, "8/6K1/k7/8/8/8/8/8 w - - 0 1");
    let won = game.play("Kg8").unwrap();
    assert_eq!(
        won.outcome(),
        Some(Outcome::win(Color::White, EndReason::VariantWin))
    );

    // Black can still reach the eighth rank in reply: a draw if it does.
    let game = fen_game(Variant::RacingKings, "8/1k4K1/8/8/8/8/8/8 w - - 0 1");
    let game = game.play("Kg8").unwrap();
    assert_eq!(game.outcome(), None);
    let drawn = game.play("Kb8").unwrap();
    assert_eq!(drawn.outcome(), Some(Outcome::draw(EndReason::VariantDraw)));
}

#[test]
fn horde_black_wins_by_taking_every_white_piece() {
    let game = Game::new(Variant::Horde);
    assert_eq!(
        game.fen(),
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
    );
    let game = fen_game(Variant::Horde, "4k3/8/8/8/8/8/3P4/3r4 b - - 0 1");
    let game = game.play("Rxd2").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::VariantWin))
    );
}

// ---- Chess960 ------------------------------------------------------------

#[test]
fn chess960_start_positions_by_number() {
    assert_eq!(
        Game::chess960(518).unwrap().fen(),
        Game::new(Variant::Standard).fen()
    );
    assert_eq!(
        Game::new(Variant::Chess960).fen(),
        Game::new(Variant::Standard).fen()
    );
    let game = Game::chess960(0).unwrap();
    assert_eq!(game.variant(), Variant::Chess960);
    assert_eq!(
        game.fen(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    assert!(
        !game.is_standard_start(),
        "a Chess960 start is always recorded"
    );
    assert!(Game::chess960(959).is_ok());
    assert_eq!(
        Game::chess960(960).unwrap_err().to_string(),
        "illegal position: there is no Chess960 start position 960: they are numbered 0 to 959"
    );
}

#[test]
fn chess960_castling_is_stored_as_king_takes_rook() {
    let game = fen_game(Variant::Chess960, "1r2k3/8/8/8/8/8/8/1R2K1R1 w GBb - 0 1");
    let castled = game.play("O-O").unwrap();
    assert_eq!(castled.moves()[0].uci, "e1g1");
    // Black's b8 rook is the outermost: X-FEN writes its right as q.
    assert_eq!(castled.fen(), "1r2k3/8/8/8/8/8/8/1R3RK1 b q - 1 1");
    let long = game.play("O-O-O").unwrap();
    assert_eq!(long.moves()[0].uci, "e1b1");
    assert_eq!(long.fen(), "1r2k3/8/8/8/8/8/8/2KR2R1 b q - 1 1");
    // Typed as king-takes-rook too.
    assert_eq!(game.play("e1b1").unwrap(), long);
}

// ---- Records ---------------------------------------------------------------

#[test]
fn variant_games_write_and_read_back_as_pgn() {
    let horde = play_all(Game::new(Variant::Horde), &["e5", "d6"]);
    let pgn = write_pgn(&PgnHeaders::default(), &horde, &[]);
    assert!(pgn.contains("[Variant \"Horde\"]"), "{pgn}");
    assert!(
        !pgn.contains("[FEN "),
        "the horde start needs no FEN: {pgn}"
    );

    let zh = play_all(
        Game::new(Variant::Crazyhouse),
        &["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "P@d5", "@e6"],
    );
    let three = play_all(
        Game::new(Variant::ThreeCheck),
        &["e4", "e5", "Qh5", "Nc6", "Qxf7+"],
    );
    let c960 = play_all(Game::chess960(100).unwrap(), &["e4", "e5"]);
    let mut text = String::new();
    for game in [&horde, &zh, &three, &c960] {
        text.push_str(&write_pgn(&PgnHeaders::default(), game, &[]));
    }
    assert!(text.contains("4. P@d5 P@e6 *"), "{text}");
    assert!(text.contains("[Variant \"Three-check\"]"), "{text}");
    assert!(
        text.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN "),
        "{text}"
    );

    let read = read_pgn(text.as_bytes(), PgnReadOptions::default());
    let games: Vec<Game> = read.into_iter().map(|r| r.unwrap().game).collect();
    assert_eq!(games, [horde, zh, three, c960]);
}
