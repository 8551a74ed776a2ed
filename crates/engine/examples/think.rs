//! Asks the engine for a move: `cargo run -p slowfuse-engine --example think -- VARIANT FEN [NODES] [LEVEL]`.

use slowfuse_engine::{EnginePosition, Level, Limits, best_move};
use slowfuse_rules::Variant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant: Variant = args
        .first()
        .map_or("standard", String::as_str)
        .parse()
        .expect("a variant");
    let fen = args
        .get(1)
        .map_or(slowfuse_rules::STANDARD_START_FEN, String::as_str);
    let nodes = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(200_000);
    let level = match args.get(3).map(String::as_str) {
        Some("easy") => Level::Easy,
        Some("medium") => Level::Medium,
        _ => Level::Hard,
    };
    let position = EnginePosition::from_fen(variant, fen).expect("a legal FEN");
    match best_move(&position, level, &Limits::nodes(nodes), 1) {
        Ok(found) => println!(
            "{} score {} mate {:?} depth {} nodes {} pv {}",
            found.uci,
            found.score_cp,
            found.mate,
            found.depth,
            found.nodes,
            found.pv.join(" ")
        ),
        Err(error) => println!("{error}"),
    }
}
