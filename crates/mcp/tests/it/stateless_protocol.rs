//! The 2026-07-28 client over an in-memory transport, checked against the exact JSON on
//! the wire: the probe and its fallback, the per-request `_meta`, multi round-trip
//! requests and their bound, and the `subscriptions/listen` stream opened again after the
//! server ends it.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use switchboard_mcp::client::input_required::MAX_INPUT_ROUNDS;
use switchboard_mcp::client::{
    Client, ClientConfig, ClientError, ClientHandler, Era, EraSetting, ServerNotification,
};
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::memory::{self, MemoryPeer};
use switchboard_mcp::types::{
    ClientCapabilities, ElicitContent, ElicitRequestParams, ElicitResult, ListRootsResult, Root,
};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Answers forms with a fixed nickname, shares one folder, and keeps what the server told.
struct Person {
    notifications: mpsc::UnboundedSender<ServerNotification>,
}

impl ClientHandler for Person {
    async fn list_roots(&self) -> Result<ListRootsResult, ErrorObject> {
        Ok(ListRootsResult::new(vec![Root::new("file:///work", None)]))
    }

    async fn elicit(&self, _: ElicitRequestParams) -> Result<ElicitResult, ErrorObject> {
        let content: ElicitContent =
            serde_json::from_value(json!({"nickname": "Ada"})).expect("a form answer");
        Ok(ElicitResult::accepted(Some(content)))
    }

    fn notification(&self, notification: ServerNotification) {
        let _ = self.notifications.send(notification);
    }
}

const META: &str = "_meta";

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "switchboard-tests", "version": "1.2.3"},
        "io.modelcontextprotocol/clientCapabilities": {
            "roots": {"listChanged": true},
            "sampling": {},
            "elicitation": {"form": {}, "url": {}},
        },
    })
}

type Connecting = JoinHandle<Result<Client, ClientError>>;

fn connect(
    era: EraSetting,
    probe_timeout: Duration,
) -> (
    Connecting,
    MemoryPeer,
    mpsc::UnboundedReceiver<ServerNotification>,
) {
    let (transport, peer) = memory::pair(discard_log());
    let (notifications, heard) = mpsc::unbounded_channel();
    let mut config = ClientConfig::new("switchboard-tests", "1.2.3");
    config.capabilities = ClientCapabilities::all();
    config.request_timeout = Duration::from_secs(5);
    config.probe_timeout = probe_timeout;
    config.era = era;
    let connecting = tokio::spawn(Client::connect(
        transport,
        Arc::new(Person { notifications }),
        config,
    ));
    (connecting, peer, heard)
}

async fn next_json(peer: &mut MemoryPeer) -> Value {
    let text = tokio::time::timeout(Duration::from_secs(10), peer.from_client.recv())
        .await
        .expect("the client sent something in time")
        .expect("the client sent something");
    serde_json::from_str(&text).expect("the client sends JSON")
}

async fn send(peer: &MemoryPeer, message: Value) {
    peer.to_client
        .send(message.to_string())
        .await
        .expect("the client listens");
}

fn answer(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// Reads the probe and the `ping` that follows it on a stream, answering the ping (the
/// server is up) when `up`; returns the probe.
async fn probed(peer: &mut MemoryPeer, up: bool) -> Value {
    let probe = next_json(peer).await;
    assert_eq!(probe["method"], "server/discover");
    let ping = next_json(peer).await;
    assert_eq!(
        ping,
        json!({"jsonrpc": "2.0", "id": 2, "method": "ping", "params": {META: meta()}}),
        "a ping follows the probe, in its revision"
    );
    if up {
        send(peer, answer(&ping["id"], json!({}))).await;
    }
    probe
}

/// A modern server with tools that change: the probe answered, the client connected, and
/// the first listen request (returned) read.
async fn modern() -> (
    Client,
    MemoryPeer,
    mpsc::UnboundedReceiver<ServerNotification>,
    Value,
) {
    let (connecting, mut peer, heard) = connect(EraSetting::Auto, Duration::from_secs(5));
    let probe = probed(&mut peer, true).await;
    assert_eq!(
        probe,
        json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {META: meta()}})
    );
    send(
        &peer,
        answer(
            &probe["id"],
            json!({
                "resultType": "complete", "supportedVersions": ["2026-07-28", "2025-11-25"],
                "capabilities": {"tools": {"listChanged": true}},
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "fake", "version": "2"}},
                "ttlMs": 0, "cacheScope": "public",
            }),
        ),
    )
    .await;
    let client = connecting.await.expect("no panic").expect("connected");
    let listen = next_json(&mut peer).await;
    (client, peer, heard, listen)
}

#[tokio::test]
async fn a_discovered_server_is_modern_and_every_request_carries_the_meta() {
    let (client, mut peer, _, listen) = modern().await;
    assert_eq!(client.era().era, Era::Stateless);
    assert_eq!(client.server().server_info.name, "fake");
    assert_eq!(
        listen,
        json!({"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen", "params": {
            "notifications": {"toolsListChanged": true}, META: meta()}})
    );

    let listing = tokio::spawn({
        let client = client.clone();
        async move { client.list_tools().await }
    });
    let list = next_json(&mut peer).await;
    assert_eq!(
        list,
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {META: meta()}})
    );
    send(
        &peer,
        answer(
            &list["id"],
            json!({"resultType": "complete", "tools": [], "ttlMs": 0}),
        ),
    )
    .await;
    assert!(listing.await.unwrap().unwrap().items.is_empty());
}

#[tokio::test]
async fn an_unanswered_probe_falls_back_to_initialize_and_says_so() {
    let (connecting, mut peer, _) = connect(EraSetting::Auto, Duration::from_millis(200));
    // The stateful server is up (it answers the ping) but says nothing to a method it
    // does not know.
    probed(&mut peer, true).await;
    let cancelled = next_json(&mut peer).await;
    assert_eq!(cancelled["method"], "notifications/cancelled");
    let initialize = next_json(&mut peer).await;
    assert_eq!(initialize["method"], "initialize");
    send(
        &peer,
        answer(
            &initialize["id"],
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
            "serverInfo": {"name": "old", "version": "1"}}),
        ),
    )
    .await;
    let client = connecting.await.unwrap().expect("connected");
    assert_eq!(client.era().era, Era::Session);
    assert_eq!(
        client.era().reason.to_string(),
        "server/discover got no answer within 0.2 s of the server answering a ping; \
         initialize answered 2025-06-18"
    );
}

/// A server still starting reads nothing for longer than the probe's short wait: the wait
/// begins only when it is up (answers the ping), so its late discovery is taken.
#[tokio::test(start_paused = true)]
async fn a_server_slow_to_start_is_waited_for_before_the_probes_short_wait() {
    let (connecting, mut peer, _) = connect(EraSetting::Auto, Duration::from_millis(200));
    let probe = probed(&mut peer, false).await;
    tokio::time::advance(Duration::from_secs(2)).await;
    send(
        &peer,
        answer(
            &probe["id"],
            json!({"resultType": "complete", "supportedVersions": ["2026-07-28"],
                "capabilities": {}}),
        ),
    )
    .await;
    let client = connecting.await.unwrap().expect("connected");
    assert_eq!(client.era().era, Era::Stateless);
    assert_eq!(
        client.era().reason.to_string(),
        "server/discover answered with 2026-07-28"
    );
}

#[tokio::test]
async fn an_unsupported_version_error_is_a_modern_server_not_a_reason_to_fall_back() {
    let (connecting, mut peer, _) = connect(EraSetting::Auto, Duration::from_secs(5));
    let probe = probed(&mut peer, true).await;
    send(
        &peer,
        json!({"jsonrpc": "2.0", "id": probe["id"], "error": {"code": -32022,
        "message": "Unsupported protocol version",
        "data": {"supported": ["2027-01-01"], "requested": "2026-07-28"}}}),
    )
    .await;
    match connecting.await.unwrap() {
        Err(ClientError::NoSharedRevision { supported }) => assert_eq!(supported, "2027-01-01"),
        Err(other) => panic!("expected NoSharedRevision, got {other}"),
        Ok(_) => panic!("connected to a server that speaks no shared revision"),
    }
    assert!(
        peer.from_client.try_recv().is_err(),
        "no initialize after a modern error"
    );
}

/// A probe refused for its revision is asked again once, stamped with the newest revision
/// the server lists (even the one just refused, as the conformance suite's
/// `request-metadata` expects); refused again, the client takes the stateful revision the
/// server lists.
#[tokio::test]
async fn an_unsupported_version_error_is_retried_once_with_the_revision_listed() {
    let (connecting, mut peer, _) = connect(EraSetting::Auto, Duration::from_secs(5));
    let refuse = |id: &Value| {
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32022,
        "message": "Unsupported protocol version",
        "data": {"supported": ["2026-07-28", "2025-11-25"], "requested": "2026-07-28"}}})
    };
    let probe = probed(&mut peer, true).await;
    send(&peer, refuse(&probe["id"])).await;
    let again = next_json(&mut peer).await;
    assert_eq!(again["method"], "server/discover", "{again}");
    assert_eq!(
        again["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    let ping = next_json(&mut peer).await;
    assert_eq!(
        ping["method"], "ping",
        "the retry is a probe as the first was: {ping}"
    );
    send(&peer, answer(&ping["id"], json!({}))).await;
    send(&peer, refuse(&again["id"])).await;
    let next = next_json(&mut peer).await;
    assert_eq!(next["method"], "initialize", "{next}");
    send(
        &peer,
        answer(
            &next["id"],
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
            "serverInfo": {"name": "both", "version": "1"}}),
        ),
    )
    .await;
    let client = connecting.await.unwrap().expect("connected");
    assert_eq!(client.era().era, Era::Session);
    assert_eq!(
        client.era().reason.to_string(),
        "server/discover was refused: the server speaks 2026-07-28, 2025-11-25; \
         initialize answered 2025-11-25"
    );
}

#[tokio::test]
async fn input_required_is_answered_and_retried_with_the_answers_and_the_state() {
    let (client, mut peer, _, _listen) = modern().await;
    let calling = tokio::spawn({
        let client = client.clone();
        async move {
            client
                .call_tool("greet", None, client.request_options())
                .await
        }
    });
    let first = next_json(&mut peer).await;
    assert_eq!(first["params"]["name"], "greet");
    send(&peer, answer(&first["id"], json!({"resultType": "input_required",
        "inputRequests": {
            "who": {"method": "elicitation/create", "params": {"mode": "form", "message": "Name?",
                "requestedSchema": {"type": "object", "properties": {"nickname": {"type": "string"}}}}},
            "where": {"method": "roots/list"}},
        "requestState": "opaque-1"})))
    .await;
    let retry = next_json(&mut peer).await;
    assert_ne!(retry["id"], first["id"]);
    assert_eq!(
        retry["params"],
        json!({"name": "greet", META: meta(),
            "inputResponses": {
                "who": {"action": "accept", "content": {"nickname": "Ada"}},
                "where": {"roots": [{"uri": "file:///work"}]}},
            "requestState": "opaque-1"})
    );
    send(
        &peer,
        answer(
            &retry["id"],
            json!({"resultType": "complete",
        "content": [{"type": "text", "text": "Hello Ada"}]}),
        ),
    )
    .await;
    let result = calling.await.unwrap().expect("the call ends");
    assert_eq!(result.content[0].as_text(), Some("Hello Ada"));
}

#[tokio::test]
async fn a_server_that_asks_for_input_forever_is_given_up_on() {
    let (client, mut peer, _, _listen) = modern().await;
    let calling = tokio::spawn({
        let client = client.clone();
        async move {
            client
                .call_tool("greet", None, client.request_options())
                .await
        }
    });
    for _ in 0..=MAX_INPUT_ROUNDS {
        let request = next_json(&mut peer).await;
        send(
            &peer,
            answer(
                &request["id"],
                json!({"resultType": "input_required",
            "inputRequests": {"where": {"method": "roots/list"}}}),
            ),
        )
        .await;
    }
    match calling.await.unwrap() {
        Err(ClientError::TooManyInputRounds { rounds, .. }) => assert_eq!(rounds, MAX_INPUT_ROUNDS),
        other => panic!("expected TooManyInputRounds, got {other:?}"),
    }
}

#[tokio::test]
async fn the_listen_stream_carries_changes_and_is_opened_again_when_the_server_ends_it() {
    let (_client, mut peer, mut heard, listen) = modern().await;
    let subscription = json!({"io.modelcontextprotocol/subscriptionId": listen["id"]});
    send(
        &peer,
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
        "params": {"notifications": {"toolsListChanged": true}, META: subscription}}),
    )
    .await;
    send(
        &peer,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
        "params": {META: subscription}}),
    )
    .await;
    let first = tokio::time::timeout(Duration::from_secs(5), heard.recv())
        .await
        .unwrap();
    assert_eq!(
        first,
        Some(ServerNotification::ToolListChanged),
        "the acknowledgement is not passed on"
    );

    // The server ends the subscription gracefully; the client listens again.
    send(
        &peer,
        answer(
            &listen["id"],
            json!({"resultType": "complete", META: subscription}),
        ),
    )
    .await;
    let again = next_json(&mut peer).await;
    assert_eq!(again["method"], "subscriptions/listen");
    assert_ne!(again["id"], listen["id"]);
    assert_eq!(
        again["params"]["notifications"],
        json!({"toolsListChanged": true})
    );
}

/// A server that offers resource updates but has no `subscriptions/listen` refuses the
/// subscription at once, with the reason, rather than leaving it to time out.
#[tokio::test]
async fn a_subscription_to_a_server_without_listen_is_refused_at_once() {
    let (connecting, mut peer, _heard) = connect(EraSetting::Auto, Duration::from_secs(5));
    let probe = probed(&mut peer, true).await;
    let discovered = json!({
        "resultType": "complete", "supportedVersions": ["2026-07-28"],
        "capabilities": {"resources": {"subscribe": true}},
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "fake", "version": "2"}},
    });
    send(&peer, answer(&probe["id"], discovered)).await;
    let client = connecting.await.expect("no panic").expect("connected");
    let subscribing = tokio::spawn(async move { client.subscribe("fake://watched").await });
    let listen = next_json(&mut peer).await;
    assert_eq!(listen["method"], "subscriptions/listen");
    let refusal = json!({"jsonrpc": "2.0", "id": listen["id"],
        "error": {"code": -32601, "message": "Method not found"}});
    send(&peer, refusal).await;
    let refused = subscribing.await.expect("no panic");
    assert!(
        matches!(refused, Err(ClientError::NotOffered(_))),
        "{refused:?}"
    );
}

/// A subscription reopens the listen stream with the resource in its filter; the server's
/// acknowledgement of the stream just closed, crossing its cancellation, is not taken for
/// the new stream's: the subscription waits for the acknowledgement that names its stream.
#[tokio::test]
async fn a_listen_acknowledgement_counts_only_for_the_stream_it_names() {
    let (connecting, mut peer, _heard) = connect(EraSetting::Auto, Duration::from_secs(5));
    let probe = probed(&mut peer, true).await;
    let discovered = json!({
        "resultType": "complete", "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {"listChanged": true}, "resources": {"subscribe": true}},
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "fake", "version": "2"}},
    });
    send(&peer, answer(&probe["id"], discovered)).await;
    let client = connecting.await.expect("no panic").expect("connected");
    let first = next_json(&mut peer).await;
    assert_eq!(first["method"], "subscriptions/listen");

    let subscribing = tokio::spawn({
        let client = client.clone();
        async move { client.subscribe("fake://watched").await }
    });
    let cancelled = next_json(&mut peer).await;
    assert_eq!(cancelled["method"], "notifications/cancelled");
    assert_eq!(cancelled["params"]["requestId"], first["id"]);
    let second = next_json(&mut peer).await;
    assert_eq!(second["method"], "subscriptions/listen");
    assert_eq!(
        second["params"]["notifications"]["resourceSubscriptions"],
        json!(["fake://watched"])
    );
    let acknowledged = |listen: &Value, notifications: Value| {
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": {"notifications": notifications,
                META: {"io.modelcontextprotocol/subscriptionId": listen["id"]}}})
    };
    // The first stream's acknowledgement arrives late, without the resource; a ping
    // answered after it shows the client has read it.
    send(
        &peer,
        acknowledged(&first, json!({"toolsListChanged": true})),
    )
    .await;
    send(
        &peer,
        json!({"jsonrpc": "2.0", "id": "after", "method": "ping"}),
    )
    .await;
    assert_eq!(next_json(&mut peer).await["id"], "after");
    send(
        &peer,
        acknowledged(
            &second,
            json!({"toolsListChanged": true, "resourceSubscriptions": ["fake://watched"]}),
        ),
    )
    .await;
    subscribing
        .await
        .expect("no panic")
        .expect("subscribed once the new stream is acknowledged");
    let listening = client.listening().expect("an acknowledged stream");
    assert_eq!(
        listening.resource_subscriptions,
        Some(vec!["fake://watched".to_owned()])
    );
}

/// Answers the next `tools/list` request with `page`, checking which cursor it asks for.
async fn serve_page(peer: &mut MemoryPeer, cursor: Option<&str>, page: Value) {
    let request = next_json(peer).await;
    assert_eq!(request["method"], "tools/list");
    assert_eq!(
        request["params"].get("cursor").and_then(Value::as_str),
        cursor
    );
    send(peer, answer(&request["id"], page)).await;
}

fn tool(name: &str) -> Value {
    json!({"name": name, "inputSchema": {"type": "object"}})
}

#[tokio::test]
async fn list_pages_are_kept_for_their_ttl_merged_and_dropped_when_the_list_changes() {
    let (client, mut peer, mut heard, listen) = modern().await;
    let listing = |client: &Client| {
        let client = client.clone();
        tokio::spawn(async move { client.list_tools().await })
    };
    let names = |listing: switchboard_mcp::types::Listing<switchboard_mcp::types::Tool>| {
        listing
            .items
            .into_iter()
            .map(|t| t.name)
            .collect::<Vec<_>>()
    };

    let first = listing(&client);
    serve_page(
        &mut peer,
        None,
        json!({"resultType": "complete", "tools": [tool("a")],
        "nextCursor": "p2", "ttlMs": 60000, "cacheScope": "public"}),
    )
    .await;
    serve_page(
        &mut peer,
        Some("p2"),
        json!({"resultType": "complete", "tools": [tool("b")],
        "ttlMs": 60000, "cacheScope": "public"}),
    )
    .await;
    assert_eq!(names(first.await.unwrap().unwrap()), ["a", "b"]);

    // Fresh: both pages come from the cache, and nothing is asked.
    let cached = tokio::time::timeout(Duration::from_secs(5), listing(&client))
        .await
        .expect("a fresh list is not asked for again");
    assert_eq!(names(cached.unwrap().unwrap()), ["a", "b"]);
    assert!(
        peer.from_client.try_recv().is_err(),
        "a fresh list was asked for again"
    );

    // The server says the list changed: it is read again from the first page.
    let subscription = json!({"io.modelcontextprotocol/subscriptionId": listen["id"]});
    send(
        &peer,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
        "params": {META: subscription}}),
    )
    .await;
    // The handler hears of it after the cache forgot the list.
    let heard_it = tokio::time::timeout(Duration::from_secs(5), heard.recv())
        .await
        .unwrap();
    assert_eq!(heard_it, Some(ServerNotification::ToolListChanged));
    let again = listing(&client);
    let request = next_json(&mut peer).await;
    assert_eq!(request["method"], "tools/list");
    assert!(request["params"].get("cursor").is_none());
    send(
        &peer,
        answer(
            &request["id"],
            json!({"resultType": "complete",
        "tools": [tool("a"), tool("c")], "ttlMs": 0}),
        ),
    )
    .await;
    assert_eq!(names(again.await.unwrap().unwrap()), ["a", "c"]);

    // A page without a positive ttl is never kept.
    let once_more = listing(&client);
    serve_page(
        &mut peer,
        None,
        json!({"resultType": "complete", "tools": [], "ttlMs": 0}),
    )
    .await;
    assert!(once_more.await.unwrap().unwrap().items.is_empty());
}

#[tokio::test]
async fn a_header_mismatch_reads_the_tools_again_and_retries_once_then_says_why() {
    let (client, mut peer, _, _listen) = modern().await;
    let calling = tokio::spawn({
        let client = client.clone();
        async move {
            client
                .call_tool("sql", None, client.request_options())
                .await
        }
    });
    let mismatch = |id: &Value| {
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32020,
            "message": "Header mismatch: Mcp-Param-Region missing"}})
    };
    let first = next_json(&mut peer).await;
    assert_eq!(first["method"], "tools/call");
    send(&peer, mismatch(&first["id"])).await;
    serve_page(
        &mut peer,
        None,
        json!({"resultType": "complete", "tools": [tool("sql")], "ttlMs": 0}),
    )
    .await;
    let retry = next_json(&mut peer).await;
    assert_eq!(retry["method"], "tools/call");
    assert_ne!(retry["id"], first["id"]);
    send(&peer, mismatch(&retry["id"])).await;
    match calling.await.unwrap() {
        Err(error @ ClientError::HeaderMismatch { .. }) => assert_eq!(
            error.to_string(),
            "the server refused tools/call: its HTTP headers did not match the request \
             (Header mismatch: Mcp-Param-Region missing)"
        ),
        other => panic!("expected HeaderMismatch, got {other:?}"),
    }
}

#[tokio::test]
async fn a_modern_server_too_slow_for_the_probe_is_asked_again_when_it_refuses_initialize() {
    let (connecting, mut peer, _) = connect(EraSetting::Auto, Duration::from_millis(200));
    probed(&mut peer, true).await;
    assert_eq!(
        next_json(&mut peer).await["method"],
        "notifications/cancelled"
    );
    let initialize = next_json(&mut peer).await;
    assert_eq!(initialize["method"], "initialize");
    // The server, up at last, took the probe's envelope and now speaks 2026-07-28 only.
    send(
        &peer,
        json!({"jsonrpc": "2.0", "id": initialize["id"], "error": {"code": -32022,
        "message": "this connection serves 2026-07-28",
        "data": {"supported": ["2026-07-28"], "requested": "2025-11-25"}}}),
    )
    .await;
    let again = next_json(&mut peer).await;
    assert_eq!(again["method"], "server/discover");
    send(
        &peer,
        answer(
            &again["id"],
            json!({"resultType": "complete",
        "supportedVersions": ["2026-07-28"], "capabilities": {}}),
        ),
    )
    .await;
    let client = connecting.await.unwrap().expect("connected");
    assert_eq!(client.era().era, Era::Stateless);
    assert_eq!(
        client.era().reason.to_string(),
        "server/discover got no answer within 0.2 s of the server answering a ping, \
         then server/discover answered with 2026-07-28"
    );
}
