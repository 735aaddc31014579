//! The HTTP+SSE transport of 2024-11-05: a GET event stream whose first event names the
//! endpoint to POST to; every answer arrives as a `message` event on that stream.

use std::sync::Arc;

use reqwest::header::{ACCEPT, CONTENT_TYPE};
use reqwest::{Method, Url};

use super::authorized::authorized;
use super::events::{Cursor, EventReader, Fault, content_type, is_event_stream, is_message};
use super::{ACK_TIMEOUT, Shared, classify, closed, status_error};
use crate::transport::TransportError;

/// Opens the event stream and waits for the `endpoint` event; a server that refuses the
/// stream (401) is signed in to first.
pub async fn open(shared: &Arc<Shared>) -> Result<(), TransportError> {
    authorized(shared, || open_once(shared)).await
}

async fn open_once(shared: &Arc<Shared>) -> Result<(), TransportError> {
    let url = shared.url.clone();
    let timed_out = |_| TransportError::Timeout {
        url: url.to_string(),
        seconds: Some(shared.read_timeout.as_secs()),
    };
    let (reader, cursor, endpoint) = tokio::time::timeout(shared.read_timeout, endpoint(shared))
        .await
        .map_err(timed_out)??;
    shared.state(|s| s.endpoint = Some(endpoint));
    if shared
        .tasks
        .spawn(pump(shared.clone(), reader, cursor))
        .is_none()
    {
        return Err(closed());
    }
    Ok(())
}

/// Opens the stream and reads it up to the `endpoint` event.
async fn endpoint(shared: &Shared) -> Result<(EventReader, Cursor, Url), TransportError> {
    let url = shared.url.clone();
    let response = shared
        .request(Method::GET, url.clone())
        .header(ACCEPT, "text/event-stream")
        .send()
        .await
        .map_err(|e| classify(&url, &e))?;
    if !response.status().is_success() {
        return Err(status_error(&url, response).await);
    }
    if !is_event_stream(&response) {
        return Err(TransportError::InvalidBody(format!(
            "{url} answered GET with {:?}, not an event stream",
            content_type(&response)
        )));
    }
    let mut reader = EventReader::new(response, shared.max_message_bytes);
    let mut cursor = Cursor::default();
    while let Some(event) = reader.next(&mut cursor).await {
        match event {
            Ok(event) if event.event == "endpoint" => {
                let endpoint = resolve(&url, &event.data)?;
                return Ok((reader, cursor, endpoint));
            }
            Ok(_) => {}
            Err(err) => {
                return Err(TransportError::InvalidBody(format!(
                    "the event stream broke: {err}"
                )));
            }
        }
    }
    Err(TransportError::StreamEnded)
}

/// The endpoint, resolved against the stream's URL; another origin is refused, since a
/// server must not send our messages elsewhere.
fn resolve(base: &Url, data: &str) -> Result<Url, TransportError> {
    let endpoint = base.join(data.trim()).map_err(|e| {
        TransportError::InvalidBody(format!("the endpoint {data:?} is not a URL: {e}"))
    })?;
    if endpoint.origin() != base.origin() {
        return Err(TransportError::Other(format!(
            "refused the endpoint {endpoint}: it is not on {}",
            base.origin().ascii_serialization()
        )));
    }
    Ok(endpoint)
}

/// Delivers every message of the stream; its end ends the transport.
async fn pump(shared: Arc<Shared>, mut reader: EventReader, mut cursor: Cursor) {
    let ended = loop {
        let event = tokio::select! {
            event = reader.next(&mut cursor) => event,
            () = shared.closed.cancelled() => return,
        };
        match event {
            Some(Ok(event)) if is_message(&event) => {
                if let Err(err) = shared.deliver_frame(&event.data, None, false).await {
                    shared.log(format!("skipped an event: {err}"));
                }
            }
            Some(Ok(_)) => {}
            Some(Err(err @ Fault::TooLarge { .. })) => shared.log(format!("skipped {err}")),
            Some(Err(Fault::Broken(err))) => {
                break format!("the server's event stream broke: {err}");
            }
            None => break "the server closed its event stream".to_owned(),
        }
    };
    shared.end(ended);
}

/// POSTs one message to the endpoint; the answer comes on the stream.
pub async fn send(shared: &Shared, body: String) -> Result<(), TransportError> {
    authorized(shared, || send_once(shared, &body)).await
}

/// The server only acknowledges the POST (202): one it does not acknowledge in time fails.
async fn send_once(shared: &Shared, body: &str) -> Result<(), TransportError> {
    let endpoint = shared
        .state(|s| s.endpoint.clone())
        .ok_or_else(|| TransportError::Other("no endpoint yet".into()))?;
    let exchange = async {
        let response = shared
            .request(Method::POST, endpoint.clone())
            .header(CONTENT_TYPE, "application/json")
            .body(body.to_owned())
            .send()
            .await
            .map_err(|e| classify(&endpoint, &e))?;
        if !response.status().is_success() {
            return Err(status_error(&endpoint, response).await);
        }
        Ok(())
    };
    tokio::time::timeout(ACK_TIMEOUT, exchange)
        .await
        .map_err(|_| TransportError::Timeout {
            url: endpoint.to_string(),
            seconds: Some(ACK_TIMEOUT.as_secs()),
        })?
}
