//! Behaviour of `Game` a player would notice: game ends, atomic rules, input errors, draws.

use slowfuse_rules::GameRules;
use slowfuse_rules::{
    ClaimError, Color, EndReason, Game, GameOver, MoveError, Outcome, ReplayError, Role,
    STANDARD_START_FEN, Variant, square_index,
};

fn play_all(mut game: Game, moves: &[&str]) -> Game {
    for m in moves {
        game = game
            .play(m)
            .unwrap_or_else(|e| panic!("{m} should be legal: {e}"));
    }
    game
}

fn piece(game: &Game, square: &str) -> Option<(Color, Role)> {
    let board = game.board_at(game.ply()).unwrap();
    board[usize::from(square_index(square).unwrap())]
}

#[test]
fn atomic_knight_takes_f7_explodes_the_black_king() {
    let game = play_all(
        Game::new(Variant::Atomic),
        &["Nf3", "Nf6", "Ne5", "e6", "Nxf7"],
    );
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            reason: EndReason::Explosion
        })
    );
    assert_eq!(game.outcome().unwrap().result(), "1-0");
    assert!(game.moves()[4].san.starts_with("Nxf7"));
    assert_eq!(game.moves()[4].uci, "e5f7");
    // Capturer, captured pawn, king, bishop and knight are gone; pawns survive.
    for square in ["f7", "e8", "f8", "f6", "e5"] {
        assert_eq!(piece(&game, square), None, "{square}");
    }
    assert_eq!(piece(&game, "e6"), Some((Color::Black, Role::Pawn)));
    assert_eq!(piece(&game, "g7"), Some((Color::Black, Role::Pawn)));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.play("d5"), Err(MoveError::GameOver));
}

#[test]
fn the_same_moves_in_standard_chess_go_on() {
    let game = play_all(
        Game::new(Variant::Standard),
        &["Nf3", "Nf6", "Ne5", "e6", "Nxf7"],
    );
    assert_eq!(game.outcome(), None);
    assert_eq!(piece(&game, "e8"), Some((Color::Black, Role::King)));
}

#[test]
fn scholars_mate_is_checkmate() {
    let game = play_all(
        Game::new(Variant::Standard),
        &["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"],
    );
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::Checkmate))
    );
    assert_eq!(game.moves().last().unwrap().san, "Qxf7#");
    assert!(game.is_check());
    assert_eq!(game.resign(Color::White).unwrap_err(), GameOver);
}

#[test]
fn stalemate_is_a_draw() {
    let game = Game::from_fen(Variant::Standard, "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1").unwrap();
    let game = game.play("Qf7").unwrap();
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Stalemate)));
    assert_eq!(game.outcome().unwrap().result(), "1/2-1/2");
    assert_eq!(game.moves()[0].san, "Qf7");
}

#[test]
fn atomic_king_may_not_capture() {
    let fen = "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1";
    let atomic = Game::from_fen(Variant::Atomic, fen).unwrap();
    assert_eq!(
        atomic.play("Kxd2"),
        Err(MoveError::Illegal("Kxd2".to_owned()))
    );
    assert!(atomic.play("e1d2").is_err());
    assert!(atomic.legal_moves().iter().all(|m| m.uci != "e1d2"));
    let standard = Game::from_fen(Variant::Standard, fen).unwrap();
    assert!(standard.play("Kxd2").is_ok());
}

#[test]
fn atomic_capture_that_explodes_own_king_is_illegal() {
    let game = Game::from_fen(Variant::Atomic, "4k3/8/8/8/8/8/R2n4/4K3 w - - 0 1").unwrap();
    assert_eq!(
        game.play("Rxd2"),
        Err(MoveError::Illegal("Rxd2".to_owned()))
    );
    assert!(game.legal_moves().iter().all(|m| m.uci != "a2d2"));
    // A capture that blows up both kings is illegal too.
    let both = Game::from_fen(Variant::Atomic, "8/8/8/8/8/3k4/R2n4/4K3 w - - 0 1").unwrap();
    assert!(both.play("Rxd2").is_err());
    // In standard chess the same captures are fine.
    let standard = Game::from_fen(Variant::Standard, "4k3/8/8/8/8/8/R2n4/4K3 w - - 0 1").unwrap();
    assert!(standard.play("Rxd2").is_ok());
}

#[test]
fn atomic_touching_kings_give_no_check() {
    let game = Game::from_fen(Variant::Atomic, "8/8/8/4k3/r3K3/r7/8/8 w - - 0 1").unwrap();
    assert!(!game.is_check());
    // Along the rook's rank, but still touching the black king: legal.
    assert!(game.legal_moves().iter().any(|m| m.uci == "e4d4"));
    // Stepping away from the black king into a rook's line is not.
    assert!(game.play("Ke3").is_err());
}

#[test]
fn atomic_en_passant_explodes_on_the_landing_square() {
    let game = Game::from_fen(Variant::Atomic, "4k3/2npp3/8/4P3/2n5/8/8/K7 b - - 0 1").unwrap();
    let game = game.play("d5").unwrap();
    assert_eq!(game.fen(), "4k3/2n1p3/8/3pP3/2n5/8/8/K7 w - d6 0 2");
    let game = game.play("exd6").unwrap();
    assert_eq!(game.moves()[1].san, "exd6");
    assert_eq!(game.moves()[1].uci, "e5d6");
    for square in ["d6", "d5", "e5", "c7"] {
        assert_eq!(piece(&game, square), None, "{square}");
    }
    // The pawn next to d6 survives; the knight next to d5 (not d6) too.
    assert_eq!(piece(&game, "e7"), Some((Color::Black, Role::Pawn)));
    assert_eq!(piece(&game, "c4"), Some((Color::Black, Role::Knight)));
    assert_eq!(game.outcome(), None);
}

#[test]
fn refused_moves_leave_the_game_unchanged() {
    let game = play_all(Game::new(Variant::Standard), &["d4", "d5", "Nf3", "Nf6"]);
    let before = game.fen();

    let illegal = game.play("Nxf7").unwrap_err();
    assert_eq!(illegal, MoveError::Illegal("Nxf7".to_owned()));
    assert_eq!(illegal.to_string(), "Nxf7 is not a legal move here");

    let ambiguous = game.play("Nd2").unwrap_err();
    assert!(matches!(ambiguous, MoveError::Ambiguous(_)));
    let message = ambiguous.to_string();
    assert!(
        message == "Nd2 is ambiguous: say which knight, e.g. Nbd2"
            || message == "Nd2 is ambiguous: say which knight, e.g. Nfd2",
        "{message}"
    );

    let unparsable = game.play("xyz").unwrap_err();
    assert_eq!(
        unparsable.to_string(),
        "cannot read \"xyz\" as a move (write SAN like Nf3 or UCI like g1f3)"
    );

    assert_eq!(game.ply(), 4);
    assert_eq!(game.fen(), before);
    assert!(game.play("Nbd2").is_ok());
    assert!(game.play("b1d2").is_ok());
}

#[test]
fn playing_in_place_is_playing_on_a_copy() {
    let moves = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7",
    ];
    let copied = play_all(Game::new(Variant::Atomic), &moves);
    let mut in_place = Game::new(Variant::Atomic);
    for m in moves {
        in_place.play_in_place(m).unwrap();
    }
    assert_eq!(in_place, copied);

    // A refused move, or any move once the game is over, leaves the game as it was.
    let before = in_place.clone();
    assert_eq!(
        in_place.play_in_place("Nxf7"),
        Err(MoveError::Illegal("Nxf7".to_owned()))
    );
    assert_eq!(in_place, before);
    let mut exploded = play_all(Game::new(Variant::Atomic), &["Nf3", "e6", "Ng5", "a6"]);
    exploded.play_in_place("Nxf7").unwrap();
    assert!(exploded.is_over());
    let over = exploded.clone();
    assert_eq!(exploded.play_in_place("a5"), Err(MoveError::GameOver));
    assert_eq!(exploded, over);
}

#[test]
fn threefold_repetition_can_be_claimed_only_on_the_third_time() {
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let once = play_all(Game::new(Variant::Standard), &shuffle);
    assert_eq!(once.repetition_count(), 2);
    assert_eq!(once.can_claim_draw(), None);
    assert_eq!(once.claim_draw().unwrap_err(), ClaimError::NotDrawn);
    assert!(
        once.claim_draw()
            .unwrap_err()
            .to_string()
            .starts_with("no draw can be claimed")
    );

    let twice = play_all(once, &shuffle);
    assert_eq!(twice.outcome(), None, "threefold is not automatic");
    assert_eq!(twice.can_claim_draw(), Some(EndReason::Repetition));
    let drawn = twice.claim_draw().unwrap();
    assert_eq!(drawn.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    assert_eq!(drawn.claim_draw().unwrap_err(), ClaimError::GameOver);
}

#[test]
fn fivefold_repetition_ends_the_game() {
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut game = Game::new(Variant::Atomic);
    for _ in 0..3 {
        game = play_all(game, &shuffle);
    }
    assert_eq!(game.outcome(), None);
    game = play_all(game, &shuffle);
    assert_eq!(game.repetition_count(), 5);
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(EndReason::FivefoldRepetition))
    );
}

#[test]
fn fifty_move_claim_after_the_hundredth_quiet_ply() {
    let game = Game::from_fen(Variant::Standard, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
    assert_eq!(game.can_claim_draw(), None);
    assert_eq!(game.claim_draw().unwrap_err(), ClaimError::NotDrawn);
    let game = game.play("Ra2").unwrap();
    assert_eq!(game.halfmove_clock(), 100);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.can_claim_draw(), Some(EndReason::FiftyMoves));
    let drawn = game.claim_draw().unwrap();
    assert_eq!(drawn.outcome(), Some(Outcome::draw(EndReason::FiftyMoves)));
}

#[test]
fn seventy_five_move_rule_ends_the_game() {
    let game = Game::from_fen(Variant::Atomic, "4k3/8/8/8/8/8/8/R3K3 w - - 149 120").unwrap();
    assert_eq!(game.outcome(), None);
    let game = game.play("Ra2").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(EndReason::SeventyFiveMoves))
    );
}

#[test]
fn insufficient_material_is_only_claimable() {
    let knight = Game::from_fen(Variant::Standard, "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1").unwrap();
    assert_eq!(knight.outcome(), None);
    assert_eq!(knight.can_claim_draw(), Some(EndReason::DeadPosition));
    let moved = knight.play("Nf3").unwrap();
    assert_eq!(moved.outcome(), None, "the game goes on until claimed");
    assert_eq!(
        moved.claim_draw().unwrap().outcome(),
        Some(Outcome::draw(EndReason::DeadPosition))
    );

    let kings = Game::from_fen(Variant::Atomic, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(kings.outcome(), None);
    assert_eq!(kings.can_claim_draw(), Some(EndReason::DeadPosition));
    assert_eq!(kings.play("Kd2").unwrap().outcome(), None);

    // Atomic: a lone knight against a king with a pawn can still win.
    let atomic = Game::from_fen(Variant::Atomic, "4k3/4p3/8/8/8/8/8/4K1N1 w - - 0 1").unwrap();
    assert_eq!(atomic.can_claim_draw(), None);
}

#[test]
fn resignation_agreement_and_time() {
    let game = Game::new(Variant::Atomic).play("e4").unwrap();

    let resigned = game.resign(Color::White).unwrap();
    assert_eq!(
        resigned.outcome(),
        Some(Outcome::win(Color::Black, EndReason::Resignation))
    );
    assert_eq!(resigned.outcome().unwrap().result(), "0-1");
    assert_eq!(resigned.play("e5"), Err(MoveError::GameOver));
    assert_eq!(resigned.agree_draw().unwrap_err(), GameOver);
    assert!(resigned.legal_moves().is_empty());

    let agreed = game.agree_draw().unwrap();
    assert_eq!(agreed.outcome(), Some(Outcome::draw(EndReason::Agreement)));
    assert_eq!(agreed.outcome().unwrap().result(), "1/2-1/2");

    let flagged = game.flag(Color::Black).unwrap();
    assert_eq!(
        flagged.outcome(),
        Some(Outcome::win(Color::White, EndReason::Time))
    );
    assert_eq!(game.outcome(), None, "the original game is untouched");

    // The winner on time has only a king: a draw.
    let bare = Game::from_fen(Variant::Standard, "4k3/8/8/8/8/8/8/Q3K3 b - - 0 1").unwrap();
    assert_eq!(
        bare.flag(Color::White).unwrap().outcome(),
        Some(Outcome::draw(EndReason::Time))
    );
    assert_eq!(
        bare.flag(Color::Black).unwrap().outcome(),
        Some(Outcome::win(Color::White, EndReason::Time))
    );
}

#[test]
fn replay_rebuilds_a_stored_game() {
    let played = play_all(
        Game::new(Variant::Standard),
        &["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Nf6"],
    );
    let stored: Vec<String> = played.moves().iter().map(|m| m.uci.clone()).collect();
    assert_eq!(stored[6], "e1g1");
    let replayed = Game::replay(Variant::Standard, &played.initial_fen(), &stored).unwrap();
    assert_eq!(replayed.fen(), played.fen());
    assert_eq!(replayed.moves(), played.moves());

    // Castling stored as king-takes-rook is read too.
    let mut rook_style = stored.clone();
    rook_style[6] = "e1h1".to_owned();
    let replayed = Game::replay(Variant::Standard, STANDARD_START_FEN, &rook_style).unwrap();
    assert_eq!(replayed.fen(), played.fen());

    let mut broken = stored.clone();
    broken[2] = "g1g3".to_owned();
    let error = Game::replay(Variant::Standard, STANDARD_START_FEN, &broken).unwrap_err();
    assert_eq!(
        error,
        ReplayError::Move {
            ply: 3,
            uci: "g1g3".to_owned(),
            error: MoveError::Illegal("g1g3".to_owned()),
        }
    );
    assert!(
        error
            .to_string()
            .starts_with("move 3 (g1g3) cannot be replayed")
    );
    let san = vec!["e4".to_owned()];
    assert!(Game::replay(Variant::Standard, STANDARD_START_FEN, &san).is_err());
    assert!(matches!(
        Game::replay(Variant::Standard, "not a fen", &[]),
        Err(ReplayError::Setup(_))
    ));

    // An off-board ending is restored on top.
    let resigned = replayed.with_outcome(Outcome::win(Color::White, EndReason::Resignation));
    assert_eq!(resigned.play("a3"), Err(MoveError::GameOver));
}

#[test]
fn positions_along_the_game() {
    let game = Game::new(Variant::Atomic);
    assert_eq!(game.fen_at(0), Some(game.initial_fen()));
    assert_eq!(game.initial_fen(), STANDARD_START_FEN);
    assert!(game.is_standard_start());
    assert_eq!(game.last_move_squares(), None);

    let game = play_all(game, &["e4", "e5"]);
    assert_eq!(game.fen_at(0).as_deref(), Some(STANDARD_START_FEN));
    assert_eq!(game.fen_at(2), Some(game.fen()));
    assert_eq!(game.fen_at(3), None);
    assert_eq!(game.board_at(3), None);
    assert_eq!(game.turn(), Color::White);
    assert_eq!(game.ply(), 2);
    assert_eq!(game.last_move_squares(), Some((52, 36)));

    let start = game.board_at(0).unwrap();
    assert_eq!(start[4], Some((Color::White, Role::King)));
    assert_eq!(start[12], Some((Color::White, Role::Pawn)));
    assert_eq!(start[60], Some((Color::Black, Role::King)));
    assert_eq!(start[28], None);
    let now = game.board_at(2).unwrap();
    assert_eq!(now[28], Some((Color::White, Role::Pawn)));

    let custom = Game::from_fen(Variant::Standard, "4k3/8/8/8/8/8/8/4K2R w K -").unwrap();
    assert_eq!(custom.initial_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(!custom.is_standard_start());
}

#[test]
fn legal_moves_are_sorted_with_san() {
    let game = Game::new(Variant::Standard);
    let moves = game.legal_moves();
    assert_eq!(moves.len(), 20);
    assert!(moves.windows(2).all(|w| w[0].uci < w[1].uci));
    let nf3 = moves.iter().find(|m| m.uci == "g1f3").unwrap();
    assert_eq!(nf3.san, "Nf3");

    let checks = Game::from_fen(Variant::Standard, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
    let moves = checks.legal_moves();
    assert!(moves.iter().any(|m| m.uci == "e1c1" && m.san == "O-O-O"));
    assert!(moves.iter().any(|m| m.uci == "a1a8" && m.san == "Ra8+"));
}

#[test]
fn setup_errors_are_clear() {
    let error =
        Game::from_fen(Variant::Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w").unwrap_err();
    assert!(
        error.to_string().starts_with("malformed FEN at position"),
        "{error}"
    );
    let error =
        Game::from_fen(Variant::Standard, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra").unwrap_err();
    assert!(error.to_string().contains("position 31"), "{error}");
    let error = Game::from_fen(Variant::Standard, "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert!(error.is_ok());
    let error = Game::from_fen(Variant::Standard, "4k3/8/8/8/8/8/8/4K2r b - - 0 1").unwrap_err();
    assert_eq!(
        error.to_string(),
        "illegal position: the side not to move is in check"
    );
}

#[test]
fn a_repetition_counts_only_since_the_last_capture_or_pawn_move() {
    // The knights' shuffle repeats the start twice; after 1.e4 e5 the same
    // shuffle counts afresh.
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let game = play_all(Game::new(Variant::Standard), &shuffle);
    assert_eq!(game.repetition_count(), 2);
    let game = play_all(play_all(game, &["e4", "e5"]), &shuffle);
    assert_eq!(game.repetition_count(), 2);
}

#[test]
fn in_crazyhouse_a_position_recurs_across_captures_and_drops() {
    // Both knights are taken and dropped back where they stood, the rook and
    // both kings return: the start recurs with empty pockets after 12 plies
    // that included two captures.
    let start = Game::from_fen(Variant::Crazyhouse, "4k3/8/8/6nr/8/5N2/8/4K3[] w - - 0 1").unwrap();
    let moves = [
        "Nxg5", "Rxg5", "N@f3", "Rh5", "Kd1", "N@g5", "Ke1", "Kd8", "Kd1", "Kd7", "Ke1", "Ke8",
    ];
    let game = play_all(start.clone(), &moves);
    let placement = |fen: String| fen.split(' ').take(3).collect::<Vec<_>>().join(" ");
    assert_eq!(placement(game.fen()), placement(start.fen()));
    assert_eq!(game.repetition_count(), 2);
}

fn squares(names: &[&str]) -> Vec<u8> {
    names.iter().map(|n| square_index(n).unwrap()).collect()
}

#[test]
fn an_atomic_capture_marks_every_square_its_explosion_cleared_and_only_that_ply() {
    let game = play_all(
        Game::new(Variant::Atomic),
        &["Nf3", "Nf6", "Ne5", "e6", "Nxf7"],
    );
    let blast = game.marks_at(5).unwrap();
    // The pawn on f7 and the knight that took it, the king on e8, the bishop on f8 and the
    // knight on f6 went up; the pawns on e6 and g7 stand.
    assert_eq!(blast.exploded, squares(&["f6", "f7", "e8", "f8"]));
    assert_eq!(
        blast.from_to,
        Some((square_index("e5").unwrap(), square_index("f7").unwrap()))
    );
    for ply in 0..5 {
        assert!(game.marks_at(ply).unwrap().exploded.is_empty(), "ply {ply}");
    }
    assert_eq!(game.marks_at(6), None, "past the end");
}

#[test]
fn marks_show_the_move_and_the_checked_king_at_every_ply() {
    let game = play_all(
        Game::new(Variant::Standard),
        &["e4", "f6", "d4", "g5", "Qh5#"],
    );
    assert_eq!(game.marks_at(0).unwrap(), Default::default());
    let third = game.marks_at(3).unwrap();
    assert_eq!(
        third.from_to,
        Some((square_index("d2").unwrap(), square_index("d4").unwrap()))
    );
    assert_eq!(third.check, None);
    let mate = game.marks_at(5).unwrap();
    assert_eq!(mate.check, square_index("e8"));
    assert!(mate.exploded.is_empty(), "no blasts outside atomic");
    // A capture in standard chess clears nothing beyond the captured piece's square.
    let capture = play_all(Game::new(Variant::Standard), &["e4", "d5", "exd5"]);
    assert!(capture.marks_at(3).unwrap().exploded.is_empty());
}

#[test]
fn legal_ucis_list_every_move_with_castling_both_ways_and_drops() {
    let game = play_all(
        Game::new(Variant::Standard),
        &["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"],
    );
    let ucis = game.legal_ucis();
    assert!(ucis.contains(&"e1g1".to_string()) && ucis.contains(&"e1h1".to_string()));
    assert!(
        !ucis.contains(&"e1c1".to_string()),
        "the queen's side is blocked"
    );
    let sans = game.legal_moves();
    assert_eq!(
        ucis.len(),
        sans.len() + 1,
        "every move once, castling twice"
    );
    let zh = play_all(
        Game::new(Variant::Crazyhouse),
        &["e4", "d5", "exd5", "Qxd5"],
    );
    let drops: Vec<String> = zh
        .legal_ucis()
        .into_iter()
        .filter(|u| u.contains('@'))
        .collect();
    assert!(drops.iter().any(|u| u == "P@e4"));
    assert!(
        !drops.iter().any(|u| u.ends_with('1') || u.ends_with('8')),
        "no pawn drops on the first or last rank"
    );
    let over = play_all(Game::new(Variant::Standard), &["f3", "e5", "g4", "Qh4#"]);
    assert!(over.legal_ucis().is_empty());
}

#[test]
fn a_bishop_move_written_with_its_rank_is_read_as_san_not_uci() {
    // Bishops on c3 and c5 can both reach b4: the server writes B3b4 and B5b4.
    let game = Game::from_fen(Variant::Standard, "4k3/8/8/2B5/8/2B5/8/4K3 w - - 0 1").unwrap();
    let sans: Vec<String> = game.legal_moves().into_iter().map(|m| m.san).collect();
    assert!(sans.contains(&"B3b4".to_string()), "{sans:?}");
    let after = game.play("B3b4").expect("B3b4 is the bishop on c3");
    assert_eq!(piece(&after, "b4"), Some((Color::White, Role::Bishop)));
    assert_eq!(piece(&after, "c3"), None);
    assert_eq!(piece(&after, "c5"), Some((Color::White, Role::Bishop)));
}

#[test]
fn every_move_the_server_writes_reads_back_as_the_same_move() {
    // Positions with disambiguated SAN, promotions, castling, en passant and drops.
    let positions = [
        (Variant::Standard, "4k3/8/8/2B5/8/2B5/8/4K3 w - - 0 1"),
        (
            Variant::Standard,
            "r3k2r/1P4P1/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
        ),
        (Variant::Standard, "7k/8/8/8/1N3N2/8/1N3N2/K7 w - - 0 1"),
        (Variant::Standard, "3k4/8/8/R6R/8/8/8/R3K2R w KQ - 0 1"),
        (Variant::Standard, "7k/8/8/3Q1Q2/8/3Q1Q2/8/K7 w - - 0 1"),
        (
            Variant::Atomic,
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        ),
        (
            Variant::Crazyhouse,
            "r1bqkb1r/ppp2ppp/2n5/3pp3/8/8/PPPPPPPP/R1BQKBNR[Nn] w KQkq - 0 4",
        ),
    ];
    for (variant, fen) in positions {
        let game = Game::from_fen(variant, fen).unwrap();
        for m in game.legal_moves() {
            let by_san = game
                .play(&m.san)
                .unwrap_or_else(|e| panic!("{fen}: {} refused: {e}", m.san));
            let by_uci = game.play_uci(&m.uci).unwrap();
            assert_eq!(
                by_san.fen(),
                by_uci.fen(),
                "{fen}: {} read as another move",
                m.san
            );
        }
    }
}
