//! The trust service: the person's answers to what waits for them (checked before they
//! go), the folders each server may see, and what the person has allowed, for review:
//! every standing rule (its scope, since when, how often it decided a call, whether it
//! still holds for the server and the tool as they are now) and every shared folder, each
//! revocable, at once. It holds the gate (its broker, rules and audit trail), the roots
//! and the catalog, and reaches the configuration and the servers' sessions through its
//! port ([`TrustHost`]), which the desk implements.

mod answers;
mod folders;
mod host;

use std::sync::Arc;

use serde::Serialize;
use switchboard_core::approvals::AnswerError;
use switchboard_core::catalog::Catalog;
use switchboard_core::gate::Gate;
use switchboard_core::links::LinkError;
use switchboard_core::roots::{RootError, Roots};

use crate::keeps::{Keeping, Keeps};

pub(crate) use folders::{folders_record, grant_remembered};
pub use host::{FoldersChange, TrustHost};

#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    #[error(transparent)]
    Answer(#[from] AnswerError),
    /// The answer does not fit what was asked; the person can fix it and nothing is lost.
    #[error("{0}")]
    BadAnswer(String),
    #[error(transparent)]
    Link(#[from] LinkError),
    #[error(transparent)]
    Roots(#[from] RootError),
    /// A change to a folder the server was not given.
    #[error("{folder} is not shared with {server}")]
    NotShared { server: String, folder: String },
}

/// Cheap to clone; every clone is the same service.
#[derive(Clone)]
pub struct Trust {
    gate: Gate,
    roots: Roots,
    catalog: Catalog,
    host: Arc<dyn TrustHost>,
    _keeps: Keeps,
}

impl Keeping for Trust {
    fn keeps(&mut self) -> &mut Keeps {
        &mut self._keeps
    }
}

impl Trust {
    /// The service over the gate, the roots and the catalog it works with.
    pub fn new(gate: Gate, roots: Roots, catalog: Catalog, host: Arc<dyn TrustHost>) -> Self {
        Self {
            gate,
            roots,
            catalog,
            host,
            _keeps: Keeps::default(),
        }
    }
}
use switchboard_core::audit::ByRule;
use switchboard_core::pins::ToolDefinition;
use switchboard_core::policy::{Now, RuleOf, Scope};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum RuleScope {
    /// Until the app quits.
    Session,
    /// Kept in the configuration file.
    Always,
}

/// A standing decision, as the person reviews it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct StandingRule {
    pub server: String,
    /// The tool it is about; none for every tool of the server.
    pub tool: Option<String>,
    /// The agent whose calls it decides; none for the person's and their models'.
    pub agent: Option<String>,
    /// A rule about the agent's reads of the server (resources, prompts), not its tools.
    pub reads: bool,
    pub allow: bool,
    pub scope: RuleScope,
    pub since_ms: u64,
    /// How many calls it decided since it was made (as the audit trail kept them).
    pub uses: u64,
    /// False once the server is launched otherwise, or the tool reads otherwise, than when
    /// the person allowed it: the next call is asked about. A denial always holds.
    pub holds: bool,
}

/// The folders a server may see.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SharedFolders {
    pub server: String,
    pub folders: Vec<String>,
}

impl Trust {
    /// Every rule the person made, the standing ones first.
    pub async fn standing_rules(&self) -> Vec<StandingRule> {
        let config = self.host.config();
        let rules = self.gate.rules();
        let mut shown = Vec::with_capacity(rules.len());
        for (rule, scope) in rules {
            let identity = config
                .servers
                .get(&rule.server)
                .map(switchboard_core::config::ServerConfig::identity);
            // The tools the rule decides, as listed now: its tool, or (a rule for every tool)
            // all of them; none when its server does not run, or for its reads.
            let listed: Vec<ToolDefinition> = match (&rule.tool, rule.reads) {
                (_, true) => Vec::new(),
                (Some(tool), false) => self
                    .catalog
                    .find_tool(&rule.server, tool)
                    .map(|found| ToolDefinition::of(&found))
                    .into_iter()
                    .collect(),
                (None, false) => self
                    .catalog
                    .offer(&rule.server)
                    .map(|offer| offer.tools.iter().map(ToolDefinition::of).collect())
                    .unwrap_or_default(),
            };
            // Judged by the server alone when nothing of it is listed now, or for a rule of
            // every tool that takes the tools listed when it first decides a call.
            let pins_at_first_use = rule.tool.is_none() && rule.definitions.is_empty();
            let holds = !rule.allow
                || identity.is_some_and(|identity| {
                    rule.identity == identity
                        && (pins_at_first_use
                            || listed.iter().all(|definition| {
                                rule.pinned_to(&Now {
                                    agent: rule.agent.as_deref(),
                                    server: &rule.server,
                                    identity: &identity,
                                    definition,
                                })
                            }))
                });
            let uses = ByRule {
                server: rule.server.clone(),
                subject: rule.tool.clone(),
                decided_by: rule.decided_by(scope),
                since_ms: rule.since_ms as i64,
            };
            let uses = self.gate.audit().count_decided(uses).await;
            shown.push(StandingRule {
                holds,
                uses: uses.unwrap_or(0),
                since_ms: rule.since_ms,
                scope: match scope {
                    Scope::Session => RuleScope::Session,
                    Scope::Always => RuleScope::Always,
                },
                server: rule.server,
                tool: rule.tool,
                reads: rule.reads,
                agent: rule.agent,
                allow: rule.allow,
            });
        }
        shown
    }

    /// Forgets a rule (`tool` none: the rule for the whole server; `reads`: the rule for an
    /// agent's reads of it), in the file too; the next call it would have decided is asked
    /// about.
    pub async fn revoke_rule(
        &self,
        server: &str,
        tool: Option<&str>,
        reads: bool,
        agent: Option<&str>,
    ) {
        let what = match (tool, reads) {
            (_, true) => RuleOf::Reads,
            (Some(tool), false) => RuleOf::Tool(tool.to_owned()),
            (None, false) => RuleOf::Tools,
        };
        self.gate.revoke(server, &what, agent).await;
    }

    /// The folders each server may see, by server.
    pub fn shared_folders(&self) -> Vec<SharedFolders> {
        let mut shared: Vec<SharedFolders> = self
            .roots
            .servers()
            .into_iter()
            .map(|server| SharedFolders {
                folders: self.roots_of(&server),
                server,
            })
            .filter(|s| !s.folders.is_empty())
            .collect();
        shared.sort_by(|a, b| a.server.cmp(&b.server));
        shared
    }
}
