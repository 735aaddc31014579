//! A person at the real window, in the views beside the dialogs: the audit trail of the
//! Activity view and its filter; a server's log and its filter; servers imported from a
//! Claude Desktop file, edited, disabled and removed in the Servers view; a remote server
//! over Streamable HTTP; and a secret kept in the keyring. Each view is saved as a
//! screenshot under `test-artifacts/`.

use std::path::Path;

use serde_json::json;

use crate::support::peer::HttpPeer;
use crate::support::window::{App, DETAIL, DIALOG, SHOWN, until};
use switchboard_test_support::prying::Targets;

const AUDIT_ROWS: &str = ".audit-table tbody tr";
const LOG_LINES: &str = ".servers-detail .log-lines li";

/// A small stdio MCP server that says who it is by its arguments: its version is what it
/// was started with, shown in the server's details. It notes its start and its graceful
/// stop (its input closed) on stderr, which is the server's log.
const ARGV_SERVER: &str = r#"
import json, sys
started_with = " ".join(sys.argv[1:])
print(f"argv-server: started with {started_with}", file=sys.stderr, flush=True)
def answer(msg, result=None, error=None):
    reply = {"jsonrpc": "2.0", "id": msg["id"]}
    if error is None:
        reply["result"] = result
    else:
        reply["error"] = error
    print(json.dumps(reply), flush=True)
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg or "method" not in msg:
        continue
    if msg["method"] == "initialize":
        answer(msg, {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "serverInfo": {"name": "argv-server", "version": started_with},
        })
    elif msg["method"] == "ping":
        answer(msg, {})
    else:
        answer(msg, error={"code": -32601, "message": "Method not found"})
print("argv-server: input closed, exiting", file=sys.stderr, flush=True)
"#;

/// The row of `server` in the server list.
fn server_row(server: &str) -> String {
    format!(".server-list li.server-row[data-server='{server}']")
}

#[test]
fn the_activity_view_and_the_log_pane_show_what_happened() {
    let app = App::start();
    let w = &app.window;
    app.wait_running("demo");

    // The person's own call, run at once; one that may destroy something, denied.
    app.open_tool("demo", "Echo");
    app.fill(DETAIL, "text", "hello for the audit");
    app.invoke();
    app.result("hello for the audit");
    app.no_dialog();
    app.open_tool("demo", "Delete a note");
    app.fill(DETAIL, "title", "kept");
    app.press(DETAIL, "Invoke");
    app.dialog("demo", "delete_note", "dialog-tool-call-to-deny");
    app.press(DIALOG, "Deny");
    w.wait_for_text(&format!("{DETAIL} [role='alert']"), "denied", SHOWN);

    // The audit trail shows both calls, newest first, with who decided and what came of it.
    app.view("activity");
    let rows = w.wait_for_all(
        AUDIT_ROWS,
        "the allowed and the denied call",
        SHOWN,
        |rows| {
            rows.len() == 2
                && rows[0].contains("denied")
                && rows[1].contains("allowed")
                && rows[1].contains("ok")
        },
    );
    assert!(rows.iter().all(|row| row.contains("demo")), "{rows:?}");
    assert!(
        rows[0].contains("delete_note") && rows[0].contains("you, once"),
        "{rows:?}"
    );
    assert!(
        rows[1].contains("echo") && rows[1].contains("you (your own call)"),
        "{rows:?}"
    );
    w.screenshot("activity");

    // The search narrows the table to the matching entries, and says so.
    app.fill(".audit-filter", "Search audit log", "denied");
    let shown = w.wait_for_all(AUDIT_ROWS, "only the denied call", SHOWN, |rows| {
        rows.len() == 1 && rows[0].contains("denied")
    });
    assert!(shown[0].contains("delete_note"), "{shown:?}");
    w.wait_for_text(".audit-table caption", "(matching “denied”)", SHOWN);
    w.screenshot("activity-filtered");
    app.fill(".audit-filter", "Search audit log", "no such entry");
    w.wait_for_text(AUDIT_ROWS, "No entry matches the search.", SHOWN);
    app.fill(".audit-filter", "Search audit log", "");
    w.wait_for_all(AUDIT_ROWS, "both calls again", SHOWN, |rows| {
        rows.len() == 2
    });

    // The demo server's log: what it wrote on stderr as it started.
    app.select_server("demo");
    let lines = w.wait_for_all(LOG_LINES, "the demo server's start", SHOWN, |lines| {
        lines.iter().any(|l| l.contains("is ready"))
            && lines.iter().any(|l| l.contains("asked for revision"))
    });
    assert!(lines.len() >= 2, "{lines:?}");
    w.scroll_to(".servers-detail .log-pane");
    w.screenshot("log-pane");

    // The filter keeps only the lines that contain it, and counts them.
    let filter = w.find(".servers-detail input[aria-label='Filter log lines']");
    w.type_into(&filter, "asked for revision", true);
    let narrowed = w.wait_for_all(LOG_LINES, "only the matching lines", SHOWN, |shown| {
        !shown.is_empty()
            && shown.len() < lines.len()
            && shown.iter().all(|l| l.contains("asked for revision"))
    });
    let count = w.wait_for_text(".servers-detail .log-count", " of ", SHOWN);
    assert!(
        count.starts_with(&format!("{} of ", narrowed.len())),
        "{count}"
    );
    w.scroll_to(".servers-detail .log-pane");
    w.screenshot("log-pane-filtered");
    w.type_into(&filter, "nothing logs this", true);
    w.wait_for_text(
        ".servers-detail .log-lines",
        "No line matches the filter.",
        SHOWN,
    );
}

#[test]
fn a_server_imported_from_claude_desktop_is_edited_disabled_and_removed() {
    let app = App::start_with_own_home();
    let w = &app.window;
    let script = app.dir.path().join("argv_server.py");
    std::fs::write(&script, ARGV_SERVER).expect("write the server");
    let script = script.to_str().expect("utf-8").to_owned();
    let claude = app.dir.path().join("claude_desktop_config.json");
    let claude_config = json!({"mcpServers": {
        "argv": {"command": "python3", "args": [script, "first"]},
        "demo": {"command": "somebody-elses-demo"},
    }});
    std::fs::write(&claude, claude_config.to_string()).expect("write the Claude file");
    app.wait_running("demo");

    // Import: the file is named by its path; the name already taken is skipped.
    app.press(".server-list", "Import…");
    app.fill(
        ".import",
        "Another configuration file",
        claude.to_str().expect("utf-8"),
    );
    app.press(".import-custom", "Load");
    let found = w.wait_for_texts(
        ".import-candidate",
        &["Claude Desktop", "argv", "already configured"],
        SHOWN,
    );
    assert!(found.contains(claude.to_str().expect("utf-8")), "{found}");
    w.screenshot("import");
    app.press(".import-candidate", "Import selected (1)");
    w.wait_for_texts(
        ".import-summary",
        &["Imported (1)", "argv", "demo: not selected"],
        SHOWN,
    );
    app.press(".import-summary", "Done");

    // The imported server runs, started with the file's arguments.
    app.wait_running("argv");
    app.select_server("argv");
    w.wait_for_text(".servers-detail .server-details", "version first", SHOWN);
    w.wait_for_text(LOG_LINES, "started with", SHOWN);
    w.screenshot("server-imported");
    let config = app.config();
    assert_eq!(
        config["mcpServers"]["argv"],
        json!({"command": "python3", "args": [script, "first"]})
    );
    assert_eq!(
        config["mcpServers"]["demo"]["command"], "switchboard-demo-server",
        "the server already configured is left as it was"
    );

    // Edit: a changed argument restarts the server, which now says it.
    app.press(".servers-detail", "Edit argv");
    let second = w.find(".server-form input[aria-label='Argument 2']");
    assert_eq!(w.value(&second), "first");
    w.type_into(&second, "second", true);
    w.screenshot("server-edit");
    app.press(".server-form", "Save changes");
    w.wait_for_text(".servers-detail .server-details", "version second", SHOWN);
    w.wait_for_texts(&server_row("argv"), &["Running"], SHOWN);
    w.wait_for_text(LOG_LINES, "started with second", SHOWN);
    w.screenshot("server-edited");
    assert_eq!(
        app.config()["mcpServers"]["argv"]["args"],
        json!([script, "second"])
    );

    // Disable: the server is stopped (its input closed, a second time now) and kept,
    // disabled, on disk.
    w.click(&w.find(&format!("{} input[role='switch']", server_row("argv"))));
    w.wait_for_text(&server_row("argv"), "Disabled", SHOWN);
    w.wait_for_all(LOG_LINES, "the second graceful stop", SHOWN, |lines| {
        lines
            .iter()
            .filter(|l| l.contains("input closed, exiting"))
            .count()
            == 2
    });
    w.wait_for_text(".servers-detail", "No handshake yet", SHOWN);
    w.screenshot("server-disabled");
    assert_eq!(app.config()["mcpServers"]["argv"]["enabled"], false);

    // Remove, after the question: the server is gone from the window and from the file.
    w.click(&w.find(".server-list button[aria-label='Remove argv']"));
    w.wait_for_text(
        "[role='group'][aria-label='Remove argv?']",
        "keyring secrets",
        SHOWN,
    );
    w.screenshot("server-remove-confirm");
    app.press(
        "[role='group'][aria-label='Remove argv?']",
        "Yes, remove argv",
    );
    w.wait_for_all(".server-list li", "the list without argv", SHOWN, |rows| {
        !rows.is_empty() && rows.iter().all(|r| !r.contains("argv"))
    });
    w.screenshot("server-removed");
    let config = app.config();
    assert!(config["mcpServers"].get("argv").is_none(), "{config}");
    assert!(config["mcpServers"].get("demo").is_some(), "{config}");
}

/// A server outside the sandbox says what it can reach; one click puts it in, and it starts
/// again there.
#[test]
fn the_demo_server_is_put_in_the_sandbox_from_its_panel() {
    let app = App::start_with_own_home();
    let w = &app.window;
    app.wait_running("demo");
    app.select_server("demo");
    let note = ".servers-detail .sandbox-note";
    w.wait_for_text(note, "Runs with all your rights", SHOWN);
    w.scroll_to(note);
    w.screenshot("server-sandbox-offer");
    app.press(note, "Sandbox this server");
    w.wait_for_text(note, "Runs in the sandbox", SHOWN);
    w.wait_for_texts(&server_row("demo"), &["sandboxed", "Running"], SHOWN);
    w.scroll_to(note);
    w.screenshot("server-sandbox-on");
    assert_eq!(
        app.config()["mcpServers"]["demo"]["sandbox"],
        json!({"network": false})
    );
    // It answers from there.
    app.open_tool("demo", "Echo");
    app.fill(DETAIL, "text", "from the sandbox");
    app.invoke();
    app.result("from the sandbox");
}

/// The app with a home of its own and, beside the demo, the prying server (the hostile
/// peer after `targets`) in the sandbox with no network, running.
fn with_prying_sandboxed() -> (App, Targets) {
    let app = App::start_with_own_home();
    app.wait_running("demo");
    let targets = Targets::new();
    let mut config = app.config();
    config["mcpServers"]["prying"] = targets.server_entry(Some("auto"));
    // Written by hand: the app follows its file.
    std::fs::write(app.dir.path().join("config.json"), config.to_string()).expect("written");
    app.wait_running("prying");
    (app, targets)
}

/// A refusal a sandboxed server writes on its standard error is noted in its log as maybe
/// the sandbox's doing, with the way to change its sandbox, which opens its settings.
#[test]
fn a_refusal_of_a_sandboxed_server_is_noted_in_its_log_with_the_way_to_change_it() {
    let (app, _targets) = with_prying_sandboxed();
    let w = &app.window;
    app.open_tool("prying", "poke");
    app.invoke_allowed("prying", "poke");
    app.result("Connection refused");

    app.select_server("prying");
    let note = ".servers-detail .log-line.source-sandbox";
    w.wait_for_text(note, "this may be the sandbox", SHOWN);
    w.scroll_to(note);
    w.screenshot("log-sandbox-note");
    app.press(note, "Change its sandbox…");
    w.wait_for_text(".server-form h2", "Edit prying", SHOWN);
    let sandboxed = w.find(".server-form input[aria-describedby$='-sandbox-hint']");
    assert!(
        w.checked(&sandboxed),
        "the form opens on the sandbox as it is"
    );
}

/// A folder shared from its panel with a running sandboxed server: the log says it starts
/// again to bind it, and it then reads and writes there; made read only, it reads and can
/// change nothing there.
#[test]
fn a_folder_shared_with_a_running_sandboxed_server_is_bound_and_can_be_made_read_only() {
    let (app, targets) = with_prying_sandboxed();
    let w = &app.window;
    app.select_server("prying");
    let root = targets.root.display().to_string();
    let shared = ".servers-detail .shared-folders";
    app.fill(shared, "Folder path", &root);
    app.press(shared, "Add");
    w.wait_for_text(
        &format!("{shared} [aria-label='Folders to share']"),
        &root,
        SHOWN,
    );
    app.press(shared, "Share these folders with prying");
    let rebound = ".servers-detail .log-line.source-sandbox";
    w.wait_for_text(rebound, "it starts again", SHOWN);
    app.wait_running("prying");
    let poke = |shot: &str| {
        app.open_tool("prying", "poke");
        app.invoke_allowed("prying", "poke");
        app.result(&format!(
            "read {}",
            targets.root.join("notes.txt").display()
        ));
        w.screenshot(shot);
    };
    poke("sandbox-folder-shared");
    std::fs::remove_file(targets.written()).expect("written in the shared folder");

    app.select_server("prying");
    let read_only = w.find(&format!("{shared} input[aria-label='Read only: {root}']"));
    w.click(&read_only);
    w.wait_for_all(rebound, "a second start to bind it", SHOWN, |lines| {
        lines
            .iter()
            .filter(|l| l.contains("it starts again"))
            .count()
            == 2
    });
    app.wait_running("prying");
    w.wait_for_text(
        ".servers-detail .sandbox-note",
        "Shared with it (read only)",
        SHOWN,
    );
    // Its shared folders show again once it runs.
    w.wait_for_text(shared, &root, SHOWN);
    w.scroll_to(shared);
    w.screenshot("sandbox-folder-read-only");
    assert_eq!(
        app.config()["settings"]["sharedFolders"][0]["readOnly"],
        json!([root]),
        "kept in the file"
    );
    poke("sandbox-folder-read-only-poked");
    assert!(
        !targets.written().exists(),
        "nothing written in a read-only folder"
    );
}

#[test]
fn a_remote_server_and_a_secret_kept_in_the_keyring_added_through_the_form() {
    let peer = HttpPeer::python_streamable();
    let app = App::start();
    let w = &app.window;
    let form = ".server-form";
    app.wait_running("demo");

    // A Streamable HTTP server, by its URL.
    app.press(".server-list", "Add server");
    app.fill(form, "Server name", "remote");
    w.click(&w.find(&format!("{form} input[type='radio'][value='http']")));
    app.fill(form, "URL", &peer.url);
    w.click(&w.find(&format!("{form} select option[value='streamable_http']")));
    w.screenshot("server-form-http");
    app.press(form, "Add server");
    app.wait_running("remote");
    w.wait_for_texts(&server_row("remote"), &["HTTP", &peer.url], SHOWN);
    w.screenshot("server-remote");
    app.open_tool("remote", "echo");
    app.fill(DETAIL, "Text", "hello over HTTP");
    app.invoke_allowed("remote", "echo");
    app.result("hello over HTTP");
    w.screenshot("remote-tool-result");
    // "Streamable HTTP only", as chosen: no fallback to HTTP+SSE.
    assert_eq!(
        app.config()["mcpServers"]["remote"],
        json!({"url": peer.url, "type": "streamable-http"})
    );

    // A stdio server with a secret environment variable, kept in the keyring.
    let everything = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        everything.exists(),
        "the Node test peers are missing: run scripts/setup"
    );
    let token = format!("token-{}-{}", std::process::id(), line!());
    let secret_name = "everything/env/API_TOKEN";
    assert_eq!(app.keyring_secret(secret_name), None);
    app.view("servers");
    app.press(".server-list", "Add server");
    app.fill(form, "Server name", "everything");
    app.fill(form, "Command", "node");
    app.press(form, "Add argument");
    let first_arg = w.find(&format!("{form} input[aria-label='Argument 1']"));
    w.type_into(&first_arg, everything.to_str().expect("utf-8"), true);
    app.press(form, "Add argument");
    let second_arg = w.find(&format!("{form} input[aria-label='Argument 2']"));
    w.type_into(&second_arg, "stdio", true);
    app.press(form, "Add variable");
    let variable = format!("{form} [role='group'][aria-label='Variable 1']");
    let name = w.find(&format!("{variable} input[aria-label='Name']"));
    w.type_into(&name, "API_TOKEN", true);
    let value = w.find(&format!("{variable} input[aria-label='Value']"));
    w.type_into(&value, &token, true);
    w.click(&w.find(&format!("{variable} input[role='switch']")));
    assert_eq!(
        w.attribute(&value, "type").as_deref(),
        Some("password"),
        "a value for the keyring is not shown"
    );
    // In the sandbox, as every server added now: it gets the variables its entry names, and
    // no other of the app's.
    let sandbox = format!("{form} input[aria-describedby$='-sandbox-hint']");
    assert!(w.checked(&w.find(&sandbox)), "a new server is sandboxed");
    // The field after it, so that the choice and its hint are in sight whole.
    w.scroll_to(&format!("{form} input[id$='-timeout']"));
    w.screenshot("server-form-sandbox");
    w.scroll_to(&variable);
    w.screenshot("server-form-keyring");
    app.press(form, "Add server");

    // server-everything asks for folders as it starts, on its own: it gets none.
    app.review_queued(
        "everything",
        "wants to see your folders",
        "dialog-roots-on-start",
    );
    app.press(DIALOG, "Share nothing");
    app.no_dialog();
    app.wait_running("everything");
    w.wait_for_text(&server_row("everything"), "sandboxed", SHOWN);
    w.screenshot("server-sandboxed");
    assert_eq!(
        app.config()["mcpServers"]["everything"]["sandbox"],
        json!({"network": false})
    );

    // The value is in the keyring, not in the file, and the server received it.
    let written = std::fs::read_to_string(app.dir.path().join("config.json")).expect("config");
    assert!(
        !written.contains(&token),
        "the secret is in the file: {written}"
    );
    assert_eq!(
        app.config()["mcpServers"]["everything"]["env"]["API_TOKEN"],
        json!({"secret": secret_name})
    );
    assert_eq!(
        app.keyring_secret(secret_name).as_deref(),
        Some(token.as_str())
    );
    app.open_tool("everything", "Print Environment Tool");
    app.invoke();
    let shown = app.result(&format!("\"API_TOKEN\": \"{token}\""));
    assert!(
        !shown.contains("DISPLAY"),
        "the app's own variables reached it: {shown}"
    );
    w.screenshot("keyring-env-received");

    // Removing the server deletes its secret from the keyring.
    app.view("servers");
    w.click(&w.find(".server-list button[aria-label='Remove everything']"));
    app.press(
        "[role='group'][aria-label='Remove everything?']",
        "Yes, remove everything",
    );
    w.wait_for_all(
        ".server-list li",
        "the list without everything",
        SHOWN,
        |rows| !rows.is_empty() && rows.iter().all(|r| !r.contains("everything")),
    );
    // The window shows the server gone once the file is written; the keyring follows.
    until("the secret gone from the keyring", || {
        app.keyring_secret(secret_name).is_none()
    });
    drop(peer);
}
