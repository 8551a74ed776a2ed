//! The lines the benchmark games follow: a fixed quiet 40-ply line and a quiet 600-ply line made by a seeded random walk, each checked.

use slowfuse_rules::{Game, PlayedMove, STANDARD_START_FEN, Variant};

use crate::{LINE, LONG_PLIES, PAWN_ALLOWED, PAWN_DUE};

/// The moves of the benchmark games, in SAN as players type them.
pub struct Lines {
    /// `LINE`, 40 plies.
    pub short: Vec<String>,
    /// The generated quiet line, `LONG_PLIES` plies.
    pub long: Vec<String>,
    /// The same in UCI, for the rules rows.
    pub long_ucis: Vec<String>,
    /// How the long line was made and what it holds, in words.
    pub long_facts: String,
}

impl Lines {
    pub fn new() -> Lines {
        let (seed, long_ucis) = (1..=1000)
            .find_map(|seed| Some((seed, quiet_walk(seed)?)))
            .expect("a seed up to 1000 yields a quiet line of LONG_PLIES plies");
        let (long, facts) = check_long_line(&long_ucis);
        Lines {
            short: line_sans(),
            long,
            long_ucis,
            long_facts: format!("seed {seed}, {facts}"),
        }
    }
}

/// The line in SAN, as a player types it; checks that the line is what `LINE` promises.
pub fn line_sans() -> Vec<String> {
    let ucis: Vec<String> = LINE.iter().map(|u| u.to_string()).collect();
    let mut sans = Vec::new();
    for variant in [Variant::Standard, Variant::Atomic] {
        let game = Game::replay(variant, STANDARD_START_FEN, &ucis).expect("the line is legal");
        assert!(!game.is_over(), "the line must not end the game");
        sans = game.moves().iter().map(|m| m.san.clone()).collect();
        assert!(
            sans.iter().all(|san| !san.contains(['x', '+', '#'])),
            "the line must be quiet"
        );
    }
    sans
}

/// A tiny linear congruential generator (Knuth's MMIX constants): the same choices on every
/// machine and in every run.
pub struct Lcg(u64);

impl Lcg {
    /// A number below `n`, which must not be 0, from the high bits of the next state.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Walks from the atomic start through quiet moves chosen by an `Lcg` seeded with `seed`,
/// skipping any move that would end the game; `None` if it reaches a position where no
/// candidate keeps the game going before `LONG_PLIES`.
pub fn quiet_walk(seed: u64) -> Option<Vec<String>> {
    let mut lcg = Lcg(seed);
    let mut game = Game::new(Variant::Atomic);
    while game.moves().len() < LONG_PLIES {
        let candidates = quiet_candidates(&game);
        let first = lcg.below(candidates.len().max(1));
        let mut tries = candidates.iter().cycle().skip(first).take(candidates.len());
        game = tries.find_map(|m| game.play_uci(&m.uci).ok().filter(|next| !next.is_over()))?;
    }
    Some(game.moves().iter().map(|m| m.uci.clone()).collect())
}

/// The moves the walk may take now: no capture and no check; pawn moves only from
/// `PAWN_ALLOWED` plies after the last one, and only they from `PAWN_DUE` on (if there is one).
pub fn quiet_candidates(game: &Game) -> Vec<PlayedMove> {
    let (pawn, piece): (Vec<PlayedMove>, Vec<PlayedMove>) = game
        .legal_moves()
        .into_iter()
        .filter(|m| !m.san.contains(['x', '+', '#']))
        .partition(|m| is_pawn_move(&m.san));
    let since_pawn = game.halfmove_clock();
    if since_pawn >= PAWN_DUE && !pawn.is_empty() {
        pawn
    } else if since_pawn >= PAWN_ALLOWED {
        [piece, pawn].concat()
    } else {
        piece
    }
}

/// A pawn move's SAN starts with its file; a piece's, and castling, with a capital.
pub fn is_pawn_move(san: &str) -> bool {
    san.starts_with(|c: char| c.is_ascii_lowercase())
}

/// Plays the long line ply by ply and checks what the benchmark relies on: legal, quiet (no
/// capture, no check), never over, no position five times, a pawn move within every 150
/// plies, and the same when replayed at once as the server does; returns its SAN and those
/// facts in words.
pub fn check_long_line(ucis: &[String]) -> (Vec<String>, String) {
    assert_eq!(ucis.len(), LONG_PLIES);
    let mut game = Game::new(Variant::Atomic);
    let (mut most_repeated, mut longest_pawnless, mut pawn_moves) = (1, 0, 0);
    for uci in ucis {
        game = game.play_uci(uci).expect("the long line is legal");
        let san = &game.moves().last().expect("a move was played").san;
        assert!(!game.is_over(), "the long line ends the game at {uci}");
        assert!(!san.contains(['x', '+', '#']), "the long line has {san}");
        most_repeated = most_repeated.max(game.repetition_count());
        longest_pawnless = longest_pawnless.max(game.halfmove_clock());
        pawn_moves += usize::from(is_pawn_move(san));
    }
    assert!(most_repeated < 5, "a position occurs {most_repeated} times");
    assert!(
        longest_pawnless < 150,
        "{longest_pawnless} plies without a pawn move"
    );
    let replayed = Game::replay(Variant::Atomic, STANDARD_START_FEN, ucis).expect("replayable");
    assert_eq!(replayed.moves(), game.moves());
    assert!(!replayed.is_over());
    let sans = game.moves().iter().map(|m| m.san.clone()).collect();
    let repeated = match most_repeated {
        1 => "no position twice".to_string(),
        n => format!("no position more than {n} times"),
    };
    let facts = format!(
        "{pawn_moves} pawn moves, at most {longest_pawnless} plies without one, {repeated}"
    );
    (sans, facts)
}
