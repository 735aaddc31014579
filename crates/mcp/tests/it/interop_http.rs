//! Interop over HTTP on loopback: the Streamable HTTP and legacy HTTP+SSE transports
//! against real third-party servers (the Python SDK, the TypeScript SDK's
//! server-everything, and rmcp), each started as a child process on a free port.

use http_peers::{EverythingHttp, Peer, PyHttp, connect_auto};
use serde_json::{Map, Value, json};
use switchboard_mcp::client::{Client, ClientError, ServerNotification};
use switchboard_mcp::connection::RequestError;
use switchboard_mcp::transport::http::HttpFlavor;
use switchboard_mcp::types::*;
use tokio_util::sync::CancellationToken;

use crate::common;
use crate::common::http_peers;
use crate::common::{Log, Person, Script, WAIT, first_text};

fn args(value: Value) -> Option<Map<String, Value>> {
    value.as_object().cloned()
}

/// The flavor a client should end up speaking with a Python peer of that transport.
fn flavor_of(transport: PyHttp) -> HttpFlavor {
    match transport {
        PyHttp::Streamable => HttpFlavor::StreamableHttp,
        PyHttp::Sse => HttpFlavor::LegacySse,
    }
}

async fn python_client(transport: PyHttp, person: std::sync::Arc<Person>) -> (Peer, Client) {
    let peer = Peer::python(transport).await;
    let (client, session) = connect_auto(&peer.url, person, &Log::default()).await;
    assert_eq!(session.flavor(), Some(flavor_of(transport)));
    (peer, client)
}

// --- 1. Handshake, transport detection and a first call, per peer ---------------------

/// Connects with `HttpMode::Auto`, then checks the server's name, the transport the client
/// settled on, and one echo.
async fn handshake_and_echo(
    peer: &Peer,
    server_name: &str,
    flavor: HttpFlavor,
    echo: Value,
    echoed: &str,
) {
    let (client, session) =
        connect_auto(&peer.url, Person::new(Script::default()), &Log::default()).await;
    assert_eq!(client.server().server_info.name, server_name);
    assert_eq!(session.flavor(), Some(flavor), "over {}", peer.url);
    let result = client
        .call_tool("echo", args(echo), client.request_options())
        .await
        .expect("tools/call");
    assert_eq!(first_text(&result), echoed);
    client.close().await;
}

#[tokio::test]
async fn python_streamable_http_handshake_and_echo() {
    let peer = Peer::python(PyHttp::Streamable).await;
    assert!(peer.url.ends_with("/mcp"));
    handshake_and_echo(
        &peer,
        "switchboard-python-peer",
        HttpFlavor::StreamableHttp,
        json!({"text": "héllo over HTTP"}),
        "héllo over HTTP",
    )
    .await;
}

#[tokio::test]
async fn python_sse_is_reached_by_falling_back_from_streamable_http() {
    let peer = Peer::python(PyHttp::Sse).await;
    assert!(peer.url.ends_with("/sse"));
    handshake_and_echo(
        &peer,
        "switchboard-python-peer",
        HttpFlavor::LegacySse,
        json!({"text": "héllo over SSE"}),
        "héllo over SSE",
    )
    .await;
}

#[tokio::test]
async fn everything_streamable_http_handshake_and_echo() {
    let peer = Peer::everything(EverythingHttp::Streamable).await;
    handshake_and_echo(
        &peer,
        "mcp-servers/everything",
        HttpFlavor::StreamableHttp,
        json!({"message": "hi"}),
        "Echo: hi",
    )
    .await;
}

#[tokio::test]
async fn everything_sse_is_reached_by_falling_back_from_streamable_http() {
    let peer = Peer::everything(EverythingHttp::Sse).await;
    handshake_and_echo(
        &peer,
        "mcp-servers/everything",
        HttpFlavor::LegacySse,
        json!({"message": "hi"}),
        "Echo: hi",
    )
    .await;
}

#[tokio::test]
async fn rmcp_streamable_http_handshake_and_echo() {
    let peer = Peer::rmcp().await;
    handshake_and_echo(
        &peer,
        "rmcp-peer",
        HttpFlavor::StreamableHttp,
        json!({"text": "héllo rmcp"}),
        "héllo rmcp",
    )
    .await;
}

// --- 2. Sessions ----------------------------------------------------------------------

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

// --- 3. Sampling and elicitation: server requests on the server's event streams -------

async fn sampling_and_form_elicitation(transport: PyHttp) {
    let answer: ElicitContent = [
        ("name".to_owned(), ElicitValue::from("Ada")),
        ("age".to_owned(), ElicitValue::from(36.0)),
        ("color".to_owned(), ElicitValue::from("blue")),
        ("subscribe".to_owned(), ElicitValue::from(true)),
    ]
    .into();
    let person = Person::new(Script {
        sampling_reply: Some("Paris.".into()),
        form_answer: Some(answer),
        ..Script::default()
    });
    let (_peer, client) = python_client(transport, person.clone()).await;
    let sampled = client
        .call_tool(
            "ask_model",
            args(json!({"prompt": "Capital of France?"})),
            client.request_options(),
        )
        .await
        .expect("tools/call");
    assert_eq!(first_text(&sampled), "model said: Paris.");
    let form = client
        .call_tool("ask_form", None, client.request_options())
        .await
        .expect("tools/call");
    assert_eq!(
        first_text(&form),
        r#"accepted: {"age":36,"color":"blue","name":"Ada","subscribe":true}"#
    );
    {
        let seen = person.seen.lock().expect("seen lock");
        assert_eq!(seen.sampling.len(), 1);
        assert_eq!(seen.sampling[0].system_prompt.as_deref(), Some("Be brief."));
        assert_eq!(
            seen.sampling[0].messages[0]
                .content
                .iter()
                .next()
                .and_then(SamplingContent::as_text),
            Some("Capital of France?")
        );
        assert!(matches!(
            seen.elicitations.as_slice(),
            [ElicitRequestParams::Form(_)]
        ));
    }
    client.close().await;
}

#[tokio::test]
async fn sampling_and_elicitation_over_streamable_http() {
    sampling_and_form_elicitation(PyHttp::Streamable).await;
}

#[tokio::test]
async fn sampling_and_elicitation_over_legacy_sse() {
    sampling_and_form_elicitation(PyHttp::Sse).await;
}

// --- 4. Progress ----------------------------------------------------------------------

async fn three_steps_of_progress(transport: PyHttp) {
    let (_peer, client) = python_client(transport, Person::new(Script::default())).await;
    let (progress, mut seen) = tokio::sync::mpsc::channel(16);
    let mut options = client.request_options();
    options.progress = Some(progress);
    let done = client
        .call_tool("slow", args(json!({"steps": 3, "delay_ms": 10})), options)
        .await
        .expect("tools/call");
    assert_eq!(first_text(&done), "done after 3 steps");
    // The connection hands on every step before the result.
    let mut steps = Vec::new();
    while let Ok(p) = seen.try_recv() {
        steps.push((p.progress, p.total, p.message));
    }
    assert_eq!(
        steps,
        (1..=3)
            .map(|i| (f64::from(i), Some(3.0), Some(format!("step {i}"))))
            .collect::<Vec<_>>()
    );
    client.close().await;
}

#[tokio::test]
async fn progress_over_streamable_http() {
    three_steps_of_progress(PyHttp::Streamable).await;
}

#[tokio::test]
async fn progress_over_legacy_sse() {
    three_steps_of_progress(PyHttp::Sse).await;
}

// --- 5. Notifications outside the client's own requests -------------------------------

/// Two clients of one server: the one that adds a tool hears of it on its request's
/// stream; the other only outside any request of its own (the GET stream, or the legacy
/// event stream).
async fn tool_list_changes_reach_every_client(transport: PyHttp) {
    let (peer, adder) = python_client(transport, Person::new(Script::default())).await;
    let watcher_person = Person::new(Script::default());
    let (watcher, _) = connect_auto(&peer.url, watcher_person.clone(), &Log::default()).await;
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

#[tokio::test]
async fn tool_list_changed_arrives_on_the_get_stream() {
    tool_list_changes_reach_every_client(PyHttp::Streamable).await;
}

#[tokio::test]
async fn tool_list_changed_arrives_on_the_legacy_event_stream() {
    tool_list_changes_reach_every_client(PyHttp::Sse).await;
}

/// A subscriber hears of an update made by another client, outside its own requests;
/// the client that made it hears of it on its request's stream.
async fn resource_updates_reach_subscribers(transport: PyHttp) {
    let bumper_person = Person::new(Script::default());
    let (peer, bumper) = python_client(transport, bumper_person.clone()).await;
    let watcher_person = Person::new(Script::default());
    let (watcher, _) = connect_auto(&peer.url, watcher_person.clone(), &Log::default()).await;
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

#[tokio::test]
async fn resource_updates_arrive_on_the_get_stream() {
    resource_updates_reach_subscribers(PyHttp::Streamable).await;
}

#[tokio::test]
async fn resource_updates_arrive_on_the_legacy_event_stream() {
    resource_updates_reach_subscribers(PyHttp::Sse).await;
}

/// server-everything asks for the client's roots by itself shortly after initialization,
/// outside any request of the client, then logs how many it got.
async fn server_asks_for_roots_unprompted(transport: EverythingHttp) {
    let peer = Peer::everything(transport).await;
    let person = Person::new(Script {
        roots: vec![Root::new(
            "file:///home/ada/project",
            Some("project".into()),
        )],
        ..Script::default()
    });
    let (client, _) = connect_auto(&peer.url, person.clone(), &Log::default()).await;
    person
        .wait_for("roots/list from the server", WAIT, |s| {
            s.roots_requests >= 1
        })
        .await;
    person
        .wait_for("the server's log of the roots it received", WAIT, |s| {
            s.notifications.iter().any(|n| {
                matches!(n, ServerNotification::Log(l)
                    if l.data == json!("Roots updated: 1 root(s) received from client"))
            })
        })
        .await;
    client.close().await;
}

#[tokio::test]
async fn everything_asks_for_roots_on_the_get_stream() {
    server_asks_for_roots_unprompted(EverythingHttp::Streamable).await;
}

#[tokio::test]
async fn everything_asks_for_roots_on_the_legacy_event_stream() {
    server_asks_for_roots_unprompted(EverythingHttp::Sse).await;
}

// --- server-everything's own server requests and progress, over Streamable HTTP -------

async fn everything_client(person: std::sync::Arc<Person>) -> (Peer, Client) {
    let peer = Peer::everything(EverythingHttp::Streamable).await;
    let (client, session) = connect_auto(&peer.url, person, &Log::default()).await;
    assert_eq!(session.flavor(), Some(HttpFlavor::StreamableHttp));
    (peer, client)
}

#[tokio::test]
async fn everything_sampling_over_streamable_http() {
    let person = Person::new(Script {
        sampling_reply: Some("Paris.".into()),
        ..Script::default()
    });
    let (_peer, client) = everything_client(person.clone()).await;
    // Registered only once the server knows, from `initialized`, that the client samples.
    let tools = client.list_tools().await.expect("tools/list");
    assert!(tools.iter().any(|t| t.name == "trigger-sampling-request"));
    let result = client
        .call_tool(
            "trigger-sampling-request",
            args(json!({"prompt": "Capital of France?", "maxTokens": 50})),
            client.request_options(),
        )
        .await
        .expect("tools/call");
    let text = first_text(&result);
    assert!(text.starts_with("LLM sampling result:"), "{text}");
    assert!(text.contains(r#""text": "Paris.""#), "{text}");
    {
        let seen = person.seen.lock().expect("seen lock");
        assert_eq!(seen.sampling.len(), 1);
        assert_eq!(seen.sampling[0].max_tokens, 50);
        assert_eq!(
            seen.sampling[0].system_prompt.as_deref(),
            Some("You are a helpful test server.")
        );
    }
    client.close().await;
}

#[tokio::test]
async fn everything_elicitation_over_streamable_http() {
    let person = Person::new(Script {
        form_answer: Some(
            [
                ("name".to_owned(), ElicitValue::from("Ada")),
                ("check".to_owned(), ElicitValue::from(true)),
            ]
            .into(),
        ),
        ..Script::default()
    });
    let (_peer, client) = everything_client(person.clone()).await;
    let result = client
        .call_tool(
            "trigger-elicitation-request",
            None,
            client.request_options(),
        )
        .await
        .expect("tools/call");
    assert_eq!(
        first_text(&result),
        "\u{2705} User provided the requested information!"
    );
    let inputs = result.content.get(1).and_then(ContentBlock::as_text);
    assert_eq!(
        inputs,
        Some("User inputs:\n- Name: Ada\n- Agreed to terms: true")
    );
    assert!(matches!(
        person
            .seen
            .lock()
            .expect("seen lock")
            .elicitations
            .as_slice(),
        [ElicitRequestParams::Form(_)]
    ));
    client.close().await;
}

#[tokio::test]
async fn everything_progress_over_streamable_http() {
    let (_peer, client) = everything_client(Person::new(Script::default())).await;
    let (progress, mut seen) = tokio::sync::mpsc::channel(16);
    let mut options = client.request_options();
    options.progress = Some(progress);
    let done = client
        .call_tool(
            "trigger-long-running-operation",
            args(json!({"duration": 0.3, "steps": 3})),
            options,
        )
        .await
        .expect("tools/call");
    assert_eq!(
        first_text(&done),
        "Long running operation completed. Duration: 0.3 seconds, Steps: 3."
    );
    let mut steps = Vec::new();
    while let Ok(p) = seen.try_recv() {
        steps.push((p.progress, p.total));
    }
    assert_eq!(
        steps,
        [(1.0, Some(3.0)), (2.0, Some(3.0)), (3.0, Some(3.0))]
    );
    client.close().await;
}

// --- 6. Cancellation ------------------------------------------------------------------

async fn cancellation_stops_the_tool(transport: PyHttp) {
    let peer = Peer::python(transport).await;
    let (client, _) =
        connect_auto(&peer.url, Person::new(Script::default()), &Log::default()).await;
    let cancel = CancellationToken::new();
    let (progress, mut seen) = tokio::sync::mpsc::channel(16);
    let mut options = client.request_options();
    options.progress = Some(progress);
    options.cancel = Some(cancel.clone());
    let call = tokio::spawn({
        let client = client.clone();
        async move {
            client
                .call_tool(
                    "slow",
                    args(json!({"steps": 100, "delay_ms": 100})),
                    options,
                )
                .await
        }
    });
    seen.recv().await.expect("the first step");
    cancel.cancel();
    let outcome = call.await.expect("the call task");
    assert!(
        matches!(
            outcome,
            Err(ClientError::Request(RequestError::Cancelled { .. }))
        ),
        "{outcome:?}"
    );
    assert!(
        peer.stderr_shows("slow cancelled", WAIT).await,
        "the server did not stop the tool; its stderr: {:?}",
        peer.stderr.lines()
    );
    // The session is still usable.
    client.ping().await.expect("ping");
    let echo = client
        .call_tool(
            "echo",
            args(json!({"text": "after"})),
            client.request_options(),
        )
        .await
        .expect("tools/call");
    assert_eq!(first_text(&echo), "after");
    client.close().await;
}

#[tokio::test]
async fn cancellation_over_streamable_http() {
    cancellation_stops_the_tool(PyHttp::Streamable).await;
}

#[tokio::test]
async fn cancellation_over_legacy_sse() {
    cancellation_stops_the_tool(PyHttp::Sse).await;
}

// --- 7. Logging -----------------------------------------------------------------------

async fn log_messages_follow_the_level(transport: PyHttp) {
    let person = Person::new(Script::default());
    let (_peer, client) = python_client(transport, person.clone()).await;
    let logged = |person: &Person| -> Vec<(LoggingLevel, Value)> {
        person
            .seen
            .lock()
            .expect("seen lock")
            .notifications
            .iter()
            .filter_map(|n| match n {
                ServerNotification::Log(log) => Some((log.level?, log.data.clone())),
                _ => None,
            })
            .collect()
    };
    client
        .set_logging_level(LoggingLevel::Debug)
        .await
        .expect("logging/setLevel");
    client
        .call_tool("log_levels", None, client.request_options())
        .await
        .expect("tools/call");
    person
        .wait_for("four log messages", WAIT, |s| s.notifications.len() >= 4)
        .await;
    assert_eq!(
        logged(&person),
        [
            (LoggingLevel::Debug, json!("at debug")),
            (LoggingLevel::Info, json!("at info")),
            (LoggingLevel::Warning, json!("at warning")),
            (LoggingLevel::Error, json!("at error")),
        ]
    );

    client
        .set_logging_level(LoggingLevel::Warning)
        .await
        .expect("logging/setLevel");
    client
        .call_tool("log_levels", None, client.request_options())
        .await
        .expect("tools/call");
    person
        .wait_for("two more", WAIT, |s| s.notifications.len() >= 6)
        .await;
    let levels: Vec<LoggingLevel> = logged(&person)[4..].iter().map(|(l, _)| *l).collect();
    assert_eq!(levels, [LoggingLevel::Warning, LoggingLevel::Error]);
    client.close().await;
}

#[tokio::test]
async fn logging_over_streamable_http() {
    log_messages_follow_the_level(PyHttp::Streamable).await;
}

#[tokio::test]
async fn logging_over_legacy_sse() {
    log_messages_follow_the_level(PyHttp::Sse).await;
}

// --- 8. rmcp over Streamable HTTP -----------------------------------------------------

async fn rmcp_client(person: std::sync::Arc<Person>) -> (Peer, Client) {
    let peer = Peer::rmcp().await;
    let (client, session) = connect_auto(&peer.url, person, &Log::default()).await;
    assert_eq!(session.flavor(), Some(HttpFlavor::StreamableHttp));
    (peer, client)
}

#[tokio::test]
async fn rmcp_add_returns_structured_content() {
    let (_peer, client) = rmcp_client(Person::new(Script::default())).await;
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

#[tokio::test]
async fn rmcp_progress() {
    let (_peer, client) = rmcp_client(Person::new(Script::default())).await;
    let (progress, mut seen) = tokio::sync::mpsc::channel(16);
    let mut options = client.request_options();
    options.progress = Some(progress);
    let done = client
        .call_tool("progress", args(json!({"steps": 3})), options)
        .await
        .expect("tools/call");
    assert_eq!(first_text(&done), "done");
    let mut steps = Vec::new();
    while let Ok(p) = seen.try_recv() {
        steps.push((p.progress, p.total));
    }
    assert_eq!(
        steps,
        [(1.0, Some(3.0)), (2.0, Some(3.0)), (3.0, Some(3.0))]
    );
    client.close().await;
}

#[tokio::test]
async fn rmcp_sampling() {
    let person = Person::new(Script {
        sampling_reply: Some("Paris.".into()),
        ..Script::default()
    });
    let (_peer, client) = rmcp_client(person.clone()).await;
    let result = client
        .call_tool(
            "sample",
            args(json!({"prompt": "Capital of France?"})),
            client.request_options(),
        )
        .await
        .expect("tools/call");
    assert_eq!(first_text(&result), "model said: Paris.");
    {
        let seen = person.seen.lock().expect("seen lock");
        assert_eq!(seen.sampling.len(), 1);
        assert_eq!(seen.sampling[0].max_tokens, 100);
        assert_eq!(
            seen.sampling[0].messages[0]
                .content
                .iter()
                .next()
                .and_then(SamplingContent::as_text),
            Some("Capital of France?")
        );
    }
    client.close().await;
}

#[tokio::test]
async fn rmcp_roots() {
    let person = Person::new(Script {
        roots: vec![
            Root::new("file:///home/ada/project", Some("project".into())),
            Root::new("file:///home/ada/notes", None),
        ],
        ..Script::default()
    });
    let (_peer, client) = rmcp_client(person.clone()).await;
    let result = client
        .call_tool("roots", None, client.request_options())
        .await
        .expect("tools/call");
    assert_eq!(
        first_text(&result),
        "file:///home/ada/project\nfile:///home/ada/notes"
    );
    assert_eq!(person.seen.lock().expect("seen lock").roots_requests, 1);
    client.close().await;
}

#[tokio::test]
async fn rmcp_elicitation() {
    let person = Person::new(Script {
        form_answer: Some([("name".to_owned(), ElicitValue::from("Ada"))].into()),
        ..Script::default()
    });
    let (_peer, client) = rmcp_client(person.clone()).await;
    let result = client
        .call_tool("elicit", None, client.request_options())
        .await
        .expect("tools/call");
    assert_eq!(first_text(&result), "hello Ada");

    // Declined by the person: the tool hears it.
    let (_other_peer, declining) = rmcp_client(Person::new(Script::default())).await;
    let result = declining
        .call_tool("elicit", None, declining.request_options())
        .await
        .expect("tools/call");
    assert_eq!(first_text(&result), "declined");
    client.close().await;
    declining.close().await;
}
