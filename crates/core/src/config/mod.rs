//! The configuration: where it lives, what it holds, how it is read and written safely,
//! and how other hosts' files are imported.

mod file;
mod identity;
mod import;
mod model;
mod path;
pub mod placeholders;
mod rules;
mod sampling_limits;
mod secret_names;

pub use file::{ConfigError, ConfigProblem, load, load_or_create, save, update, update_off_thread};
pub use import::{
    ImportError, ImportSource, ImportWarning, Imported, ImportedServer, InputPrompt, PlainSecret,
    Reach, Reference, Settled, import,
};
pub use model::{
    AgentAnswers, AgentConfig, CLIENT_METADATA_URL, Config, DEFAULT_AGENT_CALLS_PER_MINUTE,
    DEMO_SERVER, EnvValue, HostSettings, IdentityProvider, Language, ModelPrice, OAuthClient,
    OAuthGrant, Offered, ProtocolEra, ProviderEntry, ProviderProtocol, RestartPolicy,
    SandboxEngine, SandboxSetting, SecretRef, ServerConfig, ServerSpec, SpecError, Theme,
    TransportType, client_secret_name, private_key_name, provider_key_name,
};
pub use path::{CONFIG_ENV, ConfigPathError, config_path};
pub use rules::{RuleChange, RuleStore, RulesInFile, SamplingRule, ToolRule};
pub use sampling_limits::SamplingLimits;
pub use secret_names::{Place, names_a_secret, secret_name};
