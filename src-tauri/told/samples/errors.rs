//! One real error of each kind the host tells (`ui/src/testing/told.json`).

use switchboard_core::agent_setup::{EditError, SetupError};
use switchboard_core::config::ConfigError;
use switchboard_core::links::LinkError;
use switchboard_core::sampling::Chosen;
use switchboard_core::secrets::{KeyringAction, SecretError};
use switchboard_core::views::ViewError;

use super::current;
use crate::CommandError;
use crate::told::*;
use switchboard_core::registry::{Sets, Way};
use switchboard_mcp::client::skills::SkillError;

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
    let result =
        || Box::new(serde_json::from_value(serde_json::json!({"content": []})).expect("a result"));
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
        ServersError::Install(InstallError::NotPlain(Sets::Address { name: s("tenant") })).into(),
    ])
    .chain([
        ServersError::Keyring(SecretError::Unavailable(s(
            "The name org.freedesktop.secrets was not provided by any .service files",
        )))
        .into(),
        form(FormError::Keyring(SecretError::Refused {
            action: KeyringAction::Store,
            name: s("demo/env/API_KEY"),
            detail: s("the collection is locked"),
        })),
        ModelsError::Config(ConfigError::Write {
            path: "/home/ada/.config/switchboard/config.json".into(),
            source: std::io::Error::from(std::io::ErrorKind::StorageFull),
        })
        .into(),
        ServersError::Config(ConfigError::Interrupted {
            path: "/home/ada/.config/switchboard/config.json".into(),
            why: s("the app is stopping"),
        })
        .into(),
        ModelsError::BadPrice.into(),
        ModelsError::PriceUnnamed.into(),
        ModelsError::BadProfile.into(),
        ModelsError::ProfileUnnamed.into(),
        provider(ProviderFormError::Keyring(SecretError::Refused {
            action: KeyringAction::Read,
            name: s("provider/local/api-key"),
            detail: s("the collection is locked"),
        })),
        AgentError::Keyring(SecretError::Refused {
            action: KeyringAction::Delete,
            name: s("agent/Cursor/token"),
            detail: s("the collection is locked"),
        })
        .into(),
    ])
    .chain(link_errors().map(|e| ServersError::Link(e).into()))
    .chain(view_errors().map(|e| ExplorerError::View(e).into()))
    .chain([(1, 1), (2, 2), (1, 0)].map(|(steps, opened)| {
        ExplorerError::StepsInBrowser {
            server: s("payments"),
            steps,
            opened,
        }
        .into()
    }))
    .chain(
        [
            InstallError::NoSuchWay(Way::Package(2)),
            InstallError::NoSuchWay(Way::Remote(0)),
            InstallError::Unsupported(s("nuget")),
            InstallError::LocalHttp(s("streamable-http")),
            InstallError::BadUrl(s("ftp://mcp.example")),
            InstallError::Twice(s("API_KEY")),
            InstallError::BadName {
                header: true,
                name: s("X Key"),
            },
            InstallError::BadName {
                header: false,
                name: s("1KEY"),
            },
        ]
        .map(|e| ServersError::Install(e).into()),
    )
    .chain(store_errors())
    .chain(skill_errors().map(|e| ExplorerError::Skill(e).into()))
    .chain(setup_errors().map(|e| AgentError::Setup(e).into()))
    .chain(registry_errors().map(|e| ServersError::Registry(e).into()))
    .chain(import_errors().map(|e| ServersError::Import(e).into()))
    .chain(install_link_errors().map(|e| ServersError::InstallLink(e).into()))
    .collect()
}

/// One of each way reading the registry fails.
fn registry_errors() -> [RegistryError; 9] {
    let s = |x: &str| x.to_owned();
    let url = || s("https://registry.modelcontextprotocol.io");
    [
        RegistryError::BadUrl(s("ftp://registry.example")),
        RegistryError::Unreachable {
            url: url(),
            reason: s("dns error: failed to lookup address information"),
        },
        RegistryError::TimedOut {
            url: url(),
            seconds: 20,
        },
        RegistryError::Redirected {
            url: url(),
            to: s("https://elsewhere.example/"),
        },
        RegistryError::Status {
            url: url(),
            status: s("503 Service Unavailable"),
            detail: Some(s("maintenance")),
        },
        RegistryError::Status {
            url: url(),
            status: s("404 Not Found"),
            detail: None,
        },
        RegistryError::NotFound {
            name: s("io.github.ada/weather"),
            version: s("9.9.9"),
        },
        RegistryError::NotTheApi {
            url: url(),
            reason: s("missing field `servers`"),
        },
        RegistryError::TooLarge {
            url: url(),
            mebibytes: 8,
        },
    ]
}

/// One of each way importing another host's configuration fails.
fn import_errors() -> [ImportError; 5] {
    let s = |x: &str| x.to_owned();
    [
        ImportError::NotJson(s("expected `:` at line 3 column 9")),
        ImportError::NoServers("mcpServers"),
        ImportError::UnknownFormat,
        ImportError::Server {
            name: s("github"),
            reason: s("it has neither a command nor a url"),
        },
        ImportError::Unanswered {
            server: s("github"),
            input: s("github_token"),
        },
    ]
}

/// One of each way a `switchboard://` link is refused.
fn install_link_errors() -> [InstallLinkError; 7] {
    let s = |x: &str| x.to_owned();
    [
        InstallLinkError::NotOurs,
        InstallLinkError::NotInstall,
        InstallLinkError::NoName,
        InstallLinkError::BadName(s("weather")),
        InstallLinkError::BadVersion(s("latest!")),
        InstallLinkError::Twice(s("name")),
        InstallLinkError::Unknown(s("run")),
    ]
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

#[test]
fn a_servers_refusal_is_not_told_by_kind_its_words_are_its_own() {
    let refused = CommandError::from(ExplorerError::BadRequest("no such prompt".into()));
    assert_eq!(refused.told, None);
    assert_eq!(refused.message, "no such prompt");
}

/// One of each way changing an app's configuration for an agent is refused.
fn setup_errors() -> [SetupError; 9] {
    let s = |x: &str| x.to_owned();
    let path = || std::path::PathBuf::from("/home/ada/.cursor/mcp.json");
    let unreadable = |error| SetupError::Unreadable {
        path: path(),
        error,
    };
    [
        unreadable(EditError::Malformed {
            line: 4,
            column: 2,
            message: s("expected `,` or `}`"),
        }),
        unreadable(EditError::NotAnObject),
        unreadable(EditError::ServersNotAnObject("mcpServers")),
        SetupError::AlreadySetUp {
            app: "Cursor",
            agent: s("Cursor"),
            path: path(),
        },
        SetupError::Changed { path: path() },
        SetupError::Read {
            path: path(),
            error: s("Permission denied (os error 13)"),
        },
        SetupError::Write {
            path: path(),
            error: s("No space left on device (os error 28)"),
        },
        SetupError::NoHome,
        SetupError::Interrupted(s("task 7 panicked")),
    ]
}

/// One of each way a link a server gave is refused.
fn link_errors() -> [LinkError; 3] {
    let s = |x: &str| x.to_owned();
    [
        LinkError::Unreadable {
            link: s("htp//example"),
            reason: s("relative URL without a base"),
        },
        LinkError::NotWeb { scheme: s("file") },
        LinkError::Credentials,
    ]
}

/// One of each way a server's view cannot be shown (but a failed read, told as the
/// request's failure).
fn view_errors() -> [ViewError; 6] {
    let s = |x: &str| x.to_owned();
    let uri = || s("ui://board/main.html");
    [
        ViewError::NotUi(s("https://board.example/main.html")),
        ViewError::NotHtml {
            uri: uri(),
            found: Some(s("text/plain")),
        },
        ViewError::Empty(uri()),
        ViewError::TooLarge {
            uri: uri(),
            bytes: 9_000_000,
            most: 5_242_880,
        },
        ViewError::NotText(uri()),
        ViewError::NotFile(s("ui://board/logo.png")),
    ]
}

/// One of each way a skill fails its manifest's checks.
fn skill_errors() -> [SkillError; 5] {
    let s = |x: &str| x.to_owned();
    let uri = || s("skill://pdf/SKILL.md");
    [
        SkillError::NotListed(s("skill://pdf/extra.py")),
        SkillError::Size {
            uri: uri(),
            listed: 1200,
            found: 1310,
        },
        SkillError::Digest { uri: uri() },
        SkillError::Frontmatter {
            uri: uri(),
            why: s("its name is \"pdf-tools\", not \"pdf\""),
        },
        SkillError::Empty { uri: uri() },
    ]
}

/// One of each way a file the host keeps fails, and a conversation or a task not found.
fn store_errors() -> [CommandError; 10] {
    use std::io::{Error, ErrorKind};
    use switchboard_chat::ConversationError;
    use switchboard_core::audit::AuditError;
    use switchboard_core::sqlite_file::FileFault;
    use switchboard_desk::DeskError;
    use switchboard_desk::tasks::TaskBookError;
    let s = |x: &str| x.to_owned();
    let path = |file: &str| format!("/home/ada/.local/share/switchboard/{file}");
    let conversation = |e| ChatError::Conversation(e).into();
    let locked =
        rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(5), Some(s("database is locked")));
    [
        DeskError::Audit(AuditError::File(FileFault::Database {
            path: path("audit.sqlite"),
            source: locked,
        }))
        .into(),
        conversation(ConversationError::File(FileFault::MoveAside {
            path: path("conversations.sqlite"),
            why: s("file is not a database"),
            source: Error::from(ErrorKind::PermissionDenied),
        })),
        ExplorerError::Tasks(TaskBookError::File(FileFault::Private {
            path: path("tasks.sqlite"),
            source: Error::from(ErrorKind::PermissionDenied),
        }))
        .into(),
        conversation(ConversationError::File(FileFault::Interrupted(s(
            "the app is stopping",
        )))),
        conversation(ConversationError::NotFound(7)),
        conversation(ConversationError::NoSuchMessages(7)),
        conversation(ConversationError::NotKept),
        ExplorerError::Tasks(TaskBookError::NotFound(3)).into(),
        ExplorerError::Tasks(TaskBookError::File(FileFault::Interrupted(s(
            "the app is stopping",
        ))))
        .into(),
        DeskError::Audit(AuditError::File(FileFault::Interrupted(s(
            "its writer stopped",
        ))))
        .into(),
    ]
}
