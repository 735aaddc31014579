//! The vocabulary of decisions that the gate, the approvals broker, the policies and the
//! audit trail share: who asks ([`Origin`]), how a decision was given ([`Given`]), who or
//! what decided ([`DecidedBy`]) and how what was allowed ended ([`Outcome`]). The last two
//! are kept typed all the way to the audit file; they become text only where a person or a
//! model reads them (see `text`).

use serde::{Deserialize, Serialize};

mod text;

pub use text::BY_YOU;

/// Who asks for a tool call, as the audit trail names them and the approval dialog
/// shows them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Origin {
    /// The person, from the explorer.
    Person,
    /// A model, in the conversation of this id (the built-in chat, in the window or from a
    /// terminal), named by its title as it was when the model asked.
    Model { conversation: String, title: String },
    /// An agent outside Switchboard (a coding agent, an IDE, a script), by the name the
    /// person gave it, reaching the servers through the gateway.
    Agent { name: String },
    /// A server's view (MCP Apps) shown in the window, asking of its own server.
    App { server: String },
}

impl Origin {
    /// "the person", "model in conversation “<title>”", "agent <name>" or "the app of
    /// <server>".
    pub fn describe(&self) -> String {
        match self {
            Self::Person => "the person".to_owned(),
            Self::Model { title, .. } => format!("model in conversation “{title}”"),
            Self::Agent { name } => text::agent(name),
            Self::App { server } => format!("the app of {server}"),
        }
    }

    /// The agent that asks, if an agent does: its rules are its own.
    pub fn agent(&self) -> Option<&str> {
        match self {
            Self::Agent { name } => Some(name),
            Self::Person | Self::Model { .. } | Self::App { .. } => None,
        }
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// How a tool call's decision was given: by the person in the dialog once, for the
/// session or always; by a standing rule ([`DecidedBy`] names which); or by the
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

/// How long a rule the person gave holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Until the app quits.
    Session,
    /// Kept in the configuration until revoked.
    Always,
}

/// What of its server a standing rule decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
// Named apart from the import's `Reach` where the window's types are one namespace.
#[serde(rename = "RuleReach", rename_all = "snake_case")]
pub enum Reach {
    /// One of its tools.
    Tool,
    /// Every one of its tools.
    Server,
    /// An agent's reads of it (resources, prompts, completions).
    Reads,
}

/// Who or what decided what the audit trail records. Stored as its kind and the kind's
/// fields (see `audit`), never as the text a person reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", content = "detail", rename_all = "snake_case")]
pub enum DecidedBy {
    /// The person, answering the question (a refusal is theirs too), or signing in.
    Person,
    /// The person, by making the call themselves.
    OwnCall,
    /// A standing rule the person made.
    Rule {
        allow: bool,
        reach: Reach,
        scope: Scope,
    },
    /// The person's trust in a server, for a tool it says only reads.
    TrustedReadOnly,
    /// The person's permission for a server's sampling to be answered without review.
    SamplingWithoutReview,
    /// The pace of standing decisions: `limit` a minute let an agent through, the most.
    Pace { limit: u32 },
    /// An agent, answering in the person's stead what a server asked during its call.
    Agent { name: String },
    /// The person's earlier choice of folders, given again.
    Remembered,
    /// No choice of folders yet: none are shared meanwhile.
    NotChosenYet,
    /// The caller, who stopped waiting before the question was answered.
    Caller,
    /// The deadline, passed unanswered.
    Timeout,
    /// No one: no face was left to ask (the window closed, the app stopped).
    NoOneToAsk,
    /// The server, which withdrew its request before anyone answered it.
    ServerWithdrew,
    /// The agent's removal, which withdrew the folders it had offered.
    AgentRemoved,
    /// An answer of another kind than the question's, which denies.
    WrongAnswer,
    /// A record written before deciders were typed: its text, as it was recorded.
    Recorded(String),
}

/// How something allowed ended, as the audit trail records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", content = "detail", rename_all = "snake_case")]
pub enum Outcome {
    /// None known: the call still runs (or ended before its end was written), or the record
    /// is of a decision alone.
    Unknown,
    /// It was done: the call answered, the agent's answer went back.
    Succeeded,
    /// The tool answered that it failed.
    ToolError,
    /// It could not be done, for this reason (the client's or the agent's error).
    Failed(String),
    /// A record written before outcomes were typed: its text, as it was recorded.
    Recorded(String),
}
