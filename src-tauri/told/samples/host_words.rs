//! What the host tells the window by kind beside its own English for each
//! (`ui/src/testing/reasons.json`): why a server is in its state and why its revision was
//! chosen, why a model's tool call failed, what an import warns of or skips, why the
//! gateway does not listen, the tools left out of a model's offer, the notes in a
//! sandboxed server's log, what went wrong with a provider, what the host did about a file
//! it keeps, a registry entry that does not read. The window, which says them in the
//! person's language, is checked against them word for word
//! (`ui/src/testing/hostWords.test.ts`, and where each is shown).

use std::time::Duration;

use serde_json::{Value, json};
use switchboard_chat::CallFailure;
use switchboard_core::config::{ImportWarning, Place};
use switchboard_core::registry::Unreadable;
use switchboard_core::sandbox::{NoSandbox, SandboxNote};
use switchboard_core::server_events::{Reason, RequestFailure, ServerState};
use switchboard_core::sqlite_file::{Book, MovedAside};
use switchboard_desk::chat::{LeftOut, LeftOutTool};
use switchboard_desk::{FileNotice, GatewayProblem, Skipped};
use switchboard_mcp::auth::AuthError;
use switchboard_mcp::client::{ClientError, EraReason, Probed};
use switchboard_providers::Error as Provider;

use super::current;

const REASONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ui/src/testing/reasons.json");

#[test]
fn the_windows_samples_of_each_reason_a_server_or_a_call_failed_are_current() {
    current(
        REASONS,
        &json!({
            "servers": servers(),
            "eras": eras(),
            "calls": calls(),
            "importWarnings": import_warnings(),
            "skipped": skipped(),
            "gateway": gateway(),
            "leftOut": left_out(),
            "sandboxNotes": sandbox_notes(),
            "troubles": troubles(),
            "fileNotices": file_notices(),
            "registryUnreadable": registry_unreadable(),
            // A Markdown export's words when the window gives none.
            "exportWords": switchboard_desk::ExportWords::default(),
        }),
    );
}

fn s(x: &str) -> String {
    x.to_owned()
}

/// Each state a server can fail, restart or wait for sign-in in, with why.
fn servers() -> Value {
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
    json!(
        states
            .map(|state| json!({"why": state.why(), "state": state}))
            .collect::<Vec<_>>()
    )
}

/// One of each way signing in fails, as the engine says it.
fn sign_in_failures() -> Vec<AuthError> {
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

/// Why a server's protocol revision was chosen.
fn eras() -> Value {
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
    json!(eras.map(|e| json!({"text": e.to_string(), "reason": e})))
}

/// Why a model's tool call failed.
fn calls() -> Value {
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
    json!(calls.map(|failure| json!({"text": failure.to_string(), "failure": failure})))
}

/// What an import warns of.
fn import_warnings() -> Value {
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
    json!(warnings.map(|w| json!({"text": w.to_string(), "warning": w})))
}

/// Why an import skips a server.
fn skipped() -> Value {
    let skipped = [
        Skipped::NotSelected,
        Skipped::Taken { name: s("github") },
        Skipped::ClaimedTwice { name: s("twin") },
    ];
    json!(skipped.map(|r| json!({"text": r.to_string(), "reason": r})))
}

/// Why agents cannot reach the gateway.
fn gateway() -> Value {
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
    json!(gateway.map(|p| json!({"text": p.to_string(), "problem": p})))
}

/// The tools left out of a model's offer.
fn left_out() -> Value {
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
    json!(left_out.map(|l| json!({"text": l.to_string(), "leftOut": l})))
}

/// The notes in a sandboxed server's log.
fn sandbox_notes() -> Value {
    let notes = [
        SandboxNote::NoNetwork,
        SandboxNote::OnlyShared,
        SandboxNote::Rebound,
    ];
    json!(notes.map(|n| json!({"text": n.text(), "note": n})))
}

/// What went wrong with a model's provider.
fn troubles() -> Value {
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
    json!(providers.map(|e| json!({"text": e.to_string(), "trouble": e.trouble()})))
}

/// What the host did about a file it keeps.
fn file_notices() -> Value {
    let moved = |book, from: &str, to: &str| {
        FileNotice::MovedAside(MovedAside {
            from: from.into(),
            to: to.into(),
            why: s("file is not a database"),
            book,
        })
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
    json!(file_notices.map(|n| json!({"text": n.to_string(), "notice": n})))
}

/// A registry entry that does not read.
fn registry_unreadable() -> Value {
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
    json!(unreadable.map(|u| json!({"text": u.to_string(), "entry": u})))
}
