//! How long the engine's Streamable HTTP server keeps what an agent opened, on tokio's paused
//! clock: a silent event stream carries a comment every 15 s, so that an agent that drops a
//! stream silent for 300 s (as the official SDK clients do) still gets an answer that takes
//! five minutes; a dropped stream resumes after the last event the agent saw; a session ends
//! when left idle, when its handler ends it or its `initialize` fails, and an agent that
//! restarts without ending its sessions replaces its oldest idle one. A connection that sends
//! no request is let go, and connections beyond the limit wait for one to close. A stream the
//! agent stops reading holds up no other, and a question asked while no stream is open waits
//! for one.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use served::Seen;
use switchboard_mcp::server::http::{HttpServer, HttpServerOptions, Identity, TokenCheck};
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::common::served;

/// How long the official SDK clients wait on a silent stream before dropping it.
const CLIENT_IDLE_LIMIT: Duration = Duration::from_secs(300);

fn tokens() -> Arc<dyn TokenCheck> {
    Arc::new(|token: &str| match token {
        "token-a" => Some(Identity::new("A")),
        "token-b" => Some(Identity::new("B")),
        _ => None,
    })
}

async fn serve(options: HttpServerOptions) -> (HttpServer, mpsc::UnboundedReceiver<Seen>) {
    let (seen, seen_rx) = mpsc::unbounded_channel();
    let options = HttpServerOptions {
        tokens: Some(tokens()),
        ..options
    };
    let server = HttpServer::bind(options, served::factory(seen))
        .await
        .expect("bind");
    (server, seen_rx)
}

/// An agent speaking raw HTTP: its token and, once initialized, its session.
#[derive(Clone)]
struct Agent {
    http: reqwest::Client,
    url: String,
    token: &'static str,
    session: String,
}

impl Agent {
    fn new(server: &HttpServer, token: &'static str) -> Self {
        Self {
            http: reqwest::Client::new(),
            url: server.url(),
            token,
            session: String::new(),
        }
    }

    /// Initializes a session (answered in JSON) and says it is initialized.
    async fn open(server: &HttpServer, token: &'static str) -> Self {
        let mut agent = Self::new(server, token);
        let opened = agent
            .initialize(json!({"name": "raw", "version": "0"}))
            .await;
        assert_eq!(opened.status(), 200, "initialize");
        agent.session = session_of(&opened).expect("a session id");
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(
            agent.post(&initialized, "application/json").await.status(),
            202
        );
        agent
    }

    async fn initialize(&self, client_info: Value) -> reqwest::Response {
        let mut params = json!({"protocolVersion": "2025-11-25", "capabilities": {}});
        if !client_info.is_null() {
            params["clientInfo"] = client_info;
        }
        let body = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params});
        self.request(reqwest::Method::POST)
            .header("accept", "application/json")
            .body(body.to_string())
            .send()
            .await
            .expect("initialize")
    }

    fn request(&self, method: reqwest::Method) -> reqwest::RequestBuilder {
        let request = self
            .http
            .request(method, &self.url)
            .header("authorization", format!("Bearer {}", self.token))
            .header("content-type", "application/json");
        if self.session.is_empty() {
            request
        } else {
            request.header("mcp-session-id", &self.session)
        }
    }

    async fn post(&self, body: &Value, accept: &str) -> reqwest::Response {
        self.request(reqwest::Method::POST)
            .header("accept", accept)
            .body(body.to_string())
            .send()
            .await
            .expect("an answer")
    }

    /// A tool call answered on an event stream, reporting progress under its id as token.
    async fn call(&self, id: u64, tool: &str, arguments: Value) -> Events {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": tool, "arguments": arguments, "_meta": {"progressToken": id}}});
        let response = self
            .post(&body, "application/json, text/event-stream")
            .await;
        assert_eq!(response.status(), 200, "{tool}");
        Events::of(response)
    }

    /// The status of a `tools/list` in the session: whether the server still knows it.
    async fn list_status(&self) -> u16 {
        let list = json!({"jsonrpc": "2.0", "id": 99, "method": "tools/list"});
        self.post(&list, "application/json").await.status().as_u16()
    }

    /// Calls `log`, answered in JSON: the logged line travels on the GET stream if open.
    async fn log(&self, id: u64, text: &str) {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "log", "arguments": {"text": text}}});
        let answer = json_of(self.post(&body, "application/json").await).await;
        assert_eq!(answer_text(&answer), "logged");
    }

    /// Opens the GET stream, resuming after `last_event_id` if given.
    async fn listen(&self, last_event_id: Option<&str>) -> reqwest::Response {
        let mut request = self
            .request(reqwest::Method::GET)
            .header("accept", "text/event-stream");
        if let Some(id) = last_event_id {
            request = request.header("last-event-id", id);
        }
        request.send().await.expect("GET")
    }
}

async fn json_of(response: reqwest::Response) -> Value {
    let text = response.text().await.expect("a body");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn session_of(response: &reqwest::Response) -> Option<String> {
    let id = response.headers().get("mcp-session-id")?;
    Some(id.to_str().ok()?.to_owned())
}

/// What an event stream carried: an event (its id and data), or a comment.
#[derive(Debug, Clone, PartialEq)]
enum Item {
    Event { id: Option<String>, data: Value },
    Comment(String),
}

/// An event stream read as an SDK client reads it: dropped if silent for
/// [`CLIENT_IDLE_LIMIT`].
struct Events {
    response: reqwest::Response,
    pending: String,
}

impl Events {
    fn of(response: reqwest::Response) -> Self {
        let kind = response.headers().get("content-type").cloned();
        assert_eq!(
            kind.as_ref().and_then(|v| v.to_str().ok()),
            Some("text/event-stream")
        );
        Self {
            response,
            pending: String::new(),
        }
    }

    /// The next event or comment; `None` when the stream ended. Panics when the stream is
    /// silent for longer than the clients wait.
    async fn next(&mut self) -> Option<Item> {
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let block: String = self.pending.drain(..end + 2).collect();
                if let Some(item) = item(&block) {
                    return Some(item);
                }
                continue;
            }
            let chunk = tokio::time::timeout(CLIENT_IDLE_LIMIT, self.response.chunk())
                .await
                .unwrap_or_else(|_| {
                    panic!("the stream was silent for {CLIENT_IDLE_LIMIT:?}: a client drops it")
                })
                .expect("the stream reads");
            self.pending
                .push_str(std::str::from_utf8(&chunk?).expect("UTF-8"));
        }
    }

    /// The next event, past any comments.
    async fn next_event(&mut self) -> (Option<String>, Value) {
        loop {
            match self.next().await.expect("an event before the stream ends") {
                Item::Event { id, data } => return (id, data),
                Item::Comment(_) => {}
            }
        }
    }
}

/// One block of an event stream; `None` for a block with neither data nor a comment.
fn item(block: &str) -> Option<Item> {
    let mut id = None;
    let mut data: Option<String> = None;
    for line in block.lines() {
        if let Some(comment) = line.strip_prefix(':') {
            return Some(Item::Comment(comment.trim().to_owned()));
        }
        if let Some(value) = line.strip_prefix("id:") {
            id = Some(value.trim().to_owned());
        }
        if let Some(value) = line.strip_prefix("data:") {
            data.get_or_insert_default().push_str(value.trim_start());
        }
    }
    let data = data?;
    Some(Item::Event {
        id,
        data: serde_json::from_str(&data).expect("JSON data"),
    })
}

/// The text of a tool call's answer.
fn answer_text(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("not a tool's answer: {answer}"))
}

#[tokio::test(start_paused = true)]
async fn silent_streams_carry_a_comment_every_15_seconds() {
    let (server, _seen) = serve(HttpServerOptions::default()).await;
    let agent = Agent::open(&server, "token-a").await;

    let mut get = Events::of(agent.listen(None).await);
    let started = Instant::now();
    assert_eq!(get.next().await, Some(Item::Comment("keepalive".into())));
    assert_eq!(started.elapsed(), Duration::from_secs(15), "the GET stream");

    let mut call = agent.call(1, "wait", json!({})).await;
    let (_, progress) = call.next_event().await;
    assert_eq!(progress["method"], "notifications/progress");
    let started = Instant::now();
    for beat in 1..=3 {
        assert_eq!(call.next().await, Some(Item::Comment("keepalive".into())));
        assert_eq!(
            started.elapsed(),
            Duration::from_secs(15 * beat),
            "the call's stream"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn an_answer_that_takes_five_minutes_reaches_an_agent_that_drops_silent_streams() {
    let (server, _seen) = serve(HttpServerOptions::default()).await;
    let agent = Agent::open(&server, "token-a").await;
    let mut call = agent.call(1, "slow", json!({"seconds": 330})).await;
    let (_, answer) = call.next_event().await;
    assert_eq!(answer["method"], "notifications/progress");
    let (_, answer) = call.next_event().await;
    assert_eq!(answer_text(&answer), "slept 330 s");
    assert_eq!(call.next().await, None, "the stream ends with its answer");
}

#[tokio::test(start_paused = true)]
async fn a_dropped_get_stream_resumes_after_the_last_event_the_agent_saw() {
    let (server, _seen) = serve(HttpServerOptions::default()).await;
    let agent = Agent::open(&server, "token-a").await;
    let mut get = Events::of(agent.listen(None).await);
    agent.log(1, "one").await;
    let (seen_id, logged) = get.next_event().await;
    assert_eq!(logged["params"]["data"], "one");
    let seen_id = seen_id.expect("an event id");
    agent.log(2, "two").await;
    agent.log(3, "three").await;
    // The connection drops before the agent read them.
    drop(get);

    let mut resumed = Events::of(agent.listen(Some(&seen_id)).await);
    for expected in ["two", "three"] {
        let (id, logged) = resumed.next_event().await;
        assert_eq!(logged["params"]["data"], expected);
        assert_ne!(id.as_deref(), Some(seen_id.as_str()));
    }
    agent.log(4, "four").await;
    let (_, logged) = resumed.next_event().await;
    assert_eq!(
        logged["params"]["data"], "four",
        "the resumed stream is the GET stream"
    );

    let refused = agent.listen(Some("not-ours")).await;
    assert_eq!(refused.status(), 400);
    let why = refused.text().await.expect("a body");
    assert!(
        why.contains("Last-Event-ID \\\"not-ours\\\" names no stream"),
        "{why}"
    );
}

#[tokio::test(start_paused = true)]
async fn an_answer_whose_stream_dropped_reaches_the_agent_that_resumes_it() {
    let (server, _seen) = serve(HttpServerOptions::default()).await;
    let agent = Agent::open(&server, "token-a").await;
    let mut call = agent.call(1, "slow", json!({"seconds": 60})).await;
    let (progress_id, progress) = call.next_event().await;
    assert_eq!(progress["method"], "notifications/progress");
    drop(call);
    // The answer falls due while the agent has no stream open.
    tokio::time::sleep(Duration::from_secs(61)).await;

    let progress_id = progress_id.expect("an event id");
    let mut resumed = Events::of(agent.listen(Some(&progress_id)).await);
    let (_, answer) = resumed.next_event().await;
    assert_eq!(answer_text(&answer), "slept 60 s");
    assert_eq!(
        resumed.next().await,
        None,
        "the stream ends with its answer"
    );
}

/// What the server saw next, within a limit the paused clock reaches at once if it never
/// comes.
async fn next_seen(seen: &mut mpsc::UnboundedReceiver<Seen>) -> Option<Seen> {
    tokio::time::timeout(Duration::from_secs(24 * 3600), seen.recv())
        .await
        .ok()
        .flatten()
}

#[tokio::test(start_paused = true)]
async fn a_session_left_idle_ends_and_its_id_is_then_unknown() {
    let zero = HttpServerOptions {
        session_idle: Duration::ZERO,
        ..HttpServerOptions::default()
    };
    let refused = HttpServer::bind(zero, served::factory(mpsc::unbounded_channel().0)).await;
    assert_eq!(
        refused.err().map(|e| e.kind()),
        Some(std::io::ErrorKind::InvalidInput)
    );

    let idle = HttpServerOptions::default().session_idle;
    assert_eq!(idle, Duration::from_secs(30 * 60));
    let (server, mut seen) = serve(HttpServerOptions::default()).await;
    let agent = Agent::open(&server, "token-a").await;
    let second = Duration::from_secs(1);
    tokio::time::sleep(idle - second).await;
    assert_eq!(agent.list_status().await, 200, "used within its idle time");
    tokio::time::sleep(idle - second).await;
    assert_eq!(agent.list_status().await, 200, "idle since its last use");
    tokio::time::sleep(idle + second).await;
    assert_eq!(next_seen(&mut seen).await, Some(Seen::SessionEnded));
    assert_eq!(server.session_count(), 0);
    assert_eq!(agent.list_status().await, 404);
}

#[tokio::test(start_paused = true)]
async fn a_session_with_a_stream_open_or_a_call_in_flight_is_not_idle() {
    let idle = HttpServerOptions::default().session_idle;
    let (server, _seen) = serve(HttpServerOptions::default()).await;
    let agent = Agent::open(&server, "token-a").await;
    let get = agent.listen(None).await;
    tokio::time::sleep(2 * idle).await;
    assert_eq!(agent.list_status().await, 200, "with its GET stream open");
    drop(get);

    let mut call = agent
        .call(1, "slow", json!({"seconds": 2 * idle.as_secs()}))
        .await;
    call.next_event().await;
    let (_, answer) = call.next_event().await;
    assert_eq!(
        answer_text(&answer),
        format!("slept {} s", 2 * idle.as_secs())
    );
    assert_eq!(agent.list_status().await, 200, "with a call in flight");
}

#[tokio::test(start_paused = true)]
async fn a_session_is_over_when_its_handler_ends_it_or_its_initialize_fails() {
    let (server, mut seen) = serve(HttpServerOptions::default()).await;
    let agent = Agent::open(&server, "token-a").await;
    let left = Instant::now();
    let _leaving = agent.call(1, "leave", json!({})).await;
    assert_eq!(next_seen(&mut seen).await, Some(Seen::SessionEnded));
    assert_eq!(left.elapsed(), Duration::ZERO, "at once, not once idle");
    assert_eq!(server.session_count(), 0, "the ended session is forgotten");
    assert_eq!(agent.list_status().await, 404);

    let mut agent = Agent::new(&server, "token-a");
    let refused = agent.initialize(Value::Null).await;
    agent.session = session_of(&refused).expect("a session id");
    let answer = json_of(refused).await;
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert_eq!(agent.list_status().await, 404);
    assert_eq!(
        server.session_count(),
        0,
        "the refused session is forgotten"
    );
    assert_eq!(next_seen(&mut seen).await, Some(Seen::SessionEnded));
}

#[tokio::test(start_paused = true)]
async fn an_agent_that_restarts_without_ending_its_sessions_replaces_its_oldest_idle_one() {
    let options = HttpServerOptions {
        sessions_per_identity: 2,
        ..HttpServerOptions::default()
    };
    let (server, _seen) = serve(options).await;
    let first = Agent::open(&server, "token-a").await;
    tokio::time::advance(Duration::from_secs(1)).await;
    let second = Agent::open(&server, "token-a").await;
    tokio::time::advance(Duration::from_secs(1)).await;
    let third = Agent::open(&server, "token-a").await;
    assert_eq!(
        first.list_status().await,
        404,
        "the oldest idle one made room"
    );
    assert_eq!(second.list_status().await, 200);
    assert_eq!(third.list_status().await, 200);
    let _other = Agent::open(&server, "token-b").await;
    assert_eq!(
        server.session_count(),
        3,
        "another agent has a share of its own"
    );

    // Sessions in use are never taken from their agent: a new one is refused, saying why.
    let _streams = (second.listen(None).await, third.listen(None).await);
    let refused = Agent::new(&server, "token-a")
        .initialize(json!({"name": "raw", "version": "0"}))
        .await;
    assert_eq!(refused.status(), 429);
    let why = refused.text().await.expect("a body");
    assert!(
        why.contains("2 sessions of this client are open and in use"),
        "{why}"
    );
    assert_eq!(second.list_status().await, 200);
    assert_eq!(third.list_status().await, 200);
}

/// How long after `start` the server closed `socket` (read to its end), within a limit the
/// paused clock reaches at once if it never does.
async fn closed_after(socket: &mut tokio::net::TcpStream, start: Instant) -> Option<Duration> {
    use tokio::io::AsyncReadExt;
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(3600), socket.read_to_end(&mut rest));
    read.await.ok().map(|_| start.elapsed())
}

#[tokio::test(start_paused = true)]
async fn a_connection_that_sends_no_request_or_a_byte_at_a_time_is_let_go() {
    use tokio::io::AsyncWriteExt;
    let limit = HttpServerOptions::default().header_read_timeout;
    assert_eq!(limit, Duration::from_secs(20));
    let (server, _seen) = serve(HttpServerOptions::default()).await;

    let start = Instant::now();
    let mut silent = tokio::net::TcpStream::connect(server.local_addr())
        .await
        .expect("connect");
    assert_eq!(closed_after(&mut silent, start).await, Some(limit));

    // A byte every 5 s: each one arrives before the limit, the headers never do.
    let start = Instant::now();
    let mut trickle = tokio::net::TcpStream::connect(server.local_addr())
        .await
        .expect("connect");
    let head = format!("POST /mcp HTTP/1.1\r\nHost: {}\r\n", server.local_addr());
    let (mut reading, mut writing) = trickle.split();
    let dribble = async {
        for byte in head.bytes().cycle() {
            if writing.write_all(&[byte]).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
    };
    let mut rest = Vec::new();
    let closed = tokio::select! {
        () = dribble => None,
        read = tokio::time::timeout(
            Duration::from_secs(3600),
            tokio::io::AsyncReadExt::read_to_end(&mut reading, &mut rest),
        ) => read.ok().map(|_| start.elapsed()),
    };
    assert_eq!(closed, Some(limit), "the headers take too long to arrive");
}

/// Sends a request the server answers at once (a path it does not serve) on `socket` and
/// reads the answer's status line, or `None` if none comes within a second.
async fn ask_elsewhere(socket: &mut tokio::net::TcpStream, server: &HttpServer) -> Option<String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let request = format!(
        "GET /elsewhere HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.local_addr()
    );
    socket.write_all(request.as_bytes()).await.expect("write");
    let reply = async {
        let mut reply = Vec::new();
        let mut chunk = [0u8; 1024];
        while !String::from_utf8_lossy(&reply).contains("no MCP endpoint here") {
            let n = socket.read(&mut chunk).await.expect("read");
            assert_ne!(n, 0, "closed before answering");
            reply.extend_from_slice(&chunk[..n]);
        }
        String::from_utf8_lossy(&reply)
            .lines()
            .next()
            .map(str::to_owned)
    };
    tokio::time::timeout(Duration::from_secs(1), reply)
        .await
        .ok()
        .flatten()
}

#[tokio::test(start_paused = true)]
async fn connections_beyond_the_limit_wait_for_one_to_close_and_those_served_go_on() {
    let options = HttpServerOptions {
        max_connections: 2,
        ..HttpServerOptions::default()
    };
    let (server, _seen) = serve(options).await;
    let connect = || tokio::net::TcpStream::connect(server.local_addr());
    let not_found = Some("HTTP/1.1 404 Not Found".to_owned());

    let mut served = connect().await.expect("connect");
    assert_eq!(ask_elsewhere(&mut served, &server).await, not_found);
    let idle = connect().await.expect("connect");
    let mut extra = connect().await.expect("connect");
    assert_eq!(
        ask_elsewhere(&mut extra, &server).await,
        None,
        "a third connection waits"
    );
    assert_eq!(
        ask_elsewhere(&mut served, &server).await,
        not_found,
        "a connection served goes on being served"
    );
    drop(idle);
    let answer = async {
        use tokio::io::AsyncReadExt;
        let mut reply = [0u8; 22];
        extra.read_exact(&mut reply).await.expect("read");
        String::from_utf8_lossy(&reply).into_owned()
    };
    assert_eq!(
        tokio::time::timeout(Duration::from_secs(3600), answer)
            .await
            .ok(),
        not_found,
        "once one closes, the one waiting is served"
    );
}

/// Waits for `work`, within a limit the paused clock reaches at once if it never ends.
async fn within_an_hour<T>(what: &str, work: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(3600), work)
        .await
        .unwrap_or_else(|_| panic!("{what} never came"))
}

#[tokio::test(start_paused = true)]
async fn an_agent_that_stops_reading_one_stream_holds_up_no_other() {
    let (server, _seen) = serve(HttpServerOptions::default()).await;
    let agent = Agent::open(&server, "token-a").await;
    // 400 progress events of 64 KiB, not read: more than the sockets hold.
    let mut unread = agent
        .call(1, "count", json!({"steps": 400, "pad": 65_536}))
        .await;
    let mut echoed = agent.call(2, "echo", json!({"text": "still here"})).await;
    let (_, answer) = within_an_hour("the echo", echoed.next_event()).await;
    assert_eq!(answer_text(&answer), "still here");
    agent.log(3, "and here").await;

    // Read at last, the stream ends after what it was handed: more than 128 events waited
    // for it, so it was let go. Resumed where it stopped, it brings the steps in order
    // (those a stream keeps: its newest 256 events), then the answer.
    let mut steps = Vec::new();
    let mut last_id = None;
    let mut resumed = 0;
    let answer = within_an_hour("the count's answer", async {
        loop {
            match unread.next().await {
                Some(Item::Event { id, data }) if data["method"] == "notifications/progress" => {
                    steps.push(data["params"]["progress"].as_u64().expect("a step"));
                    last_id = id;
                }
                Some(Item::Event { data, .. }) => return data,
                Some(Item::Comment(_)) => {}
                None => {
                    let last = last_id.as_deref().expect("an event before the end");
                    unread = Events::of(agent.listen(Some(last)).await);
                    resumed += 1;
                }
            }
        }
    })
    .await;
    assert_eq!(answer_text(&answer), "counted 400");
    assert_ne!(resumed, 0, "the stream nobody read was let go");
    assert!(steps.is_sorted_by(|a, b| a < b), "{steps:?}");
    assert!(steps.len() >= 256, "{steps:?}");
    assert_eq!(steps.last(), Some(&400));
}

#[tokio::test(start_paused = true)]
async fn a_question_asked_while_no_stream_is_open_reaches_the_stream_opened_later() {
    let (server, mut seen) = serve(HttpServerOptions::default()).await;
    let agent = Agent::open(&server, "token-a").await;
    // Answered in JSON, the call has no stream for the question: it waits for the GET
    // stream, behind more log lines than a stream keeps (256).
    let ask = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "ask", "arguments": {"noise": 300}}});
    let asking = tokio::spawn({
        let agent = agent.clone();
        async move { json_of(agent.post(&ask, "application/json").await).await }
    });
    assert_eq!(next_seen(&mut seen).await, Some(Seen::Asked));
    // The paused clock moves only once no task is ready: by then the session has placed
    // the question and the noise, to wait for a stream.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut stream = Events::of(agent.listen(None).await);
    let question = within_an_hour("the question", async {
        loop {
            let (_, message) = stream.next_event().await;
            if message["method"] == "elicitation/create" {
                return message;
            }
        }
    })
    .await;
    let reply = json!({"jsonrpc": "2.0", "id": question["id"],
        "result": {"action": "accept", "content": {"answer": "yes"}}});
    assert_eq!(agent.post(&reply, "application/json").await.status(), 202);
    let answer = within_an_hour("the answer", asking)
        .await
        .expect("the call");
    assert_eq!(answer_text(&answer), "accept: yes");
}
