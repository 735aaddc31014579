//! One line of a server's log as the host keeps it and passes it on: cut to a bound, so
//! that a server cannot fill the host's memory one enormous line at a time.

use std::io::{self, Write};

use serde_json::Value;

/// The text kept of a longer line: the same bound as the engine's for a stderr line.
pub const LINE_BYTES: usize = switchboard_mcp::transport::stdio::STDERR_LINE_BYTES;

/// Room for the mark that says a line was cut and how long it was.
const MARK_ROOM: usize = 64;

/// No line the host keeps or passes on is longer.
pub const MAX_LINE_BYTES: usize = LINE_BYTES + MARK_ROOM;

/// The line, cut to its start if it is over the bound. A line the engine already cut (to
/// the same bound) fits, and keeps its own mark, which knows the whole length.
pub fn cap(text: String) -> String {
    if text.len() <= MAX_LINE_BYTES {
        return text;
    }
    let whole = text.len();
    let mut cut = cut_to_start(text, whole);
    cut.shrink_to_fit();
    cut
}

/// A server's `notifications/message` as one line: its logger, then its data (text as it
/// is, anything else as compact JSON), cut to the bound as it is written.
pub fn server_message(logger: Option<&str>, data: &Value) -> String {
    let mut head = Head::default();
    if let Some(logger) = logger {
        let _ = write!(head, "{logger}: ");
    }
    let _ = match data {
        Value::String(text) => head.write_all(text.as_bytes()),
        other => serde_json::to_writer(&mut head, other).map_err(io::Error::from),
    };
    head.into_line()
}

fn cut_to_start(mut text: String, whole: usize) -> String {
    text.truncate(char_boundary(&text, LINE_BYTES));
    text.push_str(&format!("… [cut: {whole} bytes in all]"));
    text
}

/// The largest index at most `at` that starts a character.
fn char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Keeps the start of what is written to it, and counts the whole.
#[derive(Default)]
struct Head {
    bytes: Vec<u8>,
    whole: usize,
}

impl Write for Head {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = MAX_LINE_BYTES.saturating_sub(self.bytes.len());
        self.bytes.extend_from_slice(&buf[..room.min(buf.len())]);
        self.whole += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Head {
    fn into_line(self) -> String {
        // What was kept may end inside a character: only whole characters are kept.
        let text = match String::from_utf8(self.bytes) {
            Ok(text) => text,
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let mut bytes = e.into_bytes();
                bytes.truncate(valid);
                String::from_utf8_lossy(&bytes).into_owned()
            }
        };
        if self.whole <= MAX_LINE_BYTES {
            text
        } else {
            cut_to_start(text, self.whole)
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_short_line_is_left_as_it_is() {
        assert_eq!(cap("ready".into()), "ready");
        assert_eq!(
            server_message(Some("db"), &json!({"rows": 3})),
            r#"db: {"rows":3}"#
        );
        assert_eq!(server_message(None, &json!("plain")), "plain");
    }

    #[test]
    fn a_long_line_keeps_its_start_on_a_character_and_says_how_long_it_was() {
        let long = "é".repeat(LINE_BYTES);
        let cut = cap(long.clone());
        assert!(cut.len() <= MAX_LINE_BYTES, "{}", cut.len());
        let (start, mark) = cut.split_once('…').expect("a mark");
        assert!(long.starts_with(start) && start.len() > LINE_BYTES - 2);
        assert_eq!(mark, format!(" [cut: {} bytes in all]", long.len()));
    }

    #[test]
    fn a_huge_message_is_cut_as_it_is_written_text_or_json() {
        let text = "x".repeat(10 * LINE_BYTES);
        let line = server_message(Some("big"), &json!(text));
        assert!(line.len() <= MAX_LINE_BYTES);
        assert!(line.starts_with("big: xxx"));
        assert!(line.ends_with(&format!("[cut: {} bytes in all]", text.len() + 5)));

        let json = json!({"items": vec!["ü"; 20 * LINE_BYTES]});
        let line = server_message(None, &json);
        assert!(line.len() <= MAX_LINE_BYTES);
        assert!(line.starts_with(r#"{"items":["ü","ü""#));
        let whole = json.to_string().len();
        assert!(line.ends_with(&format!("[cut: {whole} bytes in all]")));
    }
}
