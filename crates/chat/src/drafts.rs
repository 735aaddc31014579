//! A server's sampling request put to a model: the provider request the server's parameters
//! make, the streamed draft, and the MCP result it becomes (the model is chosen by the host's
//! `sampling`).
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

use std::collections::HashMap;

use crate::naming::provider_name;
use serde_json::{Map, Value};
use switchboard_mcp::types::{
    CreateMessageRequestParams, CreateMessageResult, OneOrMany, Role, SamplingContent,
    SamplingMessage, TextContent, ToolChoiceMode, ToolUseContent,
};
use switchboard_providers::{
    AssistantContent, Client, Collector, Image, Message, Request, Response, StopReason, Tool,
    ToolCall, ToolChoice, ToolResult, ToolResultContent, UserContent,
};

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
            name: provider_name(&tool.name),
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
                    name: provider_name(&call.name),
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

/// The names of the request's tools as the model was told them (see
/// `naming::provider_name`: MCP allows `.` and `/` in a name, the providers do not), each
/// to the name the server gave it.
pub fn tool_names(params: &CreateMessageRequestParams) -> HashMap<String, String> {
    params
        .tools
        .iter()
        .flatten()
        .map(|tool| (provider_name(&tool.name), tool.name.clone()))
        .collect()
}

/// The model's answer as the MCP result: its text and tool uses by the names their server
/// gave them (`names`, see [`tool_names`]), the model that answered (`model` if the
/// provider did not say), and why it stopped.
pub fn result_of(
    response: Response,
    model: &str,
    names: &HashMap<String, String>,
) -> Result<CreateMessageResult, DraftError> {
    let mut content = Vec::with_capacity(response.content.len());
    for part in response.content {
        content.push(match part {
            // Sampling's answer has no place for the model's reasoning.
            AssistantContent::Reasoning(_) => continue,
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
                    name: names.get(&call.name).cloned().unwrap_or(call.name),
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_request_carries_the_servers_parameters_and_tools() {
        let params: CreateMessageRequestParams = serde_json::from_value(json!({
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "Weather?"},
                                              {"type": "image", "data": "iVBO", "mimeType": "image/png"}]},
                {"role": "assistant", "content": {"type": "tool_use", "id": "c1", "name": "weather/get.now", "input": {"city": "Paris"}}},
                {"role": "user", "content": {"type": "tool_result", "toolUseId": "c1", "content": [{"type": "text", "text": "18C"}]}}
            ],
            "systemPrompt": "Be brief.", "maxTokens": 100, "temperature": 0.3,
            "stopSequences": ["END"], "includeContext": "allServers",
            "tools": [{"name": "weather/get.now", "inputSchema": {"type": "object"}}],
            "toolChoice": {"mode": "required"}
        }))
        .unwrap();
        let request = provider_request(&params, "m", 100).unwrap();
        assert_eq!(request.system.as_deref(), Some("Be brief."));
        assert_eq!(request.max_tokens, 100);
        assert_eq!(request.temperature, Some(0.3));
        assert_eq!(request.stop_sequences, ["END"]);
        assert_eq!(request.tool_choice, ToolChoice::Required);
        // A name MCP allows and the providers do not, as they take it, in the tools and in
        // the conversation alike.
        let named = &request.tools[0].name;
        assert!(crate::naming::valid_name(named), "{named}");
        assert!(named.starts_with("weather_get_now_"), "{named}");
        assert!(
            matches!(&request.messages[1], Message::Assistant(c) if matches!(&c[0], AssistantContent::ToolCall(call) if call.name == *named))
        );
        assert_eq!(tool_names(&params)[named], "weather/get.now");
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
                    name: crate::naming::provider_name("weather.get"),
                    arguments: json!({"city": "Paris"}),
                }),
            ],
            stop_reason: StopReason::ToolUse,
            usage: None,
        };
        let names = HashMap::from([(
            crate::naming::provider_name("weather.get"),
            "weather.get".to_owned(),
        )]);
        let result = result_of(response, "gpt-4o", &names).unwrap();
        assert_eq!(
            serde_json::to_value(&result).unwrap(),
            json!({"role": "assistant", "model": "gpt-4o-2024", "stopReason": "toolUse",
                   "content": [{"type": "text", "text": "Let me look."},
                               {"type": "tool_use", "id": "c1", "name": "weather.get", "input": {"city": "Paris"}}]}),
            "the tool by the name its server gave it"
        );
    }
}
