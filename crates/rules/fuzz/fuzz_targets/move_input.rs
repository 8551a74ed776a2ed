//! Fuzz target: any text typed as a move, or stored as one, in positions of several variants
//! (drops, promotions, castling both ways, en passant) is a legal move or an error, never a
//! panic; a move that is accepted advances the game by one ply.

#![no_main]

use libfuzzer_sys::fuzz_target;
use slowfuse_rules::{Game, Variant};

const POSITIONS: &[(Variant, &str)] = &[
    (
        Variant::Standard,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (Variant::Atomic, "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"),
    (
        Variant::Crazyhouse,
        "r2q1rk1/ppp2pp1/1bnp3p/3Bp3/4P1b1/2PPPN2/PP4PP/R2Q1RK1[NBn] w - - 22 12",
    ),
    (
        Variant::Chess960,
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 0 1",
    ),
    (Variant::Antichess, "8/8/8/8/8/8/p7/1R6 b - - 0 1"),
    (Variant::ThreeCheck, "4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1"),
    (
        Variant::Horde,
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
    ),
    (Variant::Standard, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&choice, text)) = data.split_first() else {
        return;
    };
    let (variant, fen) = POSITIONS[usize::from(choice) % POSITIONS.len()];
    let game = Game::from_fen(variant, fen).expect("a valid position");
    let text = String::from_utf8_lossy(text);
    if let Ok(next) = game.play(&text) {
        assert_eq!(next.ply(), game.ply() + 1);
        let _ = next.fen();
    }
    let _ = game.play_uci(&text);
    let _ = Game::replay(variant, fen, &[text.into_owned()]);
});
