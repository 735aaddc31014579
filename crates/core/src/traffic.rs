//! Every JSON-RPC message each server exchanged, newest last, for a traffic view: its
//! direction, method, id, size and time, a response paired with its request, secrets
//! masked. A server's ring outlives its restarts (what led to a crash stays readable) and
//! goes with the server; it is bound in count and in bytes, and says how many older
//! messages it dropped, and how many it never saw because it fell behind.

use parking_lot::Mutex;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;
use std::time::UNIX_EPOCH;

use serde::Serialize;
use serde_json::Value;
use switchboard_mcp::traffic::{Direction, Observed, TrafficReceiver};
use tokio::sync::broadcast;

use crate::masking;

/// Messages kept per server; older ones are dropped first.
pub const KEEP: usize = 2000;
/// The memory one server's messages may take (their JSON text).
pub const KEEP_BYTES: usize = 4 << 20;
/// The longest JSON text kept of one message; the rest is cut (its size stays known).
pub const MAX_JSON_BYTES: usize = 256 << 10;
/// Requests remembered while their response is awaited, to pair it; beyond, the oldest
/// is forgotten (its response then shows unpaired).
const OPEN_REQUESTS: usize = 1024;

const SECRET_MASK: &str = "••••";

/// What a message is, from its JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum MessageKind {
    Request,
    Notification,
    Response,
    Error,
    Batch,
    /// Not JSON-RPC as far as could be read (or cut before its end).
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum TrafficDirection {
    /// From the host to the server.
    Sent,
    /// From the server to the host.
    Received,
}

/// One message as the window shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct TrafficEntry {
    pub server: String,
    /// Its place in the server's traffic, counting from 1 since the app started.
    pub seq: u64,
    pub direction: TrafficDirection,
    /// Milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// The size of its JSON text.
    pub bytes: u64,
    pub kind: MessageKind,
    /// A response's method is its request's.
    pub method: Option<String>,
    /// The id as written in the JSON (`7`, `"a-1"`).
    pub id: Option<String>,
    /// For a response: its request's `seq`, and how long after it it came.
    pub request_seq: Option<u64>,
    pub elapsed_ms: Option<u64>,
    /// Its JSON text, secrets masked; cut at 256 KiB when `truncated`.
    pub json: String,
    pub truncated: bool,
}

/// A server's traffic as kept.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TrafficLog {
    pub entries: Vec<TrafficEntry>,
    /// Older messages dropped to keep within the bounds.
    pub dropped: u64,
    /// Messages never recorded because the recorder fell behind the connection.
    pub missed: u64,
    /// The headers sent with every HTTP request, secrets masked; empty for stdio.
    pub headers: Vec<ShownHeader>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ShownHeader {
    pub name: String,
    pub value: String,
}

/// Hides the values of a server's secrets wherever they appear in a message.
#[derive(Debug, Clone, Default)]
pub struct Masker {
    /// Each secret, as written raw and as written inside a JSON string.
    needles: Vec<String>,
}

/// Secrets shorter than this are not searched for: masking every `1` or `ab` in a message
/// would ruin it and protect nothing.
const MIN_SECRET_CHARS: usize = 4;

impl Masker {
    /// A masker of these secret values (and of the token after a scheme, as in
    /// `Bearer <token>`).
    pub fn new<'a>(secrets: impl IntoIterator<Item = &'a str>) -> Self {
        let mut needles = Vec::new();
        for secret in secrets {
            let token = secret.rsplit_once(' ').map(|(_, token)| token);
            for value in std::iter::once(secret).chain(token) {
                if value.chars().count() < MIN_SECRET_CHARS {
                    continue;
                }
                let escaped = serde_json::to_string(value).unwrap_or_default();
                let escaped = escaped[1..escaped.len() - 1].to_owned();
                needles.push(value.to_owned());
                if escaped != value {
                    needles.push(escaped);
                }
            }
        }
        // The longest first, so that a secret holding another is masked whole.
        needles.sort_by_key(|n| std::cmp::Reverse(n.len()));
        needles.dedup();
        Self { needles }
    }

    /// The text with every secret, and the secrets in web addresses, masked.
    pub fn mask(&self, text: &str) -> String {
        let mut text = masking::urls_in(text);
        for needle in &self.needles {
            if text.contains(needle.as_str()) {
                text = text.replace(needle.as_str(), SECRET_MASK);
            }
        }
        text
    }
}

/// A request waiting for its response.
struct Open {
    seq: u64,
    at_ms: u64,
    method: Option<String>,
}

/// One server's messages.
#[derive(Default)]
struct Ring {
    entries: VecDeque<TrafficEntry>,
    bytes: usize,
    next_seq: u64,
    dropped: u64,
    missed: u64,
    /// Requests awaiting a response, by who sent them and their id.
    open: HashMap<(bool, String), Open>,
    /// The same requests, oldest first (by `Open::seq`): the one to forget when too many wait.
    open_order: BTreeMap<u64, (bool, String)>,
    headers: Vec<ShownHeader>,
}

impl Ring {
    fn record(&mut self, server: &str, observed: Observed, masker: &Masker) -> TrafficEntry {
        self.next_seq += 1;
        let seq = self.next_seq;
        let at_ms = observed
            .at
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let sent = observed.direction == Direction::Sent;
        let json = observed.json();
        let read = Read::of(&json);
        let mut entry = TrafficEntry {
            server: server.to_owned(),
            seq,
            direction: if sent {
                TrafficDirection::Sent
            } else {
                TrafficDirection::Received
            },
            at_ms,
            bytes: json.len() as u64,
            kind: read.kind,
            method: read.method,
            id: read.id,
            request_seq: None,
            elapsed_ms: None,
            json: String::new(),
            truncated: false,
        };
        match (entry.kind, &entry.id) {
            (MessageKind::Request, Some(id)) => self.opened(
                (sent, id.clone()),
                Open {
                    seq,
                    at_ms,
                    method: entry.method.clone(),
                },
            ),
            // A response answers a request that went the other way.
            (MessageKind::Response | MessageKind::Error, Some(id)) => {
                if let Some(open) = self.answered(&(!sent, id.clone())) {
                    entry.request_seq = Some(open.seq);
                    entry.elapsed_ms = Some(at_ms.saturating_sub(open.at_ms));
                    entry.method = open.method;
                }
            }
            _ => {}
        }
        let (json, truncated) = cut(masker.mask(&json));
        entry.json = json;
        entry.truncated = truncated;
        self.push(entry.clone());
        entry
    }

    fn opened(&mut self, key: (bool, String), open: Open) {
        if let Some(again) = self.open.get(&key) {
            // The id used again: the new request is the one its answer will pair with.
            self.open_order.remove(&again.seq);
        } else if self.open.len() >= OPEN_REQUESTS
            && let Some((_, oldest)) = self.open_order.pop_first()
        {
            self.open.remove(&oldest);
        }
        self.open_order.insert(open.seq, key.clone());
        self.open.insert(key, open);
    }

    /// The request `key` names, answered: no longer awaited.
    fn answered(&mut self, key: &(bool, String)) -> Option<Open> {
        let open = self.open.remove(key)?;
        self.open_order.remove(&open.seq);
        Some(open)
    }

    fn push(&mut self, entry: TrafficEntry) {
        self.bytes += entry.json.len();
        self.entries.push_back(entry);
        // The newest always stays: it is cut far below the ring's bound.
        while (self.entries.len() > KEEP || self.bytes > KEEP_BYTES) && self.entries.len() > 1 {
            if let Some(old) = self.entries.pop_front() {
                self.bytes -= old.json.len();
                self.dropped += 1;
            }
        }
    }

    fn log(&self) -> TrafficLog {
        TrafficLog {
            entries: self.entries.iter().cloned().collect(),
            dropped: self.dropped,
            missed: self.missed,
            headers: self.headers.clone(),
        }
    }
}

/// The text cut at [`MAX_JSON_BYTES`] (on a character boundary), and whether it was.
fn cut(mut text: String) -> (String, bool) {
    if text.len() <= MAX_JSON_BYTES {
        return (text, false);
    }
    let mut end = MAX_JSON_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    (text, true)
}

/// What the envelope of a message says.
struct Read {
    kind: MessageKind,
    method: Option<String>,
    id: Option<String>,
}

impl Read {
    fn of(json: &str) -> Self {
        let other = Self {
            kind: MessageKind::Other,
            method: None,
            id: None,
        };
        let Ok(value) = serde_json::from_str::<Value>(json) else {
            return other;
        };
        let Value::Object(message) = value else {
            return Self {
                kind: if value.is_array() {
                    MessageKind::Batch
                } else {
                    MessageKind::Other
                },
                ..other
            };
        };
        let id = message
            .get("id")
            .filter(|id| !id.is_null())
            .map(Value::to_string);
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let kind = match (&method, &id) {
            (Some(_), Some(_)) => MessageKind::Request,
            (Some(_), None) => MessageKind::Notification,
            (None, _) if message.contains_key("error") => MessageKind::Error,
            (None, Some(_)) => MessageKind::Response,
            (None, None) => MessageKind::Other,
        };
        Self { kind, method, id }
    }
}

/// Every server's traffic, and a stream of each message as it is recorded.
#[derive(Clone)]
pub struct TrafficBook {
    servers: Arc<Mutex<HashMap<String, Arc<Mutex<Ring>>>>>,
    added: broadcast::Sender<TrafficEntry>,
}

impl Default for TrafficBook {
    fn default() -> Self {
        Self {
            servers: Arc::default(),
            added: broadcast::channel(1024).0,
        }
    }
}

impl TrafficBook {
    /// Each message as it is recorded, whatever its server.
    pub fn subscribe(&self) -> broadcast::Receiver<TrafficEntry> {
        self.added.subscribe()
    }

    /// The server's traffic so far.
    pub fn of(&self, server: &str) -> TrafficLog {
        let ring = self.servers.lock().get(server).cloned();
        ring.map(|ring| ring.lock().log())
            .unwrap_or_else(|| Ring::default().log())
    }

    /// Empties what is kept of the server's traffic, as the person asked; its headers stay,
    /// and a request sent before still gets its response paired and timed.
    pub fn clear(&self, server: &str) {
        let ring = self.servers.lock().get(server).cloned();
        if let Some(ring) = ring {
            let mut ring = ring.lock();
            ring.entries.clear();
            (ring.bytes, ring.dropped, ring.missed) = (0, 0, 0);
        }
    }

    /// Forgets a server's traffic (it was removed). A run of it still stopping records
    /// into a ring nobody reads any more.
    pub fn remove(&self, server: &str) {
        self.servers.lock().remove(server);
    }

    /// Records what one run of the server exchanges, until its connection ends. The
    /// headers are those this run sends, already masked.
    pub async fn record(
        self,
        server: String,
        headers: Vec<ShownHeader>,
        masker: Masker,
        mut seen: TrafficReceiver,
    ) {
        let ring = self
            .servers
            .lock()
            .entry(server.clone())
            .or_default()
            .clone();
        ring.lock().headers = headers;
        let mut missed = 0;
        while let Some(observed) = seen.recv().await {
            let entry = {
                let mut ring = ring.lock();
                let now_missed = seen.dropped();
                ring.missed += now_missed - missed;
                missed = now_missed;
                ring.record(&server, observed, &masker)
            };
            let _ = self.added.send(entry);
        }
        ring.lock().missed += seen.dropped() - missed;
    }
}

/// A header as the window may show it: the value of one that carries a credential masked.
pub fn shown_header(name: &str, value: &str) -> ShownHeader {
    ShownHeader {
        name: name.to_owned(),
        value: masking::header(name, value),
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use switchboard_mcp::traffic::Seen;

    use super::*;

    fn observed(direction: Direction, json: &str, after_ms: u64) -> Observed {
        Observed {
            direction,
            at: SystemTime::UNIX_EPOCH + Duration::from_millis(1_000 + after_ms),
            message: Seen::Text(json.to_owned()),
        }
    }

    #[test]
    fn a_response_is_paired_with_the_request_that_went_the_other_way() {
        let mut ring = Ring::default();
        let masker = Masker::default();
        let sent = ring.record(
            "s",
            observed(
                Direction::Sent,
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
                0,
            ),
            &masker,
        );
        // The server's own request with the same id is another exchange.
        let theirs = ring.record(
            "s",
            observed(
                Direction::Received,
                r#"{"jsonrpc":"2.0","id":1,"method":"roots/list"}"#,
                5,
            ),
            &masker,
        );
        let answer = ring.record(
            "s",
            observed(
                Direction::Received,
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
                42,
            ),
            &masker,
        );
        let ours = ring.record(
            "s",
            observed(
                Direction::Sent,
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}"#,
                50,
            ),
            &masker,
        );
        assert_eq!(
            (sent.kind, sent.method.as_deref(), sent.id.as_deref()),
            (MessageKind::Request, Some("tools/list"), Some("1"))
        );
        assert_eq!(
            (
                answer.kind,
                answer.method.as_deref(),
                answer.request_seq,
                answer.elapsed_ms
            ),
            (
                MessageKind::Response,
                Some("tools/list"),
                Some(sent.seq),
                Some(42)
            )
        );
        assert_eq!(
            (
                ours.kind,
                ours.method.as_deref(),
                ours.request_seq,
                ours.elapsed_ms
            ),
            (
                MessageKind::Error,
                Some("roots/list"),
                Some(theirs.seq),
                Some(45)
            )
        );
        // A second answer to the same id pairs with nothing.
        let late = ring.record(
            "s",
            observed(
                Direction::Received,
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
                60,
            ),
            &masker,
        );
        assert_eq!(late.request_seq, None);
    }

    /// However many requests were answered before, at most [`OPEN_REQUESTS`] unanswered ones
    /// are remembered, and the oldest is the one forgotten: its late answer shows unpaired.
    #[test]
    fn requests_awaiting_answers_are_bounded_however_many_were_answered_before() {
        let mut ring = Ring::default();
        let masker = Masker::default();
        let mut message =
            |direction, json: String| ring.record("s", observed(direction, &json, 0), &masker);
        for id in 0..3000 {
            message(
                Direction::Sent,
                format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#),
            );
            message(
                Direction::Received,
                format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#),
            );
        }
        let unanswered = (10_000..10_000 + OPEN_REQUESTS + 5).map(|id| {
            message(
                Direction::Sent,
                format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#),
            )
        });
        let first = unanswered.collect::<Vec<_>>()[0].seq;
        let late = |ring: &mut Ring, id: usize| {
            let json = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#);
            ring.record("s", observed(Direction::Received, &json, 0), &masker)
                .request_seq
        };
        assert_eq!(ring.open.len(), OPEN_REQUESTS);
        assert_eq!(ring.open_order.len(), OPEN_REQUESTS);
        assert_eq!(late(&mut ring, 10_000), None, "the oldest was forgotten");
        assert_eq!(late(&mut ring, 10_005), Some(first + 5));
    }

    #[test]
    fn the_ring_keeps_the_newest_within_its_count_and_bytes_and_counts_the_rest() {
        let mut ring = Ring::default();
        let masker = Masker::default();
        let note = |n: usize| {
            observed(
                Direction::Received,
                &format!(
                    r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"n":{n}}}}}"#
                ),
                0,
            )
        };
        for n in 0..KEEP + 7 {
            ring.record("s", note(n), &masker);
        }
        let log = ring.log();
        assert_eq!((log.entries.len(), log.dropped), (KEEP, 7));
        assert!(log.entries[0].json.contains(r#""n":7"#));

        let big = format!(
            r#"{{"jsonrpc":"2.0","id":9,"result":{{"text":"{}"}}}}"#,
            "x".repeat(1 << 20)
        );
        for _ in 0..20 {
            ring.record("s", observed(Direction::Received, &big, 0), &masker);
        }
        let log = ring.log();
        // Twenty cut messages take more than the bytes bound: fewer than the count stay.
        assert!(ring.bytes <= KEEP_BYTES, "{}", ring.bytes);
        assert!(log.entries.len() < 20, "{}", log.entries.len());
        let newest = log.entries.last().expect("the newest stays");
        assert!(newest.truncated);
        assert_eq!(newest.json.len(), MAX_JSON_BYTES);
        assert_eq!(newest.bytes, big.len() as u64);
        assert_eq!(log.dropped as usize + log.entries.len(), KEEP + 27);
    }

    #[test]
    fn secrets_are_masked_raw_escaped_after_a_scheme_and_in_addresses() {
        let masker = Masker::new(["s3cr3t-\"v\"", "Bearer tok-12345", "ab"]);
        let text = r#"{"env":"s3cr3t-\"v\"","h":"tok-12345","u":"https://h/?token=zz","ab":"ab"}"#;
        assert_eq!(
            masker.mask(text),
            r#"{"env":"••••","h":"••••","u":"https://h/?token=…","ab":"ab"}"#
        );
    }
}
