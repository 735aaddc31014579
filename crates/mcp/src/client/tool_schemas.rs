//! Tool calls checked against the tool's own schemas: the arguments before the call is
//! sent, the structured content when the result comes back. Each definition's schemas are
//! compiled once per session, and again only when the server changes the definition.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::{Map, Value};

use super::{Client, ClientError};
use crate::connection::RequestOptions;
use crate::schema::{CompiledSchema, Dialect};
use crate::types::{CallToolResult, Tool};

/// Which schema of a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaRole {
    Input,
    Output,
}

impl fmt::Display for SchemaRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Input => "input schema",
            Self::Output => "output schema",
        })
    }
}

/// A tool's input and output schemas, compiled.
#[derive(Debug)]
pub struct ToolSchemas {
    input: CompiledSchema,
    output: Option<CompiledSchema>,
}

impl ToolSchemas {
    /// Compiles the tool's schemas; one without `$schema` is read in `dialect`.
    pub fn compile(tool: &Tool, dialect: Dialect) -> Result<Self, ClientError> {
        let compile = |schema: &Map<String, Value>, role| {
            CompiledSchema::new(&Value::Object(schema.clone()), dialect).map_err(|error| {
                ClientError::UnusableSchema {
                    tool: tool.name.clone(),
                    role,
                    error,
                }
            })
        };
        Ok(Self {
            input: compile(&tool.input_schema, SchemaRole::Input)?,
            output: tool
                .output_schema
                .as_ref()
                .map(|schema| compile(schema, SchemaRole::Output))
                .transpose()?,
        })
    }

    /// Whether these arguments (none is `{}`) fit the input schema.
    pub fn check_arguments(
        &self,
        tool: &str,
        arguments: Option<&Map<String, Value>>,
    ) -> Result<(), ClientError> {
        let arguments = Value::Object(arguments.cloned().unwrap_or_default());
        self.input
            .check(&arguments)
            .map_err(|errors| ClientError::InvalidArguments {
                tool: tool.to_owned(),
                errors,
            })
    }

    /// A successful result of a tool with an output schema must carry structured content
    /// that fits it; a result with `isError: true` is passed on as it is.
    pub fn check_result(
        &self,
        tool: &str,
        result: CallToolResult,
    ) -> Result<CallToolResult, ClientError> {
        let Some(output) = self.output.as_ref().filter(|_| !result.failed()) else {
            return Ok(result);
        };
        let Some(structured) = &result.structured_content else {
            return Err(ClientError::MissingStructuredContent {
                tool: tool.to_owned(),
                result: Box::new(result),
            });
        };
        match output.check(structured) {
            Ok(()) => Ok(result),
            Err(errors) => Err(ClientError::InvalidStructuredContent {
                tool: tool.to_owned(),
                errors,
                result: Box::new(result),
            }),
        }
    }
}

/// So many distinct tools that the cache starts again rather than grow without end.
const MAX_CACHED: usize = 4096;

/// Compiled schemas by tool name, with the definition they were compiled from.
#[derive(Debug, Default)]
pub(crate) struct ToolSchemaCache {
    by_name: Mutex<HashMap<String, Cached>>,
}

#[derive(Debug)]
struct Cached {
    input: Map<String, Value>,
    output: Option<Map<String, Value>>,
    schemas: Result<Arc<ToolSchemas>, ClientError>,
}

impl ToolSchemaCache {
    fn entries(&self) -> MutexGuard<'_, HashMap<String, Cached>> {
        self.by_name.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The tool's compiled schemas, compiled now if this definition was not seen before.
    pub(crate) fn get(
        &self,
        tool: &Tool,
        dialect: Dialect,
    ) -> Result<Arc<ToolSchemas>, ClientError> {
        if let Some(cached) = self.entries().get(&tool.name)
            && cached.input == tool.input_schema
            && cached.output == tool.output_schema
        {
            return cached.schemas.clone();
        }
        // Compiled without the lock: a large schema must not hold up other calls.
        let schemas = ToolSchemas::compile(tool, dialect).map(Arc::new);
        let mut entries = self.entries();
        if entries.len() >= MAX_CACHED {
            entries.clear();
        }
        entries.insert(
            tool.name.clone(),
            Cached {
                input: tool.input_schema.clone(),
                output: tool.output_schema.clone(),
                schemas: schemas.clone(),
            },
        );
        schemas
    }
}

impl Client {
    /// `tools/call`, checked against the tool's definition (as listed by the server): the
    /// arguments must fit its input schema before anything is sent, and a successful result
    /// of a tool with an output schema must carry structured content that fits it. A schema
    /// without `$schema` is read in the session's default dialect (2020-12 from 2025-11-25,
    /// draft-07 before). A tool that must run as a task is called as one
    /// ([`Client::call_tool_as_task`]).
    pub async fn call_tool_checked(
        &self,
        tool: &Tool,
        arguments: Option<Map<String, Value>>,
        options: RequestOptions,
    ) -> Result<CallToolResult, ClientError> {
        let dialect = Dialect::default_for(self.protocol_version());
        let schemas = self.tool_schemas.get(tool, dialect)?;
        schemas.check_arguments(&tool.name, arguments.as_ref())?;
        // A tool that must run as a task is called as one where its server runs them; one
        // that may, when the caller asks.
        let as_task = match tool.task_support() {
            "required" => true,
            "optional" => options.as_task,
            _ => false,
        };
        let result = if as_task && self.runs_tool_tasks() {
            self.call_tool_as_task(&tool.name, arguments, options)
                .await?
        } else {
            self.call_tool(&tool.name, arguments, options).await?
        };
        schemas.check_result(&tool.name, result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(input: Value) -> Tool {
        serde_json::from_value(json!({"name": "t", "inputSchema": input})).unwrap()
    }

    #[test]
    fn a_definition_is_compiled_once_and_again_when_it_changes() {
        let cache = ToolSchemaCache::default();
        let first = tool(json!({"type": "object"}));
        let a = cache.get(&first, Dialect::Draft2020_12).unwrap();
        let b = cache.get(&first, Dialect::Draft2020_12).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        let changed = tool(json!({"type": "object", "required": ["x"]}));
        let c = cache.get(&changed, Dialect::Draft2020_12).unwrap();
        assert!(!Arc::ptr_eq(&a, &c));
        assert!(c.check_arguments("t", None).is_err());
    }
}
