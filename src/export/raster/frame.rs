//! A picture as palette indices: one board (or a bughouse match's two side by side) between a
//! header band (the players) and a footer band (the result), with the pockets of crazyhouse
//! and bughouse in the bands. Drawn once whole, then square by square: only what changed since
//! the last position is drawn again, and the rectangle it covers is told.

use slowfuse_rules::{Color, Pocket, Pockets, Role};

use super::kit::{Ground, Kit, POCKET, SQUARE};
use super::sprites::slot;
use super::text::{self, Weight};
use crate::export::BoardAt;

/// Pixels of the header and of the footer band.
pub const BAND: usize = 60;
/// Pixels between two boards side by side.
pub const GAP: usize = 30;
const BOARD: usize = SQUARE * 8;
/// Room kept at the right of a band for a pocket: five pieces with their counts.
const POCKET_SLOT: usize = 66;
const POCKET_ROOM: usize = 5 * POCKET_SLOT + 12;
/// The pocket's pieces, from the left.
const POCKET_ROLES: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// What the bands say, one line each per board.
pub struct Captions {
    /// Above each board: the players.
    pub header: Vec<String>,
    /// Below each board: the result.
    pub footer: Vec<String>,
}

/// A rectangle of pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub left: usize,
    pub top: usize,
    pub width: usize,
    pub height: usize,
}

impl Rect {
    fn union(self, other: Rect) -> Rect {
        let left = self.left.min(other.left);
        let top = self.top.min(other.top);
        let right = (self.left + self.width).max(other.left + other.width);
        let bottom = (self.top + self.height).max(other.top + other.height);
        Rect {
            left,
            top,
            width: right - left,
            height: bottom - top,
        }
    }
}

/// Palette indices, row by row.
pub struct Canvas {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
}

/// The size of a picture of `boards` boards.
pub fn size(boards: usize) -> (usize, usize) {
    let n = boards.max(1);
    (n * BOARD + (n - 1) * GAP, BOARD + 2 * BAND)
}

/// What a board shows on each square, and its pockets, as last drawn.
#[derive(Clone, PartialEq)]
struct Shown {
    squares: [(Option<(Color, Role)>, Ground); 64],
    side: Color,
    pockets: Option<Pockets>,
}

/// Draws positions one after the other onto one canvas.
pub struct Painter<'k> {
    kit: &'k Kit,
    coords: bool,
    pub canvas: Canvas,
    shown: Vec<Option<Shown>>,
}

impl<'k> Painter<'k> {
    /// The first picture, whole: the bands with `captions` and `boards`.
    pub fn start(
        kit: &'k Kit,
        boards: &[BoardAt],
        coords: bool,
        captions: &Captions,
    ) -> Painter<'k> {
        let (width, height) = size(boards.len());
        let mut painter = Painter {
            kit,
            coords,
            canvas: Canvas {
                width,
                height,
                pixels: vec![kit.band; width * height],
            },
            shown: vec![None; boards.len().max(1)],
        };
        let pockets = boards.iter().any(|b| b.pockets.is_some());
        let room = BOARD - 32 - if pockets { POCKET_ROOM } else { 0 };
        for i in 0..boards.len() {
            let left = i * (BOARD + GAP) + 16;
            if let Some(line) = captions.header.get(i) {
                painter.write(line, left, 0, room, 24.0, Weight::Bold);
            }
            if let Some(line) = captions.footer.get(i) {
                painter.write(line, left, BAND + BOARD, room, 21.0, Weight::Regular);
            }
        }
        painter.paint(boards);
        painter
    }

    /// Draws what differs in `boards` from the picture before; the rectangle drawn, or `None`
    /// when nothing changed.
    pub fn paint(&mut self, boards: &[BoardAt]) -> Option<Rect> {
        let mut drawn: Option<Rect> = None;
        for (i, board) in boards.iter().enumerate().take(self.shown.len()) {
            let now = shown_of(board);
            let before = self.shown[i].take();
            let left = i * (BOARD + GAP);
            for square in 0..64 {
                let same = before.as_ref().is_some_and(|b| {
                    b.side == now.side && b.squares[square] == now.squares[square]
                });
                if !same {
                    let r = self.draw_square(left, square as u8, now.side, now.squares[square]);
                    drawn = Some(drawn.map_or(r, |d| d.union(r)));
                }
            }
            let pockets_before = before.as_ref().map(|b| (b.pockets, b.side));
            if now.pockets.is_some() && pockets_before != Some((now.pockets, now.side)) {
                for r in self.draw_pockets(left, now.pockets.unwrap_or_default(), now.side) {
                    drawn = Some(drawn.map_or(r, |d| d.union(r)));
                }
            }
            self.shown[i] = Some(now);
        }
        drawn
    }

    /// One square with its piece and, on the edges, its coordinates.
    fn draw_square(
        &mut self,
        board_left: usize,
        square: u8,
        side: Color,
        (piece, ground): (Option<(Color, Role)>, Ground),
    ) -> Rect {
        let (file, rank) = (usize::from(square % 8), usize::from(square / 8));
        let (column, row) = match side {
            Color::White => (file, 7 - rank),
            Color::Black => (7 - file, rank),
        };
        let left = board_left + column * SQUARE;
        let top = BAND + row * SQUARE;
        let width = self.canvas.width;
        let kit = self.kit;
        let ground_index = kit.ground(ground);
        for y in 0..SQUARE {
            let at = (top + y) * width + left;
            let line = &mut self.canvas.pixels[at..at + SQUARE];
            match piece {
                Some((c, r)) => line
                    .copy_from_slice(&kit.tile(ground, slot(c, r))[y * SQUARE..(y + 1) * SQUARE]),
                None => line.fill(ground_index),
            }
        }
        if self.coords {
            let ramp = kit.coord_ramp(ground);
            if row == 7 {
                let mask = kit.coord(file);
                let x = left + SQUARE - mask.width - 2;
                let y = top + SQUARE - mask.height - 1;
                self.stamp_on(mask, x, y, ramp, ground_index);
            }
            if column == 0 {
                let mask = kit.coord(8 + rank);
                self.stamp_on(mask, left + 4, top + 2, ramp, ground_index);
            }
        }
        Rect {
            left,
            top,
            width: SQUARE,
            height: SQUARE,
        }
    }

    /// Both pockets in the bands: the top side's above the board, the bottom side's below.
    fn draw_pockets(&mut self, board_left: usize, pockets: Pockets, side: Color) -> [Rect; 2] {
        let (bottom, top) = match side {
            Color::White => (pockets.white, pockets.black),
            Color::Black => (pockets.black, pockets.white),
        };
        let color_top = !side;
        [
            self.draw_pocket(board_left, 0, top, color_top),
            self.draw_pocket(board_left, BAND + BOARD, bottom, side),
        ]
    }

    fn draw_pocket(
        &mut self,
        board_left: usize,
        band_top: usize,
        pocket: Pocket,
        color: Color,
    ) -> Rect {
        let area = Rect {
            left: board_left + BOARD - POCKET_ROOM,
            top: band_top,
            width: POCKET_ROOM,
            height: BAND,
        };
        let width = self.canvas.width;
        for y in area.top..area.top + area.height {
            self.canvas.pixels[y * width + area.left..y * width + area.left + area.width]
                .fill(self.kit.band);
        }
        let kit = self.kit;
        for (n, role) in POCKET_ROLES.into_iter().enumerate() {
            let count = pocket.count(role);
            if count == 0 {
                continue;
            }
            let left = area.left + 4 + n * POCKET_SLOT;
            let top = band_top + (BAND - POCKET) / 2;
            let plate = kit.ground(Ground::Light);
            for y in top - 2..top + POCKET + 2 {
                self.canvas.pixels[y * width + left - 2..y * width + left + POCKET + 2].fill(plate);
            }
            let tile = &kit.pocket_tiles[slot(color, role)];
            for y in 0..POCKET {
                let at = (top + y) * width + left;
                self.canvas.pixels[at..at + POCKET]
                    .copy_from_slice(&tile[y * POCKET..(y + 1) * POCKET]);
            }
            let mask = text::mask(&count.to_string(), 20.0, Weight::Bold);
            let (x, y) = (left + POCKET + 4, band_top + BAND - mask.height - 8);
            self.stamp(&mask, x, y, &kit.band_text);
        }
        area
    }

    /// A line of text in a band, cut short to `room` pixels, centred on the band's height.
    fn write(
        &mut self,
        line: &str,
        left: usize,
        band_top: usize,
        room: usize,
        size: f32,
        weight: Weight,
    ) {
        let line = text::fitted(line, size, weight, room as f32);
        let mask = text::mask(&line, size, weight);
        let top = band_top + BAND.saturating_sub(mask.height) / 2;
        let ramp = self.kit.band_text;
        self.stamp(&mask, left, top, &ramp);
    }

    /// A mask's ink through `ramp` (coverage to index), clipped to the canvas.
    fn stamp(&mut self, mask: &text::Mask, left: usize, top: usize, ramp: &[u8; 256]) {
        self.stamp_where(mask, left, top, ramp, None);
    }

    /// A mask's ink only where the canvas shows `ground` (a coordinate under no piece).
    fn stamp_on(
        &mut self,
        mask: &text::Mask,
        left: usize,
        top: usize,
        ramp: &[u8; 256],
        ground: u8,
    ) {
        self.stamp_where(mask, left, top, ramp, Some(ground));
    }

    fn stamp_where(
        &mut self,
        mask: &text::Mask,
        left: usize,
        top: usize,
        ramp: &[u8; 256],
        only_on: Option<u8>,
    ) {
        let width = self.canvas.width;
        for y in 0..mask.height.min(self.canvas.height.saturating_sub(top)) {
            for x in 0..mask.width.min(width.saturating_sub(left)) {
                let c = mask.coverage[y * mask.width + x];
                if c == 0 {
                    continue;
                }
                let px = &mut self.canvas.pixels[(top + y) * width + left + x];
                if only_on.is_none_or(|g| *px == g) {
                    *px = ramp[usize::from(c)];
                }
            }
        }
    }
}

/// What `board` shows on each square: its piece and its ground (an explosion's squares first,
/// then the last move's).
fn shown_of(board: &BoardAt) -> Shown {
    let mut squares = [(None, Ground::Light); 64];
    for (i, slot) in squares.iter_mut().enumerate() {
        let square = i as u8;
        let dark = (square / 8 + square % 8).is_multiple_of(2);
        let last = board
            .last_move
            .is_some_and(|(from, to)| from == square || to == square);
        let ground = match (board.exploded.contains(&square), last, dark) {
            (true, _, false) => Ground::BoomLight,
            (true, _, true) => Ground::BoomDark,
            (false, true, false) => Ground::LastLight,
            (false, true, true) => Ground::LastDark,
            (false, false, false) => Ground::Light,
            (false, false, true) => Ground::Dark,
        };
        *slot = (board.pieces[i], ground);
    }
    Shown {
        squares,
        side: board.side,
        pockets: board.pockets,
    }
}
