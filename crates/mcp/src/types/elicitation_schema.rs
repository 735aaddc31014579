//! The restricted, flat JSON Schema of a form-mode elicitation: what a form shows, and its
//! defaults. Answers are checked in `elicitation_check`.

use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::common::{Tagged, number, untagged_body};
use super::elicitation::{ElicitContent, ElicitValue};
use super::lenient;

/// The `requestedSchema` of a form: an object of primitive fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElicitationSchema {
    /// Always `"object"`.
    #[serde(rename = "type")]
    pub schema_type: String,
    pub properties: Properties,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient::list"
    )]
    pub required: Option<Vec<String>>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ElicitationSchema {
    pub fn new(properties: Properties, required: Vec<String>) -> Self {
        Self {
            schema_type: "object".to_owned(),
            properties,
            required: Some(required),
            extra: Map::new(),
        }
    }

    pub fn is_required(&self, field: &str) -> bool {
        self.required.iter().flatten().any(|r| r == field)
    }

    /// Each field's default value, for the fields that have one.
    pub fn defaults(&self) -> ElicitContent {
        self.properties
            .iter()
            .filter_map(|(name, schema)| Some((name.clone(), schema.default_value()?)))
            .collect()
    }
}

/// The fields of a form by name, in the order the server wrote them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Properties(Vec<(String, PrimitiveSchema)>);

impl Properties {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn get(&self, name: &str) -> Option<&PrimitiveSchema> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, s)| s)
    }

    /// Adds a field, or replaces the field of that name in place.
    pub fn insert(&mut self, name: impl Into<String>, schema: PrimitiveSchema) {
        let name = name.into();
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some(entry) => entry.1 = schema,
            None => self.0.push((name, schema)),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &PrimitiveSchema)> {
        self.0.iter().map(|(n, s)| (n, s))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<N: Into<String>> FromIterator<(N, PrimitiveSchema)> for Properties {
    fn from_iter<I: IntoIterator<Item = (N, PrimitiveSchema)>>(iter: I) -> Self {
        let mut properties = Self::new();
        for (name, schema) in iter {
            properties.insert(name, schema);
        }
        properties
    }
}

impl Serialize for Properties {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, schema) in &self.0 {
            map.serialize_entry(name, schema)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Properties {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PropertiesVisitor;

        impl<'de> Visitor<'de> for PropertiesVisitor {
            type Value = Properties;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of field schemas")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Properties, A::Error> {
                let mut properties = Properties::new();
                while let Some((name, schema)) = map.next_entry::<String, PrimitiveSchema>()? {
                    properties.insert(name, schema);
                }
                Ok(properties)
            }
        }

        deserializer.deserialize_map(PropertiesVisitor)
    }
}

/// The schema of one form field. A shape outside the restricted set is kept as `Other`.
#[derive(Debug, Clone, PartialEq)]
pub enum PrimitiveSchema {
    String(StringSchema),
    Number(NumberSchema),
    Boolean(BooleanSchema),
    /// `type: string` with `enum` (and the legacy `enumNames`).
    UntitledSingleSelect(UntitledSingleSelectEnumSchema),
    /// `type: string` with `oneOf: [{const, title}]`.
    TitledSingleSelect(TitledSingleSelectEnumSchema),
    /// `type: array` with `items: {type: string, enum}`.
    UntitledMultiSelect(UntitledMultiSelectEnumSchema),
    /// `type: array` with `items: {anyOf: [{const, title}]}`.
    TitledMultiSelect(TitledMultiSelectEnumSchema),
    /// Any other schema, kept as received; answers to it are not checked.
    Other(Value),
}

impl PrimitiveSchema {
    /// Recognizes the restricted shapes; anything else, or a malformed one, is `Other`.
    pub fn from_value(value: Value) -> Self {
        let has = |key: &str| value.get(key).is_some();
        let items_have = |key: &str| value.get("items").and_then(|i| i.get(key)).is_some();
        let parsed = match value.get("type").and_then(Value::as_str) {
            Some("string") if has("enum") => body(&value).map(Self::UntitledSingleSelect),
            Some("string") if has("oneOf") => body(&value).map(Self::TitledSingleSelect),
            Some("string") => body(&value).map(Self::String),
            Some("number" | "integer") => {
                serde_json::from_value(value.clone()).ok().map(Self::Number)
            }
            Some("boolean") => body(&value).map(Self::Boolean),
            Some("array") if items_have("anyOf") => body(&value).map(Self::TitledMultiSelect),
            Some("array") if items_have("enum") => body(&value).map(Self::UntitledMultiSelect),
            _ => None,
        };
        parsed.unwrap_or(Self::Other(value))
    }

    pub fn title(&self) -> Option<&str> {
        self.common().0
    }

    pub fn description(&self) -> Option<&str> {
        self.common().1
    }

    fn common(&self) -> (Option<&str>, Option<&str>) {
        fn pair<'a>(
            t: &'a Option<String>,
            d: &'a Option<String>,
        ) -> (Option<&'a str>, Option<&'a str>) {
            (t.as_deref(), d.as_deref())
        }
        match self {
            Self::String(s) => pair(&s.title, &s.description),
            Self::Number(s) => pair(&s.title, &s.description),
            Self::Boolean(s) => pair(&s.title, &s.description),
            Self::UntitledSingleSelect(s) => pair(&s.title, &s.description),
            Self::TitledSingleSelect(s) => pair(&s.title, &s.description),
            Self::UntitledMultiSelect(s) => pair(&s.title, &s.description),
            Self::TitledMultiSelect(s) => pair(&s.title, &s.description),
            Self::Other(v) => (
                v.get("title").and_then(Value::as_str),
                v.get("description").and_then(Value::as_str),
            ),
        }
    }

    /// The field's default value, if it declares one.
    pub fn default_value(&self) -> Option<ElicitValue> {
        match self {
            Self::String(s) => s.default.clone().map(ElicitValue::String),
            Self::Number(s) => s.default.map(ElicitValue::Number),
            Self::Boolean(s) => s.default.map(ElicitValue::Boolean),
            Self::UntitledSingleSelect(s) => s.default.clone().map(ElicitValue::String),
            Self::TitledSingleSelect(s) => s.default.clone().map(ElicitValue::String),
            Self::UntitledMultiSelect(s) => s.default.clone().map(ElicitValue::StringArray),
            Self::TitledMultiSelect(s) => s.default.clone().map(ElicitValue::StringArray),
            Self::Other(v) => v
                .get("default")
                .and_then(|d| serde_json::from_value(d.clone()).ok()),
        }
    }

    /// What kind of value this field takes, for messages.
    pub(crate) fn expected(&self) -> &'static str {
        match self {
            Self::String(_) | Self::UntitledSingleSelect(_) | Self::TitledSingleSelect(_) => {
                "a string"
            }
            Self::Number(n) if n.number_type == NumberType::Integer => "an integer",
            Self::Number(_) => "a number",
            Self::Boolean(_) => "a boolean",
            Self::UntitledMultiSelect(_) | Self::TitledMultiSelect(_) => "a list of strings",
            Self::Other(_) => "a value",
        }
    }
}

/// The body of a field schema whose `type` is implied by its variant.
fn body<T: serde::de::DeserializeOwned>(value: &Value) -> Option<T> {
    untagged_body(value.clone(), "field schema").ok()
}

pub(crate) fn consts(options: &[EnumOption]) -> Vec<String> {
    options.iter().map(|o| o.value.clone()).collect()
}

impl Serialize for PrimitiveSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::String(s) => Tagged::new("string", s).serialize(serializer),
            Self::Number(s) => s.serialize(serializer),
            Self::Boolean(s) => Tagged::new("boolean", s).serialize(serializer),
            Self::UntitledSingleSelect(s) => Tagged::new("string", s).serialize(serializer),
            Self::TitledSingleSelect(s) => Tagged::new("string", s).serialize(serializer),
            Self::UntitledMultiSelect(s) => Tagged::new("array", s).serialize(serializer),
            Self::TitledMultiSelect(s) => Tagged::new("array", s).serialize(serializer),
            Self::Other(v) => v.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for PrimitiveSchema {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(Self::from_value)
    }
}

/// A text field (`type: string`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StringSchema {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub description: Option<String>,
    /// In characters (Unicode scalar values).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub min_length: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub max_length: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub format: Option<StringFormat>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub default: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The `format` of a text field; formats this crate does not know are kept, not checked.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum StringFormat {
    Email,
    Uri,
    Date,
    DateTime,
    Other(String),
}

impl From<String> for StringFormat {
    fn from(s: String) -> Self {
        match s.as_str() {
            "email" => Self::Email,
            "uri" => Self::Uri,
            "date" => Self::Date,
            "date-time" => Self::DateTime,
            _ => Self::Other(s),
        }
    }
}

impl From<StringFormat> for String {
    fn from(f: StringFormat) -> Self {
        match f {
            StringFormat::Email => "email".to_owned(),
            StringFormat::Uri => "uri".to_owned(),
            StringFormat::Date => "date".to_owned(),
            StringFormat::DateTime => "date-time".to_owned(),
            StringFormat::Other(s) => s,
        }
    }
}

/// A numeric field (`type: number` or `integer`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NumberSchema {
    #[serde(rename = "type")]
    pub number_type: NumberType,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub description: Option<String>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        serialize_with = "number::opt_f64"
    )]
    pub minimum: Option<f64>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        serialize_with = "number::opt_f64"
    )]
    pub maximum: Option<f64>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        serialize_with = "number::opt_f64"
    )]
    pub default: Option<f64>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `number` or `integer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NumberType {
    Number,
    Integer,
}

/// A yes/no field (`type: boolean`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BooleanSchema {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub default: Option<bool>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A single choice among plain strings; `enumNames` (legacy) gives their display names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UntitledSingleSelectEnumSchema {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub description: Option<String>,
    #[serde(rename = "enum")]
    pub values: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub enum_names: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub default: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A single choice among values with display titles (`oneOf`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TitledSingleSelectEnumSchema {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub description: Option<String>,
    pub one_of: Vec<EnumOption>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub default: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A value to choose and its display title: `{const, title}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnumOption {
    #[serde(rename = "const")]
    pub value: String,
    pub title: String,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Several choices among plain strings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UntitledMultiSelectEnumSchema {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub min_items: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub max_items: Option<u64>,
    pub items: UntitledEnumItems,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub default: Option<Vec<String>>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The `items` of an untitled multi-select: `{type: string, enum}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UntitledEnumItems {
    /// `"string"`.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none", default)]
    pub item_type: Option<String>,
    #[serde(rename = "enum")]
    pub values: Vec<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Several choices among values with display titles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TitledMultiSelectEnumSchema {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub min_items: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub max_items: Option<u64>,
    pub items: TitledEnumItems,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub default: Option<Vec<String>>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The `items` of a titled multi-select: `{anyOf: [{const, title}]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TitledEnumItems {
    pub any_of: Vec<EnumOption>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Read from text, so that the fields keep their order whatever serde_json's features.
    fn schema() -> ElicitationSchema {
        serde_json::from_str(
            r##"{
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 2, "maxLength": 5, "default": "Ann"},
                "email": {"type": "string", "format": "email"},
                "site": {"type": "string", "format": "uri"},
                "born": {"type": "string", "format": "date"},
                "at": {"type": "string", "format": "date-time"},
                "age": {"type": "integer", "minimum": 18, "maximum": 130, "default": 30},
                "ratio": {"type": "number", "minimum": 0, "maximum": 1},
                "subscribe": {"type": "boolean", "default": false},
                "color": {"type": "string", "enum": ["red", "green"], "enumNames": ["Red", "Green"]},
                "hex": {"type": "string", "oneOf": [{"const": "#f00", "title": "Red"}], "default": "#f00"},
                "tags": {"type": "array", "minItems": 1, "maxItems": 2,
                         "items": {"type": "string", "enum": ["a", "b", "c"]}, "default": ["a"]},
                "tones": {"type": "array",
                          "items": {"anyOf": [{"const": "x", "title": "X"}, {"const": "y", "title": "Y"}]}},
                "nested": {"type": "object", "properties": {}, "default": "odd"}
            },
            "required": ["name", "email", "age"]
        }"##,
        )
        .unwrap()
    }

    fn answer(v: Value) -> ElicitContent {
        serde_json::from_value(v).unwrap()
    }

    fn errors(v: Value) -> Vec<String> {
        match schema().validate(&answer(v)) {
            Ok(()) => vec![],
            Err(errors) => errors.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn a_choice_without_options_takes_no_value_and_spoils_no_other_field() {
        let schema: ElicitationSchema = serde_json::from_value(json!({
            "type": "object",
            "properties": {
                "none": {"type": "array", "items": {"anyOf": []}},
                "pick": {"type": "string", "enum": []},
                "name": {"type": "string", "minLength": 2}
            }
        }))
        .unwrap();
        assert_eq!(schema.validate(&answer(json!({"none": []}))), Ok(()));
        let fields = |v| -> Vec<String> {
            schema
                .validate(&answer(v))
                .unwrap_err()
                .into_iter()
                .map(|e| e.field)
                .collect()
        };
        assert_eq!(
            fields(json!({"none": ["x"], "pick": "y", "name": "A"})),
            ["none", "pick", "name"]
        );
    }

    #[test]
    fn a_problem_names_its_field_whatever_its_name() {
        let schema: ElicitationSchema = serde_json::from_value(json!({
            "type": "object",
            "properties": {
                "": {"type": "array", "items": {"type": "string", "enum": ["a"]}},
                "a/b~c": {"type": "string", "maxLength": 1}
            }
        }))
        .unwrap();
        let errors = schema
            .validate(&answer(json!({"": ["z"], "a/b~c": "long"})))
            .unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["", "a/b~c"]);
    }

    #[test]
    fn a_field_required_twice_is_required_once() {
        let schema: ElicitationSchema = serde_json::from_value(json!({
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name", "name"]
        }))
        .unwrap();
        assert_eq!(schema.validate(&answer(json!({"name": "Ann"}))), Ok(()));
        let missing = schema.validate(&answer(json!({}))).unwrap_err();
        assert_eq!(missing.len(), 1);
        assert_eq!(missing[0].field, "name");
    }

    #[test]
    fn shapes_are_recognized() {
        let s = schema();
        let kind = |name: &str| match s.properties.get(name).unwrap() {
            PrimitiveSchema::String(_) => "string",
            PrimitiveSchema::Number(_) => "number",
            PrimitiveSchema::Boolean(_) => "boolean",
            PrimitiveSchema::UntitledSingleSelect(_) => "enum",
            PrimitiveSchema::TitledSingleSelect(_) => "oneOf",
            PrimitiveSchema::UntitledMultiSelect(_) => "multi",
            PrimitiveSchema::TitledMultiSelect(_) => "titled multi",
            PrimitiveSchema::Other(_) => "other",
        };
        assert_eq!(kind("name"), "string");
        assert_eq!(kind("age"), "number");
        assert_eq!(kind("subscribe"), "boolean");
        assert_eq!(kind("color"), "enum");
        assert_eq!(kind("hex"), "oneOf");
        assert_eq!(kind("tags"), "multi");
        assert_eq!(kind("tones"), "titled multi");
        assert_eq!(kind("nested"), "other");
    }

    #[test]
    fn malformed_fields_become_other_instead_of_failing() {
        let p = PrimitiveSchema::from_value(json!({"type": "string", "minLength": "two"}));
        assert!(matches!(p, PrimitiveSchema::Other(_)));
        let p = PrimitiveSchema::from_value(json!({"type": "array", "items": {"type": "object"}}));
        assert!(matches!(p, PrimitiveSchema::Other(_)));
        let form = ElicitationSchema::new([("f", p)].into_iter().collect(), Vec::new());
        assert_eq!(form.validate(&answer(json!({"f": true}))), Ok(()));
    }

    #[test]
    fn properties_keep_their_order() {
        let s: ElicitationSchema = serde_json::from_str(
            r#"{"type": "object", "properties": {"zeta": {"type": "string"}, "alpha": {"type": "boolean"}}}"#,
        )
        .unwrap();
        let names: Vec<_> = s.properties.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["zeta", "alpha"]);
    }

    #[test]
    fn a_valid_answer_passes() {
        let ok = json!({
            "name": "Bob", "email": "bob@example.com", "site": "https://example.com/a?b=c",
            "born": "2000-02-29", "at": "2025-01-31T09:30:00.5+01:00", "age": 42, "ratio": 0.5,
            "subscribe": true, "color": "red", "hex": "#f00", "tags": ["a", "c"], "tones": ["y"],
            "nested": "anything goes"
        });
        assert_eq!(errors(ok), Vec::<String>::new());
    }

    #[test]
    fn required_and_unknown_fields_are_reported() {
        assert_eq!(
            errors(json!({"email": "a@b.co", "extra": 1})),
            [
                "name: is required",
                "age: is required",
                "extra: is not a field of this form"
            ]
        );
    }

    #[test]
    fn types_lengths_and_bounds_are_checked() {
        let base = json!({"name": "Bob", "email": "a@b.co", "age": 40});
        let with = |k: &str, v: Value| {
            let mut o = base.clone();
            o[k] = v;
            errors(o)
        };
        assert_eq!(
            with("name", json!("B")),
            ["name: must be at least 2 characters long"]
        );
        assert_eq!(
            with("name", json!("Bobbie")),
            ["name: must be at most 5 characters long"]
        );
        assert_eq!(with("name", json!("Zoë")), Vec::<String>::new());
        assert_eq!(
            with("name", json!(3)),
            ["name: must be a string, not a number"]
        );
        assert_eq!(with("age", json!(17)), ["age: must be at least 18"]);
        assert_eq!(with("age", json!(131)), ["age: must be at most 130"]);
        assert_eq!(with("age", json!(40.5)), ["age: must be a whole number"]);
        assert_eq!(
            with("age", json!("40")),
            ["age: must be an integer, not a string"]
        );
        assert_eq!(with("ratio", json!(1.5)), ["ratio: must be at most 1"]);
        assert_eq!(
            with("subscribe", json!("yes")),
            ["subscribe: must be a boolean, not a string"]
        );
    }

    #[test]
    fn choices_are_checked() {
        let base = json!({"name": "Bob", "email": "a@b.co", "age": 40});
        let with = |k: &str, v: Value| {
            let mut o = base.clone();
            o[k] = v;
            errors(o)
        };
        assert_eq!(
            with("color", json!("blue")),
            [r#"color: "blue" is not one of the choices (red, green)"#]
        );
        assert_eq!(
            with("hex", json!("Red")),
            [r##"hex: "Red" is not one of the choices (#f00)"##]
        );
        assert_eq!(
            with("tags", json!([])),
            ["tags: choose at least 1 (chose 0)"]
        );
        assert_eq!(
            with("tags", json!(["a", "b", "c"])),
            ["tags: choose at most 2 (chose 3)"]
        );
        assert_eq!(
            with("tones", json!(["z"])),
            [r#"tones: "z" is not one of the choices (x, y)"#]
        );
        assert_eq!(
            with("tags", json!("a")),
            ["tags: must be a list of strings, not a string"]
        );
    }

    #[test]
    fn formats_are_checked() {
        let base = json!({"name": "Bob", "email": "a@b.co", "age": 40});
        let with = |k: &str, v: &str| {
            let mut o = base.clone();
            o[k] = json!(v);
            errors(o)
        };
        assert_eq!(
            with("email", "not-an-email"),
            ["email: must be an email address"]
        );
        assert_eq!(
            with("site", "example.com"),
            ["site: must be a URI such as https://example.com"]
        );
        assert_eq!(
            with("born", "2001-02-29"),
            ["born: must be a date such as 2025-01-31"]
        );
        assert_eq!(
            with("at", "2025-01-31 09:30"),
            ["at: must be a date and time such as 2025-01-31T09:30:00Z"]
        );
    }

    #[test]
    fn defaults_come_from_each_field() {
        let defaults = schema().defaults();
        let expected: ElicitContent = answer(json!({
            "name": "Ann", "age": 30, "subscribe": false, "hex": "#f00", "tags": ["a"],
            "nested": "odd"
        }));
        assert_eq!(defaults, expected);
        assert!(
            schema().validate(&defaults).is_err(),
            "email is required and has no default"
        );
    }

    #[test]
    fn schemas_round_trip() {
        let v = serde_json::to_value(schema()).unwrap();
        let again: ElicitationSchema = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(serde_json::to_value(again).unwrap(), v);
        assert_eq!(
            v["properties"]["age"],
            json!({"type": "integer", "minimum": 18, "maximum": 130, "default": 30})
        );
    }
}
