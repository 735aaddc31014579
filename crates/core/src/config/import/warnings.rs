//! What could not be carried over exactly from another host's file: a kind the window words
//! in the person's language, the file's own words in it as they are. `Display` is the
//! host's English.

use std::fmt;

use serde::Serialize;

use crate::config::Place;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ImportWarning {
    /// The file marks the server trusted: trust is the person's word, never a file's.
    NotTrusted { server: String },
    /// A setting Switchboard does not know is kept, unused: its value, cut short.
    UnusedSetting {
        server: String,
        field: String,
        value: String,
    },
    /// `${input:…}` outside environment variables and headers is kept as written.
    InputKeptAsWritten { server: String },
    /// A value mixes an input with the environment, and is left out.
    MixedValue {
        server: String,
        place: Place,
        key: String,
        text: String,
    },
}

impl fmt::Display for ImportWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotTrusted { server } => write!(
                f,
                "server {server:?}: `trusted` is not imported; mark the server trusted in its \
                 settings if you vouch for it"
            ),
            Self::UnusedSetting {
                server,
                field,
                value,
            } => write!(
                f,
                "server {server:?}: the setting `{field}` ({value}) is kept but not used by Switchboard"
            ),
            Self::InputKeptAsWritten { server } => write!(
                f,
                "server {server:?}: `${{input:…}}` is filled in only in environment variables and \
                 headers; elsewhere it is kept as written"
            ),
            Self::MixedValue {
                server,
                place,
                key,
                text,
            } => write!(
                f,
                "server {server:?}: the {} {key:?} ({text:?}) mixes `${{input:…}}` with \
                 `${{env:…}}` and is not imported; add it in the server's settings",
                place.as_str()
            ),
        }
    }
}
