//! A person adds Switchboard to Cursor from the Agents page: the dialog shows Cursor's file
//! and the exact change, they write it, and the file in the app's home folder holds the
//! entry beside the server that was there.

use serde_json::json;

use crate::support::window::{App, DIALOG, SHOWN};

#[test]
fn adding_switchboard_to_cursor_shows_the_change_and_writes_it() {
    let app = App::start_with(|dir| {
        let home = dir.join("home");
        std::fs::create_dir_all(home.join(".cursor")).expect("home");
        std::fs::write(
            home.join(".cursor/mcp.json"),
            "{\n  \"mcpServers\": {\n    \"memory\": {\"command\": \"npx\"}\n  }\n}\n",
        )
        .expect("Cursor's file");
        vec![
            ("HOME", home.to_str().expect("utf-8").to_owned()),
            (
                "XDG_CONFIG_HOME",
                home.join(".config").to_str().expect("utf-8").to_owned(),
            ),
        ]
    });
    let w = &app.window;
    let file = app.dir.path().join("home/.cursor/mcp.json");
    app.add_agent("Cursor");

    app.press(".agent-list li", "Add to Cursor");
    let shown = w.wait_for_texts(
        DIALOG,
        &["Add Switchboard to Cursor", "\"switchboard\": {"],
        SHOWN,
    );
    assert!(shown.contains(&file.display().to_string()), "{shown}");
    assert!(shown.contains("\"--agent\""), "{shown}");
    w.screenshot("agent-setup-cursor");
    let untouched = std::fs::read_to_string(&file).expect("read");
    assert!(
        !untouched.contains("switchboard"),
        "nothing is written before the person says so"
    );

    app.press(DIALOG, "Write the change");
    let done = w.wait_for_text(DIALOG, "now reaches Switchboard as Cursor", SHOWN);
    assert!(done.contains("Restart Cursor"), "{done}");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("JSON");
    let servers = &written["mcpServers"];
    assert_eq!(servers["memory"], json!({"command": "npx"}), "{written}");
    // The test's app listens on a socket of its own, which the agent's environment would
    // not name: the entry does.
    let socket = app.gateway_socket();
    assert_eq!(
        servers["switchboard"]["args"],
        json!([
            "bridge",
            "--agent",
            "Cursor",
            "--socket",
            socket.to_str().unwrap()
        ])
    );
    let command = servers["switchboard"]["command"]
        .as_str()
        .expect("a command");
    assert!(
        command.ends_with("/switchboard-cli") && std::path::Path::new(command).is_file(),
        "the bridge beside the app: {command}"
    );
    app.press(DIALOG, "Close");
}
