//! Interop over stdio with a server written with the official Rust SDK, `rmcp`
//! (`tests/peers/rmcp-server`): each of its tools, its resource and its prompt.

use std::sync::Arc;

use serde_json::{Map, json};
use switchboard_mcp::client::{Client, ClientError};
use switchboard_mcp::connection::RequestError;
use switchboard_mcp::types::*;

use crate::common::{
    Log, Person, Script, args, connect, drain_progress, first_text, rmcp_stdio, with_progress,
};

async fn rmcp(person: Arc<Person>) -> Client {
    connect(&rmcp_stdio(), person, &Log::default()).await
}

#[tokio::test]
async fn handshake_and_lists() {
    let client = rmcp(Person::new(Script::default())).await;
    assert_eq!(client.protocol_version().as_str(), "2025-11-25");
    assert_eq!(client.server().server_info.name, "rmcp-peer");
    assert_eq!(
        client.server().instructions.as_deref(),
        Some("rmcp test peer")
    );
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
async fn echo_returns_the_text_unchanged() {
    let client = rmcp(Person::new(Script::default())).await;
    let text = "héllo, wörld ✓ \"quoted\"\nsecond line";
    let echo = client
        .call_tool(
            "echo",
            args(json!({"text": text})),
            client.request_options(),
        )
        .await
        .unwrap();
    assert_eq!(first_text(&echo), text);
    assert!(!echo.failed());
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
async fn progress_reaches_the_sink() {
    let client = rmcp(Person::new(Script::default())).await;
    let (options, mut progress) = with_progress(&client);
    let result = client
        .call_tool("progress", args(json!({"steps": 3})), options)
        .await
        .unwrap();
    assert_eq!(first_text(&result), "done");
    assert_eq!(
        drain_progress(&mut progress),
        [(1.0, Some(3.0)), (2.0, Some(3.0)), (3.0, Some(3.0))]
    );
    client.close().await;
}

#[tokio::test]
async fn sampling_with_a_reply_and_declined() {
    let person = Person::new(Script {
        sampling_reply: Some("Paris.".into()),
        ..Script::default()
    });
    let client = rmcp(person.clone()).await;
    let result = client
        .call_tool(
            "sample",
            args(json!({"prompt": "Capital of France?"})),
            client.request_options(),
        )
        .await
        .unwrap();
    assert_eq!(first_text(&result), "model said: Paris.");
    let request = person.seen.lock().unwrap().sampling[0].clone();
    assert_eq!(request.max_tokens, 100);
    assert_eq!(request.messages[0].role, Role::User);
    assert_eq!(
        request.messages[0]
            .content
            .iter()
            .next()
            .and_then(SamplingContent::as_text),
        Some("Capital of France?")
    );

    let declining = rmcp(Person::new(Script::default())).await;
    let result = declining
        .call_tool(
            "sample",
            args(json!({"prompt": "hi"})),
            declining.request_options(),
        )
        .await
        .unwrap();
    assert!(result.failed(), "{result:?}");
    let text = first_text(&result);
    assert!(
        text.starts_with("sampling/createMessage failed: ") && text.contains("the user declined"),
        "{text}"
    );
    client.close().await;
    declining.close().await;
}

#[tokio::test]
async fn roots_are_exactly_what_the_person_exposed() {
    let person = Person::new(Script {
        roots: vec![
            Root::new("file:///home/ada/project", Some("project".into())),
            Root::new("file:///home/ada/notes", None),
        ],
        ..Script::default()
    });
    let client = rmcp(person.clone()).await;
    let roots = client
        .call_tool("roots", None, client.request_options())
        .await
        .unwrap();
    assert_eq!(
        first_text(&roots),
        "file:///home/ada/project\nfile:///home/ada/notes"
    );
    assert_eq!(person.seen.lock().unwrap().roots_requests, 1);

    let none = rmcp(Person::new(Script::default())).await;
    let roots = none
        .call_tool("roots", None, none.request_options())
        .await
        .unwrap();
    assert_eq!(first_text(&roots), "no roots");
    client.close().await;
    none.close().await;
}

#[tokio::test]
async fn elicitation_accepted_and_declined() {
    let answer: ElicitContent = [("name".to_owned(), ElicitValue::from("Ada"))].into();
    let person = Person::new(Script {
        form_answer: Some(answer.clone()),
        ..Script::default()
    });
    let client = rmcp(person.clone()).await;
    let result = client
        .call_tool("elicit", None, client.request_options())
        .await
        .unwrap();
    assert_eq!(first_text(&result), "hello Ada");
    {
        let seen = person.seen.lock().unwrap();
        let [ElicitRequestParams::Form(form)] = seen.elicitations.as_slice() else {
            panic!("one form: {:?}", seen.elicitations)
        };
        assert_eq!(form.message, "What is your name?");
        let schema = &form.requested_schema;
        assert!(matches!(
            schema.properties.get("name"),
            Some(PrimitiveSchema::String(_))
        ));
        assert!(schema.is_required("name"));
        assert_eq!(schema.validate(&answer), Ok(()));
        assert!(schema.validate(&ElicitContent::new()).is_err());
    }

    let declining = rmcp(Person::new(Script::default())).await;
    let result = declining
        .call_tool("elicit", None, declining.request_options())
        .await
        .unwrap();
    assert_eq!(first_text(&result), "declined");
    client.close().await;
    declining.close().await;
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
