//! Setting one server's entry in an app's configuration text, everything else kept byte for
//! byte: comments, blank lines, indentation, key order, trailing commas.
//!
//! The edit goes through `jsonc-parser`'s concrete syntax tree (dprint's parser, the one
//! Deno formats and edits its own JSONC configuration with), which keeps every token of
//! the text and indents what it inserts as the file is indented. A file in strict JSON is
//! checked with `serde_json` first, so that a file its app could not read is refused with
//! its line and column, not "fixed".

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstRootNode};
use serde_json::Value;

use super::apps::Syntax;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    content = "of",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum EditError {
    #[error("{message} (line {line}, column {column})")]
    Malformed {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("its top level is not a JSON object")]
    NotAnObject,
    #[error("its {0:?} is not a JSON object")]
    ServersNotAnObject(&'static str),
}

/// `text` (`None`: no file yet) with `entry` as server `key` under `servers`; `None` when
/// the text holds exactly that entry already.
pub(super) fn with_entry(
    text: Option<&str>,
    syntax: Syntax,
    servers: &'static str,
    key: &str,
    entry: &Value,
) -> Result<Option<String>, EditError> {
    // No file, or one left empty (some apps create one so), is an empty object, written
    // as the edit of any other file is.
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        let mut fresh = with_entry(Some("{}"), syntax, servers, key, entry)?.unwrap_or_default();
        fresh.push('\n');
        return Ok(Some(fresh));
    };
    if syntax == Syntax::Json {
        serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|e| EditError::Malformed {
            line: e.line(),
            column: e.column(),
            message: without_position(&e.to_string()),
        })?;
    }
    let root = CstRootNode::parse(text, &options(syntax)).map_err(|e| EditError::Malformed {
        line: e.line_display(),
        column: e.column_display(),
        message: e.kind().to_string(),
    })?;
    let object = match root.value() {
        None => root.object_value_or_set(),
        Some(_) => root.object_value().ok_or(EditError::NotAnObject)?,
    };
    let input = to_input(entry);
    match object.get(servers) {
        None => {
            object.append(
                servers,
                CstInputValue::Object(vec![(key.to_owned(), input)]),
            );
        }
        Some(prop) => {
            let listed = prop
                .object_value()
                .ok_or(EditError::ServersNotAnObject(servers))?;
            match listed.get(key) {
                Some(ours)
                    if ours.value().and_then(|v| v.to_serde_value()).as_ref() == Some(entry) =>
                {
                    return Ok(None);
                }
                Some(ours) => ours.set_value(input),
                None => {
                    listed.append(key, input);
                }
            }
        }
    }
    Ok(Some(root.to_string()))
}

/// What the app itself accepts: strict JSON, or VS Code's comments and trailing commas
/// (nothing of JSON5 beyond them).
fn options(syntax: Syntax) -> ParseOptions {
    let jsonc = syntax == Syntax::Jsonc;
    ParseOptions {
        allow_comments: jsonc,
        allow_trailing_commas: jsonc,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

fn to_input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(to_input).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), to_input(v))).collect())
        }
    }
}

/// serde's message without its own "at line N column M", which is said our way.
fn without_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry() -> Value {
        json!({"type": "stdio", "command": "/opt/sb/switchboard-cli", "args": ["bridge", "--agent", "VS Code"]})
    }

    fn edit(text: &str, syntax: Syntax) -> Result<Option<String>, EditError> {
        with_entry(Some(text), syntax, "servers", "switchboard", &entry())
    }

    #[test]
    fn comments_trailing_commas_and_other_servers_stay_as_they_were() {
        let before = "{\n  // my servers\n  \"servers\": {\n    /* the memory one */\n    \"memory\": {\"type\": \"stdio\", \"command\": \"npx\",},\n  },\n  \"inputs\": [],\n}\n";
        let after = edit(before, Syntax::Jsonc).unwrap().unwrap();
        assert!(
            after.starts_with("{\n  // my servers\n  \"servers\": {\n    /* the memory one */\n    \"memory\": {\"type\": \"stdio\", \"command\": \"npx\",},\n"),
            "{after}"
        );
        assert!(after.ends_with("  },\n  \"inputs\": [],\n}\n"), "{after}");
        let read: Value = jsonc_parser::parse_to_serde_value(&after, &Default::default()).unwrap();
        assert_eq!(read["servers"]["switchboard"], entry());
        assert_eq!(read["servers"]["memory"]["command"], "npx");
    }

    #[test]
    fn the_same_entry_again_is_no_change_and_another_replaces_it() {
        let once = edit("{}", Syntax::Json).unwrap().unwrap();
        assert_eq!(edit(&once, Syntax::Json).unwrap(), None);
        let other = once.replace("VS Code", "Cursor");
        let replaced = edit(&other, Syntax::Json).unwrap().unwrap();
        assert_eq!(replaced, once);
    }

    #[test]
    fn what_its_app_could_not_read_is_refused() {
        let comment = edit("{\n  // no comments in JSON\n}", Syntax::Json).unwrap_err();
        assert!(
            matches!(comment, EditError::Malformed { line: 2, .. }),
            "{comment:?}"
        );
        assert_eq!(
            edit("[1, 2]", Syntax::Jsonc).unwrap_err(),
            EditError::NotAnObject
        );
        assert_eq!(
            edit("{\"servers\": []}", Syntax::Jsonc).unwrap_err(),
            EditError::ServersNotAnObject("servers")
        );
        assert!(matches!(
            edit("{\"servers\": {", Syntax::Jsonc).unwrap_err(),
            EditError::Malformed { line: 1, .. }
        ));
        assert!(matches!(
            edit("{'servers': {}}", Syntax::Jsonc).unwrap_err(),
            EditError::Malformed { .. }
        ));
    }
}
