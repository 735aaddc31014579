//! Properties of the public decoders: JSON-RPC frames, and the form schema of an
//! elicitation with the answers checked against it. (Their long fuzz run is in the crate's
//! `fuzz` module, beside the private decoders'.)

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, select, subsequence};
use serde_json::{Value, json};
use switchboard_mcp::jsonrpc::{
    ErrorObject, FrameError, Message, Notification, Request, RequestId, Response,
};
use switchboard_mcp::types::{ElicitContent, ElicitValue, ElicitationSchema, PrimitiveSchema};

// JSON

/// Numbers that read back exactly from their text: integers and short binary fractions.
fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (any::<i32>(), 1..4).prop_map(|(n, bits)| Value::from(f64::from(n) / f64::from(1 << bits))),
    ]
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        number(),
        any::<String>().prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 32, 5, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..5).prop_map(Value::Array),
            vec((any::<String>(), inner), 0..5)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

// JSON-RPC

fn request_id() -> impl Strategy<Value = RequestId> {
    prop_oneof![
        any::<i64>().prop_map(RequestId::Number),
        any::<String>().prop_map(RequestId::String),
    ]
}

/// Structured, as JSON-RPC requires (a `null` reads as no params).
fn params() -> impl Strategy<Value = Option<Value>> {
    proptest::option::of(json().prop_filter("structured", |v| v.is_object() || v.is_array()))
}

/// An error object and its JSON (a `null` data reads as none, so it has some or none).
fn error() -> impl Strategy<Value = (ErrorObject, Value)> {
    let data = proptest::option::of(json().prop_filter("not null", |v| !v.is_null()));
    (any::<i64>(), any::<String>(), data).prop_map(|(code, message, data)| {
        let mut value = json!({"code": code, "message": message});
        if let Some(data) = &data {
            value["data"] = data.clone();
        }
        let error = ErrorObject {
            code,
            message,
            data: data.map(Box::new),
        };
        (error, value)
    })
}

/// A message of each kind, with the JSON it is written as.
fn message() -> impl Strategy<Value = (Message, Value)> {
    let with_params = |mut value: Value, params: &Option<Value>| {
        if let Some(params) = params {
            value["params"] = params.clone();
        }
        value
    };
    prop_oneof![
        (request_id(), any::<String>(), params()).prop_map(move |(id, method, params)| {
            let value = json!({"jsonrpc": "2.0", "id": id, "method": method});
            let value = with_params(value, &params);
            (Message::Request(Request { id, method, params }), value)
        }),
        (any::<String>(), params()).prop_map(move |(method, params)| {
            let value = with_params(json!({"jsonrpc": "2.0", "method": method}), &params);
            (
                Message::Notification(Notification { method, params }),
                value,
            )
        }),
        (request_id(), json()).prop_map(|(id, result)| {
            let value = json!({"jsonrpc": "2.0", "id": id, "result": result});
            let outcome = Ok(result);
            (Message::Response(Response { id, outcome }), value)
        }),
        (request_id(), error()).prop_map(|(id, (error, json))| {
            let value = json!({"jsonrpc": "2.0", "id": id, "error": json});
            let outcome = Err(error);
            (Message::Response(Response { id, outcome }), value)
        }),
        error().prop_map(|(error, json)| {
            let value = json!({"jsonrpc": "2.0", "id": null, "error": json});
            (Message::OrphanError(error), value)
        }),
    ]
}

/// What makes an envelope invalid, whatever message it is applied to.
#[derive(Debug, Clone)]
enum Fault {
    NoVersion,
    Version(Value),
    Id(Value),
    Method(Value),
    Error(Value),
    BothOutcomes,
    NoMethodNorOutcome,
    MethodAndResult,
    NotAnObject(Value),
}

fn fault() -> impl Strategy<Value = Fault> {
    let scalar = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        number(),
        any::<String>().prop_map(Value::from),
    ];
    let not_an_id = prop_oneof![
        any::<bool>().prop_map(Value::from),
        (any::<i32>(), 1..4).prop_map(|(n, bits)| Value::from(f64::from(n) + 0.5_f64.powi(bits))),
        (i64::MAX as u64 + 1..=u64::MAX).prop_map(Value::from),
        json().prop_filter("structured", |v| v.is_object() || v.is_array()),
    ];
    let not_text = json().prop_filter("neither text nor null", |v| !v.is_string() && !v.is_null());
    let not_an_error = prop_oneof![
        json().prop_filter("not an object nor null", |v| !v.is_object() && !v.is_null()),
        Just(json!({"code": 1})),
        Just(json!({"message": "m"})),
        Just(json!({"code": 1.5, "message": "m"})),
        Just(json!({"code": "1", "message": "m"})),
    ];
    prop_oneof![
        Just(Fault::NoVersion),
        json()
            .prop_filter("not 2.0", |v| v != "2.0")
            .prop_map(Fault::Version),
        not_an_id.prop_map(Fault::Id),
        not_text.prop_map(Fault::Method),
        not_an_error.prop_map(Fault::Error),
        Just(Fault::BothOutcomes),
        Just(Fault::NoMethodNorOutcome),
        Just(Fault::MethodAndResult),
        scalar.prop_map(Fault::NotAnObject),
    ]
}

impl Fault {
    fn apply(self, mut value: Value) -> Value {
        let Value::Object(members) = &mut value else {
            unreachable!("messages are objects")
        };
        let mut set = |key: &str, v: Value| drop(members.insert(key.to_owned(), v));
        match self {
            Self::NoVersion => drop(members.shift_remove("jsonrpc")),
            Self::Version(v) => set("jsonrpc", v),
            Self::Id(v) => set("id", v),
            Self::Method(v) => set("method", v),
            Self::Error(v) => set("error", v),
            Self::BothOutcomes => {
                set("id", json!(1));
                set("result", json!({}));
                set("error", json!({"code": 1, "message": "m"}));
            }
            Self::NoMethodNorOutcome => {
                for key in ["method", "result", "error"] {
                    members.shift_remove(key);
                }
            }
            Self::MethodAndResult => {
                set("method", json!("m"));
                set("result", json!({}));
            }
            Self::NotAnObject(v) => return v,
        }
        value
    }
}

proptest! {
    #[test]
    fn any_text_is_messages_or_a_frame_error(text in any::<String>()) {
        if let Ok(messages) = Message::parse_frame(&text) {
            prop_assert!(!messages.is_empty());
        }
    }

    #[test]
    fn any_bytes_read_as_text_are_messages_or_a_frame_error(bytes in vec(any::<u8>(), 0..256)) {
        let _ = Message::parse_frame(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn any_json_is_messages_or_a_frame_error(value in json()) {
        let _ = Message::parse_frame(&value.to_string());
        let _ = Message::from_value(value);
    }

    #[test]
    fn each_kind_of_message_is_classified_and_written_back_as_it_came(
        (message, value) in message(),
    ) {
        prop_assert_eq!(Message::parse_frame(&value.to_string()), Ok(vec![message.clone()]));
        let written = message.to_json();
        prop_assert!(!written.contains('\n'), "one line, as stdio frames it");
        prop_assert_eq!(serde_json::from_str::<Value>(&written).unwrap(), value);
    }

    #[test]
    fn a_batch_is_its_messages_in_order(
        messages in vec(message(), 1..5),
        space in "[ \t\r\n]{0,2}",
    ) {
        let (expected, values): (Vec<_>, Vec<_>) = messages.into_iter().unzip();
        let frame = format!("{space}{}", Value::Array(values));
        prop_assert_eq!(Message::parse_frame(&frame), Ok(expected));
    }

    #[test]
    fn an_invalid_envelope_is_a_frame_error((_, value) in message(), fault in fault()) {
        let frame = fault.apply(value).to_string();
        let parsed = Message::parse_frame(&frame);
        prop_assert!(
            matches!(parsed, Err(FrameError::NotJsonRpc(_))),
            "{} gave {:?}", frame, parsed
        );
    }

    #[test]
    fn a_batch_with_one_invalid_envelope_is_a_frame_error(
        messages in vec(message(), 1..5),
        at in any::<Index>(),
        fault in fault(),
    ) {
        let mut values: Vec<Value> = messages.into_iter().map(|(_, v)| v).collect();
        let at = at.index(values.len());
        values[at] = fault.apply(values[at].take());
        let parsed = Message::parse_frame(&Value::Array(values).to_string());
        prop_assert!(matches!(parsed, Err(FrameError::NotJsonRpc(_))), "{:?}", parsed);
    }
}

/// The envelope's faults a property run may not happen to draw, each once.
#[test]
fn a_message_of_another_json_rpc_version_is_a_frame_error() {
    for frame in [
        r#"{"jsonrpc": "1.0", "id": 1, "method": "ping"}"#,
        r#"{"jsonrpc": "2", "id": 1, "result": {}}"#,
        r#"{"id": 1, "method": "ping"}"#,
    ] {
        let parsed = Message::parse_frame(frame);
        assert!(
            matches!(parsed, Err(FrameError::NotJsonRpc(_))),
            "{frame} gave {parsed:?}"
        );
    }
}

#[test]
fn an_empty_batch_is_a_frame_error() {
    assert_eq!(
        Message::parse_frame(" []"),
        Err(FrameError::NotJsonRpc("empty batch"))
    );
}

#[test]
fn an_error_with_a_null_id_and_a_result_is_a_frame_error() {
    let frame =
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"},"result":null}"#;
    assert!(Message::parse_frame(frame).is_err());
}

#[test]
fn an_error_member_that_is_an_array_is_a_frame_error() {
    let frame = r#"{"jsonrpc":"2.0","id":0,"error":[0,"2.0"]}"#;
    assert!(Message::parse_frame(frame).is_err());
}

#[test]
fn a_batch_item_that_is_an_array_is_a_frame_error() {
    let frame = r#"[["2.0",1,null,null,{},null]]"#;
    assert!(Message::parse_frame(frame).is_err());
}

#[test]
fn a_number_reads_back_the_same_once_written() {
    let frame = r#"{"jsonrpc":"2.0","method":"m","params":[184467474073709551615]}"#;
    let message = Message::parse_frame(frame).unwrap();
    assert_eq!(
        Message::parse_frame(&message[0].to_json()).unwrap(),
        message
    );
}

// Elicitation forms

/// A field of one of the restricted shapes. Bounds are such that some answer fits.
#[derive(Debug, Clone)]
enum Field {
    Text {
        min: Option<u64>,
        max: Option<u64>,
    },
    Formatted(Format),
    /// Bounds and answers in units of 1 (integer) or 1/4 (number).
    Number {
        integer: bool,
        min: Option<i32>,
        max: Option<i32>,
    },
    Boolean,
    Choice {
        values: Vec<String>,
        titled: bool,
    },
    Choices {
        values: Vec<String>,
        titled: bool,
        min: Option<u64>,
        max: Option<u64>,
    },
}

#[derive(Debug, Clone, Copy)]
enum Format {
    Email,
    Uri,
    Date,
    DateTime,
}

fn field() -> impl Strategy<Value = Field> {
    let choices = || vec(any::<String>(), 1..5);
    prop_oneof![
        (proptest::option::of(0..4u64), proptest::option::of(0..6u64)).prop_map(|(min, more)| {
            let max = more.map(|more| min.unwrap_or(0) + more);
            Field::Text { min, max }
        }),
        select(&[Format::Email, Format::Uri, Format::Date, Format::DateTime][..])
            .prop_map(Field::Formatted),
        (
            any::<bool>(),
            proptest::option::of(-1000..1000),
            proptest::option::of(0..1000)
        )
            .prop_map(|(integer, min, more)| {
                let max = more.map(|more| min.unwrap_or(0) + more);
                Field::Number { integer, min, max }
            }),
        Just(Field::Boolean),
        (choices(), any::<bool>()).prop_map(|(values, titled)| Field::Choice { values, titled }),
        (
            choices(),
            any::<bool>(),
            any::<Index>(),
            any::<Index>(),
            any::<(bool, bool)>()
        )
            .prop_map(|(values, titled, low, high, (bounded_low, bounded_high))| {
                // 0 <= min <= max <= the number of values.
                let max = high.index(values.len() + 1) as u64;
                let min = low.index(max as usize + 1) as u64;
                let (min, max) = (bounded_low.then_some(min), bounded_high.then_some(max));
                Field::Choices {
                    values,
                    titled,
                    min,
                    max,
                }
            }),
    ]
}

impl Field {
    fn scale(integer: bool) -> f64 {
        if integer { 1.0 } else { 4.0 }
    }

    /// The field's schema, with its default if it has one.
    fn schema(&self, default: Option<&ElicitValue>) -> Value {
        let options = |values: &[String]| -> Vec<Value> {
            values
                .iter()
                .map(|v| json!({"const": v, "title": v.to_uppercase()}))
                .collect()
        };
        let mut schema = match self {
            Self::Text { min, max } => {
                json!({"type": "string", "minLength": min, "maxLength": max})
            }
            Self::Formatted(format) => {
                let format = match format {
                    Format::Email => "email",
                    Format::Uri => "uri",
                    Format::Date => "date",
                    Format::DateTime => "date-time",
                };
                json!({"type": "string", "format": format})
            }
            Self::Number { integer, min, max } => {
                let bound = |b: &Option<i32>| b.map(|b| f64::from(b) / Self::scale(*integer));
                let kind = if *integer { "integer" } else { "number" };
                json!({"type": kind, "minimum": bound(min), "maximum": bound(max)})
            }
            Self::Boolean => json!({"type": "boolean", "title": "Yes?"}),
            Self::Choice {
                values,
                titled: false,
            } => json!({"type": "string", "enum": values}),
            Self::Choice {
                values,
                titled: true,
            } => {
                json!({"type": "string", "oneOf": options(values)})
            }
            Self::Choices {
                values,
                titled,
                min,
                max,
            } => {
                let items = if *titled {
                    json!({"anyOf": options(values)})
                } else {
                    json!({"type": "string", "enum": values})
                };
                json!({"type": "array", "items": items, "minItems": min, "maxItems": max})
            }
        };
        let Value::Object(members) = &mut schema else {
            unreachable!("a schema is an object")
        };
        // An absent bound is no member at all, not `null`.
        members.retain(|_, v| !v.is_null());
        if let Some(default) = default {
            members.insert(
                "default".into(),
                serde_json::to_value(default).expect("an answer serializes"),
            );
        }
        schema
    }

    /// Answers that fit the field.
    fn fitting(&self) -> BoxedStrategy<ElicitValue> {
        match self.clone() {
            Self::Text { min, max } => {
                let min = min.unwrap_or(0) as usize;
                let max = max.map_or(min + 8, |max| max as usize);
                vec(any::<char>(), min..=max)
                    .prop_map(|chars| ElicitValue::String(chars.into_iter().collect()))
                    .boxed()
            }
            Self::Formatted(format) => formatted(format).prop_map(ElicitValue::String).boxed(),
            Self::Number { integer, min, max } => {
                let (low, high) = (min.unwrap_or(-5000), max.unwrap_or(5000));
                (low.min(high)..=high)
                    .prop_map(move |n| ElicitValue::Number(f64::from(n) / Self::scale(integer)))
                    .boxed()
            }
            Self::Boolean => any::<bool>().prop_map(ElicitValue::Boolean).boxed(),
            Self::Choice { values, .. } => select(values).prop_map(ElicitValue::String).boxed(),
            Self::Choices {
                values, min, max, ..
            } => {
                let count = min.unwrap_or(0) as usize..=max.map_or(values.len(), |m| m as usize);
                subsequence(values, count)
                    .prop_map(ElicitValue::StringArray)
                    .boxed()
            }
        }
    }

    /// Answers of a kind the field does not take.
    fn of_a_wrong_kind(&self) -> BoxedStrategy<ElicitValue> {
        let text = any::<String>().prop_map(ElicitValue::String);
        let number = number().prop_map(|n| ElicitValue::Number(n.as_f64().expect("a number")));
        let boolean = any::<bool>().prop_map(ElicitValue::Boolean);
        let list = vec(any::<String>(), 0..3).prop_map(ElicitValue::StringArray);
        match self {
            Self::Text { .. } | Self::Formatted(_) | Self::Choice { .. } => {
                prop_oneof![number, boolean, list].boxed()
            }
            Self::Number { .. } => prop_oneof![text, boolean, list].boxed(),
            Self::Boolean => prop_oneof![text, number, list].boxed(),
            Self::Choices { .. } => prop_oneof![text, number, boolean].boxed(),
        }
    }

    /// Whether the schema was read as this shape (and not kept as an unknown one).
    fn is_read_as(&self, schema: &PrimitiveSchema) -> bool {
        matches!(
            (self, schema),
            (
                Self::Text { .. } | Self::Formatted(_),
                PrimitiveSchema::String(_)
            ) | (Self::Number { .. }, PrimitiveSchema::Number(_))
                | (Self::Boolean, PrimitiveSchema::Boolean(_))
                | (
                    Self::Choice { titled: false, .. },
                    PrimitiveSchema::UntitledSingleSelect(_)
                )
                | (
                    Self::Choice { titled: true, .. },
                    PrimitiveSchema::TitledSingleSelect(_)
                )
                | (
                    Self::Choices { titled: false, .. },
                    PrimitiveSchema::UntitledMultiSelect(_)
                )
                | (
                    Self::Choices { titled: true, .. },
                    PrimitiveSchema::TitledMultiSelect(_)
                )
        )
    }
}

fn formatted(format: Format) -> BoxedStrategy<String> {
    let date =
        (0..=9999u32, 1..=12u32, 1..=28u32).prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"));
    match format {
        Format::Email => {
            "[a-z0-9]{1,6}(\\.[a-z0-9+]{1,4})?@[a-z0-9]{1,6}(-[a-z0-9]{1,3})?\\.[a-z]{2,4}".boxed()
        }
        // RFC 3986: a scheme, a path, then perhaps a query and a fragment (one `#` at most).
        Format::Uri => {
            "[a-zA-Z][a-zA-Z0-9+.-]{0,6}:[a-zA-Z0-9/=&._~-]{1,12}(\\?[a-zA-Z0-9/?=&._~-]{0,6})?(#[a-zA-Z0-9/?._~-]{0,6})?"
                .boxed()
        }
        Format::Date => date.boxed(),
        Format::DateTime => {
            let time = (0..24u32, 0..60u32, 0..60u32, "(\\.[0-9]{1,3})?");
            let offset = "Z|z|[+-](0[0-9]|1[0-9]|2[0-3]):[0-5][0-9]";
            (date, time, offset)
                .prop_map(|(date, (h, m, s, fraction), offset)| {
                    format!("{date}T{h:02}:{m:02}:{s:02}{fraction}{offset}")
                })
                .boxed()
        }
    }
}

/// A form field: its name, shape, default (one that fits) and whether it is required.
type FormField = (String, Field, Option<ElicitValue>, bool);

/// Fields with distinct names.
fn form() -> impl Strategy<Value = Vec<FormField>> {
    let fitted = field().prop_flat_map(|field| {
        let default = proptest::option::of(field.fitting());
        (Just(field), default, any::<bool>())
    });
    (
        proptest::collection::btree_set(any::<String>(), 1..6),
        vec(fitted, 6),
    )
        .prop_map(|(names, fields)| {
            names
                .into_iter()
                .zip(fields)
                .map(|(name, (field, default, required))| (name, field, default, required))
                .collect()
        })
}

fn schema_of(form: &[FormField]) -> ElicitationSchema {
    let properties: serde_json::Map<String, Value> = form
        .iter()
        .map(|(name, field, default, _)| (name.clone(), field.schema(default.as_ref())))
        .collect();
    let required: Vec<&String> = form.iter().filter(|f| f.3).map(|f| &f.0).collect();
    let schema = json!({"type": "object", "properties": properties, "required": required});
    serde_json::from_value(schema).expect("a restricted schema reads")
}

/// A form and an answer that fits it: every required field, some of the others.
fn form_and_answer() -> impl Strategy<Value = (Vec<FormField>, ElicitContent)> {
    form().prop_flat_map(|form| {
        let answers: Vec<_> = form
            .iter()
            .map(|(name, field, _, required)| {
                let name = name.clone();
                let answer = field.fitting().prop_map(move |v| (name.clone(), v));
                if *required {
                    answer.prop_map(Some).boxed()
                } else {
                    proptest::option::of(answer).boxed()
                }
            })
            .collect();
        let answer = answers.prop_map(|answers| answers.into_iter().flatten().collect());
        (Just(form), answer)
    })
}

proptest! {
    #[test]
    fn any_json_is_a_schema_or_an_error(value in json(), answer in json()) {
        let with_field = json!({"type": "object", "properties": {"f": value.clone()}});
        for schema in [value, with_field] {
            if let Ok(schema) = serde_json::from_value::<ElicitationSchema>(schema) {
                let _ = schema.validate(&schema.defaults());
                if let Ok(answer) = serde_json::from_value::<ElicitContent>(answer.clone()) {
                    let _ = schema.validate(&answer);
                }
            }
        }
    }

    #[test]
    fn restricted_fields_are_read_as_their_shape(form in form()) {
        let schema = schema_of(&form);
        prop_assert_eq!(schema.properties.len(), form.len());
        for (name, field, _, _) in &form {
            let read = schema.properties.get(name).unwrap();
            prop_assert!(field.is_read_as(read), "{:?} read as {:?}", field, read);
        }
    }

    #[test]
    fn defaults_that_fit_pass_but_for_required_fields_without_one(form in form()) {
        let schema = schema_of(&form);
        let defaults = schema.defaults();
        let expected: ElicitContent = form
            .iter()
            .filter_map(|(name, _, default, _)| Some((name.clone(), default.clone()?)))
            .collect();
        prop_assert_eq!(&defaults, &expected);
        let missing: Vec<&String> = form
            .iter()
            .filter(|(_, _, default, required)| *required && default.is_none())
            .map(|(name, ..)| name)
            .collect();
        match schema.validate(&defaults) {
            Ok(()) => prop_assert!(missing.is_empty()),
            Err(errors) => {
                let named: Vec<&String> = errors.iter().map(|e| &e.field).collect();
                prop_assert_eq!(named, missing);
                prop_assert!(errors.iter().all(|e| e.message == "is required"));
            }
        }
    }

    #[test]
    fn an_answer_that_fits_passes((form, answer) in form_and_answer()) {
        prop_assert_eq!(schema_of(&form).validate(&answer), Ok(()));
    }

    #[test]
    fn an_answer_of_a_wrong_kind_is_refused_naming_its_field(
        (form, answer, at, wrong) in form_and_answer().prop_flat_map(|(form, answer)| {
            (Just(form), Just(answer), any::<Index>())
                .prop_flat_map(|(form, answer, at)| {
                    let wrong = form[at.index(form.len())].1.of_a_wrong_kind();
                    (Just(form), Just(answer), Just(at), wrong)
                })
        }),
    ) {
        let name = form[at.index(form.len())].0.clone();
        let mut answer = answer;
        answer.insert(name.clone(), wrong);
        let errors = schema_of(&form).validate(&answer).unwrap_err();
        prop_assert_eq!(errors.len(), 1, "{:?}", errors);
        prop_assert_eq!(&errors[0].field, &name);
        prop_assert!(errors[0].message.starts_with("must be "), "{}", errors[0].message);
    }
}
