//! Round trips of `tools/call` against the `rmcp` echo server, over stdio and over
//! Streamable HTTP: one at a time, and with 64 in flight. Prints latency percentiles and
//! throughput; asserts nothing.
//!
//! Run with `scripts/bench` (it builds the server first), or
//! `cargo bench -p switchboard-mcp --bench echo -- [CALLS]`.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use switchboard_mcp::client::{Client, ClientConfig, DecliningHandler};
use switchboard_mcp::transport::TransportParts;
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::http::{self, HttpMode, HttpServer};
use switchboard_mcp::transport::stdio::{self, StdioServer};
use tokio::task::JoinSet;

const IN_FLIGHT: usize = 64;
const WARM_UP: usize = 200;

fn echo_args() -> Option<Map<String, Value>> {
    json!({"text": "The quick brown fox jumps over the lazy dog"})
        .as_object()
        .cloned()
}

async fn call(client: &Client) -> Duration {
    let started = Instant::now();
    let result = client
        .call_tool("echo", echo_args(), client.request_options())
        .await
        .expect("echo answers");
    assert_ne!(result.is_error, Some(true), "echo failed: {result:?}");
    started.elapsed()
}

struct Figures {
    calls: usize,
    wall: Duration,
    latencies: Vec<Duration>,
}

impl Figures {
    fn print(mut self, label: &str) {
        self.latencies.sort();
        let at = |q: f64| self.latencies[((self.latencies.len() - 1) as f64 * q).round() as usize];
        println!(
            "{label:<28} {:>9} calls  p50 {:>9.1} µs  p99 {:>9.1} µs  {:>9.0} calls/s",
            self.calls,
            at(0.50).as_secs_f64() * 1e6,
            at(0.99).as_secs_f64() * 1e6,
            self.calls as f64 / self.wall.as_secs_f64(),
        );
    }
}

async fn sequential(client: &Client, calls: usize) -> Figures {
    let started = Instant::now();
    let mut latencies = Vec::with_capacity(calls);
    for _ in 0..calls {
        latencies.push(call(client).await);
    }
    Figures {
        calls,
        wall: started.elapsed(),
        latencies,
    }
}

async fn concurrent(client: &Client, calls: usize) -> Figures {
    let started = Instant::now();
    let mut latencies = Vec::with_capacity(calls);
    let mut running = JoinSet::new();
    for _ in 0..calls {
        if running.len() == IN_FLIGHT {
            latencies.push(
                running
                    .join_next()
                    .await
                    .expect("a call")
                    .expect("no panic"),
            );
        }
        let client = client.clone();
        running.spawn(async move { call(&client).await });
    }
    while let Some(done) = running.join_next().await {
        latencies.push(done.expect("no panic"));
    }
    Figures {
        calls,
        wall: started.elapsed(),
        latencies,
    }
}

fn rmcp_peer() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("bench binary path");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target profile dir");
    let server = dir.join("rmcp-peer");
    assert!(
        server.exists(),
        "{} is missing: build it with `cargo build --release -p rmcp-peer`",
        server.display()
    );
    server
}

/// Starts `rmcp-peer http` on a free port and returns it with its URL, once it listens.
fn rmcp_http() -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(rmcp_peer())
        .args(["http", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start rmcp-peer http");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the listening line");
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .expect("`listening on URL`")
        .to_owned();
    (child, url)
}

async fn measure(label: &str, transport: TransportParts, calls: usize) {
    let client = Client::connect(
        transport,
        Arc::new(DecliningHandler),
        ClientConfig::new("switchboard-bench", env!("CARGO_PKG_VERSION")),
    )
    .await
    .expect("initialize");
    sequential(&client, WARM_UP).await;
    println!("switchboard engine -> rmcp echo server, {label}");
    sequential(&client, calls).await.print("  sequential");
    concurrent(&client, calls)
        .await
        .print(&format!("  {IN_FLIGHT} in flight"));
    client.close().await;
}

fn main() {
    let calls: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(5_000);
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let server = StdioServer::new(rmcp_peer()).args(["stdio"]);
        let transport = stdio::spawn(&server, discard_log()).expect("start rmcp-peer");
        measure("stdio", transport, calls).await;

        let (mut child, url) = rmcp_http();
        let mut server = HttpServer::new(url);
        server.mode = HttpMode::StreamableHttp;
        let (transport, _) = http::connect(&server, discard_log()).expect("HTTP settings");
        measure("Streamable HTTP", transport, calls).await;
        let _ = child.kill();
        let _ = child.wait();
    });
}
