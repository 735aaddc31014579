//! What the sandbox costs: the time until 1 and 20 stdio servers (the demo server's release
//! build) are Running, started at once without the sandbox, in bubblewrap's and in Landlock's,
//! and the latency of an `echo` call to a server in each, all running in the same host core.
//! The ways take turns (rounds for the starts, blocks of calls for the echo), so that all see
//! the same machine. Prints medians and ratios to the unsandboxed way; asserts nothing.
//!
//! Build the demo server and the helper with `cargo build --release -p
//! switchboard-demo-server -p switchboard-confine`, then run
//! `cargo bench -p switchboard-desk --bench sandbox -- [--rounds N] [--calls N]`.

mod support;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, json};
use support::{demo_server, every_one_running};
use switchboard_core::config::{Config, SandboxEngine, SandboxSetting, ServerConfig};
use switchboard_core::fleet::Fleet;
use switchboard_core::secrets::Secrets;
use switchboard_mcp::client::DecliningHandler;

const ROUNDS: usize = 5;
const CALLS: usize = 2000;
const BLOCK: usize = 100;
const START_LIMIT: Duration = Duration::from_secs(120);

type Host = Fleet<DecliningHandler>;

/// The ways a server runs: unsandboxed first (what the others are compared with).
const WAYS: [(&str, Option<SandboxEngine>); 3] = [
    ("plain", None),
    ("bubblewrap", Some(SandboxEngine::Bubblewrap)),
    ("landlock", Some(SandboxEngine::Landlock)),
];

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

fn server(demo: &Path, engine: Option<SandboxEngine>) -> ServerConfig {
    ServerConfig {
        command: Some(demo.display().to_string()),
        sandbox: engine.map(|engine| SandboxSetting {
            network: false,
            engine,
        }),
        ..ServerConfig::default()
    }
}

fn host() -> Host {
    Fleet::new(Secrets::new("switchboard-bench"), |_| {
        Arc::new(DecliningHandler)
    })
}

/// The median time until `count` servers started at once are all Running, each way, and
/// the ratios.
async fn starts(demo: &Path, count: usize, rounds: usize) {
    let mut times = [Vec::new(), Vec::new(), Vec::new()];
    let mut host = host();
    // The first start reads the login shell's PATH once: not counted.
    for round in 0..=rounds {
        for ((way, engine), times) in WAYS.into_iter().zip(&mut times) {
            let config = Config {
                servers: (0..count)
                    .map(|i| (format!("demo-{i:02}"), server(demo, engine)))
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
                println!("  {count} servers, {way}: not all Running in {START_LIMIT:?}");
                return;
            }
            if round > 0 {
                times.push(took);
            }
        }
    }
    let [plain, bubblewrap, landlock] = times.map(|mut t| median(&mut t));
    let ratio = |d: Duration| d.as_secs_f64() / plain.as_secs_f64();
    println!(
        "  {count:>2} server(s) to Running: {:>7.1} ms, bubblewrap {:>7.1} ms ({:.2}x), landlock {:>7.1} ms ({:.2}x), median of {rounds}",
        ms(plain),
        ms(bubblewrap),
        ratio(bubblewrap),
        ms(landlock),
        ratio(landlock)
    );
}

/// `echo` called one at a time on a server of each way, in blocks taking turns: p50 and
/// p99 of each, and the ratios.
async fn echo(demo: &Path, calls: usize) {
    let mut host = host();
    let config = Config {
        servers: WAYS
            .iter()
            .map(|(way, engine)| ((*way).to_owned(), server(demo, *engine)))
            .collect(),
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
    let clients = WAYS.map(|(way, _)| host.client(way).expect("running"));
    let arguments = Map::from_iter([("text".to_owned(), json!("The quick brown fox"))]);
    let mut times = [Vec::new(), Vec::new(), Vec::new()];
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
    let [(p50, p99), bubblewrap, landlock] = times.map(|mut times| {
        times.sort();
        let at = |q: usize| times[(times.len() * q / 100).min(times.len() - 1)];
        (at(50), at(99))
    });
    let ratio = |d: Duration| d.as_secs_f64() / p50.as_secs_f64();
    println!(
        "  echo, {calls} calls each: p50 {:.1} µs, bubblewrap {:.1} µs ({:.2}x), landlock {:.1} µs ({:.2}x); p99 {:.1} µs, bubblewrap {:.1} µs, landlock {:.1} µs",
        us(p50),
        us(bubblewrap.0),
        ratio(bubblewrap.0),
        us(landlock.0),
        ratio(landlock.0),
        us(p99),
        us(bubblewrap.1),
        us(landlock.1)
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
