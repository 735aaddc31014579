//! OpenAI's Responses API (`POST /v1/responses`) as OpenAI's API writes it: the request
//! checks it makes (unknown parameters, the input items and their parts, every function
//! call answered and every output answering one, the tools, the bounds of the
//! parameters), its error bodies (those of Chat Completions), its named events (each with
//! its `sequence_number`, an item added, its content streamed, the item done, then
//! `response.completed` or `response.incomplete`, and no `[DONE]`) and its whole
//! `response` objects.
//!
//! A turn's blocks become output items in order: a text a `message` (its part a
//! `refusal` when the turn stops on `refusal`), a tool call a `function_call`, a thinking
//! a `reasoning` item, summarised only when the request asks for a summary
//! (`reasoning.summary`) and carrying its `encrypted_content` (the block's `signature`, or
//! one the stand-in makes) only when the request includes `reasoning.encrypted_content`.

use serde_json::{Map, Value, json};

use crate::answer::{Answer, Part, broken_off, named_frame, parts, text_of};
use crate::openai::{self, CREATED, below_minimum, check_function_name, invalid, out_of_bounds};
use crate::script::{Failure, Turn};

/// A parameter's name, the JSON type the API expects of it in its words, and the test of
/// that type.
type Parameter = (&'static str, &'static str, fn(&Value) -> bool);

/// Every top-level parameter the stand-in takes (`null` is taken as not given).
/// `previous_response_id` is taken only to be refused: the stand-in keeps no response.
const PARAMETERS: [Parameter; 24] = [
    ("model", "a string", Value::is_string),
    ("input", "a string or an array", |v| {
        v.is_string() || v.is_array()
    }),
    ("instructions", "a string", Value::is_string),
    ("tools", "an array", Value::is_array),
    ("tool_choice", "a string or an object", |v| {
        v.is_string() || v.is_object()
    }),
    ("parallel_tool_calls", "a boolean", Value::is_boolean),
    ("max_output_tokens", "an integer", is_integer),
    ("max_tool_calls", "an integer", is_integer),
    ("temperature", "a number", Value::is_number),
    ("top_p", "a number", Value::is_number),
    ("top_logprobs", "an integer", is_integer),
    ("reasoning", "an object", Value::is_object),
    ("text", "an object", Value::is_object),
    ("truncation", "a string", Value::is_string),
    ("include", "an array", Value::is_array),
    ("store", "a boolean", Value::is_boolean),
    ("stream", "a boolean", Value::is_boolean),
    ("stream_options", "an object", Value::is_object),
    ("prompt_cache_key", "a string", Value::is_string),
    ("prompt_cache_retention", "a string", Value::is_string),
    ("metadata", "an object", Value::is_object),
    ("user", "a string", Value::is_string),
    ("safety_identifier", "a string", Value::is_string),
    ("previous_response_id", "a string", Value::is_string),
];

const ROLES: [&str; 4] = ["user", "assistant", "system", "developer"];
const ITEM_TYPES: [&str; 4] = [
    "message",
    "function_call",
    "function_call_output",
    "reasoning",
];
const INPUT_PARTS: [&str; 3] = ["input_text", "input_image", "input_file"];
const ASSISTANT_PARTS: [&str; 2] = ["output_text", "refusal"];
const EFFORTS: [&str; 4] = ["minimal", "low", "medium", "high"];
const SUMMARIES: [&str; 3] = ["auto", "concise", "detailed"];
const INCLUDABLE: [&str; 8] = [
    "file_search_call.results",
    "web_search_call.results",
    "web_search_call.action.sources",
    "message.input_image.image_url",
    "computer_call_output.output.image_url",
    "code_interpreter_call.outputs",
    "reasoning.encrypted_content",
    "message.output_text.logprobs",
];

fn is_integer(value: &Value) -> bool {
    value.is_i64() || value.is_u64()
}

/// `key` within `at` as OpenAI names a parameter (`input[0].content`).
fn place(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_owned()
    } else {
        format!("{at}.{key}")
    }
}

fn missing(param: &str) -> Answer {
    out_of_bounds(
        format!("Missing required parameter: '{param}'."),
        param,
        "missing_required_parameter",
    )
}

/// A value's JSON type in OpenAI's words.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a decimal",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn wrong_type(param: &str, expected: &str, got: &Value) -> Answer {
    out_of_bounds(
        format!(
            "Invalid type for '{param}': expected {expected}, but got {} instead.",
            type_name(got)
        ),
        param,
        "invalid_type",
    )
}

/// `value` if it is one of `allowed`, refused as OpenAI refuses another.
fn one_of(param: &str, value: &str, allowed: &[&str]) -> Result<(), Answer> {
    if allowed.contains(&value) {
        return Ok(());
    }
    let quoted: Vec<String> = allowed.iter().map(|a| format!("'{a}'")).collect();
    let listed = match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] if rest.len() == 1 => format!("{} and {last}", rest[0]),
        [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
    };
    Err(out_of_bounds(
        format!("Invalid value: '{value}'. Supported values are: {listed}."),
        param,
        "invalid_value",
    ))
}

/// Refuses the first key of `object` that is not `known`.
fn check_keys(object: &Value, at: &str, known: &[&str]) -> Result<(), Answer> {
    let unknown = object
        .as_object()
        .and_then(|o| o.keys().find(|k| !known.contains(&k.as_str())));
    match unknown {
        Some(key) => {
            let param = place(at, key);
            Err(out_of_bounds(
                format!("Unknown parameter: '{param}'."),
                &param,
                "unknown_parameter",
            ))
        }
        None => Ok(()),
    }
}

/// The string `object[key]`, which the API requires.
fn string<'v>(object: &'v Value, at: &str, key: &str) -> Result<&'v str, Answer> {
    match object.get(key) {
        None | Some(Value::Null) => Err(missing(&place(at, key))),
        Some(Value::String(text)) => Ok(text),
        Some(other) => Err(wrong_type(&place(at, key), "a string", other)),
    }
}

/// `object[key]` when given (not null), which must then be a string.
fn optional_string<'v>(object: &'v Value, at: &str, key: &str) -> Result<Option<&'v str>, Answer> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(_) => string(object, at, key).map(Some),
    }
}

/// The checks OpenAI makes of a Responses request that a client may fail.
pub fn validate(body: &Value) -> Result<(), Answer> {
    let names: Vec<&str> = PARAMETERS.iter().map(|(name, ..)| *name).collect();
    check_keys(body, "", &names)?;
    for required in ["model", "input"] {
        if body.get(required).is_none_or(Value::is_null) {
            return Err(missing(required));
        }
    }
    for (name, expected, fits) in PARAMETERS {
        match body.get(name) {
            Some(value) if !value.is_null() && !fits(value) => {
                return Err(wrong_type(name, expected, value));
            }
            _ => {}
        }
    }
    if let Some(id) = body["previous_response_id"].as_str() {
        return Err(out_of_bounds(
            format!("Previous response with id '{id}' not found."),
            "previous_response_id",
            "previous_response_not_found",
        ));
    }
    check_bounds(body)?;
    check_tools(body)?;
    check_input(&body["input"])
}

/// The bounds of the parameters: at least 16 output tokens, a temperature within 0..=2
/// (none for a reasoning model), the reasoning's effort and summary, what is included,
/// the tool choice.
fn check_bounds(body: &Value) -> Result<(), Answer> {
    if let Some(limit) = body
        .get("max_output_tokens")
        .filter(|l| l.as_i64().is_some_and(|l| l < 16))
    {
        return Err(below_minimum("max_output_tokens", 16, limit));
    }
    if openai::temperature(body)?.is_some() && openai::reasoning_model(body) {
        return Err(out_of_bounds(
            "Unsupported parameter: 'temperature' is not supported with this model.".into(),
            "temperature",
            "unsupported_parameter",
        ));
    }
    let reasoning = &body["reasoning"];
    if let Some(effort) = optional_string(reasoning, "reasoning", "effort")? {
        one_of("reasoning.effort", effort, &EFFORTS)?;
    }
    if let Some(summary) = optional_string(reasoning, "reasoning", "summary")? {
        one_of("reasoning.summary", summary, &SUMMARIES)?;
    }
    let included = body["include"].as_array().map(Vec::as_slice);
    for (n, value) in included.unwrap_or_default().iter().enumerate() {
        let param = format!("include[{n}]");
        match value.as_str() {
            Some(value) => one_of(&param, value, &INCLUDABLE)?,
            None => return Err(wrong_type(&param, "a string", value)),
        }
    }
    match &body["tool_choice"] {
        Value::String(choice) => one_of("tool_choice", choice, &["none", "auto", "required"]),
        choice @ Value::Object(_) => {
            one_of(
                "tool_choice.type",
                string(choice, "tool_choice", "type")?,
                &["function"],
            )?;
            string(choice, "tool_choice", "name").map(drop)
        }
        _ => Ok(()),
    }
}

/// Function tools, named as the API takes them, each with its parameters' schema.
fn check_tools(body: &Value) -> Result<(), Answer> {
    let tools = body["tools"].as_array().map(Vec::as_slice);
    for (n, tool) in tools.unwrap_or_default().iter().enumerate() {
        let at = format!("tools[{n}]");
        if !tool.is_object() {
            return Err(wrong_type(&at, "an object", tool));
        }
        one_of(
            &place(&at, "type"),
            string(tool, &at, "type")?,
            &["function"],
        )?;
        check_keys(
            tool,
            &at,
            &["type", "name", "description", "parameters", "strict"],
        )?;
        check_function_name(string(tool, &at, "name")?, &place(&at, "name"))?;
        match tool.get("parameters") {
            None => return Err(missing(&place(&at, "parameters"))),
            Some(schema) if !schema.is_null() && !schema.is_object() => {
                return Err(wrong_type(&place(&at, "parameters"), "an object", schema));
            }
            Some(_) => {}
        }
        optional_string(tool, &at, "description")?;
    }
    Ok(())
}

/// The input items: each of a kind the stand-in knows, every function call answered by
/// an output later on, and every output answering a call made before it.
fn check_input(input: &Value) -> Result<(), Answer> {
    let Some(items) = input.as_array() else {
        return Ok(()); // a string: one message from the person
    };
    let mut calls: Vec<&str> = Vec::new();
    let mut answered: Vec<&str> = Vec::new();
    for (n, item) in items.iter().enumerate() {
        let at = format!("input[{n}]");
        match kind_of(item, &at)? {
            "message" => check_message(item, &at)?,
            "function_call" => calls.push(check_call(item, &at)?),
            "function_call_output" => {
                let call_id = check_output(item, &at)?;
                if !calls.contains(&call_id) {
                    return Err(bad_request(format!(
                        "No tool call found for function call output with call_id {call_id}."
                    )));
                }
                answered.push(call_id);
            }
            "reasoning" => check_reasoning(item, &at)?,
            other => one_of(&place(&at, "type"), other, &ITEM_TYPES)?,
        }
    }
    match calls.iter().find(|call| !answered.contains(call)) {
        Some(call_id) => Err(bad_request(format!(
            "No tool output found for function call {call_id}."
        ))),
        None => Ok(()),
    }
}

/// An item's `type`; a message may leave it out.
fn kind_of<'v>(item: &'v Value, at: &str) -> Result<&'v str, Answer> {
    if !item.is_object() {
        return Err(wrong_type(at, "an object", item));
    }
    match item.get("type") {
        None if item.get("role").is_some() => Ok("message"),
        _ => string(item, at, "type"),
    }
}

fn check_message(item: &Value, at: &str) -> Result<(), Answer> {
    check_keys(
        item,
        at,
        &["type", "role", "content", "id", "status", "phase"],
    )?;
    let role = string(item, at, "role")?;
    one_of(&place(at, "role"), role, &ROLES)?;
    let allowed: &[&str] = if role == "assistant" {
        &ASSISTANT_PARTS
    } else {
        &INPUT_PARTS
    };
    check_content(item, at, "content", allowed)
}

/// `item[key]`: a string, or parts of the `allowed` types.
fn check_content(item: &Value, at: &str, key: &str, allowed: &[&str]) -> Result<(), Answer> {
    match item.get(key) {
        None | Some(Value::Null) => Err(missing(&place(at, key))),
        Some(Value::String(_)) => Ok(()),
        Some(Value::Array(parts)) => parts.iter().enumerate().try_for_each(|(m, part)| {
            check_part(part, &format!("{}[{m}]", place(at, key)), allowed)
        }),
        Some(other) => Err(wrong_type(&place(at, key), "a string or an array", other)),
    }
}

/// A content part: of a type the place takes, its text not empty (nor white space alone),
/// an image by its URL or file.
fn check_part(part: &Value, at: &str, allowed: &[&str]) -> Result<(), Answer> {
    let kind = string(part, at, "type")?;
    one_of(at, kind, allowed)?;
    let (known, text): (&[&str], _) = match kind {
        "input_text" => (&["type", "text"], "text"),
        "output_text" => (&["type", "text", "annotations", "logprobs"], "text"),
        "refusal" => (&["type", "refusal"], "refusal"),
        "input_image" => (&["type", "image_url", "file_id", "detail"], ""),
        _ => (
            &["type", "file_id", "file_data", "file_url", "filename"],
            "",
        ),
    };
    check_keys(part, at, known)?;
    if kind == "input_image" {
        if part["image_url"].is_null() && part["file_id"].is_null() {
            return Err(missing(&place(at, "image_url")));
        }
        if let Some(detail) = optional_string(part, at, "detail")? {
            one_of(
                &place(at, "detail"),
                detail,
                &["low", "high", "auto", "original"],
            )?;
        }
        return Ok(());
    }
    if text.is_empty() {
        return Ok(());
    }
    let written = string(part, at, text)?;
    if kind == "input_text" && written.trim().is_empty() {
        let param = place(at, text);
        return Err(out_of_bounds(
            format!(
                "Invalid '{param}': empty string. Expected a string with minimum length 1, but got an empty string instead."
            ),
            &param,
            "empty_string",
        ));
    }
    Ok(())
}

/// A function call the model made, sent back; its `call_id`.
fn check_call<'v>(item: &'v Value, at: &str) -> Result<&'v str, Answer> {
    let known = ["type", "id", "call_id", "name", "arguments", "status"];
    check_keys(item, at, &known)?;
    string(item, at, "name")?;
    string(item, at, "arguments")?;
    string(item, at, "call_id")
}

/// A function's output; the `call_id` it answers.
fn check_output<'v>(item: &'v Value, at: &str) -> Result<&'v str, Answer> {
    check_keys(item, at, &["type", "id", "call_id", "output", "status"])?;
    let call_id = string(item, at, "call_id")?;
    check_content(item, at, "output", &INPUT_PARTS)?;
    Ok(call_id)
}

fn check_reasoning(item: &Value, at: &str) -> Result<(), Answer> {
    let known = [
        "type",
        "id",
        "summary",
        "encrypted_content",
        "content",
        "status",
    ];
    check_keys(item, at, &known)?;
    string(item, at, "id")?;
    optional_string(item, at, "encrypted_content")?;
    let summary = match item.get("summary") {
        None | Some(Value::Null) => return Err(missing(&place(at, "summary"))),
        Some(Value::Array(parts)) => parts,
        Some(other) => return Err(wrong_type(&place(at, "summary"), "an array", other)),
    };
    summary.iter().enumerate().try_for_each(|(m, part)| {
        let at = format!("{at}.summary[{m}]");
        one_of(
            &place(&at, "type"),
            string(part, &at, "type")?,
            &["summary_text"],
        )?;
        string(part, &at, "text").map(drop)
    })
}

/// A request refused as invalid, in OpenAI's words for it.
pub fn bad_request(message: String) -> Answer {
    invalid(message, "input")
}

/// The text of the last function call output in the request.
fn last_tool_result(body: &Value) -> String {
    let items = body["input"].as_array().map(Vec::as_slice);
    let last = items
        .unwrap_or_default()
        .iter()
        .rev()
        .find(|item| item["type"] == "function_call_output");
    text_of(last.map(|item| &item["output"]))
}

/// What the request asks of the answer beyond its content.
struct Asked {
    /// `include` has `reasoning.encrypted_content`.
    encrypted: bool,
    /// `reasoning.summary` (or its older name, `generate_summary`) is set.
    summaries: bool,
    /// Deltas carry an `obfuscation` pad, as they do unless `stream_options` turns it off.
    obfuscated: bool,
}

impl Asked {
    fn of(request: &Value) -> Self {
        let included = request["include"].as_array();
        let reasoning = &request["reasoning"];
        Self {
            encrypted: included
                .is_some_and(|i| i.iter().any(|v| v == "reasoning.encrypted_content")),
            summaries: reasoning["summary"].is_string()
                || reasoning["generate_summary"].is_string(),
            obfuscated: request.pointer("/stream_options/include_obfuscation")
                != Some(&json!(false)),
        }
    }
}

/// One item of an answer's `output`, with the ids the stand-in gives it.
pub enum Item<'a> {
    Message {
        id: String,
        pieces: &'a [String],
        /// The text is the model's refusal.
        refusal: bool,
    },
    Call {
        id: String,
        call_id: String,
        name: &'a str,
        arguments: String,
        pieces: &'a [String],
    },
    Reasoning {
        id: String,
        pieces: &'a [String],
        /// Sent only when the request includes it.
        encrypted: String,
    },
}

/// A turn's content as output items, the `index`-th named `msg_`, `fc_` or
/// `rs_standin_<turn>_<index>`; a tool call's `call_id` is the script's, or
/// `call_standin_<turn>_<n>` for the turn's `n`-th.
pub fn items<'a>(parts: &'a [Part<'_>], turn_number: usize, refusal: bool) -> Vec<Item<'a>> {
    let id = |kind: &str, index: usize| format!("{kind}_standin_{turn_number}_{index}");
    let mut calls = 0;
    let mut items = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        items.push(match part {
            Part::Text(pieces, _) => Item::Message {
                id: id("msg", index),
                pieces,
                refusal,
            },
            Part::Thinking { pieces, signature } => Item::Reasoning {
                id: id("rs", index),
                pieces,
                // Opaque, as OpenAI's own (a Fernet token's prefix).
                encrypted: match *signature {
                    "" => format!("gAAAAABstandin_{turn_number}_{index}"),
                    given => given.to_owned(),
                },
            },
            Part::ToolCall {
                id: given,
                name,
                arguments,
                pieces,
            } => {
                calls += 1;
                Item::Call {
                    id: id("fc", index),
                    call_id: openai::call_id(*given, turn_number, calls - 1),
                    name,
                    arguments: arguments.to_string(),
                    pieces,
                }
            }
        });
    }
    items
}

/// A function call the stand-in's script makes after reasoning: what must come back
/// before it, as OpenAI requires when it keeps nothing (`store: false`).
pub struct ReasonedCall {
    pub call_id: String,
    pub item_id: String,
    pub reasoning_id: String,
    pub encrypted: String,
}

/// Every function call of the script's turns that follows a reasoning item of its turn,
/// with the last such item.
pub fn reasoned_calls(turns: &[Turn]) -> Vec<ReasonedCall> {
    let mut found = Vec::new();
    for (at, turn) in turns.iter().enumerate() {
        let parts = parts(turn, "");
        let mut reasoning = None;
        for item in items(&parts, at + 1, false) {
            match item {
                Item::Reasoning { id, encrypted, .. } => reasoning = Some((id, encrypted)),
                Item::Call { id, call_id, .. } => {
                    if let Some((reasoning_id, encrypted)) = reasoning.clone() {
                        found.push(ReasonedCall {
                            call_id,
                            item_id: id,
                            reasoning_id,
                            encrypted,
                        });
                    }
                }
                Item::Message { .. } => {}
            }
        }
    }
    found
}

/// An event of `kind` at `place` (the item, part or summary it is about) with `fields`.
fn event(kind: &str, place: &Value, fields: Value) -> Value {
    let mut event = json!({"type": kind});
    for source in [place, &fields] {
        if let Value::Object(source) = source {
            for (key, value) in source {
                event[key] = value.clone();
            }
        }
    }
    event
}

/// A delta event with, when asked, the pad OpenAI adds to hide the length of `piece`
/// (made up to a multiple of 16 characters).
fn delta(kind: &str, place: &Value, piece: &str, asked: &Asked) -> Value {
    let mut event = event(kind, place, json!({"delta": piece}));
    if kind == "response.output_text.delta" {
        event["logprobs"] = json!([]);
    }
    if asked.obfuscated {
        let pad = 16 - piece.chars().count() % 16;
        event["obfuscation"] = json!("StandInPadding16"[..pad]);
    }
    event
}

impl Item<'_> {
    fn text(&self) -> String {
        match self {
            Self::Message { pieces, .. } | Self::Reasoning { pieces, .. } => pieces.concat(),
            Self::Call { arguments, .. } => arguments.clone(),
        }
    }

    /// The item as `response.output_item.added` announces it, before its content.
    fn started(&self, asked: &Asked) -> Value {
        match self {
            Self::Message { id, .. } => json!({"id": id, "type": "message",
                "status": "in_progress", "content": [], "role": "assistant"}),
            Self::Call {
                id, call_id, name, ..
            } => json!({"id": id, "type": "function_call", "status": "in_progress",
                "arguments": "", "call_id": call_id, "name": name}),
            Self::Reasoning { id, encrypted, .. } => reasoning_item(id, encrypted, "", asked),
        }
    }

    /// The item whole, as in `response.output_item.done` and the response's `output`.
    fn finished(&self, asked: &Asked, status: &str) -> Value {
        let text = self.text();
        match self {
            Self::Message { id, refusal, .. } => json!({"id": id, "type": "message",
                "status": status, "content": [content_part(*refusal, &text)], "role": "assistant"}),
            Self::Call {
                id, call_id, name, ..
            } => json!({"id": id, "type": "function_call", "status": status,
                "arguments": text, "call_id": call_id, "name": name}),
            Self::Reasoning { id, encrypted, .. } => reasoning_item(id, encrypted, &text, asked),
        }
    }

    /// The events between the item's `added` and its `done`: its content, piece by piece.
    fn streamed(&self, index: usize, asked: &Asked) -> Vec<Value> {
        let text = self.text();
        match self {
            Self::Message {
                id,
                pieces,
                refusal,
            } => {
                let at = json!({"item_id": id, "output_index": index, "content_index": 0});
                let mut events = vec![event(
                    "response.content_part.added",
                    &at,
                    json!({"part": content_part(*refusal, "")}),
                )];
                events.extend(match refusal {
                    true => refusal_events(&at, pieces, &text),
                    false => text_events(&at, pieces, &text, asked),
                });
                let part = content_part(*refusal, &text);
                events.push(event(
                    "response.content_part.done",
                    &at,
                    json!({"part": part}),
                ));
                events
            }
            Self::Call { id, pieces, .. } => {
                let at = json!({"item_id": id, "output_index": index});
                let kind = "response.function_call_arguments";
                let mut events: Vec<Value> = pieces
                    .iter()
                    .map(|piece| delta(&format!("{kind}.delta"), &at, piece, asked))
                    .collect();
                events.push(event(
                    &format!("{kind}.done"),
                    &at,
                    json!({"arguments": text}),
                ));
                events
            }
            Self::Reasoning { id, pieces, .. } if asked.summaries => {
                let at = json!({"item_id": id, "output_index": index, "summary_index": 0});
                summary_events(&at, pieces, &text, asked)
            }
            Self::Reasoning { .. } => Vec::new(),
        }
    }
}

/// A reasoning item with the summary of `text` (none while it streams, or when no summary
/// is asked for), and its encrypted content when the request includes it.
fn reasoning_item(id: &str, encrypted: &str, text: &str, asked: &Asked) -> Value {
    let summary: Vec<Value> = (asked.summaries && !text.is_empty())
        .then(|| json!({"type": "summary_text", "text": text}))
        .into_iter()
        .collect();
    let mut item = json!({"id": id, "type": "reasoning", "summary": summary});
    if asked.encrypted {
        item["encrypted_content"] = json!(encrypted);
    }
    item
}

/// A text's deltas and its whole, at `at` (its part).
fn text_events(at: &Value, pieces: &[String], text: &str, asked: &Asked) -> Vec<Value> {
    let kind = "response.output_text";
    let mut events: Vec<Value> = pieces
        .iter()
        .map(|piece| delta(&format!("{kind}.delta"), at, piece, asked))
        .collect();
    let done = json!({"text": text, "logprobs": []});
    events.push(event(&format!("{kind}.done"), at, done));
    events
}

/// A refusal's deltas and its whole: no obfuscation pad, no log probabilities.
fn refusal_events(at: &Value, pieces: &[String], refusal: &str) -> Vec<Value> {
    let mut events: Vec<Value> = pieces
        .iter()
        .map(|piece| event("response.refusal.delta", at, json!({"delta": piece})))
        .collect();
    events.push(event(
        "response.refusal.done",
        at,
        json!({"refusal": refusal}),
    ));
    events
}

/// A reasoning summary's one part, opened, streamed and closed.
fn summary_events(at: &Value, pieces: &[String], text: &str, asked: &Asked) -> Vec<Value> {
    let kind = "response.reasoning_summary";
    let part = |text: &str| json!({"part": {"type": "summary_text", "text": text}});
    let mut events = vec![event(&format!("{kind}_part.added"), at, part(""))];
    events.extend(
        pieces
            .iter()
            .map(|piece| delta(&format!("{kind}_text.delta"), at, piece, asked)),
    );
    events.push(event(
        &format!("{kind}_text.done"),
        at,
        json!({"text": text}),
    ));
    events.push(event(&format!("{kind}_part.done"), at, part(text)));
    events
}

/// A message's content part: its text, or the model's refusal.
fn content_part(refusal: bool, text: &str) -> Value {
    match refusal {
        true => json!({"type": "refusal", "refusal": text}),
        false => json!({"type": "output_text", "annotations": [], "logprobs": [], "text": text}),
    }
}

/// The response object as it starts: the request's settings echoed, no output yet.
fn started(request: &Value, id: &str) -> Value {
    let given = |name: &str, default: Value| {
        request
            .get(name)
            .filter(|v| !v.is_null())
            .cloned()
            .unwrap_or(default)
    };
    let reasoning = &request["reasoning"];
    json!({
        "id": id,
        "object": "response",
        "created_at": CREATED,
        "status": "in_progress",
        "background": false,
        "completed_at": null,
        "error": null,
        "incomplete_details": null,
        "instructions": given("instructions", Value::Null),
        "max_output_tokens": given("max_output_tokens", Value::Null),
        "max_tool_calls": given("max_tool_calls", Value::Null),
        "model": given("model", json!("")),
        "output": [],
        "parallel_tool_calls": given("parallel_tool_calls", json!(true)),
        "previous_response_id": null,
        "prompt_cache_key": given("prompt_cache_key", Value::Null),
        "prompt_cache_retention": given("prompt_cache_retention", Value::Null),
        "reasoning": {"effort": reasoning.get("effort"), "summary": reasoning.get("summary")},
        "safety_identifier": given("safety_identifier", Value::Null),
        "service_tier": "default",
        "store": given("store", json!(true)),
        "temperature": given("temperature", json!(1.0)),
        "text": given("text", json!({"format": {"type": "text"}, "verbosity": "medium"})),
        "tool_choice": given("tool_choice", json!("auto")),
        "tools": request["tools"].as_array().map_or_else(Vec::new, |tools| tools.iter().map(tool).collect()),
        "top_logprobs": given("top_logprobs", json!(0)),
        "top_p": given("top_p", json!(1.0)),
        "truncation": given("truncation", json!("disabled")),
        "usage": null,
        "user": given("user", Value::Null),
        "metadata": given("metadata", json!({})),
    })
}

/// A function tool as the response echoes it, with the API's defaults filled in.
fn tool(tool: &Value) -> Value {
    json!({
        "type": "function",
        "description": tool.get("description"),
        "name": tool["name"],
        "parameters": tool.get("parameters"),
        "strict": tool.get("strict").filter(|s| !s.is_null()).unwrap_or(&json!(true)),
    })
}

/// The response's status and why it is incomplete: a turn that stopped on its token
/// limit is `incomplete`.
fn outcome(turn: &Turn) -> (&'static str, Value) {
    match turn.stop() {
        "max_tokens" => ("incomplete", json!({"reason": "max_output_tokens"})),
        _ => ("completed", Value::Null),
    }
}

fn usage(turn: &Turn) -> Value {
    let u = turn.usage;
    json!({
        "input_tokens": u.input,
        "input_tokens_details": {"cached_tokens": u.cached, "cache_write_tokens": 0},
        "output_tokens": u.output,
        "output_tokens_details": {"reasoning_tokens": u.reasoning},
        "total_tokens": u.input + u.output,
    })
}

/// The response object whole: as it started, with its output, status and usage.
fn finished(request: &Value, id: &str, turn: &Turn, items: &[Item<'_>], asked: &Asked) -> Value {
    let (status, incomplete) = outcome(turn);
    let mut response = started(request, id);
    response["status"] = json!(status);
    if status == "completed" {
        response["completed_at"] = json!(CREATED + 1);
    }
    response["incomplete_details"] = incomplete;
    response["output"] = items.iter().map(|i| i.finished(asked, status)).collect();
    response["usage"] = usage(turn);
    response
}

/// An event's frame: named by its type, numbered after it.
fn frame(event: Value, sequence_number: usize) -> String {
    let kind = event["type"].as_str().unwrap_or_default().to_owned();
    let mut numbered = Map::new();
    if let Value::Object(fields) = event {
        for (key, value) in fields {
            let typed = key == "type";
            numbered.insert(key, value);
            if typed {
                numbered.insert("sequence_number".into(), json!(sequence_number));
            }
        }
    }
    named_frame(&kind, &Value::Object(numbered).to_string())
}

/// The `error` event that breaks a stream off: the failure's code (or type) and message.
fn error_event(failure: &Failure) -> Value {
    let (_, body) = openai::failure_body(failure, "input");
    let error = &body["error"];
    let code = error["code"].as_str().or(error["type"].as_str());
    json!({"type": "error", "code": code, "message": error["message"], "param": null})
}

/// The answer to a scripted turn, streamed or whole as the request asks.
pub fn answer(turn: &Turn, request: &Value, turn_number: usize) -> Answer {
    let parts = parts(turn, &last_tool_result(request));
    let items = items(&parts, turn_number, turn.stop() == "refusal");
    let id = format!("resp_standin_{turn_number}");
    let asked = Asked::of(request);
    let whole = finished(request, &id, turn, &items, &asked);
    if request.get("stream").and_then(Value::as_bool) != Some(true) {
        return Answer::json(200, whole);
    }
    let (status, _) = outcome(turn);
    let response = started(request, &id);
    let mut events = vec![
        json!({"type": "response.created", "response": response.clone()}),
        json!({"type": "response.in_progress", "response": response}),
    ];
    for (index, item) in items.iter().enumerate() {
        let added = item.started(&asked);
        events.push(
            json!({"type": "response.output_item.added", "output_index": index, "item": added}),
        );
        events.extend(item.streamed(index, &asked));
        let done = item.finished(&asked, status);
        events.push(
            json!({"type": "response.output_item.done", "output_index": index, "item": done}),
        );
    }
    let mut frames: Vec<String> = events
        .into_iter()
        .enumerate()
        .map(|(n, event)| frame(event, n))
        .collect();
    let next = frames.len();
    let broken = broken_off(
        turn,
        &mut frames,
        |failure| frame(error_event(failure), next),
        named_frame(
            "response.output_text.delta",
            r#"{"type":"response.output_text.delta","sequence_number":"#,
        ),
    );
    if !broken {
        let kind = format!("response.{status}");
        frames.push(frame(json!({"type": kind, "response": whole}), next));
    }
    Answer::events(turn, frames)
}
