//! A conversation written out for the person to keep elsewhere: Markdown to read (each
//! turn under who said it, tool calls with their arguments and results), or JSON holding
//! every part as the window shows it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::NEW_TITLE;
use super::shown::{ConversationView, Role, ShownPart};

/// The form a conversation is exported in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum ExportFormat {
    Markdown,
    Json,
}

/// A conversation written out: the file name it is offered under, and its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Exported {
    pub file_name: String,
    pub text: String,
}

/// `view` written out in `format`.
pub fn export(view: &ConversationView, format: ExportFormat) -> Exported {
    let stem: String = view
        .summary
        .title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || " -_".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let stem = match stem.trim() {
        "" => "conversation",
        stem => stem,
    };
    match format {
        ExportFormat::Markdown => Exported {
            file_name: format!("{stem}.md"),
            text: markdown(view),
        },
        ExportFormat::Json => Exported {
            file_name: format!("{stem}.json"),
            text: serde_json::to_string_pretty(&serde_json::json!({
                "title": view.summary.title,
                "createdMs": view.summary.created_ms,
                "updatedMs": view.summary.updated_ms,
                "messages": view.messages,
            }))
            .unwrap_or_default(),
        },
    }
}

fn markdown(view: &ConversationView) -> String {
    let title = match view.summary.title.as_str() {
        "" => NEW_TITLE,
        title => title,
    };
    let mut out = format!("# {title}\n");
    for message in &view.messages {
        let who = match message.role {
            Role::User => "You",
            Role::Assistant => "Model",
        };
        out.push_str(&format!("\n## {who}\n"));
        for part in &message.parts {
            out.push('\n');
            out.push_str(&part_markdown(part));
            out.push('\n');
        }
    }
    out
}

fn part_markdown(part: &ShownPart) -> String {
    match part {
        ShownPart::Text { text } => text.clone(),
        ShownPart::Note { text } => format!("*{text}*"),
        ShownPart::Edited { arguments, .. } => format!(
            "*You changed the arguments of the call before it ran; it ran with:*\n\n{}",
            fenced("json", &pretty(&arguments.0))
        ),
        ShownPart::Summary { text } => {
            format!("*What came before, summarised to fit the model's context:*\n\n{text}")
        }
        ShownPart::Reasoning { redacted: true, .. } => {
            "*(reasoning the provider keeps hidden)*".to_owned()
        }
        ShownPart::Reasoning { text, .. } => {
            let quoted: Vec<String> = text.lines().map(|line| format!("> {line}")).collect();
            format!("Reasoning:\n\n{}", quoted.join("\n"))
        }
        ShownPart::Image { url, .. } => match url {
            Some(url) => format!("![image]({url})"),
            None => "*(an image)*".to_owned(),
        },
        ShownPart::Resource {
            server, uri, text, ..
        } => {
            format!("Attached `{uri}` from {server}:\n\n{}", fenced("", text))
        }
        ShownPart::App { server, says, text } => {
            let what = if says == "context" {
                "told the model"
            } else {
                "wrote"
            };
            format!(
                "The app of {server} {what}:

{}",
                fenced("", text)
            )
        }
        ShownPart::ToolCall {
            name,
            server,
            tool,
            arguments,
            ..
        } => {
            let called = match (server, tool) {
                (Some(server), Some(tool)) => format!("{tool} of {server}"),
                _ => name.clone(),
            };
            format!(
                "Tool call: **{called}**\n\n{}",
                fenced("json", &pretty(&arguments.0))
            )
        }
        ShownPart::ToolResult {
            result,
            is_error,
            not_made,
            ..
        } => match not_made {
            Some(reason) => format!("Not run: {reason}"),
            None => {
                let what = if *is_error {
                    "Tool error"
                } else {
                    "Tool result"
                };
                format!("{what}:\n\n{}", result_text(&result.0))
            }
        },
    }
}

/// A result's text blocks as they read, anything else as its JSON.
fn result_text(result: &Value) -> String {
    let texts: Vec<&str> = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|block| block["text"].as_str())
        .collect();
    let blocks = result["content"].as_array().map_or(0, Vec::len);
    if !texts.is_empty() && texts.len() == blocks {
        fenced("", &texts.join("\n"))
    } else {
        fenced("json", &pretty(result))
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// `text` in a fence longer than any run of backticks in it.
fn fenced(language: &str, text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}{language}\n{text}\n{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_is_longer_than_any_backticks_inside() {
        assert_eq!(fenced("", "a"), "```\na\n```");
        assert_eq!(fenced("md", "````x"), "`````md\n````x\n`````");
    }
}
