//! Text from outside kept to a bound: its start, and a mark that says how long the whole
//! was. What a server sends can be as long as it likes; what the host keeps of it cannot.

use std::borrow::Cow;
use std::io::{self, Write};

/// Room for the mark that says a text was cut and how long it was.
pub const MARK_ROOM: usize = 64;

/// `text` as it is if it fits in `keep` bytes and the room for a mark; otherwise its first
/// `keep` bytes (whole characters), marked. A text already cut to `keep` and marked fits.
pub fn cut(text: String, keep: usize) -> String {
    if fits(text.len(), keep) {
        return text;
    }
    cut_str(&text, keep).into_owned()
}

/// [`cut`], for a text that is borrowed: copied only if it must be cut.
pub fn cut_str(text: &str, keep: usize) -> Cow<'_, str> {
    if fits(text.len(), keep) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(marked(start_of(text, keep), text.len()))
    }
}

/// The first `bytes` bytes of `text`, or fewer so as to end on a whole character.
pub fn start_of(text: &str, bytes: usize) -> &str {
    &text[..char_boundary(text, bytes)]
}

fn fits(len: usize, keep: usize) -> bool {
    len <= keep + MARK_ROOM
}

fn marked(start: &str, whole: usize) -> String {
    format!("{start}… [cut: {whole} bytes in all]")
}

/// The largest index at most `at` that starts a character.
fn char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Keeps the start of what is written to it (enough to say whether it fits in `keep`
/// and the room for a mark), and counts the whole: a large value is never written out.
pub struct Head {
    keep: usize,
    bytes: Vec<u8>,
    whole: usize,
}

impl Head {
    pub fn new(keep: usize) -> Self {
        Self {
            keep,
            bytes: Vec::new(),
            whole: 0,
        }
    }

    /// The start kept (whole characters) and the length of the whole.
    pub fn into_parts(self) -> (String, usize) {
        let start = match String::from_utf8(self.bytes) {
            Ok(text) => text,
            // What was kept may end inside a character: only whole characters stay.
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let mut bytes = e.into_bytes();
                bytes.truncate(valid);
                String::from_utf8_lossy(&bytes).into_owned()
            }
        };
        (start, self.whole)
    }

    /// What was written, cut as [`cut`] would cut it.
    pub fn into_cut(self) -> String {
        let keep = self.keep;
        let (start, whole) = self.into_parts();
        if fits(whole, keep) {
            start
        } else {
            marked(start_of(&start, keep), whole)
        }
    }
}

impl Write for Head {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = (self.keep + MARK_ROOM).saturating_sub(self.bytes.len());
        self.bytes.extend_from_slice(&buf[..room.min(buf.len())]);
        self.whole += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_text_is_left_as_it_is() {
        assert_eq!(cut("ready".into(), 3), "ready", "the mark's room counts");
        let mut head = Head::new(3);
        let _ = head.write_all(b"ready");
        assert_eq!(head.into_cut(), "ready");
    }

    #[test]
    fn a_long_text_keeps_its_start_on_a_character_and_says_how_long_it_was() {
        let long = "é".repeat(1000);
        let kept = cut(long.clone(), 101);
        assert_eq!(
            kept,
            format!("{}… [cut: 2000 bytes in all]", "é".repeat(50))
        );
        assert_eq!(cut(kept.clone(), 101), kept, "cut once, marked once");

        let mut head = Head::new(101);
        for _ in 0..1000 {
            let _ = head.write_all("é".as_bytes());
        }
        assert_eq!(head.into_cut(), kept);
    }
}
