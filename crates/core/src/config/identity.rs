//! A server's identity: what launches or reaches it, by which trust given to it is pinned
//! (see `crate::pins`). Env and header values are left out: a rotated token is the same
//! server. Identities are SHA-256 fingerprints (the RustCrypto `sha2` crate, already in the
//! build through the HTTP stack) of canonical JSON.

use std::path::PathBuf;

use serde::Serialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use switchboard_mcp::transport::http::HttpMode;

use super::{ServerConfig, ServerSpec};

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

impl ServerConfig {
    /// The fingerprint of the server this entry describes: the same for the same command
    /// line, working folder and env names (or address), different for any change of those.
    pub fn identity(&self) -> String {
        let identity = match self.spec("") {
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
            Err(_) => Identity::Unusable { entry: self },
        };
        let json = serde_json::to_value(identity).unwrap_or_default();
        let digest = Sha256::digest(canonical(&json).to_string().as_bytes());
        digest.iter().map(|byte| format!("{byte:02x}")).collect()
    }
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

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
        let same = crate::config::ServerConfig::identity(&server);
        assert_eq!(same.len(), 64);
        let mut rotated = server.clone();
        rotated.env = BTreeMap::from([("TOKEN".into(), EnvValue::Plain("one".into()))]);
        let mut rotated_again = rotated.clone();
        rotated_again
            .env
            .insert("TOKEN".into(), EnvValue::Plain("two".into()));
        assert_eq!(
            crate::config::ServerConfig::identity(&rotated),
            crate::config::ServerConfig::identity(&rotated_again),
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
            assert_ne!(
                crate::config::ServerConfig::identity(&changed),
                same,
                "{changed:?}"
            );
        }
        // Settings that do not say what runs leave it the same.
        let quieter = ServerConfig {
            request_timeout_secs: Some(5),
            enabled: false,
            ..server
        };
        assert_eq!(crate::config::ServerConfig::identity(&quieter), same);
    }
}
