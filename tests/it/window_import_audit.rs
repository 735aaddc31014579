//! A person at the real window importing another host's file and reading the audit trail.
//! Import: a Claude Desktop file whose server's name is taken and whose token is written in
//! plain text; the person renames it (the name checked as they type), keeps the offer to
//! move the token to the keyring, and reads the summary; the server runs with its token,
//! which is in the keyring and not in the configuration file. Audit: a call's arguments
//! expanded, how each allow was given ("you, always", the rule after it, "by you"), and
//! the search. Screenshots under `test-artifacts/`.

use std::path::Path;

use serde_json::json;

use crate::support::window::{App, DETAIL, DIALOG, SHOWN};

const TOKEN: &str = "plain-token-written-in-the-file";
const AUDIT_ROWS: &str = ".audit-table tbody tr";

#[test]
fn a_clashing_server_with_a_plain_token_is_renamed_and_its_token_kept_in_the_keyring() {
    let app = App::start_with_own_home();
    let w = &app.window;
    let peer = Path::new(env!("CARGO_BIN_EXE_switchboard")).with_file_name("rmcp-peer");
    let file = app.dir.path().join("exported-servers.json");
    let claude = json!({"mcpServers": {
        "demo": {"command": peer, "args": ["stdio"], "env": {"PEER_TOKEN": TOKEN}},
        "spare": {"command": "true"},
    }});
    std::fs::write(&file, claude.to_string()).expect("write the file");
    let path = file.to_str().expect("utf-8");
    app.wait_running("demo");

    // Named by its path (the file picker is the system's); told apart by its content.
    app.press(".server-list", "Import…");
    w.wait_for_text(".import", "Choose file…", SHOWN);

    // A file that cannot be imported says why, and nothing is offered or changed.
    let broken = app.dir.path().join("broken.json");
    std::fs::write(&broken, r#"{"mcpServers": {"x": "#).expect("write the broken file");
    let before = std::fs::read(app.dir.path().join("config.json")).expect("config");
    app.fill(
        ".import",
        "Another configuration file",
        broken.to_str().expect("utf-8"),
    );
    app.press(".import-custom", "Load");
    w.wait_for_text("[role='alert']", "not valid JSON", SHOWN);
    assert_eq!(w.count(".import-candidate"), 0);
    w.screenshot("import-broken-file");
    let after = std::fs::read(app.dir.path().join("config.json")).expect("config");
    assert_eq!(before, after);

    app.fill(".import", "Another configuration file", path);
    app.press(".import-custom", "Load");
    w.wait_for_texts(
        ".import-candidate",
        &["Claude Desktop", "demo", "already configured"],
        SHOWN,
    );
    let rename = w.field(".import-candidate", "Import demo as");
    assert_eq!(w.value(&rename), "demo-2", "a free name is offered");

    // Picked, the server shows the offer to move its token, and its name is checked as typed.
    w.click(&w.find(".import-candidate input[type='checkbox'][aria-describedby]"));
    w.wait_for_text(
        ".import-candidate",
        "Move its token to the OS keyring",
        SHOWN,
    );
    let offer = w.find(".import-tokens input[type='checkbox']");
    assert_eq!(w.attribute(&offer, "checked").as_deref(), Some("true"));
    w.type_into(&rename, "demo", true);
    w.wait_for_text(
        ".import-candidate .field-error",
        "A server named demo is already configured.",
        SHOWN,
    );
    w.screenshot("import-name-taken");
    w.type_into(&rename, "demo-peer", true);
    w.wait_for_all(
        ".import-candidate .field-error",
        "no complaint",
        SHOWN,
        <[String]>::is_empty,
    );
    // The spare is left out.
    w.click(&w.find(".import-candidate li:nth-child(2) input[type='checkbox']"));
    w.screenshot("import-renamed");
    app.press(".import-candidate", "Import selected (1)");

    // The summary: imported under the new name, the token in the keyring, the spare skipped.
    assert_eq!(w.count("[role='alert']"), 0, "the file's error is gone");
    let summary = w.wait_for_texts(
        ".import-summary",
        &[
            "Imported (1)",
            "demo-peer",
            "renamed from demo",
            "Secrets moved to the OS keyring: demo-peer/env/PEER_TOKEN",
            "Skipped (1)",
            "spare: not selected",
        ],
        SHOWN,
    );
    assert!(!summary.contains(TOKEN), "{summary}");
    w.screenshot("import-summary");
    app.press(".import-summary", "Done");

    // It runs with its token, which the keyring holds and the configuration file does not.
    app.wait_running("demo-peer");
    app.open_tool("demo-peer", "env");
    app.fill(DETAIL, "name", "PEER_TOKEN");
    // The tool claims nothing, so it may destroy something: the person's call asks first.
    app.invoke_allowed("demo-peer", "env");
    app.result(TOKEN);
    assert_eq!(
        app.keyring_secret("demo-peer/env/PEER_TOKEN").as_deref(),
        Some(TOKEN)
    );
    let config = std::fs::read_to_string(app.dir.path().join("config.json")).expect("config");
    assert!(!config.contains(TOKEN), "{config}");
    let written = app.config();
    assert_eq!(
        written["mcpServers"]["demo-peer"]["env"]["PEER_TOKEN"],
        json!({"secret": "demo-peer/env/PEER_TOKEN"})
    );
    assert_eq!(
        written["mcpServers"]["demo"]["command"],
        "switchboard-demo-server"
    );
}

#[test]
fn the_audit_shows_arguments_how_each_allow_was_given_and_finds_calls() {
    let app = App::start();
    let w = &app.window;
    app.wait_running("demo");

    // The person's own call; then a destructive one allowed always, and run again.
    app.open_tool("demo", "Echo");
    app.fill(DETAIL, "text", "a needle in the audit");
    app.invoke();
    app.result("a needle in the audit");
    app.open_tool("demo", "Delete a note");
    app.fill(DETAIL, "title", "nothing");
    app.press(DETAIL, "Invoke");
    app.dialog("demo", "delete_note", "audit-dialog-always");
    app.press(DIALOG, "Always allow this tool");
    app.result("there is no note titled");
    app.no_dialog();
    // The rule answers now: no question.
    app.press(DETAIL, "Invoke");

    app.view("activity");
    let rows = w.wait_for_all(AUDIT_ROWS, "the three calls", SHOWN, |rows| rows.len() == 3);
    app.no_dialog();
    assert!(
        rows[0].contains("delete_note") && rows[0].contains("rule: allowed for this tool, always"),
        "{rows:?}"
    );
    assert!(
        rows[1].contains("delete_note") && rows[1].contains("you, always"),
        "{rows:?}"
    );
    assert!(
        rows[2].contains("echo") && rows[2].contains("by you (your own call)"),
        "{rows:?}"
    );

    // The echo's arguments, expanded: indented JSON.
    let toggles = w.find_all(".audit-table button.audit-expand");
    w.click(&toggles[2]);
    let args = w.wait_for_text(".audit-detail", "a needle in the audit", SHOWN);
    assert_eq!(args, "{\n  \"text\": \"a needle in the audit\"\n}");
    w.screenshot("audit-arguments");

    // The search, over the arguments too.
    app.fill(".audit-filter", "Search audit log", "NEEDLE");
    // Found by its arguments: the echo alone, still unfolded.
    w.wait_for_all(AUDIT_ROWS, "only the echo", SHOWN, |rows| {
        rows.len() == 2 && rows[0].contains("echo") && rows[1].contains("a needle in the audit")
    });
    w.screenshot("audit-search");
    app.fill(".audit-filter", "Search audit log", "nowhere at all");
    w.wait_for_text(AUDIT_ROWS, "No entry matches the search.", SHOWN);
}
