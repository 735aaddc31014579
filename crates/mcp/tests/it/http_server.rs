//! The engine as a Streamable HTTP server, with the official SDK clients as the agents: each
//! connects with a bearer token, lists and calls tools, receives logging and progress, cancels
//! a call, answers an elicitation, and is refused with a wrong token (401) or from a foreign
//! web origin (403). Every client runs in both of the server's answer modes (event streams
//! and plain JSON bodies). A 2026-07-28 call whose `Mcp-Param-*` headers do not mirror its
//! marked arguments is refused before the handler sees it.

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use served::Seen;
use switchboard_mcp::server::http::{HttpServer, HttpServerOptions, Identity, TokenCheck};
use tokio::process::Command;
use tokio::sync::mpsc;

use crate::common::served;
use crate::common::workspace_root;

const TOKEN: &str = "agent-token-7f3a";
const LIMIT: Duration = Duration::from_secs(60);

fn tokens() -> Arc<dyn TokenCheck> {
    Arc::new(|token: &str| (token == TOKEN).then(|| Identity::new("Claude Code")))
}

/// The served handler on a server that admits the agent's token.
async fn with_tokens() -> HttpServer {
    let (seen, _) = mpsc::unbounded_channel();
    let options = HttpServerOptions {
        tokens: Some(tokens()),
        ..HttpServerOptions::default()
    };
    HttpServer::bind(options, served::factory(seen))
        .await
        .expect("bind")
}

struct Agent {
    name: &'static str,
    command: fn() -> Command,
}

fn node_agent() -> Command {
    let mut command = Command::new("node");
    command.arg(workspace_root().join("tests/peers/node/gateway-client.mjs"));
    command
}

fn python_agent() -> Command {
    let mut command = Command::new(workspace_root().join(".tools/venv/bin/python"));
    command.arg(workspace_root().join("tests/peers/python/gateway_client.py"));
    command
}

const AGENTS: [Agent; 2] = [
    Agent {
        name: "TypeScript SDK",
        command: node_agent,
    },
    Agent {
        name: "Python SDK",
        command: python_agent,
    },
];

async fn run(agent: &Agent, json_response: bool) {
    let what = format!(
        "{} ({})",
        agent.name,
        if json_response {
            "JSON answers"
        } else {
            "event streams"
        }
    );
    let (seen_tx, mut seen) = mpsc::unbounded_channel();
    let options = HttpServerOptions {
        json_response,
        tokens: Some(tokens()),
        ..HttpServerOptions::default()
    };
    let server = HttpServer::bind(options, served::factory(seen_tx))
        .await
        .expect("bind");
    let output = tokio::time::timeout(
        LIMIT,
        (agent.command)()
            .args([server.url(), TOKEN.into()])
            .stdin(Stdio::null())
            .kill_on_drop(true)
            .output(),
    )
    .await
    .unwrap_or_else(|_| panic!("{what}: the agent did not finish within {LIMIT:?}"))
    .expect("the agent runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{what}: the agent failed: {stderr}"
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{what}: no report ({e}): {}\n{stderr}",
            String::from_utf8_lossy(&output.stdout)
        )
    });

    let said = |key: &str| report[key].as_str().unwrap_or_default().to_owned();
    assert!(
        said("unauthorized").contains("401"),
        "{what}: a wrong token: {}",
        said("unauthorized")
    );
    assert!(
        said("forbidden").contains("403"),
        "{what}: a foreign origin: {}",
        said("forbidden")
    );
    assert_eq!(
        report["tools"],
        serde_json::json!([
            "echo", "log", "count", "wait", "slow", "ask", "whoami", "route", "leave"
        ]),
        "{what}"
    );
    assert_eq!(said("echo"), "hello", "{what}");
    assert_eq!(
        report["logs"],
        serde_json::json!(["a line for the log"]),
        "{what}"
    );
    // With JSON answers, progress travels on the GET stream and may arrive after the answer,
    // when the SDKs drop it: only the event streams promise it (the `wait` call below shows
    // that it arrives in both modes).
    if !json_response {
        let progress: Vec<f64> =
            serde_json::from_value(report["progress"].clone()).unwrap_or_default();
        assert_eq!(progress, [1.0, 2.0, 3.0], "{what}");
    }
    assert_ne!(said("cancelled"), "not cancelled", "{what}");
    assert_eq!(said("elicited"), "accept: yes to Go ahead?", "{what}");
    assert_eq!(said("whoami"), "Claude Code", "{what}");

    // The cancellation reached the server (the call's work was dropped), and the agent ended
    // its session (DELETE) on leaving.
    for expected in [Seen::WaitCancelled, Seen::SessionEnded] {
        let next = tokio::time::timeout(LIMIT, seen.recv()).await;
        assert_eq!(
            next,
            Ok(Some(expected.clone())),
            "{what}: the server did not see {expected:?}"
        );
    }
    assert_eq!(server.session_count(), 0, "{what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sdk_clients_use_the_engine_as_a_streamable_http_server() {
    let mut runs = tokio::task::JoinSet::new();
    for agent in &AGENTS {
        for json_response in [false, true] {
            runs.spawn(run(agent, json_response));
        }
    }
    while let Some(run) = runs.join_next().await {
        if let Err(err) = run {
            std::panic::resume_unwind(err.into_panic());
        }
    }
}

/// A request the server must turn away, and how.
struct Refused {
    what: &'static str,
    method: &'static str,
    headers: &'static [(&'static str, &'static str)],
    /// Names the session opened by `token-a` with `Mcp-Session-Id`.
    in_session: bool,
    status: u16,
    /// The `WWW-Authenticate` header expected, if any.
    challenge: Option<&'static str>,
}

const LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

#[tokio::test]
async fn requests_the_server_cannot_serve_get_a_status_that_says_why() {
    let tokens: Arc<dyn TokenCheck> = Arc::new(|token: &str| match token {
        "token-a" => Some(Identity::new("A")),
        "token-b" => Some(Identity::new("B")),
        _ => None,
    });
    let (seen, _) = mpsc::unbounded_channel();
    let options = HttpServerOptions {
        tokens: Some(tokens),
        ..HttpServerOptions::default()
    };
    let server = HttpServer::bind(options, served::factory(seen))
        .await
        .expect("bind");
    let http = reqwest::Client::new();
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
    let opened = http
        .post(server.url())
        .header("authorization", "Bearer token-a")
        .header("accept", "application/json")
        .body(initialize)
        .send()
        .await
        .expect("initialize");
    assert_eq!(opened.status(), 200);
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .expect("a session id")
        .to_owned();
    assert!(
        opened
            .text()
            .await
            .expect("body")
            .contains("\"protocolVersion\":\"2025-11-25\"")
    );

    const A: (&str, &str) = ("authorization", "Bearer token-a");
    const JSON: (&str, &str) = ("accept", "application/json, text/event-stream");
    let cases = [
        Refused {
            what: "no token",
            method: "POST",
            headers: &[JSON],
            in_session: true,
            status: 401,
            challenge: Some("Bearer"),
        },
        Refused {
            what: "a wrong token",
            method: "POST",
            headers: &[JSON, ("authorization", "Bearer nope")],
            in_session: true,
            status: 401,
            challenge: Some("Bearer error=\"invalid_token\""),
        },
        Refused {
            what: "another agent's session",
            method: "POST",
            headers: &[JSON, ("authorization", "Bearer token-b")],
            in_session: true,
            status: 404,
            challenge: None,
        },
        Refused {
            what: "a foreign Origin",
            method: "POST",
            headers: &[JSON, A, ("origin", "https://evil.example")],
            in_session: true,
            status: 403,
            challenge: None,
        },
        Refused {
            what: "a rebound Host",
            method: "POST",
            headers: &[JSON, A, ("host", "evil.example")],
            in_session: true,
            status: 403,
            challenge: None,
        },
        Refused {
            what: "an unknown protocol version",
            method: "POST",
            headers: &[JSON, A, ("mcp-protocol-version", "1999-01-01")],
            in_session: true,
            status: 400,
            challenge: None,
        },
        Refused {
            what: "no session",
            method: "POST",
            headers: &[JSON, A],
            in_session: false,
            status: 400,
            challenge: None,
        },
        Refused {
            what: "an unknown session",
            method: "POST",
            headers: &[JSON, A, ("mcp-session-id", "0000")],
            in_session: false,
            status: 404,
            challenge: None,
        },
        Refused {
            what: "a GET that takes no events",
            method: "GET",
            headers: &[A, ("accept", "application/json")],
            in_session: true,
            status: 406,
            challenge: None,
        },
        Refused {
            what: "another method",
            method: "PUT",
            headers: &[JSON, A],
            in_session: true,
            status: 405,
            challenge: None,
        },
    ];
    for case in &cases {
        let mut request = http
            .request(case.method.parse().expect("a method"), server.url())
            .body(LIST);
        for (name, value) in case.headers {
            request = request.header(*name, *value);
        }
        if case.in_session {
            request = request.header("mcp-session-id", &session);
        }
        let response = request.send().await.expect("an answer");
        assert_eq!(response.status().as_u16(), case.status, "{}", case.what);
        let challenge = response
            .headers()
            .get("www-authenticate")
            .map(|v| v.to_str().unwrap_or_default().to_owned());
        assert_eq!(challenge.as_deref(), case.challenge, "{}", case.what);
        // Refused before its body was read, the connection ends with the answer, and says
        // so: an agent sending its next request on it would find it closed mid-request.
        if matches!(case.status, 401 | 403 | 405) {
            let closing = response.headers().get("connection");
            assert_eq!(
                closing.and_then(|v| v.to_str().ok()),
                Some("close"),
                "{}",
                case.what
            );
        }
    }

    // The session still serves its own agent; once ended, it is gone.
    let in_session = |method: &str| {
        http.request(method.parse().expect("a method"), server.url())
            .header("authorization", "Bearer token-a")
            .header("accept", "application/json")
            .header("mcp-session-id", &session)
    };
    let listed = in_session("POST")
        .body(LIST)
        .send()
        .await
        .expect("tools/list");
    assert_eq!(listed.status(), 200);
    assert!(
        listed
            .text()
            .await
            .expect("body")
            .contains("\"name\":\"whoami\"")
    );
    assert_eq!(
        in_session("DELETE").send().await.expect("DELETE").status(),
        200
    );
    assert_eq!(server.session_count(), 0);
    assert_eq!(
        in_session("POST")
            .body(LIST)
            .send()
            .await
            .expect("tools/list")
            .status(),
        404
    );
}

/// A body that is not JSON gets the JSON-RPC parse error (-32700), and JSON that is no
/// JSON-RPC message the invalid request error (-32600), in a session, before one, and
/// from a client of the 2026-07-28 revision: an agent's SDK shows the code it knows.
#[tokio::test]
async fn a_malformed_body_is_answered_with_its_json_rpc_error_code() {
    let server = with_tokens().await;
    let http = reqwest::Client::new();
    let post = |body: &'static [u8]| {
        http.post(server.url())
            .header("authorization", format!("Bearer {TOKEN}"))
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .body(body)
    };
    let initialize = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
    let opened = post(initialize).send().await.expect("initialize");
    assert_eq!(opened.status(), 200);
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .expect("a session id")
        .to_owned();

    const PARSE_ERROR: i64 = -32700;
    const INVALID_REQUEST: i64 = -32600;
    let bodies: [(&[u8], i64); 6] = [
        (b"this is not json", PARSE_ERROR),
        (b"{\"jsonrpc\":\"2.0\",\"id\":3,", PARSE_ERROR),
        (b"\xff\xfe{}", PARSE_ERROR),
        (br#"{"hello":"world"}"#, INVALID_REQUEST),
        (
            br#"{"jsonrpc":"1.0","id":3,"method":"tools/list"}"#,
            INVALID_REQUEST,
        ),
        (b"[]", INVALID_REQUEST),
    ];
    for (body, code) in bodies {
        let shown = String::from_utf8_lossy(body);
        let sent = [
            (
                "in the session",
                post(body).header("mcp-session-id", &session),
            ),
            ("without a session", post(body)),
            (
                "of the 2026-07-28 revision",
                post(body).header("mcp-protocol-version", "2026-07-28"),
            ),
        ];
        for (how, request) in sent {
            let response = request.send().await.expect("an answer");
            assert_eq!(response.status(), 400, "{shown} {how}");
            let text = response.text().await.expect("a body");
            let answer: Value = serde_json::from_str(&text).expect("a JSON-RPC error");
            assert_eq!(answer["error"]["code"], code, "{shown} {how}: {answer}");
            assert_eq!(answer["jsonrpc"], "2.0", "{shown} {how}");
        }
    }
}

/// A 2026-07-28 `tools/call` of `route` with these arguments and extra headers: the status,
/// and the error code or the result's text.
async fn call_route(
    http: &reqwest::Client,
    url: &str,
    arguments: Value,
    headers: &[(&str, &str)],
) -> (u16, Value) {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "route", "arguments": arguments,
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}}});
    let mut request = http
        .post(url)
        .header("authorization", format!("Bearer {TOKEN}"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "route")
        .body(body.to_string());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("an answer");
    let status = response.status().as_u16();
    let text = response.text().await.expect("a body");
    // An answer on an event stream is its one `data:` line.
    let json = text
        .lines()
        .find_map(|line| line.strip_prefix("data:"))
        .unwrap_or(&text);
    let answer: Value = serde_json::from_str(json.trim()).expect("a JSON-RPC answer");
    let outcome = match answer.get("error") {
        Some(error) => error["code"].clone(),
        None => answer["result"]["content"][0]["text"].clone(),
    };
    (status, outcome)
}

#[tokio::test]
async fn a_modern_call_is_refused_unless_its_marked_arguments_match_their_headers() {
    let server = with_tokens().await;
    let http = reqwest::Client::new();
    let mismatch = serde_json::json!(-32020);
    let eu = serde_json::json!({"region": "eu-west", "priority": 3, "query": "x"});
    let both: &[(&str, &str)] = &[("mcp-param-region", "eu-west"), ("mcp-param-priority", "3")];
    // (what, arguments, headers, status, outcome)
    type Case<'a> = (&'a str, Value, &'a [(&'a str, &'a str)], u16, Value);
    let cases: Vec<Case> = vec![
        (
            "headers that mirror the arguments",
            eu.clone(),
            both,
            200,
            "eu-west at 3".into(),
        ),
        (
            "base64 and a number written otherwise",
            serde_json::json!({"region": "Zürich", "priority": 3}),
            &[
                ("mcp-param-region", "=?base64?WsO8cmljaA==?="),
                ("mcp-param-priority", "3.0"),
            ],
            200,
            "Zürich at 3".into(),
        ),
        (
            "no headers for absent or null arguments",
            serde_json::json!({"region": null, "query": "x"}),
            &[],
            200,
            "nowhere at null".into(),
        ),
        (
            "a header missing",
            eu.clone(),
            &[("mcp-param-region", "eu-west")],
            400,
            mismatch.clone(),
        ),
        (
            "the header of the one argument given missing",
            serde_json::json!({"priority": 3}),
            &[],
            400,
            mismatch.clone(),
        ),
        (
            "a header that says otherwise",
            eu.clone(),
            &[("mcp-param-region", "us-east"), ("mcp-param-priority", "3")],
            400,
            mismatch.clone(),
        ),
        (
            "a number that says otherwise",
            eu.clone(),
            &[("mcp-param-region", "eu-west"), ("mcp-param-priority", "4")],
            400,
            mismatch.clone(),
        ),
        (
            "base64 with bad padding",
            serde_json::json!({"region": "Hello"}),
            &[("mcp-param-region", "=?base64?SGVsbG8?=")],
            400,
            mismatch.clone(),
        ),
        (
            "base64 outside its alphabet",
            serde_json::json!({"region": "Hello"}),
            &[("mcp-param-region", "=?base64?SGVs!!!bG8=?=")],
            400,
            mismatch.clone(),
        ),
        (
            "a header for an argument not given",
            serde_json::json!({"query": "x"}),
            &[("mcp-param-region", "eu-west")],
            400,
            mismatch.clone(),
        ),
    ];
    for (what, arguments, headers, status, outcome) in cases {
        let answered = call_route(&http, &server.url(), arguments, headers).await;
        assert_eq!(answered, (status, outcome), "{what}");
    }
}

/// The server takes both loopback addresses on its port, so that a client told `localhost`
/// reaches it whichever it tries first; a port another program holds on either is refused
/// at once, saying which, rather than leaving that program to take the requests (and their
/// tokens) sent there.
#[tokio::test]
async fn the_server_holds_its_port_on_both_loopback_addresses_or_refuses_to_start() {
    let (seen, _) = mpsc::unbounded_channel();
    let server = HttpServer::bind(HttpServerOptions::default(), served::factory(seen.clone()))
        .await
        .expect("bind");
    let port = server.local_addr().port();
    for host in ["127.0.0.1", "[::1]"] {
        let status = reqwest::Client::new()
            .post(format!("http://{host}:{port}/mcp"))
            .header("content-type", "application/json")
            .header("accept", "application/json")
            .body("{}")
            .send()
            .await
            .unwrap_or_else(|e| panic!("nothing answers on {host}:{port}: {e}"))
            .status();
        assert_eq!(status, 400, "{host}: served, a request that is no JSON-RPC");
    }
    drop(server);

    for (taken, named) in [("127.0.0.1:0", "127.0.0.1"), ("[::1]:0", "[::1]")] {
        let squatter = std::net::TcpListener::bind(taken).unwrap();
        let port = squatter.local_addr().unwrap().port();
        let options = HttpServerOptions {
            port,
            ..HttpServerOptions::default()
        };
        let refused = HttpServer::bind(options, served::factory(seen.clone()))
            .await
            .err()
            .unwrap_or_else(|| panic!("started beside a program holding {named}:{port}"));
        assert_eq!(refused.kind(), std::io::ErrorKind::AddrInUse);
        assert!(
            refused.to_string().contains(&format!("{named}:{port}")),
            "{refused}"
        );
    }
}
