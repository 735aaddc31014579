//! The real app ended by a signal, as a logout or `kill` ends it: its servers are stopped
//! gracefully (their input closed first), not killed with it.

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::display::Display;

/// A server that notes when it runs, and when its input closes (a graceful stop).
const SERVER: &str = r#"
import json, os, sys
notes = os.environ["NOTES"]
def note(text):
    with open(notes, "a") as f:
        f.write(text + "\n")
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "initialize":
        result = {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "noting", "version": "1"}}
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
    if msg.get("method") == "notifications/initialized":
        note("running")
note("input closed")
"#;

/// Waits, a moment at a time (no timing is asserted), until `done` holds.
fn wait_until(what: &str, done: impl Fn() -> bool) {
    for _ in 0..3000 {
        if done() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("{what} never happened");
}

#[test]
fn a_signal_ends_the_app_after_its_servers_stopped_gracefully() {
    let home = tempfile::tempdir().expect("temp dir");
    let config = home.path().join("switchboard-config.json");
    let notes = home.path().join("notes");
    // No gateway over HTTP, and a socket of its own: nothing shared with another app.
    let server = serde_json::json!({"mcpServers": {"noting": {
        "command": "python3", "args": ["-c", SERVER],
        "env": {"NOTES": notes.display().to_string()},
    }}, "settings": {"gatewayPort": 0}});
    std::fs::write(&config, server.to_string()).expect("write the config");

    let display = Display::start();
    let mut app = Command::new(env!("CARGO_BIN_EXE_switchboard"))
        .env("DISPLAY", &display.name)
        .env("SWITCHBOARD_CONFIG", &config)
        .env(
            switchboard_core::endpoint::SOCKET_ENV,
            home.path().join("gateway.sock"),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the app");
    let read = || std::fs::read_to_string(&notes).unwrap_or_default();
    wait_until("the server running", || read().contains("running"));

    let pid = nix::unistd::Pid::from_raw(i32::try_from(app.id()).expect("a pid"));
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).expect("SIGTERM the app");
    let (done, ended) = std::sync::mpsc::channel();
    std::thread::spawn(move || done.send(app.wait()));
    let status = ended
        .recv_timeout(Duration::from_secs(60))
        .expect("the app ended")
        .expect("its status");
    assert!(status.success(), "the app ended with {status}");
    assert_eq!(
        read(),
        "running\ninput closed\n",
        "the server was not stopped gracefully"
    );
}
