//! The typed client over an in-memory transport: the handshake, capabilities honoured both
//! ways, pagination and the safe defaults, checked against the exact JSON on the wire.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};
use switchboard_mcp::client::{
    Client, ClientConfig, ClientError, ClientHandler, DecliningHandler, EraSetting,
    ServerNotification,
};
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::memory::{self, MemoryPeer};
use switchboard_mcp::types::{
    ClientCapabilities, ElicitationCapability, Role, SamplingCapability, Tool,
};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

fn config(capabilities: ClientCapabilities) -> ClientConfig {
    let mut config = ClientConfig::new("switchboard-tests", "1.2.3");
    config.capabilities = capabilities;
    config.request_timeout = Duration::from_secs(5);
    // These scripted servers speak the stateful era (see modern.rs for the other).
    config.era = EraSetting::Session;
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
    json!({"jsonrpc": "2.0", "id": 1, "result": {
        "protocolVersion": version,
        "capabilities": capabilities,
        "serverInfo": {"name": "fake", "version": "0.1"},
    }})
}

/// Completes the handshake with the given server capabilities.
async fn ready(capabilities: ClientCapabilities, server: Value) -> (Client, MemoryPeer) {
    ready_at("2025-11-25", capabilities, server).await
}

/// Completes the handshake in `version` with the given server capabilities.
async fn ready_at(
    version: &str,
    capabilities: ClientCapabilities,
    server: Value,
) -> (Client, MemoryPeer) {
    let (handshake, mut peer) = connect(capabilities);
    next_json(&mut peer).await;
    send(&peer, init_result(version, server)).await;
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

/// A client that renders MCP Apps' views says so in `initialize`, under the extensions.
#[tokio::test]
async fn a_client_that_renders_views_declares_the_apps_extension_in_initialize() {
    let (_handshake, mut peer) = connect(ClientCapabilities::default().with_apps());
    let initialize = next_json(&mut peer).await;
    assert_eq!(
        initialize["params"]["capabilities"],
        json!({"extensions": {"io.modelcontextprotocol/ui":
            {"mimeTypes": ["text/html;profile=mcp-app"]}}})
    );
}

/// A ping interval of zero would ping without pause: it is refused, saying so, before
/// anything reaches the server.
#[tokio::test(start_paused = true)]
async fn a_ping_interval_of_zero_is_refused_before_anything_is_sent() {
    let (transport, mut peer) = memory::pair(discard_log());
    let mut config = config(ClientCapabilities::default());
    config.ping_interval = Some(Duration::ZERO);
    let outcome = Client::connect(transport, Arc::new(DecliningHandler), config).await;
    let refused = outcome.err().expect("refused");
    assert_eq!(
        refused.to_string(),
        "the client configuration is not valid: the ping interval must be more than zero (none for no pings)"
    );
    assert!(peer.from_client.recv().await.is_none(), "nothing was sent");
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
        json!({"jsonrpc": "2.0", "id": 1, "result": {
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

fn tool(definition: Value) -> Tool {
    serde_json::from_value(definition).expect("a tool definition")
}

fn arguments(value: Value) -> Option<Map<String, Value>> {
    value.as_object().cloned()
}

/// A client of a server with tools that speaks `version`.
async fn with_tools(version: &str) -> (Client, MemoryPeer) {
    ready_at(version, ClientCapabilities::default(), json!({"tools": {}})).await
}

#[tokio::test]
async fn arguments_that_do_not_fit_the_input_schema_are_refused_before_the_call() {
    let (client, mut peer) = with_tools("2025-11-25").await;
    let weather = tool(json!({"name": "weather", "inputSchema": {
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
        "required": ["city"]
    }}));
    let refused = client
        .call_tool_checked(
            &weather,
            arguments(json!({"days": 0})),
            client.request_options(),
        )
        .await
        .unwrap_err();
    let ClientError::InvalidArguments { tool, errors } = &refused else {
        panic!("{refused:?}")
    };
    assert_eq!(tool, "weather");
    let found: Vec<(&str, &str)> = errors
        .iter()
        .map(|e| (e.pointer.as_str(), e.message.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("", "\"city\" is a required property"),
            ("/days", "0 is less than the minimum of 1")
        ]
    );
    assert_eq!(
        refused.to_string(),
        "the arguments for weather do not fit its input schema: \"city\" is a required property; /days: 0 is less than the minimum of 1"
    );
    assert!(peer.from_client.try_recv().is_err(), "nothing was sent");

    let call = tokio::spawn({
        let client = client.clone();
        async move {
            let options = client.request_options();
            let args = arguments(json!({"city": "Paris"}));
            client.call_tool_checked(&weather, args, options).await
        }
    });
    let request = answer(&mut peer, json!({"content": []})).await;
    assert_eq!(
        request,
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "weather", "arguments": {"city": "Paris"}}})
    );
    assert!(call.await.unwrap().is_ok());
}

#[tokio::test]
async fn structured_content_must_be_there_and_fit_the_output_schema() {
    let (client, mut peer) = with_tools("2025-11-25").await;
    let weather = tool(json!({"name": "weather", "inputSchema": {"type": "object"},
        "outputSchema": {"type": "object",
            "properties": {"temperature": {"type": "number"}}, "required": ["temperature"]}}));
    let mut outcomes = Vec::new();
    for result in [
        json!({"content": [], "structuredContent": {"temperature": 21.5}}),
        json!({"content": [], "structuredContent": {"temperature": "warm"}}),
        json!({"content": [{"type": "text", "text": "21.5"}], "isError": false}),
        json!({"content": [{"type": "text", "text": "no weather today"}], "isError": true}),
    ] {
        let call = tokio::spawn({
            let (client, weather) = (client.clone(), weather.clone());
            async move {
                let options = client.request_options();
                client.call_tool_checked(&weather, None, options).await
            }
        });
        answer(&mut peer, result).await;
        outcomes.push(call.await.unwrap());
    }
    assert!(outcomes[0].is_ok());
    let Err(ClientError::InvalidStructuredContent { errors, result, .. }) = &outcomes[1] else {
        panic!("{:?}", outcomes[1])
    };
    assert_eq!(errors[0].pointer, "/temperature");
    assert_eq!(
        result.structured_content,
        Some(json!({"temperature": "warm"}))
    );
    let Err(missing @ ClientError::MissingStructuredContent { result, .. }) = &outcomes[2] else {
        panic!("{:?}", outcomes[2])
    };
    assert_eq!(
        missing.to_string(),
        "weather declares an output schema, but its result has no structured content"
    );
    assert_eq!(result.content[0].as_text(), Some("21.5"));
    assert!(outcomes[3].as_ref().is_ok_and(|r| r.failed()));
}

#[tokio::test]
async fn the_default_dialect_follows_the_revision_and_an_explicit_one_wins() {
    // `dependentRequired` exists in 2020-12, not in draft-07.
    let schema = json!({"type": "object", "dependentRequired": {"from": ["to"]}});
    let plain = tool(json!({"name": "move", "inputSchema": schema}));
    let mut draft_07 = schema.clone();
    draft_07["$schema"] = json!("http://json-schema.org/draft-07/schema#");
    let explicit = tool(json!({"name": "move", "inputSchema": draft_07}));
    let args = || arguments(json!({"from": "a"}));
    for (version, definition, refused) in [
        ("2025-11-25", &plain, true),
        ("2025-06-18", &plain, false),
        ("2025-11-25", &explicit, false),
    ] {
        let (client, mut peer) = with_tools(version).await;
        let call = tokio::spawn({
            let (client, definition) = (client.clone(), definition.clone());
            async move {
                let options = client.request_options();
                client.call_tool_checked(&definition, args(), options).await
            }
        });
        if refused {
            let outcome = call.await.unwrap();
            assert!(
                matches!(outcome, Err(ClientError::InvalidArguments { .. })),
                "{version}: {outcome:?}"
            );
        } else {
            answer(&mut peer, json!({"content": []})).await;
            assert!(call.await.unwrap().is_ok(), "{version}");
        }
    }
}

#[tokio::test]
async fn schemas_that_reach_out_or_are_too_large_are_refused_without_a_call() {
    let (client, mut peer) = with_tools("2025-11-25").await;
    let mut nested = json!({"type": "string"});
    for _ in 0..100 {
        nested = json!({"type": "object", "properties": {"a": nested}});
    }
    for (schema, why) in [
        (
            json!({"$ref": "https://example.com/schema.json"}),
            "https://example.com/schema.json",
        ),
        (
            json!({"$schema": "https://example.com/my-dialect", "type": "object"}),
            "Unknown meta-schema",
        ),
        (nested, "too large"),
    ] {
        let definition = tool(json!({"name": "t", "inputSchema": schema}));
        let outcome = client
            .call_tool_checked(&definition, None, client.request_options())
            .await;
        let Err(unusable @ ClientError::UnusableSchema { .. }) = &outcome else {
            panic!("{outcome:?}")
        };
        assert!(unusable.to_string().contains(why), "{unusable}");
    }
    assert!(peer.from_client.try_recv().is_err(), "nothing was sent");
}

/// A client that samples, with tools when `tools`.
fn sampling(tools: bool) -> ClientCapabilities {
    let sampling = ClientCapabilities {
        sampling: Some(SamplingCapability::default()),
        ..ClientCapabilities::default()
    };
    if tools {
        sampling.with_sampling_tools()
    } else {
        sampling
    }
}

/// Sends a `sampling/createMessage` request and returns the client's answer.
async fn sample(peer: &mut MemoryPeer, id: u64, params: Value) -> Value {
    send(
        peer,
        json!({"jsonrpc": "2.0", "id": id, "method": "sampling/createMessage", "params": params}),
    )
    .await;
    next_json(peer).await
}

fn invalid_params(id: u64, detail: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id,
        "error": {"code": -32602, "message": format!("invalid params: {detail}")}})
}

/// What the default handler answers: the request reached it.
fn declined(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id,
        "error": {"code": -1, "message": "sampling was declined"}})
}

fn weather_tool() -> Value {
    json!({"name": "get_weather", "inputSchema": {"type": "object",
        "properties": {"city": {"type": "string"}}, "required": ["city"]}})
}

fn text(role: &str, text: &str) -> Value {
    json!({"role": role, "content": {"type": "text", "text": text}})
}

fn tool_uses(ids: &[&str]) -> Value {
    let uses: Vec<Value> = ids
        .iter()
        .map(|id| json!({"type": "tool_use", "id": id, "name": "get_weather", "input": {"city": "Paris"}}))
        .collect();
    json!({"role": "assistant", "content": uses})
}

fn tool_results(ids: &[&str]) -> Value {
    let results: Vec<Value> = ids
        .iter()
        .map(|id| {
            json!({"type": "tool_result", "toolUseId": id,
            "content": [{"type": "text", "text": "18°C"}]})
        })
        .collect();
    json!({"role": "user", "content": results})
}

#[tokio::test]
async fn tools_in_a_sampling_request_need_the_declared_capability() {
    let (_client, mut peer) = ready(sampling(false), json!({})).await;
    let with_tools = json!({"messages": [text("user", "Weather in Paris?")],
        "tools": [weather_tool()], "maxTokens": 100});
    assert_eq!(
        sample(&mut peer, 1, with_tools.clone()).await,
        invalid_params(
            1,
            "the request offers tools, but this client did not declare sampling.tools"
        )
    );
    let with_choice = json!({"messages": [text("user", "Hi")],
        "toolChoice": {"mode": "none"}, "maxTokens": 100});
    assert_eq!(
        sample(&mut peer, 2, with_choice.clone()).await,
        invalid_params(
            2,
            "the request sets toolChoice, but this client did not declare sampling.tools"
        )
    );

    let (_client, mut peer) = ready(sampling(true), json!({})).await;
    assert_eq!(sample(&mut peer, 1, with_tools).await, declined(1));
    assert_eq!(sample(&mut peer, 2, with_choice).await, declined(2));
}

#[tokio::test]
async fn tool_results_must_answer_the_tool_uses_just_before_them() {
    let (_client, mut peer) = ready(sampling(true), json!({})).await;
    let ask = text("user", "Weather in Paris and London?");
    let mut mixed = tool_results(&["a"]);
    mixed["content"]
        .as_array_mut()
        .expect("a list")
        .insert(0, json!({"type": "text", "text": "Here are the results:"}));
    let cases = [
        (
            vec![ask.clone(), tool_uses(&["a"]), mixed],
            "messages[2]: a user message with tool results must hold nothing else",
        ),
        (
            vec![ask.clone(), tool_uses(&["a", "b"]), tool_results(&["a"])],
            "messages[1]: tool use \"b\" is not answered by a tool result in the next message",
        ),
        (
            vec![ask.clone(), tool_uses(&["a"])],
            "messages[1]: tool use \"a\" is not answered by a tool result in the next message",
        ),
        (
            vec![ask.clone(), tool_uses(&["a"]), text("user", "never mind")],
            "messages[1]: tool use \"a\" is not answered by a tool result in the next message",
        ),
        (
            vec![ask.clone(), tool_uses(&["a"]), tool_results(&["a", "z"])],
            "messages[2]: tool result \"z\" answers no tool use of the message before it",
        ),
        (
            vec![ask.clone(), tool_results(&["a"])],
            "messages[1]: tool result \"a\" answers no tool use of the message before it",
        ),
        (
            vec![ask.clone(), tool_uses(&["a", "a"]), tool_results(&["a"])],
            "messages[1]: tool use id \"a\" appears twice",
        ),
        (
            vec![ask.clone(), tool_uses(&["a"]), tool_results(&["a", "a"])],
            "messages[2]: tool result \"a\" appears twice",
        ),
        (
            vec![json!({"role": "user", "content": tool_uses(&["a"])["content"]})],
            "messages[0]: tool uses belong in assistant messages",
        ),
        (
            vec![
                ask.clone(),
                json!({"role": "assistant", "content": tool_results(&["a"])["content"]}),
            ],
            "messages[1]: tool results belong in user messages",
        ),
    ];
    for (id, (messages, detail)) in (1..).zip(cases) {
        let params = json!({"messages": messages, "tools": [weather_tool()], "maxTokens": 100});
        assert_eq!(
            sample(&mut peer, id, params).await,
            invalid_params(id, detail)
        );
    }

    // The spec's own follow-up: every use answered, then the model may go on.
    let follow_up = json!({"messages": [
        ask, tool_uses(&["call_abc123", "call_def456"]),
        tool_results(&["call_def456", "call_abc123"])
    ], "tools": [weather_tool()], "toolChoice": {"mode": "none"}, "maxTokens": 1000});
    assert_eq!(sample(&mut peer, 99, follow_up).await, declined(99));
}
