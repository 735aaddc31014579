//! An agent's reads of a server: a resource (read, or subscribed to), a prompt, or the
//! completions offered for an argument. They show a server's data as a tool call does, so
//! they pass the gate as the agent's too (see `Gate::read`), and the dialog and the audit
//! trail say exactly what is read.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};
use switchboard_mcp::types::method;

/// What an agent reads of a server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Read {
    /// `resources/read`.
    Resource { uri: String },
    /// `resources/subscribe`: told of each change of the resource from now on.
    Subscription { uri: String },
    /// `prompts/get`, with the arguments it fills the prompt with.
    Prompt {
        name: String,
        arguments: BTreeMap<String, String>,
    },
    /// `completion/complete`: the values the server suggests for an argument of a prompt
    /// (`of` its name) or of a resource template (`of` the template).
    Completion {
        of: String,
        argument: String,
        value: String,
    },
    /// A model's use of a skill (SEP-2640): its files read, its `SKILL.md` pinned by the
    /// manifest's `digest`.
    Skill {
        name: String,
        uri: String,
        digest: String,
    },
}

impl Read {
    /// What the audit trail names as read.
    pub fn subject(&self) -> &str {
        match self {
            Self::Resource { uri } | Self::Subscription { uri } => uri,
            Self::Prompt { name, .. } => name,
            Self::Completion { of, .. } => of,
            Self::Skill { uri, .. } => uri,
        }
    }

    /// The read as the activity view and the person's dialogs name it ("a call to ...").
    pub fn named(&self) -> String {
        match self {
            Self::Resource { uri } => format!("read {uri}"),
            Self::Subscription { uri } => format!("subscribe to {uri}"),
            Self::Prompt { name, .. } => format!("prompt {name}"),
            Self::Completion { of, argument, .. } => format!("complete {argument} of {of}"),
            Self::Skill { name, .. } => format!("use the skill {name}"),
        }
    }

    /// The request the read makes of its server.
    pub fn method(&self) -> &'static str {
        match self {
            Self::Resource { .. } | Self::Skill { .. } => method::RESOURCES_READ,
            Self::Subscription { .. } => method::RESOURCES_SUBSCRIBE,
            Self::Prompt { .. } => method::PROMPTS_GET,
            Self::Completion { .. } => method::COMPLETION_COMPLETE,
        }
    }

    /// The read in full, as the audit trail keeps it.
    pub fn detail(&self) -> Value {
        serde_json::to_value(self).unwrap_or_else(|_| json!({}))
    }
}
