//! A server's sampling request answered by a configured model: which model answers it, and
//! what the desk's models are asked (the draft itself is the chat crate's: `drafts`).
//! The person reviews the draft (see `crate::server_requests`) unless they allowed the server to be
//! answered without review ([`SamplingRule`]), by the model they chose then, within the
//! server's budget ([`budget`]).
//!
//! # Choosing the model
//!
//! The server's `modelPreferences` are advice; the host decides ([`choose_model`]):
//!
//! 1. Each hint, in the server's order, is matched against the configured model names of
//!    every provider (each provider's default model, then the models typed for it) as
//!    words: the hint's words (split at anything but letters and digits, case ignored) must
//!    come in a row in the name, so `sonnet` matches `claude-sonnet-4` and `mini` does not
//!    match `gemini-2.5-pro`. The first hint that matches anything decides.
//! 2. When a hint matches several models, the priorities break the tie where the name
//!    tells something: a name with the word `mini`, `nano`, `haiku`, `flash`, `lite`,
//!    `small` or `fast` is taken as fast and cheap (scored `speed + cost`), one with `opus`,
//!    `pro`, `large`, `ultra` or `max` as capable (scored `2 × intelligence`), any other as
//!    middling (scored two thirds of all three). The highest score wins; on equal scores,
//!    the default provider's default model, then the configuration's order.
//! 3. No hint matches (or none given): the priorities, if the server gave any, choose among
//!    every configured model the same way; without them, the default provider's default
//!    model (its first typed model if it names no default); with no default provider, the
//!    first provider that names a model. No model configured: no draft, the person writes
//!    the reply.

use switchboard_mcp::types::{CreateMessageRequestParams, CreateMessageResult, ModelPreferences};

use crate::config::{Config, SamplingRule};

pub mod budget;

impl SamplingRule {
    /// The model the person chose, if the rule names one.
    pub fn chosen(&self) -> Option<Chosen> {
        Some(Chosen {
            provider: self.provider.clone()?,
            model: self.model.clone()?,
        })
    }
}

/// A configured model: the provider's name and the model's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    pub provider: String,
    pub model: String,
}

/// Every configured model, default provider's default first within its provider.
fn candidates(config: &Config) -> Vec<Chosen> {
    let mut all = Vec::new();
    for (provider, entry) in &config.providers {
        let models = entry.default_model.iter().chain(&entry.models);
        for model in models {
            let chosen = Chosen {
                provider: provider.clone(),
                model: model.clone(),
            };
            if !all.contains(&chosen) {
                all.push(chosen);
            }
        }
    }
    all
}

/// Whether `chosen` is one of the configured models (see [`choose_model`]).
pub fn is_configured(chosen: &Chosen, config: &Config) -> bool {
    candidates(config).contains(chosen)
}

/// The model asked when nothing says which.
fn default_model(config: &Config) -> Option<Chosen> {
    let of = |provider: &str| {
        let entry = config.providers.get(provider)?;
        let model = entry.default_model.as_ref().or(entry.models.first())?;
        Some(Chosen {
            provider: provider.to_owned(),
            model: model.clone(),
        })
    };
    match &config.settings.default_provider {
        Some(provider) => of(provider),
        None => config.providers.keys().find_map(|p| of(p)),
    }
}

const FAST: &[&str] = &["mini", "nano", "haiku", "flash", "lite", "small", "fast"];
const CAPABLE: &[&str] = &["opus", "pro", "large", "ultra", "max"];

/// A name's words, lower-cased: split at anything but letters and digits.
fn words(name: &str) -> Vec<String> {
    name.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether the hint's words come in a row among the model's.
fn hint_matches(hint: &[String], model: &[String]) -> bool {
    !hint.is_empty() && model.windows(hint.len()).any(|run| run == hint)
}

/// How well a model fits the priorities, as far as its name tells (see the module).
fn score(model: &str, preferences: &ModelPreferences) -> f64 {
    let name = words(model);
    let says = |kind: &[&str]| name.iter().any(|w| kind.contains(&w.as_str()));
    let cost = preferences.cost_priority.unwrap_or(0.0);
    let speed = preferences.speed_priority.unwrap_or(0.0);
    let intelligence = preferences.intelligence_priority.unwrap_or(0.0);
    if says(FAST) {
        speed + cost
    } else if says(CAPABLE) {
        2.0 * intelligence
    } else {
        (speed + cost + intelligence) * 2.0 / 3.0
    }
}

/// The one of `models` that fits the priorities best; on equal scores, the default, then
/// the first.
fn best<'a>(
    mut models: Vec<&'a Chosen>,
    preferences: &ModelPreferences,
    fallback: Option<&Chosen>,
) -> Option<&'a Chosen> {
    // The default first, so that it stays ahead of equal scores.
    models.sort_by_key(|c| Some(*c) != fallback);
    models
        .into_iter()
        .fold(None::<(&Chosen, f64)>, |best, c| {
            let s = score(&c.model, preferences);
            match best {
                Some((_, top)) if top >= s => best,
                _ => Some((c, s)),
            }
        })
        .map(|(chosen, _)| chosen)
}

/// The configured model that answers a request with these preferences (see the module);
/// `None` when no model is configured.
pub fn choose_model(preferences: Option<&ModelPreferences>, config: &Config) -> Option<Chosen> {
    let fallback = default_model(config);
    let Some(preferences) = preferences else {
        return fallback;
    };
    let all = candidates(config);
    let hints = preferences.hints.iter().flatten();
    for hint in hints.filter_map(|h| h.name.as_deref()) {
        let hint = words(hint);
        let matching: Vec<&Chosen> = all
            .iter()
            .filter(|c| hint_matches(&hint, &words(&c.model)))
            .collect();
        if let Some(chosen) = best(matching, preferences, fallback.as_ref()) {
            return Some(chosen.clone());
        }
    }
    let prioritised = [
        preferences.cost_priority,
        preferences.speed_priority,
        preferences.intelligence_priority,
    ]
    .iter()
    .any(|p| p.is_some_and(|p| p > 0.0));
    if prioritised {
        return best(all.iter().collect(), preferences, fallback.as_ref()).cloned();
    }
    fallback
}

/// A reply the model drafted, and who drafted it.
#[derive(Debug, Clone, PartialEq)]
pub struct Drafted {
    pub provider: String,
    pub model: String,
    pub result: CreateMessageResult,
    /// The tokens it took, read and written, if the provider said.
    pub tokens: Option<u64>,
}

/// Whether a server's request may be answered without review now.
pub enum Unreviewed {
    /// No rule lets the server be: the person reviews, as always.
    NoRule,
    /// A rule lets the server be, but not this request: why, for the audit trail.
    Asked(String),
    /// The model the person chose writes the reply, which may take `max_tokens`, within
    /// the server's budget while `permit` is held.
    Allowed {
        chosen: Chosen,
        max_tokens: u32,
        permit: budget::Permit,
    },
}

/// Why a model gave no reply, as the audit trail and the log say it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotDrafted(pub String);

/// What the handler of a server's requests asks of the host's models; the desk answers it.
pub trait SamplingModels: Send + Sync {
    /// Whether the person let `server`'s request be sent without review: by a rule that
    /// holds for the server as it is launched now, names a model still configured, and
    /// leaves the server budget for it.
    fn without_review(&self, server: &str, params: &CreateMessageRequestParams) -> Unreviewed;

    /// The reply of `chosen` to a request, which may take `max_tokens`.
    fn draft<'a>(
        &'a self,
        params: &'a CreateMessageRequestParams,
        chosen: &'a Chosen,
        max_tokens: u32,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<Drafted, NotDrafted>> + Send + 'a>>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn config(value: Value) -> Config {
        serde_json::from_value(value).unwrap()
    }

    fn providers() -> Config {
        config(json!({
            "providers": {
                "anthropic": {"protocol": "anthropic", "baseUrl": "https://a.example",
                              "models": ["claude-opus-4", "claude-haiku-4"], "defaultModel": "claude-sonnet-4"},
                "openai": {"protocol": "openai", "baseUrl": "https://o.example/v1",
                           "models": ["gpt-4o", "gpt-4o-mini"]}
            },
            "settings": {"defaultProvider": "openai"}
        }))
    }

    fn prefs(value: Value) -> ModelPreferences {
        serde_json::from_value(value).unwrap()
    }

    fn chosen(c: Option<Chosen>) -> Option<(String, String)> {
        c.map(|c| (c.provider, c.model))
    }

    fn pair(provider: &str, model: &str) -> Option<(String, String)> {
        Some((provider.into(), model.into()))
    }

    #[test]
    fn hints_are_matched_in_order_then_the_default_model() {
        let config = providers();
        let p = prefs(json!({"hints": [{"name": "gemini"}, {"name": "SONNET"}, {"name": "gpt"}]}));
        assert_eq!(
            chosen(choose_model(Some(&p), &config)),
            pair("anthropic", "claude-sonnet-4")
        );
        let p = prefs(json!({"hints": [{"name": "gemini"}]}));
        assert_eq!(
            chosen(choose_model(Some(&p), &config)),
            pair("openai", "gpt-4o")
        );
        assert_eq!(
            chosen(choose_model(None, &config)),
            pair("openai", "gpt-4o")
        );
        assert_eq!(choose_model(None, &Config::default()), None);
    }

    #[test]
    fn priorities_break_a_tie_between_models_a_hint_matches() {
        let config = providers();
        let fast = prefs(
            json!({"hints": [{"name": "claude"}], "speedPriority": 0.9, "costPriority": 0.5}),
        );
        assert_eq!(
            chosen(choose_model(Some(&fast), &config)),
            pair("anthropic", "claude-haiku-4")
        );
        let smart = prefs(json!({"hints": [{"name": "claude"}], "intelligencePriority": 1}));
        assert_eq!(
            chosen(choose_model(Some(&smart), &config)),
            pair("anthropic", "claude-opus-4")
        );
        // Equal scores: the default provider's default model first.
        let none = prefs(json!({"hints": [{"name": "gpt-4o"}]}));
        assert_eq!(
            chosen(choose_model(Some(&none), &config)),
            pair("openai", "gpt-4o")
        );
    }

    #[test]
    fn hints_match_names_as_words() {
        let config = providers();
        // "mini" is a word of gpt-4o-mini alone, not a piece of "gemini".
        let mut with_gemini = config.clone();
        with_gemini
            .providers
            .get_mut("openai")
            .unwrap()
            .models
            .insert(0, "gemini-2.5-pro".into());
        let p = prefs(json!({"hints": [{"name": "mini"}]}));
        assert_eq!(
            chosen(choose_model(Some(&p), &with_gemini)),
            pair("openai", "gpt-4o-mini")
        );
        // Several words in a row, as the model names them.
        let p = prefs(json!({"hints": [{"name": "Claude Opus"}]}));
        assert_eq!(
            chosen(choose_model(Some(&p), &config)),
            pair("anthropic", "claude-opus-4")
        );
        let p = prefs(json!({"hints": [{"name": "opus-claude"}]}));
        assert_eq!(
            chosen(choose_model(Some(&p), &config)),
            pair("openai", "gpt-4o"),
            "not in that order: the default"
        );
    }

    #[test]
    fn priorities_choose_among_every_model_when_no_hint_matches() {
        let config = providers();
        let fast = prefs(json!({"hints": [{"name": "llama"}], "speedPriority": 1}));
        assert_eq!(
            chosen(choose_model(Some(&fast), &config)),
            pair("anthropic", "claude-haiku-4")
        );
        let smart = prefs(json!({"intelligencePriority": 0.9}));
        assert_eq!(
            chosen(choose_model(Some(&smart), &config)),
            pair("anthropic", "claude-opus-4")
        );
        let indifferent = prefs(json!({"hints": [{"name": "llama"}]}));
        assert_eq!(
            chosen(choose_model(Some(&indifferent), &config)),
            pair("openai", "gpt-4o")
        );
    }
}
