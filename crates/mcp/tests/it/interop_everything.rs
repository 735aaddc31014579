//! Interop over stdio with `@modelcontextprotocol/server-everything` 2026.8.31, the reference
//! server of the TypeScript SDK: every feature it demonstrates, as a user of the client sees it.

use serde_json::{Map, Value, json};
use switchboard_mcp::client::{ClientError, ServerNotification};
use switchboard_mcp::connection::RequestError;
use switchboard_mcp::types::*;

use crate::common::peers::Reach;
use crate::common::{Person, Script, Seen, WAIT, args, first_text};

async fn everything(person: std::sync::Arc<Person>) -> switchboard_mcp::client::Client {
    Reach::EverythingStdio.connect(person).await.client
}

/// The string log messages the server sent so far.
fn log_messages(seen: &Seen) -> Vec<(LoggingLevel, Option<String>, String)> {
    seen.notifications
        .iter()
        .filter_map(|n| match n {
            ServerNotification::Log(log) => Some((
                log.level?,
                log.logger.clone(),
                log.data.as_str().unwrap_or_default().to_owned(),
            )),
            _ => None,
        })
        .collect()
}

fn count_logs(seen: &Seen, containing: &str) -> usize {
    log_messages(seen)
        .iter()
        .filter(|(_, _, text)| text.contains(containing))
        .count()
}

/// Standard base64, as the server encodes images and blobs.
fn base64_decode(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bytes = Vec::new();
    let (mut buffer, mut bits) = (0u32, 0);
    for c in text.bytes().filter(|&c| c != b'=') {
        let value = ALPHABET
            .iter()
            .position(|&a| a == c)
            .unwrap_or_else(|| panic!("{c:?} is not base64"));
        buffer = (buffer << 6) | u32::try_from(value).expect("six bits");
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push(u8::try_from((buffer >> bits) & 0xff).expect("a byte"));
        }
    }
    bytes
}

#[tokio::test]
async fn the_server_says_its_title_version_instructions_and_capabilities() {
    let client = everything(Person::new(Script::default())).await;
    let server = client.server();
    assert_eq!(
        server.server_info.title.as_deref(),
        Some("Everything Reference Server")
    );
    assert_eq!(server.server_info.version, "2.0.0");
    assert!(
        server
            .instructions
            .as_deref()
            .is_some_and(|i| i.starts_with("# Everything Server")),
        "{:?}",
        server.instructions
    );
    let caps = client.capabilities();
    assert!(caps.notifies_tools_changed());
    assert!(caps.notifies_prompts_changed());
    assert!(caps.supports_resource_subscriptions() && caps.notifies_resources_changed());
    assert!(caps.supports_logging());
    assert!(caps.supports_completions());
    // The experimental tasks capability is kept as the server sent it.
    assert!(
        caps.tasks
            .as_ref()
            .is_some_and(|t| t.contains_key("requests"))
    );
    client.ping().await.unwrap();
    client.close().await;
}

#[tokio::test]
async fn tools_resources_templates_and_prompts_are_listed_whole() {
    let person = Person::new(Script::default());
    let client = everything(person.clone()).await;

    // The tools that depend on the client's capabilities are registered once it has
    // sent `notifications/initialized`, and announced with `tools/list_changed`.
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "echo",
            "get-annotated-message",
            "get-env",
            "get-resource-links",
            "get-resource-reference",
            "get-structured-content",
            "get-sum",
            "get-tiny-image",
            "gzip-file-as-resource",
            "toggle-simulated-logging",
            "toggle-subscriber-updates",
            "trigger-long-running-operation",
            "get-roots-list",
            "trigger-elicitation-request",
            "trigger-url-elicitation",
            "trigger-sampling-request",
            "simulate-research-query",
        ]
    );
    let echo = &tools[0];
    assert_eq!(echo.display_name(), "Echo Tool");
    assert_eq!(
        echo.annotations.as_ref().and_then(|a| a.read_only_hint),
        Some(true)
    );
    assert!(echo.input_schema["properties"]["message"].is_object());
    let structured = tools
        .iter()
        .find(|t| t.name == "get-structured-content")
        .unwrap();
    let output = structured.output_schema.as_ref().expect("an output schema");
    assert!(output["properties"]["temperature"].is_object());
    person
        .wait_for("tools/list_changed", WAIT, |s| {
            s.notifications
                .contains(&ServerNotification::ToolListChanged)
        })
        .await;

    // One static resource per file of the server's docs directory. (This version of the
    // server answers `resources/list` in a single page.)
    let resources = client.list_resources().await.unwrap();
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "architecture.md",
            "extension.md",
            "features.md",
            "how-it-works.md",
            "instructions.md",
            "startup.md",
            "structure.md",
        ]
        .map(|name| format!("demo://resource/static/document/{name}"))
    );
    assert!(
        resources
            .iter()
            .all(|r| r.mime_type.as_deref() == Some("text/markdown"))
    );

    let templates = client.list_resource_templates().await.unwrap();
    let templates: Vec<(&str, Option<&str>)> = templates
        .iter()
        .map(|t| (t.uri_template.as_str(), t.mime_type.as_deref()))
        .collect();
    assert_eq!(
        templates,
        [
            (
                "demo://resource/dynamic/text/{resourceId}",
                Some("text/plain")
            ),
            (
                "demo://resource/dynamic/blob/{resourceId}",
                Some("application/octet-stream")
            ),
        ]
    );

    let prompts = client.list_prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "simple-prompt",
            "args-prompt",
            "completable-prompt",
            "resource-prompt"
        ]
    );
    let arguments: Vec<(&str, Option<bool>)> = prompts[1]
        .arguments
        .iter()
        .flatten()
        .map(|a| (a.name.as_str(), a.required))
        .collect();
    assert_eq!(arguments, [("city", Some(true)), ("state", Some(false))]);
    client.close().await;
}

#[tokio::test]
async fn get_sum_answers_in_text() {
    let client = everything(Person::new(Script::default())).await;
    let sum = client
        .call_tool(
            "get-sum",
            args(json!({"a": 2, "b": 3.5})),
            client.request_options(),
        )
        .await
        .unwrap();
    assert_eq!(first_text(&sum), "The sum of 2 and 3.5 is 5.5.");

    // Arguments that do not fit the input schema come back as a tool error, not a failure.
    let wrong = client
        .call_tool(
            "get-sum",
            args(json!({"a": "two", "b": 3})),
            client.request_options(),
        )
        .await
        .unwrap();
    assert!(wrong.failed(), "{wrong:?}");
    assert!(
        first_text(&wrong).contains("Input validation error"),
        "{wrong:?}"
    );
    client.close().await;
}

#[tokio::test]
async fn the_tiny_image_is_an_image_block_with_a_base64_png() {
    let client = everything(Person::new(Script::default())).await;
    let result = client
        .call_tool("get-tiny-image", None, client.request_options())
        .await
        .unwrap();
    let kinds: Vec<&str> = result.content.iter().map(ContentBlock::type_name).collect();
    assert_eq!(kinds, ["text", "image", "text"]);
    let ContentBlock::Image(image) = &result.content[1] else {
        panic!("an image: {:?}", result.content[1])
    };
    assert_eq!(image.mime_type, "image/png");
    let png = base64_decode(&image.data);
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(png.len(), 4033);
    client.close().await;
}

#[tokio::test]
async fn structured_content_comes_with_its_text_twin() {
    let client = everything(Person::new(Script::default())).await;
    let result = client
        .call_tool(
            "get-structured-content",
            args(json!({"location": "Chicago"})),
            client.request_options(),
        )
        .await
        .unwrap();
    let weather = json!({"temperature": 36, "conditions": "Light rain / drizzle", "humidity": 82});
    assert_eq!(result.structured_content.as_ref(), Some(&weather));
    let text: Value = serde_json::from_str(first_text(&result)).unwrap();
    assert_eq!(text, weather);
    client.close().await;
}

#[tokio::test]
async fn annotations_on_content_blocks_are_read() {
    let client = everything(Person::new(Script::default())).await;
    let result = client
        .call_tool(
            "get-annotated-message",
            args(json!({"messageType": "error", "includeImage": true})),
            client.request_options(),
        )
        .await
        .unwrap();
    let [ContentBlock::Text(text), ContentBlock::Image(image)] = result.content.as_slice() else {
        panic!("a text and an image: {result:?}")
    };
    assert_eq!(text.text, "Error: Operation failed");
    let annotations = text.annotations.as_ref().expect("annotated text");
    assert_eq!(annotations.priority, Some(1.0));
    assert_eq!(
        annotations.audience.as_deref(),
        Some(&[Role::User, Role::Assistant][..])
    );
    let annotations = image.annotations.as_ref().expect("annotated image");
    assert_eq!(annotations.priority, Some(0.5));
    assert_eq!(annotations.audience.as_deref(), Some(&[Role::User][..]));
    client.close().await;
}

#[tokio::test]
async fn resource_links_and_embedded_resources_are_their_own_blocks() {
    let client = everything(Person::new(Script::default())).await;
    let links = client
        .call_tool(
            "get-resource-links",
            args(json!({"count": 4})),
            client.request_options(),
        )
        .await
        .unwrap();
    assert_eq!(
        first_text(&links),
        "Here are 4 resource links to resources available in this server:"
    );
    let links: Vec<(&str, &str)> = links.content[1..]
        .iter()
        .map(|block| match block {
            ContentBlock::ResourceLink(link) => (link.uri.as_str(), link.name.as_str()),
            other => panic!("a resource link: {other:?}"),
        })
        .collect();
    assert_eq!(
        links,
        [
            ("demo://resource/dynamic/blob/1", "Blob Resource 1"),
            ("demo://resource/dynamic/text/2", "Text Resource 2"),
            ("demo://resource/dynamic/blob/3", "Blob Resource 3"),
            ("demo://resource/dynamic/text/4", "Text Resource 4"),
        ]
    );
    // A link can be followed.
    let read = client
        .read_resource(links[1].0, client.request_options())
        .await
        .unwrap();
    assert!(
        matches!(&read.contents[0], ResourceContents::Text(t) if t.text.starts_with("Resource 2: This is a plaintext resource")),
        "{read:?}"
    );

    let text = client
        .call_tool(
            "get-resource-reference",
            args(json!({"resourceType": "Text", "resourceId": 5})),
            client.request_options(),
        )
        .await
        .unwrap();
    let ContentBlock::Resource(embedded) = &text.content[1] else {
        panic!("an embedded resource: {text:?}")
    };
    let ResourceContents::Text(contents) = &embedded.resource else {
        panic!("text contents: {embedded:?}")
    };
    assert_eq!(contents.uri, "demo://resource/dynamic/text/5");
    assert_eq!(contents.mime_type.as_deref(), Some("text/plain"));
    assert!(
        contents
            .text
            .starts_with("Resource 5: This is a plaintext resource created at ")
    );

    let blob = client
        .call_tool(
            "get-resource-reference",
            args(json!({"resourceType": "Blob", "resourceId": 6})),
            client.request_options(),
        )
        .await
        .unwrap();
    let ContentBlock::Resource(embedded) = &blob.content[1] else {
        panic!("an embedded resource: {blob:?}")
    };
    let ResourceContents::Blob(contents) = &embedded.resource else {
        panic!("blob contents: {embedded:?}")
    };
    assert_eq!(contents.uri, "demo://resource/dynamic/blob/6");
    let decoded = String::from_utf8(base64_decode(&contents.blob)).unwrap();
    assert!(decoded.starts_with("Resource 6: This is a base64 blob created at "));
    client.close().await;
}

#[tokio::test]
async fn resources_are_read_as_text_or_blob_and_unknown_ones_fail() {
    let client = everything(Person::new(Script::default())).await;
    let doc = client
        .read_resource(
            "demo://resource/static/document/features.md",
            client.request_options(),
        )
        .await
        .unwrap();
    let ResourceContents::Text(doc) = &doc.contents[0] else {
        panic!("text: {doc:?}")
    };
    assert_eq!(doc.mime_type.as_deref(), Some("text/markdown"));
    assert!(!doc.text.is_empty());

    let blob = client
        .read_resource("demo://resource/dynamic/blob/2", client.request_options())
        .await
        .unwrap();
    let ResourceContents::Blob(blob) = &blob.contents[0] else {
        panic!("a blob: {blob:?}")
    };
    assert_eq!(blob.uri, "demo://resource/dynamic/blob/2");
    let decoded = String::from_utf8(base64_decode(&blob.blob)).unwrap();
    assert!(
        decoded.starts_with("Resource 2: This is a base64 blob created at "),
        "{decoded}"
    );

    for missing in ["demo://resource/dynamic/text/0", "demo://resource/nowhere"] {
        let outcome = client
            .read_resource(missing, client.request_options())
            .await;
        assert!(
            matches!(
                outcome,
                Err(ClientError::Request(RequestError::Server { .. }))
            ),
            "{missing}: {outcome:?}"
        );
    }
    client.ping().await.unwrap();
    client.close().await;
}

#[tokio::test]
async fn url_elicitations_by_request_and_by_error() {
    let person = Person::new(Script {
        accept_urls: true,
        ..Script::default()
    });
    let client = everything(person.clone()).await;
    let call = args(json!({"url": "https://example.com/connect", "elicitationId": "elicit-7"}));
    let result = client
        .call_tool(
            "trigger-url-elicitation",
            call.clone(),
            client.request_options(),
        )
        .await
        .unwrap();
    assert_eq!(
        first_text(&result),
        "✅ User completed the URL elicitation flow.\nElicitation ID: elicit-7\nURL: https://example.com/connect"
    );
    {
        let seen = person.seen.lock().unwrap();
        let [ElicitRequestParams::Url(link)] = seen.elicitations.as_slice() else {
            panic!("one URL elicitation: {:?}", seen.elicitations)
        };
        assert_eq!(link.url, "https://example.com/connect");
        assert_eq!(link.elicitation_id.as_deref(), Some("elicit-7"));
        assert_eq!(
            link.message,
            "Please open the link to complete this action."
        );
    }

    // The error path: the call is refused with -32042 naming the URL to visit first; the
    // same call, retried, then goes through.
    let mut error_path = call.clone().unwrap();
    error_path.insert("errorPath".into(), json!(true));
    let refused = client
        .call_tool(
            "trigger-url-elicitation",
            Some(error_path.clone()),
            client.request_options(),
        )
        .await
        .unwrap_err();
    let required = refused
        .url_elicitation_required()
        .unwrap_or_else(|| panic!("a URL elicitation required error: {refused:?}"));
    let [prerequisite] = required.elicitations.as_slice() else {
        panic!("one prerequisite: {required:?}")
    };
    assert_eq!(prerequisite.url, "https://modelcontextprotocol.io");
    assert!(prerequisite.elicitation_id.is_some());
    let retried = client
        .call_tool(
            "trigger-url-elicitation",
            Some(error_path),
            client.request_options(),
        )
        .await
        .unwrap();
    assert!(first_text(&retried).starts_with("✅ User completed the URL elicitation flow."));

    let declining = everything(Person::new(Script::default())).await;
    let result = declining
        .call_tool("trigger-url-elicitation", call, declining.request_options())
        .await
        .unwrap();
    assert_eq!(
        first_text(&result),
        "❌ User declined to open the URL (Elicitation ID: elicit-7)."
    );
    client.close().await;
    declining.close().await;
}

#[tokio::test]
async fn log_messages_follow_the_level_the_client_sets() {
    let person = Person::new(Script::default());
    let client = everything(person.clone()).await;
    let uri = "demo://resource/dynamic/text/1";
    let acknowledged =
        "Received Subscribe Resource request for URI: demo://resource/dynamic/text/1";

    // The server acknowledges a subscription with an info message: filtered out at warning.
    client
        .set_logging_level(LoggingLevel::Warning)
        .await
        .unwrap();
    client.subscribe(uri).await.unwrap();
    client.set_logging_level(LoggingLevel::Info).await.unwrap();
    client.subscribe(uri).await.unwrap();
    person
        .wait_for("the acknowledgement", WAIT, |s| {
            count_logs(s, acknowledged) >= 1
        })
        .await;
    {
        let seen = person.seen.lock().unwrap();
        // Messages arrive in order: the first acknowledgement would have come before.
        assert_eq!(count_logs(&seen, acknowledged), 1);
        assert!(
            log_messages(&seen)
                .iter()
                .all(|(level, _, _)| *level >= LoggingLevel::Info)
        );
    }

    // Simulated logging sends one message at once, at a random level: all pass at debug.
    client.set_logging_level(LoggingLevel::Debug).await.unwrap();
    let started = client
        .call_tool("toggle-simulated-logging", None, client.request_options())
        .await
        .unwrap();
    assert!(first_text(&started).starts_with("Started simulated, random-leveled logging"));
    person
        .wait_for("a simulated log message", WAIT, |s| {
            count_logs(s, "-level message") + count_logs(s, "level-message") >= 1
        })
        .await;
    let stopped = client
        .call_tool("toggle-simulated-logging", None, client.request_options())
        .await
        .unwrap();
    assert!(first_text(&stopped).starts_with("Stopped simulated logging"));
    client.close().await;
}

#[tokio::test]
async fn a_subscribed_resource_is_announced_when_it_changes() {
    let person = Person::new(Script::default());
    let client = everything(person.clone()).await;
    let uri = "demo://resource/dynamic/text/3";
    client.subscribe(uri).await.unwrap();
    let started = client
        .call_tool("toggle-subscriber-updates", None, client.request_options())
        .await
        .unwrap();
    assert!(first_text(&started).starts_with("Started simulated resource updated notifications"));
    person
        .wait_for("resources/updated", WAIT, |s| {
            s.notifications
                .iter()
                .any(|n| matches!(n, ServerNotification::ResourceUpdated(u) if u.uri == uri))
        })
        .await;
    {
        let seen = person.seen.lock().unwrap();
        assert!(seen.notifications.iter().all(|n| match n {
            ServerNotification::ResourceUpdated(u) => u.uri == uri,
            _ => true,
        }));
    }
    client.unsubscribe(uri).await.unwrap();
    let stopped = client
        .call_tool("toggle-subscriber-updates", None, client.request_options())
        .await
        .unwrap();
    assert!(first_text(&stopped).starts_with("Stopped simulated resource updates"));
    client.close().await;
}

#[tokio::test]
async fn prompts_are_filled_in_with_their_arguments() {
    let client = everything(Person::new(Script::default())).await;
    let simple = client
        .get_prompt("simple-prompt", Map::new())
        .await
        .unwrap();
    assert_eq!(
        simple.messages[0].content.as_text(),
        Some("This is a simple prompt without arguments.")
    );

    let mut arguments = Map::new();
    arguments.insert("city".into(), json!("Seattle"));
    arguments.insert("state".into(), json!("WA"));
    let prompt = client.get_prompt("args-prompt", arguments).await.unwrap();
    assert_eq!(prompt.messages.len(), 1);
    assert_eq!(prompt.messages[0].role, Role::User);
    assert_eq!(
        prompt.messages[0].content.as_text(),
        Some("What's weather in Seattle, WA?")
    );
    let mut only_city = Map::new();
    only_city.insert("city".into(), json!("Lyon"));
    let prompt = client.get_prompt("args-prompt", only_city).await.unwrap();
    assert_eq!(
        prompt.messages[0].content.as_text(),
        Some("What's weather in Lyon?")
    );
    // The required argument missing: the server refuses.
    let missing = client.get_prompt("args-prompt", Map::new()).await;
    assert!(
        matches!(
            missing,
            Err(ClientError::Request(RequestError::Server { .. }))
        ),
        "{missing:?}"
    );

    // A prompt with an embedded resource.
    let mut arguments = Map::new();
    arguments.insert("resourceType".into(), json!("Text"));
    arguments.insert("resourceId".into(), json!("7"));
    let prompt = client
        .get_prompt("resource-prompt", arguments)
        .await
        .unwrap();
    let ContentBlock::Resource(embedded) = &prompt.messages[1].content else {
        panic!("an embedded resource: {prompt:?}")
    };
    assert_eq!(embedded.resource.uri(), "demo://resource/dynamic/text/7");
    client.close().await;
}

#[tokio::test]
async fn prompt_arguments_and_template_variables_complete() {
    let client = everything(Person::new(Script::default())).await;
    let complete = |params: CompleteRequestParams| {
        let client = client.clone();
        async move { client.complete(&params).await.unwrap().completion.values }
    };
    let prompt = || Reference::prompt("completable-prompt");
    assert_eq!(
        complete(CompleteRequestParams::new(prompt(), "department", "")).await,
        ["Engineering", "Sales", "Marketing", "Support"]
    );
    assert_eq!(
        complete(CompleteRequestParams::new(prompt(), "department", "S")).await,
        ["Sales", "Support"]
    );
    // The second argument depends on the first, passed as context.
    let mut context = Map::new();
    context.insert("department".into(), json!("Engineering"));
    let names = CompleteRequestParams::parse_reference(
        "prompt:completable-prompt",
        "name",
        "",
        Some(context),
    )
    .unwrap();
    assert_eq!(complete(names).await, ["Alice", "Bob", "Charlie"]);
    assert!(
        complete(CompleteRequestParams::new(prompt(), "name", "A"))
            .await
            .is_empty()
    );

    let types =
        CompleteRequestParams::new(Reference::prompt("resource-prompt"), "resourceType", "B");
    assert_eq!(complete(types).await, ["Blob"]);
    let ids = CompleteRequestParams::new(
        Reference::resource("demo://resource/dynamic/text/{resourceId}"),
        "resourceId",
        "12",
    );
    assert_eq!(complete(ids).await, ["12"]);
    client.close().await;
}

/// `simulate-research-query` must run as a task: called through its definition, it is one;
/// its stages come as the call's progress, its report as the call's result. Asked an
/// ambiguous question, the task waits for input: the server's form is answered, and the
/// report uses the answer. A task whose call is cancelled is cancelled at the server.
#[tokio::test]
async fn a_tool_that_must_run_as_a_task_is_called_as_one_with_its_stages_and_its_questions() {
    let person = Person::new(Script {
        form_answer: Some(serde_json::from_value(json!({"interpretation": "snake"})).unwrap()),
        ..Script::default()
    });
    let client = everything(person.clone()).await;
    assert!(client.runs_tool_tasks());
    let tools = client.list_tools().await.unwrap();
    let research = tools
        .items
        .iter()
        .find(|t| t.name == "simulate-research-query")
        .unwrap()
        .clone();
    assert_eq!(research.task_support(), "required");

    let (tx, mut stages) = tokio::sync::mpsc::channel(64);
    let options = switchboard_mcp::connection::RequestOptions {
        progress: Some(tx),
        ..client.request_options()
    };
    let result = client
        .call_tool_checked(&research, args(json!({"topic": "tides"})), options)
        .await
        .unwrap();
    assert!(
        first_text(&result).starts_with("# Research Report: tides"),
        "{result:?}"
    );
    let mut told = Vec::new();
    while let Ok(progress) = stages.try_recv() {
        told.push(progress.message.unwrap_or_default());
    }
    assert!(told.len() >= 2, "each status told: {told:?}");
    assert!(told.iter().any(|m| m.ends_with("...")), "{told:?}");

    let result = client
        .call_tool_checked(
            &research,
            args(json!({"topic": "python", "ambiguous": true})),
            client.request_options(),
        )
        .await
        .unwrap();
    assert!(
        first_text(&result).starts_with("# Research Report: python (snake)"),
        "{result:?}"
    );
    {
        let seen = person.seen.lock().unwrap();
        let [ElicitRequestParams::Form(form)] = seen.elicitations.as_slice() else {
            panic!("one form: {:?}", seen.elicitations)
        };
        assert!(form.message.contains("could have multiple interpretations"));
    }

    // Cancelled once it is under way: as soon as its first status is told.
    let cancel = tokio_util::sync::CancellationToken::new();
    let (tx, mut stages) = tokio::sync::mpsc::channel(64);
    let options = switchboard_mcp::connection::RequestOptions {
        cancel: Some(cancel.clone()),
        progress: Some(tx),
        ..client.request_options()
    };
    let stopping = tokio::spawn(async move {
        stages.recv().await;
        cancel.cancel();
    });
    let stopped = client
        .call_tool_checked(&research, args(json!({"topic": "storms"})), options)
        .await;
    stopping.await.unwrap();
    assert!(
        matches!(
            stopped,
            Err(ClientError::Request(RequestError::Cancelled { .. }))
        ),
        "{stopped:?}"
    );
    let tasks = client.list_tasks().await.unwrap();
    let statuses: Vec<TaskStatus> = tasks.into_iter().map(|t| t.status).collect();
    assert_eq!(
        statuses,
        [
            TaskStatus::Completed,
            TaskStatus::Completed,
            TaskStatus::Cancelled
        ],
        "the two calls done, the third cancelled at the server"
    );
    client.close().await;
}

/// A client that runs its server's requests as tasks is offered server-everything's async
/// tools: its form and its sampling request, each asked as a task, are answered at once
/// with the task they became; the server asks after each until it is done and takes its
/// result, which is the person's answer and the model's reply.
#[tokio::test]
async fn the_servers_requests_run_as_tasks_at_the_client_when_it_asks() {
    let person = Person::new(Script {
        form_answer: Some(
            serde_json::from_value(json!({"name": "Ada", "favoriteColor": "Blue"})).unwrap(),
        ),
        sampling_reply: Some("A reply drafted in a task".into()),
        ..Script::default()
    });
    let mut config = crate::common::client_config(switchboard_mcp::client::EraSetting::Session);
    config.capabilities = ClientCapabilities::all().with_tasks();
    let transport = switchboard_mcp::transport::stdio::spawn(
        &crate::common::everything_stdio(),
        crate::common::Log::default().sink(),
    )
    .unwrap();
    let client = switchboard_mcp::client::Client::connect(transport, person.clone(), config)
        .await
        .unwrap();
    let tools = client.list_tools().await.unwrap();
    let named = |name: &str| tools.items.iter().any(|t| t.name == name);
    assert!(named("trigger-elicitation-request-async") && named("trigger-sampling-request-async"));

    let form = client
        .call_tool(
            "trigger-elicitation-request-async",
            None,
            client.request_options(),
        )
        .await
        .unwrap();
    let said: Vec<&str> = form
        .content
        .iter()
        .filter_map(ContentBlock::as_text)
        .collect();
    assert!(
        said[0].starts_with("[COMPLETED] User provided the requested information!"),
        "{said:?}"
    );
    assert!(
        said[1].contains("- Name: Ada") && said[1].contains("- Favorite Color: Blue"),
        "{said:?}"
    );
    assert!(
        said[2].contains("Task created: switchboard-task-"),
        "{said:?}"
    );

    let drafted = client
        .call_tool(
            "trigger-sampling-request-async",
            args(json!({"prompt": "Say something"})),
            client.request_options(),
        )
        .await
        .unwrap();
    let said = drafted
        .content
        .iter()
        .filter_map(ContentBlock::as_text)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(said.contains("A reply drafted in a task"), "{said}");
    assert_eq!(person.seen.lock().unwrap().sampling.len(), 1);
    client.close().await;
}
