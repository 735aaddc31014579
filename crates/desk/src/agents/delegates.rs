//! Which agent answers a server's sampling or form request in the person's stead (see
//! [`switchboard_core::delegated`]): the agent whose gateway session made every call the server is
//! serving now, if it declared at `initialize` that it can answer such a request and the
//! person let it ([`AgentAnswers`]). A request made while no call is under way, or while
//! calls of others are too, cannot be told to be that agent's: the person answers it.

use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::Weak;

use switchboard_mcp::connection::WeakConnection;
use switchboard_mcp::types::{ClientCapabilities, ElicitRequestParams};

use super::{AgentError, Agents, AgentsHost, Own};
use switchboard_core::config::AgentAnswers;
use switchboard_core::delegated::{Asked, Delegate, Delegates};

/// A gateway session that makes a call: whose it is, and what it can answer.
pub struct AgentLine {
    pub agent: String,
    /// The session's own number: calls of two sessions of one agent are not one's.
    pub session: u64,
    pub connection: WeakConnection,
    /// What the agent declared it can answer (at `initialize`, or with a stateless call);
    /// `roots` only where its folders are asked for when a server asks for roots.
    pub declared: ClientCapabilities,
}

/// The sessions that make the calls under way, by call token.
#[derive(Default)]
pub(super) struct Lines {
    by_call: Mutex<HashMap<String, AgentLine>>,
}

/// Ties a call to its session while held.
pub struct LineHeld {
    own: Weak<Own>,
    token: String,
}

impl Drop for LineHeld {
    fn drop(&mut self) {
        if let Some(own) = self.own.upgrade() {
            own.lines.by_call.lock().remove(&self.token);
        }
    }
}

/// Whether an agent that declared `declared` can answer this request.
fn can_answer(declared: &ClientCapabilities, asked: Asked<'_>) -> bool {
    match asked {
        Asked::Sampling(params) => {
            declared.supports_sampling()
                && (params.tools.is_none() || declared.supports_sampling_tools())
        }
        // A link goes to the person: only they may agree to open a page.
        Asked::Elicitation(ElicitRequestParams::Url(_)) => false,
        Asked::Elicitation(form) => declared.allows_elicitation(form),
        Asked::Roots => declared.supports_roots(),
    }
}

impl Agents {
    /// Lets the session `line` answer what a server asks while serving the call `token`
    /// (as far as the person allows it), until the returned value is dropped.
    pub fn call_made_by(&self, token: &str, line: AgentLine) -> LineHeld {
        self.own.lines.by_call.lock().insert(token.to_owned(), line);
        LineHeld {
            own: std::sync::Arc::downgrade(&self.own),
            token: token.to_owned(),
        }
    }

    /// What an agent may answer in the person's stead.
    pub fn answers(&self, name: &str) -> Result<AgentAnswers, AgentError> {
        Ok(self.configured(name)?.answers)
    }

    /// Changes what an agent may answer in the person's stead; kept in the file.
    pub async fn set_answers(&self, name: &str, answers: AgentAnswers) -> Result<(), AgentError> {
        let name = name.to_owned();
        self.host
            .edit(Box::new(move |config| {
                let agent = config
                    .agents
                    .get_mut(&name)
                    .ok_or(AgentError::NoAgent(name))?;
                agent.answers = answers;
                Ok(())
            }))
            .await
    }

    /// The agent that answers `asked` of `server` now, if one does.
    fn delegate(&self, server: &str, asked: Asked<'_>) -> Option<Delegate> {
        let tokens = self.host.calls_served_by(server);
        let (agent, connection) = {
            let lines = self.own.lines.by_call.lock();
            let mut of_calls = tokens.iter().map(|token| lines.get(token));
            let first = of_calls.next()??;
            // Each call under way must be that session's, or whose call it serves is unknown.
            let one_session =
                of_calls.all(|line| line.is_some_and(|line| line.session == first.session));
            if !one_session || !can_answer(&first.declared, asked) {
                return None;
            }
            (first.agent.clone(), first.connection.upgrade()?)
        };
        let answers = self.config(&agent)?.answers;
        let allowed = match asked {
            Asked::Sampling(_) => answers.sampling,
            Asked::Elicitation(_) => answers.elicitation,
            // Its folders are only offered to the person, who chooses what servers see.
            Asked::Roots => true,
        };
        allowed.then(|| Delegate {
            agent,
            connection,
            timeout: self.host.approval_timeout(),
        })
    }
}

/// The agents as the servers' handlers see them: they find their delegates. Holds the
/// service weakly: the servers' handlers live in the host the service's port reaches.
struct Delegating {
    own: Weak<Own>,
    host: Weak<dyn AgentsHost>,
}

impl Delegates for Delegating {
    fn delegate(&self, server: &str, asked: Asked<'_>) -> Option<Delegate> {
        let agents = Agents {
            own: self.own.upgrade()?,
            host: self.host.upgrade()?,
            _keeps: Default::default(),
        };
        agents.delegate(server, asked)
    }
}

impl Agents {
    /// Who answers the servers' requests in the person's stead, for the servers' handlers.
    pub fn delegates(&self) -> std::sync::Arc<dyn Delegates> {
        std::sync::Arc::new(Delegating {
            own: std::sync::Arc::downgrade(&self.own),
            host: std::sync::Arc::downgrade(&self.host),
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn declared(capabilities: serde_json::Value) -> ClientCapabilities {
        serde_json::from_value(capabilities).unwrap()
    }

    #[test]
    fn an_agent_answers_only_what_it_declared_and_never_a_link() {
        let sampling = serde_json::from_value(json!({"messages": [], "maxTokens": 5})).unwrap();
        let with_tools = serde_json::from_value(
            json!({"messages": [], "maxTokens": 5, "tools": [{"name": "clock", "inputSchema": {"type": "object"}}]}),
        )
        .unwrap();
        let form = serde_json::from_value(
            json!({"message": "Name?", "requestedSchema": {"type": "object", "properties": {}}}),
        )
        .unwrap();
        let link = serde_json::from_value(
            json!({"mode": "url", "message": "Open", "url": "https://example.com", "elicitationId": "1"}),
        )
        .unwrap();
        let everything = declared(json!({"sampling": {}, "elicitation": {"form": {}, "url": {}}}));
        assert!(can_answer(&everything, Asked::Sampling(&sampling)));
        assert!(
            !can_answer(&everything, Asked::Sampling(&with_tools)),
            "tools were not declared"
        );
        assert!(can_answer(&everything, Asked::Elicitation(&form)));
        assert!(!can_answer(&everything, Asked::Elicitation(&link)));
        let nothing = declared(json!({}));
        assert!(!can_answer(&nothing, Asked::Sampling(&sampling)));
        assert!(!can_answer(&nothing, Asked::Elicitation(&form)));
    }
}
