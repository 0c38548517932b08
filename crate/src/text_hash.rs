//! A cheap hasher for the core's hash maps of text: cell sources and names. The standard
//! library's SipHash resists hash flooding, which a notebook's own names cannot mount; hashing
//! them was a visible share of analysing a cell.

use std::hash::{BuildHasherDefault, Hasher};

/// Hashes text by its length and its first and last bytes only: equal texts hash alike, equality
/// still compares every byte, and a lookup of a long cell source costs a comparison instead of a
/// hash of the whole text (a notebook's history is looked up on every keystroke). Names are short
/// and hashed whole.
#[derive(Default)]
pub struct TextHasher(u64);

impl Hasher for TextHasher {
    fn write(&mut self, bytes: &[u8]) {
        const SAMPLE: usize = 96;
        let mut mix = |chunk: &[u8]| {
            for word in chunk.chunks(8) {
                let mut w = [0u8; 8];
                w[..word.len()].copy_from_slice(word);
                self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w))
                    .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
            }
        };
        mix(&(bytes.len() as u64).to_le_bytes());
        if bytes.len() <= 2 * SAMPLE {
            mix(bytes);
        } else {
            mix(&bytes[..SAMPLE]);
            mix(&bytes[bytes.len() - SAMPLE..]);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

pub type TextHashBuilder = BuildHasherDefault<TextHasher>;
