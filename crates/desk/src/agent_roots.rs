//! The folders an agent works in (its roots), offered to the person before any server sees
//! them: when an agent that declared roots connects, and when it says they changed, the
//! person is asked which of them the servers the agent uses may see. Those accepted join
//! what each of those servers may see, by the same rules as the person's own choice of
//! folders (kept for the server as launched, withdrawn with it), and the servers are told;
//! the others no server sees. Those the person had not shared with a server already are
//! marked as the agent's, and unshared when the agent is removed.

use std::path::PathBuf;

use serde_json::json;
use switchboard_mcp::file_uri::file_path;
use switchboard_mcp::types::Root;

use crate::{Desk, DeskError};
use switchboard_core::approvals::{Answer, DecidedBy, Question};
use switchboard_core::audit::{Kind, Record};
use switchboard_core::decisions::Origin;
use switchboard_core::roots;

impl Desk {
    /// Asks the person which of `offered` the servers `agent` uses may see, and lets them
    /// see those. The folders accepted, none if the person refused or did not answer.
    pub async fn offer_agent_roots(
        &self,
        agent: &str,
        offered: &[Root],
    ) -> Result<Vec<PathBuf>, DeskError> {
        let config = self
            .agent_config(agent)
            .ok_or_else(|| DeskError::NoAgent(agent.to_owned()))?;
        // Only folders on this machine can be shared; a root of another kind is not offered.
        let folders: Vec<String> = offered
            .iter()
            .filter_map(|root| file_path(&root.uri))
            .map(|path| path.display().to_string())
            .collect();
        let servers: Vec<String> = self
            .config()
            .servers
            .keys()
            .filter(|server| config.reaches(server))
            .cloned()
            .collect();
        if folders.is_empty() || servers.is_empty() {
            return Ok(Vec::new());
        }
        let question = Question::AgentRoots {
            agent: agent.to_owned(),
            folders,
            servers: servers.clone(),
        };
        let settled = self.inner.gate.broker().ask(agent, question).await?;
        let accepted: Vec<PathBuf> = match settled.answer {
            Answer::Roots(chosen) if settled.by == DecidedBy::Person => chosen
                .iter()
                .filter_map(|root| file_path(&root.uri))
                .collect(),
            _ => Vec::new(),
        };
        for server in &servers {
            if !accepted.is_empty() {
                let mut folders: Vec<PathBuf> = self
                    .inner
                    .roots
                    .of(server)
                    .iter()
                    .filter_map(|root| file_path(&root.uri))
                    .collect();
                // What the person shared with the server themselves stays theirs.
                let own = self.own_folders(server);
                folders.extend(accepted.iter().cloned());
                self.set_roots(server, &folders).await?;
                let offered: Vec<PathBuf> = accepted
                    .iter()
                    .filter(|folder| !own.contains(folder))
                    .cloned()
                    .collect();
                self.mark_offered(server, agent, &offered).await;
            }
            self.record_offer(agent, server, &accepted, settled.by)
                .await;
        }
        Ok(accepted)
    }

    /// The person's answer to an agent's offer: the folders the servers may see (none is
    /// an answer too).
    pub fn answer_agent_roots(
        &self,
        id: u64,
        agent: &str,
        folders: &[PathBuf],
    ) -> Result<(), DeskError> {
        let chosen = roots::roots_of(folders)?;
        self.answer(id, agent, Answer::Roots(chosen))
    }

    async fn record_offer(&self, agent: &str, server: &str, accepted: &[PathBuf], by: DecidedBy) {
        let decision = if accepted.is_empty() {
            "none shared"
        } else {
            "shared"
        };
        let decision = by.unanswered().unwrap_or(decision);
        let record = folders_record(agent, server, accepted, decision, by.as_str());
        if let Err(e) = self.inner.gate.audit().record(record).await {
            tracing::error!("{e}");
        }
    }
}

/// The audit record of what became of the folders `agent` offered `server`.
pub(super) fn folders_record(
    agent: &str,
    server: &str,
    folders: &[PathBuf],
    decision: &str,
    decided_by: &str,
) -> Record {
    let offered_by = Origin::Agent {
        name: agent.to_owned(),
    };
    Record {
        kind: Kind::Roots,
        server: server.to_owned(),
        subject: format!("roots offered by {offered_by}"),
        detail: json!({ "folders": folders }),
        decision: decision.to_owned(),
        decided_by: decided_by.to_owned(),
        outcome: String::new(),
        duration_ms: None,
    }
}
