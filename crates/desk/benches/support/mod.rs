//! What the host core's benchmarks share: the demo server they start, and the wait until
//! every server configured runs.

use std::path::{Path, PathBuf};

use switchboard_core::fleet::Fleet;
use switchboard_core::server_events::{ServerEvent, ServerState};
use switchboard_mcp::client::DecliningHandler;
use tokio::sync::broadcast::error::RecvError;

/// The release build of the demo server, beside the benchmark.
pub fn demo_server() -> PathBuf {
    let exe = std::env::current_exe().expect("the benchmark's own path");
    let path = exe
        .parent()
        .and_then(Path::parent)
        .expect("the target profile folder")
        .join("switchboard-demo-server");
    assert!(
        path.exists(),
        "{} is missing: build it with `cargo build --release -p switchboard-demo-server`",
        path.display()
    );
    path
}

/// Waits for status events until every configured server is Running.
pub async fn every_one_running(
    host: &Fleet<DecliningHandler>,
    events: &mut tokio::sync::broadcast::Receiver<ServerEvent>,
) {
    let all = |host: &Fleet<DecliningHandler>| {
        let states = host.states();
        !states.is_empty()
            && states
                .values()
                .all(|s| matches!(s, ServerState::Running { .. }))
    };
    loop {
        match events.recv().await {
            // A lagging receiver missed some events: the states themselves tell.
            Ok(ServerEvent::Status { .. }) | Err(RecvError::Lagged(_)) if all(host) => return,
            Ok(_) | Err(RecvError::Lagged(_)) => {}
            Err(RecvError::Closed) => return,
        }
    }
}
