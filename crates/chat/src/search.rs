//! Many servers without a full context: past a number of tools, the model is offered one
//! tool of the host's own that searches the enabled tools (by their names, titles and
//! descriptions), and a tool's schema is sent only once a search found it (or the model
//! called it before in the conversation). With dozens of servers the schemas would fill
//! the context on every request.

use std::collections::BTreeSet;

use serde_json::{Value, json};
use switchboard_providers::{AssistantContent, Message, Tool};

use crate::naming::{OfferedTool, Toolset};

/// The host's search tool, as the model calls it (a name no server's tool takes: see
/// `naming`, whose names have a double underscore).
pub const SEARCH: &str = "switchboard_search_tools";

/// The most tools one search finds.
const FOUND: usize = 8;

/// The search tool as the model is told of it.
pub fn search_tool(count: usize) -> Tool {
    Tool {
        name: SEARCH.to_owned(),
        description: Some(format!(
            "Searches the {count} tools of the person's MCP servers by what they do. Call it \
             before you need a tool: the tools it finds can be called from then on."
        )),
        parameters: json!({
            "type": "object",
            "properties": {"query": {"type": "string", "description": "What the tool should do, in a few words"}},
            "required": ["query"]
        }),
    }
}

/// The tools a model that searches is offered now: the search, and those it found or
/// called.
pub fn offered(toolset: &Toolset, loaded: &BTreeSet<String>) -> Vec<Tool> {
    std::iter::once(search_tool(toolset.len()))
        .chain(
            toolset
                .tools()
                .iter()
                .filter(|t| loaded.contains(&t.name))
                .map(OfferedTool::to_provider),
        )
        .collect()
}

/// The tools the model called before in the conversation: they stay offered.
pub fn called(messages: &[Message]) -> BTreeSet<String> {
    messages
        .iter()
        .filter_map(|m| match m {
            Message::Assistant(parts) => Some(parts),
            Message::User(_) => None,
        })
        .flatten()
        .filter_map(|part| match part {
            AssistantContent::ToolCall(call) => Some(call.name.clone()),
            _ => None,
        })
        .collect()
}

/// The tools that best match `query`, by how many of its words their name, title and
/// description hold.
pub fn find<'a>(toolset: &'a Toolset, query: &str) -> Vec<&'a OfferedTool> {
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 1)
        .map(str::to_lowercase)
        .collect();
    let mut scored: Vec<(usize, &OfferedTool)> = toolset
        .tools()
        .iter()
        .map(|tool| {
            let said = format!(
                "{} {} {} {}",
                tool.name,
                tool.tool.name,
                tool.tool.title.as_deref().unwrap_or_default(),
                tool.tool.description.as_deref().unwrap_or_default()
            )
            .to_lowercase();
            (
                words.iter().filter(|w| said.contains(w.as_str())).count(),
                tool,
            )
        })
        .filter(|(score, _)| *score > 0)
        .collect();
    scored.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
    scored.into_iter().take(FOUND).map(|(_, t)| t).collect()
}

/// What the model is told a search found.
pub fn listing(found: &[&OfferedTool]) -> String {
    if found.is_empty() {
        return "No tool matches: try other words.".to_owned();
    }
    let lines: Vec<String> = found
        .iter()
        .map(|t| {
            let tool = t.to_provider();
            format!(
                "- {} ({}): {}",
                tool.name,
                t.server,
                tool.description.unwrap_or_default()
            )
        })
        .collect();
    format!(
        "These tools can be called from now on:\n{}",
        lines.join("\n")
    )
}

/// The query of a search call's arguments.
pub fn query_of(arguments: &Value) -> String {
    arguments
        .get("query")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naming::Enablement;
    use switchboard_core::catalog::CatalogTool;

    fn toolset() -> Toolset {
        let tool = |server: &str, name: &str, description: &str| CatalogTool {
            id: String::new(),
            server: server.to_owned(),
            tool: serde_json::from_value(json!({
                "name": name, "description": description, "inputSchema": {"type": "object"}
            }))
            .expect("a tool"),
        };
        Toolset::new(
            vec![
                tool("files", "read_file", "Reads a file's text"),
                tool("files", "write_file", "Writes text to a file"),
                tool("web", "fetch", "Fetches a web page's text"),
            ],
            &Enablement::default(),
        )
    }

    #[test]
    fn the_tools_that_hold_most_of_the_words_come_first() {
        let tools = toolset();
        let names = |query: &str| -> Vec<String> {
            find(&tools, query).iter().map(|t| t.name.clone()).collect()
        };
        assert_eq!(names("read a file")[0], "files__read_file");
        assert_eq!(names("fetch a web page"), ["web__fetch"]);
        assert!(names("spreadsheet").is_empty());
        assert!(listing(&find(&tools, "web")).contains("web__fetch (web): "));
    }

    #[test]
    fn the_search_and_what_was_found_or_called_are_offered() {
        let tools = toolset();
        let called = called(&[Message::Assistant(vec![AssistantContent::ToolCall(
            switchboard_providers::ToolCall {
                id: "c1".into(),
                name: "web__fetch".into(),
                arguments: json!({}),
            },
        )])]);
        let offered: Vec<String> = offered(&tools, &called)
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(offered, [SEARCH, "web__fetch"]);
    }
}
