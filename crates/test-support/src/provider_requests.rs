//! What our provider client sent the stand-in provider (`tests/peers/provider`), checked
//! against the official `openai` and `anthropic` SDKs' own request types by
//! `tests/peers/python/check_provider_requests.py`, so that the stand-in's reading of the
//! APIs is not the only judge of our requests. Each test's stand-in does it when dropped.
//!
//! One checker process serves a whole test binary (its start, importing both SDKs, takes
//! about two seconds); it ends with the binary, when its input closes.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock, PoisonError};

use serde_json::{Value, json};

/// The `User-Agent` prefix of our client's requests; the SDKs' own and a test's raw
/// requests to the stand-in are not ours to check.
const OURS: &str = "switchboard/";

/// Every request our client sent the stand-in at `url` (`http://host:port`) that the SDKs'
/// types refuse, with their reasons, as an error to fail the test with.
pub fn check_stand_in(url: &str) -> Result<(), String> {
    let ours: Vec<Value> = recorded(url)?
        .into_iter()
        .filter(|r| {
            r["method"] == "POST"
                && r["headers"]["user-agent"]
                    .as_str()
                    .is_some_and(|agent| agent.starts_with(OURS))
        })
        .collect();
    let refused: Vec<String> = ours
        .iter()
        .zip(rejections(&ours))
        .filter_map(|(request, rejected)| {
            rejected.map(|why| format!("{} {}\n  {why}", request["path"], request["body"]))
        })
        .collect();
    if refused.is_empty() {
        return Ok(());
    }
    Err(format!(
        "the official SDKs' request types refuse what our client sent:\n{}",
        refused.join("\n")
    ))
}

/// For each request (`{"path": ..., "body": ..., "headers": ...}`, as the stand-in records
/// it), why the SDKs' types refuse its body, or `None` when they take it. Their types are
/// those of Anthropic's API version 2026-10-21; a request naming version 2023-06-01 in its
/// `anthropic-version` header may also carry that version's sampling parameters.
pub fn rejections(requests: &[Value]) -> Vec<Option<String>> {
    let mut checker = checker().lock().unwrap_or_else(PoisonError::into_inner);
    requests
        .iter()
        .map(|request| {
            let line = json!({
                "path": request["path"],
                "body": request["body"],
                "anthropic_version": request["headers"]["anthropic-version"],
            });
            checker.ask(&line)
        })
        .collect()
}

struct Checker {
    _child: Child,
    input: ChildStdin,
    answers: BufReader<ChildStdout>,
}

impl Checker {
    fn start() -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let python = root.join(".tools/venv/bin/python");
        assert!(
            python.exists(),
            "the Python test peers are missing at {}: run scripts/setup",
            python.display()
        );
        let mut child = Command::new(python)
            .arg(root.join("tests/peers/python/check_provider_requests.py"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start check_provider_requests.py");
        let input = child.stdin.take().expect("piped stdin");
        let answers = BufReader::new(child.stdout.take().expect("piped stdout"));
        Self {
            _child: child,
            input,
            answers,
        }
    }

    fn ask(&mut self, request: &Value) -> Option<String> {
        writeln!(self.input, "{request}").expect("the request checker reads");
        let mut line = String::new();
        self.answers
            .read_line(&mut line)
            .expect("the request checker answers");
        let answer: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("the request checker's answer {line:?}: {e}"));
        match answer["rejected"].as_str() {
            Some(why) => Some(why.to_owned()),
            None if answer["ok"] == true => None,
            None => panic!("the request checker answered {answer}"),
        }
    }
}

fn checker() -> &'static Mutex<Checker> {
    static CHECKER: OnceLock<Mutex<Checker>> = OnceLock::new();
    CHECKER.get_or_init(|| Mutex::new(Checker::start()))
}

/// The stand-in's record of its requests (`GET /_stand-in/requests`), read without an
/// async runtime: this runs where a stand-in is dropped.
pub(crate) fn recorded(url: &str) -> Result<Vec<Value>, String> {
    let address = url.strip_prefix("http://").unwrap_or(url);
    let unreadable = |e: std::io::Error| format!("the stand-in's record of requests: {e}");
    let mut stream = TcpStream::connect(address).map_err(unreadable)?;
    write!(
        stream,
        "GET /_stand-in/requests HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .map_err(unreadable)?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).map_err(unreadable)?;
    let answer = String::from_utf8_lossy(&answer);
    match answer.split_once("\r\n\r\n") {
        Some((head, body)) if head.starts_with("HTTP/1.1 200") => {
            match serde_json::from_str(body) {
                Ok(Value::Array(requests)) => Ok(requests),
                _ => Err(format!("the stand-in's record is not a JSON list: {body}")),
            }
        }
        _ => Err(format!("the stand-in's record of requests: {answer}")),
    }
}
