//! The command line signing in to a server guarded by the Python SDK's own authorization
//! server: it prints the address, a script plays the person's browser, and the call goes
//! through; the next call goes on signed in.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use switchboard_test_support::listening::{Listening, listening};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader, Lines};
use tokio::process::{ChildStderr, Command};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The next line that `pick` accepts, within a minute (Python starts slowly when busy).
async fn line_where(
    lines: &mut Lines<BufReader<ChildStderr>>,
    pick: impl Fn(&str) -> bool,
) -> String {
    let wait = async {
        while let Some(line) = lines.next_line().await.expect("stderr") {
            if pick(&line) {
                return line;
            }
        }
        panic!("the output ended before the line looked for");
    };
    tokio::time::timeout(Duration::from_secs(60), wait)
        .await
        .expect("the line in time")
}

/// `switchboard-cli call echo` on the server at `url`, its output piped.
fn call_echo(url: &str, text: &str) -> tokio::process::Child {
    Command::new(env!("CARGO_BIN_EXE_switchboard-cli"))
        .args([
            "call",
            "echo",
            "--args",
            &serde_json::json!({ "text": text }).to_string(),
        ])
        .args(["--url", url, "--no-browser"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("run switchboard-cli")
}

/// The result the command printed once it ended well (within a minute), and the rest of
/// what it said on stderr.
async fn answer_of(mut cli: tokio::process::Child) -> (Value, String) {
    let (mut stdout, mut stderr) = (String::new(), String::new());
    let mut out = cli.stdout.take().expect("stdout");
    let err = cli.stderr.take();
    let read = async {
        out.read_to_string(&mut stdout).await.expect("the result");
        if let Some(mut err) = err {
            err.read_to_string(&mut stderr).await.expect("stderr");
        }
        cli.wait().await.expect("the CLI ends")
    };
    let status = tokio::time::timeout(Duration::from_secs(60), read)
        .await
        .expect("the command ends within a minute");
    assert!(
        status.success(),
        "{status}; stdout: {stdout}; stderr: {stderr}"
    );
    (
        serde_json::from_str(&stdout).expect("JSON on stdout"),
        stderr,
    )
}

/// Run inside a keyring session (`scripts/with-keyring`), where the app keeps grants.
#[tokio::test]
async fn a_call_to_a_server_that_needs_sign_in_prints_the_address_and_goes_through() {
    let python = root().join(".tools/venv/bin/python");
    assert!(
        python.exists(),
        "the Python test peers are missing: run scripts/setup"
    );
    // Its stderr is kept open (unread) as long as it runs.
    let Listening {
        url,
        child: _peer,
        stderr: _said,
    } = listening("the OAuth peer", |port| {
        let mut command = Command::new(&python);
        command
            .arg(root().join("tests/peers/python/oauth_server.py"))
            .args(["--port", &port.to_string()]);
        command
    })
    .await;

    let mut cli = call_echo(&url, "hi");
    let mut cli_lines = BufReader::new(cli.stderr.take().expect("stderr")).lines();
    let asked = line_where(&mut cli_lines, |l| l.contains("needs you to sign in")).await;
    assert!(
        asked.contains("sign in with 127.0.0.1 (scopes: tools)"),
        "{asked}"
    );
    let address = line_where(&mut cli_lines, |l| l.starts_with("http")).await;

    // The person's browser: the consent page approves at once and redirects to the CLI.
    let page = reqwest::get(&address)
        .await
        .expect("the browser loads")
        .text()
        .await
        .expect("a page");
    assert!(page.starts_with("Signed in."), "{page}");
    let (result, _) = answer_of(cli).await;
    assert_eq!(result["content"][0]["text"], "hi");

    // The next command goes on signed in: the grant was kept in the keyring.
    let (result, said) = answer_of(call_echo(&url, "again")).await;
    assert_eq!(result["content"][0]["text"], "again");
    assert!(!said.contains("sign in"), "{said}");
}
