//! What the interop tests share: where the third-party servers live, and a client handler
//! that answers like a person would in a test script and records what it was asked.

#![allow(dead_code)]

pub mod browser;
pub mod http_peers;
pub mod peers;
pub mod served;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use switchboard_mcp::client::{
    Client, ClientConfig, ClientHandler, EraSetting, ServerNotification,
};
use switchboard_mcp::jsonrpc::{ErrorObject, code};
use switchboard_mcp::transport::stdio::{self, StdioServer};
use switchboard_mcp::transport::{LogLine, LogSink};
use switchboard_mcp::types::*;
use tokio::sync::Notify;

/// How long an interop test waits for what a third-party peer is to do.
pub const WAIT: Duration = Duration::from_secs(20);

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn require(path: PathBuf, what: &str) -> PathBuf {
    assert!(
        path.exists(),
        "{what} is missing at {}: run scripts/setup (and `cargo build --workspace`)",
        path.display()
    );
    path
}

/// The entry point of `@modelcontextprotocol/server-everything`.
pub fn everything_entry() -> PathBuf {
    require(
        workspace_root().join(
            "tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
        ),
        "server-everything",
    )
}

/// The Python of the test virtualenv, where the Python SDK is installed.
pub fn python_binary() -> PathBuf {
    require(
        workspace_root().join(".tools/venv/bin/python"),
        "the Python test virtualenv",
    )
}

/// `@modelcontextprotocol/server-everything` over stdio.
pub fn everything_stdio() -> StdioServer {
    StdioServer::new("node").args([everything_entry().into_os_string(), "stdio".into()])
}

/// The Python SDK server of `tests/peers/python/server.py` over stdio.
pub fn python_stdio() -> StdioServer {
    let script = workspace_root().join("tests/peers/python/server.py");
    StdioServer::new(python_binary()).args([script.into_os_string(), "stdio".into()])
}

pub use switchboard_test_support::binaries::workspace_binary;

/// The `rmcp` server of `tests/peers/rmcp-server` over stdio, built beside this test.
pub fn rmcp_stdio() -> StdioServer {
    StdioServer::new(workspace_binary("rmcp-peer")).args(["stdio"])
}

/// What the scripted person answers.
#[derive(Default, Clone)]
pub struct Script {
    pub roots: Vec<Root>,
    /// The reply to sampling requests; `None` declines them.
    pub sampling_reply: Option<String>,
    /// The answer to form elicitations; `None` declines them.
    pub form_answer: Option<ElicitContent>,
    pub accept_urls: bool,
}

/// Everything the server asked or told, in order.
#[derive(Default)]
pub struct Seen {
    pub roots_requests: usize,
    pub sampling: Vec<CreateMessageRequestParams>,
    pub elicitations: Vec<ElicitRequestParams>,
    pub notifications: Vec<ServerNotification>,
}

#[derive(Default)]
pub struct Person {
    pub script: Script,
    pub seen: Mutex<Seen>,
    changed: Notify,
}

impl Person {
    pub fn new(script: Script) -> Arc<Self> {
        Arc::new(Self {
            script,
            ..Self::default()
        })
    }

    fn record(&self, f: impl FnOnce(&mut Seen)) {
        f(&mut self.seen.lock().expect("seen lock"));
        self.changed.notify_waiters();
    }

    /// Waits until what was seen satisfies `done`, or fails after `limit`.
    pub async fn wait_for(&self, what: &str, limit: Duration, done: impl Fn(&Seen) -> bool) {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let changed = self.changed.notified();
            if done(&self.seen.lock().expect("seen lock")) {
                return;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                panic!("timed out waiting for {what}");
            }
        }
    }
}

impl ClientHandler for Person {
    async fn list_roots(&self) -> Result<ListRootsResult, ErrorObject> {
        self.record(|s| s.roots_requests += 1);
        Ok(ListRootsResult::new(self.script.roots.clone()))
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, ErrorObject> {
        self.record(|s| s.sampling.push(params));
        match &self.script.sampling_reply {
            Some(reply) => Ok(CreateMessageResult::new(
                Role::Assistant,
                SamplingContent::text(reply.clone()),
                "scripted-model",
            )),
            None => Err(ErrorObject::new(code::USER_REJECTED, "the user declined")),
        }
    }

    async fn elicit(&self, params: ElicitRequestParams) -> Result<ElicitResult, ErrorObject> {
        let answer = match &params {
            ElicitRequestParams::Form(_) => match &self.script.form_answer {
                Some(content) => ElicitResult::accepted(Some(content.clone())),
                None => ElicitResult::declined(),
            },
            ElicitRequestParams::Url(_) if self.script.accept_urls => ElicitResult::accepted(None),
            ElicitRequestParams::Url(_) => ElicitResult::declined(),
        };
        self.record(|s| s.elicitations.push(params));
        Ok(answer)
    }

    fn notification(&self, notification: ServerNotification) {
        self.record(|s| s.notifications.push(notification));
    }
}

/// The server's stderr and protocol complaints, kept for assertions.
#[derive(Default, Clone)]
pub struct Log(Arc<LogLines>);

#[derive(Default)]
pub struct LogLines {
    lines: Mutex<Vec<LogLine>>,
    changed: Notify,
}

impl Log {
    pub fn sink(&self) -> LogSink {
        let log = self.0.clone();
        Arc::new(move |line| {
            log.lines.lock().expect("log lock").push(line);
            log.changed.notify_waiters();
        })
    }

    pub fn stderr_contains(&self, text: &str) -> bool {
        self.0
            .lines
            .lock()
            .expect("log lock")
            .iter()
            .any(|l| matches!(l, LogLine::Stderr(s) if s.contains(text)))
    }

    /// Waits, up to `limit`, until the server has written `text` to stderr.
    pub async fn stderr_shows(&self, text: &str, limit: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let changed = self.0.changed.notified();
            if self.stderr_contains(text) {
                return true;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                return self.stderr_contains(text);
            }
        }
    }
}

/// The settings of a client that declares every capability, in the era given.
pub fn client_config(era: EraSetting) -> ClientConfig {
    let mut config = ClientConfig::new("switchboard-tests", "0.0.0");
    config.capabilities = ClientCapabilities::all();
    config.request_timeout = Duration::from_secs(30);
    config.era = era;
    config
}

/// Connects to a stdio server as a client that declares every capability.
pub async fn connect(server: &StdioServer, person: Arc<Person>, log: &Log) -> Client {
    let transport = stdio::spawn(server, log.sink()).expect("start the server");
    // The features these tests exercise (server requests, subscriptions, log levels) are
    // those of the stateful era; the stateless era has tests of its own (stateless.rs).
    Client::connect(transport, person, client_config(EraSetting::Session))
        .await
        .expect("initialize")
}

/// The text of a tool result's first content block.
pub fn first_text(result: &CallToolResult) -> &str {
    result
        .content
        .first()
        .and_then(ContentBlock::as_text)
        .unwrap_or_else(|| panic!("no text in {result:?}"))
}

/// Tool arguments written as a JSON object.
pub fn args(value: serde_json::Value) -> Option<serde_json::Map<String, serde_json::Value>> {
    match value {
        serde_json::Value::Object(map) => Some(map),
        other => panic!("tool arguments must be an object, not {other}"),
    }
}

/// Request options that send a progress token, and the receiving end of its progress.
pub fn with_progress(
    client: &Client,
) -> (
    switchboard_mcp::connection::RequestOptions,
    tokio::sync::mpsc::Receiver<switchboard_mcp::connection::Progress>,
) {
    let (sink, progress) = tokio::sync::mpsc::channel(64);
    let mut options = client.request_options();
    options.progress = Some(sink);
    (options, progress)
}

/// The progress received so far, as `(progress, total)` pairs.
pub fn drain_progress(
    progress: &mut tokio::sync::mpsc::Receiver<switchboard_mcp::connection::Progress>,
) -> Vec<(f64, Option<f64>)> {
    let mut steps = Vec::new();
    while let Ok(p) = progress.try_recv() {
        steps.push((p.progress, p.total));
    }
    steps
}

/// A connection's handler that knows no requests and ignores notifications: for tests
/// that drive the connection itself.
pub struct NoRequests;

impl switchboard_mcp::connection::IncomingHandler for NoRequests {
    fn request(
        &self,
        method: String,
        _: Option<serde_json::Value>,
    ) -> switchboard_mcp::transport::BoxFuture<'static, Result<serde_json::Value, ErrorObject>>
    {
        Box::pin(std::future::ready(Err(ErrorObject::method_not_found(
            &method,
        ))))
    }
    fn notification(&self, _: String, _: Option<serde_json::Value>) {}
}
