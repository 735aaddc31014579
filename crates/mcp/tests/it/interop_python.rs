//! Interop over stdio with a server written with the official Python SDK
//! (`tests/peers/python/server.py`): every client feature against a real third party.

use std::time::Duration;

use serde_json::{Map, json};
use switchboard_mcp::client::{ClientError, ServerNotification};
use switchboard_mcp::connection::RequestError;
use switchboard_mcp::types::*;
use tokio_util::sync::CancellationToken;

use crate::common::{Log, Person, Script, WAIT, connect, first_text, python_stdio};

fn args(value: serde_json::Value) -> Option<Map<String, serde_json::Value>> {
    value.as_object().cloned()
}

#[tokio::test]
async fn handshake_and_paginated_lists() {
    let client = connect(
        &python_stdio(),
        Person::new(Script::default()),
        &Log::default(),
    )
    .await;
    assert_eq!(client.protocol_version().as_str(), "2025-11-25");
    assert_eq!(client.server().server_info.name, "switchboard-python-peer");
    assert_eq!(
        client.server().instructions.as_deref(),
        Some("Test server for Switchboard.")
    );

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
async fn tools_answer_with_text_structured_content_and_errors() {
    let client = connect(
        &python_stdio(),
        Person::new(Script::default()),
        &Log::default(),
    )
    .await;
    let options = || client.request_options();
    let echo = client
        .call_tool("echo", args(json!({"text": "héllo"})), options())
        .await
        .unwrap();
    assert_eq!(first_text(&echo), "héllo");
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
async fn progress_is_reported_and_cancellation_stops_the_tool() {
    let log = Log::default();
    let client = connect(&python_stdio(), Person::new(Script::default()), &log).await;
    let (progress, mut seen) = tokio::sync::mpsc::channel(16);
    let mut options = client.request_options();
    options.progress = Some(progress);
    let done = client
        .call_tool("slow", args(json!({"steps": 3, "delay_ms": 10})), options)
        .await
        .unwrap();
    assert_eq!(first_text(&done), "done after 3 steps");
    let mut steps = Vec::new();
    while let Ok(p) = seen.try_recv() {
        steps.push((p.progress, p.total, p.message));
    }
    assert_eq!(
        steps,
        (1..=3)
            .map(|i| (f64::from(i), Some(3.0), Some(format!("step {i}"))))
            .collect::<Vec<_>>()
    );

    // A long run, cancelled once it has started: the server stops it.
    let cancel = CancellationToken::new();
    let (progress, mut seen) = tokio::sync::mpsc::channel(16);
    let mut options = client.request_options();
    options.progress = Some(progress);
    options.cancel = Some(cancel.clone());
    let call = tokio::spawn({
        let client = client.clone();
        async move {
            client
                .call_tool(
                    "slow",
                    args(json!({"steps": 100, "delay_ms": 100})),
                    options,
                )
                .await
        }
    });
    seen.recv().await.expect("the first step");
    cancel.cancel();
    assert!(matches!(
        call.await.unwrap(),
        Err(ClientError::Request(RequestError::Cancelled { .. }))
    ));
    for _ in 0..200 {
        if log.stderr_contains("slow cancelled") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(
        log.stderr_contains("slow cancelled"),
        "the server did not stop the tool"
    );
    // The session is still usable.
    client.ping().await.unwrap();
    client.close().await;
}

#[tokio::test]
async fn sampling_reaches_the_person_and_their_reply_reaches_the_tool() {
    let person = Person::new(Script {
        sampling_reply: Some("Paris.".into()),
        ..Script::default()
    });
    let client = connect(&python_stdio(), person.clone(), &Log::default()).await;
    let result = client
        .call_tool(
            "ask_model",
            args(json!({"prompt": "Capital of France?"})),
            client.request_options(),
        )
        .await
        .unwrap();
    assert_eq!(first_text(&result), "model said: Paris.");
    let request = person.seen.lock().unwrap().sampling[0].clone();
    assert_eq!(request.system_prompt.as_deref(), Some("Be brief."));
    assert_eq!(request.max_tokens, 100);
    assert_eq!(
        request.messages[0]
            .content
            .iter()
            .next()
            .and_then(SamplingContent::as_text),
        Some("Capital of France?")
    );

    // Declined: the tool hears it as an error.
    let declining = connect(
        &python_stdio(),
        Person::new(Script::default()),
        &Log::default(),
    )
    .await;
    let result = declining
        .call_tool(
            "ask_model",
            args(json!({"prompt": "hi"})),
            declining.request_options(),
        )
        .await
        .unwrap();
    assert!(
        first_text(&result).starts_with("sampling failed: "),
        "{result:?}"
    );
    client.close().await;
    declining.close().await;
}

#[tokio::test]
async fn form_and_url_elicitations_are_answered_as_the_person_chose() {
    let answer: ElicitContent = [
        ("name".to_owned(), ElicitValue::from("Ada")),
        ("age".to_owned(), ElicitValue::from(36.0)),
        ("color".to_owned(), ElicitValue::from("blue")),
        ("subscribe".to_owned(), ElicitValue::from(true)),
    ]
    .into();
    let person = Person::new(Script {
        form_answer: Some(answer.clone()),
        accept_urls: true,
        ..Script::default()
    });
    let client = connect(&python_stdio(), person.clone(), &Log::default()).await;
    let form = client
        .call_tool("ask_form", None, client.request_options())
        .await
        .unwrap();
    assert_eq!(
        first_text(&form),
        r#"accepted: {"age":36,"color":"blue","name":"Ada","subscribe":true}"#
    );
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
        let ElicitRequestParams::Form(form) = &seen.elicitations[0] else {
            panic!("a form first")
        };
        // The form the server sent validates the answer the person gave, defaults included.
        assert_eq!(form.requested_schema.validate(&answer), Ok(()));
        let ElicitRequestParams::Url(link) = &seen.elicitations[1] else {
            panic!("then a URL")
        };
        assert_eq!(link.url, "https://example.com/authorize?session=42");
    }

    let declining = connect(
        &python_stdio(),
        Person::new(Script::default()),
        &Log::default(),
    )
    .await;
    let form = declining
        .call_tool("ask_form", None, declining.request_options())
        .await
        .unwrap();
    assert_eq!(first_text(&form), "declined");
    let url = declining
        .call_tool("ask_url", None, declining.request_options())
        .await
        .unwrap();
    assert_eq!(first_text(&url), "url declined");
    client.close().await;
    declining.close().await;
}

#[tokio::test]
async fn roots_are_exactly_what_the_person_exposed() {
    let person = Person::new(Script {
        roots: vec![Root::new(
            "file:///home/ada/project",
            Some("project".into()),
        )],
        ..Script::default()
    });
    let client = connect(&python_stdio(), person.clone(), &Log::default()).await;
    let roots = client
        .call_tool("list_roots", None, client.request_options())
        .await
        .unwrap();
    assert_eq!(first_text(&roots), "file:///home/ada/project");
    client.notify_roots_changed().await.unwrap();
    let none = connect(
        &python_stdio(),
        Person::new(Script::default()),
        &Log::default(),
    )
    .await;
    let roots = none
        .call_tool("list_roots", None, none.request_options())
        .await
        .unwrap();
    assert_eq!(first_text(&roots), "no roots");
    client.close().await;
    none.close().await;
}

#[tokio::test]
async fn log_messages_follow_the_level_the_client_sets() {
    let person = Person::new(Script::default());
    let client = connect(&python_stdio(), person.clone(), &Log::default()).await;
    let levels = |person: &Person| -> Vec<LoggingLevel> {
        person
            .seen
            .lock()
            .unwrap()
            .notifications
            .iter()
            .filter_map(|n| match n {
                ServerNotification::Log(log) => log.level,
                _ => None,
            })
            .collect()
    };
    client.set_logging_level(LoggingLevel::Debug).await.unwrap();
    client
        .call_tool("log_levels", None, client.request_options())
        .await
        .unwrap();
    person
        .wait_for("four log messages", WAIT, |s| s.notifications.len() >= 4)
        .await;
    assert_eq!(
        levels(&person),
        [
            LoggingLevel::Debug,
            LoggingLevel::Info,
            LoggingLevel::Warning,
            LoggingLevel::Error
        ]
    );

    client
        .set_logging_level(LoggingLevel::Warning)
        .await
        .unwrap();
    client
        .call_tool("log_levels", None, client.request_options())
        .await
        .unwrap();
    person
        .wait_for("two more", WAIT, |s| s.notifications.len() >= 6)
        .await;
    assert_eq!(
        &levels(&person)[4..],
        [LoggingLevel::Warning, LoggingLevel::Error]
    );
    client.close().await;
}

#[tokio::test]
async fn resources_read_subscribe_and_update() {
    let person = Person::new(Script::default());
    let client = connect(&python_stdio(), person.clone(), &Log::default()).await;
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
    let client = connect(
        &python_stdio(),
        Person::new(Script::default()),
        &Log::default(),
    )
    .await;
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
    let client = connect(&python_stdio(), person.clone(), &Log::default()).await;
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
    let client = connect(
        &python_stdio(),
        Person::new(Script::default()),
        &Log::default(),
    )
    .await;
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
