//! A host with a hostile server (`tests/peers/hostile`) beside a well-behaved one (the rmcp
//! peer): while the hostile one misbehaves the other keeps answering, and stopping the
//! hostile one finishes. Each mode runs in a runtime of its own, so that whatever a hung
//! stop leaves running ends with it.
//!
//! A server that floods its log leaves the desk's log book within its bound, every line
//! within the line bound; `-- --nocapture` prints what was offered and what was kept.
//!
//! Every wait has a generous bound so that a hang shows as a failure; the bounds are hang
//! checks, not timing assertions.

use std::sync::Arc;
use std::time::Duration;

use switchboard_core::config::{self, Config, ServerConfig};
use switchboard_core::fleet::Fleet;
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::{LogSource, ServerEvent, ServerState};
use switchboard_desk::{Desk, LogEntry, LogSize, Update};
use switchboard_mcp::client::DecliningHandler;
use switchboard_mcp::types::ContentBlock;
use tokio::sync::broadcast::{self, error::RecvError};

use crate::common;

/// How long both servers may take to start, and the hostile one to begin misbehaving.
const START_HANG: Duration = Duration::from_secs(30);
/// How long the good server may take to answer a call.
const CALL_HANG: Duration = Duration::from_secs(5);
/// How long stopping a server may take.
const STOP_HANG: Duration = Duration::from_secs(20);
/// How long a flooding server may take to log [`OFFERED_BYTES`].
const FLOOD_HANG: Duration = Duration::from_secs(120);
/// The bounds `docs/reliability.md` promises, written out rather than read from the code:
/// a server's log keeps its newest lines within 1 MiB and 2,000 lines, each line cut to
/// 16 KiB and marked "… [cut: N bytes in all]" (here with the longest N there is).
const KEEP_BYTES: usize = 1024 * 1024;
const KEEP_LINES: usize = 2000;
const MAX_LINE_BYTES: usize = 16 * 1024 + "… [cut: 18446744073709551615 bytes in all]".len();
/// How much a flooding server logs before its log book is measured: many times its bound.
const OFFERED_BYTES: usize = 8 * KEEP_BYTES;

/// How the test knows the hostile server has begun to misbehave.
#[derive(Debug, Clone, Copy)]
enum Begun {
    /// It runs: its flood starts with the session, before the host calls it running (and
    /// its stderr line may be lost among the flood's events).
    WhenRunning,
    /// It says so on stderr.
    WhenItSays,
}

#[test]
fn a_good_server_keeps_answering_beside_a_hostile_one_which_stops_when_asked() {
    let modes = [
        ("flood", Begun::WhenRunning),
        ("never-reads", Begun::WhenItSays),
        ("never-answers", Begun::WhenItSays),
        ("endless-cursors", Begun::WhenItSays),
    ];
    let failures: Vec<String> = modes
        .into_iter()
        .filter_map(|(mode, begun)| {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("a runtime");
            let outcome = runtime.block_on(side_by_side(mode, begun));
            runtime.shutdown_timeout(Duration::from_secs(5));
            outcome.err().map(|why| format!("{mode}: {why}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "beside a hostile server:\n  {}",
        failures.join("\n  ")
    );
}

#[test]
fn a_server_that_floods_its_log_leaves_the_log_book_within_its_bound() {
    let failures: Vec<String> = ["flood", "huge-logs", "huge-stderr"]
        .into_iter()
        .filter_map(|mode| {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("a runtime");
            let outcome = runtime.block_on(flooded_log_book(mode));
            runtime.shutdown_timeout(Duration::from_secs(5));
            match outcome {
                Ok(figures) => {
                    println!("{mode}: {figures}");
                    figures
                        .beyond_bounds()
                        .map(|why| format!("{mode}: {why} ({figures})"))
                }
                Err(why) => Some(format!("{mode}: {why}")),
            }
        })
        .collect();
    assert!(
        failures.is_empty(),
        "a flooding server's log book:\n  {}",
        failures.join("\n  ")
    );
}

/// What a flooding server logged, what the log book kept of it, and the memory the book
/// counts for it (its slots, spare ones included, and its text's capacity).
struct Figures {
    offered: Lines,
    kept: Lines,
    counted: LogSize,
}

/// Lines, their weight (text and slot, as this test counts it) and the longest text.
#[derive(Default)]
struct Lines {
    count: usize,
    bytes: usize,
    longest: usize,
}

impl Lines {
    fn add(&mut self, entry: &LogEntry) {
        self.count += 1;
        self.bytes += std::mem::size_of::<LogEntry>()
            + entry.server.len()
            + entry.text.len()
            + entry.level.as_ref().map_or(0, String::len);
        self.longest = self.longest.max(entry.text.len());
    }
}

impl std::fmt::Display for Lines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kib = |bytes: usize| bytes as f64 / 1024.0;
        write!(
            f,
            "{} lines, {:.1} KiB, the longest {:.1} KiB",
            self.count,
            kib(self.bytes),
            kib(self.longest)
        )
    }
}

impl std::fmt::Display for Figures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "offered at least {}; kept {}, counted {:.1} KiB (bound {} KiB, a line at most {:.1} KiB)",
            self.offered,
            self.kept,
            self.counted.bytes as f64 / 1024.0,
            KEEP_BYTES / 1024,
            MAX_LINE_BYTES as f64 / 1024.0
        )
    }
}

impl Figures {
    fn beyond_bounds(&self) -> Option<String> {
        if self.kept.bytes.max(self.counted.bytes) > KEEP_BYTES {
            Some("the log book is over its bound".into())
        } else if self.kept.count > KEEP_LINES {
            Some("the log book keeps more lines than its bound".into())
        } else if self.kept.longest > MAX_LINE_BYTES {
            Some("a kept line is over the line bound".into())
        } else if self.kept.count == 0 {
            Some("the log book kept nothing".into())
        } else {
            None
        }
    }
}

/// Runs a desk with one hostile server until it has logged [`OFFERED_BYTES`] (as far as
/// this test's receiver saw), then measures its log book.
async fn flooded_log_book(mode: &str) -> Result<Figures, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let config_path = dir.path().join("config.json");
    config::save(
        &config_path,
        &config(&[("hostile", peer("hostile-peer", mode))]),
    )
    .map_err(|e| e.to_string())?;
    let desk = Desk::open(
        &config_path,
        &dir.path().join("audit.sqlite"),
        Secrets::new("switchboard-test-hostile"),
    )
    .map_err(|e| e.to_string())?;
    let mut updates = desk.updates();
    desk.start().await;
    let mut offered = Lines::default();
    let flooded = tokio::time::timeout(FLOOD_HANG, async {
        while offered.bytes < OFFERED_BYTES {
            match updates.recv().await {
                Ok(Update::Log { entry }) if entry.server == "hostile" => offered.add(&entry),
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return Err("the desk's updates ended"),
            }
        }
        Ok(())
    })
    .await;
    let mut kept = Lines::default();
    for entry in desk.servers().log_of("hostile") {
        kept.add(&entry);
    }
    let counted = desk.servers().log_size("hostile");
    tokio::time::timeout(STOP_HANG, desk.shutdown())
        .await
        .map_err(|_| format!("the desk's shutdown had not finished after {STOP_HANG:?}"))?;
    match flooded {
        Ok(Ok(())) => Ok(Figures {
            offered,
            kept,
            counted,
        }),
        Ok(Err(why)) => Err(why.into()),
        Err(_) => Err(format!(
            "after {FLOOD_HANG:?}, the server had logged only {offered}"
        )),
    }
}

async fn side_by_side(mode: &str, begun: Begun) -> Result<(), String> {
    let mut host = Fleet::new(Secrets::new("switchboard-test-hostile"), |_| {
        Arc::new(DecliningHandler)
    });
    let mut events = host.events();
    let good = ("good", peer("rmcp-peer", "stdio"));
    host.reconcile(&config(&[
        good.clone(),
        ("hostile", peer("hostile-peer", mode)),
    ]));
    both_under_way(&host, &mut events, begun).await?;
    good_answers(&host).await?;
    let only_good = config(&[good]);
    let stopped = host.reconcile(&only_good);
    if stopped.stopped != ["hostile"] {
        return Err(format!("stopping the hostile server stopped {stopped:?}"));
    }
    // The good one answers while the hostile one is being stopped, not only after.
    good_answers(&host).await?;
    tokio::time::timeout(STOP_HANG, stopped_event(&mut events, "hostile"))
        .await
        .map_err(|_| format!("stopping the hostile server had not finished after {STOP_HANG:?}"))?;
    tokio::time::timeout(STOP_HANG, host.shutdown())
        .await
        .map_err(|_| format!("the host's shutdown had not finished after {STOP_HANG:?}"))
}

/// Waits until `server` is reported stopped: its process is gone.
async fn stopped_event(events: &mut broadcast::Receiver<ServerEvent>, server: &str) {
    loop {
        match events.recv().await {
            Ok(ServerEvent::Status {
                server: name,
                state: ServerState::Stopped,
            }) if name == server => return,
            Err(broadcast::error::RecvError::Closed) => return,
            _ => {}
        }
    }
}

/// Waits until the good server runs and the hostile one misbehaves.
async fn both_under_way(
    host: &Fleet<DecliningHandler>,
    events: &mut broadcast::Receiver<ServerEvent>,
    begun: Begun,
) -> Result<(), String> {
    let deadline = tokio::time::Instant::now() + START_HANG;
    let mut said = false;
    loop {
        let states = host.states();
        let running = |name| matches!(states.get(name), Some(ServerState::Running { .. }));
        let misbehaving = match begun {
            Begun::WhenRunning => running("hostile"),
            Begun::WhenItSays => said,
        };
        if running("good") && misbehaving {
            return Ok(());
        }
        match tokio::time::timeout_at(deadline, events.recv()).await {
            Ok(Ok(ServerEvent::Log {
                server,
                source: LogSource::Stderr,
                text,
                ..
            })) if server == "hostile" && text.contains("misbehaving") => said = true,
            // States are read from the host, not from events: a lagging receiver loses none.
            Ok(Ok(_) | Err(RecvError::Lagged(_))) => {}
            Ok(Err(RecvError::Closed)) => return Err("the host's events ended".into()),
            Err(_) => {
                return Err(format!(
                    "after {START_HANG:?}, the hostile server {} misbehaving; the states: {states:?}",
                    if said { "was" } else { "was not yet" }
                ));
            }
        }
    }
}

async fn good_answers(host: &Fleet<DecliningHandler>) -> Result<(), String> {
    let client = host
        .client("good")
        .ok_or("the good server has no session")?;
    let arguments = serde_json::json!({"text": "still here"})
        .as_object()
        .cloned();
    let call = client.call_tool("echo", arguments, client.request_options());
    match tokio::time::timeout(CALL_HANG, call).await {
        Ok(Ok(result))
            if result.content.first().and_then(ContentBlock::as_text) == Some("still here") =>
        {
            Ok(())
        }
        Ok(Ok(result)) => Err(format!("the good server answered {result:?}")),
        Ok(Err(e)) => Err(format!("the good server's call failed: {e}")),
        Err(_) => Err(format!(
            "the good server had not answered after {CALL_HANG:?}"
        )),
    }
}

/// A test peer of this workspace over stdio, with a short request timeout: a server that
/// never answers holds up the catalog no longer than that.
fn peer(binary: &str, arg: &str) -> ServerConfig {
    ServerConfig {
        command: Some(common::workspace_binary(binary).display().to_string()),
        args: vec![arg.to_owned()],
        request_timeout_secs: Some(5),
        ..ServerConfig::default()
    }
}

fn config(servers: &[(&str, ServerConfig)]) -> Config {
    Config {
        servers: servers
            .iter()
            .map(|(n, s)| (n.to_string(), s.clone()))
            .collect(),
        ..Config::default()
    }
}
