//! How a server's secrets are named in the keyring: the value of its environment variable
//! `KEY` is `<server>/env/KEY`, of its header `KEY` `<server>/header/KEY`. A server may use
//! only the secret of the very slot it fills, so that no entry of the configuration (an
//! imported one above all) can borrow a secret that belongs to another.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{EnvValue, ServerConfig};

/// Where a value sits in a server's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// An environment variable of a stdio server.
    Env,
    /// An HTTP header of a remote server.
    Header,
}

impl Place {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Env => "env",
            Self::Header => "header",
        }
    }
}

/// The keyring name of the secret that fills `key` at `place` of `server`.
pub fn secret_name(server: &str, place: Place, key: &str) -> String {
    format!("{server}/{}/{key}", place.as_str())
}

impl ServerConfig {
    /// Each environment variable and header, with where it sits.
    pub fn values(&self) -> impl Iterator<Item = (Place, &String, &EnvValue)> {
        placed(Place::Env, &self.env).chain(placed(Place::Header, &self.headers))
    }

    /// The environment variables, or the headers.
    pub fn at_mut(&mut self, place: Place) -> &mut BTreeMap<String, EnvValue> {
        match place {
            Place::Env => &mut self.env,
            Place::Header => &mut self.headers,
        }
    }

    /// The keyring names this configuration, as the server `name`, refers to and owns.
    pub fn own_secrets<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> {
        self.values()
            .filter_map(move |(place, key, value)| match value {
                EnvValue::Secret { secret } if *secret == secret_name(name, place, key) => {
                    Some(secret.as_str())
                }
                _ => None,
            })
            .chain(self.oauth.as_ref().and_then(|o| o.own_secret(name)))
            .chain(self.oauth.as_ref().and_then(|o| o.own_private_key(name)))
    }
}

/// Whether a variable's or header's name says its value is a secret: a token, a key, a
/// password, a credential, an authorization or a cookie (read without case or separators).
/// A value found in plain text under such a name is offered to be moved to the keyring.
pub fn names_a_secret(key: &str) -> bool {
    const WORDS: [&str; 7] = [
        "token",
        "secret",
        "password",
        "passwd",
        "credential",
        "authoriz",
        "cookie",
    ];
    let name: String = key
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    WORDS.iter().any(|w| name.contains(w))
        || ["key", "auth", "pat"].iter().any(|end| name.ends_with(end))
}

fn placed(
    place: Place,
    values: &BTreeMap<String, EnvValue>,
) -> impl Iterator<Item = (Place, &String, &EnvValue)> {
    values.iter().map(move |(key, value)| (place, key, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names_are_told_by_their_words() {
        for secret in [
            "GITHUB_TOKEN",
            "OPENAI_API_KEY",
            "Authorization",
            "x-api-key",
            "DB_PASSWORD",
            "GITLAB_PAT",
            "Cookie",
            "AWS_SECRET_ACCESS_KEY",
        ] {
            assert!(names_a_secret(secret), "{secret}");
        }
        for plain in ["PATH", "DEBUG", "Accept", "GIT_AUTHOR_NAME", "REGION"] {
            assert!(!names_a_secret(plain), "{plain}");
        }
    }

    #[test]
    fn a_server_owns_only_the_secret_of_the_slot_it_fills() {
        let secret = |name: &str| EnvValue::Secret {
            secret: name.into(),
        };
        let config = ServerConfig {
            env: [
                ("TOKEN".to_owned(), secret("git/env/TOKEN")),
                ("OTHER".to_owned(), secret("git/env/TOKEN")),
                ("STOLEN".to_owned(), secret("github/env/TOKEN")),
                ("PLAIN".to_owned(), EnvValue::Plain("git/env/PLAIN".into())),
            ]
            .into(),
            headers: [(
                "Authorization".to_owned(),
                secret("git/header/Authorization"),
            )]
            .into(),
            ..ServerConfig::default()
        };
        let owned: Vec<&str> = config.own_secrets("git").collect();
        assert_eq!(owned, ["git/env/TOKEN", "git/header/Authorization"]);
        assert_eq!(config.own_secrets("github").count(), 0);
    }
}
