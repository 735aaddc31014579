//! A server's sampling request answered by a configured model: which model, the provider
//! request the server's parameters make, the streamed draft, and the MCP result it becomes.
//! The person reviews the draft (see `crate::server_requests`) unless they allowed the server to be
//! answered without review ([`SamplingRule`]), by the model they chose then, within the
//! server's budget ([`budget`]).
//!
//! # Choosing the model
//!
//! The server's `modelPreferences` are advice; the host decides ([`choose_model`]):
//!
//! 1. Each hint, in the server's order, is matched as a case-insensitive substring against
//!    the configured model names of every provider (each provider's default model, then
//!    the models typed for it). The first hint that matches anything decides.
//! 2. When a hint matches several models, the priorities break the tie where the name
//!    tells something: a name with `mini`, `nano`, `haiku`, `flash`, `lite`, `small` or
//!    `fast` is taken as fast and cheap (scored `speed + cost`), one with `opus`, `pro`,
//!    `large`, `ultra` or `max` as capable (scored `2 × intelligence`), any other as
//!    middling (scored two thirds of all three). The highest score wins; on equal scores,
//!    the default provider's default model, then the configuration's order.
//! 3. No hint matches (or none given): the default provider's default model (its first
//!    typed model if it names no default); with no default provider, the first provider
//!    that names a model. No model configured: no draft, the person writes the reply.
//!
//! # What the request carries
//!
//! `systemPrompt`, `temperature` and `stopSequences` go to the provider as they are,
//! `maxTokens` within `settings.samplingLimits.maxTokens` (4,096 unless set; a limit the
//! person changed in their review goes as they set it); text and image messages (base64 with their MIME type) as the conversation;
//! audio, which neither protocol takes, refuses the draft with a clear message (the
//! person may still write the reply). `includeContext` (`none`, `thisServer`,
//! `allServers`) is soft-deprecated since 2025-11-25 and the host does not declare
//! `sampling.context`: it keeps no per-server conversation context to add, so whatever
//! the value, the model sees exactly the request's own messages and nothing else.
//!
//! # Sampling with tools (2025-11-25)
//!
//! The server offers `tools` (and a `toolChoice`) and runs them itself: the host forwards
//! them to the model and, when the model calls some, answers with its `tool_use` content
//! and `stopReason: "toolUse"`. The server executes the calls and asks again with the
//! `tool_result`s appended; each round is a new request, reviewed like any other. The
//! host never runs a sampling request's tools against its own servers.

use serde_json::{Map, Value};
use switchboard_mcp::types::{
    CreateMessageRequestParams, CreateMessageResult, ModelPreferences, OneOrMany, Role,
    SamplingContent, SamplingMessage, TextContent, ToolChoiceMode, ToolUseContent,
};
use switchboard_providers::{
    AssistantContent, Client, Collector, Image, Message, Request, Response, StopReason, Tool,
    ToolCall, ToolChoice, ToolResult, ToolResultContent, UserContent,
};

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

/// How well a model fits the priorities, as far as its name tells (see the module).
fn score(model: &str, preferences: &ModelPreferences) -> f64 {
    let name = model.to_lowercase();
    let cost = preferences.cost_priority.unwrap_or(0.0);
    let speed = preferences.speed_priority.unwrap_or(0.0);
    let intelligence = preferences.intelligence_priority.unwrap_or(0.0);
    if FAST.iter().any(|w| name.contains(w)) {
        speed + cost
    } else if CAPABLE.iter().any(|w| name.contains(w)) {
        2.0 * intelligence
    } else {
        (speed + cost + intelligence) * 2.0 / 3.0
    }
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
        let hint = hint.trim().to_lowercase();
        if hint.is_empty() {
            continue;
        }
        let mut matching: Vec<&Chosen> = all
            .iter()
            .filter(|c| c.model.to_lowercase().contains(&hint))
            .collect();
        // The default first, so that a stable sort keeps it ahead of equal scores.
        matching.sort_by_key(|c| Some(*c) != fallback.as_ref());
        let best = matching
            .into_iter()
            .fold(None::<(&Chosen, f64)>, |best, c| {
                let s = score(&c.model, preferences);
                match best {
                    Some((_, top)) if top >= s => best,
                    _ => Some((c, s)),
                }
            });
        if let Some((chosen, _)) = best {
            return Some(chosen.clone());
        }
    }
    fallback
}

/// Why a request cannot be put to the model, or its answer not given back.
#[derive(Debug, thiserror::Error)]
pub enum DraftError {
    #[error("{0}")]
    Unsupported(String),
    /// The provider's own words (a refused key, a rate limit and its wait ...).
    #[error(transparent)]
    Provider(#[from] switchboard_providers::Error),
    #[error("the model's answer ended before it was complete")]
    Incomplete,
}

/// The provider request a sampling request makes, for `model`, whose reply may take
/// `max_tokens` (see the module).
pub fn provider_request(
    params: &CreateMessageRequestParams,
    model: &str,
    max_tokens: u32,
) -> Result<Request, DraftError> {
    let messages = params
        .messages
        .iter()
        .enumerate()
        .map(|(i, m)| message(i, m))
        .collect::<Result<Vec<_>, _>>()?;
    let mut request = Request::new(model, max_tokens, messages);
    request.system = params.system_prompt.clone().filter(|s| !s.is_empty());
    request.temperature = params.temperature;
    request.stop_sequences = params.stop_sequences.clone().unwrap_or_default();
    request.tools = params
        .tools
        .iter()
        .flatten()
        .map(|tool| Tool {
            name: tool.name.clone(),
            description: tool.description.clone(),
            parameters: Value::Object(tool.input_schema.clone()),
        })
        .collect();
    request.tool_choice = match params.tool_choice.as_ref().and_then(|c| c.mode) {
        Some(ToolChoiceMode::Required) => ToolChoice::Required,
        Some(ToolChoiceMode::None) => ToolChoice::None,
        Some(ToolChoiceMode::Auto) | None => ToolChoice::Auto,
    };
    Ok(request)
}

fn unsupported(index: usize, what: &str) -> DraftError {
    DraftError::Unsupported(format!(
        "messages[{index}] holds {what}, which the model cannot be sent; write the reply yourself"
    ))
}

fn message(index: usize, message: &SamplingMessage) -> Result<Message, DraftError> {
    let content = message.content.as_slice();
    match message.role {
        Role::User => content
            .iter()
            .map(|c| match c {
                SamplingContent::Text(t) => Ok(UserContent::Text(t.text.clone())),
                SamplingContent::Image(image) => Ok(UserContent::Image(Image::Base64 {
                    media_type: image.mime_type.clone(),
                    data: image.data.clone(),
                })),
                SamplingContent::ToolResult(result) => {
                    let content = result
                        .content
                        .iter()
                        .map(|block| match block.as_text() {
                            Some(text) => ToolResultContent::Text(text.to_owned()),
                            // Other blocks go as their JSON: the model reads it as text.
                            None => ToolResultContent::Text(
                                serde_json::to_string(block).unwrap_or_default(),
                            ),
                        })
                        .collect();
                    Ok(UserContent::ToolResult(ToolResult {
                        call_id: result.tool_use_id.clone(),
                        content,
                        is_error: result.is_error.unwrap_or(false),
                        not_made: false,
                    }))
                }
                other => Err(unsupported(
                    index,
                    &format!("{} content", other.type_name()),
                )),
            })
            .collect::<Result<_, _>>()
            .map(Message::User),
        Role::Assistant => content
            .iter()
            .map(|c| match c {
                SamplingContent::Text(t) => Ok(AssistantContent::Text(t.text.clone())),
                SamplingContent::ToolUse(call) => Ok(AssistantContent::ToolCall(ToolCall {
                    id: call.id.clone(),
                    name: call.name.clone(),
                    arguments: Value::Object(call.input.clone()),
                })),
                other => Err(unsupported(
                    index,
                    &format!("{} content from the assistant", other.type_name()),
                )),
            })
            .collect::<Result<_, _>>()
            .map(Message::Assistant),
    }
}

/// Asks the model, streaming: `on_text` is given each piece of text as it comes.
pub async fn draft(
    client: &Client,
    request: &Request,
    on_text: &mut (dyn FnMut(&str) + Send),
) -> Result<Response, DraftError> {
    let mut stream = client.stream(request).await?;
    let mut answer = Collector::default();
    while let Some(event) = stream.next().await {
        let event = event?;
        if let switchboard_providers::Event::TextDelta(text) = &event {
            on_text(text);
        }
        answer.push(&event);
    }
    answer.finish().ok_or(DraftError::Incomplete)
}

/// The model's answer as the MCP result: its text and tool uses, the model that answered
/// (`model` if the provider did not say), and why it stopped.
pub fn result_of(response: Response, model: &str) -> Result<CreateMessageResult, DraftError> {
    let mut content = Vec::with_capacity(response.content.len());
    for part in response.content {
        content.push(match part {
            AssistantContent::Text(text) => SamplingContent::Text(TextContent::new(text)),
            AssistantContent::ToolCall(call) => {
                let Value::Object(input) = call.arguments else {
                    return Err(DraftError::Unsupported(format!(
                        "the model called {} with arguments that are not a JSON object",
                        call.name
                    )));
                };
                SamplingContent::ToolUse(ToolUseContent {
                    id: call.id,
                    name: call.name,
                    input,
                    meta: None,
                    extra: Map::new(),
                })
            }
        });
    }
    let content = match content.len() {
        0 => OneOrMany::One(SamplingContent::text("")),
        1 => OneOrMany::One(content.remove(0)),
        _ => OneOrMany::Many(content),
    };
    let stop_reason = match response.stop_reason {
        StopReason::EndTurn => "endTurn".to_owned(),
        StopReason::MaxTokens => "maxTokens".to_owned(),
        StopReason::StopSequence(_) => "stopSequence".to_owned(),
        StopReason::ToolUse => "toolUse".to_owned(),
        StopReason::Refused => "refusal".to_owned(),
        StopReason::ContextWindowExceeded => "contextWindowExceeded".to_owned(),
        StopReason::Other(other) => other,
    };
    Ok(CreateMessageResult {
        role: Role::Assistant,
        content,
        model: response
            .model
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| model.to_owned()),
        stop_reason: Some(stop_reason),
        meta: None,
        extra: Map::new(),
    })
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

/// What the person handler asks of the host's models; the desk answers it.
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
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<Drafted, DraftError>> + Send + 'a>>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
    fn the_request_carries_the_servers_parameters_and_tools() {
        let params: CreateMessageRequestParams = serde_json::from_value(json!({
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "Weather?"},
                                              {"type": "image", "data": "iVBO", "mimeType": "image/png"}]},
                {"role": "assistant", "content": {"type": "tool_use", "id": "c1", "name": "get_weather", "input": {"city": "Paris"}}},
                {"role": "user", "content": {"type": "tool_result", "toolUseId": "c1", "content": [{"type": "text", "text": "18C"}]}}
            ],
            "systemPrompt": "Be brief.", "maxTokens": 100, "temperature": 0.3,
            "stopSequences": ["END"], "includeContext": "allServers",
            "tools": [{"name": "get_weather", "inputSchema": {"type": "object"}}],
            "toolChoice": {"mode": "required"}
        }))
        .unwrap();
        let request = provider_request(&params, "m", 100).unwrap();
        assert_eq!(request.system.as_deref(), Some("Be brief."));
        assert_eq!(request.max_tokens, 100);
        assert_eq!(request.temperature, Some(0.3));
        assert_eq!(request.stop_sequences, ["END"]);
        assert_eq!(request.tool_choice, ToolChoice::Required);
        assert_eq!(request.tools[0].name, "get_weather");
        assert_eq!(
            request.messages.len(),
            3,
            "nothing but the request's messages"
        );
        assert!(
            matches!(&request.messages[0], Message::User(c) if matches!(c[1], UserContent::Image(_)))
        );
        assert!(
            matches!(&request.messages[2], Message::User(c) if matches!(&c[0], UserContent::ToolResult(r) if r.call_id == "c1"))
        );

        let audio: CreateMessageRequestParams = serde_json::from_value(json!({
            "messages": [{"role": "user", "content": {"type": "audio", "data": "AA", "mimeType": "audio/wav"}}],
            "maxTokens": 5
        }))
        .unwrap();
        assert!(matches!(
            provider_request(&audio, "m", 5),
            Err(DraftError::Unsupported(m)) if m.contains("audio")
        ));
    }

    #[test]
    fn the_answer_becomes_the_result_with_its_tool_uses_and_stop_reason() {
        let response = Response {
            id: None,
            model: Some("gpt-4o-2024".into()),
            content: vec![
                AssistantContent::Text("Let me look.".into()),
                AssistantContent::ToolCall(ToolCall {
                    id: "c1".into(),
                    name: "get_weather".into(),
                    arguments: json!({"city": "Paris"}),
                }),
            ],
            stop_reason: StopReason::ToolUse,
            usage: None,
        };
        let result = result_of(response, "gpt-4o").unwrap();
        assert_eq!(
            serde_json::to_value(&result).unwrap(),
            json!({"role": "assistant", "model": "gpt-4o-2024", "stopReason": "toolUse",
                   "content": [{"type": "text", "text": "Let me look."},
                               {"type": "tool_use", "id": "c1", "name": "get_weather", "input": {"city": "Paris"}}]})
        );
    }
}
