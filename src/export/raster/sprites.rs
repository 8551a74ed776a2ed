//! Our piece drawings rasterised: each piece of a set at a size, once per process (cached),
//! as premultiplied RGBA. A set drawn with letters (`letters`) gets its letter from our own
//! text, since the rasteriser is built without fonts.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;
use slowfuse_rules::{Color, Role};

use super::palette::{Rgb, hex};
use super::text::{self, Weight};
use crate::export::svg::piece_drawing;

/// The roles in the order of a set's slots (and of a pocket's, from the right).
pub const ROLES: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// A piece's slot in a set: White's six, then Black's.
pub fn slot(color: Color, role: Role) -> usize {
    let r = ROLES.iter().position(|x| *x == role).unwrap_or(0);
    match color {
        Color::White => r,
        Color::Black => 6 + r,
    }
}

/// The twelve pieces of a set at one size, premultiplied RGBA, by [`slot`].
pub type Rasters = Arc<Vec<Vec<u8>>>;

/// The pieces of `set` at `size` pixels square, rasterised the first time they are asked for.
pub fn rasters(set: &str, size: u32) -> Rasters {
    static CACHE: OnceLock<Mutex<HashMap<(String, u32), Rasters>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(found) = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&(set.to_string(), size))
    {
        return found.clone();
    }
    let mut all = Vec::with_capacity(12);
    for color in [Color::White, Color::Black] {
        for role in ROLES {
            all.push(rasterise(piece_drawing(set, color, role), size));
        }
    }
    let all = Arc::new(all);
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert((set.to_string(), size), all.clone());
    all
}

/// The colours a set's drawings use (fills, strokes, letters), in order of first use.
pub fn set_colours(set: &str) -> Vec<Rgb> {
    let mut out: Vec<Rgb> = Vec::new();
    for color in [Color::White, Color::Black] {
        for role in ROLES {
            let svg = piece_drawing(set, color, role);
            for (i, _) in svg.match_indices('#') {
                let Some(code) = svg.get(i + 1..i + 7) else {
                    continue;
                };
                if code.bytes().all(|b| b.is_ascii_hexdigit()) {
                    let c = hex(code);
                    if !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
    }
    out
}

/// One drawing at `size` pixels square (transparent where a rasteriser fails: never for ours).
fn rasterise(svg: &str, size: u32) -> Vec<u8> {
    let Some(mut pixmap) = Pixmap::new(size, size) else {
        return Vec::new();
    };
    if let Ok(tree) = usvg::Tree::from_str(svg, &usvg::Options::default()) {
        let scale = size as f32 / tree.size().width();
        resvg::render(
            &tree,
            Transform::from_scale(scale, scale),
            &mut pixmap.as_mut(),
        );
        if let Some(letter) = letter_of(svg) {
            draw_letter(&mut pixmap, &letter, scale);
        }
    }
    pixmap.take()
}

/// A drawing's `<text>`: the letter, where its baseline's middle stands, its size and colour.
struct Letter {
    text: String,
    x: f32,
    y: f32,
    size: f32,
    fill: Rgb,
}

fn letter_of(svg: &str) -> Option<Letter> {
    let start = svg.find("<text ")?;
    let rest = &svg[start..];
    let close = rest.find('>')?;
    let tag = &rest[..close];
    let end = rest.find("</text>")?;
    let attribute = |name: &str| -> Option<&str> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        let value = &tag[at..];
        Some(&value[..value.find('"')?])
    };
    Some(Letter {
        text: rest[close + 1..end].to_string(),
        x: attribute("x")?.parse().ok()?,
        y: attribute("y")?.parse().ok()?,
        size: attribute("font-size")?.parse().ok()?,
        fill: hex(attribute("fill")?),
    })
}

/// Draws a drawing's letter, centred on its `x`, over the pixmap.
fn draw_letter(pixmap: &mut Pixmap, letter: &Letter, scale: f32) {
    let size = letter.size * scale;
    let mask = text::mask(&letter.text, size, Weight::Bold);
    let ink = text::width(&letter.text, size, Weight::Bold);
    let left = (letter.x * scale - ink / 2.0).round() as i64;
    let top = (letter.y * scale - text::ascent(size, Weight::Bold)).round() as i64;
    let width = i64::from(pixmap.width());
    let height = i64::from(pixmap.height());
    let data = pixmap.data_mut();
    for my in 0..mask.height {
        for mx in 0..mask.width {
            let c = u32::from(mask.coverage[my * mask.width + mx]);
            let (x, y) = (left + mx as i64, top + my as i64);
            if c == 0 || x < 0 || y < 0 || x >= width || y >= height {
                continue;
            }
            let at = ((y * width + x) * 4) as usize;
            let px = &mut data[at..at + 4];
            for (channel, ink) in px.iter_mut().zip(letter.fill) {
                *channel = ((u32::from(ink) * c + u32::from(*channel) * (255 - c)) / 255) as u8;
            }
            px[3] = (c + u32::from(px[3]) * (255 - c) / 255) as u8;
        }
    }
}

/// A premultiplied RGBA pixel laid over an opaque `ground`.
pub fn over(pixel: &[u8], ground: Rgb) -> Rgb {
    let a = 255 - u32::from(pixel[3]);
    let one = |i: usize| (u32::from(pixel[i]) + u32::from(ground[i]) * a / 255).min(255) as u8;
    [one(0), one(1), one(2)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_of_every_set_has_ink() {
        for set in ["classic", "flat", "letters"] {
            let pieces = rasters(set, 90);
            assert_eq!(pieces.len(), 12);
            for (i, p) in pieces.iter().enumerate() {
                assert_eq!(p.len(), 90 * 90 * 4);
                let opaque = p.chunks(4).filter(|px| px[3] > 200).count();
                assert!(opaque > 600, "{set} piece {i}: {opaque} opaque pixels");
            }
            assert!(set_colours(set).len() >= 2, "{set}");
        }
        // The letters set's letter is drawn: a white knight's centre holds dark ink.
        let n = &rasters("letters", 90)[slot(Color::White, Role::Knight)];
        let dark = (30..60)
            .flat_map(|y| (30..60).map(move |x| (y * 90 + x) * 4))
            .filter(|&at| n[at] < 80 && n[at + 3] > 200)
            .count();
        assert!(dark > 50, "{dark} dark pixels of the letter N");
    }
}
