//! What an error in the host's own words says, as a kind and its values, for the window to
//! say in the person's language: its catalogue holds a message for each kind
//! (`ui/src/errors.ts`, checked there to miss none). What is not the host's own words (a
//! server's refusal, the system's, a provider's) is not told so: the window shows its text
//! as it came.

use serde::Serialize;
use switchboard_core::approvals::AnswerError;
use switchboard_core::config::ConfigProblem;
use switchboard_core::decisions::DecidedBy;
use switchboard_core::gate::CallError;
use switchboard_core::registry::{InstallError, Sets};
use switchboard_core::server_events::RequestFailure;
use switchboard_desk::agents::AgentError;
use switchboard_desk::chat::ChatError;
use switchboard_desk::explorer::ExplorerError;
use switchboard_desk::models::{ModelsError, ProviderFormError};
use switchboard_desk::servers::ServersError;
use switchboard_desk::trust::TrustError;
use switchboard_desk::{DeskError, FormError};
use switchboard_mcp::client::ClientError;

/// An error of the host's own, by kind, with what it names (servers, tools, names the
/// person typed: never translated).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Told {
    BrokenConfig {
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
    /// An answer for installing a server from the registry: none for a value it needs.
    InstallMissing {
        sets: Sets,
    },
    InstallNotAChoice {
        sets: Sets,
        choices: String,
    },
    InstallBadFormat {
        sets: Sets,
        format: String,
        value: String,
    },
    InstallNotPlain {
        sets: Sets,
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
            Self::Config(_) | Self::Audit(_) => None,
        }
    }
}

impl Tell for ServersError {
    fn told(&self) -> Option<Told> {
        Some(match self {
            Self::BrokenConfig(problem) => return broken(problem),
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
            Self::Install(install) => return install.told(),
            _ => return None,
        })
    }
}

impl Tell for InstallError {
    fn told(&self) -> Option<Told> {
        Some(match self {
            Self::Missing(sets) => Told::InstallMissing { sets: sets.clone() },
            Self::NotAChoice { sets, choices } => Told::InstallNotAChoice {
                sets: sets.clone(),
                choices: choices.clone(),
            },
            Self::BadFormat {
                sets,
                format,
                value,
            } => Told::InstallBadFormat {
                sets: sets.clone(),
                format: format.clone(),
                value: value.clone(),
            },
            Self::NotPlain(sets) => Told::InstallNotPlain { sets: sets.clone() },
            // What an entry of the registry declares amiss, in the host's words.
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
            Self::Keyring(_) => return None,
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

impl Tell for ModelsError {
    fn told(&self) -> Option<Told> {
        Some(match self {
            Self::NoProvider(provider) => Told::NoProvider {
                provider: provider.clone(),
            },
            Self::Form(form) => return form.told(),
            Self::BrokenConfig(problem) => return broken(problem),
            Self::ShuttingDown => Told::ShuttingDown,
            Self::Provider(e) => Told::Provider {
                trouble: e.trouble(),
            },
            _ => return None,
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
            Self::Keyring(_) => return None,
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
            Self::ShuttingDown => Told::ShuttingDown,
            Self::Host(desk) => return desk.told(),
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

fn broken(problem: &ConfigProblem) -> Option<Told> {
    Some(Told::BrokenConfig {
        problem: problem.clone(),
    })
}

#[cfg(test)]
mod tests {
    use switchboard_core::sampling::Chosen;

    use super::*;
    use crate::CommandError;

    /// One real error of each kind the host tells, as the window receives it (its English
    /// words and its kind): the window's catalogue is checked against them
    /// (`ui/src/errors.test.ts`), so that it says in English exactly what the host says.
    const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ui/src/testing/told.json");

    /// One engine error of each kind a request's failure is told as.
    fn request_failures() -> [ClientError; 16] {
        use std::time::Duration;
        use switchboard_mcp::connection::RequestError;
        use switchboard_mcp::jsonrpc::{ErrorObject, FrameError};
        use switchboard_mcp::schema::SchemaViolation;
        use switchboard_mcp::transport::{CloseReason, TransportError};
        let s = |x: &str| x.to_owned();
        let method = || s("tools/call");
        let request = ClientError::Request;
        let violations = || {
            vec![SchemaViolation {
                pointer: s("/text"),
                message: s("42 is not of type \"string\""),
            }]
        };
        let result = || {
            Box::new(serde_json::from_value(serde_json::json!({"content": []})).expect("a result"))
        };
        [
            request(RequestError::Server {
                method: method(),
                error: ErrorObject::new(-32603, "disk full"),
            }),
            request(RequestError::Timeout {
                method: method(),
                after: Duration::from_millis(30_004),
            }),
            request(RequestError::Cancelled { method: method() }),
            request(RequestError::Transport {
                method: method(),
                error: TransportError::Connect {
                    url: s("http://127.0.0.1:9/mcp"),
                    detail: s("Connection refused"),
                },
            }),
            request(RequestError::Closed(std::sync::Arc::new(CloseReason {
                detail: s("the server exited"),
                exit: Some(s("exit status: 1")),
                stderr_tail: vec![s("panic: out of memory")],
                unauthorized: false,
            }))),
            request(RequestError::Unreadable {
                method: method(),
                error: FrameError::TooLarge {
                    bytes: 70_000_000,
                    limit: 67_108_864,
                },
            }),
            request(RequestError::Unreadable {
                method: method(),
                error: FrameError::NotJson(s("expected value at line 1 column 1")),
            }),
            ClientError::InvalidResult {
                method: "tools/list",
                detail: s("missing field `tools`"),
            },
            ClientError::InvalidArguments {
                tool: s("delete_note"),
                errors: violations(),
            },
            ClientError::InvalidStructuredContent {
                tool: s("get_weather"),
                errors: violations(),
                result: result(),
            },
            ClientError::MissingStructuredContent {
                tool: s("get_weather"),
                result: result(),
            },
            ClientError::UnusableSchema {
                tool: s("get_weather"),
                role: switchboard_mcp::client::tool_schemas::SchemaRole::Output,
                error: switchboard_mcp::schema::SchemaError::Invalid(s("\"type\": 7 is not valid")),
            },
            ClientError::NotOffered("prompts"),
            ClientError::NoSharedRevision {
                supported: s("2024-10-07"),
            },
            ClientError::UnsupportedProtocolVersion {
                method: "tools/list",
                requested: s("2026-07-28"),
                supported: s("2025-06-18"),
            },
            ClientError::TooManyPages {
                method: "tools/list",
                pages: 1000,
            },
        ]
    }

    fn samples() -> Vec<CommandError> {
        let s = |x: &str| x.to_owned();
        let (server, tool) = (s("demo"), s("delete_note"));
        let form = |e: FormError| CommandError::from(ServersError::Form(e));
        let provider = |e: ProviderFormError| CommandError::from(ModelsError::Form(e));
        [
            ServersError::BrokenConfig(ConfigProblem::Invalid {
                path: s("/home/ada/.config/switchboard/config.json"),
                line: 3,
                column: 7,
                message: s("expected `,` or `}`"),
            })
            .into(),
            ServersError::NoServer(s("gone")).into(),
            ServersError::NotRunning(s("demo")).into(),
            ServersError::ShuttingDown.into(),
            TrustError::Answer(AnswerError::NotPending(1234)).into(),
            ServersError::NoSignIn(s("demo")).into(),
            ServersError::NotLocal(s("remote")).into(),
            ServersError::SignIn {
                server: s("remote"),
                detail: (&switchboard_mcp::auth::AuthError::Denied {
                    error: s("access_denied"),
                    description: None,
                })
                    .into(),
            }
            .into(),
            form(FormError::NoName),
            form(FormError::BadName(s("a b"))),
            form(FormError::Taken(s("demo"))),
            form(FormError::NoCommand),
            form(FormError::BadUrl(s("ftp://x"))),
            form(FormError::Duplicate {
                what: "header",
                key: s("X-Key"),
            }),
            form(FormError::EmptySecret {
                what: "env",
                key: s("TOKEN"),
            }),
            form(FormError::BadToken),
            form(FormError::SecretWithoutClient),
            form(FormError::SecretWithoutIssuer),
            form(FormError::NoClientId),
            form(FormError::NoClientCredential),
            form(FormError::BadKey(s("not PEM"))),
            form(FormError::NoFile("the ID token file")),
            form(FormError::NoIdentityProvider),
            form(FormError::Changed(s("demo"))),
            ExplorerError::NoTool {
                server: server.clone(),
                tool: tool.clone(),
            }
            .into(),
            ExplorerError::ToolDisabled {
                server: server.clone(),
                tool: tool.clone(),
            }
            .into(),
            ExplorerError::NotForViews {
                server: server.clone(),
                tool: tool.clone(),
            }
            .into(),
            ExplorerError::Call(CallError::Client(ClientError::Request(
                switchboard_mcp::connection::RequestError::Server {
                    method: s("tools/call"),
                    error: switchboard_mcp::jsonrpc::ErrorObject::new(-32602, "Unknown tool: nope"),
                },
            )))
            .into(),
            ExplorerError::Call(CallError::Denied {
                tool: tool.clone(),
                decided_by: DecidedBy::Timeout,
            })
            .into(),
            ExplorerError::Call(CallError::Cancelled { tool: tool.clone() }).into(),
        ]
        .into_iter()
        .chain(request_failures().map(|e| ExplorerError::Client(e).into()))
        .chain([
            ModelsError::NoProvider(s("local")).into(),
            ModelsError::Provider(switchboard_providers::Error::Auth {
                status: Some(401),
                message: s("invalid x-api-key"),
            })
            .into(),
            provider(ProviderFormError::NoName),
            provider(ProviderFormError::BadName(s("a/b"))),
            provider(ProviderFormError::Taken(s("local"))),
            provider(ProviderFormError::EmptyKey),
            provider(ProviderFormError::KeyGone(s("local"))),
            provider(ProviderFormError::Changed(s("local"))),
            TrustError::NotShared {
                server: s("demo"),
                folder: s("/home/ada/notes"),
            }
            .into(),
            ChatError::NoModel.into(),
            ChatError::NoModelOf(s("local")).into(),
            ChatError::NoSuchModel(Chosen {
                provider: s("local"),
                model: s("big"),
            })
            .into(),
            ChatError::ChatRunning.into(),
            ChatError::DraftStopped.into(),
            AgentError::NoAgent(s("Cursor")).into(),
            AgentError::BadAgentName(s("")).into(),
            ServersError::Install(InstallError::Missing(Sets::Environment {
                name: s("WEATHER_API_KEY"),
            }))
            .into(),
            ServersError::Install(InstallError::NotAChoice {
                sets: Sets::Argument {
                    name: Some(s("--units")),
                },
                choices: s("metric, imperial"),
            })
            .into(),
            ServersError::Install(InstallError::BadFormat {
                sets: Sets::VariableOf {
                    name: s("token"),
                    of: Box::new(Sets::Header {
                        name: s("Authorization"),
                    }),
                },
                format: s("number"),
                value: s("ten"),
            })
            .into(),
            ServersError::Install(InstallError::NotPlain(Sets::Address { name: s("tenant") }))
                .into(),
        ])
        .collect()
    }

    #[test]
    fn the_windows_samples_of_each_kind_are_current() {
        let samples = samples();
        assert!(
            samples.iter().all(|e| e.told.is_some()),
            "each sample is told by kind: {samples:?}"
        );
        current(SAMPLES, &samples);
    }

    /// Fails when the samples in `path` are not `samples` (writes them, when asked to).
    fn current(path: &str, samples: &impl serde::Serialize) {
        let fresh = serde_json::to_string_pretty(samples).expect("samples") + "\n";
        if std::env::var_os("SWITCHBOARD_WRITE_BINDINGS").is_some() {
            std::fs::write(path, &fresh).expect("write the samples");
            return;
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == fresh,
            "{path} is stale: run `SWITCHBOARD_WRITE_BINDINGS=1 cargo test -p switchboard told`"
        );
    }

    /// Each decider and outcome as the audit trail words them in English, beside its kind,
    /// and each asker as it words them:
    /// the window, which words them in the person's language, is checked against them
    /// (`ui/src/activity/decisions.test.ts`).
    const DECIDED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ui/src/testing/decided.json");

    fn decided() -> serde_json::Value {
        use switchboard_core::decisions::{DecidedBy, Outcome, Reach, Scope};
        let rules = [
            (true, Reach::Tool, Scope::Always),
            (false, Reach::Server, Scope::Session),
            (true, Reach::Reads, Scope::Session),
        ];
        let deciders = [
            DecidedBy::Person,
            DecidedBy::OwnCall,
            DecidedBy::TrustedReadOnly,
            DecidedBy::SamplingWithoutReview,
            DecidedBy::Pace { limit: 60 },
            DecidedBy::Agent {
                name: "Cursor".into(),
            },
            DecidedBy::Remembered,
            DecidedBy::NotChosenYet,
            DecidedBy::Caller,
            DecidedBy::Timeout,
            DecidedBy::NoOneToAsk,
            DecidedBy::ServerWithdrew,
            DecidedBy::AgentRemoved,
            DecidedBy::WrongAnswer,
            DecidedBy::Recorded("an old record".into()),
        ]
        .into_iter()
        .chain(rules.map(|(allow, reach, scope)| DecidedBy::Rule {
            allow,
            reach,
            scope,
        }));
        let outcomes = [
            Outcome::Unknown,
            Outcome::Succeeded,
            Outcome::ToolError,
            Outcome::Failed("the server went away".into()),
            Outcome::Recorded("declined".into()),
        ];
        use switchboard_core::decisions::Origin;
        let askers = [
            Origin::Person,
            Origin::Model {
                conversation: "7".into(),
                title: "Trip to Kyoto".into(),
            },
            Origin::Agent {
                name: "Cursor".into(),
            },
            Origin::App {
                server: "board".into(),
            },
        ];
        serde_json::json!({
            "askedBy": askers.map(|o| o.describe()),
            "decidedBy": deciders.map(|d| serde_json::json!({"value": d, "text": d.to_string()})).collect::<Vec<_>>(),
            "outcome": outcomes.map(|o| serde_json::json!({"value": o, "text": o.to_string()})),
        })
    }

    #[test]
    fn the_windows_samples_of_each_decider_and_outcome_are_current() {
        current(DECIDED, &decided());
    }

    /// What the host tells the window by kind beside its own English for each: why a
    /// server is in its state and why its revision was chosen, why a model's tool call
    /// failed, what an import warns of or skips, why the gateway does not listen, the tools
    /// left out of a model's offer, the notes in a sandboxed server's log. The window, which
    /// says them in the person's language, is checked against them word for word
    /// (`ui/src/testing/hostWords.test.ts`, and where each is shown).
    const REASONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ui/src/testing/reasons.json");

    /// One of each way signing in fails, as the engine says it.
    fn sign_in_failures() -> Vec<switchboard_mcp::auth::AuthError> {
        use switchboard_mcp::auth::AuthError;
        let s = |x: &str| x.to_owned();
        let issuer = || s("https://login.example");
        vec![
            AuthError::Discovery {
                url: s("https://tracker.example/.well-known/oauth-protected-resource"),
                detail: s("HTTP 404"),
            },
            AuthError::ResourceMismatch {
                server: s("https://tracker.example/mcp"),
                published: s("https://elsewhere.example/mcp"),
            },
            AuthError::Unreachable {
                url: s("http://10.0.0.5/authorize"),
                reason: s("a private address, and the server is not on one"),
            },
            AuthError::NoAuthorizationServer,
            AuthError::IssuerMismatch {
                expected: issuer(),
                claimed: s("https://evil.example"),
            },
            AuthError::PkceUnsupported { issuer: issuer() },
            AuthError::NoRegistration { issuer: issuer() },
            AuthError::SecretForAnotherIssuer {
                entered: Some(s("https://other.example")),
                named: issuer(),
            },
            AuthError::SecretForAnotherIssuer {
                entered: None,
                named: issuer(),
            },
            AuthError::CredentialsForAnotherIssuer {
                entered: s("https://other.example"),
                named: issuer(),
            },
            AuthError::Registration {
                issuer: issuer(),
                detail: s("HTTP 400: invalid_redirect_uri"),
            },
            AuthError::StateMismatch,
            AuthError::IssuerResponseMismatch {
                expected: issuer(),
                found: Some(s("https://evil.example")),
            },
            AuthError::IssuerResponseMismatch {
                expected: issuer(),
                found: None,
            },
            AuthError::Denied {
                error: s("access_denied"),
                description: Some(s("The user denied the request")),
            },
            AuthError::Denied {
                error: s("access_denied"),
                description: None,
            },
            AuthError::NoCode,
            AuthError::Token {
                url: s("https://login.example/token"),
                detail: s("invalid_grant"),
            },
            AuthError::StepUpLimit {
                attempts: 3,
                scopes: s("repo admin"),
            },
            AuthError::Forbidden {
                detail: s("not for this account"),
            },
            AuthError::SignedOut,
            AuthError::NotSignedInYet,
            AuthError::Declined,
            AuthError::Cancelled,
            AuthError::BrowserDidNotReturn { millis: 600_000 },
            AuthError::BrowserDidNotReturn { millis: 250 },
            AuthError::not_completed("no loopback port: Address already in use"),
            AuthError::Store {
                detail: s("the keyring is locked"),
            },
        ]
    }

    fn reasons() -> serde_json::Value {
        use switchboard_chat::CallFailure;
        use switchboard_core::sandbox::{NoSandbox, SandboxNote};
        use switchboard_core::server_events::{Reason, ServerState};
        let s = |x: &str| x.to_owned();
        let reasons = [
            Reason::Exited {
                exit: s("exit status: 3"),
                last_line: Some(s("fatal: no token")),
            },
            Reason::Exited {
                exit: s("signal: 9 (SIGKILL)"),
                last_line: None,
            },
            Reason::NotStarted {
                program: s("/opt/mcp/no-such-server"),
                detail: s("No such file or directory (os error 2)"),
            },
            Reason::Unreachable {
                url: s("http://127.0.0.1:9/mcp"),
                detail: s("Connection refused"),
            },
            Reason::MissingSecret {
                secret: s("weather/env/API_KEY"),
            },
            Reason::from(&ClientError::InvalidResult {
                method: "initialize",
                detail: s("missing field `protocolVersion`"),
            }),
            Reason::from(&ClientError::Request(
                switchboard_mcp::connection::RequestError::Timeout {
                    method: s("initialize"),
                    after: std::time::Duration::from_secs(30),
                },
            )),
            Reason::said("the server's answer could not be sent: stdin is closed"),
            Reason::NotOnPath { program: s("uvx") },
            Reason::BundledMissing {
                program: s("demo"),
                folder: s("/opt/switchboard"),
            },
            Reason::BundledWritable {
                program: s("demo"),
                folder: s("/tmp/switchboard"),
            },
            Reason::CouldNotMake {
                folder: s("/home/ada/.cache/switchboard/npm"),
                detail: s("Permission denied (os error 13)"),
            },
            Reason::NoSignInWaiting,
            Reason::ServerStopped,
            Reason::HostStopped,
            Reason::NoSandbox {
                why: NoSandbox::NoneCanRun {
                    bubblewrap: None,
                    landlock: s("the kernel has no Landlock"),
                },
            },
            Reason::NoSandbox {
                why: NoSandbox::NoneCanRun {
                    bubblewrap: Some(s("bwrap: setting up uid map: Permission denied")),
                    landlock: s("the kernel has no Landlock"),
                },
            },
            Reason::NoSandbox {
                why: NoSandbox::BubblewrapMissing,
            },
            Reason::NoSandbox {
                why: NoSandbox::LandlockCannot {
                    why: s("the kernel has no Landlock"),
                },
            },
        ];
        let failed = |reason: &Reason, gave_up_after| ServerState::Failed {
            reason: reason.clone(),
            gave_up_after,
            stderr_tail: Vec::new(),
        };
        let states = reasons
            .iter()
            .map(|reason| failed(reason, None))
            .chain([
                failed(&reasons[0], Some(1)),
                failed(&reasons[1], Some(5)),
                ServerState::Restarting {
                    attempt: 2,
                    backoff_ms: 2000,
                    reason: reasons[0].clone(),
                },
            ])
            .chain(
                [
                    Reason::AsksForAuthorization {
                        server: s("tracker"),
                        again: false,
                    },
                    Reason::AsksForAuthorization {
                        server: s("tracker"),
                        again: true,
                    },
                ]
                .into_iter()
                .chain(
                    sign_in_failures()
                        .iter()
                        .map(Reason::from)
                        .collect::<Vec<_>>(),
                )
                .map(|detail| ServerState::AuthRequired {
                    detail,
                    token_instead: false,
                }),
            );
        let calls = [
            CallFailure::Stopped,
            CallFailure::NotRunning { server: s("demo") },
            CallFailure::NoTool {
                name: s("demo__nope"),
            },
            CallFailure::NotAnObject {
                arguments: s("[1,2]"),
            },
            CallFailure::NoSkill {
                server: s("demo"),
                name: s("pdf"),
            },
            CallFailure::Request {
                failure: RequestFailure::NoAnswer {
                    method: s("tools/call"),
                    seconds: s("30.0"),
                },
            },
            CallFailure::said("the call to demo__echo was cancelled before it was allowed"),
        ];
        use switchboard_core::config::{ImportWarning, Place};
        use switchboard_desk::Skipped;
        let warnings = [
            ImportWarning::NotTrusted { server: s("notes") },
            ImportWarning::UnusedSetting {
                server: s("linear"),
                field: s("autoApprove"),
                value: s("[\"x\"]"),
            },
            ImportWarning::InputKeptAsWritten { server: s("a") },
            ImportWarning::MixedValue {
                server: s("s"),
                place: Place::Env,
                key: s("KEY"),
                text: s("${input:k}-${env:USER}"),
            },
        ];
        let skipped = [
            Skipped::NotSelected,
            Skipped::Taken { name: s("github") },
            Skipped::ClaimedTwice { name: s("twin") },
        ];
        use switchboard_desk::GatewayProblem;
        let taken = |renewed, not_renewed: &[&str]| GatewayProblem::PortTaken {
            error: s("127.0.0.1:47321 is taken by another program"),
            port: 47321,
            renewed,
            not_renewed: not_renewed.iter().map(|n| s(n)).collect(),
        };
        let gateway = [
            GatewayProblem::CannotListen {
                error: s("Permission denied (os error 13)"),
            },
            taken(0, &[]),
            taken(1, &[]),
            taken(3, &["Cursor: the keyring is locked"]),
        ];
        let notes = [
            SandboxNote::NoNetwork,
            SandboxNote::OnlyShared,
            SandboxNote::Rebound,
        ];
        use switchboard_mcp::client::{EraReason, Probed};
        let era = |probed: Vec<Probed>, initialized: Option<&str>| EraReason {
            probed,
            initialized: initialized.map(s),
        };
        let eras = [
            era(
                vec![Probed::Answered {
                    version: s("2026-07-28"),
                }],
                None,
            ),
            era(Vec::new(), Some("2025-11-25")),
            era(
                vec![Probed::Speaks {
                    supported: s("2025-06-18, 2025-11-25"),
                }],
                Some("2025-11-25"),
            ),
            era(
                vec![Probed::Refused {
                    code: -32601,
                    message: s("Method not found"),
                }],
                Some("2025-06-18"),
            ),
            era(
                vec![Probed::NoAnswer {
                    seconds: s("2.5"),
                    after_ping: true,
                }],
                Some("2025-06-18"),
            ),
            era(
                vec![
                    Probed::NoAnswer {
                        seconds: s("10"),
                        after_ping: false,
                    },
                    Probed::Answered {
                        version: s("2026-07-28"),
                    },
                ],
                None,
            ),
            era(vec![Probed::HttpStatus { status: 405 }], Some("2025-03-26")),
            era(
                vec![Probed::Failed {
                    detail: s("the server's event stream ended before the response arrived"),
                }],
                Some("2025-06-18"),
            ),
            era(vec![Probed::Unreadable], Some("2025-06-18")),
            era(
                vec![Probed::NotADiscovery {
                    detail: s("missing field `supportedVersions`"),
                }],
                Some("2025-11-25"),
            ),
            era(
                vec![Probed::NoStateless {
                    supported: s("2031-01-01"),
                }],
                Some("2025-11-25"),
            ),
        ];
        use switchboard_desk::chat::{LeftOut, LeftOutTool};
        let tool = |server: &str, tool: &str| LeftOutTool {
            server: s(server),
            tool: s(tool),
        };
        let left_out = [
            LeftOut {
                on: 131,
                named: vec![
                    tool("big", "t128"),
                    tool("big", "t129"),
                    tool("demo", "echo"),
                ],
                more: 0,
            },
            LeftOut {
                on: 140,
                named: (128..133).map(|n| tool("big", &format!("t{n}"))).collect(),
                more: 7,
            },
        ];
        use std::time::Duration;
        use switchboard_providers::Error as Provider;
        let providers = [
            Provider::Auth {
                status: Some(401),
                message: s("invalid x-api-key"),
            },
            Provider::RateLimited {
                message: s("slow down"),
                retry_after: Some(Duration::from_secs(30)),
            },
            Provider::RateLimited {
                message: s("slow down"),
                retry_after: None,
            },
            Provider::Unavailable {
                status: Some(529),
                message: s("Overloaded"),
                retry_after: Some(Duration::from_millis(1500)),
            },
            Provider::Unavailable {
                status: None,
                message: s("stream error"),
                retry_after: None,
            },
            Provider::QuotaExceeded {
                status: Some(429),
                message: s("insufficient_quota"),
            },
            Provider::ContextTooLong {
                status: Some(400),
                message: s("prompt is too long"),
            },
            Provider::Refused {
                status: Some(404),
                kind: Some(s("not_found_error")),
                message: s("model: nope"),
            },
            Provider::Connection(s("could not connect: Connection refused")),
            Provider::MalformedResponse(s("missing field `choices`")),
            Provider::MalformedStream(s("the stream ended early")),
            Provider::Config(s("not a URL")),
        ];
        use switchboard_core::sqlite_file::Book;
        use switchboard_desk::FileNotice;
        let moved = |book, from: &str, to: &str| FileNotice::MovedAside {
            book,
            from: s(from),
            to: s(to),
            why: s("file is not a database"),
        };
        let file_notices = [
            moved(
                Book::AuditLog,
                "/home/ada/.local/share/switchboard/audit.sqlite",
                "/home/ada/.local/share/switchboard/audit.sqlite.corrupt-1764400000",
            ),
            moved(
                Book::Conversations,
                "/home/ada/.local/share/switchboard/conversations.sqlite",
                "/home/ada/.local/share/switchboard/conversations.sqlite.corrupt-1764400000",
            ),
            moved(
                Book::Tasks,
                "/home/ada/.local/share/switchboard/tasks.sqlite",
                "/home/ada/.local/share/switchboard/tasks.sqlite.corrupt-1764400000",
            ),
            FileNotice::NotKept {
                book: Book::Conversations,
                error: s("the conversations file could not be opened: disk I/O error"),
            },
            FileNotice::NotKept {
                book: Book::Tasks,
                error: s("the tasks file could not be opened: disk I/O error"),
            },
            FileNotice::RetentionUnread {
                key: s("auditRetentionDays"),
                value: s("\"a month\""),
            },
        ];
        use switchboard_core::registry::Unreadable;
        let unreadable = [
            Unreadable {
                name: None,
                position: 3,
                path: s("server.version"),
                error: s("invalid type: integer `2`, expected a string"),
            },
            Unreadable {
                name: Some(s("io.github.ada/weather")),
                position: 7,
                path: s("server.packages[0].transport"),
                error: s("missing field `type`"),
            },
        ];
        serde_json::json!({
            "registryUnreadable": unreadable.map(|u| serde_json::json!({"text": u.to_string(), "entry": u})),
            "fileNotices": file_notices.map(|n| serde_json::json!({"text": n.to_string(), "notice": n})),
            "troubles": providers.map(|e| serde_json::json!({"text": e.to_string(), "trouble": e.trouble()})),
            "leftOut": left_out.map(|l| serde_json::json!({"text": l.to_string(), "leftOut": l})),
            "eras": eras.map(|e| serde_json::json!({"text": e.to_string(), "reason": e})),
            "sandboxNotes": notes.map(|n| serde_json::json!({"text": n.text(), "note": n})),
            "gateway": gateway.map(|p| serde_json::json!({"text": p.to_string(), "problem": p})),
            "importWarnings": warnings.map(|w| serde_json::json!({"text": w.to_string(), "warning": w})),
            "skipped": skipped.map(|r| serde_json::json!({"text": r.to_string(), "reason": r})),
            "servers": states
                .map(|state| serde_json::json!({"why": state.why(), "state": state}))
                .collect::<Vec<_>>(),
            "calls": calls.map(|failure| serde_json::json!({"text": failure.to_string(), "failure": failure})),
        })
    }

    #[test]
    fn the_windows_samples_of_each_reason_a_server_or_a_call_failed_are_current() {
        current(REASONS, &reasons());
    }

    #[test]
    fn a_servers_refusal_is_not_told_by_kind_its_words_are_its_own() {
        let refused = CommandError::from(ExplorerError::BadRequest("no such prompt".into()));
        assert_eq!(refused.told, None);
        assert_eq!(refused.message, "no such prompt");
    }
}
