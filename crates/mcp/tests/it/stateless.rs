//! The 2026-07-28 revision against real servers: the Python SDK's server (which speaks it,
//! and the stateful era too) over stdio and Streamable HTTP, and the TypeScript SDK's
//! server-everything (stateful only) reached through the fallback. The era is chosen by
//! the `server/discover` probe, as a host does by default, and said with its reason.

use std::sync::Arc;
use std::time::Duration;

use http_peers::{EverythingHttp, Peer, PyHttp};
use serde_json::{Map, Value, json};
use switchboard_mcp::ProtocolVersion;
use switchboard_mcp::client::{Client, ClientError, Era, EraSetting, ServerNotification};
use switchboard_mcp::transport::http::{self, HttpServer};
use switchboard_mcp::transport::{TransportParts, stdio};
use switchboard_mcp::types::*;

use crate::common;
use crate::common::http_peers;
use crate::common::peers::each_peer;
use crate::common::{
    Log, Person, Script, args, client_config, everything_stdio, first_text, python_stdio,
};

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

/// How a server is reached.
#[derive(Clone, Copy)]
enum Via {
    Stdio,
    Http,
}

/// The third-party servers of these tests.
#[derive(Clone, Copy)]
enum Server {
    /// The Python SDK's, which speaks both eras.
    Python,
    /// server-everything, of the stateful era only.
    Everything,
    /// rmcp's, which speaks both eras.
    Rmcp,
}

/// A transport to `server` over `via`; the HTTP peer lives as long as the second value.
async fn reach(server: Server, via: Via, log: &Log) -> (TransportParts, Option<Peer>) {
    let peer = match (via, server) {
        (Via::Stdio, Server::Python) => return (over_stdio(&python_stdio(), log), None),
        (Via::Stdio, Server::Everything) => return (over_stdio(&everything_stdio(), log), None),
        (Via::Stdio, Server::Rmcp) => return (over_stdio(&common::rmcp_stdio(), log), None),
        (Via::Http, Server::Python) => Peer::python(PyHttp::Streamable).await,
        (Via::Http, Server::Everything) => Peer::everything(EverythingHttp::Streamable).await,
        (Via::Http, Server::Rmcp) => Peer::rmcp().await,
    };
    (over_http(&peer.url, log), Some(peer))
}

/// The Python SDK's server reached as a host reaches it: probed, in the era it speaks; the
/// HTTP peer lives as long as the last value.
async fn python_probed(via: Via) -> (Client, Arc<Person>, Option<Peer>) {
    let log = Log::default();
    let person = person();
    let (transport, peer) = reach(Server::Python, via, &log).await;
    let client = Client::connect(transport, person.clone(), client_config(EraSetting::Auto))
        .await
        .expect("connect");
    (client, person, peer)
}

/// The features of the interop tests, in the stateless era: lists across pages, a call with
/// structured output, a resource, a prompt, a completion, and a call that asks for a form
/// and the roots in an `input_required` round trip answered by the person.
async fn exercise_modern(client: &Client, person: &Person) {
    assert_eq!(client.era().era, Era::Stateless);
    assert_eq!(client.protocol_version(), ProtocolVersion::V2026_07_28);
    assert_eq!(
        client.era().reason.to_string(),
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

async fn a_modern_server_is_found_by_the_probe_and_serves_every_feature(via: &Via) {
    let (client, person, _peer) = python_probed(*via).await;
    exercise_modern(&client, &person).await;
    client.close().await;
}

each_peer!(
    a_modern_server_is_found_by_the_probe_and_serves_every_feature {
        python_stdio: Via::Stdio,
        python_streamable_http: Via::Http,
    }
);

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
        client_config(EraSetting::Auto),
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

struct Stateful {
    via: Via,
    /// How the reason starts: the probe's refusal as the transport carried it.
    refused: &'static str,
}

/// server-everything, of the stateful era only, refuses the probe; the client falls back
/// to `initialize`, says why, and works in the session.
async fn a_stateful_server_is_reached_through_the_fallback_and_says_why(row: &Stateful) {
    let log = Log::default();
    let (transport, _peer) = reach(Server::Everything, row.via, &log).await;
    let client = Client::connect(transport, person(), client_config(EraSetting::Auto))
        .await
        .expect("connect");
    let era = client.era();
    assert_eq!(era.era, Era::Session);
    assert_eq!(era.version, ProtocolVersion::V2025_11_25);
    assert!(
        era.reason.to_string().starts_with(row.refused)
            && era
                .reason
                .to_string()
                .ends_with("; initialize answered 2025-11-25"),
        "{}",
        era.reason
    );
    client
        .list_tools()
        .await
        .expect("tools/list in the session");
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

each_peer!(
    a_stateful_server_is_reached_through_the_fallback_and_says_why {
        everything_stdio: Stateful {
            via: Via::Stdio,
            refused: "server/discover was refused (-32601",
        },
        everything_streamable_http: Stateful {
            via: Via::Http,
            refused: "server/discover was refused",
        },
    }
);

#[tokio::test]
async fn the_era_can_be_forced_either_way() {
    let log = Log::default();
    let session = Client::connect(
        over_stdio(&python_stdio(), &log),
        person(),
        client_config(EraSetting::Session),
    )
    .await
    .expect("connect");
    assert_eq!(session.era().era, Era::Session);
    assert_eq!(
        session.era().reason.to_string(),
        "the session era was chosen in the settings; initialize answered 2025-11-25"
    );
    session.close().await;

    let refused = Client::connect(
        over_stdio(&everything_stdio(), &log),
        person(),
        client_config(EraSetting::Stateless),
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
    let mut config = client_config(EraSetting::Auto);
    // Far shorter than Python takes to start.
    config.probe_timeout = Duration::from_millis(20);
    let log = Log::default();
    let client = Client::connect(over_stdio(&python_stdio(), &log), person(), config)
        .await
        .expect("connect");
    assert_eq!(
        (client.era().era, client.era().reason.to_string().as_str()),
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

async fn list_changes_and_resource_updates_arrive_through_listen(via: &Via) {
    let (client, person, _peer) = python_probed(*via).await;
    changes_are_heard_through_listen(&client, &person).await;
    client.close().await;
}

each_peer!(list_changes_and_resource_updates_arrive_through_listen {
    python_stdio: Via::Stdio,
    python_streamable_http: Via::Http,
});

#[tokio::test]
async fn an_http_sse_server_is_reached_through_both_fallbacks() {
    let peer = Peer::python(PyHttp::Sse).await;
    let log = Log::default();
    let (transport, session) =
        http::connect(&HttpServer::new(&peer.url), log.sink()).expect("valid settings");
    let client = Client::connect(transport, person(), client_config(EraSetting::Auto))
        .await
        .expect("connect");
    assert_eq!(client.era().era, Era::Session);
    assert!(
        client
            .era()
            .reason
            .to_string()
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
/// the stateless era.
async fn an_rmcp_server_has_every_kind_of_input_answered_by_the_person(via: &Via) {
    let (transport, _peer) = reach(Server::Rmcp, *via, &Log::default()).await;
    let person = Person::new(Script {
        roots: vec![Root::new("file:///home/ada", None)],
        sampling_reply: Some("Paris".into()),
        form_answer: Some(serde_json::from_value(json!({"name": "Ada"})).expect("content")),
        ..Script::default()
    });
    let client = Client::connect(transport, person.clone(), client_config(EraSetting::Auto))
        .await
        .expect("connect");
    assert_eq!(client.era().era, Era::Stateless);
    let call = |name: &'static str, arguments: Value| {
        let client = client.clone();
        async move {
            let result = client
                .call_tool(name, args(arguments), client.request_options())
                .await
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            first_text(&result).to_owned()
        }
    };
    assert_eq!(
        call("sample", json!({"prompt": "Capital of France?"})).await,
        "model said: Paris",
    );
    assert_eq!(call("roots", json!({})).await, "file:///home/ada");
    assert_eq!(call("elicit", json!({})).await, "hello Ada");
    let asked = {
        let seen = person.seen.lock().expect("seen");
        (
            seen.sampling.len(),
            seen.roots_requests,
            seen.elicitations.len(),
        )
    };
    assert_eq!(asked, (1, 1, 1));
    client.close().await;
}

each_peer!(
    an_rmcp_server_has_every_kind_of_input_answered_by_the_person {
        rmcp_stdio: Via::Stdio,
        rmcp_streamable_http: Via::Http,
    }
);

/// The TypeScript SDK v2's server of the 2026-07-28 revision, refusing `initialize` or
/// serving both eras: every feature, a round of input, and a list change heard through
/// `subscriptions/listen`. (Serving both eras over stdio, it keeps to the era of the
/// connection's first messages: the probe's ping must not make it an old one.)
/// How the TypeScript SDK v2's server is reached, and whether a tool it adds is listed.
struct Modern {
    via: Via,
    /// Whether it serves the stateless era only (over stdio; over HTTP it always does).
    modern_only: bool,
    /// Over stdio the peer keeps serving the instance it built at start, which never gains
    /// the extra tool (over HTTP each request builds one): there, only the notice is checked.
    gains_the_tool: bool,
}

/// The TypeScript SDK v2's server of the 2026-07-28 revision, refusing `initialize` or
/// serving both eras: every feature, a round of input, and a list change heard through
/// `subscriptions/listen`. (Serving both eras over stdio, it keeps to the era of the
/// connection's first messages: the probe's ping must not make it an old one.)
async fn a_typescript_sdk_v2_server_serves_every_feature_in_the_modern_era(row: &Modern) {
    let (transport, _peer) = match row.via {
        Via::Stdio => {
            let script = common::workspace_root().join("tests/peers/node/modern-server.mjs");
            let mut args = vec![script.to_string_lossy().into_owned(), "--stdio".into()];
            if row.modern_only {
                args.push("--modern-only".into());
            }
            let server =
                switchboard_mcp::transport::stdio::StdioServer::new(http_peers::node_binary())
                    .args(args);
            (over_stdio(&server, &Log::default()), None)
        }
        Via::Http => {
            let peer = Peer::modern_node(row.modern_only).await;
            (over_http(&peer.url, &Log::default()), Some(peer))
        }
    };
    let person = Person::new(Script {
        form_answer: Some(serde_json::from_value(json!({"name": "Ada"})).expect("content")),
        ..Script::default()
    });
    let client = Client::connect(transport, person.clone(), client_config(EraSetting::Auto))
        .await
        .expect("connect");
    assert_eq!(client.era().era, Era::Stateless);
    assert_eq!(client.server().server_info.name, "modern-peer");

    let sum = client
        .call_tool(
            "add",
            args(json!({"a": 2, "b": 3})),
            client.request_options(),
        )
        .await
        .expect("add");
    assert_eq!(sum.structured_content, Some(json!({"sum": 5})));
    let greeting = client
        .call_tool("ask_name", None, client.request_options())
        .await
        .expect("ask_name");
    assert_eq!(first_text(&greeting), "Hello, Ada!");
    let readme = client
        .read_resource("modern://readme", client.request_options())
        .await
        .expect("read");
    assert_eq!(readme.contents.len(), 1);
    let mut arguments = Map::new();
    arguments.insert("name".into(), json!("Ada"));
    let prompt = client
        .get_prompt("greet", arguments)
        .await
        .expect("the request");
    assert_eq!(
        prompt.messages[0].content.as_text(),
        Some("Please greet Ada.")
    );
    let names = CompleteRequestParams::new(Reference::prompt("greet"), "name", "A");
    let completed = client.complete(&names).await.expect("the request");
    assert_eq!(completed.completion.values, ["Ada", "Alan"]);

    client
        .wait_listening(Duration::from_secs(10))
        .await
        .expect("an acknowledged listen stream");
    let before = client.list_tools().await.expect("the request");
    assert!(!before.items.iter().any(|t| t.name == "extra"));
    client
        .call_tool("toggle_extra_tool", None, client.request_options())
        .await
        .expect("toggle");
    person
        .wait_for("tools/list_changed", Duration::from_secs(10), |seen| {
            seen.notifications
                .contains(&ServerNotification::ToolListChanged)
        })
        .await;
    // The list was kept for its 60 s; the change dropped it, and it is read anew.
    let after = client.list_tools().await.expect("the request");
    assert_eq!(
        after.items.iter().any(|t| t.name == "extra"),
        row.gains_the_tool
    );
    client.close().await;
}

each_peer!(
    a_typescript_sdk_v2_server_serves_every_feature_in_the_modern_era {
        typescript_stdio: Modern {
            via: Via::Stdio,
            modern_only: true,
            gains_the_tool: false,
        },
        typescript_stdio_both_eras: Modern {
            via: Via::Stdio,
            modern_only: false,
            gains_the_tool: false,
        },
        typescript_streamable_http: Modern {
            via: Via::Http,
            modern_only: true,
            gains_the_tool: true,
        },
    }
);
