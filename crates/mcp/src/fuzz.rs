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

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed, TestCaseResult, TestRunner};
use serde_json::{Value, json};

use crate::jsonrpc::{ErrorObject, Message, RequestId};
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
