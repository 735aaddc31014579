//! One line of a server's log as the host keeps it and passes it on: cut to a bound, so
//! that a server cannot fill the host's memory one enormous line at a time.

use std::io::Write;

use serde_json::Value;

use crate::cut::{self, Head};

/// The text kept of a longer line: the same bound as the engine's for a stderr line.
pub const LINE_BYTES: usize = switchboard_mcp::transport::stdio::STDERR_LINE_BYTES;

/// No line the host keeps or passes on is longer.
pub const MAX_LINE_BYTES: usize = LINE_BYTES + cut::MARK_ROOM;

/// The line, cut to its start if it is over the bound. A line the engine already cut (to
/// the same bound) fits, and keeps its own mark, which knows the whole length.
pub fn cap(text: String) -> String {
    cut::cut(text, LINE_BYTES)
}

/// A server's `notifications/message` as one line: its logger, then its data (text as it
/// is, anything else as compact JSON), cut to the bound as it is written.
pub fn server_message(logger: Option<&str>, data: &Value) -> String {
    let mut head = Head::new(LINE_BYTES);
    if let Some(logger) = logger {
        let _ = write!(head, "{logger}: ");
    }
    let _ = match data {
        Value::String(text) => head.write_all(text.as_bytes()),
        other => serde_json::to_writer(&mut head, other).map_err(std::io::Error::from),
    };
    head.into_cut()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_short_message_is_one_line_as_it_is() {
        assert_eq!(
            server_message(Some("db"), &json!({"rows": 3})),
            r#"db: {"rows":3}"#
        );
        assert_eq!(server_message(None, &json!("plain")), "plain");
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
