//! The gateway's added latency per proxied `tools/call`: the demo server's `echo`, called
//! (a) directly, on the desk's own session with the server, and by an agent through the
//! gateway, (b) on its local socket (the bridge's path, without the bridge process: an
//! engine client on the socket) and (c) over Streamable HTTP with its bearer token (the
//! engine's client), its calls allowed for that agent by a standing rule, so no one is
//! asked. Each agent path is measured in both eras: a session opened by `initialize`
//! (2025-11-25) and the stateless era (2026-07-28: over HTTP one request per call, with no
//! session); each row names the revision its client agreed. A proxied call is the agent's
//! session (lookup of the tool, the gate: policy, audit record, the call checked against
//! the tool's schemas, the outcome recorded), then the same call to the server. The HTTP
//! endpoint is the gateway's (its sessions, the engine's HTTP server) with the token checked
//! by a closure instead of the keyring's tokens, so that it runs without a keyring.
//!
//! The paths alternate in blocks, so all see the same machine. Prints p50/p99 of each and
//! what the gateway adds; asserts nothing. A reference row gives what the disk asks for one
//! synced commit (a row inserted in a SQLite file in WAL mode, `synchronous=FULL`, beside
//! the audit log): the audit's record of each allowed call pays one before the call is made.
//! The files are in a temporary folder: `TMPDIR=/dev/shm` takes the disk out of the figures.
//!
//! Build the server with `cargo build --release -p switchboard-demo-server`, then run
//! `cargo bench -p switchboard-gateway --bench gateway -- [--calls N] [--only TEXT]`
//! (`--only`: the direct path and the ways whose name holds TEXT, for a profile)..

#[path = "../../desk/tests/it/common/mod.rs"]
mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use switchboard_core::config::ServerConfig;
use switchboard_core::decisions::Origin;
use switchboard_core::secrets::Secrets;
use switchboard_desk::Desk;
use switchboard_gateway::{bridge, http_sessions};
use switchboard_mcp::client::{Client, ClientConfig, DecliningHandler, EraSetting};
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
    // `--only TEXT`: the direct path and the ways whose name holds TEXT (for a profile).
    let only = std::env::args().skip_while(|a| a != "--only").nth(1);
    let demo = common::demo_server().display().to_string();
    let identity = ServerConfig {
        command: Some(demo.clone()),
        ..ServerConfig::default()
    }
    .identity();
    // What the person's "always allow this server" for the agent leaves behind.
    let rule = json!({"server": "demo", "allow": true, "agent": AGENT, "identity": identity});
    let world = common::desk_on(
        json!({"demo": {"command": demo}}),
        // No pace: the benchmark makes thousands of calls a minute.
        json!({"toolRules": [rule], "agentCallsPerMinute": u32::MAX}),
        Secrets::new("switchboard-bench-gateway"),
    )
    .await;
    world
        .desk
        .agents()
        .save(AGENT, None)
        .await
        .expect("the agent");
    let socket = world.dir.path().join("gateway.sock");
    let _listening = bridge::listen(&world.desk.agents(), &socket)
        .await
        .expect("listening");
    let tokens = |token: &str| (token == TOKEN).then(|| Identity::new(AGENT));
    let options = HttpServerOptions {
        tokens: Some(Arc::new(tokens)),
        ..HttpServerOptions::default()
    };
    let endpoint = HttpServer::bind(options, Arc::new(http_sessions(&world.desk.agents())))
        .await
        .expect("the gateway over HTTP");
    let direct = world
        .desk
        .agents()
        .running_client("demo")
        .expect("demo runs");
    // Each way in, in both eras: a session opened by `initialize` (2025-11-25), and the
    // stateless era (2026-07-28, which the engine's client picks by itself), where each
    // call carries its own `_meta` and, over HTTP, is one request with no session.
    let mut agents = Vec::new();
    for era in [EraSetting::Session, EraSetting::Auto] {
        agents.push(("socket", through_gateway(&socket, era).await));
        agents.push(("HTTP", over_http(&endpoint.url(), era).await));
    }
    let mut rows = vec![
        Row::new(
            format!("direct ({})", direct.era().version),
            Way::Direct(direct.clone()),
        ),
        Row::new("the gate alone (no session)".to_owned(), Way::Gate),
    ];
    for (way, agent) in &agents {
        let name = format!("gateway, {way} ({})", agent.era().version);
        rows.push(Row::new(name, Way::Agent(agent.clone())));
    }
    if let Some(only) = &only {
        let mut n = 0;
        rows.retain(|row| {
            n += 1;
            n == 1 || row.name.contains(only.as_str())
        });
    }
    rows.push(Row::new(
        "reference: one synced commit".to_owned(),
        Way::Commit(SyncedCommit::open(
            &world.dir.path().join("reference.sqlite"),
        )),
    ));

    let bench = Bench {
        desk: world.desk.clone(),
        origin: Origin::Agent {
            name: AGENT.to_owned(),
        },
        arguments: Map::from_iter([("text".to_owned(), json!("The quick brown fox"))]),
    };
    for n in 0..WARMUP {
        for row in &rows {
            bench.time(&row.way, n).await;
        }
    }
    while rows[0].times.len() < calls {
        let block = BLOCK.min(calls - rows[0].times.len());
        for row in &mut rows {
            for _ in 0..block {
                let n = WARMUP + row.times.len();
                let took = bench.time(&row.way, n).await;
                row.times.push(took);
            }
        }
    }
    let figures: Vec<(f64, f64)> = rows
        .iter_mut()
        .map(|row| {
            let t = &mut row.times;
            (us(percentile(t, 50)), us(percentile(t, 99)))
        })
        .collect();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load: Vec<&str> = load.split_whitespace().take(3).collect();
    println!("tools/call of the demo server's echo, {calls} calls each, sequential");
    println!("  load average: {}", load.join(" "));
    for (row, (p50, p99)) in rows.iter().zip(&figures) {
        println!("  {:<38} p50 {p50:>8.1} µs   p99 {p99:>8.1} µs", row.name);
    }
    let (d50, d99) = figures[0];
    for (row, (p50, p99)) in rows.iter().zip(&figures) {
        if matches!(row.way, Way::Direct(_) | Way::Commit(_)) {
            continue;
        }
        println!(
            "  added: {:<31} p50 {:>8.1} µs   p99 {:>8.1} µs",
            row.name,
            p50 - d50,
            p99 - d99
        );
    }
    in_flight(&bench, &rows, calls).await;
    drop(rows);
    for (_, agent) in agents {
        agent.close().await;
    }
    endpoint.shutdown().await;
    world.desk.shutdown().await;
}

/// Calls kept in flight at once in the throughput rows.
const IN_FLIGHT: usize = 64;
/// Rounds of each way in the throughput rows, interleaved.
const ROUNDS: usize = 5;

/// Calls per second of each way with [`IN_FLIGHT`] calls under way at all times (as many
/// agents' calls at once would be), `calls` a round, and each against the direct path's.
/// The ways take turns by round; each figure is the median of its rounds.
async fn in_flight(bench: &Bench, rows: &[Row], calls: usize) {
    let ways: Vec<&Row> = rows
        .iter()
        .filter(|row| !matches!(row.way, Way::Commit(_)))
        .collect();
    let mut rates = vec![Vec::new(); ways.len()];
    for round in 0..=ROUNDS {
        for (row, rates) in ways.iter().zip(&mut rates) {
            let started = Instant::now();
            let each = calls.div_ceil(IN_FLIGHT);
            let callers = (0..IN_FLIGHT).map(|caller| async move {
                for n in 0..each {
                    bench
                        .time(&row.way, (round * IN_FLIGHT + caller) * each + n)
                        .await;
                }
            });
            futures_util::future::join_all(callers).await;
            // The first round warms up.
            if round > 0 {
                rates.push((each * IN_FLIGHT) as f64 / started.elapsed().as_secs_f64());
            }
        }
    }
    let medians: Vec<f64> = rates
        .iter_mut()
        .map(|r| {
            r.sort_by(f64::total_cmp);
            r[r.len() / 2]
        })
        .collect();
    println!("the same calls, {IN_FLIGHT} in flight at all times, median of {ROUNDS} rounds");
    for (row, rate) in ways.iter().zip(&medians) {
        println!(
            "  {:<38} {rate:>9.0} calls/s   {:>5.2} of direct",
            row.name,
            rate / medians[0]
        );
    }
}

/// A way to make the call, and how long each took.
struct Row {
    name: String,
    way: Way,
    times: Vec<Duration>,
}

impl Row {
    fn new(name: String, way: Way) -> Self {
        Self {
            name,
            way,
            times: Vec::new(),
        }
    }
}

enum Way {
    /// The desk's own session with the server.
    Direct(Client),
    /// The gate alone, as the gateway calls it: the agent's rule, the audit records, the
    /// checked call; no session, no socket.
    Gate,
    /// An agent's client on the gateway.
    Agent(Client),
    Commit(SyncedCommit),
}

struct Bench {
    desk: Desk,
    origin: Origin,
    arguments: Map<String, Value>,
}

impl Bench {
    /// Makes the call one way, and times it.
    async fn time(&self, way: &Way, n: usize) -> Duration {
        let arguments = self.arguments.clone();
        let started = Instant::now();
        match way {
            Way::Direct(client) => called(client, "echo", arguments).await,
            Way::Agent(client) => called(client, "demo__echo", arguments).await,
            Way::Gate => {
                let token = format!("bench-{n}");
                self.desk
                    .explorer()
                    .call_tool_as(&self.origin, "demo", "echo", arguments, token)
                    .await
                    .expect("the gated call");
            }
            Way::Commit(synced) => synced.commit(),
        }
        started.elapsed()
    }
}

async fn called(client: &Client, tool: &str, arguments: Map<String, Value>) {
    let result = client
        .call_tool(tool, Some(arguments), client.request_options())
        .await
        .expect("the call");
    assert_ne!(result.is_error, Some(true), "{result:?}");
}

/// An engine client on the gateway's socket, introduced as the bridge does.
async fn through_gateway(socket: &std::path::Path, era: EraSetting) -> Client {
    let stream = UnixStream::connect(socket).await.expect("connect");
    let (reader, mut writer) = stream.into_split();
    let hello = format!("{}\n", json!({ "agent": AGENT }));
    writer.write_all(hello.as_bytes()).await.expect("hello");
    let config = ClientConfig {
        era,
        ..ClientConfig::new("gateway-bench", "0")
    };
    Client::connect(
        lines_over(reader, writer, discard_log()),
        Arc::new(DecliningHandler),
        config,
    )
    .await
    .expect("the gateway answers")
}

/// An engine client on the gateway's Streamable HTTP endpoint, with the agent's token.
async fn over_http(url: &str, era: EraSetting) -> Client {
    let spec = http::HttpServer::new(url).header("Authorization", format!("Bearer {TOKEN}"));
    let (parts, _) = http::connect(&spec, discard_log()).expect("the endpoint");
    Client::connect(
        parts,
        Arc::new(DecliningHandler),
        ClientConfig {
            era,
            ..ClientConfig::new("gateway-bench", "0")
        },
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

    fn commit(&self) {
        self.0
            .prepare_cached("INSERT INTO t (text) VALUES (?1)")
            .and_then(|mut insert| insert.execute(["{\"text\":\"The quick brown fox\"}"]))
            .expect("the reference commit");
    }
}

fn percentile(values: &mut [Duration], p: usize) -> Duration {
    values.sort();
    values[(values.len() * p / 100).min(values.len() - 1)]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
