//! Checking a form answer against its form. The checks themselves are JSON Schema's, done by
//! [`crate::schema`]; this module builds the schema from what the form model understands and
//! words each problem for the person who filled in the form.

use std::collections::BTreeMap;

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind;
use serde_json::{Map, Value, json};

use super::common::number;
use super::elicitation::{ElicitContent, ElicitValue};
use super::elicitation_schema::{
    ElicitationSchema, NumberType, PrimitiveSchema, StringFormat, consts,
};
use crate::schema::{self, Dialect};

/// A problem with one field of a form answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    fn new(field: &str, message: impl Into<String>) -> Self {
        Self {
            field: field.to_owned(),
            message: message.into(),
        }
    }
}

impl ElicitationSchema {
    /// Checks a form answer: required fields, types, lengths, bounds, formats, choices;
    /// one problem per field, in the form's order. Fields of a shape this crate does not
    /// know are accepted as they are.
    pub fn validate(&self, content: &ElicitContent) -> Result<(), Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut answer = Map::new();
        for (name, value) in content {
            match value {
                ElicitValue::Number(n) if !n.is_finite() => {
                    errors.push(FieldError::new(name, "must be a finite number"));
                }
                _ => {
                    answer.insert(name.clone(), json_of(value));
                }
            }
        }
        match schema::compile(&self.checking_schema(), Dialect::Draft2020_12, true) {
            Ok(compiled) => {
                let answer = Value::Object(answer);
                for error in compiled.validator().iter_errors(&answer) {
                    errors.extend(self.field_errors(&error, content));
                }
            }
            Err(e) => errors.push(FieldError::new(
                "",
                format!("the form cannot be checked: {e}"),
            )),
        }
        self.in_form_order(errors)
    }

    /// The JSON Schema of an answer: the fields this crate knows, with only the keywords
    /// of the restricted form schema, so a server's other keywords cannot change the check.
    fn checking_schema(&self) -> Value {
        let properties: Map<String, Value> = self
            .properties
            .iter()
            .map(|(name, field)| (name.clone(), field.checking_schema()))
            .collect();
        // A name required twice asks nothing more, but JSON Schema would refuse the list.
        let mut required: Vec<&String> = Vec::new();
        for name in self.required.iter().flatten() {
            if !required.contains(&name) {
                required.push(name);
            }
        }
        json!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false,
        })
    }

    /// The problem a validation error is, for the field it is about.
    fn field_errors(
        &self,
        error: &ValidationError<'_>,
        content: &ElicitContent,
    ) -> Vec<FieldError> {
        match error.kind() {
            ValidationErrorKind::Required { property } => {
                vec![FieldError::new(
                    property.as_str().unwrap_or_default(),
                    "is required",
                )]
            }
            ValidationErrorKind::AdditionalProperties { unexpected } => unexpected
                .iter()
                .map(|name| FieldError::new(name, "is not a field of this form"))
                .collect(),
            _ => {
                let field = first_segment(error.instance_path().as_str());
                let message = match (self.properties.get(&field), content.get(&field)) {
                    (Some(schema), Some(value)) => message(schema, error, value),
                    _ => error.to_string(),
                };
                vec![FieldError::new(&field, message)]
            }
        }
    }

    /// The first problem of each field, fields in the form's order, then the unknown ones.
    fn in_form_order(&self, errors: Vec<FieldError>) -> Result<(), Vec<FieldError>> {
        let position = |field: &str| {
            let required = self.required.iter().flatten();
            let mut known = self.properties.iter().map(|(name, _)| name).chain(required);
            known.position(|name| name == field).unwrap_or(usize::MAX)
        };
        let mut first: BTreeMap<(usize, String), FieldError> = BTreeMap::new();
        for error in errors {
            first
                .entry((position(&error.field), error.field.clone()))
                .or_insert(error);
        }
        if first.is_empty() {
            Ok(())
        } else {
            Err(first.into_values().collect())
        }
    }
}

/// The field a JSON pointer into an answer starts with. The library's own segments skip an
/// empty one, and a field may be named "".
fn first_segment(pointer: &str) -> String {
    let rest = pointer.strip_prefix('/').unwrap_or(pointer);
    let first = rest.split('/').next().unwrap_or_default();
    first.replace("~1", "/").replace("~0", "~")
}

/// An answer value as JSON, as it is sent (whole numbers as integers).
fn json_of(value: &ElicitValue) -> Value {
    serde_json::to_value(value).unwrap_or_default()
}

impl PrimitiveSchema {
    /// The keywords of the restricted form schema that this field declares.
    fn checking_schema(&self) -> Value {
        let mut schema = Map::new();
        let mut set = |key: &str, value: Option<Value>| {
            if let Some(value) = value {
                schema.insert(key.to_owned(), value);
            }
        };
        match self {
            Self::String(s) => {
                set("type", Some(json!("string")));
                set("minLength", s.min_length.map(|n| json!(n)));
                set("maxLength", s.max_length.map(|n| json!(n)));
                set("format", s.format.clone().map(|f| json!(String::from(f))));
            }
            Self::Number(n) => {
                let integer = n.number_type == NumberType::Integer;
                set(
                    "type",
                    Some(json!(if integer { "integer" } else { "number" })),
                );
                set("minimum", n.minimum.map(number::json));
                set("maximum", n.maximum.map(number::json));
            }
            Self::Boolean(_) => set("type", Some(json!("boolean"))),
            Self::UntitledSingleSelect(_) | Self::TitledSingleSelect(_) => {
                set("type", Some(json!("string")));
                set("enum", self.choices().map(one_of));
            }
            Self::UntitledMultiSelect(s) => {
                set("type", Some(json!("array")));
                set("items", self.choices().map(|c| json!({"enum": one_of(c)})));
                set("minItems", s.min_items.map(|n| json!(n)));
                set("maxItems", s.max_items.map(|n| json!(n)));
            }
            Self::TitledMultiSelect(s) => {
                set("type", Some(json!("array")));
                set("items", self.choices().map(|c| json!({"enum": one_of(c)})));
                set("minItems", s.min_items.map(|n| json!(n)));
                set("maxItems", s.max_items.map(|n| json!(n)));
            }
            // Anything goes: a shape this crate does not know is not checked.
            Self::Other(_) => {}
        }
        Value::Object(schema)
    }

    /// The values a choice field offers.
    fn choices(&self) -> Option<Vec<String>> {
        match self {
            Self::UntitledSingleSelect(s) => Some(s.values.clone()),
            Self::TitledSingleSelect(s) => Some(consts(&s.one_of)),
            Self::UntitledMultiSelect(s) => Some(s.items.values.clone()),
            Self::TitledMultiSelect(s) => Some(consts(&s.items.any_of)),
            _ => None,
        }
    }
}

/// The values of an `enum`. A choice without options takes no value, but JSON Schema would
/// refuse an empty `enum` (and with it the whole form): `[null]` takes no text either.
fn one_of(choices: Vec<String>) -> Value {
    if choices.is_empty() {
        json!([null])
    } else {
        json!(choices)
    }
}

/// A validation error worded for the person who filled in the field.
fn message(schema: &PrimitiveSchema, error: &ValidationError<'_>, value: &ElicitValue) -> String {
    let count = match value {
        ElicitValue::StringArray(items) => items.len(),
        _ => 0,
    };
    match error.kind() {
        ValidationErrorKind::Type { .. } => match (schema, value) {
            (PrimitiveSchema::Number(n), ElicitValue::Number(_))
                if n.number_type == NumberType::Integer =>
            {
                "must be a whole number".to_owned()
            }
            _ => format!("must be {}, not {}", schema.expected(), value.kind()),
        },
        ValidationErrorKind::MinLength { limit } => {
            format!("must be at least {limit} characters long")
        }
        ValidationErrorKind::MaxLength { limit } => {
            format!("must be at most {limit} characters long")
        }
        ValidationErrorKind::Minimum { limit } => format!("must be at least {limit}"),
        ValidationErrorKind::Maximum { limit } => format!("must be at most {limit}"),
        ValidationErrorKind::Format { format } => format!("must be {}", format_example(format)),
        ValidationErrorKind::Enum { .. } => match error.instance().as_str() {
            Some(chosen) => format!(
                "{chosen:?} is not one of the choices ({})",
                schema.choices().unwrap_or_default().join(", ")
            ),
            None => format!("must be {}", schema.expected()),
        },
        ValidationErrorKind::MinItems { limit } => {
            format!("choose at least {limit} (chose {count})")
        }
        ValidationErrorKind::MaxItems { limit } => {
            format!("choose at most {limit} (chose {count})")
        }
        _ => error.to_string(),
    }
}

/// What a value of a `format` looks like, for messages.
fn format_example(format: &str) -> String {
    match StringFormat::from(format.to_owned()) {
        StringFormat::Email => "an email address".to_owned(),
        StringFormat::Uri => "a URI such as https://example.com".to_owned(),
        StringFormat::Date => "a date such as 2025-01-31".to_owned(),
        StringFormat::DateTime => "a date and time such as 2025-01-31T09:30:00Z".to_owned(),
        StringFormat::Other(other) => format!("a valid {other}"),
    }
}
