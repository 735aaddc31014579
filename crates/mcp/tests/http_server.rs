//! The engine as a Streamable HTTP server, with the official SDK clients as the agents: each
//! connects with a bearer token, lists and calls tools, receives logging and progress, cancels
//! a call, answers an elicitation, and is refused with a wrong token (401) or from a foreign
//! web origin (403). Every client runs in both of the server's answer modes (event streams
//! and plain JSON bodies).

mod common;
#[path = "common/served.rs"]
mod served;

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use switchboard_mcp::server::http::{HttpServer, HttpServerOptions, Identity, TokenCheck};
use tokio::process::Command;
use tokio::sync::mpsc;

use common::workspace_root;
use served::Seen;

const TOKEN: &str = "agent-token-7f3a";
const LIMIT: Duration = Duration::from_secs(60);

fn tokens() -> Arc<dyn TokenCheck> {
    Arc::new(|token: &str| (token == TOKEN).then(|| Identity::new("Claude Code")))
}

struct Agent {
    name: &'static str,
    command: fn() -> Command,
}

fn node_agent() -> Command {
    let mut command = Command::new("node");
    command.arg(workspace_root().join("tests/peers/node/gateway-client.mjs"));
    command
}

fn python_agent() -> Command {
    let mut command = Command::new(workspace_root().join(".tools/venv/bin/python"));
    command.arg(workspace_root().join("tests/peers/python/gateway_client.py"));
    command
}

const AGENTS: [Agent; 2] = [
    Agent {
        name: "TypeScript SDK",
        command: node_agent,
    },
    Agent {
        name: "Python SDK",
        command: python_agent,
    },
];

async fn run(agent: &Agent, json_response: bool) {
    let what = format!(
        "{} ({})",
        agent.name,
        if json_response {
            "JSON answers"
        } else {
            "event streams"
        }
    );
    let (seen_tx, mut seen) = mpsc::unbounded_channel();
    let options = HttpServerOptions {
        json_response,
        tokens: Some(tokens()),
        ..HttpServerOptions::default()
    };
    let server = HttpServer::bind(options, served::factory(seen_tx))
        .await
        .expect("bind");
    let output = tokio::time::timeout(
        LIMIT,
        (agent.command)()
            .args([server.url(), TOKEN.into()])
            .stdin(Stdio::null())
            .kill_on_drop(true)
            .output(),
    )
    .await
    .unwrap_or_else(|_| panic!("{what}: the agent did not finish within {LIMIT:?}"))
    .expect("the agent runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{what}: the agent failed: {stderr}"
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{what}: no report ({e}): {}\n{stderr}",
            String::from_utf8_lossy(&output.stdout)
        )
    });

    let said = |key: &str| report[key].as_str().unwrap_or_default().to_owned();
    assert!(
        said("unauthorized").contains("401"),
        "{what}: a wrong token: {}",
        said("unauthorized")
    );
    assert!(
        said("forbidden").contains("403"),
        "{what}: a foreign origin: {}",
        said("forbidden")
    );
    assert_eq!(
        report["tools"],
        serde_json::json!(["echo", "log", "count", "wait", "ask", "whoami"]),
        "{what}"
    );
    assert_eq!(said("echo"), "hello", "{what}");
    assert_eq!(
        report["logs"],
        serde_json::json!(["a line for the log"]),
        "{what}"
    );
    // With JSON answers, progress travels on the GET stream and may arrive after the answer,
    // when the SDKs drop it: only the event streams promise it (the `wait` call below shows
    // that it arrives in both modes).
    if !json_response {
        let progress: Vec<f64> =
            serde_json::from_value(report["progress"].clone()).unwrap_or_default();
        assert_eq!(progress, [1.0, 2.0, 3.0], "{what}");
    }
    assert_ne!(said("cancelled"), "not cancelled", "{what}");
    assert_eq!(said("elicited"), "accept: yes to Go ahead?", "{what}");
    assert_eq!(said("whoami"), "Claude Code", "{what}");

    // The cancellation reached the server (the call's work was dropped), and the agent ended
    // its session (DELETE) on leaving.
    for expected in [Seen::WaitCancelled, Seen::SessionEnded] {
        let next = tokio::time::timeout(LIMIT, seen.recv()).await;
        assert_eq!(
            next,
            Ok(Some(expected.clone())),
            "{what}: the server did not see {expected:?}"
        );
    }
    assert_eq!(server.session_count(), 0, "{what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sdk_clients_use_the_engine_as_a_streamable_http_server() {
    let mut runs = tokio::task::JoinSet::new();
    for agent in &AGENTS {
        for json_response in [false, true] {
            runs.spawn(run(agent, json_response));
        }
    }
    while let Some(run) = runs.join_next().await {
        if let Err(err) = run {
            std::panic::resume_unwind(err.into_panic());
        }
    }
}
