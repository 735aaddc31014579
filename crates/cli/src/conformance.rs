//! `switchboard-cli conformance <url>`: the client side of the official conformance suite.
//! The suite names a scenario in `MCP_CONFORMANCE_SCENARIO` and the revision it runs at in
//! `MCP_CONFORMANCE_PROTOCOL_VERSION`, and judges from what its server saw; this client
//! speaks that revision's era and does what a well-behaved host does in each scenario.
//! Tool calls the scenario prescribes come in `MCP_CONFORMANCE_CONTEXT` (`toolCalls`).

use std::sync::Arc;

use serde_json::{Map, Value};
use switchboard_mcp::ProtocolVersion;
use switchboard_mcp::client::{Client, ClientConfig, ClientError, ClientHandler, EraSetting};
use switchboard_mcp::connection::RequestError;
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
    let auth = crate::conformance_auth::authorization(url, &scenario).map_err(|e| e.to_string())?;
    let server = HttpServer::new(url).authorization(auth);
    let (transport, _) = http::connect(&server, discard_log()).map_err(|e| e.to_string())?;
    let mut config = ClientConfig::new("switchboard-cli", env!("CARGO_PKG_VERSION"));
    config.capabilities = ClientCapabilities::all().with_skills();
    config.era = era_of(
        std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION")
            .ok()
            .as_deref(),
    );
    let client = Client::connect(transport, Arc::new(AcceptDefaults), config)
        .await
        .map_err(|e| e.to_string())?;
    let outcome = if scenario.starts_with(SKILLS_SCENARIOS) {
        skills(&client, &scenario).await
    } else {
        match prescribed_calls() {
            Some(calls) => call_prescribed(&client, calls).await,
            None => exercise(&client).await,
        }
    };
    client.close().await;
    outcome.map(|calls| serde_json::json!({ "scenario": scenario, "toolsCalled": calls }))
}

/// The skills extension's client scenarios (SEP-2640).
const SKILLS_SCENARIOS: &str = "sep-2640-client-";

/// What a host does with a server's skills: it lists them when it connects, and loads one
/// only when the model or the person asks for it, as the verification scenarios have it
/// asked (the load stops at a file that fails its check). The skills loaded are reported.
async fn skills(client: &Client, scenario: &str) -> Result<Vec<String>, Failure> {
    let skills = client.list_skills().await.map_err(|e| e.to_string())?;
    if scenario.ends_with("no-prefetch") {
        return Ok(Vec::new());
    }
    let mut loaded = Vec::new();
    for skill in &skills {
        match client.load_skill(skill).await {
            Ok(_) => loaded.push(skill.uri.clone()),
            Err(e) => eprintln!(
                "switchboard-cli: the skill {} is not loaded: {e}",
                skill.uri
            ),
        }
    }
    Ok(loaded)
}

/// The era of the revision the suite runs at: the stateless one for 2026-07-28, the
/// handshake for the others, found out when the suite names none.
fn era_of(revision: Option<&str>) -> EraSetting {
    match revision.map(str::parse::<ProtocolVersion>) {
        Some(Ok(version)) if !version.is_stateful() => EraSetting::Stateless,
        Some(Ok(_)) => EraSetting::Session,
        _ => EraSetting::Auto,
    }
}

#[derive(serde::Deserialize)]
struct ToolCall {
    name: String,
    #[serde(default)]
    arguments: Map<String, Value>,
}

/// The tool calls the scenario prescribes, if it does.
fn prescribed_calls() -> Option<Vec<ToolCall>> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Context {
        tool_calls: Option<Vec<ToolCall>>,
    }
    let text = std::env::var("MCP_CONFORMANCE_CONTEXT").ok()?;
    serde_json::from_str::<Context>(&text).ok()?.tool_calls
}

/// Lists the tools (so that the client knows their schemas) and makes the calls given.
async fn call_prescribed(client: &Client, calls: Vec<ToolCall>) -> Result<Vec<String>, Failure> {
    client.list_tools().await.map_err(|e| e.to_string())?;
    let mut called = Vec::new();
    for call in calls {
        client
            .call_tool(&call.name, Some(call.arguments), client.request_options())
            .await
            .map_err(|e| e.to_string())?;
        called.push(call.name);
    }
    Ok(called)
}

/// The echo tool of the schema-preservation scenario takes another tool's input schema,
/// as the client holds it, in its `schema` argument.
const SCHEMA_ECHO: &str = "json_schema_echo";
const SCHEMA_FOCAL: &str = "json_schema_2020_12_tool";

/// Lists the tools and calls each with arguments that fit its schema; reads every
/// resource and gets every prompt the server offers.
async fn exercise(client: &Client) -> Result<Vec<String>, Failure> {
    let mut called = Vec::new();
    let caps = client.capabilities();
    if caps.supports_tools() {
        let tools = client.list_tools().await.map_err(|e| e.to_string())?;
        for tool in &tools.items {
            let arguments = match tools.items.iter().find(|t| t.name == SCHEMA_FOCAL) {
                Some(focal) if tool.name == SCHEMA_ECHO => {
                    let mut arguments = Map::new();
                    arguments.insert("schema".into(), Value::Object(focal.input_schema.clone()));
                    arguments
                }
                _ => sample_arguments(tool),
            };
            let outcome = client
                .call_tool(&tool.name, Some(arguments), client.request_options())
                .await;
            tolerate_refusal(outcome)?;
            called.push(tool.name.clone());
        }
    }
    if caps.supports_resources() {
        let resources = client.list_resources().await.map_err(|e| e.to_string())?;
        for resource in resources {
            client
                .read_resource(&resource.uri, client.request_options())
                .await
                .map_err(|e| e.to_string())?;
        }
    }
    if caps.supports_prompts() {
        let prompts = client.list_prompts().await.map_err(|e| e.to_string())?;
        for prompt in prompts {
            client
                .get_prompt(&prompt.name, Map::new())
                .await
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(called)
}

/// A server that answers a call with an error has decided, and the client goes on; any
/// other failure (the transport, a broken answer) ends the run.
fn tolerate_refusal<T>(outcome: Result<T, ClientError>) -> Result<(), Failure> {
    match outcome {
        Ok(_) => Ok(()),
        Err(ClientError::Request(RequestError::Server { method, error })) => {
            eprintln!("the server answered {method} with an error: {error}");
            Ok(())
        }
        Err(other) => Err(other.to_string()),
    }
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
