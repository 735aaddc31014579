//! The servers' service: the servers as the Servers page shows and changes them (added,
//! edited, renamed, removed, turned on and off, restarted), each with its log, its traffic
//! and its tools' switches; signing in to one; adding one from the MCP Registry or from
//! another app's configuration; and the host's own settings kept beside them. It holds
//! what the supervisors share (states, sessions, catalog, traffic, sign-ins), the keyring
//! and the servers' logs, and reaches the rest of the host through its port
//! ([`ServersHost`]): the configuration and its edits (the fleet follows them), a restart,
//! what other services forget of a server that goes, the person's questions and the audit
//! trail. The desk implements it.

mod host;
mod imports;
mod registry;
mod signing_in;
mod tools;

use std::sync::Arc;

use parking_lot::Mutex;
use switchboard_mcp::client::ClientError;
use switchboard_mcp::types::LoggingLevel;
use tokio::sync::broadcast;

use crate::given::Given;
use crate::keeps::{Keeping, Keeps};
use crate::logbook::{LogBook, LogEntry, LogSize};
use crate::server_settings::{self, FormError, NewSecret, SecretValue, ServerForm, ServerSummary};
use crate::shown;
use switchboard_core::approvals::AnswerError;
use switchboard_core::config::{
    Config, ConfigError, ImportError, SandboxEngine, SandboxSetting, ServerConfig,
};
use switchboard_core::links::LinkError;
use switchboard_core::masking;
use switchboard_core::secrets::{SecretError, Secrets};
use switchboard_core::supervisor::Shared;
use switchboard_core::traffic::{TrafficEntry, TrafficLog};

pub use host::{ServersChange, ServersHost};
pub use imports::{
    ImportCandidate, ImportChoice, ImportRequest, ImportSummary, ImportableServer,
    ImportedServerReport, InputAnswer, Skipped, SkippedServer,
};
pub use registry::{InstallProposal, RegistryAdd};
pub use signing_in::SignedIn;

#[derive(Debug, thiserror::Error)]
pub enum ServersError {
    #[error("the configuration file must be fixed first: {0}")]
    BrokenConfig(switchboard_core::config::ConfigProblem),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Form(#[from] FormError),
    #[error("there is no server named {0:?}")]
    NoServer(String),
    #[error("{0} is not running")]
    NotRunning(String),
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error(transparent)]
    Keyring(#[from] SecretError),
    #[error(transparent)]
    Import(#[from] ImportError),
    /// What was given does not read (an import's source, its answers).
    #[error("{0}")]
    BadRequest(String),
    #[error(transparent)]
    Answer(#[from] AnswerError),
    #[error(transparent)]
    Link(#[from] LinkError),
    /// The server is not one that can be signed in to (it is not reached over HTTP).
    #[error("{0} is not reached over HTTP: there is nothing to sign in to")]
    NoSignIn(String),
    /// Only a program on this machine runs in a sandbox.
    #[error("{0} is reached over HTTP: only a local server runs in a sandbox")]
    NotLocal(String),
    #[error("signing in to {server} failed: {detail}")]
    SignIn {
        server: String,
        detail: switchboard_core::server_events::Reason,
    },
    #[error(transparent)]
    Registry(#[from] switchboard_core::registry::RegistryError),
    #[error(transparent)]
    Install(#[from] switchboard_core::registry::InstallError),
    #[error(transparent)]
    InstallLink(#[from] switchboard_core::registry::InstallLinkError),
    #[error("Switchboard is shutting down")]
    ShuttingDown,
}

impl crate::EditError for ServersError {
    fn broken(problem: switchboard_core::config::ConfigProblem) -> Self {
        Self::BrokenConfig(problem)
    }
}

/// What a local server sees in the sandbox, as the window shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SandboxView {
    /// Its program's folders, its working folder and its arguments' folders: read only.
    pub programs: Vec<String>,
    /// The folders shared with it: read and written.
    pub roots: Vec<String>,
    /// The folders shared with it read only.
    pub read_only: Vec<String>,
    /// Where the packages it runs are kept between starts (an `npx` server's): read and
    /// written.
    pub caches: Vec<String>,
    /// Whether it has the network (as its entry says; none outside a sandbox setting).
    pub network: bool,
    /// What builds its sandbox here (bubblewrap, or Landlock where bubblewrap cannot run),
    /// or none, and then `cannot` says why and how to fix it.
    pub engine: Option<SandboxEngine>,
    pub cannot: Option<switchboard_core::server_events::Reason>,
}

/// Cheap to clone; every clone is the same service.
#[derive(Clone)]
pub struct Servers {
    shared: Shared,
    secrets: Secrets,
    logs: Arc<LogBook>,
    /// The registry of the settings, kept so that its connections serve search after search.
    registry: Arc<Mutex<Option<switchboard_core::registry::Registry>>>,
    host: Arc<dyn ServersHost>,
    _keeps: Keeps,
}

impl Keeping for Servers {
    fn keeps(&mut self) -> &mut Keeps {
        &mut self._keeps
    }
}

impl Servers {
    /// The service over what the supervisors share and the keyring.
    pub fn new(shared: Shared, secrets: Secrets, host: Arc<dyn ServersHost>) -> Self {
        Self {
            shared,
            secrets,
            logs: Arc::default(),
            registry: Arc::default(),
            host,
            _keeps: Keeps::default(),
        }
    }

    /// Keeps a server's log line (the desk's relay hands them over as they come).
    pub(crate) fn logged(&self, entry: LogEntry) {
        self.logs.push(entry);
    }

    fn server_config(&self, name: &str) -> Result<ServerConfig, ServersError> {
        self.host
            .config()
            .servers
            .get(name)
            .cloned()
            .ok_or_else(|| ServersError::NoServer(name.to_owned()))
    }

    /// Changes the configuration file (see [`ServersHost::edit`]), announcing the servers
    /// changed; what `change` gave back.
    async fn edit<T: Send + 'static>(
        &self,
        change: impl FnOnce(&mut Config) -> Result<T, ServersError> + Send + 'static,
    ) -> Result<T, ServersError> {
        self.edit_announcing(change, crate::Update::ServersChanged)
            .await
    }

    /// [`Self::edit`], announcing `what` changed.
    async fn edit_announcing<T: Send + 'static>(
        &self,
        change: impl FnOnce(&mut Config) -> Result<T, ServersError> + Send + 'static,
        what: crate::Update,
    ) -> Result<T, ServersError> {
        let gave = Given::new();
        self.host.edit(Box::new(gave.keeping(change)), what).await?;
        gave.take().ok_or(ServersError::ShuttingDown)
    }

    /// Every configured server, with its state and since when.
    pub fn list(&self) -> Vec<ServerSummary> {
        let states = self.shared.states();
        let since = self.host.since();
        self.host
            .config()
            .servers
            .iter()
            .map(|(name, server)| ServerSummary {
                name: name.clone(),
                enabled: server.enabled,
                transport: server_settings::transport_of(server),
                target: server_settings::target_of(server),
                state: states.get(name).cloned().map(shown::state),
                since_ms: since.get(name).copied().unwrap_or(0),
                sandbox: server.sandbox,
            })
            .collect()
    }

    pub fn server_form(&self, name: &str) -> Result<ServerForm, ServersError> {
        Ok(server_settings::form_of(name, &self.server_config(name)?))
    }

    /// Adds a server (`original` None) or changes one, possibly renaming it. New secret
    /// values go to the keyring first (a renamed server's own secrets copied to its new
    /// name), so that the file never names a secret not stored; once the file is written,
    /// the secrets the server owned and no longer uses are deleted.
    pub async fn save_server(
        &self,
        original: Option<String>,
        form: ServerForm,
    ) -> Result<(), ServersError> {
        if let Some(problem) = self.host.config_problem() {
            return Err(ServersError::BrokenConfig(problem));
        }
        let mut config = self.host.config();
        let previous = take_replaced(&mut config, original.as_deref(), &form.name)?;
        let applied =
            server_settings::apply_form(&form, original.as_deref().zip(previous.as_ref()))?;
        self.store_secrets(&applied.secrets).await?;
        let (asked, replacing) = (form.clone(), original.clone());
        let replaced = self
            .edit(move |config| {
                let (form, original) = (asked, replacing);
                let previous = take_replaced(config, original.as_deref(), &form.name)?;
                let again =
                    server_settings::apply_form(&form, original.as_deref().zip(previous.as_ref()))?;
                // Read afresh, the server may no longer be the one the secrets were stored
                // for: it is written only with those.
                if again.secrets != applied.secrets {
                    let name = original.as_deref().unwrap_or(&form.name);
                    return Err(FormError::Changed(name.to_owned()).into());
                }
                let server = again.config;
                let replaced = previous.map(|before| (before, server.clone()));
                config.servers.insert(form.name, server);
                Ok(replaced)
            })
            .await?;
        if let (Some(name), Some((before, after))) = (original, replaced) {
            self.forget_secrets(&name, &before, Some((&form.name, &after)))
                .await;
            if name != form.name {
                // What the person allowed a server is not inherited by a new name.
                self.host.forget(&name).await;
                self.shared.traffic().remove(&name);
            }
        }
        Ok(())
    }

    /// Stores a form's new secret values in the keyring (a copied one read from where it
    /// was), before the configuration names them.
    async fn store_secrets(&self, new: &[NewSecret]) -> Result<(), ServersError> {
        let secrets = &self.secrets;
        let keyring = FormError::Keyring;
        for secret in new {
            let value = match &secret.value {
                SecretValue::Given(value) => value.clone(),
                SecretValue::Copied { from, what, key } => {
                    secrets.get(from).await.map_err(keyring)?.ok_or_else(|| {
                        FormError::EmptySecret {
                            what,
                            key: key.clone(),
                        }
                    })?
                }
            };
            secrets.set(&secret.name, &value).await.map_err(keyring)?;
        }
        Ok(())
    }

    pub async fn remove_server(&self, name: &str) -> Result<(), ServersError> {
        let removed = self.server_config(name)?;
        let gone = name.to_owned();
        self.edit(move |config| {
            config.servers.remove(&gone);
            Ok(())
        })
        .await?;
        self.forget_secrets(name, &removed, None).await;
        self.forget_grant(&removed).await;
        self.host.forget(name).await;
        self.logs.clear(name);
        self.shared.traffic().remove(name);
        switchboard_core::launch::Sandboxed::forget(name);
        Ok(())
    }

    /// Deletes the secrets the server `name` owned in `before` that `after` (the server as
    /// it is now, maybe renamed) no longer refers to. Only its own: a secret it merely named,
    /// such as another server's, is never touched.
    async fn forget_secrets(
        &self,
        name: &str,
        before: &ServerConfig,
        after: Option<(&str, &ServerConfig)>,
    ) {
        let kept: Vec<&str> = after
            .map(|(name, config)| config.own_secrets(name).collect())
            .unwrap_or_default();
        let gone: Vec<&str> = before
            .own_secrets(name)
            .filter(|secret| !kept.contains(secret))
            .collect();
        for secret in gone {
            let _ = self.secrets.delete(secret).await;
        }
    }

    pub async fn set_enabled(&self, name: &str, enabled: bool) -> Result<(), ServersError> {
        let name = name.to_owned();
        self.edit(move |config| {
            let server = config
                .servers
                .get_mut(&name)
                .ok_or(ServersError::NoServer(name))?;
            server.enabled = enabled;
            Ok(())
        })
        .await
    }

    /// What the local server would see in the sandbox now: its program's folders (read
    /// only), the folders shared with it (read and written), and whether it has the network.
    pub async fn sandbox_view(&self, name: &str) -> Result<SandboxView, ServersError> {
        let config = self.server_config(name)?;
        if config.command.is_none() {
            return Err(ServersError::NotLocal(name.to_owned()));
        }
        let roots = self.shared.roots().shared(name);
        let view = switchboard_core::launch::sandbox_view(name, &config, &roots)
            .await
            .map_err(|e| ServersError::BadRequest(e.to_string()))?;
        let wanted = config.sandbox.unwrap_or_default().engine;
        let engine = switchboard_core::launch::sandbox_engine(wanted).await;
        let shown = |folders: Vec<std::path::PathBuf>| {
            folders.iter().map(|f| f.display().to_string()).collect()
        };
        Ok(SandboxView {
            programs: shown(view.programs),
            roots: shown(view.roots),
            read_only: shown(view.read_only_roots),
            caches: shown(view.caches),
            network: view.network,
            engine: engine.as_ref().ok().map(|engine| engine.kind()),
            cannot: engine.err().map(|e| e.reason()),
        })
    }

    /// Runs the local server in the sandbox as `sandbox` says, or out of it (`None`); it
    /// starts again so.
    pub async fn set_sandbox(
        &self,
        name: &str,
        sandbox: Option<SandboxSetting>,
    ) -> Result<(), ServersError> {
        let name = name.to_owned();
        self.edit(move |config| {
            let server = config
                .servers
                .get_mut(&name)
                .ok_or_else(|| ServersError::NoServer(name.clone()))?;
            if server.command.is_none() {
                return Err(ServersError::NotLocal(name));
            }
            server.sandbox = sandbox;
            Ok(())
        })
        .await
    }

    pub async fn restart(&self, name: &str) -> Result<(), ServersError> {
        if self.host.restart(name).await {
            Ok(())
        } else {
            Err(ServersError::NotRunning(name.to_owned()))
        }
    }

    /// What the server said of itself when it connected: its name and version, protocol
    /// revision, capabilities and instructions (the `initialize` result), secrets in the
    /// addresses it gives masked.
    pub fn server_info(&self, name: &str) -> Option<serde_json::Value> {
        let client = self.client(name).ok()?;
        serde_json::to_value(&*client.server())
            .ok()
            .map(masking::json)
    }

    pub fn log_of(&self, name: &str) -> Vec<LogEntry> {
        self.logs.of(name)
    }

    /// How much of the server's log is kept, and the memory it takes.
    pub fn log_size(&self, name: &str) -> LogSize {
        self.logs.size_of(name)
    }

    pub fn clear_log(&self, name: &str) {
        self.logs.clear(name);
    }

    /// The messages the server exchanged, as kept (across its restarts).
    pub fn traffic_of(&self, name: &str) -> TrafficLog {
        self.shared.traffic().of(name)
    }

    pub fn clear_traffic(&self, name: &str) {
        self.shared.traffic().clear(name);
    }

    /// Each message of any server as it is recorded.
    pub fn traffic_updates(&self) -> broadcast::Receiver<TrafficEntry> {
        self.shared.traffic().subscribe()
    }

    pub async fn set_log_level(&self, name: &str, level: LoggingLevel) -> Result<(), ServersError> {
        Ok(self.client(name)?.set_logging_level(level).await?)
    }

    fn client(&self, name: &str) -> Result<switchboard_mcp::client::Client, ServersError> {
        self.shared
            .client(name)
            .ok_or_else(|| ServersError::NotRunning(name.to_owned()))
    }
}

/// Checks that a form's name is free (or the server's own) and takes out of `config` the
/// server the form replaces, if any.
fn take_replaced(
    config: &mut Config,
    original: Option<&str>,
    name: &str,
) -> Result<Option<ServerConfig>, ServersError> {
    if config.servers.contains_key(name) && original != Some(name) {
        return Err(FormError::Taken(name.to_owned()).into());
    }
    original
        .map(|original| {
            config
                .servers
                .remove(original)
                .ok_or_else(|| ServersError::NoServer(original.to_owned()))
        })
        .transpose()
}
