//! The desk's parts as the ports of its services: what each service needs of the rest of
//! the host, answered by the desk. A port reaches the desk weakly (the desk holds its
//! services); while it shuts down, a port answers as a host with nothing left would.

use std::collections::{BTreeMap, HashMap};

use std::path::PathBuf;
use std::sync::Weak;
use std::time::Duration;

use serde_json::Value;
use switchboard_mcp::client::Client;
use switchboard_mcp::transport::BoxFuture;
use switchboard_mcp::types::Tool;
use tokio::sync::broadcast;

use crate::agents::{AgentCall, AgentError, AgentsHost, ConfigChange, Reading};
use crate::chat::{ChatChange, ChatError, ChatHost};
use crate::explorer::{ExplorerHost, Follower};
use crate::models::{ModelsChange, ModelsError, ModelsHost};
use crate::servers::{ServersChange, ServersError, ServersHost};
use crate::switches::{ToolSwitch, TurnedOff};
use crate::trust::{FoldersChange, TrustHost};
use crate::{AuditEntry, Desk, Inner, Update};
use switchboard_core::approvals::{Answer, AnswerError, Question, Settled};
use switchboard_core::audit::Record;
use switchboard_core::catalog::Offer;
use switchboard_core::config::{
    self, AgentConfig, Config, ConfigError, ConfigProblem, HostSettings, ServerConfig,
};
use switchboard_core::decisions::Origin;
use switchboard_core::reads::Read;
use switchboard_core::sampling::{Chosen, Drafted, NotDrafted, SamplingModels, Unreviewed};
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::{ServerEvent, ServerState};
use switchboard_core::views::{self, ViewPin};
use switchboard_mcp::types::CreateMessageRequestParams;

/// The configuration as last read; a default one once the desk is gone.
fn config_of(desk: &Weak<Inner>) -> Config {
    desk.upgrade()
        .map(|inner| inner.loaded.lock().config.clone())
        .unwrap_or_default()
}

/// What is wrong with the configuration file, if it did not read.
fn problem_of(desk: &Weak<Inner>) -> Option<ConfigProblem> {
    desk.upgrade()?.loaded.lock().problem.clone()
}

/// The tools turned off for everyone now, by server.
fn tools_off_of(desk: &Weak<Inner>) -> TurnedOff {
    match desk.upgrade() {
        Some(inner) => TurnedOff::now(&inner),
        None => TurnedOff::of(&Config::default()),
    }
}

/// Tells the window, unless the desk is gone.
fn announce_to(desk: &Weak<Inner>, update: Update) {
    if let Some(inner) = desk.upgrade() {
        inner.updates.send(update);
    }
}

/// The live session with a running server.
fn client_of(desk: &Weak<Inner>, server: &str) -> Option<Client> {
    desk.upgrade()?.shared.client(server)
}

/// The agents' service's port.
pub(super) struct AgentPorts(pub(super) Weak<Inner>);

impl AgentPorts {
    fn desk(&self) -> Result<Desk, AgentError> {
        self.0
            .upgrade()
            .map(|inner| Desk { inner })
            .ok_or(AgentError::ShuttingDown)
    }
}

impl AgentsHost for AgentPorts {
    fn config(&self) -> Config {
        self.desk().map(|desk| desk.config()).unwrap_or_default()
    }

    fn agent(&self, name: &str) -> Option<AgentConfig> {
        let inner = self.0.upgrade()?;
        inner.loaded.lock().config.agents.get(name).cloned()
    }

    fn edit(&self, change: ConfigChange) -> BoxFuture<'_, Result<(), AgentError>> {
        Box::pin(async move {
            self.desk()?
                .edit_config_announcing(change, Update::AgentsChanged)
                .await
        })
    }

    fn agents_changed(&self) {
        if let Ok(desk) = self.desk() {
            desk.announce(Update::AgentsChanged);
        }
    }

    fn updates(&self) -> broadcast::Receiver<Update> {
        match self.0.upgrade() {
            Some(inner) => inner.updates.for_agents.subscribe(),
            // A receiver whose sender is gone: it says at once that nothing more comes.
            None => broadcast::channel(1).1,
        }
    }

    fn server_events(&self) -> broadcast::Receiver<ServerEvent> {
        match self.0.upgrade() {
            Some(inner) => inner.shared.events(),
            None => broadcast::channel(1).1,
        }
    }

    fn states(&self) -> BTreeMap<String, ServerState> {
        self.0
            .upgrade()
            .map(|inner| inner.shared.states())
            .unwrap_or_default()
    }

    fn offers(&self) -> Vec<(String, Offer)> {
        self.desk()
            .map(|desk| desk.explorer().catalog().0)
            .unwrap_or_default()
    }

    fn tool_named(&self, id: &str, may: &dyn Fn(&str, &str) -> bool) -> Option<(String, String)> {
        let inner = self.0.upgrade()?;
        let off = TurnedOff::now(&inner);
        let states = inner.shared.states();
        inner.shared.catalog().tool_named(id, |server, tool| {
            states.contains_key(server) && may(server, tool) && !off.holds(server, tool)
        })
    }

    fn tool(&self, server: &str, name: &str) -> Option<Tool> {
        self.0.upgrade()?.shared.catalog().find_tool(server, name)
    }

    fn server_tools(&self, server: &str) -> Vec<ToolSwitch> {
        self.0
            .upgrade()
            .and_then(|inner| inner.servers.server_tools(server).ok())
            .unwrap_or_default()
    }

    fn client(&self, server: &str) -> Option<Client> {
        client_of(&self.0, server)
    }

    fn call(&self, origin: Origin, call: AgentCall) -> BoxFuture<'_, Result<Value, AgentError>> {
        Box::pin(async move {
            let AgentCall {
                server,
                tool,
                arguments,
                token,
                report,
            } = call;
            Ok(self
                .desk()?
                .explorer()
                .call_tool_reporting(&origin, &server, &tool, arguments, token, report)
                .await?)
        })
    }

    fn read(
        &self,
        origin: Origin,
        server: &str,
        read: Read,
        token: String,
        reading: Reading,
    ) -> BoxFuture<'_, Result<Value, AgentError>> {
        let server = server.to_owned();
        Box::pin(async move {
            Ok(self
                .desk()?
                .explorer()
                .read_as(&origin, &server, read, token, reading)
                .await?)
        })
    }

    fn cancel(&self, token: &str) -> bool {
        self.desk().is_ok_and(|desk| desk.explorer().cancel(token))
    }

    fn calls_served_by(&self, server: &str) -> Vec<String> {
        self.0
            .upgrade()
            .map(|inner| inner.explorer.calls_served_by(server))
            .unwrap_or_default()
    }

    fn ask(&self, asker: &str, question: Question) -> BoxFuture<'_, Result<Settled, AgentError>> {
        let asker = asker.to_owned();
        Box::pin(async move {
            let desk = self.desk()?;
            Ok(desk.inner.gate.broker().ask(&asker, question).await?)
        })
    }

    fn share_offered(
        &self,
        agent: &str,
        server: &str,
        accepted: Vec<PathBuf>,
    ) -> BoxFuture<'_, Result<(), AgentError>> {
        let (agent, server) = (agent.to_owned(), server.to_owned());
        Box::pin(async move {
            let desk = self.desk()?;
            let trust = &desk.inner.trust;
            let mut folders = desk.inner.roots.folders(&server);
            // What the person shared with the server themselves stays theirs.
            let own = trust.own_folders(&server);
            folders.extend(accepted.iter().cloned());
            trust.set_roots(&server, &folders).await?;
            let offered: Vec<PathBuf> = accepted
                .into_iter()
                .filter(|folder| !own.contains(folder))
                .collect();
            trust.mark_offered(&server, &agent, &offered).await;
            Ok(())
        })
    }

    fn forget(&self, agent: &str) -> BoxFuture<'_, ()> {
        let agent = agent.to_owned();
        Box::pin(async move {
            if let Ok(desk) = self.desk() {
                desk.inner.gate.forget_agent(&agent).await;
                desk.inner.trust.withdraw_offered_folders(&agent).await;
            }
        })
    }

    fn record(&self, record: Record) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            if let Ok(desk) = self.desk()
                && let Err(e) = desk.inner.gate.audit().record(record).await
            {
                tracing::error!("{e}");
            }
        })
    }

    fn asked_by(
        &self,
        asked_by: String,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<AuditEntry>, AgentError>> {
        Box::pin(async move {
            let desk = self.desk()?;
            Ok(desk.activity().search(&asked_by, None, limit).await?)
        })
    }

    fn approval_timeout(&self) -> Duration {
        Duration::from_secs(self.config().settings.approval_timeout_secs)
    }

    fn follow(
        &self,
        who: Follower,
        server: &str,
        uri: &str,
    ) -> BoxFuture<'_, Result<(), AgentError>> {
        let (server, uri) = (server.to_owned(), uri.to_owned());
        Box::pin(async move {
            Ok(self
                .desk()?
                .explorer()
                .follow_resource(who, &server, &uri)
                .await?)
        })
    }

    fn unfollow(
        &self,
        who: Follower,
        server: &str,
        uri: &str,
    ) -> BoxFuture<'_, Result<(), AgentError>> {
        let (server, uri) = (server.to_owned(), uri.to_owned());
        Box::pin(async move {
            Ok(self
                .desk()?
                .explorer()
                .unfollow_resource(who, &server, &uri)
                .await?)
        })
    }

    fn follows(&self, who: Follower, server: &str, uri: &str) -> bool {
        self.desk()
            .is_ok_and(|desk| desk.explorer().follows_resource(who, server, uri))
    }

    fn followed_by(&self, who: Follower) -> Vec<(String, String)> {
        self.desk()
            .map(|desk| desk.explorer().followed_by(who))
            .unwrap_or_default()
    }

    fn secrets(&self) -> Result<Secrets, AgentError> {
        Ok(self.desk()?.inner.secrets.clone())
    }
}

/// The explorer's service's port.
pub(super) struct ExplorerPorts(pub(super) Weak<Inner>);

impl ExplorerHost for ExplorerPorts {
    fn server(&self, name: &str) -> Option<ServerConfig> {
        let inner = self.0.upgrade()?;
        inner.loaded.lock().config.servers.get(name).cloned()
    }

    fn tools_off(&self) -> TurnedOff {
        tools_off_of(&self.0)
    }

    fn running(&self) -> BTreeMap<String, ServerState> {
        self.0
            .upgrade()
            .map(|inner| inner.shared.states())
            .unwrap_or_default()
    }

    fn client(&self, server: &str) -> Option<Client> {
        client_of(&self.0, server)
    }

    fn announce(&self, update: Update) {
        announce_to(&self.0, update);
    }

    fn task_book(&self) -> Option<crate::tasks::TaskBook> {
        self.0.upgrade()?.task_book.clone()
    }

    fn trusted_views(&self) -> Vec<ViewPin> {
        self.0
            .upgrade()
            .map(|inner| inner.loaded.lock().config.settings.trusted_views.clone())
            .unwrap_or_default()
    }

    fn trusted_skills(&self) -> Vec<switchboard_core::skills::SkillPin> {
        self.0
            .upgrade()
            .map(|inner| inner.loaded.lock().config.settings.trusted_skills.clone())
            .unwrap_or_default()
    }

    fn pin_view(&self, pin: ViewPin) -> BoxFuture<'_, bool> {
        Box::pin(edit_settings(
            &self.0,
            move |settings| views::pinned(&mut settings.trusted_views, pin),
            "the view shown is not pinned",
        ))
    }
}

/// Makes `change` to the settings in the configuration file (unless the file is broken)
/// and holds what it then says; whether it was written, `failed` said in the log if not.
async fn edit_settings(
    inner: &Weak<Inner>,
    change: impl FnOnce(&mut HostSettings) + Send + 'static,
    failed: &str,
) -> bool {
    let Some(inner) = inner.upgrade() else {
        return false;
    };
    if inner.loaded.lock().problem.is_some() {
        return false;
    }
    let _editing = inner.edits.lock().await;
    let path = inner.config_path.clone();
    let written = config::update_off_thread(path, move |config| {
        change(&mut config.settings);
        Ok::<_, ConfigError>(())
    })
    .await;
    match written {
        Ok((config, ())) => {
            inner.loaded.lock().config = config;
            true
        }
        Err(e) => {
            tracing::error!("{failed}: {e}");
            false
        }
    }
}

/// The models' service's port.
pub(super) struct ModelsPorts(pub(super) Weak<Inner>);

impl ModelsHost for ModelsPorts {
    fn config(&self) -> Config {
        config_of(&self.0)
    }

    fn config_problem(&self) -> Option<ConfigProblem> {
        problem_of(&self.0)
    }

    fn edit(&self, change: ModelsChange) -> BoxFuture<'_, Result<(), ModelsError>> {
        Box::pin(async move {
            let desk = self.0.upgrade().map(|inner| Desk { inner });
            let desk = desk.ok_or(ModelsError::ShuttingDown)?;
            desk.edit_config_announcing(change, Update::ProvidersChanged)
                .await
        })
    }
}

/// The trust service's port.
pub(super) struct TrustPorts(pub(super) Weak<Inner>);

impl TrustHost for TrustPorts {
    fn config(&self) -> Config {
        config_of(&self.0)
    }

    fn edit_folders(&self, change: FoldersChange) -> BoxFuture<'_, bool> {
        Box::pin(edit_settings(
            &self.0,
            move |settings| change(&mut settings.shared_folders),
            "the folders chosen hold until quit",
        ))
    }

    fn client(&self, server: &str) -> Option<Client> {
        client_of(&self.0, server)
    }
}

/// The servers' service's port.
pub(super) struct ServersPorts(pub(super) Weak<Inner>);

impl ServersHost for ServersPorts {
    fn config(&self) -> Config {
        config_of(&self.0)
    }

    fn config_problem(&self) -> Option<ConfigProblem> {
        problem_of(&self.0)
    }

    fn config_path(&self) -> PathBuf {
        self.0
            .upgrade()
            .map(|inner| inner.config_path.clone())
            .unwrap_or_default()
    }

    fn edit(&self, change: ServersChange, what: Update) -> BoxFuture<'_, Result<(), ServersError>> {
        Box::pin(async move {
            let desk = self.0.upgrade().map(|inner| Desk { inner });
            let desk = desk.ok_or(ServersError::ShuttingDown)?;
            desk.edit_config_announcing(change, what).await
        })
    }

    fn restart(&self, server: &str) -> BoxFuture<'_, bool> {
        let server = server.to_owned();
        Box::pin(async move {
            match self.0.upgrade() {
                Some(inner) => inner.host.lock().await.restart(&server),
                None => false,
            }
        })
    }

    fn forget(&self, server: &str) -> BoxFuture<'_, ()> {
        let server = server.to_owned();
        Box::pin(async move {
            if let Some(inner) = self.0.upgrade() {
                inner.gate.forget_server(&server).await;
                inner.trust.forget_folders(&server).await;
            }
        })
    }

    fn since(&self) -> HashMap<String, i64> {
        self.0
            .upgrade()
            .map(|inner| inner.since.lock().clone())
            .unwrap_or_default()
    }

    fn agrees(&self, server: &str, question: Question) -> BoxFuture<'_, bool> {
        let server = server.to_owned();
        Box::pin(async move {
            let Some(broker) = self.0.upgrade().map(|inner| inner.gate.broker().clone()) else {
                return false;
            };
            matches!(
                broker.ask(&server, question).await,
                Ok(settled) if settled.answer == Answer::SignIn(true)
            )
        })
    }

    fn question(&self, id: u64) -> Result<Question, AnswerError> {
        match self.0.upgrade() {
            Some(inner) => inner.trust.question(id),
            None => Err(AnswerError::NotPending(id)),
        }
    }

    fn answer(&self, id: u64, server: &str, answer: Answer) -> Result<(), AnswerError> {
        match self.0.upgrade() {
            Some(inner) => inner.gate.broker().answer(id, server, answer),
            None => Err(AnswerError::NotPending(id)),
        }
    }

    fn record(&self, record: Record) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let audit = self.0.upgrade().map(|inner| inner.gate.audit().clone());
            if let Some(audit) = audit
                && let Err(e) = audit.record(record).await
            {
                tracing::error!("{e}");
            }
        })
    }
}

/// The chat service's port.
pub(super) struct ChatPorts(pub(super) Weak<Inner>);

impl ChatHost for ChatPorts {
    fn config(&self) -> Config {
        config_of(&self.0)
    }

    fn server(&self, name: &str) -> Option<ServerConfig> {
        let inner = self.0.upgrade()?;
        inner.loaded.lock().config.servers.get(name).cloned()
    }

    fn edit(&self, change: ChatChange) -> BoxFuture<'_, Result<(), ChatError>> {
        Box::pin(async move {
            let desk = self.0.upgrade().map(|inner| Desk { inner });
            let desk = desk.ok_or(ChatError::ShuttingDown)?;
            desk.edit_config(change).await
        })
    }

    fn tools_off(&self) -> TurnedOff {
        tools_off_of(&self.0)
    }

    fn client(&self, server: &str) -> Option<Client> {
        client_of(&self.0, server)
    }

    fn announce(&self, update: Update) {
        announce_to(&self.0, update);
    }
}

/// The core's models, answering a server's sampling request without review: the chat
/// service's, reached through the desk (each server's request handler is made before it).
pub(super) struct SamplingPorts(pub(super) Weak<Inner>);

impl SamplingModels for SamplingPorts {
    fn without_review(&self, server: &str, params: &CreateMessageRequestParams) -> Unreviewed {
        match self.0.upgrade() {
            Some(inner) => inner.chats.without_review(server, params),
            None => Unreviewed::NoRule,
        }
    }

    fn draft<'a>(
        &'a self,
        params: &'a CreateMessageRequestParams,
        chosen: &'a Chosen,
        max_tokens: u32,
    ) -> std::pin::Pin<Box<dyn Future<Output = Result<Drafted, NotDrafted>> + Send + 'a>> {
        Box::pin(async move {
            let Some(inner) = self.0.upgrade() else {
                return Err(NotDrafted("the app is closing".to_owned()));
            };
            let chats = inner.chats.clone();
            drop(inner);
            chats.draft(params, chosen, max_tokens).await
        })
    }
}
