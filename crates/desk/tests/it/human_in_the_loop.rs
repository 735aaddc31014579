//! The person in the loop, end to end through the host with a real server (the Python SDK
//! peer): tool calls approved with edited arguments, denied, or remembered; a sampling
//! request answered; a form answered after a wrong answer; roots chosen once. Every
//! decision lands in the audit log.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::time::Duration;

use serde_json::{Map, Value, json};
use switchboard_core::approvals::{Answer, Question, Remember};
use switchboard_core::audit::Kind;
use switchboard_core::decisions::{Origin, Outcome};
use switchboard_core::gate::{CallError, Callee};
use switchboard_core::policy::RuleOf;
use switchboard_mcp::types::{
    CallToolResult, CreateMessageResult, ElicitContent, ElicitResult, ElicitValue, Role,
    SamplingContent,
};

use crate::common;

type World = common::GatedHost;

/// The Python SDK peer running as "py" (allowances remembered in the configuration file of
/// the test's folder).
async fn world() -> World {
    let server = serde_json::from_value(common::python_peer()).unwrap();
    common::gated_host("hitl", Duration::from_secs(30), "py", server).await
}

impl World {
    /// Starts a tool call through the gate in the background, as a model would: the
    /// person is asked.
    fn call(
        &self,
        tool: &str,
        arguments: Value,
    ) -> tokio::task::JoinHandle<Result<CallToolResult, CallError>> {
        let client = self.host.client("py").expect("running");
        let tool = self
            .host
            .catalog()
            .tool(&format!("py__{tool}"))
            .expect("in the catalog")
            .tool;
        let gate = self.gate.clone();
        let server = self.server.clone();
        let arguments: Map<String, Value> = arguments.as_object().cloned().unwrap_or_default();
        tokio::spawn(async move {
            let callee = Callee::of("py", &server);
            gate.call(
                &Origin::Model {
                    conversation: "c1".to_owned(),
                    title: "Tidy the notes".to_owned(),
                },
                &client,
                &callee,
                &tool,
                arguments,
                client.request_options(),
            )
            .await
        })
    }

    async fn audit(&self) -> Vec<(Kind, String, String, String)> {
        self.gate
            .audit()
            .page(None, 50)
            .await
            .unwrap()
            .into_iter()
            .rev()
            .map(|r| {
                (
                    r.record.kind,
                    r.record.subject,
                    r.record.decision,
                    r.record.decided_by.to_string(),
                )
            })
            .collect()
    }
}

fn text(result: &CallToolResult) -> &str {
    result.content[0].as_text().expect("text")
}

fn args(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap()
}

#[tokio::test]
async fn tool_calls_are_approved_with_edits_denied_or_remembered() {
    let mut world = world().await;
    let call = world.call("echo", json!({"text": "as the model wrote it"}));
    let question = world.asked().await;
    assert_eq!(question.server, "py");
    let Question::ToolCall {
        tool, arguments, ..
    } = &question.question
    else {
        panic!("{question:?}")
    };
    assert_eq!(
        (tool.as_str(), arguments),
        ("echo", &args(json!({"text": "as the model wrote it"})))
    );
    let edited = Answer::ToolCall {
        allow: true,
        arguments: args(json!({"text": "as I corrected it"})),
        remember: Remember::Once,
    };
    world
        .gate
        .broker()
        .answer(question.id, "py", edited)
        .unwrap();
    assert_eq!(text(&call.await.unwrap().unwrap()), "as I corrected it");

    let call = world.call("echo", json!({"text": "again"}));
    let question = world.asked().await;
    let deny = Answer::ToolCall {
        allow: false,
        arguments: Map::new(),
        remember: Remember::Once,
    };
    world.gate.broker().answer(question.id, "py", deny).unwrap();
    assert!(matches!(call.await.unwrap(), Err(CallError::Denied { .. })));

    let call = world.call("add", json!({"a": 1, "b": 2}));
    let question = world.asked().await;
    let always = Answer::ToolCall {
        allow: true,
        arguments: args(json!({"a": 1, "b": 2})),
        remember: Remember::ToolAlways,
    };
    world
        .gate
        .broker()
        .answer(question.id, "py", always)
        .unwrap();
    call.await.unwrap().unwrap();
    // The next call of that tool is not asked.
    let result = world
        .call("add", json!({"a": 20, "b": 22}))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(result.structured_content, Some(json!({"sum": 42})));
    assert!(world.gate.broker().pending().is_empty());
    // "Always" is kept in the configuration file, and revoking it removes it there too.
    let path = world.dir.path().join("config.json");
    let kept = switchboard_core::config::load(&path)
        .unwrap()
        .settings
        .tool_rules;
    let [rule] = &kept[..] else {
        panic!("one rule kept: {kept:?}")
    };
    assert_eq!(
        (&rule.server[..], rule.tool.as_deref(), rule.allow),
        ("py", Some("add"), true)
    );
    assert_eq!(
        rule.identity,
        world.server.identity(),
        "pinned to the server"
    );
    let pinned = rule.definition.as_ref().expect("pinned to the tool");
    assert_eq!(pinned.name, "add");
    assert!(pinned.input_schema["properties"]["a"].is_object());
    assert_eq!(
        world.audit().await,
        [
            (
                Kind::ToolCall,
                "echo".into(),
                "allowed".into(),
                "user".into()
            ),
            (
                Kind::ToolCall,
                "echo".into(),
                "denied".into(),
                "user".into()
            ),
            (
                Kind::ToolCall,
                "add".into(),
                "allowed".into(),
                "user".into()
            ),
            (
                Kind::ToolCall,
                "add".into(),
                "allowed".into(),
                "policy: allowed for this tool, always".into()
            ),
        ]
    );
    world
        .gate
        .revoke("py", &RuleOf::Tool("add".into()), None)
        .await;
    assert!(
        switchboard_core::config::load(&path)
            .unwrap()
            .settings
            .tool_rules
            .is_empty()
    );
    let first = world
        .gate
        .audit()
        .page(None, 50)
        .await
        .unwrap()
        .pop()
        .unwrap();
    assert_eq!(first.record.outcome, Outcome::Succeeded);
    assert_eq!(
        first.record.detail,
        json!({"text": "as I corrected it"}),
        "the audit keeps what was really sent"
    );
    assert_eq!(
        first.asked_by, "model in conversation “Tidy the notes”",
        "the audit names who asked"
    );
    world.host.shutdown().await;
}

#[tokio::test]
async fn sampling_forms_and_roots_wait_for_the_person() {
    let mut world = world().await;
    // Sampling: the request shows what the server asks; the reply is the person's.
    let call = world.call("ask_model", json!({"prompt": "Capital of France?"}));
    let approve = world.asked().await;
    world
        .gate
        .broker()
        .answer(
            approve.id,
            "py",
            Answer::ToolCall {
                allow: true,
                arguments: args(json!({"prompt": "Capital of France?"})),
                remember: Remember::ToolForSession,
            },
        )
        .unwrap();
    let sampling = world.asked().await;
    let Question::Sampling { params } = &sampling.question else {
        panic!("{sampling:?}")
    };
    assert_eq!(params.system_prompt.as_deref(), Some("Be brief."));
    let reply = CreateMessageResult::new(
        Role::Assistant,
        SamplingContent::text("Paris."),
        "written by the person",
    );
    world
        .gate
        .broker()
        .answer(sampling.id, "py", Answer::Sampling(Ok(Box::new(reply))))
        .unwrap();
    assert_eq!(text(&call.await.unwrap().unwrap()), "model said: Paris.");

    // A form answer that does not fit the form is refused before it reaches the server.
    let call = world.call("ask_form", json!({}));
    let approve = world.asked().await;
    world
        .gate
        .broker()
        .answer(
            approve.id,
            "py",
            Answer::ToolCall {
                allow: true,
                arguments: Map::new(),
                remember: Remember::Once,
            },
        )
        .unwrap();
    let form = world.asked().await;
    let bad: ElicitContent = [("name".to_owned(), ElicitValue::from("A"))].into();
    world
        .gate
        .broker()
        .answer(
            form.id,
            "py",
            Answer::Elicitation(Box::new(ElicitResult::accepted(Some(bad)))),
        )
        .unwrap();
    let refused = call.await.unwrap().unwrap();
    assert!(
        text(&refused).starts_with("elicitation failed:"),
        "{refused:?}"
    );

    // Roots: asked once; the choice then stands.
    let folder = tempfile::tempdir().unwrap();
    for asked in [true, false] {
        let call = world.call("list_roots", json!({}));
        if asked {
            let approve = world.asked().await;
            world
                .gate
                .broker()
                .answer(
                    approve.id,
                    "py",
                    Answer::ToolCall {
                        allow: true,
                        arguments: Map::new(),
                        remember: Remember::ToolForSession,
                    },
                )
                .unwrap();
            let roots = world.asked().await;
            assert_eq!(roots.question, Question::Roots);
            world
                .roots
                .grant("py", &[folder.path().to_owned()])
                .unwrap();
            world
                .gate
                .broker()
                .answer(roots.id, "py", Answer::Roots(world.roots.of("py")))
                .unwrap();
        }
        let listed = call.await.unwrap().unwrap();
        let canonical = folder.path().canonicalize().unwrap();
        assert_eq!(text(&listed), format!("file://{}", canonical.display()));
    }
    let kinds: Vec<(Kind, String, String)> = world
        .audit()
        .await
        .into_iter()
        .filter(|a| a.0 != Kind::ToolCall)
        .map(|a| (a.0, a.2, a.3))
        .collect();
    let row = |kind, decision: &str, by: &str| (kind, decision.to_owned(), by.to_owned());
    assert_eq!(
        kinds,
        [
            row(Kind::Sampling, "approved", "user"),
            row(Kind::Elicitation, "invalid answer", "user"),
            row(Kind::Roots, "shared", "user"),
            // The choice that stands is recorded each time it answers.
            row(Kind::Roots, "shared", "remembered answer"),
        ]
    );
    world.host.shutdown().await;
}
