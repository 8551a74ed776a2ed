//! Animated GIF writing: the first picture whole, then for each later one only the rectangle
//! that was drawn again, with the pixels that stayed the same left transparent (long runs of
//! one index, which LZW packs into little).

use std::borrow::Cow;

use gif::{DisposalMethod, Encoder, EncodingError, Frame, Repeat};

use super::frame::{Canvas, Rect};
use super::lzw::Lzw;
use super::palette::{Palette, TRANSPARENT};

/// A GIF being written, with the picture its last frame left on the screen.
pub struct Animation {
    encoder: Encoder<Vec<u8>>,
    lzw: Lzw,
    screen: Vec<u8>,
    width: usize,
}

impl Animation {
    /// A looping GIF of `first`'s size in `palette`, starting with `first` whole.
    pub fn start(
        palette: &Palette,
        first: &Canvas,
        delay_cs: u16,
    ) -> Result<Animation, EncodingError> {
        let (w, h) = (dimension(first.width), dimension(first.height));
        let mut encoder = Encoder::new(Vec::with_capacity(256 * 1024), w, h, &palette.table())?;
        encoder.set_repeat(Repeat::Infinite)?;
        let mut lzw = Lzw::default();
        let frame = Frame {
            width: w,
            height: h,
            delay: delay_cs,
            dispose: DisposalMethod::Keep,
            buffer: Cow::Owned(lzw.encode(&first.pixels)),
            ..Frame::default()
        };
        encoder.write_lzw_pre_encoded_frame(&frame)?;
        Ok(Animation {
            encoder,
            lzw,
            screen: first.pixels.clone(),
            width: first.width,
        })
    }

    /// The next frame: the part of `canvas` inside `drawn` (nothing: one transparent pixel).
    pub fn add(
        &mut self,
        canvas: &Canvas,
        drawn: Option<Rect>,
        delay_cs: u16,
    ) -> Result<(), EncodingError> {
        let rect = drawn.unwrap_or(Rect {
            left: 0,
            top: 0,
            width: 1,
            height: 1,
        });
        let mut buffer = Vec::with_capacity(rect.width * rect.height);
        for y in rect.top..rect.top + rect.height {
            let at = y * self.width + rect.left;
            let now = &canvas.pixels[at..at + rect.width];
            let before = &mut self.screen[at..at + rect.width];
            buffer.extend(
                now.iter()
                    .zip(before.iter())
                    .map(|(n, b)| if n == b { TRANSPARENT } else { *n }),
            );
            before.copy_from_slice(now);
        }
        let frame = Frame {
            left: dimension(rect.left),
            top: dimension(rect.top),
            width: dimension(rect.width),
            height: dimension(rect.height),
            delay: delay_cs,
            dispose: DisposalMethod::Keep,
            transparent: Some(TRANSPARENT),
            buffer: Cow::Owned(self.lzw.encode(&buffer)),
            ..Frame::default()
        };
        self.encoder.write_lzw_pre_encoded_frame(&frame)
    }

    /// The file.
    pub fn finish(self) -> Result<Vec<u8>, EncodingError> {
        Ok(self.encoder.into_inner()?)
    }
}

fn dimension(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}
