//! Streamable HTTP: every message is a POST to the one endpoint; the answer comes as a
//! JSON body or as an event stream, which is resumed with `Last-Event-ID` if it drops.
//! An optional GET stream carries what the server sends unprompted.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::Method;
use reqwest::header::{ACCEPT, CONTENT_LENGTH, CONTENT_TYPE};

use super::authorized::authorized;
use super::driver::{Envelope, Sent};
use super::events::{Cursor, EventReader, Fault, content_type, is_event_stream, is_message};
use super::{ACK_TIMEOUT, Replay, Shared, classify, closed, status_error};
use crate::jsonrpc::{FrameError, Kind, RequestId, Unreadable};
use crate::transport::{Inbound, TransportError};
use crate::types::method;

/// How long to wait before resuming a stream when the server did not say (`retry:`).
const DEFAULT_RETRY: Duration = Duration::from_secs(1);
/// Resumptions of one answer stream, or reconnections of the GET stream, before giving up.
const MAX_RECONNECTS: u32 = 5;
/// GET streams in a row that close at once bringing nothing, before giving up on them.
const MAX_EMPTY_STREAMS: u32 = 10;
/// The longest pause before the GET stream is opened again (unless the server asks for
/// longer); a stream that lived this long did not close at once.
const LONGEST_PAUSE: Duration = Duration::from_secs(60);

/// Sends one message; after a 404 on a live session, opens a new session and sends it
/// again, so that the caller never sees the expiry.
pub async fn send(
    shared: &Arc<Shared>,
    body: String,
    envelope: &Envelope,
    sent: Option<&Sent>,
) -> Result<(), TransportError> {
    let initializing = envelope.is(method::INITIALIZE);
    if initializing {
        shared.state(|s| {
            s.initialize = Some(body.clone());
            s.initialize_id = envelope.id.clone();
            s.session_id = None;
        });
    }
    let session = shared.state(|s| s.session_id.clone());
    let outcome = match post(shared, &body, envelope, sent).await {
        // An answer to a request of the old session cannot be delivered in a new one.
        Err(TransportError::Status { status: 404, .. })
            if session.is_some() && !initializing && envelope.method.is_some() =>
        {
            renewed(shared, session).await?;
            // A page cursor belongs to the old session: the walk starts again.
            if envelope.has_cursor() {
                return Err(TransportError::SessionRenewed);
            }
            post(shared, &body, envelope, sent).await
        }
        other => other,
    };
    if outcome.is_ok() {
        shared.state(|s| s.restorable.note(envelope));
    }
    outcome
}

/// Posts one message, signing in first where the server asks (see `authorized`).
async fn post(
    shared: &Shared,
    body: &str,
    envelope: &Envelope,
    sent: Option<&Sent>,
) -> Result<(), TransportError> {
    authorized(shared, || post_once(shared, body, envelope, sent)).await
}

async fn post_once(
    shared: &Shared,
    body: &str,
    envelope: &Envelope,
    sent: Option<&Sent>,
) -> Result<(), TransportError> {
    let url = shared.url.clone();
    // An `initialize` opens a new session: it carries no id, not even the expired one.
    let session = if envelope.is(method::INITIALIZE) {
        None
    } else {
        shared.state(|s| s.session_id.clone())
    };
    let request = shared
        .request_in(session, Method::POST, url.clone())
        .header(ACCEPT, "application/json, text/event-stream")
        .header(CONTENT_TYPE, "application/json");
    let mut request = match sent {
        Some(sent) => request
            .header(CONTENT_LENGTH, body.len())
            .body(sent.body(body.as_bytes().to_vec())),
        None => request.body(body.to_owned()),
    };
    if let Some(version) = envelope.stateless_version() {
        request = stateless_headers(shared, request, version, envelope);
    }
    // A request's answer starts, and a JSON one arrives in full, within the read timeout
    // (an event stream then lasts as long as its caller waits); anything else is only
    // acknowledged (202).
    let limit = match envelope.request_id() {
        Some(_) => shared.read_timeout,
        None => ACK_TIMEOUT,
    };
    let deadline = tokio::time::Instant::now() + limit;
    let timed_out = |_| TransportError::Timeout {
        url: url.to_string(),
        seconds: Some(limit.as_secs()),
    };
    let response = tokio::time::timeout_at(deadline, request.send())
        .await
        .map_err(timed_out)?
        .map_err(|e| classify(&url, &e))?;
    if let Some(sent) = sent {
        sent.heard();
    }
    if !response.status().is_success() {
        if envelope.stateless_version().is_some() {
            return stateless_refusal(shared, &url, response, envelope).await;
        }
        return Err(status_error(&url, response).await);
    }
    if envelope.stateless_version().is_some() {
        shared.state(|s| s.stateless = true);
    }
    if envelope.is(method::INITIALIZE) {
        let session = response
            .headers()
            .get("Mcp-Session-Id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        shared.state(|s| s.session_id = session);
    }
    if is_event_stream(&response) {
        // 2026-07-28 streams are not resumed: a broken one loses its request.
        let resumable = envelope.stateless_version().is_none();
        return read_answer_stream(shared, response, envelope.request_id(), resumable).await;
    }
    let kind = content_type(&response);
    let text = tokio::time::timeout_at(deadline, read_body(response, shared.max_message_bytes))
        .await
        .map_err(timed_out)?
        .map_err(|e| classify(&url, &e))?;
    let text = match text {
        Body::Text(text) => text,
        Body::TooLarge { bytes } => {
            let error = FrameError::TooLarge {
                bytes,
                limit: shared.max_message_bytes,
            };
            return match envelope.request_id() {
                Some(id) => {
                    let unreadable = Unreadable {
                        id: Some(id.clone()),
                        kind: Kind::Response,
                        error,
                    };
                    shared.deliver(Inbound::Unreadable(unreadable)).await;
                    Ok(())
                }
                None => Err(TransportError::InvalidBody(error.to_string())),
            };
        }
    };
    if text.trim().is_empty() {
        // 202 Accepted for a notification or an answer; for a request, an empty body is a fault.
        return match envelope.request_id() {
            Some(_) => Err(TransportError::InvalidBody(
                "an empty answer to a request".into(),
            )),
            None => Ok(()),
        };
    }
    if !kind.starts_with("application/json") {
        return Err(TransportError::InvalidBody(format!(
            "expected JSON or an event stream, got {kind:?}: {}",
            super::excerpt(&text)
        )));
    }
    let answered = shared
        .deliver_frame(&text, envelope.request_id(), true)
        .await?;
    match envelope.request_id() {
        // Nothing else will answer it: waiting would only end in a timeout.
        Some(id) if !answered.contains(id) => Err(TransportError::InvalidBody(format!(
            "the answer to request {id} carried no response to it: {}",
            super::excerpt(&text)
        ))),
        _ => Ok(()),
    }
}

/// The headers a 2026-07-28 request carries: the revision, the method and name, and the
/// tool arguments the tool's schema marks for mirroring.
fn stateless_headers(
    shared: &Shared,
    mut request: reqwest::RequestBuilder,
    version: &str,
    envelope: &Envelope,
) -> reqwest::RequestBuilder {
    request = request.header("MCP-Protocol-Version", version);
    for (name, value) in envelope.standard_headers() {
        request = request.header(name, value);
    }
    if let Some((tool, arguments)) = envelope.tool_call() {
        let marks = shared.state(|s| s.tool_marks.get(tool).cloned());
        for (name, value) in super::headers::param_headers(&marks.unwrap_or_default(), arguments) {
            request = request.header(name, value);
        }
    }
    if envelope.is(method::TOOLS_LIST)
        && let Some(id) = envelope.request_id()
    {
        shared.state(|s| s.tools_lists.insert(id.clone()));
    }
    request
}

/// A 2026-07-28 server refuses a request with an HTTP error status and a JSON-RPC error
/// in the body (an unsupported revision, a header mismatch, an unknown method): that
/// error is the request's answer. Any other refusal is a failure of the transport (and,
/// for the first request, a sign of a server of an older revision).
async fn stateless_refusal(
    shared: &Shared,
    url: &reqwest::Url,
    response: reqwest::Response,
    envelope: &Envelope,
) -> Result<(), TransportError> {
    let status = response.status().as_u16();
    if status == 401 || status == 403 {
        return Err(status_error(url, response).await);
    }
    let body = super::error_body(response).await;
    let code = serde_json::from_str::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v.get("error")?.get("code")?.as_i64());
    match (code, envelope.request_id()) {
        (Some(code), Some(_)) => {
            if crate::jsonrpc::code::is_stateless(code) {
                shared.state(|s| s.stateless = true);
            }
            shared
                .deliver_frame(&body, envelope.request_id(), true)
                .await
                .map(drop)
        }
        _ => Err(TransportError::Status {
            url: url.to_string(),
            status,
            body: super::excerpt(body.trim()),
        }),
    }
}

/// A body, or how large it was when it passed the limit.
enum Body {
    Text(String),
    TooLarge { bytes: usize },
}

/// Reads a body up to `limit` bytes; a larger one is let go at once (its connection
/// closed), never kept.
async fn read_body(response: reqwest::Response, limit: usize) -> Result<Body, reqwest::Error> {
    if let Some(length) = response.content_length().filter(|&n| n > limit as u64) {
        let bytes = usize::try_from(length).unwrap_or(usize::MAX);
        return Ok(Body::TooLarge { bytes });
    }
    let mut stream = response.bytes_stream();
    let mut body = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk?;
        if body.len() + chunk.len() > limit {
            let bytes = body.len() + chunk.len();
            return Ok(Body::TooLarge { bytes });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Body::Text(match String::from_utf8(body) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }))
}

/// Reads an answer stream until it carries the answer to `wanted`; a stream that drops
/// first is resumed with `Last-Event-ID` after the server's `retry` delay. A server may
/// close streams on purpose and expect to be polled: only resumptions that bring nothing
/// new count against the limit.
async fn read_answer_stream(
    shared: &Shared,
    response: reqwest::Response,
    wanted: Option<&RequestId>,
    resumable: bool,
) -> Result<(), TransportError> {
    let mut cursor = Cursor::default();
    let mut reader = EventReader::new(response, shared.max_message_bytes);
    let mut idle = 0;
    let _watch = wanted.map(|id| AnswerWatch::new(shared, id));
    loop {
        let before = cursor.last_id.clone();
        let delivered = match pump(shared, &mut reader, &mut cursor, wanted).await {
            Pumped::Answered => return Ok(()),
            Pumped::Ended { delivered } => delivered,
        };
        let Some(wanted) = wanted else { return Ok(()) };
        // The answer may have come on another stream (the server's GET stream).
        if shared.state(|s| s.answered.contains(wanted)) {
            return Ok(());
        }
        let Some(last_id) = cursor.last_id.clone().filter(|_| resumable) else {
            return Err(TransportError::StreamEnded);
        };
        if delivered || cursor.last_id != before {
            idle = 0;
        } else {
            idle += 1;
            if idle > MAX_RECONNECTS {
                return Err(TransportError::StreamEnded);
            }
        }
        pause(shared, cursor.retry.unwrap_or(DEFAULT_RETRY)).await;
        shared.log(format!(
            "resuming the stream of request {wanted} after event {last_id}"
        ));
        let response = open_stream(shared, Some(&last_id)).await?;
        reader = EventReader::new(response, shared.max_message_bytes);
    }
}

/// How reading a stream ended.
enum Pumped {
    /// It carried the answer to the request it was read for.
    Answered,
    /// It ended or broke first; `delivered` if it carried any message.
    Ended { delivered: bool },
}

/// Delivers the messages of a stream until it ends or the transport closes.
async fn pump(
    shared: &Shared,
    reader: &mut EventReader,
    cursor: &mut Cursor,
    wanted: Option<&RequestId>,
) -> Pumped {
    let mut delivered = false;
    loop {
        let event = tokio::select! {
            event = reader.next(cursor) => event,
            () = shared.closed.cancelled() => return Pumped::Ended { delivered },
        };
        let Some(event) = event else {
            return Pumped::Ended { delivered };
        };
        match event {
            Ok(event) if is_message(&event) => {
                delivered = true;
                match shared.deliver_frame(&event.data, wanted, false).await {
                    Ok(answered) if wanted.is_some_and(|w| answered.contains(w)) => {
                        return Pumped::Answered;
                    }
                    Ok(_) => {}
                    Err(err) => shared.log(format!("skipped an event: {err}")),
                }
            }
            Ok(_) => {}
            Err(Fault::TooLarge { bytes, limit }) => {
                shared.log(format!(
                    "skipped an event of {bytes} bytes or more: over the limit of {limit}"
                ));
                // On a request's own stream, the event too large to read was its answer.
                if let Some(id) = wanted {
                    let error = FrameError::TooLarge { bytes, limit };
                    let unreadable = Unreadable {
                        id: Some(id.clone()),
                        kind: Kind::Response,
                        error,
                    };
                    shared.deliver(Inbound::Unreadable(unreadable)).await;
                    return Pumped::Answered;
                }
            }
            Err(Fault::Broken(err)) => {
                shared.log(format!("the event stream broke: {err}"));
                return Pumped::Ended { delivered };
            }
        }
    }
}

/// Notes, while a request's stream is read, whether its answer arrived on any stream.
struct AnswerWatch<'a> {
    shared: &'a Shared,
    id: RequestId,
}

impl<'a> AnswerWatch<'a> {
    fn new(shared: &'a Shared, id: &RequestId) -> Self {
        shared.state(|s| s.awaited.insert(id.clone()));
        Self {
            shared,
            id: id.clone(),
        }
    }
}

impl Drop for AnswerWatch<'_> {
    fn drop(&mut self) {
        self.shared.state(|s| {
            s.awaited.remove(&self.id);
            s.answered.remove(&self.id);
        });
    }
}

/// Opens a GET event stream, resuming after `last_id` if given; never once the transport
/// has ended.
async fn open_stream(
    shared: &Shared,
    last_id: Option<&str>,
) -> Result<reqwest::Response, TransportError> {
    if shared.closed.is_cancelled() {
        return Err(closed());
    }
    let url = shared.url.clone();
    let mut request = shared
        .request(Method::GET, url.clone())
        .header(ACCEPT, "text/event-stream");
    if let Some(id) = last_id {
        request = request.header("Last-Event-ID", id);
    }
    let response = tokio::time::timeout(ACK_TIMEOUT, request.send())
        .await
        .map_err(|_| TransportError::Timeout {
            url: url.to_string(),
            seconds: Some(ACK_TIMEOUT.as_secs()),
        })?
        .map_err(|e| classify(&url, &e))?;
    if !response.status().is_success() {
        return Err(status_error(&url, response).await);
    }
    if !is_event_stream(&response) {
        return Err(TransportError::InvalidBody(format!(
            "expected an event stream, got {:?}",
            content_type(&response)
        )));
    }
    Ok(response)
}

/// Waits `delay`, or less if the transport closes meanwhile.
async fn pause(shared: &Shared, delay: Duration) {
    tokio::select! {
        () = tokio::time::sleep(delay) => {}
        () = shared.closed.cancelled() => {}
    }
}

/// Opens the GET stream for what the server sends outside any request; `None` if the
/// server offers none (400, 404, 405) or it cannot be opened now.
pub async fn open_listening(shared: &Shared) -> Option<reqwest::Response> {
    match open_stream(shared, None).await {
        Ok(response) => Some(response),
        Err(TransportError::Status {
            status: 400 | 404 | 405,
            ..
        }) => None,
        Err(err) => {
            shared.log(format!(
                "the server's event stream could not be opened: {err}"
            ));
            None
        }
    }
}

/// Reads the GET stream; a stream that ends is reopened where it stopped. A stream that
/// closes at once bringing nothing (no message, no new event id) is reopened ever more
/// slowly, the pause doubling up to a minute, and after `MAX_EMPTY_STREAMS` of them in a
/// row the client stops listening: a server that refuses the stream that way would
/// otherwise be asked again every second for ever.
pub async fn listen(shared: Arc<Shared>, first: reqwest::Response) {
    // A renewed session opens a stream of its own.
    let session = shared.state(|s| s.session_id.clone());
    let mut cursor = Cursor::default();
    let mut reader = EventReader::new(first, shared.max_message_bytes);
    let mut failures = 0;
    let mut empty = 0;
    loop {
        let before = cursor.last_id.clone();
        let opened = tokio::time::Instant::now();
        let delivered = match pump(&shared, &mut reader, &mut cursor, None).await {
            Pumped::Ended { delivered } => delivered,
            Pumped::Answered => true,
        };
        if delivered || cursor.last_id != before || opened.elapsed() >= LONGEST_PAUSE {
            empty = 0;
        } else {
            empty += 1;
            if empty >= MAX_EMPTY_STREAMS {
                shared.log(format!(
                    "the server's event stream closed at once, bringing nothing, {empty} times \
                     in a row; stopped listening to it"
                ));
                return;
            }
        }
        loop {
            let base = cursor.retry.unwrap_or(DEFAULT_RETRY);
            pause(&shared, backoff(base, failures + empty.saturating_sub(1))).await;
            if shared.closed.is_cancelled() || shared.state(|s| s.session_id != session) {
                return;
            }
            match open_stream(&shared, cursor.last_id.as_deref()).await {
                Ok(response) => {
                    failures = 0;
                    reader = EventReader::new(response, shared.max_message_bytes);
                    break;
                }
                Err(TransportError::Status {
                    status: 400 | 404 | 405,
                    ..
                }) => return,
                Err(err) => {
                    failures += 1;
                    shared.log(format!("the server's event stream failed: {err}"));
                    if failures >= MAX_RECONNECTS {
                        shared.log("stopped listening to the server's event stream".into());
                        return;
                    }
                }
            }
        }
    }
}

/// `base` doubled `doublings` times, at most a minute (or `base`, if the server asked for
/// a longer pause).
fn backoff(base: Duration, doublings: u32) -> Duration {
    base.saturating_mul(1 << doublings.min(16))
        .min(LONGEST_PAUSE.max(base))
}

/// Waits until the session `expired` is replaced, starting its renewal unless one is under
/// way. The renewal runs in a task of its own, so that a caller who stops waiting (a call
/// cancelled) leaves it to finish; until the new id is known, the old one stays in use,
/// and what meets the expiry meanwhile waits for the same renewal.
async fn renewed(shared: &Arc<Shared>, expired: Option<String>) -> Result<(), TransportError> {
    let (mut outcome, start) = shared.state(|s| match &s.renewal {
        Some(renewal) if renewal.expired == expired => (Some(renewal.outcome.clone()), None),
        // Replaced already, by a new `initialize` of the connection's.
        _ if s.session_id != expired => (None, None),
        _ => {
            let (done, outcome) = tokio::sync::watch::channel(None);
            s.renewal = Some(super::Renewal {
                expired: expired.clone(),
                outcome: outcome.clone(),
            });
            (Some(outcome), Some(done))
        }
    });
    let Some(outcome) = outcome.as_mut() else {
        return Ok(());
    };
    if let Some(done) = start {
        let renewing = shared.clone();
        // Refused once the transport has ended: the outcome then never comes.
        shared.tasks.spawn(async move {
            done.send_replace(Some(renew_session(&renewing).await));
        });
    }
    match outcome.wait_for(Option::is_some).await {
        Ok(ended) => ended.clone().unwrap_or(Ok(())),
        Err(_) => Err(closed()),
    }
}

/// Opens a new session with the `initialize` first sent, then restores what the server
/// forgot with the old one (subscriptions, the log level) and opens its event stream again.
async fn renew_session(shared: &Arc<Shared>) -> Result<(), TransportError> {
    let initialize = shared
        .state(|s| s.initialize.clone())
        .ok_or_else(|| TransportError::SessionLost("no initialize request to replay".into()))?;
    shared.log("the server ended the session; opening a new one".into());
    let lost = |e: TransportError| TransportError::SessionLost(e.to_string());
    // The replay has an id of its own: its answer describes the new session to the
    // connection, instead of passing for a late answer.
    let id = shared.replay_id(Replay::Initialize);
    let initialize = with_id(&initialize, &id).map_err(lost)?;
    // The old id is kept until the answer names the new one.
    shared.state(|s| s.initialize_id = Some(id.clone()));
    post(shared, &initialize, &Envelope::of(&initialize), None)
        .await
        .map_err(lost)?;
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    post(shared, initialized, &Envelope::of(initialized), None)
        .await
        .map_err(lost)?;
    for request in shared.state(|s| s.restorable.requests()) {
        let id = shared.replay_id(Replay::Restore);
        let Ok(body) = with_id(&request, &id) else {
            continue;
        };
        if let Err(err) = post(shared, &body, &Envelope::of(&body), None).await {
            shared.log(format!(
                "could not restore {request} in the new session: {err}"
            ));
        }
    }
    if let Some(stream) = open_listening(shared).await {
        shared.tasks.spawn(listen(shared.clone(), stream));
    }
    Ok(())
}

/// A request as JSON text, with another id.
fn with_id(request: &str, id: &RequestId) -> Result<String, TransportError> {
    let mut value: serde_json::Value = serde_json::from_str(request)
        .map_err(|e| TransportError::Other(format!("a request to replay is not JSON: {e}")))?;
    value["id"] = serde_json::to_value(id).unwrap_or_default();
    Ok(value.to_string())
}

/// Ends the session with DELETE, as the server may expect; its answer does not matter.
pub async fn end_session(shared: &Shared) {
    let session = shared.state(|s| (s.flavor, s.session_id.clone()));
    if let (Some(super::HttpFlavor::StreamableHttp), Some(_)) = session {
        let request = shared.request(Method::DELETE, shared.url.clone());
        let _ = tokio::time::timeout(Duration::from_secs(2), request.send()).await;
    }
}
