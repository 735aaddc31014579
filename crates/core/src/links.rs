//! Which links a server may send the person to: web addresses only, opened in the form
//! they were checked in, and never one that hides its real host behind a user name.

use url::Url;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    content = "of",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum LinkError {
    #[error("{link:?} is not a web address: {reason}")]
    Unreadable { link: String, reason: String },
    #[error("only http and https links are opened, not {scheme}: links")]
    NotWeb { scheme: String },
    #[error(
        "a link with a user name or password before its host is not opened: it reads as one site and goes to another"
    )]
    Credentials,
}

/// The link as the browser is to be given it: parsed, then written out again, so that
/// what opens is exactly what was checked.
pub fn openable(link: &str) -> Result<Url, LinkError> {
    let url = Url::parse(link).map_err(|e| LinkError::Unreadable {
        link: link.to_owned(),
        reason: e.to_string(),
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(LinkError::NotWeb {
            scheme: url.scheme().to_owned(),
        });
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(LinkError::Credentials);
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_opens_in_its_parsed_form_and_never_with_a_user_name_or_password() {
        assert_eq!(
            openable(" HTTPS://Example.COM/a b?x=1 ").unwrap().as_str(),
            "https://example.com/a%20b?x=1"
        );
        assert_eq!(
            openable("https://user:pass@example.com/"),
            Err(LinkError::Credentials)
        );
        for refused in [
            "https://token@example.com/",
            "https://example.com@evil.example/",
            "https://:pass@example.com/",
            "javascript:alert(1)",
            "file:///etc/passwd",
            "https://",
            "not a link",
        ] {
            assert!(openable(refused).is_err(), "{refused} must not be opened");
        }
        assert_eq!(
            openable("data:text/html,hi").unwrap_err().to_string(),
            "only http and https links are opened, not data: links"
        );
    }
}
