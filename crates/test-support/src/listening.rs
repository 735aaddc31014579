//! A program a test starts on a free port, which says on stderr once it listens
//! (`listening on <url>`), as the test peers do.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader, Lines};
use tokio::process::{Child, ChildStderr, Command};

use crate::ports::on_free_port;

/// How long a program may take to listen (Python imports are slow on a busy machine).
const STARTUP: Duration = Duration::from_secs(60);

/// A program listening; killed when this is dropped.
pub struct Listening {
    pub child: Child,
    /// What it announced.
    pub url: String,
    /// The rest of what it writes on stderr, to be read (or the program may block on a
    /// full pipe).
    pub stderr: Lines<BufReader<ChildStderr>>,
}

/// Starts `command(port)` on a free port, on another if that one was taken meanwhile, and
/// waits until it says it listens.
pub async fn listening(what: &str, command: impl Fn(u16) -> Command) -> Listening {
    on_free_port(what, async |port| {
        let mut child = command(port)
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("start {what}: {e}"));
        let mut stderr = BufReader::new(child.stderr.take().expect("piped stderr")).lines();
        let mut said = Vec::new();
        let announced = tokio::time::timeout(STARTUP, async {
            while let Ok(Some(line)) = stderr.next_line().await {
                match line.strip_prefix("listening on ") {
                    Some(url) => return Some(url.to_owned()),
                    None => said.push(line),
                }
            }
            None
        })
        .await;
        match announced {
            Ok(Some(url)) => Ok(Listening { child, url, stderr }),
            Ok(None) => Err(said),
            Err(_) => panic!("{what} did not start listening within {STARTUP:?}: {said:?}"),
        }
    })
    .await
}

/// Starts `command`, killed when dropped, and waits for its first line on stdout,
/// `listening on <url>` (as the peers that pick their own port say it): the url, and the
/// child.
pub async fn announced(mut command: Command, what: &str) -> (String, Child) {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("start {what}: {e}"));
    let stdout = child.stdout.take().expect("piped stdout");
    let mut lines = BufReader::new(stdout).lines();
    let line = tokio::time::timeout(STARTUP, lines.next_line())
        .await
        .unwrap_or_else(|_| panic!("{what} listens"))
        .unwrap_or_else(|e| panic!("{what}'s stdout: {e}"))
        .unwrap_or_else(|| panic!("{what} says where it listens"));
    let url = line
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    (url, child)
}
