//! The official MCP conformance suite (`@modelcontextprotocol/conformance`) runs its
//! scenario servers and judges `switchboard-cli conformance` as a client.
//!
//! For each revision the client speaks, the tests are the scenarios the suite requires at
//! it (its frozen requirement set, as `conformance client --requirements REVISION` runs
//! them, for 2025-11-25 and 2026-07-28; every scenario it lists for the earlier ones), one
//! test each, run at that revision's wire (`--spec-version`).
//! [`each_revision_runs_exactly_what_the_suite_requires`] fails when the suite requires a
//! scenario missing here, or no longer requires one listed here. A scenario passes with no
//! failure and no warning, and with as many verdicts as it gives when it runs to its end
//! (the number after `=>`): one that stops early fails.
//!
//! Also run, beyond the requirements: `json-schema-2020-12-preservation`, which the suite
//! added after those sets were frozen, and the skills extension's client scenarios
//! (`sep-2640-client-*`: no file read ahead of need, and a skill whose `SKILL.md` fails its
//! digest, its size or its frontmatter not loaded further), and the authorization
//! extensions' scenarios (`auth/client-credentials-*`, `auth/enterprise-managed-authorization`,
//! `auth/dpop*`, `auth/wif-jwt-bearer`).

use serde_json::Value;
use switchboard_mcp::ProtocolVersion;
use switchboard_test_support::conformance::{self, Role, revision};

fn run_scenario(scenario: &str, revision: &str, checks: usize) {
    let results = tempfile::tempdir().expect("temp dir");
    let client = format!("{} conformance", env!("CARGO_BIN_EXE_switchboard-cli"));
    let args = ["client", "--command", &client];
    let output = conformance::command(None, &args, scenario, revision, results.path())
        .output()
        .expect("run the conformance suite");
    conformance::judge(scenario, &output, results.path(), checks, |check| {
        check["status"] == "SKIPPED" && handshake_only(check)
    });
}

/// The skills extension's client scenarios (SEP-2640), each with its number of verdicts:
/// off the spec's timeline, the suite runs them only when forced, here at the revision the
/// extension is written against.
const SKILLS_SCENARIOS: [(&str, usize); 4] = [
    ("sep-2640-client-no-prefetch", 1),
    ("sep-2640-client-verify-digest", 1),
    ("sep-2640-client-verify-size", 1),
    ("sep-2640-client-verify-frontmatter", 1),
];

/// The authorization extensions' scenarios (client credentials, SEP-1046; enterprise-managed
/// authorization, SEP-990; DPoP, SEP-1932; workload identity, SEP-1933), each with its
/// number of verdicts at 2025-11-25 and at 2026-07-28 (where the handshake has no check of
/// its own, and DPoP proofs are checked on one more request): forced as well.
const AUTH_EXTENSION_SCENARIOS: [(&str, usize, usize); 6] = [
    ("auth/client-credentials-jwt", 8, 7),
    ("auth/client-credentials-basic", 8, 7),
    ("auth/enterprise-managed-authorization", 9, 8),
    ("auth/dpop", 12, 13),
    ("auth/dpop-nonce", 14, 15),
    ("auth/wif-jwt-bearer", 8, 7),
];

fn run_forced(scenarios: &[(&str, usize)], revision: &str) {
    for &(scenario, checks) in scenarios {
        let results = tempfile::tempdir().expect("temp dir");
        let client = format!("{} conformance", env!("CARGO_BIN_EXE_switchboard-cli"));
        let args = ["client", "--force", "--command", &client];
        let output = conformance::command(None, &args, scenario, revision, results.path())
            .output()
            .expect("run the conformance suite");
        conformance::judge(scenario, &output, results.path(), checks, |_| false);
    }
}

#[test]
fn the_skills_extensions_client_scenarios_pass() {
    run_forced(&SKILLS_SCENARIOS, "2026-07-28");
}

/// The authorization extensions' scenarios at `revision`, each with its checks there.
fn run_auth_extensions(revision: &str, checks: fn(&(&str, usize, usize)) -> usize) {
    let scenarios: Vec<(&str, usize)> = AUTH_EXTENSION_SCENARIOS
        .iter()
        .map(|row| (row.0, checks(row)))
        .collect();
    run_forced(&scenarios, revision);
}

#[test]
fn the_authorization_extensions_scenarios_pass_at_2025_11_25() {
    run_auth_extensions("2025-11-25", |row| row.1);
}

#[test]
fn the_authorization_extensions_scenarios_pass_at_2026_07_28() {
    run_auth_extensions("2026-07-28", |row| row.2);
}

/// A check about the `initialize` handshake, which a client of the stateless revision
/// never sends: the suite skips it, and rightly so.
fn handshake_only(check: &Value) -> bool {
    let name = check["name"].as_str().unwrap_or_default();
    name.ends_with("_initialize") || name.ends_with("_notifications_initialized")
}

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
    conformance::assert_runs_what_is_required(Role::Client, &ours, &revisions);
}

mod at_2026_07_28 {
    use super::*;

    revision! {
        run_scenario, "2026-07-28";
        required {
            tools_call: "tools_call" => 2;
            request_metadata: "request-metadata" => 8;
            auth_metadata_default: "auth/metadata-default" => 18;
            auth_metadata_var1: "auth/metadata-var1" => 18;
            auth_metadata_var2: "auth/metadata-var2" => 18;
            auth_metadata_var3: "auth/metadata-var3" => 18;
            auth_basic_cimd: "auth/basic-cimd" => 12;
            auth_scope_from_www_authenticate: "auth/scope-from-www-authenticate" => 14;
            auth_scope_from_scopes_supported: "auth/scope-from-scopes-supported" => 14;
            auth_scope_omitted_when_undefined: "auth/scope-omitted-when-undefined" => 14;
            auth_scope_step_up: "auth/scope-step-up" => 25;
            auth_scope_retry_limit: "auth/scope-retry-limit" => 27;
            auth_token_endpoint_auth_basic: "auth/token-endpoint-auth-basic" => 19;
            auth_token_endpoint_auth_post: "auth/token-endpoint-auth-post" => 19;
            auth_token_endpoint_auth_none: "auth/token-endpoint-auth-none" => 19;
            auth_pre_registration: "auth/pre-registration" => 12;
            auth_resource_mismatch: "auth/resource-mismatch" => 2;
            auth_offline_access_scope: "auth/offline-access-scope" => 12;
            auth_offline_access_not_supported: "auth/offline-access-not-supported" => 14;
            auth_authorization_server_migration: "auth/authorization-server-migration" => 27;
            auth_iss_supported: "auth/iss-supported" => 14;
            auth_iss_not_advertised: "auth/iss-not-advertised" => 14;
            auth_iss_supported_missing: "auth/iss-supported-missing" => 8;
            auth_iss_wrong_issuer: "auth/iss-wrong-issuer" => 8;
            auth_iss_unexpected: "auth/iss-unexpected" => 8;
            auth_iss_normalized: "auth/iss-normalized" => 8;
            auth_metadata_issuer_mismatch: "auth/metadata-issuer-mismatch" => 3;
            mrtr_request_state: "sep-2322-client-request-state" => 5;
            http_standard_headers: "http-standard-headers" => 11;
            http_custom_headers: "http-custom-headers" => 18;
            http_invalid_tool_headers: "http-invalid-tool-headers" => 12;
            json_schema_ref_no_deref: "json-schema-ref-no-deref" => 1;
        }
        beyond {
            json_schema_2020_12_preservation: "json-schema-2020-12-preservation" => 9;
        }
    }
}

mod at_2025_11_25 {
    use super::*;

    revision! {
        run_scenario, "2025-11-25";
        required {
            initialize: "initialize" => 1;
            tools_call: "tools_call" => 2;
            elicitation_defaults: "elicitation-sep1034-client-defaults" => 5;
            sse_retry: "sse-retry" => 3;
            auth_metadata_default: "auth/metadata-default" => 18;
            auth_metadata_var1: "auth/metadata-var1" => 18;
            auth_metadata_var2: "auth/metadata-var2" => 18;
            auth_metadata_var3: "auth/metadata-var3" => 18;
            auth_basic_cimd: "auth/basic-cimd" => 13;
            auth_scope_from_www_authenticate: "auth/scope-from-www-authenticate" => 14;
            auth_scope_from_scopes_supported: "auth/scope-from-scopes-supported" => 14;
            auth_scope_omitted_when_undefined: "auth/scope-omitted-when-undefined" => 14;
            auth_scope_step_up: "auth/scope-step-up" => 22;
            auth_scope_retry_limit: "auth/scope-retry-limit" => 26;
            auth_token_endpoint_auth_basic: "auth/token-endpoint-auth-basic" => 19;
            auth_token_endpoint_auth_post: "auth/token-endpoint-auth-post" => 19;
            auth_token_endpoint_auth_none: "auth/token-endpoint-auth-none" => 19;
            auth_pre_registration: "auth/pre-registration" => 13;
        }
        beyond {
            json_schema_2020_12_preservation: "json-schema-2020-12-preservation" => 9;
        }
    }
}

mod at_2025_06_18 {
    use super::*;

    revision! {
        run_scenario, "2025-06-18";
        required {
            initialize: "initialize" => 1;
            tools_call: "tools_call" => 2;
            auth_token_endpoint_auth_basic: "auth/token-endpoint-auth-basic" => 19;
            auth_token_endpoint_auth_post: "auth/token-endpoint-auth-post" => 19;
            auth_token_endpoint_auth_none: "auth/token-endpoint-auth-none" => 19;
        }
    }
}

mod at_2025_03_26 {
    use super::*;

    revision! {
        run_scenario, "2025-03-26";
        required {
            // Authorization as that revision had it: no resource metadata.
            auth_metadata_backcompat: "auth/2025-03-26-oauth-metadata-backcompat" => 12;
            auth_endpoint_fallback: "auth/2025-03-26-oauth-endpoint-fallback" => 7;
        }
    }
}
