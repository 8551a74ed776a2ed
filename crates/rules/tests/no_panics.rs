//! Malformed input never panics: mutated FENs, moves and PGN text give error values.
//!
//! A small deterministic fuzzer (xorshift, fixed seeds) mutates valid inputs
//! byte by byte and feeds them to `Game::from_fen`, `perft_from_fen`,
//! `legal_moves_from_fen`, `Game::play` and `read_pgn`. Any panic fails the test.

use slowfuse_rules::{
    Game, PgnReadOptions, Variant, legal_moves_from_fen, perft_from_fen, read_pgn,
};

/// xorshift64*: enough randomness to mutate inputs, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).expect("fits")
    }
}

/// Bytes that matter to the parsers, plus some that never should appear.
const ALPHABET: &[u8] =
    b"pnbrqkPNBRQK12345678abcdefgh/ -+~[]@=xO0#!?{}();$%*.\"\\\n\r\t\xc3\xbd\xff";

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..=rng.below(4) {
        let at = if out.is_empty() {
            0
        } else {
            rng.below(out.len())
        };
        let byte = ALPHABET[rng.below(ALPHABET.len())];
        match rng.below(3) {
            0 if !out.is_empty() => out[at] = byte,
            1 => out.insert(at, byte),
            _ if !out.is_empty() => {
                out.remove(at);
            }
            _ => out.push(byte),
        }
    }
    out
}

const FENS: &[(Variant, &str)] = &[
    (
        Variant::Standard,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (Variant::Atomic, "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"),
    (
        Variant::Crazyhouse,
        "r2q1rk1/ppp2pp1/1bnp3p/3Bp3/4P1b1/2PPPN2/PP4PP/R2Q1RK1[NBn] w - - 22 12",
    ),
    (Variant::ThreeCheck, "4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1"),
    (
        Variant::Chess960,
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 0 1",
    ),
    (Variant::Antichess, "8/8/8/8/8/8/p7/1R6 b - - 0 1"),
    (
        Variant::RacingKings,
        "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
    ),
    (
        Variant::Horde,
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
    ),
];

#[test]
fn mutated_fens_are_errors_or_positions() {
    let mut rng = Rng(0x5EED_F00D);
    for _ in 0..4000 {
        let (variant, fen) = FENS[rng.below(FENS.len())];
        let bytes = mutate(&mut rng, fen.as_bytes());
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(game) = Game::from_fen(variant, &text) {
            let _ = game.legal_moves();
            let _ = game.fen();
            let _ = game.can_claim_draw();
        }
        let _ = perft_from_fen(variant, &text, 2);
        let _ = legal_moves_from_fen(variant, &text);
    }
}

#[test]
fn mutated_moves_are_errors_or_moves() {
    let mut rng = Rng(0xC0FF_EE11);
    let inputs = [
        "Nf3",
        "exd5",
        "O-O-O",
        "e8=Q+",
        "P@e4",
        "@e4",
        "N@f3",
        "g1f3",
        "e7e8q",
        "e1h1",
        "Kxd2",
        "1... Nf6!?",
        "0-0",
        "--",
    ];
    for (variant, fen) in FENS {
        let game = Game::from_fen(*variant, fen).expect("valid start");
        for _ in 0..600 {
            let input = inputs[rng.below(inputs.len())];
            let bytes = mutate(&mut rng, input.as_bytes());
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(next) = game.play(&text) {
                assert_eq!(next.ply(), game.ply() + 1);
            }
            let _ = game.play_uci(&text);
            let _ = Game::replay(*variant, fen, &[text.into_owned()]);
        }
    }
}

#[test]
fn mutated_pgn_is_read_without_panics() {
    let pgn = "\u{feff}[Event \"x\"]\r\n[Variant \"Crazyhouse\"]\r\n\r\n\
               1. e4 d5 {comment} 2. exd5 $1 Qxd5 (2... Nf6 3. c4) 3. Nc3 Qa5 4. P@d5 N@f6 *\r\n\r\n\
               [FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n\n1. O-O-O Kd7 2. -- Kc7 1/2-1/2\n\n\
               [Variant \"Atomic\"]\n\n1. Nf3 Nf6 2. Ne5 e6 3. Nxf7# 1-0\n";
    let mut rng = Rng(0xBADC_0DE5);
    for _ in 0..3000 {
        let bytes = mutate(&mut rng, pgn.as_bytes());
        for read in read_pgn(&bytes, PgnReadOptions::default()) {
            match read {
                Ok(game) => assert!(game.index >= 1),
                Err(error) => assert!(!error.to_string().is_empty()),
            }
        }
    }
}
