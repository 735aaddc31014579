use serde::Serialize;

use crate::told::{Tell, Told};
use switchboard_desk::{
    AgentError, ChatError, DeskError, ExplorerError, ModelsError, ServersError, TrustError,
};

/// What every command returns on failure: a stable code the UI can branch on and a
/// message a person can read.
#[derive(Debug, Clone, Serialize, specta::Type, thiserror::Error)]
#[error("{message}")]
pub struct CommandError {
    pub code: ErrorCode,
    pub message: String,
    /// The same, by kind, when it is in the host's own words: the window says it in the
    /// person's language.
    pub told: Option<Told>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The host's configuration could not be located, read or written.
    Config,
    /// What was asked of does not exist (a server, a tool, a pending request).
    NotFound,
    /// The server is not running.
    NotRunning,
    /// The input was refused; the message says what to fix.
    Invalid,
    /// A person or a standing decision denied it.
    Denied,
    /// The server answered with an error, or the connection failed.
    Server,
    /// The server needs the person to finish a page in their browser first (they were
    /// offered it); the call was not made and may be tried again.
    BrowserStep,
    /// A model provider refused the request (a bad key, a rate limit) or could not be
    /// reached; the message gives its own words.
    Provider,
    /// The OS keyring or another part of the system failed.
    System,
    /// No model is configured to ask (or the chosen provider has none): add one on the
    /// Models page.
    NoModel,
}

impl CommandError {
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::plain(ErrorCode::Invalid, message)
    }

    /// An error that is not told by kind (its words are a server's, the system's).
    pub fn plain(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            told: None,
        }
    }

    /// `err`, told by kind if it can be.
    fn of(code: ErrorCode, err: &(impl std::fmt::Display + Tell)) -> Self {
        Self {
            code,
            message: err.to_string(),
            told: err.told(),
        }
    }
}

impl From<switchboard_core::config::ConfigPathError> for CommandError {
    fn from(err: switchboard_core::config::ConfigPathError) -> Self {
        Self::plain(ErrorCode::Config, err.to_string())
    }
}

impl From<DeskError> for CommandError {
    fn from(err: DeskError) -> Self {
        let err = match err {
            DeskError::Agent(agent) => return agent.into(),
            DeskError::Explorer(explorer) => return explorer.into(),
            DeskError::Models(models) => return models.into(),
            DeskError::Trust(trust) => return trust.into(),
            DeskError::Servers(servers) => return servers.into(),
            DeskError::Chat(chat) => return chat.into(),
            other => other,
        };
        let code = match &err {
            DeskError::BrokenConfig(_) | DeskError::Config(_) => ErrorCode::Config,
            DeskError::Audit(_) => ErrorCode::System,
            DeskError::Agent(_)
            | DeskError::Explorer(_)
            | DeskError::Models(_)
            | DeskError::Trust(_)
            | DeskError::Servers(_)
            | DeskError::Chat(_) => unreachable!("taken above"),
        };
        Self::of(code, &err)
    }
}

impl From<AgentError> for CommandError {
    fn from(err: AgentError) -> Self {
        use switchboard_core::agent_setup::SetupError;
        use switchboard_core::approvals::AnswerError;
        use switchboard_core::gate::CallError;
        let err = match err {
            AgentError::Host(desk) => return (*desk).into(),
            other => other,
        };
        let code = match &err {
            AgentError::Host(_) => unreachable!("taken above"),
            AgentError::NoAgent(_) | AgentError::NoServer(_) => ErrorCode::NotFound,
            AgentError::Answer(AnswerError::NotPending(_)) => ErrorCode::NotFound,
            AgentError::NotRunning(_) => ErrorCode::NotRunning,
            AgentError::BadAgentName(_) | AgentError::Roots(_) | AgentError::Answer(_) => {
                ErrorCode::Invalid
            }
            AgentError::NoRandomness(_)
            | AgentError::Keyring(_)
            | AgentError::Audit(_)
            | AgentError::Interrupted(_)
            | AgentError::ShuttingDown => ErrorCode::System,
            AgentError::Setup(
                SetupError::Read { .. }
                | SetupError::Write { .. }
                | SetupError::NoHome
                | SetupError::Interrupted(_),
            ) => ErrorCode::System,
            AgentError::Setup(_) => ErrorCode::Invalid,
            AgentError::BrokenConfig(_) | AgentError::Config(_) => ErrorCode::Config,
            AgentError::Call(CallError::Denied { .. }) => ErrorCode::Denied,
            AgentError::Call(_) | AgentError::Client(_) => ErrorCode::Server,
        };
        Self::of(code, &err)
    }
}

impl From<ExplorerError> for CommandError {
    fn from(err: ExplorerError) -> Self {
        use switchboard_core::gate::CallError;
        let code = match &err {
            ExplorerError::NoServer(_) | ExplorerError::NoTool { .. } => ErrorCode::NotFound,
            ExplorerError::NotRunning(_) => ErrorCode::NotRunning,
            ExplorerError::Call(CallError::Denied { .. }) | ExplorerError::ToolDisabled { .. } => {
                ErrorCode::Denied
            }
            ExplorerError::Call(_)
            | ExplorerError::Client(_)
            | ExplorerError::View(_)
            | ExplorerError::Serving(_)
            | ExplorerError::Skill(_) => ErrorCode::Server,
            ExplorerError::StepsInBrowser { .. } => ErrorCode::BrowserStep,
            ExplorerError::BadRequest(_) => ErrorCode::Invalid,
            ExplorerError::NotForViews { .. } => ErrorCode::Denied,
            ExplorerError::Tasks(switchboard_desk::tasks::TaskBookError::NotFound(_)) => {
                ErrorCode::NotFound
            }
            ExplorerError::Tasks(_) => ErrorCode::System,
        };
        Self::of(code, &err)
    }
}

impl From<switchboard_core::audit::AuditError> for CommandError {
    fn from(err: switchboard_core::audit::AuditError) -> Self {
        Self::plain(ErrorCode::System, err.to_string())
    }
}

impl From<ModelsError> for CommandError {
    fn from(err: ModelsError) -> Self {
        use switchboard_desk::ProviderFormError;
        let code = match &err {
            ModelsError::NoProvider(_) => ErrorCode::NotFound,
            ModelsError::Form(ProviderFormError::Keyring(_)) => ErrorCode::System,
            ModelsError::Form(_)
            | ModelsError::BadPrice
            | ModelsError::PriceUnnamed
            | ModelsError::BadProfile
            | ModelsError::ProfileUnnamed => ErrorCode::Invalid,
            ModelsError::Provider(_) => ErrorCode::Provider,
            ModelsError::BrokenConfig(_) | ModelsError::Config(_) => ErrorCode::Config,
            ModelsError::ShuttingDown => ErrorCode::System,
        };
        Self::of(code, &err)
    }
}

impl From<TrustError> for CommandError {
    fn from(err: TrustError) -> Self {
        use switchboard_core::approvals::AnswerError;
        let code = match &err {
            TrustError::Answer(AnswerError::NotPending(_)) | TrustError::NotShared { .. } => {
                ErrorCode::NotFound
            }
            TrustError::Answer(_)
            | TrustError::BadAnswer(_)
            | TrustError::Link(_)
            | TrustError::Roots(_) => ErrorCode::Invalid,
        };
        Self::of(code, &err)
    }
}

impl From<ServersError> for CommandError {
    fn from(err: ServersError) -> Self {
        use switchboard_core::approvals::AnswerError;
        use switchboard_core::registry::RegistryError;
        use switchboard_desk::FormError;
        let code = match &err {
            ServersError::BrokenConfig(_) | ServersError::Config(_) => ErrorCode::Config,
            ServersError::NoServer(_)
            | ServersError::Answer(AnswerError::NotPending(_))
            | ServersError::Registry(RegistryError::NotFound { .. }) => ErrorCode::NotFound,
            ServersError::NotRunning(_) => ErrorCode::NotRunning,
            ServersError::Form(FormError::Keyring(_))
            | ServersError::Keyring(_)
            | ServersError::ShuttingDown => ErrorCode::System,
            ServersError::Form(_)
            | ServersError::Answer(_)
            | ServersError::BadRequest(_)
            | ServersError::Link(_)
            | ServersError::Import(_)
            | ServersError::NoSignIn(_)
            | ServersError::NotLocal(_)
            | ServersError::Install(_)
            | ServersError::InstallLink(_) => ErrorCode::Invalid,
            ServersError::Client(_) | ServersError::SignIn { .. } | ServersError::Registry(_) => {
                ErrorCode::Server
            }
        };
        Self::of(code, &err)
    }
}

impl From<ChatError> for CommandError {
    fn from(err: ChatError) -> Self {
        use switchboard_chat::ConversationError;
        use switchboard_core::approvals::AnswerError;
        let err = match err {
            ChatError::Models(models) => return models.into(),
            other => other,
        };
        let code = match &err {
            ChatError::Models(_) => unreachable!("taken above"),
            ChatError::NoModel | ChatError::NoModelOf(_) | ChatError::NoSuchModel(_) => {
                ErrorCode::NoModel
            }
            ChatError::ChatRunning | ChatError::BadRequest(_) | ChatError::DraftStopped => {
                ErrorCode::Invalid
            }
            ChatError::Conversation(ConversationError::NotFound(_)) => ErrorCode::NotFound,
            ChatError::Conversation(_) => ErrorCode::System,
            ChatError::Provider(_) => ErrorCode::Provider,
            ChatError::Answer(AnswerError::NotPending(_)) | ChatError::NoServer(_) => {
                ErrorCode::NotFound
            }
            ChatError::Answer(_) => ErrorCode::Invalid,
            ChatError::NotRunning(_) => ErrorCode::NotRunning,
            ChatError::BrokenConfig(_) | ChatError::Config(_) => ErrorCode::Config,
            ChatError::ShuttingDown => ErrorCode::System,
        };
        Self::of(code, &err)
    }
}
