//! The typed client over an in-memory transport: the handshake, capabilities honoured both
//! ways, pagination and the safe defaults, checked against the exact JSON on the wire.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use switchboard_mcp::client::{Client, ClientConfig, ClientError, DecliningHandler};
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::memory::{self, MemoryPeer};
use switchboard_mcp::types::{ClientCapabilities, ElicitationCapability};
use tokio::task::JoinHandle;

fn config(capabilities: ClientCapabilities) -> ClientConfig {
    let mut config = ClientConfig::new("switchboard-tests", "1.2.3");
    config.capabilities = capabilities;
    config.request_timeout = Duration::from_secs(5);
    config
}

fn connect(
    capabilities: ClientCapabilities,
) -> (JoinHandle<Result<Client, ClientError>>, MemoryPeer) {
    let (transport, peer) = memory::pair(discard_log());
    let handshake = tokio::spawn(Client::connect(
        transport,
        Arc::new(DecliningHandler),
        config(capabilities),
    ));
    (handshake, peer)
}

async fn next_json(peer: &mut MemoryPeer) -> Value {
    let text = peer
        .from_client
        .recv()
        .await
        .expect("the client sent something");
    serde_json::from_str(&text).expect("the client sends JSON")
}

async fn send(peer: &MemoryPeer, message: Value) {
    peer.to_client
        .send(message.to_string())
        .await
        .expect("the client listens");
}

fn init_result(version: &str, capabilities: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "result": {
        "protocolVersion": version,
        "capabilities": capabilities,
        "serverInfo": {"name": "fake", "version": "0.1"},
    }})
}

/// Completes the handshake with the given server capabilities.
async fn ready(capabilities: ClientCapabilities, server: Value) -> (Client, MemoryPeer) {
    let (handshake, mut peer) = connect(capabilities);
    next_json(&mut peer).await;
    send(&peer, init_result("2025-11-25", server)).await;
    let client = handshake.await.expect("no panic").expect("handshake");
    assert_eq!(
        next_json(&mut peer).await["method"],
        "notifications/initialized"
    );
    (client, peer)
}

#[tokio::test]
async fn the_handshake_offers_the_newest_stateful_revision_then_confirms() {
    let (handshake, mut peer) = connect(ClientCapabilities::all());
    assert_eq!(
        next_json(&mut peer).await,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {
                "roots": {"listChanged": true},
                "sampling": {},
                "elicitation": {"form": {}, "url": {}},
            },
            "clientInfo": {"name": "switchboard-tests", "version": "1.2.3"},
        }})
    );
    // Nothing else may be sent before the server's answer.
    assert!(peer.from_client.try_recv().is_err());
    send(&peer, init_result("2025-11-25", json!({"tools": {}}))).await;
    let client = handshake.await.unwrap().unwrap();
    assert_eq!(
        next_json(&mut peer).await,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    );
    assert_eq!(client.server().server_info.name, "fake");
}

#[tokio::test]
async fn every_stateful_revision_is_accepted_in_reply() {
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let (handshake, mut peer) = connect(ClientCapabilities::default());
        next_json(&mut peer).await;
        send(&peer, init_result(version, json!({}))).await;
        let client = handshake.await.unwrap().unwrap();
        assert_eq!(client.protocol_version().as_str(), version);
    }
}

#[tokio::test]
async fn an_unknown_or_stateless_revision_is_refused_clearly() {
    for version in ["2023-01-01", "2026-07-28"] {
        let (handshake, mut peer) = connect(ClientCapabilities::default());
        next_json(&mut peer).await;
        send(&peer, init_result(version, json!({}))).await;
        let err = handshake.await.unwrap().err().expect("refused");
        assert_eq!(
            err.to_string(),
            format!(
                "the server answered with protocol revision \"{version}\", which this client does not speak (offered 2025-11-25)"
            )
        );
        // No `initialized` follows a refused handshake.
        assert!(peer.from_client.recv().await.is_none());
    }
}

#[tokio::test]
async fn nothing_is_asked_that_the_server_did_not_offer() {
    let (client, mut peer) = ready(ClientCapabilities::default(), json!({"prompts": {}})).await;
    assert_eq!(
        client.list_tools().await,
        Err(ClientError::NotOffered("tools"))
    );
    assert_eq!(
        client.list_resources().await,
        Err(ClientError::NotOffered("resources"))
    );
    assert_eq!(
        client.subscribe("x://y").await,
        Err(ClientError::NotOffered("resource subscriptions"))
    );
    assert!(
        peer.from_client.try_recv().is_err(),
        "a request went out anyway"
    );
}

#[tokio::test]
async fn lists_follow_opaque_cursors_to_the_end() {
    let (client, mut peer) = ready(ClientCapabilities::default(), json!({"tools": {}})).await;
    let list = tokio::spawn(async move { client.list_tools().await });
    let tool = |name: &str| json!({"name": name, "inputSchema": {"type": "object"}});
    assert_eq!(next_json(&mut peer).await["params"], json!({}));
    send(&peer, json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [tool("a"), tool("b")], "nextCursor": "opaque==/1"}})).await;
    assert_eq!(
        next_json(&mut peer).await["params"],
        json!({"cursor": "opaque==/1"})
    );
    send(
        &peer,
        json!({"jsonrpc": "2.0", "id": 3, "result": {"tools": [tool("c")]}}),
    )
    .await;
    let names: Vec<String> = list
        .await
        .unwrap()
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, ["a", "b", "c"]);
}

#[tokio::test]
async fn a_cursor_that_repeats_stops_the_walk() {
    let (client, mut peer) = ready(ClientCapabilities::default(), json!({"prompts": {}})).await;
    let list = tokio::spawn(async move { client.list_prompts().await });
    for id in 2..=3 {
        next_json(&mut peer).await;
        send(
            &peer,
            json!({"jsonrpc": "2.0", "id": id, "result": {"prompts": [], "nextCursor": "same"}}),
        )
        .await;
    }
    assert_eq!(
        list.await.unwrap(),
        Err(ClientError::CursorLoop {
            method: "prompts/list",
            pages: 2
        })
    );
}

#[tokio::test]
async fn server_requests_outside_the_declared_capabilities_are_method_not_found() {
    let (_client, mut peer) = ready(ClientCapabilities::default(), json!({})).await;
    for (id, method) in [
        (1, "sampling/createMessage"),
        (2, "roots/list"),
        (3, "elicitation/create"),
    ] {
        send(
            &peer,
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {}}),
        )
        .await;
        assert_eq!(
            next_json(&mut peer).await,
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": format!("method not found: {method}")}})
        );
    }
}

#[tokio::test]
async fn the_default_handler_exposes_nothing_and_agrees_to_nothing() {
    let (_client, mut peer) = ready(ClientCapabilities::all(), json!({})).await;
    send(
        &peer,
        json!({"jsonrpc": "2.0", "id": 1, "method": "roots/list"}),
    )
    .await;
    assert_eq!(next_json(&mut peer).await["result"], json!({"roots": []}));
    send(&peer, json!({"jsonrpc": "2.0", "id": 2, "method": "sampling/createMessage", "params": {
        "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 10}})).await;
    assert_eq!(
        next_json(&mut peer).await["error"],
        json!({"code": -1, "message": "sampling was declined"})
    );
    send(&peer, json!({"jsonrpc": "2.0", "id": 3, "method": "elicitation/create", "params": {
        "message": "Name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}})).await;
    assert_eq!(
        next_json(&mut peer).await["result"],
        json!({"action": "decline"})
    );
}

#[tokio::test]
async fn a_mode_the_client_did_not_declare_and_malformed_params_are_invalid_params() {
    let form_only = ClientCapabilities {
        elicitation: Some(ElicitationCapability {
            form: Some(Default::default()),
            ..ElicitationCapability::default()
        }),
        ..ClientCapabilities::default()
    };
    let (_client, mut peer) = ready(form_only, json!({})).await;
    send(
        &peer,
        json!({"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": {
        "mode": "url", "message": "Sign in", "url": "https://example.com", "elicitationId": "e1"}}),
    )
    .await;
    let error = next_json(&mut peer).await["error"].clone();
    assert_eq!(error["code"], -32602);
    send(&peer, json!({"jsonrpc": "2.0", "id": 2, "method": "elicitation/create", "params": {"message": 5}})).await;
    let error = next_json(&mut peer).await["error"].clone();
    assert_eq!(error["code"], -32602);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("invalid params: "),
        "{error}"
    );
}

#[tokio::test]
async fn a_required_url_elicitation_is_readable_from_the_error() {
    let (client, mut peer) = ready(ClientCapabilities::all(), json!({"tools": {}})).await;
    let call = tokio::spawn(async move {
        client
            .call_tool("pay", None, client.request_options())
            .await
    });
    let id = next_json(&mut peer).await["id"].clone();
    send(
        &peer,
        json!({"jsonrpc": "2.0", "id": id, "error": {
            "code": -32042,
            "message": "This request requires more information.",
            "data": {"elicitations": [{"mode": "url", "elicitationId": "e-7",
                "url": "https://pay.example/authorize", "message": "Authorize the payment"}]},
        }}),
    )
    .await;
    let error = call.await.unwrap().unwrap_err();
    let required = error.url_elicitation_required().expect("a -32042 error");
    assert_eq!(required.elicitations.len(), 1);
    assert_eq!(
        required.elicitations[0].url,
        "https://pay.example/authorize"
    );
    assert_eq!(
        required.elicitations[0].elicitation_id.as_deref(),
        Some("e-7")
    );
}
