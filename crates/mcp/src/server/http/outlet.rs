//! One event stream of a session as the client knows it across reconnections (spec
//! 2025-11-25, `basic/transports`, "Resumability and Redelivery"): its events are numbered,
//! the newest kept, and a client whose connection dropped comes back with a GET naming the
//! last event it saw (`Last-Event-ID`) to get the rest on the same stream.
//!
//! An event's id is `<stream>-<number>`: unique in the session, and it says which stream to
//! resume. Stream 0 is the GET stream; each POST that answers on events has its own.

use std::collections::VecDeque;
use std::sync::Arc;

use tokio::sync::mpsc;

/// Messages one stream may hold before the router waits for its reader.
const STREAM_CAPACITY: usize = 64;
/// Events a stream keeps for a client that comes back; older ones are dropped, except a
/// request of the server's that no reader was handed yet: it waits for one.
pub const KEPT: usize = 256;

/// A message as a stream carries it.
#[derive(Clone, Debug)]
pub struct Event {
    /// `None` on a stream that cannot be resumed.
    pub id: Option<String>,
    pub message: Arc<str>,
    /// A request of the server's, which waits for the client's answer: never let go unread.
    pub request: bool,
}

/// What a client reads: the events of one POST, or the GET stream.
pub type Stream = mpsc::Receiver<Event>;
/// The router's end of a [`Stream`].
pub type Reader = mpsc::Sender<Event>;

/// Where an event resumes: its stream and its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub stream: u64,
    pub number: u64,
}

impl Position {
    /// Reads a `Last-Event-ID` this server wrote; `None` for anything else.
    pub fn parse(id: &str) -> Option<Self> {
        let (stream, number) = id.trim().split_once('-')?;
        Some(Self {
            stream: stream.parse().ok()?,
            number: number.parse().ok()?,
        })
    }
}

pub struct Outlet {
    stream: u64,
    /// Whether its events have ids and are kept (not for a JSON answer or a 2026-07-28
    /// request, whose streams cannot be resumed).
    resumable: bool,
    /// The number the next event gets.
    next: u64,
    /// The newest events, oldest first, with their numbers.
    kept: VecDeque<(u64, Event)>,
    /// The first event no reader was handed (a fresh GET stream starts there).
    unread_from: Option<u64>,
    reader: Option<Reader>,
}

impl Outlet {
    pub fn new(stream: u64, resumable: bool) -> Self {
        Self {
            stream,
            resumable,
            next: 1,
            kept: VecDeque::new(),
            unread_from: None,
            reader: None,
        }
    }

    /// Numbers and keeps a message; the reader to hand it to, if one is connected.
    pub fn push(&mut self, message: Arc<str>, request: bool) -> (Event, Option<Reader>) {
        let number = self.next;
        self.next += 1;
        let event = Event {
            id: self.resumable.then(|| format!("{}-{number}", self.stream)),
            message,
            request,
        };
        if self.resumable {
            if self.kept.len() >= KEPT {
                self.forget_oldest();
            }
            self.kept.push_back((number, event.clone()));
        }
        let reader = self.reader.clone().filter(|r| !r.is_closed());
        if reader.is_none() {
            self.unread(&event);
        }
        (event, reader)
    }

    /// Drops the oldest event kept, past the requests no reader was handed yet.
    fn forget_oldest(&mut self) {
        let unread_from = self.unread_from;
        let waiting = |(number, event): &(u64, Event)| {
            event.request && unread_from.is_some_and(|from| *number >= from)
        };
        if let Some(oldest) = self.kept.iter().position(|kept| !waiting(kept)) {
            self.kept.remove(oldest);
        }
    }

    /// Notes that `event` reached no reader: a fresh GET stream will start with it.
    pub fn unread(&mut self, event: &Event) {
        if let Some(number) = self.number_of(event) {
            self.unread_from = Some(self.unread_from.map_or(number, |n| n.min(number)));
        }
    }

    /// Forgets `event`, sent to no reader, if no reader was connected since: it goes to
    /// another stream instead (a message must travel on one stream only).
    pub fn withdraw(&mut self, event: &Event, failed: &Reader) -> bool {
        if self
            .reader
            .as_ref()
            .is_some_and(|r| !r.same_channel(failed) && !r.is_closed())
        {
            return false;
        }
        let Some(number) = self.number_of(event) else {
            return false;
        };
        self.kept.retain(|(n, _)| *n != number);
        if self.unread_from == Some(number) {
            self.unread_from = None;
        }
        true
    }

    fn number_of(&self, event: &Event) -> Option<u64> {
        self.kept
            .iter()
            .rev()
            .find(|(_, kept)| Arc::ptr_eq(&kept.message, &event.message))
            .map(|(n, _)| *n)
    }

    /// The size of the events kept.
    pub fn kept_bytes(&self) -> usize {
        self.kept.iter().map(|(_, e)| e.message.len()).sum()
    }

    pub fn is_resumable(&self) -> bool {
        self.resumable
    }

    pub fn is_read(&self) -> bool {
        self.reader.as_ref().is_some_and(|r| !r.is_closed())
    }

    /// A reader for the stream: the events after `after` again (or, without it, those no
    /// reader was handed), then the new ones while `live`; a stream no longer live ends
    /// after what it kept.
    pub fn attach(&mut self, after: Option<u64>, live: bool) -> Stream {
        let from = match after {
            Some(after) => {
                if self
                    .kept
                    .front()
                    .is_some_and(|(oldest, _)| *oldest > after + 1)
                {
                    tracing::warn!(
                        stream = self.stream,
                        "a client resumed past the events kept: some are lost to it"
                    );
                }
                after + 1
            }
            None => self.unread_from.unwrap_or(self.next),
        };
        self.unread_from = None;
        let replay: Vec<Event> = self
            .kept
            .iter()
            .filter(|(n, _)| *n >= from)
            .map(|(_, event)| event.clone())
            .collect();
        let (reader, stream) = mpsc::channel(STREAM_CAPACITY.max(replay.len()));
        for event in replay {
            let _ = reader.try_send(event);
        }
        self.reader = live.then_some(reader);
        stream
    }

    /// A reader for a stream that is not resumed: what it is sent from now on.
    pub fn open(&mut self) -> Stream {
        let (reader, stream) = mpsc::channel(STREAM_CAPACITY);
        self.reader = Some(reader);
        stream
    }

    /// Lets go of the reader: its stream ends after what it was handed.
    pub fn end(&mut self) {
        self.reader = None;
    }

    /// Lets go of `reader` if it is still the stream's (not replaced by a resumption).
    pub fn let_go(&mut self, reader: &Reader) {
        if self.reader.as_ref().is_some_and(|r| r.same_channel(reader)) {
            self.reader = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(stream: &mut Stream) -> Vec<String> {
        let mut texts = Vec::new();
        while let Ok(event) = stream.try_recv() {
            texts.push(format!(
                "{} {}",
                event.id.unwrap_or_default(),
                event.message
            ));
        }
        texts
    }

    #[test]
    fn a_resumed_stream_gets_the_events_after_the_last_one_seen() {
        let mut outlet = Outlet::new(3, true);
        let mut first = outlet.open();
        for text in ["a", "b", "c"] {
            let (event, reader) = outlet.push(text.into(), false);
            reader.expect("a reader").try_send(event).expect("room");
        }
        assert_eq!(texts(&mut first), ["3-1 a", "3-2 b", "3-3 c"]);
        let mut resumed = outlet.attach(Some(1), true);
        assert_eq!(texts(&mut resumed), ["3-2 b", "3-3 c"]);
        assert!(first.try_recv().is_err(), "the old stream is let go");
    }

    #[test]
    fn a_fresh_get_stream_starts_with_what_no_reader_was_handed() {
        let mut outlet = Outlet::new(0, true);
        let mut first = outlet.open();
        let (event, reader) = outlet.push("seen".into(), false);
        reader.expect("a reader").try_send(event).expect("room");
        drop(first.try_recv());
        drop(first);
        outlet.push("unseen".into(), false);
        let mut fresh = outlet.attach(None, true);
        assert_eq!(texts(&mut fresh), ["0-2 unseen"]);
    }

    #[test]
    fn a_stream_keeps_only_its_newest_events() {
        let mut outlet = Outlet::new(1, true);
        for n in 0..KEPT + 10 {
            outlet.push(n.to_string().into(), false);
        }
        let mut resumed = outlet.attach(Some(0), false);
        let texts = texts(&mut resumed);
        assert_eq!(texts.len(), KEPT);
        assert_eq!(texts[0], "1-11 10");
    }

    #[test]
    fn a_request_no_reader_was_handed_is_kept_past_the_newest_events() {
        let mut outlet = Outlet::new(0, true);
        outlet.push("question".into(), true);
        for n in 0..KEPT + 10 {
            outlet.push(n.to_string().into(), false);
        }
        let texts = texts(&mut outlet.attach(None, false));
        assert_eq!(texts.len(), KEPT);
        assert_eq!(texts[0], "0-1 question");
        assert_eq!(texts[1], "0-13 11");
    }

    #[test]
    fn only_ids_this_server_wrote_are_positions() {
        assert_eq!(
            Position::parse("4-17"),
            Some(Position {
                stream: 4,
                number: 17
            })
        );
        for other in [
            "",
            "4",
            "4-",
            "-1",
            "a-1",
            "4-1-2",
            "18446744073709551616-1",
        ] {
            assert_eq!(Position::parse(other), None, "{other:?}");
        }
    }
}
