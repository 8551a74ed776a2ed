//! Hard against Fairy-Stockfish 14 (WebAssembly, in headless Chromium) in atomic, as a report.
//!
//! `cargo bench -p slowfuse-engine --bench yardstick` installs the npm package that holds
//! Fairy-Stockfish 14 as WebAssembly into a temporary directory (never into the repository),
//! serves it with a page of ours from a small HTTP server on 127.0.0.1, opens that page in
//! headless Chromium through chromedriver, and plays atomic games: Hard here in the bench
//! process with a node budget, Fairy-Stockfish with `go nodes M`. Every move and every ending
//! is judged by `slowfuse_rules`; a draw is taken as soon as one could be claimed (threefold
//! repetition, fifty moves, no material to win), and a game still going after 200 plies is
//! adjudicated a draw. Colours alternate; the openings are the start and seeded random
//! first two plies. The report is Markdown on standard output.
//!
//! Settings: `YARDSTICK_GAMES` (default 20), `YARDSTICK_NODES` (Hard's nodes a move, default
//! 200000), `YARDSTICK_FAIRY_NODES` (Fairy-Stockfish's nodes a move, a comma-separated list,
//! one match each, default `1000,10000,30000,100000`), `YARDSTICK_DIR` (where the package is
//! installed, default a folder in the system's temporary directory, reused when already
//! there), `YARDSTICK_MOVES=1` (print each game's moves). Without npm, Chromium or chromedriver
//! it says so and exits without failing.

mod browser;
mod serve;
mod setup;

use std::path::Path;
use std::time::Instant;

use browser::{Browser, Fairy};
use setup::{PACKAGE, PACKAGE_VERSION, find_program, first_line, install, load_average};
use slowfuse_engine::{EnginePosition, Level, Limits, best_move};
use slowfuse_rules::{Color, Game, Variant};

/// A game still going after this many plies is adjudicated a draw.
const MAX_PLIES: usize = 200;

fn main() {
    let games = env_number("YARDSTICK_GAMES", 20);
    let nodes = env_number("YARDSTICK_NODES", 200_000);
    let fairy_nodes: Vec<u64> = std::env::var("YARDSTICK_FAIRY_NODES")
        .unwrap_or_else(|_| "1000,10000,30000,100000".into())
        .split(',')
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    println!("# Yardstick: Hard against Fairy-Stockfish 14 (WebAssembly) in atomic\n");
    let (Some(npm), Some(chromium), Some(chromedriver)) = (
        find_program("npm"),
        find_program("chromium"),
        find_program("chromedriver"),
    ) else {
        println!("SKIPPED: the yardstick needs npm, chromium and chromedriver on PATH");
        return;
    };
    if let Err(why) = run(&npm, &chromium, &chromedriver, games, nodes, &fairy_nodes) {
        println!("\nSTOPPED: {why}");
    }
}

/// Installs the package, serves the page, opens the browser and plays every match.
fn run(
    npm: &Path,
    chromium: &Path,
    chromedriver: &Path,
    games: u64,
    nodes: u64,
    fairy_nodes: &[u64],
) -> Result<(), String> {
    let package = install(npm)?;
    let base = serve::start(&package).map_err(|e| format!("serve the page: {e}"))?;
    let browser = Browser::start(chromedriver, chromium)?;
    let fairy = Fairy::load(&browser, &format!("{base}/"))?;
    let started = Instant::now();
    print_header(&browser, &fairy, games, nodes);
    let openings = openings(games.div_ceil(2));
    let mut summary = Vec::new();
    for &their_nodes in fairy_nodes {
        summary.push(play_match(&fairy, &openings, games, nodes, their_nodes));
    }
    println!("\n## Summary\n");
    println!("| Fairy-Stockfish nodes a move | games | Hard W | D | L | void | Hard's score |");
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for row in &summary {
        println!("{row}");
    }
    println!(
        "\nLoad average at the end: {}; {:.0} s in all.",
        load_average(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The run's circumstances: date, machine, both engines and the rules of the match.
fn print_header(browser: &Browser, fairy: &Fairy, games: u64, nodes: u64) {
    println!(
        "- date: {}",
        first_line("date", &["-u", "+%Y-%m-%d %H:%M UTC"])
    );
    println!(
        "- machine: {} cores; load average at the start: {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load_average()
    );
    println!(
        "- ours: slowfuse-engine {} (commit {}), Level::Hard, {nodes} nodes a move",
        env!("CARGO_PKG_VERSION"),
        first_line("git", &["rev-parse", "--short", "HEAD"])
    );
    println!(
        "- theirs: {} from {PACKAGE} {PACKAGE_VERSION} (fsf_14), UCI_Variant atomic, 1 thread, \
         16 MB hash, classical evaluation (Use NNUE false; no network file loaded, the \
         package recommends {}), in Chromium {}",
        fairy.name,
        fairy.recommended_nnue().unwrap_or_else(|| "none".into()),
        browser.version
    );
    println!(
        "- {games} games per budget, colours alternating, openings: the start and seeded random \
         first two plies; judged by slowfuse_rules; a claimable draw ends the game; \
         {MAX_PLIES} plies: adjudicated draw"
    );
}

/// How one game ended, for Hard.
enum ForHard {
    Win,
    Draw,
    Loss,
    /// A move refused by our rules or an engine that failed: not scored.
    Void,
}

/// Plays `games` games against Fairy-Stockfish at `their_nodes`; prints them and returns the
/// summary row.
fn play_match(
    fairy: &Fairy,
    openings: &[Vec<String>],
    games: u64,
    nodes: u64,
    their_nodes: u64,
) -> String {
    println!("\n## Fairy-Stockfish at {their_nodes} nodes a move\n");
    println!("| game | opening | Hard plays | result for Hard | plies | ending | seconds |");
    println!("|---:|---|---|---|---:|---|---:|");
    let mut counts = [0u32; 4];
    for index in 0..games {
        let opening = &openings[usize::try_from(index / 2).unwrap_or(0)];
        let hard_white = index % 2 == 0;
        let started = Instant::now();
        let (result, game, ending) = play_game(fairy, opening, hard_white, nodes, their_nodes);
        let (slot, word) = match result {
            ForHard::Win => (0, "win"),
            ForHard::Draw => (1, "draw"),
            ForHard::Loss => (2, "loss"),
            ForHard::Void => (3, "void"),
        };
        counts[slot] += 1;
        let opening_text = if opening.is_empty() {
            "start".to_string()
        } else {
            opening.join(" ")
        };
        let colour = if hard_white { "White" } else { "Black" };
        println!(
            "| {} | {opening_text} | {colour} | {word} | {} | {ending} | {:.0} |",
            index + 1,
            game.ply(),
            started.elapsed().as_secs_f64()
        );
        if std::env::var("YARDSTICK_MOVES").as_deref() == Ok("1") {
            let sans: Vec<&str> = game.moves().iter().map(|m| m.san.as_str()).collect();
            println!("|  | {} |  |  |  |  |  |", sans.join(" "));
        }
    }
    let [win, draw, loss, void] = counts;
    let scored = win + draw + loss;
    let points = f64::from(win) + f64::from(draw) / 2.0;
    let percent = if scored == 0 {
        0.0
    } else {
        100.0 * points / f64::from(scored)
    };
    format!(
        "| {their_nodes} | {scored} | {win} | {draw} | {loss} | {void} | {points:.1}/{scored} ({percent:.0}%) |"
    )
}

/// One game from `opening`; its result for Hard, the game, and how it ended.
fn play_game(
    fairy: &Fairy,
    opening: &[String],
    hard_white: bool,
    nodes: u64,
    their_nodes: u64,
) -> (ForHard, Game, String) {
    let mut game = Game::new(Variant::Atomic);
    let mut position = EnginePosition::from_game(&game);
    let mut moves: Vec<String> = Vec::new();
    for uci in opening {
        game = game.play_uci(uci).expect("the opening is legal");
        position = position.play_uci(uci).expect("the opening is legal");
        moves.push(uci.clone());
    }
    if let Err(why) = fairy.uci(&["ucinewgame", "isready"], "readyok") {
        return (ForHard::Void, game, why);
    }
    let hard_colour = if hard_white {
        Color::White
    } else {
        Color::Black
    };
    loop {
        if let Some(outcome) = game.outcome() {
            let result = match outcome.winner {
                None => ForHard::Draw,
                Some(colour) if colour == hard_colour => ForHard::Win,
                Some(_) => ForHard::Loss,
            };
            return (result, game, outcome.reason.to_string());
        }
        if let Some(reason) = game.can_claim_draw() {
            return (ForHard::Draw, game, reason.to_string());
        }
        if moves.len() >= MAX_PLIES {
            return (ForHard::Draw, game, format!("{MAX_PLIES} plies: draw"));
        }
        let ours = game.turn() == hard_colour;
        let answer = if ours {
            hard_move(&position, nodes, moves.len())
        } else {
            fairy.best_move(&moves, their_nodes)
        };
        let uci = match answer {
            Ok(uci) => uci,
            Err(why) => return (ForHard::Void, game, why),
        };
        let mover = if ours { "Hard" } else { "Fairy-Stockfish" };
        match (game.play_uci(&uci), position.play_uci(&uci)) {
            (Ok(next_game), Some(next_position)) => {
                game = next_game;
                position = next_position;
                moves.push(uci);
            }
            _ => return (ForHard::Void, game, format!("{mover}'s {uci} refused")),
        }
    }
}

/// Hard's move, seeded by the ply.
fn hard_move(position: &EnginePosition, nodes: u64, ply: usize) -> Result<String, String> {
    best_move(position, Level::Hard, &Limits::nodes(nodes), ply as u64)
        .map(|found| found.uci)
        .map_err(|e| format!("Hard: {e}"))
}

/// The start, then seeded random first two plies, each line different.
fn openings(count: u64) -> Vec<Vec<String>> {
    let mut lines: Vec<Vec<String>> = vec![Vec::new()];
    let mut seed: u64 = 2026;
    while (lines.len() as u64) < count {
        let mut position = EnginePosition::from_game(&Game::new(Variant::Atomic));
        let mut line = Vec::new();
        for _ in 0..2 {
            let moves = position.legal_ucis();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pick =
                moves[usize::try_from((seed >> 33) % moves.len() as u64).unwrap_or(0)].clone();
            position = position.play_uci(&pick).expect("a legal move");
            line.push(pick);
        }
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
