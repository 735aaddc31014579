//! JSON as a face sees it: MCP payloads cross to the window untyped here and are typed
//! there from the MCP schema. Numbers are described as JavaScript numbers.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Any JSON value.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Json(pub Value);

#[cfg(feature = "specta")]
impl specta::Type for Json {
    fn definition(types: &mut specta::Types) -> specta::datatype::DataType {
        JsonValue::definition(types)
    }
}

/// The shape of [`Json`] for type descriptions only.
#[cfg(feature = "specta")]
#[derive(Serialize, specta::Type)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum JsonValue {
    Null(()),
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<JsonValue>),
    Object(std::collections::BTreeMap<String, JsonValue>),
}

impl Json {
    /// The members of a JSON object; anything else is an empty object.
    pub fn into_object(self) -> serde_json::Map<String, Value> {
        match self.0 {
            Value::Object(map) => map,
            _ => serde_json::Map::new(),
        }
    }
}

impl From<Value> for Json {
    fn from(value: Value) -> Self {
        Self(value)
    }
}
