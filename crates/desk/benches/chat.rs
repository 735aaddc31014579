//! The host's own overhead in a chat, with no model time: the stand-in provider
//! (`provider-peer`, on 127.0.0.1) answers from a script, the demo server runs the tools.
//! For each wire format (OpenAI Chat Completions, Anthropic Messages):
//!
//! - **streamed text**: answers of N text deltas, consumed (a) straight from the
//!   providers' `Client` (each event into a `Collector`) and (b) through the agent loop, a
//!   kept conversation whose `TextDelta` events a receiver takes from the channel. Each
//!   delta is timestamped as it reaches the consumer;
//! - **tool-call rounds**: runs in which every model turn calls the demo server's `echo`,
//!   allowed by a standing "always" rule (no one is asked). A round is the provider's turn,
//!   the gate (policy, audit record, the call checked against the tool's schemas, the
//!   outcome recorded), the MCP call and the result back, with both messages appended to
//!   the conversation's SQLite file. Beside it the same provider turns and the same
//!   growing messages driven directly, with a plain MCP `call_tool` and nothing kept.
//!
//! Agent and direct runs alternate, so both see the same machine. Then the two SQLite
//! writes a round makes, timed alone. Prints figures; asserts nothing.
//!
//! Run with `scripts/bench`, or build the peers with
//! `cargo build --release -p provider-peer -p switchboard-demo-server` and run
//! `cargo bench -p switchboard-desk --bench chat -- [--tokens N] [--rounds K]`.

#[path = "../tests/it/common/mod.rs"]
mod common;
#[path = "support/wire.rs"]
mod wire;

use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::GatedHost;
use serde_json::{Map, Value, json};
use switchboard_chat::{
    CatalogServers, Chat, ChatEvent, ChatSettings, Conversations, Enablement, Reach, Toolset,
};
use switchboard_core::audit::{Kind, Record};

use switchboard_core::config::ServerConfig;
use switchboard_core::decisions::{self, DecidedBy, Given, Outcome, Scope};
use switchboard_core::gate::Gate;
use switchboard_core::pins::ToolDefinition;

use switchboard_core::config::ToolRule;
use switchboard_mcp::types::ContentBlock;
use switchboard_providers::{
    Client, Collector, Event, Message, Request, ToolResult, ToolResultContent, UserContent,
};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use wire::{KEY, LIMIT, MODEL, WIRES, Wire};

/// Text deltas in one streamed answer.
const TOKENS: usize = 2000;
/// Measured answers per path and wire format, after one warm-up each.
const ANSWERS: usize = 10;
/// Measured tool-call rounds per path and wire format.
const ROUNDS: usize = 1000;
/// Rounds in one run (one conversation): the messages sent grow within a run only.
const ROUNDS_PER_RUN: usize = 10;
/// Runs of warm-up per path before the measured ones.
const WARMUP_RUNS: usize = 2;
/// Measured repetitions of each SQLite write alone.
const WRITES: usize = 1000;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let number = |name: &str, default: usize| {
        args.iter()
            .position(|a| a == name)
            .and_then(|at| args.get(at + 1)?.parse().ok())
            .unwrap_or(default)
    };
    let tokens = number("--tokens", TOKENS).max(2);
    let rounds = number("--rounds", ROUNDS).max(ROUNDS_PER_RUN);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    // From a task, as the app's commands run (not from the thread blocking on the runtime).
    runtime
        .block_on(async { tokio::spawn(bench(tokens, rounds)).await })
        .expect("the benchmark ran");
}

async fn bench(tokens: usize, rounds: usize) {
    let mut world = World::start().await;
    println!(
        "streamed text: answers of {tokens} text deltas, {ANSWERS} per path after a warm-up; \
         per token = (last delta - first delta) / {}",
        tokens - 1
    );
    for (name, wire) in WIRES {
        streaming(&world, name, wire, tokens).await;
    }
    let runs = rounds.div_ceil(ROUNDS_PER_RUN);
    println!(
        "\ntool-call rounds: {} rounds per path ({runs} runs of {ROUNDS_PER_RUN}), each calling \
         the demo server's echo, allowed by a standing rule",
        runs * ROUNDS_PER_RUN
    );
    for (name, wire) in WIRES {
        tool_rounds(&world, name, wire, runs).await;
    }
    writes_alone(&world).await;
    world.gated.host.shutdown().await;
}

/// The demo server running (as "demo") under a host whose calls pass a gate with a
/// standing rule for `echo`; an agent keeping conversations; all files in a folder of
/// the same disk the app's data folder is on.
struct World {
    /// The demo server under a host with a gate and an audit log, in a folder of its own.
    gated: GatedHost,
    agent: Chat,
    gate: Gate,
    conversations: Conversations,
    toolset: Toolset,
    mcp: switchboard_mcp::client::Client,
}

impl World {
    async fn start() -> Self {
        let demo = ServerConfig {
            command: Some(common::demo_server().display().to_string()),
            ..ServerConfig::default()
        };
        let gated = common::gated_host("bench-chat", LIMIT, "demo", demo.clone()).await;
        let host = &gated.host;
        let echo = host
            .catalog()
            .tools()
            .into_iter()
            .find(|t| t.server == "demo" && t.tool.name == "echo")
            .expect("the demo server offers echo");
        // The rule the person's "always allow this tool" leaves behind.
        let rule = ToolRule {
            server: "demo".into(),
            tool: Some("echo".into()),
            allow: true,
            agent: None,
            identity: demo.identity(),
            definition: Some(ToolDefinition::of(&echo.tool)),
            since_ms: 0,
            reads: false,
            definitions: Vec::new(),
        };
        let gate = gated.gate.clone();
        gate.reload_rules(vec![rule]);
        let shared = host.shared().clone();
        let mcp = shared.client("demo").expect("the demo server's client");
        let servers = CatalogServers {
            catalog: host.catalog().clone(),
            reach: move |server: &str| Some(Reach::of(shared.client(server)?, &demo)),
        };
        let conversations = Conversations::open(&gated.dir.path().join("conversations.sqlite"))
            .expect("conversations");
        let agent =
            Chat::new(gate.clone(), Arc::new(servers)).with_conversations(conversations.clone());
        let toolset = agent.toolset(&Enablement::default(), None);
        Self {
            gated,
            agent,
            gate,
            conversations,
            toolset,
            mcp,
        }
    }

    fn dir(&self) -> &Path {
        self.gated.dir.path()
    }

    /// The request the agent would make of these messages.
    fn request(&self, messages: Vec<Message>) -> Request {
        let settings = ChatSettings::new(MODEL);
        let mut request = Request::new(MODEL, settings.max_tokens, messages);
        request.tools = self.toolset.to_provider();
        request
    }

    /// A new kept conversation.
    async fn chat(&self) -> i64 {
        let chat = self.conversations.create("bench").await;
        chat.expect("a conversation").id
    }

    /// Runs the agent on a kept conversation in a task; its events come to the caller,
    /// which stamps them as they arrive.
    fn send(&self, chat: i64, provider: Client, max_rounds: usize) -> mpsc::Receiver<ChatEvent> {
        let (events, receiver) = mpsc::channel(256);
        let agent = self.agent.clone();
        let mut settings = ChatSettings::new(MODEL);
        settings.max_rounds = max_rounds as u32;
        tokio::spawn(async move {
            let stop = CancellationToken::new();
            agent
                .send(chat, "Go".into(), &provider, &settings, &events, &stop)
                .await
                .expect("the run")
        });
        receiver
    }
}

/// The stand-in provider with a script of `turns`; killed when dropped.
struct StandIn {
    url: String,
    _child: tokio::process::Child,
}

impl StandIn {
    async fn start(dir: &Path, turns: Vec<Value>) -> Self {
        // A file: a script of many turns is longer than one argument may be.
        let script = dir.join("script.json");
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
}

/// One streamed answer as its consumer saw it.
struct Answer {
    /// When each text delta reached the consumer.
    deltas: Vec<Instant>,
    /// When the request was made (or the person's message given).
    started: Instant,
    /// From then to the end of the answer.
    whole: Duration,
    /// This process's CPU time (every thread) over the same span.
    cpu: Duration,
}

#[derive(Default)]
struct Answers {
    gaps: Vec<Duration>,
    per_token: Vec<Duration>,
    whole: Vec<Duration>,
    /// From the request to the first delta.
    first: Vec<Duration>,
    /// From the last delta to the end.
    last: Vec<Duration>,
    cpu_per_token: Vec<Duration>,
}

impl Answers {
    fn add(&mut self, answer: Answer) {
        let n = answer.deltas.len();
        assert!(n >= 2, "{n} deltas");
        self.gaps
            .extend(answer.deltas.windows(2).map(|w| w[1] - w[0]));
        self.per_token
            .push((answer.deltas[n - 1] - answer.deltas[0]) / (n - 1) as u32);
        self.whole.push(answer.whole);
        self.first.push(answer.deltas[0] - answer.started);
        self.last
            .push(answer.started + answer.whole - answer.deltas[n - 1]);
        self.cpu_per_token.push(answer.cpu / n as u32);
    }
}

async fn streaming(world: &World, name: &str, wire: Wire, tokens: usize) {
    let text = "word ".repeat(tokens);
    let turn = json!({"content": [{"text": text, "pieces": tokens}]});
    let stand_in = StandIn::start(world.dir(), vec![turn; 2 * (ANSWERS + 1)]).await;
    let client = wire.client(&stand_in.url);
    let (mut direct, mut agent) = (Answers::default(), Answers::default());
    for n in 0..=ANSWERS {
        let a = stream_direct(world, &client).await;
        let b = stream_agent(world, &client).await;
        assert_eq!(
            (a.deltas.len(), b.deltas.len()),
            (tokens, tokens),
            "every delta"
        );
        if n > 0 {
            direct.add(a);
            agent.add(b);
        }
    }
    println!("  {name}");
    println!(
        "    {:<30} {:>9} {:>9} {:>9} {:>11} {:>11} {:>11} {:>11}",
        "µs",
        "per token",
        "gap p50",
        "gap p99",
        "answer ms",
        "1st delta",
        "after last",
        "CPU/token"
    );
    let row = |label: &str, a: &mut Answers| {
        let figures = [
            median(&mut a.per_token),
            percentile(&mut a.gaps, 50),
            percentile(&mut a.gaps, 99),
        ];
        println!(
            "    {label:<30} {:>9.2} {:>9.2} {:>9.2} {:>11.2} {:>11.1} {:>11.1} {:>11.2}",
            us(figures[0]),
            us(figures[1]),
            us(figures[2]),
            ms(median(&mut a.whole)),
            us(median(&mut a.first)),
            us(median(&mut a.last)),
            us(median(&mut a.cpu_per_token)),
        );
        figures
    };
    let a = row("(a) providers Client", &mut direct);
    let b = row("(b) agent loop, events", &mut agent);
    println!(
        "    {:<30} {:>9.2} {:>9.2} {:>9.2} {:>11.2} {:>11.2} {:>11.2} {:>11.2}",
        "(b) / (a)",
        ratio(b[0], a[0]),
        ratio(b[1], a[1]),
        ratio(b[2], a[2]),
        ratio(median(&mut agent.whole), median(&mut direct.whole)),
        ratio(median(&mut agent.first), median(&mut direct.first)),
        ratio(median(&mut agent.last), median(&mut direct.last)),
        ratio(
            median(&mut agent.cpu_per_token),
            median(&mut direct.cpu_per_token)
        ),
    );
}

async fn stream_direct(world: &World, client: &Client) -> Answer {
    let request = world.request(vec![Message::user_text("Go")]);
    let (cpu, started) = (cpu_time(), Instant::now());
    let mut deltas = Vec::new();
    let mut stream = client.stream(&request).await.expect("the stream");
    let mut answer = Collector::default();
    while let Some(event) = stream.next().await {
        let event = event.expect("an event");
        if matches!(event, Event::TextDelta(_)) {
            deltas.push(Instant::now());
        }
        answer.push(&event);
    }
    let whole = started.elapsed();
    std::hint::black_box(answer.finish().expect("a finished answer"));
    Answer {
        started,
        deltas,
        whole,
        cpu: cpu_time() - cpu,
    }
}

async fn stream_agent(world: &World, client: &Client) -> Answer {
    let chat = world.chat().await;
    let (cpu, started) = (cpu_time(), Instant::now());
    let mut events = world.send(chat, client.clone(), 1);
    let mut deltas = Vec::new();
    loop {
        match events.recv().await.expect("the run goes on") {
            ChatEvent::TextDelta { .. } => deltas.push(Instant::now()),
            ChatEvent::Finished { .. } => break,
            ChatEvent::Error { message, .. } => panic!("the run failed: {message}"),
            _ => {}
        }
    }
    Answer {
        started,
        deltas,
        whole: started.elapsed(),
        cpu: cpu_time() - cpu,
    }
}

/// Per round: the whole round, and its parts as far as they can be told apart.
#[derive(Default)]
struct Rounds {
    round: Vec<Duration>,
    /// Direct: the provider's turn. Agent: the turn and the model's message appended.
    provider: Vec<Duration>,
    /// Agent only: the gate's decision (the policy and the audit record).
    decide: Vec<Duration>,
    /// Direct: `call_tool`. Agent: the checked call and its outcome recorded.
    call: Vec<Duration>,
    /// Agent only: the results' message appended.
    append: Vec<Duration>,
    cpu: Vec<Duration>,
}

async fn tool_rounds(world: &World, name: &str, wire: Wire, runs: usize) {
    let turn =
        json!({"content": [{"tool_call": {"name": "demo__echo", "arguments": {"text": "hello"}}}]});
    let turns = 2 * (WARMUP_RUNS + runs) * ROUNDS_PER_RUN;
    let stand_in = StandIn::start(world.dir(), vec![turn; turns]).await;
    let client = wire.client(&stand_in.url);
    let (mut direct, mut agent) = (Rounds::default(), Rounds::default());
    for n in 0..WARMUP_RUNS + runs {
        let (mut a, mut b) = (Rounds::default(), Rounds::default());
        rounds_direct(world, &client, &mut a).await;
        rounds_agent(world, &client, &mut b).await;
        if n >= WARMUP_RUNS {
            extend(&mut direct, a);
            extend(&mut agent, b);
        }
    }
    println!("  {name}");
    println!(
        "    {:<30} {:>9} {:>9} {:>12} {:>9} {:>9} {:>9} {:>9}",
        "µs", "p50", "p99", "provider p50", "gate p50", "call p50", "keep p50", "CPU/round"
    );
    let row = |label: &str, r: &mut Rounds| {
        let p50 = median(&mut r.round);
        let p99 = percentile(&mut r.round, 99);
        let part = |v: &mut Vec<Duration>| {
            if v.is_empty() {
                "-".to_owned()
            } else {
                format!("{:.1}", us(median(v)))
            }
        };
        println!(
            "    {label:<30} {:>9.1} {:>9.1} {:>12} {:>9} {:>9} {:>9} {:>9.1}",
            us(p50),
            us(p99),
            part(&mut r.provider),
            part(&mut r.decide),
            part(&mut r.call),
            part(&mut r.append),
            us(median(&mut r.cpu)),
        );
        (p50, p99, median(&mut r.cpu))
    };
    let a = row("direct: provider + call_tool", &mut direct);
    let b = row("agent: turn + gate + call", &mut agent);
    println!(
        "    {:<30} {:>9.1} {:>9.1} {:>12} {:>9} {:>9} {:>9} {:>9.1}",
        "agent - direct (overhead)",
        us(b.0.saturating_sub(a.0)),
        us(b.1.saturating_sub(a.1)),
        "",
        "",
        "",
        "",
        us(b.2.saturating_sub(a.2)),
    );
    println!(
        "    {:<30} {:>9.2} {:>9.2} {:>12} {:>9} {:>9} {:>9} {:>9.2}",
        "agent / direct",
        ratio(b.0, a.0),
        ratio(b.1, a.1),
        "",
        "",
        "",
        "",
        ratio(b.2, a.2),
    );
}

fn extend(into: &mut Rounds, from: Rounds) {
    into.round.extend(from.round);
    into.provider.extend(from.provider);
    into.decide.extend(from.decide);
    into.call.extend(from.call);
    into.append.extend(from.append);
    into.cpu.extend(from.cpu);
}

/// One run of rounds driven directly: the same requests the agent makes (the messages
/// grow the same way), each call straight to the MCP client, nothing kept.
async fn rounds_direct(world: &World, client: &Client, rounds: &mut Rounds) {
    let mut messages = vec![Message::user_text("Go")];
    for _ in 0..ROUNDS_PER_RUN {
        let (cpu, started) = (cpu_time(), Instant::now());
        let request = world.request(messages.clone());
        let mut stream = client.stream(&request).await.expect("the stream");
        let mut answer = Collector::default();
        while let Some(event) = stream.next().await {
            answer.push(&event.expect("an event"));
        }
        let response = answer.finish().expect("a finished answer");
        let calls: Vec<_> = response.tool_calls().cloned().collect();
        messages.push(response.into_message());
        let asked = Instant::now();
        let mut results = Vec::new();
        for call in calls {
            let arguments = call.arguments.as_object().cloned();
            let result = world
                .mcp
                .call_tool("echo", arguments, world.mcp.request_options())
                .await
                .expect("the call");
            let content = result
                .content
                .iter()
                .filter_map(|c| match c {
                    ContentBlock::Text(t) => Some(ToolResultContent::Text(t.text.clone())),
                    _ => None,
                })
                .collect();
            results.push(UserContent::ToolResult(ToolResult {
                call_id: call.id,
                content,
                is_error: result.is_error == Some(true),
                not_made: false,
            }));
        }
        assert_eq!(results.len(), 1, "one call a turn");
        messages.push(Message::User(results));
        let done = Instant::now();
        rounds.round.push(done - started);
        rounds.provider.push(asked - started);
        rounds.call.push(done - asked);
        rounds.cpu.push(cpu_time() - cpu);
    }
}

/// One run of the agent: each round ends when the results' message is appended and its
/// event arrives; the events between tell the parts apart.
async fn rounds_agent(world: &World, client: &Client, rounds: &mut Rounds) {
    let chat = world.chat().await;
    let mut events = world.send(chat, client.clone(), ROUNDS_PER_RUN);
    // The person's message starts the first round.
    let mut started = None;
    let (mut cpu, mut answered, mut awaiting, mut running, mut result) =
        (cpu_time(), None, None, None, None);
    loop {
        let event = tokio::time::timeout(LIMIT, events.recv())
            .await
            .expect("the run goes on")
            .expect("events");
        let now = Instant::now();
        match event {
            ChatEvent::Message {
                message: Message::User(_),
                ..
            } => {
                if let (Some(s), Some(an), Some(aw), Some(ru), Some(re)) =
                    (started, answered, awaiting, running, result)
                {
                    rounds.round.push(now - s);
                    rounds.provider.push(an - s);
                    rounds.decide.push(ru - aw);
                    rounds.call.push(re - ru);
                    rounds.append.push(now - re);
                    rounds.cpu.push(cpu_time() - cpu);
                }
                started = Some(now);
                cpu = cpu_time();
            }
            ChatEvent::Message {
                message: Message::Assistant(_),
                ..
            } => answered = Some(now),
            ChatEvent::ToolCallAwaiting { .. } => awaiting = Some(now),
            ChatEvent::ToolCallRunning { .. } => running = Some(now),
            ChatEvent::ToolCallResult { is_error, .. } => {
                assert!(!is_error, "echo answered");
                result = Some(now);
            }
            ChatEvent::ToolCallDenied { decided_by, .. } => panic!("denied by {decided_by}"),
            ChatEvent::ToolCallFailed { error, .. } => panic!("the call failed: {error}"),
            ChatEvent::Error { message, .. } => panic!("the run failed: {message}"),
            ChatEvent::Finished { .. } => break,
            _ => {}
        }
    }
}

/// The SQLite writes of a round, alone: the model's message and the results' message
/// appended to a conversation, and the audit record of a call with its outcome.
async fn writes_alone(world: &World) {
    let chat = world.conversations.create("writes").await.expect("created");
    let mut messages = vec![Message::user_text("Go")];
    // The messages of one round, as the agent keeps them.
    let call = switchboard_providers::ToolCall {
        id: "call_1".into(),
        name: "demo__echo".into(),
        arguments: json!({"text": "hello"}),
    };
    messages.push(Message::Assistant(vec![
        switchboard_providers::AssistantContent::ToolCall(call),
    ]));
    messages.push(Message::User(vec![UserContent::ToolResult(ToolResult {
        call_id: "call_1".into(),
        content: vec![ToolResultContent::Text("hello".into())],
        is_error: false,
        not_made: false,
    })]));
    let mut append = Vec::new();
    let mut cpu = Duration::ZERO;
    for n in 0..WRITES + 20 {
        let (before, started) = (cpu_time(), Instant::now());
        world
            .conversations
            .append(chat.id, &messages[1 + n % 2])
            .await
            .expect("appended");
        if n >= 20 {
            append.push(started.elapsed());
            cpu += cpu_time() - before;
        }
    }
    let append_cpu = cpu / WRITES as u32;
    cpu = Duration::ZERO;
    let mut audit = Vec::new();
    let arguments: Map<String, Value> = json!({"text": "hello"})
        .as_object()
        .cloned()
        .unwrap_or_default();
    for n in 0..WRITES + 20 {
        let (before, started) = (cpu_time(), Instant::now());
        let record = Record {
            kind: Kind::ToolCall,
            server: "demo".into(),
            subject: "echo".into(),
            detail: Value::Object(arguments.clone()),
            decision: "allowed".into(),
            decided_by: DecidedBy::Rule {
                allow: true,
                reach: decisions::Reach::Tool,
                scope: Scope::Always,
            },
            outcome: Outcome::Unknown,
            duration_ms: None,
        };
        let id = world
            .gate
            .audit()
            .record_call(record, "model in conversation 1".into(), Some(Given::Rule))
            .await
            .expect("recorded");
        let recorded = started.elapsed();
        // Queued: written in the background, or with the next record.
        world.gate.audit().finish(id, Outcome::Succeeded, 0);
        if n >= 20 {
            audit.push(recorded);
            audit.push(started.elapsed() - recorded);
            cpu += cpu_time() - before;
        }
    }
    let audit_cpu = cpu / (2 * WRITES) as u32;
    println!(
        "\nthe SQLite writes of a round, alone ({WRITES} of each; write-ahead log, synchronous=FULL, {})",
        world.dir().display()
    );
    for (label, times, cpu) in [
        (
            "Conversations::append, one message",
            &mut append,
            append_cpu,
        ),
        (
            "AuditLog record or finish, one write",
            &mut audit,
            audit_cpu,
        ),
    ] {
        println!(
            "    {label:<38} p50 {:>8.1} µs   p99 {:>8.1} µs   CPU {:>6.1} µs",
            us(median(times)),
            us(percentile(times, 99)),
            us(cpu)
        );
    }
}

fn cpu_time() -> Duration {
    use nix::sys::resource::{UsageWho, getrusage};
    let usage = getrusage(UsageWho::RUSAGE_SELF).expect("getrusage");
    let time =
        |t: nix::sys::time::TimeVal| Duration::new(t.tv_sec() as u64, t.tv_usec() as u32 * 1000);
    time(usage.user_time()) + time(usage.system_time())
}

fn percentile(values: &mut [Duration], p: usize) -> Duration {
    if values.is_empty() {
        return Duration::ZERO;
    }
    values.sort();
    values[(values.len() * p / 100).min(values.len() - 1)]
}

fn median(values: &mut [Duration]) -> Duration {
    percentile(values, 50)
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-12)
}
