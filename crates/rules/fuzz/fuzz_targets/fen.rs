//! Fuzz target: any text read as a FEN of any variant is a position (whose moves, FEN and
//! claims can be asked for) or an error, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use slowfuse_rules::{Game, Variant, legal_moves_from_fen, perft_from_fen};

fuzz_target!(|data: &[u8]| {
    let Some((&choice, text)) = data.split_first() else {
        return;
    };
    let variant = Variant::ALL[usize::from(choice) % Variant::ALL.len()];
    let text = String::from_utf8_lossy(text);
    if let Ok(game) = Game::from_fen(variant, &text) {
        let _ = game.legal_moves();
        let _ = game.fen();
        let _ = game.can_claim_draw();
    }
    let _ = perft_from_fen(variant, &text, 2);
    let _ = legal_moves_from_fen(variant, &text);
});
