//! A person at the real window, with the bundled demo server and `server-everything`:
//! their own tool call run at once, one that may destroy something approved and denied, a sampling request edited and answered, folders
//! shared, a form answered after a mistake, a link declined and then opened, and a server
//! added through the form. Each dialog is saved as a screenshot under `test-artifacts/`.

use std::path::Path;

use crate::support::window::{App, DETAIL, DIALOG, SHOWN, until};

#[test]
fn every_dialog_with_the_demo_server() {
    let app = App::start();
    let w = &app.window;
    app.wait_running("demo");

    // The person's own call runs at once.
    app.open_tool("demo", "Add a note");
    app.fill(DETAIL, "title", "groceries");
    app.fill(DETAIL, "text", "milk");
    app.invoke();
    app.result("groceries");
    app.no_dialog();

    // One that may destroy something asks first, as the person's own call: allowed once
    // with the argument as typed.
    app.open_tool("demo", "Delete a note");
    app.fill(DETAIL, "title", "groceries");
    app.press(DETAIL, "Invoke");
    app.dialog(
        "demo",
        "Your own call of delete_note on demo may destroy something",
        "dialog-tool-call",
    );
    let arguments = w.value(&w.find(&format!("{DIALOG} textarea")));
    assert!(arguments.contains("groceries"), "{arguments}");
    app.press(DIALOG, "Allow once");
    app.no_dialog();
    app.result("deleted the note");

    // The same call, denied: the person sees it was denied and nothing ran.
    app.press(DETAIL, "Invoke");
    app.dialog("demo", "delete_note", "dialog-tool-call-again");
    app.press(DIALOG, "Deny");
    w.wait_for_text(&format!("{DETAIL} [role='alert']"), "denied", SHOWN);

    // Sampling: the request is edited, the reply written and reviewed, then returned.
    app.open_tool("demo", "Ask the host's model");
    app.fill(DETAIL, "question", "What is MCP?");
    app.invoke();
    app.dialog("demo", "System prompt", "dialog-sampling-request");
    let message = w.field(DIALOG, "Message 1 (user)");
    assert_eq!(w.value(&message), "What is MCP?");
    w.replace_text(&message, "What is the Model Context Protocol?");
    app.press(DIALOG, "Next: write the reply");
    app.fill(
        DIALOG,
        "Your reply",
        "An open protocol that connects models to tools.",
    );
    app.press(DIALOG, "Next: review the reply");
    app.dialog("demo", "Reply to send", "dialog-sampling-reply");
    let reply = w.field(DIALOG, "Reply to send");
    assert_eq!(
        w.value(&reply),
        "An open protocol that connects models to tools."
    );
    app.press(DIALOG, "Send reply");
    app.result("An open protocol that connects models to tools.");

    // Roots: the person shares one folder and the server lists exactly it.
    let folder = app.dir.path().join("shared folder");
    std::fs::create_dir(&folder).expect("folder");
    app.open_tool("demo", "List shared folders");
    app.invoke();
    app.dialog("demo", "folder", "dialog-roots");
    // A folder that does not exist is refused in the dialog, with the reason, before sharing.
    let missing = app.dir.path().join("no such folder");
    app.fill(DIALOG, "Folder path", missing.to_str().expect("utf-8"));
    app.press(DIALOG, "Add");
    let refusal = w.wait_for_text(
        &format!("{DIALOG} [role='alert']"),
        "This folder cannot be shared",
        SHOWN,
    );
    assert!(refusal.ends_with("no such folder"), "{refusal}");
    w.screenshot("dialog-roots-missing-folder");
    app.fill(DIALOG, "Folder path", folder.to_str().expect("utf-8"));
    app.press(DIALOG, "Add");
    // Shared once it is listed, as a person sees it (the host checks it first).
    w.wait_for_text(
        &format!("{DIALOG} [aria-label='Folders to share']"),
        folder.to_str().expect("utf-8"),
        SHOWN,
    );
    app.press(DIALOG, "Share these folders");
    app.result("file://");
    app.result("shared%20folder");

    // The server's page shows what it may see; taking the folder back tells the server.
    app.view("servers");
    w.wait_for_text(".shared-folders", folder.to_str().expect("utf-8"), SHOWN);
    w.screenshot("servers");
    app.press(".shared-folders", "Remove");
    app.press(".shared-folders", "Share these folders with demo");
    app.open_tool("demo", "List shared folders");
    app.invoke();
    app.result("no roots shared");

    // A form: a wrong answer is caught in the dialog, fixed, then sent.
    app.open_tool("demo", "Ask you to fill in a form");
    app.invoke();
    app.dialog("demo", "Your name", "dialog-form");
    app.fill(DIALOG, "Your name", "A");
    app.press(DIALOG, "Submit");
    w.wait_for_text(DIALOG, "At least 2 characters", SHOWN);
    app.window.screenshot("dialog-form-error");
    app.fill(DIALOG, "Your name", "Ada");
    app.press(DIALOG, "Submit");
    app.result("Ada");

    // A link: declined first, then opened in the browser only after the person agreed.
    app.open_tool("demo", "Ask you to open a web page");
    app.invoke();
    app.dialog("demo", "example.com", "dialog-url");
    let host = w.text(&w.find(&format!("{DIALOG} [data-testid='url-host']")));
    assert_eq!(host, "example.com");
    assert!(
        !app.opened.exists(),
        "nothing is opened before the person agrees"
    );
    app.press(DIALOG, "Decline");
    app.result("declined");
    app.invoke();
    app.dialog("demo", "example.com", "dialog-url-again");
    app.press(DIALOG, "Open in browser");
    app.result("accepted");
    // The browser is started in the background; its note may come a moment later.
    until("the browser asked", || app.opened.exists());
    let opened = std::fs::read_to_string(&app.opened).expect("the browser's note");
    assert_eq!(opened.trim(), "https://example.com/demo-consent");
}

#[test]
fn a_server_added_through_the_form_runs_and_answers() {
    let app = App::start();
    let w = &app.window;
    app.wait_running("demo");
    let everything = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        everything.exists(),
        "the Node test peers are missing: run scripts/setup"
    );

    app.press(".server-list", "Add server");
    let form = ".server-form";
    app.fill(form, "Server name", "everything");
    app.fill(form, "Command", "node");
    app.press(form, "Add argument");
    let first_arg = w.find(&format!("{form} input[aria-label='Argument 1']"));
    w.type_into(&first_arg, everything.to_str().expect("utf-8"), true);
    app.press(form, "Add argument");
    let second_arg = w.find(&format!("{form} input[aria-label='Argument 2']"));
    w.type_into(&second_arg, "stdio", true);
    // Outside the sandbox, as the person may choose: a folder shared with it reaches it
    // while it runs (a sandboxed one starts again to see it).
    let sandbox = w.find(&format!("{form} input[aria-describedby$='-sandbox-hint']"));
    assert!(
        w.checked(&sandbox),
        "a new server is sandboxed unless cleared"
    );
    w.click(&sandbox);
    w.screenshot("server-form");
    app.press(form, "Add server");

    w.wait_for_text(".server-list li", "everything", SHOWN);
    w.wait_for_text(".servers-detail", "everything", SHOWN);
    let written = std::fs::read_to_string(app.dir.path().join("config.json")).expect("config");
    assert!(written.contains("server-everything"), "{written}");
    app.wait_running("everything");

    // server-everything asks for roots as soon as it starts, on its own: the person opens
    // the request, shares a folder, and the server reports exactly that folder.
    app.review_queued("everything", "Folder path", "dialog-roots-everything");
    let folder = app.dir.path().join("project");
    std::fs::create_dir(&folder).expect("folder");
    app.fill(DIALOG, "Folder path", folder.to_str().expect("utf-8"));
    app.press(DIALOG, "Add");
    // Shared once it is listed, as a person sees it (the host checks it first).
    w.wait_for_text(
        &format!("{DIALOG} [aria-label='Folders to share']"),
        folder.to_str().expect("utf-8"),
        SHOWN,
    );
    app.press(DIALOG, "Share these folders");
    app.no_dialog();
    app.open_tool("everything", "Get Roots List Tool");
    app.invoke();
    app.result(&format!("file://{}", folder.display()));

    app.open_tool("everything", "Echo Tool");
    app.fill(DETAIL, "message", "hello everything");
    app.invoke();
    app.result("hello everything");
}
