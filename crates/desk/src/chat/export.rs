//! A conversation written out for the person to keep elsewhere: Markdown to read (each
//! turn under who said it, tool calls with their arguments and results), in the words the
//! window gives (its language's; English by default), or JSON holding every part as the
//! window shows it.

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

/// The words a Markdown export is written in. `{name}` marks where a name goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ExportWords {
    /// A conversation not named yet.
    pub untitled: String,
    pub you: String,
    pub model: String,
    pub reasoning: String,
    pub hidden_reasoning: String,
    pub image: String,
    /// `{uri}` (written as code) and `{server}`.
    pub attached: String,
    /// `{server}`.
    pub app_wrote: String,
    /// `{server}`.
    pub app_told: String,
    pub tool_call: String,
    /// `{tool}` and `{server}`.
    pub tool_of: String,
    pub tool_result: String,
    pub tool_error: String,
    pub not_run: String,
    pub edited: String,
    pub summary: String,
}

impl Default for ExportWords {
    fn default() -> Self {
        let s = |x: &str| x.to_owned();
        Self {
            untitled: s(NEW_TITLE),
            you: s("You"),
            model: s("Model"),
            reasoning: s("Reasoning"),
            hidden_reasoning: s("reasoning the provider keeps hidden"),
            image: s("an image"),
            attached: s("Attached {uri} from {server}"),
            app_wrote: s("The app of {server} wrote"),
            app_told: s("The app of {server} told the model"),
            tool_call: s("Tool call"),
            tool_of: s("{tool} of {server}"),
            tool_result: s("Tool result"),
            tool_error: s("Tool error"),
            not_run: s("Not run"),
            edited: s("You changed the arguments of the call before it ran; it ran with"),
            summary: s("What came before, summarised to fit the model's context"),
        }
    }
}

/// `template` with each `{name}` of `names` put in.
fn fill(template: &str, names: &[(&str, &str)]) -> String {
    names
        .iter()
        .fold(template.to_owned(), |text, (name, value)| {
            text.replace(&format!("{{{name}}}"), value)
        })
}

/// `view` written out in `format`, a Markdown one in `words`.
pub fn export(view: &ConversationView, format: ExportFormat, words: &ExportWords) -> Exported {
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
            text: markdown(view, words),
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

fn markdown(view: &ConversationView, words: &ExportWords) -> String {
    let title = match view.summary.title.as_str() {
        "" | NEW_TITLE => &words.untitled,
        title => title,
    };
    let mut out = format!("# {title}\n");
    for message in &view.messages {
        let who = match message.role {
            Role::User => &words.you,
            Role::Assistant => &words.model,
        };
        out.push_str(&format!("\n## {who}\n"));
        for part in &message.parts {
            out.push('\n');
            out.push_str(&part_markdown(part, words));
            out.push('\n');
        }
    }
    out
}

fn part_markdown(part: &ShownPart, words: &ExportWords) -> String {
    match part {
        ShownPart::Text { text } => text.clone(),
        ShownPart::Note { text } => format!("*{text}*"),
        ShownPart::Edited { arguments, .. } => format!(
            "*{}:*\n\n{}",
            words.edited,
            fenced("json", &pretty(&arguments.0))
        ),
        ShownPart::Summary { text } => format!("*{}:*\n\n{text}", words.summary),
        ShownPart::Reasoning { redacted: true, .. } => format!("*({})*", words.hidden_reasoning),
        ShownPart::Reasoning { text, .. } => {
            let quoted: Vec<String> = text.lines().map(|line| format!("> {line}")).collect();
            format!("{}:\n\n{}", words.reasoning, quoted.join("\n"))
        }
        ShownPart::Image { url, .. } => match url {
            Some(url) => format!("![{}]({url})", words.image),
            None => format!("*({})*", words.image),
        },
        ShownPart::Resource {
            server, uri, text, ..
        } => {
            let code = format!("`{uri}`");
            let attached = fill(&words.attached, &[("uri", &code), ("server", server)]);
            format!("{attached}:\n\n{}", fenced("", text))
        }
        ShownPart::App { server, says, text } => {
            let what = if says == "context" {
                &words.app_told
            } else {
                &words.app_wrote
            };
            let what = fill(what, &[("server", server)]);
            format!("{what}:\n\n{}", fenced("", text))
        }
        ShownPart::ToolCall {
            name,
            server,
            tool,
            arguments,
            ..
        } => {
            let called = match (server, tool) {
                (Some(server), Some(tool)) => {
                    fill(&words.tool_of, &[("tool", tool), ("server", server)])
                }
                _ => name.clone(),
            };
            format!(
                "{}: **{called}**\n\n{}",
                words.tool_call,
                fenced("json", &pretty(&arguments.0))
            )
        }
        ShownPart::ToolResult {
            result,
            is_error,
            not_made,
            ..
        } => match not_made {
            Some(reason) => format!("{}: {reason}", words.not_run),
            None => {
                let what = if *is_error {
                    &words.tool_error
                } else {
                    &words.tool_result
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
