//! Picture benchmark: the animated GIF of each standard game of the shared PGN corpus, drawn
//! in-process as `GET /games/{id}.gif` draws it (one 720×840 frame per ply and the start), and
//! the PNG of each game's last position; median milliseconds and bytes, per game and per frame.
//!
//! Run with `cargo bench --bench images` (see `docs/benchmarks.md`). Settings, all optional:
//! `SLOWFUSE_BENCH_CORPUS` (a folder of `.pgn` files, default `../shared/corpus/pgn/standard`
//! beside the repository), `SLOWFUSE_BENCH_RUNS` (timed runs per game, default 15; one more
//! untimed run first fills the sprite cache), `SLOWFUSE_BENCH_THEME` and
//! `SLOWFUSE_BENCH_PIECES` (default `green`, `classic`), `SLOWFUSE_BENCH_WRITE` (a folder to
//! write each GIF into, to look at).

use std::path::PathBuf;
use std::time::Instant;

use slowfuse::export::raster::{Captions, game_gif, position_png};
use slowfuse::export::svg::Style;
use slowfuse::export::{BoardAt, board_of_game};
use slowfuse_rules::{Game, PgnReadOptions, read_pgn};

struct Sample {
    name: String,
    plies: u32,
    frames: usize,
    gif_ms: f64,
    /// The fastest run: the best estimate when other work shares the machine.
    gif_min_ms: f64,
    gif_bytes: usize,
    png_ms: f64,
    png_bytes: usize,
}

fn main() {
    let corpus = std::env::var("SLOWFUSE_BENCH_CORPUS").map_or_else(
        |_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/pgn/standard"),
        PathBuf::from,
    );
    let runs: usize = setting("SLOWFUSE_BENCH_RUNS").unwrap_or(15).max(1);
    let theme = std::env::var("SLOWFUSE_BENCH_THEME").unwrap_or_else(|_| "green".into());
    let pieces = std::env::var("SLOWFUSE_BENCH_PIECES").unwrap_or_else(|_| "classic".into());
    let write_to = std::env::var("SLOWFUSE_BENCH_WRITE")
        .ok()
        .map(PathBuf::from);
    let style = Style {
        theme: &theme,
        piece_set: &pieces,
        coords: true,
    };
    let games = read_corpus(&corpus);
    assert!(!games.is_empty(), "no game read from {}", corpus.display());
    println!(
        "GIF and PNG of {} games from {}, {runs} timed runs each, theme {theme}, pieces {pieces}",
        games.len(),
        corpus.display()
    );
    println!(
        "{:<4} {:>5} {:>6} {:>9} {:>9} {:>9} {:>10} {:>9} {:>9}",
        "game", "plies", "frames", "GIF ms", "min ms", "GIF KiB", "ms/frame", "PNG ms", "PNG KiB"
    );
    let mut samples = Vec::new();
    for (n, (game, captions)) in games.iter().enumerate() {
        let draw = || {
            let frames: Vec<Vec<BoardAt>> = (0..=game.ply())
                .filter_map(|p| board_of_game(game, p).map(|b| vec![b]))
                .collect();
            game_gif(&frames, &style, captions, 1000).expect("a GIF")
        };
        let gif = draw();
        if let Some(dir) = &write_to {
            std::fs::create_dir_all(dir).expect("the folder to write into");
            std::fs::write(dir.join(format!("game-{}.gif", n + 1)), &gif).expect("GIF written");
        }
        let gif_runs: Vec<f64> = (0..runs).map(|_| time(|| draw().len())).collect();
        let gif_min_ms = gif_runs.iter().copied().fold(f64::INFINITY, f64::min);
        let gif_ms = median(gif_runs);
        let last = vec![board_of_game(game, game.ply()).expect("the last position")];
        let png = position_png(&last, &style, captions).expect("a PNG");
        let png_ms = median(
            (0..runs)
                .map(|_| time(|| position_png(&last, &style, captions).map_or(0, |p| p.len())))
                .collect(),
        );
        let sample = Sample {
            name: format!("{}", n + 1),
            plies: game.ply(),
            frames: game.ply() as usize + 1,
            gif_ms,
            gif_min_ms,
            gif_bytes: gif.len(),
            png_ms,
            png_bytes: png.len(),
        };
        println!(
            "{:<4} {:>5} {:>6} {:>9.1} {:>9.1} {:>9.1} {:>10.3} {:>9.2} {:>9.1}",
            sample.name,
            sample.plies,
            sample.frames,
            sample.gif_ms,
            sample.gif_min_ms,
            kib(sample.gif_bytes),
            sample.gif_ms / sample.frames as f64,
            sample.png_ms,
            kib(sample.png_bytes),
        );
        samples.push(sample);
    }
    let frames: usize = samples.iter().map(|s| s.frames).sum();
    let bytes: usize = samples.iter().map(|s| s.gif_bytes).sum();
    let per_frame_ms = median(samples.iter().map(|s| s.gif_ms / s.frames as f64).collect());
    println!(
        "median per game: GIF {:.1} ms, {:.1} KiB, {} frames; PNG {:.2} ms, {:.1} KiB",
        median(samples.iter().map(|s| s.gif_ms).collect()),
        median(samples.iter().map(|s| kib(s.gif_bytes)).collect()),
        median(samples.iter().map(|s| s.frames as f64).collect()),
        median(samples.iter().map(|s| s.png_ms).collect()),
        median(samples.iter().map(|s| kib(s.png_bytes)).collect()),
    );
    let per_frame_min_ms = median(
        samples
            .iter()
            .map(|s| s.gif_min_ms / s.frames as f64)
            .collect(),
    );
    println!(
        "per frame: median {per_frame_ms:.3} ms (fastest runs: {per_frame_min_ms:.3} ms); all games {:.2} KiB a frame ({} frames, {:.1} KiB); \
         a 69-frame game at these rates: {:.1} ms ({:.1} ms), {:.0} KiB",
        kib(bytes) / frames as f64,
        frames,
        kib(bytes),
        per_frame_ms * 69.0,
        per_frame_min_ms * 69.0,
        kib(bytes) / frames as f64 * 69.0,
    );
}

/// Each game of every `.pgn` file in `dir` with its bands: the players (and their ratings
/// when tagged) and the result with the termination.
fn read_corpus(dir: &PathBuf) -> Vec<(Game, Captions)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let bytes = std::fs::read(&file).expect("the PGN file");
        for read in read_pgn(&bytes, PgnReadOptions::default()) {
            let Ok(pgn) = read else { continue };
            let player = |name: &str, elo: &str| match pgn.tag(elo) {
                Some(r) => format!("{} ({r})", pgn.tag(name).unwrap_or("?")),
                None => pgn.tag(name).unwrap_or("?").to_string(),
            };
            let result = pgn.tag("Result").unwrap_or("*");
            let footer = match pgn.tag("Termination") {
                Some(t) => format!("{result} · {t}"),
                None => result.to_string(),
            };
            let captions = Captions {
                header: vec![format!(
                    "{} v {}",
                    player("White", "WhiteElo"),
                    player("Black", "BlackElo")
                )],
                footer: vec![footer],
            };
            out.push((pgn.game, captions));
        }
    }
    out
}

fn setting(name: &str) -> Option<usize> {
    std::env::var(name).ok()?.parse().ok()
}

fn time(f: impl FnOnce() -> usize) -> f64 {
    let start = Instant::now();
    std::hint::black_box(f());
    start.elapsed().as_secs_f64() * 1000.0
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    match xs.len() {
        0 => 0.0,
        n if n % 2 == 1 => xs[n / 2],
        n => (xs[n / 2 - 1] + xs[n / 2]) / 2.0,
    }
}

fn kib(bytes: usize) -> f64 {
    bytes as f64 / 1024.0
}
