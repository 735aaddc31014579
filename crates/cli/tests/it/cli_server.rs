//! The command line against a real server (the Python SDK peer), as a script would use it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `switchboard-cli <args> -- python server.py`
fn run(args: &[&str]) -> Output {
    let python = root().join(".tools/venv/bin/python");
    assert!(
        python.exists(),
        "the Python test peers are missing: run scripts/setup"
    );
    Command::new(env!("CARGO_BIN_EXE_switchboard-cli"))
        .args(args)
        .arg("--")
        .arg(python)
        .arg(root().join("tests/peers/python/server.py"))
        .output()
        .expect("run switchboard-cli")
}

fn json_out(output: &Output) -> Value {
    assert!(
        output.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON on stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn info_and_lists_print_json() {
    let info = json_out(&run(&["info"]));
    assert_eq!(info["serverInfo"]["name"], "switchboard-python-peer");
    assert_eq!(info["protocolVersion"], "2026-07-28");
    assert_eq!(info["era"], "stateless");
    assert_eq!(
        info["eraReason"],
        "server/discover answered with 2026-07-28"
    );
    let session = json_out(&run(&["info", "--era", "session"]));
    assert_eq!(session["protocolVersion"], "2025-11-25");
    assert_eq!(
        session["eraReason"],
        "the session era was chosen in the settings; initialize answered 2025-11-25"
    );
    // The spelling of earlier versions still chooses it.
    let older = json_out(&run(&["info", "--era", "legacy"]));
    assert_eq!(older["era"], "session");
    let tools = json_out(&run(&["list", "tools"]));
    assert_eq!(
        tools.as_array().map(Vec::len),
        Some(13),
        "every page: {tools}"
    );
    let templates = json_out(&run(&["list", "templates"]));
    assert_eq!(templates[0]["uriTemplate"], "test://items/{id}");
}

#[test]
fn a_tool_call_prints_its_result_and_progress_goes_to_stderr() {
    let echo = json_out(&run(&["call", "echo", "--args", r#"{"text":"hi"}"#]));
    assert_eq!(echo["content"][0]["text"], "hi");
    let slow = run(&["call", "slow", "--args", r#"{"steps":2,"delay_ms":1}"#]);
    assert_eq!(json_out(&slow)["content"][0]["text"], "done after 2 steps");
    assert!(
        stderr(&slow).contains("[progress] 1/2 step 1"),
        "{}",
        stderr(&slow)
    );
    assert!(
        stderr(&slow).contains("[progress] 2/2 step 2"),
        "{}",
        stderr(&slow)
    );
}

/// These tools ask mid-call, as servers of the stateful era do: the Python SDK serves
/// them only in that era.
#[test]
fn server_requests_are_answered_from_flags() {
    let sampled = json_out(&run(&[
        "call",
        "ask_model",
        "--era",
        "session",
        "--args",
        r#"{"prompt":"2+2?"}"#,
        "--sampling-reply",
        "4",
    ]));
    assert_eq!(sampled["content"][0]["text"], "model said: 4");

    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer.json");
    std::fs::write(&answer, r#"{"name": "Ada", "age": 36}"#).unwrap();
    let accepted = json_out(&run(&[
        "call",
        "ask_form",
        "--era",
        "session",
        "--elicit-answer",
        answer.to_str().unwrap(),
    ]));
    assert_eq!(
        accepted["content"][0]["text"],
        r#"accepted: {"age":36,"name":"Ada"}"#
    );
    let declined = json_out(&run(&["call", "ask_form", "--era", "session"]));
    assert_eq!(declined["content"][0]["text"], "declined");

    let folder = dir.path().join("my project");
    std::fs::create_dir(&folder).unwrap();
    let roots = json_out(&run(&[
        "call",
        "list_roots",
        "--era",
        "session",
        "--root",
        folder.to_str().unwrap(),
    ]));
    let canonical = folder.canonicalize().unwrap();
    let expected = format!("file://{}", canonical.display()).replace(' ', "%20");
    assert_eq!(roots["content"][0]["text"], expected.as_str());
}

/// In the 2026-07-28 era the server asks inside its result, and the same flags answer.
#[test]
fn a_round_of_input_is_answered_from_flags() {
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer.json");
    std::fs::write(&answer, r#"{"nickname": "Ada"}"#).unwrap();
    let greeted = json_out(&run(&[
        "call",
        "greet_asked",
        "--elicit-answer",
        answer.to_str().unwrap(),
        "--root",
        dir.path().to_str().unwrap(),
    ]));
    assert_eq!(
        greeted["content"][0]["text"],
        "Hello Ada, you share 1 folder(s)"
    );
}

#[test]
fn log_messages_at_the_chosen_level_go_to_stderr() {
    let out = run(&["call", "log_levels", "--log-level", "warning"]);
    json_out(&out);
    let err = stderr(&out);
    assert!(err.contains("\"at warning\""), "{err}");
    assert!(err.contains("\"at error\""), "{err}");
    assert!(!err.contains("\"at info\""), "{err}");
}

#[test]
fn resources_prompts_and_completion() {
    let read = json_out(&run(&["read", "test://items/7"]));
    assert_eq!(read["contents"][0]["text"], "item 7");
    let prompt = json_out(&run(&["prompt", "greet", "--args", r#"{"name":"Ada"}"#]));
    assert_eq!(prompt["messages"][0]["content"]["text"], "Hello, Ada!");
    let completion = json_out(&run(&["complete", "prompt:greet", "style", "l"]));
    assert_eq!(
        completion["completion"]["values"],
        serde_json::json!(["loud", "lyrical"])
    );
}

#[test]
fn bad_input_is_a_clear_error_and_a_failure_exit() {
    let out = run(&["call", "echo", "--args", "[1, 2]"]);
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out).trim_end().lines().last(),
        Some("switchboard-cli: --args must be a JSON object")
    );

    let out = Command::new(env!("CARGO_BIN_EXE_switchboard-cli"))
        .args(["list", "tools", "--", "/nonexistent/server"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).starts_with("switchboard-cli: could not start \"/nonexistent/server\""),
        "{}",
        stderr(&out)
    );
}

/// The bundled demo server, built beside this test.
fn demo_server() -> PathBuf {
    switchboard_test_support::binaries::workspace_binary("switchboard-demo-server")
}

#[test]
fn a_call_that_reports_progress_forever_still_ends_at_the_maximum_time() {
    // 10 s of counting with progress every 200 ms: each step restarts the 1 s timeout, but
    // the call may last 2 s in all.
    let output = Command::new(env!("CARGO_BIN_EXE_switchboard-cli"))
        .args([
            "call",
            "count_to",
            "--args",
            r#"{"n": 50, "delay_ms": 200}"#,
        ])
        .args(["--timeout", "1", "--max-time", "2", "--"])
        .arg(demo_server())
        .output()
        .expect("run switchboard-cli");
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("no answer to tools/call within 2."),
        "{}",
        stderr(&output)
    );
}

use switchboard_test_support::processes::alive;

#[test]
fn a_server_dies_with_a_client_killed_outright() {
    use std::io::{BufRead, BufReader};
    // A server that never answers and would never notice its input close.
    let mut cli = Command::new(env!("CARGO_BIN_EXE_switchboard-cli"))
        .args(["info", "--timeout", "600", "--", "sh", "-c"])
        .arg("echo pid $$ >&2; exec sleep 1000")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run switchboard-cli");
    let stderr = BufReader::new(cli.stderr.take().expect("stderr"));
    let pid: i32 = stderr
        .lines()
        .map_while(Result::ok)
        .find_map(|line| line.strip_prefix("[server stderr] pid ")?.parse().ok())
        .expect("the server wrote its pid");
    assert!(alive(pid));
    cli.kill().expect("SIGKILL the client");
    cli.wait().expect("the client ended");
    // The kernel ends it; waiting a moment at most (no timing is asserted).
    for _ in 0..500 {
        if !alive(pid) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let _ = kill_hard(pid);
    panic!("the server {pid} outlived its client");
}

/// Cleans up after a failed run.
fn kill_hard(pid: i32) -> std::io::Result<std::process::Output> {
    Command::new("kill").args(["-9", &pid.to_string()]).output()
}
