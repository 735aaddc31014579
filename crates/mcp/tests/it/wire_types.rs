//! The wire types against the official examples and schemas: every example message of a
//! modelled type is read and written back unchanged, and hand-written messages of the older
//! revisions are too.

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use switchboard_mcp::types::*;

fn spec_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spec")
}

fn examples_dir() -> PathBuf {
    spec_dir().join("2026-07-28/examples")
}

/// Reads `value` as a `T`, writes it back, and asserts the JSON is unchanged.
fn round_trip<T: Serialize + DeserializeOwned + Debug>(value: &Value) -> T {
    let typed: T = serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("not a valid {}: {e}\n{value:#}", std::any::type_name::<T>()));
    let back = serde_json::to_value(&typed).expect("serializes");
    assert_eq!(
        &back,
        value,
        "{} did not round-trip; read as {typed:#?}",
        std::any::type_name::<T>()
    );
    typed
}

fn member<'a>(message: &'a Value, key: &str) -> &'a Value {
    message
        .get(key)
        .unwrap_or_else(|| panic!("no `{key}` in {message:#}"))
}

/// The `params` of a whole JSON-RPC request or notification.
fn params<T: Serialize + DeserializeOwned + Debug>(message: &Value) -> T {
    round_trip(member(message, "params"))
}

/// The `result` of a whole JSON-RPC response.
fn result<T: Serialize + DeserializeOwned + Debug>(message: &Value) -> T {
    round_trip(member(message, "result"))
}

fn content_block(v: &Value) -> ContentBlock {
    let block: ContentBlock = round_trip(v);
    assert!(
        !matches!(block, ContentBlock::Unknown(_)),
        "not recognized: {v}"
    );
    block
}

fn sampling_content(v: &Value) -> SamplingContent {
    let content: SamplingContent = round_trip(v);
    assert!(
        !matches!(content, SamplingContent::Unknown(_)),
        "not recognized: {v}"
    );
    content
}

fn field_schema(v: &Value) -> PrimitiveSchema {
    let schema: PrimitiveSchema = round_trip(v);
    assert!(
        !matches!(schema, PrimitiveSchema::Other(_)),
        "not recognized: {v}"
    );
    schema
}

/// Round-trips a whole example as a `T`.
fn whole<T: Serialize + DeserializeOwned + Debug>(v: &Value) {
    let _: T = round_trip(v);
}

/// Round-trips the `params` of an example message as a `T`.
fn in_params<T: Serialize + DeserializeOwned + Debug>(v: &Value) {
    let _: T = params(v);
}

/// Round-trips the `result` of an example message as a `T`.
fn in_result<T: Serialize + DeserializeOwned + Debug>(v: &Value) {
    let _: T = result(v);
}

type Check = fn(&Value);

/// Example folder -> how each of its files must round-trip.
fn mapped() -> Vec<(&'static str, Check)> {
    vec![
        ("AudioContent", |v| {
            assert!(matches!(content_block(v), ContentBlock::Audio(_)))
        }),
        ("BlobResourceContents", |v| {
            assert!(matches!(
                round_trip::<ResourceContents>(v),
                ResourceContents::Blob(_)
            ));
        }),
        ("BooleanSchema", |v| {
            assert!(matches!(field_schema(v), PrimitiveSchema::Boolean(_)))
        }),
        ("CallToolRequest", in_params::<CallToolRequestParams>),
        ("CallToolRequestParams", whole::<CallToolRequestParams>),
        ("CallToolResult", whole::<CallToolResult>),
        ("CallToolResultResponse", in_result::<CallToolResult>),
        (
            "CancelledNotification",
            in_params::<CancelledNotificationParams>,
        ),
        (
            "CancelledNotificationParams",
            whole::<CancelledNotificationParams>,
        ),
        ("ClientCapabilities", whole::<ClientCapabilities>),
        ("CompleteRequest", in_params::<CompleteRequestParams>),
        ("CompleteRequestParams", whole::<CompleteRequestParams>),
        ("CompleteResult", whole::<CompleteResult>),
        ("CompleteResultResponse", in_result::<CompleteResult>),
        (
            "CreateMessageRequest",
            in_params::<CreateMessageRequestParams>,
        ),
        (
            "CreateMessageRequestParams",
            whole::<CreateMessageRequestParams>,
        ),
        ("CreateMessageResult", whole::<CreateMessageResult>),
        ("ElicitRequest", |v| {
            assert!(matches!(
                params::<ElicitRequestParams>(v),
                ElicitRequestParams::Form(_)
            ));
        }),
        ("ElicitRequestFormParams", |v| {
            whole::<ElicitRequestFormParams>(v);
            assert!(matches!(
                round_trip::<ElicitRequestParams>(v),
                ElicitRequestParams::Form(_)
            ));
        }),
        ("ElicitRequestURLParams", |v| {
            whole::<ElicitRequestUrlParams>(v);
            assert!(matches!(
                round_trip::<ElicitRequestParams>(v),
                ElicitRequestParams::Url(_)
            ));
        }),
        ("ElicitResult", whole::<ElicitResult>),
        ("EmbeddedResource", |v| {
            assert!(matches!(content_block(v), ContentBlock::Resource(_)));
        }),
        ("GetPromptRequest", in_params::<GetPromptRequestParams>),
        ("GetPromptRequestParams", whole::<GetPromptRequestParams>),
        ("GetPromptResult", whole::<GetPromptResult>),
        ("GetPromptResultResponse", in_result::<GetPromptResult>),
        ("ImageContent", |v| {
            assert!(matches!(content_block(v), ContentBlock::Image(_)))
        }),
        ("ListPromptsRequest", in_params::<PaginatedRequestParams>),
        ("ListPromptsResult", whole::<ListPromptsResult>),
        ("ListPromptsResultResponse", in_result::<ListPromptsResult>),
        (
            "ListResourceTemplatesRequest",
            in_params::<PaginatedRequestParams>,
        ),
        (
            "ListResourceTemplatesResult",
            whole::<ListResourceTemplatesResult>,
        ),
        (
            "ListResourceTemplatesResultResponse",
            in_result::<ListResourceTemplatesResult>,
        ),
        ("ListResourcesRequest", in_params::<PaginatedRequestParams>),
        ("ListResourcesResult", whole::<ListResourcesResult>),
        (
            "ListResourcesResultResponse",
            in_result::<ListResourcesResult>,
        ),
        ("ListRootsResult", whole::<ListRootsResult>),
        ("ListToolsRequest", in_params::<PaginatedRequestParams>),
        ("ListToolsResult", whole::<ListToolsResult>),
        ("ListToolsResultResponse", in_result::<ListToolsResult>),
        (
            "LoggingMessageNotification",
            in_params::<LoggingMessageNotificationParams>,
        ),
        (
            "LoggingMessageNotificationParams",
            whole::<LoggingMessageNotificationParams>,
        ),
        ("ModelPreferences", whole::<ModelPreferences>),
        ("NumberSchema", |v| {
            assert!(matches!(field_schema(v), PrimitiveSchema::Number(_)))
        }),
        ("PaginatedRequestParams", whole::<PaginatedRequestParams>),
        (
            "ProgressNotification",
            in_params::<ProgressNotificationParams>,
        ),
        (
            "ProgressNotificationParams",
            whole::<ProgressNotificationParams>,
        ),
        (
            "PromptListChangedNotification",
            in_params::<NotificationParams>,
        ),
        (
            "ReadResourceRequest",
            in_params::<ReadResourceRequestParams>,
        ),
        ("ReadResourceResult", whole::<ReadResourceResult>),
        (
            "ReadResourceResultResponse",
            in_result::<ReadResourceResult>,
        ),
        ("Resource", whole::<Resource>),
        ("ResourceLink", |v| {
            assert!(matches!(content_block(v), ContentBlock::ResourceLink(_)));
        }),
        (
            "ResourceListChangedNotification",
            in_params::<NotificationParams>,
        ),
        (
            "ResourceUpdatedNotification",
            in_params::<ResourceUpdatedNotificationParams>,
        ),
        (
            "ResourceUpdatedNotificationParams",
            whole::<ResourceUpdatedNotificationParams>,
        ),
        ("Root", whole::<Root>),
        ("SamplingMessage", whole::<SamplingMessage>),
        ("ServerCapabilities", whole::<ServerCapabilities>),
        ("StringSchema", |v| {
            assert!(matches!(field_schema(v), PrimitiveSchema::String(_)))
        }),
        ("TextContent", |v| {
            assert!(matches!(content_block(v), ContentBlock::Text(_)))
        }),
        ("TextResourceContents", |v| {
            assert!(matches!(
                round_trip::<ResourceContents>(v),
                ResourceContents::Text(_)
            ));
        }),
        ("TitledMultiSelectEnumSchema", |v| {
            assert!(matches!(
                field_schema(v),
                PrimitiveSchema::TitledMultiSelect(_)
            ));
        }),
        ("TitledSingleSelectEnumSchema", |v| {
            assert!(matches!(
                field_schema(v),
                PrimitiveSchema::TitledSingleSelect(_)
            ));
        }),
        ("Tool", whole::<Tool>),
        (
            "ToolListChangedNotification",
            in_params::<NotificationParams>,
        ),
        ("ToolResultContent", |v| {
            assert!(matches!(
                sampling_content(v),
                SamplingContent::ToolResult(_)
            ));
        }),
        ("ToolUseContent", |v| {
            assert!(matches!(sampling_content(v), SamplingContent::ToolUse(_)));
        }),
        ("UntitledMultiSelectEnumSchema", |v| {
            assert!(matches!(
                field_schema(v),
                PrimitiveSchema::UntitledMultiSelect(_)
            ));
        }),
        ("UntitledSingleSelectEnumSchema", |v| {
            assert!(matches!(
                field_schema(v),
                PrimitiveSchema::UntitledSingleSelect(_)
            ));
        }),
    ]
}

/// Example folders deliberately left out, and why.
const NOT_MAPPED: &[(&str, &str)] = &[
    // 2026-07-28 only: the stateless revision's discovery, multi-round-trip requests and
    // subscriptions have no counterpart in the stateful revisions.
    ("DiscoverRequest", "server/discover, 2026-07-28 only"),
    ("DiscoverResult", "server/discover, 2026-07-28 only"),
    ("DiscoverResultResponse", "server/discover, 2026-07-28 only"),
    ("InputRequests", "input requests, 2026-07-28 only"),
    ("InputRequiredResult", "input requests, 2026-07-28 only"),
    ("InputResponses", "input requests, 2026-07-28 only"),
    (
        "SubscriptionsListenRequest",
        "subscriptions/listen, 2026-07-28 only",
    ),
    (
        "SubscriptionsListenResult",
        "subscriptions/listen, 2026-07-28 only",
    ),
    (
        "SubscriptionsListenResultResponse",
        "subscriptions/listen, 2026-07-28 only",
    ),
    (
        "SubscriptionsAcknowledgedNotification",
        "subscriptions/listen, 2026-07-28 only",
    ),
    ("HeaderMismatchError", "HTTP header error, 2026-07-28 only"),
    (
        "MissingRequiredClientCapabilityError",
        "error -32021, 2026-07-28 only",
    ),
    (
        "UnsupportedProtocolVersionError",
        "error -32022, 2026-07-28 only",
    ),
    // JSON-RPC error objects: the envelope, modelled in `jsonrpc`.
    ("InternalError", "JSON-RPC error object"),
    ("InvalidParamsError", "JSON-RPC error object"),
    ("MethodNotFoundError", "JSON-RPC error object"),
    ("ParseError", "JSON-RPC error object"),
    // No params or result to read: the message is nothing but envelope.
    ("ListRootsRequest", "a request without params"),
];

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_example_of_a_modelled_type_round_trips() {
    let mut files = 0;
    for (folder, check) in mapped() {
        let dir = examples_dir().join(folder);
        assert!(dir.is_dir(), "missing example folder {}", dir.display());
        let examples = json_files(&dir);
        assert!(!examples.is_empty(), "no example in {}", dir.display());
        for path in examples {
            let value = read_json(&path);
            let outcome = std::panic::catch_unwind(|| check(&value));
            assert!(outcome.is_ok(), "{} failed", path.display());
            files += 1;
        }
    }
    assert!(files >= 100, "only {files} example files were checked");
}

#[test]
fn every_example_folder_is_mapped_or_listed_as_left_out() {
    let mapped: BTreeSet<&str> = mapped().into_iter().map(|(f, _)| f).collect();
    let left_out: BTreeSet<&str> = NOT_MAPPED.iter().map(|(f, _)| *f).collect();
    assert!(mapped.is_disjoint(&left_out));
    for entry in fs::read_dir(examples_dir()).expect("examples folder") {
        let name = entry.expect("directory entry").file_name();
        let name = name.to_string_lossy();
        assert!(
            mapped.contains(&*name) || left_out.contains(&*name),
            "example folder {name} is neither mapped nor listed in NOT_MAPPED"
        );
    }
    for folder in left_out {
        assert!(
            examples_dir().join(folder).is_dir(),
            "{folder} no longer exists"
        );
    }
}

#[test]
fn method_constants_match_the_schemas_of_every_revision() {
    let mut in_schemas = BTreeSet::new();
    for revision in [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
    ] {
        let schema = read_json(&spec_dir().join(revision).join("schema.json"));
        let defs = schema
            .get("definitions")
            .or_else(|| schema.get("$defs"))
            .and_then(Value::as_object)
            .expect("schema definitions");
        for def in defs.values() {
            if let Some(name) = def
                .pointer("/properties/method/const")
                .and_then(Value::as_str)
            {
                in_schemas.insert(name.to_owned());
            }
        }
    }
    let ours: BTreeSet<String> = method::REQUESTS
        .iter()
        .chain(method::NOTIFICATIONS.iter())
        .map(|m| (*m).to_owned())
        .collect();
    assert_eq!(ours, in_schemas);
}

#[test]
fn a_2024_11_05_handshake_round_trips() {
    let request = json!({
        "protocolVersion": "2024-11-05",
        "capabilities": {"roots": {"listChanged": true}, "sampling": {}},
        "clientInfo": {"name": "ExampleClient", "version": "1.0.0"}
    });
    let params: InitializeRequestParams = round_trip(&request);
    assert!(params.capabilities.supports_roots() && params.capabilities.supports_sampling());
    assert!(!params.capabilities.supports_form_elicitation());

    let answer = json!({
        "protocolVersion": "2024-11-05",
        "capabilities": {
            "logging": {},
            "prompts": {"listChanged": true},
            "resources": {"subscribe": true, "listChanged": true},
            "tools": {"listChanged": true}
        },
        "serverInfo": {"name": "ExampleServer", "version": "1.0.0"}
    });
    let result: InitializeResult = round_trip(&answer);
    assert_eq!(result.protocol_version, "2024-11-05");
    assert_eq!(result.server_info.title, None);
    assert_eq!(result.server_info.icons, None);
    assert_eq!(result.server_info.display_name(), "ExampleServer");
    assert_eq!(result.instructions, None);
    let caps = &result.capabilities;
    assert!(caps.supports_tools() && caps.notifies_tools_changed());
    assert!(caps.supports_resource_subscriptions() && caps.supports_logging());
    assert!(!caps.supports_completions());
}

#[test]
fn a_2025_11_25_handshake_with_icons_and_tasks_round_trips() {
    let answer = json!({
        "protocolVersion": "2025-11-25",
        "capabilities": {
            "completions": {},
            "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}},
            "experimental": {"x-search": {"fuzzy": true}}
        },
        "serverInfo": {
            "name": "s", "title": "Server", "version": "2.0", "description": "d",
            "websiteUrl": "https://example.com",
            "icons": [{"src": "https://example.com/i.svg", "mimeType": "image/svg+xml",
                       "sizes": ["any"], "theme": "dark"}]
        },
        "instructions": "Use it well.",
        "_meta": {"trace": "abc"}
    });
    let result: InitializeResult = round_trip(&answer);
    assert!(result.capabilities.supports_completions());
    assert_eq!(result.server_info.display_name(), "Server");
    assert_eq!(result.meta.as_ref().map(|m| m.len()), Some(1));
}

#[test]
fn a_2025_06_18_elicitation_without_mode_is_a_form_and_stays_without_mode() {
    let request = json!({
        "message": "Please provide your contact information",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "Your full name"},
                "plan": {"type": "string", "enum": ["free", "pro"], "enumNames": ["Free", "Pro"]},
                "age": {"type": "number", "minimum": 18}
            },
            "required": ["name"]
        }
    });
    let params: ElicitRequestParams = round_trip(&request);
    let ElicitRequestParams::Form(form) = &params else {
        panic!("not a form: {params:?}")
    };
    assert_eq!(form.mode, None);
    let plan = form.requested_schema.properties.get("plan").expect("plan");
    let PrimitiveSchema::UntitledSingleSelect(plan) = plan else {
        panic!("{plan:?}")
    };
    assert_eq!(
        plan.enum_names.as_deref(),
        Some(&["Free".to_owned(), "Pro".to_owned()][..])
    );

    // A client that declared `elicitation: {}` (2025-06-18) accepts it.
    let caps: ClientCapabilities = round_trip(&json!({"elicitation": {}}));
    assert!(caps.allows_elicitation(&params));

    let answer: ElicitContent =
        serde_json::from_value(json!({"name": "Ann", "plan": "pro"})).expect("answer");
    assert_eq!(form.requested_schema.validate(&answer), Ok(()));
}

#[test]
fn url_elicitations_and_their_error_data_round_trip() {
    let request = json!({
        "mode": "url",
        "elicitationId": "550e8400-e29b-41d4-a716-446655440000",
        "url": "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
        "message": "Authorization is required to access your Example Co files."
    });
    let params: ElicitRequestParams = round_trip(&request);
    let caps = ClientCapabilities::all();
    assert!(caps.allows_elicitation(&params));
    let form_only: ClientCapabilities = round_trip(&json!({"elicitation": {"form": {}}}));
    assert!(!form_only.allows_elicitation(&params));

    let data: UrlElicitationRequiredData = round_trip(&json!({"elicitations": [request]}));
    assert_eq!(
        data.elicitations[0].elicitation_id.as_deref(),
        Some("550e8400-e29b-41d4-a716-446655440000")
    );
    let done: ElicitationCompleteNotificationParams =
        round_trip(&json!({"elicitationId": "550e8400-e29b-41d4-a716-446655440000"}));
    assert_eq!(done.elicitation_id, "550e8400-e29b-41d4-a716-446655440000");
}

#[test]
fn sampling_content_is_one_block_or_many() {
    let one = json!({"role": "user", "content": {"type": "text", "text": "Hi"}});
    let message: SamplingMessage = round_trip(&one);
    assert!(matches!(
        message.content,
        OneOrMany::One(SamplingContent::Text(_))
    ));
    assert_eq!(message.content.as_slice().len(), 1);

    let many = json!({"role": "assistant", "content": [
        {"type": "text", "text": "Let me look."},
        {"type": "tool_use", "id": "c1", "name": "search", "input": {"q": "mcp"}},
        {"type": "hologram", "frames": 24}
    ]});
    let message: SamplingMessage = round_trip(&many);
    let OneOrMany::Many(blocks) = &message.content else {
        panic!("{message:?}")
    };
    assert_eq!(blocks.len(), 3);
    assert_eq!(blocks[2].type_name(), "hologram");

    // 2024-11-05: a single image, no audio, no tools.
    let result: CreateMessageResult = round_trip(&json!({
        "role": "assistant",
        "content": {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
        "model": "m",
        "stopReason": "endTurn"
    }));
    assert!(matches!(
        result.content,
        OneOrMany::One(SamplingContent::Image(_))
    ));

    let result: CreateMessageResult = round_trip(&json!({
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "c2", "name": "n", "input": {}}],
        "model": "m",
        "stopReason": "toolUse"
    }));
    assert_eq!(result.content.iter().count(), 1);
}

#[test]
fn a_sampling_request_with_every_option_round_trips() {
    let request = json!({
        "messages": [{"role": "user", "content": {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}}],
        "modelPreferences": {"hints": [{"name": "claude"}, {}], "costPriority": 1, "speedPriority": 0,
                             "intelligencePriority": 0.75},
        "systemPrompt": "Be brief.",
        "includeContext": "thisServer",
        "temperature": 0.7,
        "maxTokens": 256,
        "stopSequences": ["\n\n"],
        "metadata": {"provider": {"x": 1}},
        "toolChoice": {"mode": "required"},
        "_meta": {"progressToken": 12}
    });
    let params: CreateMessageRequestParams = round_trip(&request);
    assert_eq!(params.include_context, Some(IncludeContext::ThisServer));
    assert_eq!(
        params.tool_choice.and_then(|c| c.mode),
        Some(ToolChoiceMode::Required)
    );
    // What the client may ignore is dropped when odd; what changes the request is not.
    let odd = json!({"messages": [], "includeContext": "everything", "maxTokens": 1});
    let params: CreateMessageRequestParams = serde_json::from_value(odd).unwrap();
    assert_eq!(params.include_context, None);
    let bad = json!({"messages": [], "toolChoice": {"mode": "sometimes"}, "maxTokens": 1});
    assert!(serde_json::from_value::<CreateMessageRequestParams>(bad).is_err());
}

#[test]
fn an_unknown_content_type_survives_a_tool_result() {
    let answer = json!({
        "content": [
            {"type": "text", "text": "Here it is:"},
            {"type": "hologram", "data": "AAEC", "mimeType": "model/holo", "angles": [0, 90.5]},
            {"type": "resource_link", "uri": "file:///a.holo", "name": "a.holo", "size": 3}
        ],
        "structuredContent": {"frames": 1},
        "isError": false
    });
    let result: CallToolResult = round_trip(&answer);
    assert!(!result.failed());
    assert_eq!(result.content[0].as_text(), Some("Here it is:"));
    let ContentBlock::Unknown(holo) = &result.content[1] else {
        panic!("{:?}", result.content[1])
    };
    assert_eq!(holo["angles"], json!([0, 90.5]));
    assert_eq!(result.content[1].type_name(), "hologram");
    assert!(matches!(result.content[2], ContentBlock::ResourceLink(_)));
}

#[test]
fn a_tool_with_unknown_members_round_trips() {
    let tool = json!({
        "name": "deploy",
        "description": "Ship it",
        "inputSchema": {"type": "object", "properties": {"env": {"type": "string"}}, "x-order": ["env"]},
        "annotations": {"destructiveHint": true, "title": "Deploy", "costHint": "high"},
        "execution": {"taskSupport": "optional", "priority": 2},
        "x-vendor": {"team": "infra"},
        "rateLimit": 10,
        "_meta": {"com.example/owner": "ops"}
    });
    let parsed: Tool = round_trip(&tool);
    assert_eq!(parsed.display_name(), "Deploy");
    assert_eq!(parsed.extra.len(), 2);
    assert_eq!(parsed.extra["rateLimit"], json!(10));
    let annotations = parsed.annotations.as_ref().expect("annotations");
    assert_eq!(annotations.destructive_hint, Some(true));
    assert_eq!(annotations.extra["costHint"], json!("high"));
    assert_eq!(
        parsed
            .execution
            .as_ref()
            .and_then(|e| e.task_support.as_deref()),
        Some("optional")
    );
}

#[test]
fn older_prompt_resource_and_utility_messages_round_trip() {
    // 2024-11-05: a prompt message embedding a resource, with annotations.
    let prompt: GetPromptResult = round_trip(&json!({
        "description": "Review",
        "messages": [
            {"role": "user", "content": {"type": "resource", "resource":
                {"uri": "file:///a.rs", "mimeType": "text/x-rust", "text": "fn main() {}"}}},
            {"role": "assistant", "content": {"type": "text", "text": "Looks fine.",
                "annotations": {"audience": ["user"], "priority": 1}}}
        ]
    }));
    assert_eq!(prompt.messages[1].role, Role::Assistant);

    let read: ReadResourceResult = round_trip(&json!({"contents": [
        {"uri": "file:///a.png", "mimeType": "image/png", "blob": "iVBORw0KGgo="},
        {"uri": "file:///a.txt", "text": "hello"}
    ]}));
    assert_eq!(read.contents[0].uri(), "file:///a.png");
    assert_eq!(read.contents[1].mime_type(), None);

    let templates: ListResourceTemplatesResult = round_trip(&json!({
        "resourceTemplates": [{"uriTemplate": "file:///{path}", "name": "Files",
            "annotations": {"audience": ["assistant"]}}],
        "nextCursor": "abc"
    }));
    assert_eq!(templates.next_cursor, Some(Cursor::from("abc")));

    // 2024-11-05 progress: integer token, no message; cancellation with an integer id.
    let progress: ProgressNotificationParams =
        round_trip(&json!({"progressToken": 7, "progress": 0.5, "total": 1}));
    assert_eq!(progress.progress_token, ProgressToken::Number(7));
    let cancelled: CancelledNotificationParams = round_trip(&json!({"requestId": 42}));
    assert_eq!(cancelled.request_id, Some(RequestIdValue::Number(42)));

    let complete: CompleteRequestParams = round_trip(&json!({
        "ref": {"type": "ref/resource", "uri": "file:///{path}"},
        "argument": {"name": "path", "value": "sr"}
    }));
    assert_eq!(complete.reference, Reference::resource("file:///{path}"));

    let log: LoggingMessageNotificationParams =
        round_trip(&json!({"level": "warning", "data": "disk almost full"}));
    assert!(log.level >= Some(LoggingLevel::Warning));
    let set: SetLevelRequestParams = round_trip(&json!({"level": "debug"}));
    assert_eq!(set.level, LoggingLevel::Debug);

    let subscribe: SubscribeRequestParams = round_trip(&json!({"uri": "file:///a"}));
    assert_eq!(subscribe, SubscribeRequestParams::new("file:///a"));
    let _: EmptyResult = round_trip(&json!({}));
    let roots: ListRootsResult = round_trip(&json!({"roots": [{"uri": "file:///home"}]}));
    assert_eq!(roots.roots[0].name, None);
}

#[test]
fn malformed_messages_are_errors_not_panics() {
    let missing_text = json!({"type": "text"});
    let err = serde_json::from_value::<ContentBlock>(missing_text.clone()).expect_err("no text");
    assert!(err.to_string().contains("text"), "{err}");
    let in_result = json!({"content": [missing_text]});
    assert!(serde_json::from_value::<CallToolResult>(in_result).is_err());

    for bad in [
        json!({"text": "no type"}),
        json!({"type": 5, "text": "x"}),
        json!("text"),
        json!({"type": "image", "data": "AA=="}),
        json!({"type": "resource", "resource": {"uri": "file:///a"}}),
    ] {
        assert!(
            serde_json::from_value::<ContentBlock>(bad.clone()).is_err(),
            "{bad}"
        );
    }
    assert!(
        serde_json::from_value::<SamplingContent>(json!({"type": "tool_use", "id": "x"})).is_err()
    );
    assert!(
        serde_json::from_value::<ElicitRequestParams>(json!({"mode": "hypnosis", "message": "m"}))
            .is_err()
    );
    assert!(serde_json::from_value::<ElicitResult>(json!({"action": "maybe"})).is_err());
    assert!(
        serde_json::from_value::<LoggingMessageNotificationParams>(json!({"level": "info"}))
            .is_err()
    );
    assert!(serde_json::from_value::<Tool>(json!({"name": "no schema"})).is_err());
    assert!(
        serde_json::from_value::<ProgressNotificationParams>(
            json!({"progressToken": 1.5, "progress": 1})
        )
        .is_err()
    );
}

#[test]
fn odd_optional_members_are_dropped_and_the_rest_kept() {
    let log: LoggingMessageNotificationParams =
        serde_json::from_value(json!({"level": "loud", "logger": 5, "data": "hi"})).unwrap();
    assert_eq!((log.level, log.logger, log.data), (None, None, json!("hi")));

    let progress: ProgressNotificationParams = serde_json::from_value(
        json!({"progressToken": "t", "progress": 2, "total": "many", "message": {}}),
    )
    .unwrap();
    assert_eq!((progress.progress, progress.total), (2.0, None));

    let completion: CompleteResult = serde_json::from_value(
        json!({"completion": {"values": ["py", 3, "rs"], "total": -1, "hasMore": "no"}}),
    )
    .unwrap();
    assert_eq!(completion.completion.values, ["py", "rs"]);
    assert_eq!(completion.completion.total, None);

    let block: ContentBlock = serde_json::from_value(json!({"type": "image", "data": "AA==",
        "mimeType": "image/png", "annotations": {"priority": "top", "lastModified": 1}}))
    .unwrap();
    let ContentBlock::Image(image) = block else {
        panic!("{block:?}")
    };
    assert_eq!(image.annotations, Some(Annotations::default()));
}

#[test]
fn members_that_change_an_answer_or_a_request_stay_strict() {
    for bad in [
        json!({"content": [], "isError": "yes"}),
        json!({"content": "text"}),
    ] {
        assert!(
            serde_json::from_value::<CallToolResult>(bad.clone()).is_err(),
            "{bad}"
        );
    }
    assert!(
        serde_json::from_value::<CallToolRequestParams>(json!({"name": "t", "arguments": [1]}))
            .is_err()
    );
    assert!(
        serde_json::from_value::<CreateMessageRequestParams>(
            json!({"messages": [], "maxTokens": 1, "tools": {"name": "t"}})
        )
        .is_err()
    );
    assert!(serde_json::from_value::<ListToolsResult>(json!({"tools": {}})).is_err());
    assert!(serde_json::from_value::<ListToolsResult>(json!({})).is_err());
    assert!(
        serde_json::from_value::<ListToolsResult>(json!({"tools": [], "nextCursor": 2})).is_err()
    );
}

#[test]
fn a_page_reports_the_items_it_left_out() {
    let page: ListResourcesResult = serde_json::from_value(json!({"resources": [
        {"uri": "file:///a", "name": "a"},
        {"uri": "file:///b"},
        "not an object",
    ], "nextCursor": "n"}))
    .unwrap();
    assert_eq!(page.resources.len(), 1);
    assert_eq!(page.next_cursor, Some(Cursor::from("n")));
    let skipped: Vec<(usize, Option<&str>)> = page
        .skipped
        .iter()
        .map(|s| (s.index, s.name.as_deref()))
        .collect();
    assert_eq!(skipped, [(1, Some("file:///b")), (2, None)]);
    // What was left out is not written back; the rest is.
    assert_eq!(
        serde_json::to_value(&page).unwrap(),
        json!({"resources": [{"uri": "file:///a", "name": "a"}], "nextCursor": "n"})
    );
}

#[test]
fn every_sampling_example_follows_the_sampling_rules() {
    let with_tools = ClientCapabilities::all().with_sampling_tools();
    for path in json_files(&examples_dir().join("CreateMessageRequestParams")) {
        let params: CreateMessageRequestParams = serde_json::from_value(read_json(&path))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            params.check_rules(&with_tools),
            Ok(()),
            "{}",
            path.display()
        );
    }
}
