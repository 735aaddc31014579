//! `switchboard://install?name=<registry name>[&version=<version>]`: a link, on a web page or
//! anywhere, that opens Switchboard's review of a server of the MCP Registry. The link
//! names the server only: what runs, with what, comes from the registry of the settings,
//! is shown to the person and is added only if they say so. A link that says more (another
//! registry, a command, anything else) is refused whole rather than partly followed.

use serde::Serialize;
use url::Url;

/// The app's URL scheme.
pub const SCHEME: &str = "switchboard";

/// What an install link asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct InstallLink {
    /// The server's name in the registry: `io.github.someone/weather`.
    pub name: String,
    /// A version, or `latest`.
    pub version: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    content = "of",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum InstallLinkError {
    #[error("this is not a Switchboard link")]
    NotOurs,
    #[error("Switchboard links only install: switchboard://install?name=...")]
    NotInstall,
    #[error("the link names no server (name=...)")]
    NoName,
    #[error("{0:?} is not the name of a registry server (like io.github.someone/server)")]
    BadName(String),
    #[error("{0:?} is not a version")]
    BadVersion(String),
    #[error("the link gives {0:?} more than once")]
    Twice(String),
    #[error("the link says {0:?}, which no install link says: it is not followed")]
    Unknown(String),
}

/// Longest a link's name may be, as the registry allows.
const MAX_NAME: usize = 200;

pub fn parse(link: &str) -> Result<InstallLink, InstallLinkError> {
    let url = Url::parse(link.trim()).map_err(|_| InstallLinkError::NotOurs)?;
    if url.scheme() != SCHEME {
        return Err(InstallLinkError::NotOurs);
    }
    // `switchboard://install?...`: the host is the action; no path, user or port.
    let bare = url.username().is_empty()
        && url.password().is_none()
        && url.port().is_none()
        && matches!(url.path(), "" | "/")
        && url.fragment().is_none();
    if url.host_str() != Some("install") || !bare {
        return Err(InstallLinkError::NotInstall);
    }
    let (mut name, mut version) = (None, None);
    for (key, value) in url.query_pairs() {
        let slot = match key.as_ref() {
            "name" => &mut name,
            "version" => &mut version,
            _ => return Err(InstallLinkError::Unknown(key.chars().take(40).collect())),
        };
        if slot.replace(value.into_owned()).is_some() {
            return Err(InstallLinkError::Twice(key.into_owned()));
        }
    }
    let name = name.ok_or(InstallLinkError::NoName)?;
    if !is_server_name(&name) {
        return Err(InstallLinkError::BadName(
            name.chars().take(MAX_NAME).collect(),
        ));
    }
    let version = version.unwrap_or_else(|| "latest".to_owned());
    if !is_version(&version) {
        return Err(InstallLinkError::BadVersion(
            version.chars().take(60).collect(),
        ));
    }
    Ok(InstallLink { name, version })
}

/// The registry's pattern `^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`, at most 200 long: plain
/// letters only, so that no look-alike letter passes for another server's name.
pub fn is_server_name(name: &str) -> bool {
    let Some((namespace, server)) = name.split_once('/') else {
        return false;
    };
    (3..=MAX_NAME).contains(&name.len())
        && !namespace.is_empty()
        && !server.is_empty()
        && namespace
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
        && server
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// A version the registry may hold: no range, no spaces, at most 255 long.
fn is_version(version: &str) -> bool {
    !version.is_empty()
        && version.len() <= 255
        && version
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '_'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_names_a_server_and_maybe_its_version() {
        assert_eq!(
            parse("switchboard://install?name=io.github.acme-labs%2Fweather&version=1.4.2"),
            Ok(InstallLink {
                name: "io.github.acme-labs/weather".into(),
                version: "1.4.2".into()
            })
        );
        assert_eq!(
            parse("switchboard://install?name=com.example/tickets").map(|l| l.version),
            Ok("latest".into())
        );
    }

    #[test]
    fn a_link_that_says_more_or_else_is_refused() {
        let refused = |link: &str| parse(link).unwrap_err();
        assert_eq!(
            refused("https://install?name=a.b/c"),
            InstallLinkError::NotOurs
        );
        assert_eq!(
            refused("switchboard://remove?name=a.b/c"),
            InstallLinkError::NotInstall
        );
        assert_eq!(
            refused("switchboard://install/x?name=a.b/c"),
            InstallLinkError::NotInstall
        );
        assert_eq!(refused("switchboard://install"), InstallLinkError::NoName);
        assert_eq!(
            refused("switchboard://install?name=a.b/c&registry=https://evil.example"),
            InstallLinkError::Unknown("registry".into())
        );
        assert_eq!(
            refused("switchboard://install?name=a.b/c&name=d.e/f"),
            InstallLinkError::Twice("name".into())
        );
        // A Cyrillic "а" in place of a Latin one.
        assert!(matches!(
            refused("switchboard://install?name=io.github.%D0%B0cme/weather"),
            InstallLinkError::BadName(_)
        ));
        assert!(matches!(
            refused("switchboard://install?name=a.b/c&version=%5E1.2"),
            InstallLinkError::BadVersion(_)
        ));
    }
}
