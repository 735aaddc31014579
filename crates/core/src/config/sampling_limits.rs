//! `settings.samplingLimits`: how many tokens a drafted sampling reply may ask the model
//! for, and what a server the person allowed sampling without review may spend.

use serde::{Deserialize, Serialize};

/// Bounds on the model's sampling replies. Each is 1 or more: a file that says 0 is
/// refused with the key's name (to review every request of a server, revoke its
/// permission instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", try_from = "Written")]
pub struct SamplingLimits {
    /// The most tokens a reply the model drafts may take, whatever the server asks for
    /// (4,096). In a reply the person reviews, a limit they changed goes instead.
    pub max_tokens: u32,
    /// Replies without review one server may get in a minute (10).
    pub requests_per_minute: u32,
    /// Tokens (read and written, as the provider counts them) the replies without review
    /// of one server may take in an hour (50,000).
    pub tokens_per_hour: u64,
    /// Replies without review being written for one server at once (2).
    pub replies_at_once: u32,
}

impl Default for SamplingLimits {
    fn default() -> Self {
        Self {
            max_tokens: 4_096,
            requests_per_minute: 10,
            tokens_per_hour: 50_000,
            replies_at_once: 2,
        }
    }
}

impl SamplingLimits {
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// The tokens a reply may take when the server asks for `asked`.
    pub fn max_tokens_for(&self, asked: u64) -> u32 {
        u32::try_from(asked).map_or(self.max_tokens, |asked| asked.min(self.max_tokens))
    }
}

/// The limits as the file writes them, each left out for its default.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Written {
    max_tokens: Option<u32>,
    requests_per_minute: Option<u32>,
    tokens_per_hour: Option<u64>,
    replies_at_once: Option<u32>,
}

impl TryFrom<Written> for SamplingLimits {
    type Error = String;

    fn try_from(written: Written) -> Result<Self, String> {
        fn at_least_one<T: Copy + Into<u64>>(
            key: &str,
            value: Option<T>,
            default: T,
        ) -> Result<T, String> {
            match value {
                Some(n) if n.into() == 0 => Err(format!(
                    "settings.samplingLimits.{key} must be 1 or more, not 0 (to review every \
                     sampling request of a server, revoke its permission on the Trust page)"
                )),
                Some(n) => Ok(n),
                None => Ok(default),
            }
        }
        let default = Self::default();
        Ok(Self {
            max_tokens: at_least_one("maxTokens", written.max_tokens, default.max_tokens)?,
            requests_per_minute: at_least_one(
                "requestsPerMinute",
                written.requests_per_minute,
                default.requests_per_minute,
            )?,
            tokens_per_hour: at_least_one(
                "tokensPerHour",
                written.tokens_per_hour,
                default.tokens_per_hour,
            )?,
            replies_at_once: at_least_one(
                "repliesAtOnce",
                written.replies_at_once,
                default.replies_at_once,
            )?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use serde_json::json;

    fn limits(written: serde_json::Value) -> Result<SamplingLimits, String> {
        let file = json!({"mcpServers": {}, "settings": {"samplingLimits": written}});
        serde_json::from_value::<Config>(file)
            .map(|config| config.settings.sampling_limits)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn limits_left_out_take_their_defaults_and_are_not_written() {
        assert_eq!(limits(json!({})), Ok(SamplingLimits::default()));
        let set = limits(json!({"maxTokens": 300, "tokensPerHour": 1000})).unwrap();
        assert_eq!((set.max_tokens, set.tokens_per_hour), (300, 1000));
        assert_eq!(set.requests_per_minute, 10);
        let written = serde_json::to_value(Config::default()).unwrap();
        assert_eq!(written, json!({"mcpServers": {}}));
    }

    #[test]
    fn a_limit_of_zero_is_refused_by_its_name() {
        for key in [
            "maxTokens",
            "requestsPerMinute",
            "tokensPerHour",
            "repliesAtOnce",
        ] {
            let refused = limits(json!({ key: 0 })).unwrap_err();
            let said = format!("settings.samplingLimits.{key} must be 1 or more, not 0");
            assert!(refused.contains(&said), "{refused}");
        }
        assert!(limits(json!({"maxTokens": -1})).is_err());
    }

    #[test]
    fn a_reply_takes_what_the_server_asks_within_the_cap() {
        let limits = SamplingLimits::default();
        assert_eq!(limits.max_tokens_for(200), 200);
        assert_eq!(limits.max_tokens_for(1_000_000), 4_096);
        assert_eq!(limits.max_tokens_for(u64::MAX), 4_096);
    }
}
