//! What the providers check of a reasoning model's thinking when it comes back, as the
//! stand-in checks it:
//!
//! - Anthropic, with extended thinking on: in the round of tool calls under way (the
//!   request ends on their results), the model's message must begin with its thinking
//!   block, and every thinking block sent back must be one the model wrote, its text and
//!   signature unchanged.
//! - DeepSeek in its thinking mode (the script's `reasoning_back`): an assistant message
//!   with tool calls after the person's last message must carry its `reasoning_content`.
//! - OpenAI's Responses API when it keeps nothing between requests (`store: false`, the
//!   script's `reasoning_back`): a function call the model made after reasoning must come
//!   back after that reasoning item, its `encrypted_content` as the answer gave it.

use serde_json::Value;

use crate::responses;
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

/// Why OpenAI's Responses API refuses the request, if it does: a function call of the
/// script's sent back without the reasoning item it followed, or with that item's
/// encrypted content changed.
pub fn responses_refusal(script: &Script, body: &Value) -> Option<String> {
    if !script.reasoning_back {
        return None;
    }
    let input = body.get("input")?.as_array()?;
    let reasoned = responses::reasoned_calls(&script.turns);
    input.iter().enumerate().find_map(|(n, call)| {
        let written = reasoned
            .iter()
            .find(|r| call["type"] == "function_call" && call["call_id"] == r.call_id.as_str())?;
        let reasoning = &written.reasoning_id;
        let sent = input[..n]
            .iter()
            .rev()
            .find(|item| item["type"] == "reasoning" && item["id"] == reasoning.as_str());
        match sent {
            None => Some(format!(
                "Item '{}' of type 'function_call' was provided without its required 'reasoning' item: '{reasoning}'.",
                call["id"].as_str().unwrap_or(&written.item_id)
            )),
            Some(item) if item["encrypted_content"] != written.encrypted.as_str() => Some(format!(
                "The encrypted content for item {reasoning} could not be verified."
            )),
            Some(_) => None,
        }
    })
}
