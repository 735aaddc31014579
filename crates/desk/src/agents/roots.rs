//! The folders an agent works in (its roots), offered to the person before any server sees
//! them: when an agent that declared roots connects, and when it says they changed, the
//! person is asked which of them the servers the agent uses may see. Those accepted join
//! what each of those servers may see, by the same rules as the person's own choice of
//! folders (kept for the server as launched, withdrawn with it), and the servers are told;
//! the others no server sees. Those the person had not shared with a server already are
//! marked as the agent's, and unshared when the agent is removed.

use std::path::PathBuf;

use switchboard_mcp::file_uri::file_path;
use switchboard_mcp::types::Root;

use super::{AgentError, Agents};
use crate::trust::folders_record;
use switchboard_core::approvals::{Answer, Question, SettledBy};
use switchboard_core::roots::folders_of;

impl Agents {
    /// Asks the person which of `offered` the servers `agent` uses may see, and lets them
    /// see those. The folders accepted, none if the person refused or did not answer.
    pub async fn offer_roots(
        &self,
        agent: &str,
        offered: &[Root],
    ) -> Result<Vec<PathBuf>, AgentError> {
        let config = self.configured(agent)?;
        // Only folders on this machine can be shared; a root of another kind is not offered.
        let folders: Vec<String> = offered
            .iter()
            .filter_map(|root| file_path(&root.uri))
            .map(|path| path.display().to_string())
            .collect();
        let servers: Vec<String> = self
            .host
            .config()
            .servers
            .into_keys()
            .filter(|server| config.reaches(server))
            .collect();
        if folders.is_empty() || servers.is_empty() {
            return Ok(Vec::new());
        }
        let question = Question::AgentRoots {
            agent: agent.to_owned(),
            folders,
            servers: servers.clone(),
        };
        let settled = self.host.ask(agent, question).await?;
        let accepted: Vec<PathBuf> = match settled.answer {
            Answer::Roots(chosen) if settled.by == SettledBy::Person => folders_of(&chosen),
            _ => Vec::new(),
        };
        for server in &servers {
            if !accepted.is_empty() {
                self.host
                    .share_offered(agent, server, accepted.clone())
                    .await?;
            }
            self.record_offer(agent, server, &accepted, settled.by)
                .await;
        }
        Ok(accepted)
    }

    async fn record_offer(&self, agent: &str, server: &str, accepted: &[PathBuf], by: SettledBy) {
        let decision = if accepted.is_empty() {
            "none shared"
        } else {
            "shared"
        };
        let decision = by.unanswered().unwrap_or(decision);
        let record = folders_record(agent, server, accepted, decision, by.into());
        self.host.record(record).await;
    }
}
