//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, `conformance
//! server --url`) judges the gateway as a server: Streamable HTTP on 127.0.0.1, an agent's
//! bearer token (given to the suite's requests by `tests/peers/node/with-bearer.mjs`, the
//! suite having no option for a header), the demo server behind it. A scenario passes only
//! with no failure and no warning in its `checks.json`.
//!
//! The scenarios that apply to a gateway are those about the protocol itself, which any
//! server must pass whatever it offers; they run here, one test each (`completion-complete`
//! asks about a prompt the gateway does not know and accepts an empty list of values).
//! Those that do not:
//!
//! - `tools-call-*`, `prompts-get-*`, `resources-read-*`, `resources-templates-read`,
//!   `json-schema-2020-12`, `elicitation-sep1034-defaults`, `elicitation-sep1330-enums`:
//!   they call the tools, prompts and resources of the suite's own "everything" server
//!   (`test_simple_text`, `test://static-text`, `test_simple_prompt`, ...). A gateway
//!   offers its servers' items, its tools and prompts named `server__name`: no server
//!   behind it can make those names appear. (Each fails with the gateway's "unknown tool",
//!   "unknown prompt" or "resource not found".)
//! - `server-sse-polling`: its tool is `test_reconnection`, as above; before calling it,
//!   it warns that the response's event stream starts with no priming event (an event id
//!   and empty data) and no `retry` field, which the 2025-11-25 revision recommends for
//!   resuming a stream. The engine's HTTP server does not offer resuming.
//! - `resources-subscribe`, `resources-unsubscribe`: the gateway does not offer
//!   subscriptions (it declares no `subscribe` capability).
//! - `server-stateless`, `caching`, `http-header-validation`,
//!   `http-custom-header-server-validation`, `sep-2164-resource-not-found`,
//!   `input-required-result-*`: the 2026-07-28 revision, which the gateway does not speak
//!   yet (it answers `initialize` in the newest stateful revision).
//! - `tasks-*`, `sep-2640-skills-*`: extensions the gateway does not offer.

#![allow(clippy::unwrap_used)]

mod common;
#[path = "../../../tests/support/conformance.rs"]
mod conformance;

use std::sync::Arc;

use common::*;
use conformance::scenarios;
use serde_json::json;
use switchboard_host::gateway::http_sessions;
use switchboard_host::secrets::Secrets;
use switchboard_mcp::server::http::{HttpServer, HttpServerOptions, Identity};

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
    let servers = json!({"demo": {"command": demo_server().display().to_string()}});
    let world = desk_on(
        servers,
        json!({}),
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
    conformance::judge(scenario, &output, results.path(), |_| false);
    gateway.shutdown().await;
    world.desk.shutdown().await;
}

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
}
