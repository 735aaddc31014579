//! The 2026-07-28 revision against real servers: the Python SDK's server (which speaks it,
//! and the stateful era too) over stdio and Streamable HTTP, and the TypeScript SDK's
//! server-everything (stateful only) reached through the fallback. The era is chosen by
//! the `server/discover` probe, as a host does by default, and said with its reason.

use std::sync::Arc;
use std::time::Duration;

use http_peers::{EverythingHttp, Peer, PyHttp};
use serde_json::{Map, Value, json};
use switchboard_mcp::ProtocolVersion;
use switchboard_mcp::client::{
    Client, ClientConfig, ClientError, Era, EraSetting, ServerNotification,
};
use switchboard_mcp::transport::http::{self, HttpServer};
use switchboard_mcp::transport::{TransportParts, stdio};
use switchboard_mcp::types::*;

use crate::common;
use crate::common::http_peers;
use crate::common::{Log, Person, Script, everything_stdio, first_text, python_stdio};

fn config(era: EraSetting) -> ClientConfig {
    let mut config = ClientConfig::new("switchboard-tests", "0.0.0");
    config.capabilities = ClientCapabilities::all();
    config.request_timeout = Duration::from_secs(30);
    config.era = era;
    config
}

fn over_stdio(
    server: &switchboard_mcp::transport::stdio::StdioServer,
    log: &Log,
) -> TransportParts {
    stdio::spawn(server, log.sink()).expect("start the server")
}

fn over_http(url: &str, log: &Log) -> TransportParts {
    let (transport, _) = http::connect(&HttpServer::new(url), log.sink()).expect("valid settings");
    transport
}

fn person() -> Arc<Person> {
    Person::new(Script {
        roots: vec![
            Root::new("file:///home/ada/notes", None),
            Root::new("file:///home/ada/code", None),
        ],
        form_answer: Some(serde_json::from_value(json!({"nickname": "Ada"})).expect("content")),
        ..Script::default()
    })
}

/// How the Python SDK's server is reached.
enum Via {
    Stdio,
    Http,
}

/// The Python SDK's server reached as a host reaches it: probed, in the era it speaks; the
/// HTTP peer lives as long as the last value.
async fn python_probed(via: Via) -> (Client, Arc<Person>, Option<Peer>) {
    let log = Log::default();
    let person = person();
    let (transport, peer) = match via {
        Via::Stdio => (over_stdio(&python_stdio(), &log), None),
        Via::Http => {
            let peer = Peer::python(PyHttp::Streamable).await;
            (over_http(&peer.url, &log), Some(peer))
        }
    };
    let client = Client::connect(transport, person.clone(), config(EraSetting::Auto))
        .await
        .expect("connect");
    (client, person, peer)
}

fn args(value: Value) -> Option<Map<String, Value>> {
    match value {
        Value::Object(map) => Some(map),
        other => panic!("not an object: {other}"),
    }
}

/// The features of the interop tests, in the stateless era: lists across pages, a call with
/// structured output, a resource, a prompt, a completion, and a call that asks for a form
/// and the roots in an `input_required` round trip answered by the person.
async fn exercise_modern(client: &Client, person: &Person) {
    assert_eq!(client.era().era, Era::Stateless);
    assert_eq!(client.protocol_version(), ProtocolVersion::V2026_07_28);
    assert_eq!(
        client.era().reason,
        "server/discover answered with 2026-07-28"
    );
    assert_eq!(client.server().server_info.name, "switchboard-python-peer");
    assert_eq!(
        client.server().instructions.as_deref(),
        Some("Test server for Switchboard.")
    );

    let tools = client.list_tools().await.expect("tools/list");
    assert!(tools.items.len() > 3, "several pages of tools");
    assert!(tools.items.iter().any(|t| t.name == "greet_asked"));
    let sum = client
        .call_tool(
            "add",
            args(json!({"a": 2, "b": 3})),
            client.request_options(),
        )
        .await
        .expect("add");
    assert_eq!(sum.structured_content, Some(json!({"sum": 5})));

    let resources = client.list_resources().await.expect("resources/list");
    let first = &resources.items.first().expect("a resource").uri;
    let read = client
        .read_resource(first, client.request_options())
        .await
        .expect("resources/read");
    assert!(!read.contents.is_empty());

    let prompts = client.list_prompts().await.expect("prompts/list");
    assert!(prompts.items.iter().any(|p| p.name == "greet"));
    let mut arguments = Map::new();
    arguments.insert("name".into(), json!("Ada"));
    arguments.insert("style".into(), json!("loud"));
    let prompt = client
        .get_prompt("greet", arguments)
        .await
        .expect("prompts/get");
    assert_eq!(prompt.messages[0].content.as_text(), Some("HELLO, ADA!"));
    let styles = CompleteRequestParams::new(Reference::prompt("greet"), "style", "l");
    assert_eq!(
        client
            .complete(&styles)
            .await
            .expect("completion/complete")
            .completion
            .values,
        ["loud", "lyrical"]
    );

    let greeting = client
        .call_tool("greet_asked", None, client.request_options())
        .await
        .expect("greet_asked after its round of input");
    assert_eq!(first_text(&greeting), "Hello Ada, you share 2 folder(s)");
    let seen = person.seen.lock().expect("seen");
    assert_eq!(
        seen.elicitations.len(),
        1,
        "the form reached the person once"
    );
    assert_eq!(seen.roots_requests, 1, "the roots were asked once");
}

#[tokio::test]
async fn a_modern_server_over_stdio_is_found_by_the_probe_and_serves_every_feature() {
    let (client, person, _peer) = python_probed(Via::Stdio).await;
    exercise_modern(&client, &person).await;
    client.close().await;
}

#[tokio::test]
async fn a_modern_server_over_streamable_http_is_found_by_the_probe_and_serves_every_feature() {
    let (client, person, _peer) = python_probed(Via::Http).await;
    exercise_modern(&client, &person).await;
    client.close().await;
}

#[tokio::test]
async fn a_declined_form_ends_the_round_trip_as_the_server_decides() {
    let log = Log::default();
    let declining = Person::new(Script {
        roots: vec![Root::new("file:///home/ada/notes", None)],
        ..Script::default()
    });
    let client = Client::connect(
        over_stdio(&python_stdio(), &log),
        declining.clone(),
        config(EraSetting::Auto),
    )
    .await
    .expect("connect");
    let outcome = client
        .call_tool("greet_asked", None, client.request_options())
        .await;
    // The server gives up on a declined form; the person was asked exactly once.
    match outcome {
        Ok(result) => assert_eq!(result.is_error, Some(true), "{result:?}"),
        Err(ClientError::Request(_)) => {}
        Err(other) => panic!("expected the server's refusal, got {other}"),
    }
    assert_eq!(declining.seen.lock().expect("seen").elicitations.len(), 1);
    client.close().await;
}

#[tokio::test]
async fn a_stateful_server_over_stdio_is_reached_through_the_fallback_and_says_why() {
    let log = Log::default();
    let client = Client::connect(
        over_stdio(&everything_stdio(), &log),
        person(),
        config(EraSetting::Auto),
    )
    .await
    .expect("connect");
    let era = client.era();
    assert_eq!(era.era, Era::Session);
    assert_eq!(era.version, ProtocolVersion::V2025_11_25);
    assert!(
        era.reason
            .starts_with("server/discover was refused (-32601")
            && era.reason.ends_with("; initialize answered 2025-11-25"),
        "{}",
        era.reason
    );
    let echo = client
        .call_tool(
            "echo",
            args(json!({"message": "hi"})),
            client.request_options(),
        )
        .await
        .expect("echo");
    assert!(first_text(&echo).contains("hi"));
    client.close().await;
}

#[tokio::test]
async fn a_stateful_server_over_http_is_reached_through_the_fallback_and_says_why() {
    let peer = Peer::everything(EverythingHttp::Streamable).await;
    let log = Log::default();
    let client = Client::connect(
        over_http(&peer.url, &log),
        person(),
        config(EraSetting::Auto),
    )
    .await
    .expect("connect");
    let era = client.era();
    assert_eq!(era.era, Era::Session);
    assert!(
        era.reason.starts_with("server/discover was refused")
            && era.reason.ends_with("; initialize answered 2025-11-25"),
        "{}",
        era.reason
    );
    client
        .list_tools()
        .await
        .expect("tools/list in the session");
    client.close().await;
}

#[tokio::test]
async fn the_era_can_be_forced_either_way() {
    let log = Log::default();
    let session = Client::connect(
        over_stdio(&python_stdio(), &log),
        person(),
        config(EraSetting::Session),
    )
    .await
    .expect("connect");
    assert_eq!(session.era().era, Era::Session);
    assert_eq!(
        session.era().reason,
        "the session era was chosen in the settings; initialize answered 2025-11-25"
    );
    session.close().await;

    let refused = Client::connect(
        over_stdio(&everything_stdio(), &log),
        person(),
        config(EraSetting::Stateless),
    )
    .await;
    match refused {
        Err(ClientError::NotStateless { reason }) => {
            assert!(
                reason.starts_with("server/discover was refused"),
                "{reason}"
            )
        }
        Err(other) => panic!("expected NotStateless, got {other}"),
        Ok(_) => panic!("a stateful server was accepted as stateless"),
    }
}

/// A server of both eras still starting (Python loading its modules) reads nothing for far
/// longer than the probe's short wait; that wait begins only once it answers a ping sent
/// after the probe, so it is spoken to in its stateless era at once, with no handshake tried.
#[tokio::test]
async fn a_server_slow_to_start_is_probed_once_it_is_up() {
    let mut config = config(EraSetting::Auto);
    // Far shorter than Python takes to start.
    config.probe_timeout = Duration::from_millis(20);
    let log = Log::default();
    let client = Client::connect(over_stdio(&python_stdio(), &log), person(), config)
        .await
        .expect("connect");
    assert_eq!(
        (client.era().era, client.era().reason.as_str()),
        (Era::Stateless, "server/discover answered with 2026-07-28")
    );
    let echo = client
        .call_tool(
            "echo",
            args(json!({"text": "late"})),
            client.request_options(),
        )
        .await
        .expect("echo");
    assert_eq!(first_text(&echo), "late");
    client.close().await;
}

/// List changes and resource updates arrive on the `subscriptions/listen` stream and reach
/// the handler as they do in the stateful era.
async fn changes_are_heard_through_listen(client: &Client, person: &Person) {
    let listening = client
        .wait_listening(Duration::from_secs(10))
        .await
        .expect("the stream is acknowledged");
    assert_eq!(listening.tools_list_changed, Some(true), "{listening:?}");

    client
        .call_tool(
            "add_tool",
            args(json!({"name": "echo2"})),
            client.request_options(),
        )
        .await
        .expect("add_tool");
    person
        .wait_for("tools/list_changed", Duration::from_secs(10), |seen| {
            seen.notifications
                .contains(&ServerNotification::ToolListChanged)
        })
        .await;
    let tools = client.list_tools().await.expect("tools/list");
    assert!(tools.items.iter().any(|t| t.name == "echo2"));

    client.subscribe("test://counter").await.expect("subscribe");
    assert_eq!(
        client.listening().and_then(|f| f.resource_subscriptions),
        Some(vec!["test://counter".to_owned()])
    );
    client
        .call_tool("bump", None, client.request_options())
        .await
        .expect("bump");
    person
        .wait_for("the counter's update", Duration::from_secs(10), |seen| {
            seen.notifications.iter().any(|n| {
                matches!(n, ServerNotification::ResourceUpdated(u) if u.uri == "test://counter")
            })
        })
        .await;
    client
        .unsubscribe("test://counter")
        .await
        .expect("unsubscribe");
}

#[tokio::test]
async fn list_changes_and_resource_updates_arrive_through_listen_over_stdio() {
    let (client, person, _peer) = python_probed(Via::Stdio).await;
    changes_are_heard_through_listen(&client, &person).await;
    client.close().await;
}

#[tokio::test]
async fn list_changes_and_resource_updates_arrive_through_listen_over_streamable_http() {
    let (client, person, _peer) = python_probed(Via::Http).await;
    changes_are_heard_through_listen(&client, &person).await;
    client.close().await;
}

#[tokio::test]
async fn an_http_sse_server_is_reached_through_both_fallbacks() {
    let peer = Peer::python(PyHttp::Sse).await;
    let log = Log::default();
    let (transport, session) =
        http::connect(&HttpServer::new(&peer.url), log.sink()).expect("valid settings");
    let client = Client::connect(transport, person(), config(EraSetting::Auto))
        .await
        .expect("connect");
    assert_eq!(client.era().era, Era::Session);
    assert!(
        client
            .era()
            .reason
            .starts_with("server/discover was refused with HTTP"),
        "{}",
        client.era().reason
    );
    assert_eq!(
        session.flavor(),
        Some(switchboard_mcp::transport::http::HttpFlavor::LegacySse)
    );
    let sum = client
        .call_tool(
            "add",
            args(json!({"a": 1, "b": 1})),
            client.request_options(),
        )
        .await
        .expect("add");
    assert_eq!(sum.structured_content, Some(json!({"sum": 2})));
    client.close().await;
}

/// The rmcp server asks for sampling, roots and a form through `input_required` results in
/// the stateless era, over both transports.
#[tokio::test]
async fn an_rmcp_server_has_every_kind_of_input_answered_by_the_person() {
    let http = Peer::rmcp().await;
    for (via, transport) in [
        ("stdio", over_stdio(&common::rmcp_stdio(), &Log::default())),
        ("HTTP", over_http(&http.url, &Log::default())),
    ] {
        let person = Person::new(Script {
            roots: vec![Root::new("file:///home/ada", None)],
            sampling_reply: Some("Paris".into()),
            form_answer: Some(serde_json::from_value(json!({"name": "Ada"})).expect("content")),
            ..Script::default()
        });
        let client = Client::connect(transport, person.clone(), config(EraSetting::Auto))
            .await
            .unwrap_or_else(|e| panic!("{via}: {e}"));
        assert_eq!(client.era().era, Era::Stateless, "{via}");
        let call = |name: &'static str, arguments: Value| {
            let client = client.clone();
            async move {
                let result = client
                    .call_tool(name, args(arguments), client.request_options())
                    .await
                    .unwrap_or_else(|e| panic!("{via}: {name}: {e}"));
                first_text(&result).to_owned()
            }
        };
        assert_eq!(
            call("sample", json!({"prompt": "Capital of France?"})).await,
            "model said: Paris",
            "{via}"
        );
        assert_eq!(call("roots", json!({})).await, "file:///home/ada", "{via}");
        assert_eq!(call("elicit", json!({})).await, "hello Ada", "{via}");
        let asked = {
            let seen = person.seen.lock().expect("seen");
            (
                seen.sampling.len(),
                seen.roots_requests,
                seen.elicitations.len(),
            )
        };
        assert_eq!(asked, (1, 1, 1), "{via}");
        client.close().await;
    }
}

/// The TypeScript SDK v2's server of the 2026-07-28 revision, refusing `initialize` or
/// serving both eras: every feature, a round of input, and a list change heard through
/// `subscriptions/listen`. (Serving both eras over stdio, it keeps to the era of the
/// connection's first messages: the probe's ping must not make it an old one.)
#[tokio::test]
async fn a_typescript_sdk_v2_server_serves_every_feature_in_the_modern_era() {
    let script = common::workspace_root().join("tests/peers/node/modern-server.mjs");
    let stdio_server = |extra: &[&str]| {
        let mut args = vec![script.to_string_lossy().into_owned(), "--stdio".into()];
        args.extend(extra.iter().map(|a| (*a).to_owned()));
        switchboard_mcp::transport::stdio::StdioServer::new(http_peers::node_binary()).args(args)
    };
    let modern_only = stdio_server(&["--modern-only"]);
    let both_eras = stdio_server(&[]);
    let http = Peer::modern_node(true).await;
    // Over stdio the peer keeps serving the instance it built at start, which never gains
    // the extra tool (over HTTP each request builds one): there, only the notice is checked.
    for (via, transport, gains_the_tool) in [
        ("stdio", over_stdio(&modern_only, &Log::default()), false),
        (
            "stdio, both eras",
            over_stdio(&both_eras, &Log::default()),
            false,
        ),
        ("HTTP", over_http(&http.url, &Log::default()), true),
    ] {
        let person = Person::new(Script {
            form_answer: Some(serde_json::from_value(json!({"name": "Ada"})).expect("content")),
            ..Script::default()
        });
        let client = Client::connect(transport, person.clone(), config(EraSetting::Auto))
            .await
            .unwrap_or_else(|e| panic!("{via}: {e}"));
        assert_eq!(client.era().era, Era::Stateless, "{via}");
        assert_eq!(client.server().server_info.name, "modern-peer", "{via}");

        let sum = client
            .call_tool(
                "add",
                args(json!({"a": 2, "b": 3})),
                client.request_options(),
            )
            .await
            .unwrap_or_else(|e| panic!("{via}: add: {e}"));
        assert_eq!(sum.structured_content, Some(json!({"sum": 5})), "{via}");
        let greeting = client
            .call_tool("ask_name", None, client.request_options())
            .await
            .unwrap_or_else(|e| panic!("{via}: ask_name: {e}"));
        assert_eq!(first_text(&greeting), "Hello, Ada!", "{via}");
        let readme = client
            .read_resource("modern://readme", client.request_options())
            .await
            .unwrap_or_else(|e| panic!("{via}: read: {e}"));
        assert_eq!(readme.contents.len(), 1, "{via}");
        let mut arguments = Map::new();
        arguments.insert("name".into(), json!("Ada"));
        let prompt = client
            .get_prompt("greet", arguments)
            .await
            .unwrap_or_else(|e| panic!("{via}: {e}"));
        assert_eq!(
            prompt.messages[0].content.as_text(),
            Some("Please greet Ada."),
            "{via}"
        );
        let names = CompleteRequestParams::new(Reference::prompt("greet"), "name", "A");
        let completed = client
            .complete(&names)
            .await
            .unwrap_or_else(|e| panic!("{via}: {e}"));
        assert_eq!(completed.completion.values, ["Ada", "Alan"], "{via}");

        client
            .wait_listening(Duration::from_secs(10))
            .await
            .unwrap_or_else(|| panic!("{via}: no acknowledged listen stream"));
        let before = client
            .list_tools()
            .await
            .unwrap_or_else(|e| panic!("{via}: {e}"));
        assert!(!before.items.iter().any(|t| t.name == "extra"), "{via}");
        client
            .call_tool("toggle_extra_tool", None, client.request_options())
            .await
            .unwrap_or_else(|e| panic!("{via}: toggle: {e}"));
        person
            .wait_for("tools/list_changed", Duration::from_secs(10), |seen| {
                seen.notifications
                    .contains(&ServerNotification::ToolListChanged)
            })
            .await;
        // The list was kept for its 60 s; the change dropped it, and it is read anew.
        let after = client
            .list_tools()
            .await
            .unwrap_or_else(|e| panic!("{via}: {e}"));
        assert_eq!(
            after.items.iter().any(|t| t.name == "extra"),
            gains_the_tool,
            "{via}"
        );
        client.close().await;
    }
}
