//! Newline-delimited framing with a bound on line length.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

pub enum Line {
    /// A complete line, without its newline (and without a trailing `\r`).
    Complete,
    /// A line longer than the bound: its bytes were discarded up to the next newline.
    TooLong {
        bytes: usize,
    },
    Eof,
}

/// Reads the next line into `buf` (cleared first), never holding more than `max` bytes.
pub async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Line> {
    buf.clear();
    let mut discarded: usize = 0;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            // A last line without a newline still counts.
            return Ok(match (discarded, buf.is_empty()) {
                (0, true) => Line::Eof,
                (0, false) => Line::Complete,
                (n, _) => Line::TooLong { bytes: n },
            });
        }
        let (chunk, found) = match memchr::memchr(b'\n', available) {
            Some(at) => (&available[..at], true),
            None => (available, false),
        };
        let used = chunk.len() + usize::from(found);
        if discarded > 0 || buf.len() + chunk.len() > max {
            discarded += buf.len() + chunk.len();
            buf.clear();
        } else {
            buf.extend_from_slice(chunk);
        }
        reader.consume(used);
        if found {
            if discarded > 0 {
                return Ok(Line::TooLong { bytes: discarded });
            }
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Line::Complete);
        }
    }
}

#[cfg(test)]
mod properties;

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::BufReader;

    async fn lines(input: &[u8], max: usize, capacity: usize) -> Vec<String> {
        let mut reader = BufReader::with_capacity(capacity, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            match read_line(&mut reader, &mut buf, max).await.unwrap() {
                Line::Complete => out.push(String::from_utf8_lossy(&buf).into_owned()),
                Line::TooLong { bytes } => out.push(format!("<{bytes} bytes>")),
                Line::Eof => return out,
            }
        }
    }

    #[tokio::test]
    async fn splits_on_newlines_across_buffer_boundaries() {
        let got = lines(b"{\"a\":1}\n{\"b\":2}\r\n\nlast", 100, 3).await;
        assert_eq!(got, ["{\"a\":1}", "{\"b\":2}", "", "last"]);
    }

    #[tokio::test]
    async fn an_overlong_line_is_reported_and_the_next_one_read() {
        let got = lines(b"0123456789\nok\n0123456789", 5, 4).await;
        assert_eq!(got, ["<10 bytes>", "ok", "<10 bytes>"]);
    }
}
