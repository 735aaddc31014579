//! The agents' service on its own, in process: its port played by a host held in memory
//! (a configuration, what the servers offer, the calls they serve), with no server process
//! and no window. What it decides alone is checked here: what an agent reaches, its name,
//! its sessions and token, and whether it answers a server in the person's stead.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use serde_json::{Value, json};
use switchboard_core::approvals::{Question, Settled};
use switchboard_core::audit::Record;
use switchboard_core::catalog::Offer;
use switchboard_core::config::{AgentAnswers, AgentConfig, Config, ServerConfig};
use switchboard_core::decisions::Origin;
use switchboard_core::delegated::Asked;
use switchboard_core::reads::Read;
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::{ServerEvent, ServerState};
use switchboard_desk::agents::{AgentCall, AgentsHost, ConfigChange, Reading};
use switchboard_desk::{AgentError, AgentLine, Agents, AuditEntry, Follower, ToolSwitch, Update};
use switchboard_mcp::client::Client;
use switchboard_mcp::connection::Connection;
use switchboard_mcp::server::handler::{Dispatch, ServerHandler};
use switchboard_mcp::transport::memory::{MemoryPeer, pair};
use switchboard_mcp::transport::{BoxFuture, discard_log};
use switchboard_mcp::types::Tool;
use tokio::sync::broadcast;

/// A host in memory: its configuration, what its servers offer, the calls they serve.
struct Memory {
    config: Mutex<Config>,
    offers: Vec<(String, Offer)>,
    /// The tokens of the calls each server is serving.
    serving: Mutex<BTreeMap<String, Vec<String>>>,
    /// Agents whose rules and folders the host was told to forget.
    forgotten: Mutex<Vec<String>>,
    /// How many times the agents were said to have changed.
    changes: AtomicUsize,
    secrets: Secrets,
}

fn tool(name: &str) -> Tool {
    serde_json::from_value(json!({"name": name, "inputSchema": {"type": "object"}}))
        .expect("a tool")
}

fn offer(tools: &[&str], resources: &[&str], prompts: &[&str]) -> Offer {
    Offer {
        tools: tools.iter().map(|name| tool(name)).collect(),
        resources: resources
            .iter()
            .map(|uri| {
                serde_json::from_value(json!({"uri": uri, "name": uri})).expect("a resource")
            })
            .collect(),
        templates: Vec::new(),
        prompts: prompts
            .iter()
            .map(|name| serde_json::from_value(json!({"name": name})).expect("a prompt"))
            .collect(),
        skills: Vec::new(),
    }
}

impl Memory {
    /// Three servers: `notes` (add, delete; a resource), `files` (read; a resource, a
    /// prompt), `mail` (send); no agent yet.
    fn new() -> Arc<Self> {
        let mut config = Config::default();
        for server in ["notes", "files", "mail"] {
            let entry: ServerConfig =
                serde_json::from_value(json!({"command": "true"})).expect("a server");
            config.servers.insert(server.to_owned(), entry);
        }
        let unique = format!("switchboard-agents-service-{}", std::process::id());
        Arc::new(Self {
            config: Mutex::new(config),
            offers: vec![
                (
                    "notes".into(),
                    offer(&["add", "delete"], &["note://1"], &[]),
                ),
                (
                    "files".into(),
                    offer(&["read"], &["file:///a"], &["review"]),
                ),
                ("mail".into(), offer(&["send"], &[], &[])),
            ],
            serving: Mutex::default(),
            forgotten: Mutex::default(),
            changes: AtomicUsize::new(0),
            secrets: Secrets::new(&unique),
        })
    }
}

/// What the host in memory cannot do: run a server.
fn no_server<T>(server: &str) -> BoxFuture<'static, Result<T, AgentError>> {
    let server = server.to_owned();
    Box::pin(async move { Err(AgentError::NotRunning(server)) })
}

impl AgentsHost for Memory {
    fn config(&self) -> Config {
        self.config.lock().clone()
    }
    fn agent(&self, name: &str) -> Option<AgentConfig> {
        self.config.lock().agents.get(name).cloned()
    }
    fn edit(&self, change: ConfigChange) -> BoxFuture<'_, Result<(), AgentError>> {
        // Changed on a copy, kept only when the change is accepted: as the file is.
        let mut config = self.config();
        let result = change(&mut config).map(|()| {
            *self.config.lock() = config;
            self.agents_changed();
        });
        Box::pin(async move { result })
    }
    fn agents_changed(&self) {
        self.changes.fetch_add(1, Ordering::SeqCst);
    }
    fn updates(&self) -> broadcast::Receiver<Update> {
        broadcast::channel(1).1
    }
    fn server_events(&self) -> broadcast::Receiver<ServerEvent> {
        broadcast::channel(1).1
    }
    fn states(&self) -> BTreeMap<String, ServerState> {
        BTreeMap::new()
    }
    fn offers(&self) -> Vec<(String, Offer)> {
        self.offers.clone()
    }
    fn tool_named(&self, id: &str, may: &dyn Fn(&str, &str) -> bool) -> Option<(String, String)> {
        let (server, name) = id.split_once("__")?;
        let (_, offer) = self.offers.iter().find(|(s, _)| s == server)?;
        (offer.tools.iter().any(|t| t.name == name) && may(server, name))
            .then(|| (server.to_owned(), name.to_owned()))
    }
    fn tool(&self, server: &str, name: &str) -> Option<Tool> {
        let (_, offer) = self.offers.iter().find(|(s, _)| s == server)?;
        offer.tools.iter().find(|t| t.name == name).cloned()
    }
    fn server_tools(&self, _server: &str) -> Vec<ToolSwitch> {
        Vec::new()
    }
    fn client(&self, _server: &str) -> Option<Client> {
        None
    }
    fn call(&self, _origin: Origin, call: AgentCall) -> BoxFuture<'_, Result<Value, AgentError>> {
        no_server(&call.server)
    }
    fn read(
        &self,
        _origin: Origin,
        server: &str,
        _read: Read,
        _token: String,
        _reading: Reading,
    ) -> BoxFuture<'_, Result<Value, AgentError>> {
        no_server(server)
    }
    fn cancel(&self, _token: &str) -> bool {
        false
    }
    fn calls_served_by(&self, server: &str) -> Vec<String> {
        self.serving.lock().get(server).cloned().unwrap_or_default()
    }
    fn ask(&self, asker: &str, _question: Question) -> BoxFuture<'_, Result<Settled, AgentError>> {
        no_server(asker)
    }
    fn share_offered(
        &self,
        _agent: &str,
        server: &str,
        _folders: Vec<PathBuf>,
    ) -> BoxFuture<'_, Result<(), AgentError>> {
        no_server(server)
    }
    fn forget(&self, agent: &str) -> BoxFuture<'_, ()> {
        self.forgotten.lock().push(agent.to_owned());
        Box::pin(async {})
    }
    fn record(&self, _record: Record) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }
    fn asked_by(
        &self,
        _asked_by: String,
        _limit: u32,
    ) -> BoxFuture<'_, Result<Vec<AuditEntry>, AgentError>> {
        Box::pin(async { Ok(Vec::new()) })
    }
    fn approval_timeout(&self) -> Duration {
        Duration::from_secs(120)
    }
    fn follow(
        &self,
        _who: Follower,
        server: &str,
        _uri: &str,
    ) -> BoxFuture<'_, Result<(), AgentError>> {
        no_server(server)
    }
    fn unfollow(
        &self,
        _who: Follower,
        server: &str,
        _uri: &str,
    ) -> BoxFuture<'_, Result<(), AgentError>> {
        no_server(server)
    }
    fn follows(&self, _who: Follower, _server: &str, _uri: &str) -> bool {
        false
    }
    fn followed_by(&self, _who: Follower) -> Vec<(String, String)> {
        Vec::new()
    }
    fn secrets(&self) -> Result<Secrets, AgentError> {
        Ok(self.secrets.clone())
    }
}

/// An agent's session's connection, its other end kept for as long as the test runs.
fn session() -> (Connection, MemoryPeer) {
    struct Silent;
    impl ServerHandler for Silent {}
    let (parts, peer) = pair(discard_log());
    (
        Connection::start(parts, Arc::new(Dispatch::new(Silent))),
        peer,
    )
}

fn names<T>(listed: &[(String, T)]) -> Vec<&str> {
    listed.iter().map(|(name, _)| name.as_str()).collect()
}

#[tokio::test]
async fn an_agent_sees_only_the_servers_and_offers_the_person_lets_it_reach() {
    let memory = Memory::new();
    let agents = Agents::new(memory.clone());
    agents
        .save("Cursor", Some(vec!["notes".into(), "files".into()]))
        .await
        .unwrap();
    agents
        .set_tool("Cursor", "notes", "delete", false)
        .await
        .unwrap();
    agents
        .set_offered(
            "Cursor",
            "files",
            switchboard_core::config::Offered::Resources,
            false,
        )
        .await
        .unwrap();

    let offers = agents.offers_for("Cursor").unwrap();
    assert_eq!(
        names(&offers),
        ["notes", "files"],
        "mail is not its to reach"
    );
    let (_, notes) = &offers[0];
    let tools: Vec<&str> = notes.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(tools, ["add"], "delete is turned off for it");
    assert_eq!(notes.resources.len(), 1);
    let (_, files) = &offers[1];
    assert!(files.resources.is_empty(), "its resources are off for it");
    assert_eq!(files.prompts.len(), 1, "its prompts are still on");

    assert_eq!(
        agents.tool("Cursor", "notes__add"),
        Some(("notes".into(), "add".into()))
    );
    assert_eq!(agents.tool("Cursor", "notes__delete"), None);
    assert_eq!(agents.tool("Cursor", "mail__send"), None);
    assert!(agents.tool_schema("Cursor", "notes__add").is_some());
    assert!(agents.offers_for("Nobody").is_none());
    assert_eq!(agents.tool("Nobody", "notes__add"), None);
}

#[tokio::test]
async fn an_agent_is_saved_only_with_a_name_and_servers_that_hold() {
    let memory = Memory::new();
    let agents = Agents::new(memory.clone());
    for bad in ["", "   ", &"x".repeat(65), "two\nlines"] {
        assert!(
            matches!(
                agents.save(bad, None).await,
                Err(AgentError::BadAgentName(_))
            ),
            "{bad:?}"
        );
    }
    let refused = agents.save("Cursor", Some(vec!["nowhere".into()])).await;
    assert!(matches!(refused, Err(AgentError::NoServer(s)) if s == "nowhere"));
    assert!(memory.config().agents.is_empty(), "nothing is written");
    assert_eq!(memory.changes.load(Ordering::SeqCst), 0);
    assert!(matches!(
        agents.set_tool("Cursor", "notes", "add", false).await,
        Err(AgentError::NoAgent(_))
    ));

    agents
        .save("  Cursor ", Some(vec!["notes".into()]))
        .await
        .unwrap();
    let saved = memory.config().agents;
    assert_eq!(
        saved.keys().collect::<Vec<_>>(),
        ["Cursor"],
        "its name trimmed"
    );
    assert!(saved["Cursor"].reaches("notes") && !saved["Cursor"].reaches("mail"));
    assert_eq!(
        memory.changes.load(Ordering::SeqCst),
        1,
        "the sessions are told"
    );
    let listed = agents.list();
    assert_eq!(listed.len(), 1);
    assert_eq!(
        listed[0].servers.as_deref(),
        Some(&["notes".to_owned()][..])
    );
}

#[tokio::test]
async fn an_agent_counts_as_connected_while_its_sessions_live_and_removing_it_ends_them() {
    let memory = Memory::new();
    let agents = Agents::new(memory.clone());
    agents.save("Cursor", None).await.unwrap();
    let token = agents.token("Cursor").await.unwrap();
    let check = agents.token_check();
    assert_eq!(check.identify(&token).unwrap().as_str(), "Cursor");

    let ((first, _a), (second, _b)) = (session(), session());
    let held = (
        agents.session_opened("Cursor", &first, false),
        agents.session_opened("Cursor", &second, true),
    );
    assert_eq!(agents.list()[0].connected, 2);
    // Renewing the token ends only the session opened with it.
    let renewed = agents.renew_token("Cursor").await.unwrap();
    assert!(second.closed().is_some() && first.closed().is_none());
    assert!(
        check.identify(&token).is_none(),
        "the old token is refused at once"
    );
    assert_eq!(check.identify(&renewed).unwrap().as_str(), "Cursor");
    drop(held.1);
    assert_eq!(agents.list()[0].connected, 1);

    agents.remove("Cursor").await.unwrap();
    assert!(first.closed().is_some(), "its session ended");
    assert_eq!(
        *memory.forgotten.lock(),
        ["Cursor"],
        "its rules and folders go"
    );
    assert!(check.identify(&renewed).is_none(), "its token is refused");
    let kept = memory.secrets.agent_tokens().get("Cursor").await.unwrap();
    assert_eq!(kept, None, "and gone from the keyring");
    assert!(agents.list().is_empty());
    drop(held.0);
}

#[tokio::test]
async fn a_server_asking_during_an_agents_call_is_answered_by_that_agent_only_if_allowed() {
    let memory = Memory::new();
    let agents = Agents::new(memory.clone());
    agents.save("Cursor", None).await.unwrap();
    let (connection, _peer) = session();
    let line = |session: u64| AgentLine {
        agent: "Cursor".into(),
        session,
        connection: connection.downgrade(),
        declared: serde_json::from_value(json!({"sampling": {}})).unwrap(),
    };
    let _call = agents.call_made_by("call-1", line(1));
    memory
        .serving
        .lock()
        .insert("notes".into(), vec!["call-1".into()]);
    let sampling = serde_json::from_value(json!({"messages": [], "maxTokens": 5})).unwrap();
    let delegates = agents.delegates();
    let answerer = || {
        delegates
            .delegate("notes", Asked::Sampling(&sampling))
            .map(|d| d.agent)
    };
    assert_eq!(answerer(), None, "the person has not let it answer");

    agents
        .set_answers(
            "Cursor",
            AgentAnswers {
                sampling: true,
                elicitation: false,
            },
        )
        .await
        .unwrap();
    assert_eq!(answerer().as_deref(), Some("Cursor"));
    assert_eq!(
        delegates
            .delegate("files", Asked::Sampling(&sampling))
            .map(|d| d.agent),
        None,
        "files serves no call of its"
    );

    // A call of another session under way too: whose call the request serves is unknown.
    let _other = agents.call_made_by("call-2", line(2));
    memory
        .serving
        .lock()
        .get_mut("notes")
        .unwrap()
        .push("call-2".into());
    assert_eq!(answerer(), None);
}
