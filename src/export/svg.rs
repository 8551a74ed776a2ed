//! A position as an SVG picture: the board in one of the game page's themes, our own pieces
//! (drawn once per kind and reused), the last move, the squares an explosion cleared (tinted as
//! the PNG and GIF tint them, each `class="exploded"` as on the game page) and the coordinates. One board, or several
//! side by side (a bughouse match). Pure: it draws what it is given, nothing secret.

use std::fmt::Write as _;

use slowfuse_rules::{BoardArray, Color, Role};

/// Pixels per square.
const SQUARE: u32 = 60;
/// Pixels between two boards drawn side by side.
const GAP: u32 = 30;

/// One board to draw.
pub struct Picture {
    pub pieces: BoardArray,
    /// The last move's from and to squares (0 = a1), highlighted.
    pub last_move: Option<(u8, u8)>,
    /// The squares the last move's explosion (atomic) or blast (minesweeper) cleared, marked
    /// over the last move's highlight.
    pub exploded: Vec<u8>,
    /// The side at the bottom.
    pub side: Color,
}

/// How to draw.
pub struct Style<'a> {
    /// One of the game page's board themes (`green`, `brown`, …).
    pub theme: &'a str,
    /// One of our piece sets (`classic`, `flat`, `letters`).
    pub piece_set: &'a str,
    /// Letters and digits along the edges.
    pub coords: bool,
}

/// The light and dark squares and the last move's two shades of a theme; `None` for a theme
/// that is none of the page's.
pub fn theme_colours(theme: &str) -> Option<[&'static str; 4]> {
    Some(match theme {
        "green" => ["#eee4cc", "#7f9b66", "#f3df8e", "#b9c45a"],
        "brown" => ["#f0d9b5", "#b58863", "#f3df8e", "#c9a245"],
        "blue" => ["#dee3e6", "#8ca2ad", "#f3df8e", "#b0b86a"],
        "grey" => ["#e4e4e4", "#a3a3a3", "#f3df8e", "#c5b565"],
        "purple" => ["#ece4f3", "#9d85b8", "#f3df8e", "#c0a86e"],
        "high-contrast" => ["#ffffff", "#5b7fc7", "#ffe94d", "#e0b800"],
        _ => return None,
    })
}

/// An explosion's tint, and how much of it a light and a dark square take.
const BOOM: [u8; 3] = [0xf0, 0x4a, 0x24];
const BOOM_OVER_LIGHT: f32 = 0.55;
const BOOM_OVER_DARK: f32 = 0.6;

/// The light and the dark square an explosion cleared in a theme (`#rrggbb`), the same in the
/// SVG, the PNG and the GIF; `None` for a theme that is none of the page's.
pub fn exploded_colours(theme: &str) -> Option<[String; 2]> {
    let [light, dark, ..] = theme_colours(theme)?;
    Some([tint(light, BOOM_OVER_LIGHT), tint(dark, BOOM_OVER_DARK)])
}

/// `colour` (`#rrggbb`) a share `t` of the way to the explosion's tint.
fn tint(colour: &str, t: f32) -> String {
    let mut out = String::from("#");
    for (i, boom) in BOOM.iter().enumerate() {
        let from = colour
            .get(1 + 2 * i..3 + 2 * i)
            .and_then(|p| u8::from_str_radix(p, 16).ok())
            .unwrap_or(0);
        let mixed = (f32::from(from) + (f32::from(*boom) - f32::from(from)) * t).round() as u8;
        let _ = write!(out, "{mixed:02x}");
    }
    out
}

/// Whether `set` is one of our piece sets.
pub fn is_piece_set(set: &str) -> bool {
    ["classic", "flat", "letters"].contains(&set)
}

/// Draws `boards` side by side in `style`. A theme or set that is none of ours draws with the
/// defaults (the route refuses them first).
pub fn boards_svg(boards: &[Picture], style: &Style<'_>) -> String {
    let count = u32::try_from(boards.len().max(1)).unwrap_or(1);
    let board_px = SQUARE * 8;
    let width = board_px * count + GAP * (count - 1);
    let mut out = String::with_capacity(40_000);
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {board_px}" width="{width}" height="{board_px}">"#
    );
    let [light, dark, last_light, last_dark] =
        theme_colours(style.theme).unwrap_or(["#eee4cc", "#7f9b66", "#f3df8e", "#b9c45a"]);
    let [boom_light, boom_dark] = exploded_colours(style.theme)
        .or_else(|| exploded_colours("green"))
        .unwrap_or_default();
    for (i, picture) in boards.iter().enumerate() {
        let left = (board_px + GAP) * u32::try_from(i).unwrap_or(0);
        let _ = write!(out, r#"<g transform="translate({left} 0)">"#);
        for index in 0u8..64 {
            let (x, y) = place(index, picture.side);
            let is_dark = (index / 8 + index % 8) % 2 == 0;
            let last = picture
                .last_move
                .is_some_and(|(from, to)| from == index || to == index);
            let exploded = picture.exploded.contains(&index);
            let fill = match (exploded, is_dark, last) {
                (true, false, _) => boom_light.as_str(),
                (true, true, _) => boom_dark.as_str(),
                (false, false, false) => light,
                (false, true, false) => dark,
                (false, false, true) => last_light,
                (false, true, true) => last_dark,
            };
            let class = if exploded { r#" class="exploded""# } else { "" };
            let _ = write!(
                out,
                r#"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"{class}/>"#
            );
        }
        if style.coords {
            write_coords(&mut out, picture.side, light, dark);
        }
        for (index, piece) in picture.pieces.iter().enumerate() {
            let Some((color, role)) = piece else {
                continue;
            };
            let (x, y) = place(u8::try_from(index).unwrap_or(0), picture.side);
            let drawing = piece_drawing(style.piece_set, *color, *role);
            // Each piece is our standalone drawing, placed as a nested picture.
            let placed = drawing.replacen(
                "<svg ",
                &format!(r#"<svg x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" "#),
                1,
            );
            out.push_str(placed.trim());
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>\n");
    out
}

/// The top-left corner of square `index` (0 = a1) seen from `side`.
fn place(index: u8, side: Color) -> (u32, u32) {
    let (file, rank) = (u32::from(index % 8), u32::from(index / 8));
    match side {
        Color::White => (file * SQUARE, (7 - rank) * SQUARE),
        Color::Black => ((7 - file) * SQUARE, rank * SQUARE),
    }
}

/// File letters along the bottom and rank digits along the left edge, in the other square's
/// colour.
fn write_coords(out: &mut String, side: Color, light: &str, dark: &str) {
    for i in 0u8..8 {
        let (file, rank) = match side {
            Color::White => (i, 7 - i),
            Color::Black => (7 - i, i),
        };
        let column = u32::from(i);
        // The bottom row's square in this column, and the left column's in this row.
        let bottom_dark = (file + if side == Color::White { 0 } else { 7 }) % 2 == 0;
        let left_dark = (rank + if side == Color::White { 0 } else { 7 }) % 2 == 0;
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-family="sans-serif" font-size="11" font-weight="bold" fill="{}">{}</text>"#,
            column * SQUARE + SQUARE - 10,
            8 * SQUARE - 4,
            if bottom_dark { light } else { dark },
            char::from(b'a' + file)
        );
        let _ = write!(
            out,
            r#"<text x="3" y="{}" font-family="sans-serif" font-size="11" font-weight="bold" fill="{}">{}</text>"#,
            column * SQUARE + 12,
            if left_dark { light } else { dark },
            char::from(b'1' + rank)
        );
    }
}

macro_rules! set_drawings {
    ($dir:literal, $color:expr, $role:expr) => {
        match ($color, $role) {
            (Color::White, Role::King) => {
                include_str!(concat!("../../static/pieces/", $dir, "wK.svg"))
            }
            (Color::White, Role::Queen) => {
                include_str!(concat!("../../static/pieces/", $dir, "wQ.svg"))
            }
            (Color::White, Role::Rook) => {
                include_str!(concat!("../../static/pieces/", $dir, "wR.svg"))
            }
            (Color::White, Role::Bishop) => {
                include_str!(concat!("../../static/pieces/", $dir, "wB.svg"))
            }
            (Color::White, Role::Knight) => {
                include_str!(concat!("../../static/pieces/", $dir, "wN.svg"))
            }
            (Color::White, Role::Pawn) => {
                include_str!(concat!("../../static/pieces/", $dir, "wP.svg"))
            }
            (Color::Black, Role::King) => {
                include_str!(concat!("../../static/pieces/", $dir, "bK.svg"))
            }
            (Color::Black, Role::Queen) => {
                include_str!(concat!("../../static/pieces/", $dir, "bQ.svg"))
            }
            (Color::Black, Role::Rook) => {
                include_str!(concat!("../../static/pieces/", $dir, "bR.svg"))
            }
            (Color::Black, Role::Bishop) => {
                include_str!(concat!("../../static/pieces/", $dir, "bB.svg"))
            }
            (Color::Black, Role::Knight) => {
                include_str!(concat!("../../static/pieces/", $dir, "bN.svg"))
            }
            (Color::Black, Role::Pawn) => {
                include_str!(concat!("../../static/pieces/", $dir, "bP.svg"))
            }
        }
    };
}

/// Our drawing of a piece in a set (the files the page serves, built in).
pub(crate) fn piece_drawing(set: &str, color: Color, role: Role) -> &'static str {
    match set {
        "flat" => set_drawings!("flat/", color, role),
        "letters" => set_drawings!("letters/", color, role),
        _ => set_drawings!("", color, role),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slowfuse_rules::{Game, Variant};

    fn start() -> BoardArray {
        Game::new(Variant::Standard).board_at(0).unwrap()
    }

    #[test]
    fn a_board_has_its_squares_pieces_and_coordinates() {
        let pieces = start();
        let style = Style {
            theme: "brown",
            piece_set: "classic",
            coords: true,
        };
        let svg = boards_svg(
            &[Picture {
                pieces,
                last_move: Some((12, 28)),
                exploded: Vec::new(),
                side: Color::White,
            }],
            &style,
        );
        assert_eq!(svg.matches("<rect ").count(), 64);
        assert_eq!(svg.matches("<svg x=").count(), 32, "one drawing per piece");
        assert_eq!(svg.matches("<text ").count(), 16);
        assert_eq!(
            svg.matches(r##"fill="#f3df8e""##).count() + svg.matches(r##"fill="#c9a245""##).count(),
            2
        );
        assert!(
            svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 480""#)
        );
    }

    #[test]
    fn black_sees_its_own_side_at_the_bottom_and_two_boards_stand_side_by_side() {
        let pieces = start();
        assert_eq!(place(0, Color::White), (0, 7 * SQUARE));
        assert_eq!(place(0, Color::Black), (7 * SQUARE, 0));
        let style = Style {
            theme: "green",
            piece_set: "flat",
            coords: false,
        };
        let picture = |side| Picture {
            pieces,
            last_move: None,
            exploded: Vec::new(),
            side,
        };
        let svg = boards_svg(&[picture(Color::White), picture(Color::Black)], &style);
        assert!(svg.contains(r#"viewBox="0 0 990 480""#), "{}", &svg[..120]);
        assert_eq!(svg.matches("<rect ").count(), 128);
        assert!(theme_colours("plaid").is_none());
        assert!(!is_piece_set("wooden"));
    }
}
