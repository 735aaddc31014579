//! How an agent and the gateway meet: `initialize` (a session's revision, what the agent
//! declares it can answer), `server/discover` (the stateless revision's), who answers and
//! what it offers in either era, and the agent's notifications: once it is ready, and
//! whenever its roots change, it is asked for its roots, which are offered to the person.

use serde_json::Map;
use switchboard_mcp::ProtocolVersion;
use switchboard_mcp::connection::RequestOptions;
use switchboard_mcp::server::handler::ClientNotification;
use switchboard_mcp::types::*;

use super::Session;

/// How long an agent may take to list its roots.
const ROOTS_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

const INSTRUCTIONS: &str = "Switchboard gives you the tools, resources and prompts of the person's MCP servers, \
named `server__name`. The person approves each tool call, so a call may wait for them, and may be denied.";

impl Session {
    /// Opens a session: over HTTP, the session attaches to the connection the transport
    /// started for it.
    pub(super) fn open(&self, params: InitializeRequestParams) -> InitializeResult {
        let peer = self.inner.peer.lock().take();
        if let Some(connection) = peer.and_then(|peer| peer.connection()) {
            self.attach(&connection);
        }
        self.state().declared = params.capabilities.clone();
        let version = match params.protocol_version.parse::<ProtocolVersion>() {
            Ok(version) if version.is_stateful() => version,
            _ => ProtocolVersion::LATEST_STATEFUL,
        };
        tracing::info!(
            "agent {} ({}) connected through the gateway ({:?}), revision {version}",
            self.agent(),
            params.client_info.display_name(),
            self.inner.caller.via,
        );
        InitializeResult {
            protocol_version: version.as_str().to_owned(),
            capabilities: ServerCapabilities {
                // Tool calls run as tasks when the agent asks (see `super::tasks`).
                tasks: serde_json::from_value(serde_json::json!({
                    "list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}
                }))
                .ok(),
                ..capabilities()
            },
            server_info: server_info(),
            instructions: Some(INSTRUCTIONS.to_owned()),
            meta: None,
            extra: Map::new(),
        }
    }

    /// `server/discover`: every revision the gateway speaks (it answers `initialize` too),
    /// what it offers in the stateless one, and how to use it.
    pub(super) fn discovery(&self) -> DiscoverResult {
        DiscoverResult {
            supported_versions: ProtocolVersion::NEWEST_FIRST
                .iter()
                .map(|v| v.as_str().to_owned())
                .collect(),
            capabilities: ServerCapabilities {
                // Tool calls run as tasks for an agent that declares the extension.
                extra: Map::from_iter([(
                    "extensions".to_owned(),
                    serde_json::json!({ TASKS_EXTENSION: {} }),
                )]),
                ..capabilities()
            },
            instructions: Some(INSTRUCTIONS.to_owned()),
            server_info: None,
            meta: None,
            extra: Map::new(),
        }
    }

    pub(super) fn notified(&self, notification: ClientNotification) {
        let offers_roots = match notification {
            ClientNotification::Initialized => {
                let mut state = self.state();
                state.ready = true;
                state.declared.supports_roots()
            }
            ClientNotification::RootsListChanged => true,
            ClientNotification::Other { .. } => false,
        };
        if offers_roots {
            tokio::spawn(self.clone().offer_roots());
        }
    }

    /// Asks the agent for its roots and offers them to the person (see
    /// [`switchboard_desk::Agents::offer_roots`]), unless they are those it offered last.
    async fn offer_roots(self) {
        let Some(connection) = self.connection() else {
            return;
        };
        let options = RequestOptions {
            timeout: ROOTS_WAIT,
            ..RequestOptions::default()
        };
        let listed = connection
            .request(method::ROOTS_LIST, None, options)
            .await
            .map_err(|e| e.to_string())
            .and_then(|listed| {
                serde_json::from_value::<ListRootsResult>(listed).map_err(|e| e.to_string())
            });
        let roots = match listed {
            Ok(listed) => listed.roots,
            Err(e) => {
                tracing::warn!("{} did not list its roots: {e}", self.agent());
                return;
            }
        };
        {
            let mut state = self.state();
            if state.offered.as_ref() == Some(&roots) {
                return;
            }
            state.offered = Some(roots.clone());
        }
        self.offer_listed_roots(roots).await;
    }

    /// Offers each list of roots the agent listed to the person, in the background.
    pub(super) fn offer_each(&self, offers: impl IntoIterator<Item = Vec<Root>>) {
        for roots in offers {
            tokio::spawn(self.clone().offer_listed_roots(roots));
        }
    }

    /// Offers the roots the agent listed to the person.
    async fn offer_listed_roots(self, roots: Vec<Root>) {
        if let Err(e) = self.inner.agents.offer_roots(self.agent(), &roots).await {
            tracing::warn!("the roots {} offered: {e}", self.agent());
        }
    }
}

/// What the gateway offers an agent, in either era. (A session's agent sets the level of the
/// servers' log messages it hears; a stateless agent's request, those it hears meanwhile.)
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        logging: Some(CapabilityObject::new()),
        completions: Some(CapabilityObject::new()),
        prompts: Some(PromptsCapability {
            list_changed: Some(true),
            extra: Map::new(),
        }),
        resources: Some(ResourcesCapability {
            subscribe: Some(true),
            list_changed: Some(true),
            extra: Map::new(),
        }),
        tools: Some(ToolsCapability {
            list_changed: Some(true),
            extra: Map::new(),
        }),
        experimental: None,
        tasks: None,
        extra: Map::new(),
    }
}

/// Who answers, in every era.
pub(super) fn server_info() -> Implementation {
    let mut info = Implementation::new("switchboard", env!("CARGO_PKG_VERSION"));
    info.title = Some("Switchboard".to_owned());
    info
}
