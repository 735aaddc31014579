//! `switchboard-cli conformance <url>`: the client side of the official conformance suite.
//! The suite names a scenario in `MCP_CONFORMANCE_SCENARIO` and judges from what its
//! server saw; this client does what a well-behaved host does in each.

use std::sync::Arc;

use serde_json::{Map, Value};
use switchboard_mcp::client::{Client, ClientConfig, ClientHandler};
use switchboard_mcp::jsonrpc::ErrorObject;
use switchboard_mcp::transport::discard_log;
use switchboard_mcp::transport::http::{self, HttpServer};
use switchboard_mcp::types::{ClientCapabilities, ElicitRequestParams, ElicitResult, Tool};

use crate::Failure;

/// Accepts form elicitations with the defaults the server declared, as a person who
/// confirms a pre-filled form would.
struct AcceptDefaults;

impl ClientHandler for AcceptDefaults {
    async fn elicit(&self, params: ElicitRequestParams) -> Result<ElicitResult, ErrorObject> {
        Ok(match params {
            ElicitRequestParams::Form(form) => {
                ElicitResult::accepted(Some(form.requested_schema.defaults()))
            }
            ElicitRequestParams::Url(_) => ElicitResult::declined(),
        })
    }
}

pub async fn run(url: &str) -> Result<Value, Failure> {
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let auth = crate::conformance_auth::authorization(url).map_err(|e| e.to_string())?;
    let server = HttpServer::new(url).authorization(auth);
    let (transport, _) = http::connect(&server, discard_log()).map_err(|e| e.to_string())?;
    let mut config = ClientConfig::new("switchboard-cli", env!("CARGO_PKG_VERSION"));
    config.capabilities = ClientCapabilities::all();
    let client = Client::connect(transport, Arc::new(AcceptDefaults), config)
        .await
        .map_err(|e| e.to_string())?;
    let outcome = exercise(&client).await;
    client.close().await;
    outcome.map(|calls| serde_json::json!({ "scenario": scenario, "toolsCalled": calls }))
}

/// Lists the tools and calls each with arguments that fit its schema.
async fn exercise(client: &Client) -> Result<Vec<String>, Failure> {
    if !client.capabilities().supports_tools() {
        return Ok(Vec::new());
    }
    let tools = client.list_tools().await.map_err(|e| e.to_string())?;
    let mut called = Vec::new();
    for tool in tools {
        client
            .call_tool(
                &tool.name,
                Some(sample_arguments(&tool)),
                client.request_options(),
            )
            .await
            .map_err(|e| e.to_string())?;
        called.push(tool.name);
    }
    Ok(called)
}

/// A plausible value for every property of the tool's input schema.
fn sample_arguments(tool: &Tool) -> Map<String, Value> {
    let Some(Value::Object(properties)) = tool.input_schema.get("properties") else {
        return Map::new();
    };
    properties
        .iter()
        .map(|(name, schema)| {
            let value = match schema.get("type").and_then(Value::as_str) {
                Some("number" | "integer") => Value::from(2),
                Some("boolean") => Value::Bool(true),
                Some("array") => Value::Array(Vec::new()),
                Some("object") => Value::Object(Map::new()),
                _ => Value::from("test"),
            };
            (name.clone(), value)
        })
        .collect()
}
