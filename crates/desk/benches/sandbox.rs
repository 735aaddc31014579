//! What the sandbox costs: the time until 1 and 20 stdio servers (the demo server's release
//! build) are Running, started at once with and without the sandbox, and the latency of an
//! `echo` call to a sandboxed server against an unsandboxed one, both running in the same
//! host core. The ways take turns (rounds for the starts, blocks of calls for the echo), so
//! that both see the same machine. Prints medians and ratios; asserts nothing.
//!
//! Build the demo server with `cargo build --release -p switchboard-demo-server`, then run
//! `cargo bench -p switchboard-desk --bench sandbox -- [--rounds N] [--calls N]`.

mod support;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, json};
use support::{demo_server, every_one_running};
use switchboard_core::config::{Config, SandboxSetting, ServerConfig};
use switchboard_core::fleet::Fleet;
use switchboard_core::secrets::Secrets;
use switchboard_mcp::client::DecliningHandler;

const ROUNDS: usize = 5;
const CALLS: usize = 2000;
const BLOCK: usize = 100;
const START_LIMIT: Duration = Duration::from_secs(120);

type Host = Fleet<DecliningHandler>;

fn main() {
    let arg = |name: &str, default: usize| {
        let args: Vec<String> = std::env::args().collect();
        args.iter()
            .position(|a| a == name)
            .and_then(|at| args.get(at + 1)?.parse().ok())
            .unwrap_or(default)
    };
    let (rounds, calls) = (arg("--rounds", ROUNDS), arg("--calls", CALLS));
    let demo = demo_server();
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        println!(
            "the sandbox's cost ({}), load average {}",
            demo.display(),
            load.trim()
        );
        for count in [1, 20] {
            starts(&demo, count, rounds).await;
        }
        echo(&demo, calls).await;
    });
}

fn server(demo: &Path, sandboxed: bool) -> ServerConfig {
    ServerConfig {
        command: Some(demo.display().to_string()),
        sandbox: sandboxed.then_some(SandboxSetting::default()),
        ..ServerConfig::default()
    }
}

fn host() -> Host {
    Fleet::new(Secrets::new("switchboard-bench"), |_| {
        Arc::new(DecliningHandler)
    })
}

/// The median time until `count` servers started at once are all Running, with and
/// without the sandbox, and the ratio.
async fn starts(demo: &Path, count: usize, rounds: usize) {
    let mut times = [Vec::new(), Vec::new()];
    let mut host = host();
    // The first start reads the login shell's PATH once: not counted.
    for round in 0..=rounds {
        for (sandboxed, times) in [false, true].into_iter().zip(&mut times) {
            let config = Config {
                servers: (0..count)
                    .map(|i| (format!("demo-{i:02}"), server(demo, sandboxed)))
                    .collect(),
                ..Config::default()
            };
            let mut events = host.events();
            let started = Instant::now();
            host.reconcile(&config);
            let running =
                tokio::time::timeout(START_LIMIT, every_one_running(&host, &mut events)).await;
            let took = started.elapsed();
            host.shutdown().await;
            host = self::host();
            if running.is_err() {
                println!(
                    "  {count} servers, sandboxed {sandboxed}: not all Running in {START_LIMIT:?}"
                );
                return;
            }
            if round > 0 {
                times.push(took);
            }
        }
    }
    let [plain, sandboxed] = times.map(|mut t| median(&mut t));
    println!(
        "  {count:>2} server(s) to Running: {:>8.1} ms, sandboxed {:>8.1} ms ({:.2}x), median of {rounds}",
        ms(plain),
        ms(sandboxed),
        sandboxed.as_secs_f64() / plain.as_secs_f64()
    );
}

/// `echo` called one at a time on an unsandboxed and a sandboxed server, in alternating
/// blocks: p50 and p99 of each, and the ratio.
async fn echo(demo: &Path, calls: usize) {
    let mut host = host();
    let config = Config {
        servers: [
            ("plain".to_owned(), server(demo, false)),
            ("sandboxed".to_owned(), server(demo, true)),
        ]
        .into(),
        ..Config::default()
    };
    let mut events = host.events();
    host.reconcile(&config);
    if tokio::time::timeout(START_LIMIT, every_one_running(&host, &mut events))
        .await
        .is_err()
    {
        println!("  the echo servers did not start");
        return;
    }
    let clients = ["plain", "sandboxed"].map(|name| host.client(name).expect("running"));
    let arguments = Map::from_iter([("text".to_owned(), json!("The quick brown fox"))]);
    let mut times = [Vec::new(), Vec::new()];
    while times[0].len() < calls {
        for (client, times) in clients.iter().zip(&mut times) {
            for _ in 0..BLOCK {
                let started = Instant::now();
                client
                    .call_tool("echo", Some(arguments.clone()), client.request_options())
                    .await
                    .expect("the echo");
                times.push(started.elapsed());
            }
        }
    }
    let [mut plain, mut sandboxed] = times;
    let p = |times: &mut Vec<Duration>, q: usize| {
        times.sort();
        times[(times.len() * q / 100).min(times.len() - 1)]
    };
    let (p50, s50) = (p(&mut plain, 50), p(&mut sandboxed, 50));
    let (p99, s99) = (p(&mut plain, 99), p(&mut sandboxed, 99));
    println!(
        "  echo, {} calls each: p50 {:.1} µs, sandboxed {:.1} µs ({:.2}x); p99 {:.1} µs, sandboxed {:.1} µs",
        plain.len(),
        us(p50),
        us(s50),
        s50.as_secs_f64() / p50.as_secs_f64(),
        us(p99),
        us(s99)
    );
    host.shutdown().await;
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
