//! Why a server stopped, restarts or waits for the person: a kind the window words in the
//! person's language, with what came from elsewhere (the system's words, the server's last
//! line, another part's message) kept as it came. `Display` is the host's English, for its
//! log and the command line.

use std::fmt;

use serde::Serialize;
use switchboard_mcp::auth::AuthError;
use switchboard_mcp::client::ClientError;
use switchboard_mcp::connection::RequestError;
use switchboard_mcp::transport::{CloseReason, TransportError};

use super::RequestFailure;
use crate::sandbox::NoSandbox;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Reason {
    /// The program ended: how, in the system's words ("exit status: 3"), and the last line
    /// it wrote to stderr.
    Exited {
        exit: String,
        last_line: Option<String>,
    },
    /// The program could not be started: which, and the system's words.
    NotStarted { program: String, detail: String },
    /// The program to run in a sandbox is not on the PATH.
    NotOnPath { program: String },
    /// A program that comes with the app (the demo server) is not beside it: where it looked.
    BundledMissing { program: String, folder: String },
    /// A program that comes with the app was refused: anyone may write where it is.
    BundledWritable { program: String, folder: String },
    /// A folder the server needs could not be made: the system's words.
    CouldNotMake { folder: String, detail: String },
    /// The server's address could not be reached: the system's words.
    Unreachable { url: String, detail: String },
    /// A secret of its configuration is not in the keyring.
    MissingSecret { secret: String },
    /// The server asks for authorization: at the start, or again once it had let the
    /// person in.
    AsksForAuthorization { server: String, again: bool },
    /// Signing in failed or was not completed: why, in the engine's kinds.
    SignIn { failure: AuthError },
    /// No sign-in of the server waits for the browser (to cancel).
    NoSignInWaiting,
    /// The server was stopped before the sign-in completed.
    ServerStopped,
    /// The host stopped before the sign-in completed.
    HostStopped,
    /// It must run in a sandbox, and none can be built here.
    NoSandbox { why: NoSandbox },
    /// A request of the start (`initialize`, the first listings) came to nothing.
    Request { failure: Box<RequestFailure> },
    /// Another part's words, as they came.
    Said { text: String },
}

impl Reason {
    pub fn said(text: impl Into<String>) -> Self {
        Self::Said { text: text.into() }
    }

    /// The same reason with each of its texts passed through `f` (to mask what they hold).
    pub fn map_texts(self, f: impl Fn(&str) -> String + Copy) -> Self {
        match self {
            Self::Exited { exit, last_line } => Self::Exited {
                exit,
                last_line: last_line.as_deref().map(&f),
            },
            Self::NotStarted { program, detail } => Self::NotStarted {
                program: f(&program),
                detail: f(&detail),
            },
            Self::Unreachable { url, detail } => Self::Unreachable {
                url: f(&url),
                detail: f(&detail),
            },
            Self::SignIn { failure } => Self::SignIn {
                failure: masked(failure, f),
            },
            Self::CouldNotMake { folder, detail } => Self::CouldNotMake {
                folder,
                detail: f(&detail),
            },
            Self::Said { text } => Self::Said { text: f(&text) },
            Self::Request { failure } => Self::Request {
                failure: Box::new(failure.map_texts(f)),
            },
            other @ (Self::MissingSecret { .. }
            | Self::AsksForAuthorization { .. }
            | Self::NoSandbox { .. }
            | Self::NoSignInWaiting
            | Self::ServerStopped
            | Self::HostStopped
            | Self::NotOnPath { .. }
            | Self::BundledMissing { .. }
            | Self::BundledWritable { .. }) => other,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Exited { exit, last_line } => {
                write!(f, "the server exited ({exit})")?;
                match last_line {
                    Some(line) => write!(f, "; last stderr line: {line}"),
                    None => Ok(()),
                }
            }
            Self::NotStarted { program, detail } => {
                write!(f, "could not start {program:?}: {detail}")
            }
            Self::NotOnPath { program } => write!(f, "{program} was not found on the PATH"),
            Self::BundledMissing { program, folder } => write!(
                f,
                "the bundled {program} is not beside the app (looked in {folder})"
            ),
            Self::BundledWritable { program, folder } => write!(
                f,
                "refused the bundled {program}: anyone may write to {folder}"
            ),
            Self::CouldNotMake { folder, detail } => write!(f, "could not make {folder}: {detail}"),
            Self::Unreachable { url, detail } => write!(f, "could not connect to {url}: {detail}"),
            Self::MissingSecret { secret } => write!(
                f,
                "the secret {secret:?} is not in the keyring; set it again in the server's settings"
            ),
            Self::AsksForAuthorization { server, again } => write!(
                f,
                "{server} asks for authorization{}",
                if *again { " again" } else { "" }
            ),
            Self::SignIn { failure } => write!(f, "{failure}"),
            Self::NoSignInWaiting => f.write_str("no sign-in waits for the browser"),
            Self::ServerStopped => f.write_str("the server was stopped"),
            Self::HostStopped => f.write_str("the host stopped"),
            Self::NoSandbox { why } => write!(f, "{why}"),
            Self::Request { failure } => write!(f, "{failure}"),
            Self::Said { text } => f.write_str(text),
        }
    }
}

impl From<&CloseReason> for Reason {
    fn from(closed: &CloseReason) -> Self {
        match &closed.exit {
            Some(exit) => Self::Exited {
                exit: exit.clone(),
                last_line: closed.stderr_tail.last().cloned(),
            },
            None => Self::said(closed.to_string()),
        }
    }
}

impl From<&ClientError> for Reason {
    fn from(error: &ClientError) -> Self {
        match error {
            ClientError::Request(RequestError::Closed(closed)) => closed.as_ref().into(),
            ClientError::Request(RequestError::Transport {
                error: error @ TransportError::Connect { .. },
                ..
            }) => error.into(),
            other => match RequestFailure::from(other) {
                RequestFailure::Said { text } => Self::Said { text },
                failure => Self::Request {
                    failure: Box::new(failure),
                },
            },
        }
    }
}

impl From<&TransportError> for Reason {
    fn from(error: &TransportError) -> Self {
        match error {
            TransportError::Connect { url, detail } => Self::Unreachable {
                url: url.clone(),
                detail: detail.clone(),
            },
            other => Self::said(other.to_string()),
        }
    }
}

impl From<&AuthError> for Reason {
    fn from(error: &AuthError) -> Self {
        Self::SignIn {
            failure: error.clone(),
        }
    }
}

/// A sign-in's failure with the texts that came from elsewhere (addresses, an
/// authorization server's words) passed through `f`.
fn masked(error: AuthError, f: impl Fn(&str) -> String) -> AuthError {
    match error {
        AuthError::Discovery { url, detail } => AuthError::Discovery {
            url: f(&url),
            detail: f(&detail),
        },
        AuthError::Unreachable { url, reason } => AuthError::Unreachable {
            url: f(&url),
            reason,
        },
        AuthError::Registration { issuer, detail } => AuthError::Registration {
            issuer,
            detail: f(&detail),
        },
        AuthError::Denied { error, description } => AuthError::Denied {
            error,
            description: description.as_deref().map(&f),
        },
        AuthError::Token { url, detail } => AuthError::Token {
            url: f(&url),
            detail: f(&detail),
        },
        AuthError::NotCompleted { why } => AuthError::NotCompleted { why: f(&why) },
        other => other,
    }
}
