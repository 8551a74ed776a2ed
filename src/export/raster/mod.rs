//! Positions and games as raster pictures: a game as an animated GIF (one frame per ply) and a
//! position as a PNG, 90-pixel squares between a header band (the players) and a footer band
//! (the result). One palette per theme and piece set; the pieces rasterised once and kept in
//! palette indices; each GIF frame after the first holds only the squares that changed. Pure:
//! it draws what it is given, nothing secret.

mod frame;
mod gif;
mod kit;
mod lzw;
mod palette;
mod png;
mod sprites;
mod text;

pub use frame::{Captions, size};

use crate::export::BoardAt;
use crate::export::svg::Style;

/// The picture could not be written (never for the sizes drawn here).
#[derive(Debug, thiserror::Error)]
pub enum RasterError {
    #[error("GIF writing failed: {0}")]
    Gif(#[from] ::gif::EncodingError),
    #[error("PNG writing failed: {0}")]
    Png(#[from] ::png::EncodingError),
    #[error("no position to draw")]
    Empty,
}

/// An animated GIF of `frames` (each the boards after one ply) in `style`, `delay_ms` a frame
/// and the last one held three times as long; it loops.
pub fn game_gif(
    frames: &[Vec<BoardAt>],
    style: &Style<'_>,
    captions: &Captions,
    delay_ms: u32,
) -> Result<Vec<u8>, RasterError> {
    let (first, rest) = frames.split_first().ok_or(RasterError::Empty)?;
    let kit = kit::kit(style.theme, style.piece_set);
    let delay = u16::try_from(delay_ms / 10).unwrap_or(u16::MAX);
    let last_delay = delay.saturating_mul(3);
    let mut painter = frame::Painter::start(&kit, first, style.coords, captions);
    let first_delay = if rest.is_empty() { last_delay } else { delay };
    let mut animation = gif::Animation::start(&kit.palette, &painter.canvas, first_delay)?;
    for (n, boards) in rest.iter().enumerate() {
        let drawn = painter.paint(boards);
        let d = if n + 1 == rest.len() {
            last_delay
        } else {
            delay
        };
        animation.add(&painter.canvas, drawn, d)?;
    }
    Ok(animation.finish()?)
}

/// A PNG of `boards` in `style`, with the bands of `captions`.
pub fn position_png(
    boards: &[BoardAt],
    style: &Style<'_>,
    captions: &Captions,
) -> Result<Vec<u8>, RasterError> {
    if boards.is_empty() {
        return Err(RasterError::Empty);
    }
    let kit = kit::kit(style.theme, style.piece_set);
    let painter = frame::Painter::start(&kit, boards, style.coords, captions);
    Ok(png::encode(&kit.palette, &painter.canvas)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::board_of_game;
    use slowfuse_rules::{Game, Variant};

    fn frames(variant: Variant, moves: &[&str]) -> Vec<Vec<BoardAt>> {
        let mut game = Game::new(variant);
        for m in moves {
            game = game.play(m).unwrap();
        }
        (0..=game.ply())
            .map(|p| vec![board_of_game(&game, p).unwrap()])
            .collect()
    }

    fn captions() -> Captions {
        Captions {
            header: vec!["alice v bob".into()],
            footer: vec!["Game in progress".into()],
        }
    }

    /// Each frame as the viewer sees it: RGB pixels, earlier frames under transparent ones.
    fn decode(gif: &[u8]) -> (usize, usize, Vec<Vec<u8>>) {
        let mut options = ::gif::DecodeOptions::new();
        options.set_color_output(::gif::ColorOutput::RGBA);
        let mut decoder = options.read_info(gif).unwrap();
        let (w, h) = (decoder.width() as usize, decoder.height() as usize);
        let mut screen = vec![0u8; w * h * 4];
        let mut shown = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            for y in 0..frame.height as usize {
                for x in 0..frame.width as usize {
                    let src = &frame.buffer[(y * frame.width as usize + x) * 4..][..4];
                    if src[3] == 0 {
                        continue;
                    }
                    let at = ((frame.top as usize + y) * w + frame.left as usize + x) * 4;
                    screen[at..at + 4].copy_from_slice(src);
                }
            }
            shown.push(screen.clone());
        }
        (w, h, shown)
    }

    #[test]
    fn a_gif_has_a_frame_per_ply_and_shows_the_moves_and_the_explosion() {
        let style = Style {
            theme: "brown",
            piece_set: "classic",
            coords: true,
        };
        let frames = frames(Variant::Atomic, &["e4", "d5", "exd5"]);
        let gif = game_gif(&frames, &style, &captions(), 500).unwrap();
        let (w, h, shown) = decode(&gif);
        assert_eq!((w, h, shown.len()), (720, 840, 4));
        let at = |x: usize, y: usize| (y * w + x) * 4;
        // e2's middle, from White's side: the pawn leaves it after the first move.
        let e2 = at(4 * 90 + 45, 60 + 6 * 90 + 45);
        assert_ne!(shown[0][e2..e2 + 3], shown[1][e2..e2 + 3]);
        // d5's corner is red after exd5 blew up.
        let d5 = at(3 * 90 + 8, 60 + 3 * 90 + 86);
        let red = &shown[3][d5..d5 + 3];
        assert!(red[0] > red[1] + 60, "{red:?}");
        if let Ok(dir) = std::env::var("SLOWFUSE_PICTURE_DIR") {
            std::fs::write(format!("{dir}/atomic.gif"), &gif).unwrap();
            let last = frames.last().unwrap();
            let png = position_png(last, &style, &captions()).unwrap();
            std::fs::write(format!("{dir}/atomic.png"), png).unwrap();
            for set in ["flat", "letters"] {
                let s = Style {
                    theme: "green",
                    piece_set: set,
                    coords: true,
                };
                let png = position_png(&frames[0], &s, &captions()).unwrap();
                std::fs::write(format!("{dir}/{set}.png"), png).unwrap();
            }
            let zh = self::frames(Variant::Crazyhouse, &["e4", "d5", "exd5", "Qxd5", "Nc3"]);
            let png = position_png(zh.last().unwrap(), &style, &captions()).unwrap();
            std::fs::write(format!("{dir}/crazyhouse.png"), png).unwrap();
        }
    }
}
