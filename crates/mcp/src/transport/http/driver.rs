//! The driver: takes each outgoing message, settles the transport on the first one, and
//! sends the rest concurrently.

use std::sync::Arc;

use serde::Deserialize;
use tokio::sync::mpsc;

use super::{HttpFlavor, HttpMode, Shared, legacy, streamable};
use crate::jsonrpc::RequestId;
use crate::transport::{Inbound, TransportError};
use crate::types::method;

/// The parts of an outgoing message the transport needs to know.
#[derive(Debug, Default, Deserialize)]
pub struct Envelope {
    pub id: Option<RequestId>,
    pub method: Option<String>,
}

impl Envelope {
    fn of(body: &str) -> Self {
        serde_json::from_str(body).unwrap_or_default()
    }

    /// A request of ours (not a notification, not an answer to the server).
    pub fn request_id(&self) -> Option<&RequestId> {
        self.method.as_ref().and(self.id.as_ref())
    }

    pub fn is(&self, name: &str) -> bool {
        self.method.as_deref() == Some(name)
    }
}

pub async fn run(shared: Arc<Shared>, mode: HttpMode, mut to_server: mpsc::Receiver<String>) {
    let mut listening = false;
    loop {
        let body = tokio::select! {
            body = to_server.recv() => match body {
                Some(body) => body,
                None => return,
            },
            () = shared.closed.cancelled() => return,
        };
        let envelope = Envelope::of(&body);
        let flavor = shared.state(|s| s.flavor);
        let Some(flavor) = flavor else {
            // The first exchange (`initialize`) decides the transport; nothing else goes
            // out before it is answered, as the lifecycle requires anyway.
            if let Err(error) = first_exchange(&shared, mode, body, &envelope).await {
                report(&shared, &envelope, error).await;
            }
            continue;
        };
        if envelope.request_id().is_none() {
            // Notifications and answers are sent in order, each before the next message:
            // a server must see `initialized` before the requests that follow it.
            send(&shared, flavor, body, &envelope).await;
            if flavor == HttpFlavor::StreamableHttp
                && !listening
                && envelope.is(method::INITIALIZED)
            {
                listening = true;
                // Open the server's GET stream before any request follows, so that nothing
                // it sends unprompted from then on can be missed.
                if let Some(stream) = streamable::open_listening(&shared).await {
                    tokio::spawn(streamable::listen(shared.clone(), stream));
                }
            }
            continue;
        }
        // Requests run concurrently: a slow call never holds up another.
        let shared = shared.clone();
        tokio::spawn(async move { send(&shared, flavor, body, &envelope).await });
    }
}

async fn send(shared: &Arc<Shared>, flavor: HttpFlavor, body: String, envelope: &Envelope) {
    let sent = match flavor {
        HttpFlavor::StreamableHttp => streamable::send(shared, body, envelope).await,
        HttpFlavor::LegacySse => legacy::send(shared, body).await,
    };
    if let Err(error) = sent {
        report(shared, envelope, error).await;
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
            streamable::send(shared, body, envelope).await?;
            settle(HttpFlavor::StreamableHttp);
            Ok(())
        }
        HttpMode::Auto => match streamable::send(shared, body.clone(), envelope).await {
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
