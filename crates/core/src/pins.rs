//! Pinned trust: an allowance, a shared folder or a `trusted` mark holds for the server it
//! was given to as it was then, and for a tool as the person read it. A server is known by
//! what launches or reaches it (its identity); a tool by its definition. When either
//! changes (a command edited in the file, a description rewritten after `list_changed`:
//! a "rug pull"), the old trust no longer applies and the person is shown what changed.
//!
//! A server's identity is its configuration's (`ServerConfig::identity`). A tool's
//! definition is kept whole rather than hashed, so that the person can be shown the
//! difference; it compares as JSON, so the order in which a server writes its keys changes
//! nothing.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use switchboard_mcp::types::Tool;

/// A tool as the model and the person read it: what it says it does, what it takes, and
/// what it claims about itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ToolDefinition {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[cfg_attr(feature = "specta", specta(type = crate::json::Json))]
    pub input_schema: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(type = Option<crate::json::Json>))]
    pub annotations: Option<Value>,
}

impl ToolDefinition {
    pub fn of(tool: &Tool) -> Self {
        Self {
            name: tool.name.clone(),
            title: tool.title.clone(),
            description: tool.description.clone(),
            input_schema: Value::Object(tool.input_schema.clone()),
            annotations: tool
                .annotations
                .as_ref()
                .and_then(|a| serde_json::to_value(a).ok()),
        }
    }
}

/// What changed since the person allowed a call: shown in the question.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    /// The server's command, arguments, working folder, env names or address differ.
    pub server: bool,
    /// The tool as it was allowed and as it is now, if its definition differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<DefinitionChange>,
    /// The tool was not among those the server listed when the person allowed all of
    /// its tools: it came later.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub new_tool: bool,
    /// When the person allowed it (ms since the epoch).
    pub allowed_ms: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DefinitionChange {
    pub before: ToolDefinition,
    pub after: ToolDefinition,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_definition_compares_whatever_the_order_of_its_keys() {
        let tool = |schema: Value| -> Tool {
            serde_json::from_value(json!({"name": "t", "inputSchema": schema})).unwrap()
        };
        let one = tool(json!({"type": "object", "properties": {"a": {}, "b": {}}}));
        let other = tool(json!({"properties": {"b": {}, "a": {}}, "type": "object"}));
        assert_eq!(ToolDefinition::of(&one), ToolDefinition::of(&other));
        let more = tool(json!({"type": "object", "properties": {"a": {}, "b": {}, "c": {}}}));
        assert_ne!(ToolDefinition::of(&one), ToolDefinition::of(&more));
    }
}
