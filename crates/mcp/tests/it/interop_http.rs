//! Interop over HTTP on loopback: what only the Streamable HTTP and legacy HTTP+SSE
//! transports have, against real third-party servers each started as a child process on a
//! free port: a session per client, and notifications that reach a client outside its own
//! requests. (The scenarios every transport plays, over HTTP too, are in `interop`.)

use serde_json::json;
use switchboard_mcp::client::{Client, ServerNotification};

use crate::common;
use crate::common::http_peers::{Peer, PyHttp, connect_auto};
use crate::common::peers::{Reach, each_peer};
use crate::common::{Log, Person, Script, WAIT, args, first_text};

/// A client of a peer started over HTTP, with the peer's process.
async fn client_of(reach: Reach, person: std::sync::Arc<Person>) -> (Peer, Client) {
    let connected = reach.connect(person).await;
    (connected.peer.expect("an HTTP peer"), connected.client)
}

#[tokio::test]
async fn each_streamable_http_client_gets_its_own_session() {
    let peer = Peer::python(PyHttp::Streamable).await;
    let (first, first_session) =
        connect_auto(&peer.url, Person::new(Script::default()), &Log::default()).await;
    let (second, second_session) =
        connect_auto(&peer.url, Person::new(Script::default()), &Log::default()).await;
    let one = first_session.session_id().expect("a session id");
    let two = second_session.session_id().expect("a session id");
    assert!(!one.is_empty());
    assert_ne!(one, two);

    // Each session works on its own, and ending one leaves the other alive.
    first.ping().await.expect("ping");
    second.ping().await.expect("ping");
    first.close().await;
    let echo = second
        .call_tool(
            "echo",
            args(json!({"text": "still here"})),
            second.request_options(),
        )
        .await
        .expect("tools/call");
    assert_eq!(first_text(&echo), "still here");
    assert_eq!(second_session.session_id().as_deref(), Some(two.as_str()));
    second.close().await;
}

/// Two clients of one server: the one that adds a tool hears of it on its request's
/// stream; the other only outside any request of its own (the GET stream, or the legacy
/// event stream).
async fn tool_list_changes_reach_every_client(reach: &Reach) {
    let (peer, adder) = client_of(*reach, Person::new(Script::default())).await;
    let watcher_person = Person::new(Script::default());
    let watcher = reach
        .connect_to(&peer, watcher_person.clone(), &Log::default())
        .await;
    // The peer tells only clients that have sent it a request.
    assert!(
        !watcher
            .list_tools()
            .await
            .expect("tools/list")
            .iter()
            .any(|t| t.name == "shiny")
    );
    adder
        .call_tool(
            "add_tool",
            args(json!({"name": "shiny"})),
            adder.request_options(),
        )
        .await
        .expect("tools/call");
    watcher_person
        .wait_for("tools/list_changed", WAIT, |s| {
            s.notifications
                .contains(&ServerNotification::ToolListChanged)
        })
        .await;
    let tools = watcher.list_tools().await.expect("tools/list");
    assert_eq!(tools.last().map(|t| t.name.as_str()), Some("shiny"));
    adder.close().await;
    watcher.close().await;
}

each_peer!(tool_list_changes_reach_every_client {
    python_streamable_http: Reach::PythonHttp(PyHttp::Streamable),
    python_sse: Reach::PythonHttp(PyHttp::Sse),
});

/// A subscriber hears of an update made by another client, outside its own requests;
/// the client that made it hears of it on its request's stream.
async fn resource_updates_reach_subscribers(reach: &Reach) {
    let bumper_person = Person::new(Script::default());
    let (peer, bumper) = client_of(*reach, bumper_person.clone()).await;
    let watcher_person = Person::new(Script::default());
    let watcher = reach
        .connect_to(&peer, watcher_person.clone(), &Log::default())
        .await;
    watcher
        .subscribe("test://counter")
        .await
        .expect("resources/subscribe");
    bumper
        .subscribe("test://counter")
        .await
        .expect("resources/subscribe");
    let bumped = bumper
        .call_tool("bump", None, bumper.request_options())
        .await
        .expect("tools/call");
    assert_eq!(first_text(&bumped), "count 1");
    let updated = |s: &common::Seen| {
        s.notifications.iter().any(
            |n| matches!(n, ServerNotification::ResourceUpdated(u) if u.uri == "test://counter"),
        )
    };
    watcher_person
        .wait_for("resources/updated for the watcher", WAIT, updated)
        .await;
    bumper_person
        .wait_for("resources/updated for the bumper", WAIT, updated)
        .await;
    watcher
        .unsubscribe("test://counter")
        .await
        .expect("resources/unsubscribe");
    bumper.close().await;
    watcher.close().await;
}

each_peer!(resource_updates_reach_subscribers {
    python_streamable_http: Reach::PythonHttp(PyHttp::Streamable),
    python_sse: Reach::PythonHttp(PyHttp::Sse),
});

#[tokio::test]
async fn rmcp_add_returns_structured_content() {
    let (_peer, client) = client_of(Reach::RmcpHttp, Person::new(Script::default())).await;
    let add = client
        .call_tool(
            "add",
            args(json!({"a": 2, "b": 3})),
            client.request_options(),
        )
        .await
        .expect("tools/call");
    assert_eq!(add.structured_content, Some(json!({"sum": 5})));
    assert_ne!(add.is_error, Some(true));
    client.close().await;
}
