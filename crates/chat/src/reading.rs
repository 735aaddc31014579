//! The model reads a resource of the person's servers itself, not only what the person
//! attached: a tool of the host's own, offered when a running server lists resources, each
//! read passing the gate as an agent's reads do (a standing rule about the model's reads of
//! that server, or the person), recorded in the audit trail.

use serde_json::{Value, json};
use switchboard_mcp::types::{CallToolResult, ContentBlock, EmbeddedResource, ReadResourceResult};
use switchboard_providers::Tool;

/// The host's read tool, as the model calls it.
pub const READ: &str = "switchboard_read_resource";

/// The most resources the tool's description names.
const NAMED: usize = 40;

/// The read tool as the model is told of it, naming the resources it may read.
pub fn read_tool(resources: &[(String, String, String)]) -> Tool {
    let mut listed: Vec<String> = resources
        .iter()
        .take(NAMED)
        .map(|(server, uri, name)| format!("{server}: {uri} ({name})"))
        .collect();
    if resources.len() > NAMED {
        listed.push(format!("and {} more", resources.len() - NAMED));
    }
    Tool {
        name: READ.to_owned(),
        description: Some(format!(
            "Reads a resource of one of the person's MCP servers (the person may be asked \
             first). Resources: {}",
            listed.join("; ")
        )),
        parameters: json!({
            "type": "object",
            "properties": {
                "server": {"type": "string", "description": "The server that lists the resource"},
                "uri": {"type": "string", "description": "The resource's URI"}
            },
            "required": ["server", "uri"]
        }),
    }
}

/// The server and URI a read call names.
pub fn target(arguments: &Value) -> Option<(String, String)> {
    let text = |key: &str| {
        arguments
            .get(key)
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    Some((text("server")?, text("uri")?))
}

/// What was read, as the result of the model's call: each of its contents embedded, as a
/// tool that answers with a resource does, so that it reaches the model within the same
/// bounds (images as images, other binaries described).
pub fn as_result(read: ReadResourceResult) -> CallToolResult {
    let mut content: Vec<ContentBlock> = read
        .contents
        .into_iter()
        .map(|resource| {
            ContentBlock::Resource(EmbeddedResource {
                resource,
                annotations: None,
                meta: None,
                extra: Default::default(),
            })
        })
        .collect();
    if content.is_empty() {
        content.push(ContentBlock::text("(the resource has no contents)"));
    }
    CallToolResult::new(content)
}
