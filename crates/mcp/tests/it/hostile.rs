//! The engine against a server that misbehaves on purpose (`tests/peers/hostile`), over
//! stdio and Streamable HTTP.
//!
//! Every case of the table runs once, in a process of its own (this test binary started
//! again for [`one_case`]): its memory is measured from a clean start, and whatever a hung
//! case leaves running ends with it. One test per mode of the peer (`flood`, `huge_line`,
//! ...) runs its cases and checks, for each:
//!
//! - the calls end as a correct engine ends them: with a result, or a typed error a person
//!   understands, at once where the engine can know there will be no answer;
//! - the process's peak memory grows by less than a stated limit;
//! - a well-behaved server in the same process answers promptly while the hostile one
//!   misbehaves;
//! - the hostile connection closes in bounded time.
//!
//! Every wait has a generous bound so that a hang shows as a failure with its symptom; the
//! bounds are hang checks, not timing assertions. `cargo test --test it hostile:: -- --nocapture`
//! prints every case's figures.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use http_peers::{Output, Peer};
use serde_json::{Value, json};
use switchboard_mcp::client::{
    Client, ClientConfig, ClientError, ClientHandler, EraSetting, ServerNotification,
};
use switchboard_mcp::connection::{RequestError, RequestOptions};
use switchboard_mcp::transport::http::{self, HttpMode, HttpServer};
use switchboard_mcp::transport::stdio::{self, StdioServer};
use switchboard_mcp::transport::{LogLine, LogSink, TransportParts};
use switchboard_mcp::types::{CallToolResult, ContentBlock};
use tokio::task::JoinSet;

use crate::common;
use crate::common::http_peers;
use crate::common::{Log, Person, Script, args, first_text, rmcp_stdio, workspace_binary};

/// Every request's own timeout: a call the engine cannot end sooner ends by this.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a case's calls may take in all before they count as hung.
const CALLS_HANG: Duration = Duration::from_secs(25);
/// How long `close` may take before it counts as hung.
const CLOSE_HANG: Duration = Duration::from_secs(20);
/// How long the well-behaved server may take to answer before it counts as held up.
const NEIGHBOUR_HANG: Duration = Duration::from_secs(5);
/// How long the hostile server may take to start, and then to begin misbehaving.
const START_HANG: Duration = Duration::from_secs(30);
/// How much the peak memory may grow in a case, whatever the server sends (the huge cases
/// send 1 GiB): one message as large as the engine takes (64 MiB), and 32 MiB besides.
const MEMORY_LIMIT_KIB: u64 = 96 * 1024;
/// Growth at which a case is stopped, so that a runaway engine cannot exhaust the machine.
const MEMORY_STOP_KIB: u64 = 512 * 1024;
/// How long one case's process may run before it gives up, whatever hangs.
const CASE_HANG: Duration = Duration::from_secs(180);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Via {
    Stdio,
    /// Streamable HTTP, answers as JSON bodies unless the mode needs event streams.
    Http,
    /// Streamable HTTP, every answer an event stream (`--sse`).
    HttpEvents,
}

impl Via {
    fn name(self) -> &'static str {
        match self {
            Self::Stdio => "stdio",
            Self::Http => "HTTP",
            Self::HttpEvents => "HTTP event streams",
        }
    }
}

/// What the client does to meet the misbehaviour.
#[derive(Debug, Clone, Copy)]
enum Act {
    /// Tool calls, side by side.
    Calls(usize),
    /// Tool calls side by side, each with an argument of `bytes` bytes: more than a pipe
    /// and the engine's queues hold together.
    LargeCalls { count: usize, bytes: usize },
    /// Every page of `tools/list`.
    ListTools,
}

/// How a correct engine ends each call.
#[derive(Debug, Clone, Copy)]
enum Expect {
    Succeeds,
    /// No result, and nothing the engine could know before the request's own timeout: any
    /// typed error, the timeout included.
    NoResult,
    /// A typed error other than the timeout, as soon as the engine can know no answer will
    /// come, whose message contains one of these words (any message, if none are given).
    FailsAtOnce(&'static [&'static str]),
}

/// What else the case involves besides the calls' outcome.
#[derive(Debug, Clone, Copy)]
enum Evidence {
    Nothing,
    /// The calls are made once the flood reaches the client's handler.
    Notifications,
    /// Every request the client never declared was refused with -32601 (method not found),
    /// as the server recorded on stderr.
    Refusals,
}

struct Case {
    mode: &'static str,
    via: Via,
    act: Act,
    expect: Expect,
    evidence: Evidence,
}

/// The words a person looks for in "this answer is too large".
const TOO_LARGE: &[&str] = &["limit", "too large", "too long", "larger than"];

fn cases() -> Vec<Case> {
    use Via::*;
    let mut cases = Vec::new();
    let mut add = |mode, vias: &[Via], act, expect, evidence| {
        for &via in vias {
            cases.push(Case {
                mode,
                via,
                act,
                expect,
                evidence,
            });
        }
    };
    add(
        "flood",
        &[Stdio, Http],
        Act::Calls(1),
        Expect::Succeeds,
        Evidence::Notifications,
    );
    add(
        "huge-line",
        &[Stdio, Http, HttpEvents],
        Act::Calls(1),
        Expect::FailsAtOnce(TOO_LARGE),
        Evidence::Nothing,
    );
    // Over HTTP its answers are event streams: garbage sits between events.
    add(
        "garbage",
        &[Stdio, Http],
        Act::Calls(3),
        Expect::Succeeds,
        Evidence::Nothing,
    );
    add(
        "endless-cursors",
        &[Stdio, Http],
        Act::ListTools,
        Expect::FailsAtOnce(&["page"]),
        Evidence::Nothing,
    );
    add(
        "never-reads",
        &[Stdio, Http],
        Act::LargeCalls {
            count: 200,
            bytes: 64 * 1024,
        },
        Expect::NoResult,
        Evidence::Nothing,
    );
    add(
        "never-answers",
        &[Stdio, Http],
        Act::Calls(1),
        Expect::NoResult,
        Evidence::Nothing,
    );
    // A polling server: it works for a client that comes back with Last-Event-ID.
    add(
        "sse-one-event",
        &[Http],
        Act::Calls(1),
        Expect::Succeeds,
        Evidence::Nothing,
    );
    // On stdio an answer with a wrong id cannot be told from a late one; over HTTP the
    // answer to a POST is known to be the one.
    add(
        "wrong-ids",
        &[Stdio],
        Act::Calls(2),
        Expect::NoResult,
        Evidence::Nothing,
    );
    add(
        "wrong-ids",
        &[Http, HttpEvents],
        Act::Calls(2),
        Expect::FailsAtOnce(&[]),
        Evidence::Nothing,
    );
    add(
        "crash-mid-response",
        &[Stdio],
        Act::Calls(1),
        Expect::FailsAtOnce(&["exit"]),
        Evidence::Nothing,
    );
    add(
        "crash-mid-response",
        &[Http, HttpEvents],
        Act::Calls(1),
        Expect::FailsAtOnce(&[]),
        Evidence::Nothing,
    );
    add(
        "undeclared-requests",
        &[Stdio, Http],
        Act::Calls(1),
        Expect::Succeeds,
        Evidence::Refusals,
    );
    cases
}

/// One test per mode of the peer, named after it, so that each can be run alone.
macro_rules! modes {
    ($($test:ident: $mode:literal),* $(,)?) => {$(
        #[test]
        fn $test() {
            assert_mode($mode);
        }
    )*};
}

modes! {
    flood: "flood",
    huge_line: "huge-line",
    garbage: "garbage",
    endless_cursors: "endless-cursors",
    never_reads: "never-reads",
    never_answers: "never-answers",
    sse_one_event: "sse-one-event",
    wrong_ids: "wrong-ids",
    crash_mid_response: "crash-mid-response",
    undeclared_requests: "undeclared-requests",
}

/// Runs every case of the mode, each in a process of its own, and checks its properties.
fn assert_mode(mode: &str) {
    let mut failures = Vec::new();
    for (index, case) in cases().iter().enumerate().filter(|(_, c)| c.mode == mode) {
        let r = run_in_own_process(index, case);
        eprintln!(
            "{}\n  outcome:   {}\n  memory:    {}\n  neighbour: {}\n  close:     {}",
            r.case,
            said(&r.outcome),
            said(&r.memory),
            said(&r.neighbour),
            said(&r.close)
        );
        for (property, verdict) in [
            ("a clear outcome", &r.outcome),
            ("bounded memory", &r.memory),
            ("a working neighbour", &r.neighbour),
            ("a bounded close", &r.close),
        ] {
            if let Err(why) = verdict {
                failures.push(format!("{} lacks {property}: {why}", r.case));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

/// What was seen, or what went wrong.
type Verdict = Result<String, String>;

struct Report {
    case: String,
    outcome: Verdict,
    memory: Verdict,
    neighbour: Verdict,
    close: Verdict,
}

fn said(verdict: &Verdict) -> String {
    match verdict {
        Ok(seen) => format!("ok: {seen}"),
        Err(wrong) => format!("FAIL: {wrong}"),
    }
}

/// Names the case [`one_case`] runs: its place in the table.
const CASE_VAR: &str = "HOSTILE_CASE";
/// Starts the line on which [`one_case`] gives its report, as JSON.
const REPORT_PREFIX: &str = "hostile-report: ";

/// Runs one case of the table in this process and prints its report; [`assert_mode`]
/// starts this test binary again for each case, naming it in `HOSTILE_CASE`.
#[test]
#[ignore = "one case of the table in a process of its own, started by the property tests"]
fn one_case() {
    let Ok(index) = std::env::var(CASE_VAR) else {
        return;
    };
    let case = index
        .parse::<usize>()
        .ok()
        .and_then(|i| cases().into_iter().nth(i))
        .expect("HOSTILE_CASE names a case of the table");
    let name = case.name();
    // The last resort: a case that hangs beyond every bound still reports, and ends.
    std::thread::spawn(move || {
        std::thread::sleep(CASE_HANG);
        let why = format!("not seen: the case had not ended after {CASE_HANG:?}");
        println!("{REPORT_PREFIX}{}", Report::unseen(name, why).to_json());
        std::process::exit(1);
    });
    println!("{REPORT_PREFIX}{}", run_alone(&case).to_json());
}

fn run_in_own_process(index: usize, case: &Case) -> Report {
    let output = std::process::Command::new(std::env::current_exe().expect("this test binary"))
        .args([
            "hostile::one_case",
            "--exact",
            "--ignored",
            "--nocapture",
            "--quiet",
        ])
        .env(CASE_VAR, index.to_string())
        .output()
        .expect("start this test binary for one case");
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(REPORT_PREFIX))
        .and_then(|json| Report::from_json(&serde_json::from_str(json).ok()?))
        .unwrap_or_else(|| {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
            let why = format!(
                "the case's process ended ({}) without a report; its stderr ends: {}",
                output.status,
                tail.join(" | ")
            );
            Report::unseen(case.name(), why)
        })
}

impl Report {
    /// A case whose properties could not be seen, for one reason.
    fn unseen(case: String, why: String) -> Self {
        let unseen = Err(why);
        Self {
            case,
            outcome: unseen.clone(),
            memory: unseen.clone(),
            neighbour: unseen.clone(),
            close: unseen,
        }
    }

    fn to_json(&self) -> Value {
        let verdict = |v: &Verdict| match v {
            Ok(seen) => json!({"ok": seen}),
            Err(wrong) => json!({"fail": wrong}),
        };
        json!({
            "case": self.case,
            "outcome": verdict(&self.outcome),
            "memory": verdict(&self.memory),
            "neighbour": verdict(&self.neighbour),
            "close": verdict(&self.close),
        })
    }

    fn from_json(report: &Value) -> Option<Self> {
        let verdict = |name: &str| -> Option<Verdict> {
            let v = &report[name];
            match (v["ok"].as_str(), v["fail"].as_str()) {
                (Some(seen), _) => Some(Ok(seen.to_owned())),
                (_, Some(wrong)) => Some(Err(wrong.to_owned())),
                _ => None,
            }
        };
        Some(Self {
            case: report["case"].as_str()?.to_owned(),
            outcome: verdict("outcome")?,
            memory: verdict("memory")?,
            neighbour: verdict("neighbour")?,
            close: verdict("close")?,
        })
    }
}

impl Case {
    fn name(&self) -> String {
        format!("{} over {}", self.mode, self.via.name())
    }
}

fn run_alone(case: &Case) -> Report {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let report = runtime.block_on(run(case));
    runtime.shutdown_timeout(Duration::from_secs(5));
    report
}

async fn run(case: &Case) -> Report {
    let neighbour = common::connect(
        &rmcp_stdio(),
        Person::new(Script::default()),
        &Log::default(),
    )
    .await;
    let watch = MemoryWatch::start();
    let observed = tokio::select! {
        observed = observe(case, &neighbour) => Some(observed),
        () = watch.runaway() => None,
    };
    let memory = watch.finish().verdict();
    neighbour.close().await;
    let (outcome, neighbour, close) = observed.unwrap_or_else(|| {
        let stopped = Err(format!(
            "not seen: memory grew past {} MiB and the case was stopped",
            MEMORY_STOP_KIB / 1024
        ));
        (stopped.clone(), stopped.clone(), stopped)
    });
    Report {
        case: case.name(),
        outcome,
        memory,
        neighbour,
        close,
    }
}

/// Meets the misbehaviour: the calls, the neighbour's answer meanwhile, then the close.
async fn observe(case: &Case, neighbour: &Client) -> (Verdict, Verdict, Verdict) {
    let hostile = match Hostile::start(case).await {
        Ok(hostile) => hostile,
        Err(why) => {
            let failed = Err(format!("not seen: {why}"));
            return (Err(why), failed.clone(), failed);
        }
    };
    if let Err(why) = hostile.prepare(case.evidence).await {
        let failed = Err(format!("not seen: {why}"));
        return (Err(why), failed, closes(&hostile.client).await);
    }
    let calls = tokio::spawn(act(hostile.client.clone(), case.act));
    let began = hostile
        .stderr
        .wait_for(START_HANG, |l| l.contains("misbehaving").then_some(()))
        .await
        .is_some();
    let neighbour = if began {
        neighbour_answers(neighbour).await
    } else {
        Err("not seen: the server never began to misbehave".into())
    };
    let outcome = match tokio::time::timeout(CALLS_HANG, calls).await {
        Ok(Ok(outcomes)) => match judge(case.expect, &outcomes) {
            Ok(seen) => hostile.check(case.evidence).await.map(|()| seen),
            Err(why) => Err(hostile.with_log(why)),
        },
        Ok(Err(panicked)) => Err(format!("the calls panicked: {panicked}")),
        Err(_) => Err(hostile.with_log(format!(
            "hang: the calls had not ended after {CALLS_HANG:?} (each request's own timeout is {REQUEST_TIMEOUT:?})"
        ))),
    };
    let close = closes(&hostile.client).await;
    (outcome, neighbour, close)
}

/// A connection to a hostile peer, and what it shows.
struct Hostile {
    client: Client,
    handler: Arc<Counting>,
    /// What the peer wrote on stderr.
    stderr: Arc<Output>,
    /// What the engine logged about the peer's output.
    protocol: Arc<Output>,
    /// The HTTP peer's process, killed when this is dropped.
    _http: Option<Peer>,
}

impl Hostile {
    async fn start(case: &Case) -> Result<Self, String> {
        let protocol = Arc::new(Output::default());
        let (transport, stderr, http) = match case.via {
            Via::Stdio => {
                let stderr = Arc::new(Output::default());
                let server = StdioServer::new(workspace_binary("hostile-peer")).args([case.mode]);
                let transport = stdio::spawn(&server, log_into(&stderr, &protocol))
                    .map_err(|e| e.to_string())?;
                (transport, stderr, None)
            }
            Via::Http | Via::HttpEvents => {
                let peer = Peer::hostile(case.mode, case.via == Via::HttpEvents).await;
                let transport = http_transport(&peer.url, &protocol)?;
                (transport, peer.stderr.clone(), Some(peer))
            }
        };
        let handler = Arc::new(Counting::default());
        // A client that declares no capabilities at all.
        let mut config = ClientConfig::new("switchboard-tests", "0.0.0");
        config.request_timeout = REQUEST_TIMEOUT;
        // The hostile peer misbehaves in the stateful era.
        config.era = EraSetting::Session;
        let client = tokio::time::timeout(
            START_HANG,
            Client::connect(transport, handler.clone(), config),
        )
        .await
        .map_err(|_| format!("the handshake had not ended after {START_HANG:?}"))?
        .map_err(|e| format!("the handshake failed: {e}"))?;
        Ok(Self {
            client,
            handler,
            stderr,
            protocol,
            _http: http,
        })
    }

    /// A symptom, with the last thing the engine logged about the peer's output.
    fn with_log(&self, symptom: String) -> String {
        match self.protocol.lines().last() {
            Some(line) => format!("{symptom} [engine log: {line}]"),
            None => symptom,
        }
    }

    /// Waits, before the calls, for what they must meet.
    async fn prepare(&self, evidence: Evidence) -> Result<(), String> {
        match evidence {
            Evidence::Notifications => self.handler.wait_for(FLOOD_SEEN).await,
            Evidence::Nothing | Evidence::Refusals => Ok(()),
        }
    }

    /// Checks, after the calls, what the server recorded.
    async fn check(&self, evidence: Evidence) -> Result<(), String> {
        match evidence {
            Evidence::Nothing | Evidence::Notifications => Ok(()),
            Evidence::Refusals => {
                for method in [
                    "sampling/createMessage",
                    "elicitation/create",
                    "roots/list",
                    "hostile/unknown",
                ] {
                    let prefix = format!("hostile-peer: answer to {method}: ");
                    let answer = self
                        .stderr
                        .wait_for(START_HANG, |l| l.strip_prefix(&prefix).map(str::to_owned))
                        .await
                        .ok_or_else(|| format!("the server recorded no answer to {method}"))?;
                    let code = serde_json::from_str::<Value>(&answer)
                        .ok()
                        .and_then(|a| a["error"]["code"].as_i64());
                    if code != Some(-32601) {
                        return Err(format!(
                            "{method} was answered {answer}, not refused with -32601"
                        ));
                    }
                }
                Ok(())
            }
        }
    }
}

fn http_transport(url: &str, protocol: &Arc<Output>) -> Result<TransportParts, String> {
    let mut server = HttpServer::new(url);
    server.mode = HttpMode::StreamableHttp;
    let (transport, _) =
        http::connect(&server, log_into(&Arc::default(), protocol)).map_err(|e| e.to_string())?;
    Ok(transport)
}

/// Keeps the server's stderr and the engine's complaints apart.
fn log_into(stderr: &Arc<Output>, protocol: &Arc<Output>) -> LogSink {
    let (stderr, protocol) = (stderr.clone(), protocol.clone());
    Arc::new(move |line| match line {
        LogLine::Stderr(line) => stderr.push(line),
        LogLine::Protocol(line) => protocol.push(line),
    })
}

/// Counts notifications instead of keeping them: a flood must not fill the test's memory.
#[derive(Default)]
struct Counting {
    notifications: AtomicU64,
    arrived: tokio::sync::Notify,
}

/// Notifications of the flood the client has handled before the calls are made.
const FLOOD_SEEN: u64 = 1000;

impl ClientHandler for Counting {
    fn notification(&self, _: ServerNotification) {
        self.notifications.fetch_add(1, Ordering::Relaxed);
        self.arrived.notify_waiters();
    }
}

impl Counting {
    async fn wait_for(&self, count: u64) -> Result<(), String> {
        let deadline = tokio::time::Instant::now() + START_HANG;
        loop {
            let arrived = self.arrived.notified();
            let seen = self.notifications.load(Ordering::Relaxed);
            if seen >= count {
                return Ok(());
            }
            if tokio::time::timeout_at(deadline, arrived).await.is_err() {
                return Err(format!(
                    "{seen} notifications of the flood reached the client within {START_HANG:?}"
                ));
            }
        }
    }
}

type Outcome = (Result<String, ClientError>, Duration);

async fn act(client: Client, act: Act) -> Vec<Outcome> {
    let (count, argument) = match act {
        Act::ListTools => {
            let started = Instant::now();
            let listed = client.list_tools().await;
            let listed = listed.map(|tools| format!("{} tools", tools.len()));
            return vec![(listed, started.elapsed())];
        }
        Act::Calls(count) => (count, None),
        Act::LargeCalls { count, bytes } => (count, Some("x".repeat(bytes))),
    };
    let options = RequestOptions {
        timeout: REQUEST_TIMEOUT,
        ..RequestOptions::default()
    };
    let mut calls = JoinSet::new();
    for _ in 0..count {
        let (client, options) = (client.clone(), options.clone());
        let arguments = argument.as_ref().and_then(|a| args(json!({"data": a})));
        calls.spawn(async move {
            let started = Instant::now();
            let result = client.call_tool("poke", arguments, options).await;
            (result.map(|r| text_of(&r)), started.elapsed())
        });
    }
    calls.join_all().await
}

fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .first()
        .and_then(ContentBlock::as_text)
        .unwrap_or("(no text)")
        .to_owned()
}

/// Every call against the expectation; what the first call gave, or the first one wrong.
fn judge(expect: Expect, outcomes: &[Outcome]) -> Verdict {
    let mut first = None;
    for (outcome, took) in outcomes {
        let seen = match outcome {
            Ok(text) => format!("succeeded after {took:.1?} ({text:?})"),
            Err(e) => format!("failed after {took:.1?}: {e}"),
        };
        if let Err(why) = expect.check(outcome) {
            return Err(format!("{seen}; {why}"));
        }
        first.get_or_insert(seen);
    }
    let first = first.unwrap_or_default();
    Ok(match outcomes.len() {
        1 => first,
        n => format!("{n} calls, the first {first}"),
    })
}

impl Expect {
    fn check(self, outcome: &Result<String, ClientError>) -> Result<(), String> {
        match (self, outcome) {
            (Self::Succeeds, Ok(_)) | (Self::NoResult, Err(_)) => Ok(()),
            (Self::Succeeds, Err(_)) => Err("a correct engine gets the result".into()),
            (Self::NoResult | Self::FailsAtOnce(_), Ok(_)) => {
                Err("a result from a server that sent none".into())
            }
            (Self::FailsAtOnce(_), Err(ClientError::Request(RequestError::Timeout { .. }))) => {
                Err("a correct engine fails this at once, not by the timeout".into())
            }
            (Self::FailsAtOnce(words), Err(e)) => {
                let message = e.to_string().to_lowercase();
                if words.is_empty() || words.iter().any(|w| message.contains(w)) {
                    Ok(())
                } else {
                    Err(format!("the message says none of {words:?}"))
                }
            }
        }
    }
}

async fn neighbour_answers(neighbour: &Client) -> Verdict {
    let started = Instant::now();
    let call = neighbour.call_tool(
        "echo",
        args(json!({"text": "still here"})),
        neighbour.request_options(),
    );
    match tokio::time::timeout(NEIGHBOUR_HANG, call).await {
        Ok(Ok(result)) if first_text(&result) == "still here" => {
            Ok(format!("answered in {:.1?}", started.elapsed()))
        }
        Ok(Ok(result)) => Err(format!("answered {result:?}")),
        Ok(Err(e)) => Err(format!("failed: {e}")),
        Err(_) => Err(format!("held up: no answer within {NEIGHBOUR_HANG:?}")),
    }
}

async fn closes(client: &Client) -> Verdict {
    let started = Instant::now();
    match tokio::time::timeout(CLOSE_HANG, client.close()).await {
        Ok(reason) => Ok(format!("closed in {:.1?} ({reason})", started.elapsed())),
        Err(_) => Err(format!("hang: close had not finished after {CLOSE_HANG:?}")),
    }
}

/// This process's memory during a case: the resident size at the start, and the peak
/// since, from the kernel's high-water mark (reset at the start) and from samples taken by a
/// thread of its own, which also calls a runaway.
struct MemoryWatch {
    baseline_kib: u64,
    sampled_peak_kib: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    runaway: Arc<tokio::sync::Notify>,
    sampler: std::thread::JoinHandle<()>,
}

struct Memory {
    baseline_kib: u64,
    peak_growth_kib: u64,
}

impl MemoryWatch {
    fn start() -> Self {
        // "5" resets the high-water mark to the current size; where that is not allowed,
        // the samples alone give the peak.
        let _ = std::fs::write("/proc/self/clear_refs", "5");
        let baseline_kib = status_kib("VmRSS");
        let sampled_peak_kib = Arc::new(AtomicU64::new(baseline_kib));
        let done = Arc::new(AtomicBool::new(false));
        let runaway = Arc::new(tokio::sync::Notify::new());
        let sampler = {
            let (peak, done, runaway) = (sampled_peak_kib.clone(), done.clone(), runaway.clone());
            std::thread::spawn(move || {
                let mut called = false;
                while !done.load(Ordering::Relaxed) {
                    let now = status_kib("VmRSS");
                    peak.fetch_max(now, Ordering::Relaxed);
                    if !called && now > baseline_kib + MEMORY_STOP_KIB {
                        called = true;
                        runaway.notify_one();
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            })
        };
        Self {
            baseline_kib,
            sampled_peak_kib,
            done,
            runaway,
            sampler,
        }
    }

    async fn runaway(&self) {
        self.runaway.notified().await;
    }

    fn finish(self) -> Memory {
        self.done.store(true, Ordering::Relaxed);
        let _ = self.sampler.join();
        let peak = status_kib("VmHWM").max(self.sampled_peak_kib.load(Ordering::Relaxed));
        Memory {
            baseline_kib: self.baseline_kib,
            peak_growth_kib: peak.saturating_sub(self.baseline_kib),
        }
    }
}

impl Memory {
    fn verdict(&self) -> Verdict {
        let seen = format!(
            "peak grew by {:.1} MiB (from {:.1} MiB resident; limit {} MiB)",
            self.peak_growth_kib as f64 / 1024.0,
            self.baseline_kib as f64 / 1024.0,
            MEMORY_LIMIT_KIB / 1024
        );
        if self.peak_growth_kib < MEMORY_LIMIT_KIB {
            Ok(seen)
        } else {
            Err(seen)
        }
    }
}

/// A field of `/proc/self/status`, in KiB.
fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"))
}
