//! An agent on the official TypeScript SDK client (`tests/peers/node/gateway-agent.mjs`),
//! reaching the running app through `switchboard-cli bridge` or over Streamable HTTP with
//! its token, as a coding agent does.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::peer::node_binary;

pub struct Agent {
    child: Child,
    commands: ChildStdin,
    lines: mpsc::Receiver<Value>,
    /// Lines read while waiting for another.
    unread: VecDeque<Value>,
    next: u64,
}

impl Agent {
    /// Starts the agent named `name` on the app's socket, and waits until it connected.
    pub fn connect(name: &str, socket: &Path, limit: Duration) -> Self {
        Self::connect_declaring(name, socket, &[], limit)
    }

    /// Like `connect`, the agent declaring what `flags` say (see `gateway-agent.mjs`):
    /// `--answers` (sampling and forms), `--roots URI,...`.
    pub fn connect_declaring(name: &str, socket: &Path, flags: &[&str], limit: Duration) -> Self {
        let bridge = Path::new(env!("CARGO_BIN_EXE_switchboard")).with_file_name("switchboard-cli");
        assert!(
            bridge.exists(),
            "switchboard-cli is missing: cargo build -p switchboard-cli"
        );
        let mut args: Vec<OsString> = flags.iter().map(OsString::from).collect();
        args.extend(["--".into(), bridge.into()]);
        args.extend(["bridge", "--agent", name, "--socket"].map(OsString::from));
        args.push(socket.into());
        Self::connected(Self::start(args), limit)
    }

    /// Starts an agent that reaches `url` with `token`, and waits until it connected.
    pub fn connect_http(url: &str, token: &str, limit: Duration) -> Self {
        Self::connected(Self::start_http(url, token), limit)
    }

    /// Starts an agent that reaches `url` with `token`, which is refused: why, as the SDK
    /// says it.
    pub fn refused_http(url: &str, token: &str, limit: Duration) -> String {
        let mut agent = Self::start_http(url, token);
        let first = agent.line(limit, |l| l.get("event").is_some());
        assert_eq!(first["event"], "connect_failed", "{first}");
        first["error"].as_str().unwrap_or_default().to_owned()
    }

    fn start_http(url: &str, token: &str) -> Self {
        Self::start(["--http", url, token].map(OsString::from))
    }

    fn start(args: impl IntoIterator<Item = OsString>) -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut child = Command::new(node_binary())
            .arg(root.join("tests/peers/node/gateway-agent.mjs"))
            .args(args)
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
        Self {
            child,
            commands,
            lines,
            unread: VecDeque::new(),
            next: 0,
        }
    }

    fn connected(mut agent: Self, limit: Duration) -> Self {
        let first = agent.line(limit, |l| l.get("event").is_some());
        assert_eq!(first["event"], "connected", "{first}");
        agent
    }

    /// The next line `pick` accepts, the others kept for later.
    fn line(&mut self, limit: Duration, pick: impl Fn(&Value) -> bool) -> Value {
        if let Some(at) = self.unread.iter().position(&pick) {
            return self.unread.remove(at).expect("found");
        }
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .expect("the agent answers in time");
            if pick(&line) {
                return line;
            }
            self.unread.push_back(line);
        }
    }

    /// Sends a command; its id.
    fn send(&mut self, mut command: Value) -> String {
        self.next += 1;
        let id = format!("c{}", self.next);
        command["id"] = json!(id);
        writeln!(self.commands, "{command}").expect("send to the agent");
        id
    }

    /// Starts a tool call; its id.
    pub fn call(&mut self, tool: &str, arguments: Value) -> String {
        self.send(json!({"op": "call_tool", "name": tool, "arguments": arguments}))
    }

    /// Starts a read of the resource `uri`; its id.
    pub fn read(&mut self, uri: &str) -> String {
        self.send(json!({"op": "read_resource", "uri": uri}))
    }

    /// The result of call `id`, as the agent got it.
    pub fn result(&mut self, id: &str, limit: Duration) -> Value {
        let line = self.line(limit, |l| l["id"] == id);
        assert!(line.get("ok").is_some(), "the call failed: {line}");
        line["ok"].clone()
    }

    /// Waits until the agent is asked `method` by the gateway.
    pub fn asked(&mut self, method: &str, limit: Duration) {
        self.line(limit, |l| l["event"] == "asked" && l["method"] == method);
    }

    /// The names of the tools the agent is offered now.
    pub fn tool_names(&mut self, limit: Duration) -> Vec<String> {
        let id = self.send(json!({"op": "list_tools"}));
        let listed = self.result(&id, limit);
        listed["tools"]
            .as_array()
            .expect("a list of tools")
            .iter()
            .filter_map(|t| t["name"].as_str().map(str::to_owned))
            .collect()
    }

    /// Waits until the agent is told its list of tools changed.
    pub fn tools_changed(&mut self, limit: Duration) {
        self.line(limit, |l| l["event"] == "tools_changed");
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
