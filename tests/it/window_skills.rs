//! Skills in the real window, from the demo server run with a second skill whose
//! `SKILL.md` changed after its manifest was made: the Explorer lists both, reads no file
//! of either until the person presses Load, shows the instructions of the one that matches
//! its manifest, and says why the other is refused. Screenshots go to `test-artifacts/`.

use serde_json::json;

use crate::support::window::{App, DETAIL, SHOWN};

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
