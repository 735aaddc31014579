//! Each agent's bearer token for the gateway over Streamable HTTP: issued on first ask,
//! 256 random bits from the OS (`getrandom`, which the engine's session ids use too), kept
//! in the OS keyring among the agents' tokens (a service of their own, apart from every
//! server's and provider's secrets: [`Secrets::agent_tokens`]) so that the agent's
//! configuration can be shown again, and held in memory for the token check of every
//! request. Renewing one revokes the old at once; removing the agent deletes it.
//!
//! Tokens kept by earlier versions among the other secrets, as `agents/<name>/token`, are
//! moved on first use, unless a server's own secret bears that name: then the entry is
//! the server's, and stays.

use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::Arc;

use switchboard_mcp::server::http::guard::same_token;
use switchboard_mcp::server::http::{Identity, TokenCheck};

use super::{AgentError, Agents, Own};
use switchboard_core::secrets::Secrets;

/// The keyring entry of an agent's token, among the agents' tokens.
pub fn token_secret_name(agent: &str) -> String {
    agent.to_owned()
}

/// Where earlier versions kept an agent's token, among the servers' secrets.
pub fn earlier_token_name(agent: &str) -> String {
    format!("agents/{agent}/token")
}

const TOKEN_PREFIX: &str = "sbg_";

/// The tokens in use, by token; and where the gateway listens over HTTP, once it does, or
/// why it does not.
#[derive(Default)]
pub(super) struct Tokens {
    by_token: Mutex<HashMap<String, String>>,
    status: Mutex<GatewayStatus>,
}

/// Where agents reach the gateway over HTTP, as the window shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct GatewayStatus {
    /// Where it listens; none while it does not.
    pub url: Option<String>,
    /// Why it could not listen, for the person to act on; none when it listens or is off.
    pub problem: Option<GatewayProblem>,
}

/// Why the gateway does not listen over HTTP: the system's words, and, when another
/// program holds its port, what became of the agents' tokens. `Display` is the host's
/// English.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum GatewayProblem {
    CannotListen {
        error: String,
    },
    /// Every token issued was renewed (`renewed` of them), but for those `not_renewed`
    /// ("agent: why").
    PortTaken {
        error: String,
        port: u16,
        renewed: u32,
        not_renewed: Vec<String>,
    },
}

impl std::fmt::Display for GatewayProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::CannotListen { error } => {
                write!(f, "agents cannot reach Switchboard over HTTP: {error}.")
            }
            Self::PortTaken {
                error,
                port,
                renewed,
                not_renewed,
            } => {
                let said = match renewed {
                    0 => "no agent had a token to renew".to_owned(),
                    1 => "the one agent token issued was renewed".to_owned(),
                    n => format!("all {n} agent tokens issued were renewed"),
                };
                write!(
                    f,
                    "agents cannot reach Switchboard over HTTP: {error}. Agents set up for port \
                     {port} may have given that program their tokens: {said}"
                )?;
                if !not_renewed.is_empty() {
                    write!(f, " (not renewed: {})", not_renewed.join("; "))?;
                }
                f.write_str(
                    ". Choose another port (gatewayPort in the settings), then give each agent \
                     its new configuration. The bridge is not affected.",
                )
            }
        }
    }
}

impl Tokens {
    fn admit(&self, agent: &str, token: &str) {
        let mut tokens = self.by_token.lock();
        tokens.retain(|_, holder| holder != agent);
        tokens.insert(token.to_owned(), agent.to_owned());
    }

    /// Admits a token read from the keyring at start, unless the agent was given one since:
    /// a renewal made while the keyring was being read (the gateway's port found taken,
    /// the person's Renew) is newer than what the read found.
    fn admit_kept(&self, agent: &str, token: &str) {
        let mut tokens = self.by_token.lock();
        if !tokens.values().any(|holder| holder == agent) {
            tokens.insert(token.to_owned(), agent.to_owned());
        }
    }

    fn revoke(&self, agent: &str) {
        self.by_token.lock().retain(|_, holder| holder != agent);
    }
}

/// The check the gateway's HTTP server asks of each request: the agent a token belongs
/// to. The session then checks that the agent is still configured. Every token in use is
/// compared, each in constant time ([`same_token`]): a lookup by the token itself would
/// take a time that depends on how much of it is right.
struct Check(Arc<Own>);

impl TokenCheck for Check {
    fn identify(&self, token: &str) -> Option<Identity> {
        let tokens = self.0.tokens.by_token.lock();
        let mut holder = None;
        for (issued, agent) in tokens.iter() {
            if same_token(token, issued) {
                holder = Some(agent);
            }
        }
        holder.map(|agent| Identity::new(agent.as_str()))
    }
}

fn new_token() -> Result<String, AgentError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| AgentError::NoRandomness(e.to_string()))?;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("{TOKEN_PREFIX}{hex}"))
}

/// Whether `value` is a token as [`new_token`] makes them.
fn issued(value: &str) -> bool {
    value
        .strip_prefix(TOKEN_PREFIX)
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

impl Agents {
    fn tokens(&self) -> Result<Secrets, AgentError> {
        Ok(self.host.secrets()?.agent_tokens())
    }

    /// The agent's token kept in the keyring, if it has one; one kept by an earlier
    /// version is moved among the agents' tokens first.
    async fn kept_token(&self, agent: &str) -> Result<Option<String>, AgentError> {
        let name = token_secret_name(agent);
        if let Some(token) = self.tokens()?.get(&name).await? {
            return Ok(Some(token));
        }
        let earlier = earlier_token_name(agent);
        if self.a_server_owns(&earlier) {
            return Ok(None);
        }
        match self.host.secrets()?.get(&earlier).await? {
            Some(token) if issued(&token) => {
                self.tokens()?.set(&name, &token).await?;
                self.host.secrets()?.delete(&earlier).await?;
                Ok(Some(token))
            }
            _ => Ok(None),
        }
    }

    /// Whether a configured server's own secret (see `ServerConfig::own_secrets`) bears
    /// this keyring name.
    fn a_server_owns(&self, secret: &str) -> bool {
        self.host
            .config()
            .servers
            .iter()
            .any(|(name, server)| server.own_secrets(name).any(|own| own == secret))
    }

    /// The agent's token, issued (and kept in the keyring) if it has none yet.
    pub async fn token(&self, agent: &str) -> Result<String, AgentError> {
        self.configured(agent)?;
        let token = match self.kept_token(agent).await? {
            Some(kept) => kept,
            None => {
                let token = new_token()?;
                self.tokens()?
                    .set(&token_secret_name(agent), &token)
                    .await?;
                token
            }
        };
        self.own.tokens.admit(agent, &token);
        Ok(token)
    }

    /// A new token for the agent; the old one is refused from now on, and the sessions
    /// opened with it (and their event streams) end at once.
    pub async fn renew_token(&self, agent: &str) -> Result<String, AgentError> {
        self.configured(agent)?;
        let token = new_token()?;
        self.tokens()?
            .set(&token_secret_name(agent), &token)
            .await?;
        self.own.tokens.admit(agent, &token);
        self.end_sessions(agent, true).await;
        Ok(token)
    }

    /// Takes the agent's token out of use and out of the keyring (where an earlier
    /// version kept it too, unless that entry is a server's).
    pub(super) async fn forget_token(&self, agent: &str) -> Result<(), AgentError> {
        self.own.tokens.revoke(agent);
        self.tokens()?.delete(&token_secret_name(agent)).await?;
        let earlier = earlier_token_name(agent);
        if !self.a_server_owns(&earlier)
            && let Some(kept) = self.host.secrets()?.get(&earlier).await?
            && issued(&kept)
        {
            self.host.secrets()?.delete(&earlier).await?;
        }
        Ok(())
    }

    /// Admits the tokens the configured agents were given before (kept in the keyring);
    /// an agent with none gets one when it is first asked for.
    pub async fn load_tokens(&self) -> Result<(), AgentError> {
        let agents: Vec<String> = self.list().into_iter().map(|a| a.name).collect();
        for agent in agents {
            if let Some(token) = self.kept_token(&agent).await? {
                self.own.tokens.admit_kept(&agent, &token);
            }
        }
        Ok(())
    }

    /// The token check of the gateway's HTTP server.
    pub fn token_check(&self) -> Arc<dyn TokenCheck> {
        Arc::new(Check(self.own.clone()))
    }

    /// The port the settings give the gateway over HTTP; `None` when they turn it off (0).
    pub fn gateway_port(&self) -> Option<u16> {
        let port = self.host.config().settings.gateway_port;
        match port.unwrap_or(switchboard_core::endpoint::DEFAULT_PORT) {
            0 => None,
            port => Some(port),
        }
    }

    /// Where the gateway listens over HTTP, for the agents' configuration.
    pub fn set_gateway_url(&self, url: Option<String>) {
        *self.own.tokens.status.lock() = GatewayStatus { url, problem: None };
        self.host.agents_changed();
    }

    /// Where agents reach the gateway over HTTP, or why they cannot.
    pub fn gateway_status(&self) -> GatewayStatus {
        self.own.tokens.status.lock().clone()
    }

    /// The gateway could not listen on `port`: the window says so. When another program
    /// holds the port, agents set up for it may have sent that program their tokens: every
    /// token issued is renewed, so that none it took works here.
    pub async fn gateway_refused(&self, port: u16, error: &std::io::Error) {
        let error_said = error.to_string();
        let problem = if error.kind() == std::io::ErrorKind::AddrInUse {
            let (renewed, not_renewed) = self.renew_issued_tokens().await;
            GatewayProblem::PortTaken {
                error: error_said,
                port,
                renewed,
                not_renewed,
            }
        } else {
            GatewayProblem::CannotListen { error: error_said }
        };
        tracing::error!("{problem}");
        *self.own.tokens.status.lock() = GatewayStatus {
            url: None,
            problem: Some(problem),
        };
        self.host.agents_changed();
    }

    /// Renews the token of every agent that was given one: how many were, and those that
    /// could not be ("agent: why").
    async fn renew_issued_tokens(&self) -> (u32, Vec<String>) {
        let mut renewed = 0;
        let mut failed = Vec::new();
        for agent in self.list() {
            let issued = match self.kept_token(&agent.name).await {
                Ok(issued) => issued.is_some(),
                Err(e) => {
                    failed.push(format!("{}: {e}", agent.name));
                    continue;
                }
            };
            if !issued {
                continue;
            }
            match self.renew_token(&agent.name).await {
                Ok(_) => renewed += 1,
                Err(e) => failed.push(format!("{}: {e}", agent.name)),
            }
        }
        (renewed, failed)
    }

    /// What an agent's MCP configuration needs to reach Switchboard over Streamable HTTP:
    /// the URL and its token (issued now if it has none); none while the gateway does not
    /// listen over HTTP.
    pub async fn http_snippet(&self, agent: &str) -> Result<Option<String>, AgentError> {
        let Some(url) = self.own.tokens.status.lock().url.clone() else {
            return Ok(None);
        };
        let token = self.token(agent).await?;
        Ok(Some(switchboard_core::agent_setup::http_snippet(
            &url, &token,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The agent a token in use names.
    fn holder(tokens: &Tokens, token: &str) -> Option<String> {
        tokens.by_token.lock().get(token).cloned()
    }

    #[test]
    fn a_token_read_at_start_never_replaces_one_renewed_meanwhile() {
        let tokens = Tokens::default();
        tokens.admit("cursor", "renewed");
        tokens.admit_kept("cursor", "read before the renewal");
        assert_eq!(holder(&tokens, "renewed").as_deref(), Some("cursor"));
        assert_eq!(holder(&tokens, "read before the renewal"), None);
        tokens.admit_kept("claude", "kept");
        assert_eq!(holder(&tokens, "kept").as_deref(), Some("claude"));
    }

    #[test]
    fn only_a_token_as_issued_is_taken_for_one() {
        assert!(issued(&new_token().unwrap()));
        for other in ["sbg_", "sbg_abc", "a server's secret", &"sbg_zz".repeat(16)] {
            assert!(!issued(other), "{other}");
        }
    }
}
