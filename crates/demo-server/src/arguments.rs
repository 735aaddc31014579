//! What every tool reads and returns: its arguments, read one by one with messages that
//! name the argument at fault, and its result or failure.

use std::ops::RangeInclusive;

use serde_json::{Map, Value};
use switchboard_mcp::types::*;

/// A failure of the tool itself: the client shows it as an `isError` result, and a model
/// may read it and try again.
pub struct Failure(pub String);

pub type ToolResult = Result<CallToolResult, Failure>;

pub fn text_result(text: impl Into<String>) -> CallToolResult {
    CallToolResult::new(vec![ContentBlock::text(text)])
}

pub fn error_result(message: String) -> CallToolResult {
    let mut result = text_result(message);
    result.is_error = Some(true);
    result
}

/// A tool's arguments, read one by one with messages that name the argument at fault.
pub struct Args {
    tool: String,
    map: Map<String, Value>,
}

impl Args {
    /// The tool these are the arguments of.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    pub fn new(tool: &str, map: Map<String, Value>) -> Self {
        Self {
            tool: tool.to_owned(),
            map,
        }
    }

    /// A failure of the tool, naming it.
    pub fn fail(&self, message: String) -> Failure {
        Failure(format!("{}: {message}", self.tool))
    }

    /// An argument the tool's input schema does not declare.
    pub fn unknown(&self, tool: &Tool) -> Option<Failure> {
        let declared = tool
            .input_schema
            .get("properties")
            .and_then(Value::as_object);
        let is_declared = |name: &String| declared.is_some_and(|p| p.contains_key(name));
        let unknown = self.map.keys().find(|name| !is_declared(name))?;
        let takes: Vec<&str> = declared
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let takes = if takes.is_empty() {
            "it takes none".to_owned()
        } else {
            format!("it takes {}", takes.join(", "))
        };
        Some(self.fail(format!("unknown argument `{unknown}` ({takes})")))
    }

    fn required(&self, name: &str) -> Result<&Value, Failure> {
        self.map
            .get(name)
            .ok_or_else(|| self.fail(format!("missing the argument `{name}`")))
    }

    pub fn string(&self, name: &str) -> Result<String, Failure> {
        match self.required(name)? {
            Value::String(s) => Ok(s.clone()),
            other => Err(self.fail(format!("`{name}` must be a string, not {other}"))),
        }
    }

    /// A string argument the caller may leave out.
    pub fn optional_string(&self, name: &str) -> Result<Option<String>, Failure> {
        match self.map.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.string(name).map(Some),
        }
    }

    /// A true/false argument the caller may leave out (false).
    pub fn flag(&self, name: &str) -> Result<bool, Failure> {
        match self.map.get(name) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(self.fail(format!("`{name}` must be true or false, not {other}"))),
        }
    }

    /// A number argument the caller may leave out.
    pub fn optional_number(&self, name: &str) -> Result<Option<f64>, Failure> {
        match self.map.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => Ok(self.number(name)?.as_f64()),
        }
    }

    pub fn number(&self, name: &str) -> Result<serde_json::Number, Failure> {
        match self.required(name)? {
            Value::Number(n) => Ok(n.clone()),
            other => Err(self.fail(format!("`{name}` must be a number, not {other}"))),
        }
    }

    /// A whole number within `range`; `default` if the argument is absent.
    pub fn integer(
        &self,
        name: &str,
        range: RangeInclusive<u64>,
        default: Option<u64>,
    ) -> Result<u64, Failure> {
        let value = match (self.map.get(name), default) {
            (None, Some(default)) => return Ok(default),
            _ => self.required(name)?,
        };
        value.as_u64().filter(|n| range.contains(n)).ok_or_else(|| {
            self.fail(format!(
                "`{name}` must be a whole number from {} to {}, not {value}",
                range.start(),
                range.end()
            ))
        })
    }
}
