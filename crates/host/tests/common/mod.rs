//! What the tests that run the bundled demo server share: where its binary is, and a desk
//! on a configuration file of its own with the demo server running.

// Each test file uses the helpers it needs.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Map, Value, json};
use switchboard_host::approvals::Pending;
use switchboard_host::desk::{Desk, DeskError, Update};
use switchboard_host::secrets::Secrets;
use switchboard_host::supervisor::ServerState;
use tokio::sync::broadcast;

pub const WAIT: Duration = Duration::from_secs(30);

/// A binary of this workspace, built in the same target folder as this test by
/// `cargo build -p <name>` (test binaries live in target/<profile>/deps).
pub fn workspace_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let path = exe
        .parent()
        .and_then(Path::parent)
        .expect("target profile dir")
        .join(name);
    assert!(
        path.exists(),
        "{name} is missing at {}: cargo build -p {name}",
        path.display()
    );
    path
}

/// The demo server (`switchboard-demo-server`).
pub fn demo_server() -> PathBuf {
    workspace_binary("switchboard-demo-server")
}

/// A standing allowance of every tool of the demo desk's server, pinned to it as the
/// person would have given it.
pub fn demo_allowed() -> Value {
    let demo = switchboard_host::config::ServerConfig {
        command: Some(demo_server().display().to_string()),
        ..Default::default()
    };
    let identity = switchboard_host::pins::identity(&demo);
    json!({"server": "demo", "allow": true, "identity": identity})
}

/// Whether a process runs (a zombie, dead but not yet reaped, does not count).
pub fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            stat.rsplit_once(") ")
                .map(|(_, rest)| !rest.starts_with('Z'))
        })
        .unwrap_or(false)
}

pub struct DemoDesk {
    pub desk: Desk,
    pub updates: broadcast::Receiver<Update>,
    pub config: PathBuf,
    pub dir: tempfile::TempDir,
    /// The server the desk runs: its calls go there.
    pub server: String,
}

/// A desk whose configuration file holds the demo server (as "demo") and these host
/// settings, with the demo server running.
pub async fn demo_desk(settings: Value) -> DemoDesk {
    let demo = json!({"command": demo_server().display().to_string()});
    desk_with("demo", demo, settings).await
}

/// The Python SDK peer's entry in a configuration file.
pub fn python_peer() -> Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let python = root.join(".tools/venv/bin/python");
    let script = root.join("tests/peers/python/server.py");
    json!({"command": python.display().to_string(), "args": [script.display().to_string()]})
}

/// A desk whose configuration file holds one server, `name`, and these host settings,
/// with the server running.
pub async fn desk_with(name: &str, server: Value, settings: Value) -> DemoDesk {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.json");
    let file = json!({"mcpServers": {name: server}, "settings": settings});
    std::fs::write(&config, file.to_string()).unwrap();
    let desk = Desk::open(
        &config,
        &dir.path().join("audit.sqlite"),
        Secrets::new("switchboard-test-demo-desk"),
    )
    .unwrap();
    let mut world = DemoDesk {
        updates: desk.updates(),
        desk,
        config,
        dir,
        server: name.to_owned(),
    };
    world.desk.start().await;
    world.running().await;
    world
}

impl DemoDesk {
    /// Waits for the first update `pick` accepts.
    pub async fn next<T>(&mut self, mut pick: impl FnMut(Update) -> Option<T>) -> T {
        tokio::time::timeout(WAIT, async {
            loop {
                match self.updates.recv().await {
                    Ok(update) => {
                        if let Some(found) = pick(update) {
                            return found;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => panic!("the desk is gone"),
                }
            }
        })
        .await
        .expect("the update came")
    }

    /// Waits until the desk's server runs (again, after a change).
    pub async fn running(&mut self) {
        let name = self.server.clone();
        self.next(|u| match u {
            Update::Status {
                server,
                state: ServerState::Running { .. },
                ..
            } if server == name => Some(()),
            _ => None,
        })
        .await;
    }

    /// Waits for the next request for the person.
    pub async fn asked(&mut self) -> Pending {
        self.next(|u| match u {
            Update::ApprovalAdded { pending } => Some(*pending),
            _ => None,
        })
        .await
    }

    /// Waits until request `id` leaves the list of pending requests.
    pub async fn withdrawn(&mut self, id: u64) {
        self.next(|u| {
            matches!(u, Update::ApprovalRemoved { id: gone } if gone == id).then_some(())
        })
        .await;
    }

    /// Calls a tool of the desk's server in the background; `token` names the call.
    pub fn call(
        &self,
        tool: &str,
        arguments: Value,
        token: &str,
    ) -> tokio::task::JoinHandle<Result<Value, DeskError>> {
        let desk = self.desk.clone();
        let (server, tool, token) = (self.server.clone(), tool.to_owned(), token.to_owned());
        let arguments: Map<String, Value> = arguments.as_object().cloned().unwrap();
        tokio::spawn(async move { desk.call_tool(&server, &tool, arguments, token).await })
    }

    /// The configuration file as JSON.
    pub fn file(&self) -> Value {
        serde_json::from_str(&std::fs::read_to_string(&self.config).unwrap()).unwrap()
    }
}

/// The text of a tool result's first block.
pub fn text_of(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}
