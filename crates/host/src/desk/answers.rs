//! The person's answers to what servers ask, checked before they go: a form answer that
//! does not fit its form is refused here, so the person can fix it and nothing is lost.
//! Also the roots each server may see, the audit trail, and importing other hosts' servers.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value};
use switchboard_mcp::types::{
    CreateMessageResult, ElicitAction, ElicitRequestParams, ElicitResult,
};

use super::{Desk, DeskError, forms, shown};
use crate::approvals::{Answer, Pending, Question, Refusal, Remember};
use crate::config::{self, ImportSource};
use crate::links;
use crate::roots;

/// One line of the audit trail, as the activity view shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AuditEntry {
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub id: i64,
    pub at_ms: f64,
    pub kind: String,
    pub server: String,
    pub subject: String,
    pub decision: String,
    pub decided_by: String,
    pub outcome: String,
    pub duration_ms: Option<f64>,
}

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

impl Desk {
    /// What waits for the person, as they are shown it.
    pub fn pending(&self) -> Vec<Pending> {
        self.inner
            .gate
            .broker
            .pending()
            .into_iter()
            .map(shown::pending)
            .collect()
    }

    /// A pending question as its server asked it, nothing masked.
    fn question(&self, id: u64) -> Result<Question, DeskError> {
        self.inner
            .gate
            .broker
            .pending()
            .into_iter()
            .find(|p| p.id == id)
            .map(|p| p.question)
            .ok_or(DeskError::Answer(
                crate::approvals::AnswerError::NotPending(id),
            ))
    }

    fn answer(&self, id: u64, server: &str, answer: Answer) -> Result<(), DeskError> {
        Ok(self.inner.gate.broker.answer(id, server, answer)?)
    }

    pub fn answer_tool_call(
        &self,
        id: u64,
        server: &str,
        allow: bool,
        arguments: Map<String, Value>,
        remember: Remember,
    ) -> Result<(), DeskError> {
        self.answer(
            id,
            server,
            Answer::ToolCall {
                allow,
                arguments,
                remember,
            },
        )
    }

    /// Returns the reply the person wrote and reviewed (a `CreateMessageResult`), or
    /// declines with `None`.
    pub fn answer_sampling(
        &self,
        id: u64,
        server: &str,
        reply: Option<Value>,
    ) -> Result<(), DeskError> {
        let answer = match reply {
            None => Err(Refusal::Declined),
            Some(reply) => Ok(Box::new(
                serde_json::from_value::<CreateMessageResult>(reply)
                    .map_err(|e| DeskError::BadAnswer(format!("the reply is incomplete: {e}")))?,
            )),
        };
        self.answer(id, server, Answer::Sampling(answer))
    }

    /// Answers a form or a link. A form answer is checked against its form first; for an
    /// accepted link, the URL to open is returned (after the answer went).
    pub fn answer_elicitation(
        &self,
        id: u64,
        server: &str,
        result: Value,
    ) -> Result<Option<String>, DeskError> {
        let result: ElicitResult = serde_json::from_value(result)
            .map_err(|e| DeskError::BadAnswer(format!("not an answer to a form: {e}")))?;
        let Question::Elicitation { params } = self.question(id)? else {
            return Err(crate::approvals::AnswerError::WrongKind(id).into());
        };
        let accepted = result.action == ElicitAction::Accept;
        let to_open = match (*params, accepted) {
            (ElicitRequestParams::Form(form), true) => {
                let content = result.content.clone().unwrap_or_default();
                if let Err(errors) = form.requested_schema.validate(&content) {
                    let reasons: Vec<String> = errors
                        .iter()
                        .map(|e| format!("{}: {}", e.field, e.message))
                        .collect();
                    return Err(DeskError::BadAnswer(format!(
                        "the answer does not fit the form: {}",
                        reasons.join("; ")
                    )));
                }
                None
            }
            (ElicitRequestParams::Url(link), true) => Some(links::openable(&link.url)?.into()),
            (_, false) => None,
        };
        self.answer(id, server, Answer::Elicitation(Box::new(result)))?;
        Ok(to_open)
    }

    /// Shares exactly these folders with the server that asked (none is an answer too).
    /// They are granted only once the answer is accepted: an answer that comes too late
    /// shares nothing.
    pub fn answer_roots(
        &self,
        id: u64,
        server: &str,
        folders: &[PathBuf],
    ) -> Result<(), DeskError> {
        let chosen = roots::roots_of(folders)?;
        self.answer(id, server, Answer::Roots(chosen.clone()))?;
        self.inner.roots.set(server, chosen);
        Ok(())
    }

    /// The folders a server may see.
    pub fn roots_of(&self, server: &str) -> Vec<String> {
        self.inner
            .roots
            .of(server)
            .iter()
            .map(|root| {
                switchboard_mcp::file_uri::file_path(&root.uri)
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| root.uri.clone())
            })
            .collect()
    }

    /// Changes the folders a running server may see, and tells it.
    pub async fn set_roots(&self, server: &str, folders: &[PathBuf]) -> Result<(), DeskError> {
        let host = self.inner.host.lock().await;
        host.grant_roots(&self.inner.roots, server, folders).await?;
        Ok(())
    }

    /// A page of the audit trail, newest first.
    pub async fn audit(
        &self,
        before: Option<i64>,
        limit: u32,
    ) -> Result<Vec<AuditEntry>, DeskError> {
        let rows = self.inner.gate.audit.page(before, limit).await?;
        Ok(rows
            .into_iter()
            .map(|row| AuditEntry {
                id: row.id,
                at_ms: row.at_ms as f64,
                kind: row.record.kind.as_str().to_owned(),
                server: row.record.server,
                subject: row.record.subject,
                decision: row.record.decision,
                decided_by: row.record.decided_by,
                outcome: row.record.outcome,
                duration_ms: row.record.duration_ms.map(|d| d as f64),
            })
            .collect())
    }

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
        let imported = read_import(source_named(source)?, path)?;
        let existing = self.config().servers;
        Ok(ImportCandidate {
            source: source.to_owned(),
            path: path.display().to_string(),
            servers: imported
                .servers
                .iter()
                .map(|(name, server)| ImportableServer {
                    name: name.clone(),
                    target: forms::target_of(server),
                    conflict: existing.contains_key(name),
                })
                .collect(),
            warnings: imported.warnings,
        })
    }

    /// Adds the chosen servers of another host's file; names already configured are
    /// skipped. Returns the names added.
    pub async fn import(
        &self,
        source: &str,
        path: &Path,
        names: &[String],
    ) -> Result<Vec<String>, DeskError> {
        let imported = read_import(source_named(source)?, path)?;
        let mut added = Vec::new();
        self.edit_config(|config| {
            for (name, server) in imported.servers {
                if names.contains(&name) && !config.servers.contains_key(&name) {
                    forms::valid_name(&name)?;
                    config.servers.insert(name.clone(), server);
                    added.push(name);
                }
            }
            Ok(())
        })
        .await?;
        Ok(added)
    }
}

fn read_import(source: ImportSource, path: &Path) -> Result<config::Imported, DeskError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| DeskError::BadAnswer(format!("could not read {}: {e}", path.display())))?;
    Ok(config::import(source, &text)?)
}
