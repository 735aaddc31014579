//! JSON Schema checks: a tool's arguments and structured output, a form's answer.
//!
//! The checking is done by the `jsonschema` crate rather than by hand: it implements the
//! dialects MCP names (2020-12, the default since 2025-11-25, and draft-07, which earlier
//! servers write; 2019-09, draft-06 and draft-04 come with it), passes the official JSON
//! Schema test suite, is actively maintained, reports where each problem is as a JSON
//! pointer, and lets us switch off what a schema from an untrusted server must not do.
//!
//! A schema comes from the server, so it is bounded before it is compiled: no `$ref` is
//! fetched (an external one makes the schema unusable, never permissive), patterns use a
//! regex engine that runs in linear time, and a schema too deep or with too many
//! subschemas is refused. A schema with a `$schema` of another dialect is refused too.

use std::fmt;

use jsonschema::{Draft, PatternOptions, Validator};
use serde_json::Value;

use crate::version::ProtocolVersion;

/// More subschemas than any real tool needs; beyond this a schema is refused.
const MAX_SUBSCHEMAS: usize = 10_000;
/// Deeper than any real tool needs, and shallow enough to never exhaust the stack.
const MAX_DEPTH: usize = 64;
/// The most problems reported for one value: enough to fix it, not a flood.
const MAX_VIOLATIONS: usize = 20;
/// Size limits of one compiled pattern (the regex crate's own defaults are 10x larger).
const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// The dialect of a schema without `$schema`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Draft07,
    Draft2020_12,
}

impl Dialect {
    /// 2020-12 from 2025-11-25 on (which made it the default), draft-07 before, as the
    /// schema of those revisions is written in it.
    pub fn default_for(version: ProtocolVersion) -> Self {
        if version >= ProtocolVersion::V2025_11_25 {
            Self::Draft2020_12
        } else {
            Self::Draft07
        }
    }

    fn draft(self) -> Draft {
        match self {
            Self::Draft07 => Draft::Draft7,
            Self::Draft2020_12 => Draft::Draft202012,
        }
    }
}

/// Why a schema cannot be used to check anything.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SchemaError {
    #[error("the schema is too large to check: {0}")]
    TooLarge(String),
    /// Not valid in its dialect, an unknown dialect, or a `$ref` that is not inside it.
    #[error("{0}")]
    Invalid(String),
}

/// One way a value does not fit its schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaViolation {
    /// Where in the value, as a JSON pointer (`""` for the value itself).
    pub pointer: String,
    pub message: String,
}

impl fmt::Display for SchemaViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.pointer, self.message)
        }
    }
}

/// The violations as one line, for messages.
pub fn describe(violations: &[SchemaViolation]) -> String {
    violations
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// A schema compiled once, to check many values.
#[derive(Debug)]
pub struct CompiledSchema(Validator);

impl CompiledSchema {
    /// Compiles a server's schema; one without `$schema` is read in `dialect`.
    pub fn new(schema: &Value, dialect: Dialect) -> Result<Self, SchemaError> {
        compile(schema, dialect, false)
    }

    /// Checks a value, with at most a handful of violations if it does not fit.
    pub fn check(&self, value: &Value) -> Result<(), Vec<SchemaViolation>> {
        let violations: Vec<SchemaViolation> = self
            .0
            .iter_errors(value)
            .take(MAX_VIOLATIONS)
            .map(|error| SchemaViolation {
                pointer: error.instance_path().as_str().to_owned(),
                message: error.to_string(),
            })
            .collect();
        if violations.is_empty() {
            Ok(())
        } else {
            Err(violations)
        }
    }

    pub(crate) fn validator(&self) -> &Validator {
        &self.0
    }
}

/// Compiles with the bounds above; `formats` makes `format` an assertion, not a note.
pub(crate) fn compile(
    schema: &Value,
    dialect: Dialect,
    formats: bool,
) -> Result<CompiledSchema, SchemaError> {
    bounded(schema)?;
    let patterns = PatternOptions::regex()
        .size_limit(PATTERN_SIZE_LIMIT)
        .dfa_size_limit(PATTERN_SIZE_LIMIT);
    let mut options = jsonschema::options()
        .offline()
        .with_pattern_options(patterns);
    if formats {
        options = options
            .should_validate_formats(true)
            .should_ignore_unknown_formats(true);
    }
    let explicit = schema.get("$schema").is_some();
    if !explicit {
        options = options.with_draft(dialect.draft());
    }
    options
        .build(schema)
        .map(CompiledSchema)
        .map_err(|e| SchemaError::Invalid(e.to_string()))
}

/// Refuses a schema with too many subschemas or nested too deeply, before compiling it.
fn bounded(schema: &Value) -> Result<(), SchemaError> {
    let mut subschemas = 0;
    let mut pending = vec![(schema, 1)];
    while let Some((value, depth)) = pending.pop() {
        if depth > MAX_DEPTH {
            return Err(SchemaError::TooLarge(format!(
                "nested more than {MAX_DEPTH} levels deep"
            )));
        }
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Object(object) => {
                subschemas += 1;
                Box::new(object.values())
            }
            Value::Array(items) => Box::new(items.iter()),
            _ => continue,
        };
        if subschemas > MAX_SUBSCHEMAS {
            return Err(SchemaError::TooLarge(format!(
                "more than {MAX_SUBSCHEMAS} subschemas"
            )));
        }
        pending.extend(children.map(|child| (child, depth + 1)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn violations_say_where_and_what() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}},
            "required": ["n", "m"]});
        let compiled = CompiledSchema::new(&schema, Dialect::Draft2020_12).unwrap();
        let violations = compiled.check(&json!({"n": "x"})).unwrap_err();
        assert_eq!(
            describe(&violations),
            "\"m\" is a required property; /n: \"x\" is not of type \"integer\""
        );
        assert_eq!(compiled.check(&json!({"n": 1, "m": 0})), Ok(()));
    }

    #[test]
    fn local_refs_resolve_in_either_dialect() {
        // As pydantic writes them, whatever the revision the server speaks.
        let schema = json!({"type": "object", "properties": {"item": {"$ref": "#/$defs/Item"}},
            "$defs": {"Item": {"type": "object", "required": ["id"]}}});
        for dialect in [Dialect::Draft07, Dialect::Draft2020_12] {
            let compiled = CompiledSchema::new(&schema, dialect).unwrap();
            let violations = compiled.check(&json!({"item": {}})).unwrap_err();
            assert_eq!(
                describe(&violations),
                "/item: \"id\" is a required property"
            );
        }
    }

    #[test]
    fn wide_schemas_and_invalid_ones_are_refused() {
        let properties: serde_json::Map<String, Value> = (0..=MAX_SUBSCHEMAS)
            .map(|i| (format!("p{i}"), json!({"type": "string"})))
            .collect();
        let wide = json!({"type": "object", "properties": properties});
        assert_eq!(
            CompiledSchema::new(&wide, Dialect::Draft2020_12).unwrap_err(),
            SchemaError::TooLarge(format!("more than {MAX_SUBSCHEMAS} subschemas"))
        );
        let invalid = json!({"type": "object", "minProperties": "two"});
        assert!(matches!(
            CompiledSchema::new(&invalid, Dialect::Draft07),
            Err(SchemaError::Invalid(_))
        ));
    }
}
