//! The activity's service: the audit trail as the activity view reads it (a page, newest
//! first, or the records that hold a text; the search runs in the trail, never over what
//! a face has loaded), and what the person should know about the trail itself. Who
//! decided and how a call ended are typed in the trail, and become text here.

use std::sync::Arc;

use serde::Serialize;
use switchboard_core::audit::{AuditError, AuditLog};
use switchboard_core::decisions::{DecidedBy, Given, Outcome};
use switchboard_core::json::Json;

use crate::file_notice::FileNotice;

/// One line of the audit trail, as the activity view shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    pub id: i64,
    pub at_ms: i64,
    pub kind: String,
    pub server: String,
    pub subject: String,
    pub decision: String,
    /// Who or what decided, by kind (the window words it in the person's language).
    pub decided_by: DecidedBy,
    /// How it ended, by kind.
    pub outcome: Outcome,
    pub duration_ms: Option<u64>,
    /// Who asked for a tool call ("the person", "model in conversation 3"); empty for
    /// what a server asked.
    pub asked_by: String,
    /// The arguments or request as kept (web addresses' secrets masked; cut if huge).
    pub detail: Json,
    /// How a tool call's decision was given (once, session, always, a rule, own call).
    pub given: Option<Given>,
}

/// Cheap to clone; every clone is the same service.
#[derive(Clone)]
pub struct Activity {
    audit: Arc<AuditLog>,
    notices: Arc<[FileNotice]>,
}

impl Activity {
    /// The service over the audit trail, with what the person should know about it (a
    /// setting that did not read, a damaged file moved aside).
    pub fn new(audit: Arc<AuditLog>, notices: Vec<FileNotice>) -> Self {
        Self {
            audit,
            notices: notices.into(),
        }
    }

    /// A page of the audit trail, newest first.
    pub async fn page(
        &self,
        before: Option<i64>,
        limit: u32,
    ) -> Result<Vec<AuditEntry>, AuditError> {
        self.search("", before, limit).await
    }

    /// A page of the audit records that hold `text` (see [`AuditLog::search`]), newest
    /// first.
    pub async fn search(
        &self,
        text: &str,
        before: Option<i64>,
        limit: u32,
    ) -> Result<Vec<AuditEntry>, AuditError> {
        let rows = self.audit.search(text.to_owned(), before, limit).await?;
        Ok(rows
            .into_iter()
            .map(|row| AuditEntry {
                id: row.id,
                at_ms: row.at_ms,
                kind: row.record.kind.as_str().to_owned(),
                server: row.record.server,
                subject: row.record.subject,
                decision: row.record.decision,
                decided_by: row.record.decided_by,
                outcome: row.record.outcome,
                duration_ms: row.record.duration_ms,
                asked_by: row.asked_by,
                detail: Json(row.record.detail),
                given: row.given,
            })
            .collect())
    }

    /// What the person should know about the audit trail, if anything.
    pub fn notices(&self) -> &[FileNotice] {
        &self.notices
    }
}
