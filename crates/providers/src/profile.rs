//! What a model can take, as far as its name tells: the models this crate knows are built
//! in (their families' published limits); any other is unknown, and asked as the protocol
//! allows, a refusal then teaching what it does not take (see `sendable`). A host shapes
//! its requests by it: the longest answer it asks for, whether it sends images, a
//! temperature or stop sequences.

use serde::{Deserialize, Serialize};

/// A model's limits and what it takes; `None`: not known.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase", default)]
pub struct Profile {
    /// The tokens its context holds, the answer's included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_tokens: Option<u32>,
    /// The most tokens one answer may take.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_output: Option<u32>,
    /// It reads images.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vision: Option<bool>,
    /// It takes a `temperature`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<bool>,
    /// It takes stop sequences.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop: Option<bool>,
    /// It reasons before it answers, whatever the request says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasons: Option<bool>,
    /// It calls tools (a local model may not, or its server may not be started to).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<bool>,
}

/// A family of models, by the words that begin its names.
struct Family {
    prefixes: &'static [&'static str],
    profile: Profile,
}

const fn known(context: u32, output: u32, vision: bool, sampling: bool) -> Profile {
    Profile {
        context_tokens: Some(context),
        max_output: Some(output),
        vision: Some(vision),
        temperature: Some(sampling),
        stop: Some(sampling),
        // The families that always reason take no sampling parameters.
        reasons: Some(!sampling),
        tools: Some(true),
    }
}

/// The families this crate knows, most particular first.
const FAMILIES: &[Family] = &[
    Family {
        prefixes: &["claude-opus-4", "claude-sonnet-4", "claude-haiku-4"],
        profile: known(200_000, 32_000, true, true),
    },
    Family {
        prefixes: &["claude-3"],
        profile: known(200_000, 8_192, true, true),
    },
    // OpenAI's reasoning models take neither a temperature nor stop sequences.
    Family {
        prefixes: &["gpt-5", "o1", "o3", "o4"],
        profile: known(200_000, 100_000, true, false),
    },
    Family {
        prefixes: &["gpt-4.1"],
        profile: known(1_000_000, 32_768, true, true),
    },
    Family {
        prefixes: &["gpt-4o"],
        profile: known(128_000, 16_384, true, true),
    },
    Family {
        prefixes: &["deepseek-reasoner"],
        profile: known(128_000, 64_000, false, false),
    },
    Family {
        prefixes: &["deepseek-chat"],
        profile: known(128_000, 8_192, false, true),
    },
    // Local models that read images say so in their names; those that do not, do not.
    Family {
        prefixes: &["llava", "llama3.2-vision", "qwen2.5vl", "gemma3"],
        profile: Profile {
            vision: Some(true),
            ..Profile::NONE
        },
    },
    Family {
        prefixes: &["llama", "mistral", "qwen", "phi", "deepseek-r1"],
        profile: Profile {
            vision: Some(false),
            ..Profile::NONE
        },
    },
];

impl Profile {
    /// Nothing known.
    pub const NONE: Self = Self {
        context_tokens: None,
        max_output: None,
        vision: None,
        temperature: None,
        stop: None,
        reasons: None,
        tools: None,
    };

    /// The profile of the model `id`, as far as its name tells (a provider's prefix, as
    /// OpenRouter's `anthropic/claude-…`, is read past).
    pub fn of(id: &str) -> Self {
        let name = id.rsplit('/').next().unwrap_or(id).to_lowercase();
        FAMILIES
            .iter()
            .find(|f| f.prefixes.iter().any(|p| name.starts_with(p)))
            .map_or(Self::NONE, |f| f.profile)
    }

    /// This profile with what `other` says where it says something.
    pub fn overridden_by(self, other: Self) -> Self {
        Self {
            context_tokens: other.context_tokens.or(self.context_tokens),
            max_output: other.max_output.or(self.max_output),
            vision: other.vision.or(self.vision),
            temperature: other.temperature.or(self.temperature),
            stop: other.stop.or(self.stop),
            reasons: other.reasons.or(self.reasons),
            tools: other.tools.or(self.tools),
        }
    }

    /// Whether it says nothing.
    pub fn is_empty(&self) -> bool {
        *self == Self::NONE
    }

    /// Whether it can be kept: no size of no tokens.
    pub fn is_valid(&self) -> bool {
        self.context_tokens != Some(0) && self.max_output != Some(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_families_are_told_by_their_names() {
        let sonnet = Profile::of("claude-sonnet-4-6");
        assert_eq!(
            (sonnet.max_output, sonnet.vision),
            (Some(32_000), Some(true))
        );
        let reasoning = Profile::of("o4-mini");
        assert_eq!(
            (reasoning.temperature, reasoning.stop),
            (Some(false), Some(false))
        );
        assert_eq!(Profile::of("openai/gpt-4o-mini").max_output, Some(16_384));
        assert_eq!(Profile::of("llama3.2").vision, Some(false));
        assert_eq!(Profile::of("llama3.2-vision:11b").vision, Some(true));
        assert_eq!(Profile::of("my-own-model"), Profile::NONE);
    }

    #[test]
    fn what_the_person_says_goes_over_what_is_built_in() {
        let said = Profile {
            vision: Some(true),
            ..Profile::NONE
        };
        let merged = Profile::of("llama3.2").overridden_by(said);
        assert_eq!(merged.vision, Some(true));
    }
}
