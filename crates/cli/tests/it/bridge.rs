//! `switchboard-cli bridge` as an agent starts it: between the agent's stdio and the app's
//! local socket, played here by a listener of the test's own.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixListener;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long the bridge may take to exit once the app is gone.
const WAIT: Duration = Duration::from_secs(20);

#[test]
fn the_bridge_exits_when_the_app_closes_though_the_agent_waits_for_an_answer() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("gateway.sock");
    let listener = UnixListener::bind(&socket).unwrap();
    let mut bridge = Command::new(env!("CARGO_BIN_EXE_switchboard-cli"))
        .args(["bridge", "--agent", "Cursor", "--socket"])
        .arg(&socket)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (app, _) = listener.accept().unwrap();
    let mut from_bridge = BufReader::new(app.try_clone().unwrap());
    let mut hello = String::new();
    from_bridge.read_line(&mut hello).unwrap();
    assert!(hello.contains("\"Cursor\""), "{hello}");

    // The agent's request reaches the app, which quits before answering it; the agent
    // keeps its end open, waiting for the answer.
    let mut agent = bridge.stdin.take().unwrap();
    writeln!(agent, r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#).unwrap();
    let mut request = String::new();
    from_bridge.read_line(&mut request).unwrap();
    assert!(request.contains("tools/list"), "{request}");
    drop((from_bridge, app));

    // The bridge exits by itself, so that the agent learns its server is gone.
    let pid = bridge.id();
    let (exited, exit) = mpsc::channel();
    std::thread::spawn(move || exited.send(bridge.wait_with_output()));
    let Ok(output) = exit.recv_timeout(WAIT) else {
        let _ = Command::new("kill").arg(pid.to_string()).status();
        panic!("the bridge still runs {WAIT:?} after the app closed the connection");
    };
    let output = output.unwrap();
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("Switchboard closed the connection"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    drop(agent);
}
