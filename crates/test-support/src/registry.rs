//! The MCP Registry's stand-in (`tests/peers/python/registry.py`) on 127.0.0.1: every
//! request it read and answer it gave was checked against the registry's published OpenAPI
//! document, and when it is dropped the test fails if one did not conform.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use crate::ports::on_free_port_blocking;

pub struct RegistryStandIn {
    child: Child,
    /// `http://127.0.0.1:<port>`: the registry's base URL.
    pub url: String,
    report: PathBuf,
    _dir: tempfile::TempDir,
}

impl RegistryStandIn {
    /// The stand-in with its usual servers, 30 to a page.
    pub fn start() -> Self {
        Self::start_with(&[])
    }

    /// With more of its options: `--page-size K`, `--broken`.
    pub fn start_with(options: &[&str]) -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let python = root.join(".tools/venv/bin/python");
        assert!(
            python.exists(),
            "the Python test peers are missing: run scripts/setup"
        );
        let dir = tempfile::tempdir().expect("a folder for the stand-in's report");
        let report = dir.path().join("checked.txt");
        let (child, url) = on_free_port_blocking("the registry stand-in", |port| {
            let mut child = Command::new(&python)
                .arg(root.join("tests/peers/python/registry.py"))
                .args(["--port", &port.to_string(), "--report"])
                .arg(&report)
                .args(options)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start the registry stand-in");
            let stderr = BufReader::new(child.stderr.take().expect("piped stderr"));
            let mut said = Vec::new();
            for line in stderr.lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("listening on ") {
                    return Ok((child, url.to_owned()));
                }
                said.push(line);
            }
            let _ = child.wait();
            Err(said)
        });
        Self {
            child,
            url,
            report,
            _dir: dir,
        }
    }

    /// Its verdicts so far, one per request: `valid GET /v0.1/servers?...`, or `INVALID ...`.
    pub fn verdicts(&self) -> Vec<String> {
        std::fs::read_to_string(&self.report)
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// The requests answered so far whose path and query hold `part`.
    pub fn answered(&self, part: &str) -> usize {
        self.verdicts()
            .iter()
            .filter(|v| v.starts_with("valid ") && v.contains(part))
            .count()
    }
}

impl Drop for RegistryStandIn {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::thread::panicking() {
            return;
        }
        let verdicts = self.verdicts();
        let invalid: Vec<&String> = verdicts
            .iter()
            .filter(|v| v.starts_with("INVALID"))
            .collect();
        assert!(
            invalid.is_empty(),
            "the registry stand-in read or sent what its OpenAPI document does not allow: {invalid:#?}"
        );
    }
}
