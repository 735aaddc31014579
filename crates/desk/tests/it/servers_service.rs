//! The servers' service on its own, in process: its port played by a configuration held in
//! memory, the keyring real (a service of the test's own), no server started. What it
//! decides itself is checked here: a secret typed in the form is stored before the
//! configuration names it, follows a renamed server and goes with a removed one; a server
//! that goes is forgotten by the rest of the host; what is not there is said.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use parking_lot::Mutex;
use switchboard_core::approvals::{Answer, AnswerError, Question};
use switchboard_core::audit::Record;
use switchboard_core::config::Config;
use switchboard_core::fleet::Fleet;
use switchboard_core::secrets::Secrets;
use switchboard_desk::server_settings::{KeyValue, Transport};
use switchboard_desk::servers::{ServersChange, ServersHost};
use switchboard_desk::{ServerForm, Servers, ServersError, Update};
use switchboard_mcp::client::DecliningHandler;
use switchboard_mcp::transport::BoxFuture;

/// The configuration in memory, and what the service told the rest of the host.
#[derive(Default)]
struct Memory {
    config: Mutex<Config>,
    announced: Mutex<Vec<Update>>,
    forgotten: Mutex<Vec<String>>,
}

impl ServersHost for Memory {
    fn config(&self) -> Config {
        self.config.lock().clone()
    }
    fn config_problem(&self) -> Option<switchboard_core::config::ConfigProblem> {
        None
    }
    fn config_path(&self) -> PathBuf {
        PathBuf::from("/nowhere/config.json")
    }
    fn edit(&self, change: ServersChange, what: Update) -> BoxFuture<'_, Result<(), ServersError>> {
        // Changed on a copy, kept only when the change is accepted: as the file is.
        let mut config = self.config();
        let result = change(&mut config).map(|()| {
            *self.config.lock() = config;
            self.announced.lock().push(what);
        });
        Box::pin(async move { result })
    }
    fn restart(&self, _server: &str) -> BoxFuture<'_, bool> {
        Box::pin(async { false })
    }
    fn forget(&self, server: &str) -> BoxFuture<'_, ()> {
        self.forgotten.lock().push(server.to_owned());
        Box::pin(async {})
    }
    fn since(&self) -> HashMap<String, i64> {
        HashMap::new()
    }
    fn agrees(&self, _server: &str, _question: Question) -> BoxFuture<'_, bool> {
        Box::pin(async { false })
    }
    fn question(&self, id: u64) -> Result<Question, AnswerError> {
        Err(AnswerError::NotPending(id))
    }
    fn answer(&self, id: u64, _server: &str, _answer: Answer) -> Result<(), AnswerError> {
        Err(AnswerError::NotPending(id))
    }
    fn record(&self, _record: Record) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }
}

/// A keyring service of this run's own; each test names its servers apart, since they run
/// side by side.
fn keyring() -> Secrets {
    Secrets::new(&format!(
        "switchboard-servers-service-{}",
        std::process::id()
    ))
}

fn service() -> (Servers, Arc<Memory>, Secrets) {
    let secrets = keyring();
    let fleet = Fleet::new(secrets.clone(), |_: &str| Arc::new(DecliningHandler));
    let memory = Arc::new(Memory::default());
    let servers = Servers::new(fleet.shared().clone(), secrets.clone(), memory.clone());
    (servers, memory, secrets)
}

fn vault(name: &str, token: &str, stored: bool) -> ServerForm {
    ServerForm {
        name: name.into(),
        transport: Transport::Stdio,
        enabled: false,
        command: "vault-server".into(),
        env: vec![KeyValue {
            key: "TOKEN".into(),
            value: token.into(),
            secret: true,
            stored,
        }],
        ..ServerForm::default()
    }
}

/// The keyring names of the secrets `server` owns as configured now.
fn own_secrets(memory: &Memory, server: &str) -> Vec<String> {
    let config = memory.config();
    config.servers[server]
        .own_secrets(server)
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn a_servers_secret_is_stored_first_follows_a_rename_and_goes_with_the_server() {
    let (servers, memory, secrets) = service();
    servers
        .save_server(None, vault("vault", "s3cr3t", false))
        .await
        .unwrap();
    let named = own_secrets(&memory, "vault");
    assert_eq!(named.len(), 1);
    assert_eq!(
        secrets.get(&named[0]).await.unwrap().as_deref(),
        Some("s3cr3t")
    );
    let written = serde_json::to_string(&memory.config()).unwrap();
    assert!(!written.contains("s3cr3t"), "never in the configuration");
    assert_eq!(*memory.announced.lock(), [Update::ServersChanged]);

    // Renamed, the value left as stored: the secret goes along, the old name is forgotten.
    servers
        .save_server(Some("vault".into()), vault("safe", "", true))
        .await
        .unwrap();
    let moved = own_secrets(&memory, "safe");
    assert_eq!(
        secrets.get(&moved[0]).await.unwrap().as_deref(),
        Some("s3cr3t")
    );
    assert_eq!(secrets.get(&named[0]).await.unwrap(), None);
    assert_eq!(*memory.forgotten.lock(), ["vault"]);

    servers.remove_server("safe").await.unwrap();
    assert!(memory.config().servers.is_empty());
    assert_eq!(secrets.get(&moved[0]).await.unwrap(), None);
    assert_eq!(*memory.forgotten.lock(), ["vault", "safe"]);
}

#[tokio::test]
async fn what_is_not_there_or_not_running_is_said_and_nothing_changes() {
    let (servers, memory, _secrets) = service();
    servers
        .save_server(None, vault("locked", "s3cr3t", false))
        .await
        .unwrap();
    let before = memory.config();
    assert!(matches!(
        servers.restart("locked").await,
        Err(ServersError::NotRunning(_))
    ));
    assert!(matches!(
        servers.set_enabled("nobody", true).await,
        Err(ServersError::NoServer(_))
    ));
    assert!(matches!(
        servers.server_form("nobody"),
        Err(ServersError::NoServer(_))
    ));
    assert!(matches!(
        servers.set_tool_enabled("nobody", "echo", false).await,
        Err(ServersError::NoServer(_))
    ));
    let taken = servers
        .save_server(None, vault("locked", "other", false))
        .await;
    assert!(matches!(taken, Err(ServersError::Form(_))), "{taken:?}");
    assert_eq!(memory.config(), before, "nothing was written");
    let listed = servers.list();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].name, "locked");
    assert_eq!(listed[0].state, None, "not started");
    servers.remove_server("locked").await.unwrap();
}
