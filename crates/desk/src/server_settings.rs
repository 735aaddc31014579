//! A server's settings as the person edits them, and back: secrets go to the keyring and
//! the configuration names them; settings the form does not show are kept as they were.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

mod oauth;

use switchboard_core::config::{
    EnvValue, OAuthGrant, Place, ProtocolEra, SandboxSetting, ServerConfig, TransportType,
    secret_name,
};
use switchboard_core::server_events::ServerState;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    #[default]
    Stdio,
    Http,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum HttpMode {
    /// Streamable HTTP, falling back to HTTP+SSE for servers that only speak that.
    #[default]
    Auto,
    StreamableHttp,
    LegacySse,
}

/// An environment variable or an HTTP header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct KeyValue {
    pub key: String,
    /// For a stored secret this is empty when read; left empty, the stored value stays.
    pub value: String,
    /// Kept in the OS keyring, never in the configuration file.
    pub secret: bool,
    #[serde(default)]
    pub stored: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ServerForm {
    pub name: String,
    pub transport: Transport,
    pub enabled: bool,
    pub command: String,
    pub args: Vec<String>,
    pub cwd: String,
    pub env: Vec<KeyValue>,
    pub url: String,
    pub http_mode: HttpMode,
    pub headers: Vec<KeyValue>,
    /// A client registered beforehand at the authorization server; empty for none.
    #[serde(default)]
    pub client_id: String,
    /// Its secret, kept in the keyring; when read, empty (see `client_secret_stored`).
    #[serde(default)]
    pub client_secret: String,
    /// A secret is stored; left so with `client_secret` empty, it stays.
    #[serde(default)]
    pub client_secret_stored: bool,
    /// The authorization server the client was made at (its issuer), the only one its
    /// secret is sent to; empty for none.
    #[serde(default)]
    pub client_issuer: String,
    /// How the client obtains its tokens: the person signing in, or a grant of its own.
    #[serde(default)]
    pub oauth_grant: OAuthGrant,
    /// For client credentials: the private key (PEM) it signs with, kept in the keyring;
    /// when read, empty (see `private_key_stored`).
    #[serde(default)]
    pub private_key: String,
    #[serde(default)]
    pub private_key_stored: bool,
    /// That key's JWS algorithm; empty for ES256.
    #[serde(default)]
    pub signing_algorithm: String,
    /// For a workload: the file its token is in.
    #[serde(default)]
    pub token_file: String,
    /// For the enterprise-managed grant: the identity provider's token endpoint, this
    /// app's client there, and the file the person's ID token is in.
    #[serde(default)]
    pub idp_token_endpoint: String,
    #[serde(default)]
    pub idp_client_id: String,
    #[serde(default)]
    pub id_token_file: String,
    /// Binds tokens to a key of this app's where the authorization server offers it.
    #[serde(default = "yes")]
    pub dpop: bool,
    pub request_timeout_secs: Option<u32>,
    pub trusted: bool,
    pub protocol_era: ProtocolEra,
    /// A local server runs in the sandbox (see `switchboard_core::sandbox`): one added now
    /// does unless the person says otherwise.
    #[serde(default = "sandboxed")]
    pub sandbox: bool,
    /// The sandboxed server shares the machine's network.
    #[serde(default)]
    pub sandbox_network: bool,
}

impl Default for ServerForm {
    /// A new server's form as it opens: a local server, enabled, nothing filled in.
    fn default() -> Self {
        Self {
            name: String::new(),
            transport: Transport::default(),
            enabled: true,
            command: String::new(),
            args: Vec::new(),
            cwd: String::new(),
            env: Vec::new(),
            url: String::new(),
            http_mode: HttpMode::default(),
            headers: Vec::new(),
            client_id: String::new(),
            client_secret: String::new(),
            client_secret_stored: false,
            client_issuer: String::new(),
            oauth_grant: OAuthGrant::SignIn,
            private_key: String::new(),
            private_key_stored: false,
            signing_algorithm: String::new(),
            token_file: String::new(),
            idp_token_endpoint: String::new(),
            idp_client_id: String::new(),
            id_token_file: String::new(),
            dpop: true,
            request_timeout_secs: None,
            trusted: false,
            protocol_era: ProtocolEra::default(),
            sandbox: sandboxed(),
            sandbox_network: false,
        }
    }
}

fn yes() -> bool {
    true
}

fn sandboxed() -> bool {
    true
}

/// A configured server as the list shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ServerSummary {
    pub name: String,
    pub enabled: bool,
    pub transport: Transport,
    /// The command line or the URL.
    pub target: String,
    /// None until the server was first started (or when it is disabled).
    pub state: Option<ServerState>,
    /// When the state began, in milliseconds since the Unix epoch.
    pub since_ms: i64,
    /// Whether it runs in the sandbox, and with the network or not.
    pub sandbox: Option<SandboxSetting>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormError {
    #[error("a server needs a name")]
    NoName,
    #[error("the name {0:?} may hold only letters, digits, '-', '_' and '.'")]
    BadName(String),
    #[error("a server named {0:?} already exists")]
    Taken(String),
    #[error("a stdio server needs a command")]
    NoCommand,
    #[error("{0:?} is not an http:// or https:// URL")]
    BadUrl(String),
    #[error("{what} {key:?} appears twice")]
    Duplicate { what: &'static str, key: String },
    #[error("enter the access token alone, without spaces")]
    BadToken,
    #[error("a client secret needs its client ID")]
    SecretWithoutClient,
    #[error(
        "a client's credentials are sent only to the authorization server they were made at: enter that server's address"
    )]
    SecretWithoutIssuer,
    #[error("a client that signs in on its own needs its client ID")]
    NoClientId,
    #[error("client credentials need the client secret or a private key")]
    NoClientCredential,
    #[error("the private key: {0}")]
    BadKey(String),
    #[error("enter the full path of {0}")]
    NoFile(&'static str),
    #[error(
        "the enterprise sign-in needs the identity provider's token endpoint (an http:// or https:// URL) and this app's client ID there"
    )]
    NoIdentityProvider,
    #[error("{what} {key:?} is marked secret but has no value")]
    EmptySecret { what: &'static str, key: String },
    #[error("the server {0:?} changed in the configuration file meanwhile; open it again")]
    Changed(String),
    #[error(transparent)]
    Keyring(switchboard_core::secrets::SecretError),
}

pub fn valid_name(name: &str) -> Result<(), FormError> {
    if name.is_empty() {
        return Err(FormError::NoName);
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(FormError::BadName(name.to_owned()));
    }
    Ok(())
}

/// The form for a configured server; secret values stay in the keyring.
pub fn form_of(name: &str, config: &ServerConfig) -> ServerForm {
    let rows = |values: &BTreeMap<String, EnvValue>| {
        values
            .iter()
            .map(|(key, value)| match value {
                EnvValue::Plain(text) => KeyValue {
                    key: key.clone(),
                    value: text.clone(),
                    secret: false,
                    stored: false,
                },
                EnvValue::Secret { .. } => KeyValue {
                    key: key.clone(),
                    value: String::new(),
                    secret: true,
                    stored: true,
                },
            })
            .collect()
    };
    let mut form = ServerForm {
        name: name.to_owned(),
        transport: transport_of(config),
        enabled: config.enabled,
        command: config.command.clone().unwrap_or_default(),
        args: config.args.clone(),
        cwd: config
            .cwd
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        env: rows(&config.env),
        url: config.url.clone().unwrap_or_default(),
        http_mode: match config.transport {
            Some(TransportType::Sse) => HttpMode::LegacySse,
            Some(TransportType::StreamableHttp) => HttpMode::StreamableHttp,
            _ => HttpMode::Auto,
        },
        headers: rows(&config.headers),
        request_timeout_secs: config
            .request_timeout_secs
            .map(|s| u32::try_from(s).unwrap_or(u32::MAX)),
        trusted: config.is_trusted(),
        protocol_era: config.protocol_era,
        sandbox: config.sandbox.is_some(),
        sandbox_network: config.sandbox.is_some_and(|s| s.network),
        ..ServerForm::default()
    };
    oauth::fill(&mut form, config.oauth.as_ref());
    form
}

pub fn transport_of(config: &ServerConfig) -> Transport {
    if config.url.is_some() && config.command.is_none() {
        Transport::Http
    } else {
        Transport::Stdio
    }
}

/// The command line or URL, as the list shows it: with the secrets in web addresses
/// masked (the form, where the person edits them, shows them whole).
pub fn target_of(config: &ServerConfig) -> String {
    let target = match (&config.command, &config.url) {
        (Some(command), _) => std::iter::once(command.as_str())
            .chain(config.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" "),
        (None, Some(url)) => url.clone(),
        (None, None) => String::new(),
    };
    switchboard_core::masking::urls_in(&target)
}

/// A secret value the form gives, to be stored in the keyring under `name` before the
/// configuration names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSecret {
    pub name: String,
    pub value: SecretValue,
}

/// Where a new secret's value comes from.
#[derive(Clone, PartialEq, Eq)]
pub enum SecretValue {
    /// Typed into the form.
    Given(String),
    /// The value the keyring holds under `from`: a renamed server's own secret, taken along
    /// to its new name. Should it be gone, the form's `key` (of `what`: "env", "header" or
    /// "oauth") has no value.
    Copied {
        from: String,
        what: &'static str,
        key: String,
    },
}

impl From<&str> for SecretValue {
    fn from(value: &str) -> Self {
        Self::Given(value.to_owned())
    }
}

impl std::fmt::Debug for SecretValue {
    /// A given value may be a key: it is never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Given(_) => f.write_str("Given(..)"),
            Self::Copied { from, what, key } => f
                .debug_struct("Copied")
                .field("from", from)
                .field("what", what)
                .field("key", key)
                .finish(),
        }
    }
}

/// The configuration a form describes, and the new secret values it names.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    pub config: ServerConfig,
    pub secrets: Vec<NewSecret>,
}

/// The configuration the form describes, on top of `previous` (the server's name and
/// configuration before, whose other settings are kept). New secret values are named
/// `server/env/KEY` or `server/header/KEY`, and a renamed server's own secrets are copied
/// to its new name; the caller stores them (the keyring is not called from here), and
/// deletes the old copies once saved.
pub fn apply_form(
    form: &ServerForm,
    previous: Option<(&str, &ServerConfig)>,
) -> Result<Applied, FormError> {
    valid_name(&form.name)?;
    let mut secrets = Vec::new();
    let mut config = previous.map(|(_, p)| p.clone()).unwrap_or_default();
    config.enabled = form.enabled;
    config.request_timeout_secs = form.request_timeout_secs.map(u64::from);
    match form.transport {
        Transport::Stdio => {
            let command = form.command.trim();
            if command.is_empty() {
                return Err(FormError::NoCommand);
            }
            config.command = Some(command.to_owned());
            config.args = form.args.clone();
            config.cwd = Some(form.cwd.trim())
                .filter(|c| !c.is_empty())
                .map(PathBuf::from);
            config.env = rows_to_values(
                &form.name,
                Place::Env,
                &form.env,
                previous.map(|(name, p)| (name, &p.env)),
                &mut secrets,
            )?;
            config.url = None;
            config.headers.clear();
            config.transport = None;
            // The engine is not on the form: one the person set in the file stays.
            let engine = previous
                .and_then(|(_, p)| p.sandbox)
                .map(|s| s.engine)
                .unwrap_or_default();
            config.sandbox = form.sandbox.then_some(SandboxSetting {
                network: form.sandbox_network,
                engine,
            });
        }
        Transport::Http => {
            let url = form.url.trim();
            if !(url.starts_with("https://") || url.starts_with("http://")) || url.len() < 9 {
                return Err(FormError::BadUrl(url.to_owned()));
            }
            config.url = Some(url.to_owned());
            config.headers = rows_to_values(
                &form.name,
                Place::Header,
                &form.headers,
                previous.map(|(name, p)| (name, &p.headers)),
                &mut secrets,
            )?;
            config.oauth = oauth::client(form, previous, &mut secrets)?;
            config.transport = match form.http_mode {
                // `http` already means the automatic choice: kept as the person wrote it.
                HttpMode::Auto => config.transport.filter(|t| *t == TransportType::Http),
                HttpMode::StreamableHttp => Some(TransportType::StreamableHttp),
                HttpMode::LegacySse => Some(TransportType::Sse),
            };
            config.command = None;
            config.args.clear();
            config.env.clear();
            config.cwd = None;
            // Only a local program runs in a sandbox.
            config.sandbox = None;
        }
    }
    config.protocol_era = form.protocol_era;
    if form.transport == Transport::Stdio {
        config.oauth = None;
    }
    // Given with the server's launch in view, the mark is pinned to it.
    config.set_trusted(form.trusted);
    Ok(Applied { config, secrets })
}

fn rows_to_values(
    server: &str,
    place: Place,
    rows: &[KeyValue],
    previous: Option<(&str, &BTreeMap<String, EnvValue>)>,
    secrets: &mut Vec<NewSecret>,
) -> Result<BTreeMap<String, EnvValue>, FormError> {
    let what = place.as_str();
    let mut store = |key: &str, value: SecretValue| {
        let name = secret_name(server, place, key);
        secrets.push(NewSecret {
            name: name.clone(),
            value,
        });
        EnvValue::Secret { secret: name }
    };
    let mut values = BTreeMap::new();
    for row in rows {
        let key = row.key.trim();
        if key.is_empty() {
            continue;
        }
        if values.contains_key(key) {
            return Err(FormError::Duplicate {
                what,
                key: key.to_owned(),
            });
        }
        let value = if !row.secret {
            EnvValue::Plain(row.value.clone())
        } else if row.value.is_empty() {
            // Keep the value already in the keyring, if there is one; a renamed server takes
            // its own along, since a server may use only secrets named after it.
            let empty = || FormError::EmptySecret {
                what,
                key: key.to_owned(),
            };
            match previous.and_then(|(name, p)| Some((name, p.get(key)?))) {
                Some((old, EnvValue::Secret { secret }))
                    if old != server && *secret == secret_name(old, place, key) =>
                {
                    store(
                        key,
                        SecretValue::Copied {
                            from: secret.clone(),
                            what,
                            key: key.to_owned(),
                        },
                    )
                }
                Some((_, kept @ EnvValue::Secret { .. })) => kept.clone(),
                _ => return Err(empty()),
            }
        } else {
            store(key, SecretValue::Given(row.value.clone()))
        };
        values.insert(key.to_owned(), value);
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use switchboard_core::config::{
        IdentityProvider, OAuthClient, SandboxEngine, SecretRef, ServerSpec,
    };

    fn stdio_form() -> ServerForm {
        ServerForm {
            name: "files".into(),
            transport: Transport::Stdio,
            enabled: true,
            command: " npx ".into(),
            args: vec!["-y".into(), "server files".into()],
            cwd: String::new(),
            env: vec![KeyValue {
                key: "DEBUG".into(),
                value: "1".into(),
                secret: false,
                stored: false,
            }],
            url: String::new(),
            http_mode: HttpMode::Auto,
            headers: Vec::new(),
            client_id: String::new(),
            client_secret: String::new(),
            client_secret_stored: false,
            client_issuer: String::new(),
            request_timeout_secs: Some(30),
            trusted: false,
            protocol_era: ProtocolEra::Auto,
            sandbox: true,
            sandbox_network: false,
            ..ServerForm::default()
        }
    }

    #[test]
    fn a_form_and_its_configuration_agree_both_ways() {
        let config = apply_form(&stdio_form(), None).expect("valid").config;
        assert_eq!(config.command.as_deref(), Some("npx"));
        assert_eq!(config.args, ["-y", "server files"]);
        assert_eq!(config.request_timeout_secs, Some(30));
        let mut back = form_of("files", &config);
        back.command = " npx ".into();
        assert_eq!(back, stdio_form());
    }

    #[test]
    fn each_http_choice_of_the_form_is_how_the_server_is_reached() {
        use switchboard_mcp::transport::http::HttpMode as Reached;
        for (chosen, reached) in [
            (HttpMode::Auto, Reached::Auto),
            (HttpMode::StreamableHttp, Reached::StreamableHttp),
            (HttpMode::LegacySse, Reached::LegacySse),
        ] {
            let form = ServerForm {
                transport: Transport::Http,
                url: "http://127.0.0.1:9/mcp".into(),
                http_mode: chosen,
                ..stdio_form()
            };
            let config = apply_form(&form, None).expect("valid").config;
            assert!(
                matches!(config.spec("files"), Ok(ServerSpec::Http { mode, .. }) if mode == reached),
                "{chosen:?} is reached as {:?}",
                config.spec("files")
            );
            assert_eq!(form_of("files", &config).http_mode, chosen);
        }
    }

    #[test]
    fn the_sandbox_is_kept_for_a_local_server_and_dropped_for_a_remote_one() {
        let sandboxed = apply_form(&stdio_form(), None).expect("valid").config;
        assert_eq!(
            sandboxed.sandbox,
            Some(SandboxSetting {
                network: false,
                ..Default::default()
            })
        );
        let online = ServerForm {
            sandbox_network: true,
            ..stdio_form()
        };
        let online = apply_form(&online, None).expect("valid").config;
        assert_eq!(
            online.sandbox,
            Some(SandboxSetting {
                network: true,
                ..Default::default()
            })
        );
        let form = form_of("files", &online);
        assert!(form.sandbox && form.sandbox_network);
        // The engine chosen in the file is not on the form, and an edit keeps it.
        let landlock = ServerConfig {
            sandbox: Some(SandboxSetting {
                network: true,
                engine: SandboxEngine::Landlock,
            }),
            ..online.clone()
        };
        let edited = apply_form(&form, Some(("files", &landlock)))
            .expect("valid")
            .config;
        assert_eq!(edited.sandbox, landlock.sandbox);
        let remote = ServerForm {
            transport: Transport::Http,
            url: "https://mcp.example/mcp".into(),
            ..stdio_form()
        };
        let remote = apply_form(&remote, Some(("files", &online))).expect("valid");
        assert_eq!(remote.config.sandbox, None);
        let off = ServerForm {
            sandbox: false,
            ..stdio_form()
        };
        assert_eq!(
            apply_form(&off, Some(("files", &online)))
                .expect("valid")
                .config
                .sandbox,
            None
        );
    }

    #[test]
    fn settings_the_form_does_not_show_are_kept() {
        let mut previous = ServerConfig::default();
        previous.restart.max_restarts = 9;
        previous
            .extra
            .insert("comment".into(), serde_json::json!("mine"));
        let config = apply_form(&stdio_form(), Some(("files", &previous)))
            .expect("valid")
            .config;
        assert_eq!(config.restart.max_restarts, 9);
        assert_eq!(config.extra["comment"], "mine");
    }

    #[test]
    fn bad_forms_say_what_is_wrong() {
        let mut form = stdio_form();
        form.name = "my server".into();
        assert_eq!(
            apply_form(&form, None),
            Err(FormError::BadName("my server".into()))
        );
        let mut form = stdio_form();
        form.command = "  ".into();
        assert_eq!(apply_form(&form, None), Err(FormError::NoCommand));
        let mut form = stdio_form();
        form.transport = Transport::Http;
        form.url = "ftp://example.com".into();
        assert_eq!(
            apply_form(&form, None),
            Err(FormError::BadUrl("ftp://example.com".into()))
        );
        let mut form = stdio_form();
        form.env.push(form.env[0].clone());
        assert!(matches!(
            apply_form(&form, None),
            Err(FormError::Duplicate { .. })
        ));
        let mut form = stdio_form();
        form.env[0].secret = true;
        form.env[0].value.clear();
        assert!(matches!(
            apply_form(&form, None),
            Err(FormError::EmptySecret { .. })
        ));
    }

    #[test]
    fn an_empty_secret_keeps_the_stored_one() {
        let mut previous = ServerConfig::default();
        previous.env.insert(
            "TOKEN".into(),
            EnvValue::Secret {
                secret: "files/env/TOKEN".into(),
            },
        );
        let mut form = stdio_form();
        form.env = vec![KeyValue {
            key: "TOKEN".into(),
            value: String::new(),
            secret: true,
            stored: true,
        }];
        let applied = apply_form(&form, Some(("files", &previous))).expect("kept");
        assert_eq!(applied.config.env, previous.env);
        assert!(applied.secrets.is_empty());
    }

    #[test]
    fn a_renamed_server_takes_its_own_secrets_along_and_no_other() {
        let mut previous = ServerConfig::default();
        for (key, secret) in [("TOKEN", "files/env/TOKEN"), ("SHARED", "other/env/SHARED")] {
            previous.env.insert(
                key.into(),
                EnvValue::Secret {
                    secret: secret.into(),
                },
            );
        }
        let mut form = stdio_form();
        form.name = "documents".into();
        form.env = ["TOKEN", "SHARED"]
            .map(|key| KeyValue {
                key: key.into(),
                value: String::new(),
                secret: true,
                stored: true,
            })
            .into();
        let applied = apply_form(&form, Some(("files", &previous))).expect("renamed");
        assert_eq!(
            applied.config.env["TOKEN"],
            EnvValue::Secret {
                secret: "documents/env/TOKEN".into()
            }
        );
        // Another's secret is not its own to copy: it stays as it was named.
        assert_eq!(applied.config.env["SHARED"], previous.env["SHARED"]);
        assert_eq!(
            applied.secrets,
            [NewSecret {
                name: "documents/env/TOKEN".into(),
                value: SecretValue::Copied {
                    from: "files/env/TOKEN".into(),
                    what: "env",
                    key: "TOKEN".into(),
                },
            }]
        );
    }

    #[test]
    fn a_new_secret_is_named_for_the_keyring_and_never_in_the_configuration() {
        let mut form = stdio_form();
        form.env[0].secret = true;
        form.env[0].value = "s3cr3t".into();
        let applied = apply_form(&form, None).expect("valid");
        let name = "files/env/DEBUG".to_owned();
        assert_eq!(
            applied.config.env["DEBUG"],
            EnvValue::Secret {
                secret: name.clone()
            }
        );
        assert_eq!(
            applied.secrets,
            [NewSecret {
                name,
                value: "s3cr3t".into()
            }]
        );
    }

    #[test]
    fn a_pre_registered_client_keeps_its_secret_in_the_keyring_only() {
        let form = ServerForm {
            transport: Transport::Http,
            url: "https://mcp.example.com/mcp".into(),
            client_id: " the-client ".into(),
            client_secret: "client-s3cr3t".into(),
            client_issuer: " https://auth.example.com ".into(),
            ..stdio_form()
        };
        let applied = apply_form(&form, None).expect("valid");
        let written = serde_json::to_string(&applied.config).expect("serializes");
        assert!(!written.contains("client-s3cr3t"), "{written}");
        let name = "files/oauth/client-secret".to_owned();
        assert_eq!(
            applied.config.oauth,
            Some(OAuthClient {
                client_id: "the-client".into(),
                client_secret: Some(SecretRef {
                    secret: name.clone()
                }),
                issuer: Some("https://auth.example.com".into()),
                ..OAuthClient::default()
            })
        );
        assert_eq!(
            applied.secrets,
            [NewSecret {
                name,
                value: "client-s3cr3t".into()
            }]
        );
        let read = form_of("files", &applied.config);
        assert_eq!(
            (
                read.client_id.as_str(),
                read.client_secret.as_str(),
                read.client_issuer.as_str()
            ),
            ("the-client", "", "https://auth.example.com")
        );
        assert!(read.client_secret_stored);

        // Saved again with the secret left empty, it stays; renamed, it is taken along.
        let kept = apply_form(&read, Some(("files", &applied.config))).expect("kept");
        assert_eq!(kept.config.oauth, applied.config.oauth);
        assert!(kept.secrets.is_empty());
        let renamed = ServerForm {
            name: "docs".into(),
            ..read.clone()
        };
        let moved = apply_form(&renamed, Some(("files", &applied.config))).expect("renamed");
        assert_eq!(moved.secrets[0].name, "docs/oauth/client-secret");
        // Without a client ID there is no client, and a secret alone is refused.
        let none = ServerForm {
            client_id: String::new(),
            client_secret_stored: false,
            ..read
        };
        assert_eq!(apply_form(&none, None).expect("valid").config.oauth, None);
        let lone = ServerForm {
            client_secret: "x".into(),
            ..none
        };
        assert_eq!(apply_form(&lone, None), Err(FormError::SecretWithoutClient));
        // A secret, typed or kept, is for the authorization server entered with it.
        let unpinned = ServerForm {
            client_issuer: " ".into(),
            ..form.clone()
        };
        assert_eq!(
            apply_form(&unpinned, None),
            Err(FormError::SecretWithoutIssuer)
        );
        let public = ServerForm {
            client_secret: String::new(),
            ..unpinned
        };
        let public = apply_form(&public, None).expect("a public client needs no issuer");
        assert_eq!(public.config.oauth.expect("a client").issuer, None);
    }

    /// A test key, made for these tests alone.
    const TEST_KEY: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgobJU0a5Nhgcr/Pu9
EKxtIU9r5RB1EUZ2cNbgpgr+TQKhRANCAASBIFzrDJ0q0z1KSlQijGWz55x5pbFV
ZqVsZ1zfgUZ2A67ufWZCzb7OqfQBVBKyjVJUrEbubQuAhFRbNQgyKdj7
-----END PRIVATE KEY-----
";

    fn http_form() -> ServerForm {
        ServerForm {
            transport: Transport::Http,
            url: "https://mcp.example.com/mcp".into(),
            client_id: "the-client".into(),
            client_issuer: "https://auth.example.com".into(),
            ..stdio_form()
        }
    }

    #[test]
    fn client_credentials_with_a_key_keep_the_key_in_the_keyring_and_read_back() {
        let form = ServerForm {
            oauth_grant: OAuthGrant::ClientCredentials,
            private_key: TEST_KEY.into(),
            dpop: false,
            ..http_form()
        };
        let applied = apply_form(&form, None).expect("valid");
        let client = applied.config.oauth.clone().expect("a client");
        assert_eq!(client.grant, OAuthGrant::ClientCredentials);
        assert_eq!(
            client.private_key,
            Some(SecretRef {
                secret: "files/oauth/private-key".into()
            })
        );
        assert!(!client.dpop);
        let written = serde_json::to_string(&applied.config).expect("serializes");
        assert!(!written.contains("PRIVATE KEY"), "{written}");
        assert_eq!(
            applied.secrets[0].value,
            SecretValue::Given(TEST_KEY.into())
        );
        let read = form_of("files", &applied.config);
        assert!(read.private_key_stored && read.private_key.is_empty());
        assert_eq!(read.oauth_grant, OAuthGrant::ClientCredentials);
        assert!(!read.dpop);
        // Saved again untouched, the key stays as stored.
        let kept = apply_form(&read, Some(("files", &applied.config))).expect("kept");
        assert_eq!(kept.config.oauth, applied.config.oauth);
        assert!(kept.secrets.is_empty());
    }

    #[test]
    fn a_grant_of_the_clients_own_refuses_what_it_cannot_use() {
        let credentials = ServerForm {
            oauth_grant: OAuthGrant::ClientCredentials,
            ..http_form()
        };
        assert_eq!(
            apply_form(&credentials, None),
            Err(FormError::NoClientCredential)
        );
        let bad_key = ServerForm {
            private_key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----".into(),
            ..credentials.clone()
        };
        assert!(matches!(
            apply_form(&bad_key, None),
            Err(FormError::BadKey(_))
        ));
        let wrong_algorithm = ServerForm {
            private_key: TEST_KEY.into(),
            signing_algorithm: "RS256".into(),
            ..credentials.clone()
        };
        assert!(matches!(
            apply_form(&wrong_algorithm, None),
            Err(FormError::BadKey(_))
        ));
        let anywhere = ServerForm {
            client_secret: "s3cret".into(),
            client_issuer: String::new(),
            ..credentials
        };
        assert_eq!(
            apply_form(&anywhere, None),
            Err(FormError::SecretWithoutIssuer)
        );
        let workload = ServerForm {
            oauth_grant: OAuthGrant::Workload,
            token_file: "token.jwt".into(),
            ..http_form()
        };
        assert_eq!(
            apply_form(&workload, None),
            Err(FormError::NoFile("the token file"))
        );
        let enterprise = ServerForm {
            oauth_grant: OAuthGrant::Enterprise,
            idp_token_endpoint: "https://idp.example.com/token".into(),
            idp_client_id: "idp-client".into(),
            id_token_file: "/run/id-token".into(),
            ..http_form()
        };
        let applied = apply_form(&enterprise, None).expect("valid");
        assert_eq!(
            applied.config.oauth.expect("a client").identity_provider,
            Some(IdentityProvider {
                token_endpoint: "https://idp.example.com/token".into(),
                client_id: "idp-client".into(),
                id_token_file: "/run/id-token".into(),
            })
        );
        let no_idp = ServerForm {
            idp_client_id: String::new(),
            ..enterprise
        };
        assert_eq!(
            apply_form(&no_idp, None),
            Err(FormError::NoIdentityProvider)
        );
    }
}
