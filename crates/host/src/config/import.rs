//! Importing servers from other hosts' files: Claude Desktop's
//! `claude_desktop_config.json`, VS Code's `mcp.json` and Cursor's `mcp.json`.
//!
//! VS Code's `${input:ID}` prompts become keyring secrets the person fills in once; `${env:NAME}`
//! references stay references, expanded when the server starts, so that no secret of the
//! environment is copied into the file.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::{EnvValue, ServerConfig};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportSource {
    ClaudeDesktop,
    VsCode,
    Cursor,
}

impl ImportSource {
    /// Where the application keeps the file for this user, on this system.
    pub fn default_path(self) -> Option<PathBuf> {
        match self {
            Self::ClaudeDesktop => {
                dirs::config_dir().map(|d| d.join("Claude/claude_desktop_config.json"))
            }
            Self::VsCode => dirs::config_dir().map(|d| d.join("Code/User/mcp.json")),
            Self::Cursor => dirs::home_dir().map(|d| d.join(".cursor/mcp.json")),
        }
    }
}

/// A value the imported configuration needs from the person, to be kept in the keyring.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputPrompt {
    /// The keyring name the value is stored under.
    pub secret: String,
    pub description: String,
    pub password: bool,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Imported {
    pub servers: BTreeMap<String, ServerConfig>,
    pub inputs: Vec<InputPrompt>,
    /// What could not be carried over exactly, said for the person.
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error("not valid JSON: {0}")]
    NotJson(String),
    #[error("no servers found: expected a `{0}` object")]
    NoServers(&'static str),
    #[error("server {name:?} cannot be imported: {reason}")]
    Server { name: String, reason: String },
}

#[derive(Deserialize)]
struct VsCodeInput {
    id: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    password: bool,
}

/// Reads another host's file (comments and trailing commas allowed, as VS Code allows).
pub fn import(source: ImportSource, text: &str) -> Result<Imported, ImportError> {
    let root: Map<String, Value> = serde_json::from_str(&strip_jsonc(text))
        .map_err(|e| ImportError::NotJson(e.to_string()))?;
    let key = match source {
        ImportSource::VsCode => "servers",
        ImportSource::ClaudeDesktop | ImportSource::Cursor => "mcpServers",
    };
    let Some(Value::Object(entries)) = root.get(key) else {
        return Err(ImportError::NoServers(key));
    };
    let inputs: Vec<VsCodeInput> = root
        .get("inputs")
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default();
    let mut imported = Imported::default();
    for (name, entry) in entries {
        let server: ServerConfig =
            serde_json::from_value(entry.clone()).map_err(|e| ImportError::Server {
                name: name.clone(),
                reason: e.to_string(),
            })?;
        if let Err(e) = server.spec(name) {
            return Err(ImportError::Server {
                name: name.clone(),
                reason: e.to_string(),
            });
        }
        let mut server = replace_inputs(server, &inputs, &mut imported);
        // Trust is the person's word, given in Switchboard, never a file's.
        if std::mem::take(&mut server.trusted) {
            imported.warnings.push(format!(
                "server {name:?}: `trusted` is not imported; mark the server trusted in its \
                 settings if you vouch for it"
            ));
        }
        for (field, value) in &server.extra {
            imported.warnings.push(format!(
                "server {name:?}: the setting `{field}` ({}) is kept but not used by Switchboard",
                compact(value)
            ));
        }
        imported.servers.insert(name.clone(), server);
    }
    Ok(imported)
}

fn compact(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 60 {
        format!("{}…", &text[..57])
    } else {
        text
    }
}

/// `${input:ID}` in an env value or header becomes a keyring secret, asked for once.
fn replace_inputs(
    mut server: ServerConfig,
    inputs: &[VsCodeInput],
    imported: &mut Imported,
) -> ServerConfig {
    for values in [&mut server.env, &mut server.headers] {
        for value in values.values_mut() {
            let EnvValue::Plain(text) = value else {
                continue;
            };
            let Some(id) = whole_input_reference(text) else {
                continue;
            };
            let secret = format!("input:{id}");
            if !imported.inputs.iter().any(|i| i.secret == secret) {
                let declared = inputs.iter().find(|i| i.id == id);
                imported.inputs.push(InputPrompt {
                    secret: secret.clone(),
                    description: declared
                        .map(|i| i.description.clone())
                        .unwrap_or_else(|| id.to_owned()),
                    password: declared.is_none_or(|i| i.password),
                });
            }
            *value = EnvValue::Secret { secret };
        }
    }
    server
}

/// The id of a value that is exactly `${input:ID}`.
fn whole_input_reference(text: &str) -> Option<&str> {
    text.trim().strip_prefix("${input:")?.strip_suffix('}')
}

/// JSON with comments (`//`, `/* */`) and trailing commas, as plain JSON.
fn strip_jsonc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    if c == '\n' {
                        out.push('\n');
                    }
                    last = c;
                }
            }
            (',', _) => {
                // A comma followed only by blanks (and comments) before a closing bracket.
                let rest: String = chars.clone().collect();
                let next = strip_leading_blanks_and_comments(&rest);
                if !(next.starts_with('}') || next.starts_with(']')) {
                    out.push(',');
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn strip_leading_blanks_and_comments(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        if let Some(rest) = text.strip_prefix("//") {
            text = rest.find('\n').map_or("", |at| &rest[at..]);
        } else if let Some(rest) = text.strip_prefix("/*") {
            text = rest.find("*/").map_or("", |at| &rest[at + 2..]);
        } else {
            return text;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_desktop_servers_come_over_as_they_are() {
        let text = r#"{"mcpServers": {
            "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/ada"]},
            "github": {"command": "docker", "args": ["run", "-i", "ghcr.io/github/github-mcp-server"],
                       "env": {"GITHUB_TOKEN": "${env:GITHUB_TOKEN}"}}
        }, "globalShortcut": ""}"#;
        let imported = import(ImportSource::ClaudeDesktop, text).unwrap();
        assert_eq!(imported.servers.len(), 2);
        assert_eq!(
            imported.servers["filesystem"].command.as_deref(),
            Some("npx")
        );
        // An environment reference stays a reference: nothing secret is copied.
        assert_eq!(
            imported.servers["github"].env["GITHUB_TOKEN"],
            EnvValue::Plain("${env:GITHUB_TOKEN}".into())
        );
        assert!(imported.inputs.is_empty() && imported.warnings.is_empty());
    }

    #[test]
    fn vs_code_inputs_become_secrets_asked_for_once() {
        let text = r#"{
            // Comments and trailing commas are fine in VS Code's files.
            "inputs": [
                {"type": "promptString", "id": "api-key", "description": "Perplexity API key", "password": true},
            ],
            "servers": {
                "perplexity": {"type": "stdio", "command": "npx", "args": ["-y", "server-perplexity-ask"],
                               "env": {"PERPLEXITY_API_KEY": "${input:api-key}"}},
                "remote": {"type": "http", "url": "https://api.example.com/mcp",
                           "headers": {"Authorization": "${input:api-key}"}, /* same key */},
            },
        }"#;
        let imported = import(ImportSource::VsCode, text).unwrap();
        assert_eq!(
            imported.inputs,
            [InputPrompt {
                secret: "input:api-key".into(),
                description: "Perplexity API key".into(),
                password: true
            }]
        );
        let secret = EnvValue::Secret {
            secret: "input:api-key".into(),
        };
        assert_eq!(
            imported.servers["perplexity"].env["PERPLEXITY_API_KEY"],
            secret
        );
        assert_eq!(imported.servers["remote"].headers["Authorization"], secret);
        assert!(imported.servers["remote"].spec("remote").is_ok());
    }

    #[test]
    fn cursor_http_servers_and_unknown_settings_are_kept_with_a_warning() {
        let text = r#"{"mcpServers": {"linear": {"url": "https://mcp.linear.app/sse", "type": "sse", "autoApprove": ["x"]}}}"#;
        let imported = import(ImportSource::Cursor, text).unwrap();
        let linear = &imported.servers["linear"];
        assert_eq!(linear.extra["autoApprove"], serde_json::json!(["x"]));
        assert_eq!(
            imported.warnings,
            [
                "server \"linear\": the setting `autoApprove` ([\"x\"]) is kept but not used by Switchboard"
            ]
        );
    }

    #[test]
    fn an_imported_server_is_never_trusted() {
        let text = r#"{"mcpServers": {"friendly": {"command": "x", "trusted": true}}}"#;
        let imported = import(ImportSource::ClaudeDesktop, text).unwrap();
        assert!(!imported.servers["friendly"].trusted);
        assert_eq!(
            imported.warnings,
            [
                "server \"friendly\": `trusted` is not imported; mark the server trusted in its settings if you vouch for it"
            ]
        );
    }

    #[test]
    fn files_that_cannot_be_imported_say_why() {
        assert!(matches!(
            import(ImportSource::VsCode, "{oops"),
            Err(ImportError::NotJson(_))
        ));
        assert_eq!(
            import(ImportSource::VsCode, r#"{"mcpServers": {}}"#),
            Err(ImportError::NoServers("servers"))
        );
        let err = import(
            ImportSource::Cursor,
            r#"{"mcpServers": {"x": {"args": []}}}"#,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "server \"x\" cannot be imported: server \"x\" has neither a `command` nor a `url`"
        );
    }

    #[test]
    fn comment_markers_inside_strings_are_text() {
        let text = r#"{"mcpServers": {"a": {"url": "http://h/x//y/*z*/", "args": ["a,]"]}}}"#;
        let imported = import(ImportSource::Cursor, text).unwrap();
        assert_eq!(
            imported.servers["a"].url.as_deref(),
            Some("http://h/x//y/*z*/")
        );
        assert_eq!(imported.servers["a"].args, ["a,]"]);
    }
}
