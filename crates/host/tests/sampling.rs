//! Sampling answered by a model, through the desk: the demo server's `ask_model` asks, the
//! stand-in provider (the real wire protocols on 127.0.0.1) drafts, the person edits and
//! sends, and the server's tool result shows what they sent. The model is chosen from the
//! server's hints; the provider receives the server's system prompt, token limit,
//! temperature and stop sequences; a provider's refusal is said in its words and the
//! person may still write the reply; a server allowed "without review" gets the model's
//! reply with no question asked, audited as such, until the permission is revoked; and
//! with no provider the person writes the reply as before.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

mod common;

use common::{DemoDesk, StandInProvider, demo_allowed, demo_server, desk_in, text_of};
use serde_json::{Value, json};
use switchboard_host::approvals::Question;
use switchboard_host::desk::DeskError;
use switchboard_host::secrets::Secrets;

/// A desk with the demo server and, if `provider` is given, two providers that reach it:
/// "standin" (OpenAI protocol, the default, models `gpt-test` and `gpt-test-mini`) and
/// "claude" (Anthropic protocol, model `claude-test`).
async fn desk(provider: Option<&StandInProvider>) -> DemoDesk {
    let dir = tempfile::tempdir().unwrap();
    // The person called ask_model: the call itself is theirs, allowed.
    let mut file = json!({
        "mcpServers": {"demo": {"command": demo_server().display().to_string()}},
        "settings": {"toolRules": [demo_allowed()]},
    });
    if let Some(provider) = provider {
        file["providers"] = json!({
            "standin": {"protocol": "openai", "baseUrl": format!("{}/v1", provider.url),
                        "models": ["gpt-test", "gpt-test-mini"], "defaultModel": "gpt-test"},
            "claude": {"protocol": "anthropic", "baseUrl": provider.url, "models": ["claude-test"]},
        });
        file["settings"]["defaultProvider"] = json!("standin");
    }
    std::fs::write(dir.path().join("config.json"), file.to_string()).unwrap();
    let mut world = desk_in(dir, Secrets::new("switchboard-test-sampling"));
    world.desk.start().await;
    world.running(&["demo"]).await;
    world
}

fn answer_turn(text: &str) -> Value {
    json!({"content": [{"text": text, "pieces": 3}]})
}

/// The text of a reply as the person sends it, edited from the draft.
fn edited(draft: &Value, text: &str) -> Value {
    let mut reply = draft.clone();
    reply["content"] = json!({"type": "text", "text": text});
    reply
}

/// The last chat request the stand-in received.
async fn last_request(provider: &StandInProvider) -> Value {
    let requests = provider.requests().await;
    requests
        .into_iter()
        .rev()
        .find(|r| r["method"] == "POST")
        .expect("the provider was asked")
}

#[tokio::test]
async fn the_model_drafts_from_the_hint_and_the_persons_edit_reaches_the_server() {
    let provider =
        StandInProvider::start(json!({"turns": [answer_turn("Paris, of course.")]})).await;
    let mut world = desk(Some(&provider)).await;
    let call = world.call(
        "ask_model",
        json!({"question": "Capital of France?", "model_hint": "claude",
               "temperature": 0.25, "stop": "###"}),
        "t1",
    );
    let asked = world.asked().await;
    assert!(matches!(asked.question, Question::Sampling { .. }));

    let draft = world
        .desk
        .draft_sampling(asked.id, "demo", None)
        .await
        .unwrap()
        .expect("a provider is configured");
    assert_eq!(
        (draft.provider.as_str(), draft.model.as_str()),
        ("claude", "claude-test")
    );
    assert_eq!(draft.result["content"]["text"], "Paris, of course.");
    assert_eq!(draft.result["stopReason"], "endTurn");
    assert_eq!(draft.result["role"], "assistant");

    // The hint chose the Anthropic provider, which got the server's parameters.
    let request = last_request(&provider).await;
    assert_eq!(request["path"], "/v1/messages");
    let body = &request["body"];
    assert_eq!(body["model"], "claude-test");
    assert!(
        body["system"].as_str().unwrap().contains("demo server"),
        "{body}"
    );
    assert_eq!(body["max_tokens"], 200);
    assert_eq!(body["temperature"], 0.25);
    assert_eq!(body["stop_sequences"], json!(["###"]));
    assert_eq!(
        body["messages"][0]["content"][0]["text"],
        "Capital of France?"
    );

    // A draft is only a draft: the request still waits for the person.
    assert!(world.desk.pending().iter().any(|p| p.id == asked.id));
    let reply = edited(&draft.result, "Paris (edited by me).");
    world
        .desk
        .answer_sampling(asked.id, "demo", Some(reply))
        .unwrap();
    let result = call.await.unwrap().unwrap();
    assert_eq!(text_of(&result), "Paris (edited by me).");
}

#[tokio::test]
async fn a_provider_refusal_is_said_in_its_words_and_the_person_can_still_answer() {
    let provider = StandInProvider::start(json!({"turns": [
        {"error": {"kind": "rate_limited", "retry_after": "7", "message": "slow down please"}}
    ]}))
    .await;
    let mut world = desk(Some(&provider)).await;
    let call = world.call("ask_model", json!({"question": "Hi?"}), "t1");
    let asked = world.asked().await;
    let err = world
        .desk
        .draft_sampling(asked.id, "demo", None)
        .await
        .unwrap_err();
    assert!(matches!(err, DeskError::Provider(_)), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("slow down please"), "{message}");
    assert!(message.contains('7'), "the wait is said: {message}");

    // The default model (no hint) was asked, through the OpenAI protocol.
    let request = last_request(&provider).await;
    assert_eq!(request["path"], "/v1/chat/completions");
    assert_eq!(request["body"]["model"], "gpt-test");

    let reply = json!({"role": "assistant", "model": "me",
                       "content": {"type": "text", "text": "Written by hand."}});
    world
        .desk
        .answer_sampling(asked.id, "demo", Some(reply))
        .unwrap();
    assert_eq!(text_of(&call.await.unwrap().unwrap()), "Written by hand.");
}

#[tokio::test]
async fn a_server_allowed_without_review_gets_the_models_reply_until_revoked() {
    let provider = StandInProvider::start(json!({"turns": [
        answer_turn("Sent without asking."),
        answer_turn("A draft for review."),
    ]}))
    .await;
    let mut world = desk(Some(&provider)).await;
    world
        .desk
        .allow_sampling_without_review("demo")
        .await
        .unwrap();
    let rules = world.desk.sampling_rules().await;
    assert_eq!(rules.len(), 1);
    assert!(rules[0].holds);
    assert_eq!(
        world.file()["settings"]["samplingRules"][0]["server"],
        "demo"
    );

    let result = world
        .call("ask_model", json!({"question": "Anything?"}), "t1")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(text_of(&result), "Sent without asking.");
    assert!(world.desk.pending().is_empty(), "no one was asked");
    let audit = world.desk.audit(None, 10).await.unwrap();
    let sampled = audit.iter().find(|e| e.kind == "sampling").unwrap();
    assert_eq!(sampled.decision, "approved");
    assert!(sampled.decided_by.contains("without review"), "{sampled:?}");
    assert_eq!(world.desk.sampling_rules().await[0].uses, 1.0);

    world.desk.revoke_sampling_rule("demo").await.unwrap();
    assert!(world.desk.sampling_rules().await.is_empty());
    let call = world.call("ask_model", json!({"question": "Again?"}), "t2");
    let asked = world.asked().await;
    assert!(matches!(asked.question, Question::Sampling { .. }));
    world.desk.answer_sampling(asked.id, "demo", None).unwrap();
    let declined = call.await.unwrap().unwrap();
    assert!(text_of(&declined).contains("declined"), "{declined}");
}

#[tokio::test]
async fn with_no_provider_the_person_writes_the_reply() {
    let mut world = desk(None).await;
    // A permission without a model to answer asks the person all the same.
    world
        .desk
        .allow_sampling_without_review("demo")
        .await
        .unwrap();
    let call = world.call("ask_model", json!({"question": "Capital of Peru?"}), "t1");
    let asked = world.asked().await;
    assert_eq!(
        world
            .desk
            .draft_sampling(asked.id, "demo", None)
            .await
            .unwrap(),
        None
    );
    let reply = json!({"role": "assistant", "model": "me",
                       "content": {"type": "text", "text": "Lima."}});
    world
        .desk
        .answer_sampling(asked.id, "demo", Some(reply))
        .unwrap();
    assert_eq!(text_of(&call.await.unwrap().unwrap()), "Lima.");
}

#[tokio::test]
async fn with_tools_the_model_reads_the_servers_clock_in_the_loop_the_server_runs() {
    let provider = StandInProvider::start(json!({"turns": [
        {"content": [{"tool_call": {"name": "clock", "arguments": {}}}]},
        answer_turn("It is {tool_result}"),
    ]}))
    .await;
    let world = desk(Some(&provider)).await;
    world
        .desk
        .allow_sampling_without_review("demo")
        .await
        .unwrap();
    let question = json!({"question": "What time is it?", "use_clock": true});
    let result = world
        .call("ask_model", question, "clock")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(text_of(&result), "It is The demo's clock says 12:00 UTC.");
    // The model was offered the server's tool, and then given what the server's run of
    // it returned.
    let chats: Vec<Value> = provider
        .requests()
        .await
        .into_iter()
        .filter(|r| r["method"] == "POST")
        .collect();
    assert_eq!(chats.len(), 2);
    assert_eq!(chats[0]["body"]["tools"][0]["function"]["name"], "clock");
    let messages = chats[1]["body"]["messages"].as_array().unwrap();
    let tool_message = messages.iter().find(|m| m["role"] == "tool").unwrap();
    assert_eq!(tool_message["content"], "The demo's clock says 12:00 UTC.");
}
