//! What a record keeps of what came from outside (a tool's arguments, a form's message, a
//! server's error), each cut to a bound, so that no record can flood the trail.

use std::borrow::Cow;

use serde_json::{Value, json};

use crate::cut::{self, Head};

/// The most of a record's detail (as JSON text) kept; a longer one is kept as an object
/// with its length and the start of its text.
pub const DETAIL_BYTES: usize = 16 * 1024;
/// The most of a record's subject kept, its mark included.
pub const SUBJECT_BYTES: usize = 1024;
/// The most of a record's outcome kept, its mark included.
pub const OUTCOME_BYTES: usize = 4 * 1024;

/// Room for what wraps the start of a detail that was cut.
const WRAPPING: usize = 64;

/// The detail as the JSON text stored: itself if it fits, else
/// `{"cut": true, "bytes": <its length>, "start": <the start of its text>}`.
pub(super) fn detail(detail: &Value) -> String {
    let mut head = Head::new(DETAIL_BYTES);
    // Written piecewise: a huge detail is never held as one text.
    let _ = serde_json::to_writer(&mut head, detail);
    let (start, whole) = head.into_parts();
    if whole <= DETAIL_BYTES {
        return start;
    }
    // Inside a JSON string the start's quotes and backslashes double: half the bound holds it.
    let start = cut::start_of(&start, DETAIL_BYTES / 2 - WRAPPING);
    json!({"cut": true, "bytes": whole, "start": start}).to_string()
}

pub(super) fn subject(subject: &str) -> Cow<'_, str> {
    cut::cut_str(subject, SUBJECT_BYTES - cut::MARK_ROOM)
}

pub(super) fn outcome(outcome: &str) -> Cow<'_, str> {
    cut::cut_str(outcome, OUTCOME_BYTES - cut::MARK_ROOM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_detail_that_fits_is_kept_whole() {
        let small = json!({"path": "/tmp/a \"quoted\" name"});
        assert_eq!(detail(&small), small.to_string());
    }

    #[test]
    fn a_detail_of_quotes_and_backslashes_stays_within_the_bound_when_cut() {
        let nasty = json!({"text": "\"\\".repeat(DETAIL_BYTES)});
        let kept = detail(&nasty);
        assert!(kept.len() <= DETAIL_BYTES, "{}", kept.len());
        let read: Value = serde_json::from_str(&kept).expect("JSON");
        assert_eq!(read["bytes"], nasty.to_string().len());
        assert!(
            read["start"]
                .as_str()
                .is_some_and(|s| s.starts_with(r#"{"text":"\"\\"#))
        );
    }
}
