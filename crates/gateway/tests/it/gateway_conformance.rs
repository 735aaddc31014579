//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, `conformance
//! server --url`) judges the gateway as a server: Streamable HTTP on 127.0.0.1, an agent's
//! bearer token (given to the suite's requests by `tests/peers/node/with-bearer.mjs`, the
//! suite having no option for a header), the demo server behind it and a server written
//! with the TypeScript SDK for the suite's resources, its marked tool, the tools and
//! prompts of its reference server and those of its `input-required-result-*` scenarios
//! (`tests/peers/node/conformance-server.mjs`). A scenario passes only with no failure and
//! no warning in its `checks.json`, and with as many verdicts as it gives when it runs to
//! its end (the number after `=>`).
//!
//! For each revision the gateway speaks, the tests are the scenarios the suite requires at
//! it (its frozen requirement set for 2025-11-25 and 2026-07-28, every scenario it lists
//! for the earlier ones), one test each, run at that revision's wire;
//! [`each_revision_runs_exactly_what_the_suite_requires`] fails when the suite's list and
//! this one part. The scenarios that call tools and prompts by the names the suite gives
//! them ([`CALL_THE_SUITES_NAMES`]) find them as the server behind the gateway that offers
//! them names them ([`Naming::bare`], which only tests can ask for; the person's gateway
//! names every tool `server__name`). The agent's calls and reads of both servers are
//! allowed by standing rules, and the agent may answer its servers' sampling and forms: the
//! suite cannot answer the person's dialogs.
//!
//! Every required scenario passes, `server-stateless` with every check: the server behind
//! offers the diagnostic tools it calls, so a server's refusal for a capability the agent
//! did not declare (-32021), its questions, its log messages and its changed lists are
//! judged as the agent meets them through the gateway. Also run, beyond the requirements:
//! `server-session-lifecycle` (added after 2025-11-25 was frozen), `json-schema-2020-12`
//! (pending; a tool's 2020-12 input schema reaches the agent keyword for keyword) and in
//! 2026-07-28 the pending `http-header-validation` and `http-custom-header-server-validation`.
//! Not run: `server-sse-polling` (pending; it warns that a response's event stream starts
//! with no priming event, for resuming a stream, which the engine's HTTP server does not
//! offer). The tasks extension's scenarios (`tasks-*`) are run too, at 2026-07-28, in front
//! of a server of the test's own ([`crate::task_fixtures`]); see [`tasks_extension`].

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use serde_json::json;
use switchboard_core::config::AgentAnswers;
use switchboard_core::secrets::Secrets;
use switchboard_gateway::{Naming, http_sessions_named};
use switchboard_mcp::ProtocolVersion;
use switchboard_mcp::server::http::{HttpServer, HttpServerOptions, Identity};
use switchboard_test_support::conformance::{self, Role, revision};

use crate::common::*;
use crate::task_fixtures;

const AGENT: &str = "conformance";
const TOKEN: &str = "conformance-token";

/// Runs `scenario` of the suite against the gateway, on a runtime of its own.
fn run_scenario(scenario: &str, revision: &str, checks: usize) {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(judge_gateway(scenario, revision, checks));
}

async fn judge_gateway(scenario: &str, revision: &str, checks: usize) {
    // The tasks extension's scenarios call the tools of a server of the test's own; the
    // others, those of the TypeScript SDK's.
    let fixtures = match scenario.starts_with("tasks-") {
        true => Some(task_fixtures::serve().await),
        false => None,
    };
    let (peer, peer_allowed) = match &fixtures {
        Some(fixtures) => url_peer("peer", &fixtures.url()),
        None => conformance_peer("peer"),
    };
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
    world.desk.agents().save(AGENT, None).await.unwrap();
    // Nor can it answer the person's dialogs for a server's sampling and forms: the person
    // let the agent answer them, as the `input-required-result-*` scenarios expect it to.
    let answers = AgentAnswers {
        sampling: true,
        elicitation: true,
    };
    world
        .desk
        .agents()
        .set_answers(AGENT, answers)
        .await
        .unwrap();
    // The gateway's endpoint as `gateway::http::listen` makes it, with the agent's token
    // checked here rather than read from the keyring.
    let tokens = |token: &str| (token == TOKEN).then(|| Identity::new(AGENT));
    let options = HttpServerOptions {
        tokens: Some(Arc::new(tokens)),
        ..HttpServerOptions::default()
    };
    // The scenarios that call the suite's tools by name find those of "peer" as it names
    // them; the others see every tool as the person's gateway names it.
    let naming = if CALL_THE_SUITES_NAMES
        .iter()
        .any(|prefix| scenario.starts_with(prefix))
    {
        Naming::bare("peer")
    } else {
        Naming::prefixed()
    };
    let sessions = http_sessions_named(&world.desk.agents(), naming);
    let gateway = HttpServer::bind(options, Arc::new(sessions)).await.unwrap();

    let results = tempfile::tempdir().unwrap();
    let preload = conformance::node_peers().join("with-bearer.mjs");
    let url = gateway.url();
    // An extension's scenarios are run at the revision asked for only when forced.
    let suite = conformance::command(
        Some(&preload),
        &["server", "--url", &url, "--force"],
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
    conformance::judge(scenario, &output, results.path(), checks, |_| false);
    gateway.shutdown().await;
    world.desk.shutdown().await;
    if let Some(fixtures) = fixtures {
        fixtures.shutdown().await;
    }
}

/// The scenarios that call the tools and prompts of the suite's reference server (and its
/// diagnostic tools) by the names it gives them, which "peer" offers.
const CALL_THE_SUITES_NAMES: [&str; 7] = [
    "input-required-result-",
    "tools-call-",
    "prompts-get-",
    "elicitation-",
    "server-stateless",
    "json-schema-",
    "tasks-",
];

#[test]
fn each_revision_runs_exactly_what_the_suite_requires() {
    let ours: [(&str, &[&str]); 4] = [
        ("2026-07-28", at_2026_07_28::REQUIRED),
        ("2025-11-25", at_2025_11_25::REQUIRED),
        ("2025-06-18", at_2025_06_18::REQUIRED),
        ("2025-03-26", at_2025_03_26::REQUIRED),
    ];
    let revisions: Vec<&str> = ProtocolVersion::NEWEST_FIRST
        .iter()
        .map(|v| v.as_str())
        .collect();
    conformance::assert_runs_what_is_required(Role::Server, &ours, &revisions);
}

mod at_2026_07_28 {
    use super::*;

    revision! {
        run_scenario, "2026-07-28";
        required {
            server_stateless: "server-stateless" => 30;
            completion_complete: "completion-complete" => 2;
            tools_list: "tools-list" => 4;
            server_sse_multiple_streams: "server-sse-multiple-streams" => 1;
            resources_list: "resources-list" => 2;
            resources_read_text: "resources-read-text" => 2;
            resources_read_binary: "resources-read-binary" => 2;
            resources_templates_read: "resources-templates-read" => 2;
            resource_not_found: "sep-2164-resource-not-found" => 4;
            prompts_list: "prompts-list" => 2;
            dns_rebinding_protection: "dns-rebinding-protection" => 2;
            caching: "caching" => 8;
            input_required_missing_input_response: "input-required-result-missing-input-response" => 2;
            input_required_result_type: "input-required-result-result-type" => 2;
            input_required_unsupported_methods: "input-required-result-unsupported-methods" => 2;
            input_required_tampered_state: "input-required-result-tampered-state" => 2;
            input_required_basic_elicitation: "input-required-result-basic-elicitation" => 3;
            input_required_basic_sampling: "input-required-result-basic-sampling" => 3;
            input_required_basic_list_roots: "input-required-result-basic-list-roots" => 3;
            input_required_request_state: "input-required-result-request-state" => 3;
            input_required_multiple_input_requests: "input-required-result-multiple-input-requests" => 3;
            input_required_multi_round: "input-required-result-multi-round" => 4;
            input_required_capability_check: "input-required-result-capability-check" => 2;
            input_required_ignore_extra_params: "input-required-result-ignore-extra-params" => 2;
            input_required_validate_input: "input-required-result-validate-input" => 3;
            input_required_non_tool_request: "input-required-result-non-tool-request" => 3;
            tools_call_simple_text: "tools-call-simple-text" => 2;
            tools_call_image: "tools-call-image" => 2;
            tools_call_audio: "tools-call-audio" => 2;
            tools_call_embedded_resource: "tools-call-embedded-resource" => 2;
            tools_call_mixed_content: "tools-call-mixed-content" => 2;
            tools_call_error: "tools-call-error" => 2;
            tools_call_with_progress: "tools-call-with-progress" => 2;
            prompts_get_simple: "prompts-get-simple" => 2;
            prompts_get_with_args: "prompts-get-with-args" => 2;
            prompts_get_embedded_resource: "prompts-get-embedded-resource" => 2;
            prompts_get_with_image: "prompts-get-with-image" => 2;
        }
        beyond {
            json_schema_2020_12: "json-schema-2020-12" => 8;
            http_header_validation: "http-header-validation" => 14;
            http_custom_header_validation: "http-custom-header-server-validation" => 10;
        }
    }
}

mod at_2025_11_25 {
    use super::*;

    revision! {
        run_scenario, "2025-11-25";
        required {
            server_initialize: "server-initialize" => 3;
            logging_set_level: "logging-set-level" => 2;
            ping: "ping" => 2;
            completion_complete: "completion-complete" => 2;
            tools_list: "tools-list" => 3;
            server_sse_multiple_streams: "server-sse-multiple-streams" => 2;
            resources_list: "resources-list" => 2;
            resources_read_text: "resources-read-text" => 2;
            resources_read_binary: "resources-read-binary" => 2;
            resources_templates_read: "resources-templates-read" => 2;
            resources_subscribe: "resources-subscribe" => 2;
            resources_unsubscribe: "resources-unsubscribe" => 2;
            prompts_list: "prompts-list" => 2;
            dns_rebinding_protection: "dns-rebinding-protection" => 2;
            tools_call_simple_text: "tools-call-simple-text" => 2;
            tools_call_image: "tools-call-image" => 2;
            tools_call_audio: "tools-call-audio" => 2;
            tools_call_embedded_resource: "tools-call-embedded-resource" => 2;
            tools_call_mixed_content: "tools-call-mixed-content" => 2;
            tools_call_error: "tools-call-error" => 2;
            tools_call_with_progress: "tools-call-with-progress" => 2;
            tools_call_sampling: "tools-call-sampling" => 2;
            tools_call_elicitation: "tools-call-elicitation" => 2;
            elicitation_defaults: "elicitation-sep1034-defaults" => 6;
            elicitation_enums: "elicitation-sep1330-enums" => 6;
            prompts_get_simple: "prompts-get-simple" => 2;
            prompts_get_with_args: "prompts-get-with-args" => 2;
            prompts_get_embedded_resource: "prompts-get-embedded-resource" => 2;
            prompts_get_with_image: "prompts-get-with-image" => 2;
            tools_call_with_logging: "tools-call-with-logging" => 2;
        }
        beyond {
            server_session_lifecycle: "server-session-lifecycle" => 3;
            json_schema_2020_12: "json-schema-2020-12" => 8;
        }
    }
}

mod at_2025_06_18 {
    use super::*;

    revision! {
        run_scenario, "2025-06-18";
        required {
            server_initialize: "server-initialize" => 3;
            server_session_lifecycle: "server-session-lifecycle" => 3;
            logging_set_level: "logging-set-level" => 2;
            ping: "ping" => 2;
            completion_complete: "completion-complete" => 2;
            tools_list: "tools-list" => 2;
            resources_list: "resources-list" => 2;
            resources_read_text: "resources-read-text" => 2;
            resources_read_binary: "resources-read-binary" => 2;
            resources_templates_read: "resources-templates-read" => 2;
            resources_subscribe: "resources-subscribe" => 2;
            resources_unsubscribe: "resources-unsubscribe" => 2;
            prompts_list: "prompts-list" => 2;
            tools_call_simple_text: "tools-call-simple-text" => 2;
            tools_call_image: "tools-call-image" => 2;
            tools_call_audio: "tools-call-audio" => 2;
            tools_call_embedded_resource: "tools-call-embedded-resource" => 2;
            tools_call_mixed_content: "tools-call-mixed-content" => 2;
            tools_call_error: "tools-call-error" => 2;
            tools_call_with_progress: "tools-call-with-progress" => 2;
            tools_call_sampling: "tools-call-sampling" => 2;
            tools_call_elicitation: "tools-call-elicitation" => 2;
            prompts_get_simple: "prompts-get-simple" => 2;
            prompts_get_with_args: "prompts-get-with-args" => 2;
            prompts_get_embedded_resource: "prompts-get-embedded-resource" => 2;
            prompts_get_with_image: "prompts-get-with-image" => 2;
            tools_call_with_logging: "tools-call-with-logging" => 2;
        }
    }
}

mod at_2025_03_26 {
    use super::*;

    revision! {
        run_scenario, "2025-03-26";
        required {
            server_session_lifecycle: "server-session-lifecycle" => 3;
        }
    }
}

/// The tasks extension (SEP-2663), beyond any revision's requirements: the gateway makes
/// an agent's long calls tasks, in front of a server that runs none
/// ([`crate::task_fixtures`]). `tasks-status-notifications` is not run: the suite skips it
/// whole, with no verdict.
mod tasks_extension {
    use super::*;

    revision! {
        run_scenario, "2026-07-28";
        required {}
        unmet {
            required_task_error: "tasks-required-task-error" because
                "the gateway serves a tool that must run as a task at its server to an agent \
                 that takes no tasks by waiting for its end; the extension asks -32021 only of a \
                 server that cannot serve such a call without a task";
        }
        beyond {
            lifecycle: "tasks-lifecycle" => 9;
            capability_negotiation: "tasks-capability-negotiation" => 5;
            wire_fields: "tasks-wire-fields" => 4;
            request_state_removal: "tasks-request-state-removal" => 3;
            mrtr_input: "tasks-mrtr-input" => 4;
            request_headers: "tasks-request-headers" => 5;
            dispatch_and_envelope: "tasks-dispatch-and-envelope" => 9;
            mrtr_composition: "tasks-mrtr-composition" => 2;
        }
    }
}
