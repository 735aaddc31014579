//! A form a server asks for reaches the person with the schema it wrote, and the tool
//! hears what they chose: their answer, or that they declined.

use switchboard_mcp::types::{
    CallToolResult, ContentBlock, ElicitContent, ElicitRequestFormParams, ElicitRequestParams,
    ElicitValue,
};

use crate::common::http_peers::{EverythingHttp, PyHttp};
use crate::common::peers::{Reach, each_peer};
use crate::common::{Person, Script, first_text};

struct Peer {
    reach: Reach,
    tool: &'static str,
    /// What the person answers.
    answer: fn() -> ElicitContent,
    /// The first text blocks of the tool's result once they answered.
    accepted: &'static [&'static str],
    /// The form's message, when checked.
    message: Option<&'static str>,
    /// The fields it must ask for, in the order written, with their kinds, when checked.
    fields: Option<&'static [(&'static str, &'static str)]>,
    /// The fields it requires.
    required: &'static [&'static str],
    /// What else this peer's form and answer must show.
    more: Option<fn(&CallToolResult, &ElicitRequestFormParams, &ElicitContent)>,
    /// The tool's text once they declined.
    declined: &'static str,
}

fn python_answer() -> ElicitContent {
    [
        ("name".to_owned(), ElicitValue::from("Ada")),
        ("age".to_owned(), ElicitValue::from(36.0)),
        ("color".to_owned(), ElicitValue::from("blue")),
        ("subscribe".to_owned(), ElicitValue::from(true)),
    ]
    .into()
}

fn a_name() -> ElicitContent {
    [("name".to_owned(), ElicitValue::from("Ada"))].into()
}

const PYTHON: Peer = Peer {
    reach: Reach::PythonStdio,
    tool: "ask_form",
    answer: python_answer,
    accepted: &[r#"accepted: {"age":36,"color":"blue","name":"Ada","subscribe":true}"#],
    message: Some("Tell us about yourself."),
    fields: None,
    required: &["name"],
    more: None,
    declined: "declined",
};
const RMCP: Peer = Peer {
    reach: Reach::RmcpStdio,
    tool: "elicit",
    answer: a_name,
    accepted: &["hello Ada"],
    message: Some("What is your name?"),
    fields: Some(&[("name", "string")]),
    required: &["name"],
    more: None,
    declined: "declined",
};
const EVERYTHING: Peer = Peer {
    reach: Reach::EverythingStdio,
    tool: "trigger-elicitation-request",
    answer: everything_answer,
    accepted: &[
        "✅ User provided the requested information!",
        "User inputs:\n- Name: Ada Lovelace\n- Agreed to terms: true\n- Email: ada@example.com\n\
         - Homepage: https://ada.example.com\n- Birthdate: 1815-12-10\n- Favorite Integer: 36\n\
         - Favorite Number: 2.5",
    ],
    message: Some("Please provide inputs for the following fields:"),
    // A form shows its fields in this order: name first, then the rest as declared.
    fields: Some(&FORM_FIELDS),
    required: &["name"],
    more: Some(everything_in_full),
    declined: "❌ User declined to provide the requested information.",
};

fn everything_answer() -> ElicitContent {
    let strings = |values: &[&str]| values.iter().map(|&v| v.to_owned()).collect::<Vec<_>>();
    [
        ("name", ElicitValue::from("Ada Lovelace")),
        ("check", ElicitValue::from(true)),
        ("email", ElicitValue::from("ada@example.com")),
        ("homepage", ElicitValue::from("https://ada.example.com")),
        ("birthdate", ElicitValue::from("1815-12-10")),
        ("integer", ElicitValue::from(36.0)),
        ("number", ElicitValue::from(2.5)),
        ("untitledSingleSelectEnum", ElicitValue::from("Ross")),
        (
            "untitledMultipleSelectEnum",
            ElicitValue::from(strings(&["Piano", "Drums"])),
        ),
        ("titledSingleSelectEnum", ElicitValue::from("hero-3")),
        (
            "titledMultipleSelectEnum",
            ElicitValue::from(strings(&["fish-2"])),
        ),
        ("legacyTitledEnum", ElicitValue::from("pet-2")),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), value))
    .collect()
}

/// The fields of server-everything's form, in the order it writes them, and their kinds.
const FORM_FIELDS: [(&str, &str); 13] = [
    ("name", "string"),
    ("check", "boolean"),
    ("firstLine", "string"),
    ("email", "string"),
    ("homepage", "string"),
    ("birthdate", "string"),
    ("integer", "number"),
    ("number", "number"),
    ("untitledSingleSelectEnum", "single"),
    ("untitledMultipleSelectEnum", "multi"),
    ("titledSingleSelectEnum", "titled single"),
    ("titledMultipleSelectEnum", "titled multi"),
    ("legacyTitledEnum", "single"),
];

/// server-everything echoes the whole answer back as JSON, says which fields it requires,
/// offers defaults, and its form refuses what a form would refuse before sending.
fn everything_in_full(
    result: &CallToolResult,
    form: &ElicitRequestFormParams,
    answer: &ElicitContent,
) {
    let raw = result
        .content
        .iter()
        .filter_map(ContentBlock::as_text)
        .nth(2)
        .unwrap_or_else(|| panic!("the raw result: {result:?}"));
    let raw: serde_json::Value =
        serde_json::from_str(raw.trim_start_matches("\nRaw result: ")).expect("JSON");
    assert_eq!(raw["action"], "accept");
    assert_eq!(raw["content"], serde_json::to_value(answer).expect("JSON"));
    let schema = &form.requested_schema;
    assert!(!schema.is_required("email"));
    let strings = |values: &[&str]| values.iter().map(|&v| v.to_owned()).collect::<Vec<_>>();
    #[allow(clippy::approx_constant)] // The server's default, not π.
    let defaults: ElicitContent = [
        (
            "firstLine",
            ElicitValue::from("It was a dark and stormy night."),
        ),
        ("integer", ElicitValue::from(42.0)),
        ("number", ElicitValue::from(3.14)),
        ("untitledSingleSelectEnum", ElicitValue::from("Monica")),
        (
            "untitledMultipleSelectEnum",
            ElicitValue::from(strings(&["Guitar"])),
        ),
        ("titledSingleSelectEnum", ElicitValue::from("hero-1")),
        (
            "titledMultipleSelectEnum",
            ElicitValue::from(strings(&["fish-1"])),
        ),
        ("legacyTitledEnum", ElicitValue::from("pet-1")),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), value))
    .collect();
    assert_eq!(schema.defaults(), defaults);
    // The defaults alone lack the required name.
    let missing = schema.validate(&defaults).expect_err("the name is missing");
    assert_eq!(
        missing.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(),
        ["name"]
    );

    // What a form would refuse before sending.
    let mut wrong = answer.clone();
    wrong.insert("email".into(), ElicitValue::from("not an email"));
    wrong.insert("integer".into(), ElicitValue::from(101.0));
    wrong.insert(
        "untitledMultipleSelectEnum".into(),
        ElicitValue::from(strings(&["Guitar", "Piano", "Violin", "Drums"])),
    );
    wrong.insert(
        "titledSingleSelectEnum".into(),
        ElicitValue::from("Superman"),
    );
    let errors = schema.validate(&wrong).expect_err("four fields are wrong");
    let mut fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
    fields.sort_unstable();
    assert_eq!(
        fields,
        [
            "email",
            "integer",
            "titledSingleSelectEnum",
            "untitledMultipleSelectEnum"
        ]
    );
}

/// The one form elicitation the person was shown.
fn the_form(person: &Person) -> ElicitRequestFormParams {
    match person
        .seen
        .lock()
        .expect("seen lock")
        .elicitations
        .as_slice()
    {
        [ElicitRequestParams::Form(form)] => form.clone(),
        other => panic!("one form: {other:?}"),
    }
}

/// The person answers the form within the schema the server sent; the tool hears it.
async fn accepted(peer: &Peer) {
    let answer = (peer.answer)();
    let person = Person::new(Script {
        form_answer: Some(answer.clone()),
        ..Script::default()
    });
    let connected = peer.reach.connect(person.clone()).await;
    let client = &connected.client;
    let result = client
        .call_tool(peer.tool, None, client.request_options())
        .await
        .expect("tools/call");
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(ContentBlock::as_text)
        .collect();
    assert!(texts.len() >= peer.accepted.len(), "{result:?}");
    assert_eq!(&texts[..peer.accepted.len()], peer.accepted);

    let form = the_form(&person);
    if let Some(message) = peer.message {
        assert_eq!(form.message, message);
    }
    let schema = &form.requested_schema;
    if let Some(fields) = peer.fields {
        assert_eq!(field_kinds(schema), fields);
    }
    for field in peer.required {
        assert!(schema.is_required(field), "{field} is required");
    }
    // The form the server sent validates the answer the person gave, and refuses none.
    assert_eq!(schema.validate(&answer), Ok(()));
    assert!(schema.validate(&ElicitContent::new()).is_err());
    if let Some(more) = peer.more {
        more(&result, &form, &answer);
    }
    client.close().await;
}

each_peer!(accepted {
    everything_stdio: EVERYTHING,
    everything_streamable_http: EVERYTHING => Reach::EverythingHttp(EverythingHttp::Streamable),
    python_stdio: PYTHON,
    python_streamable_http: PYTHON => Reach::PythonHttp(PyHttp::Streamable),
    python_sse: PYTHON => Reach::PythonHttp(PyHttp::Sse),
    rmcp_stdio: RMCP,
    rmcp_streamable_http: RMCP => Reach::RmcpHttp,
});

/// The person declines the form, once asked; the tool hears it.
async fn declined(peer: &Peer) {
    let person = Person::new(Script::default());
    let connected = peer.reach.connect(person.clone()).await;
    let client = &connected.client;
    let result = client
        .call_tool(peer.tool, None, client.request_options())
        .await
        .expect("tools/call");
    assert_eq!(first_text(&result), peer.declined);
    the_form(&person);
    client.close().await;
}

each_peer!(declined {
    everything_stdio: EVERYTHING,
    python_stdio: PYTHON,
    rmcp_stdio: RMCP,
    rmcp_streamable_http: RMCP => Reach::RmcpHttp,
});

/// The fields of a form, in the order the server wrote them, and their kinds.
pub fn field_kinds(
    schema: &switchboard_mcp::types::ElicitationSchema,
) -> Vec<(&str, &'static str)> {
    use switchboard_mcp::types::PrimitiveSchema;
    schema
        .properties
        .iter()
        .map(|(name, field)| {
            let kind = match field {
                PrimitiveSchema::String(_) => "string",
                PrimitiveSchema::Number(_) => "number",
                PrimitiveSchema::Boolean(_) => "boolean",
                PrimitiveSchema::UntitledSingleSelect(_) => "single",
                PrimitiveSchema::TitledSingleSelect(_) => "titled single",
                PrimitiveSchema::UntitledMultiSelect(_) => "multi",
                PrimitiveSchema::TitledMultiSelect(_) => "titled multi",
                PrimitiveSchema::Other(_) => "other",
            };
            (name.as_str(), kind)
        })
        .collect()
}
