//! Text for pictures: lines of DejaVu Sans (built into the binary, no system font) as coverage
//! masks, cut short with an ellipsis when they do not fit.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};

/// How much of each pixel a line of text covers (0: none, 255: all); its baseline lies at the
/// font's ascent from the top.
pub struct Mask {
    pub width: usize,
    pub height: usize,
    pub coverage: Vec<u8>,
}

/// The typeface: bold for names, pieces' letters and coordinates, regular for the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Weight {
    Regular,
    Bold,
}

fn font(weight: Weight) -> &'static FontRef<'static> {
    static REGULAR: OnceLock<FontRef<'static>> = OnceLock::new();
    static BOLD: OnceLock<FontRef<'static>> = OnceLock::new();
    let (cell, bytes) = match weight {
        Weight::Regular => (&REGULAR, dejavu::sans::regular()),
        Weight::Bold => (&BOLD, dejavu::sans::bold()),
    };
    cell.get_or_init(|| FontRef::try_from_slice(bytes).expect("the built-in font reads"))
}

/// The width in pixels of `text` at `size` pixels.
pub fn width(text: &str, size: f32, weight: Weight) -> f32 {
    let font = font(weight).as_scaled(PxScale::from(size));
    let mut x = 0.0;
    let mut last = None;
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(prev) = last {
            x += font.kern(prev, id);
        }
        x += font.h_advance(id);
        last = Some(id);
    }
    x
}

/// How far the font's baseline lies below the top of a line at `size` pixels.
pub fn ascent(size: f32, weight: Weight) -> f32 {
    font(weight).as_scaled(PxScale::from(size)).ascent()
}

/// `text` shortened with `…` until it is at most `max` pixels wide.
pub fn fitted(text: &str, size: f32, weight: Weight, max: f32) -> String {
    if width(text, size, weight) <= max {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let shorter: String = chars.iter().collect::<String>().trim_end().to_string() + "…";
        if width(&shorter, size, weight) <= max {
            return shorter;
        }
    }
    String::new()
}

/// `text` at `size` pixels: a mask as high as the font's ascent plus descent, its baseline at
/// the ascent.
pub fn mask(text: &str, size: f32, weight: Weight) -> Mask {
    let font = font(weight).as_scaled(PxScale::from(size));
    let ascent = font.ascent();
    let height = (ascent - font.descent()).ceil().max(1.0) as usize;
    let width = width(text, size, weight).ceil().max(1.0) as usize + 2;
    let mut coverage = vec![0u8; width * height];
    let mut x = 0.0;
    let mut last = None;
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(prev) = last {
            x += font.kern(prev, id);
        }
        let glyph = id.with_scale_and_position(size, point(x, ascent));
        x += font.h_advance(id);
        last = Some(id);
        let Some(outline) = font.outline_glyph(glyph) else {
            continue;
        };
        let bounds = outline.px_bounds();
        outline.draw(|gx, gy, c| {
            let px = bounds.min.x as i64 + i64::from(gx);
            let py = bounds.min.y as i64 + i64::from(gy);
            if px < 0 || py < 0 || px as usize >= width || py as usize >= height {
                return;
            }
            let slot = &mut coverage[py as usize * width + px as usize];
            let value = (c.clamp(0.0, 1.0) * 255.0).round() as u8;
            *slot = (*slot).max(value);
        });
    }
    Mask {
        width,
        height,
        coverage,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_covers_pixels_and_long_text_is_cut_short() {
        let m = mask("alice v bob", 24.0, Weight::Bold);
        assert!(m.width > 100 && m.height >= 24, "{}×{}", m.width, m.height);
        assert!(m.coverage.iter().filter(|&&c| c > 128).count() > 200);
        let long = "a very long name indeed ".repeat(10);
        let cut = fitted(&long, 20.0, Weight::Regular, 300.0);
        assert!(cut.ends_with('…'));
        assert!(width(&cut, 20.0, Weight::Regular) <= 300.0);
        assert_eq!(fitted("short", 20.0, Weight::Regular, 300.0), "short");
    }
}
