//! What a record keeps of what came from outside (a tool's arguments, a form's message, a
//! server's error), each cut to a bound, so that no record can flood the trail; and, once
//! the last hour's records fill their share of the room (see `retention`), the short form
//! of a record: who asked what of which server and how it was decided, not its arguments.

use std::borrow::Cow;

use serde_json::{Value, json};

use crate::cut::{self, Head};
use crate::decisions::Outcome;

/// The most of a record's detail (as JSON text) kept; a longer one is kept as an object
/// with its length and the start of its text.
pub const DETAIL_BYTES: usize = 16 * 1024;
/// The most of a record's subject kept, its mark included.
pub const SUBJECT_BYTES: usize = 1024;
/// The most of a record's outcome kept, its mark included.
pub const OUTCOME_BYTES: usize = 4 * 1024;

/// The most of a short record's subject, outcome and asker kept, each with its mark.
pub const SHORT_BYTES: usize = 256;

/// Room for what wraps the start of a detail that was cut.
const WRAPPING: usize = 64;

/// How much of a record is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Size {
    /// Each text up to its own bound.
    Whole,
    /// The detail only as its length, the other texts up to [`SHORT_BYTES`].
    Short,
}

/// The detail as the JSON text stored: itself if it fits, else
/// `{"cut": true, "bytes": <its length>, "start": <the start of its text>}`; in a short
/// record, `{"cut": true, "bytes": <its length>}`.
pub(super) fn detail(detail: &Value, size: Size) -> String {
    let keep = match size {
        Size::Whole => DETAIL_BYTES,
        Size::Short => 0,
    };
    let mut head = Head::new(keep);
    // Written piecewise: a huge detail is never held as one text.
    let _ = serde_json::to_writer(&mut head, detail);
    let (start, whole) = head.into_parts();
    if size == Size::Short {
        return json!({"cut": true, "bytes": whole}).to_string();
    }
    if whole <= DETAIL_BYTES {
        return start;
    }
    // Inside a JSON string the start's quotes and backslashes double: half the bound holds it.
    let start = cut::start_of(&start, DETAIL_BYTES / 2 - WRAPPING);
    json!({"cut": true, "bytes": whole, "start": start}).to_string()
}

/// A record's subject, or who asked.
pub(super) fn subject(subject: &str, size: Size) -> Cow<'_, str> {
    cut::cut_str(subject, bound(SUBJECT_BYTES, size) - cut::MARK_ROOM)
}

/// An outcome whose text (a failure's reason, or what was recorded) fits its bound, as a
/// person reads it: the words around the text count.
pub(super) fn outcome(outcome: &Outcome, size: Size) -> Cow<'_, Outcome> {
    let keep = bound(OUTCOME_BYTES, size) - cut::MARK_ROOM;
    let cut = |text: &str, around: usize| match cut::cut_str(text, keep - around) {
        Cow::Borrowed(_) => None,
        Cow::Owned(cut) => Some(cut),
    };
    let kept = match outcome {
        Outcome::Failed(why) => {
            cut(why, Outcome::Failed(String::new()).to_string().len()).map(Outcome::Failed)
        }
        Outcome::Recorded(text) => cut(text, 0).map(Outcome::Recorded),
        Outcome::Unknown | Outcome::Succeeded | Outcome::ToolError => None,
    };
    kept.map_or(Cow::Borrowed(outcome), Cow::Owned)
}

fn bound(whole: usize, size: Size) -> usize {
    match size {
        Size::Whole => whole,
        Size::Short => SHORT_BYTES,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_detail_that_fits_is_kept_whole() {
        let small = json!({"path": "/tmp/a \"quoted\" name"});
        assert_eq!(detail(&small, Size::Whole), small.to_string());
    }

    #[test]
    fn a_detail_of_quotes_and_backslashes_stays_within_the_bound_when_cut() {
        let nasty = json!({"text": "\"\\".repeat(DETAIL_BYTES)});
        let kept = detail(&nasty, Size::Whole);
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
