//! The wire formats the chat benchmarks measure, each the same way, and the stand-in
//! provider's key and model.

use std::time::Duration;

use switchboard_providers::{ApiKey, Client, ProviderConfig};

pub const KEY: &str = "sk-bench";
pub const MODEL: &str = "model-bench";
/// Anything not done by then is a failure of the benchmark, not a figure.
pub const LIMIT: Duration = Duration::from_secs(60);

#[derive(Clone, Copy)]
pub enum Wire {
    OpenAi,
    Anthropic,
}

pub const WIRES: [(&str, Wire); 2] = [
    ("OpenAI Chat Completions", Wire::OpenAi),
    ("Anthropic Messages", Wire::Anthropic),
];

impl Wire {
    /// A client of the stand-in at `url` in this wire format.
    pub fn client(self, url: &str) -> Client {
        let key = Some(ApiKey::new(KEY));
        let config = match self {
            Self::OpenAi => ProviderConfig::openai_compatible(format!("{url}/v1"), key),
            Self::Anthropic => ProviderConfig::anthropic(url, key),
        };
        Client::new(config).expect("a provider client")
    }
}
