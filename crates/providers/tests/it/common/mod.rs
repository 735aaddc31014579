//! The stand-in provider (`tests/peers/provider`) as a child process, and clients of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use switchboard_providers::{
    ApiKey, Client, Error, Event, Image, Protocol, ProviderConfig, Response,
};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// How long the stand-in may take to start listening on a busy machine.
const STARTUP: Duration = Duration::from_secs(30);

pub const KEY: &str = "sk-standin-test-key";

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub use switchboard_test_support::binaries::workspace_binary;

/// The two APIs the clients speak, and the stand-in with them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    OpenAi,
    Anthropic,
    Responses,
}

/// Each API, for a scenario both share.
pub const APIS: [Api; 3] = [Api::OpenAi, Api::Anthropic, Api::Responses];

impl Api {
    /// A provider speaking this API at `address` (`http://host:port`), as the person
    /// would configure it: OpenAI's base URL ends in `/v1`, Anthropic's does not.
    pub fn config(self, address: &str, key: Option<&str>) -> ProviderConfig {
        let key = key.map(ApiKey::new);
        match self {
            Self::OpenAi => ProviderConfig::openai_compatible(format!("{address}/v1"), key),
            Self::Anthropic => ProviderConfig::anthropic(address, key),
            Self::Responses => {
                ProviderConfig::new(Protocol::Responses, format!("{address}/v1"), key)
            }
        }
    }

    /// The path of a model request.
    pub fn path(self) -> &'static str {
        match self {
            Self::OpenAi => "/v1/chat/completions",
            Self::Anthropic => "/v1/messages",
            Self::Responses => "/v1/responses",
        }
    }

    /// Held while a scenario runs for this API: a failure then says which one it was.
    pub fn checking(self) -> Checking {
        Checking(self)
    }
}

pub struct Checking(Api);

impl Drop for Checking {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("(the failure above was with the {:?} API)", self.0);
        }
    }
}

/// A running stand-in; when dropped, what our client sent it is checked against the
/// official SDKs' request types, and it is killed.
pub struct StandIn {
    /// `http://127.0.0.1:<port>`
    pub url: String,
    _child: Child,
}

impl StandIn {
    /// Starts the stand-in with this script (see `tests/peers/provider/src/script.rs`).
    pub async fn start(script: Value) -> Self {
        let mut child = Command::new(workspace_binary("provider-peer"))
            .arg("--script-json")
            .arg(script.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("start provider-peer");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut lines = BufReader::new(stdout).lines();
        let url = tokio::time::timeout(STARTUP, async {
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(url) = line.strip_prefix("listening on ") {
                    return Some(url.to_owned());
                }
            }
            None
        })
        .await
        .ok()
        .flatten()
        .expect("provider-peer announces where it listens");
        Self { url, _child: child }
    }

    /// A client of the stand-in speaking `api`.
    pub fn client(&self, api: Api, key: Option<&str>) -> Client {
        Client::new(api.config(&self.url, key)).expect("a client")
    }

    pub fn openai(&self, key: Option<&str>) -> Client {
        self.client(Api::OpenAi, key)
    }

    pub fn anthropic(&self, key: Option<&str>) -> Client {
        self.client(Api::Anthropic, key)
    }

    /// Every request the stand-in received, as it recorded them.
    pub async fn requests(&self) -> Vec<Value> {
        let answer = reqwest::get(format!("{}/_stand-in/requests", self.url))
            .await
            .expect("ask the stand-in")
            .bytes()
            .await
            .expect("its answer");
        match serde_json::from_slice(&answer).expect("JSON") {
            Value::Array(requests) => requests,
            other => panic!("not a list: {other}"),
        }
    }

    /// The body of the last request received.
    pub async fn last_body(&self) -> Value {
        let mut requests = self.requests().await;
        requests.pop().expect("a request")["body"].take()
    }
}

impl Drop for StandIn {
    fn drop(&mut self) {
        if !std::thread::panicking()
            && let Err(refused) =
                switchboard_test_support::provider_requests::check_stand_in(&self.url)
        {
            panic!("{refused}");
        }
    }
}

/// Every event of a streamed answer, or the error that ended it (with the events before).
pub async fn events(
    client: &Client,
    request: &switchboard_providers::Request,
) -> (Vec<Event>, Option<Error>) {
    let mut stream = match client.stream(request).await {
        Ok(stream) => stream,
        Err(e) => return (Vec::new(), Some(e)),
    };
    let mut events = Vec::new();
    while let Some(event) = stream.next().await {
        match event {
            Ok(event) => events.push(event),
            Err(e) => return (events, Some(e)),
        }
    }
    (events, None)
}

/// The streamed answer, folded.
pub async fn streamed(client: &Client, request: &switchboard_providers::Request) -> Response {
    client
        .stream(request)
        .await
        .expect("the stream starts")
        .collect()
        .await
        .expect("the stream completes")
}

/// The text deltas of a stream, in order.
pub fn text_deltas(events: &[Event]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TextDelta(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

/// The argument deltas of a stream's tool call `index`, in order.
pub fn argument_deltas(events: &[Event], index: usize) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::ToolCallDelta {
                index: i,
                arguments,
            } if *i == index => Some(arguments.as_str()),
            _ => None,
        })
        .collect()
}

/// A 1x1 PNG, base64.
pub const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/// [`PIXEL`] as an image.
pub fn pixel() -> Image {
    Image::Base64 {
        media_type: "image/png".into(),
        data: PIXEL.into(),
    }
}
