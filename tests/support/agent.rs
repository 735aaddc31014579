//! An agent on the official TypeScript SDK client (`tests/peers/node/gateway-agent.mjs`),
//! reaching the running app through `switchboard-cli bridge`, as a coding agent does.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use super::peer::node_binary;

pub struct Agent {
    child: Child,
    commands: ChildStdin,
    lines: mpsc::Receiver<Value>,
    next: u64,
}

impl Agent {
    /// Starts the agent named `name` on the app's socket, and waits until it connected.
    pub fn connect(name: &str, socket: &Path, limit: Duration) -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let bridge = Path::new(env!("CARGO_BIN_EXE_switchboard")).with_file_name("switchboard-cli");
        assert!(
            bridge.exists(),
            "switchboard-cli is missing: cargo build -p switchboard-cli"
        );
        let mut child = Command::new(node_binary())
            .arg(root.join("tests/peers/node/gateway-agent.mjs"))
            .arg("--")
            .arg(bridge)
            .args(["bridge", "--agent", name, "--socket"])
            .arg(socket)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the agent");
        let stdout = child.stdout.take().expect("stdout");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Ok(line) = serde_json::from_str(&line) {
                    let _ = send.send(line);
                }
            }
        });
        let commands = child.stdin.take().expect("stdin");
        let agent = Self {
            child,
            commands,
            lines,
            next: 0,
        };
        let first = agent.line(limit);
        assert_eq!(first["event"], "connected", "{first}");
        agent
    }

    fn line(&self, limit: Duration) -> Value {
        self.lines
            .recv_timeout(limit)
            .expect("the agent answers in time")
    }

    /// Starts a tool call; its id.
    pub fn call(&mut self, tool: &str, arguments: Value) -> String {
        self.next += 1;
        let id = format!("c{}", self.next);
        let command = json!({"op": "call_tool", "id": id, "name": tool, "arguments": arguments});
        writeln!(self.commands, "{command}").expect("send to the agent");
        id
    }

    /// The result of call `id`, as the agent got it.
    pub fn result(&self, id: &str, limit: Duration) -> Value {
        loop {
            let line = self.line(limit);
            if line["id"] == id {
                return line["ok"].clone();
            }
        }
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
