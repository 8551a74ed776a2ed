//! What a picture in one theme and piece set is drawn from, made once per process and kept:
//! its palette, every square with and without each piece already in palette indices, the
//! pieces of the pockets, the coordinates and the text shades.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::palette::{Nearest, Palette, Rgb, distinct, hex};
use super::sprites::{over, rasters, set_colours};
use super::text::{self, Mask, Weight};
use crate::export::svg::{exploded_colours, theme_colours};

/// Pixels per square.
pub const SQUARE: usize = 90;
/// Pixels of a piece in a pocket.
pub const POCKET: usize = 45;
/// The bands' colour and their text's.
const BAND: Rgb = [0x26, 0x24, 0x21];
const BAND_TEXT: Rgb = [0xf0, 0xec, 0xe2];

/// What a square shows under its piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ground {
    Light,
    Dark,
    /// The last move's from or to square.
    LastLight,
    LastDark,
    /// A square an explosion (atomic) or a bomb's blast (minesweeper) cleared.
    BoomLight,
    BoomDark,
}

impl Ground {
    const ALL: [Ground; 6] = [
        Ground::Light,
        Ground::Dark,
        Ground::LastLight,
        Ground::LastDark,
        Ground::BoomLight,
        Ground::BoomDark,
    ];

    fn index(self) -> usize {
        Ground::ALL.iter().position(|g| *g == self).unwrap_or(0)
    }

    fn is_dark(self) -> bool {
        matches!(self, Ground::Dark | Ground::LastDark | Ground::BoomDark)
    }
}

/// A theme and piece set made ready for drawing.
pub struct Kit {
    pub palette: Palette,
    /// Each ground's index.
    grounds: [u8; 6],
    /// By ground, then by piece slot: a whole square, `SQUARE`² indices.
    tiles: Vec<Vec<u8>>,
    /// The pocket's pieces on a plate of the light squares' colour, `POCKET`² indices, by slot.
    pub pocket_tiles: Vec<Vec<u8>>,
    pub band: u8,
    /// Coverage to index, from the band to its text.
    pub band_text: [u8; 256],
    /// Coverage to index for coordinates, by ground.
    coord_ramps: Vec<[u8; 256]>,
    /// The coordinates `a`…`h`, then `1`…`8`.
    coords: Vec<Mask>,
}

impl Kit {
    /// A ground's index.
    pub fn ground(&self, ground: Ground) -> u8 {
        self.grounds[ground.index()]
    }

    /// A square of `ground` with the piece in `slot`.
    pub fn tile(&self, ground: Ground, slot: usize) -> &[u8] {
        &self.tiles[ground.index() * 12 + slot]
    }

    /// The mask of a file letter (`0` = a) or rank digit (`8` = 1).
    pub fn coord(&self, which: usize) -> &Mask {
        &self.coords[which]
    }

    /// Coverage to index for coordinates on `ground`.
    pub fn coord_ramp(&self, ground: Ground) -> &[u8; 256] {
        &self.coord_ramps[ground.index()]
    }
}

/// The kit of a theme and piece set (both checked by the caller; unknown ones draw with the
/// defaults), made the first time it is asked for.
pub fn kit(theme: &str, set: &str) -> Arc<Kit> {
    type Kits = Mutex<HashMap<(String, String), Arc<Kit>>>;
    static CACHE: OnceLock<Kits> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (theme.to_string(), set.to_string());
    if let Some(found) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return found.clone();
    }
    let made = Arc::new(make(theme, set));
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, made.clone());
    made
}

fn make(theme: &str, set: &str) -> Kit {
    let [light, dark, last_light, last_dark] = theme_colours(theme)
        .or_else(|| theme_colours("green"))
        .map(|c| c.map(hex))
        .unwrap_or_default();
    let [boom_light, boom_dark] = exploded_colours(theme)
        .or_else(|| exploded_colours("green"))
        .map(|c| c.map(|h| hex(&h)))
        .unwrap_or_default();
    let grounds: [Rgb; 6] = [light, dark, last_light, last_dark, boom_light, boom_dark];
    let inks = distinct(&set_colours(set), 20);
    let mut bases: Vec<Rgb> = grounds.to_vec();
    bases.extend([BAND, BAND_TEXT]);
    bases.extend(&inks);
    let mut pairs: Vec<(Rgb, Rgb)> = Vec::new();
    for g in grounds.iter().chain([&BAND]) {
        pairs.extend(inks.iter().map(|i| (*g, *i)));
    }
    for (n, a) in inks.iter().enumerate() {
        pairs.extend(inks[n + 1..].iter().map(|b| (*a, *b)));
    }
    pairs.extend([(BAND, BAND_TEXT), (light, dark)]);
    let palette = Palette::build(&bases, &pairs);
    let mut nearest = Nearest::new(&palette);
    let indices: Vec<u8> = grounds.iter().map(|g| nearest.index(*g)).collect();
    let pieces = rasters(set, SQUARE as u32);
    let mut tiles = Vec::with_capacity(72);
    for ground in grounds {
        for piece in pieces.iter() {
            tiles.push(
                piece
                    .chunks(4)
                    .map(|px| nearest.index(over(px, ground)))
                    .collect(),
            );
        }
    }
    // Pieces in hand stand on a plate of the light squares' colour: dark pieces show on the band.
    let pocket_tiles = rasters(set, POCKET as u32)
        .iter()
        .map(|piece| {
            piece
                .chunks(4)
                .map(|px| nearest.index(over(px, light)))
                .collect()
        })
        .collect();
    let coord_ramps = Ground::ALL
        .iter()
        .map(|g| {
            let ink = if g.is_dark() { light } else { dark };
            palette.ramp(grounds[g.index()], ink)
        })
        .collect();
    let size = 16.0;
    let coords = ('a'..='h')
        .chain('1'..='8')
        .map(|c| text::mask(&c.to_string(), size, Weight::Bold))
        .collect();
    let band = nearest.index(BAND);
    Kit {
        band_text: palette.ramp(BAND, BAND_TEXT),
        grounds: [0, 1, 2, 3, 4, 5].map(|i| indices[i]),
        tiles,
        pocket_tiles,
        band,
        coord_ramps,
        coords,
        palette,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kit_holds_every_square_and_piece_in_its_palette() {
        for (theme, set) in [
            ("green", "classic"),
            ("brown", "flat"),
            ("purple", "letters"),
        ] {
            let kit = kit(theme, set);
            assert!(kit.palette.count() <= 255, "{theme} {set}");
            let light = hex(theme_colours(theme).unwrap()[0]);
            assert_eq!(kit.palette.colour(kit.ground(Ground::Light)), light);
            let tile = kit.tile(Ground::Dark, 0);
            assert_eq!(tile.len(), SQUARE * SQUARE);
            assert_eq!(
                tile[0],
                kit.ground(Ground::Dark),
                "a corner shows the square"
            );
            assert!(tile.iter().any(|&i| i != tile[0]), "the king shows");
            assert_ne!(kit.ground(Ground::BoomLight), kit.ground(Ground::Light));
        }
    }
}
