//! The form's part about the server's client at its authorization server: a client
//! registered beforehand, and how it obtains tokens (the person signing in, or a grant of
//! its own). Its secret and private key go to the keyring under the server's own names.

use std::path::PathBuf;

use switchboard_core::config::{
    IdentityProvider, OAuthClient, OAuthGrant, SecretRef, ServerConfig, client_secret_name,
    private_key_name,
};

use super::{FormError, NewSecret, SecretValue, ServerForm};

/// Fills the form's client fields from the configuration (secrets only as "stored").
pub fn fill(form: &mut ServerForm, client: Option<&OAuthClient>) {
    let Some(client) = client else {
        return;
    };
    form.client_id.clone_from(&client.client_id);
    form.client_secret_stored = client.client_secret.is_some();
    form.client_issuer = client.issuer.clone().unwrap_or_default();
    form.oauth_grant = client.grant;
    form.private_key_stored = client.private_key.is_some();
    form.signing_algorithm = client.signing_algorithm.clone().unwrap_or_default();
    form.token_file = path_text(client.token_file.as_ref());
    if let Some(idp) = &client.identity_provider {
        form.idp_token_endpoint.clone_from(&idp.token_endpoint);
        form.idp_client_id.clone_from(&idp.client_id);
        form.id_token_file = path_text(Some(&idp.id_token_file));
    }
    form.dpop = client.dpop;
}

fn path_text(path: Option<&PathBuf>) -> String {
    path.map(|p| p.display().to_string()).unwrap_or_default()
}

/// The client the form gives, its secrets stored (typed anew, kept, or taken along to a
/// new name), never written in the file.
pub fn client(
    form: &ServerForm,
    previous: Option<(&str, &ServerConfig)>,
    secrets: &mut Vec<NewSecret>,
) -> Result<Option<OAuthClient>, FormError> {
    let client_id = form.client_id.trim();
    let grant = form.oauth_grant;
    let given = |text: &str| {
        Some(text.trim())
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
    };
    if client_id.is_empty() && matches!(grant, OAuthGrant::SignIn) {
        return match form.client_secret.is_empty() {
            true => Ok(None),
            false => Err(FormError::SecretWithoutClient),
        };
    }
    if client_id.is_empty()
        && matches!(
            grant,
            OAuthGrant::ClientCredentials | OAuthGrant::Enterprise
        )
    {
        return Err(FormError::NoClientId);
    }
    let before = |entry: fn(&OAuthClient) -> Option<&SecretRef>| {
        previous.and_then(|(old, p)| Some((old, entry(p.oauth.as_ref()?)?)))
    };
    let mut keep = Keeper {
        server: &form.name,
        secrets,
    };
    let client_secret = keep.secret(
        &form.client_secret,
        form.client_secret_stored,
        before(|c| c.client_secret.as_ref()),
        client_secret_name,
        "client secret",
    );
    let private_key = match grant {
        OAuthGrant::ClientCredentials => {
            if let Some(pem) = given(&form.private_key) {
                switchboard_mcp::auth::check_signing_key(&pem, algorithm(form))
                    .map_err(|e| FormError::BadKey(e.to_string()))?;
            }
            keep.secret(
                &form.private_key,
                form.private_key_stored,
                before(|c| c.private_key.as_ref()),
                private_key_name,
                "private key",
            )
        }
        _ => None,
    };
    let issuer = given(&form.client_issuer);
    if issuer.is_none() && (client_secret.is_some() || !grant.is_sign_in()) {
        return Err(FormError::SecretWithoutIssuer);
    }
    let file = |text: &str, field: &'static str| match given(text) {
        Some(path) if PathBuf::from(&path).is_absolute() => Ok(PathBuf::from(path)),
        _ => Err(FormError::NoFile(field)),
    };
    let mut client = OAuthClient {
        client_id: client_id.to_owned(),
        client_secret,
        issuer,
        grant,
        dpop: form.dpop,
        ..OAuthClient::default()
    };
    match grant {
        OAuthGrant::SignIn => {}
        OAuthGrant::ClientCredentials => {
            if client.client_secret.is_none() && private_key.is_none() {
                return Err(FormError::NoClientCredential);
            }
            client.private_key = private_key;
            client.signing_algorithm = given(&form.signing_algorithm);
        }
        OAuthGrant::Workload => client.token_file = Some(file(&form.token_file, "the token file")?),
        OAuthGrant::Enterprise => {
            let token_endpoint = given(&form.idp_token_endpoint)
                .filter(|url| url.starts_with("https://") || url.starts_with("http://"))
                .ok_or(FormError::NoIdentityProvider)?;
            client.identity_provider = Some(IdentityProvider {
                token_endpoint,
                client_id: given(&form.idp_client_id).ok_or(FormError::NoIdentityProvider)?,
                id_token_file: file(&form.id_token_file, "the ID token file")?,
            });
        }
    }
    Ok(Some(client))
}

fn algorithm(form: &ServerForm) -> &str {
    match form.signing_algorithm.trim() {
        "" => "ES256",
        named => named,
    }
}

/// Stores the form's secrets for the server `server`.
struct Keeper<'a> {
    server: &'a str,
    secrets: &'a mut Vec<NewSecret>,
}

impl Keeper<'_> {
    /// The entry of one secret: typed anew, kept as stored, taken along from the server's
    /// old name, or none.
    fn secret(
        &mut self,
        typed: &str,
        stored: bool,
        before: Option<(&str, &SecretRef)>,
        own_name: fn(&str) -> String,
        what: &str,
    ) -> Option<SecretRef> {
        let name = own_name(self.server);
        let value = if !typed.is_empty() {
            SecretValue::Given(typed.to_owned())
        } else if !stored {
            return None;
        } else {
            match before {
                Some((old, secret)) if old != self.server && secret.secret == own_name(old) => {
                    SecretValue::Copied {
                        from: secret.secret.clone(),
                        what: "oauth",
                        key: what.into(),
                    }
                }
                Some((_, kept)) => return Some(kept.clone()),
                None => return None,
            }
        };
        self.secrets.push(NewSecret {
            name: name.clone(),
            value,
        });
        Some(SecretRef { secret: name })
    }
}
