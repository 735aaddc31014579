//! Why signing in to a server failed, in variants a caller branches on: some call for
//! another way in (a personal access token), some for asking the person again, some are
//! an authorization server that cannot be trusted.

/// A failure of the authorization client. Serialized by kind, for a window to say in its
/// person's language; `Display` is the engine's English.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum AuthError {
    /// A metadata document or endpoint could not be fetched or read.
    #[error("could not read {url}: {detail}")]
    Discovery { url: String, detail: String },
    /// The protected resource metadata names another resource than the server (RFC 9728
    /// §3.3): its tokens would be meant for someone else.
    #[error("the server's metadata describes {published}, not {server}: refusing to sign in")]
    ResourceMismatch { server: String, published: String },
    /// An address discovery was led to that sign-in does not reach: not https, or on this
    /// machine or a private network when the server is not (see `reach`).
    #[error("refusing to reach {url} for sign-in: {reason}")]
    Unreachable { url: String, reason: String },
    /// The protected resource metadata names no authorization server.
    #[error("the server's metadata names no authorization server")]
    NoAuthorizationServer,
    /// The authorization server metadata claims another issuer than the one asked
    /// (RFC 8414 §3.3): it must not be used.
    #[error("the metadata fetched for {expected} claims to be from {claimed}: refusing to use it")]
    IssuerMismatch { expected: String, claimed: String },
    /// The authorization server does not say it supports PKCE with S256.
    #[error("{issuer} does not support PKCE with S256, which signing in requires")]
    PkceUnsupported { issuer: String },
    /// No registration method fits: no pre-registered client, no Client ID Metadata
    /// Document support, no registration endpoint. A personal access token is the way in.
    #[error(
        "{issuer} offers no way for this app to register; a client id or an access token must be entered"
    )]
    NoRegistration { issuer: String },
    /// The client secret entered beforehand is for another authorization server than the
    /// one the server names, or for none: it is not sent.
    #[error("{}", match entered {
        Some(entered) => format!("the client secret entered is for {entered}, but the server names {named}: it is not sent there"),
        None => format!("the client secret entered names no authorization server, and is sent only to the one it was made at (the server names {named})"),
    })]
    SecretForAnotherIssuer {
        entered: Option<String>,
        named: String,
    },
    /// The credentials of a grant of the client's own were made for another authorization
    /// server than the one the server names: they are not sent.
    #[error(
        "this app's credentials for the server were made for {entered}, but the server names {named}: they are not sent there"
    )]
    CredentialsForAnotherIssuer { entered: String, named: String },
    /// Dynamic Client Registration was refused.
    #[error("registering with {issuer} failed: {detail}")]
    Registration { issuer: String, detail: String },
    /// The redirect carried another `state` than the one sent: not our sign-in.
    #[error("the sign-in answer does not belong to this sign-in (state mismatch)")]
    StateMismatch,
    /// The redirect's `iss` is not the authorization server asked (RFC 9207), or is missing
    /// where the server promised it: the code is not redeemed.
    #[error("{}", match found {
        Some(found) => format!("the sign-in answer came from {found}, not from {expected}: refusing it"),
        None => format!("the sign-in answer names no issuer, and {expected} promised one: refusing it"),
    })]
    IssuerResponseMismatch {
        expected: String,
        found: Option<String>,
    },
    /// The authorization server refused (for example, the person denied access).
    #[error("the authorization server refused: {error}{}", description.as_ref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Denied {
        error: String,
        description: Option<String>,
    },
    /// The redirect carried no code.
    #[error("the sign-in answer carried no authorization code")]
    NoCode,
    /// The token endpoint refused or answered something unreadable.
    #[error("the token request to {url} failed: {detail}")]
    Token { url: String, detail: String },
    /// The server kept asking for more scopes after every step-up allowed.
    #[error("the server still refuses after {attempts} sign-ins for more scopes: {scopes}")]
    StepUpLimit { attempts: u32, scopes: String },
    /// The server refuses with 403 for a reason no new token would change.
    #[error("the server forbids this request: {detail}")]
    Forbidden { detail: String },
    /// The person signed out: the server waits until they sign in again.
    #[error("signed out; sign in to use it again")]
    SignedOut,
    /// The person has not signed in, and no one asked to.
    #[error("sign-in was not completed: you have not signed in yet")]
    NotSignedInYet,
    /// The person declined to sign in.
    #[error("sign-in was not completed: the sign-in was declined")]
    Declined,
    /// The person cancelled the sign-in that waited for the browser.
    #[error("sign-in was not completed: the sign-in was cancelled")]
    Cancelled,
    /// The browser did not come back with the answer in time.
    #[error("sign-in was not completed: the browser did not come back within {}", shown_wait(*millis))]
    BrowserDidNotReturn { millis: u64 },
    /// The sign-in could not go on: why, in the words of the part that failed.
    #[error("sign-in was not completed: {why}")]
    NotCompleted { why: String },
    /// The token store failed.
    #[error("the token store failed: {detail}")]
    Store { detail: String },
}

impl AuthError {
    /// Whether the server stays out of reach until someone signs in; false for refusals
    /// of one request (forbidden, or still short of scope after stepping up).
    pub fn needs_sign_in(&self) -> bool {
        !matches!(self, Self::Forbidden { .. } | Self::StepUpLimit { .. })
    }

    /// The sign-in could not go on: why, in the words of the part that failed.
    pub fn not_completed(why: impl Into<String>) -> Self {
        Self::NotCompleted { why: why.into() }
    }
}

/// A wait, as the English says it: whole seconds, or milliseconds under one.
fn shown_wait(millis: u64) -> String {
    match millis / 1000 {
        0 => format!("{millis} ms"),
        secs => format!("{secs} s"),
    }
}
