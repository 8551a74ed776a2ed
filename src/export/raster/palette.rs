//! The one palette of a picture (at most 255 colours and a transparent index): the theme's
//! squares, the pieces' colours, the text's, and between each pair that meets at an edge a few
//! blended shades, so anti-aliased edges keep their smoothness in indexed colour.

use std::collections::HashMap;

/// A colour as red, green, blue.
pub type Rgb = [u8; 3];

/// The index no colour uses: a GIF frame's pixels left as they were.
pub const TRANSPARENT: u8 = 255;

/// Most shades between two colours (their ends not counted).
const MAX_SHADES: usize = 12;

/// Colours by index, with what their blends map to.
pub struct Palette {
    colours: Vec<Rgb>,
}

impl Palette {
    /// A palette of `bases` and, for each of `pairs`, as many evenly spaced blends as fit into
    /// 255 entries (at most 12 a pair). Colours given twice are kept once.
    pub fn build(bases: &[Rgb], pairs: &[(Rgb, Rgb)]) -> Palette {
        let mut colours: Vec<Rgb> = Vec::with_capacity(256);
        let add = |c: Rgb, colours: &mut Vec<Rgb>| {
            if colours.len() < usize::from(TRANSPARENT) && !colours.contains(&c) {
                colours.push(c);
            }
        };
        for &c in bases {
            add(c, &mut colours);
        }
        let room = usize::from(TRANSPARENT).saturating_sub(colours.len());
        let shades = (room / pairs.len().max(1)).min(MAX_SHADES);
        for &(a, b) in pairs {
            for step in 1..=shades {
                let t = step as f32 / (shades + 1) as f32;
                add(mix(a, b, t), &mut colours);
            }
        }
        Palette { colours }
    }

    #[cfg(test)]
    /// How many colours the palette holds (the transparent index not counted).
    pub fn count(&self) -> usize {
        self.colours.len()
    }

    #[cfg(test)]
    /// The colour of an index (black for one past the palette's end).
    pub fn colour(&self, index: u8) -> Rgb {
        self.colours
            .get(usize::from(index))
            .copied()
            .unwrap_or([0, 0, 0])
    }

    /// The index of the palette's colour nearest `c`.
    pub fn nearest(&self, c: Rgb) -> u8 {
        let mut best = (u32::MAX, 0usize);
        for (i, p) in self.colours.iter().enumerate() {
            let d = distance(*p, c);
            if d < best.0 {
                best = (d, i);
                if d == 0 {
                    break;
                }
            }
        }
        u8::try_from(best.1).unwrap_or(0)
    }

    /// The 256 shades from `bg` (coverage 0) to `fg` (coverage 255) as indices.
    pub fn ramp(&self, bg: Rgb, fg: Rgb) -> [u8; 256] {
        let mut memo = Nearest::new(self);
        let mut out = [0u8; 256];
        for (coverage, slot) in out.iter_mut().enumerate() {
            *slot = memo.index(mix(bg, fg, coverage as f32 / 255.0));
        }
        out
    }

    /// The palette as 256 RGB triples (the GIF's global colour table), unused entries black.
    pub fn table(&self) -> Vec<u8> {
        let mut out = vec![0u8; 256 * 3];
        for (i, c) in self.colours.iter().enumerate() {
            out[i * 3..i * 3 + 3].copy_from_slice(c);
        }
        out
    }

    /// Only the colours in use as RGB triples (a PNG's palette).
    pub fn used_table(&self) -> Vec<u8> {
        self.colours.iter().flatten().copied().collect()
    }
}

/// Nearest-colour look-ups remembered, for the many equal pixels of a sprite.
pub struct Nearest<'a> {
    palette: &'a Palette,
    seen: HashMap<Rgb, u8>,
}

impl<'a> Nearest<'a> {
    pub fn new(palette: &'a Palette) -> Nearest<'a> {
        Nearest {
            palette,
            seen: HashMap::new(),
        }
    }

    /// The index nearest `c`.
    pub fn index(&mut self, c: Rgb) -> u8 {
        *self
            .seen
            .entry(c)
            .or_insert_with(|| self.palette.nearest(c))
    }
}

/// `a` blended towards `b` by `t` (0: `a`, 1: `b`).
pub fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    let t = t.clamp(0.0, 1.0);
    let one = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    [one(a[0], b[0]), one(a[1], b[1]), one(a[2], b[2])]
}

/// A colour from `#rrggbb` (black for anything else).
pub fn hex(text: &str) -> Rgb {
    let digits = text.trim_start_matches('#');
    let part = |i: usize| {
        digits
            .get(i..i + 2)
            .and_then(|p| u8::from_str_radix(p, 16).ok())
            .unwrap_or(0)
    };
    [part(0), part(2), part(4)]
}

/// Squared distance, weighted as the eye sees (green most, blue least).
fn distance(a: Rgb, b: Rgb) -> u32 {
    let d = |i: usize| u32::from(a[i].abs_diff(b[i])).pow(2);
    2 * d(0) + 4 * d(1) + 3 * d(2)
}

/// Colours closer than the eye tells apart merged: each kept colour stands for those after it
/// that are within `tolerance` on every channel.
pub fn distinct(colours: &[Rgb], tolerance: u8) -> Vec<Rgb> {
    let mut kept: Vec<Rgb> = Vec::new();
    for &c in colours {
        if !kept
            .iter()
            .any(|k| (0..3).all(|i| k[i].abs_diff(c[i]) <= tolerance))
        {
            kept.push(c);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shades_fill_the_palette_without_the_transparent_index() {
        let white = [255, 255, 255];
        let black = [0, 0, 0];
        let red = [200, 0, 0];
        let palette = Palette::build(&[white, black, red], &[(white, black), (red, black)]);
        assert!(palette.count() <= 255);
        assert_eq!(palette.colour(0), white);
        assert_eq!(palette.colour(palette.nearest([250, 250, 250])), white);
        let ramp = palette.ramp(white, black);
        assert_eq!(palette.colour(ramp[0]), white);
        assert_eq!(palette.colour(ramp[255]), black);
        let middle = palette.colour(ramp[128]);
        assert!((100..=160).contains(&middle[0]), "{middle:?}");
        assert_eq!(hex("#7f9b66"), [0x7f, 0x9b, 0x66]);
        assert_eq!(
            distinct(&[white, [250, 250, 250], black], 8),
            vec![white, black]
        );
    }
}
