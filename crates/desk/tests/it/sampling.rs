//! Sampling answered by a model, through the desk: the demo server's `ask_model` asks, the
//! stand-in provider (the real wire protocols on 127.0.0.1) drafts, the person edits and
//! sends, and the server's tool result shows what they sent. The model is chosen from the
//! server's hints; the provider receives the server's system prompt, token limit,
//! temperature and stop sequences; a provider's refusal is said in its words and the
//! person may still write the reply; a server allowed "without review" gets the model's
//! reply with no question asked, audited as such, until the permission is revoked, by the
//! model the person chose whatever the server hints, within a token cap, a budget per
//! minute and per hour and a bound on replies at once (beyond them the person is asked and
//! the audit says why); and with no provider the person writes the reply as before.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Value, json};
use switchboard_core::approvals::Question;
use switchboard_core::config::ServerConfig;
use switchboard_core::decisions::DecidedBy;
use switchboard_core::secrets::Secrets;
use switchboard_desk::{AuditEntry, ChatError, ModelsError, Update};

use crate::common::{DemoDesk, WAIT, demo_allowed, demo_server, desk_in, text_of};
use switchboard_test_support::stand_in::StandInProvider;

/// A desk with the demo server and, if `provider` is given, two providers that reach it:
/// "standin" (OpenAI protocol, the default, models `gpt-test` and `gpt-test-mini`) and
/// "claude" (Anthropic protocol, model `claude-test`).
async fn desk(provider: Option<&StandInProvider>) -> DemoDesk {
    desk_with(provider, json!({})).await
}

/// `desk`, with these host settings added to the file's.
async fn desk_with(provider: Option<&StandInProvider>, settings: Value) -> DemoDesk {
    let dir = tempfile::tempdir().unwrap();
    // The person called ask_model: the call itself is theirs, allowed.
    let mut file = json!({
        "mcpServers": {"demo": {"command": demo_server().display().to_string()}},
        "settings": {"toolRules": [demo_allowed()]},
    });
    for (key, value) in settings.as_object().unwrap() {
        file["settings"][key] = value.clone();
    }
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

/// Lets the demo's sampling requests go without review, answered by the stand-in's
/// `gpt-test`, as the person allows it under a draft that model wrote.
async fn allow_demo(world: &DemoDesk) {
    world
        .desk
        .chats()
        .allow_sampling_without_review("demo", "standin", "gpt-test")
        .await
        .unwrap();
}

/// Calls `ask_model` with `arguments` and expects the model's reply with no one asked:
/// the text the server got.
async fn unreviewed(world: &mut DemoDesk, arguments: Value, token: &str) -> String {
    let call = world.call("ask_model", arguments, token);
    tokio::select! {
        done = call => text_of(&done.unwrap().unwrap()),
        asked = world.asked() => panic!("the person was asked: {asked:?}"),
    }
}

/// Calls `ask_model` with `arguments` and expects the person to be asked, though the demo
/// may be answered without review; they write the reply, which reaches the server. The
/// audit record of their decision.
async fn asked_instead(world: &mut DemoDesk, arguments: Value, token: &str) -> AuditEntry {
    let mut call = world.call("ask_model", arguments, token);
    let asked = tokio::select! {
        asked = world.asked() => asked,
        done = &mut call => panic!("answered without the person: {done:?}"),
    };
    assert!(matches!(asked.question, Question::Sampling { .. }));
    answer_by_hand(world, asked.id);
    assert_eq!(text_of(&call.await.unwrap().unwrap()), "By hand.");
    newest_sampling_record(world).await
}

/// The person writes the reply to sampling request `id` themselves: "By hand."
fn answer_by_hand(world: &DemoDesk, id: u64) {
    let reply = json!({"role": "assistant", "model": "me",
                       "content": {"type": "text", "text": "By hand."}});
    world
        .desk
        .trust()
        .answer_sampling(id, "demo", Some(reply))
        .unwrap();
}

async fn newest_sampling_record(world: &DemoDesk) -> AuditEntry {
    let audit = world.desk.activity().page(None, 50).await.unwrap();
    audit.into_iter().find(|e| e.kind == "sampling").unwrap()
}

/// Why the audit record says the person was asked, though the server may be answered
/// without review.
fn why_asked(entry: &AuditEntry) -> &str {
    assert_eq!(entry.decided_by, DecidedBy::Person, "{entry:?}");
    entry.detail.0["whyAsked"]
        .as_str()
        .unwrap_or_else(|| panic!("the audit says why: {entry:?}"))
}

/// How many chat requests reached the stand-in.
async fn chats(provider: &StandInProvider) -> usize {
    let requests = provider.requests().await;
    requests.iter().filter(|r| r["method"] == "POST").count()
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
        .chats()
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
        body["system"][0]["text"]
            .as_str()
            .unwrap()
            .contains("demo server"),
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
    assert!(
        world
            .desk
            .trust()
            .pending()
            .iter()
            .any(|p| p.id == asked.id)
    );
    let reply = edited(&draft.result, "Paris (edited by me).");
    world
        .desk
        .trust()
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
        .chats()
        .draft_sampling(asked.id, "demo", None)
        .await
        .unwrap_err();
    assert!(matches!(err, ChatError::Provider(_)), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("slow down please"), "{message}");
    assert!(message.contains('7'), "the wait is said: {message}");

    // No hint, but the demo asks for speed (`speedPriority` 0.8): the fast model was
    // asked, through the OpenAI protocol.
    let request = last_request(&provider).await;
    assert_eq!(request["path"], "/v1/chat/completions");
    assert_eq!(request["body"]["model"], "gpt-test-mini");

    let reply = json!({"role": "assistant", "model": "me",
                       "content": {"type": "text", "text": "Written by hand."}});
    world
        .desk
        .trust()
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
        .chats()
        .allow_sampling_without_review("demo", "standin", "gpt-test")
        .await
        .unwrap();
    let rules = world.desk.chats().sampling_rules().await;
    assert_eq!(rules.len(), 1);
    assert!(rules[0].holds);
    let chosen = (rules[0].provider.as_deref(), rules[0].model.as_deref());
    assert_eq!(chosen, (Some("standin"), Some("gpt-test")));
    let kept = &world.file()["settings"]["samplingRules"][0];
    assert_eq!(kept["server"], "demo");
    assert_eq!(
        (&kept["provider"], &kept["model"]),
        (&json!("standin"), &json!("gpt-test"))
    );

    let result = world
        .call("ask_model", json!({"question": "Anything?"}), "t1")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(text_of(&result), "Sent without asking.");
    assert!(world.desk.trust().pending().is_empty(), "no one was asked");
    let audit = world.desk.activity().page(None, 10).await.unwrap();
    let sampled = audit.iter().find(|e| e.kind == "sampling").unwrap();
    assert_eq!(sampled.decision, "approved");
    assert_eq!(
        sampled.decided_by,
        DecidedBy::SamplingWithoutReview,
        "{sampled:?}"
    );
    assert_eq!(world.desk.chats().sampling_rules().await[0].uses, 1);

    world
        .desk
        .chats()
        .revoke_sampling_rule("demo")
        .await
        .unwrap();
    assert!(world.desk.chats().sampling_rules().await.is_empty());
    let call = world.call("ask_model", json!({"question": "Again?"}), "t2");
    let asked = world.asked().await;
    assert!(matches!(asked.question, Question::Sampling { .. }));
    world
        .desk
        .trust()
        .answer_sampling(asked.id, "demo", None)
        .unwrap();
    let declined = call.await.unwrap().unwrap();
    assert!(text_of(&declined).contains("declined"), "{declined}");
}

#[tokio::test]
async fn with_no_provider_the_person_writes_the_reply() {
    let mut world = desk(None).await;
    // A permission is for a model the person has: with none, there is none to give.
    let refused = world
        .desk
        .chats()
        .allow_sampling_without_review("demo", "standin", "gpt-test")
        .await
        .unwrap_err();
    assert!(
        matches!(refused, ChatError::Models(ModelsError::NoProvider(_))),
        "{refused:?}"
    );
    assert!(world.desk.chats().sampling_rules().await.is_empty());
    let call = world.call("ask_model", json!({"question": "Capital of Peru?"}), "t1");
    let asked = world.asked().await;
    assert_eq!(
        world
            .desk
            .chats()
            .draft_sampling(asked.id, "demo", None)
            .await
            .unwrap(),
        None
    );
    let reply = json!({"role": "assistant", "model": "me",
                       "content": {"type": "text", "text": "Lima."}});
    world
        .desk
        .trust()
        .answer_sampling(asked.id, "demo", Some(reply))
        .unwrap();
    assert_eq!(text_of(&call.await.unwrap().unwrap()), "Lima.");
}

#[tokio::test]
async fn with_tools_the_model_reads_the_servers_clock_in_the_loop_the_server_runs() {
    // The demo's clock is `demo.clock`: a name MCP allows and the providers refuse, which
    // the model is offered as one they take, and which reaches the server as it named it.
    let clock = switchboard_chat::naming::provider_name("demo.clock");
    assert_ne!(clock, "demo.clock");
    let provider = StandInProvider::start(json!({"turns": [
        {"content": [{"tool_call": {"name": clock, "arguments": {}}}]},
        answer_turn("It is {tool_result}"),
    ]}))
    .await;
    let world = desk(Some(&provider)).await;
    allow_demo(&world).await;
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
    assert_eq!(chats[0]["body"]["tools"][0]["function"]["name"], clock);
    let messages = chats[1]["body"]["messages"].as_array().unwrap();
    let tool_message = messages.iter().find(|m| m["role"] == "tool").unwrap();
    assert_eq!(tool_message["content"], "The demo's clock says 12:00 UTC.");
}

#[tokio::test]
async fn an_unreviewed_reply_comes_from_the_model_the_person_chose_whatever_the_server_hints() {
    let provider = StandInProvider::start(json!({"turns": [answer_turn("From gpt-test.")]})).await;
    let mut world = desk(Some(&provider)).await;
    allow_demo(&world).await;
    let question = json!({"question": "Hi?", "model_hint": "claude"});
    assert_eq!(
        unreviewed(&mut world, question, "t1").await,
        "From gpt-test."
    );
    let request = last_request(&provider).await;
    assert_eq!(request["path"], "/v1/chat/completions");
    assert_eq!(request["body"]["model"], "gpt-test");
    let record = newest_sampling_record(&world).await;
    assert_eq!(
        record.detail.0["draftedBy"],
        json!({"provider": "standin", "model": "gpt-test"})
    );
}

#[tokio::test]
async fn once_the_chosen_model_is_gone_the_person_is_asked_and_told_why() {
    let provider = StandInProvider::start(json!({"turns": []})).await;
    let mut world = desk(Some(&provider)).await;
    world
        .desk
        .chats()
        .allow_sampling_without_review("demo", "claude", "claude-test")
        .await
        .unwrap();
    world.desk.models().remove_provider("claude").await.unwrap();
    assert!(!world.desk.chats().sampling_rules().await[0].holds);
    let question = json!({"question": "Hi?", "model_hint": "claude"});
    let record = asked_instead(&mut world, question, "t1").await;
    let why = why_asked(&record);
    assert!(why.contains("claude-test"), "{why}");
    assert_eq!(chats(&provider).await, 0);
}

#[tokio::test]
async fn a_model_the_person_does_not_have_cannot_be_chosen() {
    let provider = StandInProvider::start(json!({"turns": []})).await;
    let world = desk(Some(&provider)).await;
    let refused = world
        .desk
        .chats()
        .allow_sampling_without_review("demo", "standin", "claude-test")
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("claude-test"), "{refused}");
    assert!(world.desk.chats().sampling_rules().await.is_empty());
}

#[tokio::test]
async fn an_unreviewed_reply_asks_the_provider_for_no_more_tokens_than_the_cap() {
    let provider = StandInProvider::start(json!({"turns": [answer_turn("Short.")]})).await;
    // A budget that would let the server's whole request through.
    let limits = json!({"samplingLimits": {"tokensPerHour": 10_000_000}});
    let mut world = desk_with(Some(&provider), limits).await;
    allow_demo(&world).await;
    let question = json!({"question": "Write a book.", "max_tokens": 1_000_000});
    assert_eq!(unreviewed(&mut world, question, "t1").await, "Short.");
    // The default cap, whatever the server asked for.
    assert_eq!(last_request(&provider).await["body"]["max_tokens"], 4096);
}

#[tokio::test]
async fn a_reviewed_draft_is_capped_too_unless_the_person_changed_the_limit() {
    let provider =
        StandInProvider::start(json!({"turns": [answer_turn("One."), answer_turn("Two.")]})).await;
    let limits = json!({"samplingLimits": {"maxTokens": 300}});
    let mut world = desk_with(Some(&provider), limits).await;
    let question = json!({"question": "Write a book.", "max_tokens": 100_000});
    let call = world.call("ask_model", question, "t1");
    let asked = world.asked().await;
    let Question::Sampling { params } = &asked.question else {
        panic!("{asked:?}")
    };
    world
        .desk
        .chats()
        .draft_sampling(asked.id, "demo", None)
        .await
        .unwrap();
    assert_eq!(last_request(&provider).await["body"]["max_tokens"], 300);
    // The person set the limit in their review: theirs goes.
    let mut reviewed = serde_json::to_value(params).unwrap();
    reviewed["maxTokens"] = json!(5000);
    world
        .desk
        .chats()
        .draft_sampling(asked.id, "demo", Some(reviewed))
        .await
        .unwrap();
    assert_eq!(last_request(&provider).await["body"]["max_tokens"], 5000);
    answer_by_hand(&world, asked.id);
    assert_eq!(text_of(&call.await.unwrap().unwrap()), "By hand.");
}

#[tokio::test]
async fn unreviewed_replies_beyond_the_budget_of_a_minute_go_to_the_person_who_is_told_why() {
    let turns = [answer_turn("First."), answer_turn("One too many.")];
    let provider = StandInProvider::start(json!({ "turns": turns })).await;
    let limits = json!({"samplingLimits": {"requestsPerMinute": 1}});
    let mut world = desk_with(Some(&provider), limits).await;
    allow_demo(&world).await;
    let question = json!({"question": "Hi?"});
    assert_eq!(
        unreviewed(&mut world, question.clone(), "t1").await,
        "First."
    );
    let record = asked_instead(&mut world, question, "t2").await;
    let why = why_asked(&record);
    assert!(why.contains("1 in the last minute"), "{why}");
    assert_eq!(chats(&provider).await, 1);
}

#[tokio::test]
async fn the_tokens_a_server_spent_in_the_hour_count_against_its_budget() {
    // The first reply takes 250 tokens of the 400 an hour; the next asks for 200 more.
    let turn = json!({"content": [{"text": "Long."}], "usage": {"input": 150, "output": 100}});
    let provider =
        StandInProvider::start(json!({"turns": [turn, answer_turn("One too many.")]})).await;
    let limits = json!({"samplingLimits": {"tokensPerHour": 400}});
    let mut world = desk_with(Some(&provider), limits).await;
    allow_demo(&world).await;
    let question = json!({"question": "Hi?"});
    assert_eq!(
        unreviewed(&mut world, question.clone(), "t1").await,
        "Long."
    );
    let record = asked_instead(&mut world, question, "t2").await;
    let why = why_asked(&record);
    assert!(why.contains("250 of its 400 tokens"), "{why}");
}

#[tokio::test]
async fn no_more_unreviewed_replies_are_written_at_once_than_the_bound() {
    // Each reply the model starts stays unfinished: the provider went silent.
    let stalled = json!({"content": [{"text": "Still writing"}], "stall": true});
    let provider =
        StandInProvider::start(json!({"turns": [stalled.clone(), stalled.clone(), stalled]})).await;
    let mut world = desk(Some(&provider)).await;
    allow_demo(&world).await;
    let question = json!({"question": "Hi?"});
    let mut calls = [
        world.call("ask_model", question.clone(), "t1"),
        world.call("ask_model", question.clone(), "t2"),
        world.call("ask_model", question, "t3"),
    ];
    // Two replies are being written (the default bound): the third request is the person's.
    let asked = world.asked().await;
    answer_by_hand(&world, asked.id);
    let [first, second, third] = &mut calls;
    let done = tokio::select! {
        done = first => done,
        done = second => done,
        done = third => done,
    };
    assert_eq!(text_of(&done.unwrap().unwrap()), "By hand.");
    let why = why_asked(&newest_sampling_record(&world).await).to_owned();
    assert!(why.contains("2 replies"), "{why}");
}

#[tokio::test]
async fn a_rule_kept_without_a_model_asks_the_person_until_allowed_again() {
    // As an earlier version wrote it: the server and its identity, no model.
    let demo = ServerConfig {
        command: Some(demo_server().display().to_string()),
        ..Default::default()
    };
    let identity = demo.identity();
    let kept = json!({"samplingRules": [{"server": "demo", "identity": identity, "sinceMs": 1}]});
    let provider = StandInProvider::start(json!({"turns": [answer_turn("Chosen now.")]})).await;
    let mut world = desk_with(Some(&provider), kept).await;
    let rules = world.desk.chats().sampling_rules().await;
    assert_eq!((rules.len(), rules[0].holds), (1, false));
    assert_eq!((&rules[0].provider, &rules[0].model), (&None, &None));

    let question = json!({"question": "Hi?"});
    let record = asked_instead(&mut world, question.clone(), "t1").await;
    let why = why_asked(&record);
    assert!(why.contains("no model"), "{why}");

    allow_demo(&world).await;
    assert_eq!(unreviewed(&mut world, question, "t2").await, "Chosen now.");
}

#[tokio::test]
async fn a_draft_streams_to_the_window_and_stops_when_the_person_stops_it() {
    let provider = StandInProvider::start(json!({"turns": [
        {"content": [{"text": "Paris is the capital", "pieces": 4}], "stall": true}
    ]}))
    .await;
    let mut world = desk(Some(&provider)).await;
    let call = world.call("ask_model", json!({"question": "Capital of France?"}), "t1");
    let asked = world.asked().await;
    let drafting = tokio::spawn({
        let chats = world.desk.chats();
        async move { chats.draft_sampling(asked.id, "demo", None).await }
    });
    // Each piece is told as it comes, before the provider finishes (it never does).
    let mut streamed = String::new();
    while streamed != "Paris is the capital" {
        let piece = world
            .next(|u| match u {
                Update::SamplingDraft { id, text } if id == asked.id => Some(text),
                _ => None,
            })
            .await;
        streamed.push_str(&piece);
    }
    assert!(world.desk.chats().stop_sampling_draft(asked.id));
    let stopped = tokio::time::timeout(WAIT, drafting).await.unwrap().unwrap();
    assert!(
        matches!(stopped, Err(ChatError::DraftStopped)),
        "{stopped:?}"
    );
    assert!(
        !world.desk.chats().stop_sampling_draft(asked.id),
        "nothing left to stop"
    );

    // The request still waits for the person, who finishes the reply.
    let reply = json!({"role": "assistant", "model": "me",
                       "content": {"type": "text", "text": "Paris is the capital of France."}});
    world
        .desk
        .trust()
        .answer_sampling(asked.id, "demo", Some(reply))
        .unwrap();
    let result = call.await.unwrap().unwrap();
    assert_eq!(text_of(&result), "Paris is the capital of France.");
}
