//! The vocabulary of decisions that the gate, the approvals broker, the policies and the
//! audit trail share: who asks ([`Origin`]), how a decision was given ([`Given`]), and how
//! the audit trail names the deciders that are no rule.

use serde::Serialize;

/// Who asks for a tool call, as the audit trail names them and the approval dialog
/// shows them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Origin {
    /// The person, from the explorer.
    Person,
    /// A model, in the conversation of this id (the built-in chat).
    Model { conversation: String },
    /// An agent outside Switchboard (a coding agent, an IDE, a script), by the name the
    /// person gave it, reaching the servers through the gateway.
    Agent { name: String },
}

impl Origin {
    /// "the person", "model in conversation <id>", or "agent <name>".
    pub fn describe(&self) -> String {
        match self {
            Self::Person => "the person".to_owned(),
            Self::Model { conversation } => format!("model in conversation {conversation}"),
            Self::Agent { name } => format!("agent {name}"),
        }
    }

    /// The agent that asks, if an agent does: its rules are its own.
    pub fn agent(&self) -> Option<&str> {
        match self {
            Self::Agent { name } => Some(name),
            Self::Person | Self::Model { .. } => None,
        }
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// How a tool call's decision was given: by the person in the dialog once, for the
/// session or always; by a standing rule (the record's `decided_by` names which); or by the
/// person making the call themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Given {
    Once,
    Session,
    Always,
    Rule,
    Own,
}

impl Given {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Once => "once",
            Self::Session => "session",
            Self::Always => "always",
            Self::Rule => "rule",
            Self::Own => "own",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        [
            Self::Once,
            Self::Session,
            Self::Always,
            Self::Rule,
            Self::Own,
        ]
        .into_iter()
        .find(|g| g.as_str() == text)
    }
}

/// How the audit trail names the person deciding by making the call themselves.
pub const BY_YOU: &str = "you (your own call)";

/// How the audit trail names a reply the model sent under a sampling rule.
pub const WITHOUT_REVIEW: &str = "policy: sampling without review for this server";
