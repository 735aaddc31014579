//! Reading a `text/event-stream` body, keeping what resumption needs: the last event id
//! and the reconnection delay the server asked for.

use std::pin::Pin;
use std::time::Duration;

use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures_util::{Stream, StreamExt};

type Events = Pin<Box<dyn Stream<Item = Result<Event, EventStreamError<reqwest::Error>>> + Send>>;

/// Where a stream stopped, so that it can be resumed.
#[derive(Debug, Default, Clone)]
pub struct Cursor {
    pub last_id: Option<String>,
    pub retry: Option<Duration>,
}

pub struct EventReader {
    events: Events,
}

impl EventReader {
    pub fn new(response: reqwest::Response) -> Self {
        Self {
            events: Box::pin(response.bytes_stream().eventsource()),
        }
    }

    /// The next event, noting its id and retry in `cursor`; `None` when the stream ends,
    /// `Err` when it broke.
    pub async fn next(&mut self, cursor: &mut Cursor) -> Option<Result<Event, String>> {
        let event = match self.events.next().await? {
            Ok(event) => event,
            Err(err) => return Some(Err(err.to_string())),
        };
        if !event.id.is_empty() {
            cursor.last_id = Some(event.id.clone());
        }
        if let Some(retry) = event.retry {
            cursor.retry = Some(retry);
        }
        Some(Ok(event))
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
