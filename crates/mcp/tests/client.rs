//! The typed client over an in-memory transport: the handshake, capabilities honoured both
//! ways, pagination and the safe defaults, checked against the exact JSON on the wire.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use switchboard_mcp::client::{
    Client, ClientConfig, ClientError, ClientHandler, DecliningHandler, ServerNotification,
};
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::memory::{self, MemoryPeer};
use switchboard_mcp::types::{ClientCapabilities, ElicitationCapability, Role};
use tokio::sync::mpsc;
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
    connect_with(DecliningHandler, capabilities)
}

fn connect_with<H: ClientHandler>(
    handler: H,
    capabilities: ClientCapabilities,
) -> (JoinHandle<Result<Client, ClientError>>, MemoryPeer) {
    let (transport, peer) = memory::pair(discard_log());
    let handshake = tokio::spawn(Client::connect(
        transport,
        Arc::new(handler),
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
    json!({"jsonrpc": "2.0", "id": 0, "result": {
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
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
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
    send(&peer, json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [tool("a"), tool("b")], "nextCursor": "opaque==/1"}})).await;
    assert_eq!(
        next_json(&mut peer).await["params"],
        json!({"cursor": "opaque==/1"})
    );
    send(
        &peer,
        json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [tool("c")]}}),
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
    for id in 1..=2 {
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

/// A handler that passes on every notification it is given.
struct Notifications(mpsc::UnboundedSender<ServerNotification>);

impl ClientHandler for Notifications {
    fn notification(&self, notification: ServerNotification) {
        let _ = self.0.send(notification);
    }
}

/// Answers the client's next request with `result`, returning the request.
async fn answer(peer: &mut MemoryPeer, result: Value) -> Value {
    let request = next_json(peer).await;
    send(
        peer,
        json!({"jsonrpc": "2.0", "id": request["id"], "result": result}),
    )
    .await;
    request
}

#[tokio::test]
async fn odd_optional_members_do_not_fail_the_handshake() {
    let (handshake, mut peer) = connect(ClientCapabilities::default());
    next_json(&mut peer).await;
    send(
        &peer,
        json!({"jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {"listChanged": "yes"}, "logging": true},
            "serverInfo": {"name": "odd", "version": "1", "websiteUrl": 7,
                "icons": [{"src": "https://example.com/i.png", "sizes": "48x48", "theme": 1}]},
            "instructions": ["not", "text"],
        }}),
    )
    .await;
    let client = handshake.await.unwrap().expect("the handshake survives");
    let info = &client.server().server_info;
    assert_eq!(
        (info.name.as_str(), info.website_url.as_deref()),
        ("odd", None)
    );
    let icons = info.icons.as_deref().expect("the icon is kept");
    assert_eq!(icons[0].src, "https://example.com/i.png");
    assert_eq!(
        (icons[0].sizes.as_ref(), icons[0].theme.as_ref()),
        (None, None)
    );
    assert!(client.capabilities().supports_tools());
    assert!(!client.capabilities().notifies_tools_changed());
    assert!(!client.capabilities().supports_logging());
    assert_eq!(client.server().instructions, None);
}

#[tokio::test]
async fn odd_optional_members_of_listed_items_lose_nothing_but_themselves() {
    let server = json!({"tools": {}, "resources": {}, "prompts": {}});
    let (client, mut peer) = ready(ClientCapabilities::default(), server).await;

    let lister = client.clone();
    let tools = tokio::spawn(async move { lister.list_tools().await });
    answer(
        &mut peer,
        json!({"tools": [
            {"name": "plain", "inputSchema": {"type": "object"}},
            {"name": "odd", "title": 5, "inputSchema": {"type": "object"},
             "icons": [{"src": "data:,", "sizes": "48x48"}, {"sizes": ["any"]}],
             "annotations": {"readOnlyHint": "yes", "destructiveHint": false},
             "execution": {"taskSupport": 3}, "outputSchema": "none", "_meta": []},
        ]}),
    )
    .await;
    let tools = tools.await.unwrap().expect("the page is read");
    assert_eq!(tools.len(), 2);
    let odd = &tools[1];
    assert_eq!((odd.name.as_str(), odd.title.as_deref()), ("odd", None));
    assert_eq!(
        odd.icons.as_ref().map(Vec::len),
        Some(1),
        "the icon without src is dropped"
    );
    let annotations = odd.annotations.as_ref().expect("annotations kept");
    assert_eq!(annotations.read_only_hint, None);
    assert_eq!(annotations.destructive_hint, Some(false));
    assert_eq!(odd.output_schema, None);

    let lister = client.clone();
    let resources = tokio::spawn(async move { lister.list_resources().await });
    answer(
        &mut peer,
        json!({"resources": [
            {"uri": "file:///a", "name": "a", "size": -1},
            {"uri": "file:///b", "name": "b", "size": 1.5, "mimeType": 7,
             "annotations": {"priority": "high", "audience": ["user", "robot"]}},
            {"uri": "file:///c", "name": "c", "size": 12},
        ]}),
    )
    .await;
    let resources = resources.await.unwrap().expect("the page is read");
    let sizes: Vec<_> = resources
        .iter()
        .map(|r| (r.name.as_str(), r.size))
        .collect();
    assert_eq!(sizes, [("a", None), ("b", None), ("c", Some(12))]);
    let annotations = resources[1].annotations.as_ref().expect("annotations kept");
    assert_eq!(annotations.priority, None);
    assert_eq!(annotations.audience.as_deref(), Some(&[Role::User][..]));

    let prompts = tokio::spawn(async move { client.list_prompts().await });
    answer(
        &mut peer,
        json!({"prompts": [
            {"name": "p", "arguments": [{"name": "x", "required": "yes"}, {"required": true}]},
        ]}),
    )
    .await;
    let prompts = prompts.await.unwrap().expect("the page is read");
    let arguments = prompts[0].arguments.as_deref().expect("arguments kept");
    assert_eq!(arguments.len(), 1);
    assert_eq!(
        (arguments[0].name.as_str(), arguments[0].required),
        ("x", None)
    );
}

#[tokio::test]
async fn a_broken_item_is_left_out_and_the_rest_of_the_list_kept() {
    let (client, mut peer) = ready(ClientCapabilities::default(), json!({"tools": {}})).await;
    let tools = tokio::spawn(async move { client.list_tools().await });
    answer(
        &mut peer,
        json!({"tools": [
        {"name": "a", "inputSchema": {"type": "object"}},
        {"description": "no name", "inputSchema": {"type": "object"}},
    ], "nextCursor": "2"}),
    )
    .await;
    answer(
        &mut peer,
        json!({"tools": [
            {"name": "no schema"},
            {"name": "c", "inputSchema": {"type": "object"}},
        ]}),
    )
    .await;
    let tools = tools.await.unwrap().expect("the list is read");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["a", "c"]);
    // Each left-out item says where it stood in the whole list, and why.
    let skipped: Vec<String> = tools.skipped.iter().map(ToString::to_string).collect();
    assert_eq!(
        skipped,
        [
            "item 1 left out: missing field `name`",
            "item 2 (\"no schema\") left out: missing field `inputSchema`"
        ]
    );
}

#[tokio::test]
async fn a_log_message_with_an_unknown_level_is_still_delivered() {
    let (sender, mut notifications) = mpsc::unbounded_channel();
    let (handshake, mut peer) = connect_with(Notifications(sender), ClientCapabilities::default());
    next_json(&mut peer).await;
    send(&peer, init_result("2025-11-25", json!({"logging": {}}))).await;
    let _client = handshake.await.unwrap().unwrap();
    send(
        &peer,
        json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "verbose", "logger": "db", "data": "connected"}}),
    )
    .await;
    let ServerNotification::Log(log) = notifications.recv().await.expect("a notification") else {
        panic!("the log line was not read as one")
    };
    assert_eq!(log.level, None);
    assert_eq!(
        (log.logger.as_deref(), &log.data),
        (Some("db"), &json!("connected"))
    );
}
