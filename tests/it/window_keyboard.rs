//! Everything the window offers, from the keyboard alone: no click, only Tab, Shift+Tab,
//! Enter, Escape and typed text on whatever has the focus. A server added through the
//! form; each kind of dialog answered (the focus starts inside it, off the buttons that
//! accept, goes round inside it, and comes back where it was when it closes); a chat
//! message sent; a rule revoked in the Trust view. On a system that speaks Chinese, every
//! control reached by its Chinese name: the mouse-driven tests speak English; a person
//! who reads Chinese and uses no mouse is served as well. What the demo server names (its
//! tools' titles, their fields) is its own, and stays as it wrote it.

use serde_json::json;

use crate::support::keyboard::{ENTER, ESCAPE, Focused};
use crate::support::peer::StandIn;
use crate::support::window::{App, DETAIL, DIALOG, SHOWN, system_speaking, until};

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
        system_speaking("zh_CN.UTF-8")
    });
    let w = &app.window;
    app.wait_running("demo");

    // A server added through the form.
    w.tab_to("添加服务器");
    w.press_keys(&[ENTER]);
    w.tab_to("服务器名称");
    w.type_keys("notes");
    w.tab_to("命令");
    w.type_keys("switchboard-demo-server");
    w.tab_to("添加服务器");
    w.press_keys(&[ENTER]);
    w.wait_for_texts(".server-list li", &["notes", "运行中"], SHOWN);

    // The person's own call runs at once.
    open_tool(&app, "Add a note");
    w.tab_to("title");
    w.type_keys("groceries");
    w.tab_to("text");
    w.type_keys("milk");
    w.press_keys(&[ENTER]);
    result(&app, "groceries");
    app.no_dialog();

    // A call that may destroy something: allowed once. The dialog opens with the focus
    // inside it but off its accepting buttons, so a key pressed as it appears accepts
    // nothing; Tab goes round inside it; closed, it gives the focus back to the field.
    open_tool(&app, "Delete a note");
    w.tab_to("title");
    w.type_keys("groceries");
    w.press_keys(&[ENTER]);
    app.dialog("demo", "可能会造成破坏", "keyboard-dialog-tool-call");
    let first = w.focused().expect("the dialog has the focus");
    assert!(first.in_dialog, "{first:?}");
    assert!(!first.name.starts_with("允许"), "{first:?}");
    w.button(DIALOG, "允许一次");
    let passed = w.tab_to("允许一次");
    assert_stays_inside(&passed);
    w.press_keys(&[ENTER]);
    app.no_dialog();
    result(&app, "deleted the note");
    w.wait_for_focus("title", SHOWN);

    // Denied with Escape.
    w.press_keys(&[ENTER]);
    app.dialog("demo", "delete_note", "keyboard-dialog-tool-call-again");
    w.press_keys(&[ESCAPE]);
    app.no_dialog();
    w.wait_for_text(
        &format!("{DETAIL} [role='alert']"),
        "对 delete_note 的调用被拒绝（你）",
        SHOWN,
    );

    // Allowed always: a rule the Trust view lists, revoked there.
    w.press_keys(&[ENTER]);
    app.dialog("demo", "delete_note", "keyboard-dialog-tool-call-always");
    w.button(DIALOG, "始终允许此工具");
    w.tab_to("始终允许此工具");
    w.press_keys(&[ENTER]);
    app.no_dialog();
    go_to(&app, "信任");
    w.wait_for_text(".trust-table", "delete_note", SHOWN);
    w.tab_to("撤销");
    w.press_keys(&[ENTER]);
    w.wait_for_text(".trust-review", "没有规则", SHOWN);

    // Sampling: the request read, the model's draft rewritten and reviewed, then sent.
    open_tool(&app, "Ask the host's model");
    w.tab_to("question");
    w.type_keys("What is MCP?");
    w.press_keys(&[ENTER]);
    app.dialog("demo", "系统提示词", "keyboard-dialog-sampling");
    press(&app, "下一步：撰写回复");
    let reply = w.field(DIALOG, "你的回复");
    until("the model's draft is in the reply", || {
        w.value(&reply) == DRAFT
    });
    w.tab_to("你的回复");
    w.clear_field();
    w.type_keys("An open protocol.");
    press(&app, "下一步：审阅回复");
    press(&app, "发送回复");
    result(&app, "An open protocol.");

    // Folders: one typed, added and shared.
    let folder = app.dir.path().join("shared");
    std::fs::create_dir(&folder).expect("folder");
    let folder = folder.to_str().expect("utf-8");
    open_tool(&app, "List shared folders");
    press_invoke(&app);
    app.dialog("demo", "文件夹", "keyboard-dialog-roots");
    w.tab_to("文件夹路径");
    w.type_keys(folder);
    press(&app, "添加");
    w.wait_for_text(
        &format!("{DIALOG} [aria-label='要共享的文件夹']"),
        folder,
        SHOWN,
    );
    press(&app, "共享这些文件夹");
    result(&app, "file://");

    // A form: the focus starts in its first field; Enter submits it.
    open_tool(&app, "Ask you to fill in a form");
    press_invoke(&app);
    app.dialog("demo", "Your name", "keyboard-dialog-form");
    assert!(
        w.focused()
            .is_some_and(|f| f.in_dialog && f.name.starts_with("Your name"))
    );
    w.type_keys("Ada");
    w.button(DIALOG, "提交");
    w.press_keys(&[ENTER]);
    result(&app, "Ada");

    // A link: dismissed with Escape (the server is told the person cancelled, as the
    // protocol has it for a dialog closed without a choice), then opened.
    open_tool(&app, "Ask you to open a web page");
    press_invoke(&app);
    app.dialog("demo", "example.com", "keyboard-dialog-url");
    w.press_keys(&[ESCAPE]);
    result(&app, "cancelled");
    press_invoke(&app);
    app.dialog("demo", "example.com", "keyboard-dialog-url-again");
    press(&app, "在浏览器中打开");
    result(&app, "accepted");

    // A chat message, sent with Enter.
    go_to(&app, "对话");
    w.tab_to("消息");
    w.type_keys("Hello?");
    w.screenshot("keyboard-chat-typed");
    w.press_keys(&[ENTER]);
    w.wait_for_text(".chat-messages li[aria-label='模型']", REPLY, SHOWN);
    w.screenshot("keyboard-chat");
}

/// Back to the navigation with Shift+Tab, and into `view` with Enter.
fn go_to(app: &App, view: &str) {
    app.window.tab_back_to(view);
    app.window.press_keys(&[ENTER]);
    app.window.wait_for_text("#view-title", view, SHOWN);
}

/// A tool of the demo server opened from the Explorer's search: its title typed, its
/// entry ("Add a note 来自 demo") reached with Tab.
fn open_tool(app: &App, title: &str) {
    let w = &app.window;
    go_to(app, "探索");
    w.tab_to("搜索工具、资源和提示词");
    w.clear_field();
    w.type_keys(title);
    w.tab_to(&format!("{title} 来自 demo"));
    w.press_keys(&[ENTER]);
    w.wait_for_text(&format!("{DETAIL} h2"), title, SHOWN);
}

fn press_invoke(app: &App) {
    app.window.button(DETAIL, "调用");
    app.window.tab_to("调用");
    app.window.press_keys(&[ENTER]);
}

/// The open tool's result, once it shows `wanted`.
fn result(app: &App, wanted: &str) {
    app.window
        .wait_for_text("[aria-label='工具结果']", wanted, SHOWN);
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
