//! Interop over stdio with a server written with the official Python SDK
//! (`tests/peers/python/server.py`): every client feature against a real third party.

use std::sync::Arc;

use serde_json::{Map, json};
use switchboard_mcp::client::{Client, ClientError, ServerNotification};
use switchboard_mcp::connection::RequestError;
use switchboard_mcp::types::*;

use crate::common::peers::Reach;
use crate::common::{Person, Script, WAIT, args, first_text};

async fn python(person: Arc<Person>) -> Client {
    Reach::PythonStdio.connect(person).await.client
}

#[tokio::test]
async fn paginated_lists_come_whole() {
    let client = python(Person::new(Script::default())).await;
    // The peer serves pages of three: these lists only come whole by following cursors.
    let tools: Vec<String> = client
        .list_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(
        tools,
        [
            "echo",
            "add",
            "slow",
            "ask_model",
            "ask_form",
            "ask_url",
            "greet_asked",
            "list_roots",
            "log_levels",
            "fail",
            "crash",
            "bump",
            "add_tool"
        ]
    );
    let resources = client.list_resources().await.unwrap();
    assert_eq!(resources.len(), 9);
    assert_eq!(resources[6].uri, "test://static/7");
    let prompts = client.list_prompts().await.unwrap();
    assert_eq!(prompts.len(), 4);
    let templates = client.list_resource_templates().await.unwrap();
    assert!(
        templates
            .iter()
            .any(|t| t.uri_template == "test://items/{id}")
    );
    client.ping().await.unwrap();
    client.close().await;
}

#[tokio::test]
async fn tools_answer_with_structured_content_and_errors() {
    let client = python(Person::new(Script::default())).await;
    let options = || client.request_options();
    let add = client
        .call_tool("add", args(json!({"a": 2, "b": 3})), options())
        .await
        .unwrap();
    assert_eq!(add.structured_content, Some(json!({"sum": 5})));
    let fail = client.call_tool("fail", None, options()).await.unwrap();
    assert_eq!(fail.is_error, Some(true));
    assert_eq!(first_text(&fail), "this tool always fails");
    client.close().await;
}

#[tokio::test]
async fn url_elicitations_are_answered_as_the_person_chose() {
    let person = Person::new(Script {
        accept_urls: true,
        ..Script::default()
    });
    let client = python(person.clone()).await;
    let url = client
        .call_tool("ask_url", None, client.request_options())
        .await
        .unwrap();
    assert_eq!(first_text(&url), "url accepted");
    person
        .wait_for("elicitation/complete", WAIT, |s| {
            s.notifications.iter().any(|n| matches!(n, ServerNotification::ElicitationComplete(c) if c.elicitation_id == "elicit-42"))
        })
        .await;
    {
        let seen = person.seen.lock().unwrap();
        let [ElicitRequestParams::Url(link)] = seen.elicitations.as_slice() else {
            panic!("one URL: {:?}", seen.elicitations)
        };
        assert_eq!(link.url, "https://example.com/authorize?session=42");
    }

    let declining = python(Person::new(Script::default())).await;
    let url = declining
        .call_tool("ask_url", None, declining.request_options())
        .await
        .unwrap();
    assert_eq!(first_text(&url), "url declined");
    client.close().await;
    declining.close().await;
}

#[tokio::test]
async fn resources_read_subscribe_and_update() {
    let person = Person::new(Script::default());
    let client = python(person.clone()).await;
    let text = client
        .read_resource("test://static/1", client.request_options())
        .await
        .unwrap();
    assert!(matches!(&text.contents[0], ResourceContents::Text(t) if t.text == "resource 1"));
    let item = client
        .read_resource("test://items/42", client.request_options())
        .await
        .unwrap();
    assert!(matches!(&item.contents[0], ResourceContents::Text(t) if t.text == "item 42"));
    let blob = client
        .read_resource("test://blob", client.request_options())
        .await
        .unwrap();
    let ResourceContents::Blob(blob) = &blob.contents[0] else {
        panic!("a blob")
    };
    assert_eq!(blob.mime_type.as_deref(), Some("application/octet-stream"));
    assert_eq!(blob.blob.len(), 344, "256 bytes in base64");
    let missing = client
        .read_resource("test://nothing", client.request_options())
        .await;
    assert!(matches!(
        missing,
        Err(ClientError::Request(RequestError::Server { .. }))
    ));

    client.subscribe("test://counter").await.unwrap();
    client
        .call_tool("bump", None, client.request_options())
        .await
        .unwrap();
    person
        .wait_for("resources/updated", WAIT, |s| {
            s.notifications.iter().any(|n| matches!(n, ServerNotification::ResourceUpdated(u) if u.uri == "test://counter"))
        })
        .await;
    client.unsubscribe("test://counter").await.unwrap();
    client.close().await;
}

#[tokio::test]
async fn prompts_and_completion() {
    let client = python(Person::new(Script::default())).await;
    let mut arguments = Map::new();
    arguments.insert("name".into(), json!("Ada"));
    arguments.insert("style".into(), json!("loud"));
    let prompt = client.get_prompt("greet", arguments).await.unwrap();
    assert_eq!(prompt.messages[0].content.as_text(), Some("HELLO, ADA!"));

    let styles = CompleteRequestParams::new(Reference::prompt("greet"), "style", "l");
    assert_eq!(
        client.complete(&styles).await.unwrap().completion.values,
        ["loud", "lyrical"]
    );
    let ids = CompleteRequestParams::new(Reference::resource("test://items/{id}"), "id", "1");
    assert_eq!(
        client.complete(&ids).await.unwrap().completion.values,
        ["1", "10"]
    );
    client.close().await;
}

#[tokio::test]
async fn a_new_tool_is_announced_with_list_changed() {
    let person = Person::new(Script::default());
    let client = python(person.clone()).await;
    client
        .call_tool(
            "add_tool",
            args(json!({"name": "shiny"})),
            client.request_options(),
        )
        .await
        .unwrap();
    person
        .wait_for("tools/list_changed", WAIT, |s| {
            s.notifications
                .contains(&ServerNotification::ToolListChanged)
        })
        .await;
    let tools = client.list_tools().await.unwrap();
    assert_eq!(tools.last().map(|t| t.name.as_str()), Some("shiny"));
    client.close().await;
}

#[tokio::test]
async fn a_crashing_server_fails_the_call_with_its_exit_status_and_stderr() {
    let client = python(Person::new(Script::default())).await;
    let outcome = client
        .call_tool("crash", None, client.request_options())
        .await;
    let Err(ClientError::Request(RequestError::Closed(reason))) = outcome else {
        panic!("expected the connection to close, got {outcome:?}");
    };
    assert_eq!(reason.exit.as_deref(), Some("exit status: 3"));
    assert_eq!(
        reason.stderr_tail.last().map(String::as_str),
        Some("about to crash")
    );
}
