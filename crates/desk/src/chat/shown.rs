//! The chat as the window shows it: a conversation's messages and their parts, what the
//! person sends, and which tools a conversation's model sees.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use switchboard_chat::{
    ConversationSettings, ConversationSummary, Enablement, MANY_TOOLS, Spent, Toolset,
};
use switchboard_chat::{apps, compaction, context, results};
use switchboard_core::catalog::CatalogTool;
use switchboard_core::config::{Config, ModelPrice, ProviderEntry};
use switchboard_core::json::Json;
use switchboard_mcp::types::Tool;
use switchboard_providers::{
    AssistantContent, Image, Message, ToolResult, ToolResultContent, UserContent,
};

/// A conversation opened for the window: its messages as they are shown, whether a run
/// goes on in it, and how it asks its model.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ConversationView {
    pub summary: ConversationSummary,
    pub messages: Vec<ShownMessage>,
    pub running: bool,
    pub settings: ConversationSettings,
    /// What all its answers took.
    pub spent: SpentTotal,
}

/// What a model's answer took, and what it cost when the person gave its model's prices.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ShownSpent {
    pub model: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// In dollars; `None` without a price for the model.
    #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Number>))]
    pub cost: Option<f64>,
}

/// What a conversation's answers took in all.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SpentTotal {
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// In dollars, of the answers whose model has a price.
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub cost: f64,
    /// Answers whose model has no price, left out of `cost`.
    pub unpriced: u32,
}

impl SpentTotal {
    pub(super) fn of<'a>(spent: impl IntoIterator<Item = &'a ShownSpent>) -> Self {
        let mut total = Self::default();
        for one in spent {
            total.input_tokens += one.input_tokens;
            total.output_tokens += one.output_tokens;
            match one.cost {
                Some(cost) => total.cost += cost,
                None => total.unpriced += 1,
            }
        }
        total
    }
}

/// The price of `model`: as `provider` gives it, else as any provider that prices it.
pub(super) fn price_of(config: &Config, provider: Option<&str>, model: &str) -> Option<ModelPrice> {
    let priced = |entry: &ProviderEntry| entry.prices.get(model).copied();
    provider
        .and_then(|p| config.providers.get(p))
        .and_then(priced)
        .or_else(|| config.providers.values().find_map(priced))
}

/// An answer's spending as the window shows it, priced by `price`.
pub(super) fn shown_spent(spent: &Spent, price: Option<ModelPrice>) -> ShownSpent {
    ShownSpent {
        model: spent.model.clone(),
        input_tokens: spent.input_tokens,
        output_tokens: spent.output_tokens,
        cost: price.map(|p| {
            let cached = spent.cache_read_tokens.min(spent.input_tokens);
            p.cost(spent.input_tokens - cached, spent.output_tokens, cached)
        }),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
}

/// One message of a conversation as the window shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ShownMessage {
    pub role: Role,
    pub parts: Vec<ShownPart>,
    /// It begins a turn of the person's: one they may edit or take back.
    pub turn: bool,
    /// For the model's answer, what it took.
    pub spent: Option<ShownSpent>,
}

/// A piece of a message. A tool's result is given in MCP's `CallToolResult` shape
/// (`content`, `isError`), so the window renders it as it renders the explorer's.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum ShownPart {
    Text {
        text: String,
    },
    Image {
        media_type: Option<String>,
        data: Option<String>,
        url: Option<String>,
    },
    /// A resource attached as context: what the model was given of it.
    Resource {
        server: String,
        uri: String,
        mime_type: Option<String>,
        text: String,
    },
    ToolCall {
        call_id: String,
        /// The name the model called.
        name: String,
        /// The server and tool it leads to, while that server runs.
        server: Option<String>,
        tool: Option<String>,
        arguments: Json,
    },
    /// What the host told the model beside the results of its calls, in its words.
    Note {
        text: String,
    },
    /// The person changed the arguments of the call `call_id` before it ran: what it ran
    /// with (the model was told so beside the results).
    Edited {
        call_id: String,
        arguments: Json,
    },
    /// The earlier turns, summarised by the model to fit its context: what it wrote.
    Summary {
        text: String,
    },
    /// What a view (MCP Apps) in the conversation said: a message of its own, or what it
    /// told the model of its state (`says`: "message" or "context").
    App {
        server: String,
        says: String,
        text: String,
    },
    /// What the model thought before it answered; `redacted` when the provider keeps it
    /// from being read.
    Reasoning {
        text: String,
        redacted: bool,
    },
    ToolResult {
        call_id: String,
        result: Json,
        is_error: bool,
        /// Why the call was never made (denied, stopped), as the model was told; none
        /// when the tool ran.
        not_made: Option<String>,
    },
}

/// What the person sends: their text, the resources they attach to it, and the prompt
/// they use as a slash command.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Composed {
    pub text: String,
    pub attachments: Vec<Attachment>,
    pub prompt: Option<PromptUse>,
}

/// A resource of a running server, attached to a message.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Attachment {
    pub server: String,
    pub uri: String,
}

/// A prompt of a running server with its arguments.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PromptUse {
    pub server: String,
    pub name: String,
    pub arguments: BTreeMap<String, String>,
}

/// Which tools a conversation's model sees: every running server's, with its toggle.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ChatTools {
    pub servers: Vec<ChatServerTools>,
    /// How many tools the model is offered now.
    pub offered: u32,
    /// Above this many, the person is warned.
    pub many: u32,
    /// The tools left out, when more are on than a model is offered.
    pub left_out: Option<LeftOut>,
}

/// More tools on than a model is offered: how many are on, the first few left out by
/// name, and how many more. `Display` is the host's English.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LeftOut {
    pub on: u32,
    pub named: Vec<LeftOutTool>,
    pub more: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LeftOutTool {
    pub server: String,
    pub tool: String,
}

impl std::fmt::Display for LeftOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut named: Vec<String> = self
            .named
            .iter()
            .map(|t| format!("{}'s {}", t.server, t.tool))
            .collect();
        if self.more > 0 {
            named.push(format!("{} more", self.more));
        }
        write!(
            f,
            "{} tools are on, and a model is offered {MANY_TOOLS} at most: left out are {}. \
             Switch off the servers or tools this conversation does not need.",
            self.on,
            named.join(", ")
        )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ChatServerTools {
    pub server: String,
    pub on: bool,
    pub tools: Vec<ChatTool>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ChatTool {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub on: bool,
}

/// The tools of `catalog` under the toggles `enablement`: all of them offered to a model
/// that searches them (more than `search_above`), else the most a model takes.
pub(super) fn chat_tools(
    catalog: Vec<CatalogTool>,
    enablement: &Enablement,
    search_above: Option<usize>,
) -> ChatTools {
    let mut servers: BTreeMap<String, ChatServerTools> = BTreeMap::new();
    for entry in &catalog {
        let server = servers
            .entry(entry.server.clone())
            .or_insert_with(|| ChatServerTools {
                server: entry.server.clone(),
                on: !enablement.servers_off.contains(&entry.server),
                tools: Vec::new(),
            });
        server
            .tools
            .push(chat_tool(&entry.tool, enablement, &entry.server));
    }
    let all = Toolset::all(catalog, enablement);
    let offered = if search_above.is_some_and(|most| all.len() > most) {
        all
    } else {
        all.capped()
    };
    let left_out = offered.left_out();
    const NAMED: usize = 5;
    let left_out = (!left_out.is_empty()).then(|| LeftOut {
        on: (offered.len() + left_out.len()) as u32,
        named: left_out
            .iter()
            .take(NAMED)
            .map(|(server, tool)| LeftOutTool {
                server: server.clone(),
                tool: tool.clone(),
            })
            .collect(),
        more: left_out.len().saturating_sub(NAMED) as u32,
    });
    ChatTools {
        servers: servers.into_values().collect(),
        offered: offered.len() as u32,
        many: MANY_TOOLS as u32,
        left_out,
    }
}

fn chat_tool(tool: &Tool, enablement: &Enablement, server: &str) -> ChatTool {
    ChatTool {
        name: tool.name.clone(),
        title: tool.title.clone(),
        description: tool.description.clone(),
        on: !enablement
            .tools_off
            .get(server)
            .is_some_and(|off| off.contains(&tool.name)),
    }
}

pub(super) fn shown_message(message: &Message, names: &Toolset) -> ShownMessage {
    match message {
        Message::User(content) => {
            // Beside tool results, a text is the host's word to the model, not the person's.
            let answers = content
                .iter()
                .any(|part| matches!(part, UserContent::ToolResult(_)));
            // A summary stands for earlier turns: it is not one the person can edit.
            let summary = content.iter().any(
                |part| matches!(part, UserContent::Text(text) if compaction::summarised(text).is_some()),
            );
            ShownMessage {
                role: Role::User,
                turn: !answers && !summary,
                spent: None,
                parts: content
                    .iter()
                    .map(|part| match part {
                        UserContent::Text(text) if answers => match results::edited_of(text) {
                            Some((call_id, ran)) => ShownPart::Edited {
                                call_id,
                                arguments: Json(ran),
                            },
                            None => ShownPart::Note { text: text.clone() },
                        },
                        UserContent::Text(text) => shown_text(text),
                        UserContent::Image(image) => shown_image(image),
                        UserContent::ToolResult(result) => shown_result(result),
                    })
                    .collect(),
            }
        }
        Message::Assistant(content) => ShownMessage {
            role: Role::Assistant,
            turn: false,
            spent: None,
            parts: content
                .iter()
                .map(|part| match part {
                    AssistantContent::Text(text) => ShownPart::Text { text: text.clone() },
                    AssistantContent::Reasoning(reasoning) => ShownPart::Reasoning {
                        text: reasoning.text.clone(),
                        redacted: reasoning.redacted.is_some(),
                    },
                    AssistantContent::ToolCall(call) => {
                        let offered = names.get(&call.name);
                        ShownPart::ToolCall {
                            call_id: call.id.clone(),
                            name: call.name.clone(),
                            server: offered.map(|t| t.server.clone()),
                            tool: offered.map(|t| t.tool.name.clone()),
                            arguments: Json(call.arguments.clone()),
                        }
                    }
                })
                .collect(),
        },
    }
}

/// A kept text of a user message: an attachment, a view's words, or the person's text.
fn shown_text(text: &str) -> ShownPart {
    if let Some(summary) = compaction::summarised(text) {
        return ShownPart::Summary {
            text: summary.to_owned(),
        };
    }
    if let Some(attached) = context::attached(text) {
        return ShownPart::Resource {
            server: attached.server,
            uri: attached.uri,
            mime_type: attached.mime_type,
            text: attached.text,
        };
    }
    if let Some(said) = apps::said(text) {
        let says = match said.says {
            apps::Says::Message => "message",
            apps::Says::Context => "context",
        };
        return ShownPart::App {
            server: said.server,
            says: says.into(),
            text: said.text,
        };
    }
    ShownPart::Text {
        text: text.to_owned(),
    }
}

fn shown_image(image: &Image) -> ShownPart {
    match image {
        Image::Base64 { media_type, data } => ShownPart::Image {
            media_type: Some(media_type.clone()),
            data: Some(data.clone()),
            url: None,
        },
        Image::Url { url } => ShownPart::Image {
            media_type: None,
            data: None,
            url: Some(url.clone()),
        },
    }
}

/// A result as it went to the model, in MCP's `CallToolResult` shape.
fn shown_result(result: &ToolResult) -> ShownPart {
    let content: Vec<serde_json::Value> = result
        .content
        .iter()
        .map(|block| match block {
            ToolResultContent::Text(text) => serde_json::json!({"type": "text", "text": text}),
            ToolResultContent::Image(Image::Base64 { media_type, data }) => {
                serde_json::json!({"type": "image", "mimeType": media_type, "data": data})
            }
            ToolResultContent::Image(Image::Url { url }) => {
                serde_json::json!({"type": "text", "text": format!("[image at {url}]")})
            }
        })
        .collect();
    ShownPart::ToolResult {
        call_id: result.call_id.clone(),
        result: Json(serde_json::json!({"content": content, "isError": result.is_error})),
        is_error: result.is_error,
        not_made: switchboard_chat::results::not_made(result).map(str::to_owned),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(server: &str, name: &str) -> CatalogTool {
        let tool: Tool = serde_json::from_value(json!({
            "name": name, "inputSchema": {"type": "object"}
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        CatalogTool {
            id: format!("{server}__{name}"),
            server: server.into(),
            tool,
        }
    }

    #[test]
    fn the_toggles_count_the_tools_offered_and_name_those_left_out_above_the_limit() {
        let mut catalog: Vec<CatalogTool> =
            (0..130).map(|n| tool("big", &format!("t{n}"))).collect();
        catalog.push(tool("demo", "echo"));
        let all = chat_tools(catalog.clone(), &Enablement::default(), None);
        assert_eq!(all.offered, 128);
        let warning = all.left_out.map(|l| l.to_string()).unwrap_or_default();
        assert!(
            warning.contains("131 tools are on")
                && warning.contains("left out are big's t128, big's t129, demo's echo"),
            "{warning}"
        );

        let mut enablement = Enablement::default();
        enablement.set_server("big", false);
        enablement.set_tool("demo", "echo", false);
        // A model that searches them may find every one.
        let searched = chat_tools(catalog.clone(), &Enablement::default(), Some(40));
        assert_eq!((searched.offered, searched.left_out), (131, None));
        let few = chat_tools(catalog, &enablement, None);
        assert_eq!(few.offered, 0);
        assert_eq!(few.left_out, None);
        assert!(!few.servers[0].on);
        assert_eq!(few.servers[1].server, "demo");
        assert!(!few.servers[1].tools[0].on);
    }

    #[test]
    fn a_result_is_shown_in_the_shape_of_an_mcp_result() {
        let shown = shown_result(&ToolResult {
            call_id: "c1".into(),
            content: vec![ToolResultContent::Text("hi".into())],
            is_error: true,
            not_made: false,
        });
        assert_eq!(
            shown,
            ShownPart::ToolResult {
                call_id: "c1".into(),
                result: Json(json!({"content": [{"type": "text", "text": "hi"}], "isError": true})),
                is_error: true,
                not_made: None,
            }
        );
        let denied = switchboard_chat::results::denied(
            "c2",
            &switchboard_core::decisions::DecidedBy::Person,
        );
        let ShownPart::ToolResult { not_made, .. } = shown_result(&denied) else {
            unreachable!()
        };
        assert!(not_made.is_some_and(|why| why.contains("the user denied it")));
    }
}
