//! Importing servers from other hosts' files: Claude Desktop's
//! `claude_desktop_config.json`, VS Code's `mcp.json` and Cursor's `mcp.json`.
//!
//! A file is not the person's word: an imported entry is never trusted, what it reaches
//! beyond itself (a keyring secret, `${env:NAME}`) is kept only once the person confirmed
//! it, and VS Code's `${input:ID}` prompts are answered by the person, the answers kept in
//! the keyring as the new server's own secrets.

mod jsonc;
mod references;
mod warnings;

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::{Map, Value};

use super::ServerConfig;
use super::placeholders::{self, Kind};
use references::DeclaredInput;
pub use references::{ImportedServer, InputPrompt, PlainSecret, Reach, Reference, Settled};
pub use warnings::ImportWarning;

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

    /// Which host wrote a file, told by its content: VS Code keeps `servers`, Claude Desktop
    /// and Cursor `mcpServers` (the same shape; Cursor's file lives under `.cursor`).
    pub fn detect(text: &str, path: &std::path::Path) -> Result<Self, ImportError> {
        let root = parse(text)?;
        let has = |key: &str| matches!(root.get(key), Some(Value::Object(_)));
        if has("servers") {
            Ok(Self::VsCode)
        } else if !has("mcpServers") {
            Err(ImportError::UnknownFormat)
        } else if path.components().any(|c| c.as_os_str() == ".cursor") {
            Ok(Self::Cursor)
        } else {
            Ok(Self::ClaudeDesktop)
        }
    }
}

/// The file's top-level object (comments and trailing commas allowed, as VS Code allows).
fn parse(text: &str) -> Result<Map<String, Value>, ImportError> {
    serde_json::from_str(&jsonc::strip_jsonc(text)).map_err(|e| ImportError::NotJson(e.to_string()))
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Imported {
    pub servers: BTreeMap<String, ImportedServer>,
    /// What could not be carried over exactly, said for the person.
    pub warnings: Vec<ImportWarning>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    content = "of",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ImportError {
    #[error("not valid JSON: {0}")]
    NotJson(String),
    #[error("no servers found: expected a `{0}` object")]
    NoServers(&'static str),
    #[error(
        "not a configuration Switchboard can import: expected an `mcpServers` object \
         (Claude Desktop, Cursor) or a `servers` object (VS Code)"
    )]
    UnknownFormat,
    #[error("server {name:?} cannot be imported: {reason}")]
    Server { name: String, reason: String },
    #[error("server {server:?} needs an answer for {input:?}")]
    Unanswered { server: String, input: String },
}

/// Reads another host's file (comments and trailing commas allowed, as VS Code allows).
pub fn import(source: ImportSource, text: &str) -> Result<Imported, ImportError> {
    let root = parse(text)?;
    let key = match source {
        ImportSource::VsCode => "servers",
        ImportSource::ClaudeDesktop | ImportSource::Cursor => "mcpServers",
    };
    let Some(Value::Object(entries)) = root.get(key) else {
        return Err(ImportError::NoServers(key));
    };
    let declared: Vec<DeclaredInput> = root
        .get("inputs")
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default();
    let mut imported = Imported::default();
    for (name, entry) in entries {
        let mut server: ServerConfig =
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
        let warnings = &mut imported.warnings;
        // Trust is the person's word, given in Switchboard, never a file's.
        server.trusted_as = None;
        if std::mem::take(&mut server.trusted) {
            warnings.push(ImportWarning::NotTrusted {
                server: name.clone(),
            });
        }
        for (field, value) in &server.extra {
            warnings.push(ImportWarning::UnusedSetting {
                server: name.clone(),
                field: field.clone(),
                value: compact(value),
            });
        }
        if written_out(&server).any(|text| !placeholders::names(text, Kind::Input).is_empty()) {
            warnings.push(ImportWarning::InputKeptAsWritten {
                server: name.clone(),
            });
        }
        let server = ImportedServer::read(name, server, &declared, warnings);
        imported.servers.insert(name.clone(), server);
    }
    Ok(imported)
}

/// The settings taken word for word, never expanded: the command line, folder and URL.
fn written_out(server: &ServerConfig) -> impl Iterator<Item = &str> {
    server
        .command
        .iter()
        .chain(&server.args)
        .chain(&server.url)
        .map(String::as_str)
        .chain(server.cwd.iter().filter_map(|cwd| cwd.to_str()))
}

/// A setting's JSON, cut short to be read in a line.
fn compact(value: &Value) -> String {
    const MAX: usize = 60;
    let text = value.to_string();
    match text.char_indices().nth(MAX - 3) {
        Some((cut, _)) if text.chars().count() > MAX => format!("{}…", &text[..cut]),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    /// The warnings in the host's English.
    pub(super) fn said(warnings: &[super::ImportWarning]) -> Vec<String> {
        warnings.iter().map(ToString::to_string).collect()
    }

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
        let filesystem = &imported.servers["filesystem"];
        assert_eq!(filesystem.config.command.as_deref(), Some("npx"));
        assert!(filesystem.references.is_empty() && filesystem.inputs.is_empty());
        assert_eq!(imported.servers["github"].references.len(), 1);
        assert!(imported.warnings.is_empty());
    }

    #[test]
    fn cursor_http_servers_and_unknown_settings_are_kept_with_a_warning() {
        let text = r#"{"mcpServers": {"linear": {"url": "https://mcp.linear.app/sse", "type": "sse", "autoApprove": ["x"]}}}"#;
        let imported = import(ImportSource::Cursor, text).unwrap();
        let linear = &imported.servers["linear"].config;
        assert_eq!(linear.extra["autoApprove"], serde_json::json!(["x"]));
        assert_eq!(
            said(&imported.warnings),
            [
                "server \"linear\": the setting `autoApprove` ([\"x\"]) is kept but not used by Switchboard"
            ]
        );
    }

    #[test]
    fn an_imported_server_is_never_trusted() {
        let text = r#"{"mcpServers": {"friendly": {"command": "x", "trusted": true}}}"#;
        let imported = import(ImportSource::ClaudeDesktop, text).unwrap();
        assert!(!imported.servers["friendly"].config.trusted);
        assert_eq!(
            said(&imported.warnings),
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
    fn the_host_that_wrote_a_file_is_told_by_its_content() {
        use std::path::Path;
        let detect = |text: &str, path: &str| ImportSource::detect(text, Path::new(path));
        let claude = r#"{"mcpServers": {}}"#;
        assert_eq!(
            detect(claude, "/x/servers.json"),
            Ok(ImportSource::ClaudeDesktop)
        );
        assert_eq!(
            detect(claude, "/h/.cursor/mcp.json"),
            Ok(ImportSource::Cursor)
        );
        // Comments, as VS Code writes them.
        let vs_code = "{// mine\n\"servers\": {},}";
        assert_eq!(detect(vs_code, "/x/claude.json"), Ok(ImportSource::VsCode));
        assert_eq!(
            detect(r#"{"mcp": {}}"#, "/x/a.json"),
            Err(ImportError::UnknownFormat)
        );
        assert!(matches!(
            detect("[1,", "/x/a.json"),
            Err(ImportError::NotJson(_))
        ));
    }

    #[test]
    fn comment_markers_inside_strings_are_text() {
        let text = r#"{"mcpServers": {"a": {"url": "http://h/x//y/*z*/", "args": ["a,]"]}}}"#;
        let imported = import(ImportSource::Cursor, text).unwrap();
        let a = &imported.servers["a"].config;
        assert_eq!(a.url.as_deref(), Some("http://h/x//y/*z*/"));
        assert_eq!(a.args, ["a,]"]);
    }

    #[test]
    fn long_settings_are_cut_short_between_characters() {
        let text = format!(
            r#"{{"mcpServers": {{"a": {{"command": "x", "note": "{}"}}}}}}"#,
            "é".repeat(80)
        );
        let imported = import(ImportSource::Cursor, &text).unwrap();
        assert_eq!(
            said(&imported.warnings),
            [format!(
                "server \"a\": the setting `note` (\"{}…) is kept but not used by Switchboard",
                "é".repeat(56)
            )]
        );
    }

    #[test]
    fn inputs_where_they_are_not_filled_in_are_named() {
        let text = r#"{"servers": {"a": {"command": "x", "args": ["--key", "${input:key}"]}}}"#;
        let imported = import(ImportSource::VsCode, text).unwrap();
        assert_eq!(
            said(&imported.warnings),
            [
                "server \"a\": `${input:…}` is filled in only in environment variables and headers; elsewhere it is kept as written"
            ]
        );
        assert!(imported.servers["a"].inputs.is_empty());
    }
}
