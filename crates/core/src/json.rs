//! JSON as a face sees it. MCP payloads cross to the window as the engine wrote them,
//! described by the MCP schema's types ([`mcp`], [`Mcp`]); other JSON as any JSON value.
//! Numbers are described as JavaScript numbers.

use std::marker::PhantomData;

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
    // JSON has no NaN: never null.
    Number(#[specta(type = specta_typescript::Number)] f64),
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

/// JSON the engine wrote from its type of the MCP schema's `T` (one of [`mcp`]'s), passed
/// on as it is and described to the window as that type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Mcp<T> {
    pub json: Value,
    #[serde(skip)]
    of: PhantomData<T>,
}

impl<T> From<Value> for Mcp<T> {
    fn from(json: Value) -> Self {
        Self {
            json,
            of: PhantomData,
        }
    }
}

#[cfg(feature = "specta")]
impl<T: specta::Type> specta::Type for Mcp<T> {
    fn definition(types: &mut specta::Types) -> specta::datatype::DataType {
        T::definition(types)
    }
}

/// Types of the MCP schema by name, for what crosses to the window: each is described as
/// the type of that name in `ui/src/mcp/schema.ts` (generated from the official schema),
/// which the window's bindings import as `Mcp`.
pub mod mcp {
    macro_rules! schema_types {
        ($($name:ident),* $(,)?) => {$(
            #[doc = concat!("The MCP schema's `", stringify!($name), "`.")]
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
            pub struct $name;

            #[cfg(feature = "specta")]
            impl specta::Type for $name {
                fn definition(_: &mut specta::Types) -> specta::datatype::DataType {
                    specta_typescript::define(concat!("Mcp.", stringify!($name))).into()
                }
            }
        )*};
    }

    schema_types!(
        CallToolResult,
        CreateMessageRequestParams,
        CreateMessageResult,
        ElicitRequestParams,
        ElicitResult,
        GetPromptResult,
        InitializeResult,
        Prompt,
        ReadResourceResult,
        Resource,
        ResourceTemplate,
        Tool,
        ToolAnnotations,
    );
}
