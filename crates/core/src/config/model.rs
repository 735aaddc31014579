//! What the configuration file holds. Servers live under `mcpServers` in the shape Claude
//! Desktop and Cursor use; Switchboard's own settings sit beside them. Keys this version
//! does not know are kept, so that saving never loses what a newer version or a person wrote.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use switchboard_mcp::transport::http::HttpMode;

use super::rules::{SamplingRule, ToolRule};
use super::sampling_limits::SamplingLimits;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Config {
    #[serde(rename = "mcpServers", default)]
    pub servers: BTreeMap<String, ServerConfig>,
    /// The model providers the host may ask, by name; none is a valid state.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub providers: BTreeMap<String, ProviderEntry>,
    #[serde(default, skip_serializing_if = "HostSettings::is_default")]
    pub settings: HostSettings,
    /// The agents that may reach the servers through the gateway, by the name the person
    /// gave each; an agent not named here is refused.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub agents: BTreeMap<String, AgentConfig>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// What one agent reaches through the gateway: its servers (all, unless listed) and, of
/// them, not the tools turned off for it, nor those turned off for everyone, nor the
/// resources or prompts of the servers where they are turned off for it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentConfig {
    /// The servers it may use; every configured server when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub servers: Option<BTreeSet<String>>,
    /// Tools turned off for this agent only, by server.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub disabled_tools: BTreeMap<String, BTreeSet<String>>,
    /// The servers whose resources (and their templates) are turned off for this agent.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub resources_off: BTreeSet<String>,
    /// The servers whose prompts are turned off for this agent.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub prompts_off: BTreeSet<String>,
    /// What the agent may answer in the person's stead when a server serving its call asks.
    #[serde(default, skip_serializing_if = "AgentAnswers::is_default")]
    pub answers: AgentAnswers,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// What of a server's offers an agent's switch turns on or off, beside its tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Offered {
    /// Its resources and resource templates (reading, subscribing, completing).
    Resources,
    /// Its prompts (and completing their arguments).
    Prompts,
}

/// The requests of a server, made while it serves one of the agent's calls, that go to
/// the agent (if it declared it can answer them) rather than to the person's dialogs.
/// Nothing by default: the person answers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AgentAnswers {
    /// `sampling/createMessage`: the agent's own model answers.
    #[serde(default)]
    pub sampling: bool,
    /// `elicitation/create` in form mode (a link always goes to the person).
    #[serde(default)]
    pub elicitation: bool,
}

impl AgentAnswers {
    fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

impl AgentConfig {
    /// Whether the agent may use `server` at all.
    pub fn reaches(&self, server: &str) -> bool {
        self.servers.as_ref().is_none_or(|s| s.contains(server))
    }

    /// Whether the agent may read `server`'s resources (or `prompts`) at all.
    pub fn reads(&self, server: &str, of: Offered) -> bool {
        let off = match of {
            Offered::Resources => &self.resources_off,
            Offered::Prompts => &self.prompts_off,
        };
        self.reaches(server) && !off.contains(server)
    }

    /// Whether the agent may use `tool` of `server` (the person's own switches aside).
    pub fn offers(&self, server: &str, tool: &str) -> bool {
        self.reaches(server)
            && !self
                .disabled_tools
                .get(server)
                .is_some_and(|off| off.contains(tool))
    }
}

/// The command of the bundled demo server: written as this name, never as a path, and
/// found beside the running app when the server starts (see `launch`). A path written at
/// first run could point into a mount that is gone at the next (an AppImage's) or into a
/// folder others can write to.
pub const DEMO_SERVER: &str = "switchboard-demo-server";

impl Config {
    /// The configuration of a first run: the bundled demo server, so that everything the
    /// host does can be seen working at once, with no network.
    pub fn first_run() -> Self {
        let demo = ServerConfig {
            command: Some(DEMO_SERVER.to_owned()),
            ..ServerConfig::default()
        };
        Self {
            servers: [("demo".to_owned(), demo)].into(),
            ..Self::default()
        }
    }
}

/// One server as configured: stdio (`command`) or HTTP (`url`), plus how to supervise it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, EnvValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, EnvValue>,
    /// A client registered beforehand with the server's authorization server, used to sign
    /// in before any other way of registering.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oauth: Option<OAuthClient>,
    /// `stdio`, `http` (Streamable HTTP, falling back to SSE), `streamable-http` (no fallback)
    /// or `sse`; inferred if absent.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<TransportType>,
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub enabled: bool,
    /// Seconds to wait for an answer to each request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_timeout_secs: Option<u64>,
    /// Seconds any request may take at most, whatever progress the server reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_request_secs: Option<u64>,
    /// Seconds between pings that check the server is still there (0: none); by default
    /// 30 for an HTTP server, none for a stdio server (its process shows it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ping_interval_secs: Option<u64>,
    #[serde(default, skip_serializing_if = "RestartPolicy::is_default")]
    pub restart: RestartPolicy,
    /// The person vouches for this server: its tool annotations may relax approvals.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trusted: bool,
    /// The server's identity when the person marked it trusted (`ServerConfig::identity`): the
    /// mark holds only while the server is launched or reached the same way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trusted_as: Option<String>,
    /// Tools the person turned off: hidden from the catalog and the chat, refused if called.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub disabled_tools: BTreeSet<String>,
    /// Which era of the protocol to speak with the server.
    #[serde(default, skip_serializing_if = "ProtocolEra::is_auto")]
    pub protocol_era: ProtocolEra,
    /// A stdio server runs in a sandbox that sees only its program and the folders shared
    /// with it (see `crate::sandbox`); without it, with all of the person's rights, as the
    /// servers added before the sandbox existed do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<SandboxSetting>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Default for ServerConfig {
    /// An enabled server with nothing to reach it by yet.
    fn default() -> Self {
        Self {
            command: None,
            args: Vec::new(),
            env: BTreeMap::new(),
            cwd: None,
            url: None,
            headers: BTreeMap::new(),
            oauth: None,
            transport: None,
            enabled: true,
            request_timeout_secs: None,
            max_request_secs: None,
            ping_interval_secs: None,
            restart: RestartPolicy::default(),
            trusted: false,
            trusted_as: None,
            disabled_tools: BTreeSet::new(),
            protocol_era: ProtocolEra::Auto,
            sandbox: None,
            extra: Map::new(),
        }
    }
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TransportType {
    Stdio,
    /// Streamable HTTP, with the fallback to HTTP+SSE for older servers (as VS Code reads it).
    Http,
    /// Streamable HTTP only: a server that refuses it fails rather than being reached over SSE.
    #[serde(alias = "streamableHttp")]
    StreamableHttp,
    Sse,
}

/// Which era of the protocol to speak with a server: found out by a `server/discover`
/// probe (the default), or forced, for a server the probe confuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum ProtocolEra {
    #[default]
    Auto,
    /// The stateless 2026-07-28 revision only.
    Stateless,
    /// The `initialize` handshake (2024-11-05 to 2025-11-25), with no probe.
    Session,
}

/// Read by hand so that the words earlier versions wrote (`modern`, `legacy`) still read,
/// while the window is told only today's.
impl<'de> Deserialize<'de> for ProtocolEra {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let word = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        match word.as_ref() {
            "auto" => Ok(Self::Auto),
            "stateless" | "modern" => Ok(Self::Stateless),
            "session" | "legacy" => Ok(Self::Session),
            other => Err(serde::de::Error::unknown_variant(
                other,
                &["auto", "stateless", "session"],
            )),
        }
    }
}

impl ProtocolEra {
    fn is_auto(&self) -> bool {
        *self == Self::Auto
    }
}

impl From<ProtocolEra> for switchboard_mcp::client::EraSetting {
    fn from(era: ProtocolEra) -> Self {
        match era {
            ProtocolEra::Auto => Self::Auto,
            ProtocolEra::Stateless => Self::Stateless,
            ProtocolEra::Session => Self::Session,
        }
    }
}

/// A value in `env` or `headers`: written out, or kept in the OS keyring under a name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EnvValue {
    /// May refer to the host's environment as `${env:NAME}`, expanded when the server starts.
    Plain(String),
    Secret {
        secret: String,
    },
}

/// What a sandboxed server may do beyond seeing its folders.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SandboxSetting {
    /// Whether it shares the host's network (without, it has none at all).
    #[serde(default)]
    pub network: bool,
    /// What builds the sandbox: bubblewrap where it runs, Landlock otherwise, unless the
    /// person chose one.
    #[serde(default, skip_serializing_if = "SandboxEngine::is_auto")]
    pub engine: SandboxEngine,
}

pub use crate::sandbox::SandboxEngine;

/// How a crashed server is restarted: after `initial_backoff_ms`, doubling up to
/// `max_backoff_ms`, and no more after `max_restarts` crashes in a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RestartPolicy {
    pub max_restarts: u32,
    pub initial_backoff_ms: u64,
    pub max_backoff_ms: u64,
}

impl Default for RestartPolicy {
    fn default() -> Self {
        Self {
            max_restarts: 5,
            initial_backoff_ms: 500,
            max_backoff_ms: 30_000,
        }
    }
}

impl RestartPolicy {
    fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// The wait before restart number `attempt` (1 for the first).
    pub fn backoff(&self, attempt: u32) -> Duration {
        let factor = 1u64 << attempt.saturating_sub(1).min(20);
        Duration::from_millis(
            self.initial_backoff_ms
                .saturating_mul(factor)
                .min(self.max_backoff_ms),
        )
    }
}

/// Switchboard's settings for the whole host.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HostSettings {
    /// Seconds a pending approval waits before it is answered with a decline.
    pub approval_timeout_secs: u64,
    /// Seconds to wait for an answer when a server sets none.
    pub request_timeout_secs: u64,
    /// Tool-call decisions the person made "always"; revoked by removing them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_rules: Vec<ToolRule>,
    /// Servers whose sampling requests the model answers without review; revoked by
    /// removing them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sampling_rules: Vec<SamplingRule>,
    /// The tokens a drafted reply may ask for, and what replies without review may spend.
    #[serde(skip_serializing_if = "SamplingLimits::is_default")]
    pub sampling_limits: SamplingLimits,
    /// The folders each server may see, as the person chose them for the server as it was
    /// launched then (none is a choice too); a server launched otherwise is asked again.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shared_folders: Vec<crate::roots::FolderGrant>,
    /// The views (MCP Apps) shown so far, each pinned by its HTML's hash and what it may
    /// load, for its server as it was launched: a view changed since is shown only once
    /// the person agrees.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trusted_views: Vec<crate::views::ViewPin>,
    /// The skills the person let models use, each pinned to its `SKILL.md` digest and its
    /// server's launch: one changed since is asked about again.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trusted_skills: Vec<crate::skills::SkillPin>,
    /// The provider (a name under `providers`) asked when nothing says which.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_provider: Option<String>,
    /// Whether a tool the person calls themselves (from the explorer) still asks them to
    /// confirm when it may destroy something (see `gate::may_destroy`). On unless set: the
    /// explorer's Run is one click on a form, and a slip there can lose data no one meant
    /// to lose; one confirmation on the few destructive tools costs little, and the person
    /// who finds it in the way turns it off. Their other calls run at once either way.
    #[serde(skip_serializing_if = "is_true")]
    pub confirm_own_destructive_calls: bool,
    /// The app's Client ID Metadata Document, by which authorization servers that support
    /// it know this app without registering it; empty to always register. By default the
    /// document published with the project (`assets/client-metadata.json`).
    #[serde(skip_serializing_if = "is_default_client_metadata")]
    pub client_metadata_url: String,
    /// The port of 127.0.0.1 where agents reach the gateway over Streamable HTTP; by
    /// default a fixed one (`endpoint::DEFAULT_PORT`), 0 for none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gateway_port: Option<u16>,
    /// The calls and reads of one agent to one server that standing rules (and the
    /// person's trust in a server) may allow in a minute; beyond, they are refused until
    /// the minute has passed (see `gate::pace`). 1 or more; 120 unless set.
    #[serde(
        skip_serializing_if = "is_default_agent_pace",
        deserialize_with = "at_least_one_a_minute"
    )]
    pub agent_calls_per_minute: u32,
    /// The MCP Registry the "Browse the registry" view lists, and install links are read
    /// against: the official one unless set.
    #[serde(skip_serializing_if = "is_default_registry")]
    pub registry_url: String,
    /// Whether closing the window quits the app. Off unless set: the app stays in the tray,
    /// so that the agents reaching the servers through it do not lose them with the window.
    #[serde(skip_serializing_if = "is_false")]
    pub quit_on_close: bool,
    /// Past this many tools, a chat's model searches the enabled tools instead of being
    /// sent them all (0: it is always sent them all). 40 unless set.
    #[serde(skip_serializing_if = "is_default_tool_search")]
    pub tool_search_above: u32,
    /// The language the window speaks; none: the system's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    /// Whether the window is light or dark; none: as the system prefers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theme: Option<Theme>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A language the window speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Language {
    #[serde(rename = "en")]
    English,
    #[serde(rename = "zh-CN")]
    SimplifiedChinese,
}

/// The window's colours, light or dark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    Light,
    Dark,
}

/// How many tools a chat's model is sent before it searches them instead, unless the
/// settings say otherwise: their schemas would take much of a context past that.
pub const DEFAULT_TOOL_SEARCH_ABOVE: u32 = 40;

fn is_default_tool_search(above: &u32) -> bool {
    *above == DEFAULT_TOOL_SEARCH_ABOVE
}

/// The calls and reads standing rules let one agent make of one server in a minute, unless
/// the settings say otherwise: two a second, more than an agent at work makes, and a bound
/// on one that runs away.
pub const DEFAULT_AGENT_CALLS_PER_MINUTE: u32 = 120;

fn is_default_agent_pace(per_minute: &u32) -> bool {
    *per_minute == DEFAULT_AGENT_CALLS_PER_MINUTE
}

fn at_least_one_a_minute<'de, D: serde::Deserializer<'de>>(file: D) -> Result<u32, D::Error> {
    match u32::deserialize(file)? {
        0 => Err(serde::de::Error::custom(
            "settings.agentCallsPerMinute must be 1 or more, not 0 (to stop an agent's \
             calls, revoke its rules on the Trust page or remove the agent)",
        )),
        n => Ok(n),
    }
}

/// Where the project publishes the app's Client ID Metadata Document: the file
/// `assets/client-metadata.json` of its repository, whose `client_id` is this URL.
pub const CLIENT_METADATA_URL: &str = "https://raw.githubusercontent.com/switchboard-mcp/switchboard/main/assets/client-metadata.json";

fn is_default_registry(url: &String) -> bool {
    url == crate::registry::DEFAULT_URL
}

fn is_default_client_metadata(url: &String) -> bool {
    url == CLIENT_METADATA_URL
}

impl Default for HostSettings {
    fn default() -> Self {
        Self {
            approval_timeout_secs: 300,
            request_timeout_secs: 60,
            tool_rules: Vec::new(),
            sampling_rules: Vec::new(),
            sampling_limits: SamplingLimits::default(),
            shared_folders: Vec::new(),
            trusted_views: Vec::new(),
            trusted_skills: Vec::new(),
            default_provider: None,
            confirm_own_destructive_calls: true,
            client_metadata_url: CLIENT_METADATA_URL.to_owned(),
            gateway_port: None,
            agent_calls_per_minute: DEFAULT_AGENT_CALLS_PER_MINUTE,
            registry_url: crate::registry::DEFAULT_URL.to_owned(),
            quit_on_close: false,
            tool_search_above: DEFAULT_TOOL_SEARCH_ABOVE,
            language: None,
            theme: None,
            extra: Map::new(),
        }
    }
}

impl HostSettings {
    fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// The wire protocol a model provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum ProviderProtocol {
    /// OpenAI-compatible Chat Completions (OpenAI, Ollama, llama.cpp, vLLM, LM Studio,
    /// OpenRouter, Groq ...); the base URL usually ends in `/v1`.
    #[serde(rename = "openai")]
    OpenAi,
    /// Anthropic Messages; the base URL is the host (`https://api.anthropic.com`).
    Anthropic,
    /// OpenAI's Responses API, for OpenAI's own models (some answer nowhere else); the
    /// base URL ends in `/v1`.
    #[serde(rename = "openai_responses")]
    OpenAiResponses,
}

/// A model provider as configured. Its API key is never written here: `apiKey` names the
/// keyring entry that holds it, `<provider>/api-key` (see [`provider_key_name`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderEntry {
    pub protocol: ProviderProtocol,
    pub base_url: String,
    /// Model ids typed by the person, for a provider that lists none (or to pin a few).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models: Vec<String>,
    /// The model asked when nothing says which.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_model: Option<String>,
    /// `{"secret": "<provider>/api-key"}`; none for servers that need no key (Ollama).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<SecretRef>,
    /// What the person pays for each model's tokens, by model id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub prices: BTreeMap<String, ModelPrice>,
    /// What each model takes, by model id, as the person said it or its refusals taught,
    /// over what its name tells.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub profiles: BTreeMap<String, switchboard_providers::Profile>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A model's prices, in US dollars per million tokens, as the person typed them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ModelPrice {
    // Checked finite when set (see `problem`): never null.
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub input: f64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub output: f64,
    /// Input read from the provider's prompt cache, when it charges it otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Number>))]
    pub cache_read: Option<f64>,
}

impl ModelPrice {
    /// What these tokens cost, in dollars.
    pub fn cost(&self, input: u64, output: u64, cache_read: u64) -> f64 {
        let per = |tokens: u64, price: f64| tokens as f64 * price / 1_000_000.0;
        per(input, self.input)
            + per(output, self.output)
            + per(cache_read, self.cache_read.unwrap_or(self.input))
    }

    /// Whether these prices can be kept: each a number of dollars, 0 or more.
    pub fn is_valid(&self) -> bool {
        let fine = |p: f64| p.is_finite() && p >= 0.0;
        fine(self.input) && fine(self.output) && self.cache_read.is_none_or(fine)
    }
}

/// This app's client at the server's authorization server, registered beforehand (by the
/// person), and how it obtains tokens: the person signs in (the default), or a grant of
/// the client's own (the authorization extensions). Its secrets are only ever keyring
/// entries of the server's own names: `<server>/oauth/client-secret` (see
/// [`client_secret_name`]) and `<server>/oauth/private-key` (see [`private_key_name`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OAuthClient {
    pub client_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<SecretRef>,
    /// The authorization server (its issuer) the client was made at: its credentials are
    /// sent to it alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issuer: Option<String>,
    #[serde(default, skip_serializing_if = "OAuthGrant::is_sign_in")]
    pub grant: OAuthGrant,
    /// For client credentials: the key (PEM) the client signs its assertions with
    /// (`private_key_jwt`), in place of a secret.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_key: Option<SecretRef>,
    /// The JWS algorithm of that key; `ES256` when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signing_algorithm: Option<String>,
    /// For a workload: the file its platform keeps its token in, read at each grant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_file: Option<PathBuf>,
    /// For the enterprise-managed grant: the person's identity provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity_provider: Option<IdentityProvider>,
    /// Binds tokens to a key of this app's (DPoP) where the authorization server offers it.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub dpop: bool,
}

impl Default for OAuthClient {
    fn default() -> Self {
        Self {
            client_id: String::new(),
            client_secret: None,
            issuer: None,
            grant: OAuthGrant::default(),
            private_key: None,
            signing_algorithm: None,
            token_file: None,
            identity_provider: None,
            dpop: true,
        }
    }
}

/// How a server's client obtains its tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum OAuthGrant {
    /// The person signs in in the browser.
    #[default]
    SignIn,
    /// The client's own credentials, its secret or a signed JWT (no person).
    ClientCredentials,
    /// A workload's token, from a file (workload identity federation).
    Workload,
    /// The person's ID token at their identity provider, exchanged for the server's token.
    Enterprise,
}

impl OAuthGrant {
    pub fn is_sign_in(&self) -> bool {
        *self == Self::SignIn
    }
}

/// The identity provider of the enterprise-managed grant: where the person's ID token is
/// exchanged for an ID-JAG, as which client, and where that ID token is kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IdentityProvider {
    pub token_endpoint: String,
    pub client_id: String,
    pub id_token_file: PathBuf,
}

/// The keyring name of the pre-registered client secret of the server `name`; a server
/// uses only the secret of its own name.
pub fn client_secret_name(name: &str) -> String {
    format!("{name}/oauth/client-secret")
}

/// The keyring name of the private key the client of the server `name` signs with.
pub fn private_key_name(name: &str) -> String {
    format!("{name}/oauth/private-key")
}

impl OAuthClient {
    /// The keyring name of this client's secret (for the server `name`), if it is its own.
    pub fn own_secret(&self, name: &str) -> Option<&str> {
        self.client_secret
            .as_ref()
            .map(|s| s.secret.as_str())
            .filter(|secret| *secret == client_secret_name(name))
    }

    /// The keyring name of this client's private key (for the server `name`), if its own.
    pub fn own_private_key(&self, name: &str) -> Option<&str> {
        self.private_key
            .as_ref()
            .map(|s| s.secret.as_str())
            .filter(|secret| *secret == private_key_name(name))
    }
}

/// A value kept in the OS keyring under `secret`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecretRef {
    pub secret: String,
}

/// The keyring name of the API key of the provider `name`. A provider uses only the key
/// of its own name, so that an entry of the file cannot borrow another's secret (a
/// server's secrets are named `<server>/env/KEY` and `<server>/header/KEY`, never in two
/// parts).
pub fn provider_key_name(name: &str) -> String {
    format!("{name}/api-key")
}

impl ProviderEntry {
    /// The keyring name of this provider's key (as `name`), if it has one of its own.
    pub fn own_key(&self, name: &str) -> Option<&str> {
        self.api_key
            .as_ref()
            .map(|key| key.secret.as_str())
            .filter(|secret| *secret == provider_key_name(name))
    }
}

/// A server's configuration, checked: exactly one way to reach it.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerSpec<'a> {
    Stdio {
        command: &'a str,
        args: &'a [String],
        env: &'a BTreeMap<String, EnvValue>,
        cwd: Option<&'a PathBuf>,
    },
    Http {
        url: &'a str,
        headers: &'a BTreeMap<String, EnvValue>,
        mode: HttpMode,
        oauth: Option<&'a OAuthClient>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("server {0:?} has neither a `command` nor a `url`")]
    Nothing(String),
    #[error("server {0:?} has both a `command` and a `url`; keep one")]
    Both(String),
    #[error("server {name:?} is of type {kind:?} but has no {missing}")]
    Mismatch {
        name: String,
        kind: &'static str,
        missing: &'static str,
    },
}

impl ServerConfig {
    /// Whether the person's trust holds for the server as it is configured now.
    pub fn is_trusted(&self) -> bool {
        self.trusted && self.trusted_as.as_deref() == Some(&self.identity())
    }

    /// Marks the server trusted, as it is configured now, or not.
    pub fn set_trusted(&mut self, trusted: bool) {
        self.trusted = trusted;
        self.trusted_as = trusted.then(|| self.identity());
    }

    /// This entry as the server runs it: the host's settings fill in what it leaves unset.
    /// Which tools are turned off is the desk's to apply, not the server's: turning one off
    /// or on does not restart it.
    pub fn with_defaults(&self, settings: &HostSettings) -> Self {
        Self {
            request_timeout_secs: self
                .request_timeout_secs
                .or(Some(settings.request_timeout_secs)),
            disabled_tools: BTreeSet::new(),
            ..self.clone()
        }
    }

    /// Whether the person turned `tool` off.
    pub fn tool_disabled(&self, tool: &str) -> bool {
        self.disabled_tools.contains(tool)
    }

    /// How to reach the server named `name`, or why the entry is unusable.
    pub fn spec(&self, name: &str) -> Result<ServerSpec<'_>, SpecError> {
        let mismatch = |kind, missing| SpecError::Mismatch {
            name: name.to_owned(),
            kind,
            missing,
        };
        match (&self.command, &self.url, self.transport) {
            (Some(_), Some(_), _) => Err(SpecError::Both(name.to_owned())),
            (None, None, _) => Err(SpecError::Nothing(name.to_owned())),
            (
                Some(_),
                None,
                Some(TransportType::Http | TransportType::StreamableHttp | TransportType::Sse),
            ) => Err(mismatch("http", "`url`")),
            (None, Some(_), Some(TransportType::Stdio)) => Err(mismatch("stdio", "`command`")),
            (Some(command), None, _) => Ok(ServerSpec::Stdio {
                command,
                args: &self.args,
                env: &self.env,
                cwd: self.cwd.as_ref(),
            }),
            (None, Some(url), transport) => Ok(ServerSpec::Http {
                url,
                headers: &self.headers,
                oauth: self.oauth.as_ref(),
                mode: match transport {
                    Some(TransportType::Sse) => HttpMode::LegacySse,
                    Some(TransportType::StreamableHttp) => HttpMode::StreamableHttp,
                    _ => HttpMode::Auto,
                },
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_claude_desktop_file_reads_and_writes_back_unchanged() {
        let text = json!({
            "mcpServers": {
                "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
                          "env": {"DEBUG": "1"}},
                "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": {"secret": "remote-token"}}},
            },
            "globalShortcut": "Ctrl+Space",
        });
        let config: Config = serde_json::from_value(text.clone()).unwrap();
        assert_eq!(config.servers.len(), 2);
        assert_eq!(
            config.servers["remote"].headers["Authorization"],
            EnvValue::Secret {
                secret: "remote-token".into()
            }
        );
        assert_eq!(serde_json::to_value(&config).unwrap(), text);
    }

    #[test]
    fn the_eras_earlier_versions_wrote_still_read_and_are_written_as_today() {
        let text = json!({"mcpServers": {
            "a": {"command": "a", "protocolEra": "modern"},
            "b": {"command": "b", "protocolEra": "legacy"},
            "c": {"command": "c", "protocolEra": "stateless"},
        }});
        let config: Config = serde_json::from_value(text).unwrap();
        let eras: Vec<ProtocolEra> = config.servers.values().map(|s| s.protocol_era).collect();
        use ProtocolEra::{Session, Stateless};
        assert_eq!(eras, [Stateless, Session, Stateless]);
        let written = serde_json::to_value(&config).unwrap();
        assert_eq!(written["mcpServers"]["b"]["protocolEra"], "session");
        let wrong = serde_json::from_value::<Config>(
            json!({"mcpServers": {"a": {"command": "a", "protocolEra": "newest"}}}),
        );
        let message = wrong.unwrap_err().to_string();
        assert!(
            message.contains(
                "unknown variant `newest`, expected one of `auto`, `stateless`, `session`"
            ),
            "{message}"
        );
    }

    #[test]
    fn each_entry_resolves_to_one_way_of_reaching_the_server() {
        let stdio = ServerConfig {
            command: Some("node".into()),
            ..ServerConfig::default()
        };
        assert!(matches!(
            stdio.spec("a"),
            Ok(ServerSpec::Stdio {
                command: "node",
                ..
            })
        ));
        let sse = ServerConfig {
            url: Some("http://h/sse".into()),
            transport: Some(TransportType::Sse),
            ..ServerConfig::default()
        };
        for (transport, mode) in [
            (None, HttpMode::Auto),
            (Some(TransportType::Http), HttpMode::Auto),
            (
                Some(TransportType::StreamableHttp),
                HttpMode::StreamableHttp,
            ),
            (Some(TransportType::Sse), HttpMode::LegacySse),
        ] {
            let remote = ServerConfig {
                transport,
                ..sse.clone()
            };
            assert!(
                matches!(remote.spec("b"), Ok(ServerSpec::Http { mode: m, .. }) if m == mode),
                "{transport:?}"
            );
        }
        let both = ServerConfig {
            url: Some("u".into()),
            ..stdio.clone()
        };
        assert_eq!(both.spec("c"), Err(SpecError::Both("c".into())));
        assert_eq!(
            ServerConfig::default().spec("d"),
            Err(SpecError::Nothing("d".into()))
        );
        let wrong = ServerConfig {
            transport: Some(TransportType::Http),
            ..stdio
        };
        assert_eq!(
            wrong.spec("e").unwrap_err().to_string(),
            "server \"e\" is of type \"http\" but has no `url`"
        );
    }

    #[test]
    fn providers_read_and_write_back_with_what_this_version_does_not_know() {
        let text = json!({
            "mcpServers": {},
            "providers": {
                "openai": {"protocol": "openai", "baseUrl": "https://api.openai.com/v1",
                           "defaultModel": "gpt-4.1", "apiKey": {"secret": "openai/api-key"},
                           "organization": "org-1"},
                "local": {"protocol": "openai", "baseUrl": "http://localhost:11434/v1",
                          "models": ["llama3.2", "qwen3"]},
                "claude": {"protocol": "anthropic", "baseUrl": "https://api.anthropic.com",
                           "apiKey": {"secret": "openai/api-key"}},
            },
            "settings": {"approvalTimeoutSecs": 300, "requestTimeoutSecs": 60, "defaultProvider": "openai"},
        });
        let config: Config = serde_json::from_value(text.clone()).unwrap();
        assert_eq!(config.settings.default_provider.as_deref(), Some("openai"));
        let openai = &config.providers["openai"];
        assert_eq!(openai.protocol, ProviderProtocol::OpenAi);
        assert_eq!(openai.own_key("openai"), Some("openai/api-key"));
        assert_eq!(openai.extra["organization"], "org-1");
        assert_eq!(config.providers["local"].models, ["llama3.2", "qwen3"]);
        assert_eq!(config.providers["local"].own_key("local"), None);
        // Another provider's key is not its own to use.
        assert_eq!(config.providers["claude"].own_key("claude"), None);
        assert_eq!(serde_json::to_value(&config).unwrap(), text);
        // No provider is written as none at all.
        let none = serde_json::to_value(Config::default()).unwrap();
        assert_eq!(none, json!({"mcpServers": {}}));
    }

    #[test]
    fn a_first_run_offers_the_bundled_demo_server_by_name_not_by_path() {
        let config = Config::first_run();
        let demo = &config.servers["demo"];
        assert!(matches!(
            demo.spec("demo"),
            Ok(ServerSpec::Stdio {
                command: DEMO_SERVER,
                ..
            })
        ));
        assert!(demo.enabled);
        let written = serde_json::to_string(&config).unwrap();
        assert!(!written.contains('/'), "{written}");
    }

    #[test]
    fn a_server_without_its_own_timeout_takes_the_hosts() {
        let settings = HostSettings {
            request_timeout_secs: 7,
            ..HostSettings::default()
        };
        let own = ServerConfig {
            request_timeout_secs: Some(30),
            ..ServerConfig::default()
        };
        assert_eq!(own.with_defaults(&settings), own);
        let none = ServerConfig::default().with_defaults(&settings);
        assert_eq!(none.request_timeout_secs, Some(7));
    }

    #[test]
    fn the_agents_pace_takes_its_default_and_refuses_zero() {
        let settings = |written: Value| {
            serde_json::from_value::<Config>(json!({"mcpServers": {}, "settings": written}))
                .map(|config| config.settings.agent_calls_per_minute)
                .map_err(|e| e.to_string())
        };
        assert_eq!(settings(json!({})), Ok(120));
        assert_eq!(settings(json!({"agentCallsPerMinute": 30})), Ok(30));
        let refused = settings(json!({"agentCallsPerMinute": 0})).unwrap_err();
        assert!(
            refused.contains("settings.agentCallsPerMinute must be 1 or more"),
            "{refused}"
        );
    }

    #[test]
    fn closing_the_window_keeps_the_app_unless_the_person_chose_to_quit() {
        let settings = |written: Value| {
            serde_json::from_value::<Config>(json!({"mcpServers": {}, "settings": written}))
                .map(|config| config.settings.quit_on_close)
                .map_err(|e| e.to_string())
        };
        assert_eq!(settings(json!({})), Ok(false));
        assert_eq!(settings(json!({"quitOnClose": true})), Ok(true));
        // Written only once chosen: a file the person wrote stays as they wrote it.
        let written = serde_json::to_value(HostSettings::default()).expect("settings");
        assert!(written.get("quitOnClose").is_none(), "{written}");
    }

    #[test]
    fn the_windows_language_is_the_systems_unless_one_it_speaks_was_chosen() {
        let settings = |written: Value| {
            serde_json::from_value::<Config>(json!({"mcpServers": {}, "settings": written}))
                .map(|config| config.settings.language)
                .map_err(|e| e.to_string())
        };
        assert_eq!(settings(json!({})), Ok(None));
        assert_eq!(
            settings(json!({"language": "zh-CN"})),
            Ok(Some(Language::SimplifiedChinese))
        );
        let refused = settings(json!({"language": "fr"})).unwrap_err();
        assert!(refused.contains("unknown variant `fr`"), "{refused}");
        let written = serde_json::to_value(HostSettings::default()).expect("settings");
        assert!(written.get("language").is_none(), "{written}");
    }

    #[test]
    fn the_windows_colours_are_the_systems_unless_chosen() {
        let settings = |written: Value| {
            serde_json::from_value::<Config>(json!({"mcpServers": {}, "settings": written}))
                .map(|config| config.settings.theme)
                .map_err(|e| e.to_string())
        };
        assert_eq!(settings(json!({})), Ok(None));
        assert_eq!(settings(json!({"theme": "dark"})), Ok(Some(Theme::Dark)));
        let refused = settings(json!({"theme": "blue"})).unwrap_err();
        assert!(refused.contains("unknown variant `blue`"), "{refused}");
        let written = serde_json::to_value(HostSettings::default()).expect("settings");
        assert!(written.get("theme").is_none(), "{written}");
    }

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let policy = RestartPolicy::default();
        let waits: Vec<u64> = (1..=8)
            .map(|n| policy.backoff(n).as_millis() as u64)
            .collect();
        assert_eq!(
            waits,
            [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]
        );
    }

    #[test]
    fn transport_types_accept_the_spellings_other_hosts_use() {
        for (text, kind) in [
            ("\"stdio\"", TransportType::Stdio),
            ("\"http\"", TransportType::Http),
            ("\"streamable-http\"", TransportType::StreamableHttp),
            ("\"streamableHttp\"", TransportType::StreamableHttp),
            ("\"sse\"", TransportType::Sse),
        ] {
            assert_eq!(serde_json::from_str::<TransportType>(text).unwrap(), kind);
        }
    }
}
