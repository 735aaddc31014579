//! The grants a server's client makes on its own (client credentials, a workload's token,
//! the enterprise-managed grant), from the server's configuration: its secrets read from
//! the keyring under the server's own names, and its authorization server required, so
//! that no credential goes to one the MCP server merely names.

use std::path::Path;

use switchboard_mcp::auth::{ClientProof, Enterprise, Flow, Secret, TokenSource};

use crate::config::{OAuthClient, OAuthGrant, SecretRef, client_secret_name, private_key_name};
use crate::secrets::Secrets;

/// The JWS algorithm of a client's key when the configuration names none.
const DEFAULT_ALGORITHM: &str = "ES256";

/// The flow of `client` (the server `server`'s) and the authorization server it is for.
pub async fn flow_of(
    server: &str,
    client: &OAuthClient,
    secrets: &Secrets,
) -> Result<Flow, String> {
    if client.grant.is_sign_in() {
        return Ok(Flow::SignIn);
    }
    if client.issuer.is_none() {
        return Err(format!(
            "{server}'s client credentials are sent only to the authorization server they were made at: name it (\"issuer\")"
        ));
    }
    let client_id = client.client_id.clone();
    let secret = |entry: &Option<SecretRef>, own: String, what: &'static str| {
        let entry = entry.clone();
        async move {
            match entry {
                None => Ok(None),
                Some(entry) => read(server, &entry, &own, what, secrets).await.map(Some),
            }
        }
    };
    let client_secret = secret(
        &client.client_secret,
        client_secret_name(server),
        "client secret",
    )
    .await?;
    Ok(match client.grant {
        OAuthGrant::SignIn => Flow::SignIn,
        OAuthGrant::ClientCredentials => {
            let key = secret(&client.private_key, private_key_name(server), "private key").await?;
            let proof = match (key, client_secret) {
                (Some(pem), _) => ClientProof::Key {
                    pem,
                    algorithm: client
                        .signing_algorithm
                        .clone()
                        .unwrap_or_else(|| DEFAULT_ALGORITHM.into()),
                },
                (None, Some(secret)) => ClientProof::Secret(secret),
                (None, None) => {
                    return Err(format!(
                        "{server}'s client credentials need its client secret or private key"
                    ));
                }
            };
            Flow::ClientCredentials { client_id, proof }
        }
        OAuthGrant::Workload => Flow::Workload {
            client_id: Some(client_id).filter(|id| !id.is_empty()),
            token: TokenSource::File(file(server, client.token_file.as_deref(), "tokenFile")?),
        },
        OAuthGrant::Enterprise => {
            let Some(idp) = &client.identity_provider else {
                return Err(format!(
                    "{server}'s enterprise sign-in needs its identity provider (\"identityProvider\")"
                ));
            };
            Flow::Enterprise(Enterprise {
                idp_token_endpoint: idp.token_endpoint.clone(),
                idp_client_id: idp.client_id.clone(),
                idp_client_secret: None,
                id_token: TokenSource::File(file(server, Some(&idp.id_token_file), "idTokenFile")?),
                client_id,
                client_secret,
            })
        }
    })
}

/// A secret of the server's, only under its own name: the file cannot make it send
/// another server's secret elsewhere.
async fn read(
    server: &str,
    entry: &SecretRef,
    own: &str,
    what: &str,
    secrets: &Secrets,
) -> Result<Secret, String> {
    if entry.secret != own {
        return Err(format!(
            "the {what} must be the keyring entry {own:?}, not {:?}",
            entry.secret
        ));
    }
    secrets
        .get(own)
        .await
        .map_err(|e| e.to_string())?
        .map(Secret)
        .ok_or_else(|| format!("the {what} of {server} is missing from the keyring"))
}

fn file(server: &str, path: Option<&Path>, field: &str) -> Result<std::path::PathBuf, String> {
    match path {
        Some(path) if path.is_absolute() => Ok(path.to_owned()),
        Some(path) => Err(format!(
            "{server}'s {field} must be a full path, not {}",
            path.display()
        )),
        None => Err(format!(
            "{server}'s sign-in needs the file its token is in (\"{field}\")"
        )),
    }
}
