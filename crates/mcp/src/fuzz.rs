//! The fuzz harness of the decoders, and the inputs their property tests share.
//!
//! Each decoder has a `fuzz_*` test, ignored by default, that feeds it arbitrary bytes and
//! checks that it does not panic and that what it reads keeps its properties (docs/reliability.md
//! lists them per decoder). A long run, in release and on one core:
//!
//! ```text
//! FUZZ_INPUTS=2500000 cargo test -p switchboard-mcp --release --lib -- \
//!     --ignored fuzz --test-threads=1 --nocapture
//! ```
//!
//! `FUZZ_INPUTS` is the number of inputs per target (1,000 when unset), `FUZZ_SEED` repeats
//! a run; each target prints its count, seed and time. A failure is shrunk to a minimal input.
//!
//! Why proptest and not AFL++ (`cargo afl`): AFL++ is coverage-guided, and `cargo install
//! cargo-afl` does work here on stable (it builds its own AFL++). But its targets are binaries
//! outside the crate that reach only the public API, so the private line and event decoders
//! would need an entry point for fuzzing alone; and it needs a tool installed on each machine
//! that runs it, an instrumented build and a fuzzer process per target, and a corpus to keep.
//! Here the fuzz run is plain `cargo test` on stable: nothing to install, the private decoders
//! reached from inside the crate, a failure shrunk to a minimal input, and inputs biased
//! towards what each decoder cares about (its tokens, near-valid documents with a few bytes
//! changed), so that the deep paths are hit without coverage feedback.

use std::fmt::Debug;
use std::future::Future;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use http::{HeaderMap, HeaderName, HeaderValue};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed, TestCaseResult, TestRunner};
use serde_json::{Value, json};

use crate::auth::Challenge;
use crate::jsonrpc::{ErrorObject, Frame, FrameError, Message, RequestId, Unreadable};
use crate::transport::http::headers::{
    Mark, check_param_headers, decode_value, encode_value, marks_of, param_headers,
};
use crate::types::{ElicitContent, ElicitationSchema};

/// Runs `check` on `FUZZ_INPUTS` inputs drawn from `inputs`, and says how it went.
pub(crate) fn fuzz<S>(target: &str, inputs: S, check: impl Fn(S::Value) -> TestCaseResult)
where
    S: Strategy,
    S::Value: Debug,
{
    let cases = env_number("FUZZ_INPUTS").map_or(1_000, |n| {
        u32::try_from(n).expect("FUZZ_INPUTS fits in 32 bits")
    });
    // A seed of our own, printed, so that a run can be repeated exactly.
    let seed = env_number("FUZZ_SEED").unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let config = Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    };
    let start = Instant::now();
    let result = TestRunner::new(config).run(&inputs, check);
    println!(
        "fuzz {target}: {cases} inputs, seed {seed}, {:.1} s",
        start.elapsed().as_secs_f64()
    );
    if let Err(failure) = result {
        panic!("fuzz {target} (seed {seed}): {failure}");
    }
}

fn env_number(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    Some(
        value
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("{name} is not a number: {value}")),
    )
}

/// Bytes made mostly of `tokens` (a decoder's keywords and delimiters), with arbitrary bytes
/// between them; or arbitrary bytes alone.
pub(crate) fn soup(tokens: &'static [&'static [u8]]) -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        3 => proptest::sample::select(tokens).prop_map(<[u8]>::to_vec),
        1 => proptest::collection::vec(any::<u8>(), 1..4),
    ];
    prop_oneof![
        4 => proptest::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat()),
        1 => proptest::collection::vec(any::<u8>(), 0..200),
    ]
}

/// A few bytes of `document` deleted, replaced or inserted: near-valid input reaches past
/// the first check of a decoder.
pub(crate) fn mutated(document: impl Strategy<Value = Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    let edit = (any::<Index>(), 0..3u8, any::<u8>());
    let edits = prop_oneof![Just(Vec::new()), proptest::collection::vec(edit, 1..4),];
    (document, edits).prop_map(|(mut bytes, edits)| {
        for (at, kind, byte) in edits {
            let at = at.index(bytes.len() + 1);
            match kind {
                0 if at < bytes.len() => {
                    bytes.remove(at);
                }
                1 if at < bytes.len() => bytes[at] = byte,
                _ => bytes.insert(at, byte),
            }
        }
        bytes
    })
}

/// How a body or a pipe hands its bytes over: cut at arbitrary places, or in pieces of one
/// size (one byte at a time included).
#[derive(Debug, Clone)]
pub(crate) enum Chunking {
    At(Vec<Index>),
    Every(usize),
}

pub(crate) fn chunking() -> impl Strategy<Value = Chunking> {
    prop_oneof![
        3 => proptest::collection::vec(any::<Index>(), 0..12).prop_map(Chunking::At),
        1 => (1..9usize).prop_map(Chunking::Every),
    ]
}

impl Chunking {
    /// `bytes` in chunks, none of them empty (an empty read means the end of a pipe).
    pub(crate) fn split(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut cuts: Vec<usize> = match self {
            Self::At(cuts) => cuts.iter().map(|c| c.index(bytes.len() + 1)).collect(),
            Self::Every(size) => (0..bytes.len()).step_by(*size).collect(),
        };
        cuts.extend([0, bytes.len()]);
        cuts.sort_unstable();
        cuts.dedup();
        cuts.windows(2)
            .map(|w| bytes[w[0]..w[1]].to_vec())
            .collect()
    }
}

/// Runs a future on this thread's runtime (one per test thread, not one per case).
pub(crate) fn block_on<F: Future>(future: F) -> F::Output {
    thread_local! {
        static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a current-thread runtime");
    }
    RUNTIME.with(|runtime| runtime.block_on(future))
}

/// A JSON tree whose objects have members named from `keys` and whose leaves are `leaf`s.
fn tree(
    keys: &'static [&'static str],
    leaf: impl Strategy<Value = Value> + 'static,
) -> impl Strategy<Value = Value> {
    leaf.prop_recursive(3, 24, 5, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            members(keys, inner, 0..5),
        ]
    })
}

fn members(
    keys: &'static [&'static str],
    value: impl Strategy<Value = Value>,
    count: std::ops::Range<usize>,
) -> impl Strategy<Value = Value> {
    let member = (proptest::sample::select(keys), value);
    proptest::collection::vec(member, count).prop_map(|members| {
        Value::Object(
            members
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect(),
        )
    })
}

/// `document` written out, perhaps with a few bytes changed.
fn written(document: impl Strategy<Value = Value>) -> impl Strategy<Value = Vec<u8>> {
    mutated(document.prop_map(|v| serde_json::to_vec(&v).expect("a JSON tree serializes")))
}

fn leaf(strings: &'static [&'static str]) -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        proptest::sample::select(&[0.0, 1.0, -1.0, 2.5, -0.0, 1e300][..]).prop_map(Value::from),
        proptest::sample::select(&[0, 1, -1, 7, i64::MIN, i64::MAX][..]).prop_map(Value::from),
        Just(Value::from(u64::MAX)),
        proptest::sample::select(strings).prop_map(Value::from),
        "\\PC{0,6}".prop_map(Value::from),
    ]
}

/// `document` with perhaps a member (named from `keys`) added, changed or taken away.
fn changed(
    document: impl Strategy<Value = Value>,
    keys: &'static [&'static str],
    value: impl Strategy<Value = Value>,
) -> impl Strategy<Value = Value> {
    let change = (proptest::sample::select(keys), proptest::option::of(value));
    let changes = prop_oneof![Just(Vec::new()), proptest::collection::vec(change, 1..3)];
    (document, changes).prop_map(|(mut document, changes)| {
        if let Value::Object(members) = &mut document {
            for (key, value) in changes {
                match value {
                    Some(value) => drop(members.insert(key.to_owned(), value)),
                    None => drop(members.shift_remove(key)),
                }
            }
        }
        document
    })
}

/// A frame: JSON tokens, or messages of each kind (alone or in a batch), perhaps changed.
fn frame() -> impl Strategy<Value = String> {
    const KEYS: &[&str] = &[
        "jsonrpc", "id", "method", "params", "result", "error", "code", "message", "data",
    ];
    let tree = || tree(KEYS, leaf(&["2.0", "1.0", "ping", "tools/call", ""]));
    let id = prop_oneof![
        any::<i64>().prop_map(Value::from),
        "[a-z0-9]{0,4}".prop_map(Value::from)
    ];
    let params = proptest::option::of(members(KEYS, tree(), 0..3));
    let message = (0..5u8, id, "[a-z/]{0,10}", params, tree()).prop_map(
        |(kind, id, method, params, result)| {
            let error = json!({"code": -32601, "message": "no", "data": [1]});
            let mut m = json!({"jsonrpc": "2.0"});
            match kind {
                0 => m["id"] = id,
                1 => {}
                2 => (m["id"], m["result"]) = (id, result),
                3 => (m["id"], m["error"]) = (id, error),
                _ => (m["id"], m["error"]) = (Value::Null, error),
            }
            if kind < 2 {
                m["method"] = method.into();
                if let Some(params) = params {
                    m["params"] = params;
                }
            }
            m
        },
    );
    let message = changed(message, KEYS, tree()).boxed();
    let bytes = prop_oneof![
        1 => soup(&[
            b"{", b"}", b"[", b"]", b":", b",", b" ", b"\"jsonrpc\"", b"\"2.0\"", b"\"id\"",
            b"\"method\"", b"\"params\"", b"\"result\"", b"\"error\"", b"\"code\"",
            b"\"message\"", b"null", b"1", b"-1.5e3", b"9223372036854775808", b"\"\\u0000\"",
        ]),
        3 => written(message.clone()),
        1 => written(proptest::collection::vec(message, 0..4).prop_map(Value::Array)),
    ];
    bytes.prop_map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// A frame either fails or gives messages that match its members and read back the same.
fn check_frame(frame: &str) -> TestCaseResult {
    let Ok(messages) = Message::parse_frame(frame) else {
        return Ok(());
    };
    for message in &messages {
        let written = message.to_json();
        let again = Message::parse_frame(&written);
        let same = matches!(&again, Ok(again)
            if again.len() == 1 && json_of(&again[0]) == json_of(message));
        prop_assert!(same, "{written} read back as {again:?}");
    }
    // A member the envelope ignores is skipped unchecked (a number out of range, say), so
    // only a frame that is JSON throughout can be compared with its members.
    let Ok(value) = serde_json::from_str::<Value>(frame) else {
        return Ok(());
    };
    let items = match value {
        Value::Array(items) => items,
        one => vec![one],
    };
    prop_assert_eq!(messages.len(), items.len());
    for (message, item) in messages.iter().zip(&items) {
        prop_assert!(agrees(message, item), "{message:?} from {item}");
    }
    Ok(())
}

fn json_of(message: &Message) -> Value {
    serde_json::from_str(&message.to_json()).expect("a message is JSON")
}

/// Whether a message is what JSON-RPC makes of `item` (a null member counting as absent,
/// except `id` and `result`).
fn agrees(message: &Message, item: &Value) -> bool {
    // Only an object is a message: never an array of its members in order.
    if !item.is_object() {
        return false;
    }
    let member = |key| item.get(key).filter(|v| !v.is_null());
    let id = |id: &RequestId| item.get("id") == Some(&serde_json::to_value(id).expect("an id"));
    let method = |method: &str| member("method") == Some(&Value::from(method));
    let error = |e: &ErrorObject| {
        member("error")
            .filter(|v| v.is_object())
            .is_some_and(|v| v["code"] == e.code && v["message"] == *e.message)
    };
    let no_outcome = item.get("result").is_none() && member("error").is_none();
    item.get("jsonrpc") == Some(&Value::from("2.0"))
        && match message {
            Message::Request(r) => {
                id(&r.id)
                    && method(&r.method)
                    && member("params") == r.params.as_ref()
                    && no_outcome
            }
            Message::Notification(n) => {
                item.get("id").is_none()
                    && method(&n.method)
                    && member("params") == n.params.as_ref()
                    && no_outcome
            }
            Message::Response(r) => {
                id(&r.id)
                    && member("method").is_none()
                    && match &r.outcome {
                        Ok(result) => {
                            item.get("result") == Some(result) && member("error").is_none()
                        }
                        Err(e) => error(e) && item.get("result").is_none(),
                    }
            }
            // An error that names no request: its id null or absent, nothing beside it.
            Message::OrphanError(e) => {
                item.get("id").is_none_or(Value::is_null)
                    && member("method").is_none()
                    && item.get("result").is_none()
                    && error(e)
            }
        }
}

/// A form schema and an answer: fields of each restricted shape and answers of each kind,
/// perhaps changed.
fn schema_and_answer() -> impl Strategy<Value = (Vec<u8>, Vec<u8>)> {
    const KEYS: &[&str] = &[
        "type",
        "title",
        "minLength",
        "maxLength",
        "format",
        "default",
        "minimum",
        "maximum",
        "enum",
        "enumNames",
        "oneOf",
        "anyOf",
        "items",
        "const",
        "minItems",
        "maxItems",
    ];
    const NAMES: &[&str] = &["a", "b", "name", "type"];
    const WORDS: &[&str] = &[
        "string",
        "number",
        "integer",
        "boolean",
        "array",
        "object",
        "email",
        "uri",
        "date",
        "date-time",
        "a",
        "b",
        "2025-01-31",
    ];
    let word = || proptest::sample::select(WORDS).prop_map(Value::from);
    let words = || proptest::collection::vec(word(), 0..4).prop_map(Value::Array);
    let options = || {
        let option = word().prop_map(|w| json!({"const": w, "title": w}));
        proptest::collection::vec(option, 0..4).prop_map(Value::Array)
    };
    let count = || (0..4u64).prop_map(Value::from);
    let optional = |key: &'static str, value: BoxedStrategy<Value>| {
        proptest::option::weighted(0.3, value.prop_map(move |v| (key, v))).boxed()
    };
    let value = || prop_oneof![leaf(WORDS), words()].boxed();
    let field = (
        proptest::sample::select(&WORDS[..5]),
        vec![
            optional("minLength", count().boxed()),
            optional("maxLength", count().boxed()),
            optional("format", word().boxed()),
            optional("minimum", leaf(WORDS).boxed()),
            optional("maximum", leaf(WORDS).boxed()),
            optional("default", value()),
            optional("enum", words().boxed()),
            optional("enumNames", words().boxed()),
            optional("oneOf", options().boxed()),
            optional("minItems", count().boxed()),
            optional("maxItems", count().boxed()),
            optional(
                "items",
                prop_oneof![
                    words().prop_map(|e| json!({"type": "string", "enum": e})),
                    options().prop_map(|o| json!({"anyOf": o})),
                ]
                .boxed(),
            ),
        ],
    )
        .prop_map(|(kind, members)| {
            let mut field = json!({"type": kind});
            for (key, value) in members.into_iter().flatten() {
                field[key] = value;
            }
            field
        });
    let field = changed(field, KEYS, tree(KEYS, leaf(WORDS)));
    let names = proptest::collection::vec(proptest::sample::select(NAMES), 0..3);
    let schema = (members(NAMES, field, 0..5), names).prop_map(|(properties, required)| {
        json!({"type": "object", "properties": properties, "required": required})
    });
    let answer = members(NAMES, value(), 0..5);
    (written(schema), written(answer))
}

/// A schema that parses writes back the same, and checks its defaults and any answer
/// without panicking, naming only fields it knows of or was given.
fn check_schema(schema: &[u8], answer: &[u8]) -> TestCaseResult {
    let Ok(schema) = serde_json::from_slice::<ElicitationSchema>(schema) else {
        return Ok(());
    };
    let written = serde_json::to_value(&schema).expect("a schema serializes");
    let again: ElicitationSchema =
        serde_json::from_value(written.clone()).expect("a written schema reads back");
    prop_assert_eq!(serde_json::to_value(&again).expect("serializes"), written);
    let defaults = schema.defaults();
    prop_assert!(
        defaults
            .keys()
            .all(|name| schema.properties.get(name).is_some())
    );
    check_answer(&schema, &defaults)?;
    if let Ok(answer) = serde_json::from_slice::<ElicitContent>(answer) {
        check_answer(&schema, &answer)?;
    }
    Ok(())
}

fn check_answer(schema: &ElicitationSchema, answer: &ElicitContent) -> TestCaseResult {
    let known = |name: &str| schema.properties.get(name).is_some();
    match schema.validate(answer) {
        Ok(()) => {
            prop_assert!(answer.keys().all(|name| known(name)));
            prop_assert!(
                schema
                    .required
                    .iter()
                    .flatten()
                    .all(|r| answer.contains_key(r))
            );
        }
        Err(errors) => {
            prop_assert!(!errors.is_empty());
            for e in errors {
                let field = e.field.as_str();
                prop_assert!(
                    known(field) || schema.is_required(field) || answer.contains_key(field)
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn frames_fail_or_read_back_the_same(frame in frame()) {
        check_frame(&frame)?;
    }

    #[test]
    fn schemas_read_back_the_same_and_check_any_answer((schema, answer) in schema_and_answer()) {
        check_schema(&schema, &answer)?;
    }
}

#[test]
#[ignore = "long: see the module comment"]
fn fuzz_frames() {
    fuzz("frames", frame(), |frame| check_frame(&frame));
}

#[test]
#[ignore = "long: see the module comment"]
fn fuzz_elicitation_schema() {
    fuzz(
        "elicitation schema",
        schema_and_answer(),
        |(schema, answer)| check_schema(&schema, &answer),
    );
}

/// A `WWW-Authenticate` value of a few challenges, written as RFC 9110 allows (tokens or
/// quoted strings, optional whitespace, empty list elements, token68 credentials), and the
/// challenge its Bearer parameters make (the later of a name given twice counting); or
/// arbitrary text, with no challenge expected.
fn www_authenticate() -> impl Strategy<Value = (String, Option<Challenge>)> {
    const SCHEMES: &[&str] = &["Bearer", "bearer", "BEARER", "Basic", "DPoP", "Negotiate"];
    const NAMES: &[&str] = &[
        "resource_metadata",
        "Resource_Metadata",
        "scope",
        "SCOPE",
        "error",
        "error_description",
        "realm",
        "x",
    ];
    const VALUES: &[&str] = &[
        "https://mcp.example.com/.well-known/oauth-protected-resource",
        "files:read files:write",
        "invalid_token",
        "insufficient_scope",
        "",
        " ",
        "a\"b",
        "a\\b\\",
        "x, Bearer error=x",
        "=",
        "x=y",
        "é",
        "\t",
    ];
    const TOKEN68: &[&str] = &["dXNlcjpwYXNz", "abc==", "a/b+c="];
    const OWS: &[&str] = &["", " ", "  ", "\t"];
    let ows = || proptest::sample::select(OWS);
    let value = prop_oneof![
        3 => proptest::sample::select(VALUES).prop_map(str::to_owned),
        1 => "[ -~]{0,8}",
        1 => "\\PC{0,4}",
    ];
    let param = (
        proptest::sample::select(NAMES),
        value,
        any::<bool>(),
        ows(),
        ows(),
        ows(),
    );
    let challenge = (
        proptest::sample::select(SCHEMES),
        proptest::option::weighted(0.1, proptest::sample::select(TOKEN68)),
        proptest::collection::vec(param, 0..4),
        proptest::sample::select(&[" ", "  "][..]),
    );
    let written = (
        proptest::collection::vec((challenge, ows(), any::<bool>()), 0..4),
        ows(),
    )
        .prop_map(|(challenges, end)| {
            let mut header = String::new();
            let mut expected = Challenge::default();
            for ((scheme, token68, params, space), ows, empty_element) in challenges {
                if !header.is_empty() {
                    header += if empty_element { ", ," } else { "," };
                    header += ows;
                }
                header += scheme;
                // RFC 6750 and RFC 9449 (§7.1) give a Bearer or DPoP challenge parameters,
                // never a token68: both are read.
                let read =
                    scheme.eq_ignore_ascii_case("bearer") || scheme.eq_ignore_ascii_case("dpop");
                if let Some(token68) = token68.filter(|_| !read) {
                    header += space;
                    header += token68;
                    continue;
                }
                for (at, (name, value, quote, before, after, next)) in params.iter().enumerate() {
                    header += if at == 0 { space } else { "," };
                    header += next;
                    header += &format!("{name}{before}={after}{}", http_value(value, *quote));
                    if read {
                        set_parameter(&mut expected, name, value);
                    }
                }
            }
            (format!("{header}{end}"), Some(expected))
        });
    let bytes = prop_oneof![
        soup(&[
            b"Bearer",
            b"Basic",
            b" ",
            b"\t",
            b",",
            b"=",
            b"\"",
            b"\\",
            b"scope",
            b"error",
            b"resource_metadata",
            b"error_description",
            b"insufficient_scope",
            b"\xc3\xa9",
        ]),
        mutated(written.clone().prop_map(|(header, _)| header.into_bytes())),
    ]
    .prop_map(|bytes| (String::from_utf8_lossy(&bytes).into_owned(), None));
    prop_oneof![3 => written, 1 => bytes]
}

/// A parameter's value as RFC 9110 writes it: a token as it is (when asked to and it is
/// one), anything else as a quoted string.
fn http_value(value: &str, quote: bool) -> String {
    let tchar = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if !quote && !value.is_empty() && value.chars().all(tchar) {
        return value.to_owned();
    }
    let escaped: String = value
        .chars()
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            _ => vec![c],
        })
        .collect();
    format!("\"{escaped}\"")
}

/// A Bearer parameter set as [`Challenge::parse`] documents it.
fn set_parameter(challenge: &mut Challenge, name: &str, value: &str) {
    match name.to_ascii_lowercase().as_str() {
        "resource_metadata" => challenge.resource_metadata = Some(value.to_owned()),
        "scope" => {
            let scopes: Vec<String> = value.split_whitespace().map(str::to_owned).collect();
            challenge.scope = (!scopes.is_empty()).then_some(scopes);
        }
        "error" => challenge.error = Some(value.to_owned()),
        "error_description" => challenge.error_description = Some(value.to_owned()),
        _ => {}
    }
}

/// A header of challenges reads as the parameters written in its Bearer ones; any other
/// text reads as some challenge, without panicking.
fn check_challenge(header: &str, expected: Option<&Challenge>) -> TestCaseResult {
    let challenge = Challenge::parse(header);
    if let Some(expected) = expected {
        prop_assert_eq!(&challenge, expected, "{:?}", header);
    }
    if let Some(scope) = &challenge.scope {
        prop_assert!(!scope.is_empty());
        prop_assert!(
            scope
                .iter()
                .all(|s| !s.is_empty() && !s.contains(char::is_whitespace))
        );
    }
    Ok(())
}

/// Texts an argument or a header may hold: the sentinel's pieces, whitespace at the ends,
/// controls, non-ASCII, base64 of each.
const HEADER_TEXTS: &[&str] = &[
    "us-west1",
    "=?base64?",
    "?=",
    "=?base64?=",
    "=?base64??=",
    "=?base64?SGVsbG8=?=",
    "=?base64?SGVsbG8?=",
    " padded ",
    "a\tb",
    "\t",
    "line1\nline2",
    "\u{7f}",
    "Hello, 世界",
    "",
];

/// A marked input schema (marks of every kind, valid or not, in reach of the root or not),
/// its call's arguments, a text to encode, and header bytes (near-valid encodings or not).
fn tool_call_and_header() -> impl Strategy<Value = (Value, Value, String, Vec<u8>)> {
    const PROPERTIES: &[&str] = &["region", "n", "on", "deep"];
    const TYPES: &[&str] = &["string", "integer", "boolean", "number", "object", "array"];
    const MARKS: &[&str] = &[
        "Region",
        "region",
        "N",
        "On",
        "x!#$%&'*+-.^_`|~",
        "A B",
        "",
        "Ré",
    ];
    let text = || {
        prop_oneof![
            2 => proptest::sample::select(HEADER_TEXTS).prop_map(str::to_owned),
            1 => "[ -~]{0,12}",
            1 => "\\PC{0,6}",
            1 => any::<String>(),
        ]
    };
    let property = (
        proptest::sample::select(TYPES),
        proptest::option::weighted(0.6, proptest::sample::select(MARKS)),
    )
        .prop_map(|(kind, mark)| {
            let mut schema = json!({"type": kind});
            if let Some(mark) = mark {
                schema["x-mcp-header"] = mark.into();
            }
            schema
        });
    let property = property.prop_recursive(2, 12, 3, |inner| {
        (
            inner.clone(),
            members(PROPERTIES, inner.clone(), 0..3),
            proptest::option::weighted(0.2, inner),
        )
            .prop_map(|(mut schema, properties, items)| {
                schema["properties"] = properties;
                if let Some(items) = items {
                    schema["items"] = items;
                }
                schema
            })
    });
    let schema = members(PROPERTIES, property, 0..4)
        .prop_map(|properties| json!({"type": "object", "properties": properties}));
    let argument = prop_oneof![
        3 => text().prop_map(Value::from),
        2 => leaf(HEADER_TEXTS),
        1 => proptest::sample::select(&[9_007_199_254_740_993, -(1_i64 << 53), 0][..])
            .prop_map(Value::from),
    ];
    let arguments = tree(PROPERTIES, argument);
    let header = prop_oneof![
        soup(&[
            b"=?base64?",
            b"?=",
            b"SGVsbG8=",
            b"=",
            b" ",
            b"\t",
            b"+",
            b"/",
            b"A",
            b"\xc3\xa9",
            b"\x7f",
            b"42",
            b"-7",
            b".0",
        ]),
        mutated(text().prop_map(|text| encode_value(&text).into_bytes())),
    ];
    (schema, arguments, text(), header)
}

/// A text encodes to a header value that decodes to it; a header is taken for an argument
/// exactly when it decodes to the argument's text; the headers a client writes for a call
/// are valid HTTP and taken by a server.
fn check_param_headers_of(
    schema: &Value,
    arguments: &Value,
    text: &str,
    header: &[u8],
) -> TestCaseResult {
    let encoded = encode_value(text);
    prop_assert!(HeaderValue::from_str(&encoded).is_ok(), "{:?}", encoded);
    prop_assert_eq!(decode_value(&encoded), Some(text.to_owned()));

    let region = Mark {
        name: "Region".into(),
        path: vec!["deep".into(), "region".into()],
    };
    if let Ok(sent) = HeaderValue::from_bytes(header) {
        let decoded = sent.to_str().ok().and_then(decode_value);
        let argument = json!({"deep": {"region": decoded.clone().unwrap_or_default()}});
        let headers = HeaderMap::from_iter([(HeaderName::from_static("mcp-param-region"), sent)]);
        let taken = check_param_headers(&[region], Some(&argument), &headers);
        prop_assert_eq!(taken.is_ok(), decoded.is_some(), "{:?}", taken);
    }

    let Ok(marks) = marks_of(schema) else {
        return Ok(());
    };
    let names: std::collections::HashSet<String> =
        marks.iter().map(|m| m.name.to_ascii_lowercase()).collect();
    prop_assert_eq!(names.len(), marks.len());
    let mut headers = HeaderMap::new();
    for (name, value) in param_headers(&marks, Some(arguments)) {
        let name = HeaderName::from_bytes(name.as_bytes());
        let value = HeaderValue::from_str(&value);
        prop_assert!(name.is_ok() && value.is_ok(), "{:?} {:?}", name, value);
        headers.append(name.expect("checked"), value.expect("checked"));
    }
    prop_assert_eq!(
        check_param_headers(&marks, Some(arguments), &headers),
        Ok(())
    );
    Ok(())
}

/// An id as a peer may write one: integers at the edges, strings with escapes, quotes,
/// braces and non-ASCII, and values that are no id.
pub(crate) fn id_value() -> impl Strategy<Value = Value> + Clone {
    prop_oneof![
        3 => proptest::sample::select(&[0, 1, -1, 7, i64::MIN, i64::MAX][..]).prop_map(Value::from),
        3 => proptest::sample::select(&["", "1", "id", "\"id\":1", "a\\\"b\\", "é", "\u{0}", "}"][..])
            .prop_map(Value::from),
        1 => "\\PC{0,6}".prop_map(Value::from),
        1 => proptest::sample::select(vec![
            Value::Null, json!(u64::MAX), json!(1.5), json!(-0.0), json!([1]), json!({"id": 1}),
        ]),
    ]
}

/// A message written member by member, in any order, with whitespace of any kind: a
/// member perhaps twice, an `id` key escaped, `id`s, progress tokens and request ids inside
/// params and results. With the offset of the separator before its last top-level `id`
/// member, if it has one.
pub(crate) fn message_text() -> impl Strategy<Value = (String, Option<usize>)> + Clone {
    const KEYS: &[&str] = &["id", "progressToken", "_meta", "requestId", "name", "text"];
    const METHODS: &[&str] = &[
        "tools/call",
        "initialize",
        "notifications/progress",
        "notifications/cancelled",
        "notifications/message",
    ];
    let id = id_value();
    let inner = tree(KEYS, prop_oneof![id.clone(), leaf(&["id", "\"id\":"])]).boxed();
    let member = prop_oneof![
        1 => Just(("jsonrpc", json!("2.0"))),
        2 => id.clone().prop_map(|id| ("id", id)),
        1 => proptest::sample::select(METHODS).prop_map(|m| ("method", json!(m))),
        2 => inner.clone().prop_map(|params| ("params", params)),
        2 => members(KEYS, inner.clone(), 0..4).prop_map(|params| ("params", params)),
        1 => inner.prop_map(|result| ("result", result)),
        1 => Just(("error", json!({"code": -32601, "message": "no", "data": {"id": 2}}))),
    ];
    let spaced = |choices: &'static [&'static str]| proptest::sample::select(choices);
    let members = proptest::collection::vec(
        (
            member,
            any::<bool>(),
            spaced(&["", " ", "\n\t "]),
            spaced(&[":", " : "]),
        ),
        0..6,
    );
    (members, spaced(&["", " ", "\r"])).prop_map(|(members, end)| {
        let mut text = String::from("{");
        let mut last_id = None;
        for (at, ((key, value), escaped, space, colon)) in members.into_iter().enumerate() {
            if at > 0 {
                text.push(',');
            }
            if key == "id" {
                last_id = Some(text.len() - 1);
            }
            text += space;
            text += &match key {
                "id" if escaped => r#""\u0069d""#.to_owned(),
                _ => serde_json::to_string(key).expect("a key is JSON"),
            };
            text += colon;
            text += &serde_json::to_string(&value).expect("a member is JSON");
        }
        text.push('}');
        text += end;
        (text, last_id)
    })
}

/// A message, perhaps with a few bytes changed, or bytes of JSON tokens; and where the
/// end kept of it starts.
fn message_and_cut() -> impl Strategy<Value = ((String, Option<usize>), Index)> {
    let text = prop_oneof![
        3 => message_text(),
        1 => mutated(message_text().prop_map(|(text, _)| text.into_bytes()))
            .prop_map(|bytes| (String::from_utf8_lossy(&bytes).into_owned(), None)),
        1 => soup(&[
            b"{", b"}", b"[", b"]", b":", b",", b" ", b"\"id\"", b"\"", b"\\", b"1", b"\"a\"",
            b"null", b"\"\\u0069d\"",
        ])
        .prop_map(|bytes| (String::from_utf8_lossy(&bytes).into_owned(), None)),
    ];
    (text, any::<Index>())
}

/// The id a full parse of a message finds, whether it reads or not.
pub(crate) fn full_id(text: &str) -> Option<RequestId> {
    match Frame::decode(text).items.into_iter().next()? {
        Ok(Message::Request(r)) => Some(r.id),
        Ok(Message::Response(r)) => Some(r.id),
        Ok(_) => None,
        Err(unreadable) => unreadable.id,
    }
}

/// The id read from the end of a JSON object is none or the one a full parse finds; from
/// the whole message, or an end that holds its last `id` member, it is the one.
fn check_trailing_id(text: &str, last_id: Option<usize>, cut: Index) -> TestCaseResult {
    let trailing = |tail: &[u8]| {
        let error = FrameError::TooLarge { bytes: 0, limit: 0 };
        Unreadable::of_ends(&[], tail, error).id
    };
    let start = cut.index(text.len() + 1);
    let found = trailing(&text.as_bytes()[start..]);
    // A full parse says nothing of text the JSON parser refuses (a number out of range).
    let object = serde_json::from_str::<Value>(text).is_ok_and(|v| v.is_object());
    if !object {
        return Ok(());
    }
    let full = full_id(text);
    prop_assert!(
        found.is_none() || found == full,
        "{:?} from {:?}",
        found,
        &text[start..]
    );
    prop_assert_eq!(&trailing(text.as_bytes()), &full);
    if last_id.is_some_and(|at| start <= at) {
        prop_assert_eq!(&found, &full, "from {:?}", &text[start..]);
    }
    Ok(())
}

proptest! {
    #![proptest_config(Config::with_cases(1_000))]

    #[test]
    fn a_challenge_reads_as_its_bearer_parameters((header, expected) in www_authenticate()) {
        check_challenge(&header, expected.as_ref())?;
    }

    #[test]
    fn header_values_round_trip_and_are_taken_when_they_decode(
        (schema, arguments, text, header) in tool_call_and_header(),
    ) {
        check_param_headers_of(&schema, &arguments, &text, &header)?;
    }

    #[test]
    fn the_id_at_the_end_of_a_message_is_the_one_it_has(
        ((text, last_id), cut) in message_and_cut(),
    ) {
        check_trailing_id(&text, last_id, cut)?;
    }
}

#[test]
#[ignore = "long: see the module comment"]
fn fuzz_www_authenticate() {
    fuzz(
        "WWW-Authenticate",
        www_authenticate(),
        |(header, expected)| check_challenge(&header, expected.as_ref()),
    );
}

#[test]
#[ignore = "long: see the module comment"]
fn fuzz_param_headers() {
    fuzz(
        "Mcp-Param headers",
        tool_call_and_header(),
        |(schema, arguments, text, header)| {
            check_param_headers_of(&schema, &arguments, &text, &header)
        },
    );
}

#[test]
#[ignore = "long: see the module comment"]
fn fuzz_trailing_id() {
    fuzz(
        "trailing id",
        message_and_cut(),
        |((text, last_id), cut)| check_trailing_id(&text, last_id, cut),
    );
}
