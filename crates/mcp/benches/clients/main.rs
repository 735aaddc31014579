//! Switchboard's engine beside the official TypeScript and Python SDK clients, against the
//! same `rmcp` server: `tools/call` echo round trips over stdio and over Streamable HTTP (one
//! at a time, then 64 in flight), and the read of a 20 MiB resource, each client in a fresh
//! process. Prints figures and the ratios ours / peer; asserts nothing.
//!
//! Run with `scripts/bench` (it builds the server and installs the peers first), or
//! `cargo bench -p switchboard-mcp --bench clients -- [--calls N] [--engine-only] [--only PART]
//! [--from-main-thread]` (`--engine-only` leaves the SDK clients out, `--only stdio|http|read`
//! runs one part: for profiling the engine alone). The engine's calls are made from a task on
//! the runtime, as the host makes them; `--from-main-thread` makes them from the thread that
//! blocks on the runtime instead, as a command-line program's `main` does.
//!
//! `clients read --uri URI (--stdio CMD ARG... | --http URL)` is the engine's side of the
//! large read, run by the benchmark itself in a fresh process.
//!
//! The `server` part (`--only server`) turns it around: the engine's client calls `echo` on the
//! engine's own Streamable HTTP server (`clients serve`, a fresh process of this benchmark)
//! and on rmcp-peer's, and prints both with the ratio ours / rmcp.

mod figures;
mod json_cost;
mod ours;
#[path = "../support/process.rs"]
mod process;
mod programs;
#[path = "../../tests/it/common/served.rs"]
#[allow(dead_code)]
mod served;

use std::path::Path;

use figures::{EchoReport, ReadReport, print_echo_block, print_echo_header, print_reads};
use programs::{Program, Target, sdk_clients, sibling_binary};

const IN_FLIGHT: usize = 64;
const TEXT: &str = "The quick brown fox jumps over the lazy dog";
const LARGE_BYTES: usize = 20 * 1024 * 1024;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("read") => return read_mode(&args[1..]),
        Some("serve") => return serve_mode(),
        _ => {}
    }
    let calls = flag(&args, "--calls").map_or(3_000, |n| n.parse().expect("--calls N"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (peers, missing) = if args.iter().any(|a| a == "--engine-only") {
        (Vec::new(), Vec::new())
    } else {
        sdk_clients(&root)
    };
    for note in &missing {
        println!("skipped {note}");
    }
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let server = sibling_binary("rmcp-peer");
    println!("load average at the start: {}", load_average());
    let only = flag(&args, "--only");
    let from_main_thread = args.iter().any(|a| a == "--from-main-thread");
    if only.is_none() {
        let cost = json_cost::echo_pair(TEXT);
        println!(
            "reference: serde_json encode + decode of one echo request and its response: {:.2} µs",
            cost.as_secs_f64() * 1e6
        );
    }

    let runs = |part: &str| only.is_none_or(|o| o == part);
    let stdio = Target::Stdio(vec![server.display().to_string(), "stdio".into()]);
    let mut rmcp = std::process::Command::new(&server);
    rmcp.args(["http", "--port", "0"]);
    let (_http_server, url) = listening(rmcp);
    let http = Target::Http(url.clone());
    // (heading, name for --only, server)
    let transports = [
        ("stdio", "stdio", &stdio),
        ("Streamable HTTP", "http", &http),
    ];
    for (label, _, target) in transports.into_iter().filter(|(_, p, _)| runs(p)) {
        println!("\n{label}: {calls} echo calls per row, against rmcp-peer");
        let ours = if from_main_thread {
            runtime.block_on(ours::echo(target, calls, IN_FLIGHT, TEXT))
        } else {
            // From a task on the runtime, as the host's commands call the engine.
            let target = target.clone();
            let echo =
                runtime.spawn(async move { ours::echo(&target, calls, IN_FLIGHT, TEXT).await });
            runtime.block_on(echo).expect("the engine's echo run")
        };
        let echo_args = [
            "echo".to_owned(),
            "--calls".into(),
            calls.to_string(),
            "--in-flight".into(),
            IN_FLIGHT.to_string(),
            "--text".into(),
            TEXT.into(),
        ];
        let theirs: Vec<EchoReport> = peers
            .iter()
            .filter_map(|peer| report(peer.run(&echo_args, target)))
            .collect();
        let all: Vec<&EchoReport> = std::iter::once(&ours).chain(&theirs).collect();
        print_echo_header();
        print_echo_block("one at a time", &all, |r| &r.sequential);
        print_echo_block(&format!("{IN_FLIGHT} in flight"), &all, |r| &r.concurrent);
    }

    if runs("server") {
        compare_servers(&runtime, &url, calls);
    }

    let uri = format!("rmcp://filler/{LARGE_BYTES}");
    let read_args = ["read".to_owned(), "--uri".into(), uri.clone()];
    let ours = Program::this_benchmark();
    let read_parts = if runs("read") { &transports[..] } else { &[] };
    for (label, _, target) in read_parts {
        println!("\nread of {uri} ({label}), each client in a fresh process");
        let reports: Vec<ReadReport> = std::iter::once(&ours)
            .chain(&peers)
            .filter_map(|client| report(client.run(&read_args, target)))
            .collect();
        print_reads(&reports);
    }
    println!("\nload average at the end: {}", load_average());
}

/// The engine's side of the large read, in this fresh process: one JSON line.
fn read_mode(args: &[String]) {
    let uri = flag(args, "--uri").expect("read needs --uri");
    let target = match (
        flag(args, "--http"),
        args.iter().position(|a| a == "--stdio"),
    ) {
        (Some(url), _) => Target::Http(url.to_owned()),
        (None, Some(at)) => Target::Stdio(args[at + 1..].to_vec()),
        (None, None) => panic!("read needs --stdio CMD ARG... or --http URL"),
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let report = runtime.block_on(ours::read(&target, uri));
    println!(
        "{}",
        serde_json::to_string(&report).expect("figures encode")
    );
}

fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let at = args.iter().position(|a| a == name)?;
    args.get(at + 1).map(String::as_str)
}

/// A client that failed is reported and left out of its table.
fn report<T>(outcome: Result<T, String>) -> Option<T> {
    outcome.map_err(|e| println!("  skipped: {e}")).ok()
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// A server process that is ended when the benchmark is done with it, even by a panic.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The engine's client against the engine's Streamable HTTP server and against rmcp-peer's
/// (`rmcp_url`), one call at a time and many in flight, with the ratios ours / rmcp.
fn compare_servers(runtime: &tokio::runtime::Runtime, rmcp_url: &str, calls: usize) {
    let mut ours = std::process::Command::new(std::env::current_exe().expect("own path"));
    ours.arg("serve");
    let (_our_server, our_url) = listening(ours);
    println!(
        "
Streamable HTTP servers: {calls} echo calls per row from the engine's client"
    );
    let mut reports = Vec::new();
    for (server, url) in [
        ("Switchboard server", our_url),
        ("rmcp-peer server", rmcp_url.to_owned()),
    ] {
        let target = Target::Http(url);
        let echo = runtime.spawn(async move { ours::echo(&target, calls, IN_FLIGHT, TEXT).await });
        let mut report = runtime.block_on(echo).expect("the echo run");
        report.client = server.into();
        reports.push(report);
    }
    let all: Vec<&EchoReport> = reports.iter().collect();
    print_echo_header();
    print_echo_block("one at a time", &all, |r| &r.sequential);
    print_echo_block(&format!("{IN_FLIGHT} in flight"), &all, |r| &r.concurrent);
}

/// The engine's Streamable HTTP server with the tests' `echo`, in this fresh process, until
/// its parent closes stdin.
fn serve_mode() {
    use switchboard_mcp::server::http::{HttpServer, HttpServerOptions};
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let (seen, _) = tokio::sync::mpsc::unbounded_channel();
        let server = HttpServer::bind(HttpServerOptions::default(), served::factory(seen))
            .await
            .expect("bind 127.0.0.1");
        println!("listening on {}", server.url());
        let mut stdin = tokio::io::stdin();
        let _ = tokio::io::AsyncReadExt::read(&mut stdin, &mut [0u8; 1]).await;
    });
}

/// Starts an HTTP server that prints `listening on URL` and returns it with that URL.
fn listening(mut command: std::process::Command) -> (KillOnDrop, String) {
    use std::io::BufRead;
    let mut child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        // Clients that drop a keep-alive connection make hyper complain; not our business.
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start the server");
    let stdout = child.stdout.take().expect("its stdout");
    let server = KillOnDrop(child);
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the listening line");
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .expect("`listening on URL`")
        .to_owned();
    (server, url)
}
