//! Interop over stdio with a server written with the official Rust SDK, `rmcp`
//! (`tests/peers/rmcp-server`): each of its tools, its resource and its prompt.

use std::sync::Arc;

use serde_json::{Map, json};
use switchboard_mcp::client::{Client, ClientError};
use switchboard_mcp::connection::RequestError;
use switchboard_mcp::types::*;

use crate::common::peers::Reach;
use crate::common::{Person, Script, args, first_text};

async fn rmcp(person: Arc<Person>) -> Client {
    Reach::RmcpStdio.connect(person).await.client
}

#[tokio::test]
async fn capabilities_and_lists() {
    let client = rmcp(Person::new(Script::default())).await;
    let caps = client.capabilities();
    assert!(caps.supports_tools() && caps.supports_resources() && caps.supports_prompts());

    let tools = client.list_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "add", "echo", "elicit", "env", "header", "progress", "roots", "sample"
        ]
    );
    let add = tools.iter().find(|t| t.name == "add").unwrap();
    let output = add.output_schema.as_ref().expect("add declares its output");
    assert!(output["properties"]["sum"].is_object(), "{output:?}");

    let resources = client.list_resources().await.unwrap();
    let [hello] = resources.as_slice() else {
        panic!("one resource: {resources:?}")
    };
    assert_eq!(hello.uri, "rmcp://hello");
    assert_eq!(hello.mime_type.as_deref(), Some("text/plain"));

    let prompts = client.list_prompts().await.unwrap();
    let [prompt] = prompts.as_slice() else {
        panic!("one prompt: {prompts:?}")
    };
    assert_eq!(prompt.name, "hello");
    let arguments: Vec<(&str, Option<bool>)> = prompt
        .arguments
        .iter()
        .flatten()
        .map(|a| (a.name.as_str(), a.required))
        .collect();
    assert_eq!(arguments, [("name", Some(true))]);
    client.ping().await.unwrap();
    client.close().await;
}

#[tokio::test]
async fn add_answers_with_structured_content() {
    let client = rmcp(Person::new(Script::default())).await;
    let add = client
        .call_tool(
            "add",
            args(json!({"a": 40, "b": 2})),
            client.request_options(),
        )
        .await
        .unwrap();
    assert_eq!(add.structured_content, Some(json!({"sum": 42})));
    assert!(!add.failed());
    let overflow = client
        .call_tool(
            "add",
            args(json!({"a": i64::MAX, "b": 1})),
            client.request_options(),
        )
        .await
        .unwrap();
    assert!(overflow.failed(), "{overflow:?}");
    assert_eq!(
        first_text(&overflow),
        format!("{} + 1 overflows a 64-bit integer", i64::MAX)
    );
    client.close().await;
}

#[tokio::test]
async fn the_resource_is_read_and_an_unknown_one_fails() {
    let client = rmcp(Person::new(Script::default())).await;
    let read = client
        .read_resource("rmcp://hello", client.request_options())
        .await
        .unwrap();
    let [ResourceContents::Text(hello)] = read.contents.as_slice() else {
        panic!("one text: {read:?}")
    };
    assert_eq!(hello.uri, "rmcp://hello");
    assert_eq!(hello.text, "hello from rmcp");

    let missing = client
        .read_resource("rmcp://nothing", client.request_options())
        .await;
    let Err(ClientError::Request(RequestError::Server { error, .. })) = missing else {
        panic!("a server error: {missing:?}")
    };
    assert_eq!(error.code, -32002, "resource not found: {error:?}");
    client.close().await;
}

#[tokio::test]
async fn the_prompt_greets_by_name() {
    let client = rmcp(Person::new(Script::default())).await;
    let mut arguments = Map::new();
    arguments.insert("name".into(), json!("Ada"));
    let prompt = client.get_prompt("hello", arguments).await.unwrap();
    let [message] = prompt.messages.as_slice() else {
        panic!("one message: {prompt:?}")
    };
    assert_eq!(message.role, Role::User);
    assert_eq!(message.content.as_text(), Some("Hello, Ada!"));
    client.close().await;
}
