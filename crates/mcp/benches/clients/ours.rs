//! Switchboard's engine as a client: the same echo blocks and read as the SDK clients run.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};
use switchboard_mcp::client::{Client, ClientConfig, DecliningHandler};
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::http::{self, HttpMode, HttpServer};
use switchboard_mcp::transport::stdio::{self, StdioServer};
use switchboard_mcp::types::ResourceContents;
use tokio::task::JoinSet;

use crate::figures::{EchoReport, Read, ReadReport, Run};
use crate::process::memory;
use crate::programs::Target;

pub const NAME: &str = "Switchboard engine";
const WARM_UP: usize = 200;

async fn connect(target: &Target) -> Client {
    let transport = match target {
        Target::Stdio(command) => {
            let (program, args) = command.split_first().expect("a server command");
            let server = StdioServer::new(program).args(args);
            stdio::spawn(&server, discard_log()).expect("the server starts")
        }
        Target::Http(url) => {
            let mut server = HttpServer::new(url);
            server.mode = HttpMode::StreamableHttp;
            http::connect(&server, discard_log())
                .expect("HTTP settings")
                .0
        }
    };
    Client::connect(
        transport,
        Arc::new(DecliningHandler),
        ClientConfig::new("switchboard-bench", env!("CARGO_PKG_VERSION")),
    )
    .await
    .expect("initialize")
}

async fn call(client: &Client, arguments: Map<String, Value>) -> f64 {
    let started = Instant::now();
    let result = client
        .call_tool("echo", Some(arguments), client.request_options())
        .await
        .expect("echo answers");
    let elapsed = started.elapsed();
    assert!(!result.failed(), "echo failed: {result:?}");
    elapsed.as_secs_f64() * 1e6
}

/// User plus system CPU time of every thread of this process.
fn cpu_time() -> Duration {
    use nix::sys::resource::{UsageWho, getrusage};
    let usage = getrusage(UsageWho::RUSAGE_SELF).expect("getrusage");
    let time = |t: nix::sys::time::TimeVal| {
        Duration::from_secs(t.tv_sec() as u64) + Duration::from_micros(t.tv_usec() as u64)
    };
    time(usage.user_time()) + time(usage.system_time())
}

/// Runs `block` and returns its latencies with its wall and CPU time.
async fn timed<F: Future<Output = Vec<f64>>>(block: F) -> Run {
    let (cpu, started) = (cpu_time(), Instant::now());
    let latencies_us = block.await;
    Run {
        latencies_us,
        wall_s: started.elapsed().as_secs_f64(),
        cpu_s: (cpu_time() - cpu).as_secs_f64(),
    }
}

async fn sequential(client: &Client, calls: usize, arguments: &Map<String, Value>) -> Vec<f64> {
    let mut latencies = Vec::with_capacity(calls);
    for _ in 0..calls {
        latencies.push(call(client, arguments.clone()).await);
    }
    latencies
}

/// Keeps `in_flight` calls outstanding until `calls` have been made.
async fn concurrent(
    client: &Client,
    calls: usize,
    in_flight: usize,
    arguments: &Map<String, Value>,
) -> Vec<f64> {
    let mut latencies = Vec::with_capacity(calls);
    let mut running = JoinSet::new();
    for _ in 0..calls {
        if running.len() == in_flight {
            let done = running.join_next().await.expect("a call in flight");
            latencies.push(done.expect("no panic"));
        }
        let (client, arguments) = (client.clone(), arguments.clone());
        running.spawn(async move { call(&client, arguments).await });
    }
    while let Some(done) = running.join_next().await {
        latencies.push(done.expect("no panic"));
    }
    latencies
}

pub async fn echo(target: &Target, calls: usize, in_flight: usize, text: &str) -> EchoReport {
    let client = connect(target).await;
    let mut arguments = Map::new();
    arguments.insert("text".into(), text.into());
    sequential(&client, WARM_UP, &arguments).await;
    let report = EchoReport {
        client: NAME.to_owned(),
        sequential: timed(sequential(&client, calls, &arguments)).await,
        concurrent: timed(concurrent(&client, calls, in_flight, &arguments)).await,
    };
    client.close().await;
    report
}

pub async fn read(target: &Target, uri: &str) -> ReadReport {
    let client = connect(target).await;
    let before = memory().rss;
    let started = Instant::now();
    let result = client
        .read_resource(uri, client.request_options())
        .await
        .expect("the resource");
    let seconds = started.elapsed().as_secs_f64();
    let peak_rss = memory().peak;
    let bytes = result
        .contents
        .iter()
        .map(|c| match c {
            ResourceContents::Text(t) => t.text.len() as u64,
            ResourceContents::Blob(b) => b.blob.len() as u64,
        })
        .sum();
    client.close().await;
    ReadReport {
        client: NAME.to_owned(),
        read: Read {
            bytes,
            seconds,
            rss_before: before,
            peak_rss,
        },
    }
}
