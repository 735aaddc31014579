//! Everything the window offers, from the keyboard alone: no click, only Tab, Shift+Tab,
//! Enter, Escape and typed text on whatever has the focus. A server added through the
//! form; each kind of dialog answered (the focus starts inside it, off the buttons that
//! accept, goes round inside it, and comes back where it was when it closes); a chat
//! message sent; a rule revoked in the Trust view.

use serde_json::json;

use crate::support::keyboard::{ENTER, ESCAPE, Focused};
use crate::support::peer::StandIn;
use crate::support::window::{App, DETAIL, DIALOG, SHOWN, until};

/// What the model drafts for the demo server's sampling request, which the person rewrites.
const DRAFT: &str = "A draft from the model.";
const REPLY: &str = "Hello to you, from the keyboard's model.";

#[test]
fn everything_the_mouse_does_the_keyboard_does_too() {
    let stand_in = StandIn::start(&json!({"turns": [
        {"content": [{"text": DRAFT}]},
        {"content": [{"text": REPLY}]},
    ]}));
    let (providers, settings) = stand_in.configured();
    let app = App::start_with(move |dir| {
        let config = json!({
            "mcpServers": {"demo": {"command": "switchboard-demo-server"}},
            "providers": providers,
            "settings": settings,
        });
        std::fs::write(dir.join("config.json"), config.to_string()).expect("write the config");
        Vec::new()
    });
    let w = &app.window;
    app.wait_running("demo");

    // A server added through the form.
    w.tab_to("Add server");
    w.press_keys(&[ENTER]);
    w.tab_to("Server name");
    w.type_keys("notes");
    w.tab_to("Command");
    w.type_keys("switchboard-demo-server");
    w.tab_to("Add server");
    w.press_keys(&[ENTER]);
    w.wait_for_texts(".server-list li", &["notes", "Running"], SHOWN);

    // The person's own call runs at once.
    open_tool(&app, "Add a note on demo");
    w.tab_to("title");
    w.type_keys("groceries");
    w.tab_to("text");
    w.type_keys("milk");
    w.press_keys(&[ENTER]);
    app.result("groceries");
    app.no_dialog();

    // A call that may destroy something: allowed once. The dialog opens with the focus
    // inside it but off its accepting buttons, so a key pressed as it appears accepts
    // nothing; Tab goes round inside it; closed, it gives the focus back to the field.
    open_tool(&app, "Delete a note on demo");
    w.tab_to("title");
    w.type_keys("groceries");
    w.press_keys(&[ENTER]);
    app.dialog("demo", "may destroy something", "keyboard-dialog-tool-call");
    let first = w.focused().expect("the dialog has the focus");
    assert!(first.in_dialog, "{first:?}");
    assert!(!first.name.starts_with("Allow"), "{first:?}");
    w.button(DIALOG, "Allow once");
    let passed = w.tab_to("Allow once");
    assert_stays_inside(&passed);
    w.press_keys(&[ENTER]);
    app.no_dialog();
    app.result("deleted the note");
    w.wait_for_focus("title", SHOWN);

    // Denied with Escape.
    w.press_keys(&[ENTER]);
    app.dialog("demo", "delete_note", "keyboard-dialog-tool-call-again");
    w.press_keys(&[ESCAPE]);
    app.no_dialog();
    w.wait_for_text(&format!("{DETAIL} [role='alert']"), "denied", SHOWN);

    // Allowed always: a rule the Trust view lists, revoked there.
    w.press_keys(&[ENTER]);
    app.dialog("demo", "delete_note", "keyboard-dialog-tool-call-always");
    w.button(DIALOG, "Always allow this tool");
    w.tab_to("Always allow this tool");
    w.press_keys(&[ENTER]);
    app.no_dialog();
    go_to(&app, "Trust");
    w.wait_for_text(".trust-table", "delete_note", SHOWN);
    w.tab_to("Revoke");
    w.press_keys(&[ENTER]);
    w.wait_for_text(".trust-review", "No rule", SHOWN);

    // Sampling: the request read, the model's draft rewritten and reviewed, then sent.
    open_tool(&app, "Ask the host's model on demo");
    w.tab_to("question");
    w.type_keys("What is MCP?");
    w.press_keys(&[ENTER]);
    app.dialog("demo", "System prompt", "keyboard-dialog-sampling");
    press(&app, "Next: write the reply");
    let reply = w.field(DIALOG, "Your reply");
    until("the model's draft is in the reply", || {
        w.value(&reply) == DRAFT
    });
    w.tab_to("Your reply");
    w.clear_field();
    w.type_keys("An open protocol.");
    press(&app, "Next: review the reply");
    press(&app, "Send reply");
    app.result("An open protocol.");

    // Folders: one typed, added and shared.
    let folder = app.dir.path().join("shared");
    std::fs::create_dir(&folder).expect("folder");
    let folder = folder.to_str().expect("utf-8");
    open_tool(&app, "List shared folders on demo");
    press_invoke(&app);
    app.dialog("demo", "folder", "keyboard-dialog-roots");
    w.tab_to("Folder path");
    w.type_keys(folder);
    press(&app, "Add");
    w.wait_for_text(
        &format!("{DIALOG} [aria-label='Folders to share']"),
        folder,
        SHOWN,
    );
    press(&app, "Share these folders");
    app.result("file://");

    // A form: the focus starts in its first field; Enter submits it.
    open_tool(&app, "Ask you to fill in a form on demo");
    press_invoke(&app);
    app.dialog("demo", "Your name", "keyboard-dialog-form");
    assert!(
        w.focused()
            .is_some_and(|f| f.in_dialog && f.name.starts_with("Your name"))
    );
    w.type_keys("Ada");
    w.button(DIALOG, "Submit");
    w.press_keys(&[ENTER]);
    app.result("Ada");

    // A link: dismissed with Escape (the server is told the person cancelled, as the
    // protocol has it for a dialog closed without a choice), then opened.
    open_tool(&app, "Ask you to open a web page on demo");
    press_invoke(&app);
    app.dialog("demo", "example.com", "keyboard-dialog-url");
    w.press_keys(&[ESCAPE]);
    app.result("cancelled");
    press_invoke(&app);
    app.dialog("demo", "example.com", "keyboard-dialog-url-again");
    press(&app, "Open in browser");
    app.result("accepted");

    // A chat message, sent with Enter.
    go_to(&app, "Chat");
    w.tab_to("Message");
    w.type_keys("Hello?");
    w.screenshot("keyboard-chat-typed");
    w.press_keys(&[ENTER]);
    w.wait_for_text(".chat-messages li[aria-label='Model']", REPLY, SHOWN);
    w.screenshot("keyboard-chat");
}

/// Back to the navigation with Shift+Tab, and into `view` with Enter.
fn go_to(app: &App, view: &str) {
    app.window.tab_back_to(view);
    app.window.press_keys(&[ENTER]);
    app.window.wait_for_text("#view-title", view, SHOWN);
}

/// A tool opened from the Explorer's search: its name typed, its entry reached with Tab.
fn open_tool(app: &App, entry: &str) {
    let w = &app.window;
    go_to(app, "Explorer");
    w.tab_to("Search tools, resources and prompts");
    w.clear_field();
    w.type_keys(entry.split(" on ").next().expect("a tool's name"));
    w.tab_to(entry);
    w.press_keys(&[ENTER]);
    w.wait_for_text(
        &format!("{DETAIL} h2"),
        entry.split(" on ").next().expect("a name"),
        SHOWN,
    );
}

fn press_invoke(app: &App) {
    app.window.button(DETAIL, "Invoke");
    app.window.tab_to("Invoke");
    app.window.press_keys(&[ENTER]);
}

/// A dialog's button, once it may be pressed, reached with Tab inside the dialog and
/// pressed with Enter.
fn press(app: &App, label: &str) {
    app.window.button(DIALOG, label);
    let passed = app.window.tab_to(label);
    assert_stays_inside(&passed);
    app.window.press_keys(&[ENTER]);
}

fn assert_stays_inside(passed: &[Focused]) {
    let out: Vec<&Focused> = passed.iter().filter(|f| !f.in_dialog).collect();
    assert!(out.is_empty(), "Tab left the dialog: {out:?}");
}
