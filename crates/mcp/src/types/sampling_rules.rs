//! The rules a `sampling/createMessage` request must follow (2025-11-25), checked before
//! anyone is asked to answer it: tools only for a client that declared `sampling.tools`,
//! and every tool use answered by a tool result in the very next message.

use std::collections::HashSet;

use super::common::Role;
use super::lifecycle::ClientCapabilities;
use super::sampling::{CreateMessageRequestParams, SamplingContent, SamplingMessage};

/// How a sampling request breaks the protocol's rules; answered with -32602.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SamplingRuleError {
    #[error("the request offers tools, but this client did not declare sampling.tools")]
    ToolsNotDeclared,
    #[error("the request sets toolChoice, but this client did not declare sampling.tools")]
    ToolChoiceNotDeclared,
    #[error("messages[{message}]: tool uses belong in assistant messages")]
    ToolUseFromUser { message: usize },
    #[error("messages[{message}]: tool results belong in user messages")]
    ToolResultFromAssistant { message: usize },
    #[error("messages[{message}]: a user message with tool results must hold nothing else")]
    MixedToolResults { message: usize },
    #[error("messages[{message}]: tool use id {id:?} appears twice")]
    DuplicateToolUse { message: usize, id: String },
    #[error(
        "messages[{message}]: tool use {id:?} is not answered by a tool result in the next message"
    )]
    UnansweredToolUse { message: usize, id: String },
    #[error("messages[{message}]: tool result {id:?} answers no tool use of the message before it")]
    UnmatchedToolResult { message: usize, id: String },
    #[error("messages[{message}]: tool result {id:?} appears twice")]
    DuplicateToolResult { message: usize, id: String },
}

impl CreateMessageRequestParams {
    /// Checks the request against what the client declared and against the spec's rules
    /// for tool uses and results.
    pub fn check_rules(&self, capabilities: &ClientCapabilities) -> Result<(), SamplingRuleError> {
        if !capabilities.supports_sampling_tools() {
            if self.tools.is_some() {
                return Err(SamplingRuleError::ToolsNotDeclared);
            }
            if self.tool_choice.is_some() {
                return Err(SamplingRuleError::ToolChoiceNotDeclared);
            }
        }
        let mut asked: Option<(usize, Vec<&str>)> = None;
        for (index, message) in self.messages.iter().enumerate() {
            let turn = Turn::of(index, message)?;
            turn.answers(asked.take())?;
            if !turn.uses.is_empty() {
                asked = Some((index, turn.uses));
            }
        }
        match asked {
            Some((message, uses)) => Err(unanswered(message, uses[0])),
            None => Ok(()),
        }
    }
}

/// The tool uses and results of one message, checked on their own.
struct Turn<'a> {
    index: usize,
    uses: Vec<&'a str>,
    results: Vec<&'a str>,
}

impl<'a> Turn<'a> {
    fn of(index: usize, message: &'a SamplingMessage) -> Result<Self, SamplingRuleError> {
        let (mut uses, mut results, mut others) = (Vec::new(), Vec::new(), 0);
        for content in message.content.iter() {
            match content {
                SamplingContent::ToolUse(tool_use) => uses.push(tool_use.id.as_str()),
                SamplingContent::ToolResult(result) => results.push(result.tool_use_id.as_str()),
                _ => others += 1,
            }
        }
        match message.role {
            Role::User if !uses.is_empty() => {
                return Err(SamplingRuleError::ToolUseFromUser { message: index });
            }
            Role::Assistant if !results.is_empty() => {
                return Err(SamplingRuleError::ToolResultFromAssistant { message: index });
            }
            _ if !results.is_empty() && others > 0 => {
                return Err(SamplingRuleError::MixedToolResults { message: index });
            }
            _ => {}
        }
        if let Some(id) = first_repeated(&uses) {
            return Err(SamplingRuleError::DuplicateToolUse {
                message: index,
                id: id.to_owned(),
            });
        }
        Ok(Self {
            index,
            uses,
            results,
        })
    }

    /// Whether this message's results answer exactly the tool uses of the message before.
    fn answers(&self, asked: Option<(usize, Vec<&str>)>) -> Result<(), SamplingRuleError> {
        let (asked_in, uses) = asked.unwrap_or_default();
        if let Some(id) = uses.iter().find(|id| !self.results.contains(id)) {
            return Err(unanswered(asked_in, id));
        }
        if let Some(id) = self.results.iter().find(|id| !uses.contains(id)) {
            return Err(SamplingRuleError::UnmatchedToolResult {
                message: self.index,
                id: (*id).to_owned(),
            });
        }
        match first_repeated(&self.results) {
            Some(id) => Err(SamplingRuleError::DuplicateToolResult {
                message: self.index,
                id: id.to_owned(),
            }),
            None => Ok(()),
        }
    }
}

fn unanswered(message: usize, id: &str) -> SamplingRuleError {
    SamplingRuleError::UnansweredToolUse {
        message,
        id: id.to_owned(),
    }
}

fn first_repeated<'a>(ids: &[&'a str]) -> Option<&'a str> {
    let mut seen = HashSet::new();
    ids.iter().copied().find(|id| !seen.insert(*id))
}
