//! Opening a session: the era chosen as the configuration says (a `server/discover` probe,
//! or the `initialize` handshake), and what the server said of itself.

use std::sync::Arc;

use serde_json::Map;

use super::{
    ClientConfig, ClientError, Era, EraChoice, EraReason, EraSetting, era, request, stamp,
};
use crate::connection::{Connection, RequestError, RequestOptions};
use crate::jsonrpc::code;
use crate::types::*;
use crate::version::ProtocolVersion;

/// What opening a session settles.
pub(super) type Opened = (
    InitializeResult,
    ProtocolVersion,
    EraChoice,
    Option<Arc<stamp::Stamp>>,
);

/// Chooses the era as the configuration says and opens the session in it.
pub(super) async fn open(
    connection: &Connection,
    config: &ClientConfig,
    wait: era::Wait,
) -> Result<Opened, ClientError> {
    let stamp = stamp::Stamp::new(era::STATELESS, &config.client_info, &config.capabilities);
    let probed = match config.era {
        EraSetting::Session => None,
        EraSetting::Auto | EraSetting::Stateless => {
            Some(era::probe(connection, &stamp, wait).await?)
        }
    };
    let session_reason = match probed {
        Some(era::Probe::Stateless {
            result,
            version,
            reason,
        }) => return Ok(stateless_session(config, *result, version, vec![reason])),
        Some(era::Probe::Session { reason }) if config.era == EraSetting::Stateless => {
            return Err(ClientError::NotStateless {
                reason: reason.to_string(),
            });
        }
        Some(era::Probe::Session { reason }) => Some(reason),
        None => None,
    };
    let (server, version) = match initialize(connection, config).await {
        Ok(opened) => opened,
        // A server still starting up may answer the probe after its wait, and then refuse
        // the handshake as a stateless server: ask it again, with the patience of a request.
        Err(ClientError::Request(RequestError::Server { error, .. }))
            if session_reason.is_some() && code::is_stateless(error.code) =>
        {
            return match era::probe(
                connection,
                &stamp,
                era::Wait::Answer(config.request_timeout),
            )
            .await?
            {
                era::Probe::Stateless {
                    result,
                    version,
                    reason,
                } => {
                    let probed = session_reason.into_iter().chain([reason]).collect();
                    Ok(stateless_session(config, *result, version, probed))
                }
                era::Probe::Session { reason } => Err(ClientError::NotStateless {
                    reason: reason.to_string(),
                }),
            };
        }
        // Refused as a 2026-07-28 server refuses it (the era forced wrong): said as such.
        Err(ClientError::Request(error)) => {
            return Err(ClientError::from_request(method::INITIALIZE, error));
        }
        Err(other) => return Err(other),
    };
    let choice = EraChoice {
        era: Era::Session,
        version,
        reason: EraReason {
            probed: session_reason.into_iter().collect(),
            initialized: Some(version.to_string()),
        },
    };
    Ok((server, version, choice, None))
}

fn stateless_session(
    config: &ClientConfig,
    result: DiscoverResult,
    version: ProtocolVersion,
    probed: Vec<era::Probed>,
) -> Opened {
    let stamp = stamp::Stamp::new(version, &config.client_info, &config.capabilities);
    let choice = EraChoice {
        era: Era::Stateless,
        version,
        reason: EraReason {
            probed,
            initialized: None,
        },
    };
    (
        described(result, version),
        version,
        choice,
        Some(Arc::new(stamp)),
    )
}

/// A discovery as the description of the server the rest of the client reads.
fn described(result: DiscoverResult, version: ProtocolVersion) -> InitializeResult {
    let server_info = result
        .server_info()
        .unwrap_or_else(|| Implementation::new("unnamed server", "unknown"));
    InitializeResult {
        protocol_version: version.as_str().to_owned(),
        capabilities: result.capabilities,
        server_info,
        instructions: result.instructions,
        meta: result.meta,
        extra: result.extra,
    }
}

/// The `initialize` handshake, offering the newest stateful revision and then, once, the
/// newest one the server says it speaks.
async fn initialize(
    connection: &Connection,
    config: &ClientConfig,
) -> Result<(InitializeResult, ProtocolVersion), ClientError> {
    let mut params = InitializeRequestParams {
        protocol_version: ProtocolVersion::LATEST_STATEFUL.as_str().to_owned(),
        capabilities: config.capabilities.clone(),
        client_info: config.client_info.clone(),
        meta: None,
        extra: Map::new(),
    };
    let options = RequestOptions {
        timeout: config.request_timeout,
        ..RequestOptions::default()
    };
    let mut offered = ProtocolVersion::LATEST_STATEFUL;
    let mut outcome = request(connection, method::INITIALIZE, &params, options.clone()).await;
    // A server that refuses our revision may list those it speaks: offer the newest
    // of them that we speak too, once.
    if let Some(fallback) = outcome
        .as_ref()
        .err()
        .and_then(|e| e.newest_shared_revision(offered))
    {
        offered = fallback;
        params.protocol_version = fallback.as_str().to_owned();
        outcome = request(connection, method::INITIALIZE, &params, options).await;
    }
    let server: InitializeResult = outcome?;
    let version = match server.protocol_version.parse::<ProtocolVersion>() {
        Ok(v) if v.is_stateful() => v,
        _ => {
            return Err(ClientError::UnsupportedVersion {
                offered,
                answered: server.protocol_version,
            });
        }
    };
    connection.notify(method::INITIALIZED, None).await?;
    Ok((server, version))
}
