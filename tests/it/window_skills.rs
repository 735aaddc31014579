//! Skills in the real window, from the demo server run with a second skill whose
//! `SKILL.md` changed after its manifest was made: the Explorer lists both, reads no file
//! of either until the person presses Load, shows the instructions of the one that matches
//! its manifest, and says why the other is refused. In the chat, the stand-in model loads
//! a skill: the person is asked in a dialog, allows it for good, and the model's next use
//! of the same skill goes unasked. Screenshots go to `test-artifacts/`.

use serde_json::json;

use crate::support::peer::StandIn;
use crate::support::window::{App, DETAIL, DIALOG, SHOWN};

#[test]
fn the_explorer_lists_skills_and_loads_only_one_that_matches_its_manifest() {
    let config = json!({"mcpServers": {"demo": {
        "command": "switchboard-demo-server",
        "env": {"SWITCHBOARD_DEMO_CHANGED_SKILL": "1"},
    }}});
    let app = App::start_configured(config, Vec::new());
    let w = &app.window;
    app.wait_running("demo");

    app.open_tool("demo", "demo-tour");
    w.wait_for_text(DETAIL, "A model that wants it asks you first", SHOWN);
    w.wait_for_text(DETAIL, "skill://demo-tour/reference/tools.md", SHOWN);
    app.press(DETAIL, "Load");
    w.wait_for_text(DETAIL, "A tour of the demo server", SHOWN);
    w.screenshot("explorer-skill-loaded");

    app.open_tool("demo", "changed-tour");
    app.press(DETAIL, "Load");
    let refused = w.wait_for_text(DETAIL, "does not match its digest", SHOWN);
    assert!(refused.contains("Switchboard refuses a skill"), "{refused}");
    assert!(
        !refused.contains("unasked"),
        "the changed instructions are not shown"
    );
    w.screenshot("explorer-skill-refused");
}

#[test]
fn a_models_use_of_a_skill_is_asked_once_and_then_allowed_as_it_is() {
    let load = json!({"content": [{"tool_call": {"name": "switchboard_load_skill",
        "arguments": {"server": "demo", "name": "demo-tour"}}}]});
    let stand_in = StandIn::start(&json!({"turns": [
        load, {"content": [{"text": "Loaded the tour."}]},
        load, {"content": [{"text": "Loaded it again."}]},
    ]}));
    let (providers, settings) = stand_in.configured();
    let config = json!({
        "mcpServers": {"demo": {"command": "switchboard-demo-server"}},
        "providers": providers,
        "settings": settings,
    });
    let app = App::start_configured(config, Vec::new());
    let w = &app.window;
    app.wait_running("demo");
    app.view("chat");
    let compose = ".chat-compose";
    let message = w.find(&format!("{compose} textarea[aria-label='Message']"));
    w.type_into(&message, "Give me the tour", true);
    app.press(compose, "Send");
    let text = app.dialog(
        "demo",
        "A model in conversation “Give me the tour” wants to use the skill demo-tour",
        "dialog-chat-skill",
    );
    assert!(text.contains("sha256:"), "{text}");
    app.press(DIALOG, "Always allow this skill as it is");
    app.no_dialog();
    w.wait_for_text(
        ".chat-messages li[aria-label='Model']",
        "Loaded the tour.",
        SHOWN,
    );

    // Asked again for the same skill, as it is: no dialog.
    let message = w.find(&format!("{compose} textarea[aria-label='Message']"));
    w.type_into(&message, "Once more", true);
    app.press(compose, "Send");
    w.wait_for_text(
        ".chat-messages li[aria-label='Model']",
        "Loaded it again.",
        SHOWN,
    );
    assert_eq!(
        w.count(DIALOG),
        0,
        "the skill allowed as it is goes unasked"
    );
    let pins = &app.config()["settings"]["trustedSkills"];
    assert_eq!(pins[0]["uri"], "skill://demo-tour/SKILL.md", "{pins}");
}
