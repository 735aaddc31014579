//! The tools that call the client back: sampling, form and URL elicitation, roots. Each
//! checks first that the client declared the capability, and says so plainly if not.

use std::time::Duration;

use serde_json::Map;
use switchboard_mcp::ProtocolVersion;
use switchboard_mcp::jsonrpc::{ErrorObject, code};
use switchboard_mcp::types::*;

use crate::arguments::{Args, Failure, ToolResult, text_result};
use crate::server::{CallbackError, Server};

/// A person may take their time to answer; the host's own timeout of the tool call
/// cancels us (and so this request) first.
const PERSON: Duration = Duration::from_secs(600);
const ROOTS: Duration = Duration::from_secs(30);

pub const CONSENT_URL: &str = "https://example.com/demo-consent";
pub const CONNECT_URL: &str = "https://example.com/demo-connect";

const SYSTEM_PROMPT: &str = "You are answering a question sent by the Switchboard demo \
server. Answer in one or two sentences.";

fn refused(what: &str, err: CallbackError) -> Failure {
    Failure(match err {
        CallbackError::Refused(error) => format!("the client declined {what}: {}", error.message),
        CallbackError::Failed(detail) => format!("{what} failed: {detail}"),
    })
}

pub async fn ask_model(server: &Server, args: &Args) -> ToolResult {
    let question = args.string("question")?;
    if !server.client_capabilities().supports_sampling() {
        return Err(Failure(
            "this client does not offer sampling, so the demo cannot ask its model".into(),
        ));
    }
    let use_clock = args.flag("use_clock")?;
    if use_clock && !server.client_capabilities().supports_sampling_tools() {
        return Err(Failure(
            "this client does not offer sampling with tools, so its model cannot read the \
             demo's clock"
                .into(),
        ));
    }
    let hint = args.optional_string("model_hint")?;
    let mut params = CreateMessageRequestParams {
        messages: vec![SamplingMessage::new(
            Role::User,
            SamplingContent::text(question),
        )],
        model_preferences: Some(ModelPreferences {
            hints: hint.map(|name| {
                vec![ModelHint {
                    name: Some(name),
                    extra: Map::new(),
                }]
            }),
            speed_priority: Some(0.8),
            ..ModelPreferences::default()
        }),
        system_prompt: Some(SYSTEM_PROMPT.to_owned()),
        include_context: None,
        temperature: args.optional_number("temperature")?,
        max_tokens: args.integer("max_tokens", 1..=u64::MAX, Some(200))?,
        stop_sequences: args.optional_string("stop")?.map(|s| vec![s]),
        metadata: None,
        tools: use_clock.then(|| vec![clock()]),
        tool_choice: None,
        meta: None,
        extra: Map::new(),
    };
    // The tool loop of sampling with tools: the server runs the tools the model asks for
    // and asks again with their results, the last time with no tool allowed.
    for round in 1..=CLOCK_ROUNDS {
        if use_clock && round == CLOCK_ROUNDS {
            params.tool_choice = Some(ToolChoice {
                mode: Some(ToolChoiceMode::None),
                extra: Map::new(),
            });
        }
        let answer: CreateMessageResult = server
            .request(method::SAMPLING_CREATE_MESSAGE, params.clone(), PERSON)
            .await
            .map_err(|e| refused("the sampling request", e))?;
        let results: Vec<SamplingContent> = answer
            .content
            .iter()
            .filter_map(|content| match content {
                SamplingContent::ToolUse(used) => Some(read_clock(used)),
                _ => None,
            })
            .collect();
        if results.is_empty() {
            return answered(&answer);
        }
        params.messages.push(SamplingMessage {
            role: Role::Assistant,
            content: answer.content.clone(),
            meta: None,
            extra: Map::new(),
        });
        params.messages.push(SamplingMessage {
            role: Role::User,
            content: OneOrMany::Many(results),
            meta: None,
            extra: Map::new(),
        });
    }
    Err(Failure(format!(
        "the model kept asking for tools after {CLOCK_ROUNDS} rounds"
    )))
}

/// How many times the model is asked at most when it may read the clock.
const CLOCK_ROUNDS: usize = 3;

/// What the demo's clock says: always the same, so that its answers can be checked.
pub const CLOCK_TIME: &str = "12:00 UTC";

/// The clock's name: dotted, as MCP allows and the model providers do not, so that the
/// host's mapping of such names shows.
const CLOCK: &str = "demo.clock";

fn clock() -> Tool {
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    Tool {
        name: CLOCK.to_owned(),
        title: None,
        description: Some("Reads the demo server's clock.".to_owned()),
        input_schema: schema,
        output_schema: None,
        annotations: None,
        icons: None,
        execution: None,
        meta: None,
        extra: Map::new(),
    }
}

/// The result of a tool the model asked the demo to run: only the clock is there.
fn read_clock(used: &ToolUseContent) -> SamplingContent {
    let (text, is_error) = match used.name.as_str() {
        CLOCK => (format!("The demo's clock says {CLOCK_TIME}."), None),
        other => (format!("the demo has no tool {other}"), Some(true)),
    };
    SamplingContent::ToolResult(ToolResultContent {
        tool_use_id: used.id.clone(),
        content: vec![ContentBlock::text(text)],
        structured_content: None,
        is_error,
        meta: None,
        extra: Map::new(),
    })
}

/// The model's text, as the tool's result.
fn answered(answer: &CreateMessageResult) -> ToolResult {
    let text: Vec<&str> = answer
        .content
        .iter()
        .filter_map(SamplingContent::as_text)
        .collect();
    if text.is_empty() {
        return Err(Failure(format!(
            "the model ({}) answered without any text",
            answer.model
        )));
    }
    Ok(text_result(text.join("\n")))
}

/// The form of `ask_user`: one field of each kind.
fn form() -> ElicitationSchema {
    let colour = |value: &str, title: &str| EnumOption {
        value: value.to_owned(),
        title: title.to_owned(),
        extra: Map::new(),
    };
    let properties: Properties = [
        (
            "name",
            PrimitiveSchema::String(StringSchema {
                title: Some("Your name".into()),
                description: Some("At least two characters".into()),
                min_length: Some(2),
                max_length: Some(50),
                ..StringSchema::default()
            }),
        ),
        (
            "age",
            PrimitiveSchema::Number(NumberSchema {
                number_type: NumberType::Integer,
                title: Some("Your age".into()),
                description: None,
                minimum: Some(1.0),
                maximum: Some(120.0),
                default: None,
                extra: Map::new(),
            }),
        ),
        (
            "colour",
            PrimitiveSchema::TitledSingleSelect(TitledSingleSelectEnumSchema {
                title: Some("Favourite colour".into()),
                description: None,
                one_of: vec![
                    colour("red", "Red"),
                    colour("green", "Green"),
                    colour("blue", "Blue"),
                ],
                default: Some("green".into()),
                extra: Map::new(),
            }),
        ),
        (
            "likes_demos",
            PrimitiveSchema::Boolean(BooleanSchema {
                title: Some("Do you like demos?".into()),
                description: None,
                default: Some(true),
                extra: Map::new(),
            }),
        ),
    ]
    .into_iter()
    .collect();
    ElicitationSchema::new(properties, vec!["name".into()])
}

pub async fn ask_user(server: &Server) -> ToolResult {
    if !server.client_capabilities().supports_form_elicitation() {
        return Err(Failure(
            "this client does not offer form elicitation, so the demo cannot ask you".into(),
        ));
    }
    let schema = form();
    let mut params = ElicitRequestFormParams::new(
        "The Switchboard demo would like to know a little about you. Nothing leaves \
         the demo server.",
        schema.clone(),
    );
    // `mode` came with 2025-11-25; older clients get the form as they know it.
    if server.protocol_version() < ProtocolVersion::V2025_11_25 {
        params.mode = None;
    }
    let answer: ElicitResult = server
        .request(
            method::ELICITATION_CREATE,
            ElicitRequestParams::Form(params),
            PERSON,
        )
        .await
        .map_err(|e| refused("the form", e))?;
    match answer.action {
        ElicitAction::Decline => return Ok(text_result("declined")),
        ElicitAction::Cancel => return Ok(text_result("cancelled")),
        ElicitAction::Accept => {}
    }
    let content = answer.content.unwrap_or_default();
    // The client should have checked the answer; a server checks it again.
    if let Err(errors) = schema.validate(&content) {
        let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
        return Err(Failure(format!(
            "the answer does not fit the form: {}",
            errors.join("; ")
        )));
    }
    let fields: Vec<String> = schema
        .properties
        .iter()
        .filter_map(|(name, _)| {
            let value = serde_json::to_string(content.get(name)?).ok()?;
            Some(format!("{name} = {value}"))
        })
        .collect();
    Ok(text_result(format!("accepted: {}", fields.join(", "))))
}

/// Refused with -32042 until the person was sent to the page once: a real server would
/// learn from its page that they finished; the demo's page has nothing to do, so being sent
/// there is enough.
pub fn connect_account(server: &Server) -> Result<CallToolResult, ErrorObject> {
    if std::mem::replace(&mut server.state().account_connected, true) {
        return Ok(text_result("connected: the demo account is yours to use"));
    }
    let step = ElicitRequestUrlParams::new(
        "The Switchboard demo asks you to open a page on example.com before it connects \
         your account. Nothing is sent anywhere.",
        CONNECT_URL,
        server.next_elicitation_id(),
    );
    let required = UrlElicitationRequiredData {
        elicitations: vec![step],
        extra: Map::new(),
    };
    let mut refusal = ErrorObject::new(
        code::URL_ELICITATION_REQUIRED,
        "connecting the account needs you to visit a page first",
    );
    refusal.data = serde_json::to_value(required).ok().map(Box::new);
    Err(refusal)
}

pub async fn open_link(server: &Server) -> ToolResult {
    let supported = server.client_capabilities().supports_url_elicitation()
        && server.protocol_version() >= ProtocolVersion::V2025_11_25;
    if !supported {
        return Err(Failure(
            "this client does not offer URL elicitation, so the demo cannot send you to a page"
                .into(),
        ));
    }
    let id = server.next_elicitation_id();
    let params = ElicitRequestUrlParams::new(
        "The Switchboard demo asks you to open a page on example.com: it shows how a server \
         sends you to a web page, for instance to sign in. Nothing is sent anywhere.",
        CONSENT_URL,
        id.clone(),
    );
    let answer: ElicitResult = server
        .request(
            method::ELICITATION_CREATE,
            ElicitRequestParams::Url(params),
            PERSON,
        )
        .await
        .map_err(|e| refused("the link", e))?;
    Ok(text_result(match answer.action {
        ElicitAction::Accept => {
            // A real server would wait for the page to report back; the demo's page has
            // nothing to do, so the interaction is complete at once.
            let complete = ElicitationCompleteNotificationParams {
                elicitation_id: id,
                meta: None,
                extra: Map::new(),
            };
            server.notify(method::ELICITATION_COMPLETE, complete).await;
            "accepted"
        }
        ElicitAction::Decline => "declined",
        ElicitAction::Cancel => "cancelled",
    }))
}

pub async fn list_roots(server: &Server) -> ToolResult {
    if !server.client_capabilities().supports_roots() {
        return Err(Failure("this client does not share roots".into()));
    }
    let answer: ListRootsResult = server
        .request(method::ROOTS_LIST, RequestParams::default(), ROOTS)
        .await
        .map_err(|e| refused("the roots request", e))?;
    if answer.roots.is_empty() {
        return Ok(text_result("no roots shared"));
    }
    let lines: Vec<String> = answer
        .roots
        .iter()
        .map(|root| match &root.name {
            Some(name) => format!("{} ({name})", root.uri),
            None => root.uri.clone(),
        })
        .collect();
    Ok(text_result(lines.join("\n")))
}
