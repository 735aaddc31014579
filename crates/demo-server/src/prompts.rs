//! Prompts, and the completion of their arguments and of the greeting template's name.

use std::collections::BTreeMap;

use serde_json::Map;
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::types::*;

use crate::resources::{self, GREETING_TEMPLATE};

pub const STYLES: [&str; 3] = ["brief", "detailed", "bullet points"];
pub const NAMES: [&str; 8] = [
    "Ada",
    "Alan",
    "Barbara",
    "Grace",
    "Katherine",
    "Linus",
    "Margaret",
    "Tim",
];

fn argument(name: &str, description: &str, required: bool) -> PromptArgument {
    PromptArgument {
        name: name.to_owned(),
        title: None,
        description: Some(description.to_owned()),
        required: Some(required),
        extra: Map::new(),
    }
}

fn prompt(name: &str, title: &str, description: &str, arguments: Vec<PromptArgument>) -> Prompt {
    Prompt {
        name: name.to_owned(),
        title: Some(title.to_owned()),
        description: Some(description.to_owned()),
        arguments: Some(arguments),
        icons: None,
        meta: None,
        extra: Map::new(),
    }
}

pub fn list() -> ListPromptsResult {
    ListPromptsResult {
        prompts: vec![
            prompt(
                "summarize",
                "Summarize a text",
                "Asks the model to summarize a text in the style you choose.",
                vec![
                    argument("text", "The text to summarize", true),
                    argument("style", "brief, detailed or bullet points", false),
                ],
            ),
            prompt(
                "greet",
                "Greet someone",
                "Asks the model to greet someone, with the greeting resource attached.",
                vec![argument("name", "Who to greet", true)],
            ),
        ],
        next_cursor: None,
        meta: None,
        skipped: Vec::new(),
        extra: Map::new(),
    }
}

fn message(content: ContentBlock) -> PromptMessage {
    PromptMessage {
        role: Role::User,
        content,
        extra: Map::new(),
    }
}

pub fn get(params: GetPromptRequestParams) -> Result<GetPromptResult, ErrorObject> {
    let arguments = params.arguments.unwrap_or_default();
    let (description, messages) = match params.name.as_str() {
        "summarize" => {
            let text = required(&arguments, "text")?;
            let style = arguments.get("style").map_or("brief", String::as_str);
            let how = match style {
                "brief" => "in one or two sentences",
                "detailed" => "in detail, keeping every important point",
                "bullet points" => "as a short list of bullet points",
                other => {
                    return Err(ErrorObject::invalid_params(format!(
                        "style {other:?} is not one of {}",
                        STYLES.join(", ")
                    )));
                }
            };
            let request = format!("Please summarize the following text {how}.\n\n{text}");
            (
                format!("A {style} summary"),
                vec![message(ContentBlock::text(request))],
            )
        }
        "greet" => {
            let name = required(&arguments, "name")?;
            let greeting = resources::greeting(name);
            (
                format!("A greeting for {name}"),
                vec![
                    message(ContentBlock::text(format!(
                        "Please greet {name} warmly, in one sentence, starting from this greeting:"
                    ))),
                    message(ContentBlock::Resource(EmbeddedResource {
                        resource: greeting,
                        annotations: None,
                        meta: None,
                        extra: Map::new(),
                    })),
                ],
            )
        }
        other => {
            return Err(ErrorObject::invalid_params(format!(
                "unknown prompt {other:?} (this server offers: summarize, greet)"
            )));
        }
    };
    Ok(GetPromptResult {
        description: Some(description),
        messages,
        meta: None,
        extra: Map::new(),
    })
}

fn required<'a>(
    arguments: &'a BTreeMap<String, String>,
    name: &str,
) -> Result<&'a str, ErrorObject> {
    arguments
        .get(name)
        .map(String::as_str)
        .filter(|value| !value.trim().is_empty())
        .ok_or_else(|| ErrorObject::invalid_params(format!("missing the argument `{name}`")))
}

/// `completion/complete`: the values that start with what was typed, ignoring case.
pub fn complete(params: &CompleteRequestParams) -> Result<CompleteResult, ErrorObject> {
    let argument = params.argument.name.as_str();
    let candidates: &[&str] = match &params.reference {
        Reference::Prompt(prompt) => match (prompt.name.as_str(), argument) {
            ("summarize", "style") => &STYLES,
            ("greet", "name") => &NAMES,
            ("summarize" | "greet", _) => &[],
            (other, _) => {
                return Err(ErrorObject::invalid_params(format!(
                    "unknown prompt {other:?}"
                )));
            }
        },
        Reference::Resource(template) => match (template.uri.as_str(), argument) {
            (GREETING_TEMPLATE, "name") => &NAMES,
            (GREETING_TEMPLATE, _) => &[],
            (other, _) => {
                return Err(ErrorObject::invalid_params(format!(
                    "unknown resource template {other:?}"
                )));
            }
        },
    };
    let typed = params.argument.value.to_lowercase();
    let values: Vec<String> = candidates
        .iter()
        .filter(|value| value.to_lowercase().starts_with(&typed))
        .map(|value| (*value).to_owned())
        .collect();
    Ok(CompleteResult {
        completion: Completion {
            total: Some(values.len() as u64),
            has_more: Some(false),
            values,
            extra: Map::new(),
        },
        meta: None,
        extra: Map::new(),
    })
}
