//! The gateway's added latency per proxied `tools/call`: the demo server's `echo`, called
//! (a) directly, on the desk's own session with the server, and by an agent through the
//! gateway, (b) on its local socket (the bridge's path, without the bridge process: an
//! engine client on the socket) and (c) over Streamable HTTP with its bearer token (the
//! engine's client), its calls allowed for that agent by a standing rule, so no one is
//! asked. A proxied call is the agent's session (lookup of the tool, the gate: policy,
//! audit record, the call checked against the tool's schemas, the outcome recorded), then
//! the same call to the server. The HTTP endpoint is the gateway's (its sessions, the
//! engine's HTTP server) with the token checked by a closure instead of the keyring's
//! tokens, so that it runs without a keyring.
//!
//! The paths alternate in blocks, so all see the same machine. Prints p50/p99 of each and
//! what the gateway adds; asserts nothing. A reference row gives what the disk asks for one
//! synced commit (a row inserted in a SQLite file in WAL mode, `synchronous=FULL`, beside
//! the audit log): the audit's record of each allowed call pays one before the call is made.
//!
//! Build the server with `cargo build --release -p switchboard-demo-server`, then run
//! `cargo bench -p switchboard-host --bench gateway -- [--calls N]`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use switchboard_host::config::ServerConfig;
use switchboard_host::gate::Origin;
use switchboard_host::gateway::{bridge, http_sessions};
use switchboard_host::pins;
use switchboard_host::secrets::Secrets;
use switchboard_mcp::client::{Client, ClientConfig, DecliningHandler};
use switchboard_mcp::server::http::{HttpServer, HttpServerOptions, Identity};
use switchboard_mcp::transport::stdio::lines_over;
use switchboard_mcp::transport::{discard_log, http};
use tokio::io::AsyncWriteExt;
use tokio::net::UnixStream;

const CALLS: usize = 2000;
const WARMUP: usize = 200;
/// Calls of one path before the other takes its turn.
const BLOCK: usize = 100;
const AGENT: &str = "bench";
const TOKEN: &str = "bench-token";

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let calls = std::env::args()
        .skip_while(|a| a != "--calls")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(CALLS);
    let demo = common::demo_server().display().to_string();
    let identity = pins::identity(&ServerConfig {
        command: Some(demo.clone()),
        ..ServerConfig::default()
    });
    // What the person's "always allow this server" for the agent leaves behind.
    let rule = json!({"server": "demo", "allow": true, "agent": AGENT, "identity": identity});
    let world = common::desk_on(
        json!({"demo": {"command": demo}}),
        json!({"toolRules": [rule]}),
        Secrets::new("switchboard-bench-gateway"),
    )
    .await;
    world.desk.save_agent(AGENT, None).await.expect("the agent");
    let socket = world.dir.path().join("gateway.sock");
    let _listening = bridge::listen(&world.desk, &socket)
        .await
        .expect("listening");
    let agent = through_gateway(&socket).await;
    let tokens = |token: &str| (token == TOKEN).then(|| Identity::new(AGENT));
    let options = HttpServerOptions {
        tokens: Some(Arc::new(tokens)),
        ..HttpServerOptions::default()
    };
    let endpoint = HttpServer::bind(options, Arc::new(http_sessions(&world.desk)))
        .await
        .expect("the gateway over HTTP");
    let over_http = over_http(&endpoint.url()).await;
    let direct = world.desk.running_client("demo").expect("demo runs");

    let arguments: Map<String, Value> =
        Map::from_iter([("text".to_owned(), json!("The quick brown fox"))]);
    let call = |client: &Client, tool: &'static str| {
        let (client, arguments) = (client.clone(), arguments.clone());
        async move {
            let started = Instant::now();
            let result = client
                .call_tool(tool, Some(arguments), client.request_options())
                .await
                .expect("the call");
            assert_ne!(result.is_error, Some(true), "{result:?}");
            started.elapsed()
        }
    };
    // The gate alone, as the gateway calls it: the agent's rule, the audit records, the
    // checked call; no session, no socket.
    let origin = Origin::Agent {
        name: AGENT.to_owned(),
    };
    let gated = |n: usize| {
        let (desk, origin, arguments) = (world.desk.clone(), origin.clone(), arguments.clone());
        async move {
            let started = Instant::now();
            desk.call_tool_as(&origin, "demo", "echo", arguments, format!("bench-{n}"))
                .await
                .expect("the gated call");
            started.elapsed()
        }
    };
    for n in 0..WARMUP {
        call(&direct, "echo").await;
        gated(n).await;
        call(&agent, "demo__echo").await;
        call(&over_http, "demo__echo").await;
    }
    let synced = SyncedCommit::open(&world.dir.path().join("reference.sqlite"));
    let rows = [
        "direct",
        "the gate alone (no session)",
        "through the gateway (socket)",
        "through the gateway (HTTP)",
        "reference: one synced commit",
    ];
    let mut times: [Vec<Duration>; 5] = Default::default();
    while times[0].len() < calls {
        let block = BLOCK.min(calls - times[0].len());
        for _ in 0..block {
            times[0].push(call(&direct, "echo").await);
        }
        for _ in 0..block {
            let n = times[1].len();
            times[1].push(gated(n).await);
        }
        for _ in 0..block {
            times[2].push(call(&agent, "demo__echo").await);
        }
        for _ in 0..block {
            times[3].push(call(&over_http, "demo__echo").await);
        }
        for _ in 0..block {
            times[4].push(synced.commit());
        }
    }
    let figures: Vec<(f64, f64)> = times
        .iter_mut()
        .map(|t| (us(percentile(t, 50)), us(percentile(t, 99))))
        .collect();
    println!("tools/call of the demo server's echo, {calls} calls each, sequential");
    for (row, (p50, p99)) in rows.iter().zip(&figures) {
        println!("  {row:<34} p50 {p50:>8.1} µs   p99 {p99:>8.1} µs");
    }
    let (d50, d99) = figures[0];
    for (row, (p50, p99)) in rows.iter().zip(&figures).skip(1).take(3) {
        let row = row.replace("through the gateway", "added by the gateway");
        let row = row.replace("the gate alone", "added by the gate alone");
        println!(
            "  {row:<34} p50 {:>8.1} µs   p99 {:>8.1} µs",
            p50 - d50,
            p99 - d99
        );
    }
    over_http.close().await;
    endpoint.shutdown().await;
    agent.close().await;
    world.desk.shutdown().await;
}

/// An engine client on the gateway's socket, introduced as the bridge does.
async fn through_gateway(socket: &std::path::Path) -> Client {
    let stream = UnixStream::connect(socket).await.expect("connect");
    let (reader, mut writer) = stream.into_split();
    let hello = format!("{}\n", json!({ "agent": AGENT }));
    writer.write_all(hello.as_bytes()).await.expect("hello");
    let config = ClientConfig::new("gateway-bench", "0");
    Client::connect(
        lines_over(reader, writer, discard_log()),
        Arc::new(DecliningHandler),
        config,
    )
    .await
    .expect("the gateway answers")
}

/// An engine client on the gateway's Streamable HTTP endpoint, with the agent's token.
async fn over_http(url: &str) -> Client {
    let spec = http::HttpServer::new(url).header("Authorization", format!("Bearer {TOKEN}"));
    let (parts, _) = http::connect(&spec, discard_log()).expect("the endpoint");
    Client::connect(
        parts,
        Arc::new(DecliningHandler),
        ClientConfig::new("gateway-bench", "0"),
    )
    .await
    .expect("the gateway answers over HTTP")
}

/// A SQLite file as the audit log keeps its own (WAL, synced commits), to time one commit.
struct SyncedCommit(rusqlite::Connection);

impl SyncedCommit {
    fn open(path: &std::path::Path) -> Self {
        let db = rusqlite::Connection::open(path).expect("the reference file");
        db.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;
             CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT NOT NULL);",
        )
        .expect("the reference table");
        Self(db)
    }

    fn commit(&self) -> Duration {
        let started = Instant::now();
        self.0
            .prepare_cached("INSERT INTO t (text) VALUES (?1)")
            .and_then(|mut insert| insert.execute(["{\"text\":\"The quick brown fox\"}"]))
            .expect("the reference commit");
        started.elapsed()
    }
}

fn percentile(values: &mut [Duration], p: usize) -> Duration {
    values.sort();
    values[(values.len() * p / 100).min(values.len() - 1)]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
