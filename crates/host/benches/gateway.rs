//! The gateway's added latency per proxied `tools/call`: the demo server's `echo`, called
//! (a) directly, on the desk's own session with the server, and (b) by an agent through the
//! gateway's local socket (the bridge's path, without the bridge process: an engine client
//! on the socket), allowed for that agent by a standing rule, so no one is asked. A proxied
//! call is the agent's session (lookup of the tool, the gate: policy, audit record, the call
//! checked against the tool's schemas, the outcome recorded), then the same call to the server.
//!
//! Direct and proxied calls alternate in blocks, so both see the same machine. Prints
//! p50/p99 of each and what the gateway adds; asserts nothing.
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
use switchboard_host::gateway::bridge;
use switchboard_host::pins;
use switchboard_host::secrets::Secrets;
use switchboard_mcp::client::{Client, ClientConfig, DecliningHandler};
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::stdio::lines_over;
use tokio::io::AsyncWriteExt;
use tokio::net::UnixStream;

const CALLS: usize = 2000;
const WARMUP: usize = 200;
/// Calls of one path before the other takes its turn.
const BLOCK: usize = 100;
const AGENT: &str = "bench";

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
    }
    let (mut plain, mut gate, mut proxied) = (
        Vec::with_capacity(calls),
        Vec::with_capacity(calls),
        Vec::with_capacity(calls),
    );
    while plain.len() < calls {
        let block = BLOCK.min(calls - plain.len());
        for _ in 0..block {
            plain.push(call(&direct, "echo").await);
        }
        for _ in 0..block {
            gate.push(gated(gate.len()).await);
        }
        for _ in 0..block {
            proxied.push(call(&agent, "demo__echo").await);
        }
    }
    let (p50, p99) = (percentile(&mut plain, 50), percentile(&mut plain, 99));
    let (g50, g99) = (percentile(&mut proxied, 50), percentile(&mut proxied, 99));
    let (d50, d99) = (percentile(&mut gate, 50), percentile(&mut gate, 99));
    println!("tools/call of the demo server's echo, {calls} calls each, sequential (local socket)");
    println!(
        "  {:<28} p50 {:>8.1} µs   p99 {:>8.1} µs",
        "direct",
        us(p50),
        us(p99)
    );
    println!(
        "  {:<28} p50 {:>8.1} µs   p99 {:>8.1} µs",
        "the gate alone (no session)",
        us(d50),
        us(d99)
    );
    println!(
        "  {:<28} p50 {:>8.1} µs   p99 {:>8.1} µs",
        "through the gateway",
        us(g50),
        us(g99)
    );
    println!(
        "  {:<28} p50 {:>8.1} µs   p99 {:>8.1} µs",
        "added by the gateway",
        us(g50) - us(p50),
        us(g99) - us(p99)
    );
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

fn percentile(values: &mut [Duration], p: usize) -> Duration {
    values.sort();
    values[(values.len() * p / 100).min(values.len() - 1)]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
