//! Strength and speed of the engine, as a report on standard output.
//!
//! `cargo bench -p slowfuse-engine --bench strength` (release) measures:
//! nodes per second per variant; seeded self-play matches Hard v Medium and
//! Medium v Easy per variant (alternating colours, from the start and from
//! seeded openings); how often Hard finds the win in the atomic positions of
//! the shared corpus's real games that hold a forced king explosion in one to
//! three moves (each named by file, game and ply); and the legality of the
//! engine's move over 10,000 random positions per variant, bughouse boards
//! and minesweeper games (from the mover's view) included.
//!
//! Parts can be chosen: `-- speed`, `-- match`, `-- atomic`, `-- legal`
//! (all when none is named). `STRENGTH_GAMES` sets the openings per pairing
//! (each played with both colours, default 5), `STRENGTH_NODES` the node
//! budget per move (default 40,000), `STRENGTH_POSITIONS` the random positions
//! per variant of the legality check (default 10000). Matches run on two
//! threads.

use std::path::PathBuf;
use std::time::Instant;

use slowfuse_engine::playout::random_position;
use slowfuse_engine::puzzles::{forced_win, move_wins};
use slowfuse_engine::{
    BadPosition, EngineError, EnginePosition, Level, Limits, analyse, analyse_game, best_move,
};
use slowfuse_rules::bughouse::{Board, Team};
use slowfuse_rules::minesweeper::{MinesweeperGame, MinesweeperOptions, Placement};
use slowfuse_rules::{BughouseGame, Color, Game, PgnReadOptions, Variant, read_pgn};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wants = |part: &str| args.is_empty() || args.iter().any(|a| a == part);
    println!("# slowfuse-engine strength report");
    if wants("speed") {
        speed();
    }
    if wants("match") {
        matches();
    }
    if wants("atomic") {
        atomic_wins();
    }
    if wants("legal") {
        legality();
    }
    if wants("analysis") {
        analysis_speed();
    }
}

/// Engine analysis as the server runs it: every position of a 60-ply game judged by
/// `analyse_game` at the server's default of 300,000 nodes a position (`STRENGTH_ANALYSIS_NODES`),
/// per variant; the game a seeded walk of legal moves that do not end it.
fn analysis_speed() {
    let budget = env_number("STRENGTH_ANALYSIS_NODES", 300_000);
    println!("\n## Engine analysis of a 60-ply game ({budget} nodes a position)\n");
    println!("| variant | positions | seconds | positions/s | nodes/s |");
    println!("|---|---:|---:|---:|---:|");
    for &variant in Variant::ALL {
        let mut game = Game::new(variant);
        let mut seed = 0x5EED ^ variant as u64;
        for _ in 0..60 {
            let moves: Vec<String> = game
                .legal_ucis()
                .into_iter()
                .filter(|uci| game.play_uci(uci).is_ok_and(|next| !next.is_over()))
                .collect();
            if moves.is_empty() {
                break;
            }
            game = game
                .play_uci(&moves[pick(&mut seed, moves.len())])
                .expect("legal");
        }
        let started = Instant::now();
        let judged = analyse_game(&game, &Limits::nodes(budget));
        let seconds = started.elapsed().as_secs_f64();
        let nodes: u64 = judged.iter().map(|a| a.nodes).sum();
        println!(
            "| {variant} | {} | {seconds:.1} | {:.1} | {:.0} |",
            judged.len(),
            judged.len() as f64 / seconds,
            nodes as f64 / seconds
        );
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Nodes per second of Hard searching 200,000 nodes from the start and from
/// four positions after 16 random moves, per variant.
fn speed() {
    println!("\n## Nodes per second (Hard, 200,000 nodes a search, 5 positions per variant)\n");
    println!("| variant | nodes | seconds | nodes/s | depth reached (start) |");
    println!("|---|---:|---:|---:|---:|");
    for &variant in Variant::ALL {
        let mut positions = vec![EnginePosition::from_game(&Game::new(variant))];
        positions.extend((0..4).map(|seed| random_position(variant, 16, 100 + seed)));
        let mut nodes = 0;
        let mut depth = 0;
        let started = Instant::now();
        for (i, position) in positions.iter().enumerate() {
            if let Ok(found) = best_move(position, Level::Hard, &Limits::nodes(200_000), 1) {
                nodes += found.nodes;
                if i == 0 {
                    depth = found.depth;
                }
            }
        }
        let seconds = started.elapsed().as_secs_f64();
        let rate = nodes as f64 / seconds;
        println!("| {variant} | {nodes} | {seconds:.2} | {rate:.0} | {depth} |");
    }
}

/// One game's result for the first-named level: 1, ½ or 0.
fn play_game(
    variant: Variant,
    opening: &[String],
    strong: Level,
    weak: Level,
    strong_is_white: bool,
    nodes: u64,
    seed: u64,
) -> f64 {
    let mut game = Game::new(variant);
    let mut position = EnginePosition::from_game(&game);
    for uci in opening {
        game = game.play_uci(uci).expect("opening move");
        position = position.play_uci(uci).expect("opening move");
    }
    let limits = Limits::nodes(nodes);
    for ply in 0..240u64 {
        if game.is_over() {
            break;
        }
        if game.can_claim_draw().is_some() {
            return 0.5;
        }
        let white = game.turn() == Color::White;
        let level = if white == strong_is_white {
            strong
        } else {
            weak
        };
        let Ok(found) = best_move(
            &position,
            level,
            &limits,
            seed.wrapping_mul(1000).wrapping_add(ply),
        ) else {
            break;
        };
        game = game
            .play_uci(&found.uci)
            .expect("the engine's move is legal");
        position = position
            .play_uci(&found.uci)
            .expect("the engine's move is legal");
    }
    let winner = match game.outcome() {
        Some(outcome) => outcome.winner,
        // Unfinished after 240 plies: Hard's judgement with a margin decides.
        None => {
            let score = analyse(&position, &Limits::nodes(50_000)).score_cp;
            match score {
                s if s > 400 => Some(Color::White),
                s if s < -400 => Some(Color::Black),
                _ => None,
            }
        }
    };
    match winner {
        Some(Color::White) if strong_is_white => 1.0,
        Some(Color::Black) if !strong_is_white => 1.0,
        None => 0.5,
        _ => 0.0,
    }
}

/// The summed scores of `jobs`, half of them on a second thread.
fn on_two_threads<T: Sync>(jobs: &[T], score: impl Fn(&T) -> f64 + Sync) -> f64 {
    let (left, right) = jobs.split_at(jobs.len() / 2);
    let run = |part: &[T]| -> f64 { part.iter().map(&score).sum() };
    std::thread::scope(|scope| {
        let handle = scope.spawn(|| run(left));
        let b = run(right);
        handle.join().expect("match thread") + b
    })
}

/// The pairings of the self-play table, the stronger level first.
const PAIRINGS: [(Level, Level); 2] = [(Level::Hard, Level::Medium), (Level::Medium, Level::Easy)];

/// Plays one row of the self-play table, `games` openings × 2 colours per pairing (`score`:
/// the stronger level's summed score in one pairing), prints it and returns both scores.
fn play_row(name: &str, games: u64, score: impl Fn(Level, Level) -> f64) -> [f64; 2] {
    let started = Instant::now();
    let scores = PAIRINGS.map(|(strong, weak)| score(strong, weak));
    print_scores(name, scores, games * 2, started);
    scores
}

/// One row of the self-play table: both pairings' scores out of `games`, and the time taken.
fn print_scores(name: &str, scores: [f64; 2], games: u64, started: Instant) {
    let n = games as f64;
    println!(
        "| {name} | {:.1}/{n} ({:.0}%) | {:.1}/{n} ({:.0}%) | {:.0} |",
        scores[0],
        100.0 * scores[0] / n,
        scores[1],
        100.0 * scores[1] / n,
        started.elapsed().as_secs_f64()
    );
}

/// A game of two levels that is not one board of `Game`: the stronger level's score.
type GameOfTwo = fn(Level, Level, bool, u64, u64) -> f64;

/// A bughouse match: team A (A1 and A2) plays `strong` when `strong_is_a`, team B the other
/// level; the boards take turns, a board whose player sits (or has no move) is passed over.
/// Unfinished after 300 plies, or with neither board able to move: a draw.
fn play_bughouse(strong: Level, weak: Level, strong_is_a: bool, nodes: u64, seed: u64) -> f64 {
    let mut game = BughouseGame::new();
    let limits = Limits::nodes(nodes);
    let mut board = Board::A;
    let mut idle = 0;
    for ply in 0..300u64 {
        if game.is_over() || idle >= 2 {
            break;
        }
        board = board.other();
        if game.legal_moves(board).is_empty() {
            idle += 1;
            continue;
        }
        let seat = game.to_move(board);
        let level = if (seat.team() == Team::A) == strong_is_a {
            strong
        } else {
            weak
        };
        let position = EnginePosition::from_bughouse(&game, board).expect("a crazyhouse board");
        let Ok(found) = best_move(&position, level, &limits, seed.wrapping_mul(1000) + ply) else {
            idle += 1;
            continue;
        };
        match game.play(board, &found.uci) {
            Ok(next) => {
                game = next;
                idle = 0;
            }
            // A crazyhouse mate that is a sit in bughouse: that board waits.
            Err(_) => idle += 1,
        }
    }
    match game.outcome().and_then(|o| o.winner) {
        Some(Team::A) if strong_is_a => 1.0,
        Some(Team::B) if !strong_is_a => 1.0,
        None => 0.5,
        _ => 0.0,
    }
}

/// A minesweeper game with the bombs placed at random (from `seed`), each side's engine given
/// only its own view. Unfinished after 240 plies, or drawn by claim: a draw.
fn play_minesweeper(
    strong: Level,
    weak: Level,
    strong_is_white: bool,
    nodes: u64,
    seed: u64,
) -> f64 {
    let options = MinesweeperOptions {
        placement: Placement::Random,
        modest: false,
    };
    let mut game = MinesweeperGame::new(options)
        .finish_setup(seed)
        .expect("bombs placed");
    let limits = Limits::nodes(nodes);
    for ply in 0..240u64 {
        if game.is_over() || game.can_claim_draw().is_some() {
            break;
        }
        let white = game.turn() == Color::White;
        let level = if white == strong_is_white {
            strong
        } else {
            weak
        };
        let view = game.player_view(game.turn());
        let Ok(position) = EnginePosition::from_minesweeper(&view) else {
            break;
        };
        let Ok(found) = best_move(&position, level, &limits, seed.wrapping_mul(1000) + ply) else {
            break;
        };
        game = game
            .play_uci(&found.uci)
            .expect("the engine's move is legal")
            .0;
    }
    match game.outcome().and_then(|o| o.winner) {
        Some(Color::White) if strong_is_white => 1.0,
        Some(Color::Black) if !strong_is_white => 1.0,
        None => 0.5,
        _ => 0.0,
    }
}

/// Seeded openings: the start, then a few random plies from it.
fn openings(variant: Variant, count: u64) -> Vec<Vec<String>> {
    (0..count)
        .map(|i| {
            if i == 0 {
                return Vec::new();
            }
            let mut line = Vec::new();
            let mut position = EnginePosition::from_game(&Game::new(variant));
            let mut seed = i * 7919 + variant as u64;
            for _ in 0..4 {
                let moves = position.legal_ucis();
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let pick =
                    moves[usize::try_from((seed >> 33) % moves.len() as u64).unwrap_or(0)].clone();
                position = position.play_uci(&pick).expect("legal");
                if position.is_over() {
                    break;
                }
                line.push(pick);
            }
            line
        })
        .collect()
}

fn matches() {
    let games = env_number("STRENGTH_GAMES", 5);
    let nodes = env_number("STRENGTH_NODES", 40_000);
    println!(
        "\n## Self-play ({games} openings × 2 colours per pairing, {nodes} nodes a move, level caps apply)\n"
    );
    println!("| variant | Hard v Medium | Medium v Easy | seconds |");
    println!("|---|---:|---:|---:|");
    let mut totals = [0.0f64; 2];
    let mut played = 0usize;
    // `STRENGTH_ONLY=Atomic,Bughouse` plays only those rows.
    let only = std::env::var("STRENGTH_ONLY").unwrap_or_default();
    let chosen = |name: &str| only.is_empty() || only.split(',').any(|o| o.trim() == name);
    let mut add = |scores: [f64; 2]| {
        totals[0] += scores[0];
        totals[1] += scores[1];
        played += (games * 2) as usize;
    };
    for &variant in Variant::ALL {
        if !chosen(&variant.to_string()) {
            continue;
        }
        let lines = openings(variant, games);
        let jobs: Vec<(Vec<String>, bool, u64)> = lines
            .iter()
            .enumerate()
            .flat_map(|(i, line)| {
                [
                    (line.clone(), true, i as u64 * 2),
                    (line.clone(), false, i as u64 * 2 + 1),
                ]
            })
            .collect();
        add(play_row(&variant.to_string(), games, |strong, weak| {
            on_two_threads(&jobs, |(line, white, seed)| {
                play_game(variant, line, strong, weak, *white, nodes, *seed)
            })
        }));
    }
    for (name, play) in [
        ("Bughouse", play_bughouse as GameOfTwo),
        ("Minesweeper", play_minesweeper as GameOfTwo),
    ] {
        if !chosen(name) {
            continue;
        }
        let seeds: Vec<u64> = (0..games * 2).collect();
        add(play_row(name, games, |strong, weak| {
            on_two_threads(&seeds, |&seed| {
                play(strong, weak, seed % 2 == 0, nodes, seed)
            })
        }));
    }
    let n = played as f64;
    println!(
        "| all | {:.1}/{n} ({:.0}%) | {:.1}/{n} ({:.0}%) | |",
        totals[0],
        100.0 * totals[0] / n,
        totals[1],
        100.0 * totals[1] / n
    );
}

fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SLOWFUSE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    dir.is_dir().then_some(dir)
}

/// Every position of the corpus's atomic games where the side to move can
/// force a king explosion (or mate) within three moves, solved exhaustively;
/// Hard (200,000 nodes) must play a move that keeps the forced win.
fn atomic_wins() {
    println!("\n## Atomic: Hard finds the forced win (positions of real games)\n");
    let Some(dir) = corpus_dir() else {
        println!("skipped: no corpus at $SLOWFUSE_CORPUS or ../shared/corpus");
        return;
    };
    let relative = "pgn/atomic/atomic-games.pgn";
    let bytes = std::fs::read(dir.join(relative)).expect("the corpus file reads");
    println!("| source | ply | to move | win in | solver's move | Hard's move | found |");
    println!("|---|---:|---|---:|---|---|---|");
    let (mut found, mut total) = (0, 0);
    for (number, read) in read_pgn(&bytes, PgnReadOptions::default())
        .into_iter()
        .enumerate()
    {
        let Ok(record) = read else { continue };
        let mut game = Game::from_fen(Variant::Atomic, &record.game.initial_fen()).expect("start");
        for (ply, played) in record.game.moves().iter().enumerate() {
            let position = EnginePosition::from_game(&game);
            if let Some((depth, solution)) =
                (1..=3).find_map(|d| forced_win(&position, d).map(|m| (d, m)))
            {
                let answer = best_move(&position, Level::Hard, &Limits::nodes(200_000), 1);
                let (uci, ok) = match answer {
                    Ok(r) => {
                        let ok = move_wins(&position, &r.uci, depth);
                        (r.uci, ok)
                    }
                    Err(EngineError::GameOver) => ("-".to_owned(), false),
                };
                total += 1;
                found += usize::from(ok);
                let side = if game.turn() == Color::White {
                    "White"
                } else {
                    "Black"
                };
                println!(
                    "| {relative} game {} | {ply} | {side} | {depth} | {solution} | {uci} | {} |",
                    number + 1,
                    if ok { "yes" } else { "no" }
                );
            }
            game = game.play_uci(&played.uci).expect("corpus move");
        }
    }
    let rate = if total == 0 {
        0.0
    } else {
        100.0 * found as f64 / total as f64
    };
    println!("\nHard found the win in {found} of {total} positions ({rate:.0}%).");
}

/// The engine's move in random positions (random playouts of 0 to 99 plies),
/// each level in turn, 300 nodes a search: every move must be legal.
fn legality() {
    let count = env_number("STRENGTH_POSITIONS", 10_000);
    println!("\n## Legality: {count} random positions per variant (levels in turn, 300 nodes)\n");
    println!("| variant | positions | moves checked | game over | illegal | seconds |");
    println!("|---|---:|---:|---:|---:|---:|");
    for &variant in Variant::ALL {
        let started = Instant::now();
        let (mut checked, mut over, mut illegal) = (0, 0, 0);
        for seed in 0..count {
            let plies = usize::try_from(seed % 100).unwrap_or(0);
            let position = random_position(variant, plies, seed ^ 0xA5A5);
            let level = Level::ALL[usize::try_from(seed % 3).unwrap_or(0)];
            match best_move(&position, level, &Limits::nodes(300), seed) {
                Ok(found) => {
                    checked += 1;
                    if !position.legal_ucis().contains(&found.uci) {
                        illegal += 1;
                        println!("ILLEGAL {variant} {} {}", position.fen(), found.uci);
                    }
                }
                Err(EngineError::GameOver) => {
                    over += 1;
                    if !position.is_over() {
                        illegal += 1;
                        println!("NO MOVE {variant} {}", position.fen());
                    }
                }
            }
        }
        println!(
            "| {variant} | {count} | {checked} | {over} | {illegal} | {:.1} |",
            started.elapsed().as_secs_f64()
        );
    }
    bughouse_legality(count);
    minesweeper_legality(count);
}

/// A small seeded generator for the random games below.
fn pick(seed: &mut u64, len: usize) -> usize {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    usize::try_from((*seed >> 33) % u64::try_from(len.max(1)).unwrap_or(1)).unwrap_or(0)
}

/// Random bughouse matches (random moves on random boards); the engine's
/// move on a board whose player can move must be accepted by the match.
fn bughouse_legality(count: u64) {
    let started = Instant::now();
    let (mut checked, mut illegal) = (0, 0);
    for n in 0..count {
        let mut seed = n ^ 0xB0B0;
        let mut game = BughouseGame::new();
        for _ in 0..(n % 80) {
            let board = if pick(&mut seed, 2) == 0 {
                Board::A
            } else {
                Board::B
            };
            let moves = game.legal_moves(board);
            if moves.is_empty() {
                continue;
            }
            let uci = &moves[pick(&mut seed, moves.len())].uci;
            match game.play(board, uci) {
                Ok(next) if !next.is_over() => game = next,
                _ => {}
            }
        }
        for board in [Board::A, Board::B] {
            if game.legal_moves(board).is_empty() {
                continue;
            }
            let position = EnginePosition::from_bughouse(&game, board).expect("a crazyhouse board");
            let level = Level::ALL[pick(&mut seed, 3)];
            checked += 1;
            match best_move(&position, level, &Limits::nodes(300), n) {
                Ok(found) if game.play(board, &found.uci).is_ok() => {}
                other => {
                    illegal += 1;
                    println!(
                        "REFUSED bughouse {} {:?}",
                        game.fen(board),
                        other.map(|f| f.uci)
                    );
                }
            }
        }
    }
    println!(
        "| Bughouse (both boards) | {count} | {checked} | - | {illegal} | {:.1} |",
        started.elapsed().as_secs_f64()
    );
}

/// Random minesweeper games (bombs at random, random moves, blasts and all);
/// the engine, given the mover's view only, must play a move the game accepts.
fn minesweeper_legality(count: u64) {
    let started = Instant::now();
    let options = MinesweeperOptions {
        placement: Placement::Random,
        modest: false,
    };
    let (mut checked, mut over, mut illegal) = (0, 0, 0);
    for n in 0..count {
        let mut seed = n ^ 0x3E3E;
        let mut game = MinesweeperGame::new(options)
            .finish_setup(n)
            .expect("bombs placed");
        for _ in 0..(n % 60) {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            match game.play_uci(&moves[pick(&mut seed, moves.len())].uci) {
                Ok((next, _)) if !next.is_over() => game = next,
                _ => break,
            }
        }
        let view = game.player_view(game.turn());
        let position = match EnginePosition::from_minesweeper(&view) {
            Ok(position) => position,
            Err(BadPosition::NotPlaying) => {
                over += 1;
                continue;
            }
            Err(error) => {
                illegal += 1;
                println!("REFUSED minesweeper {}: {error}", view.public.fen());
                continue;
            }
        };
        let level = Level::ALL[pick(&mut seed, 3)];
        match best_move(&position, level, &Limits::nodes(300), n) {
            Ok(found) if game.play_uci(&found.uci).is_ok() => checked += 1,
            Err(EngineError::GameOver) if game.legal_moves().is_empty() => over += 1,
            other => {
                illegal += 1;
                println!(
                    "REFUSED minesweeper {} {:?}",
                    view.public.fen(),
                    other.map(|f| f.uci)
                );
            }
        }
    }
    println!(
        "| Minesweeper (mover's view) | {count} | {checked} | {over} | {illegal} | {:.1} |",
        started.elapsed().as_secs_f64()
    );
}
