//! The stdio transport with real child processes: small shell programs that behave like
//! servers that crash, babble, flood or refuse to die.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use switchboard_mcp::connection::{Connection, RequestError, RequestOptions};
use switchboard_mcp::transport::stdio::{self, StdioServer};
use switchboard_mcp::transport::{LogLine, LogSink};

use crate::common::NoRequests;

/// Starts `sh -c script` as a server; returns the connection and the log it writes.
fn shell_server(script: &str) -> (Connection, Arc<Mutex<Vec<LogLine>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink: LogSink = {
        let log = log.clone();
        Arc::new(move |line| log.lock().expect("log lock").push(line))
    };
    let mut server = StdioServer::new("sh").args(["-c", script]);
    server.exit_grace = Duration::from_millis(500);
    let transport = stdio::spawn(&server, sink).expect("spawn sh");
    (Connection::start(transport, Arc::new(NoRequests)), log)
}

fn options() -> RequestOptions {
    RequestOptions {
        timeout: Duration::from_secs(20),
        ..RequestOptions::default()
    }
}

/// A server that answers every request line with `{"id": <id>, "result": {"echo": <params>}}`.
const ECHO: &str = r#"
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  [ -n "$id" ] && printf '{"jsonrpc":"2.0","id":%s,"result":{"ok":true}}\n' "$id"
done
"#;

#[tokio::test]
async fn a_line_based_server_answers_requests() {
    let (conn, _) = shell_server(ECHO);
    assert_eq!(
        conn.request("ping", None, options()).await,
        Ok(json!({"ok": true}))
    );
    assert_eq!(
        conn.request("ping", None, options()).await,
        Ok(json!({"ok": true}))
    );
    conn.close().await;
}

#[tokio::test]
async fn a_crash_fails_the_request_with_the_exit_status_and_last_stderr_lines() {
    let (conn, _) =
        shell_server("read line; echo 'loading config' >&2; echo 'fatal: no token' >&2; exit 3");
    let outcome = conn.request("initialize", None, options()).await;
    let Err(RequestError::Closed(reason)) = outcome else {
        panic!("expected a closed connection, got {outcome:?}");
    };
    assert_eq!(reason.exit.as_deref(), Some("exit status: 3"));
    assert_eq!(reason.stderr_tail, ["loading config", "fatal: no token"]);
    assert_eq!(
        reason.to_string(),
        "the server exited (exit status: 3); last stderr line: fatal: no token"
    );
}

#[tokio::test]
async fn garbage_and_overlong_lines_are_logged_and_skipped() {
    let mut server = StdioServer::new("sh").args([
        "-c",
        r#"read line
echo 'Starting server v1.2...'
head -c 5000 /dev/zero | tr '\0' 'x'; echo
echo '{"jsonrpc":"2.0","id":1,"result":{"fine":1}}'
sleep 5"#,
    ]);
    server.max_line_bytes = 1000;
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink: LogSink = {
        let log = log.clone();
        Arc::new(move |line| log.lock().expect("log lock").push(line))
    };
    let conn = Connection::start(stdio::spawn(&server, sink).unwrap(), Arc::new(NoRequests));
    assert_eq!(
        conn.request("x", None, options()).await,
        Ok(json!({"fine": 1}))
    );
    let log = log.lock().expect("log lock").clone();
    assert_eq!(log.len(), 2, "{log:?}");
    assert!(
        matches!(&log[0], LogLine::Protocol(m) if m.contains("not a message") && m.contains("Starting server v1.2..."))
    );
    assert!(
        matches!(&log[1], LogLine::Protocol(m) if m.contains("5000 bytes") && m.contains("limit of 1000 bytes"))
    );
    conn.close().await;
}

#[tokio::test]
async fn stderr_lines_reach_the_log_as_they_come() {
    let (conn, log) = shell_server("echo 'one' >&2; echo 'two' >&2; read line; exit 0");
    let reason = conn.close().await;
    assert_eq!(reason.detail, "closed by the client");
    assert_eq!(
        *log.lock().expect("log lock"),
        [LogLine::Stderr("one".into()), LogLine::Stderr("two".into())]
    );
}

use switchboard_test_support::processes::alive;

/// Reads the pid a script printed on stderr into the log.
async fn pid_from_log(log: &Arc<Mutex<Vec<LogLine>>>) -> i32 {
    for _ in 0..200 {
        if let Some(pid) = log.lock().expect("log lock").iter().find_map(|l| match l {
            LogLine::Stderr(s) => s.strip_prefix("pid ").and_then(|p| p.parse().ok()),
            _ => None,
        }) {
            return pid;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the script did not report its pid");
}

#[tokio::test]
async fn close_escalates_to_sigkill_for_a_server_that_ignores_stdin_and_sigterm() {
    // Ignores SIGTERM, and a helper process of its own does too.
    let (conn, log) = shell_server(
        "trap '' TERM; sh -c 'trap \"\" TERM; echo pid $$ >&2; exec sleep 60' & wait; sleep 60",
    );
    let helper = pid_from_log(&log).await;
    assert!(alive(helper));
    let started = Instant::now();
    conn.close().await;
    // stdin closed: ignored for 0.5 s; SIGTERM: ignored for 0.5 s; then SIGKILL for the group.
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(1000), "closed after {took:?}");
    assert_dies(helper).await;
}

#[tokio::test]
async fn dropping_the_connection_kills_the_servers_process_group() {
    let (conn, log) = shell_server("sh -c 'echo pid $$ >&2; exec sleep 60' & wait");
    let helper = pid_from_log(&log).await;
    drop(conn);
    assert_dies(helper).await;
}

/// A killed process dies asynchronously: allow it a few seconds to be gone.
async fn assert_dies(pid: i32) {
    for _ in 0..500 {
        if !alive(pid) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the server's helper process {pid} outlived its server");
}

#[tokio::test]
async fn a_program_that_does_not_exist_is_a_clear_error() {
    let err = stdio::spawn(
        &StdioServer::new("/nonexistent/mcp-server"),
        switchboard_mcp::transport::discard_log(),
    )
    .err()
    .expect("spawning must fail");
    assert!(
        err.to_string()
            .starts_with("could not start \"/nonexistent/mcp-server\": "),
        "{err}"
    );
}

#[tokio::test]
async fn a_long_stderr_line_is_kept_cut_to_its_start() {
    let (conn, log) = shell_server(
        "head -c 1000000 /dev/zero | tr '\\0' 'e' >&2; echo >&2; echo 'next line' >&2; read line",
    );
    conn.close().await;
    let log = log.lock().expect("log lock").clone();
    let [LogLine::Stderr(long), LogLine::Stderr(next)] = log.as_slice() else {
        panic!("two stderr lines: {log:?}");
    };
    // Its first 16 KiB, as `docs/reliability.md` says.
    let kept = format!("{}… [cut: 1000000 bytes in all]", "e".repeat(16 * 1024));
    assert!(*long == kept, "{} bytes kept: {long:.40}…", long.len());
    assert_eq!(next, "next line");
}
