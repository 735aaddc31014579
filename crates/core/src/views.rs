//! MCP Apps' views as the host takes them from a server: a tool's view is the `ui://`
//! resource its `_meta.ui.resourceUri` names, an HTML document of type
//! `text/html;profile=mcp-app`, read as any resource is and checked before anything is
//! shown: its type, its size, that it is text. What its resource asks of the host (the
//! domains it may reach, its permissions, a dedicated origin, a border) comes with it, from
//! its contents' `_meta.ui` or else its listing's; and its SHA-256, by which the person's
//! trust in it is pinned ([`ViewPin`]): a view is shown the first time as its tool's call
//! was allowed, and a view changed since (its HTML, what it may load, or its server's
//! launch) only once the person has seen what changed and agreed.

use base64::Engine as _;
use sha2::{Digest, Sha256};
use switchboard_mcp::client::{Client, ClientError};
use switchboard_mcp::types::apps::{HTML_MIME, ResourceUi};
use switchboard_mcp::types::{Meta, ResourceContents};

/// The largest view taken: a view is a page, not a download.
pub const MOST_BYTES: usize = 5 << 20;

/// A tool's view, as its server served it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    pub server: String,
    pub uri: String,
    pub html: String,
    pub ui: ResourceUi,
    /// The SHA-256 of `html`, in hex.
    pub sha256: String,
}

/// Why a server's view cannot be shown. Serialized by kind, but for `Read`, which is told
/// as the request's failure.
#[derive(Debug, Clone, PartialEq, thiserror::Error, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    content = "of",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ViewError {
    #[error("{0} is not a view: a view's URI begins with ui://")]
    NotUi(String),
    #[error("the server's {uri} is {}, not {HTML_MIME}", match found {
        Some(found) => format!("of type {found}"),
        None => "of no type".to_owned(),
    })]
    NotHtml { uri: String, found: Option<String> },
    #[error("the server's {0} has no contents")]
    Empty(String),
    #[error("the server's {uri} is {bytes} bytes, more than a view may be ({most})")]
    TooLarge {
        uri: String,
        bytes: usize,
        most: usize,
    },
    #[error("the server's {0} is not text (its bytes are not UTF-8, or not base64)")]
    NotText(String),
    #[error("{0} cannot be saved: its blob is not base64")]
    NotFile(String),
    #[error(transparent)]
    #[serde(skip)]
    Read(#[from] ClientError),
}

/// Whether `mime` names a view's type, written as servers write it (spaces and case aside).
fn is_view_type(mime: &str) -> bool {
    let plain: String = mime
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    plain == HTML_MIME
}

/// Reads the view `uri` of `server` (reached by `client`); `listed` is the `_meta` of its
/// entry in the server's resource list, which says what its contents do not.
pub async fn read(
    client: &Client,
    server: &str,
    uri: &str,
    listed: Option<&Meta>,
) -> Result<View, ViewError> {
    if !uri.starts_with("ui://") {
        return Err(ViewError::NotUi(uri.to_owned()));
    }
    let read = client.read_resource(uri, client.request_options()).await?;
    let contents = read
        .contents
        .into_iter()
        .next()
        .ok_or_else(|| ViewError::Empty(uri.to_owned()))?;
    let (mime, meta, html) = match contents {
        ResourceContents::Text(text) => (text.mime_type, text.meta, text.text),
        ResourceContents::Blob(blob) => {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(blob.blob.as_bytes())
                .map_err(|_| ViewError::NotText(uri.to_owned()))?;
            let html = String::from_utf8(bytes).map_err(|_| ViewError::NotText(uri.to_owned()))?;
            (blob.mime_type, blob.meta, html)
        }
    };
    if !mime.as_deref().is_some_and(is_view_type) {
        return Err(ViewError::NotHtml {
            uri: uri.to_owned(),
            found: mime,
        });
    }
    if html.len() > MOST_BYTES {
        return Err(ViewError::TooLarge {
            uri: uri.to_owned(),
            bytes: html.len(),
            most: MOST_BYTES,
        });
    }
    let said = meta.as_ref().filter(|m| m.contains_key("ui")).or(listed);
    Ok(View {
        server: server.to_owned(),
        uri: uri.to_owned(),
        sha256: hex(&Sha256::digest(html.as_bytes())),
        ui: ResourceUi::of(said),
        html,
    })
}

/// A view as it was shown: its HTML's hash and size and what it was let load, for its
/// server as it was launched then.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ViewPin {
    pub server: String,
    /// The server's identity then (`ServerConfig::identity`).
    pub identity: String,
    pub uri: String,
    pub sha256: String,
    pub bytes: usize,
    /// The policy it was served with: what it may load.
    pub policy: String,
    /// When it was pinned (ms since the epoch).
    pub at_ms: i64,
}

/// A view that differs from the one pinned: what it was and what it is now.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ViewChange {
    pub before: ViewPin,
    pub after: ViewPin,
    /// The server is launched otherwise than when the view was pinned.
    pub server_changed: bool,
}

/// How `now` stands against the pins: `None` when it may show (it is as pinned, or new,
/// and then it is to be pinned), else what changed.
pub fn changed(pins: &[ViewPin], now: &ViewPin) -> Option<ViewChange> {
    let before = pins
        .iter()
        .find(|p| p.server == now.server && p.uri == now.uri)?;
    let same = before.identity == now.identity
        && before.sha256 == now.sha256
        && before.policy == now.policy;
    (!same).then(|| ViewChange {
        before: before.clone(),
        after: now.clone(),
        server_changed: before.identity != now.identity,
    })
}

/// The pins with `pin` in place of any of its server's view at its URI.
pub fn pinned(pins: &mut Vec<ViewPin>, pin: ViewPin) {
    pins.retain(|p| !(p.server == pin.server && p.uri == pin.uri));
    pins.push(pin);
}

/// A file a view asks to save (`ui/download-file`), as it is to be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    /// A name for the file, offered in the save dialog: the last part of its URI, or what
    /// its link calls it, never a path.
    pub file_name: String,
    pub bytes: Vec<u8>,
}

/// The file `contents` are, named `name` when its link gives one.
pub fn download_of(contents: ResourceContents, name: Option<&str>) -> Result<Download, ViewError> {
    let uri = contents.uri().to_owned();
    let bytes = match contents {
        ResourceContents::Text(text) => text.text.into_bytes(),
        ResourceContents::Blob(blob) => base64::engine::general_purpose::STANDARD
            .decode(blob.blob.as_bytes())
            .map_err(|_| ViewError::NotFile(uri.clone()))?,
    };
    Ok(Download {
        file_name: file_name(name, &uri),
        bytes,
    })
}

/// A plain file name from `name` or the end of `uri`: no folders, nothing hidden.
fn file_name(name: Option<&str>, uri: &str) -> String {
    let path = uri.split(['?', '#']).next().unwrap_or_default();
    let wanted = name.unwrap_or_else(|| path.rsplit('/').next().unwrap_or_default());
    let plain: String = wanted
        .chars()
        .map(|c| {
            if c == '/' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let plain = plain.trim().trim_start_matches('.');
    if plain.is_empty() {
        "download".to_owned()
    } else {
        plain.to_owned()
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_views_type_is_read_as_servers_write_it() {
        assert!(is_view_type("text/html;profile=mcp-app"));
        assert!(is_view_type("text/html; profile=mcp-app"));
        assert!(is_view_type("Text/HTML;Profile=MCP-App"));
        assert!(!is_view_type("text/html"));
        assert!(!is_view_type("text/plain;profile=mcp-app"));
    }

    #[test]
    fn a_view_changed_in_its_html_policy_or_server_is_told_apart_from_one_as_pinned() {
        let pin = ViewPin {
            server: "board".into(),
            identity: "node board.mjs".into(),
            uri: "ui://board/view.html".into(),
            sha256: "aa".into(),
            bytes: 10,
            policy: "default-src 'none'".into(),
            at_ms: 1,
        };
        let mut pins = vec![pin.clone()];
        let later = ViewPin {
            at_ms: 2,
            ..pin.clone()
        };
        assert_eq!(changed(&pins, &later), None, "as pinned: shown");
        let elsewhere = ViewPin {
            uri: "ui://board/other.html".into(),
            ..later.clone()
        };
        assert_eq!(changed(&pins, &elsewhere), None, "new: shown, to be pinned");
        for now in [
            ViewPin {
                sha256: "bb".into(),
                ..later.clone()
            },
            ViewPin {
                policy: "default-src *".into(),
                ..later.clone()
            },
        ] {
            let change = changed(&pins, &now).expect("changed");
            assert_eq!((change.before, change.server_changed), (pin.clone(), false));
        }
        let relaunched = ViewPin {
            identity: "node evil.mjs".into(),
            ..later.clone()
        };
        assert!(changed(&pins, &relaunched).expect("changed").server_changed);
        pinned(&mut pins, relaunched.clone());
        assert_eq!(pins, vec![relaunched]);
    }

    #[test]
    fn a_download_is_named_as_a_plain_file() {
        assert_eq!(file_name(None, "ui://app/reports/q3.csv?x=1"), "q3.csv");
        assert_eq!(file_name(Some("../../.bashrc"), "ui://a/b"), "_.._.bashrc");
        assert_eq!(file_name(Some(".profile"), "ui://a/b"), "profile");
        assert_eq!(file_name(None, "ui://app/"), "download");
        assert_eq!(file_name(Some("a\\b\nc"), "ui://a/b"), "a_b_c");
    }
}
