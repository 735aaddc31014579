//! Which era a server speaks, found as the 2026-07-28 revision says: a `server/discover`
//! probe first; a discovery result or a recognized stateless error means stateless, anything
//! else (another error, an HTTP refusal without a stateless body, no answer in time) means
//! legacy, and the `initialize` handshake follows. Never keyed to one error code.
//!
//! On a stream (stdio) a stateful server may leave the probe unanswered, so the wait for
//! it is bounded; but a server still starting (an interpreter loading its modules on a
//! busy machine) reads nothing for seconds, and a fixed wait would take it for a stateful
//! one. A `ping`, which every revision lets a client send before the handshake, follows
//! the probe: once the server answers it, it is up and has read the probe before it, and
//! only then does the short wait for the probe's own answer begin. The ping says it speaks
//! the new revision, as the probe does, so that a server of both eras stays in the new one.

use std::time::Duration;

use serde_json::Value;

use super::ClientError;
use super::stamp::Stamp;
use crate::connection::{Connection, RequestError, RequestOptions};
use crate::jsonrpc::code;
use crate::transport::TransportError;
use crate::types::{DiscoverResult, method};
use crate::version::ProtocolVersion;

/// Which era to speak with a server: found out (the default), or forced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EraSetting {
    #[default]
    Auto,
    /// 2026-07-28 only: a server that does not speak it is an error.
    #[serde(alias = "modern")]
    Stateless,
    /// The `initialize` handshake, with no probe first.
    #[serde(alias = "legacy")]
    Session,
}

/// The two eras of the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Era {
    /// Stateless (2026-07-28): `_meta` on every request, no handshake.
    Stateless,
    /// A session opened by `initialize` (2024-11-05 to 2025-11-25).
    Session,
}

/// The era and revision chosen for a server, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EraChoice {
    pub era: Era,
    pub version: ProtocolVersion,
    pub reason: EraReason,
}

/// Why an era and revision were chosen, by kind for a face to say in its language; the
/// server's words in it as they came. `Display` is the engine's English: for example
/// "server/discover answered with 2026-07-28", or "server/discover got no answer within
/// 3 s; initialize answered 2025-06-18".
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct EraReason {
    /// What `server/discover` met, in order (an answer that came late, then the probe
    /// asked again); none when the settings chose the session era.
    pub probed: Vec<Probed>,
    /// The revision `initialize` answered, in the session era.
    pub initialized: Option<String>,
}

/// What `server/discover` met.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Probed {
    /// An answer, with the stateless revision chosen from it.
    Answered { version: String },
    /// Refused: the server speaks these revisions.
    Speaks { supported: String },
    /// Refused with another error: its code and message, cut short.
    Refused { code: i64, message: String },
    /// No answer within `seconds` ("3", "2.5"), counted from the server's answer to a
    /// ping when `after_ping`.
    NoAnswer { seconds: String, after_ping: bool },
    /// Refused over HTTP.
    HttpStatus { status: u16 },
    /// The exchange failed: the transport's words, cut short.
    Failed { detail: String },
    /// An answer that could not be read.
    Unreadable,
    /// An answer that is no discovery: why, in the parser's words.
    NotADiscovery { detail: String },
    /// A discovery that lists no stateless revision this client speaks: those it lists.
    NoStateless { supported: String },
}

impl std::fmt::Display for Probed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Answered { version } => write!(f, "server/discover answered with {version}"),
            Self::Speaks { supported } => {
                write!(
                    f,
                    "server/discover was refused: the server speaks {supported}"
                )
            }
            Self::Refused { code, message } => {
                write!(f, "server/discover was refused ({code} {message})")
            }
            Self::NoAnswer {
                seconds,
                after_ping: false,
            } => write!(f, "server/discover got no answer within {seconds} s"),
            Self::NoAnswer {
                seconds,
                after_ping: true,
            } => write!(
                f,
                "server/discover got no answer within {seconds} s of the server answering a ping"
            ),
            Self::HttpStatus { status } => {
                write!(f, "server/discover was refused with HTTP {status}")
            }
            Self::Failed { detail } => write!(f, "server/discover failed ({detail})"),
            Self::Unreadable => f.write_str("server/discover got an answer that could not be read"),
            Self::NotADiscovery { detail } => write!(
                f,
                "server/discover answered with something else than a discovery ({detail})"
            ),
            Self::NoStateless { supported } => write!(
                f,
                "server/discover lists no stateless revision this client speaks ({supported})"
            ),
        }
    }
}

impl std::fmt::Display for EraReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, probed) in self.probed.iter().enumerate() {
            if i > 0 {
                f.write_str(", then ")?;
            }
            write!(f, "{probed}")?;
        }
        match (&self.initialized, self.probed.is_empty()) {
            (Some(version), true) => write!(
                f,
                "the session era was chosen in the settings; initialize answered {version}"
            ),
            (Some(version), false) => write!(f, "; initialize answered {version}"),
            (None, _) => Ok(()),
        }
    }
}

/// The newest stateless revision this client speaks.
pub const STATELESS: ProtocolVersion = ProtocolVersion::V2026_07_28;

/// What the probe found.
pub(super) enum Probe {
    Stateless {
        result: Box<DiscoverResult>,
        version: ProtocolVersion,
        reason: Probed,
    },
    /// Not stateless: the handshake follows; `reason` says what the probe saw.
    Session { reason: Probed },
}

/// How long the probe waits on a stream for a server that answers neither the probe nor the
/// ping (which every revision requires it to answer): long enough for one still starting on
/// a busy machine, short enough that a hand-written server that answers only `initialize`
/// still starts in seconds.
pub(super) const SILENT_SERVER: Duration = Duration::from_secs(10);

/// How long the probe waits for its answer.
#[derive(Debug, Clone, Copy)]
pub(super) enum Wait {
    /// Every request gets an answer (HTTP): as long as any request.
    Answer(Duration),
    /// A stream: `grace` once the server answered a `ping` sent after the probe, and
    /// `bound` in all for a server that answers nothing.
    AfterPing { grace: Duration, bound: Duration },
}

/// Sends `server/discover`; on an `UnsupportedProtocolVersion` that lists a stateless
/// revision we speak, asks once more, stamped with the newest of them.
pub(super) async fn probe(
    connection: &Connection,
    stamp: &Stamp,
    wait: Wait,
) -> Result<Probe, ClientError> {
    let mut retry: Option<Stamp> = None;
    loop {
        let asked = retry.as_ref().unwrap_or(stamp);
        let params = asked.stamp(&serde_json::Map::new())?;
        let (outcome, up) = discover(connection, params, wait).await;
        return match outcome {
            Ok(value) => Ok(read_discovery(value)),
            Err(RequestError::Server { error, .. })
                if error.code == code::UNSUPPORTED_PROTOCOL_VERSION =>
            {
                let supported = supported_versions(error.data.as_deref());
                match newest_stateless(&supported) {
                    // Once, restamped with the revision the server lists, even the one just
                    // refused: the conformance suite's server refuses a first choice once to
                    // see the client retry as the error asks.
                    Some(listed) if retry.is_none() => {
                        retry = Some(stamp.with_version(listed));
                        continue;
                    }
                    _ if supported.iter().any(|v| is_session(v)) => Ok(Probe::Session {
                        reason: Probed::Speaks {
                            supported: supported.join(", "),
                        },
                    }),
                    _ => Err(ClientError::NoSharedRevision {
                        supported: supported.join(", "),
                    }),
                }
            }
            Err(RequestError::Server { error, .. }) if code::is_stateless(error.code) => {
                Err(ClientError::Request(RequestError::Server {
                    method: method::SERVER_DISCOVER.into(),
                    error,
                }))
            }
            Err(RequestError::Server { error, .. }) => Ok(Probe::Session {
                reason: Probed::Refused {
                    code: error.code,
                    message: excerpt(&error.message),
                },
            }),
            Err(RequestError::Timeout { after, .. }) => Ok(Probe::Session {
                reason: Probed::NoAnswer {
                    seconds: seconds(after),
                    after_ping: up,
                },
            }),
            Err(RequestError::Transport {
                error: TransportError::Status { status, .. },
                ..
            }) => Ok(Probe::Session {
                reason: Probed::HttpStatus { status },
            }),
            // A server that hangs up on a method it does not know, or answers it with
            // something else than JSON-RPC, is no server of the revision; one that cannot
            // be reached, or refuses us, is an error whatever the era.
            Err(RequestError::Transport { error, .. }) if !unreachable(&error) => {
                Ok(Probe::Session {
                    reason: Probed::Failed {
                        detail: excerpt(&error.to_string()),
                    },
                })
            }
            Err(RequestError::Unreadable { .. }) => Ok(Probe::Session {
                reason: Probed::Unreadable,
            }),
            Err(other) => Err(other.into()),
        };
    }
}

/// The probe's request, waited for as `wait` says; and whether the server answered the
/// ping meanwhile (a timeout then reports `grace` as its wait).
async fn discover(
    connection: &Connection,
    params: Value,
    wait: Wait,
) -> (Result<Value, RequestError>, bool) {
    let (grace, bound) = match wait {
        Wait::Answer(timeout) => (None, timeout),
        Wait::AfterPing { grace, bound } => (Some(grace), bound),
    };
    let options = RequestOptions {
        timeout: bound,
        ..RequestOptions::default()
    };
    // The ping carries the probe's `_meta`: a server that speaks both eras takes a bare
    // `ping` for an old client's, and would serve the connection in the old era from then on.
    let stamped = serde_json::json!({"_meta": params.get("_meta").cloned()});
    let asked = connection.request(method::SERVER_DISCOVER, Some(params), options.clone());
    let Some(grace) = grace else {
        return (asked.await, false);
    };
    // Its own task, so that a probe answered first leaves the ping to be answered rather
    // than cancelled; any answer, even an error, shows the server is up.
    let ping = tokio::spawn({
        let connection = connection.clone();
        async move {
            connection
                .request(method::PING, Some(stamped), options)
                .await
        }
    });
    tokio::pin!(asked);
    tokio::select! {
        outcome = &mut asked => (outcome, false),
        pinged = ping => match pinged {
            Ok(Ok(_) | Err(RequestError::Server { .. })) => {
                let outcome = tokio::time::timeout(grace, asked).await.unwrap_or_else(|_| {
                    Err(RequestError::Timeout {
                        method: method::SERVER_DISCOVER.into(),
                        after: grace,
                    })
                });
                (outcome, true)
            }
            // No answer to the ping either: the probe's own bound or the connection's end.
            _ => (asked.await, false),
        },
    }
}

fn read_discovery(value: Value) -> Probe {
    let result: DiscoverResult = match serde_json::from_value(value) {
        Ok(result) => result,
        Err(e) => {
            return Probe::Session {
                reason: Probed::NotADiscovery {
                    detail: e.to_string(),
                },
            };
        }
    };
    match newest_stateless(&result.supported_versions) {
        Some(version) => Probe::Stateless {
            reason: Probed::Answered {
                version: version.to_string(),
            },
            result: Box::new(result),
            version,
        },
        None => Probe::Session {
            reason: Probed::NoStateless {
                supported: result.supported_versions.join(", "),
            },
        },
    }
}

/// Whether a failure of the probe's exchange says the server cannot be reached or refuses
/// us (which `initialize` would meet too), rather than that it does not know the probe.
fn unreachable(error: &TransportError) -> bool {
    matches!(
        error,
        TransportError::Connect { .. }
            | TransportError::Tls { .. }
            | TransportError::Unauthorized { .. }
            | TransportError::Authorization(_)
            | TransportError::NoTransport { .. }
            | TransportError::SessionLost(_)
    )
}

/// The newest stateless revision in `versions` that this client speaks.
fn newest_stateless(versions: &[String]) -> Option<ProtocolVersion> {
    versions
        .iter()
        .filter_map(|v| v.parse::<ProtocolVersion>().ok())
        .filter(|v| !v.is_stateful())
        .max()
}

fn is_session(version: &str) -> bool {
    version
        .parse::<ProtocolVersion>()
        .is_ok_and(ProtocolVersion::is_stateful)
}

/// `data.supported` of an `UnsupportedProtocolVersion` error.
pub(super) fn supported_versions(data: Option<&Value>) -> Vec<String> {
    data.and_then(|d| d.get("supported"))
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// A wait in whole seconds, or tenths below ten ("3", "2.5").
fn seconds(after: Duration) -> String {
    let secs = after.as_secs_f64();
    if secs >= 10.0 || secs.fract() < 0.05 {
        format!("{:.0}", secs)
    } else {
        format!("{secs:.1}")
    }
}

fn excerpt(text: &str) -> String {
    const MAX: usize = 120;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_stateless_revision_we_speak_makes_a_server_stateless() {
        let list = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            newest_stateless(&list(&["2026-07-28", "2025-11-25"])),
            Some(STATELESS)
        );
        assert_eq!(newest_stateless(&list(&["2025-11-25"])), None);
        assert_eq!(newest_stateless(&list(&["2031-01-01"])), None);
    }

    #[test]
    fn a_choice_reads_as_json_for_whoever_shows_it() {
        let choice = EraChoice {
            era: Era::Session,
            version: ProtocolVersion::V2025_06_18,
            reason: EraReason {
                probed: vec![Probed::Refused {
                    code: -32601,
                    message: "Method not found".into(),
                }],
                initialized: Some("2025-06-18".into()),
            },
        };
        assert_eq!(
            serde_json::to_value(&choice).unwrap(),
            serde_json::json!({"era": "session", "version": "2025-06-18",
                "reason": {"probed": [{"kind": "refused", "code": -32601, "message": "Method not found"}],
                    "initialized": "2025-06-18"}})
        );
        assert_eq!(
            choice.reason.to_string(),
            "server/discover was refused (-32601 Method not found); initialize answered 2025-06-18"
        );
    }

    #[test]
    fn waits_read_as_whole_or_tenth_seconds() {
        assert_eq!(seconds(Duration::from_millis(3004)), "3");
        assert_eq!(seconds(Duration::from_millis(2500)), "2.5");
    }
}
