//! One supervisor per server: it starts the server, keeps the catalog current, restarts
//! it after a crash with a growing backoff, and gives up (saying why) when it keeps
//! crashing. Its state changes in one place, which emits one status event.

use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use switchboard_mcp::auth::AuthError;
use switchboard_mcp::client::{
    Client, ClientConfig, ClientError, ClientHandler, Era, ServerNotification,
};
use switchboard_mcp::connection::RequestError;
use switchboard_mcp::transport::{LogLine, LogSink, TransportError};
use switchboard_mcp::types::{ClientCapabilities, Listing};
use tokio::sync::{Notify, broadcast, watch};

use crate::catalog::{Catalog, Offer};
use crate::config::{ServerConfig, ServerSpec};
use crate::launch::launch;
use crate::log_line;
use crate::roots::Roots;
use crate::sandbox::{self, SandboxNote};
use crate::secrets::Secrets;
use crate::server_events::{LogSource, Reason, ServerEvent, ServerState};
use crate::sign_in::SignIns;
use crate::traffic::{Masker, TrafficBook};

/// What every supervisor shares with the host. Its maps change only through the
/// supervisors; the host reads them through the methods below.
#[derive(Clone)]
pub struct Shared {
    pub(crate) catalog: Catalog,
    pub(crate) secrets: Secrets,
    /// The sign-ins the person asked for.
    pub(crate) sign_ins: SignIns,
    pub(crate) events: broadcast::Sender<ServerEvent>,
    pub(crate) states: Arc<Mutex<BTreeMap<String, ServerState>>>,
    /// The live session of each running server.
    pub(crate) clients: Arc<Mutex<BTreeMap<String, Client>>>,
    /// Every message each server exchanged, for the traffic view.
    pub(crate) traffic: TrafficBook,
    /// The folders shared with each server: a sandboxed one sees them.
    pub(crate) roots: Roots,
}

impl Shared {
    pub(crate) fn new(secrets: Secrets) -> Self {
        // Room for a burst of every server's events (a flood of log lines).
        let events = broadcast::channel(1024).0;
        Self {
            catalog: Catalog::default(),
            secrets,
            sign_ins: SignIns::announcing(events.clone()),
            events,
            states: Arc::default(),
            clients: Arc::default(),
            traffic: TrafficBook::default(),
            roots: Roots::default(),
        }
    }

    /// What the running servers offer.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The sign-ins the person asked for.
    pub fn sign_ins(&self) -> &SignIns {
        &self.sign_ins
    }

    /// The folders shared with each server.
    pub fn roots(&self) -> &Roots {
        &self.roots
    }

    /// The servers' events from now on.
    pub fn events(&self) -> broadcast::Receiver<ServerEvent> {
        self.events.subscribe()
    }

    /// Every server's state now, by name.
    pub fn states(&self) -> BTreeMap<String, ServerState> {
        self.states.lock().clone()
    }

    /// The live session with a running server.
    pub fn client(&self, server: &str) -> Option<Client> {
        self.clients.lock().get(server).cloned()
    }

    /// Every message each server exchanged, for the traffic view.
    pub fn traffic(&self) -> &TrafficBook {
        &self.traffic
    }
}

impl Shared {
    /// The one way a server's state changes: recorded, then announced.
    fn set(&self, server: &str, state: ServerState) {
        self.states.lock().insert(server.to_owned(), state.clone());
        let _ = self.events.send(ServerEvent::Status {
            server: server.to_owned(),
            state,
        });
    }
}

impl Shared {
    fn clients_mut(&self) -> parking_lot::MutexGuard<'_, BTreeMap<String, Client>> {
        self.clients.lock()
    }
}

/// Takes a server's session off the list when its run ends, however it ends.
struct Unlist<'a> {
    shared: &'a Shared,
    name: &'a str,
}

impl Drop for Unlist<'_> {
    fn drop(&mut self) {
        self.shared.clients_mut().remove(self.name);
    }
}

/// The client side of one server's connection as the host answers it.
struct Handler<H> {
    inner: Arc<H>,
    refresh: Arc<Notify>,
    server: String,
    events: broadcast::Sender<ServerEvent>,
}

impl<H: ClientHandler> ClientHandler for Handler<H> {
    fn list_roots(
        &self,
    ) -> impl Future<
        Output = Result<
            switchboard_mcp::types::ListRootsResult,
            switchboard_mcp::jsonrpc::ErrorObject,
        >,
    > + Send {
        self.inner.list_roots()
    }

    fn create_message(
        &self,
        params: switchboard_mcp::types::CreateMessageRequestParams,
    ) -> impl Future<
        Output = Result<
            switchboard_mcp::types::CreateMessageResult,
            switchboard_mcp::jsonrpc::ErrorObject,
        >,
    > + Send {
        self.inner.create_message(params)
    }

    fn elicit(
        &self,
        params: switchboard_mcp::types::ElicitRequestParams,
    ) -> impl Future<
        Output = Result<
            switchboard_mcp::types::ElicitResult,
            switchboard_mcp::jsonrpc::ErrorObject,
        >,
    > + Send {
        self.inner.elicit(params)
    }

    fn notification(&self, notification: ServerNotification) {
        if matches!(
            notification,
            ServerNotification::ToolListChanged
                | ServerNotification::ResourceListChanged
                | ServerNotification::PromptListChanged
                | ServerNotification::SessionRenewed
        ) {
            self.refresh.notify_one();
        }
        let server = self.server.clone();
        let event = match &notification {
            ServerNotification::Log(log) => Some(ServerEvent::Log {
                server,
                source: LogSource::Server,
                level: log.level,
                text: log_line::server_message(log.logger.as_deref(), &log.data),
                note: None,
            }),
            ServerNotification::ResourceUpdated(updated) => Some(ServerEvent::ResourceUpdated {
                server,
                uri: updated.uri.clone(),
            }),
            _ => None,
        };
        if let Some(event) = event {
            let _ = self.events.send(event);
        }
        self.inner.notification(notification);
    }
}

/// Why one run of a server ended.
enum Ended {
    Crashed {
        reason: Reason,
        stderr_tail: Vec<String>,
    },
    /// It could not start, and would not if tried again.
    Unstartable(Reason),
    Unauthorized {
        detail: Reason,
        token_instead: bool,
    },
    /// Its sandbox cannot gain the folders shared with it since it started: it starts again.
    Rebind,
    Stopped,
}

/// A running supervisor; dropping it does not stop it, `stop` does.
pub struct Supervisor {
    pub config: ServerConfig,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

/// Says when a supervisor being stopped is gone, for the one that takes its place.
pub struct Retired(watch::Receiver<bool>);

impl Retired {
    pub fn new() -> (watch::Sender<bool>, Self) {
        let (gone, retired) = watch::channel(false);
        (gone, Self(retired))
    }

    async fn wait(mut self) {
        // A sender dropped without a word means the stop ended all the same.
        let _ = self.0.wait_for(|gone| *gone).await;
    }
}

impl Supervisor {
    /// Starts supervising the server; after `predecessor` is gone, if the same server was
    /// running before (a restart, or a changed configuration).
    pub fn start<H: ClientHandler>(
        name: String,
        config: ServerConfig,
        handler: Arc<H>,
        shared: Shared,
        predecessor: Option<Retired>,
    ) -> Self {
        let (stop, mut stopping) = watch::channel(false);
        let run = config.clone();
        let task = tokio::spawn(async move {
            if let Some(predecessor) = predecessor {
                let gone = predecessor.wait();
                tokio::pin!(gone);
                tokio::select! {
                    () = &mut gone => {}
                    // Stopped before it began: gone once what it replaced is gone.
                    _ = stopping.changed() => return gone.await,
                }
            }
            supervise(name, run, handler, shared, stopping).await;
        });
        Self { config, stop, task }
    }

    /// Stops the server gracefully and waits until it is gone.
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }
}

/// Messages waiting for the traffic recorder; beyond, copies are dropped (and counted)
/// rather than slowing the server's connection.
const TRAFFIC_QUEUE: usize = 256;

/// How long a server must run before its crash counter starts again from zero.
const STABLE_AFTER: Duration = Duration::from_secs(60);

async fn supervise<H: ClientHandler>(
    name: String,
    config: ServerConfig,
    handler: Arc<H>,
    shared: Shared,
    mut stopping: watch::Receiver<bool>,
) {
    let mut crashes = 0u32;
    let mut rebinding = false;
    loop {
        shared.set(&name, ServerState::Starting);
        // Said once it is Starting: whoever reads this then waits for it to run again.
        if std::mem::take(&mut rebinding) {
            let _ = shared.events.send(ServerEvent::Log {
                server: name.clone(),
                source: LogSource::Sandbox,
                level: None,
                text: SandboxNote::Rebound.text().to_owned(),
                note: Some(SandboxNote::Rebound),
            });
        }
        let started = Instant::now();
        let ended = run_once(&name, &config, handler.clone(), &shared, &mut stopping).await;
        shared.catalog.remove(&name);
        let _ = shared.events.send(ServerEvent::CatalogChanged {
            server: name.clone(),
        });
        let (reason, stderr_tail, cannot_heal) = match ended {
            Ended::Rebind => {
                rebinding = true;
                continue;
            }
            Ended::Stopped => {
                shared.set(&name, ServerState::Stopped);
                return;
            }
            Ended::Unauthorized {
                detail,
                token_instead,
            } => {
                shared.set(
                    &name,
                    ServerState::AuthRequired {
                        detail,
                        token_instead,
                    },
                );
                let _ = stopping.changed().await;
                shared.set(&name, ServerState::Stopped);
                return;
            }
            Ended::Unstartable(reason) => (reason, Vec::new(), true),
            Ended::Crashed {
                reason,
                stderr_tail,
            } => (reason, stderr_tail, false),
        };
        crashes = if started.elapsed() >= STABLE_AFTER {
            1
        } else {
            crashes + 1
        };
        let gave_up = !cannot_heal && crashes > config.restart.max_restarts;
        if cannot_heal || gave_up {
            shared.set(
                &name,
                ServerState::Failed {
                    reason,
                    gave_up_after: gave_up.then_some(config.restart.max_restarts),
                    stderr_tail,
                },
            );
            let _ = stopping.changed().await;
            shared.set(&name, ServerState::Stopped);
            return;
        }
        let backoff = config.restart.backoff(crashes);
        shared.set(
            &name,
            ServerState::Restarting {
                attempt: crashes,
                backoff_ms: backoff.as_millis() as u64,
                reason,
            },
        );
        tokio::select! {
            () = tokio::time::sleep(backoff) => {}
            _ = stopping.changed() => {
                shared.set(&name, ServerState::Stopped);
                return;
            }
        }
    }
}

/// Starts the server, serves until it ends or is stopped, and says how it ended.
async fn run_once<H: ClientHandler>(
    name: &str,
    config: &ServerConfig,
    handler: Arc<H>,
    shared: &Shared,
    stopping: &mut watch::Receiver<bool>,
) -> Ended {
    let log: LogSink = {
        let (events, server) = (shared.events.clone(), name.to_owned());
        let sandbox = config.sandbox;
        let noted = AtomicU32::new(0);
        Arc::new(move |line| {
            let (source, text) = match line {
                LogLine::Stderr(text) => (LogSource::Stderr, text),
                LogLine::Protocol(text) => (LogSource::Protocol, text),
            };
            // A refusal the sandbox may have caused is said beside it, a few times a run.
            let note = sandbox
                .filter(|_| source == LogSource::Stderr)
                .and_then(|sandbox| sandbox::blocked(&text, sandbox.network))
                .filter(|_| noted.fetch_add(1, Ordering::Relaxed) < SANDBOX_NOTES);
            let say = |source, text, note| {
                let _ = events.send(ServerEvent::Log {
                    server: server.clone(),
                    source,
                    level: None,
                    text,
                    note,
                });
            };
            say(source, log_line::cap(text), None);
            if let Some(note) = note {
                say(LogSource::Sandbox, note.text().to_owned(), Some(note));
            }
        })
    };
    let mut roots_changed = shared.roots.changes();
    let folders = shared.roots.shared(name);
    let launched = match launch(
        name,
        config,
        &shared.secrets,
        &shared.sign_ins,
        &folders,
        log,
    )
    .await
    {
        Ok(launched) => launched,
        Err(e) if !e.may_heal() => return Ended::Unstartable(e.reason()),
        Err(e) => {
            return Ended::Crashed {
                reason: e.reason(),
                stderr_tail: Vec::new(),
            };
        }
    };
    let refresh = Arc::new(Notify::new());
    let handler = Arc::new(Handler {
        inner: handler,
        refresh: refresh.clone(),
        server: name.to_owned(),
        events: shared.events.clone(),
    });
    let mut client_config = ClientConfig::new("Switchboard", env!("CARGO_PKG_VERSION"));
    // Sampling with tools too: the model may use the tools a server offers in its request,
    // which the server runs (the host drafts, the person reviews).
    // Views of MCP Apps are declared: a tool only a view may call is then never offered
    // to a model or an agent (see `apps::offered_to_models`). Skills are declared: their
    // files are loaded only when the person or a model asks.
    client_config.capabilities = ClientCapabilities::all()
        .with_sampling_tools()
        .with_apps()
        .with_tasks()
        .with_skills();
    if let Some(secs) = config.request_timeout_secs {
        client_config.request_timeout = Duration::from_secs(secs);
    }
    if let Some(secs) = config.max_request_secs {
        client_config.max_request_time = Duration::from_secs(secs);
    }
    client_config.ping_interval = ping_interval(config);
    client_config.era = config.protocol_era.into();
    // The recorder ends with the connection, which holds the observer's only end.
    let (observer, seen) = switchboard_mcp::traffic::observer(TRAFFIC_QUEUE);
    client_config.traffic = Some(observer);
    let masker = Masker::new(launched.secrets.iter().map(String::as_str));
    tokio::spawn(
        shared
            .traffic
            .clone()
            .record(name.to_owned(), launched.headers, masker, seen),
    );
    let transport = launched.transport;
    // A stop during the handshake drops the half-made client, which ends the process group.
    let connected = tokio::select! {
        connected = Client::connect(transport, handler, client_config) => connected,
        _ = stopping.changed() => return Ended::Stopped,
    };
    let client = match connected {
        Ok(client) => client,
        Err(ClientError::Request(RequestError::Transport {
            error: TransportError::Unauthorized { .. },
            ..
        })) => {
            return Ended::Unauthorized {
                detail: Reason::AsksForAuthorization {
                    server: name.to_owned(),
                    again: false,
                },
                token_instead: false,
            };
        }
        // Signing in was not done (no one asked to, or it did not complete): the server
        // waits for the person, it does not restart into the same refusal.
        Err(ClientError::Request(RequestError::Transport {
            error: TransportError::Authorization(error),
            ..
        })) if error.needs_sign_in() => {
            return Ended::Unauthorized {
                detail: Reason::from(&error),
                token_instead: matches!(error, AuthError::NoRegistration { .. }),
            };
        }
        // The server speaks no revision we speak in the era asked for: it would answer
        // the same again, so retrying cannot heal it.
        Err(
            e @ (ClientError::NotStateless { .. }
            | ClientError::NoSharedRevision { .. }
            | ClientError::UnsupportedProtocolVersion { .. }),
        ) => {
            return Ended::Unstartable(Reason::from(&e));
        }
        Err(ClientError::Request(RequestError::Closed(reason))) => {
            return Ended::Crashed {
                reason: Reason::from(reason.as_ref()),
                stderr_tail: reason.stderr_tail.clone(),
            };
        }
        Err(e) => {
            return Ended::Crashed {
                reason: Reason::from(&e),
                stderr_tail: Vec::new(),
            };
        }
    };
    // Running means ready: the catalog holds what the server offers.
    if !refreshed_unless_stopped(name, &client, shared, stopping).await {
        return Ended::Stopped;
    }
    shared.clients_mut().insert(name.to_owned(), client.clone());
    let _unlist = Unlist { shared, name };
    shared.set(
        name,
        ServerState::Running {
            protocol_version: client.protocol_version().to_string(),
            server_name: client.server().server_info.name.clone(),
            stateless: client.era().era == Era::Stateless,
            why_revision: client.era().reason.clone(),
        },
    );
    loop {
        tokio::select! {
            reason = client.connection().wait_closed() => {
                if reason.unauthorized {
                    return Ended::Unauthorized {
                        detail: Reason::AsksForAuthorization { server: name.to_owned(), again: true },
                        token_instead: false,
                    };
                }
                return Ended::Crashed { reason: Reason::from(reason.as_ref()), stderr_tail: reason.stderr_tail.clone() };
            }
            () = refresh.notified() => {
                if !refreshed_unless_stopped(name, &client, shared, stopping).await {
                    return Ended::Stopped;
                }
            }
            // What the sandbox binds is fixed as it starts: roots and sandbox never disagree.
            Ok(()) = roots_changed.changed(), if config.sandbox.is_some() => {
                if shared.roots.shared(name) != folders {
                    client.close().await;
                    return Ended::Rebind;
                }
            }
            _ = stopping.changed() => {
                client.close().await;
                return Ended::Stopped;
            }
        }
    }
}

/// Refreshes the catalog, unless a stop comes first (a server that pages forever must not
/// hold it up); false if it did, and the server was closed.
async fn refreshed_unless_stopped(
    name: &str,
    client: &Client,
    shared: &Shared,
    stopping: &mut watch::Receiver<bool>,
) -> bool {
    tokio::select! {
        () = refresh_catalog(name, client, shared) => true,
        _ = stopping.changed() => {
            client.close().await;
            false
        }
    }
}

/// How many times a run of a sandboxed server notes that a refusal may be the sandbox's.
const SANDBOX_NOTES: u32 = 10;

/// How often an HTTP server is pinged unless its configuration says (0: never). A stdio
/// server is alive while its process is, and is not pinged unless asked.
const HTTP_PING_SECS: u64 = 30;

fn ping_interval(config: &ServerConfig) -> Option<Duration> {
    let default = match config.spec("") {
        Ok(ServerSpec::Http { .. }) => HTTP_PING_SECS,
        _ => 0,
    };
    Some(config.ping_interval_secs.unwrap_or(default))
        .filter(|&secs| secs > 0)
        .map(Duration::from_secs)
}

/// Lists what the server offers into the catalog. A list that fails is left empty and an
/// item that cannot be read is left out; both are said in the server's log.
async fn refresh_catalog(name: &str, client: &Client, shared: &Shared) {
    let caps = client.capabilities();
    let say = |text: String| {
        let _ = shared.events.send(ServerEvent::Log {
            server: name.to_owned(),
            source: LogSource::Protocol,
            level: None,
            text,
            note: None,
        });
    };
    let offer = Offer {
        tools: listed(
            "tools/list",
            caps.supports_tools(),
            client.list_tools(),
            &say,
        )
        .await,
        resources: listed(
            "resources/list",
            caps.supports_resources(),
            client.list_resources(),
            &say,
        )
        .await,
        templates: listed(
            "resources/templates/list",
            caps.supports_resources(),
            client.list_resource_templates(),
            &say,
        )
        .await,
        prompts: listed(
            "prompts/list",
            caps.supports_prompts(),
            client.list_prompts(),
            &say,
        )
        .await,
        skills: skills(client, &say).await,
    };
    shared.catalog.set(name, offer);
    let _ = shared.events.send(ServerEvent::CatalogChanged {
        server: name.to_owned(),
    });
}

/// The skills the server lists (their manifests; no file of theirs is read).
async fn skills(
    client: &Client,
    say: &impl Fn(String),
) -> Vec<switchboard_mcp::types::skills::Skill> {
    if !client.offers_skills() {
        return Vec::new();
    }
    client.list_skills().await.unwrap_or_else(|e| {
        say(format!("{e} (listed as empty)"));
        Vec::new()
    })
}

/// The items of a list the server offers, saying what was left out or why it failed.
async fn listed<T>(
    method: &str,
    offered: bool,
    listing: impl Future<Output = Result<Listing<T>, ClientError>>,
    say: &impl Fn(String),
) -> Vec<T> {
    if !offered {
        return Vec::new();
    }
    match listing.await {
        Ok(listing) => {
            for skipped in &listing.skipped {
                say(format!("{method}: {skipped}"));
            }
            listing.items
        }
        Err(e) => {
            // The error names the method already.
            say(format!("{e} (listed as empty)"));
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use switchboard_mcp::client::DecliningHandler;
    use switchboard_mcp::transport::discard_log;
    use switchboard_mcp::transport::memory::{self, MemoryPeer};

    use super::*;

    async fn next_json(peer: &mut MemoryPeer) -> Value {
        let text = peer
            .from_client
            .recv()
            .await
            .expect("the client sent something");
        serde_json::from_str(&text).expect("the client sends JSON")
    }

    async fn answer(peer: &mut MemoryPeer, reply: Value) {
        let request = next_json(peer).await;
        let mut message = json!({"jsonrpc": "2.0", "id": request["id"]});
        message
            .as_object_mut()
            .expect("an object")
            .extend(reply.as_object().expect("a result or an error").clone());
        peer.to_client
            .send(message.to_string())
            .await
            .expect("the client listens");
    }

    #[tokio::test]
    async fn items_left_out_and_lists_that_fail_are_said_in_the_servers_log() {
        let (transport, mut peer) = memory::pair(discard_log());
        let mut config = ClientConfig::new("test", "1");
        config.era = switchboard_mcp::client::EraSetting::Session;
        let connect = tokio::spawn(Client::connect(
            transport,
            Arc::new(DecliningHandler),
            config,
        ));
        answer(
            &mut peer,
            json!({"result": {"protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}, "prompts": {}},
            "serverInfo": {"name": "odd", "version": "1"}}}),
        )
        .await;
        let client = connect.await.unwrap().unwrap();
        next_json(&mut peer).await; // notifications/initialized

        let shared = Shared {
            catalog: Catalog::default(),
            secrets: Secrets::new("unused"),
            sign_ins: SignIns::default(),
            events: broadcast::channel(16).0,
            states: Arc::default(),
            clients: Arc::default(),
            traffic: TrafficBook::default(),
            roots: Roots::default(),
        };
        let mut events = shared.events.subscribe();
        let refresh = tokio::spawn({
            let shared = shared.clone();
            async move { refresh_catalog("odd", &client, &shared).await }
        });
        answer(
            &mut peer,
            json!({"result": {"tools": [
                {"name": "kept", "inputSchema": {"type": "object"}},
                {"name": "broken"},
            ]}}),
        )
        .await;
        answer(
            &mut peer,
            json!({"error": {"code": -32603, "message": "no prompts today"}}),
        )
        .await;
        refresh.await.unwrap();

        let mut logged = Vec::new();
        while let Ok(event) = events.try_recv() {
            if let ServerEvent::Log {
                server,
                source,
                text,
                ..
            } = event
            {
                assert_eq!((server.as_str(), source), ("odd", LogSource::Protocol));
                logged.push(text);
            }
        }
        assert_eq!(
            logged,
            [
                "tools/list: item 1 (\"broken\") left out: missing field `inputSchema`",
                "the server answered prompts/list with an error: no prompts today (code -32603) (listed as empty)",
            ]
        );
        let tools = shared.catalog.offer("odd").expect("listed").tools;
        assert_eq!(tools.len(), 1);
    }
}
