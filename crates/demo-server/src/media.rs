//! The demo's media, generated in code so that the server ships no files: a small PNG
//! logo and a short WAV chime, and base64 for putting them on the wire.

use std::f64::consts::PI;
use std::sync::LazyLock;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

pub const PNG_MIME: &str = "image/png";
pub const WAV_MIME: &str = "audio/wav";

/// The logo's width and height in pixels.
pub const LOGO_SIZE: u32 = 48;

static LOGO: LazyLock<Vec<u8>> = LazyLock::new(|| png_rgb(LOGO_SIZE, LOGO_SIZE, logo_pixel));
static CHIME: LazyLock<Vec<u8>> = LazyLock::new(chime);

/// The logo: a 3×3 patch panel of coloured jacks on a dark board, as a PNG.
pub fn logo_png() -> &'static [u8] {
    &LOGO
}

/// A two-note chime of 0.4 s, as a WAV file (8 kHz, 16-bit mono PCM).
pub fn chime_wav() -> &'static [u8] {
    &CHIME
}

pub fn base64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

fn logo_pixel(x: u32, y: u32) -> [u8; 3] {
    const JACKS: [[u8; 3]; 3] = [[0xf5, 0x9e, 0x0b], [0x22, 0xc5, 0x5e], [0x3b, 0x82, 0xf6]];
    let cell = LOGO_SIZE / 3;
    let (cx, cy) = (x % cell, y % cell);
    let (dx, dy) = (
        f64::from(cx) - f64::from(cell) / 2.0 + 0.5,
        f64::from(cy) - f64::from(cell) / 2.0 + 0.5,
    );
    let distance = (dx * dx + dy * dy).sqrt();
    let colour = JACKS[((x / cell + y / cell) % 3) as usize];
    match distance {
        d if d < 2.5 => [0x0f, 0x17, 0x2a],
        d if d < 5.5 => colour,
        _ => [0x1e, 0x29, 0x3b],
    }
}

/// Encodes an RGB image as a PNG with uncompressed (stored) deflate blocks: valid, and
/// small enough at this size.
fn png_rgb(width: u32, height: u32, pixel: impl Fn(u32, u32) -> [u8; 3]) -> Vec<u8> {
    let mut raw = Vec::new();
    for y in 0..height {
        raw.push(0); // Filter type: none.
        for x in 0..width {
            raw.extend(pixel(x, y));
        }
    }
    let mut header = Vec::new();
    header.extend(width.to_be_bytes());
    header.extend(height.to_be_bytes());
    header.extend([8, 2, 0, 0, 0]); // 8 bits per channel, RGB, deflate, no filter, no interlace.

    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut png, b"IHDR", &header);
    chunk(&mut png, b"IDAT", &zlib_stored(&raw));
    chunk(&mut png, b"IEND", &[]);
    png
}

fn chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    let length = u32::try_from(data.len()).unwrap_or(u32::MAX);
    png.extend(length.to_be_bytes());
    let start = png.len();
    png.extend(kind);
    png.extend(data);
    let crc = crc32(&png[start..]);
    png.extend(crc.to_be_bytes());
}

/// A zlib stream of stored (uncompressed) deflate blocks.
fn zlib_stored(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = data.chunks(usize::from(u16::MAX)).collect();
    for (i, block) in blocks.iter().enumerate() {
        let last = u8::from(i + 1 == blocks.len());
        let length = u16::try_from(block.len()).unwrap_or(u16::MAX);
        out.push(last);
        out.extend(length.to_le_bytes());
        out.extend((!length).to_le_bytes());
        out.extend(*block);
    }
    out.extend(adler32(data).to_be_bytes());
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = u32::MAX;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn adler32(bytes: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in bytes {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    (b << 16) | a
}

const SAMPLE_RATE: u32 = 8_000;

/// Two decaying notes, E6 then A5.
fn chime() -> Vec<u8> {
    let note_samples = SAMPLE_RATE / 5;
    let mut samples = Vec::new();
    for frequency in [1318.5, 880.0] {
        for i in 0..note_samples {
            let t = f64::from(i) / f64::from(SAMPLE_RATE);
            let envelope = (-t * 12.0).exp() * (f64::from(i) / 40.0).min(1.0);
            let value = (2.0 * PI * frequency * t).sin() * envelope * 0.6;
            samples.push((value * f64::from(i16::MAX)) as i16);
        }
    }
    wav_mono16(&samples)
}

fn wav_mono16(samples: &[i16]) -> Vec<u8> {
    let data_len = u32::try_from(samples.len() * 2).unwrap_or(u32::MAX);
    let mut wav = Vec::with_capacity(44 + samples.len() * 2);
    wav.extend(b"RIFF");
    wav.extend((36 + data_len).to_le_bytes());
    wav.extend(b"WAVEfmt ");
    wav.extend(16u32.to_le_bytes()); // The size of the fmt chunk.
    wav.extend(1u16.to_le_bytes()); // PCM.
    wav.extend(1u16.to_le_bytes()); // Mono.
    wav.extend(SAMPLE_RATE.to_le_bytes());
    wav.extend((SAMPLE_RATE * 2).to_le_bytes()); // Bytes per second.
    wav.extend(2u16.to_le_bytes()); // Bytes per frame.
    wav.extend(16u16.to_le_bytes()); // Bits per sample.
    wav.extend(b"data");
    wav.extend(data_len.to_le_bytes());
    for sample in samples {
        wav.extend(sample.to_le_bytes());
    }
    wav
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_logo_decodes_as_a_png_of_its_size() {
        let decoder = png::Decoder::new(std::io::Cursor::new(logo_png()));
        let mut reader = decoder.read_info().expect("a PNG header");
        let mut pixels = vec![0; reader.output_buffer_size().expect("a buffer size")];
        let frame = reader.next_frame(&mut pixels).expect("the pixels");
        assert_eq!((frame.width, frame.height), (LOGO_SIZE, LOGO_SIZE));
        assert_eq!(frame.color_type, png::ColorType::Rgb);
        // The centre of the first jack is dark, its ring amber, the board slate.
        let at = |x: usize, y: usize| &pixels[(y * LOGO_SIZE as usize + x) * 3..][..3];
        assert_eq!(at(8, 8), [0x0f, 0x17, 0x2a]);
        assert_eq!(at(12, 8), [0xf5, 0x9e, 0x0b]);
        assert_eq!(at(0, 0), [0x1e, 0x29, 0x3b]);
    }

    #[test]
    fn the_chime_is_a_well_formed_wav() {
        let wav = chime_wav();
        assert_eq!(&wav[..4], b"RIFF");
        assert_eq!(&wav[8..16], b"WAVEfmt ");
        let riff_len = u32::from_le_bytes(wav[4..8].try_into().unwrap());
        assert_eq!(riff_len as usize, wav.len() - 8);
        let data_len = u32::from_le_bytes(wav[40..44].try_into().unwrap());
        assert_eq!(data_len as usize, wav.len() - 44);
        assert_eq!(data_len, SAMPLE_RATE / 5 * 2 * 2, "0.4 s of 16-bit samples");
        assert!(wav[44..].iter().any(|&b| b != 0), "not silence");
    }

    #[test]
    fn checksums_match_known_values() {
        assert_eq!(crc32(b"IEND"), 0xae42_6082);
        assert_eq!(adler32(b"Wikipedia"), 0x11e6_0398);
    }
}
