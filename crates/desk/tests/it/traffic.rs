//! A server's traffic as the window's traffic view gets it, from real servers: the
//! handshake and a tool call both ways and paired, kept across a restart and within its
//! bounds, gone with the server, and never showing a secret of the server's configuration.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Value, json};
use switchboard_core::traffic::{
    KEEP_BYTES, MessageKind, TrafficDirection, TrafficEntry, TrafficLog,
};

use crate::common;
use crate::common::{DemoDesk, demo_desk};

/// Waits until the server's traffic holds what `check` looks for (messages are recorded
/// on their own task, just after they cross the connection).
async fn traffic_where(
    world: &DemoDesk,
    server: &str,
    check: impl Fn(&TrafficLog) -> bool,
) -> TrafficLog {
    let mut added = world.desk.servers().traffic_updates();
    loop {
        let log = world.desk.servers().traffic_of(server);
        if check(&log) {
            return log;
        }
        tokio::time::timeout(common::WAIT, added.recv())
            .await
            .unwrap_or_else(|_| panic!("the traffic of {server} never held it: {log:#?}"))
            .ok();
    }
}

fn find<'a>(
    log: &'a TrafficLog,
    direction: TrafficDirection,
    kind: MessageKind,
    method: &str,
) -> Vec<&'a TrafficEntry> {
    log.entries
        .iter()
        .filter(|e| {
            e.direction == direction && e.kind == kind && e.method.as_deref() == Some(method)
        })
        .collect()
}

/// The request for `method` the host sent and the response it got, checked to be a pair.
fn exchange<'a>(log: &'a TrafficLog, method: &str) -> (&'a TrafficEntry, &'a TrafficEntry) {
    let request = *find(log, TrafficDirection::Sent, MessageKind::Request, method)
        .last()
        .unwrap_or_else(|| panic!("no {method} request in {log:#?}"));
    let response = *find(
        log,
        TrafficDirection::Received,
        MessageKind::Response,
        method,
    )
    .last()
    .unwrap_or_else(|| panic!("no {method} response in {log:#?}"));
    assert_eq!(response.request_seq, Some(request.seq));
    assert_eq!(response.id, request.id);
    assert!(response.elapsed_ms.is_some());
    assert!(response.at_ms >= request.at_ms);
    for entry in [request, response] {
        let json: Value = serde_json::from_str(&entry.json).unwrap();
        assert_eq!(entry.bytes as usize, entry.json.len());
        assert_eq!(json["jsonrpc"], "2.0");
    }
    (request, response)
}

fn has_exchange(log: &TrafficLog, method: &str) -> bool {
    log.entries.iter().any(|e| {
        e.direction == TrafficDirection::Received
            && e.method.as_deref() == Some(method)
            && e.request_seq.is_some()
    })
}

#[tokio::test]
async fn the_demo_servers_handshake_and_a_tool_call_are_kept_paired_across_a_restart_until_it_is_removed()
 {
    let mut world = demo_desk(json!({})).await;
    let log = traffic_where(&world, "demo", |log| has_exchange(log, "tools/list")).await;
    // The era's probe comes first; the demo server, of the stateful era, refuses it.
    let probe = find(
        &log,
        TrafficDirection::Sent,
        MessageKind::Request,
        "server/discover",
    );
    let refused = find(
        &log,
        TrafficDirection::Received,
        MessageKind::Error,
        "server/discover",
    );
    assert_eq!((probe[0].seq, refused[0].request_seq), (1, Some(1)));
    // A ping follows the probe, to learn when the server is up (see the engine's `era`).
    let (ping, _) = exchange(&log, "ping");
    assert_eq!(ping.seq, 2);
    let (initialize, answer) = exchange(&log, "initialize");
    assert!(
        initialize.seq > refused[0].seq,
        "the handshake follows the refusal"
    );
    let answer: Value = serde_json::from_str(&answer.json).unwrap();
    assert!(
        answer["result"]["serverInfo"]["name"].is_string(),
        "{answer}"
    );
    assert_eq!(
        find(
            &log,
            TrafficDirection::Sent,
            MessageKind::Notification,
            "notifications/initialized"
        )
        .len(),
        1
    );
    exchange(&log, "tools/list");
    assert!(log.headers.is_empty(), "a stdio server sends no headers");
    assert_eq!((log.dropped, log.missed), (0, 0));

    let result = common::call_allowed(
        &world.desk,
        "demo",
        "echo",
        json!({"text": "over the wire"}),
    )
    .await;
    assert_eq!(common::text_of(&result), "over the wire");
    let log = traffic_where(&world, "demo", |log| has_exchange(log, "tools/call")).await;
    let (call, response) = exchange(&log, "tools/call");
    let call: Value = serde_json::from_str(&call.json).unwrap();
    assert_eq!(call["params"]["name"], "echo");
    assert!(response.json.contains("over the wire"));

    // A restart adds the new session's messages to what was kept.
    let before = log.entries.len();
    world.desk.servers().restart("demo").await.unwrap();
    world.running_again().await;
    let log = traffic_where(&world, "demo", |log| {
        find(
            log,
            TrafficDirection::Sent,
            MessageKind::Request,
            "initialize",
        )
        .len()
            == 2
    })
    .await;
    assert!(log.entries.len() > before);
    assert!(log.entries.windows(2).all(|w| w[0].seq < w[1].seq));
    assert_eq!(
        find(
            &log,
            TrafficDirection::Sent,
            MessageKind::Request,
            "tools/call"
        )
        .len(),
        1
    );

    world.desk.servers().remove_server("demo").await.unwrap();
    assert!(world.desk.servers().traffic_of("demo").entries.is_empty());
    world.desk.shutdown().await;
}

#[tokio::test]
async fn cleared_traffic_starts_empty_and_keeps_what_comes_after() {
    let world = demo_desk(json!({})).await;
    traffic_where(&world, "demo", |log| has_exchange(log, "tools/list")).await;

    world.desk.servers().clear_traffic("demo");
    let log = world.desk.servers().traffic_of("demo");
    assert!(log.entries.is_empty(), "{log:#?}");
    assert_eq!((log.dropped, log.missed), (0, 0));

    common::call_allowed(&world.desk, "demo", "echo", json!({"text": "after"})).await;
    let log = traffic_where(&world, "demo", |log| has_exchange(log, "tools/call")).await;
    exchange(&log, "tools/call");
    assert!(
        find(
            &log,
            TrafficDirection::Sent,
            MessageKind::Request,
            "initialize"
        )
        .is_empty(),
        "the messages before the clear stay gone: {log:#?}"
    );
    world.desk.shutdown().await;
}

#[tokio::test]
async fn large_messages_keep_the_traffic_within_its_bytes_dropping_the_oldest_and_saying_how_many()
{
    let world = demo_desk(json!({})).await;
    let text = "x".repeat(200 * 1024);
    // Each call is two messages of some 200 KiB; twenty of them are twice the bound.
    for _ in 0..20 {
        common::call_allowed(&world.desk, "demo", "echo", json!({"text": text})).await;
    }
    let log = traffic_where(&world, "demo", |log| {
        find(
            log,
            TrafficDirection::Received,
            MessageKind::Response,
            "tools/call",
        )
        .len()
            >= 2
            && log.dropped > 0
            && log.entries.last().is_some_and(|e| {
                e.method.as_deref() == Some("tools/call") && e.kind == MessageKind::Response
            })
    })
    .await;
    let kept: usize = log.entries.iter().map(|e| e.json.len()).sum();
    assert!(kept <= KEEP_BYTES, "{kept}");
    // The handshake went first.
    assert!(
        find(
            &log,
            TrafficDirection::Sent,
            MessageKind::Request,
            "initialize"
        )
        .is_empty()
    );
    assert_eq!(log.entries[0].seq, log.dropped + 1);
    world.desk.shutdown().await;
}

/// A secret of each kind in a server's configuration, as the server would echo it back.
const ENV_SECRET: &str = "env-s3cr3t-value-1";
const HEADER_SECRET: &str = "hdr-s3cr3t-token-2";
const KEY_SECRET: &str = "api-s3cr3t-key-3";

fn assert_nothing_secret(log: &TrafficLog) {
    let all = serde_json::to_string(log).unwrap();
    for secret in [ENV_SECRET, HEADER_SECRET, KEY_SECRET] {
        assert!(!all.contains(secret), "{secret} shows in {all}");
    }
}

#[tokio::test]
async fn an_env_secret_the_server_echoes_is_masked_in_its_traffic() {
    let servers = json!({"peer": {
        "command": common::rmcp_peer().display().to_string(),
        "args": ["stdio"],
        "env": {"PEER_TOKEN": ENV_SECRET, "PEER_MODE": "plain-mode"},
    }});
    let world = common::desk_on(
        servers,
        json!({}),
        switchboard_core::secrets::Secrets::new("switchboard-test-traffic"),
    )
    .await;
    for name in ["PEER_TOKEN", "PEER_MODE"] {
        common::call_allowed(&world.desk, "peer", "env", json!({"name": name})).await;
    }
    let log = traffic_where(&world, "peer", |log| {
        find(
            log,
            TrafficDirection::Received,
            MessageKind::Response,
            "tools/call",
        )
        .len()
            == 2
    })
    .await;
    let answers = find(
        &log,
        TrafficDirection::Received,
        MessageKind::Response,
        "tools/call",
    );
    assert!(answers[0].json.contains("••••"), "{}", answers[0].json);
    // What is not secret shows as it was.
    assert!(
        answers[1].json.contains("plain-mode"),
        "{}",
        answers[1].json
    );
    assert_nothing_secret(&log);
    world.desk.shutdown().await;
}

#[tokio::test]
async fn credential_headers_show_masked_and_never_in_the_messages() {
    let peer = common::HttpPeer::start().await;
    let servers = json!({"remote": {
        "url": peer.url,
        "headers": {
            "Authorization": format!("Bearer {HEADER_SECRET}"),
            "X-Api-Key": KEY_SECRET,
            "X-Client": "switchboard-tests",
        },
    }});
    let world = common::desk_on(
        servers,
        json!({}),
        switchboard_core::secrets::Secrets::new("switchboard-test-traffic"),
    )
    .await;
    for name in ["authorization", "x-api-key", "x-client"] {
        common::call_allowed(&world.desk, "remote", "header", json!({"name": name})).await;
    }
    let log = traffic_where(&world, "remote", |log| {
        find(
            log,
            TrafficDirection::Received,
            MessageKind::Response,
            "tools/call",
        )
        .len()
            == 3
    })
    .await;
    let headers: Vec<(&str, &str)> = log
        .headers
        .iter()
        .map(|h| (h.name.as_str(), h.value.as_str()))
        .collect();
    assert_eq!(
        headers,
        [
            ("Authorization", "Bearer …"),
            ("X-Api-Key", "…"),
            ("X-Client", "switchboard-tests")
        ]
    );
    let answers = find(
        &log,
        TrafficDirection::Received,
        MessageKind::Response,
        "tools/call",
    );
    // The whole value is the secret: nothing of it shows, not even its scheme.
    assert!(
        answers[0].json.contains(r#""text":"••••""#),
        "{}",
        answers[0].json
    );
    assert!(
        answers[1].json.contains(r#""text":"••••""#),
        "{}",
        answers[1].json
    );
    assert!(
        answers[2].json.contains("switchboard-tests"),
        "{}",
        answers[2].json
    );
    assert_nothing_secret(&log);
    world.desk.shutdown().await;
}
