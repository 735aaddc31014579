//! The person's standing decisions as the configuration keeps them: about tools
//! ([`ToolRule`], weighed by `crate::policy`) and about a server's sampling
//! ([`SamplingRule`], by `crate::sampling`), and where the gate keeps the tools' rules
//! ([`RuleStore`]).

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;

use serde::{Deserialize, Serialize};

use super::{ConfigError, update_off_thread};
use crate::pins::ToolDefinition;

/// A change to the standing rules as a store holds them.
pub type RuleChange = Box<dyn FnOnce(&mut Vec<ToolRule>) + Send>;

/// Where the gate keeps the person's standing rules ("always") between runs.
pub trait RuleStore: Send + Sync {
    /// Makes `change` to the rules the store holds now (so that rules written there
    /// meanwhile, by hand or by another answer, are kept); done once they are kept.
    fn change(
        &self,
        change: RuleChange,
    ) -> Pin<Box<dyn Future<Output = Result<(), ConfigError>> + Send + '_>>;
}

/// The configuration file as the rules' store, each change written off the async threads
/// (see [`update_off_thread`]).
pub struct RulesInFile(pub PathBuf);

impl RuleStore for RulesInFile {
    fn change(
        &self,
        change: RuleChange,
    ) -> Pin<Box<dyn Future<Output = Result<(), ConfigError>> + Send + '_>> {
        Box::pin(async move {
            update_off_thread(self.0.clone(), move |config| {
                change(&mut config.settings.tool_rules);
                Ok::<_, ConfigError>(())
            })
            .await
            .map(drop)
        })
    }
}

/// A standing decision about one tool of a server, or all of them (`tool: None`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ToolRule {
    pub server: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    pub allow: bool,
    /// The agent whose calls the rule decides; none for the person's and their models'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The server's identity when the rule was made (`ServerConfig::identity`).
    #[serde(default)]
    pub identity: String,
    /// The tool as the person read it when they allowed it (rules for one tool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub definition: Option<ToolDefinition>,
    /// Every tool the server listed when the person allowed all of them (rules for a
    /// whole server): the allowance holds for these, as they read then.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub definitions: Vec<ToolDefinition>,
    /// When the rule was made (ms since the epoch).
    #[serde(default)]
    pub since_ms: u64,
    /// A rule about the server's reads (resources, prompts, completions), not its tools.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reads: bool,
}

/// The person's standing permission for a server's sampling requests to be drafted by
/// the model and sent without review, pinned to the server's identity (`ServerConfig::identity`)
/// as it was when they gave it: a server launched otherwise is asked about again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SamplingRule {
    pub server: String,
    pub identity: String,
    /// When it was given (ms since the epoch).
    #[serde(default)]
    pub since_ms: u64,
    /// The model that writes the replies, whatever the server hints: the provider (a name
    /// under `providers`) and one of its configured models, as the person chose them.
    /// None in a rule an earlier version kept: such a rule sends nothing without review
    /// until the person allows the server again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}
