//! Importing servers from other hosts' files. What a file offers is shown first, with what
//! each entry reaches beyond itself (to be kept or dropped one by one) and what it asks of
//! the person (VS Code's inputs), with a free name offered for one already configured and
//! the plain-text tokens it holds offered to go to the keyring; only then are the chosen
//! servers added, settled by those choices, their secrets stored in the keyring under each
//! new server's own name. What was done is summed up: imported (and as what), skipped (and
//! why), and which secrets went to the keyring.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Servers, ServersError};
use crate::server_settings::{self, FormError};
use switchboard_core::config::{
    self, ImportSource, ImportWarning, InputPrompt, PlainSecret, Reference,
};

/// Another host's configuration file found on this machine, and what it holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportCandidate {
    pub source: String,
    pub path: String,
    pub servers: Vec<ImportableServer>,
    pub warnings: Vec<ImportWarning>,
    /// The names of the servers configured now: none may be imported under one of them.
    pub configured: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ImportableServer {
    pub name: String,
    pub target: String,
    /// A server by this name is already configured: it is imported only under another.
    pub conflict: bool,
    /// The name to import it under unless the person gives another: its own if free, else
    /// the first free one of `name-2`, `name-3`, ... (free of this file's other names too).
    pub suggested_name: String,
    /// What the entry reaches beyond itself (a keyring secret, Switchboard's environment):
    /// each is kept only if the person confirms it as shown here, else its variable or
    /// header is dropped.
    pub references: Vec<Reference>,
    /// What the person must answer (VS Code's inputs, by id across the file).
    pub inputs: Vec<InputPrompt>,
    /// Tokens the entry holds in plain text, which may go to the keyring instead.
    pub plain_secrets: Vec<PlainSecret>,
}

/// What to import from a file of another host.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportRequest {
    /// "Claude Desktop", "VS Code" or "Cursor".
    pub source: String,
    pub path: String,
    pub servers: Vec<ImportChoice>,
    /// One answer for each input the chosen servers need.
    pub answers: Vec<InputAnswer>,
}

/// A server to import, and the references the person confirmed.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ImportChoice {
    /// Its name in the file.
    pub name: String,
    /// Each exactly as the candidate showed it; every other reference is dropped.
    pub keep: Vec<Reference>,
    /// The name to import it under, if not its own.
    #[serde(default)]
    pub import_as: Option<String>,
    /// Whether its plain-text tokens go to the keyring (the configuration names them).
    #[serde(default)]
    pub to_keyring: bool,
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportSummary {
    pub imported: Vec<ImportedServerReport>,
    pub skipped: Vec<SkippedServer>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportedServerReport {
    /// The name it was imported under.
    pub name: String,
    /// Its name in the file (another if it was renamed).
    pub from: String,
    /// The keyring names of the secrets stored for it (tokens moved, inputs answered).
    pub secrets: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SkippedServer {
    /// Its name in the file.
    pub name: String,
    pub reason: Skipped,
}

/// Why a server of the file was not imported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Skipped {
    NotSelected,
    /// A server by the name it was to be imported under is configured.
    Taken {
        name: String,
    },
    /// Another server of the file is imported under that name.
    ClaimedTwice {
        name: String,
    },
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotSelected => f.write_str("not selected"),
            Self::Taken { name } => write!(f, "a server named {name:?} is already configured"),
            Self::ClaimedTwice { name } => {
                write!(f, "another server of the file is imported as {name:?}")
            }
        }
    }
}

/// The person's answer to an input.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct InputAnswer {
    pub id: String,
    pub value: String,
}

impl std::fmt::Debug for InputAnswer {
    /// The answer may be a key: it is never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InputAnswer")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

const SOURCES: [(ImportSource, &str); 3] = [
    (ImportSource::ClaudeDesktop, "Claude Desktop"),
    (ImportSource::VsCode, "VS Code"),
    (ImportSource::Cursor, "Cursor"),
];

fn source_named(name: &str) -> Result<ImportSource, ServersError> {
    SOURCES
        .iter()
        .find(|(_, label)| *label == name)
        .map(|(source, _)| *source)
        .ok_or_else(|| ServersError::BadRequest(format!("unknown source {name:?}")))
}

fn label_of(source: ImportSource) -> &'static str {
    SOURCES
        .iter()
        .find(|(s, _)| *s == source)
        .map_or("", |(_, label)| label)
}

/// A file of another host, read as `source` says, or as its content tells if `None`.
fn read_import(
    source: Option<&str>,
    path: &Path,
) -> Result<(&'static str, config::Imported), ServersError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ServersError::BadRequest(format!("could not read {}: {e}", path.display())))?;
    let source = match source {
        Some(name) => source_named(name)?,
        None => ImportSource::detect(&text, path)?,
    };
    Ok((label_of(source), config::import(source, &text)?))
}

/// Why a server was not imported under `name`.
/// `name` if no one holds it, else the first of `name-2`, `name-3`, ... no one holds.
pub(super) fn free_name(name: &str, taken: &BTreeSet<&str>) -> String {
    if !taken.contains(name) {
        return name.to_owned();
    }
    (2..)
        .map(|n| format!("{name}-{n}"))
        .find(|candidate| !taken.contains(candidate.as_str()))
        .unwrap_or_else(|| name.to_owned())
}

impl Servers {
    /// The other hosts' configuration files found where they keep them.
    pub fn import_candidates(&self) -> Vec<ImportCandidate> {
        SOURCES
            .iter()
            .filter_map(|(source, label)| {
                let path = source.default_path()?;
                self.import_candidate(Some(label), &path).ok()
            })
            .collect()
    }

    /// What a file of another host (`source` is "Claude Desktop", "VS Code" or "Cursor",
    /// or `None` to tell by the file's content) would bring in.
    pub fn import_candidate(
        &self,
        source: Option<&str>,
        path: &Path,
    ) -> Result<ImportCandidate, ServersError> {
        let (label, imported) = read_import(source, path)?;
        let existing = self.host.config().servers;
        let taken: BTreeSet<&str> = existing
            .keys()
            .chain(imported.servers.keys())
            .map(String::as_str)
            .collect();
        let servers = imported
            .servers
            .iter()
            .map(|(name, server)| {
                let conflict = existing.contains_key(name);
                ImportableServer {
                    target: server_settings::target_of(&server.config),
                    conflict,
                    suggested_name: if conflict {
                        free_name(name, &taken)
                    } else {
                        name.clone()
                    },
                    name: name.clone(),
                    references: server.references.clone(),
                    inputs: server.inputs.clone(),
                    plain_secrets: server.plain_secrets.clone(),
                }
            })
            .collect();
        Ok(ImportCandidate {
            source: label.to_owned(),
            path: path.display().to_string(),
            servers,
            warnings: imported.warnings,
            configured: existing.into_keys().collect(),
        })
    }

    /// Adds the chosen servers of another host's file, as the person settled them, each
    /// under the name they gave; one whose name is configured already is skipped, never
    /// merged. The file is read again: a reference that changed since it was shown is not
    /// the one confirmed, and is dropped. The secrets go to the keyring before the file
    /// names them. A file that cannot be read, a name that is no name or an input left
    /// unanswered changes nothing. Returns what was done.
    pub async fn import(&self, request: &ImportRequest) -> Result<ImportSummary, ServersError> {
        let (_, mut imported) = read_import(Some(&request.source), Path::new(&request.path))?;
        let answers: BTreeMap<String, String> = request
            .answers
            .iter()
            .map(|a| (a.id.clone(), a.value.clone()))
            .collect();
        // Every chosen server is settled first, so that a missing answer stores nothing.
        let mut settled = Vec::new();
        for choice in &request.servers {
            let server = imported
                .servers
                .remove(&choice.name)
                .ok_or_else(|| ServersError::NoServer(choice.name.clone()))?;
            let name = choice.import_as.as_deref().unwrap_or(&choice.name).trim();
            server_settings::valid_name(name)?;
            let server = server.settle(name, &choice.keep, &answers, choice.to_keyring)?;
            settled.push((choice.name.clone(), name.to_owned(), server));
        }
        if let Some(problem) = self.host.config_problem() {
            return Err(ServersError::BrokenConfig(problem));
        }
        let mut summary = ImportSummary::default();
        let skip = |summary: &mut ImportSummary, name: &str, reason: Skipped| {
            summary.skipped.push(SkippedServer {
                name: name.to_owned(),
                reason,
            });
        };
        for name in imported.servers.keys() {
            skip(&mut summary, name, Skipped::NotSelected);
        }
        // A name already configured is skipped before its secrets are stored: they would
        // replace the secrets of the server configured under it.
        let existing = config::load(&self.host.config_path())?.servers;
        let mut claimed = BTreeSet::new();
        settled.retain(|(from, name, _)| {
            let reason = if existing.contains_key(name) {
                Skipped::Taken { name: name.clone() }
            } else if !claimed.insert(name.clone()) {
                Skipped::ClaimedTwice { name: name.clone() }
            } else {
                return true;
            };
            skip(&mut summary, from, reason);
            false
        });
        for (_, _, server) in &settled {
            for (secret, value) in &server.secrets {
                self.secrets
                    .set(secret, value)
                    .await
                    .map_err(FormError::Keyring)?;
            }
        }
        self.edit(move |config| {
            for (from, name, server) in settled {
                if config.servers.contains_key(&name) {
                    skip(&mut summary, &from, Skipped::Taken { name: name.clone() });
                    continue;
                }
                summary.imported.push(ImportedServerReport {
                    name: name.clone(),
                    from,
                    secrets: server
                        .secrets
                        .into_iter()
                        .map(|(secret, _)| secret)
                        .collect(),
                });
                config.servers.insert(name, server.config);
            }
            Ok(summary)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_name_is_free_of_every_name_held() {
        let taken: BTreeSet<&str> = ["demo", "demo-2", "files"].into();
        assert_eq!(free_name("demo", &taken), "demo-3");
        assert_eq!(free_name("files", &taken), "files-2");
        assert_eq!(free_name("memory", &taken), "memory");
    }
}
