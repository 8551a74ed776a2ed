//! Bughouse as four players would notice it: partner pockets, demotion, sitting, match ends, BPGN.

use slowfuse_rules::bughouse::{
    Board, BpgnHeaders, BughouseEndReason, BughouseError, BughouseEvent, BughouseGame,
    BughouseOutcome, BughouseReplayError, START_FEN, Seat, Team, read_bpgn, write_bpgn,
};
use slowfuse_rules::{EndReason, Game, MoveError, Role, Variant};
use slowfuse_rules::{GameOver, GameRules};

fn play_all(mut game: BughouseGame, moves: &[(Board, &str)]) -> BughouseGame {
    for (board, m) in moves {
        game = game
            .play(*board, m)
            .unwrap_or_else(|e| panic!("{board} {m} should be legal: {e}"));
    }
    game
}

fn from_fens(a: &str, b: &str) -> BughouseGame {
    BughouseGame::from_fens(a, b).expect("legal start positions")
}

/// White (A1) to be mated on the first rank: king h1 behind its g- and
/// h-pawns; Black (B1) holds a rook to drop on a1.
const BACK_RANK: &str = "4k3/8/8/8/8/8/6PP/7K[r] b - - 0 1";

#[test]
fn a_capture_goes_to_the_partner_in_the_partners_colour() {
    let game = play_all(
        BughouseGame::new(),
        &[(Board::A, "e4"), (Board::A, "d5"), (Board::A, "exd5")],
    );
    // A1 (White, board A) took a black pawn. In crazyhouse it would be a
    // white pawn in A1's hand; in bughouse it is a black pawn for A2, who
    // plays Black on board B.
    assert_eq!(
        game.fen(Board::A),
        "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 2"
    );
    assert_eq!(
        game.fen(Board::B),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[p] w KQkq - 0 1"
    );
    assert_eq!(game.pockets(Board::B).black.pawns, 1);
    assert!(game.pockets(Board::B).white.is_empty());
    assert!(game.pockets(Board::A).white.is_empty());
    assert_eq!(
        game.last_events(),
        [BughouseEvent::PieceTransferred {
            role: Role::Pawn,
            to: Seat::A2
        }]
    );
    assert_eq!(game.last_move().unwrap().seat, Seat::A1);
    assert_eq!(game.last_move().unwrap().label(), "2A.");

    // A2 drops it on board B once it is their turn there; B2 takes it back,
    // and the pawn goes on to B1, Black on board A.
    let game = play_all(
        game,
        &[(Board::B, "e4"), (Board::B, "P@d5"), (Board::B, "exd5")],
    );
    assert_eq!(
        game.fen(Board::B),
        "rnbqkbnr/pppppppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 2"
    );
    assert_eq!(game.pockets(Board::A).black.pawns, 1);
    assert_eq!(game.moves()[4].san, "P@d5");
    assert_eq!(game.ply(), 6);
}

#[test]
fn a_promoted_piece_goes_to_the_partner_as_a_pawn() {
    // A promoted white queen (Q~) on d8 next to Black's king.
    let game = from_fens("3Q~k3/8/8/8/8/8/8/4K3[] b - - 0 1", START_FEN)
        .play(Board::A, "Kxd8")
        .unwrap();
    assert_eq!(game.last_move().unwrap().transfer, Some(Role::Pawn));
    assert_eq!(
        game.fen(Board::B),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[P] w KQkq - 0 1"
    );
    // A queen that was born a queen goes as a queen.
    let game = from_fens("3Qk3/8/8/8/8/8/8/4K3[] b - - 0 1", START_FEN)
        .play(Board::A, "Kxd8")
        .unwrap();
    assert_eq!(game.last_move().unwrap().transfer, Some(Role::Queen));
    assert_eq!(game.pockets(Board::B).white.queens, 1);
    assert!(game.fen(Board::B).contains("[Q]"), "{}", game.fen(Board::B));
}

#[test]
fn a_check_a_drop_could_block_is_not_mate_the_player_sits() {
    // In crazyhouse this drop mates: White has nothing in hand.
    let crazyhouse = Game::from_fen(Variant::Crazyhouse, BACK_RANK)
        .unwrap()
        .play("R@a1")
        .unwrap();
    assert_eq!(crazyhouse.outcome().unwrap().reason, EndReason::Checkmate);

    let game = from_fens(BACK_RANK, START_FEN)
        .play(Board::A, "R@a1")
        .unwrap();
    assert_eq!(game.outcome(), None);
    assert_eq!(game.last_move().unwrap().san, "R@a1+");
    assert!(game.is_sitting(Board::A));
    assert_eq!(game.sitting(), [Seat::A1]);
    assert_eq!(game.to_move(Board::A), Seat::A1);
    assert_eq!(game.last_events(), [BughouseEvent::Sitting(Seat::A1)]);
    assert!(game.legal_moves(Board::A).is_empty());
    assert_eq!(
        game.play(Board::A, "Kg1"),
        Err(BughouseError::Sitting { seat: Seat::A1 })
    );
    assert_eq!(
        game.play(Board::A, "N@b1"),
        Err(BughouseError::NotInPocket {
            seat: Seat::A1,
            role: Role::Knight
        })
    );
    // Board B plays on while A1 waits.
    assert_eq!(game.legal_moves(Board::B).len(), 20);
    let game = play_all(
        game,
        &[
            (Board::B, "e4"),
            (Board::B, "d5"),
            (Board::B, "Nc3"),
            (Board::B, "dxe4"),
        ],
    );
    // A2 took a white pawn for A1, but a pawn cannot go to the first rank.
    assert_eq!(game.pockets(Board::A).white.pawns, 1);
    assert_eq!(
        game.last_events(),
        [BughouseEvent::PieceTransferred {
            role: Role::Pawn,
            to: Seat::A1
        }]
    );
    assert!(game.is_sitting(Board::A));
    let game = play_all(
        game,
        &[
            (Board::B, "Bb5+"),
            (Board::B, "c6"),
            (Board::B, "a3"),
            (Board::B, "cxb5"),
        ],
    );
    // A bishop can block: A1 moves again.
    assert_eq!(
        game.last_events(),
        [
            BughouseEvent::PieceTransferred {
                role: Role::Bishop,
                to: Seat::A1
            },
            BughouseEvent::CanMoveAgain(Seat::A1)
        ]
    );
    assert!(!game.is_sitting(Board::A));
    let drops: Vec<String> = game
        .legal_moves(Board::A)
        .into_iter()
        .map(|m| m.uci)
        .collect();
    assert_eq!(drops, ["B@b1", "B@c1", "B@d1", "B@e1", "B@f1", "B@g1"]);
    let game = game.play_as(Seat::A1, "B@g1").unwrap();
    assert_eq!(game.to_move(Board::A), Seat::B1);
    assert_eq!(game.fen(Board::A), "4k3/8/8/8/8/8/6PP/r5BK[P] b - - 2 2");
}

#[test]
fn a_contact_or_knight_check_is_mate_even_with_an_empty_pocket() {
    let game = from_fens("4k3/8/8/8/8/8/6PP/6RK[n] b - - 0 1", START_FEN)
        .play(Board::A, "N@f2")
        .unwrap();
    assert_eq!(
        game.outcome(),
        Some(BughouseOutcome {
            winner: Some(Team::B),
            reason: BughouseEndReason::Checkmate,
            seat: Some(Seat::A1),
        })
    );
    assert_eq!(game.last_move().unwrap().san, "N@f2#");
    assert_eq!(game.outcome().unwrap().result(), "0-1");
    // The first board to finish decides the match for all four.
    assert_eq!(game.play(Board::B, "e4"), Err(BughouseError::GameOver));
    assert!(game.legal_moves(Board::B).is_empty());
    assert!(game.sitting().is_empty());
    assert_eq!(game.resign(Seat::B2), Err(GameOver));

    // A queen checking from the next square, protected by a bishop: there
    // is no square between to block.
    let game = from_fens("4k3/8/8/8/8/8/7P/5b1K[q] b - - 0 1", START_FEN)
        .play(Board::A, "Q@g2")
        .unwrap();
    assert_eq!(game.last_move().unwrap().san, "Q@g2#");
    assert_eq!(game.outcome().unwrap().reason, BughouseEndReason::Checkmate);
}

#[test]
fn resignation_and_time_lose_for_the_whole_team() {
    let game = BughouseGame::new().play(Board::A, "e4").unwrap();
    let resigned = game.resign(Seat::B2).unwrap();
    assert_eq!(
        resigned.outcome(),
        Some(BughouseOutcome {
            winner: Some(Team::A),
            reason: BughouseEndReason::Resignation,
            seat: Some(Seat::B2),
        })
    );
    assert_eq!(resigned.outcome().unwrap().board(), Some(Board::B));
    assert_eq!(resigned.play(Board::A, "e5"), Err(BughouseError::GameOver));
    let flagged = game.flag(Seat::A2).unwrap();
    assert_eq!(flagged.outcome().unwrap().winner, Some(Team::B));
    assert_eq!(flagged.outcome().unwrap().reason, BughouseEndReason::Time);
    let agreed = game.agree_draw().unwrap();
    assert_eq!(agreed.outcome().unwrap().winner, None);
    assert_eq!(agreed.agree_draw(), Err(GameOver));
}

#[test]
fn stalemate_on_either_board_draws_the_match() {
    let game = from_fens(START_FEN, "7k/8/6K1/8/8/8/8/5Q2[] w - - 0 1")
        .play(Board::B, "Qf7")
        .unwrap();
    assert_eq!(
        game.outcome(),
        Some(BughouseOutcome {
            winner: None,
            reason: BughouseEndReason::Stalemate,
            seat: Some(Seat::A2),
        })
    );
    assert_eq!(game.outcome().unwrap().result(), "1/2-1/2");
    assert_eq!(game.play(Board::A, "e4"), Err(BughouseError::GameOver));
}

#[test]
fn drops_of_pieces_not_in_hand_and_moves_out_of_turn_are_refused() {
    let game = BughouseGame::new();
    assert_eq!(
        game.play(Board::A, "N@e4"),
        Err(BughouseError::NotInPocket {
            seat: Seat::A1,
            role: Role::Knight
        })
    );
    assert_eq!(
        game.play(Board::B, "@e4").unwrap_err().to_string(),
        "B2 has no pawn in hand to drop"
    );
    assert_eq!(
        game.play_as(Seat::B1, "e5"),
        Err(BughouseError::NotYourTurn {
            seat: Seat::B1,
            to_move: Seat::A1
        })
    );
    assert_eq!(
        game.play(Board::A, "e5"),
        Err(BughouseError::Move(MoveError::Illegal("e5".to_owned())))
    );
    assert_eq!(game, BughouseGame::new(), "refusals change nothing");
    // Each board has its own side to move.
    let game = game.play_as(Seat::B2, "d4").unwrap();
    assert_eq!(game.to_move(Board::A), Seat::A1);
    assert_eq!(game.to_move(Board::B), Seat::A2);
}

#[test]
fn a_sitter_no_piece_can_ever_reach_is_mated() {
    // B2, whose pieces A2 would have to take, has nothing but a king.
    let bare = from_fens(BACK_RANK, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1")
        .play(Board::A, "R@a1")
        .unwrap();
    assert_eq!(
        bare.outcome(),
        Some(BughouseOutcome::loss(
            Seat::A1,
            BughouseEndReason::Checkmate
        ))
    );
    assert_eq!(bare.last_move().unwrap().san, "R@a1#");
    // Only pawns could arrive, and no pawn may stand on the first rank.
    let pawns = from_fens(BACK_RANK, "4k3/8/8/8/8/8/4P3/4K3[] w - - 0 1")
        .play(Board::A, "R@a1")
        .unwrap();
    assert_eq!(
        pawns.outcome().unwrap().reason,
        BughouseEndReason::Checkmate
    );
    // A knight B2 holds in hand may yet be dropped and taken: A1 sits.
    let knight = from_fens(BACK_RANK, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")
        .play(Board::A, "R@a1")
        .unwrap();
    assert_eq!(knight.outcome(), None);
    assert!(knight.is_sitting(Board::A));
    // A promoted piece would come back as a pawn: it cannot help.
    let promoted = from_fens(BACK_RANK, "4k3/8/8/8/8/8/8/Q~3K3[] w - - 0 1")
        .play(Board::A, "R@a1")
        .unwrap();
    assert_eq!(
        promoted.outcome().unwrap().reason,
        BughouseEndReason::Checkmate
    );
}

#[test]
fn when_both_players_to_move_sit_the_match_ends() {
    // A1 sits on board A from the start; A2 to move on board B.
    let sitting_a1 = "4k3/8/8/8/8/8/6PP/r6K[] w - - 0 1";
    let game = from_fens(sitting_a1, "4k3/8/8/8/8/N7/6PP/7K[r] b - - 0 1");
    assert_eq!(game.outcome(), None);
    assert_eq!(game.sitting(), [Seat::A1]);
    // A2 makes B2 sit too: opponents waiting on each other, a draw.
    let game = game.play(Board::B, "R@c1").unwrap();
    assert_eq!(
        game.outcome(),
        Some(BughouseOutcome::draw(
            BughouseEndReason::Deadlock,
            Some(Seat::B2)
        ))
    );
    assert_eq!(game.outcome().unwrap().result(), "1/2-1/2");

    // B2 makes A2 sit: both players of team A wait, team A is mated.
    let game = from_fens(sitting_a1, "7k/6pp/8/n7/8/8/8/4K3[R] w - - 0 1");
    assert_eq!(game.outcome(), None);
    let game = game.play(Board::B, "R@c8").unwrap();
    assert_eq!(
        game.outcome(),
        Some(BughouseOutcome::loss(
            Seat::A2,
            BughouseEndReason::Checkmate
        ))
    );
    assert_eq!(game.last_move().unwrap().san, "R@c8#");
}

#[test]
fn a_match_replays_from_stored_board_and_uci_pairs() {
    let played = play_all(
        BughouseGame::new(),
        &[
            (Board::A, "e4"),
            (Board::B, "d4"),
            (Board::A, "d5"),
            (Board::A, "exd5"),
            (Board::B, "Nf6"),
            (Board::B, "c4"),
            (Board::B, "P@e4"),
        ],
    );
    let stored: Vec<(Board, String)> = played
        .moves()
        .iter()
        .map(|m| (m.board, m.uci.clone()))
        .collect();
    assert_eq!(stored[6], (Board::B, "P@e4".to_owned()));
    let replayed = BughouseGame::replay([START_FEN, START_FEN], &stored).unwrap();
    assert_eq!(replayed, played);

    let mut broken = stored.clone();
    broken[6] = (Board::B, "N@e4".to_owned());
    assert_eq!(
        BughouseGame::replay([START_FEN, START_FEN], &broken),
        Err(BughouseReplayError::Move {
            ply: 7,
            board: Board::B,
            uci: "N@e4".to_owned(),
            error: BughouseError::NotInPocket {
                seat: Seat::A2,
                role: Role::Knight
            },
        })
    );
    let bad = BughouseGame::replay([START_FEN, "8/8/8/8/8/8/8/K7 w - - 0 1"], &[]);
    assert_eq!(
        bad.unwrap_err().to_string(),
        "bad start position on board B: illegal position: a king is missing"
    );
}

/// A Fried Liver on board A and a Queen's Gambit on board B, interleaved as
/// four players might play them, with the seconds left after each move.
const SAMPLE: &str = "\u{feff}[Event \"Hand-written sample\"]\r\n\
[Site \"Slowfuse test\"]\r\n\
[Date \"2025.03.01\"]\r\n\
[WhiteA \"ann\"][WhiteAElo \"1900\"]\r\n\
[BlackA \"bob\"][BlackAElo \"1850\"]\r\n\
[WhiteB \"cy\"][WhiteBElo \"2000\"]\r\n\
[BlackB \"di\"][BlackBElo \"1700\"]\r\n\
[TimeControl \"180\"]\r\n\
[Result \"1-0\"]\r\n\
\r\n\
{C:A short match for the reader}\r\n\
1A. e4 {180} 1B. d4 {179} 1a. e5 {178} 1b. d5 {179} 2A. Nf3 {177}\r\n\
2a. Nc6 {176} 2B. c4 {175} 2b. dxc4 {177} 3A. Bc4 {175} 3a. Nf6 {174}\r\n\
3B. e3 {173} 3b. b5 {176} 4A. Ng5 {170} 4a. d5 {172} 5A. exd5 {168}\r\n\
5a. Nxd5 {171} 6A. Nxf7 {165} 6a. Kxf7 {160} 7A. Qf3+ {164}\r\n\
{bob resigns} 1-0\r\n";

#[test]
fn a_hand_written_bpgn_sample_is_read_correctly() {
    let matches = read_bpgn(SAMPLE.as_bytes());
    assert_eq!(matches.len(), 1);
    let read = matches[0].as_ref().expect("the sample reads");
    assert_eq!(read.index, 1);
    assert_eq!(read.tag("WhiteA"), Some("ann"));
    assert_eq!(read.tag("BlackB"), Some("di"));
    assert_eq!(read.tag("WhiteBElo"), Some("2000"));
    assert_eq!(read.result_tag.as_deref(), Some("1-0"));
    assert_eq!(read.movetext_result.as_deref(), Some("1-0"));
    let game = &read.game;
    assert_eq!(game.ply(), 19);
    assert_eq!(game.outcome(), None, "bob resigned off the board");
    let labelled: Vec<String> = game
        .moves()
        .iter()
        .map(|m| format!("{} {}", m.label(), m.san))
        .collect();
    assert_eq!(labelled[7], "2b. dxc4");
    assert_eq!(labelled[18], "7A. Qf3+");
    let sent: Vec<(Seat, Role)> = game
        .moves()
        .iter()
        .filter_map(|m| Some((m.seat.partner(), m.transfer?)))
        .collect();
    assert_eq!(
        sent,
        [
            (Seat::A1, Role::Pawn),
            (Seat::A2, Role::Pawn),
            (Seat::B2, Role::Pawn),
            (Seat::A2, Role::Pawn),
            (Seat::B2, Role::Knight),
        ]
    );
    assert_eq!(
        game.fen(Board::A),
        "r1bq1b1r/ppp2kpp/2n5/3np3/2B5/5Q2/PPPP1PPP/RNB1K2R[P] b KQ - 1 7"
    );
    assert_eq!(
        game.fen(Board::B),
        "rnbqkbnr/p1p1pppp/8/1p6/2pP4/4P3/PP3PPP/RNBQKBNR[PNpp] w KQkq - 0 4"
    );
    assert_eq!(read.comments.len(), 21);
    assert_eq!(read.comments[0].ply, 0);
    assert_eq!(read.comments[0].text, "C:A short match for the reader");
    assert_eq!(read.comments[1].seconds(), Some(180.0));
    assert_eq!(read.comments[20].ply, 19);
    assert_eq!(read.comments[20].text, "bob resigns");
}

#[test]
fn bpgn_written_and_read_back_gives_the_same_moves_and_positions() {
    let read = read_bpgn(SAMPLE.as_bytes());
    let original = &read[0].as_ref().unwrap().game;
    let resigned = original.resign(Seat::B1).unwrap();
    let comments: Vec<Option<String>> = (0..resigned.moves().len())
        .map(|i| (i % 3 == 0).then(|| format!("{}", 180 - i)))
        .collect();
    let headers = BpgnHeaders {
        event: "Round trip".to_owned(),
        white_a: "ann".to_owned(),
        black_a: "bob".to_owned(),
        white_b: "cy".to_owned(),
        black_b: "di".to_owned(),
        termination: Some(resigned.outcome().unwrap().describe()),
        ..BpgnHeaders::default()
    };
    let bpgn = write_bpgn(&headers, &resigned, &comments);
    assert!(bpgn.contains("[Result \"1-0\"]\n"), "{bpgn}");
    assert!(bpgn.contains("[Termination \"B1 resigned: team A wins\"]\n"));
    assert!(bpgn.lines().all(|l| l.chars().count() <= 80));
    let back = read_bpgn(bpgn.as_bytes());
    let back = back[0].as_ref().expect("our own BPGN reads");
    assert_eq!(back.game.moves(), resigned.moves());
    for board in Board::BOTH {
        assert_eq!(back.game.fen(board), resigned.fen(board));
    }
    assert_eq!(back.tag("BlackA"), Some("bob"));
    assert_eq!(back.comments.len(), 7);
    assert_eq!(back.comments[1].ply, 4);
    assert_eq!(back.comments[1].seconds(), Some(177.0));

    // From set-up positions, ending in a mate on the board.
    let mated = from_fens(BACK_RANK, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1")
        .play(Board::B, "Kd2")
        .unwrap()
        .play(Board::A, "R@a1")
        .unwrap();
    let bpgn = write_bpgn(&BpgnHeaders::default(), &mated, &[]);
    assert!(
        bpgn.contains(&format!(
            "[SetUp \"1\"]\n[FEN \"{BACK_RANK} | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1\"]\n"
        )),
        "{bpgn}"
    );
    assert!(bpgn.ends_with("\n1B. Kd2 1a. R@a1# 0-1\n\n"), "{bpgn}");
    let back = read_bpgn(bpgn.as_bytes());
    let back = &back[0].as_ref().unwrap().game;
    assert_eq!(back.moves(), mated.moves());
    assert_eq!(back.fens(), mated.fens());
    assert_eq!(back.outcome(), mated.outcome());
}

#[test]
fn broken_bpgn_names_the_match_line_ply_and_move_and_reading_goes_on() {
    let text = "[Event \"one\"]\n\n1A. e4 1a. e5 2A. Ke3 *\n\n\
                [Event \"two\"]\n\n1A. e4\n1A. d4 *\n\n\
                [Event \"three\"]\n\n1A. e4 e5 *\n\n\
                [Variant \"Crazyhouse\"]\n\n1A. e4 *\n\n\
                [Event \"five\"]\n\n1. e4 *\n\n\
                [FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n\n\
                [Event \"seven\"]\n\n1A. e4 {never closed\n";
    let read = read_bpgn(text.as_bytes());
    assert_eq!(read.len(), 7);
    let errors: Vec<String> = read
        .iter()
        .map(|r| {
            r.as_ref()
                .map(|_| String::new())
                .unwrap_or_else(|e| e.to_string())
        })
        .collect();
    assert_eq!(
        errors[0],
        "game 1, ply 3 (2A. Ke3): Ke3 is not a legal move here"
    );
    assert_eq!(
        errors[1],
        "game 2, ply 2 (1A. d4): 1A. says White moves on board A, but Black is to move there"
    );
    assert_eq!(
        errors[2],
        "game 3, ply 2 (e5): the move has no board label like 1A. or 1a. before it"
    );
    assert_eq!(
        errors[3],
        "game 4, line 14: the Variant tag says \"Crazyhouse\": a BPGN file holds bughouse matches"
    );
    assert!(errors[4].starts_with("game 5, line 20: the move number 1. has no board letter"));
    assert_eq!(
        errors[5],
        "game 6, line 22: the FEN tag must hold both boards as \"FEN of board A | FEN of board B\""
    );
    assert_eq!(
        errors[6],
        "game 7, line 28: a comment opened here is never closed with }"
    );
    let first = read[0].as_ref().unwrap_err();
    assert_eq!(first.line, 3);
    assert_eq!(first.played.as_ref().unwrap().ply(), 2);
}

#[test]
fn no_input_makes_bughouse_panic() {
    let bytes = SAMPLE.as_bytes();
    for end in 0..bytes.len() {
        let read = read_bpgn(&bytes[..end]);
        assert!(read.len() <= 1, "{end}");
    }
    for odd in [
        "",
        "[",
        "[\"",
        "[A \"\\",
        "{",
        "(",
        ")",
        "1",
        "1A",
        "1A.",
        "1b...",
        "12.",
        "$",
        "%",
        "1/2",
        "0-0-0",
        "ü@e4",
        "1A. ü",
        "[FEN \"|\"]",
        "[FEN \"a|b|c\"]",
        "1A. @@ 1a. N@",
    ] {
        let _ = read_bpgn(odd.as_bytes());
        let _ = slowfuse_rules::bughouse::looks_like_bpgn(odd.as_bytes());
        for board in Board::BOTH {
            let _ = BughouseGame::new().play(board, odd);
            let _ = BughouseGame::new().play_uci(board, odd);
        }
        let _ = BughouseGame::from_fens(odd, START_FEN);
    }
}
