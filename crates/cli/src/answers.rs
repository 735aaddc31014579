//! How the command line answers what a server asks: fixed answers taken from flags,
//! since nobody is there to ask.

use std::path::{Path, PathBuf};

use serde_json::Map;
use switchboard_mcp::client::{ClientHandler, ServerNotification};
use switchboard_mcp::file_uri::file_uri;
use switchboard_mcp::jsonrpc::{ErrorObject, code};
use switchboard_mcp::types::{
    ClientCapabilities, ContentBlock, CreateMessageRequestParams, CreateMessageResult,
    ElicitContent, ElicitRequestParams, ElicitResult, ListRootsResult, Role, Root,
};

use crate::{Failure, Server};

pub struct Answers {
    roots: Vec<Root>,
    form_answer: Option<Map<String, serde_json::Value>>,
    accept_url: bool,
    sampling_reply: Option<String>,
}

impl Answers {
    pub fn from_flags(server: &Server) -> Result<Self, Failure> {
        let roots = server
            .roots
            .iter()
            .map(|dir| root_of(dir))
            .collect::<Result<_, _>>()?;
        let form_answer = match &server.elicit_answer {
            None => None,
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("reading {}: {e}", path.display()))?;
                Some(crate::json_object(&path.display().to_string(), &text)?)
            }
        };
        Ok(Self {
            roots,
            form_answer,
            accept_url: server.accept_url,
            sampling_reply: server.sampling_reply.clone(),
        })
    }

    /// Everything is declared: what has no answer from the flags is declined when asked. So
    /// are tasks: a server may answer a call with one, which is followed to its end.
    pub fn capabilities(&self) -> ClientCapabilities {
        ClientCapabilities::all().with_tasks()
    }
}

/// A root for an existing folder, as a canonical `file://` URI.
fn root_of(dir: &Path) -> Result<Root, Failure> {
    let canonical = folder(dir)?;
    let name = canonical
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    Ok(Root::new(file_uri(&canonical), name))
}

/// The `--root` folders, canonical: what a sandboxed server is given to see, as its roots
/// name them.
pub fn folders(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    dirs.iter().map(|dir| folder(dir)).collect()
}

/// An existing folder, canonical.
fn folder(dir: &Path) -> Result<PathBuf, Failure> {
    let canonical = dir
        .canonicalize()
        .map_err(|e| format!("--root {}: {e}", dir.display()))?;
    if !canonical.is_dir() {
        return Err(format!("--root {}: not a folder", dir.display()));
    }
    Ok(canonical)
}

impl ClientHandler for Answers {
    async fn list_roots(&self) -> Result<ListRootsResult, ErrorObject> {
        Ok(ListRootsResult::new(self.roots.clone()))
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, ErrorObject> {
        let Some(reply) = &self.sampling_reply else {
            eprintln!("[sampling] declined (no --sampling-reply)");
            return Err(ErrorObject::new(
                code::USER_REJECTED,
                "sampling was declined",
            ));
        };
        eprintln!("[sampling] answering {} message(s)", params.messages.len());
        Ok(CreateMessageResult::new(
            Role::Assistant,
            ContentBlock::text(reply.clone()),
            "switchboard-cli/fixed-reply",
        ))
    }

    async fn elicit(&self, params: ElicitRequestParams) -> Result<ElicitResult, ErrorObject> {
        match params {
            ElicitRequestParams::Url(url) => {
                eprintln!("[elicitation] {} — {}", url.message, url.url);
                Ok(if self.accept_url {
                    ElicitResult::accepted(None)
                } else {
                    ElicitResult::declined()
                })
            }
            ElicitRequestParams::Form(form) => {
                eprintln!("[elicitation] {}", form.message);
                let Some(answer) = &self.form_answer else {
                    return Ok(ElicitResult::declined());
                };
                let content: ElicitContent = serde_json::from_value(answer.clone().into())
                    .map_err(ErrorObject::invalid_params)?;
                Ok(ElicitResult::accepted(Some(content)))
            }
        }
    }

    fn notification(&self, notification: ServerNotification) {
        match notification {
            ServerNotification::Log(log) => {
                let logger = log.logger.map(|l| format!(" {l}")).unwrap_or_default();
                eprintln!("[log {:?}{logger}] {}", log.level, log.data);
            }
            other => eprintln!("[notification] {other:?}"),
        }
    }
}
