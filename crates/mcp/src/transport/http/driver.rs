//! The driver: takes each outgoing message, settles the transport on the first one, and
//! sends the rest concurrently.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use serde::Deserialize;
use tokio::sync::{mpsc, watch};
use tokio::task::AbortHandle;

use super::{HttpFlavor, HttpMode, Shared, legacy, streamable};
use crate::jsonrpc::RequestId;
use crate::transport::{Inbound, TransportError};
use crate::types::method;

/// The parts of an outgoing message the transport needs to know.
#[derive(Debug, Default, Deserialize)]
pub struct Envelope {
    pub id: Option<RequestId>,
    pub method: Option<String>,
    #[serde(default)]
    params: Option<Params>,
}

/// The params the transport looks at: which request a `notifications/cancelled` names,
/// whether a list request carries a page cursor, what a new session must restore, and
/// what a stateless request's `Mcp-Name` mirrors.
#[derive(Debug, Default, Deserialize)]
struct Params {
    #[serde(rename = "requestId")]
    request_id: Option<RequestId>,
    cursor: Option<serde::de::IgnoredAny>,
    pub uri: Option<String>,
    pub level: Option<String>,
    name: Option<String>,
    #[serde(rename = "taskId")]
    task_id: Option<String>,
    arguments: Option<serde_json::Value>,
    #[serde(rename = "_meta")]
    meta: Option<RequestMeta>,
}

/// The revision a 2026-07-28 request names in its `_meta`.
#[derive(Debug, Default, Deserialize)]
struct RequestMeta {
    #[serde(rename = "io.modelcontextprotocol/protocolVersion")]
    protocol_version: Option<String>,
}

impl Envelope {
    pub fn of(body: &str) -> Self {
        serde_json::from_str(body).unwrap_or_default()
    }

    /// A request of ours (not a notification, not an answer to the server).
    pub fn request_id(&self) -> Option<&RequestId> {
        self.method.as_ref().and(self.id.as_ref())
    }

    pub fn is(&self, name: &str) -> bool {
        self.method.as_deref() == Some(name)
    }

    pub fn has_cursor(&self) -> bool {
        self.params.as_ref().is_some_and(|p| p.cursor.is_some())
    }

    /// The `uri` param (of a subscription).
    pub fn uri(&self) -> Option<&str> {
        self.params.as_ref()?.uri.as_deref()
    }

    /// The `level` param (of `logging/setLevel`).
    pub fn level(&self) -> Option<&str> {
        self.params.as_ref()?.level.as_deref()
    }

    /// The revision a stateless (2026-07-28) request names; `None` for the stateful era.
    pub fn stateless_version(&self) -> Option<&str> {
        self.params
            .as_ref()?
            .meta
            .as_ref()?
            .protocol_version
            .as_deref()
    }

    /// The standard headers of a stateless request: `Mcp-Method` and, where the revision
    /// asks for it, `Mcp-Name`.
    pub fn standard_headers(&self) -> Vec<(&'static str, String)> {
        let Some(method) = &self.method else {
            return Vec::new();
        };
        let mut headers = vec![("Mcp-Method", method.clone())];
        let name = self.params.as_ref().and_then(|p| {
            use crate::types::method as m;
            match method.as_str() {
                m::TOOLS_CALL | m::PROMPTS_GET => p.name.as_deref(),
                m::RESOURCES_READ => p.uri.as_deref(),
                m::TASKS_GET | m::TASKS_UPDATE | m::TASKS_CANCEL => p.task_id.as_deref(),
                _ => None,
            }
        });
        if let Some(name) = name {
            headers.push(("Mcp-Name", super::headers::encode_value(name)));
        }
        headers
    }

    /// The tool a `tools/call` names, and its arguments.
    pub fn tool_call(&self) -> Option<(&str, Option<&serde_json::Value>)> {
        if !self.is(method::TOOLS_CALL) {
            return None;
        }
        let params = self.params.as_ref()?;
        Some((params.name.as_deref()?, params.arguments.as_ref()))
    }

    fn cancels(&self) -> Option<&RequestId> {
        if !self.is(method::CANCELLED) {
            return None;
        }
        self.params.as_ref()?.request_id.as_ref()
    }
}

/// How far a request's exchange has come, as its cancellation waits on it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Progress {
    Waiting,
    /// Its body was handed over in full.
    Written,
    /// The server's answer began, or the exchange ended.
    Heard,
}

/// Says how far a request has come; it only ever goes forward (a request sent again after
/// a session renewal is not taken back to unwritten).
pub struct Sent(watch::Sender<Progress>);

impl Sent {
    fn reach(sender: &watch::Sender<Progress>, progress: Progress) {
        sender.send_if_modified(|now| {
            let further = progress > *now;
            *now = (*now).max(progress);
            further
        });
    }

    /// The server's answer began (its status and headers came).
    pub fn heard(&self) {
        Self::reach(&self.0, Progress::Heard);
    }

    /// A body that marks the request written once it is taken to be written.
    pub fn body(&self, bytes: Vec<u8>) -> reqwest::Body {
        let sent = self.0.clone();
        let once = futures_util::stream::iter([bytes]).map(move |bytes| {
            Self::reach(&sent, Progress::Written);
            Ok::<_, std::convert::Infallible>(bytes)
        });
        reqwest::Body::wrap_stream(once)
    }
}

/// A request whose exchange is under way.
struct InFlight {
    sent: watch::Receiver<Progress>,
    task: AbortHandle,
    /// A request of the 2026-07-28 revision.
    stateless: bool,
}

/// How long a cancellation waits for its request to leave first.
const SEND_WAIT: Duration = Duration::from_secs(10);
/// How long it then waits for the server's answer to begin: the request and its
/// cancellation go on two connections, which a server may read in either order, so only an
/// answer begun says the request was read. A server that answers nothing until its result
/// is ready is told after this.
const HEAR_WAIT: Duration = Duration::from_secs(2);

/// Reads the connection's messages and starts each one's exchange. Nothing waits here for
/// a server but `initialize` and `initialized`, which the lifecycle puts before anything
/// else (and the transport's end): every other message, the `server/discover` probe
/// included, is sent in a task of its own with its own time limit, so that a server that
/// never answers one POST holds up no other request, notification or cancellation.
pub async fn run(shared: Arc<Shared>, mode: HttpMode, mut to_server: mpsc::Receiver<String>) {
    let mut listening = false;
    let mut in_flight: HashMap<RequestId, InFlight> = HashMap::new();
    loop {
        let body = tokio::select! {
            body = to_server.recv() => match body {
                Some(body) => body,
                None => return,
            },
            () = shared.closed.cancelled() => return,
        };
        let envelope = Envelope::of(&body);
        if let Some(id) = envelope.cancels()
            && let Some(flight) = in_flight.remove(id)
        {
            // 2026-07-28: closing the request's stream is its cancellation.
            if flight.stateless {
                flight.task.abort();
            } else if shared
                .tasks
                .spawn(cancel(shared.clone(), flight, body, envelope))
                .is_none()
            {
                return;
            }
            continue;
        }
        // A stateless answer settles Streamable HTTP before the probe's task says so.
        let flavor = shared.state(|s| {
            s.flavor
                .or(s.stateless.then_some(HttpFlavor::StreamableHttp))
        });
        let Some(flavor) = flavor else {
            // A first request of the 2026-07-28 revision (the `server/discover` probe)
            // settles Streamable HTTP only if the server answers as a stateless one; else
            // the `initialize` that follows decides, with its HTTP+SSE fallback.
            if envelope.stateless_version().is_some() && mode != HttpMode::LegacySse {
                let Some(id) = envelope.request_id().cloned() else {
                    shared.log("a notification before the server's era is known: not sent".into());
                    continue;
                };
                let shared_ = shared.clone();
                let (sent, left) = watch::channel(Progress::Waiting);
                let probe = async move {
                    match streamable::send(&shared_, body, &envelope, None).await {
                        Ok(()) if shared_.state(|s| s.stateless) => {
                            shared_.state(|s| s.flavor = Some(HttpFlavor::StreamableHttp));
                        }
                        Ok(()) => {}
                        Err(error) => report(&shared_, &envelope, error).await,
                    }
                    sent.send_replace(Progress::Heard);
                };
                let Some(task) = shared.tasks.spawn(probe) else {
                    return;
                };
                in_flight.insert(
                    id,
                    InFlight {
                        sent: left,
                        task,
                        stateless: true,
                    },
                );
                continue;
            }
            // The first exchange (`initialize`) decides the transport; nothing else goes
            // out before it is answered, as the lifecycle requires anyway.
            tokio::select! {
                outcome = first_exchange(&shared, mode, body, &envelope) => {
                    if let Err(error) = outcome {
                        report(&shared, &envelope, error).await;
                    }
                }
                () = shared.closed.cancelled() => return,
            }
            continue;
        };
        let Some(id) = envelope.request_id().cloned() else {
            if !envelope.is(method::INITIALIZED) {
                // Notifications and answers go each on its own: one the server never
                // acknowledges holds up no other (it fails at its own time limit).
                let shared_ = shared.clone();
                let exchange = async move { send(&shared_, flavor, body, &envelope, None).await };
                if shared.tasks.spawn(exchange).is_none() {
                    return;
                }
                continue;
            }
            // A server must see `initialized` before the requests that follow it.
            tokio::select! {
                () = send(&shared, flavor, body, &envelope, None) => {}
                () = shared.closed.cancelled() => return,
            }
            if flavor == HttpFlavor::StreamableHttp && !listening {
                listening = true;
                // Open the server's GET stream before any request follows, so that nothing
                // it sends unprompted from then on can be missed.
                let opened = tokio::select! {
                    opened = streamable::open_listening(&shared) => opened,
                    () = shared.closed.cancelled() => return,
                };
                if let Some(stream) = opened {
                    shared
                        .tasks
                        .spawn(streamable::listen(shared.clone(), stream));
                }
            }
            continue;
        };
        // Requests run concurrently: a slow call never holds up another.
        let stateless = envelope.stateless_version().is_some();
        let (sent, left) = watch::channel(Progress::Waiting);
        let sent = Sent(sent);
        let exchange = {
            let shared = shared.clone();
            async move {
                send(&shared, flavor, body, &envelope, Some(&sent)).await;
                sent.heard();
            }
        };
        // None once the transport has ended: nothing more goes out.
        let Some(task) = shared.tasks.spawn(exchange) else {
            return;
        };
        if in_flight.len() >= PRUNE_AT {
            in_flight.retain(|_, flight| !flight.task.is_finished());
        }
        in_flight.insert(
            id,
            InFlight {
                sent: left,
                task,
                stateless,
            },
        );
    }
}

/// Cancels a request in flight (of the `initialize` era): once its request has left and
/// the server's answer begun (a cancellation must not reach the server before it), its
/// exchange is let go, its stream closed at once rather than resumed, and the server told.
async fn cancel(shared: Arc<Shared>, flight: InFlight, body: String, envelope: Envelope) {
    let mut progress = flight.sent.clone();
    let written = tokio::time::timeout(SEND_WAIT, progress.wait_for(|p| *p >= Progress::Written))
        .await
        .is_ok_and(|written| written.is_ok());
    if written {
        let _ = tokio::time::timeout(HEAR_WAIT, progress.wait_for(|p| *p == Progress::Heard)).await;
    }
    flight.task.abort();
    let flavor = shared.state(|s| s.flavor);
    if let Some(flavor) = flavor
        && *flight.sent.borrow() >= Progress::Written
    {
        send(&shared, flavor, body, &envelope, None).await;
    }
}

/// Finished requests are forgotten when the table reaches this size.
const PRUNE_AT: usize = 64;

async fn send(
    shared: &Arc<Shared>,
    flavor: HttpFlavor,
    body: String,
    envelope: &Envelope,
    sent: Option<&Sent>,
) {
    let outcome = match flavor {
        HttpFlavor::StreamableHttp => streamable::send(shared, body, envelope, sent).await,
        HttpFlavor::LegacySse => legacy::send(shared, body).await,
    };
    if let Err(error) = outcome {
        let ends = match &error {
            // Refused once the session is open, or the session gone for good: nothing sent
            // will be answered any more, and whoever supervises the connection must know.
            // A refusal for want of scope, or for good, concerns this request alone.
            TransportError::Unauthorized { status: 403, .. } if shared.auth.is_some() => None,
            TransportError::Authorization(error) if !error.needs_sign_in() => None,
            TransportError::Unauthorized { .. } | TransportError::Authorization(_) => Some(true),
            TransportError::SessionLost(_) => Some(false),
            _ => None,
        };
        let detail = error.to_string();
        report(shared, envelope, error).await;
        match ends {
            Some(true) => shared.end_unauthorized(),
            Some(false) => shared.end(detail),
            None => {}
        }
    }
}

async fn first_exchange(
    shared: &Arc<Shared>,
    mode: HttpMode,
    body: String,
    envelope: &Envelope,
) -> Result<(), TransportError> {
    let settle = |flavor| shared.state(|s| s.flavor = Some(flavor));
    match mode {
        HttpMode::LegacySse => {
            legacy::open(shared).await?;
            settle(HttpFlavor::LegacySse);
            legacy::send(shared, body).await
        }
        HttpMode::StreamableHttp => {
            streamable::send(shared, body, envelope, None).await?;
            settle(HttpFlavor::StreamableHttp);
            Ok(())
        }
        HttpMode::Auto => match streamable::send(shared, body.clone(), envelope, None).await {
            Ok(()) => {
                settle(HttpFlavor::StreamableHttp);
                Ok(())
            }
            // A server of the 2024-11-05 transport refuses the POST: try its event stream.
            Err(
                refused @ TransportError::Status {
                    status: 400 | 404 | 405,
                    ..
                },
            ) => {
                shared.log(format!(
                    "{} refused Streamable HTTP; trying HTTP+SSE",
                    shared.url
                ));
                let fallback = async {
                    legacy::open(shared).await?;
                    settle(HttpFlavor::LegacySse);
                    legacy::send(shared, body).await
                };
                // If both fail, the first refusal is as telling as the second.
                fallback
                    .await
                    .map_err(|legacy| TransportError::NoTransport {
                        streamable: Box::new(refused),
                        legacy: Box::new(legacy),
                    })
            }
            Err(error) => Err(error),
        },
    }
}

/// A request that could not be carried fails at once; anything else is logged.
async fn report(shared: &Shared, envelope: &Envelope, error: TransportError) {
    match envelope.request_id() {
        Some(id) => {
            let failed = Inbound::Failed {
                id: id.clone(),
                error,
            };
            shared.deliver(failed).await;
        }
        None => shared.log(format!(
            "could not send {}: {error}",
            envelope.method.as_deref().unwrap_or("a response")
        )),
    }
}
