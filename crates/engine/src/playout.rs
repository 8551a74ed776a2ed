//! Random positions for tests and measurements: seeded random playouts from a variant's start (a Chess960 start drawn from the seed).

use shakmaty::Position;
use shakmaty::variant::VariantPosition;
use slowfuse_rules::Variant;

use crate::position::{EnginePosition, Kind, rules_variant};
use crate::rng::Rng;

/// The position after up to `plies` random legal moves from the start of
/// `variant` (Chess960: from one of its 960 starts), drawn from `seed`,
/// never a move that ends the game; the playout stops early when every
/// move would.
pub fn random_position(variant: Variant, plies: usize, seed: u64) -> EnginePosition {
    let mut rng = Rng::new(seed);
    let mut pos = VariantPosition::new(rules_variant(variant));
    if variant == Variant::Chess960 {
        let number = u16::try_from(rng.below(960)).unwrap_or(518);
        if let Some(start) = slowfuse_rules::Game::chess960(number)
            .ok()
            .and_then(|game| EnginePosition::from_fen(variant, &game.fen()).ok())
        {
            pos = start.pos;
        }
    }
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.is_variant_end() {
            break;
        }
        // A random move that does not end the game, tried from a random start.
        let first = rng.below(moves.len());
        let next = (0..moves.len())
            .map(|i| moves[(first + i) % moves.len()])
            .map(|m| {
                let mut after = pos.clone();
                after.play_unchecked(m);
                after
            })
            .find(|after| !after.is_game_over());
        match next {
            Some(after) => pos = after,
            None => break,
        }
    }
    EnginePosition::from_variant_position(Kind::of(variant), pos)
}
