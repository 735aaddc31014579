//! The 2026-07-28 revision on the same endpoint: no session, each POST one request that
//! says in its `_meta` and its headers what it is (spec 2026-07-28, `basic/transports/
//! streamable-http`). A POST is stateless when it names no session and its
//! `MCP-Protocol-Version` is not a revision of the `initialize` era.
//!
//! Before a handler sees the request, its headers are checked against its body
//! (`Mcp-Method`, `Mcp-Name`, the protocol version: -32020 `HeaderMismatch`) and its `_meta`
//! read (-32602 without it, -32022 for a revision not spoken), each refusal with 400. Then
//! the request gets a connection of its own, as a session would, which ends with its
//! answer or when the client closes the response stream (the revision's cancellation). A
//! `tools/call` has its `Mcp-Param-*` headers checked first against the marks of the tool's
//! input schema, which the connection's handler gives
//! ([`IncomingHandler::tool_input_schema`](crate::connection::IncomingHandler::tool_input_schema)).
//! An error answer is sent with the status the revision gives its code (404 for a method
//! not found); a request that first reports progress, or a `subscriptions/listen`, is
//! answered on an event stream.

use std::sync::Arc;

use http::{HeaderMap, Request, Response, StatusCode};
use hyper::body::Incoming;
use serde_json::Value;

use super::session::{Answer, Awaited, Session};
use super::{Body, Shared, VERSION_HEADER, decode_body, json_body, read_body, refusal, sse};
use crate::ProtocolVersion;
use crate::jsonrpc::{ErrorObject, Message, code};
use crate::server::stateless::{self, read_meta};
use crate::transport::Inbound;
use crate::transport::http::headers::{check_param_headers, decode_value, marks_of};
use crate::types::method;

const METHOD_HEADER: &str = "mcp-method";
const NAME_HEADER: &str = "mcp-name";

/// The stateless revisions the server speaks, and every revision it lists when refusing one.
const SPEAKS: &[ProtocolVersion] = &[ProtocolVersion::V2026_07_28];

/// Whether a POST is of the stateless era: no session, and a protocol version that is not
/// a stateful one (an unknown one included: it is refused as the revision says).
pub(super) fn applies(headers: &HeaderMap) -> bool {
    if headers.contains_key(super::SESSION_HEADER) {
        return false;
    }
    let Some(version) = headers.get(VERSION_HEADER) else {
        return false;
    };
    let version = version.to_str().unwrap_or_default().trim();
    version
        .parse::<ProtocolVersion>()
        .map_or(true, |v| !v.is_stateful())
}

pub(super) async fn post(
    shared: &Shared,
    identity: Option<super::Identity>,
    takes_events: bool,
    request: Request<Incoming>,
) -> Response<Body> {
    let headers = request.headers().clone();
    let body = match read_body(shared, request.into_body()).await {
        Ok(body) => body,
        Err(why) => {
            return refusal(
                StatusCode::PAYLOAD_TOO_LARGE,
                None,
                ErrorObject::new(code::INVALID_REQUEST, why),
            );
        }
    };
    let frame = match decode_body(&body) {
        Ok(frame) => frame,
        Err(refused) => return *refused,
    };
    let single = !frame.batch && frame.items.len() == 1;
    let message = match frame.items.into_iter().next() {
        Some(Ok(message)) if single => message,
        _ => {
            return refusal(
                StatusCode::BAD_REQUEST,
                None,
                ErrorObject::new(
                    code::INVALID_REQUEST,
                    "a POST of the 2026-07-28 revision carries one JSON-RPC request",
                ),
            );
        }
    };
    let request = match message {
        Message::Request(request) => request,
        // The revision defines no notification a client sends over HTTP: taken, not acted on.
        Message::Notification(_) => return super::empty(StatusCode::ACCEPTED),
        Message::Response(_) | Message::OrphanError(_) => {
            return refusal(
                StatusCode::BAD_REQUEST,
                None,
                ErrorObject::new(code::INVALID_REQUEST, "a client sends no responses"),
            );
        }
    };
    let id = request.id.clone();
    if let Err(mismatch) = check_headers(&headers, &request.method, request.params.as_ref()) {
        return refusal(StatusCode::BAD_REQUEST, Some(&id), mismatch);
    }
    if let Err(error) = read_meta(
        request.params.as_ref(),
        SPEAKS,
        &ProtocolVersion::NEWEST_FIRST,
    ) {
        return refusal(StatusCode::BAD_REQUEST, Some(&id), error);
    }
    // The connection answers `ping` itself in every era; this revision has none.
    if request.method == method::PING {
        return refusal(
            StatusCode::NOT_FOUND,
            Some(&id),
            ErrorObject::method_not_found(&request.method),
        );
    }
    answer(shared, identity, takes_events, &headers, request).await
}

/// Serves the request on a connection of its own, until its answer or the client leaves.
async fn answer(
    shared: &Shared,
    identity: Option<super::Identity>,
    takes_events: bool,
    headers: &HeaderMap,
    request: crate::jsonrpc::Request,
) -> Response<Body> {
    let id = request.id.clone();
    let session = Session::start(super::session_id(), identity, shared.factory.as_ref());
    let closing = Closing(session.clone());
    if request.method == method::TOOLS_CALL
        && let Err(mismatch) = check_params(&session, headers, request.params.as_ref())
    {
        return refusal(StatusCode::BAD_REQUEST, Some(&id), mismatch);
    }
    let mut awaited = Awaited::default();
    awaited
        .ids
        .push(serde_json::to_string(&id).unwrap_or_default());
    if let Some(token) = request
        .params
        .as_ref()
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get("progressToken"))
    {
        awaited.tokens.push(token.to_string());
    }
    let events = takes_events && !shared.options.json_response;
    let answer_with = if events { Answer::Events } else { Answer::Json };
    let mut stream = session.open_post(awaited, answer_with);
    if !session
        .deliver(Inbound::Message(Message::Request(request)))
        .await
    {
        return refusal(
            StatusCode::INTERNAL_SERVER_ERROR,
            Some(&id),
            ErrorObject::new(code::INTERNAL_ERROR, "the request could not be served"),
        );
    }
    let Some(first) = stream.recv().await else {
        return refusal(
            StatusCode::INTERNAL_SERVER_ERROR,
            Some(&id),
            ErrorObject::new(code::INTERNAL_ERROR, "the request ended without an answer"),
        );
    };
    if let Some(status) = answer_status(&first.message) {
        drop(closing);
        return json_body(status, first.message.to_string());
    }
    sse::response(Some(first), stream, closing)
}

/// The status of an answer, if `message` is the answer (not a notification before it).
fn answer_status(message: &str) -> Option<StatusCode> {
    let value: Value = serde_json::from_str(message).ok()?;
    if value.get("method").is_some() {
        return None;
    }
    let status = value
        .get("error")
        .and_then(|e| e.get("code"))
        .and_then(Value::as_i64)
        .map_or(200, stateless::http_status);
    Some(StatusCode::from_u16(status).unwrap_or(StatusCode::OK))
}

/// Ends the request's connection when the response (or its stream) is done with: a client
/// that closes the stream cancels the request.
pub(super) struct Closing(Arc<Session>);

impl Drop for Closing {
    fn drop(&mut self) {
        let session = self.0.clone();
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move { session.close().await });
        }
    }
}

/// Checks the headers that mirror the body: `Mcp-Method` always, `Mcp-Name` for the
/// methods that name a tool, prompt, resource or task, and the protocol version against
/// `_meta`.
fn check_headers(
    headers: &HeaderMap,
    method_name: &str,
    params: Option<&Value>,
) -> Result<(), ErrorObject> {
    let mismatch = |detail: String| {
        ErrorObject::new(code::HEADER_MISMATCH, format!("Header mismatch: {detail}"))
    };
    let value = |name: &str| {
        headers
            .get(name)
            .map(|v| v.to_str().map(|v| v.trim().to_owned()))
    };
    match value(METHOD_HEADER) {
        None => return Err(mismatch("the Mcp-Method header is missing".into())),
        Some(Ok(sent)) if sent == method_name => {}
        Some(sent) => {
            return Err(mismatch(format!(
                "Mcp-Method header value {:?} does not match body value {method_name:?}",
                sent.unwrap_or_default()
            )));
        }
    }
    let named = match method_name {
        method::TOOLS_CALL | method::PROMPTS_GET => Some("name"),
        method::RESOURCES_READ => Some("uri"),
        method::TASKS_GET | method::TASKS_UPDATE | method::TASKS_CANCEL => Some("taskId"),
        _ => None,
    };
    if let Some(field) = named {
        let body = params
            .and_then(|p| p.get(field))
            .and_then(Value::as_str)
            .unwrap_or_default();
        let sent = headers
            .get(NAME_HEADER)
            .map(|v| v.to_str().ok().and_then(decode_value));
        match sent {
            None => return Err(mismatch("the Mcp-Name header is missing".into())),
            Some(Some(sent)) if sent == body => {}
            Some(sent) => {
                return Err(mismatch(format!(
                    "Mcp-Name header value {:?} does not match body value {body:?}",
                    sent.unwrap_or_default()
                )));
            }
        }
    }
    let in_meta = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(crate::types::meta_key::PROTOCOL_VERSION))
        .and_then(Value::as_str);
    let in_header = value(VERSION_HEADER).and_then(Result::ok);
    if let (Some(in_meta), Some(in_header)) = (in_meta, in_header)
        && in_meta != in_header
    {
        return Err(mismatch(format!(
            "MCP-Protocol-Version header value {in_header:?} does not match body value {in_meta:?}"
        )));
    }
    Ok(())
}

/// Checks a tool call's `Mcp-Param-*` headers against its arguments and the marks of the
/// tool's input schema as the handler lists it. A schema whose marks break the rules marks
/// nothing: a client of the revision leaves such a tool out, and sends no header for it.
fn check_params(
    session: &Session,
    headers: &HeaderMap,
    params: Option<&Value>,
) -> Result<(), ErrorObject> {
    let Some(tool) = params.and_then(|p| p.get("name")).and_then(Value::as_str) else {
        return Ok(());
    };
    let Some(marks) = session
        .handler
        .tool_input_schema(tool)
        .and_then(|schema| marks_of(&schema).ok())
    else {
        return Ok(());
    };
    let arguments = params.and_then(|p| p.get("arguments"));
    check_param_headers(&marks, arguments, headers).map_err(|detail| {
        ErrorObject::new(code::HEADER_MISMATCH, format!("Header mismatch: {detail}"))
    })
}

#[cfg(test)]
mod tests {
    use http::HeaderValue;
    use serde_json::json;

    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(k, v)| {
                (
                    http::HeaderName::from_static(k),
                    HeaderValue::from_str(v).unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn only_a_sessionless_post_of_a_stateless_revision_is_stateless() {
        let cases = [
            (vec![("mcp-protocol-version", "2026-07-28")], true),
            (vec![("mcp-protocol-version", "v999.0.0")], true),
            (vec![("mcp-protocol-version", "2025-11-25")], false),
            (vec![], false),
            (
                vec![
                    ("mcp-protocol-version", "2026-07-28"),
                    ("mcp-session-id", "a"),
                ],
                false,
            ),
        ];
        for (pairs, expected) in cases {
            assert_eq!(applies(&headers(&pairs)), expected, "{pairs:?}");
        }
    }

    #[test]
    fn headers_that_do_not_mirror_the_body_are_a_mismatch() {
        let meta = json!({"name": "demo__echo", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}});
        let v = ("mcp-protocol-version", "2026-07-28");
        // (headers, the body's method, whether they mirror it)
        type Case = (Vec<(&'static str, &'static str)>, &'static str, bool);
        let cases: [Case; 7] = [
            (
                vec![
                    v,
                    ("mcp-method", "tools/call"),
                    ("mcp-name", " demo__echo "),
                ],
                "tools/call",
                true,
            ),
            (
                vec![
                    v,
                    ("mcp-method", "tools/call"),
                    ("mcp-name", "=?base64?ZGVtb19fZWNobw==?="),
                ],
                "tools/call",
                true,
            ),
            (vec![v, ("mcp-method", "tools/call")], "tools/call", false),
            (
                vec![v, ("mcp-method", "tools/call"), ("mcp-name", "other")],
                "tools/call",
                false,
            ),
            (vec![v, ("mcp-method", "TOOLS/LIST")], "tools/list", false),
            (vec![v], "tools/list", false),
            (
                vec![
                    ("mcp-protocol-version", "2025-11-25"),
                    ("mcp-method", "tools/list"),
                ],
                "tools/list",
                false,
            ),
        ];
        for (pairs, method_name, ok) in cases {
            let checked = check_headers(&headers(&pairs), method_name, Some(&meta));
            assert_eq!(checked.is_ok(), ok, "{pairs:?}: {checked:?}");
            if let Err(error) = checked {
                assert_eq!(error.code, code::HEADER_MISMATCH);
            }
        }
    }
}
