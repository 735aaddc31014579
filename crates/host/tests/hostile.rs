//! A host with a hostile server (`tests/peers/hostile`) beside a well-behaved one (the rmcp
//! peer): while the hostile one misbehaves the other keeps answering, and stopping the
//! hostile one finishes. Each mode runs in a runtime of its own, so that whatever a hung
//! stop leaves running ends with it.
//!
//! Every wait has a generous bound so that a hang shows as a failure; the bounds are hang
//! checks, not timing assertions.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use switchboard_host::config::{Config, ServerConfig};
use switchboard_host::host::Host;
use switchboard_host::secrets::Secrets;
use switchboard_host::supervisor::{HostEvent, LogSource, ServerState};
use switchboard_mcp::client::DecliningHandler;
use switchboard_mcp::types::ContentBlock;
use tokio::sync::broadcast::{self, error::RecvError};

/// How long both servers may take to start, and the hostile one to begin misbehaving.
const START_HANG: Duration = Duration::from_secs(30);
/// How long the good server may take to answer a call.
const CALL_HANG: Duration = Duration::from_secs(5);
/// How long stopping a server may take.
const STOP_HANG: Duration = Duration::from_secs(20);

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

async fn side_by_side(mode: &str, begun: Begun) -> Result<(), String> {
    let mut host = Host::new(Secrets::new("switchboard-test-hostile"), |_| {
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
async fn stopped_event(events: &mut broadcast::Receiver<HostEvent>, server: &str) {
    loop {
        match events.recv().await {
            Ok(HostEvent::Status {
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
    host: &Host<DecliningHandler>,
    events: &mut broadcast::Receiver<HostEvent>,
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
            Ok(Ok(HostEvent::Log {
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

async fn good_answers(host: &Host<DecliningHandler>) -> Result<(), String> {
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
        command: Some(workspace_binary(binary).display().to_string()),
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

/// A binary of this workspace, built in the same target directory as this test by
/// `cargo build -p <name>` (test binaries live in target/<profile>/deps).
fn workspace_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let path = exe
        .parent()
        .and_then(Path::parent)
        .expect("target profile dir")
        .join(name);
    assert!(
        path.exists(),
        "the test peer {name} is missing at {}: cargo build -p {name}",
        path.display()
    );
    path
}
