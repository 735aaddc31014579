//! Reading a `text/event-stream` body, keeping what resumption needs: the last event id
//! and the reconnection delay the server asked for.

use super::sse::Parser;
pub use super::sse::{Cursor, Event};

pub struct EventReader {
    response: reqwest::Response,
    parser: Parser,
}

impl EventReader {
    pub fn new(response: reqwest::Response) -> Self {
        Self {
            response,
            parser: Parser::default(),
        }
    }

    /// The next event, noting its id and retry in `cursor`; `None` when the stream ends,
    /// `Err` when it broke.
    pub async fn next(&mut self, cursor: &mut Cursor) -> Option<Result<Event, String>> {
        loop {
            if let Some(event) = self.parser.next_event() {
                return Some(Ok(event));
            }
            match self.response.chunk().await {
                Ok(Some(chunk)) => self.parser.feed(&chunk, cursor),
                // An event the stream did not finish is not dispatched.
                Ok(None) => return None,
                Err(err) => return Some(Err(err.to_string())),
            }
        }
    }
}

/// Whether an event carries a JSON-RPC message (`message`, or no event name at all).
pub fn is_message(event: &Event) -> bool {
    (event.event.is_empty() || event.event == "message") && !event.data.trim().is_empty()
}

pub fn is_event_stream(response: &reqwest::Response) -> bool {
    content_type(response).starts_with("text/event-stream")
}

pub fn content_type(response: &reqwest::Response) -> String {
    response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase()
}
