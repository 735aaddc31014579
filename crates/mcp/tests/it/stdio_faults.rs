//! The connection against real child processes that break the protocol on purpose: small
//! Python servers that answer with what cannot be read, send batches, send malformed
//! requests, or write while they do not read. Each server can report what it received, so
//! that the tests check the wire as the server saw it.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use switchboard_mcp::client::{Client, ClientConfig, DecliningHandler, EraSetting};
use switchboard_mcp::connection::{Connection, RequestError, RequestOptions};
use switchboard_mcp::jsonrpc::FrameError;
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::stdio::{self, StdioServer};
use switchboard_mcp::types::{CompleteRequestParams, Reference};
use tokio_util::sync::CancellationToken;

use crate::common::NoRequests;

/// Reads messages line by line, keeps them in `seen`, and passes each to `on(msg)`, which
/// the test defines. A request for `report` is answered with everything seen before it.
const PRELUDE: &str = r#"
import sys, json
seen = []
def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n"); sys.stdout.flush()
def raw(text):
    sys.stdout.write(text); sys.stdout.flush()
def answer(msg, result):
    send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
def serve():
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            seen.append({"unreadable": line.strip()})
            continue
        if isinstance(msg, dict) and msg.get("method") == "report":
            answer(msg, {"seen": seen})
            continue
        seen.append(msg)
        if isinstance(msg, dict):
            on(msg)
"#;

fn python(script: &str) -> StdioServer {
    let mut server =
        StdioServer::new("python3").args(["-c", &format!("{PRELUDE}\n{script}\nserve()")]);
    server.exit_grace = Duration::from_millis(500);
    server
}

fn connect(server: &StdioServer) -> Connection {
    let transport = stdio::spawn(server, discard_log()).expect("python3 starts");
    Connection::start(transport, Arc::new(NoRequests))
}

fn options() -> RequestOptions {
    RequestOptions {
        timeout: Duration::from_secs(30),
        ..RequestOptions::default()
    }
}

/// What the server received, in order, before the `report` request.
async fn seen(conn: &Connection) -> Vec<Value> {
    let report = conn
        .request("report", None, options())
        .await
        .expect("a report");
    report["seen"].as_array().cloned().expect("a list")
}

/// What the server received once it holds `count` messages: the client's answers to the
/// server's requests may leave after a `report` asked for at the same time.
async fn seen_at_least(conn: &Connection, count: usize) -> Vec<Value> {
    for _ in 0..100 {
        let seen = seen(conn).await;
        if seen.len() >= count {
            return seen;
        }
    }
    panic!("the server never received {count} messages");
}

#[tokio::test]
async fn initialize_is_never_sent_with_id_zero() {
    // Servers exist that test the id for truth and take 0 for a notification.
    let server = python(
        r#"
def on(msg):
    if msg.get("id") and msg.get("method") == "initialize":
        answer(msg, {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "picky", "version": "1"}})
"#,
    );
    let transport = stdio::spawn(&server, discard_log()).expect("python3 starts");
    let mut config = ClientConfig::new("test", "1");
    config.request_timeout = Duration::from_secs(20);
    config.era = EraSetting::Session;
    let client = Client::connect(transport, Arc::new(DecliningHandler), config).await;
    assert_eq!(
        client.expect("initialized").server().server_info.name,
        "picky"
    );
}

/// Whether the cancellation or the queue is seen first is left to chance; many requests meet
/// both orders.
#[tokio::test]
async fn a_request_cancelled_before_it_left_is_never_sent() {
    let conn = connect(&python("def on(msg): pass"));
    let cancel = CancellationToken::new();
    cancel.cancel();
    let doomed = RequestOptions {
        cancel: Some(cancel),
        ..options()
    };
    for _ in 0..32 {
        let outcome = conn
            .request(
                "tools/call",
                Some(json!({"name": "doomed"})),
                doomed.clone(),
            )
            .await;
        assert_eq!(
            outcome,
            Err(RequestError::Cancelled {
                method: "tools/call".into()
            })
        );
    }
    // Neither the request nor a cancellation of it reached the server.
    assert_eq!(seen(&conn).await, Vec::<Value>::new());
    conn.close().await;
}

#[tokio::test]
async fn answers_that_cannot_be_read_fail_their_call_at_once() {
    type Expected = fn(&RequestError) -> bool;
    let cases: [(&str, &str, Expected); 4] = [
        (
            "an error object with members of the wrong type",
            r#"raw('{"jsonrpc":"2.0","id":%d,"error":{"code":"bad","message":7}}\n' % msg["id"])"#,
            |e| {
                matches!(
                    e,
                    RequestError::Unreadable {
                        error: FrameError::NotJsonRpc(_),
                        ..
                    }
                )
            },
        ),
        (
            "an error response without an id",
            r#"raw('{"jsonrpc":"2.0","error":{"code":-32603,"message":"internal failure"}}\n')"#,
            |e| matches!(e, RequestError::Server { error, .. } if error.message == "internal failure"),
        ),
        (
            "an error response with a null id",
            r#"raw('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"could not parse"}}\n')"#,
            |e| matches!(e, RequestError::Server { error, .. } if error.message == "could not parse"),
        ),
        (
            "a response longer than the line limit, its id written last",
            r#"raw('{"jsonrpc":"2.0","result":{"text":"%s"},"id":%d}\n' % ("x" * 100000, msg["id"]))"#,
            |e| {
                matches!(
                    e,
                    RequestError::Unreadable {
                        error: FrameError::TooLarge { .. },
                        ..
                    }
                )
            },
        ),
    ];
    for (what, reply, expected) in cases {
        let mut server = python(&format!("def on(msg):\n    {reply}\n"));
        server.max_line_bytes = 64 * 1024;
        let conn = connect(&server);
        let error = conn
            .request("tools/call", None, options())
            .await
            .expect_err(what);
        assert!(expected(&error), "{what}: {error}");
        // The connection goes on.
        assert_eq!(seen(&conn).await.len(), 1, "{what}");
        conn.close().await;
    }
}

#[tokio::test]
async fn a_bad_element_of_a_batch_loses_nothing_beside_it() {
    // Both requests are answered in one batch whose middle element is broken.
    let server = python(
        r#"
pending = []
def on(msg):
    pending.append(msg["id"])
    if len(pending) == 2:
        a, b = pending
        raw('[{"jsonrpc":"2.0","id":%d,"result":{"n":1}},{"jsonrpc":"2.0","id":{},"result":7},{"jsonrpc":"2.0","id":%d,"result":{"n":2}}]\n' % (a, b))
"#,
    );
    let conn = connect(&server);
    let (first, second) = tokio::join!(
        conn.request("first", None, options()),
        conn.request("second", None, options())
    );
    let mut answers = [
        first.expect("first answered"),
        second.expect("second answered"),
    ];
    answers.sort_by_key(|a| a["n"].as_i64());
    assert_eq!(answers, [json!({"n": 1}), json!({"n": 2})]);
    conn.close().await;
}

#[tokio::test]
async fn requests_received_in_a_batch_are_answered_in_a_batch() {
    let server = python(
        r#"
def on(msg):
    if msg.get("method") == "go":
        raw('[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}},{"jsonrpc":"2.0","id":"b","method":"roots/list"},{"jsonrpc":"2.0","id":"c","method":7}]\n')
        answer(msg, {})
"#,
    );
    let conn = connect(&server);
    conn.request("go", None, options())
        .await
        .expect("go answered");
    let seen = seen_at_least(&conn, 2).await;
    let batch = seen
        .get(1)
        .and_then(Value::as_array)
        .cloned()
        .expect("a batch came back");
    let by_id = |id: &str| batch.iter().find(|r| r["id"] == id).cloned();
    assert_eq!(batch.len(), 3, "{batch:?}");
    assert_eq!(
        by_id("a"),
        Some(json!({"jsonrpc": "2.0", "id": "a", "result": {}}))
    );
    assert_eq!(
        by_id("b").map(|r| r["error"]["code"].clone()),
        Some(json!(-32601))
    );
    assert_eq!(
        by_id("c").map(|r| r["error"]["code"].clone()),
        Some(json!(-32600))
    );
    conn.close().await;
}

#[tokio::test]
async fn malformed_requests_from_the_server_get_an_error_back() {
    let server = python(
        r#"
def on(msg):
    if msg.get("method") == "go":
        raw('this is not json\n')
        raw('{"jsonrpc":"2.0","id":7,"method":["not","a","name"]}\n')
        raw('{"jsonrpc":"1.0","id":8,"method":"ping"}\n')
        answer(msg, {})
"#,
    );
    let conn = connect(&server);
    conn.request("go", None, options())
        .await
        .expect("go answered");
    let seen = seen_at_least(&conn, 4).await;
    let replies: Vec<(Value, Value)> = seen[1..4]
        .iter()
        .map(|r| (r["id"].clone(), r["error"]["code"].clone()))
        .collect();
    assert_eq!(
        replies,
        [
            (Value::Null, json!(-32700)),
            (json!(7), json!(-32600)),
            (json!(8), json!(-32600)),
        ]
    );
    conn.close().await;
}

#[tokio::test]
async fn a_server_that_writes_while_it_does_not_read_is_no_deadlock() {
    // The server writes 1 MiB of notifications before it reads a line, while the client
    // writes 1 MiB of requests: each side's pipe fills unless the client keeps reading.
    let server = python(
        r#"
note = json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x" * 1000}}) + "\n"
raw(note * 1024)
def on(msg):
    answer(msg, {})
"#,
    );
    let conn = connect(&server);
    let padding = "y".repeat(4096);
    let calls = (0..256).map(|_| conn.request("echo", Some(json!({"pad": padding})), options()));
    let outcomes = tokio::time::timeout(
        Duration::from_secs(60),
        futures_util::future::join_all(calls),
    )
    .await
    .expect("no deadlock: every request is answered");
    assert!(outcomes.iter().all(Result::is_ok));
    conn.close().await;
}

/// A server that speaks only `revisions`, the first of them by choice.
fn speaking(revisions: &str, capabilities: &str, then: &str) -> StdioServer {
    python(&format!(
        r#"
SUPPORTED = {revisions}
def on(msg):
    if msg.get("method") == "initialize":
        offered = msg["params"]["protocolVersion"]
        if offered not in SUPPORTED:
            send({{"jsonrpc": "2.0", "id": msg["id"], "error": {{"code": -32602, "message": "Unsupported protocol version", "data": {{"supported": SUPPORTED, "requested": offered}}}}}})
        else:
            answer(msg, {{"protocolVersion": offered, "capabilities": {capabilities}, "serverInfo": {{"name": "old", "version": "1"}}}})
    elif "id" in msg and "method" in msg:
{then}
"#
    ))
}

async fn client_of(server: &StdioServer) -> Client {
    let transport = stdio::spawn(server, discard_log()).expect("python3 starts");
    let mut config = ClientConfig::new("test", "1");
    config.request_timeout = Duration::from_secs(20);
    // These scripted servers speak the stateful era.
    config.era = EraSetting::Session;
    Client::connect(transport, Arc::new(DecliningHandler), config)
        .await
        .expect("initialized")
}

#[tokio::test]
async fn a_refused_revision_is_retried_with_the_newest_both_speak() {
    let server = speaking(
        r#"["2024-11-05", "2025-03-26", "2099-01-01"]"#,
        "{}",
        "        pass",
    );
    let client = client_of(&server).await;
    assert_eq!(client.protocol_version().as_str(), "2025-03-26");
    client.close().await;
}

#[tokio::test]
async fn completion_works_with_a_2024_11_05_server_which_declares_no_capability_for_it() {
    let server = speaking(
        r#"["2024-11-05"]"#,
        r#"{"prompts": {}}"#,
        r#"        answer(msg, {"completion": {"values": ["python", "pytorch"], "hasMore": False}})"#,
    );
    let client = client_of(&server).await;
    let params = CompleteRequestParams::new(Reference::prompt("code_review"), "language", "py");
    let result = client.complete(&params).await.expect("completed");
    assert_eq!(result.completion.values, ["python", "pytorch"]);
    client.close().await;
}
