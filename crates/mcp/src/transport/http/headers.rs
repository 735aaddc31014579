//! The request headers of the 2026-07-28 revision over Streamable HTTP: `Mcp-Method`,
//! `Mcp-Name`, and the `Mcp-Param-{Name}` headers that mirror the tool arguments a tool's
//! input schema marks with `x-mcp-header`. Tools whose marks break the rules are left out
//! of `tools/list`, as the revision requires of an HTTP client. Both roles take their rules
//! from here: the client writes the headers ([`param_headers`]), the server checks them
//! against the body ([`check_param_headers`]).

use std::collections::{HashMap, HashSet};

use base64::Engine as _;
use http::HeaderMap;
use serde_json::{Map, Value};

/// One `x-mcp-header` mark: the header's name part and the property path it mirrors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    pub name: String,
    pub path: Vec<String>,
}

/// The marks of every listed tool, by tool name.
pub type ToolMarks = HashMap<String, Vec<Mark>>;

/// A header value as the revision encodes it: plain when it is visible ASCII with no
/// surrounding whitespace, else `=?base64?…?=` of its UTF-8 bytes.
pub fn encode_value(value: &str) -> String {
    let plain = value
        .bytes()
        .all(|b| b == b' ' || b == b'\t' || (0x21..=0x7e).contains(&b))
        && value.trim() == value
        && !(value.starts_with("=?base64?") && value.ends_with("?="));
    if plain {
        value.to_owned()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(value.as_bytes())
        )
    }
}

/// A header value as sent, decoded: a server compares it with the body after this. `None`
/// when the value is not visible ASCII or its `=?base64?…?=` does not decode to UTF-8.
pub fn decode_value(value: &str) -> Option<String> {
    let value = value.trim_matches([' ', '\t']);
    let visible = value
        .bytes()
        .all(|b| b == b' ' || b == b'\t' || (0x21..=0x7e).contains(&b));
    if !visible {
        return None;
    }
    match value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    {
        Some(encoded) => base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok()),
        None => Some(value.to_owned()),
    }
}

/// The `Mcp-Param-*` headers of a tool call, from its arguments and the tool's marks.
pub fn param_headers(marks: &[Mark], arguments: Option<&Value>) -> Vec<(String, String)> {
    marks
        .iter()
        .filter_map(|mark| {
            let text = header_text(marked_value(mark, arguments)?)?;
            Some((format!("Mcp-Param-{}", mark.name), encode_value(&text)))
        })
        .collect()
}

/// Checks the `Mcp-Param-*` headers a server received with a tool call against the
/// call's arguments, as the revision asks: a header sent must decode (visible ASCII, a
/// well-formed `=?base64?…?=`) and match its argument (integers compared as numbers); an
/// argument given must have its header; an argument absent or null expects none. Headers
/// no mark names are not this server's to judge. Why not, in words.
pub fn check_param_headers(
    marks: &[Mark],
    arguments: Option<&Value>,
    headers: &HeaderMap,
) -> Result<(), String> {
    for mark in marks {
        let header = format!("Mcp-Param-{}", mark.name);
        let mut sent = headers.get_all(header.to_ascii_lowercase().as_str()).iter();
        let (sent, again) = (sent.next(), sent.next());
        if again.is_some() {
            return Err(format!("the {header} header is sent twice"));
        }
        let body = marked_value(mark, arguments);
        let Some(sent) = sent else {
            if body.and_then(header_text).is_some() {
                return Err(format!(
                    "the {header} header is missing, the body's argument {} has a value",
                    mark.path.join(".")
                ));
            }
            continue;
        };
        let Some(decoded) = sent.to_str().ok().and_then(decode_value) else {
            return Err(format!(
                "the {header} header is not visible ASCII or not valid base64"
            ));
        };
        let matches = match body {
            Some(Value::Number(number)) => number
                .as_f64()
                .is_some_and(|n| decoded.parse::<f64>().ok() == Some(n)),
            Some(value) => header_text(value).as_deref() == Some(decoded.as_str()),
            None => false,
        };
        if !matches {
            let body = body.map_or_else(|| "(none)".to_owned(), Value::to_string);
            return Err(format!(
                "{header} header value {decoded:?} does not match body value {body}"
            ));
        }
    }
    Ok(())
}

/// The argument a mark mirrors, if the call gives it (null is not given).
fn marked_value<'a>(mark: &Mark, arguments: Option<&'a Value>) -> Option<&'a Value> {
    let mut value = arguments?;
    for key in &mark.path {
        value = value.get(key)?;
    }
    (!value.is_null()).then_some(value)
}

/// The text a header carries for an argument: strings as they are, integers in decimal,
/// booleans as `true` / `false`; other values have no header.
fn header_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        _ => None,
    }
}

/// Checks the marks of every tool of a `tools/list` result, drops the tools whose marks
/// break the rules (each with a reason), and returns the marks of the others.
pub fn screen_tools(result: &mut Value) -> (ToolMarks, Vec<String>) {
    let mut marks = ToolMarks::new();
    let mut rejected = Vec::new();
    let Some(tools) = result.get_mut("tools").and_then(Value::as_array_mut) else {
        return (marks, rejected);
    };
    tools.retain(|tool| {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
        match tool
            .get("inputSchema")
            .map(marks_of)
            .unwrap_or(Ok(Vec::new()))
        {
            Ok(found) => {
                if !found.is_empty() {
                    marks.insert(name.to_owned(), found);
                }
                true
            }
            Err(reason) => {
                rejected.push(format!("tool {name:?} left out: {reason}"));
                false
            }
        }
    });
    (marks, rejected)
}

/// The marks of one input schema, or why they break the rules.
pub fn marks_of(schema: &Value) -> Result<Vec<Mark>, String> {
    let mut marks = Vec::new();
    walk(schema, &mut Vec::new(), true, &mut marks)?;
    let mut seen = HashSet::new();
    for mark in &marks {
        if !seen.insert(mark.name.to_ascii_lowercase()) {
            return Err(format!("x-mcp-header {:?} is used twice", mark.name));
        }
    }
    Ok(marks)
}

/// Walks the schema; `reachable` while the path from the root has only `properties` steps.
fn walk(
    schema: &Value,
    path: &mut Vec<String>,
    reachable: bool,
    marks: &mut Vec<Mark>,
) -> Result<(), String> {
    let Value::Object(object) = schema else {
        if let Value::Array(items) = schema {
            for item in items {
                walk(item, path, false, marks)?;
            }
        }
        return Ok(());
    };
    if let Some(mark) = object.get("x-mcp-header") {
        if !reachable || path.is_empty() {
            return Err("x-mcp-header outside a chain of properties from the root".into());
        }
        let name = mark.as_str().ok_or("x-mcp-header is not a string")?;
        check_name(name)?;
        check_type(object)?;
        marks.push(Mark {
            name: name.to_owned(),
            path: path.clone(),
        });
    }
    for (key, value) in object {
        if key == "properties" {
            if let Value::Object(properties) = value {
                for (property, sub) in properties {
                    path.push(property.clone());
                    walk(sub, path, reachable, marks)?;
                    path.pop();
                }
            }
        } else if key != "x-mcp-header" && (value.is_object() || value.is_array()) {
            walk(value, path, false, marks)?;
        }
    }
    Ok(())
}

/// An HTTP field-name token (RFC 9110 `tchar`), not empty.
fn check_name(name: &str) -> Result<(), String> {
    let tchar = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if name.is_empty() {
        return Err("x-mcp-header is empty".into());
    }
    if !name.chars().all(tchar) {
        return Err(format!("x-mcp-header {name:?} is not a valid header name"));
    }
    Ok(())
}

/// Only strings, integers and booleans may be mirrored.
fn check_type(schema: &Map<String, Value>) -> Result<(), String> {
    match schema.get("type").and_then(Value::as_str) {
        Some("string" | "integer" | "boolean") => Ok(()),
        Some(other) => Err(format!("x-mcp-header on a property of type {other}")),
        None => Err("x-mcp-header on a property without a primitive type".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_outside_visible_ascii_are_base64_encoded() {
        assert_eq!(encode_value("us-west1"), "us-west1");
        assert_eq!(encode_value("us west 1"), "us west 1");
        assert_eq!(
            encode_value("Hello, 世界"),
            "=?base64?SGVsbG8sIOS4lueVjA==?="
        );
        assert_eq!(encode_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode_value("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        assert_eq!(
            encode_value("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
    }

    #[test]
    fn a_value_decodes_back_to_what_was_encoded() {
        for value in [
            "us-west1",
            "Hello, 世界",
            " padded ",
            "line1\nline2",
            "=?base64?literal?=",
        ] {
            assert_eq!(decode_value(&encode_value(value)).as_deref(), Some(value));
        }
        assert_eq!(decode_value("  spaced  ").as_deref(), Some("spaced"));
        assert_eq!(decode_value("=?base64?not base64?="), None);
    }

    #[test]
    fn marked_arguments_become_headers_and_absent_or_null_ones_do_not() {
        let mut list = json!({"tools": [{"name": "sql", "inputSchema": {"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "n": {"type": "integer", "x-mcp-header": "N"},
            "deep": {"type": "object", "properties": {"on": {"type": "boolean", "x-mcp-header": "On"}}},
            "query": {"type": "string"}}}}]});
        let (marks, rejected) = screen_tools(&mut list);
        assert!(rejected.is_empty());
        let headers = param_headers(
            &marks["sql"],
            Some(&json!({"region": "eu", "n": 42, "deep": {"on": false}, "query": "x"})),
        );
        assert_eq!(
            headers,
            [
                ("Mcp-Param-Region".into(), "eu".into()),
                ("Mcp-Param-N".into(), "42".into()),
                ("Mcp-Param-On".into(), "false".into())
            ]
        );
        assert!(param_headers(&marks["sql"], Some(&json!({"region": null}))).is_empty());
    }

    #[test]
    fn tools_with_broken_marks_are_left_out_and_the_rest_kept() {
        let tool = |name: &str, property: Value| json!({"name": name, "inputSchema": {"type": "object", "properties": {"p": property, "q": {"type": "string", "x-mcp-header": "Q"}}}});
        let mut list = json!({"tools": [
            tool("ok", json!({"type": "string", "x-mcp-header": "P"})),
            tool("empty", json!({"type": "string", "x-mcp-header": ""})),
            tool("number", json!({"type": "number", "x-mcp-header": "P"})),
            tool("object", json!({"type": "object", "x-mcp-header": "P"})),
            tool("twice", json!({"type": "string", "x-mcp-header": "q"})),
            tool("space", json!({"type": "string", "x-mcp-header": "A B"})),
            tool("accent", json!({"type": "string", "x-mcp-header": "Région"})),
            tool("in-array", json!({"type": "array", "items": {"type": "string", "x-mcp-header": "P"}})),
        ]});
        let (marks, rejected) = screen_tools(&mut list);
        let kept: Vec<_> = list["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].clone())
            .collect();
        assert_eq!(kept, [json!("ok")]);
        assert_eq!(rejected.len(), 7, "{rejected:?}");
        assert_eq!(marks["ok"].len(), 2);
    }

    #[test]
    fn a_server_takes_headers_that_mirror_the_arguments_and_refuses_the_others() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "n": {"type": "integer", "x-mcp-header": "N"},
            "query": {"type": "string"}}});
        let marks = marks_of(&schema).unwrap();
        let sent = |pairs: &[(&'static str, &str)]| -> HeaderMap {
            pairs
                .iter()
                .map(|(k, v)| {
                    (
                        http::HeaderName::from_static(k),
                        http::HeaderValue::from_str(v).unwrap(),
                    )
                })
                .collect()
        };
        let hello = json!({"region": "Hello", "query": "x"});
        // (headers, arguments, taken)
        type Case = (Vec<(&'static str, &'static str)>, Value, bool);
        let cases: Vec<Case> = vec![
            (vec![("mcp-param-region", "Hello")], hello.clone(), true),
            (
                vec![("mcp-param-region", "=?base64?SGVsbG8=?=")],
                hello.clone(),
                true,
            ),
            (vec![("mcp-param-region", "  Hello ")], hello.clone(), true),
            (
                vec![("mcp-param-region", "=?base64?SGVsbG8?=")],
                hello.clone(),
                false,
            ),
            (
                vec![("mcp-param-region", "=?base64?SGVs!!!bG8=?=")],
                hello.clone(),
                false,
            ),
            (vec![("mcp-param-region", "hello")], hello.clone(), false),
            (vec![], hello.clone(), false),
            (vec![], json!({"region": null, "n": null}), true),
            (vec![], json!({}), true),
            (vec![("mcp-param-region", "Hello")], json!({}), false),
            (
                vec![("mcp-param-n", "42"), ("mcp-param-region", "a")],
                json!({"n": 42, "region": "a"}),
                true,
            ),
            (
                vec![("mcp-param-n", "42.0"), ("mcp-param-region", "a")],
                json!({"n": 42, "region": "a"}),
                true,
            ),
            (
                vec![("mcp-param-n", "41"), ("mcp-param-region", "a")],
                json!({"n": 42, "region": "a"}),
                false,
            ),
            (vec![("mcp-param-n", "forty-two")], json!({"n": 42}), false),
            (vec![("mcp-param-other", "anything")], json!({}), true),
        ];
        for (pairs, arguments, taken) in cases {
            let checked = check_param_headers(&marks, Some(&arguments), &sent(&pairs));
            assert_eq!(checked.is_ok(), taken, "{pairs:?} {arguments}: {checked:?}");
        }
        let mut twice = sent(&[("mcp-param-region", "Hello")]);
        twice.append("mcp-param-region", http::HeaderValue::from_static("Hello"));
        assert!(check_param_headers(&marks, Some(&hello), &twice).is_err());
        // What the client writes, the server takes.
        for value in ["Hello, 世界", " padded ", "=?base64?literal?=", "us-west1"] {
            let arguments = json!({"region": value, "n": -7});
            let written = param_headers(&marks, Some(&arguments));
            let headers: HeaderMap = written
                .iter()
                .map(|(k, v)| {
                    (
                        http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                        http::HeaderValue::from_str(v).unwrap(),
                    )
                })
                .collect();
            assert_eq!(
                check_param_headers(&marks, Some(&arguments), &headers),
                Ok(())
            );
        }
    }
}
