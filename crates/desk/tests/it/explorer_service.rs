//! The explorer's service on its own, in process: the real gate (its broker, its audit
//! trail in a file of the test's), the real catalog, and a server of the test's own that
//! runs in this process on the engine's typed handler, reached over in-memory transports;
//! its port played by a host held in memory. No server process, no window: what the
//! service decides itself is checked here (which call reaches the gate, what is listed as
//! under way, cancelling, what is recorded).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use serde_json::{Map, Value, json};
use switchboard_core::approvals::{Broker, BrokerEvent};
use switchboard_core::audit::{AuditLog, Retention};
use switchboard_core::catalog::{Catalog, Offer};
use switchboard_core::config::{Config, HostSettings, ServerConfig};
use switchboard_core::decisions::Origin;
use switchboard_core::gate::{CallError, Gate};
use switchboard_core::roots::Roots;
use switchboard_core::server_events::ServerState;
use switchboard_desk::explorer::{Calls, ExplorerHost};
use switchboard_desk::{Explorer, ExplorerError, TurnedOff, Update};
use switchboard_mcp::client::{Client, ClientConfig, DecliningHandler, EraSetting};
use switchboard_mcp::connection::Connection;
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::server::handler::{Dispatch, Reply, Rounds, ServerHandler, answered};
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::memory::{MemoryPeer, pair};
use switchboard_mcp::types::*;
use tokio::sync::Notify;

use crate::common::WAIT;

/// A notes server: `add_note` answers with the note; `wait` never answers, and says when
/// it began and when the client's cancellation ended it.
#[derive(Default)]
struct Notes {
    entered: Arc<Notify>,
    ended: Arc<Notify>,
}

/// Says, when dropped, that a call ended.
struct Ends(Arc<Notify>);

impl Drop for Ends {
    fn drop(&mut self) {
        self.0.notify_one();
    }
}

fn tools() -> Vec<Tool> {
    serde_json::from_value(json!([
        {"name": "add_note", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": false}},
        {"name": "wait", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
        {"name": "wipe", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}},
    ]))
    .expect("tools")
}

impl ServerHandler for Notes {
    fn initialize(&self, params: InitializeRequestParams) -> Reply<InitializeResult> {
        let result = json!({
            "protocolVersion": params.protocol_version,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "notes", "version": "1.0.0"},
        });
        answered(serde_json::from_value(result).map_err(ErrorObject::invalid_params))
    }

    fn list_tools(&self, _: PaginatedRequestParams) -> Reply<ListToolsResult> {
        let listed = serde_json::from_value(json!({ "tools": tools() }));
        answered(listed.map_err(ErrorObject::invalid_params))
    }

    fn call_tool(&self, params: CallToolRequestParams) -> Reply<Rounds<CallToolResult>> {
        match params.name.as_str() {
            "wait" => {
                let (entered, ends) = (self.entered.clone(), Ends(self.ended.clone()));
                Box::pin(async move {
                    let _ends = ends;
                    entered.notify_one();
                    std::future::pending().await
                })
            }
            _ => {
                let note = params.arguments.unwrap_or_default();
                let text = note.get("text").and_then(Value::as_str).unwrap_or_default();
                let noted = CallToolResult::new(vec![ContentBlock::text(format!("noted: {text}"))]);
                answered(Ok(noted.into()))
            }
        }
    }
}

/// Carries what one in-memory end writes to the other's reader.
fn carry(mut from: MemoryPeer, to: tokio::sync::mpsc::Sender<String>, keep: Option<Connection>) {
    tokio::spawn(async move {
        let _keep = keep;
        while let Some(line) = from.from_client.recv().await {
            if to.send(line).await.is_err() {
                return;
            }
        }
    });
}

/// A client of `server` running in this process: two in-memory transports joined end to
/// end.
async fn client_of(server: impl ServerHandler) -> Client {
    let (client_end, client_peer) = pair(discard_log());
    let (server_end, server_peer) = pair(discard_log());
    let serving = Connection::start(server_end, Arc::new(Dispatch::new(server)));
    let (to_client, to_server) = (client_peer.to_client.clone(), server_peer.to_client.clone());
    carry(client_peer, to_server, None);
    carry(server_peer, to_client, Some(serving));
    let mut config = ClientConfig::new("explorer-test", "1.0.0");
    config.era = EraSetting::Session;
    Client::connect(client_end, Arc::new(DecliningHandler), config)
        .await
        .expect("the server in process answers")
}

/// The rest of the host, in memory: one server, "notes", running.
struct Memory {
    config: Mutex<Config>,
    client: Client,
    announced: Mutex<Vec<Update>>,
}

impl ExplorerHost for Memory {
    fn server(&self, name: &str) -> Option<ServerConfig> {
        self.config.lock().servers.get(name).cloned()
    }
    fn tools_off(&self) -> TurnedOff {
        TurnedOff::of(&self.config.lock())
    }
    fn running(&self) -> BTreeMap<String, ServerState> {
        let running = ServerState::Running {
            protocol_version: "2025-11-25".into(),
            server_name: "notes".into(),
            stateless: false,
            why_revision: switchboard_mcp::client::EraReason {
                probed: Vec::new(),
                initialized: Some("2025-11-25".into()),
            },
        };
        BTreeMap::from([("notes".to_owned(), running)])
    }
    fn client(&self, server: &str) -> Option<Client> {
        (server == "notes").then(|| self.client.clone())
    }
    fn announce(&self, update: Update) {
        self.announced.lock().push(update);
    }
}

struct World {
    explorer: Explorer,
    notes: (Arc<Notify>, Arc<Notify>),
    memory: Arc<Memory>,
    broker: Broker,
    audit: Arc<AuditLog>,
    _dir: tempfile::TempDir,
}

async fn world() -> World {
    let dir = tempfile::tempdir().expect("a folder");
    let mut config = Config::default();
    let notes: ServerConfig =
        serde_json::from_value(json!({"command": "notes"})).expect("a server");
    config.servers.insert("notes".into(), notes);
    let server = Notes::default();
    let notes = (server.entered.clone(), server.ended.clone());
    let memory = Arc::new(Memory {
        config: Mutex::new(config),
        client: client_of(server).await,
        announced: Mutex::default(),
    });
    let catalog = Catalog::default();
    catalog.set(
        "notes",
        Offer {
            tools: tools(),
            ..Offer::default()
        },
    );
    let broker = Broker::new(Duration::from_secs(120), 8);
    let audit = Arc::new(
        AuditLog::open(&dir.path().join("audit.sqlite"), Retention::default())
            .expect("an audit trail"),
    );
    let gate = Gate::new(
        broker.clone(),
        audit.clone(),
        catalog.clone(),
        &HostSettings::default(),
        None,
    );
    let explorer = Explorer::new(
        Arc::new(Calls::default()),
        gate,
        catalog,
        Roots::default(),
        memory.clone(),
    );
    World {
        explorer,
        notes,
        memory,
        broker,
        audit,
        _dir: dir,
    }
}

fn note(text: &str) -> Map<String, Value> {
    json!({"text": text})
        .as_object()
        .cloned()
        .expect("an object")
}

fn text_of(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn the_persons_call_runs_at_once_is_listed_while_under_way_and_recorded() {
    let w = world().await;
    let result = w
        .explorer
        .call_tool("notes", "add_note", note("milk"), "t1".into(), false)
        .await
        .unwrap();
    assert_eq!(text_of(&result), "noted: milk");
    assert!(w.broker.pending().is_empty(), "the person was not asked");
    let announced = w.memory.announced.lock().clone();
    assert!(
        matches!(&announced[..], [Update::Progress { item }, Update::ProgressEnded { token }]
            if item.token == "t1" && item.label == "add_note" && token == "t1"),
        "{announced:?}"
    );
    assert!(w.explorer.calls_in_flight().is_empty());
    let recorded = w.audit.search(String::new(), None, 10).await.unwrap();
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].record.server, "notes");
    assert_eq!(recorded[0].asked_by, Origin::Person.describe());
}

#[tokio::test]
async fn a_models_call_waits_for_the_person_listed_unserved_and_can_be_cancelled() {
    let w = world().await;
    let mut asked = w.broker.subscribe();
    let model = Origin::Model {
        conversation: "7".into(),
        title: "Tidy the notes".into(),
    };
    let call = tokio::spawn({
        let explorer = w.explorer.clone();
        async move {
            explorer
                .call_tool_as(&model, "notes", "add_note", note("eggs"), "t2".into())
                .await
        }
    });
    let added = tokio::time::timeout(WAIT, asked.recv()).await.unwrap();
    assert!(matches!(added, Ok(BrokerEvent::Added(_))));
    let listed = w.explorer.calls_in_flight();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].token, "t2");

    assert!(w.explorer.cancel("t2"));
    let cancelled = tokio::time::timeout(WAIT, call).await.unwrap().unwrap();
    assert!(
        matches!(
            cancelled,
            Err(ExplorerError::Call(CallError::Cancelled { .. }))
        ),
        "{cancelled:?}"
    );
    assert!(w.broker.pending().is_empty(), "its question is withdrawn");
    assert!(w.explorer.calls_in_flight().is_empty());
    assert!(!w.explorer.cancel("t2"), "nothing left to cancel");
}

#[tokio::test]
async fn a_call_under_way_at_the_server_is_cancelled_and_the_server_told() {
    let w = world().await;
    let call = tokio::spawn({
        let explorer = w.explorer.clone();
        async move {
            explorer
                .call_tool("notes", "wait", Map::new(), "t3".into(), false)
                .await
        }
    });
    let (entered, ended) = &w.notes;
    tokio::time::timeout(WAIT, entered.notified())
        .await
        .unwrap();
    assert_eq!(w.explorer.calls_in_flight().len(), 1);
    assert!(w.explorer.cancel("t3"));
    let cancelled = tokio::time::timeout(WAIT, call).await.unwrap().unwrap();
    assert!(cancelled.is_err(), "{cancelled:?}");
    tokio::time::timeout(WAIT, ended.notified())
        .await
        .expect("the server was told, and let the call go");
    assert!(w.explorer.calls_in_flight().is_empty());
}

#[tokio::test]
async fn a_tool_turned_off_unknown_or_of_a_server_not_running_never_reaches_the_gate() {
    let w = world().await;
    w.memory
        .config
        .lock()
        .servers
        .get_mut("notes")
        .unwrap()
        .disabled_tools
        .insert("wipe".into());
    let off = w
        .explorer
        .call_tool("notes", "wipe", Map::new(), "t4".into(), false)
        .await;
    assert!(
        matches!(&off, Err(ExplorerError::ToolDisabled { tool, .. }) if tool == "wipe"),
        "{off:?}"
    );
    let unknown = w
        .explorer
        .call_tool("notes", "fly", Map::new(), "t5".into(), false)
        .await;
    assert!(
        matches!(unknown, Err(ExplorerError::NoTool { .. })),
        "{unknown:?}"
    );
    let elsewhere = w
        .explorer
        .call_tool("mail", "send", Map::new(), "t6".into(), false)
        .await;
    assert!(
        matches!(elsewhere, Err(ExplorerError::NotRunning(_))),
        "{elsewhere:?}"
    );
    let tools: Vec<String> = w.explorer.catalog().0[0]
        .1
        .tools
        .iter()
        .map(|t| t.name.clone())
        .collect();
    assert_eq!(
        tools,
        ["add_note", "wait"],
        "the catalog leaves out what is off"
    );
    assert!(
        w.audit
            .search(String::new(), None, 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        w.memory.announced.lock().is_empty(),
        "nothing was under way"
    );
}
