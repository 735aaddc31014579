//! A person at the real window reshaping a conversation with the stand-in model provider:
//! the model chosen for it stays with it (another conversation between does not change
//! it), an answer is asked for again, a message edited and sent again, its settings given a
//! system prompt, a turn taken back, the conversation deleted and taken back. What the
//! model was sent each time is checked at the stand-in. Screenshots under `test-artifacts/`.

use serde_json::{Value, json};

use crate::support::peer::StandIn;
use crate::support::window::{App, SHOWN, until};

const COMPOSE: &str = ".chat-compose";
const YOU: &str = ".chat-messages li[aria-label='You']";
const MODEL_SAYS: &str = ".chat-messages li[aria-label='Model']";

fn start(stand_in: &StandIn) -> App {
    let url = stand_in.url.clone();
    App::start_with(move |dir| {
        let config = json!({
            "mcpServers": {"demo": {"command": "switchboard-demo-server"}},
            "providers": {"standin": {
                "protocol": "openai", "baseUrl": format!("{url}/v1"),
                "models": ["model-a", "model-b"], "defaultModel": "model-a",
                "prices": {"model-b": {"input": 3.0, "output": 15.0}},
            }},
        });
        std::fs::write(dir.join("config.json"), config.to_string()).expect("write the config");
        Vec::new()
    })
}

fn send(app: &App, message: &str) {
    let field = app
        .window
        .find(&format!("{COMPOSE} textarea[aria-label='Message']"));
    app.window.type_into(&field, message, true);
    app.press(COMPOSE, "Send");
}

/// Waits until the run is over and the model's answers read `answers`, in order.
fn answers_are(app: &App, answers: &[&str]) {
    app.window
        .wait_for_all(MODEL_SAYS, "the model's answers", SHOWN, |said| {
            said.len() == answers.len() && said.iter().zip(answers).all(|(s, a)| s.contains(a))
        });
    app.window
        .wait_for_all(&format!("{COMPOSE} button"), "Send, not Stop", SHOWN, |b| {
            b.iter().any(|t| t == "Send")
        });
}

/// The model, and the person's messages, of each request the stand-in was sent.
fn requests(stand_in: &StandIn) -> Vec<(String, Vec<String>)> {
    stand_in
        .asked()
        .iter()
        .map(|r| {
            let body = &r["body"];
            let said = body["messages"]
                .as_array()
                .expect("messages")
                .iter()
                .filter(|m| m["role"] == "user")
                .map(|m| match m["content"].as_str() {
                    Some(text) => text.to_owned(),
                    None => m["content"][0]["text"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                })
                .collect();
            (body["model"].as_str().unwrap_or_default().to_owned(), said)
        })
        .collect()
}

fn system_of(request: &Value) -> String {
    request["body"]["messages"][0].to_string()
}

#[test]
fn a_conversation_keeps_its_model_and_its_turns_are_asked_again_edited_and_taken_back() {
    let answers = [
        "Some rain.",
        "Less rain.",
        "Sun, mostly.",
        "Bom dia.",
        "Dry.\n\n| day | rain |\n|---|---|\n| Mon | 0 mm |\n\n```python\nprint(\"dry\")\n```",
    ];
    let turns: Vec<Value> = answers
        .iter()
        .map(|a| json!({"content": [{"text": a}]}))
        .chain([
            json!({"error": {"kind": "context_too_long"}}),
            json!({"content": [{"text": SUMMARY}]}),
            json!({"content": [{"text": "Sunny."}]}),
        ])
        .collect();
    let stand_in = StandIn::start(&json!({ "turns": turns }));
    let app = start(&stand_in);
    let w = &app.window;
    app.wait_running("demo");
    app.view("chat");

    // Asked with model-b: the conversation keeps it.
    let model = w.find(&format!("{COMPOSE} .chat-model input"));
    w.replace_text(&model, "model-b");
    send(&app, "Rain in Lisbon?");
    answers_are(&app, &["Some rain."]);
    app.press(".chat-list", "New conversation");
    until("a new conversation is open", || {
        w.texts(".chat-head h2")
            .first()
            .is_some_and(|t| t == "New conversation")
    });
    w.replace_text(&w.find(&format!("{COMPOSE} .chat-model input")), "model-a");
    w.click(&w.find(".chat-list li:last-child button"));
    w.wait_for_text(".chat-head h2", "Rain in Lisbon?", SHOWN);
    until("the conversation's own model is chosen again", || {
        w.value(&w.find(&format!("{COMPOSE} .chat-model input"))) == "model-b"
    });

    // Asked for again: the answer replaced, the model sent the question alone.
    app.press(".chat-after", "Regenerate");
    answers_are(&app, &["Less rain."]);
    w.screenshot("chat-regenerated");

    // Edited and sent again.
    app.press(YOU, "Edit");
    let edit = w.find(".chat-edit textarea");
    w.replace_text(&edit, "Rain in Faro?");
    w.screenshot("chat-edit");
    app.press(".chat-edit", "Send again");
    answers_are(&app, &["Sun, mostly."]);
    assert_eq!(w.texts(YOU).len(), 1, "{:?}", w.texts(YOU));
    assert!(w.texts(YOU)[0].contains("Rain in Faro?"));

    // Its own system prompt, sent with the next message.
    app.press(".chat-head", "Settings");
    let form = ".chat-settings";
    w.type_into(
        &w.field(form, "System prompt"),
        "Answer in Portuguese.",
        true,
    );
    w.screenshot("chat-settings");
    app.press(form, "Save settings");
    until("the settings are saved", || w.count(form) == 0);
    send(&app, "Good morning?");
    answers_are(&app, &["Sun, mostly.", "Bom dia."]);

    // The first turn taken back: its question and answer go, the second stays.
    app.press(YOU, "Remove");
    until("the first turn is taken back", || w.texts(YOU).len() == 1);
    assert!(w.texts(YOU)[0].contains("Good morning?"));
    send(&app, "And tomorrow?");
    answers_are(&app, &["Bom dia.", "Dry."]);
    // Its table as a table, its code highlighted with a copy button.
    w.wait_for_text(".chat-messages .md-table td", "0 mm", SHOWN);
    assert_eq!(w.count(".chat-messages .md-code .hljs-built_in"), 1);
    assert_eq!(w.count(".chat-messages .md-code button"), 1);
    w.screenshot("chat-markdown");
    // What the conversation took, priced as the person priced model-b.
    let total = w.wait_for_text(".chat-total", "30 tokens", SHOWN);
    assert!(total.contains('$'), "{total}");

    let asked = requests(&stand_in);
    let models: Vec<&str> = asked.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(models, ["model-b"; 5], "the conversation's model each time");
    let said: Vec<Vec<String>> = asked.into_iter().map(|(_, s)| s).collect();
    assert_eq!(
        said[1],
        ["Rain in Lisbon?"],
        "asked again without the answer"
    );
    assert_eq!(
        said[2],
        ["Rain in Faro?"],
        "the edit in place of the question"
    );
    assert_eq!(
        said[4],
        ["Good morning?", "And tomorrow?"],
        "the taken-back turn is gone"
    );
    let sent = stand_in.asked();
    assert!(
        system_of(&sent[3]).contains("Answer in Portuguese."),
        "{}",
        system_of(&sent[3])
    );

    // Deleted, and taken back.
    app.press(".chat-head", "Delete");
    app.press(".chat-confirm", "Yes, delete it");
    w.wait_for_text(".chat-undo", "Deleted “Rain in Lisbon?”", SHOWN);
    w.screenshot("chat-deleted-undo");
    app.press(".chat-undo", "Undo");
    w.wait_for_text(".chat-head h2", "Rain in Lisbon?", SHOWN);
    answers_are(&app, &["Bom dia.", "Dry."]);

    // Too long for the model: the earlier turns summarised, shown folded as the model's
    // words (not a turn of the person's to edit), and the question asked again.
    send(&app, "And the weekend?");
    app.press(".chat-notice", "Summarise earlier turns");
    w.wait_for_text(".chat-notice", "The earlier turns were summarised", SHOWN);
    app.press(".chat-after", "Regenerate");
    answers_are(&app, &["Sunny."]);
    w.click(&w.find(".chat-summary summary"));
    // The model's words, rendered as its answers are.
    w.wait_for_text(".chat-summary strong", "good morning", SHOWN);
    assert_eq!(
        w.texts(YOU).len(),
        1,
        "only the question stays the person's: {:?}",
        w.texts(YOU)
    );
    w.screenshot("chat-summary");
}

const SUMMARY: &str = "The person asked about the weather: **good morning**, then dry tomorrow.";
