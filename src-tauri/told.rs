//! What an error in the host's own words says, as a kind and its values, for the window to
//! say in the person's language: its catalogue holds a message for each kind
//! (`ui/src/errors.ts`, checked there to miss none). What is not the host's own words (a
//! server's refusal, the system's, a provider's) is not told so: the window shows its text
//! as it came.

use serde::Serialize;
use switchboard_chat::ConversationError;
use switchboard_core::agent_setup::SetupError;
use switchboard_core::approvals::AnswerError;
use switchboard_core::audit::AuditError;
use switchboard_core::config::ConfigProblem;
use switchboard_core::config::{ConfigError, ImportError};
use switchboard_core::decisions::DecidedBy;
use switchboard_core::gate::CallError;
use switchboard_core::links::LinkError;
use switchboard_core::registry::{InstallError, InstallLinkError, RegistryError};
use switchboard_core::secrets::SecretError;
use switchboard_core::server_events::RequestFailure;
use switchboard_core::sqlite_file::{Book, Fault, FileFault};
use switchboard_core::views::ViewError;
use switchboard_desk::agents::AgentError;
use switchboard_desk::chat::ChatError;
use switchboard_desk::explorer::ExplorerError;
use switchboard_desk::models::{ModelsError, ProviderFormError};
use switchboard_desk::servers::ServersError;
use switchboard_desk::tasks::TaskBookError;
use switchboard_desk::trust::TrustError;
use switchboard_desk::{DeskError, FormError};
use switchboard_mcp::client::ClientError;
use switchboard_mcp::client::skills::SkillError;

/// An error of the host's own, by kind, with what it names (servers, tools, names the
/// person typed: never translated).
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Told {
    BrokenConfig {
        problem: ConfigProblem,
    },
    /// The configuration could not be read or written for a change.
    Config {
        problem: ConfigProblem,
    },
    NoServer {
        server: String,
    },
    NotRunning {
        server: String,
    },
    ShuttingDown,
    NotPending {
        id: u64,
    },
    // A server's settings.
    NoSignIn {
        server: String,
    },
    NotLocal {
        server: String,
    },
    SignIn {
        server: String,
        detail: switchboard_core::server_events::Reason,
    },
    NoServerName,
    BadServerName {
        name: String,
    },
    ServerTaken {
        name: String,
    },
    NoCommand,
    BadUrl {
        url: String,
    },
    /// `place`: "env", "header" or "oauth".
    Duplicate {
        place: String,
        key: String,
    },
    EmptySecret {
        place: String,
        key: String,
    },
    BadToken,
    SecretWithoutClient,
    SecretWithoutIssuer,
    NoClientId,
    NoClientCredential,
    BadKey {
        detail: String,
    },
    /// `file`: "token" or "idToken".
    NoFile {
        file: String,
    },
    NoIdentityProvider,
    ServerChanged {
        name: String,
    },
    // The explorer.
    NoTool {
        server: String,
        tool: String,
    },
    ToolDisabled {
        server: String,
        tool: String,
    },
    NotForViews {
        server: String,
        tool: String,
    },
    // Model providers.
    NoProvider {
        provider: String,
    },
    NoProviderName,
    BadProviderName {
        name: String,
    },
    ProviderTaken {
        name: String,
    },
    EmptyKey,
    KeyGone {
        provider: String,
    },
    ProviderChanged {
        name: String,
    },
    BadPrice,
    PriceUnnamed,
    BadProfile,
    ProfileUnnamed,
    // Folders.
    NotShared {
        server: String,
        folder: String,
    },
    // The chat.
    NoModel,
    NoModelOf {
        provider: String,
    },
    NoSuchModel {
        provider: String,
        model: String,
    },
    ChatRunning,
    DraftStopped,
    // Agents.
    NoAgent {
        agent: String,
    },
    BadAgentName {
        name: String,
    },
    /// Installing a server from the registry: an answer refused, or what its entry
    /// declares amiss.
    Install {
        install: InstallError,
    },
    /// A request to a server came to nothing.
    Request {
        failure: RequestFailure,
    },
    CallDenied {
        tool: String,
        decided_by: DecidedBy,
    },
    CallCancelled {
        tool: String,
    },
    /// The keyring could not keep or give a secret.
    Keyring {
        keyring: SecretError,
    },
    /// An app's configuration was not changed to reach the gateway.
    AgentSetup {
        setup: SetupError,
    },
    /// A link a server gave is not opened.
    Link {
        link: LinkError,
    },
    /// A server's view cannot be shown.
    View {
        view: Box<ViewError>,
    },
    /// A skill of a server did not pass its manifest's checks.
    Skill {
        skill: Box<SkillError>,
    },
    /// The server needs the person to finish `steps` pages in a browser before the call;
    /// `opened` of them were opened. The call was not made.
    StepsInBrowser {
        server: String,
        steps: usize,
        opened: usize,
    },
    /// A file the host keeps failed: which, and how.
    Store {
        book: Book,
        fault: Fault,
    },
    NoConversation {
        id: i64,
    },
    /// The conversation changed meanwhile (in another window, say).
    ConversationChanged {
        id: i64,
    },
    /// Conversations are not kept this run (their file could not be opened).
    ConversationsNotKept,
    NoTask {
        id: i64,
    },
    /// The registry could not be read.
    Registry {
        registry: RegistryError,
    },
    /// Another host's configuration could not be imported.
    Import {
        import: ImportError,
    },
    /// A `switchboard://` link that does not install.
    InstallLink {
        link: InstallLinkError,
    },
    /// What went wrong with a model's provider.
    Provider {
        trouble: switchboard_providers::Trouble,
    },
}

/// An error that may be told by kind.
pub trait Tell {
    fn told(&self) -> Option<Told>;
}

impl Tell for DeskError {
    fn told(&self) -> Option<Told> {
        match self {
            Self::BrokenConfig(problem) => broken(problem),
            Self::Agent(e) => e.told(),
            Self::Explorer(e) => e.told(),
            Self::Models(e) => e.told(),
            Self::Trust(e) => e.told(),
            Self::Servers(e) => e.told(),
            Self::Chat(e) => e.told(),
            Self::Config(e) => config(e),
            Self::Audit(AuditError::File(fault)) => store(Book::AuditLog, fault),
        }
    }
}

impl Tell for ServersError {
    fn told(&self) -> Option<Told> {
        Some(match self {
            Self::BrokenConfig(problem) => return broken(problem),
            Self::Config(e) => return config(e),
            Self::Form(form) => return form.told(),
            Self::Answer(answer) => return answer.told(),
            Self::NoServer(server) => Told::NoServer {
                server: server.clone(),
            },
            Self::NotRunning(server) => Told::NotRunning {
                server: server.clone(),
            },
            Self::NoSignIn(server) => Told::NoSignIn {
                server: server.clone(),
            },
            Self::NotLocal(server) => Told::NotLocal {
                server: server.clone(),
            },
            Self::SignIn { server, detail } => Told::SignIn {
                server: server.clone(),
                detail: detail.clone(),
            },
            Self::ShuttingDown => Told::ShuttingDown,
            Self::Install(install) => Told::Install {
                install: install.clone(),
            },
            Self::Client(client) => return client.told(),
            Self::Keyring(keyring) => Told::Keyring {
                keyring: keyring.clone(),
            },
            Self::Registry(registry) => Told::Registry {
                registry: registry.clone(),
            },
            Self::Import(import) => Told::Import {
                import: import.clone(),
            },
            Self::InstallLink(link) => Told::InstallLink { link: link.clone() },
            Self::Link(link) => Told::Link { link: link.clone() },
            _ => return None,
        })
    }
}

impl Tell for FormError {
    fn told(&self) -> Option<Told> {
        Some(match self {
            Self::NoName => Told::NoServerName,
            Self::BadName(name) => Told::BadServerName { name: name.clone() },
            Self::Taken(name) => Told::ServerTaken { name: name.clone() },
            Self::NoCommand => Told::NoCommand,
            Self::BadUrl(url) => Told::BadUrl { url: url.clone() },
            Self::Duplicate { what, key } => Told::Duplicate {
                place: (*what).to_owned(),
                key: key.clone(),
            },
            Self::EmptySecret { what, key } => Told::EmptySecret {
                place: (*what).to_owned(),
                key: key.clone(),
            },
            Self::BadToken => Told::BadToken,
            Self::SecretWithoutClient => Told::SecretWithoutClient,
            Self::SecretWithoutIssuer => Told::SecretWithoutIssuer,
            Self::NoClientId => Told::NoClientId,
            Self::NoClientCredential => Told::NoClientCredential,
            Self::BadKey(detail) => Told::BadKey {
                detail: detail.clone(),
            },
            Self::NoFile(file) => Told::NoFile {
                file: if file.contains("ID token") {
                    "idToken"
                } else {
                    "token"
                }
                .to_owned(),
            },
            Self::NoIdentityProvider => Told::NoIdentityProvider,
            Self::Changed(name) => Told::ServerChanged { name: name.clone() },
            Self::Keyring(keyring) => Told::Keyring {
                keyring: keyring.clone(),
            },
        })
    }
}

impl Tell for ExplorerError {
    fn told(&self) -> Option<Told> {
        Some(match self {
            Self::NoServer(server) => Told::NoServer {
                server: server.clone(),
            },
            Self::NotRunning(server) => Told::NotRunning {
                server: server.clone(),
            },
            Self::NoTool { server, tool } => Told::NoTool {
                server: server.clone(),
                tool: tool.clone(),
            },
            Self::ToolDisabled { server, tool } => Told::ToolDisabled {
                server: server.clone(),
                tool: tool.clone(),
            },
            Self::NotForViews { server, tool } => Told::NotForViews {
                server: server.clone(),
                tool: tool.clone(),
            },
            Self::Call(call) => return call.told(),
            Self::Client(client) => return client.told(),
            Self::Skill(skill) => return skill.told(),
            Self::Tasks(tasks) => return tasks.told(),
            Self::View(ViewError::Read(client)) => return client.told(),
            Self::View(view) => Told::View {
                view: Box::new(view.clone()),
            },
            Self::StepsInBrowser {
                server,
                steps,
                opened,
            } => Told::StepsInBrowser {
                server: server.clone(),
                steps: *steps,
                opened: *opened,
            },
            _ => return None,
        })
    }
}

impl Tell for CallError {
    fn told(&self) -> Option<Told> {
        Some(match self {
            Self::Denied { tool, decided_by } => Told::CallDenied {
                tool: tool.clone(),
                decided_by: decided_by.clone(),
            },
            Self::Cancelled { tool } => Told::CallCancelled { tool: tool.clone() },
            Self::Client(client) => return client.told(),
            Self::Skill(skill) => return skill.told(),
            _ => return None,
        })
    }
}

impl Tell for ClientError {
    fn told(&self) -> Option<Told> {
        Some(Told::Request {
            failure: self.into(),
        })
    }
}

impl Tell for ConversationError {
    fn told(&self) -> Option<Told> {
        Some(match self {
            Self::File(fault) => return store(Book::Conversations, fault),
            Self::NotFound(id) => Told::NoConversation { id: *id },
            Self::NoSuchMessages(id) => Told::ConversationChanged { id: *id },
            Self::NotKept => Told::ConversationsNotKept,
        })
    }
}

impl Tell for TaskBookError {
    fn told(&self) -> Option<Told> {
        Some(match self {
            Self::File(fault) => return store(Book::Tasks, fault),
            Self::NotFound(id) => Told::NoTask { id: *id },
        })
    }
}

impl Tell for SkillError {
    fn told(&self) -> Option<Told> {
        match self {
            Self::Read(client) => client.told(),
            other => Some(Told::Skill {
                skill: Box::new(other.clone()),
            }),
        }
    }
}

impl Tell for ModelsError {
    fn told(&self) -> Option<Told> {
        Some(match self {
            Self::NoProvider(provider) => Told::NoProvider {
                provider: provider.clone(),
            },
            Self::Form(form) => return form.told(),
            Self::BrokenConfig(problem) => return broken(problem),
            Self::Config(e) => return config(e),
            Self::ShuttingDown => Told::ShuttingDown,
            Self::Provider(e) => Told::Provider {
                trouble: e.trouble(),
            },
            Self::BadPrice => Told::BadPrice,
            Self::PriceUnnamed => Told::PriceUnnamed,
            Self::BadProfile => Told::BadProfile,
            Self::ProfileUnnamed => Told::ProfileUnnamed,
        })
    }
}

impl Tell for ProviderFormError {
    fn told(&self) -> Option<Told> {
        Some(match self {
            Self::NoName => Told::NoProviderName,
            Self::BadName(name) => Told::BadProviderName { name: name.clone() },
            Self::Taken(name) => Told::ProviderTaken { name: name.clone() },
            Self::BadUrl(url) => Told::BadUrl { url: url.clone() },
            Self::EmptyKey => Told::EmptyKey,
            Self::KeyGone(provider) => Told::KeyGone {
                provider: provider.clone(),
            },
            Self::Changed(name) => Told::ProviderChanged { name: name.clone() },
            Self::Keyring(keyring) => Told::Keyring {
                keyring: keyring.clone(),
            },
        })
    }
}

impl Tell for TrustError {
    fn told(&self) -> Option<Told> {
        match self {
            Self::Answer(answer) => answer.told(),
            Self::NotShared { server, folder } => Some(Told::NotShared {
                server: server.clone(),
                folder: folder.clone(),
            }),
            Self::Link(link) => Some(Told::Link { link: link.clone() }),
            _ => None,
        }
    }
}

impl Tell for ChatError {
    fn told(&self) -> Option<Told> {
        Some(match self {
            Self::NoModel => Told::NoModel,
            Self::NoModelOf(provider) => Told::NoModelOf {
                provider: provider.clone(),
            },
            Self::NoSuchModel(chosen) => Told::NoSuchModel {
                provider: chosen.provider.clone(),
                model: chosen.model.clone(),
            },
            Self::ChatRunning => Told::ChatRunning,
            Self::DraftStopped => Told::DraftStopped,
            Self::Conversation(conversation) => return conversation.told(),
            Self::Models(models) => return models.told(),
            Self::Provider(e) => Told::Provider {
                trouble: e.trouble(),
            },
            Self::Answer(answer) => return answer.told(),
            Self::NoServer(server) => Told::NoServer {
                server: server.clone(),
            },
            Self::NotRunning(server) => Told::NotRunning {
                server: server.clone(),
            },
            Self::BrokenConfig(problem) => return broken(problem),
            Self::Config(e) => return config(e),
            Self::ShuttingDown => Told::ShuttingDown,
            _ => return None,
        })
    }
}

impl Tell for AgentError {
    fn told(&self) -> Option<Told> {
        Some(match self {
            Self::NoAgent(agent) => Told::NoAgent {
                agent: agent.clone(),
            },
            Self::BadAgentName(name) => Told::BadAgentName { name: name.clone() },
            Self::NoServer(server) => Told::NoServer {
                server: server.clone(),
            },
            Self::NotRunning(server) => Told::NotRunning {
                server: server.clone(),
            },
            Self::Answer(answer) => return answer.told(),
            Self::BrokenConfig(problem) => return broken(problem),
            Self::Config(e) => return config(e),
            Self::ShuttingDown => Told::ShuttingDown,
            Self::Host(desk) => return desk.told(),
            Self::Setup(setup) => Told::AgentSetup {
                setup: setup.clone(),
            },
            Self::Keyring(keyring) => Told::Keyring {
                keyring: keyring.clone(),
            },
            _ => return None,
        })
    }
}

impl Tell for AnswerError {
    fn told(&self) -> Option<Told> {
        match self {
            Self::NotPending(id) => Some(Told::NotPending { id: *id }),
            _ => None,
        }
    }
}

fn store(book: Book, fault: &FileFault) -> Option<Told> {
    Some(Told::Store {
        book,
        fault: fault.into(),
    })
}

fn config(error: &ConfigError) -> Option<Told> {
    Some(Told::Config {
        problem: error.problem(),
    })
}

fn broken(problem: &ConfigProblem) -> Option<Told> {
    Some(Told::BrokenConfig {
        problem: problem.clone(),
    })
}

#[cfg(test)]
mod samples;
