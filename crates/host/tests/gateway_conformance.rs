//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, `conformance
//! server --url`) judges the gateway as a server: Streamable HTTP on 127.0.0.1, an agent's
//! bearer token (given to the suite's requests by `tests/peers/node/with-bearer.mjs`, the
//! suite having no option for a header), the demo server behind it and a server written
//! with the TypeScript SDK for the suite's resources and marked tool
//! (`tests/peers/node/conformance-server.mjs`). A scenario passes only with no failure and
//! no warning in its `checks.json`.
//!
//! The scenarios that apply to a gateway are those about the protocol itself, which any
//! server must pass whatever it offers, and those that read a resource by its URI or find
//! a tool by its marks, since the gateway keeps its servers' resource URIs and input
//! schemas as they are; they run here, one test each (`completion-complete` asks about a
//! prompt the gateway does not know and accepts an empty list of values), in the suite's
//! default revision and, for those of the stateless one, in 2026-07-28 (`stateless_*`).
//! The agent's calls and reads of both servers are allowed by standing rules: the suite
//! cannot answer the person's dialog. Those that do not apply:
//!
//! - `tools-call-*`, `prompts-get-*`, `json-schema-2020-12`, `elicitation-sep1034-defaults`,
//!   `elicitation-sep1330-enums`, `input-required-result-*`: they call the tools and
//!   prompts of the suite's own "everything" server by name (`test_simple_text`,
//!   `test_simple_prompt`, `test_input_required_result_elicitation`, ...). A gateway offers
//!   its servers' tools and prompts named `server__name`: no server behind it can make
//!   those names appear. (Each fails with the gateway's "unknown tool" or "unknown
//!   prompt".) For the same reason `server-stateless` runs without the checks that call
//!   its diagnostic tools (see [`NEEDS_THE_SUITES_TOOLS`]).
//! - `server-sse-polling`: its tool is `test_reconnection`, as above; before calling it,
//!   it warns that the response's event stream starts with no priming event (an event id
//!   and empty data) and no `retry` field, which the 2025-11-25 revision recommends for
//!   resuming a stream. The engine's HTTP server does not offer resuming.
//! - `tasks-*`, `sep-2640-skills-*`: extensions the gateway does not offer.

#![allow(clippy::unwrap_used)]

mod common;

use std::sync::Arc;

use common::*;
use serde_json::json;
use switchboard_host::gateway::http_sessions;
use switchboard_host::secrets::Secrets;
use switchboard_mcp::server::http::{HttpServer, HttpServerOptions, Identity};
use switchboard_test_support::conformance::{self, scenarios};

const AGENT: &str = "conformance";
const TOKEN: &str = "conformance-token";

/// Runs `scenario` of the suite against the gateway, on a runtime of its own.
fn run_scenario(scenario: &str, revision: Option<&str>) {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(judge_gateway(scenario, revision));
}

async fn judge_gateway(scenario: &str, revision: Option<&str>) {
    let (peer, peer_allowed) = conformance_peer("peer");
    let servers = json!({
        "demo": {"command": demo_server().display().to_string()},
        "peer": peer,
    });
    // The suite cannot answer the person's dialog: the agent's calls and reads of both
    // servers are allowed by standing rules, as the person would have given them.
    let rules: Vec<_> = [demo_allowed(), peer_allowed]
        .into_iter()
        .flat_map(|allowed| given_to_agent(allowed, AGENT))
        .collect();
    let world = desk_on(
        servers,
        json!({"toolRules": rules}),
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

    let results = tempfile::tempdir().unwrap();
    let preload = conformance::node_peers().join("with-bearer.mjs");
    let url = gateway.url();
    let suite = conformance::command(
        Some(&preload),
        &["server", "--url", &url],
        scenario,
        revision,
        results.path(),
    );
    let output = tokio::process::Command::from(suite)
        .env("MCP_BEARER_URL", &url)
        .env("MCP_BEARER_TOKEN", TOKEN)
        .kill_on_drop(true)
        .output()
        .await
        .expect("run the conformance suite");
    let inapplicable = |check: &serde_json::Value| {
        scenario == "server-stateless" && NEEDS_THE_SUITES_TOOLS.iter().any(|id| check["id"] == *id)
    };
    conformance::judge(scenario, &output, results.path(), inapplicable);
    gateway.shutdown().await;
    world.desk.shutdown().await;
}

/// The checks of `server-stateless` that call the suite's own diagnostic tools
/// (`test_missing_capability`, `test_streaming_elicitation`, `test_logging_tool`,
/// `test_trigger_tool_change`, `test_trigger_prompt_change`), which no server behind a
/// gateway can offer under those names; the scenario's other checks must pass.
const NEEDS_THE_SUITES_TOOLS: [&str; 6] = [
    "sep-2575-server-rejects-undeclared-capability",
    "sep-2575-missing-capability-http-400",
    "sep-2575-http-server-no-independent-requests-on-stream",
    "sep-2575-server-no-log-without-loglevel",
    "sep-2575-server-sends-prompts-list-changed-on-subscription",
    "sep-2575-server-sends-tools-list-changed-on-subscription",
];

scenarios! {
    run_scenario;

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
    resources_read_text: "resources-read-text";
    resources_read_binary: "resources-read-binary";
    resources_templates_read: "resources-templates-read";
    resources_subscribe: "resources-subscribe";
    resources_unsubscribe: "resources-unsubscribe";
    stateless_server: "server-stateless" at "2026-07-28";
    stateless_caching: "caching" at "2026-07-28";
    stateless_http_header_validation: "http-header-validation" at "2026-07-28";
    stateless_resource_not_found: "sep-2164-resource-not-found" at "2026-07-28";
    stateless_completion_complete: "completion-complete" at "2026-07-28";
    stateless_tools_list: "tools-list" at "2026-07-28";
    stateless_resources_list: "resources-list" at "2026-07-28";
    stateless_prompts_list: "prompts-list" at "2026-07-28";
    stateless_dns_rebinding_protection: "dns-rebinding-protection" at "2026-07-28";
    stateless_sse_multiple_streams: "server-sse-multiple-streams" at "2026-07-28";
    stateless_http_custom_header_validation: "http-custom-header-server-validation" at "2026-07-28";
    stateless_resources_read_text: "resources-read-text" at "2026-07-28";
    stateless_resources_read_binary: "resources-read-binary" at "2026-07-28";
    stateless_resources_templates_read: "resources-templates-read" at "2026-07-28";
}
