//! The stand-in model provider (`provider-peer`, built by `cargo build -p provider-peer`)
//! on 127.0.0.1, answering from a script (see `tests/peers/provider/src/script.rs`).

use serde_json::Value;

use crate::binaries::workspace_binary;
use crate::listening::announced;
use crate::provider_requests::{check_stand_in, recorded};

/// The stand-in, running; when dropped, what our client sent it is checked against the
/// official SDKs' request types, and it is killed.
pub struct StandInProvider {
    /// `http://127.0.0.1:<port>`: Anthropic's base URL; OpenAI's is this with `/v1`.
    pub url: String,
    _child: tokio::process::Child,
}

impl StandInProvider {
    pub async fn start(script: Value) -> Self {
        let mut stand_in = tokio::process::Command::new(workspace_binary("provider-peer"));
        stand_in.arg("--script-json").arg(script.to_string());
        let (url, child) = announced(stand_in, "the stand-in").await;
        Self { url, _child: child }
    }

    /// Every request the stand-in received: method, path, query, headers, body.
    pub async fn requests(&self) -> Vec<Value> {
        let url = self.url.clone();
        tokio::task::spawn_blocking(move || recorded(&url))
            .await
            .expect("the record is read")
            .unwrap_or_else(|e| panic!("{e}"))
    }
}

impl Drop for StandInProvider {
    fn drop(&mut self) {
        if !std::thread::panicking()
            && let Err(refused) = check_stand_in(&self.url)
        {
            panic!("{refused}");
        }
    }
}
