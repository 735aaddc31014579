//! Importing servers from other hosts' files. What a file offers is shown first, with what
//! each entry reaches beyond itself (to be kept or dropped one by one) and what it asks of
//! the person (VS Code's inputs); only then are the chosen servers added, settled by those
//! choices, their answers stored in the keyring under each new server's own name.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Desk, DeskError, FormError, forms};
use crate::config::{self, ImportSource, InputPrompt, Reference};

/// Another host's configuration file found on this machine, and what it holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportCandidate {
    pub source: String,
    pub path: String,
    pub servers: Vec<ImportableServer>,
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportableServer {
    pub name: String,
    pub target: String,
    /// A server by this name is already configured; importing skips it.
    pub conflict: bool,
    /// What the entry reaches beyond itself (a keyring secret, Switchboard's environment):
    /// each is kept only if the person confirms it as shown here, else its variable or
    /// header is dropped.
    pub references: Vec<Reference>,
    /// What the person must answer (VS Code's inputs, by id across the file).
    pub inputs: Vec<InputPrompt>,
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
pub struct ImportChoice {
    pub name: String,
    /// Each exactly as the candidate showed it; every other reference is dropped.
    pub keep: Vec<Reference>,
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

fn source_named(name: &str) -> Result<ImportSource, DeskError> {
    SOURCES
        .iter()
        .find(|(_, label)| *label == name)
        .map(|(source, _)| *source)
        .ok_or_else(|| DeskError::BadAnswer(format!("unknown source {name:?}")))
}

fn read_import(source: &str, path: &Path) -> Result<config::Imported, DeskError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| DeskError::BadAnswer(format!("could not read {}: {e}", path.display())))?;
    Ok(config::import(source_named(source)?, &text)?)
}

impl Desk {
    /// The other hosts' configuration files found where they keep them.
    pub fn import_candidates(&self) -> Vec<ImportCandidate> {
        SOURCES
            .iter()
            .filter_map(|(source, label)| {
                let path = source.default_path()?;
                self.import_candidate(label, &path).ok()
            })
            .collect()
    }

    /// What a file of another host (`source` is "Claude Desktop", "VS Code" or "Cursor")
    /// would bring in.
    pub fn import_candidate(
        &self,
        source: &str,
        path: &Path,
    ) -> Result<ImportCandidate, DeskError> {
        let imported = read_import(source, path)?;
        let existing = self.config().servers;
        Ok(ImportCandidate {
            source: source.to_owned(),
            path: path.display().to_string(),
            servers: imported
                .servers
                .into_iter()
                .map(|(name, server)| ImportableServer {
                    target: forms::target_of(&server.config),
                    conflict: existing.contains_key(&name),
                    name,
                    references: server.references,
                    inputs: server.inputs,
                })
                .collect(),
            warnings: imported.warnings,
        })
    }

    /// Adds the chosen servers of another host's file, as the person settled them; names
    /// already configured are skipped. The file is read again: a reference that changed
    /// since it was shown is not the one confirmed, and is dropped. The answers go to the
    /// keyring before the file names them. Returns the names added.
    pub async fn import(&self, request: &ImportRequest) -> Result<Vec<String>, DeskError> {
        let mut imported = read_import(&request.source, Path::new(&request.path))?;
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
                .ok_or_else(|| DeskError::NoServer(choice.name.clone()))?;
            forms::valid_name(&choice.name)?;
            let server = server.settle(&choice.name, &choice.keep, &answers)?;
            settled.push((choice.name.clone(), server));
        }
        if let Some(problem) = self.config_problem() {
            return Err(DeskError::BrokenConfig(problem));
        }
        // A name already configured is skipped before its answers are stored: they would
        // replace the secrets of the server configured under it.
        let existing = config::load(&self.inner.config_path)?.servers;
        settled.retain(|(name, _)| !existing.contains_key(name));
        for (_, server) in &settled {
            for (secret, value) in &server.secrets {
                self.inner
                    .secrets
                    .set(secret, value)
                    .await
                    .map_err(|e| FormError::Keyring(e.to_string()))?;
            }
        }
        let mut added = Vec::new();
        self.edit_config(|config| {
            for (name, server) in settled {
                if !config.servers.contains_key(&name) {
                    config.servers.insert(name.clone(), server.config);
                    added.push(name);
                }
            }
            Ok(())
        })
        .await?;
        Ok(added)
    }
}
