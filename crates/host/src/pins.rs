//! Pinned trust: an allowance, a shared folder or a `trusted` mark holds for the server it
//! was given to as it was then, and for a tool as the person read it. A server is known by
//! what launches or reaches it (its identity); a tool by its definition. When either
//! changes (a command edited in the file, a description rewritten after `list_changed`:
//! a "rug pull"), the old trust no longer applies and the person is shown what changed.
//!
//! Identities are SHA-256 fingerprints (the RustCrypto `sha2` crate, already in the build
//! through the HTTP stack) of canonical JSON. A tool's definition is kept whole rather than
//! hashed, so that the person can be shown the difference; it compares as JSON, so the
//! order in which a server writes its keys changes nothing.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use switchboard_mcp::transport::http::HttpMode;
use switchboard_mcp::types::Tool;

use crate::config::{ServerConfig, ServerSpec};

/// What launches or reaches a server. Env and header values are left out: a rotated token
/// is the same server.
#[derive(Serialize)]
#[serde(tag = "transport", rename_all = "snake_case")]
enum Identity<'a> {
    Stdio {
        command: &'a str,
        args: &'a [String],
        cwd: Option<&'a PathBuf>,
        env: Vec<&'a str>,
    },
    Http {
        url: &'a str,
        legacy_sse: bool,
    },
    /// An entry that does not say how to reach a server is known by its whole text.
    Unusable {
        entry: &'a ServerConfig,
    },
}

/// The fingerprint of the server `config` describes: the same for the same command line,
/// working folder and env names (or address), different for any change of those.
pub fn identity(config: &ServerConfig) -> String {
    let identity = match config.spec("") {
        Ok(ServerSpec::Stdio {
            command,
            args,
            env,
            cwd,
        }) => Identity::Stdio {
            command,
            args,
            cwd,
            env: env.keys().map(String::as_str).collect(),
        },
        // Only SSE names another endpoint; Streamable HTTP with or without the fallback is
        // the same server (and fingerprints made before the choice existed still match).
        Ok(ServerSpec::Http { url, mode, .. }) => Identity::Http {
            url,
            legacy_sse: mode == HttpMode::LegacySse,
        },
        Err(_) => Identity::Unusable { entry: config },
    };
    let json = serde_json::to_value(identity).unwrap_or_default();
    let digest = Sha256::digest(canonical(&json).to_string().as_bytes());
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The same JSON with every object's keys in order, so that equal values print the same.
fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let sorted: Map<String, Value> = keys
                .into_iter()
                .map(|key| (key.clone(), canonical(&map[key])))
                .collect();
            Value::Object(sorted)
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

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
    #[cfg_attr(feature = "specta", specta(type = f64))]
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
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;
    use crate::config::EnvValue;

    fn stdio(command: &str, args: &[&str]) -> ServerConfig {
        ServerConfig {
            command: Some(command.into()),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            ..ServerConfig::default()
        }
    }

    #[test]
    fn a_server_is_known_by_what_launches_it_not_by_its_secrets() {
        let server = stdio("npx", &["-y", "files"]);
        let same = identity(&server);
        assert_eq!(same.len(), 64);
        let mut rotated = server.clone();
        rotated.env = BTreeMap::from([("TOKEN".into(), EnvValue::Plain("one".into()))]);
        let mut rotated_again = rotated.clone();
        rotated_again
            .env
            .insert("TOKEN".into(), EnvValue::Plain("two".into()));
        assert_eq!(
            identity(&rotated),
            identity(&rotated_again),
            "a new token value is the same server"
        );
        let changes = [
            stdio("npx", &["-y", "files", "--write"]),
            stdio("uvx", &["-y", "files"]),
            ServerConfig {
                cwd: Some("/elsewhere".into()),
                ..server.clone()
            },
            rotated,
            ServerConfig {
                url: Some("https://example.com/mcp".into()),
                command: None,
                ..server.clone()
            },
        ];
        for changed in changes {
            assert_ne!(identity(&changed), same, "{changed:?}");
        }
        // Settings that do not say what runs leave it the same.
        let quieter = ServerConfig {
            request_timeout_secs: Some(5),
            enabled: false,
            ..server
        };
        assert_eq!(identity(&quieter), same);
    }

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
