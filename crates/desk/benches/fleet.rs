//! The host core with many servers: 100 stdio servers (the bundled demo server) started at
//! once, the time until every one is Running (spawned, initialized, its offer listed into
//! the catalog), the process's peak memory, and searches of a catalog of 10,000 tools.
//! Prints figures; asserts nothing.
//!
//! Run with `scripts/bench`, or build the demo server with
//! `cargo build --release -p switchboard-demo-server` and run
//! `cargo bench -p switchboard-desk --bench fleet -- [--servers N]`.

#[path = "../../mcp/benches/support/process.rs"]
mod process;
mod support;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use process::{memory, mib};
use support::{demo_server, every_one_running};
use switchboard_core::catalog::{Catalog, Offer};
use switchboard_core::config::{Config, ServerConfig};
use switchboard_core::fleet::Fleet;
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::ServerState;
use switchboard_mcp::client::DecliningHandler;

const SERVERS: usize = 100;
const CATALOG_SERVERS: usize = 100;
const TOOLS_PER_SERVER: usize = 100;
const SEARCH_REPEATS: usize = 21;
/// A server that is not Running by then is reported as stuck.
const START_LIMIT: Duration = Duration::from_secs(120);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let servers = args
        .iter()
        .position(|a| a == "--servers")
        .and_then(|at| args.get(at + 1)?.parse().ok())
        .unwrap_or(SERVERS);
    let demo = demo_server();
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let offer = runtime.block_on(start_servers(&demo, servers));
    if let Some(offer) = offer {
        search_catalog(&offer);
    }
}

/// Starts `count` demo servers twice (the first start also reads the login shell's PATH,
/// once per process) and returns one server's offer, the pattern of the large catalog.
async fn start_servers(demo: &Path, count: usize) -> Option<Offer> {
    let config = Config {
        servers: (0..count)
            .map(|i| {
                let server = ServerConfig {
                    command: Some(demo.display().to_string()),
                    ..ServerConfig::default()
                };
                (format!("demo-{i:03}"), server)
            })
            .collect(),
        ..Config::default()
    };
    let mut host = Fleet::new(Secrets::new("switchboard-bench"), |_| {
        Arc::new(DecliningHandler)
    });
    let before = memory();
    println!(
        "{count} stdio servers ({}) started at once in the host core",
        demo.display()
    );
    let mut offer = None;
    for round in ["first start", "second start"] {
        let mut events = host.events();
        let started = Instant::now();
        host.reconcile(&config);
        let all_running = tokio::time::timeout(START_LIMIT, every_one_running(&host, &mut events))
            .await
            .is_ok();
        let elapsed = started.elapsed();
        let now = memory();
        if !all_running {
            let stuck: Vec<_> = host
                .states()
                .into_iter()
                .filter(|(_, s)| !matches!(s, ServerState::Running { .. }))
                .take(3)
                .collect();
            println!("  {round}: not all Running after {START_LIMIT:?}; for example {stuck:?}");
            break;
        }
        println!(
            "  {round:<13} all Running after {:>8.1} ms   RSS {:>6.1} MiB   peak RSS {:>6.1} MiB (before: {:.1} MiB)",
            elapsed.as_secs_f64() * 1e3,
            mib(now.rss),
            mib(now.peak),
            mib(before.rss),
        );
        offer = host.catalog().offer("demo-000");
        host.shutdown().await;
    }
    offer
}

/// Fills a catalog with 10,000 tools (the demo server's tools, renamed, over 100 servers)
/// and times searches that hit many, few and no tools.
fn search_catalog(pattern: &Offer) {
    if pattern.tools.is_empty() {
        println!("the demo server listed no tools; no catalog search");
        return;
    }
    let catalog = Catalog::default();
    for server in 0..CATALOG_SERVERS {
        let mut offer = pattern.clone();
        offer.tools = (0..TOOLS_PER_SERVER)
            .map(|i| {
                let mut tool = pattern.tools[i % pattern.tools.len()].clone();
                tool.name = format!("{}_{i}", tool.name);
                tool
            })
            .collect();
        catalog.set(&format!("server-{server:03}"), offer);
    }
    let tools = catalog.tools().len();
    let common = pattern.tools[0].name.clone();
    let rare = format!("{}_{}", pattern.tools[1 % pattern.tools.len()].name, 7);
    println!(
        "\nCatalog::search over {tools} tools from {CATALOG_SERVERS} servers (median of {SEARCH_REPEATS})"
    );
    let one_server = "server-042";
    for (query, server) in [
        (common.as_str(), None),
        ("the", None),
        (rare.as_str(), None),
        (rare.as_str(), Some(one_server)),
        ("no such words", None),
    ] {
        let mut times: Vec<Duration> = (0..SEARCH_REPEATS)
            .map(|_| {
                let started = Instant::now();
                std::hint::black_box(catalog.search(query, server));
                started.elapsed()
            })
            .collect();
        times.sort();
        let hits = catalog.search(query, server).len();
        let scope = server.unwrap_or("every server");
        println!(
            "  {:<36} {hits:>6} hits   {:>8.2} ms",
            format!("{query:?} in {scope}"),
            times[SEARCH_REPEATS / 2].as_secs_f64() * 1e3
        );
    }
}
