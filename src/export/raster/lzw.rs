//! The LZW packing of GIF image data (8-bit indices, codes of 9 to 12 bits, least significant
//! bit first), with a direct table of the dictionary's children: one look-up per pixel, fast
//! over the long runs of the transparent index that our frames are made of.

const MIN_CODE_SIZE: u8 = 8;
const CLEAR: u16 = 1 << MIN_CODE_SIZE;
const END: u16 = CLEAR + 1;
const FIRST_FREE: u16 = CLEAR + 2;
const MAX_CODES: u16 = 4096;

/// An encoder kept from frame to frame (its table is two megabytes, zeroed once).
pub struct Lzw {
    /// The code of (prefix code, next index), 0 for none, at `prefix * 256 + index`.
    children: Vec<u16>,
    /// The slots of `children` set since the last clear.
    used: Vec<u32>,
}

impl Default for Lzw {
    fn default() -> Self {
        Lzw {
            children: vec![0; usize::from(MAX_CODES) * 256],
            used: Vec::with_capacity(usize::from(MAX_CODES)),
        }
    }
}

/// Codes packed into bytes, least significant bit first.
struct Bits {
    out: Vec<u8>,
    acc: u32,
    count: u8,
}

impl Bits {
    fn put(&mut self, code: u16, width: u8) {
        self.acc |= u32::from(code) << self.count;
        self.count += width;
        while self.count >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.count -= 8;
        }
    }
}

impl Lzw {
    /// `indices` packed, led by the minimum code size (the form of a GIF frame's image data
    /// before it is cut into blocks).
    pub fn encode(&mut self, indices: &[u8]) -> Vec<u8> {
        let mut bits = Bits {
            out: Vec::with_capacity(indices.len() / 4 + 16),
            acc: 0,
            count: 0,
        };
        bits.out.push(MIN_CODE_SIZE);
        let mut width = MIN_CODE_SIZE + 1;
        bits.put(CLEAR, width);
        self.clear();
        let mut next = FIRST_FREE;
        let Some((&first, rest)) = indices.split_first() else {
            bits.put(END, width);
            return finish(bits);
        };
        let mut prefix = u16::from(first);
        for &index in rest {
            let slot = usize::from(prefix) * 256 + usize::from(index);
            let child = self.children[slot];
            if child != 0 {
                prefix = child;
                continue;
            }
            bits.put(prefix, width);
            if next < MAX_CODES {
                self.children[slot] = next;
                self.used.push(slot as u32);
                if next >= 1 << width && width < 12 {
                    width += 1;
                }
                next += 1;
            } else {
                bits.put(CLEAR, width);
                self.clear();
                width = MIN_CODE_SIZE + 1;
                next = FIRST_FREE;
            }
            prefix = u16::from(index);
        }
        bits.put(prefix, width);
        // The reader adds one more entry after this code before it reads the end.
        if next >= 1 << width && width < 12 && next < MAX_CODES {
            width += 1;
        }
        bits.put(END, width);
        finish(bits)
    }

    fn clear(&mut self) {
        for slot in self.used.drain(..) {
            self.children[slot as usize] = 0;
        }
    }
}

fn finish(mut bits: Bits) -> Vec<u8> {
    if bits.count > 0 {
        bits.out.push(bits.acc as u8);
    }
    bits.out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unpacks with the `gif` crate's own reader (weezl), as a browser would.
    fn unpack(packed: &[u8]) -> Vec<u8> {
        let mut decoder = weezl::decode::Decoder::new(weezl::BitOrder::Lsb, packed[0]);
        decoder.decode(&packed[1..]).unwrap()
    }

    #[test]
    fn what_is_packed_unpacks_the_same() {
        let mut lzw = Lzw::default();
        let runs: Vec<u8> = (0..200_000u32)
            .map(|i| if i % 5000 < 4000 { 255 } else { (i % 7) as u8 })
            .collect();
        let noise: Vec<u8> = (0..100_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for data in [vec![], vec![7], vec![1, 1, 1, 1], runs, noise] {
            let packed = lzw.encode(&data);
            assert_eq!(unpack(&packed), data, "{} indices", data.len());
        }
    }
}
