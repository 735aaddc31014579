//! A server as the MCP Registry describes it (its `server.json`), in the registry's own field
//! names: read from the registry, shown in the window as it came.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One version of a server the registry lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct RegistryServer {
    /// Reverse-DNS, one slash: `io.github.someone/weather`.
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub description: String,
    pub version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub website_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<Repository>,
    #[serde(default)]
    pub packages: Vec<Package>,
    #[serde(default)]
    pub remotes: Vec<Remote>,
    /// What the registry says of this version: `active`, `deprecated` or `deleted`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Repository {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subfolder: Option<String>,
}

/// A package that runs the server on this machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Package {
    /// `npm`, `pypi`, `oci`, or one Switchboard does not run (`nuget`, `mcpb`, `cargo` ...).
    pub registry_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registry_base_url: Option<String>,
    pub identifier: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_hint: Option<String>,
    pub transport: PackageTransport,
    #[serde(default)]
    pub runtime_arguments: Vec<Argument>,
    #[serde(default)]
    pub package_arguments: Vec<Argument>,
    #[serde(default)]
    pub environment_variables: Vec<KeyValueInput>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct PackageTransport {
    /// `stdio`, `streamable-http` or `sse`.
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// A server already running somewhere, reached over HTTP.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Remote {
    /// `streamable-http` or `sse`.
    #[serde(rename = "type")]
    pub kind: String,
    /// May hold `{variables}`, answered by the person.
    pub url: String,
    #[serde(default)]
    pub headers: Vec<KeyValueInput>,
    #[serde(default)]
    pub variables: BTreeMap<String, Input>,
}

/// A value the server needs: fixed by the entry (`value`), or asked of the person.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Input {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub is_required: bool,
    /// `string`, `number`, `boolean` or `filepath`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// Fixed by the entry; `{name}` in it stands for one of `variables`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(default)]
    pub is_secret: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<String>,
    #[serde(default)]
    pub choices: Vec<String>,
}

/// An input whose fixed value may name variables the person answers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct InputWithVariables {
    #[serde(flatten)]
    pub input: Input,
    #[serde(default)]
    pub variables: BTreeMap<String, Input>,
}

/// An environment variable or an HTTP header.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct KeyValueInput {
    pub name: String,
    #[serde(flatten)]
    pub input: InputWithVariables,
}

/// A part of the command line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Argument {
    /// A value alone; `valueHint` names it.
    Positional {
        #[serde(rename = "valueHint", default, skip_serializing_if = "Option::is_none")]
        value_hint: Option<String>,
        #[serde(flatten)]
        input: InputWithVariables,
    },
    /// `--flag` followed by its value.
    Named {
        name: String,
        #[serde(flatten)]
        input: InputWithVariables,
    },
}

impl Argument {
    pub fn input(&self) -> &InputWithVariables {
        match self {
            Self::Positional { input, .. } | Self::Named { input, .. } => input,
        }
    }
}

/// One item of a list answer as the registry sends it: the server, and the registry's own
/// notes on it.
#[derive(Debug, Deserialize)]
pub(super) struct Listed {
    pub server: RegistryServer,
    #[serde(rename = "_meta", default)]
    pub meta: Option<ListedMeta>,
}

#[derive(Debug, Deserialize)]
pub(super) struct ListedMeta {
    #[serde(rename = "io.modelcontextprotocol.registry/official", default)]
    pub official: Option<Official>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Official {
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub status_message: Option<String>,
}

impl Listed {
    /// The server, with what the registry says of its status.
    pub fn into_server(self) -> RegistryServer {
        let official = self.meta.and_then(|m| m.official);
        let (status, status_message) = official
            .map(|o| (o.status, o.status_message))
            .unwrap_or_default();
        RegistryServer {
            status,
            status_message,
            ..self.server
        }
    }
}
