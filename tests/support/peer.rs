//! MCP servers the tests start themselves, beside the app.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a peer may take to start listening (Python imports are slow on a busy machine).
const STARTUP: Duration = Duration::from_secs(60);

/// A server listening on a loopback port; the process is killed when this is dropped.
pub struct HttpPeer {
    child: Child,
    /// Where a client reaches it.
    pub url: String,
}

impl HttpPeer {
    /// The Python SDK server of `tests/peers/python/server.py` over Streamable HTTP, on a
    /// port it picks and announces on stderr once it listens.
    pub fn python_streamable() -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let python = root.join(".tools/venv/bin/python");
        assert!(
            python.exists(),
            "the Python test virtualenv is missing: run scripts/setup"
        );
        let mut child = Command::new(python)
            .arg(root.join("tests/peers/python/server.py"))
            .args(["streamable-http", "--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the Python peer");
        let stderr = child.stderr.take().expect("piped stderr");
        let (lines, announced) = mpsc::channel();
        // Reads every line, so that the peer never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = lines.send(line);
            }
        });
        let deadline = Instant::now() + STARTUP;
        let mut seen = Vec::new();
        let url = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match announced.recv_timeout(left) {
                Ok(line) => match line.strip_prefix("listening on ") {
                    Some(url) => break url.to_owned(),
                    None => seen.push(line),
                },
                Err(_) => {
                    let _ = child.kill();
                    panic!("the Python peer did not start listening within {STARTUP:?}: {seen:?}");
                }
            }
        };
        Self { child, url }
    }
}

impl Drop for HttpPeer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
