//! The move list's lines as HTML, and the part every viewer sees alike (each move's number and
//! link, no comment, no mark) kept per game while its moves stay the same, so that a long
//! game's page copies its moves instead of writing them line by line.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::{Arc, Mutex, OnceLock};

use askama::filters::{Escaper, Html};
use slowfuse_rules::Game;

/// Where the move numbers start: whether Black moves first, and the first move number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbering {
    pub black_starts: bool,
    pub first: u32,
}

impl Numbering {
    pub fn of(game: &Game) -> Numbering {
        let fen = game.initial_fen();
        let mut fields = fen.split(' ');
        let black_starts = fields.nth(1) == Some("b");
        let first = fields.nth(3).and_then(|n| n.parse().ok()).unwrap_or(1);
        Numbering {
            black_starts,
            first,
        }
    }

    /// The move number of move `index` (from 0) and whether it is Black's.
    pub fn of_move(self, index: usize) -> (u32, bool) {
        let ply_index = index as u32 + u32::from(self.black_starts);
        (self.first + ply_index / 2, ply_index % 2 == 1)
    }
}

/// One line as drawn: `<li>`, the number ("12." or "12..."), the move's link to its ply (marked
/// when it is the ply shown), its comments. The bytes of the moves are most of a long game's
/// page, so a line is no more than that: the number is plain text, the link has no class or data
/// (the script reads the ply from `href`) and its address needs no quotes, the item no end tag
/// (HTML lets them go): `<li>12. <a href=?ply=23>Nf3</a>`.
pub fn write_line<'a>(
    out: &mut String,
    number: Option<(u32, bool)>,
    ply: usize,
    san: &str,
    current: bool,
    comments: impl IntoIterator<Item = &'a str>,
) {
    out.push_str("<li>");
    if let Some((n, black)) = number {
        let dots = if black { "..." } else { "." };
        let _ = write!(out, "{n}{dots} ");
    }
    if current {
        let _ = write!(
            out,
            r#"<a class="current" href=?ply={ply} aria-current="step">"#
        );
    } else {
        let _ = write!(out, "<a href=?ply={ply}>");
    }
    let _ = Html.write_escaped_str(&mut *out, san);
    out.push_str("</a>");
    for comment in comments {
        out.push_str(r#"<span class="comment">"#);
        let _ = Html.write_escaped_str(&mut *out, comment);
        out.push_str("</span>");
    }
}

/// Every move's line as a viewer sees it without comments and with another ply shown: White's
/// moves numbered, Black's not (but a first move by Black).
pub struct PlainLines {
    pub numbering: Numbering,
    html: String,
    /// Where each line starts in `html`, and the end of the last.
    starts: Vec<usize>,
}

impl PlainLines {
    fn of(game: &Game) -> PlainLines {
        let numbering = Numbering::of(game);
        let mut html = String::with_capacity(40 * game.moves().len());
        let mut starts = Vec::with_capacity(game.moves().len() + 1);
        for (i, m) in game.moves().iter().enumerate() {
            starts.push(html.len());
            let (n, black) = numbering.of_move(i);
            let number = (!black || i == 0).then_some((n, black));
            write_line(&mut html, number, i + 1, &m.san, false, []);
        }
        starts.push(html.len());
        PlainLines {
            numbering,
            html,
            starts,
        }
    }

    /// Lines `from..to` (moves by index from 0) as one piece of HTML.
    pub fn lines(&self, from: usize, to: usize) -> &str {
        &self.html[self.starts[from]..self.starts[to]]
    }
}

/// Games kept, at most; past that some are forgotten.
const CACHE_GAMES: usize = 4096;

/// One game's plain lines, with the game they were written from.
struct Kept {
    game: Arc<Game>,
    lines: Arc<PlainLines>,
}

/// By game id, for the whole process (any database): an entry is used only for the very same
/// moves from the same start, so whatever it holds, the lines are those of the game asked for.
fn cache() -> &'static Mutex<HashMap<i64, Kept>> {
    static CACHE: OnceLock<Mutex<HashMap<i64, Kept>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Whether two games hold the same moves from the same start (the same game value shared by
/// the replay cache, or one ended off the board since).
fn same_moves(a: &Arc<Game>, b: &Arc<Game>) -> bool {
    Arc::ptr_eq(a, b)
        || (a.variant() == b.variant()
            && a.moves().len() == b.moves().len()
            && a.moves().iter().zip(b.moves()).all(|(x, y)| x.san == y.san)
            && a.initial_fen() == b.initial_fen())
}

/// The plain lines of game `id`, from the cache when it holds them for these moves.
pub fn plain_lines(id: i64, game: &Arc<Game>) -> Arc<PlainLines> {
    {
        let cache = cache().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(kept) = cache.get(&id).filter(|k| same_moves(&k.game, game)) {
            return kept.lines.clone();
        }
    }
    let lines = Arc::new(PlainLines::of(game));
    let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
    if cache.len() >= CACHE_GAMES
        && !cache.contains_key(&id)
        && let Some(&any) = cache.keys().next()
    {
        // Forget some game: the cache is a speed-up, never the truth.
        cache.remove(&any);
    }
    let kept = Kept {
        game: game.clone(),
        lines: lines.clone(),
    };
    cache.insert(id, kept);
    lines
}
