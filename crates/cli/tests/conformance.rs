//! The official MCP conformance suite (`@modelcontextprotocol/conformance`) runs its
//! scenario servers and judges `switchboard-cli conformance` as a client. A scenario
//! passes only with no failure and no warning.
//!
//! Each scenario runs at the wire of a revision (`--spec-version`): the authorization
//! scenarios at the revision that introduced them, so the mock servers behave as servers
//! of that revision do.

use serde_json::Value;

use switchboard_test_support::conformance::{self, scenarios};

fn run_scenario(scenario: &str, revision: Option<&str>) {
    let results = tempfile::tempdir().expect("temp dir");
    let client = format!("{} conformance", env!("CARGO_BIN_EXE_switchboard-cli"));
    let args = ["client", "--command", &client];
    let output = conformance::command(None, &args, scenario, revision, results.path())
        .output()
        .expect("run the conformance suite");
    conformance::judge(scenario, &output, results.path(), |check| {
        check["status"] == "SKIPPED" && handshake_only(check)
    });
}

/// A check about the `initialize` handshake, which a client of the stateless revision
/// never sends: the suite skips it, and rightly so.
fn handshake_only(check: &Value) -> bool {
    let name = check["name"].as_str().unwrap_or_default();
    name.ends_with("_initialize") || name.ends_with("_notifications_initialized")
}

scenarios! {
    run_scenario;

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
    auth_2025_03_26_metadata_backcompat: "auth/2025-03-26-oauth-metadata-backcompat" at "2025-03-26";
    auth_2025_03_26_endpoint_fallback: "auth/2025-03-26-oauth-endpoint-fallback" at "2025-03-26";

    // Authorization: required by 2026-07-28.
    auth_resource_mismatch: "auth/resource-mismatch" at "2026-07-28";
    auth_offline_access_scope: "auth/offline-access-scope" at "2026-07-28";
    auth_offline_access_not_supported: "auth/offline-access-not-supported" at "2026-07-28";
    auth_iss_supported: "auth/iss-supported" at "2026-07-28";
    auth_iss_not_advertised: "auth/iss-not-advertised" at "2026-07-28";
    auth_iss_supported_missing: "auth/iss-supported-missing" at "2026-07-28";
    auth_iss_wrong_issuer: "auth/iss-wrong-issuer" at "2026-07-28";
    auth_iss_unexpected: "auth/iss-unexpected" at "2026-07-28";
    auth_iss_normalized: "auth/iss-normalized" at "2026-07-28";
    auth_metadata_issuer_mismatch: "auth/metadata-issuer-mismatch" at "2026-07-28";
    auth_authorization_server_migration: "auth/authorization-server-migration" at "2026-07-28";

    // Authorization that earlier revisions judge too, at the stateless wire.
    auth_scope_step_up_2026_07_28: "auth/scope-step-up" at "2026-07-28";
    auth_scope_retry_limit_2026_07_28: "auth/scope-retry-limit" at "2026-07-28";

    // The stateless revision's own scenarios, and those of earlier revisions run at it.
    tools_call_2026_07_28: "tools_call" at "2026-07-28";
    json_schema_2020_12_preservation_2026_07_28: "json-schema-2020-12-preservation" at "2026-07-28";
    request_metadata: "request-metadata" at "2026-07-28";
    mrtr_request_state: "sep-2322-client-request-state" at "2026-07-28";
    http_standard_headers: "http-standard-headers" at "2026-07-28";
    http_custom_headers: "http-custom-headers" at "2026-07-28";
    http_invalid_tool_headers: "http-invalid-tool-headers" at "2026-07-28";
    json_schema_ref_no_deref: "json-schema-ref-no-deref" at "2026-07-28";
}
