//! PNG writing: a picture in its palette's indices, as an indexed-colour PNG.

use png::{BitDepth, ColorType, Compression, Encoder, EncodingError};

use super::frame::Canvas;
use super::palette::Palette;

/// `canvas` as a PNG file.
pub fn encode(palette: &Palette, canvas: &Canvas) -> Result<Vec<u8>, EncodingError> {
    let mut out = Vec::with_capacity(64 * 1024);
    let width = u32::try_from(canvas.width).unwrap_or(u32::MAX);
    let height = u32::try_from(canvas.height).unwrap_or(u32::MAX);
    let mut encoder = Encoder::new(&mut out, width, height);
    encoder.set_color(ColorType::Indexed);
    encoder.set_depth(BitDepth::Eight);
    encoder.set_palette(palette.used_table());
    encoder.set_compression(Compression::Default);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&canvas.pixels)?;
    writer.finish()?;
    Ok(out)
}
