//! What the providers check of a reasoning model's thinking when it comes back, as the
//! stand-in checks it:
//!
//! - Anthropic, with extended thinking on: in the round of tool calls under way (the
//!   request ends on their results), the model's message must begin with its thinking
//!   block, and every thinking block sent back must be one the model wrote, its text and
//!   signature unchanged.
//! - DeepSeek in its thinking mode (the script's `reasoning_back`): an assistant message
//!   with tool calls after the person's last message must carry its `reasoning_content`.

use serde_json::Value;

use crate::script::Script;

/// Why Anthropic refuses the request's thinking blocks, if it does.
pub fn anthropic_refusal(script: &Script, body: &Value) -> Option<String> {
    let messages = body.get("messages")?.as_array()?;
    let kind = |b: &Value| {
        b.get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let written: Vec<(&str, &str)> = script
        .turns
        .iter()
        .flat_map(|t| &t.content)
        .filter_map(|b| Some((b.thinking.as_deref()?, b.signature.as_deref()?)))
        .collect();
    for (n, message) in messages.iter().enumerate() {
        let Some(blocks) = message.get("content").and_then(Value::as_array) else {
            continue;
        };
        for (m, block) in blocks.iter().enumerate() {
            if kind(block) != "thinking" {
                continue;
            }
            let sent = (
                block["thinking"].as_str().unwrap_or(""),
                block["signature"].as_str().unwrap_or(""),
            );
            if !written.contains(&sent) {
                return Some(format!(
                    "messages.{n}.content.{m}: Invalid `signature` in `thinking` block"
                ));
            }
        }
    }
    if body.pointer("/thinking/type").and_then(Value::as_str) != Some("enabled") {
        return None;
    }
    let last = messages.last()?;
    let results = last["role"] == "user"
        && last["content"]
            .as_array()
            .is_some_and(|b| b.iter().any(|b| kind(b) == "tool_result"));
    let (n, answer) = messages
        .iter()
        .enumerate()
        .rev()
        .find(|(_, m)| m["role"] == "assistant")?;
    let first = answer["content"].as_array()?.first()?;
    (results && !matches!(kind(first).as_str(), "thinking" | "redacted_thinking")).then(|| {
        format!(
            "messages.{n}.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{}`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking",
            kind(first)
        )
    })
}

/// Why DeepSeek refuses the request, if it does: an assistant message of the turn under
/// way that called tools without its reasoning.
pub fn deepseek_refusal(script: &Script, body: &Value) -> Option<String> {
    if !script.reasoning_back {
        return None;
    }
    let messages = body.get("messages")?.as_array()?;
    let persons = messages
        .iter()
        .rposition(|m| m["role"] == "user")
        .unwrap_or(0);
    messages
        .iter()
        .enumerate()
        .skip(persons)
        .find(|(_, m)| {
            m["role"] == "assistant"
                && m.get("tool_calls").is_some_and(|c| !c.is_null())
                && !m.get("reasoning_content").is_some_and(Value::is_string)
        })
        .map(|(n, _)| {
            format!(
                "Missing `reasoning_content` field in the assistant message at message index {n}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls"
            )
        })
}
