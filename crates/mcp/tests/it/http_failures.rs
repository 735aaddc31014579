//! The HTTP transports against servers that misbehave: a small HTTP server on loopback
//! answers each request as the test scripts it, and records what the client sent.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use switchboard_mcp::client::{Client, ClientConfig, ClientError, DecliningHandler, EraSetting};
use switchboard_mcp::connection::RequestError;
use switchboard_mcp::transport::TransportError;
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::http::{self, HttpMode, HttpServer};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};

/// One request as the server saw it.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn rpc_method(&self) -> &str {
        self.body["method"].as_str().unwrap_or("")
    }
}

enum Reply {
    /// A complete response: status, extra headers, content type and body.
    Full(u16, Vec<(&'static str, String)>, &'static str, String),
    /// An event stream: these events, then the connection closes, or stays open forever.
    Events(Vec<String>, bool),
    /// An event stream that carries what the test sends on, as it sends it.
    Fed(mpsc::UnboundedReceiver<String>),
    /// No answer at all, not even a status line, until the client lets go.
    Silence,
    /// The connection closed at once, with no answer.
    Hangup,
    /// This reply, once the gate opens.
    Held(watch::Receiver<bool>, Box<Reply>),
}

fn json_reply(body: Value) -> Reply {
    Reply::Full(200, Vec::new(), "application/json", body.to_string())
}

fn accepted() -> Reply {
    Reply::Full(202, Vec::new(), "text/plain", String::new())
}

type Script = dyn Fn(&Seen) -> Reply + Send + Sync;

struct FakeServer {
    url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    changed: Arc<tokio::sync::Notify>,
}

impl FakeServer {
    async fn start(script: impl Fn(&Seen) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("http://{}/mcp", listener.local_addr().expect("address"));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let changed = Arc::new(tokio::sync::Notify::new());
        let script: Arc<Script> = Arc::new(script);
        let log = Log {
            seen: seen.clone(),
            changed: changed.clone(),
        };
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(serve(socket, script.clone(), log.clone()));
            }
        });
        Self { url, seen, changed }
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("lock").clone()
    }

    /// Waits until what the server saw satisfies `done` (a client closing a stream that
    /// was left open counts as a `HANGUP`).
    async fn wait_for(&self, what: &str, done: impl Fn(&[Seen]) -> bool) -> Vec<Seen> {
        let waiting = async {
            loop {
                let changed = self.changed.notified();
                let seen = self.seen();
                if done(&seen) {
                    return seen;
                }
                changed.await;
            }
        };
        tokio::time::timeout(Duration::from_secs(20), waiting)
            .await
            .unwrap_or_else(|_| panic!("the server never saw {what}: {:?}", self.seen()))
    }
}

/// Where the server writes down what it saw, waking those who wait on it.
#[derive(Clone)]
struct Log {
    seen: Arc<Mutex<Vec<Seen>>>,
    changed: Arc<tokio::sync::Notify>,
}

impl Log {
    fn push(&self, seen: Seen) {
        self.seen.lock().expect("lock").push(seen);
        self.changed.notify_waiters();
    }
}

/// Serves the requests of one connection (keep-alive) until it closes.
async fn serve(socket: tokio::net::TcpStream, script: Arc<Script>, log: Log) {
    let mut socket = BufReader::new(socket);
    loop {
        let mut line = String::new();
        if socket.read_line(&mut line).await.unwrap_or(0) == 0 {
            return;
        }
        let method = line.split(' ').next().unwrap_or("").to_owned();
        let mut headers = Vec::new();
        loop {
            let mut header = String::new();
            socket.read_line(&mut header).await.expect("header");
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                headers.push((name.trim().to_owned(), value.trim().to_owned()));
            }
        }
        let length: usize = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        socket.read_exact(&mut body).await.expect("body");
        let seen = Seen {
            method,
            headers,
            body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        };
        log.push(seen.clone());
        if !respond(&mut socket, script(&seen), &log).await {
            return;
        }
    }
}

/// The client let go of a stream or an exchange it left open.
fn hangup() -> Seen {
    Seen {
        method: "HANGUP".into(),
        headers: Vec::new(),
        body: Value::Null,
    }
}

/// Writes one reply; false once the connection is done with.
async fn respond(socket: &mut BufReader<tokio::net::TcpStream>, reply: Reply, log: &Log) -> bool {
    let stream_head =
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";
    match reply {
        Reply::Full(status, extra, kind, body) => {
            let mut head = format!(
                "HTTP/1.1 {status} X\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n",
                body.len()
            );
            for (name, value) in extra {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            let reply = format!("{head}\r\n{body}");
            socket.get_mut().write_all(reply.as_bytes()).await.is_ok()
        }
        Reply::Events(events, hang) => {
            let _ = socket.get_mut().write_all(stream_head.as_bytes()).await;
            for event in events {
                let _ = socket.get_mut().write_all(event.as_bytes()).await;
            }
            if hang {
                // Open until the client lets go of it.
                let mut rest = Vec::new();
                let _ = socket.read_to_end(&mut rest).await;
                log.push(hangup());
            }
            false
        }
        Reply::Fed(mut events) => {
            let _ = socket.get_mut().write_all(stream_head.as_bytes()).await;
            while let Some(event) = events.recv().await {
                if socket.get_mut().write_all(event.as_bytes()).await.is_err() {
                    break;
                }
            }
            false
        }
        Reply::Hangup => false,
        Reply::Silence => {
            let mut rest = Vec::new();
            let _ = socket.read_to_end(&mut rest).await;
            log.push(hangup());
            false
        }
        Reply::Held(mut gate, then) => {
            let _ = gate.wait_for(|open| *open).await;
            Box::pin(respond(socket, *then, log)).await
        }
    }
}

fn initialize_answer(id: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {
        "protocolVersion": "2025-06-18",
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "fake", "version": "1"},
    }})
}

fn initialize_result(id: &Value, session: Option<&str>) -> Reply {
    let body = initialize_answer(id);
    let headers = session
        .map(|s| vec![("Mcp-Session-Id", s.to_owned())])
        .unwrap_or_default();
    Reply::Full(200, headers, "application/json", body.to_string())
}

/// A well-behaved handshake; everything after it is up to `rest`.
fn after_handshake(
    rest: impl Fn(&Seen) -> Reply + Send + Sync + 'static,
) -> impl Fn(&Seen) -> Reply + Send + Sync + 'static {
    move |seen| match (seen.method.as_str(), seen.rpc_method()) {
        ("POST", "initialize") => initialize_result(&seen.body["id"], None),
        ("POST", "notifications/initialized") => accepted(),
        ("GET", _) => Reply::Full(405, Vec::new(), "text/plain", String::new()),
        _ => rest(seen),
    }
}

async fn connect(server: HttpServer) -> Result<Client, ClientError> {
    let (transport, _) = http::connect(&server, discard_log()).expect("valid settings");
    let mut config = ClientConfig::new("switchboard-tests", "1");
    config.request_timeout = Duration::from_secs(2);
    config.era = EraSetting::Session;
    Client::connect(transport, Arc::new(DecliningHandler), config).await
}

fn transport_error(outcome: Result<Client, ClientError>) -> TransportError {
    match outcome {
        Err(ClientError::Request(RequestError::Transport { error, .. })) => error,
        Err(other) => panic!("expected a transport error, got {other}"),
        Ok(_) => panic!("expected a transport error, got a session"),
    }
}

async fn call_error(client: &Client) -> RequestError {
    match client.call_tool("t", None, client.request_options()).await {
        Err(ClientError::Request(error)) => error,
        other => panic!("expected a failed request, got {other:?}"),
    }
}

#[tokio::test]
async fn a_refused_connection_is_a_connect_error() {
    let (address, _bound) = switchboard_test_support::ports::refusing_address();
    let error = transport_error(connect(HttpServer::new(format!("http://{address}/mcp"))).await);
    assert!(
        matches!(&error, TransportError::Connect { url, .. } if url.contains(&address.port().to_string())),
        "{error}"
    );
}

#[tokio::test]
async fn a_failed_tls_handshake_is_a_tls_error() {
    let server = FakeServer::start(|_| accepted()).await;
    let url = server.url.replace("http://", "https://");
    let error = transport_error(connect(HttpServer::new(url)).await);
    assert!(matches!(error, TransportError::Tls { .. }), "{error}");
}

#[tokio::test]
async fn unauthorized_and_forbidden_are_typed_with_the_challenge() {
    let server = FakeServer::start(|_| {
        let challenge = (
            "WWW-Authenticate",
            r#"Bearer resource_metadata="https://a.example/.well-known""#.to_owned(),
        );
        Reply::Full(401, vec![challenge], "text/plain", "no".into())
    })
    .await;
    let error = transport_error(connect(HttpServer::new(&server.url)).await);
    assert_eq!(
        error,
        TransportError::Unauthorized {
            url: server.url.clone(),
            status: 401,
            challenge: Some(r#"Bearer resource_metadata="https://a.example/.well-known""#.into()),
            nonce: None,
        }
    );
    let forbidden =
        FakeServer::start(|_| Reply::Full(403, Vec::new(), "text/plain", String::new())).await;
    let error = transport_error(connect(HttpServer::new(&forbidden.url)).await);
    assert!(matches!(
        error,
        TransportError::Unauthorized {
            status: 403,
            challenge: None,
            ..
        }
    ));
}

#[tokio::test]
async fn a_server_error_carries_its_status_and_body() {
    let server = FakeServer::start(after_handshake(|_| {
        Reply::Full(
            500,
            Vec::new(),
            "text/plain",
            "database unavailable\n".into(),
        )
    }))
    .await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    let error = call_error(&client).await;
    assert_eq!(
        error.to_string(),
        format!(
            "tools/call could not be delivered: {} answered HTTP 500: database unavailable",
            server.url
        )
    );
}

/// A server that answers with a redirect is not followed: the request, with the headers the
/// person configured for that server (its tokens), goes nowhere else, and the error names
/// the address it pointed to.
#[tokio::test]
async fn a_redirect_is_not_followed_with_the_servers_headers() {
    let elsewhere = FakeServer::start(|seen| json_reply(initialize_answer(&seen.body["id"]))).await;
    let location = elsewhere.url.clone();
    let server = FakeServer::start(move |_| {
        Reply::Full(
            307,
            vec![("Location", location.clone())],
            "text/plain",
            String::new(),
        )
    })
    .await;
    let mut settings = HttpServer::new(&server.url);
    settings.mode = HttpMode::StreamableHttp;
    settings.headers = vec![("X-Api-Key".into(), "s3cret-key".into())];
    let error = transport_error(connect(settings).await);
    assert!(
        error.to_string().contains(&elsewhere.url),
        "the error names where it pointed: {error}"
    );
    let followed = elsewhere.seen.lock().unwrap().clone();
    assert!(followed.is_empty(), "the request was sent on: {followed:?}");
}

#[tokio::test]
async fn a_body_that_is_not_json_rpc_is_a_clear_error() {
    let server = FakeServer::start(after_handshake(|_| {
        Reply::Full(
            200,
            Vec::new(),
            "application/json",
            "<html>Bad gateway</html>".into(),
        )
    }))
    .await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    let error = call_error(&client).await;
    assert!(
        matches!(&error, RequestError::Transport { error: TransportError::InvalidBody(detail), .. } if detail.contains("<html>Bad gateway</html>")),
        "{error}"
    );
}

#[tokio::test]
async fn an_event_stream_that_ends_without_the_answer_fails_the_request() {
    let server = FakeServer::start(after_handshake(|_| {
        // A notification, then the server hangs up; no event id, so nothing to resume.
        let log = json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "working"}});
        Reply::Events(vec![format!("event: message\ndata: {log}\n\n")], false)
    }))
    .await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    assert!(matches!(
        call_error(&client).await,
        RequestError::Transport {
            error: TransportError::StreamEnded,
            ..
        }
    ));
}

#[tokio::test]
async fn an_event_stream_that_never_answers_times_out() {
    let server = FakeServer::start(after_handshake(|_| {
        Reply::Events(vec![": keep-alive\n\n".into()], true)
    }))
    .await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    assert!(matches!(
        call_error(&client).await,
        RequestError::Timeout { .. }
    ));
    // The timeout tells the server, which is how it learns to stop; that POST follows shortly.
    for _ in 0..200 {
        if server
            .seen()
            .iter()
            .any(|s| s.rpc_method() == "notifications/cancelled")
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no notifications/cancelled after the timeout");
}

#[tokio::test]
async fn a_session_the_server_dropped_is_renewed_without_the_caller_noticing() {
    let sessions = Arc::new(Mutex::new(0));
    let server = FakeServer::start(move |seen| {
        let session = seen.header("Mcp-Session-Id").map(str::to_owned);
        match (seen.method.as_str(), seen.rpc_method(), session.as_deref()) {
            ("POST", "initialize", None) => {
                let mut count = sessions.lock().unwrap();
                *count += 1;
                initialize_result(&seen.body["id"], Some(&format!("s{count}")))
            }
            ("POST", "notifications/initialized", Some(_)) => accepted(),
            // The server forgot the first session.
            ("POST", "tools/call", Some("s1")) => {
                Reply::Full(404, Vec::new(), "text/plain", "unknown session".into())
            }
            ("POST", "tools/call", Some("s2")) => {
                json_reply(json!({"jsonrpc": "2.0", "id": seen.body["id"],
                "result": {"content": [{"type": "text", "text": "done"}]}}))
            }
            ("DELETE", _, _) => accepted(),
            _ => Reply::Full(405, Vec::new(), "text/plain", String::new()),
        }
    })
    .await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    let result = client
        .call_tool("t", None, client.request_options())
        .await
        .unwrap();
    assert_eq!(result.content[0].as_text(), Some("done"));
    let posts: Vec<(String, Option<String>)> = server
        .seen()
        .iter()
        .filter(|s| s.method == "POST")
        .map(|s| {
            (
                s.rpc_method().to_owned(),
                s.header("Mcp-Session-Id").map(str::to_owned),
            )
        })
        .collect();
    let expected = [
        ("initialize", None),
        ("notifications/initialized", Some("s1")),
        ("tools/call", Some("s1")),
        ("initialize", None),
        ("notifications/initialized", Some("s2")),
        ("tools/call", Some("s2")),
    ]
    .map(|(m, s)| (m.to_owned(), s.map(str::to_owned)));
    assert_eq!(posts, expected);
}

#[tokio::test]
async fn configured_headers_the_session_and_the_revision_go_with_every_request() {
    let server = FakeServer::start(|seen| match (seen.method.as_str(), seen.rpc_method()) {
        ("POST", "initialize") => initialize_result(&seen.body["id"], Some("abc")),
        ("POST", "tools/list") => {
            json_reply(json!({"jsonrpc": "2.0", "id": seen.body["id"], "result": {"tools": []}}))
        }
        ("GET", _) => Reply::Full(405, Vec::new(), "text/plain", String::new()),
        _ => accepted(),
    })
    .await;
    let settings = HttpServer::new(&server.url).header("Authorization", "Bearer s3cret");
    let client = connect(settings).await.unwrap();
    client.list_tools().await.unwrap();
    client.close().await;
    let seen = server.seen();
    assert!(
        seen.iter()
            .all(|s| s.header("Authorization") == Some("Bearer s3cret"))
    );
    let init = &seen[0];
    assert_eq!(init.rpc_method(), "initialize");
    assert_eq!(
        init.header("Accept"),
        Some("application/json, text/event-stream")
    );
    assert_eq!(init.header("Mcp-Session-Id"), None);
    assert_eq!(init.header("MCP-Protocol-Version"), None);
    for later in &seen[1..] {
        assert_eq!(later.header("Mcp-Session-Id"), Some("abc"), "{later:?}");
        assert_eq!(
            later.header("MCP-Protocol-Version"),
            Some("2025-06-18"),
            "{later:?}"
        );
    }
    let methods: Vec<&str> = seen.iter().map(|s| s.method.as_str()).collect();
    assert_eq!(methods, ["POST", "POST", "GET", "POST", "DELETE"]);
}

#[tokio::test]
async fn a_legacy_endpoint_on_another_origin_is_refused() {
    let server = FakeServer::start(|seen| match seen.method.as_str() {
        "GET" => Reply::Events(
            vec!["event: endpoint\ndata: http://attacker.example:8080/messages\n\n".into()],
            true,
        ),
        _ => Reply::Full(405, Vec::new(), "text/plain", String::new()),
    })
    .await;
    let mut settings = HttpServer::new(&server.url);
    settings.mode = HttpMode::LegacySse;
    let error = transport_error(connect(settings).await);
    assert!(
        error
            .to_string()
            .starts_with("refused the endpoint http://attacker.example:8080/messages"),
        "{error}"
    );
}

#[tokio::test]
async fn when_neither_transport_works_both_reasons_are_kept() {
    let server = FakeServer::start(|seen| {
        let text = format!("no MCP here ({})", seen.method);
        Reply::Full(404, Vec::new(), "text/plain", text)
    })
    .await;
    let error = transport_error(connect(HttpServer::new(&server.url)).await);
    let TransportError::NoTransport { streamable, legacy } = &error else {
        panic!("expected both reasons, got {error}");
    };
    assert!(
        matches!(&**streamable, TransportError::Status { status: 404, body, .. } if body == "no MCP here (POST)")
    );
    assert!(
        matches!(&**legacy, TransportError::Status { status: 404, body, .. } if body == "no MCP here (GET)")
    );
    assert!(error.to_string().contains("HTTP+SSE fallback"), "{error}");
}

/// A 2025-11-25 server that closes every stream after one event and expects the client to
/// poll: the answer to a call comes on the `answer_on`-th poll; each poll's event has a
/// new id while `advancing`, the same one otherwise.
fn polling_server(
    answer_on: usize,
    advancing: bool,
) -> impl Fn(&Seen) -> Reply + Send + Sync + 'static {
    let call_id = Arc::new(Mutex::new(Value::Null));
    move |seen| {
        let last = seen
            .header("Last-Event-ID")
            .and_then(|id| id.parse::<usize>().ok());
        match (seen.method.as_str(), seen.rpc_method(), last) {
            ("POST", "initialize", _) => initialize_result(&seen.body["id"], None),
            ("POST", "notifications/initialized", _) => accepted(),
            ("POST", "tools/call", _) => {
                *call_id.lock().expect("lock") = seen.body["id"].clone();
                // The priming event: an id and a delay, no data.
                Reply::Events(vec!["id: 0\nretry: 5\n\n".into()], false)
            }
            ("GET", _, Some(n)) if n + 1 >= answer_on => {
                let answer = json!({"jsonrpc": "2.0", "id": *call_id.lock().expect("lock"),
                    "result": {"content": [{"type": "text", "text": "polled"}]}});
                Reply::Events(vec![format!("id: {}\ndata: {answer}\n\n", n + 1)], false)
            }
            ("GET", _, Some(n)) => {
                let next = if advancing { n + 1 } else { n };
                Reply::Events(vec![format!("id: {next}\n\n")], false)
            }
            _ => Reply::Full(405, Vec::new(), "text/plain", String::new()),
        }
    }
}

#[tokio::test]
async fn a_server_that_closes_every_stream_is_polled_until_it_answers() {
    let server = FakeServer::start(polling_server(12, true)).await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    let mut options = client.request_options();
    options.timeout = Duration::from_secs(20);
    let result = client
        .call_tool("t", None, options)
        .await
        .expect("answered after 12 polls");
    assert_eq!(result.content[0].as_text(), Some("polled"));
}

#[tokio::test]
async fn polls_that_bring_nothing_new_give_up() {
    let server = FakeServer::start(polling_server(usize::MAX, false)).await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    let mut options = client.request_options();
    options.timeout = Duration::from_secs(20);
    let error = client
        .call_tool("t", None, options)
        .await
        .expect_err("gave up");
    assert!(
        matches!(
            &error,
            ClientError::Request(RequestError::Transport {
                error: TransportError::StreamEnded,
                ..
            })
        ),
        "{error}"
    );
}

async fn connect_with(server: &FakeServer, adjust: impl FnOnce(&mut ClientConfig)) -> Client {
    let (transport, _) =
        http::connect(&HttpServer::new(&server.url), discard_log()).expect("valid settings");
    let mut config = ClientConfig::new("switchboard-tests", "1");
    config.request_timeout = Duration::from_secs(2);
    // The fake servers here speak the stateful era.
    config.era = EraSetting::Session;
    adjust(&mut config);
    Client::connect(transport, Arc::new(DecliningHandler), config)
        .await
        .expect("initialized")
}

/// Waits for the connection to end, failing the test if it never does.
async fn ended(client: &Client) -> Arc<switchboard_mcp::transport::CloseReason> {
    tokio::time::timeout(Duration::from_secs(20), client.connection().wait_closed())
        .await
        .expect("the connection ended")
}

#[tokio::test]
async fn a_server_that_stops_answering_pings_ends_the_connection() {
    let server = FakeServer::start(after_handshake(|seen| match seen.rpc_method() {
        // It accepts the request and never answers.
        "ping" => Reply::Events(Vec::new(), true),
        _ => accepted(),
    }))
    .await;
    let client = connect_with(&server, |config| {
        config.ping_interval = Some(Duration::from_millis(50));
        config.request_timeout = Duration::from_millis(500);
    })
    .await;
    let reason = ended(&client).await;
    assert!(reason.detail.contains("stopped answering"), "{reason}");
}

#[tokio::test]
async fn a_refusal_in_mid_session_ends_it_as_needing_authorization() {
    let server = FakeServer::start(after_handshake(|_| {
        let challenge = (
            "WWW-Authenticate",
            r#"Bearer error="invalid_token""#.to_owned(),
        );
        Reply::Full(401, vec![challenge], "text/plain", String::new())
    }))
    .await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    assert!(matches!(
        call_error(&client).await,
        RequestError::Transport {
            error: TransportError::Unauthorized { status: 401, .. },
            ..
        }
    ));
    assert!(ended(&client).await.unauthorized);
}

#[tokio::test]
async fn a_session_that_cannot_be_renewed_ends_the_connection() {
    let initialized = Arc::new(Mutex::new(0));
    let server = FakeServer::start(
        move |seen| match (seen.method.as_str(), seen.rpc_method()) {
            ("POST", "initialize") => {
                let mut count = initialized.lock().expect("lock");
                *count += 1;
                match *count {
                    1 => initialize_result(&seen.body["id"], Some("s1")),
                    _ => Reply::Full(503, Vec::new(), "text/plain", "shutting down".into()),
                }
            }
            ("POST", "notifications/initialized") => accepted(),
            ("POST", _) => Reply::Full(404, Vec::new(), "text/plain", "unknown session".into()),
            _ => Reply::Full(405, Vec::new(), "text/plain", String::new()),
        },
    )
    .await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    assert!(matches!(
        call_error(&client).await,
        RequestError::Transport {
            error: TransportError::SessionLost(_),
            ..
        }
    ));
    let reason = ended(&client).await;
    assert!(reason.detail.contains("shutting down"), "{reason}");
}

/// A server that forgets its first session after the first page of tools.
fn forgetful_server() -> impl Fn(&Seen) -> Reply + Send + Sync + 'static {
    let sessions = Arc::new(Mutex::new(0));
    move |seen| {
        let session = seen.header("Mcp-Session-Id").map(str::to_owned);
        let id = &seen.body["id"];
        let cursor = seen.body["params"].get("cursor").is_some();
        match (seen.method.as_str(), seen.rpc_method(), session.as_deref()) {
            ("POST", "initialize", None) => {
                let mut count = sessions.lock().expect("lock");
                *count += 1;
                let body = json!({"jsonrpc": "2.0", "id": id, "result": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {"tools": {}, "resources": {"subscribe": true}, "logging": {}},
                    "serverInfo": {"name": "forgetful", "version": "1"},
                    "instructions": format!("session {count}"),
                }});
                let session = ("Mcp-Session-Id", format!("s{count}"));
                Reply::Full(200, vec![session], "application/json", body.to_string())
            }
            ("POST", "tools/list", Some("s1")) if cursor => {
                Reply::Full(404, Vec::new(), "text/plain", "unknown session".into())
            }
            ("POST", "tools/list", Some(s)) => {
                let tool = json!({"name": format!("from-{s}"), "inputSchema": {"type": "object"}});
                let next = (s == "s1").then_some("c1");
                json_reply(
                    json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [tool], "nextCursor": next}}),
                )
            }
            ("POST", "notifications/initialized", Some(_)) => accepted(),
            ("POST", _, Some(_)) => json_reply(json!({"jsonrpc": "2.0", "id": id, "result": {}})),
            ("GET", _, Some(_)) => Reply::Events(Vec::new(), true),
            _ => Reply::Full(405, Vec::new(), "text/plain", String::new()),
        }
    }
}

#[tokio::test]
async fn a_renewed_session_is_told_again_what_the_old_one_knew() {
    let server = FakeServer::start(forgetful_server()).await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    client.subscribe("file:///watched").await.unwrap();
    client
        .set_logging_level(switchboard_mcp::types::LoggingLevel::Debug)
        .await
        .unwrap();
    // The walk meets the expired session on its second page and starts again.
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["from-s2"]);
    assert_eq!(client.server().instructions.as_deref(), Some("session 2"));
    let seen = server
        .wait_for("the new session's event stream", |seen| {
            seen.iter()
                .any(|s| s.method == "GET" && s.header("Mcp-Session-Id") == Some("s2"))
        })
        .await;
    let in_s2: Vec<(String, Value)> = seen
        .iter()
        .filter(|s| s.method == "POST" && s.header("Mcp-Session-Id") == Some("s2"))
        .map(|s| (s.rpc_method().to_owned(), s.body["params"].clone()))
        .collect();
    assert_eq!(
        in_s2,
        [
            ("notifications/initialized".to_owned(), Value::Null),
            (
                "resources/subscribe".to_owned(),
                json!({"uri": "file:///watched"})
            ),
            ("logging/setLevel".to_owned(), json!({"level": "debug"})),
            ("tools/list".to_owned(), json!({})),
        ]
    );
}

#[tokio::test]
async fn a_cancelled_call_is_told_after_its_request_and_its_stream_is_let_go() {
    let server = FakeServer::start(after_handshake(|seen| match seen.rpc_method() {
        // The call's stream is primed, then stays open with no answer.
        "tools/call" => Reply::Events(vec!["id: 1\n\n".into()], true),
        _ => accepted(),
    }))
    .await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    // Many, for the two connections of a call and its cancellation are read in any order.
    const CALLS: usize = 20;
    for _ in 0..CALLS {
        // Cancelled at once: the cancellation races its own request to the server.
        let mut options = client.request_options();
        options.timeout = Duration::from_millis(1);
        let outcome = client.call_tool("t", None, options).await;
        assert!(
            matches!(
                outcome,
                Err(ClientError::Request(RequestError::Timeout { .. }))
            ),
            "{outcome:?}"
        );
    }
    let seen = server
        .wait_for(
            "every call's stream closed and the call cancelled",
            |seen| {
                let cancels = seen
                    .iter()
                    .filter(|s| s.rpc_method() == "notifications/cancelled")
                    .count();
                hangups_seen(seen) == CALLS && cancels == CALLS
            },
        )
        .await;
    let calls: Vec<&Value> = seen
        .iter()
        .filter(|s| s.rpc_method() == "tools/call")
        .map(|s| &s.body["id"])
        .collect();
    assert_eq!(calls.len(), CALLS);
    for id in calls {
        let position = |method: &str| {
            seen.iter().position(|s| {
                s.rpc_method() == method
                    && (s.body["id"] == *id || s.body["params"]["requestId"] == *id)
            })
        };
        let (call, cancel) = (position("tools/call"), position("notifications/cancelled"));
        assert!(
            cancel.is_some() && call < cancel,
            "call {id}: {call:?}, cancelled {cancel:?}"
        );
    }
}

/// The error is known to be the POST's own even while another call waits, whose answer then
/// comes as usual.
#[tokio::test]
async fn a_body_with_only_an_error_without_id_is_the_answer_to_its_request() {
    let (release, held) = watch::channel(false);
    let server = FakeServer::start(after_handshake(
        move |seen| match seen.body["params"]["name"].as_str() {
            Some("waiting") => Reply::Held(
                held.clone(),
                Box::new(json_reply(json!({"jsonrpc": "2.0", "id": seen.body["id"],
                    "result": {"content": [{"type": "text", "text": "done"}]}}))),
            ),
            _ => json_reply(json!({"jsonrpc": "2.0", "id": null,
                "error": {"code": -32700, "message": "could not parse the request"}})),
        },
    ))
    .await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    let waiting = tokio::spawn({
        let client = client.clone();
        async move {
            client
                .call_tool("waiting", None, client.request_options())
                .await
        }
    });
    server
        .wait_for("the waiting call", |seen| calls_seen(seen) == 1)
        .await;
    let error = call_error(&client).await;
    assert!(
        matches!(&error, RequestError::Server { error, .. } if error.message == "could not parse the request"),
        "{error}"
    );
    release.send_replace(true);
    let answered = waiting.await.unwrap().expect("the other call's answer");
    assert_eq!(answered.content[0].as_text(), Some("done"));
}

fn calls_seen(seen: &[Seen]) -> usize {
    seen.iter()
        .filter(|s| s.rpc_method() == "tools/call")
        .count()
}

fn hangups_seen(seen: &[Seen]) -> usize {
    seen.iter().filter(|s| s.method == "HANGUP").count()
}

#[tokio::test]
async fn closing_the_client_lets_go_of_every_request_in_flight() {
    let server = FakeServer::start(after_handshake(|seen| {
        match seen.body["params"]["name"].as_str() {
            // One call whose answer never starts, one whose stream could be resumed.
            Some("silent") => Reply::Silence,
            Some("streamed") => Reply::Events(vec!["id: 1\n\n".into()], true),
            _ => accepted(),
        }
    }))
    .await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    let calls: Vec<_> = ["silent", "streamed"]
        .map(|name| {
            let client = client.clone();
            tokio::spawn(async move {
                let mut options = client.request_options();
                options.timeout = Duration::from_secs(600);
                client.call_tool(name, None, options).await
            })
        })
        .into();
    server
        .wait_for("both calls", |seen| calls_seen(seen) == 2)
        .await;
    client.close().await;
    let seen = server
        .wait_for("both calls let go", |seen| hangups_seen(seen) == 2)
        .await;
    for call in calls {
        let outcome = call.await.unwrap();
        assert!(
            matches!(outcome, Err(ClientError::Request(RequestError::Closed(_)))),
            "{outcome:?}"
        );
    }
    // The stream was let go, not resumed.
    let resumed: Vec<&Seen> = seen
        .iter()
        .filter(|s| s.header("Last-Event-ID").is_some())
        .collect();
    assert!(resumed.is_empty(), "{resumed:?}");
}

/// Calls a tool the server never answers, with the clock paused, and returns the limit
/// that struck: the call's own timeout is ten minutes, a quicker one is the transport's.
async fn unanswered_call(client: &Client) -> Option<u64> {
    tokio::time::pause();
    let mut options = client.request_options();
    options.timeout = Duration::from_secs(600);
    match client.call_tool("t", None, options).await {
        Err(ClientError::Request(RequestError::Transport {
            error: TransportError::Timeout { seconds, .. },
            ..
        })) => seconds,
        other => panic!("expected the transport to give up, got {other:?}"),
    }
}

#[tokio::test]
async fn a_request_whose_answer_never_starts_fails_at_the_read_timeout() {
    let server = FakeServer::start(after_handshake(|seen| match seen.rpc_method() {
        "tools/call" => Reply::Silence,
        _ => accepted(),
    }))
    .await;
    let mut settings = HttpServer::new(&server.url);
    settings.read_timeout = Duration::from_secs(5);
    let client = connect(settings).await.unwrap();
    assert_eq!(unanswered_call(&client).await, Some(5));
}

/// An HTTP+SSE server: its event stream names the endpoint and carries the answer to
/// `initialize`; every other request is accepted or, as `rest` says, never answered.
fn legacy_server(
    rest: impl Fn(&Seen) -> Reply + Send + Sync + 'static,
) -> impl Fn(&Seen) -> Reply + Send + Sync + 'static {
    let (events, stream) = mpsc::unbounded_channel::<String>();
    let stream = Mutex::new(Some(stream));
    let _ = events.send("event: endpoint\ndata: /messages\n\n".into());
    move |seen| match (seen.method.as_str(), seen.rpc_method()) {
        ("GET", _) => match stream.lock().expect("lock").take() {
            Some(stream) => Reply::Fed(stream),
            None => Reply::Full(409, Vec::new(), "text/plain", "one stream only".into()),
        },
        ("POST", "initialize") => {
            let answer = initialize_answer(&seen.body["id"]);
            let _ = events.send(format!("event: message\ndata: {answer}\n\n"));
            accepted()
        }
        ("POST", "notifications/initialized") => accepted(),
        _ => rest(seen),
    }
}

#[tokio::test]
async fn a_legacy_post_that_is_never_answered_fails_within_its_timeout() {
    let server = FakeServer::start(legacy_server(|_| Reply::Silence)).await;
    let mut settings = HttpServer::new(&server.url);
    settings.mode = HttpMode::LegacySse;
    let client = connect(settings).await.unwrap();
    // The answer comes on the event stream; the POST itself is only acknowledged.
    assert_eq!(unanswered_call(&client).await, Some(30));
}

/// A server whose first session expires: every call in it gets 404 (once `expiry` opens),
/// and the second `initialize` is answered once `renewal` opens. Calls in the second
/// session are answered; anything without a session is refused, as servers do.
fn expiring_server(
    expiry: watch::Receiver<bool>,
    renewal: watch::Receiver<bool>,
) -> impl Fn(&Seen) -> Reply + Send + Sync + 'static {
    let sessions = Arc::new(Mutex::new(0));
    move |seen| {
        let session = seen.header("Mcp-Session-Id").map(str::to_owned);
        match (seen.method.as_str(), seen.rpc_method(), session.as_deref()) {
            ("POST", "initialize", None) => {
                let mut count = sessions.lock().expect("lock");
                *count += 1;
                let reply = initialize_result(&seen.body["id"], Some(&format!("s{count}")));
                match *count {
                    1 => reply,
                    _ => Reply::Held(renewal.clone(), Box::new(reply)),
                }
            }
            ("POST", "tools/call", Some("s1")) => Reply::Held(
                expiry.clone(),
                Box::new(Reply::Full(
                    404,
                    Vec::new(),
                    "text/plain",
                    "unknown session".into(),
                )),
            ),
            ("POST", "tools/call", Some("s2")) => {
                json_reply(json!({"jsonrpc": "2.0", "id": seen.body["id"],
                "result": {"content": [{"type": "text", "text": "done"}]}}))
            }
            ("POST", _, Some(_)) | ("DELETE", _, _) => accepted(),
            ("GET", _, _) => Reply::Full(405, Vec::new(), "text/plain", String::new()),
            _ => Reply::Full(400, Vec::new(), "text/plain", "no valid session".into()),
        }
    }
}

fn initializes_seen(seen: &[Seen]) -> usize {
    seen.iter()
        .filter(|s| s.rpc_method() == "initialize")
        .count()
}

fn spawn_call(
    client: &Client,
    options: switchboard_mcp::connection::RequestOptions,
) -> tokio::task::JoinHandle<Result<String, ClientError>> {
    let client = client.clone();
    tokio::spawn(async move {
        let result = client.call_tool("t", None, options).await?;
        Ok(result.content[0].as_text().unwrap_or_default().to_owned())
    })
}

#[tokio::test]
async fn requests_that_meet_an_expired_session_share_one_renewal() {
    let (expire, expiry) = watch::channel(false);
    let (renew, renewal) = watch::channel(false);
    let server = FakeServer::start(expiring_server(expiry, renewal)).await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    let mut options = client.request_options();
    options.timeout = Duration::from_secs(60);
    // Two calls meet the expiry at once.
    let mut calls = vec![
        spawn_call(&client, options.clone()),
        spawn_call(&client, options.clone()),
    ];
    server
        .wait_for("both calls", |seen| calls_seen(seen) == 2)
        .await;
    expire.send_replace(true);
    server
        .wait_for("the new session asked for", |seen| {
            initializes_seen(seen) == 2
        })
        .await;
    // A third goes while the new session is not yet known.
    calls.push(spawn_call(&client, options));
    server
        .wait_for("the third call", |seen| calls_seen(seen) == 3)
        .await;
    renew.send_replace(true);
    for call in calls {
        assert_eq!(call.await.unwrap(), Ok("done".to_owned()));
    }
    assert_eq!(initializes_seen(&server.seen()), 2, "one renewal");
}

#[tokio::test]
async fn a_caller_cancelled_while_the_session_is_renewed_leaves_the_client_working() {
    let (renew, renewal) = watch::channel(false);
    let server = FakeServer::start(expiring_server(watch::channel(true).1, renewal)).await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    let cancel = tokio_util::sync::CancellationToken::new();
    let mut options = client.request_options();
    options.cancel = Some(cancel.clone());
    let cancelled = spawn_call(&client, options);
    server
        .wait_for("the new session asked for", |seen| {
            initializes_seen(seen) == 2
        })
        .await;
    cancel.cancel();
    assert!(matches!(
        cancelled.await.unwrap(),
        Err(ClientError::Request(RequestError::Cancelled { .. }))
    ));
    server
        .wait_for("the cancellation", |seen| {
            seen.iter()
                .any(|s| s.rpc_method() == "notifications/cancelled")
        })
        .await;
    renew.send_replace(true);
    let next = spawn_call(&client, client.request_options());
    assert_eq!(next.await.unwrap(), Ok("done".to_owned()));
    assert_eq!(initializes_seen(&server.seen()), 2, "one renewal");
}

#[tokio::test]
async fn a_cancelled_call_of_the_stateless_era_closes_its_stream_and_sends_nothing_else() {
    let server = FakeServer::start(|seen| {
        let id = &seen.body["id"];
        match (seen.method.as_str(), seen.rpc_method()) {
            ("POST", "server/discover") => json_reply(json!({"jsonrpc": "2.0", "id": id,
                "result": {"resultType": "complete", "supportedVersions": ["2026-07-28"],
                "capabilities": {"tools": {}},
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "fake", "version": "1"}}}})),
            // The first call's stream opens and stays silent; the next is answered.
            ("POST", "tools/call") if seen.body["params"]["name"] == "slow" => {
                Reply::Events(Vec::new(), true)
            }
            ("POST", "tools/call") => json_reply(json!({"jsonrpc": "2.0", "id": id,
                "result": {"resultType": "complete", "content": [{"type": "text", "text": "done"}]}})),
            _ => Reply::Full(405, Vec::new(), "text/plain", String::new()),
        }
    })
    .await;
    let client = connect_with(&server, |config| config.era = EraSetting::Stateless).await;
    let cancel = tokio_util::sync::CancellationToken::new();
    let mut options = client.request_options();
    options.cancel = Some(cancel.clone());
    let slow = {
        let client = client.clone();
        tokio::spawn(async move { client.call_tool("slow", None, options).await })
    };
    server
        .wait_for("the call", |seen| calls_seen(seen) == 1)
        .await;
    cancel.cancel();
    assert!(matches!(
        slow.await.unwrap(),
        Err(ClientError::Request(RequestError::Cancelled { .. }))
    ));
    server
        .wait_for("the call's stream closed", |seen| hangups_seen(seen) == 1)
        .await;
    // Closing the stream is the cancellation in this revision: the next message the server
    // gets is the next call.
    let next = client
        .call_tool("quick", None, client.request_options())
        .await
        .unwrap();
    assert_eq!(next.content[0].as_text(), Some("done"));
    let methods: Vec<String> = server
        .seen()
        .iter()
        .map(|s| format!("{} {}", s.method, s.rpc_method()))
        .collect();
    assert_eq!(
        methods,
        [
            "POST server/discover",
            "POST tools/call",
            "HANGUP ",
            "POST tools/call"
        ]
    );
}

/// A server whose GET stream opens and closes at once, bringing nothing, is not asked
/// again every second for ever: the pause doubles up to a minute, and after ten such
/// streams in a row the client stops listening and says so in the log.
#[tokio::test(start_paused = true)]
async fn a_get_stream_that_closes_at_once_is_reopened_ever_more_slowly_then_let_be() {
    let server = FakeServer::start(|seen| match (seen.method.as_str(), seen.rpc_method()) {
        ("POST", "initialize") => initialize_result(&seen.body["id"], Some("s1")),
        ("GET", _) => Reply::Events(Vec::new(), false),
        _ => accepted(),
    })
    .await;
    let (log, mut logged) = mpsc::unbounded_channel();
    let sink: switchboard_mcp::transport::LogSink = Arc::new(move |line| {
        let _ = log.send(line);
    });
    let (transport, _) = http::connect(&HttpServer::new(&server.url), sink).expect("settings");
    let mut config = ClientConfig::new("switchboard-tests", "1");
    config.era = EraSetting::Session;
    let _client = Client::connect(transport, Arc::new(DecliningHandler), config)
        .await
        .expect("initialized");
    let started = tokio::time::Instant::now();

    let stopped = async {
        while let Some(line) = logged.recv().await {
            if let switchboard_mcp::transport::LogLine::Protocol(text) = line
                && text.contains("stopped listening")
            {
                return text;
            }
        }
        panic!("the log ended");
    };
    let gets = |seen: &[Seen]| seen.iter().filter(|s| s.method == "GET").count();
    let said = tokio::time::timeout(Duration::from_secs(3600), stopped)
        .await
        .unwrap_or_else(|_| {
            panic!(
                "still listening after an hour, with {} GET streams opened",
                gets(&server.seen())
            )
        });
    assert_eq!(
        said,
        "the server's event stream closed at once, bringing nothing, 10 times in a row; \
         stopped listening to it"
    );
    assert_eq!(gets(&server.seen()), 10);
    // Paused after each: 1, 2, 4, 8, 16 and 32 s, then a minute three times.
    assert_eq!(started.elapsed(), Duration::from_secs(243));
}

/// A stateful server that drops the connection on a method it does not know (the probe)
/// is reached all the same: the probe's failure means the `initialize` era, as a refusal
/// would.
#[tokio::test]
async fn a_server_that_hangs_up_on_the_probe_is_reached_through_initialize() {
    let server = FakeServer::start(|seen| match (seen.method.as_str(), seen.rpc_method()) {
        ("POST", "server/discover") => Reply::Hangup,
        ("POST", "initialize") => initialize_result(&seen.body["id"], None),
        ("GET", _) => Reply::Full(405, Vec::new(), "text/plain", String::new()),
        _ => accepted(),
    })
    .await;
    let (transport, _) =
        http::connect(&HttpServer::new(&server.url), discard_log()).expect("valid settings");
    let mut config = ClientConfig::new("switchboard-tests", "1");
    config.era = EraSetting::Auto;
    let client = Client::connect(transport, Arc::new(DecliningHandler), config)
        .await
        .expect("connected through initialize");
    assert_eq!(client.era().era, switchboard_mcp::client::Era::Session);
    let reason = &client.era().reason.to_string();
    assert!(
        reason.starts_with("server/discover failed (")
            && reason.ends_with("; initialize answered 2025-06-18"),
        "{reason}"
    );
}

fn seen_count(seen: &[Seen], method: &str) -> usize {
    seen.iter().filter(|s| s.rpc_method() == method).count()
}

/// A server that takes a POST and never answers it, not even with a status line, holds up
/// no other message: the next notification and the next call go out and are answered at
/// once, and closing the client lets go of the silent exchanges (paused clock: the
/// notification's own limit is 30 s, the call's 2 s).
#[tokio::test]
async fn a_post_never_answered_holds_up_no_other_message_nor_the_close() {
    const LIST_CHANGED: &str = "notifications/roots/list_changed";
    let server = FakeServer::start(after_handshake(|seen| match seen.rpc_method() {
        LIST_CHANGED => Reply::Silence,
        "tools/call" => json_reply(json!({"jsonrpc": "2.0", "id": seen.body["id"],
            "result": {"content": [{"type": "text", "text": "done"}]}})),
        _ => accepted(),
    }))
    .await;
    let client = connect(HttpServer::new(&server.url)).await.unwrap();
    tokio::time::pause();
    let start = tokio::time::Instant::now();
    client.notify_roots_changed().await.expect("queued");
    client.notify_roots_changed().await.expect("queued");
    server
        .wait_for("both notifications", |seen| {
            seen_count(seen, LIST_CHANGED) == 2
        })
        .await;
    let called = client.call_tool("t", None, client.request_options()).await;
    assert!(called.is_ok(), "{called:?}");
    client.close().await;
    server
        .wait_for("both notifications let go", |seen| hangups_seen(seen) == 2)
        .await;
    assert_eq!(
        start.elapsed(),
        Duration::ZERO,
        "nothing waited for a limit"
    );
}

/// A `server/discover` probe that the server never answers ends at the probe's own limit
/// (the request timeout, 2 s here); its exchange is let go and `initialize` goes out at
/// once, well before the transport's read timeout of 300 s.
#[tokio::test]
async fn a_probe_never_answered_is_let_go_and_initialize_follows() {
    let server = FakeServer::start(|seen| match (seen.method.as_str(), seen.rpc_method()) {
        ("POST", "server/discover") => Reply::Silence,
        ("POST", "initialize") => initialize_result(&seen.body["id"], None),
        ("GET", _) => Reply::Full(405, Vec::new(), "text/plain", String::new()),
        _ => accepted(),
    })
    .await;
    tokio::time::pause();
    let (transport, _) =
        http::connect(&HttpServer::new(&server.url), discard_log()).expect("valid settings");
    let mut config = ClientConfig::new("switchboard-tests", "1");
    config.era = EraSetting::Auto;
    config.request_timeout = Duration::from_secs(2);
    let client = Client::connect(transport, Arc::new(DecliningHandler), config)
        .await
        .expect("connected through initialize");
    assert_eq!(client.era().era, switchboard_mcp::client::Era::Session);
    assert_eq!(
        client.era().reason.to_string(),
        "server/discover got no answer within 2 s; initialize answered 2025-06-18"
    );
    server
        .wait_for("the probe let go", |seen| hangups_seen(seen) == 1)
        .await;
}
